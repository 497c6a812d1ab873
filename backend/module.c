/* SPIR-V module writer: word buffers, result ids, hash maps, and the types and
 * constants of the module (each written once, found again by key). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "be.h"

/* ---- errors ---- */

int wl_fail(wl_em *e, const char *fmt, ...)
{
    if (e->failed)
        return 0;
    e->failed = 1;
    e->status = WL_ERR_INVALID;
    if (e->err && e->errcap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->err, e->errcap, fmt, ap);
        va_end(ap);
    }
    return 0;
}

int wl_fail_nomem(wl_em *e)
{
    if (e->failed)
        return 0;
    wl_fail_nomem(e);
    e->status = WL_ERR_NOMEM;
    return 0;
}

const char *wl_value_name(LLVMValueRef v, char *buf, size_t cap)
{
    size_t len = 0;
    const char *n = LLVMGetValueName2(v, &len);
    if (n && len) {
        snprintf(buf, cap, "%%%.*s", (int)len, n);
        return buf;
    }
    snprintf(buf, cap, "(unnamed)");
    return buf;
}

/* "refused: <why>: `<instruction text>` in function @f" */
int wl_refuse(wl_em *e, LLVMValueRef v, const char *why)
{
    if (e->failed)
        return 0;
    char *text = v && !LLVMIsAFunction(v) ? LLVMPrintValueToString(v) : NULL;
    if (text) {
        char *nl = strchr(text, '\n');
        if (nl)
            *nl = 0;
    }
    size_t fl = 0;
    const char *fname = e->fn ? LLVMGetValueName2(e->fn, &fl) : "";
    const char *t = text ? text : "";
    while (*t == ' ')
        t++;
    wl_fail(e, "outside the host IR profile: %s: `%.200s` in function @%.*s", why, t, (int)fl, fname);
    LLVMDisposeMessage(text);
    return 0;
}

/* ---- word buffers ---- */

void wl_wb_push(wl_em *e, wl_wbuf *b, uint32_t w)
{
    if (b == &e->body)
        e->fresh_id = 0; /* a word after it: it may be in use */
    if (b->n == b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 256;
        uint32_t *nw = realloc(b->w, nc * sizeof *nw);
        if (!nw) {
            wl_fail_nomem(e);
            return;
        }
        b->w = nw;
        b->cap = nc;
    }
    b->w[b->n++] = w;
}

void wl_wb_ins(wl_em *e, wl_wbuf *b, uint32_t op, int n, const uint32_t *ops)
{
    /* a new function, or a new block where no control-flow analysis says
     * which earlier ones dominate it (blockcse.c) */
    if (b == &e->body && (op == SpvOpFunction || op == SpvOpFunctionEnd || (op == SpvOpLabel && !e->cfg)))
        wl_cse_clear(e);
    wl_wb_push(e, b, ((uint32_t)(n + 1) << 16) | op);
    for (int i = 0; i < n; i++)
        wl_wb_push(e, b, ops[i]);
}

/* An instruction with a literal string operand after `first` (0: none). */
void wl_wb_str(wl_em *e, wl_wbuf *b, uint32_t op, uint32_t first, const char *s, size_t len)
{
    size_t nw = len / 4 + 1;
    wl_wb_push(e, b, ((uint32_t)(1 + (first ? 1 : 0) + nw) << 16) | op);
    if (first)
        wl_wb_push(e, b, first);
    for (size_t i = 0; i < nw; i++) {
        uint32_t w = 0;
        for (size_t j = 0; j < 4; j++) {
            size_t k = i * 4 + j;
            if (k < len)
                w |= (uint32_t)(uint8_t)s[k] << (8 * j);
        }
        wl_wb_push(e, b, w);
    }
}

uint32_t wl_id(wl_em *e) { return e->next_id++; }

void wl_op_to(wl_em *e, uint32_t id, uint32_t opc, uint32_t ty, int n, const uint32_t *ops)
{
    wl_wb_push(e, &e->body, ((uint32_t)(n + 3) << 16) | opc);
    wl_wb_push(e, &e->body, ty);
    wl_wb_push(e, &e->body, id);
    for (int i = 0; i < n; i++)
        wl_wb_push(e, &e->body, ops[i]);
}

uint32_t wl_op(wl_em *e, uint32_t opc, uint32_t ty, int n, const uint32_t *ops)
{
    uint32_t same = wl_cse_find(e, opc, ty, n, ops); /* blockcse.c */
    if (same)
        return same;
    uint32_t id = wl_id(e);
    size_t at = e->body.n;
    wl_op_to(e, id, opc, ty, n, ops);
    if (e->body.n == at + 3 + (size_t)n) { /* written (not out of memory) */
        e->fresh_id = id;
        e->fresh_pos = at + 2;
        wl_cse_note(e, opc, ty, n, ops, id);
    }
    return id;
}

void wl_cap(wl_em *e, uint32_t cap)
{
    for (int i = 0; i < e->ncaps; i++)
        if (e->caps[i] == cap)
            return;
    if (e->ncaps < (int)(sizeof e->caps / sizeof e->caps[0]))
        e->caps[e->ncaps++] = cap;
    switch (cap) {
    case SpvCapInt8: e->info.features |= WL_FEAT_INT8; break;
    case SpvCapInt16: e->info.features |= WL_FEAT_INT16; break;
    case SpvCapInt64: e->info.features |= WL_FEAT_INT64; break;
    case SpvCapFloat16: e->info.features |= WL_FEAT_FLOAT16; break;
    case SpvCapFloat64: e->info.features |= WL_FEAT_FLOAT64; break;
    case SpvCapInt64Atomics: e->info.features |= WL_FEAT_INT64_ATOMICS; break;
    case SpvCapStorageBuffer8BitAccess: e->info.features |= WL_FEAT_STORAGE8; break;
    case SpvCapStorageBuffer16BitAccess: e->info.features |= WL_FEAT_STORAGE16; break;
    case SpvCapPhysicalStorageBufferAddresses: e->info.features |= WL_FEAT_BDA; break;
    case SpvCapGroupNonUniform: e->info.features |= WL_FEAT_SUBGROUP_BASIC; break;
    case SpvCapGroupNonUniformVote: e->info.features |= WL_FEAT_SUBGROUP_VOTE; break;
    case SpvCapGroupNonUniformBallot: e->info.features |= WL_FEAT_SUBGROUP_BALLOT; break;
    case SpvCapGroupNonUniformShuffle: e->info.features |= WL_FEAT_SUBGROUP_SHUFFLE; break;
    case SpvCapGroupNonUniformArithmetic: e->info.features |= WL_FEAT_SUBGROUP_ARITH; break;
    case SpvCapGroupNonUniformShuffleRelative: e->info.features |= WL_FEAT_SUBGROUP_RELATIVE; break;
    default: break;
    }
}

uint32_t wl_glsl_import(wl_em *e)
{
    if (!e->glsl)
        e->glsl = wl_id(e);
    return e->glsl;
}

uint32_t wl_glsl(wl_em *e, uint32_t ty, uint32_t inst, int n, const uint32_t *args)
{
    uint32_t ops[8];
    ops[0] = wl_glsl_import(e);
    ops[1] = inst;
    for (int i = 0; i < n && i < 6; i++)
        ops[2 + i] = args[i];
    return wl_op(e, SpvOpExtInst, ty, n + 2, ops);
}

/* ---- hash maps ---- */

static size_t ptr_hash(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x;
}

wl_pent *wl_pmap_get(wl_pmap *m, const void *key)
{
    if (!m->cap)
        return NULL;
    size_t mask = m->cap - 1;
    for (size_t i = ptr_hash(key) & mask;; i = (i + 1) & mask) {
        if (m->e[i].key == key)
            return &m->e[i];
        if (!m->e[i].key)
            return NULL;
    }
}

wl_pent *wl_pmap_put(wl_em *e, wl_pmap *m, const void *key)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 64;
        wl_pent *ne = calloc(nc, sizeof *ne);
        if (!ne) {
            wl_fail_nomem(e);
            return NULL;
        }
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->e[i].key)
                continue;
            size_t j = ptr_hash(m->e[i].key) & (nc - 1);
            while (ne[j].key)
                j = (j + 1) & (nc - 1);
            ne[j] = m->e[i];
        }
        free(m->e);
        m->e = ne;
        m->cap = nc;
    }
    size_t mask = m->cap - 1;
    size_t i = ptr_hash(key) & mask;
    while (m->e[i].key && m->e[i].key != key)
        i = (i + 1) & mask;
    if (!m->e[i].key) {
        m->e[i].key = key;
        m->e[i].a = m->e[i].b = 0;
        m->n++;
    }
    return &m->e[i];
}

void wl_pmap_free(wl_pmap *m)
{
    free(m->e);
    m->e = NULL;
    m->cap = m->n = 0;
}

static size_t key_hash(const uint32_t *k)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < 6; i++) {
        h ^= k[i];
        h *= 1099511628211ull;
    }
    return (size_t)(h ^ (h >> 29));
}

/* Finds the id for a key; 0 if absent. *slot gets where to store it. */
static uint32_t kmap_find(wl_em *e, const uint32_t k[6], wl_kent **slot)
{
    wl_kmap *m = &e->keys;
    *slot = NULL;
    if ((m->n + 1) * 2 > m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 256;
        wl_kent *ne = calloc(nc, sizeof *ne);
        if (!ne) {
            wl_fail_nomem(e);
            return 0;
        }
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->e[i].val)
                continue;
            size_t j = key_hash(m->e[i].k) & (nc - 1);
            while (ne[j].val)
                j = (j + 1) & (nc - 1);
            ne[j] = m->e[i];
        }
        free(m->e);
        m->e = ne;
        m->cap = nc;
    }
    size_t mask = m->cap - 1;
    for (size_t i = key_hash(k) & mask;; i = (i + 1) & mask) {
        if (!m->e[i].val) {
            *slot = &m->e[i];
            return 0;
        }
        if (!memcmp(m->e[i].k, k, sizeof m->e[i].k))
            return m->e[i].val;
    }
}

static void kmap_set(wl_em *e, wl_kent *slot, const uint32_t k[6], uint32_t id)
{
    if (!slot)
        return;
    memcpy(slot->k, k, sizeof slot->k);
    slot->val = id;
    e->keys.n++;
}

/* A type or constant instruction in the types section, found by key:
 * k[0] is the opcode, k[1..] its operands after the result id
 * (constants: k[1] is the result type). */
static uint32_t keyed(wl_em *e, uint32_t k0, uint32_t k1, uint32_t k2, uint32_t k3, int nops)
{
    uint32_t k[6] = {k0, k1, k2, k3, (uint32_t)nops, 0};
    wl_kent *slot;
    uint32_t id = kmap_find(e, k, &slot);
    if (id || e->failed)
        return id;
    id = wl_id(e);
    uint32_t ops[3] = {k1, k2, k3};
    int is_const = k0 == SpvOpConstant || k0 == SpvOpConstantNull || k0 == SpvOpUndef ||
                   k0 == SpvOpConstantTrue || k0 == SpvOpConstantFalse ||
                   k0 == SpvOpConstantComposite;
    if (is_const) {
        /* OpConstant <type> <id> <literal...> */
        wl_wb_push(e, &e->types, ((uint32_t)(nops + 3) << 16) | k0);
        wl_wb_push(e, &e->types, k1);
        wl_wb_push(e, &e->types, id);
        for (int i = 1; i < nops + 1 && i < 3; i++)
            wl_wb_push(e, &e->types, ops[i]);
    } else {
        wl_wb_push(e, &e->types, ((uint32_t)(nops + 2) << 16) | k0);
        wl_wb_push(e, &e->types, id);
        for (int i = 0; i < nops; i++)
            wl_wb_push(e, &e->types, ops[i]);
    }
    kmap_set(e, slot, k, id);
    return id;
}

/* ---- types ---- */

uint32_t wl_ty_void(wl_em *e) { return keyed(e, SpvOpTypeVoid, 0, 0, 0, 0); }
uint32_t wl_ty_bool(wl_em *e) { return keyed(e, SpvOpTypeBool, 0, 0, 0, 0); }

uint32_t wl_ty_int(wl_em *e, uint32_t width)
{
    if (width == 8)
        wl_cap(e, SpvCapInt8);
    else if (width == 16)
        wl_cap(e, SpvCapInt16);
    else if (width == 64)
        wl_cap(e, SpvCapInt64);
    return keyed(e, SpvOpTypeInt, width, 0, 0, 2);
}

uint32_t wl_ty_float(wl_em *e, uint32_t width)
{
    if (width == 16)
        wl_cap(e, SpvCapFloat16);
    else if (width == 64)
        wl_cap(e, SpvCapFloat64);
    else if (width == 32)
        e->uses_f32 = 1;
    return keyed(e, SpvOpTypeFloat, width, 0, 0, 1);
}

uint32_t wl_ty_vec(wl_em *e, uint32_t comp, uint32_t n) { return keyed(e, SpvOpTypeVector, comp, n, 0, 2); }
uint32_t wl_ty_ptr(wl_em *e, uint32_t sc, uint32_t pointee) { return keyed(e, SpvOpTypePointer, sc, pointee, 0, 2); }
/* one OpTypeArray per element type and length (arrays are aggregates:
 * SPIR-V allows repeats, but each costs words) */
uint32_t wl_ty_array(wl_em *e, uint32_t el, uint32_t n) { return keyed(e, SpvOpTypeArray, el, wl_c_u32(e, n), 0, 2); }
uint32_t wl_ty_struct2(wl_em *e, uint32_t a, uint32_t b) { return keyed(e, SpvOpTypeStruct, a, b, 0, 2); }

int wl_is_int(LLVMTypeRef t, unsigned *width)
{
    if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind)
        return 0;
    if (width)
        *width = LLVMGetIntTypeWidth(t);
    return 1;
}

int wl_ptr_space(LLVMTypeRef t)
{
    if (LLVMGetTypeKind(t) != LLVMPointerTypeKind)
        return -1;
    return (int)LLVMGetPointerAddressSpace(t);
}

unsigned wl_vec_len(LLVMTypeRef t)
{
    return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetVectorSize(t) : 0;
}

unsigned wl_scalar_bits(LLVMTypeRef t)
{
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
        t = LLVMGetElementType(t);
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind: return LLVMGetIntTypeWidth(t);
    case LLVMHalfTypeKind: return 16;
    case LLVMFloatTypeKind: return 32;
    case LLVMDoubleTypeKind: return 64;
    case LLVMPointerTypeKind: return LLVMGetPointerAddressSpace(t) == 1 ? 64 : 32;
    default: return 0;
    }
}

static uint32_t ty_llvm_uncached(wl_em *e, LLVMTypeRef t)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMVoidTypeKind: return wl_ty_void(e);
    case LLVMIntegerTypeKind: {
        unsigned w = LLVMGetIntTypeWidth(t);
        if (w == 1)
            return wl_ty_bool(e);
        if (w == 8 || w == 16 || w == 32 || w == 64)
            return wl_ty_int(e, w);
        return 0;
    }
    case LLVMHalfTypeKind: return wl_ty_float(e, 16);
    case LLVMFloatTypeKind: return wl_ty_float(e, 32);
    case LLVMDoubleTypeKind: return wl_ty_float(e, 64);
    case LLVMPointerTypeKind:
        /* device addresses are 64-bit integers; the word-memory pointers
         * are 32-bit byte offsets into their object */
        return wl_ty_int(e, LLVMGetPointerAddressSpace(t) == 1 ? 64 : 32);
    case LLVMVectorTypeKind: {
        unsigned n = LLVMGetVectorSize(t);
        if (n < 2 || n > 4)
            return 0;
        LLVMTypeRef el = LLVMGetElementType(t);
        if (LLVMGetTypeKind(el) == LLVMPointerTypeKind)
            return 0;
        uint32_t c = wl_ty_llvm(e, el);
        return c ? wl_ty_vec(e, c, n) : 0;
    }
    case LLVMArrayTypeKind: {
        uint64_t n = LLVMGetArrayLength2(t);
        uint32_t el = wl_ty_llvm(e, LLVMGetElementType(t));
        if (!el || n == 0 || n > 0xffffffffu)
            return 0;
        return wl_ty_array(e, el, (uint32_t)n);
    }
    case LLVMStructTypeKind: {
        unsigned n = LLVMCountStructElementTypes(t);
        if (n == 0 || n > 64)
            return 0;
        uint32_t m[64];
        for (unsigned i = 0; i < n; i++) {
            m[i] = wl_ty_llvm(e, LLVMStructGetTypeAtIndex(t, i));
            if (!m[i])
                return 0;
        }
        uint32_t id = wl_id(e);
        wl_wb_push(e, &e->types, ((uint32_t)(n + 2) << 16) | SpvOpTypeStruct);
        wl_wb_push(e, &e->types, id);
        for (unsigned i = 0; i < n; i++)
            wl_wb_push(e, &e->types, m[i]);
        return id;
    }
    default: return 0;
    }
}

/* The SPIR-V type of an LLVM value type; 0 (no error set) if it has none. */
uint32_t wl_ty_llvm(wl_em *e, LLVMTypeRef t)
{
    wl_pent *p = wl_pmap_get(&e->tys, t);
    if (p)
        return p->a;
    uint32_t id = ty_llvm_uncached(e, t);
    p = wl_pmap_put(e, &e->tys, t);
    if (p)
        p->a = id;
    return id;
}

/* ---- constants ---- */

uint32_t wl_c_int(wl_em *e, uint32_t width, uint64_t v)
{
    uint32_t ty = wl_ty_int(e, width);
    if (width < 64)
        v &= (1ull << width) - 1;
    if (width == 64)
        return keyed(e, SpvOpConstant, ty, (uint32_t)v, (uint32_t)(v >> 32), 2);
    return keyed(e, SpvOpConstant, ty, (uint32_t)v, 0, 1);
}

uint32_t wl_c_u32(wl_em *e, uint32_t v) { return wl_c_int(e, 32, v); }

uint32_t wl_c_bool(wl_em *e, int v)
{
    return keyed(e, v ? SpvOpConstantTrue : SpvOpConstantFalse, wl_ty_bool(e), 0, 0, 0);
}

uint32_t wl_c_null(wl_em *e, uint32_t ty) { return keyed(e, SpvOpConstantNull, ty, 0, 0, 0); }
/* An undefined or poison LLVM value of type t (SPIR-V type ty): zero,
 * OpUndef only for pointers (no null constant for them in Vulkan).
 * NVIDIA's compiler (H100, driver 580.159.04) miscompiled a loop whose
 * exit path gave its phis OpUndef, although no undefined value reached a
 * use: glsl_compact at k = 2 summed wrongly, and the same module with
 * every OpUndef a null constant matched (docs/backend.md). */
uint32_t wl_c_undef(wl_em *e, LLVMTypeRef t, uint32_t ty)
{
    LLVMTypeRef el = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
    int ptr = LLVMGetTypeKind(el) == LLVMPointerTypeKind;
    return keyed(e, ptr ? SpvOpUndef : SpvOpConstantNull, ty, 0, 0, 0);
}

uint32_t wl_c_fbits(wl_em *e, uint32_t width, uint64_t bits)
{
    uint32_t ty = wl_ty_float(e, width);
    if (width == 64)
        return keyed(e, SpvOpConstant, ty, (uint32_t)bits, (uint32_t)(bits >> 32), 2);
    return keyed(e, SpvOpConstant, ty, (uint32_t)bits, 0, 1);
}

static uint16_t double_to_half(double d)
{
    float f = (float)d;
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000;
    int exp = (int)((x >> 23) & 0xff);
    uint32_t man = x & 0x7fffff;
    if (exp == 0xff)
        return (uint16_t)(sign | 0x7c00 | (man ? 0x200 | (man >> 13) : 0));
    int e16 = exp - 127 + 15;
    if (e16 >= 31)
        return (uint16_t)(sign | 0x7c00);
    if (e16 <= 0) {
        if (e16 < -10)
            return (uint16_t)sign;
        man |= 0x800000;
        int shift = 14 - e16;
        uint32_t h = man >> shift;
        uint32_t rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1)))
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)e16 << 10) | (man >> 13);
    uint32_t rem = man & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
        h++;
    return (uint16_t)(sign | h);
}

uint32_t wl_c_float(wl_em *e, uint32_t width, double v)
{
    if (width == 64) {
        uint64_t b;
        memcpy(&b, &v, 8);
        return wl_c_fbits(e, 64, b);
    }
    if (width == 32) {
        float f = (float)v;
        uint32_t b;
        memcpy(&b, &f, 4);
        return wl_c_fbits(e, 32, b);
    }
    return wl_c_fbits(e, 16, double_to_half(v));
}

uint32_t wl_c_splat(wl_em *e, uint32_t vty, uint32_t n, uint32_t s)
{
    if (n == 2)
        return keyed(e, SpvOpConstantComposite, vty, s, s, 2);
    uint32_t id = wl_id(e);
    wl_wb_push(e, &e->types, ((uint32_t)(n + 3) << 16) | SpvOpConstantComposite);
    wl_wb_push(e, &e->types, vty);
    wl_wb_push(e, &e->types, id);
    for (uint32_t i = 0; i < n; i++)
        wl_wb_push(e, &e->types, s);
    return id;
}

/* A plain LLVM constant (no globals, no expressions) as a SPIR-V constant. */
uint32_t wl_const(wl_em *e, LLVMValueRef c)
{
    LLVMTypeRef t = LLVMTypeOf(c);
    uint32_t ty = wl_ty_llvm(e, t);
    if (!ty) {
        wl_refuse(e, c, "constant of a type outside the profile");
        return 0;
    }
    switch (LLVMGetValueKind(c)) {
    case LLVMConstantIntValueKind: {
        unsigned w = LLVMGetIntTypeWidth(t);
        uint64_t v = LLVMConstIntGetZExtValue(c);
        if (w == 1)
            return wl_c_bool(e, (int)(v & 1));
        return wl_c_int(e, w, v);
    }
    case LLVMConstantFPValueKind: {
        LLVMBool loses = 0;
        double d = LLVMConstRealGetDouble(c, &loses);
        return wl_c_float(e, wl_scalar_bits(t), d);
    }
    case LLVMConstantAggregateZeroValueKind:
    case LLVMConstantPointerNullValueKind:
        return wl_c_null(e, ty);
    case LLVMUndefValueValueKind:
    case LLVMPoisonValueValueKind:
        return wl_c_undef(e, t, ty);
    case LLVMConstantDataVectorValueKind:
    case LLVMConstantVectorValueKind:
    case LLVMConstantDataArrayValueKind:
    case LLVMConstantArrayValueKind:
    case LLVMConstantStructValueKind: {
        unsigned n;
        LLVMTypeKind k = LLVMGetTypeKind(t);
        if (k == LLVMVectorTypeKind)
            n = LLVMGetVectorSize(t);
        else if (k == LLVMArrayTypeKind)
            n = (unsigned)LLVMGetArrayLength2(t);
        else
            n = LLVMCountStructElementTypes(t);
        if (n > 4096) {
            wl_refuse(e, c, "constant aggregate too large");
            return 0;
        }
        uint32_t *el = malloc((n + 1) * sizeof *el);
        if (!el) {
            wl_fail_nomem(e);
            return 0;
        }
        for (unsigned i = 0; i < n; i++) {
            LLVMValueRef x = LLVMGetAggregateElement(c, i);
            el[i] = x ? wl_const(e, x) : 0;
            if (!el[i]) {
                free(el);
                return wl_refuse(e, c, "constant aggregate with a non-constant element");
            }
        }
        uint32_t id;
        if (n == 2) {
            id = keyed(e, SpvOpConstantComposite, ty, el[0], el[1], 2);
        } else {
            id = wl_id(e);
            wl_wb_push(e, &e->types, ((uint32_t)(n + 3) << 16) | SpvOpConstantComposite);
            wl_wb_push(e, &e->types, ty);
            wl_wb_push(e, &e->types, id);
            for (unsigned i = 0; i < n; i++)
                wl_wb_push(e, &e->types, el[i]);
        }
        free(el);
        return id;
    }
    default:
        wl_refuse(e, c, "constant kind outside the profile");
        return 0;
    }
}

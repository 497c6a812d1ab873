/* The lifter's register state and operand helpers (lift_internal.h).
 *
 * Scalar registers (s0..s105, vcc_lo/hi, exec_lo/hi, m0: i32; scc: i1) and
 * VGPRs (i32 with !wl.vgpr) are allocas in the entry block, made on first
 * use together with a store of 0 (hardware leaves them undefined; 0 keeps the
 * IR free of undef). The launch state (lift.c) is stored after them in the
 * entry block. VGPR writes go under EXEC as selects (docs/wave-ir.md rule 2).
 *
 * Errors inside value helpers: a helper that cannot produce a value (a ttmp
 * or an unknown special register) records the refusal through wl_l_refuse
 * and returns a zero constant; lift.c checks L->err after every instruction,
 * so such an instruction is refused, never mistranslated. */
#include "lift_internal.h"
#include "ir/wave_ir.h"

#include <stdio.h>
#include <string.h>

wl_status wl_l_refuse(wl_lifter *L, const char *why)
{
    if (L->err && L->errcap && L->err[0] == '\0') {
        const wl_inst *in = L->inst;
        snprintf(L->err, L->errcap, "unsupported instruction %s at offset 0x%llx: %s",
                 in && in->name ? in->name : "?",
                 in ? (unsigned long long)in->offset : 0ull, why);
    }
    return WL_ERR_UNSUPPORTED;
}

LLVMValueRef wl_l_i32c(wl_lifter *L, uint32_t v) { return LLVMConstInt(L->i32, v, 0); }
LLVMValueRef wl_l_i64c(wl_lifter *L, uint64_t v) { return LLVMConstInt(L->i64, v, 0); }

LLVMValueRef wl_l_intrin(wl_lifter *L, const char *name, LLVMTypeRef *tys, unsigned ntys, LLVMValueRef *args,
                         unsigned nargs)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(L->mod, id, tys, ntys);
    return LLVMBuildCall2(L->b, LLVMIntrinsicGetType(L->ctx, id, tys, ntys), f, args, nargs, "");
}

LLVMValueRef wl_l_call(wl_lifter *L, const char *name, LLVMTypeRef ret,
                       LLVMValueRef *args, unsigned nargs)
{
    LLVMTypeRef at[8];
    if (nargs > 8)
        nargs = 8;
    for (unsigned i = 0; i < nargs; i++)
        at[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef ft = LLVMFunctionType(ret, at, nargs, 0);
    LLVMValueRef f = LLVMGetNamedFunction(L->mod, name);
    if (!f) {
        f = LLVMAddFunction(L->mod, name, ft);
        LLVMSetLinkage(f, LLVMExternalLinkage);
    } else {
        ft = LLVMGlobalGetValueType(f);
    }
    return LLVMBuildCall2(L->b, ft, f, args, nargs, "");
}

/* An alloca in the entry block (before its terminator, once it has one),
 * initialized to zero. */
LLVMValueRef wl_l_entry_alloca(wl_lifter *L, LLVMTypeRef t, const char *name, int vgpr)
{
    LLVMBuilderRef eb = LLVMCreateBuilderInContext(L->ctx);
    LLVMValueRef term = LLVMGetBasicBlockTerminator(L->entry);
    if (term)
        LLVMPositionBuilderBefore(eb, term);
    else
        LLVMPositionBuilderAtEnd(eb, L->entry);
    LLVMValueRef a = LLVMBuildAlloca(eb, t, name);
    if (vgpr) {
        unsigned kind = LLVMGetMDKindIDInContext(L->ctx, WL_WIR_VGPR_MD,
                                                 (unsigned)strlen(WL_WIR_VGPR_MD));
        LLVMSetMetadata(a, kind, LLVMMetadataAsValue(L->ctx, LLVMMDNodeInContext2(L->ctx, NULL, 0)));
    }
    LLVMBuildStore(eb, LLVMConstNull(t), a);
    LLVMDisposeBuilder(eb);
    return a;
}

/* The alloca of a 32-bit scalar register encoding, or NULL (null, or an
 * encoding with no storage: refused). */
static LLVMValueRef sreg_slot(wl_lifter *L, unsigned enc, int *is_null)
{
    char name[16];
    *is_null = 0;
    if (enc <= WL_SRC_SGPR_MAX) {
        if (!L->sgpr[enc]) {
            snprintf(name, sizeof name, "s%u", enc);
            L->sgpr[enc] = wl_l_entry_alloca(L, L->i32, name, 0);
        }
        return L->sgpr[enc];
    }
    LLVMValueRef *slot = NULL;
    const char *nm = NULL;
    switch (enc) {
    case WL_SRC_VCC_LO: slot = &L->vcc[0]; nm = "vcc_lo"; break;
    case WL_SRC_VCC_HI: slot = &L->vcc[1]; nm = "vcc_hi"; break;
    case WL_SRC_EXEC_LO: slot = &L->exec[0]; nm = "exec_lo"; break;
    case WL_SRC_EXEC_HI: slot = &L->exec[1]; nm = "exec_hi"; break;
    case WL_SRC_M0: slot = &L->m0; nm = "m0"; break;
    case WL_SRC_NULL: *is_null = 1; return NULL;
    default:
        if (enc >= WL_SRC_TTMP0 && enc < WL_SRC_TTMP0 + 16)
            wl_l_refuse(L, "trap temporary registers (ttmp) are not available to compute programs");
        else
            wl_l_refuse(L, "scalar register encoding not supported");
        return NULL;
    }
    if (!*slot)
        *slot = wl_l_entry_alloca(L, L->i32, nm, 0);
    return *slot;
}

LLVMValueRef wl_l_get_s32(wl_lifter *L, unsigned enc)
{
    int is_null;
    LLVMValueRef a = sreg_slot(L, enc, &is_null);
    if (!a)
        return wl_l_i32c(L, 0);
    return LLVMBuildLoad2(L->b, L->i32, a, "");
}

void wl_l_set_s32(wl_lifter *L, unsigned enc, LLVMValueRef v)
{
    int is_null;
    LLVMValueRef a = sreg_slot(L, enc, &is_null);
    if (a)
        LLVMBuildStore(L->b, v, a);
}

static LLVMValueRef join64(wl_lifter *L, LLVMValueRef lo, LLVMValueRef hi)
{
    LLVMValueRef l = LLVMBuildZExt(L->b, lo, L->i64, "");
    LLVMValueRef h = LLVMBuildShl(L->b, LLVMBuildZExt(L->b, hi, L->i64, ""), wl_l_i64c(L, 32), "");
    return LLVMBuildOr(L->b, l, h, "");
}

static LLVMValueRef lo32(wl_lifter *L, LLVMValueRef v)
{
    return LLVMBuildTrunc(L->b, v, L->i32, "");
}

static LLVMValueRef hi32(wl_lifter *L, LLVMValueRef v)
{
    return LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, v, wl_l_i64c(L, 32), ""), L->i32, "");
}

LLVMValueRef wl_l_get_s64(wl_lifter *L, unsigned enc)
{
    if (enc == WL_SRC_NULL)
        return wl_l_i64c(L, 0);
    return join64(L, wl_l_get_s32(L, enc), wl_l_get_s32(L, enc + 1));
}

void wl_l_set_s64(wl_lifter *L, unsigned enc, LLVMValueRef v)
{
    if (enc == WL_SRC_NULL)
        return;
    wl_l_set_s32(L, enc, lo32(L, v));
    wl_l_set_s32(L, enc + 1, hi32(L, v));
}

LLVMValueRef wl_l_get_scc(wl_lifter *L)
{
    if (!L->scc)
        L->scc = wl_l_entry_alloca(L, L->i1, "scc", 0);
    return LLVMBuildLoad2(L->b, L->i1, L->scc, "");
}

void wl_l_set_scc(wl_lifter *L, LLVMValueRef v)
{
    if (!L->scc)
        L->scc = wl_l_entry_alloca(L, L->i1, "scc", 0);
    LLVMBuildStore(L->b, v, L->scc);
}

static LLVMValueRef get_mask_reg(wl_lifter *L, unsigned enc)
{
    if (L->wave == 32)
        return LLVMBuildZExt(L->b, wl_l_get_s32(L, enc), L->i64, "");
    return wl_l_get_s64(L, enc);
}

static void set_mask_reg(wl_lifter *L, unsigned enc, LLVMValueRef m)
{
    if (L->wave == 32)
        wl_l_set_s32(L, enc, lo32(L, m));
    else
        wl_l_set_s64(L, enc, m);
}

LLVMValueRef wl_l_exec(wl_lifter *L) { return get_mask_reg(L, WL_SRC_EXEC_LO); }
LLVMValueRef wl_l_vcc(wl_lifter *L) { return get_mask_reg(L, WL_SRC_VCC_LO); }
void wl_l_set_exec(wl_lifter *L, LLVMValueRef m) { set_mask_reg(L, WL_SRC_EXEC_LO, m); }
void wl_l_set_vcc(wl_lifter *L, LLVMValueRef m) { set_mask_reg(L, WL_SRC_VCC_LO, m); }

/* The raw scalar encoding of a register operand, or -1 (refused). */
static int opnd_enc(wl_lifter *L, const wl_operand *o)
{
    switch (o->kind) {
    case WL_OPND_SGPR:
        return o->index <= WL_SRC_SGPR_MAX ? (int)o->index : -1;
    case WL_OPND_SPECIAL:
        return (int)o->index;
    case WL_OPND_TTMP:
        wl_l_refuse(L, "trap temporary registers (ttmp) are not available to compute programs");
        return -1;
    default:
        wl_l_refuse(L, "operand is not a scalar register");
        return -1;
    }
}

LLVMValueRef wl_l_get_mask(wl_lifter *L, const wl_operand *o)
{
    if (o->kind == WL_OPND_INLINE || o->kind == WL_OPND_LITERAL) {
        if (L->wave == 32)
            return LLVMBuildZExt(L->b, wl_l_src32(L, o, WL_IMM_B32), L->i64, "");
        return wl_l_src64(L, o, WL_IMM_B64);
    }
    int e = opnd_enc(L, o);
    if (e < 0)
        return wl_l_i64c(L, 0);
    return get_mask_reg(L, (unsigned)e);
}

void wl_l_set_mask(wl_lifter *L, const wl_operand *o, LLVMValueRef m)
{
    int e = opnd_enc(L, o);
    if (e >= 0)
        set_mask_reg(L, (unsigned)e, m);
}

/* VGPRs */

static LLVMValueRef vgpr_slot(wl_lifter *L, unsigned v)
{
    if (v > 255) {
        wl_l_refuse(L, "VGPR index out of range");
        return NULL;
    }
    if (!L->vgpr[v]) {
        char name[8];
        snprintf(name, sizeof name, "v%u", v);
        L->vgpr[v] = wl_l_entry_alloca(L, L->i32, name, 1);
    }
    return L->vgpr[v];
}

LLVMValueRef wl_l_get_v32(wl_lifter *L, unsigned v)
{
    LLVMValueRef a = vgpr_slot(L, v);
    if (!a)
        return wl_l_i32c(L, 0);
    return LLVMBuildLoad2(L->b, L->i32, a, "");
}

LLVMValueRef wl_l_active(wl_lifter *L)
{
    LLVMValueRef ex = wl_l_exec(L);
    return wl_l_call(L, "wl.lane_active", L->i1, &ex, 1);
}

void wl_l_set_v32_if(wl_lifter *L, unsigned v, LLVMValueRef val, LLVMValueRef pred)
{
    LLVMValueRef a = vgpr_slot(L, v);
    if (!a)
        return;
    LLVMValueRef old = LLVMBuildLoad2(L->b, L->i32, a, "");
    LLVMBuildStore(L->b, LLVMBuildSelect(L->b, pred, val, old, ""), a);
}

void wl_l_set_v32(wl_lifter *L, unsigned v, LLVMValueRef val)
{
    wl_l_set_v32_if(L, v, val, wl_l_active(L));
}

LLVMValueRef wl_l_get_v64(wl_lifter *L, unsigned v)
{
    return join64(L, wl_l_get_v32(L, v), wl_l_get_v32(L, v + 1));
}

void wl_l_set_v64(wl_lifter *L, unsigned v, LLVMValueRef val)
{
    LLVMValueRef act = wl_l_active(L);
    wl_l_set_v32_if(L, v, lo32(L, val), act);
    wl_l_set_v32_if(L, v + 1, hi32(L, val), act);
}

/* Constants */

/* The inline float constants 240..248 (0.5, -0.5, 1, -1, 2, -2, 4, -4, 1/(2pi)). */
static const uint32_t inl_f32[9] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                                    0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};
static const uint64_t inl_f64[9] = {0x3fe0000000000000ull, 0xbfe0000000000000ull,
                                    0x3ff0000000000000ull, 0xbff0000000000000ull,
                                    0x4000000000000000ull, 0xc000000000000000ull,
                                    0x4010000000000000ull, 0xc010000000000000ull,
                                    0x3fc45f306dc9c882ull};
static const uint16_t inl_f16[9] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000,
                                    0xc000, 0x4400, 0xc400, 0x3118};

/* The 64-bit value of an inline constant encoding for `type`; 0 and
 * returns -1 for an encoding that is none. */
static int inline_value(unsigned enc, wl_imm_type type, int wide, uint64_t *out)
{
    if (enc >= 128 && enc <= 192) {
        *out = enc - 128;
        return 0;
    }
    if (enc >= 193 && enc <= 208) {
        *out = (uint64_t)(-(int64_t)(enc - 192));
        if (!wide)
            *out &= 0xffffffffu;
        return 0;
    }
    if (enc >= WL_SRC_HALF && enc <= WL_SRC_INV_2PI) {
        unsigned i = enc - WL_SRC_HALF;
        switch (type) {
        case WL_IMM_F64: *out = inl_f64[i]; break;
        case WL_IMM_B64: *out = wide ? inl_f64[i] : inl_f32[i]; break;
        case WL_IMM_F16:
        case WL_IMM_B16:
        case WL_IMM_V2F16: *out = inl_f16[i]; break;
        case WL_IMM_V2B16: *out = inl_f32[i]; break; /* packed integer: the f32 bits */
        default: *out = wide ? inl_f64[i] : inl_f32[i]; break;
        }
        return 0;
    }
    return -1;
}

/* Special registers read as a value of `wide` (0: 32, 1: 64) bits. */
static LLVMValueRef special_src(wl_lifter *L, unsigned enc, int wide)
{
    LLVMValueRef v;
    switch (enc) {
    case WL_SRC_SCC:
        v = LLVMBuildZExt(L->b, wl_l_get_scc(L), L->i32, "");
        break;
    case WL_SRC_VCCZ:
        v = LLVMBuildZExt(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, wl_l_vcc(L), wl_l_i64c(L, 0), ""),
                          L->i32, "");
        break;
    case WL_SRC_EXECZ:
        v = LLVMBuildZExt(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, wl_l_exec(L), wl_l_i64c(L, 0), ""),
                          L->i32, "");
        break;
    case WL_SRC_SHARED_BASE:
    case WL_SRC_SHARED_LIMIT:
    case WL_SRC_PRIVATE_BASE:
    case WL_SRC_PRIVATE_LIMIT: {
        uint32_t hi = (enc == WL_SRC_SHARED_BASE || enc == WL_SRC_SHARED_LIMIT)
                          ? WL_APERTURE_SHARED_HI : WL_APERTURE_PRIVATE_HI;
        int limit = enc == WL_SRC_SHARED_LIMIT || enc == WL_SRC_PRIVATE_LIMIT;
        if (wide)
            return wl_l_i64c(L, ((uint64_t)hi << 32) | (limit ? 0xffffffffu : 0));
        return wl_l_i32c(L, hi);
    }
    default:
        if (enc <= WL_SRC_SGPR_MAX || enc == WL_SRC_VCC_LO || enc == WL_SRC_VCC_HI ||
            enc == WL_SRC_M0 || enc == WL_SRC_NULL || enc == WL_SRC_EXEC_LO ||
            enc == WL_SRC_EXEC_HI || (enc >= WL_SRC_TTMP0 && enc < WL_SRC_TTMP0 + 16))
            return wide ? wl_l_get_s64(L, enc) : wl_l_get_s32(L, enc);
        wl_l_refuse(L, "source operand not supported");
        return wide ? wl_l_i64c(L, 0) : wl_l_i32c(L, 0);
    }
    return wide ? LLVMBuildZExt(L->b, v, L->i64, "") : v;
}

LLVMValueRef wl_l_src32(wl_lifter *L, const wl_operand *o, wl_imm_type type)
{
    uint64_t c;
    switch (o->kind) {
    case WL_OPND_SGPR:
        return wl_l_get_s32(L, o->index);
    case WL_OPND_VGPR:
        return wl_l_get_v32(L, o->index);
    case WL_OPND_TTMP:
        return wl_l_get_s32(L, WL_SRC_TTMP0 + o->index);
    case WL_OPND_SPECIAL:
        return special_src(L, o->index, 0);
    case WL_OPND_INLINE:
        if (inline_value(o->index, type, 0, &c) == 0)
            return wl_l_i32c(L, (uint32_t)c);
        break;
    case WL_OPND_LITERAL:
    case WL_OPND_IMM:
        return wl_l_i32c(L, o->value);
    default:
        break;
    }
    wl_l_refuse(L, "source operand not supported");
    return wl_l_i32c(L, 0);
}

LLVMValueRef wl_l_src64(wl_lifter *L, const wl_operand *o, wl_imm_type type)
{
    uint64_t c;
    switch (o->kind) {
    case WL_OPND_SGPR:
        return wl_l_get_s64(L, o->index);
    case WL_OPND_VGPR:
        return wl_l_get_v64(L, o->index);
    case WL_OPND_TTMP:
        return wl_l_get_s64(L, WL_SRC_TTMP0 + o->index);
    case WL_OPND_SPECIAL:
        return special_src(L, o->index, 1);
    case WL_OPND_INLINE:
        if (inline_value(o->index, type == WL_IMM_F32 ? WL_IMM_F64 : type, 1, &c) == 0)
            return wl_l_i64c(L, c);
        break;
    case WL_OPND_LITERAL:
        /* A 32-bit literal in a 64-bit operand: the high dword of a double,
         * zero-extended for integers (as LLVM's disassembler models it). */
        if (type == WL_IMM_F64)
            return wl_l_i64c(L, (uint64_t)o->value << 32);
        return wl_l_i64c(L, o->value);
    case WL_OPND_IMM:
        return wl_l_i64c(L, o->value);
    default:
        break;
    }
    wl_l_refuse(L, "source operand not supported");
    return wl_l_i64c(L, 0);
}

/* Memory (docs/host-ir.md, "Memory"):
 *  - word memory: allocas (Function), addrspace(3) globals (Workgroup), the
 *    module's own buffers @wl.status/@wl.pagetable/@wl.lds/@wl.lds64
 *    (addrspace(4), StorageBuffer), @wl.push (addrspace(6), PushConstant) and
 *    constant or private globals (addrspace(0), Private). Each is an array of
 *    32-bit units (64-bit where its element type is 64-bit); a pointer into
 *    one is (object, byte offset) and the offset is the SPIR-V value. Loads
 *    and stores split or merge units; a sub-unit store to shared memory is an
 *    atomic and + or on its unit.
 *  - device memory: addrspace(1) pointers are 64-bit integers; each access
 *    converts the address to a PhysicalStorageBuffer pointer of the accessed
 *    type, with the access's alignment.
 *  - builtins: Input variables, loaded where used. */
#include <stdlib.h>
#include <string.h>

#include "be.h"

#define SpvScPrivate 6u

int wl_mem_is_word_space(int as) { return as == 0 || as == 3 || as == 4 || as == 5 || as == 6; }

static wl_mobj *mobj_new(wl_em *e, LLVMValueRef v)
{
    if (e->nmo == e->capmo) {
        size_t nc = e->capmo ? e->capmo * 2 : 16;
        wl_mobj *n = realloc(e->mo, nc * sizeof *n);
        if (!n) {
            wl_fail_nomem(e);
            return NULL;
        }
        e->mo = n;
        e->capmo = nc;
    }
    wl_mobj *m = &e->mo[e->nmo++];
    memset(m, 0, sizeof *m);
    m->v = v;
    return m;
}

/* The unit of an object whose LLVM type is t: 8 when its innermost element
 * type is 64 bits wide, else 4. */
static uint32_t unit_of(LLVMTypeRef t)
{
    for (;;) {
        LLVMTypeKind k = LLVMGetTypeKind(t);
        if (k == LLVMArrayTypeKind || k == LLVMVectorTypeKind)
            t = LLVMGetElementType(t);
        else if (k == LLVMStructTypeKind && LLVMCountStructElementTypes(t) > 0)
            t = LLVMStructGetTypeAtIndex(t, 0);
        else
            break;
    }
    return wl_scalar_bits(t) == 64 ? 8 : 4;
}

static void iface_add(wl_em *e, uint32_t var)
{
    if (e->niface < (int)(sizeof e->iface / sizeof e->iface[0]))
        e->iface[e->niface++] = var;
    else
        wl_fail(e, "more than 64 global variables (memory objects and builtins)");
}

/* Serializes a constant initializer into bytes (little endian). 0 if it
 * holds something that is not plain data. */
static int const_bytes(wl_em *e, LLVMValueRef c, uint8_t *out, uint64_t size)
{
    LLVMTypeRef t = LLVMTypeOf(c);
    LLVMValueKind k = LLVMGetValueKind(c);
    if (k == LLVMConstantAggregateZeroValueKind || k == LLVMUndefValueValueKind || k == LLVMPoisonValueValueKind ||
        k == LLVMConstantPointerNullValueKind) {
        memset(out, 0, size);
        return 1;
    }
    if (k == LLVMConstantIntValueKind) {
        uint64_t v = LLVMConstIntGetZExtValue(c);
        for (uint64_t i = 0; i < size && i < 8; i++)
            out[i] = (uint8_t)(v >> (8 * i));
        return 1;
    }
    if (k == LLVMConstantFPValueKind) {
        LLVMBool loses;
        double d = LLVMConstRealGetDouble(c, &loses);
        unsigned w = wl_scalar_bits(t);
        if (w == 64) {
            memcpy(out, &d, 8);
        } else if (w == 32) {
            float f = (float)d;
            memcpy(out, &f, 4);
        } else {
            return 0;
        }
        return 1;
    }
    LLVMTypeKind tk = LLVMGetTypeKind(t);
    if (tk == LLVMArrayTypeKind || tk == LLVMVectorTypeKind || tk == LLVMStructTypeKind) {
        unsigned n = tk == LLVMStructTypeKind ? LLVMCountStructElementTypes(t)
                     : tk == LLVMArrayTypeKind ? (unsigned)LLVMGetArrayLength2(t) : LLVMGetVectorSize(t);
        memset(out, 0, size);
        for (unsigned i = 0; i < n; i++) {
            LLVMValueRef x = LLVMGetAggregateElement(c, i);
            if (!x)
                return 0;
            LLVMTypeRef xt = LLVMTypeOf(x);
            uint64_t off = tk == LLVMStructTypeKind ? LLVMOffsetOfElement(e->td, t, i) : i * LLVMABISizeOfType(e->td, xt);
            uint64_t xs = LLVMABISizeOfType(e->td, xt);
            if (off + xs > size || !const_bytes(e, x, out + off, xs))
                return 0;
        }
        return 1;
    }
    return 0;
}

/* Creates the variable of a word-memory object. */
static int mobj_var(wl_em *e, wl_mobj *m, LLVMTypeRef vt, uint64_t bytes, uint32_t sc, int block, int binding,
                    LLVMValueRef init)
{
    m->sc = sc;
    m->unit = unit_of(vt);
    m->block = block;
    m->nunits = bytes ? (bytes + m->unit - 1) / m->unit : 0;
    uint32_t ut = wl_ty_int(e, m->unit * 8);
    uint32_t at;
    if (m->nunits > 0x3fffffffu)
        return wl_refuse(e, m->v, "memory object too large");
    if (m->nunits && !block) {
        at = wl_ty_array(e, ut, (uint32_t)m->nunits); /* shared by objects of one size */
    } else if (m->nunits) {
        at = wl_id(e);
        INS(e, &e->types, SpvOpTypeArray, at, ut, wl_c_u32(e, (uint32_t)m->nunits));
    } else {
        at = wl_id(e);
        INS(e, &e->types, SpvOpTypeRuntimeArray, at, ut);
    }
    uint32_t ptrto = at;
    if (block) {
        INS(e, &e->decor, SpvOpDecorate, at, SpvDecArrayStride, m->unit);
        uint32_t st = wl_id(e);
        INS(e, &e->types, SpvOpTypeStruct, st, at);
        INS(e, &e->decor, SpvOpDecorate, st, SpvDecBlock);
        INS(e, &e->decor, SpvOpMemberDecorate, st, 0, SpvDecOffset, 0);
        ptrto = st;
    }
    uint32_t pt;
    if (block) {
        pt = wl_id(e);
        INS(e, &e->types, SpvOpTypePointer, pt, sc, ptrto);
    } else {
        pt = wl_ty_ptr(e, sc, ptrto);
    }
    m->uptr = wl_ty_ptr(e, sc, ut);
    m->var = wl_id(e);
    uint32_t initid = 0;
    if (init && !LLVMIsUndef(init) && !LLVMIsPoison(init)) {
        uint64_t nb = m->nunits * m->unit;
        uint8_t *buf = calloc(nb ? nb : 1, 1);
        if (!buf)
            return wl_fail_nomem(e);
        if (!const_bytes(e, init, buf, bytes)) {
            free(buf);
            return wl_refuse(e, m->v, "initializer outside the profile");
        }
        uint32_t *el = malloc((m->nunits + 3) * sizeof *el);
        if (!el) {
            free(buf);
            return wl_fail_nomem(e);
        }
        int allzero = 1;
        for (uint64_t i = 0; i < m->nunits; i++) {
            uint64_t v = 0;
            for (uint32_t j = 0; j < m->unit; j++)
                v |= (uint64_t)buf[i * m->unit + j] << (8 * j);
            if (v)
                allzero = 0;
            el[i] = wl_c_int(e, m->unit * 8, v);
        }
        if (allzero) {
            initid = wl_c_null(e, at);
        } else {
            initid = wl_id(e);
            wl_wb_push(e, &e->types, ((uint32_t)(m->nunits + 3) << 16) | SpvOpConstantComposite);
            wl_wb_push(e, &e->types, at);
            wl_wb_push(e, &e->types, initid);
            for (uint64_t i = 0; i < m->nunits; i++)
                wl_wb_push(e, &e->types, el[i]);
        }
        free(el);
        free(buf);
    }
    wl_wbuf *where = sc == SpvScFunction ? &e->fvars : &e->types;
    if (initid)
        INS(e, where, SpvOpVariable, pt, m->var, sc, initid);
    else
        INS(e, where, SpvOpVariable, pt, m->var, sc);
    if (sc != SpvScFunction)
        iface_add(e, m->var);
    if (binding >= 0 && !wl_mem_bind(e, m->var, binding))
        return 0;
    if (m->readonly && sc != SpvScPushConstant && sc != SpvScPrivate)
        INS(e, &e->decor, SpvOpDecorate, m->var, SpvDecNonWritable);
    return 1;
}

/* The descriptor slot of the module's buffer WL_BINDING_* b: the host's
 * (wl_emit_options.remap_binding) or the default, decorated on var. */
int wl_mem_bind(wl_em *e, uint32_t var, int b)
{
    static const char *const names[WL_OWN_BUFFERS] = WL_OWN_BUFFER_NAMES;
    uint32_t set = WL_DESCRIPTOR_SET, slot = (uint32_t)b;
    if (b < 0 || b >= WL_OWN_BUFFERS)
        return wl_fail(e, "no binding %d of the module's own", b);
    if (e->opt->remap_binding) {
        char why[256] = "";
        if (e->opt->remap_binding(e->opt->remap_user, names[b], &set, &slot, why, sizeof why)) {
            wl_fail(e, "the host gives the module's %s buffer no binding: %s", names[b], why[0] ? why : "(no reason)");
            e->status = WL_ERR_UNSUPPORTED;
            return 0;
        }
    }
    INS(e, &e->decor, SpvOpDecorate, var, SpvDecDescriptorSet, set);
    INS(e, &e->decor, SpvOpDecorate, var, SpvDecBinding, slot);
    e->info.bindings |= 1u << b;
    e->info.binding_set[b] = set;
    e->info.binding_slot[b] = slot;
    return 1;
}

static int global_mobj(wl_em *e, LLVMValueRef g)
{
    size_t len = 0;
    const char *name = LLVMGetValueName2(g, &len);
    LLVMTypeRef vt = LLVMGlobalGetValueType(g);
    unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(g));
    uint64_t bytes = LLVMABISizeOfType(e->td, vt);
    wl_mobj *m = mobj_new(e, g);
    if (!m)
        return 0;
    int idx = (int)e->nmo;
    int ok;
    LLVMValueRef init = LLVMIsDeclaration(g) ? NULL : LLVMGetInitializer(g);
    if (as == 3) {
        if (init && !LLVMIsUndef(init) && !LLVMIsPoison(init))
            return wl_refuse(e, g, "workgroup memory with an initializer");
        ok = mobj_var(e, m, vt, bytes, SpvScWorkgroup, 0, -1, NULL);
        e->info.workgroup_bytes += (uint32_t)(m->nunits * m->unit);
    } else if (as == 4) {
        int binding = -1;
        if (len == 9 && !memcmp(name, "wl.status", 9))
            binding = WL_BINDING_STATUS;
        else if (len == 12 && !memcmp(name, "wl.pagetable", 12))
            binding = WL_BINDING_PAGETABLE;
        else if ((len == 6 && !memcmp(name, "wl.lds", 6)) || (len == 8 && !memcmp(name, "wl.lds64", 8)))
            binding = WL_BINDING_LDS;
        if (binding < 0)
            return wl_refuse(e, g, "addrspace(4) global other than @wl.status, @wl.pagetable, @wl.lds, @wl.lds64");
        m->readonly = binding == WL_BINDING_PAGETABLE;
        ok = mobj_var(e, m, vt, 0, SpvScStorageBuffer, 1, binding, NULL);
    } else if (as == 6) {
        if (!(len == 7 && !memcmp(name, "wl.push", 7)))
            return wl_refuse(e, g, "addrspace(6) global other than @wl.push");
        m->readonly = 1;
        /* push constants, or the host's read-only storage buffer (state_in_buffer) */
        uint32_t sc = e->opt->state_in_buffer ? SpvScStorageBuffer : SpvScPushConstant;
        ok = wl_push_struct(e, m, g, bytes, sc); /* push.c: a struct where that is smaller */
        if (ok) {
            iface_add(e, m->var);
            if (sc == SpvScStorageBuffer) {
                INS(e, &e->decor, SpvOpDecorate, m->var, SpvDecNonWritable);
                ok = wl_mem_bind(e, m->var, WL_BINDING_STATE);
            }
        } else if (!e->failed) {
            ok = mobj_var(e, m, vt, bytes, sc, 1, sc == SpvScStorageBuffer ? WL_BINDING_STATE : -1, NULL);
        }
        if (m->unit != 4)
            return wl_refuse(e, g, "push constants must be 32-bit words");
        if (sc == SpvScPushConstant)
            e->info.push_bytes = (uint32_t)(m->nunits * 4);
    } else if (as == 0 || as == 5) {
        if (!init)
            return wl_refuse(e, g, "private global without an initializer");
        m->readonly = LLVMIsGlobalConstant(g);
        ok = mobj_var(e, m, vt, bytes, SpvScPrivate, 0, -1, init);
    } else {
        return wl_refuse(e, g, "global in an address space outside the profile");
    }
    if (!ok)
        return 0;
    wl_pent *p = wl_pmap_put(e, &e->vals, g);
    if (p)
        p->b = (uint32_t)idx;
    return idx;
}

uint32_t wl_mem_alloca(wl_em *e, LLVMValueRef a)
{
    wl_pent *p = wl_pmap_get(&e->vals, a);
    if (p && p->b)
        return p->b;
    LLVMValueRef cnt = LLVMGetOperand(a, 0);
    if (!LLVMIsAConstantInt(cnt))
        return wl_refuse(e, a, "alloca of a dynamic size");
    LLVMTypeRef t = LLVMGetAllocatedType(a);
    uint64_t bytes = LLVMABISizeOfType(e->td, t) * LLVMConstIntGetZExtValue(cnt);
    if (bytes == 0)
        bytes = 4;
    wl_mobj *m = mobj_new(e, a);
    if (!m)
        return 0;
    int idx = (int)e->nmo;
    if (!mobj_var(e, m, t, bytes, SpvScFunction, 0, -1, NULL))
        return 0;
    e->info.private_bytes += (uint32_t)(m->nunits * m->unit);
    wl_bind(e, a, wl_c_u32(e, 0));
    p = wl_pmap_get(&e->vals, a);
    if (p)
        p->b = (uint32_t)idx;
    return (uint32_t)idx;
}

/* The memory object a word-memory pointer points into (index + 1), 0 if it
 * cannot be known. */
static int base_rec(wl_em *e, LLVMValueRef v, int depth)
{
    wl_pent *p = wl_pmap_get(&e->vals, v);
    if (p && p->b)
        return (int)p->b;
    if (depth > 48)
        return 0;
    if (LLVMIsAGlobalVariable(v))
        return global_mobj(e, v);
    if (LLVMIsAAllocaInst(v))
        return (int)wl_mem_alloca(e, v);
    if (LLVMIsAGetElementPtrInst(v) || LLVMIsAFreezeInst(v) || LLVMIsABitCastInst(v))
        return base_rec(e, LLVMGetOperand(v, 0), depth + 1);
    if (LLVMIsAConstantExpr(v)) {
        LLVMOpcode op = LLVMGetConstOpcode(v);
        if (op == LLVMGetElementPtr || op == LLVMBitCast)
            return base_rec(e, LLVMGetOperand(v, 0), depth + 1);
        return 0;
    }
    if (LLVMIsASelectInst(v)) {
        int b = base_rec(e, LLVMGetOperand(v, 1), depth + 1);
        return b ? b : base_rec(e, LLVMGetOperand(v, 2), depth + 1);
    }
    if (LLVMIsAPHINode(v)) {
        unsigned n = LLVMCountIncoming(v);
        for (unsigned i = 0; i < n; i++) {
            LLVMValueRef x = LLVMGetIncomingValue(v, i);
            if (x == v)
                continue;
            int b = base_rec(e, x, depth + 8);
            if (b)
                return b;
        }
    }
    return 0;
}

int wl_mem_base(wl_em *e, LLVMValueRef ptr) { return base_rec(e, ptr, 0); }

uint32_t wl_ptr_value(wl_em *e, LLVMValueRef v, int *mobj)
{
    *mobj = 0;
    int as = wl_ptr_space(LLVMTypeOf(v));
    if (as == 1)
        return wl_val(e, v);
    if (LLVMIsUndef(v) || LLVMIsPoison(v) || LLVMIsNull(v))
        return wl_val(e, v);
    *mobj = wl_mem_base(e, v);
    if (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMGetElementPtr) {
        int m = 0;
        return wl_gep_value(e, v, &m);
    }
    return wl_val(e, v);
}

/* ---- address arithmetic ---- */

/* idx (any integer width) as a `w`-bit integer, sign-extended. */
static uint32_t index_to(wl_em *e, LLVMValueRef idx, unsigned w)
{
    /* a 32-bit index LLVM widened (zext/sext to i64): the index itself */
    if (w == 32 && (LLVMIsAZExtInst(idx) || LLVMIsASExtInst(idx)) &&
        wl_scalar_bits(LLVMTypeOf(LLVMGetOperand(idx, 0))) == 32)
        idx = LLVMGetOperand(idx, 0);
    unsigned iw = wl_scalar_bits(LLVMTypeOf(idx));
    uint32_t id = wl_val(e, idx);
    if (iw == w)
        return id;
    return OP(e, iw < w ? SpvOpSConvert : SpvOpUConvert, wl_ty_int(e, w), id);
}

/* A GEP (instruction or constant expression): the byte offset (word memory)
 * or the address (device memory). */
uint32_t wl_gep_value(wl_em *e, LLVMValueRef v, int *mobj)
{
    LLVMValueRef ptr = LLVMGetOperand(v, 0);
    int as = wl_ptr_space(LLVMTypeOf(ptr));
    if (as < 0 || wl_vec_len(LLVMTypeOf(v)))
        return wl_refuse(e, v, "GEP on a vector of pointers");
    unsigned w = as == 1 ? 64 : 32;
    uint32_t ty = wl_ty_int(e, w);
    uint32_t base = wl_ptr_value(e, ptr, mobj);
    LLVMTypeRef cur = LLVMGetGEPSourceElementType(v);
    int n = LLVMGetNumOperands(v);
    uint64_t c = 0;
    uint32_t acc = 0;
    for (int i = 1; i < n; i++) {
        LLVMValueRef idx = LLVMGetOperand(v, i);
        if (wl_vec_len(LLVMTypeOf(idx)))
            return wl_refuse(e, v, "GEP with a vector index");
        uint64_t size;
        if (i == 1) {
            size = LLVMABISizeOfType(e->td, cur);
        } else {
            LLVMTypeKind k = LLVMGetTypeKind(cur);
            if (k == LLVMStructTypeKind) {
                unsigned f = (unsigned)LLVMConstIntGetZExtValue(idx);
                c += LLVMOffsetOfElement(e->td, cur, f);
                cur = LLVMStructGetTypeAtIndex(cur, f);
                continue;
            }
            if (k != LLVMArrayTypeKind && k != LLVMVectorTypeKind)
                return wl_refuse(e, v, "GEP into a type outside the profile");
            cur = LLVMGetElementType(cur);
            size = LLVMABISizeOfType(e->td, cur);
        }
        if (LLVMIsAConstantInt(idx)) {
            c += (uint64_t)LLVMConstIntGetSExtValue(idx) * size;
            continue;
        }
        uint32_t x = index_to(e, idx, w);
        if (size == 0)
            continue;
        if (size != 1) {
            if ((size & (size - 1)) == 0) {
                unsigned sh = 0;
                while ((1ull << sh) != size)
                    sh++;
                x = OP(e, SpvOpShiftLeftLogical, ty, x, wl_c_u32(e, sh));
            } else {
                x = OP(e, SpvOpIMul, ty, x, wl_c_int(e, w, size));
            }
        }
        acc = acc ? OP(e, SpvOpIAdd, ty, acc, x) : x;
    }
    uint32_t r = base;
    if (acc)
        r = w == 32 && base == wl_c_u32(e, 0) ? acc : OP(e, SpvOpIAdd, ty, r, acc);
    if (w == 32)
        c &= 0xffffffffu;
    if (c)
        r = OP(e, SpvOpIAdd, ty, r, wl_c_int(e, w, c));
    return r;
}

void wl_mem_gep(wl_em *e, LLVMValueRef v)
{
    int m = 0;
    uint32_t id = wl_gep_value(e, v, &m);
    if (!id)
        return;
    wl_bind(e, v, id);
    wl_pent *p = wl_pmap_get(&e->vals, v);
    if (p)
        p->b = (uint32_t)m;
}

/* ---- word memory access ---- */

static uint32_t unit_ptr(wl_em *e, wl_mobj *m, uint32_t idx)
{
    if (m->block)
        return OP(e, SpvOpAccessChain, m->uptr, m->var, wl_c_u32(e, 0), idx);
    return OP(e, SpvOpAccessChain, m->uptr, m->var, idx);
}

static uint32_t unit_index(wl_em *e, wl_mobj *m, uint32_t off)
{
    if (e->koff_id && off == e->koff_id) /* a constant offset: a constant index */
        return wl_c_u32(e, e->koff >> (m->unit == 8 ? 3 : 2));
    wl_pent *s = wl_pmap_get(&e->scaled, (const void *)(uintptr_t)off);
    if (s && s->b == (m->unit == 8 ? 3u : 2u)) /* x << 2 (nuw): x, not x << 2 >> 2 */
        return s->a;
    return OP(e, SpvOpShiftRightLogical, wl_ty_int(e, 32), off, wl_c_u32(e, m->unit == 8 ? 3 : 2));
}

/* The unit after i0 (a 64-bit scalar in 32-bit units): a constant where
 * the offset is (push constants, the private notes), else i0 + 1. */
static uint32_t next_unit(wl_em *e, const wl_mobj *m, uint32_t off, uint32_t i0)
{
    if (e->koff_id && off == e->koff_id)
        return wl_c_u32(e, (e->koff >> (m->unit == 8 ? 3 : 2)) + 1);
    return OP(e, SpvOpIAdd, wl_ty_int(e, 32), i0, wl_c_u32(e, 1));
}

static int shared_sc(uint32_t sc) { return sc == SpvScWorkgroup || sc == SpvScStorageBuffer; }

/* Int64Atomics, and which memory needs it (wl_emit_info.features: Vulkan's
 * shaderBufferInt64Atomics or shaderSharedInt64Atomics; wl_reflect) */
static void cap_int64_atomics(wl_em *e, uint32_t sc)
{
    wl_cap(e, SpvCapInt64Atomics);
    e->info.features |= sc == SpvScWorkgroup ? WL_FEAT_SHARED_INT64_ATOMICS : WL_FEAT_BUFFER_INT64_ATOMICS;
}

static uint32_t scope_of(wl_em *e, uint32_t sc)
{
    return wl_c_u32(e, sc == SpvScWorkgroup ? SpvScopeWorkgroup : SpvScopeDevice);
}

static uint32_t store_bits(LLVMTypeRef t)
{
    unsigned b = wl_scalar_bits(t);
    return b == 1 ? 8 : b;
}

/* Loads a scalar of LLVM type t (not a vector). */
static uint32_t word_load_scalar(wl_em *e, LLVMValueRef inst, wl_mobj *m, uint32_t off, LLVMTypeRef t,
                                 unsigned align)
{
    uint32_t ty = wl_ty_llvm(e, t);
    uint32_t bits = store_bits(t), S = bits / 8;
    uint32_t ut = wl_ty_int(e, m->unit * 8);
    uint32_t u32 = wl_ty_int(e, 32);
    if (!ty || !bits)
        return wl_refuse(e, inst, "load of a type outside the profile");
    if (m->pstruct) { /* push.c: every load at a constant offset */
        if (!e->koff_id || off != e->koff_id)
            return wl_refuse(e, inst, "push-constant load at a varying offset");
        return wl_push_load(e, inst, m, e->koff, t);
    }
    if (align < (S < m->unit ? S : m->unit))
        return wl_refuse(e, inst, "access to word memory below its natural alignment");
    uint32_t r;
    if (S == m->unit) {
        r = OP(e, SpvOpLoad, ut, unit_ptr(e, m, unit_index(e, m, off)));
        return r == 0 || ty == ut ? r : OP(e, SpvOpBitcast, ty, r);
    }
    if (S < m->unit) {
        uint32_t w = OP(e, SpvOpLoad, ut, unit_ptr(e, m, unit_index(e, m, off)));
        uint32_t sh = OP(e, SpvOpShiftLeftLogical, u32, OP(e, SpvOpBitwiseAnd, u32, off, wl_c_u32(e, m->unit - 1)),
                         wl_c_u32(e, 3));
        uint32_t x = OP(e, SpvOpShiftRightLogical, ut, w, sh);
        uint32_t it = wl_ty_int(e, bits);
        x = OP(e, SpvOpUConvert, it, x);
        if (wl_scalar_bits(t) == 1)
            return OP(e, SpvOpINotEqual, ty, x, wl_c_int(e, 8, 0));
        return ty == it ? x : OP(e, SpvOpBitcast, ty, x);
    }
    /* 64 bits from two 32-bit units */
    uint32_t i0 = unit_index(e, m, off);
    uint32_t i1 = next_unit(e, m, off, i0);
    uint32_t w0 = OP(e, SpvOpLoad, ut, unit_ptr(e, m, i0));
    uint32_t w1 = OP(e, SpvOpLoad, ut, unit_ptr(e, m, i1));
    uint32_t v2 = OP(e, SpvOpCompositeConstruct, wl_ty_vec(e, u32, 2), w0, w1);
    return OP(e, SpvOpBitcast, ty, v2);
}

static void word_store_scalar(wl_em *e, LLVMValueRef inst, wl_mobj *m, uint32_t off, LLVMTypeRef t, uint32_t val,
                              unsigned align)
{
    uint32_t ty = wl_ty_llvm(e, t);
    uint32_t bits = store_bits(t), S = bits / 8;
    uint32_t ut = wl_ty_int(e, m->unit * 8);
    uint32_t u32 = wl_ty_int(e, 32);
    if (!ty || !bits) {
        wl_refuse(e, inst, "store of a type outside the profile");
        return;
    }
    if (m->readonly) {
        wl_refuse(e, inst, "store to read-only memory");
        return;
    }
    if (align < (S < m->unit ? S : m->unit)) {
        wl_refuse(e, inst, "access to word memory below its natural alignment");
        return;
    }
    if (S == m->unit) {
        uint32_t x = ty == ut ? val : OP(e, SpvOpBitcast, ut, val);
        INS(e, &e->body, SpvOpStore, unit_ptr(e, m, unit_index(e, m, off)), x);
        return;
    }
    if (S < m->unit) {
        uint32_t it = wl_ty_int(e, bits);
        uint32_t x = val;
        if (wl_scalar_bits(t) == 1)
            x = OP(e, SpvOpSelect, it, val, wl_c_int(e, 8, 1), wl_c_int(e, 8, 0));
        else if (ty != it)
            x = OP(e, SpvOpBitcast, it, val);
        x = OP(e, SpvOpUConvert, ut, x);
        uint32_t sh = OP(e, SpvOpShiftLeftLogical, u32, OP(e, SpvOpBitwiseAnd, u32, off, wl_c_u32(e, m->unit - 1)),
                         wl_c_u32(e, 3));
        uint64_t lowmask = bits == 64 ? ~0ull : (1ull << bits) - 1;
        uint32_t mask = OP(e, SpvOpShiftLeftLogical, ut, wl_c_int(e, m->unit * 8, lowmask), sh);
        uint32_t nmask = OP(e, SpvOpNot, ut, mask);
        uint32_t xs = OP(e, SpvOpShiftLeftLogical, ut, x, sh);
        uint32_t p = unit_ptr(e, m, unit_index(e, m, off));
        if (shared_sc(m->sc)) {
            if (m->unit == 8)
                cap_int64_atomics(e, m->sc);
            uint32_t scope = scope_of(e, m->sc), sem = wl_c_u32(e, 0);
            OP(e, SpvOpAtomicAnd, ut, p, scope, sem, nmask);
            OP(e, SpvOpAtomicOr, ut, p, scope, sem, xs);
        } else {
            uint32_t w = OP(e, SpvOpLoad, ut, p);
            uint32_t w2 = OP(e, SpvOpBitwiseOr, ut, OP(e, SpvOpBitwiseAnd, ut, w, nmask), xs);
            INS(e, &e->body, SpvOpStore, p, w2);
        }
        return;
    }
    uint32_t v2 = OP(e, SpvOpBitcast, wl_ty_vec(e, u32, 2), val);
    uint32_t i0 = unit_index(e, m, off);
    uint32_t i1 = next_unit(e, m, off, i0);
    INS(e, &e->body, SpvOpStore, unit_ptr(e, m, i0), OP(e, SpvOpCompositeExtract, u32, v2, 0));
    INS(e, &e->body, SpvOpStore, unit_ptr(e, m, i1), OP(e, SpvOpCompositeExtract, u32, v2, 1));
}

static unsigned min_u(unsigned a, unsigned b) { return a < b ? a : b; }

static uint32_t word_load(wl_em *e, LLVMValueRef inst, wl_mobj *m, uint32_t off, LLVMTypeRef t, unsigned align)
{
    unsigned n = wl_vec_len(t);
    if (!n)
        return word_load_scalar(e, inst, m, off, t, align);
    LLVMTypeRef el = LLVMGetElementType(t);
    unsigned es = store_bits(el) / 8;
    if (wl_scalar_bits(el) == 1)
        return wl_refuse(e, inst, "load of an i1 vector");
    uint32_t parts[4];
    for (unsigned i = 0; i < n && i < 4; i++) {
        uint32_t o = i ? OP(e, SpvOpIAdd, wl_ty_int(e, 32), off, wl_c_u32(e, i * es)) : off;
        parts[i] = word_load_scalar(e, inst, m, o, el, min_u(align, es));
    }
    return wl_op(e, SpvOpCompositeConstruct, wl_ty_llvm(e, t), (int)n, parts);
}

static void word_store(wl_em *e, LLVMValueRef inst, wl_mobj *m, uint32_t off, LLVMTypeRef t, uint32_t val,
                       unsigned align)
{
    unsigned n = wl_vec_len(t);
    if (!n) {
        word_store_scalar(e, inst, m, off, t, val, align);
        return;
    }
    LLVMTypeRef el = LLVMGetElementType(t);
    unsigned es = store_bits(el) / 8;
    if (wl_scalar_bits(el) == 1) {
        wl_refuse(e, inst, "store of an i1 vector");
        return;
    }
    uint32_t et = wl_ty_llvm(e, el);
    for (unsigned i = 0; i < n; i++) {
        uint32_t o = i ? OP(e, SpvOpIAdd, wl_ty_int(e, 32), off, wl_c_u32(e, i * es)) : off;
        word_store_scalar(e, inst, m, o, el, OP(e, SpvOpCompositeExtract, et, val, i), min_u(align, es));
    }
}

/* ---- device memory ---- */

static uint32_t psb_ptr(wl_em *e, LLVMValueRef inst, uint32_t addr, LLVMTypeRef t)
{
    unsigned b = wl_scalar_bits(t);
    if (b == 8)
        wl_cap(e, SpvCapStorageBuffer8BitAccess);
    if (b == 16)
        wl_cap(e, SpvCapStorageBuffer16BitAccess);
    e->uses_psb = 1;
    wl_cap(e, SpvCapPhysicalStorageBufferAddresses);
    uint32_t ty = wl_ty_llvm(e, t);
    if (!ty)
        return wl_refuse(e, inst, "access of a type outside the profile");
    return OP(e, SpvOpConvertUToPtr, wl_ty_ptr(e, SpvScPhysicalStorageBuffer, ty), addr);
}

/* x = the byte offset of element I of a 1 << k byte type, as elem_ptr
 * reads it: I (i32 or the zext to i64), else NULL */
static LLVMValueRef elem_index(wl_em *e, LLVMValueRef x, unsigned k)
{
    LLVMValueRef idx = NULL;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(e->ctx);
    if (LLVMIsAZExtInst(x)) { /* zext (shl nuw i32 I, k) */
        LLVMValueRef s = LLVMGetOperand(x, 0);
        if (LLVMIsAInstruction(s) && LLVMGetInstructionOpcode(s) == LLVMShl && LLVMTypeOf(s) == i32 &&
            LLVMGetNUW(s) && LLVMIsAConstantInt(LLVMGetOperand(s, 1)) &&
            LLVMConstIntGetZExtValue(LLVMGetOperand(s, 1)) == k)
            idx = LLVMGetOperand(s, 0); /* I < 2^30: a non-negative 32-bit index */
    } else if (LLVMIsAInstruction(x) && LLVMGetInstructionOpcode(x) == LLVMShl && LLVMGetNUW(x) &&
               LLVMIsAConstantInt(LLVMGetOperand(x, 1)) && LLVMConstIntGetZExtValue(LLVMGetOperand(x, 1)) == k &&
               LLVMIsAZExtInst(LLVMGetOperand(x, 0))) {
        idx = LLVMGetOperand(x, 0); /* zext I: a non-negative 64-bit index */
    }
    return idx;
}

/* ptr = getelementptr i8, P, X where X is the byte offset of element I of
 * t (a 32- or 64-bit scalar of 1 << k bytes): zext (shl nuw i32 I, k) or
 * shl nuw (zext I), k. Then P as a pointer to t with an ArrayStride and
 * OpPtrAccessChain to I (5 words) where the address took an IAdd and an
 * OpConvertUToPtr (9); P's own conversion and the chain are written once
 * where they dominate (blockcse.c), and the offset's shift and zext go
 * where nothing else reads them (dce.c): the wave model's lane arrays,
 * base + lane * 4, read and written in every lane loop. 0 where ptr is not
 * of that form. */
static uint32_t elem_ptr(wl_em *e, LLVMValueRef ptr, LLVMTypeRef t)
{
    unsigned b = wl_scalar_bits(t);
    if (!LLVMIsAGetElementPtrInst(ptr) || LLVMGetNumOperands(ptr) != 2 || wl_vec_len(t) ||
        wl_ptr_space(t) >= 0 || (b != 32 && b != 64) ||
        LLVMGetGEPSourceElementType(ptr) != LLVMInt8TypeInContext(e->ctx))
        return 0;
    LLVMValueRef idx = elem_index(e, LLVMGetOperand(ptr, 1), b == 32 ? 2 : 3);
    if (!idx)
        return 0;
    uint32_t ty = wl_ty_llvm(e, t);
    if (!ty)
        return 0;
    e->uses_psb = 1;
    wl_cap(e, SpvCapPhysicalStorageBufferAddresses);
    uint32_t pty = wl_ty_ptr(e, SpvScPhysicalStorageBuffer, ty);
    int seen = 0;
    for (int i = 0; i < e->nstrided; i++)
        seen |= e->strided[i] == pty;
    if (!seen) {
        if (e->nstrided == (int)(sizeof e->strided / sizeof e->strided[0]))
            return 0;
        e->strided[e->nstrided++] = pty;
        INS(e, &e->decor, SpvOpDecorate, pty, SpvDecArrayStride, b / 8);
    }
    uint32_t base = OP(e, SpvOpConvertUToPtr, pty, wl_val(e, LLVMGetOperand(ptr, 0)));
    return OP(e, SpvOpPtrAccessChain, pty, base, wl_val(e, idx));
}

/* A device-memory access of a 16-, 32- or 64-bit scalar whose alignment is
 * less than its size (the lowering's guest dword at an address not known
 * 4-aligned; docs/backend.md "Unaligned device memory"): Vulkan wants an
 * access aligned to its scalar. Loads of 32 bits are two aligned words
 * shifted together (unaligned_word), of 64 two such (two plain words where
 * 4-aligned); stores, and 16-bit loads, go through vectors of bytes (Aligned
 * 1 is valid for a u8 component), two of 4 for 64 bits (two words where
 * 4-aligned), and a bitcast. 0 where the type is not such a scalar. */
static int byte_access(LLVMTypeRef t, unsigned align)
{
    if (wl_vec_len(t) || wl_ptr_space(t) >= 0)
        return 0;
    unsigned b = wl_scalar_bits(t);
    return (b == 16 || b == 32 || b == 64) && (align ? align : 1) < b / 8;
}

static uint32_t byte_ptr(wl_em *e, uint32_t addr, unsigned n, uint32_t off)
{
    wl_cap(e, SpvCapStorageBuffer8BitAccess);
    wl_cap(e, SpvCapPhysicalStorageBufferAddresses);
    e->uses_psb = 1;
    uint32_t a = off ? OP(e, SpvOpIAdd, wl_ty_int(e, 64), addr, wl_c_int(e, 64, off)) : addr;
    return OP(e, SpvOpConvertUToPtr, wl_ty_ptr(e, SpvScPhysicalStorageBuffer, wl_ty_vec(e, wl_ty_int(e, 8), n)), a);
}

/* the two u8vec4 pointers of a 64-bit access at addr: bytes 0-3 and 4-7 */
static void byte_halves(wl_em *e, uint32_t addr, uint32_t p[2])
{
    p[0] = byte_ptr(e, addr, 4, 0);
    p[1] = byte_ptr(e, addr, 4, 4);
}

/* a pointer to the uint at the 4-aligned 64-bit address a */
static uint32_t word_ptr(wl_em *e, uint32_t a)
{
    e->uses_psb = 1;
    wl_cap(e, SpvCapPhysicalStorageBufferAddresses);
    return OP(e, SpvOpConvertUToPtr, wl_ty_ptr(e, SpvScPhysicalStorageBuffer, wl_ty_int(e, 32)), a);
}

static uint32_t word_at(wl_em *e, uint32_t a)
{
    return OP(e, SpvOpLoad, wl_ty_int(e, 32), word_ptr(e, a), SpvMemAccessAligned, 4u);
}

/* The 32 bits at base + off (base the id of a 64-bit address, off a
 * multiple of 4), any alignment, from the two aligned words that hold them:
 * the word at a & ~3 and the one at (a + 3) & ~3 (the same word where a is
 * aligned: no byte outside the access's words is read), shifted together by
 * the misalignment s: lo >> 8s | hi << (32 - 8s), the second shift as two
 * (by 1, then 31 - 8s) so that s = 0 gives 0. The addresses and shifts are
 * made from base, not from base + off, so that the loads of one base in a
 * block (a span's: base + 4i) share them (backend/blockcse.c gives back the
 * same pure instruction). Two aligned word loads where u8vec4 was four byte
 * loads on NVIDIA: md5_55 (wave64, k = 2) 3.97 -> 2.17 times the native
 * dispatch (docs/native.md). */
static uint32_t unaligned_word(wl_em *e, uint32_t base, uint64_t off)
{
    uint32_t u64 = wl_ty_int(e, 64), u32 = wl_ty_int(e, 32);
    uint32_t mask = wl_c_int(e, 64, ~(uint64_t)3);
    uint32_t a0 = OP(e, SpvOpBitwiseAnd, u64, base, mask);
    uint32_t a1 = OP(e, SpvOpBitwiseAnd, u64, OP(e, SpvOpIAdd, u64, base, wl_c_int(e, 64, 3)), mask);
    uint32_t sh = OP(e, SpvOpBitwiseAnd, u32,
                     OP(e, SpvOpShiftLeftLogical, u32, OP(e, SpvOpUConvert, u32, base), wl_c_int(e, 32, 3)),
                     wl_c_int(e, 32, 24));
    uint32_t rsh = OP(e, SpvOpISub, u32, wl_c_int(e, 32, 31), sh);
    if (off) {
        uint32_t k = wl_c_int(e, 64, off);
        a0 = OP(e, SpvOpIAdd, u64, a0, k);
        a1 = OP(e, SpvOpIAdd, u64, a1, k);
    }
    uint32_t lo = OP(e, SpvOpShiftRightLogical, u32, word_at(e, a0), sh);
    uint32_t hi = OP(e, SpvOpShiftLeftLogical, u32, word_at(e, a1), wl_c_int(e, 32, 1));
    return OP(e, SpvOpBitwiseOr, u32, lo, OP(e, SpvOpShiftLeftLogical, u32, hi, rsh));
}

/* ptr as base + off: `inttoptr (add X, C)` or `getelementptr i8, P, C`
 * with C a multiple of 4 gives (X or P, C), `inttoptr X` (X, 0) (a span's
 * first access: its `add X, 0` folded); else (ptr, 0) */
static LLVMValueRef split_base(LLVMValueRef ptr, uint64_t *off)
{
    *off = 0;
    LLVMValueRef x = NULL, c = NULL;
    if (LLVMIsAIntToPtrInst(ptr)) {
        LLVMValueRef i = LLVMGetOperand(ptr, 0);
        if (!LLVMIsABinaryOperator(i) || LLVMGetInstructionOpcode(i) != LLVMAdd)
            return i;
        x = LLVMGetOperand(i, 0);
        c = LLVMGetOperand(i, 1);
    } else if (LLVMIsAGetElementPtrInst(ptr) && LLVMGetNumOperands(ptr) == 2 &&
               LLVMGetGEPSourceElementType(ptr) == LLVMInt8TypeInContext(LLVMGetTypeContext(LLVMTypeOf(ptr)))) {
        x = LLVMGetOperand(ptr, 0);
        c = LLVMGetOperand(ptr, 1);
    }
    if (!x || !c || !LLVMIsAConstantInt(c) || (LLVMConstIntGetZExtValue(c) & 3))
        return ptr;
    *off = LLVMConstIntGetZExtValue(c);
    return x;
}

/* the loads of bb that unaligned_word would make (32 or 64 bits, below
 * 4-aligned, device memory) from base, counted once a block */
static unsigned loads_of_base(wl_em *e, LLVMValueRef base, LLVMBasicBlockRef bb)
{
    if (e->ucount_bb != bb) {
        wl_pmap_free(&e->ucount);
        memset(&e->ucount, 0, sizeof e->ucount);
        e->ucount_bb = bb;
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I)) {
            if (!LLVMIsALoadInst(I) || wl_ptr_space(LLVMTypeOf(LLVMGetOperand(I, 0))) != 1 ||
                LLVMGetVolatile(I) || LLVMGetOrdering(I) != LLVMAtomicOrderingNotAtomic)
                continue;
            LLVMTypeRef t = LLVMTypeOf(I);
            unsigned b = wl_scalar_bits(t), al = LLVMGetAlignment(I);
            if (wl_vec_len(t) || (b != 32 && b != 64) || (al ? al : 1) >= 4)
                continue;
            uint64_t off;
            wl_pent *p = wl_pmap_put(e, &e->ucount, split_base(LLVMGetOperand(I, 0), &off));
            if (p)
                p->a++;
        }
    }
    wl_pent *p = wl_pmap_get(&e->ucount, base);
    return p ? p->a : 0;
}

static uint32_t byte_load(wl_em *e, LLVMValueRef v, uint32_t addr, LLVMTypeRef t, unsigned align)
{
    unsigned bytes = wl_scalar_bits(t) / 8;
    uint32_t ty = wl_ty_llvm(e, t);
    uint64_t off;
    LLVMValueRef base = split_base(LLVMGetOperand(v, 0), &off);
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(v);
    /* words only where a base's loads share the addresses and shifts (a
     * span's): alone, a load as words costs about 60 SPIR-V words more than
     * as bytes (the wave model's aes256: 73,749 -> 133,080 words with every
     * table lookup as words) */
    if (bytes == 2 || (align < 4 && loads_of_base(e, base, bb) < 2)) {
        if (bytes <= 4) {
            uint32_t x = OP(e, SpvOpLoad, wl_ty_vec(e, wl_ty_int(e, 8), bytes), byte_ptr(e, addr, bytes, 0),
                            SpvMemAccessAligned, 1u);
            return OP(e, SpvOpBitcast, ty, x);
        }
        uint32_t u32 = wl_ty_int(e, 32), v4 = wl_ty_vec(e, wl_ty_int(e, 8), 4), p[2], w[2];
        byte_halves(e, addr, p);
        for (uint32_t i = 0; i < 2; i++)
            w[i] = OP(e, SpvOpBitcast, u32, OP(e, SpvOpLoad, v4, p[i], SpvMemAccessAligned, 1u));
        return OP(e, SpvOpBitcast, ty, OP(e, SpvOpCompositeConstruct, wl_ty_vec(e, u32, 2), w[0], w[1]));
    }
    if (bytes == 4)
        return OP(e, SpvOpBitcast, ty, unaligned_word(e, wl_val(e, base), off));
    /* 64 bits: two words, each aligned where the access is 4-aligned */
    uint32_t u32 = wl_ty_int(e, 32), u64 = wl_ty_int(e, 64), w[2];
    for (uint32_t i = 0; i < 2; i++) {
        uint32_t a = i ? OP(e, SpvOpIAdd, u64, addr, wl_c_int(e, 64, 4)) : addr;
        w[i] = align >= 4 ? word_at(e, a) : unaligned_word(e, wl_val(e, base), off + 4 * i);
    }
    return OP(e, SpvOpBitcast, ty, OP(e, SpvOpCompositeConstruct, wl_ty_vec(e, u32, 2), w[0], w[1]));
}

static void byte_store(wl_em *e, uint32_t addr, LLVMTypeRef t, uint32_t x, unsigned align)
{
    unsigned bytes = wl_scalar_bits(t) / 8;
    if (bytes == 8 && align >= 4) { /* two aligned words */
        uint32_t u32 = wl_ty_int(e, 32), u64 = wl_ty_int(e, 64);
        uint32_t pair = OP(e, SpvOpBitcast, wl_ty_vec(e, u32, 2), x);
        for (uint32_t i = 0; i < 2; i++) {
            uint32_t a = i ? OP(e, SpvOpIAdd, u64, addr, wl_c_int(e, 64, 4)) : addr;
            INS(e, &e->body, SpvOpStore, word_ptr(e, a), OP(e, SpvOpCompositeExtract, u32, pair, i),
                SpvMemAccessAligned, 4u);
        }
        return;
    }
    if (bytes <= 4) {
        uint32_t v = OP(e, SpvOpBitcast, wl_ty_vec(e, wl_ty_int(e, 8), bytes), x);
        INS(e, &e->body, SpvOpStore, byte_ptr(e, addr, bytes, 0), v, SpvMemAccessAligned, 1u);
        return;
    }
    uint32_t u32 = wl_ty_int(e, 32), v4 = wl_ty_vec(e, wl_ty_int(e, 8), 4), p[2];
    uint32_t pair = OP(e, SpvOpBitcast, wl_ty_vec(e, u32, 2), x);
    byte_halves(e, addr, p);
    for (uint32_t i = 0; i < 2; i++) {
        uint32_t v = OP(e, SpvOpBitcast, v4, OP(e, SpvOpCompositeExtract, u32, pair, i));
        INS(e, &e->body, SpvOpStore, p[i], v, SpvMemAccessAligned, 1u);
    }
}

static uint32_t sem_of(LLVMAtomicOrdering o, uint32_t sc, int is_load, int is_store)
{
    uint32_t mem = sc == SpvScWorkgroup ? SpvSemWorkgroupMemory : SpvSemUniformMemory;
    switch (o) {
    case LLVMAtomicOrderingNotAtomic:
    case LLVMAtomicOrderingUnordered:
    case LLVMAtomicOrderingMonotonic: return 0;
    case LLVMAtomicOrderingAcquire: return is_store ? 0 : SpvSemAcquire | mem;
    case LLVMAtomicOrderingRelease: return is_load ? 0 : SpvSemRelease | mem;
    default:
        if (is_load)
            return SpvSemAcquire | mem;
        if (is_store)
            return SpvSemRelease | mem;
        return SpvSemAcquireRelease | mem;
    }
}

/* ---- instructions ---- */

/* The byte offset of a word-memory pointer that is a constant: the object
 * itself (a global or an alloca) or a constant GEP of constant indices. */
static int const_offset(wl_em *e, LLVMValueRef p, uint64_t *c, int depth)
{
    if (LLVMIsAGlobalVariable(p) || LLVMIsAAllocaInst(p)) {
        *c = 0;
        return 1;
    }
    if (depth > 8 || !LLVMIsAConstantExpr(p) || LLVMGetConstOpcode(p) != LLVMGetElementPtr ||
        !const_offset(e, LLVMGetOperand(p, 0), c, depth + 1))
        return 0;
    LLVMTypeRef cur = LLVMGetGEPSourceElementType(p);
    int n = LLVMGetNumOperands(p);
    for (int i = 1; i < n; i++) {
        LLVMValueRef idx = LLVMGetOperand(p, i);
        if (!LLVMIsAConstantInt(idx))
            return 0;
        if (i > 1) {
            LLVMTypeKind k = LLVMGetTypeKind(cur);
            if (k == LLVMStructTypeKind) {
                unsigned f = (unsigned)LLVMConstIntGetZExtValue(idx);
                *c += LLVMOffsetOfElement(e->td, cur, f);
                cur = LLVMStructGetTypeAtIndex(cur, f);
                continue;
            }
            if (k != LLVMArrayTypeKind)
                return 0;
            cur = LLVMGetElementType(cur);
        }
        *c += (uint64_t)LLVMConstIntGetSExtValue(idx) * LLVMABISizeOfType(e->td, cur);
    }
    return *c <= 0xffffffffu;
}

int wl_mem_const_offset(wl_em *e, LLVMValueRef p, uint64_t *c) { return const_offset(e, p, c, 0); }

static wl_mobj *mobj_of(wl_em *e, LLVMValueRef inst, LLVMValueRef ptr, uint32_t *off)
{
    int mi = 0;
    uint64_t c;
    if (wl_ptr_space(LLVMTypeOf(ptr)) != 1 && const_offset(e, ptr, &c, 0) && (mi = wl_mem_base(e, ptr)) != 0) {
        *off = e->koff_id = wl_c_u32(e, (uint32_t)c); /* no address arithmetic emitted */
        e->koff = (uint32_t)c;
        return &e->mo[mi - 1];
    }
    *off = wl_ptr_value(e, ptr, &mi);
    if (!mi) {
        wl_refuse(e, inst, "access through a pointer whose memory object is unknown");
        return NULL;
    }
    return &e->mo[mi - 1];
}

void wl_mem_load(wl_em *e, LLVMValueRef v)
{
    LLVMValueRef ptr = LLVMGetOperand(v, 0);
    LLVMTypeRef t = LLVMTypeOf(v);
    unsigned align = LLVMGetAlignment(v);
    int as = wl_ptr_space(LLVMTypeOf(ptr));
    LLVMAtomicOrdering ord = LLVMGetOrdering(v);
    if (LLVMGetTypeKind(t) == LLVMStructTypeKind || LLVMGetTypeKind(t) == LLVMArrayTypeKind) {
        wl_refuse(e, v, "load of an aggregate");
        return;
    }
    if (as == 1) {
        uint32_t addr = wl_val(e, ptr);
        uint32_t ty = wl_ty_llvm(e, t);
        if (wl_scalar_bits(t) == 1) {
            if (wl_vec_len(t)) {
                wl_refuse(e, v, "load of an i1 vector");
                return;
            }
            LLVMTypeRef i8 = LLVMInt8TypeInContext(e->ctx);
            uint32_t p = psb_ptr(e, v, addr, i8);
            uint32_t x = OP(e, SpvOpLoad, wl_ty_int(e, 8), p, SpvMemAccessAligned, align ? align : 1);
            wl_bind(e, v, OP(e, SpvOpINotEqual, ty, x, wl_c_int(e, 8, 0)));
            return;
        }
        if (ord != LLVMAtomicOrderingNotAtomic) {
            unsigned b = wl_scalar_bits(t);
            if (wl_vec_len(t) || (b != 32 && b != 64)) {
                wl_refuse(e, v, "atomic load of a type other than 32 or 64 bits");
                return;
            }
            LLVMTypeRef it = LLVMIntTypeInContext(e->ctx, b);
            uint32_t p = psb_ptr(e, v, addr, it);
            if (b == 64)
                cap_int64_atomics(e, SpvScPhysicalStorageBuffer);
            uint32_t x = OP(e, SpvOpAtomicLoad, wl_ty_int(e, b), p, wl_c_u32(e, SpvScopeDevice),
                            wl_c_u32(e, sem_of(ord, SpvScStorageBuffer, 1, 0)));
            wl_bind(e, v, ty == wl_ty_int(e, b) ? x : OP(e, SpvOpBitcast, ty, x));
            return;
        }
        if (byte_access(t, align) && !LLVMGetVolatile(v)) {
            wl_bind(e, v, byte_load(e, v, addr, t, align));
            return;
        }
        uint32_t p = elem_ptr(e, ptr, t);
        if (!p)
            p = psb_ptr(e, v, addr, t);
        uint32_t acc = SpvMemAccessAligned | (LLVMGetVolatile(v) ? SpvMemAccessVolatile : 0);
        wl_bind(e, v, OP(e, SpvOpLoad, ty, p, acc, align ? align : 1));
        return;
    }
    uint32_t off;
    wl_mobj *m = mobj_of(e, v, ptr, &off);
    if (!m)
        return;
    if (ord != LLVMAtomicOrderingNotAtomic && shared_sc(m->sc)) {
        unsigned b = wl_scalar_bits(t);
        if (wl_vec_len(t) || b != m->unit * 8) {
            wl_refuse(e, v, "atomic load of a size other than the memory object's unit");
            return;
        }
        if (b == 64)
            cap_int64_atomics(e, m->sc);
        uint32_t ut = wl_ty_int(e, b);
        uint32_t x = OP(e, SpvOpAtomicLoad, ut, unit_ptr(e, m, unit_index(e, m, off)), scope_of(e, m->sc),
                        wl_c_u32(e, sem_of(ord, m->sc, 1, 0)));
        uint32_t ty = wl_ty_llvm(e, t);
        wl_bind(e, v, ty == ut ? x : OP(e, SpvOpBitcast, ty, x));
        return;
    }
    uint32_t r = word_load(e, v, m, off, t, align);
    if (r) {
        if (wl_ptr_space(t) >= 0 && wl_ptr_space(t) != 1) {
            wl_refuse(e, v, "load of a pointer into word memory");
            return;
        }
        wl_bind(e, v, r);
    }
}

void wl_mem_store(wl_em *e, LLVMValueRef v)
{
    LLVMValueRef val = LLVMGetOperand(v, 0), ptr = LLVMGetOperand(v, 1);
    LLVMTypeRef t = LLVMTypeOf(val);
    unsigned align = LLVMGetAlignment(v);
    int as = wl_ptr_space(LLVMTypeOf(ptr));
    LLVMAtomicOrdering ord = LLVMGetOrdering(v);
    if (LLVMGetTypeKind(t) == LLVMStructTypeKind || LLVMGetTypeKind(t) == LLVMArrayTypeKind) {
        wl_refuse(e, v, "store of an aggregate");
        return;
    }
    if (wl_ptr_space(t) >= 0 && wl_ptr_space(t) != 1) {
        wl_refuse(e, v, "store of a pointer into word memory");
        return;
    }
    uint32_t x = wl_val(e, val);
    if (as == 1) {
        uint32_t addr = wl_val(e, ptr);
        if (wl_scalar_bits(t) == 1) {
            if (wl_vec_len(t)) {
                wl_refuse(e, v, "store of an i1 vector");
                return;
            }
            LLVMTypeRef i8 = LLVMInt8TypeInContext(e->ctx);
            uint32_t p = psb_ptr(e, v, addr, i8);
            uint32_t b = OP(e, SpvOpSelect, wl_ty_int(e, 8), x, wl_c_int(e, 8, 1), wl_c_int(e, 8, 0));
            INS(e, &e->body, SpvOpStore, p, b, SpvMemAccessAligned, align ? align : 1);
            return;
        }
        if (ord != LLVMAtomicOrderingNotAtomic) {
            unsigned b = wl_scalar_bits(t);
            if (wl_vec_len(t) || (b != 32 && b != 64)) {
                wl_refuse(e, v, "atomic store of a type other than 32 or 64 bits");
                return;
            }
            if (b == 64)
                cap_int64_atomics(e, SpvScPhysicalStorageBuffer);
            uint32_t it = wl_ty_int(e, b);
            uint32_t p = psb_ptr(e, v, addr, LLVMIntTypeInContext(e->ctx, b));
            uint32_t xi = wl_ty_llvm(e, t) == it ? x : OP(e, SpvOpBitcast, it, x);
            INS(e, &e->body, SpvOpAtomicStore, p, wl_c_u32(e, SpvScopeDevice),
                wl_c_u32(e, sem_of(ord, SpvScStorageBuffer, 0, 1)), xi);
            return;
        }
        if (byte_access(t, align) && !LLVMGetVolatile(v)) {
            byte_store(e, addr, t, x, align);
            return;
        }
        uint32_t p = elem_ptr(e, ptr, t);
        if (!p)
            p = psb_ptr(e, v, addr, t);
        uint32_t acc = SpvMemAccessAligned | (LLVMGetVolatile(v) ? SpvMemAccessVolatile : 0);
        INS(e, &e->body, SpvOpStore, p, x, acc, align ? align : 1);
        return;
    }
    uint32_t off;
    wl_mobj *m = mobj_of(e, v, ptr, &off);
    if (!m)
        return;
    if (ord != LLVMAtomicOrderingNotAtomic && shared_sc(m->sc)) {
        unsigned b = wl_scalar_bits(t);
        if (wl_vec_len(t) || b != m->unit * 8) {
            wl_refuse(e, v, "atomic store of a size other than the memory object's unit");
            return;
        }
        if (b == 64)
            cap_int64_atomics(e, m->sc);
        uint32_t ut = wl_ty_int(e, b);
        uint32_t xi = wl_ty_llvm(e, t) == ut ? x : OP(e, SpvOpBitcast, ut, x);
        INS(e, &e->body, SpvOpAtomicStore, unit_ptr(e, m, unit_index(e, m, off)), scope_of(e, m->sc),
            wl_c_u32(e, sem_of(ord, m->sc, 0, 1)), xi);
        return;
    }
    word_store(e, v, m, off, t, x, align);
}

/* The RMW operation applied to old and x (private memory's emulation). */
static uint32_t rmw_apply(wl_em *e, LLVMAtomicRMWBinOp op, uint32_t ty, uint32_t old, uint32_t x)
{
    switch (op) {
    case LLVMAtomicRMWBinOpXchg: return x;
    case LLVMAtomicRMWBinOpAdd: return OP(e, SpvOpIAdd, ty, old, x);
    case LLVMAtomicRMWBinOpSub: return OP(e, SpvOpISub, ty, old, x);
    case LLVMAtomicRMWBinOpAnd: return OP(e, SpvOpBitwiseAnd, ty, old, x);
    case LLVMAtomicRMWBinOpOr: return OP(e, SpvOpBitwiseOr, ty, old, x);
    case LLVMAtomicRMWBinOpXor: return OP(e, SpvOpBitwiseXor, ty, old, x);
    case LLVMAtomicRMWBinOpMax: return wl_glsl(e, ty, GLSLSMax, WL_OPS(old, x));
    case LLVMAtomicRMWBinOpMin: return wl_glsl(e, ty, GLSLSMin, WL_OPS(old, x));
    case LLVMAtomicRMWBinOpUMax: return wl_glsl(e, ty, GLSLUMax, WL_OPS(old, x));
    default: return wl_glsl(e, ty, GLSLUMin, WL_OPS(old, x));
    }
}

static uint32_t rmw_opcode(LLVMAtomicRMWBinOp op)
{
    switch (op) {
    case LLVMAtomicRMWBinOpXchg: return SpvOpAtomicExchange;
    case LLVMAtomicRMWBinOpAdd: return SpvOpAtomicIAdd;
    case LLVMAtomicRMWBinOpSub: return SpvOpAtomicISub;
    case LLVMAtomicRMWBinOpAnd: return SpvOpAtomicAnd;
    case LLVMAtomicRMWBinOpOr: return SpvOpAtomicOr;
    case LLVMAtomicRMWBinOpXor: return SpvOpAtomicXor;
    case LLVMAtomicRMWBinOpMax: return SpvOpAtomicSMax;
    case LLVMAtomicRMWBinOpMin: return SpvOpAtomicSMin;
    case LLVMAtomicRMWBinOpUMax: return SpvOpAtomicUMax;
    case LLVMAtomicRMWBinOpUMin: return SpvOpAtomicUMin;
    default: return 0;
    }
}

/* The pointer for an atomic on a unit (word memory) or on device memory;
 * *sc gets the storage class (Function: emulate). */
static uint32_t atomic_ptr(wl_em *e, LLVMValueRef inst, LLVMValueRef ptr, unsigned bits, uint32_t *sc,
                           wl_mobj **mo)
{
    *mo = NULL;
    if (bits != 32 && bits != 64)
        return wl_refuse(e, inst, "atomic of a size other than 32 or 64 bits");
    if (wl_ptr_space(LLVMTypeOf(ptr)) == 1) {
        *sc = SpvScPhysicalStorageBuffer;
        if (bits == 64)
            cap_int64_atomics(e, SpvScPhysicalStorageBuffer);
        return psb_ptr(e, inst, wl_val(e, ptr), LLVMIntTypeInContext(e->ctx, bits));
    }
    uint32_t off;
    wl_mobj *m = mobj_of(e, inst, ptr, &off);
    if (!m)
        return 0;
    if (m->unit * 8 != bits)
        return wl_refuse(e, inst, "atomic of a size other than the memory object's unit");
    if (m->readonly)
        return wl_refuse(e, inst, "atomic on read-only memory");
    *sc = m->sc;
    *mo = m;
    if (bits == 64 && shared_sc(m->sc))
        cap_int64_atomics(e, m->sc);
    return unit_ptr(e, m, unit_index(e, m, off));
}

void wl_mem_atomicrmw(wl_em *e, LLVMValueRef v)
{
    LLVMValueRef ptr = LLVMGetOperand(v, 0), val = LLVMGetOperand(v, 1);
    LLVMTypeRef t = LLVMTypeOf(v);
    unsigned bits = wl_scalar_bits(t);
    LLVMAtomicRMWBinOp op = LLVMGetAtomicRMWBinOp(v);
    uint32_t opc = rmw_opcode(op);
    int is_int = LLVMGetTypeKind(t) == LLVMIntegerTypeKind || wl_ptr_space(t) == 1;
    if (!opc || (!is_int && op != LLVMAtomicRMWBinOpXchg) || wl_vec_len(t)) {
        wl_refuse(e, v, "atomicrmw operation outside the profile");
        return;
    }
    uint32_t sc;
    wl_mobj *m;
    uint32_t p = atomic_ptr(e, v, ptr, bits, &sc, &m);
    if (!p)
        return;
    uint32_t it = wl_ty_int(e, bits), ty = wl_ty_llvm(e, t);
    uint32_t x = wl_val(e, val);
    if (ty != it)
        x = OP(e, SpvOpBitcast, it, x);
    uint32_t r;
    if (sc == SpvScFunction || sc == SpvScPrivate) {
        r = OP(e, SpvOpLoad, it, p);
        INS(e, &e->body, SpvOpStore, p, rmw_apply(e, op, it, r, x));
    } else {
        uint32_t sem = sem_of(LLVMGetOrdering(v), sc, 0, 0);
        r = OP(e, opc, it, p, scope_of(e, sc), wl_c_u32(e, sem), x);
    }
    wl_bind(e, v, ty == it ? r : OP(e, SpvOpBitcast, ty, r));
}

void wl_mem_cmpxchg(wl_em *e, LLVMValueRef v)
{
    LLVMValueRef ptr = LLVMGetOperand(v, 0), cmp = LLVMGetOperand(v, 1), nv = LLVMGetOperand(v, 2);
    LLVMTypeRef t = LLVMTypeOf(cmp);
    unsigned bits = wl_scalar_bits(t);
    if (!(LLVMGetTypeKind(t) == LLVMIntegerTypeKind || wl_ptr_space(t) == 1)) {
        wl_refuse(e, v, "cmpxchg of a type outside the profile");
        return;
    }
    uint32_t sc;
    wl_mobj *m;
    uint32_t p = atomic_ptr(e, v, ptr, bits, &sc, &m);
    if (!p)
        return;
    uint32_t it = wl_ty_int(e, bits), bt = wl_ty_bool(e);
    uint32_t c = wl_val(e, cmp), x = wl_val(e, nv);
    uint32_t old;
    if (sc == SpvScFunction || sc == SpvScPrivate) {
        old = OP(e, SpvOpLoad, it, p);
        uint32_t eq = OP(e, SpvOpIEqual, bt, old, c);
        INS(e, &e->body, SpvOpStore, p, OP(e, SpvOpSelect, it, eq, x, old));
    } else {
        uint32_t seq = sem_of(LLVMGetCmpXchgSuccessOrdering(v), sc, 0, 0);
        uint32_t sne = sem_of(LLVMGetCmpXchgFailureOrdering(v), sc, 1, 0);
        old = OP(e, SpvOpAtomicCompareExchange, it, p, scope_of(e, sc), wl_c_u32(e, seq), wl_c_u32(e, sne), x, c);
    }
    if (wl_mem_cmpxchg_split(v)) { /* its extractvalues take old and compare it (emit.c) */
        /* old stays the last fresh id: a phi that named the extractvalue of
         * old before (a merge loop's) takes the id itself, no copy */
        uint32_t fresh = e->fresh_id;
        wl_bind(e, v, old);
        e->fresh_id = fresh;
        return;
    }
    uint32_t eq = OP(e, SpvOpIEqual, bt, old, c);
    uint32_t st = wl_ty_llvm(e, LLVMTypeOf(v));
    wl_bind(e, v, OP(e, SpvOpCompositeConstruct, st, old, eq));
}

/* A cmpxchg used by extractvalues only: no {T, i1} composite is made */
int wl_mem_cmpxchg_split(LLVMValueRef v)
{
    if (!LLVMIsAAtomicCmpXchgInst(v))
        return 0;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef x = LLVMGetUser(u);
        if (!LLVMIsAExtractValueInst(x) || LLVMGetOperand(x, 0) != v || LLVMGetNumIndices(x) != 1)
            return 0;
    }
    return 1;
}

void wl_mem_fence(wl_em *e, LLVMValueRef v)
{
    uint32_t sem = SpvSemAcquireRelease | SpvSemUniformMemory | SpvSemWorkgroupMemory;
    if (LLVMIsAtomicSingleThread(v))
        return;
    INS(e, &e->body, SpvOpMemoryBarrier, wl_c_u32(e, SpvScopeDevice), wl_c_u32(e, sem));
}

/* llvm.memset / llvm.memcpy / llvm.memmove with a constant length: unrolled
 * into 32-bit (or byte) accesses, at most 256 of them. */
int wl_mem_intrinsic(wl_em *e, LLVMValueRef call, const char *name)
{
    int is_set = !strncmp(name, "llvm.memset.", 12);
    LLVMValueRef dst = LLVMGetOperand(call, 0), src = LLVMGetOperand(call, 1), len = LLVMGetOperand(call, 2);
    if (!LLVMIsAConstantInt(len))
        return wl_refuse(e, call, "memset/memcpy of a dynamic length");
    uint64_t n = LLVMConstIntGetZExtValue(len);
    if (n == 0)
        return 1;
    if (wl_ptr_space(LLVMTypeOf(dst)) == 1 || (!is_set && wl_ptr_space(LLVMTypeOf(src)) == 1)) {
        /* device memory: bytes as 32-bit words when aligned, else bytes */
        if (n > 1024)
            return wl_refuse(e, call, "memset/memcpy longer than 1024 bytes");
    }
    LLVMTypeRef i32 = LLVMInt32TypeInContext(e->ctx), i8 = LLVMInt8TypeInContext(e->ctx);
    int dw = wl_ptr_space(LLVMTypeOf(dst)) != 1;
    uint32_t doff = 0, soff = 0;
    wl_mobj *dm = NULL, *sm = NULL;
    if (dw && !(dm = mobj_of(e, call, dst, &doff)))
        return 0;
    if (!is_set && wl_ptr_space(LLVMTypeOf(src)) != 1 && !(sm = mobj_of(e, call, src, &soff)))
        return 0;
    int words = (n % 4) == 0;
    LLVMTypeRef et = words ? i32 : i8;
    uint64_t step = words ? 4 : 1, cnt = n / step;
    if (cnt > 256)
        return wl_refuse(e, call, "memset/memcpy of more than 256 elements");
    uint32_t fill = 0;
    if (is_set) {
        if (!LLVMIsAConstantInt(src))
            return wl_refuse(e, call, "memset with a dynamic value");
        uint64_t b = LLVMConstIntGetZExtValue(src) & 0xff;
        fill = words ? wl_c_u32(e, (uint32_t)(b * 0x01010101u)) : wl_c_int(e, 8, b);
    }
    uint32_t u32 = wl_ty_int(e, 32), u64 = wl_ty_int(e, 64);
    uint32_t ddev = dm ? 0 : wl_val(e, dst), sdev = (!is_set && !sm) ? wl_val(e, src) : 0;
    for (uint64_t i = 0; i < cnt && !e->failed; i++) {
        uint32_t x = fill;
        if (!is_set) {
            if (sm) {
                uint32_t o = i ? OP(e, SpvOpIAdd, u32, soff, wl_c_u32(e, (uint32_t)(i * step))) : soff;
                x = word_load_scalar(e, call, sm, o, et, (unsigned)step);
            } else {
                uint32_t a = i ? OP(e, SpvOpIAdd, u64, sdev, wl_c_int(e, 64, i * step)) : sdev;
                x = OP(e, SpvOpLoad, wl_ty_llvm(e, et), psb_ptr(e, call, a, et), SpvMemAccessAligned,
                       (uint32_t)step);
            }
        }
        if (dm) {
            uint32_t o = i ? OP(e, SpvOpIAdd, u32, doff, wl_c_u32(e, (uint32_t)(i * step))) : doff;
            word_store_scalar(e, call, dm, o, et, x, (unsigned)step);
        } else {
            uint32_t a = i ? OP(e, SpvOpIAdd, u64, ddev, wl_c_int(e, 64, i * step)) : ddev;
            INS(e, &e->body, SpvOpStore, psb_ptr(e, call, a, et), x, SpvMemAccessAligned, (uint32_t)step);
        }
    }
    return !e->failed;
}

/* An Input variable for a builtin; loaded (u32 or uvec3). */
uint32_t wl_builtin(wl_em *e, uint32_t builtin, int vec3)
{
    uint32_t u32 = wl_ty_int(e, 32);
    uint32_t ty = vec3 ? wl_ty_vec(e, u32, 3) : u32;
    if (builtin >= 48)
        return 0;
    if (!e->builtin[builtin]) {
        uint32_t var = wl_id(e);
        INS(e, &e->types, SpvOpVariable, wl_ty_ptr(e, SpvScInput, ty), var, SpvScInput);
        INS(e, &e->decor, SpvOpDecorate, var, SpvDecBuiltIn, builtin);
        iface_add(e, var);
        e->builtin[builtin] = var;
        if (builtin == SpvBuiltInSubgroupSize || builtin == SpvBuiltInSubgroupLocalInvocationId ||
            builtin == SpvBuiltInSubgroupId || builtin == SpvBuiltInNumSubgroups)
            wl_cap(e, SpvCapGroupNonUniform);
    }
    return OP(e, SpvOpLoad, ty, e->builtin[builtin]);
}

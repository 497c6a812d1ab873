/* The emitter: wl_emit_spirv, the function with its blocks and structured
 * branches, and the value instructions (arithmetic, comparisons,
 * conversions, select, phi, vectors and aggregates). Memory is memory.c,
 * calls are intrin.c, the module's words are module.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "be.h"

/* ---- values ---- */

static uint32_t const_expr(wl_em *e, LLVMValueRef c);

/* The id of a value; instructions not yet emitted get their id now (a phi's
 * forward reference), constants are written to the types section. */
uint32_t wl_val(wl_em *e, LLVMValueRef v)
{
    wl_pent *p = wl_pmap_get(&e->vals, v);
    if (p && p->a)
        return p->a;
    if (LLVMIsAInstruction(v)) {
        p = wl_pmap_put(e, &e->vals, v);
        if (!p)
            return 0;
        p->a = wl_id(e);
        return p->a;
    }
    if (LLVMIsAGlobalVariable(v)) {
        if (!wl_mem_base(e, v))
            return 0;
        return wl_c_u32(e, 0);
    }
    if (LLVMIsAConstantExpr(v))
        return const_expr(e, v);
    if (LLVMIsAArgument(v)) {
        wl_refuse(e, v, "a function argument outside its function");
        return 0;
    }
    if (LLVMIsAConstant(v) && !LLVMIsAGlobalValue(v))
        return wl_const(e, v);
    wl_refuse(e, v, "value outside the profile");
    return 0;
}

void wl_bind(wl_em *e, LLVMValueRef v, uint32_t id)
{
    wl_pent *p = wl_pmap_put(e, &e->vals, v);
    if (!p)
        return;
    if (!p->a) {
        p->a = id;
        if (id == e->fresh_id)
            e->fresh_id = 0; /* bound: another value may alias it later */
    } else if (p->a != id && id == e->fresh_id && e->body.w[e->fresh_pos] == id) {
        /* a phi referred to it before, and the instruction that made it
         * was the last one written, its id named by nothing yet: it
         * defines the phi's id itself */
        const uint32_t *ins = &e->body.w[e->fresh_pos - 2]; /* wl_op wrote it: count|opcode, type, id, operands */
        wl_cse_rename(e, ins[0] & 0xffffu, ins[1], (int)(ins[0] >> 16) - 3, ins + 3, id, p->a); /* blockcse.c */
        e->body.w[e->fresh_pos] = p->a;
        e->fresh_id = 0;
    } else if (p->a != id) {
        /* a phi referred to it before: copy into the id it got */
        uint32_t ty = wl_ty_llvm(e, LLVMTypeOf(v));
        wl_op_to(e, p->a, SpvOpCopyObject, ty, 1, &id);
    }
}

static void bind_ptr(wl_em *e, LLVMValueRef v, uint32_t id, int mobj)
{
    wl_bind(e, v, id);
    wl_pent *p = wl_pmap_get(&e->vals, v);
    if (p)
        p->b = (uint32_t)mobj;
}

/* An integer constant of LLVM type t (scalar or vector), each element v. */
static uint32_t c_int_of(wl_em *e, LLVMTypeRef t, uint64_t v)
{
    unsigned n = wl_vec_len(t), w = wl_scalar_bits(t);
    uint32_t s = w == 1 ? wl_c_bool(e, (int)(v & 1)) : wl_c_int(e, w, v);
    return n ? wl_c_splat(e, wl_ty_llvm(e, t), n, s) : s;
}

static uint32_t c_float_of(wl_em *e, LLVMTypeRef t, double v)
{
    unsigned n = wl_vec_len(t), w = wl_scalar_bits(t);
    uint32_t s = wl_c_float(e, w, v);
    return n ? wl_c_splat(e, wl_ty_llvm(e, t), n, s) : s;
}

/* bool (or bool vector) of type bt to an integer of width (1 or -1 for true). */
uint32_t wl_bool_to_int(wl_em *e, LLVMTypeRef bt, uint32_t b, unsigned width, int sign)
{
    unsigned n = wl_vec_len(bt);
    uint32_t it = wl_ty_int(e, width);
    uint32_t one = wl_c_int(e, width, sign ? ~0ull : 1), zero = wl_c_int(e, width, 0);
    if (n) {
        it = wl_ty_vec(e, it, n);
        one = wl_c_splat(e, it, n, one);
        zero = wl_c_splat(e, it, n, zero);
    }
    return OP(e, SpvOpSelect, it, b, one, zero);
}

/* ---- arithmetic ---- */

/* v = shl nuw i32 x, k (k < 4): its id in e->scaled, for memory.c's unit
 * index (x << k >> k is x where no bit left at the shift) */
static void note_scaled(wl_em *e, LLVMValueRef v, LLVMOpcode op)
{
    if (op != LLVMShl || !LLVMGetNUW(v) || LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMIntegerTypeKind ||
        wl_scalar_bits(LLVMTypeOf(v)) != 32)
        return;
    LLVMValueRef k = LLVMGetOperand(v, 1);
    if (!LLVMIsAConstantInt(k) || LLVMConstIntGetZExtValue(k) > 3)
        return;
    wl_pent *self = wl_pmap_get(&e->vals, v), *x = wl_pmap_get(&e->vals, LLVMGetOperand(v, 0));
    if (!self || !x || !self->a || !x->a || LLVMIsAConstant(LLVMGetOperand(v, 0)))
        return;
    wl_pent *p = wl_pmap_put(e, &e->scaled, (const void *)(uintptr_t)self->a);
    if (p) {
        p->a = x->a;
        p->b = (uint32_t)LLVMConstIntGetZExtValue(k);
    }
}

static void binop(wl_em *e, LLVMValueRef v, LLVMOpcode op)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    uint32_t ty = wl_ty_llvm(e, t);
    if (!ty) {
        wl_refuse(e, v, "type outside the profile");
        return;
    }
    uint32_t a = wl_val(e, LLVMGetOperand(v, 0)), b = wl_val(e, LLVMGetOperand(v, 1));
    unsigned w = wl_scalar_bits(t);
    uint32_t sop = 0;
    if (w == 1 && LLVMGetTypeKind(LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t) ==
                      LLVMIntegerTypeKind) {
        switch (op) {
        case LLVMAdd: case LLVMSub: case LLVMXor: sop = SpvOpLogicalNotEqual; break;
        case LLVMAnd: case LLVMMul: sop = SpvOpLogicalAnd; break;
        case LLVMOr: sop = SpvOpLogicalOr; break;
        default: wl_refuse(e, v, "i1 arithmetic outside the profile"); return;
        }
        wl_bind(e, v, OP(e, sop, ty, a, b));
        return;
    }
    if (op == LLVMSRem && w == 64) {
        /* 64-bit srem as a - (a sdiv b) * b: NVIDIA's driver 580 computes
         * OpSRem on 64-bit integers wrongly for some operands (measured on
         * an H200, exec_int64_double at -O0: 5 of 64 results), while its
         * OpSDiv is right; both forms are exact by LLVM's definition. */
        uint32_t q = OP(e, SpvOpSDiv, ty, a, b);
        wl_bind(e, v, OP(e, SpvOpISub, ty, a, OP(e, SpvOpIMul, ty, q, b)));
        return;
    }
    switch (op) {
    case LLVMAdd: sop = SpvOpIAdd; break;
    case LLVMSub: sop = SpvOpISub; break;
    case LLVMMul: sop = SpvOpIMul; break;
    case LLVMUDiv: sop = SpvOpUDiv; break;
    case LLVMSDiv: sop = SpvOpSDiv; break;
    case LLVMURem: sop = SpvOpUMod; break;
    case LLVMSRem: sop = SpvOpSRem; break;
    case LLVMShl: sop = SpvOpShiftLeftLogical; break;
    case LLVMLShr: sop = SpvOpShiftRightLogical; break;
    case LLVMAShr: sop = SpvOpShiftRightArithmetic; break;
    case LLVMAnd: sop = SpvOpBitwiseAnd; break;
    case LLVMOr: sop = SpvOpBitwiseOr; break;
    case LLVMXor: sop = SpvOpBitwiseXor; break;
    case LLVMFAdd: sop = SpvOpFAdd; break;
    case LLVMFSub: sop = SpvOpFSub; break;
    case LLVMFMul: sop = SpvOpFMul; break;
    case LLVMFDiv: sop = SpvOpFDiv; break;
    case LLVMFRem: sop = SpvOpFRem; break;
    default: wl_refuse(e, v, "instruction outside the profile"); return;
    }
    wl_bind(e, v, OP(e, sop, ty, a, b));
    note_scaled(e, v, op);
}

static void icmp(wl_em *e, LLVMValueRef v)
{
    LLVMValueRef x = LLVMGetOperand(v, 0), y = LLVMGetOperand(v, 1);
    LLVMTypeRef ot = LLVMTypeOf(x);
    uint32_t ty = wl_ty_llvm(e, LLVMTypeOf(v));
    uint32_t a, b;
    LLVMIntPredicate p = LLVMGetICmpPredicate(v);
    if (wl_ptr_space(ot) >= 0 && wl_ptr_space(ot) != 1) {
        int ma = 0, mb = 0;
        a = wl_ptr_value(e, x, &ma);
        b = wl_ptr_value(e, y, &mb);
        if (ma && mb && ma != mb) {
            wl_refuse(e, v, "comparison of pointers into different memory objects");
            return;
        }
    } else if (wl_vec_len(ot) && wl_ptr_space(LLVMGetElementType(ot)) >= 0) {
        wl_refuse(e, v, "vector of pointers");
        return;
    } else {
        a = wl_val(e, x);
        b = wl_val(e, y);
    }
    if (wl_scalar_bits(ot) == 1) {
        if (p == LLVMIntEQ || p == LLVMIntNE) {
            wl_bind(e, v, OP(e, p == LLVMIntEQ ? SpvOpLogicalEqual : SpvOpLogicalNotEqual, ty, a, b));
            return;
        }
        /* order on i1: as 0/1 (unsigned) or 0/-1 (signed) */
        int sg = p >= LLVMIntSGT;
        a = wl_bool_to_int(e, ot, a, 32, sg);
        b = wl_bool_to_int(e, ot, b, 32, sg);
    }
    uint32_t sop;
    switch (p) {
    case LLVMIntEQ: sop = SpvOpIEqual; break;
    case LLVMIntNE: sop = SpvOpINotEqual; break;
    case LLVMIntUGT: sop = SpvOpUGreaterThan; break;
    case LLVMIntUGE: sop = SpvOpUGreaterThanEqual; break;
    case LLVMIntULT: sop = SpvOpULessThan; break;
    case LLVMIntULE: sop = SpvOpULessThanEqual; break;
    case LLVMIntSGT: sop = SpvOpSGreaterThan; break;
    case LLVMIntSGE: sop = SpvOpSGreaterThanEqual; break;
    case LLVMIntSLT: sop = SpvOpSLessThan; break;
    default: sop = SpvOpSLessThanEqual; break;
    }
    wl_bind(e, v, OP(e, sop, ty, a, b));
}

/* OpExtension "SPV_KHR_maximal_reconvergence" before OpMemoryModel and
 * OpExecutionMode %entry MaximallyReconvergesKHR (6023) after the entry
 * point's first execution mode: the module's words grow by 12, its ids
 * stay. After validation, which Debian 12's SPIRV-Tools (2023.1) would
 * fail on the mode it does not know. */
static wl_status add_maximal_reconvergence(uint32_t **words, size_t *nwords)
{
    static const char ext[] = "SPV_KHR_maximal_reconvergence"; /* 29 bytes: 8 words with its NUL */
    uint32_t extw[9] = {(9u << 16) | SpvOpExtension};
    memcpy(&extw[1], ext, sizeof ext);
    size_t n = *nwords;
    uint32_t *w = *words, *out = malloc((n + 12) * sizeof *out);
    if (!out)
        return WL_ERR_NOMEM;
    size_t o = 0, i = 5;
    memcpy(out, w, 5 * sizeof *w);
    o = 5;
    uint32_t entry = 0;
    int ext_done = 0, mode_done = 0;
    while (i < n) {
        uint32_t op = w[i] & 0xffffu, len = w[i] >> 16;
        if (!len || i + len > n)
            break;
        if (op == SpvOpMemoryModel && !ext_done) {
            memcpy(&out[o], extw, sizeof extw);
            o += 9;
            ext_done = 1;
        }
        if (op == SpvOpEntryPoint && !entry)
            entry = w[i + 2];
        memcpy(&out[o], &w[i], len * sizeof *w);
        o += len;
        if (op == SpvOpExecutionMode && !mode_done && entry && w[i + 1] == entry) {
            out[o++] = (3u << 16) | SpvOpExecutionMode;
            out[o++] = entry;
            out[o++] = 6023u; /* MaximallyReconvergesKHR */
            mode_done = 1;
        }
        i += len;
    }
    if (!ext_done || !mode_done || i != n) {
        free(out);
        return WL_ERR_INVALID;
    }
    free(w);
    *words = out;
    *nwords = o;
    return WL_OK;
}

/* v is a float constant (or a vector of them) holding no NaN */
static int const_not_nan(LLVMValueRef v)
{
    if (LLVMIsAConstantAggregateZero(v))
        return 1;
    if (LLVMIsAConstantFP(v)) {
        LLVMBool lost = 0;
        double d = LLVMConstRealGetDouble(v, &lost);
        return d == d;
    }
    if (LLVMIsAConstantDataVector(v) || LLVMIsAConstantVector(v)) {
        unsigned n = LLVMGetVectorSize(LLVMTypeOf(v));
        for (unsigned i = 0; i < n; i++) {
            LLVMValueRef x = LLVMGetAggregateElement(v, i);
            if (!x || !const_not_nan(x))
                return 0;
        }
        return 1;
    }
    return 0;
}

static void fcmp(wl_em *e, LLVMValueRef v)
{
    LLVMTypeRef rt = LLVMTypeOf(v);
    uint32_t ty = wl_ty_llvm(e, rt);
    uint32_t a = wl_val(e, LLVMGetOperand(v, 0)), b = wl_val(e, LLVMGetOperand(v, 1));
    uint32_t sop = 0;
    switch (LLVMGetFCmpPredicate(v)) {
    case LLVMRealPredicateFalse: wl_bind(e, v, c_int_of(e, rt, 0)); return;
    case LLVMRealPredicateTrue: wl_bind(e, v, c_int_of(e, rt, 1)); return;
    case LLVMRealOEQ: sop = SpvOpFOrdEqual; break;
    case LLVMRealOGT: sop = SpvOpFOrdGreaterThan; break;
    case LLVMRealOGE: sop = SpvOpFOrdGreaterThanEqual; break;
    case LLVMRealOLT: sop = SpvOpFOrdLessThan; break;
    case LLVMRealOLE: sop = SpvOpFOrdLessThanEqual; break;
    case LLVMRealONE: sop = SpvOpFOrdNotEqual; break;
    case LLVMRealUEQ: sop = SpvOpFUnordEqual; break;
    case LLVMRealUGT: sop = SpvOpFUnordGreaterThan; break;
    case LLVMRealUGE: sop = SpvOpFUnordGreaterThanEqual; break;
    case LLVMRealULT: sop = SpvOpFUnordLessThan; break;
    case LLVMRealULE: sop = SpvOpFUnordLessThanEqual; break;
    case LLVMRealUNE: sop = SpvOpFUnordNotEqual; break;
    case LLVMRealORD:
    case LLVMRealUNO: {
        /* LLVM's isnan(x) is `fcmp uno x, 0.0`: a constant that is no NaN
         * needs no test */
        int ka = const_not_nan(LLVMGetOperand(v, 0)), kb = const_not_nan(LLVMGetOperand(v, 1));
        uint32_t na = ka ? 0 : OP(e, SpvOpIsNan, ty, a), nb = kb ? 0 : OP(e, SpvOpIsNan, ty, b);
        uint32_t any = ka && kb ? c_int_of(e, rt, 0) : ka ? nb : kb ? na : OP(e, SpvOpLogicalOr, ty, na, nb);
        if (LLVMGetFCmpPredicate(v) == LLVMRealUNO)
            wl_bind(e, v, any);
        else
            wl_bind(e, v, OP(e, SpvOpLogicalNot, ty, any));
        return;
    }
    }
    wl_bind(e, v, OP(e, sop, ty, a, b));
}

/* Conversions; `v` is an instruction or a constant expression. Returns the
 * result id (bound by the caller). */
static uint32_t cast(wl_em *e, LLVMValueRef v, LLVMOpcode op, int *mobj)
{
    LLVMValueRef x = LLVMGetOperand(v, 0);
    LLVMTypeRef st = LLVMTypeOf(x), dt = LLVMTypeOf(v);
    uint32_t ty = wl_ty_llvm(e, dt);
    if (!ty || !wl_ty_llvm(e, st))
        return wl_refuse(e, v, "conversion of a type outside the profile");
    unsigned sw = wl_scalar_bits(st), dw = wl_scalar_bits(dt);
    int sp = wl_ptr_space(st), dp = wl_ptr_space(dt);
    if (op == LLVMBitCast && sp >= 0 && dp >= 0) {
        if (sp == 1 && dp == 1)
            return wl_val(e, x);
        if (sp == dp)
            return wl_ptr_value(e, x, mobj);
    }
    if ((sp >= 0 && sp != 1) || (dp >= 0 && dp != 1))
        return wl_refuse(e, v, "conversion of a pointer into private, workgroup or buffer memory");
    if (op == LLVMAddrSpaceCast)
        return wl_refuse(e, v, "address-space cast");
    uint32_t a = wl_val(e, x);
    switch (op) {
    case LLVMTrunc:
        if (dw == 1) {
            uint32_t one = c_int_of(e, st, 1);
            uint32_t and = OP(e, SpvOpBitwiseAnd, wl_ty_llvm(e, st), a, one);
            return OP(e, SpvOpINotEqual, ty, and, c_int_of(e, st, 0));
        }
        return OP(e, SpvOpUConvert, ty, a);
    case LLVMZExt:
    case LLVMSExt:
        if (sw == 1)
            return OP(e, SpvOpSelect, ty, a, c_int_of(e, dt, op == LLVMSExt ? ~0ull : 1), c_int_of(e, dt, 0));
        return OP(e, op == LLVMZExt ? SpvOpUConvert : SpvOpSConvert, ty, a);
    case LLVMFPTrunc:
    case LLVMFPExt:
        return OP(e, SpvOpFConvert, ty, a);
    case LLVMFPToUI:
    case LLVMFPToSI:
        if (dw == 1)
            return wl_refuse(e, v, "float to i1 conversion");
        return OP(e, op == LLVMFPToUI ? SpvOpConvertFToU : SpvOpConvertFToS, ty, a);
    case LLVMUIToFP:
    case LLVMSIToFP:
        if (sw == 1)
            return OP(e, SpvOpSelect, ty, a, c_float_of(e, dt, op == LLVMSIToFP ? -1.0 : 1.0), c_float_of(e, dt, 0.0));
        return OP(e, op == LLVMUIToFP ? SpvOpConvertUToF : SpvOpConvertSToF, ty, a);
    case LLVMPtrToInt:
    case LLVMIntToPtr:
        if (wl_vec_len(st) || wl_vec_len(dt))
            return wl_refuse(e, v, "vector of pointers");
        if (sw == dw)
            return a;
        if (dw == 1 || sw == 1)
            return wl_refuse(e, v, "pointer conversion from or to i1");
        return OP(e, SpvOpUConvert, ty, a);
    case LLVMBitCast:
        if (sw == 1 || dw == 1)
            return wl_refuse(e, v, "bitcast of i1 values");
        if (ty == wl_ty_llvm(e, st))
            return a;
        return OP(e, SpvOpBitcast, ty, a);
    default:
        return wl_refuse(e, v, "conversion outside the profile");
    }
}

/* A constant expression, written where it is used. */
static uint32_t const_expr(wl_em *e, LLVMValueRef c)
{
    LLVMOpcode op = LLVMGetConstOpcode(c);
    int mobj = 0;
    switch (op) {
    case LLVMGetElementPtr:
        return wl_ptr_value(e, c, &mobj);
    case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMPtrToInt: case LLVMIntToPtr:
    case LLVMBitCast: case LLVMAddrSpaceCast:
        return cast(e, c, op, &mobj);
    default:
        wl_refuse(e, c, "constant expression outside the profile");
        return 0;
    }
}

static void select_inst(wl_em *e, LLVMValueRef v)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    uint32_t ty = wl_ty_llvm(e, t);
    if (!ty) {
        wl_refuse(e, v, "type outside the profile");
        return;
    }
    uint32_t c = wl_val(e, LLVMGetOperand(v, 0));
    if (wl_ptr_space(t) >= 0 && wl_ptr_space(t) != 1) {
        int ma = 0, mb = 0;
        uint32_t a = wl_ptr_value(e, LLVMGetOperand(v, 1), &ma);
        uint32_t b = wl_ptr_value(e, LLVMGetOperand(v, 2), &mb);
        if (ma && mb && ma != mb) {
            wl_refuse(e, v, "select between pointers into different memory objects");
            return;
        }
        bind_ptr(e, v, OP(e, SpvOpSelect, ty, c, a, b), ma ? ma : mb);
        return;
    }
    uint32_t a = wl_val(e, LLVMGetOperand(v, 1)), b = wl_val(e, LLVMGetOperand(v, 2));
    wl_bind(e, v, OP(e, SpvOpSelect, ty, c, a, b));
}

static void vector_inst(wl_em *e, LLVMValueRef v, LLVMOpcode op)
{
    uint32_t ty = wl_ty_llvm(e, LLVMTypeOf(v));
    if (!ty) {
        wl_refuse(e, v, "type outside the profile (vectors of 2 to 4 elements)");
        return;
    }
    if (op == LLVMExtractElement || op == LLVMInsertElement) {
        int ins = op == LLVMInsertElement;
        LLVMValueRef vec = LLVMGetOperand(v, 0), idx = LLVMGetOperand(v, ins ? 2 : 1);
        uint32_t a = wl_val(e, vec);
        if (!wl_ty_llvm(e, LLVMTypeOf(vec))) {
            wl_refuse(e, v, "vector outside the profile");
            return;
        }
        if (LLVMIsAConstantInt(idx)) {
            uint64_t k = LLVMConstIntGetZExtValue(idx);
            if (k >= wl_vec_len(LLVMTypeOf(vec))) {
                wl_bind(e, v, wl_c_undef(e, LLVMTypeOf(v), ty));
                return;
            }
            if (ins)
                wl_bind(e, v, OP(e, SpvOpCompositeInsert, ty, wl_val(e, LLVMGetOperand(v, 1)), a, (uint32_t)k));
            else
                wl_bind(e, v, OP(e, SpvOpCompositeExtract, ty, a, (uint32_t)k));
            return;
        }
        uint32_t i = wl_val(e, idx);
        if (ins)
            wl_bind(e, v, OP(e, SpvOpVectorInsertDynamic, ty, a, wl_val(e, LLVMGetOperand(v, 1)), i));
        else
            wl_bind(e, v, OP(e, SpvOpVectorExtractDynamic, ty, a, i));
        return;
    }
    /* shufflevector */
    LLVMValueRef x = LLVMGetOperand(v, 0), y = LLVMGetOperand(v, 1);
    if (!wl_ty_llvm(e, LLVMTypeOf(x))) {
        wl_refuse(e, v, "vector outside the profile");
        return;
    }
    unsigned n = LLVMGetNumMaskElements(v);
    uint32_t ops[8] = {wl_val(e, x), wl_val(e, y)};
    for (unsigned i = 0; i < n && i < 4; i++) {
        int m = LLVMGetMaskValue(v, i);
        ops[2 + i] = m == LLVMGetUndefMaskElem() ? 0xffffffffu : (uint32_t)m;
    }
    wl_bind(e, v, wl_op(e, SpvOpVectorShuffle, ty, (int)(2 + n), ops));
}

static void aggregate_inst(wl_em *e, LLVMValueRef v, LLVMOpcode op)
{
    uint32_t ty = wl_ty_llvm(e, LLVMTypeOf(v));
    unsigned ni = LLVMGetNumIndices(v);
    const unsigned *idx = LLVMGetIndices(v);
    if (!ty || ni > 8) {
        wl_refuse(e, v, "aggregate outside the profile");
        return;
    }
    LLVMValueRef agg = LLVMGetOperand(v, 0);
    if (op == LLVMExtractValue && ni == 1 && wl_mem_cmpxchg_split(agg)) { /* memory.c: {old, old == cmp} */
        uint32_t old = wl_val(e, agg);
        if (idx[0] != 0) {
            wl_bind(e, v, OP(e, SpvOpIEqual, ty, old, wl_val(e, LLVMGetOperand(agg, 1))));
            return;
        }
        wl_bind(e, v, old); /* where a phi named v before, old may take v's id (wl_bind) */
        wl_pent *pv = wl_pmap_get(&e->vals, v), *pa = wl_pmap_get(&e->vals, agg);
        if (pv && pa && pv->a != old)
            pa->a = pv->a; /* renamed (or copied): the cmpxchg's old is that id now */
        return;
    }
    uint32_t ops[12];
    int k = 0;
    if (op == LLVMInsertValue)
        ops[k++] = wl_val(e, LLVMGetOperand(v, 1));
    ops[k++] = wl_val(e, LLVMGetOperand(v, 0));
    for (unsigned i = 0; i < ni; i++)
        ops[k++] = idx[i];
    wl_bind(e, v, wl_op(e, op == LLVMInsertValue ? SpvOpCompositeInsert : SpvOpCompositeExtract, ty, k, ops));
}

static void freeze_inst(wl_em *e, LLVMValueRef v)
{
    LLVMValueRef x = LLVMGetOperand(v, 0);
    LLVMTypeRef t = LLVMTypeOf(v);
    if (LLVMIsUndef(x) || LLVMIsPoison(x)) {
        uint32_t ty = wl_ty_llvm(e, t);
        if (!ty) {
            wl_refuse(e, v, "type outside the profile");
            return;
        }
        wl_bind(e, v, wl_c_null(e, ty));
        return;
    }
    if (wl_ptr_space(t) >= 0 && wl_ptr_space(t) != 1) {
        int m = 0;
        uint32_t id = wl_ptr_value(e, x, &m);
        bind_ptr(e, v, id, m);
        return;
    }
    wl_bind(e, v, wl_val(e, x));
}

/* ---- the function ---- */

static void instruction(wl_em *e, LLVMValueRef v)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    int mobj = 0;
    switch (op) {
    case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMUDiv: case LLVMSDiv: case LLVMURem:
    case LLVMSRem: case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr:
    case LLVMXor: case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv: case LLVMFRem:
        binop(e, v, op);
        break;
    case LLVMFNeg:
        wl_bind(e, v, OP(e, SpvOpFNegate, wl_ty_llvm(e, LLVMTypeOf(v)), wl_val(e, LLVMGetOperand(v, 0))));
        break;
    case LLVMICmp: icmp(e, v); break;
    case LLVMFCmp: fcmp(e, v); break;
    case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMFPTrunc: case LLVMFPExt:
    case LLVMFPToUI: case LLVMFPToSI: case LLVMUIToFP: case LLVMSIToFP: case LLVMPtrToInt:
    case LLVMIntToPtr: case LLVMBitCast: case LLVMAddrSpaceCast: {
        uint32_t id = cast(e, v, op, &mobj);
        if (mobj)
            bind_ptr(e, v, id, mobj);
        else if (id)
            wl_bind(e, v, id);
        break;
    }
    case LLVMSelect: select_inst(e, v); break;
    case LLVMExtractElement: case LLVMInsertElement: case LLVMShuffleVector:
        vector_inst(e, v, op);
        break;
    case LLVMExtractValue: case LLVMInsertValue: aggregate_inst(e, v, op); break;
    case LLVMFreeze: freeze_inst(e, v); break;
    case LLVMAlloca: wl_mem_alloca(e, v); break;
    case LLVMGetElementPtr: wl_mem_gep(e, v); break;
    case LLVMLoad: wl_mem_load(e, v); break;
    case LLVMStore: wl_mem_store(e, v); break;
    case LLVMAtomicRMW: wl_mem_atomicrmw(e, v); break;
    case LLVMAtomicCmpXchg: wl_mem_cmpxchg(e, v); break;
    case LLVMFence: wl_mem_fence(e, v); break;
    case LLVMCall: wl_call(e, v); break;
    default: wl_refuse(e, v, "instruction outside the profile"); break;
    }
}

static void phis(wl_em *e, wl_cfg *cfg, LLVMBasicBlockRef bb)
{
    for (LLVMValueRef v = LLVMGetFirstInstruction(bb); v && LLVMIsAPHINode(v); v = LLVMGetNextInstruction(v)) {
        e->cur = v;
        LLVMTypeRef t = LLVMTypeOf(v);
        uint32_t ty = wl_ty_llvm(e, t);
        if (!ty) {
            wl_refuse(e, v, "phi of a type outside the profile");
            return;
        }
        int word = wl_ptr_space(t) >= 0 && wl_ptr_space(t) != 1;
        int base = word ? wl_mem_base(e, v) : 0;
        if (word && !base) {
            wl_refuse(e, v, "pointer phi whose memory object is unknown");
            return;
        }
        unsigned n = LLVMCountIncoming(v);
        uint32_t *ops = malloc((2 * n + 1) * sizeof *ops);
        if (!ops) {
            wl_fail_nomem(e);
            return;
        }
        int k = 0;
        for (unsigned i = 0; i < n; i++) {
            LLVMBasicBlockRef p = LLVMGetIncomingBlock(v, i);
            int pi = wl_cfg_index(cfg, p);
            if (pi < 0)
                continue; /* an unreachable predecessor */
            LLVMValueRef x = LLVMGetIncomingValue(v, i);
            int dup = 0;
            for (int j = 0; j < k; j += 2)
                if (ops[j + 1] == cfg->label_body[pi])
                    dup = 1;
            if (dup)
                continue;
            if (word) {
                int m = 0;
                ops[k] = wl_ptr_value(e, x, &m);
                if (m && m != base) {
                    free(ops);
                    wl_refuse(e, v, "phi of pointers into different memory objects");
                    return;
                }
            } else {
                ops[k] = wl_val(e, x);
            }
            ops[k + 1] = cfg->label_body[pi];
            k += 2;
        }
        uint32_t id = wl_val(e, v);
        wl_op_to(e, id, SpvOpPhi, ty, k, ops);
        if (word) {
            wl_pent *p = wl_pmap_get(&e->vals, v);
            if (p)
                p->b = (uint32_t)base;
        }
        free(ops);
    }
}

static uint32_t merge_label(wl_em *e, wl_cfg *cfg, int m, wl_wbuf *unreach)
{
    if (m >= 0)
        return cfg->label_in[m];
    uint32_t l = wl_id(e);
    wl_wb_push(e, unreach, l);
    return l;
}

static void terminator(wl_em *e, wl_cfg *cfg, int b, LLVMValueRef t, wl_wbuf *unreach)
{
    e->cur = t;
    switch (LLVMGetInstructionOpcode(t)) {
    case LLVMRet:
        if (LLVMGetNumOperands(t) != 0) {
            if (e->fn == e->entry) {
                wl_refuse(e, t, "the entry returns a value");
                return;
            }
            INS(e, &e->body, SpvOpReturnValue, wl_val(e, LLVMGetOperand(t, 0)));
            return;
        }
        wl_wb_ins(e, &e->body, SpvOpReturn, 0, NULL);
        return;
    case LLVMUnreachable:
        wl_wb_ins(e, &e->body, SpvOpUnreachable, 0, NULL);
        return;
    case LLVMBr:
        break;
    default:
        wl_refuse(e, t, "terminator outside the profile");
        return;
    }
    if (!LLVMIsConditional(t)) {
        int s = wl_cfg_index(cfg, LLVMGetSuccessor(t, 0));
        INS(e, &e->body, SpvOpBranch, cfg->label_in[s]);
        return;
    }
    int s0 = wl_cfg_index(cfg, LLVMGetSuccessor(t, 0)), s1 = wl_cfg_index(cfg, LLVMGetSuccessor(t, 1));
    if (s0 == s1) {
        INS(e, &e->body, SpvOpBranch, cfg->label_in[s0]);
        return;
    }
    uint32_t c = wl_val(e, LLVMGetCondition(t));
    if (cfg->merge[b] != -1)
        INS(e, &e->body, SpvOpSelectionMerge, merge_label(e, cfg, cfg->merge[b], unreach), 0);
    INS(e, &e->body, SpvOpBranchConditional, c, cfg->label_in[s0], cfg->label_in[s1]);
}

static void block_name(wl_em *e, LLVMBasicBlockRef bb, uint32_t label)
{
    const char *n = LLVMGetBasicBlockName(bb);
    if (n && *n)
        wl_wb_str(e, &e->names, SpvOpName, label, n, strlen(n));
}

static void value_names(wl_em *e, LLVMBasicBlockRef bb)
{
    for (LLVMValueRef v = LLVMGetFirstInstruction(bb); v; v = LLVMGetNextInstruction(v)) {
        size_t len = 0;
        const char *n = LLVMGetValueName2(v, &len);
        wl_pent *p = wl_pmap_get(&e->vals, v);
        /* allocas and copies share ids with constants or other values */
        if (LLVMIsAAllocaInst(v) || LLVMIsAFreezeInst(v) || LLVMIsACastInst(v) || LLVMIsACallInst(v))
            continue;
        if (n && len && p && p->a && p->a < e->next_id)
            wl_wb_str(e, &e->names, SpvOpName, p->a, n, len);
    }
}

/* The OpTypeFunction of fn (one per signature: SPIR-V forbids duplicate
 * non-aggregate types); its return type in *rt. Parameters are values:
 * a pointer parameter is refused (a word-memory object has no SPIR-V
 * pointer to pass; the lowering passes integer addresses). */
static uint32_t fn_type(wl_em *e, LLVMValueRef fn, uint32_t *rt)
{
    LLVMTypeRef t = LLVMGlobalGetValueType(fn);
    LLVMTypeRef r = LLVMGetReturnType(t);
    unsigned n = LLVMCountParams(fn);
    if (n > 32) {
        wl_refuse(e, fn, "a function of more than 32 parameters");
        return 0;
    }
    uint32_t sig[34];
    sig[0] = LLVMGetTypeKind(r) == LLVMVoidTypeKind ? wl_ty_void(e) : wl_ty_llvm(e, r);
    for (unsigned i = 0; i < n; i++) {
        LLVMTypeRef pt = LLVMTypeOf(LLVMGetParam(fn, i));
        if (LLVMGetTypeKind(pt) == LLVMPointerTypeKind) {
            wl_refuse(e, LLVMGetParam(fn, i), "a pointer parameter (pass an integer address)");
            return 0;
        }
        sig[1 + i] = wl_ty_llvm(e, pt);
    }
    *rt = sig[0];
    for (unsigned i = 0; i <= n; i++)
        if (!sig[i])
            return 0;
    /* e->fsig: records [n + 1, type id, return, params...] */
    for (size_t at = 0; at < e->fsig.n; at += e->fsig.w[at] + 2)
        if (e->fsig.w[at] == n + 1 && !memcmp(&e->fsig.w[at + 2], sig, (n + 1) * sizeof(uint32_t)))
            return e->fsig.w[at + 1];
    uint32_t ft = wl_id(e);
    wl_wb_push(e, &e->types, ((uint32_t)(n + 3) << 16) | SpvOpTypeFunction);
    wl_wb_push(e, &e->types, ft);
    for (unsigned i = 0; i <= n; i++)
        wl_wb_push(e, &e->types, sig[i]);
    wl_wb_push(e, &e->fsig, n + 1);
    wl_wb_push(e, &e->fsig, ft);
    for (unsigned i = 0; i <= n; i++)
        wl_wb_push(e, &e->fsig, sig[i]);
    return ft;
}

/* One function: OpFunction, its parameters and first label in head, its
 * variables in e->fvars, the rest in e->body (the caller concatenates
 * them, then empties the three for the next function). */
static void function(wl_em *e, uint32_t fid, wl_wbuf *head)
{
    uint32_t vt = 0;
    uint32_t ft = fn_type(e, e->fn, &vt);
    if (!ft)
        return;
    wl_cfg cfg;
    if (wl_cfg_build(e, e->fn, &cfg) != WL_OK) {
        wl_cfg_free(&cfg);
        return;
    }
    e->cfg = &cfg;
    wl_wbuf unreach = {0};
    INS(e, head, SpvOpFunction, vt, fid, 0, ft);
    for (unsigned i = 0; i < LLVMCountParams(e->fn); i++) {
        LLVMValueRef p = LLVMGetParam(e->fn, i);
        uint32_t pid = wl_id(e);
        INS(e, head, SpvOpFunctionParameter, wl_ty_llvm(e, LLVMTypeOf(p)), pid);
        wl_bind(e, p, pid);
        if (e->opt->debug_names) {
            size_t len = 0;
            const char *pn = LLVMGetValueName2(p, &len);
            if (pn && len)
                wl_wb_str(e, &e->names, SpvOpName, pid, pn, len);
        }
    }
    for (size_t b = 0; b < cfg.n && !e->failed; b++) {
        LLVMBasicBlockRef bb = cfg.bb[b];
        e->cse_block = (int)b; /* blockcse.c: what b's dominators wrote stays */
        e->sg_synced = 0;      /* intrin.c: a subgroup barrier before the block's first subgroup operation */
        if (b == 0)
            INS(e, head, SpvOpLabel, cfg.label_in[0]);
        else
            INS(e, &e->body, SpvOpLabel, cfg.label_in[b]);
        phis(e, &cfg, bb);
        if (cfg.is_loop[b]) {
            int c = cfg.cont[b];
            uint32_t cl = c == (int)b ? cfg.label_body[b] : cfg.label_in[c];
            INS(e, &e->body, SpvOpLoopMerge, merge_label(e, &cfg, cfg.lmerge[b], &unreach), cl, 0);
            INS(e, &e->body, SpvOpBranch, cfg.label_body[b]);
            INS(e, &e->body, SpvOpLabel, cfg.label_body[b]);
        }
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        for (LLVMValueRef v = LLVMGetFirstInstruction(bb); v && v != term && !e->failed;
             v = LLVMGetNextInstruction(v)) {
            if (LLVMIsAPHINode(v))
                continue;
            e->cur = v;
            e->info.llvm_instructions++;
            instruction(e, v);
        }
        e->info.llvm_instructions++;
        terminator(e, &cfg, (int)b, term, &unreach);
        if (e->opt->debug_names) {
            block_name(e, bb, cfg.label_in[b]);
            value_names(e, bb);
        }
    }
    for (size_t i = 0; i < unreach.n; i++) {
        INS(e, &e->body, SpvOpLabel, unreach.w[i]);
        wl_wb_ins(e, &e->body, SpvOpUnreachable, 0, NULL);
    }
    wl_wb_ins(e, &e->body, SpvOpFunctionEnd, 0, NULL);
    free(unreach.w);
    e->cfg = NULL;
    e->cse_block = -1;
    wl_cse_clear(e);
    wl_cfg_free(&cfg);
}

static LLVMValueRef find_entry(LLVMModuleRef m, const char *name, char *err, size_t errcap)
{
    if (name) {
        LLVMValueRef f = LLVMGetNamedFunction(m, name);
        if (!f || LLVMIsDeclaration(f)) {
            snprintf(err, errcap, "no defined function @%s in the module", name);
            return NULL;
        }
        return f;
    }
    /* the one defined function visible outside the module (internal
     * functions are the callees) */
    LLVMValueRef found = NULL;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        LLVMLinkage l = LLVMGetLinkage(f);
        if (LLVMIsDeclaration(f) || l == LLVMInternalLinkage || l == LLVMPrivateLinkage)
            continue;
        if (found) {
            snprintf(err, errcap, "several defined external functions: name the entry (wl_emit_options.entry)");
            return NULL;
        }
        found = f;
    }
    if (!found)
        snprintf(err, errcap, "no defined function in the module");
    return found;
}

/* whether a call path leads from `from` to `to` (Vulkan forbids recursion);
 * the depth bound makes a deep or cyclic call graph count as recursive */
static int reaches(wl_em *e, LLVMValueRef from, LLVMValueRef to, int depth)
{
    if (depth > 16)
        return 1;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(from); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I)) {
            LLVMValueRef c = LLVMIsACallInst(I) ? LLVMGetCalledValue(I) : NULL;
            if (!c || !LLVMIsAFunction(c) || LLVMIsDeclaration(c))
                continue;
            if (c == to || reaches(e, c, to, depth + 1))
                return 1;
        }
    return 0;
}

static void em_free(wl_em *e)
{
    free(e->cse);
    free(e->names.w);
    free(e->decor.w);
    free(e->types.w);
    free(e->body.w);
    free(e->fvars.w);
    free(e->fsig.w);
    free(e->mo);
    free(e->keys.e);
    wl_pmap_free(&e->vals);
    wl_pmap_free(&e->tys);
    wl_pmap_free(&e->scaled);
    wl_pmap_free(&e->ucount);
}

static void cat(wl_em *e, wl_wbuf *out, const wl_wbuf *in)
{
    for (size_t i = 0; i < in->n; i++)
        wl_wb_push(e, out, in->w[i]);
}

wl_status wl_emit_spirv(LLVMModuleRef m, const wl_emit_options *opt, uint32_t **words, size_t *nwords,
                        wl_emit_info *info, char *err, size_t errcap)
{
    char dummy[8];
    if (!err || !errcap) {
        err = dummy;
        errcap = sizeof dummy;
    }
    err[0] = 0;
    if (!m || !opt || !words || !nwords) {
        snprintf(err, errcap, "wl_emit_spirv: missing argument");
        return WL_ERR_USAGE;
    }
    *words = NULL;
    *nwords = 0;
    if (!opt->skip_prepare) {
        wl_status s = wl_prepare_module(m, err, errcap);
        if (s != WL_OK)
            return s;
    }
    LLVMValueRef fn = find_entry(m, opt->entry, err, errcap);
    if (!fn)
        return WL_ERR_NOT_FOUND;
    wl_em e;
    memset(&e, 0, sizeof e);
    e.mod = m;
    e.ctx = LLVMGetModuleContext(m);
    e.td = LLVMGetModuleDataLayout(m);
    e.fn = fn;
    e.opt = opt;
    e.err = err;
    e.errcap = errcap;
    e.next_id = 1;
    for (int i = 0; i < 3; i++)
        e.info.local_size[i] = opt->local_size[i] ? opt->local_size[i] : 1;
    if (LLVMCountParams(fn) != 0)
        wl_refuse(&e, fn, "the entry takes parameters (use push constants)");
    if (LLVMGetTypeKind(LLVMGetReturnType(LLVMGlobalGetValueType(fn))) != LLVMVoidTypeKind)
        wl_refuse(&e, fn, "the entry returns a value");
    /* every defined function, the entry first; the others are called by
     * OpFunctionCall (wl_call). Ids first: a call may precede its callee. */
    uint32_t fid = wl_id(&e);
    e.entry = fn;
    wl_pent *fp = wl_pmap_put(&e, &e.vals, fn);
    if (fp)
        fp->a = fid;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (f == fn || LLVMIsDeclaration(f))
            continue;
        fp = wl_pmap_put(&e, &e.vals, f);
        if (fp)
            fp->a = wl_id(&e);
    }
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        fp = LLVMIsDeclaration(f) ? NULL : wl_pmap_get(&e.vals, f);
        if (fp)
            fp->b = reaches(&e, f, f, 0) || reaches(&e, f, fn, 0); /* refused at its calls (wl_call) */
    }
    wl_wbuf head = {0}, funcs = {0};
    for (LLVMValueRef f = fn; f && !e.failed;) {
        e.fn = f;
        wl_pent *p = wl_pmap_get(&e.vals, f);
        function(&e, p ? p->a : 0, &head);
        if (e.opt->debug_names && f != fn) {
            size_t fl = 0;
            const char *fname = LLVMGetValueName2(f, &fl);
            wl_wb_str(&e, &e.names, SpvOpName, p ? p->a : 0, fname, fl);
        }
        cat(&e, &funcs, &head);
        cat(&e, &funcs, &e.fvars);
        cat(&e, &funcs, &e.body);
        head.n = e.fvars.n = e.body.n = 0;
        if (f == fn)
            f = LLVMGetFirstFunction(m);
        else
            f = LLVMGetNextFunction(f);
        while (f && (f == fn || LLVMIsDeclaration(f)))
            f = LLVMGetNextFunction(f);
    }
    e.fn = fn;

    wl_wbuf out = {0};
    if (!e.failed) {
        wl_cap(&e, SpvCapShader);
        /* the float modes below, where the module has floats at all */
        int floats = e.uses_f32 || (e.info.features & (WL_FEAT_FLOAT64 | WL_FEAT_FLOAT16));
        if (floats) {
            wl_cap(&e, SpvCapSignedZeroInfNanPreserve);
            wl_cap(&e, SpvCapDenormPreserve);
            wl_cap(&e, SpvCapRoundingModeRTE);
        }
        wl_wb_push(&e, &out, 0x07230203u);
        wl_wb_push(&e, &out, 0x00010600u);
        wl_wb_push(&e, &out, 0);
        wl_wb_push(&e, &out, 0); /* bound: below */
        wl_wb_push(&e, &out, 0);
        for (int i = 0; i < e.ncaps; i++)
            INS(&e, &out, SpvOpCapability, e.caps[i]);
        if (e.glsl)
            wl_wb_str(&e, &out, SpvOpExtInstImport, e.glsl, "GLSL.std.450", 12);
        INS(&e, &out, SpvOpMemoryModel, e.uses_psb ? SpvAddrPhysicalStorageBuffer64 : SpvAddrLogical,
            SpvMemModelGLSL450);
        const char *name = "main";
        size_t nl = 4;
        if (opt->debug_names)
            name = LLVMGetValueName2(fn, &nl);
        size_t at = out.n;
        wl_wb_str(&e, &out, SpvOpEntryPoint, SpvExecModelGLCompute, name, nl);
        /* the entry point's id before the name, interface ids after it */
        if (!e.failed) {
            size_t len = out.n - at;
            wl_wb_push(&e, &out, 0);
            memmove(&out.w[at + 3], &out.w[at + 2], (len - 2) * sizeof(uint32_t));
            out.w[at + 2] = fid;
            for (int i = 0; i < e.niface; i++)
                wl_wb_push(&e, &out, e.iface[i]);
            out.w[at] = ((uint32_t)(out.n - at) << 16) | SpvOpEntryPoint;
        }
        INS(&e, &out, SpvOpExecutionMode, fid, SpvExecModeLocalSize, e.info.local_size[0], e.info.local_size[1],
            e.info.local_size[2]);
        /* GPU float semantics keep the sign of zero, infinities and NaNs;
         * without this mode Vulkan lets the driver ignore them (Mesa folds
         * (float)(int)x to trunc(x), giving -0.0 for x in (-1, 0)). */
        /* Denormals kept and round-to-nearest-even, as the guest's default
         * float mode has them: without these modes Vulkan lets a driver
         * flush denormals and round conversions toward zero (NVIDIA's
         * driver 580 flushes f32 denormals: exec_fma and the f32 division
         * kernels read flushed results on an H200 without them). */
        static const uint32_t widths[3] = {32, 64, 16};
        for (int i = 0; i < 3; i++) {
            if ((i == 0 && !e.uses_f32) || (i == 1 && !(e.info.features & WL_FEAT_FLOAT64)) ||
                (i == 2 && !(e.info.features & WL_FEAT_FLOAT16)))
                continue;
            INS(&e, &out, SpvOpExecutionMode, fid, SpvExecModeSignedZeroInfNanPreserve, widths[i]);
            INS(&e, &out, SpvOpExecutionMode, fid, SpvExecModeDenormPreserve, widths[i]);
            INS(&e, &out, SpvOpExecutionMode, fid, SpvExecModeRoundingModeRTE, widths[i]);
        }
        if (opt->debug_names)
            wl_wb_str(&e, &out, SpvOpName, fid, name, nl);
        /* the header's 5 words are not instructions */
        const wl_wbuf insts = {out.n >= 5 ? out.w + 5 : out.w, out.n >= 5 ? out.n - 5 : 0, 0};
        const wl_wbuf *fn_readers[] = {&insts, &e.names, &e.decor, &e.types};
        wl_drop_unread(&e, &funcs, fn_readers, 4); /* dce.c */
        const wl_wbuf *readers[] = {&out, &e.names, &e.decor, &funcs};
        wl_prune_constants(&e, &e.types, readers, 4); /* prune.c */
        cat(&e, &out, &e.names);
        cat(&e, &out, &e.decor);
        cat(&e, &out, &e.types);
        cat(&e, &out, &funcs);
        if (!e.failed)
            out.w[3] = e.next_id;
    }
    free(head.w);
    free(funcs.w);
    wl_status st = WL_OK;
    if (e.failed) {
        free(out.w);
        st = e.status ? e.status : WL_ERR_INVALID;
    } else {
        *words = out.w;
        *nwords = out.n;
        if (info)
            *info = e.info;
    }
    em_free(&e);
    /* SPIRV-Tools checks every module on request, and always in debug
     * builds (no NDEBUG): a module the validator rejects is an emitter bug. */
#ifdef NDEBUG
    int validate = opt->validate;
#else
    int validate = 1;
#endif
    if (st == WL_OK && validate) {
        st = wl_validate_spirv(*words, *nwords, err, errcap);
        if (st != WL_OK) {
            free(*words);
            *words = NULL;
            *nwords = 0;
        }
    }
    if (st == WL_OK && opt->maximal_reconvergence)
        st = add_maximal_reconvergence(words, nwords);
    return st;
}

/* VALU compares: v_cmp_<op>_<type> and v_cmpx_<op>_<type> (VOPC e32, SDWA,
 * DPP and their VOP3 forms), v_cmp_class / v_cmpx_class. Each lane computes
 * its i1; the mask is @wl.ballot ANDed with EXEC (inactive lanes write 0),
 * written to vcc (e32), the SDST (e64, SDWA sdst) or, for v_cmpx, to EXEC
 * (gfx10's v_cmpx writes EXEC only). Float predicates: the ordered forms
 * (lt eq le gt lg ge o) are false on NaN, the n-forms (nge nlg ngt nle neq
 * nlt u) true. The VOP3 clamp bit of a compare only controls exception
 * signalling and does not change the result. */
#include "lift_valu_internal.h"

#include <string.h>

static const struct {
    const char *op;
    LLVMRealPredicate f;
    LLVMIntPredicate s, u;
    int konst; /* 0: compare, 1: false, 2: true */
} preds[] = {
    {"f", LLVMRealPredicateFalse, LLVMIntEQ, LLVMIntEQ, 1},
    {"lt", LLVMRealOLT, LLVMIntSLT, LLVMIntULT, 0},
    {"eq", LLVMRealOEQ, LLVMIntEQ, LLVMIntEQ, 0},
    {"le", LLVMRealOLE, LLVMIntSLE, LLVMIntULE, 0},
    {"gt", LLVMRealOGT, LLVMIntSGT, LLVMIntUGT, 0},
    {"lg", LLVMRealONE, LLVMIntNE, LLVMIntNE, 0},
    {"ne", LLVMRealONE, LLVMIntNE, LLVMIntNE, 0},
    {"ge", LLVMRealOGE, LLVMIntSGE, LLVMIntUGE, 0},
    {"o", LLVMRealORD, LLVMIntEQ, LLVMIntEQ, 0},
    {"u", LLVMRealUNO, LLVMIntEQ, LLVMIntEQ, 0},
    {"nge", LLVMRealULT, LLVMIntEQ, LLVMIntEQ, 0},
    {"nlg", LLVMRealUEQ, LLVMIntEQ, LLVMIntEQ, 0},
    {"ngt", LLVMRealULE, LLVMIntEQ, LLVMIntEQ, 0},
    {"nle", LLVMRealUGT, LLVMIntEQ, LLVMIntEQ, 0},
    {"neq", LLVMRealUNE, LLVMIntEQ, LLVMIntEQ, 0},
    {"nlt", LLVMRealUGE, LLVMIntEQ, LLVMIntEQ, 0},
    {"tru", LLVMRealPredicateTrue, LLVMIntEQ, LLVMIntEQ, 2},
    {"t", LLVMRealPredicateTrue, LLVMIntEQ, LLVMIntEQ, 2},
};

/* v_cmp_class: bit k of the class mask (src1) selects: 0 signaling NaN,
 * 1 quiet NaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal,
 * 8 +normal, 9 +inf. Computed on the bits. */
static LLVMValueRef fp_class(wl_vx *c, wl_vt t, LLVMValueRef x, LLVMValueRef mask)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    unsigned bits = wl_vx_bits(t);
    unsigned mb = bits == 16 ? 10 : bits == 32 ? 23 : 52;
    LLVMTypeRef it = wl_vx_ity(c, t);
#define C(v) LLVMConstInt(it, (v), 0)
    uint64_t signbit = 1ull << (bits - 1);
    uint64_t expmask = ((1ull << (bits - 1 - mb)) - 1) << mb, mantmask = (1ull << mb) - 1;
    LLVMValueRef neg = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, x, C(signbit), ""), C(0), "");
    LLVMValueRef e = LLVMBuildAnd(b, x, C(expmask), "");
    LLVMValueRef m = LLVMBuildAnd(b, x, C(mantmask), "");
    LLVMValueRef emax = LLVMBuildICmp(b, LLVMIntEQ, e, C(expmask), "");
    LLVMValueRef ezero = LLVMBuildICmp(b, LLVMIntEQ, e, C(0), "");
    LLVMValueRef mzero = LLVMBuildICmp(b, LLVMIntEQ, m, C(0), "");
    LLVMValueRef quiet = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, x, C(1ull << (mb - 1)), ""), C(0), "");
    LLVMValueRef nan = LLVMBuildAnd(b, emax, LLVMBuildNot(b, mzero, ""), "");
    LLVMValueRef inf = LLVMBuildAnd(b, emax, mzero, "");
    LLVMValueRef den = LLVMBuildAnd(b, ezero, LLVMBuildNot(b, mzero, ""), "");
    /* class index 0..9 */
    LLVMValueRef pos = LLVMBuildNot(b, neg, "");
    LLVMValueRef snan = LLVMBuildAnd(b, nan, LLVMBuildNot(b, quiet, ""), "");
    LLVMValueRef qnan = LLVMBuildAnd(b, nan, quiet, "");
    LLVMValueRef finite = LLVMBuildNot(b, emax, "");
    LLVMValueRef normal = LLVMBuildAnd(b, finite, LLVMBuildNot(b, ezero, ""), "");
    /* non-NaN: index = sign ? (inf 2, normal 3, den 4, zero 5) : (zero 6, den 7, normal 8, inf 9) */
    LLVMValueRef ni = LLVMBuildSelect(b, inf, wl_l_i32c(L, 2),
                       LLVMBuildSelect(b, normal, wl_l_i32c(L, 3),
                        LLVMBuildSelect(b, den, wl_l_i32c(L, 4), wl_l_i32c(L, 5), ""), ""), "");
    LLVMValueRef pi = LLVMBuildSub(b, wl_l_i32c(L, 11), ni, "");
    LLVMValueRef k32 = LLVMBuildSelect(b, pos, pi, ni, "");
    k32 = LLVMBuildSelect(b, qnan, wl_l_i32c(L, 1), k32, "");
    k32 = LLVMBuildSelect(b, snan, wl_l_i32c(L, 0), k32, "");
#undef C
    LLVMValueRef bit = LLVMBuildAnd(b, LLVMBuildLShr(b, mask, k32, ""), wl_l_i32c(L, 1), "");
    return LLVMBuildICmp(b, LLVMIntNE, bit, wl_l_i32c(L, 0), "");
}

int wl_lv_cmp(wl_vx *c, const char *name)
{
    bool x;
    const char *p;
    if (strncmp(name, "v_cmpx_", 7) == 0) {
        x = true;
        p = name + 7;
    } else if (strncmp(name, "v_cmp_", 6) == 0) {
        x = false;
        p = name + 6;
    } else {
        return -1;
    }
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    int ti = wl_lv_suffix_type(name);
    const char *us = strrchr(p, '_');
    if (ti < 0 || !us)
        return wl_l_refuse(L, "compare type not recognized");
    wl_vt t = (wl_vt)ti;
    size_t oplen = (size_t)(us - p);
    char op[8];
    if (oplen >= sizeof op)
        return wl_l_refuse(L, "compare not recognized");
    memcpy(op, p, oplen);
    op[oplen] = '\0';
    bool fl = t == VT_F16 || t == VT_F32 || t == VT_F64;
    LLVMValueRef pr;
    if (strcmp(op, "class") == 0) {
        if (!fl)
            return wl_l_refuse(L, "class compare of an integer type");
        LLVMValueRef v = wl_vx_srci(c, 0, t);
        LLVMValueRef m = wl_vx_srci(c, 1, VT_I32);
        pr = fp_class(c, t, v, m);
    } else {
        size_t i;
        for (i = 0; i < sizeof preds / sizeof preds[0]; i++)
            if (strcmp(preds[i].op, op) == 0)
                break;
        if (i == sizeof preds / sizeof preds[0])
            return wl_l_refuse(L, "compare not recognized");
        bool sg = name[strlen(name) - 3] == 'i';
        LLVMValueRef a = wl_vx_src(c, 0, t), s1 = wl_vx_src(c, 1, t);
        if (preds[i].konst)
            pr = LLVMConstInt(L->i1, preds[i].konst == 2, 0);
        else if (fl)
            pr = LLVMBuildFCmp(b, preds[i].f, a, s1, "");
        else if (strcmp(op, "o") == 0 || strcmp(op, "u") == 0 || (op[0] == 'n' && strcmp(op, "ne") != 0))
            return wl_l_refuse(L, "compare not recognized");
        else
            pr = LLVMBuildICmp(b, sg ? preds[i].s : preds[i].u, a, s1, "");
    }
    if (c->wpred)
        return wl_l_refuse(L, "DPP compare with masked or bounded lanes not lifted");
    LLVMValueRef mask = wl_vx_ballot_exec(c, pr);
    if (x) {
        wl_l_set_exec(L, mask);
        return WL_OK;
    }
    if (c->in->ndst < 1)
        return wl_l_refuse(L, "compare destination missing");
    wl_vx_put_mask(c, 0, mask);
    return WL_OK;
}

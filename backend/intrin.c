/* Calls: LLVM's intrinsics (those the optimizer introduces) and the host IR's
 * declared spv.* functions (docs/host-ir.md, "Declared functions"). */
#include <stdio.h>
#include <string.h>

#include "be.h"

static int has_prefix(const char *s, size_t len, const char *p)
{
    size_t n = strlen(p);
    return len >= n && !memcmp(s, p, n);
}

/* name is `base` or `base.<suffix>` */
static int named(const char *s, size_t len, const char *base)
{
    size_t n = strlen(base);
    return len >= n && !memcmp(s, base, n) && (len == n || s[n] == '.');
}

static LLVMValueRef arg(LLVMValueRef call, unsigned i) { return LLVMGetOperand(call, i); }

/* ---- scalar helpers on 32-bit words for the bit intrinsics ---- */

typedef uint32_t (*scalar_fn)(wl_em *e, uint32_t x, unsigned w, uint32_t y, uint32_t z);

/* Applies f element by element when t is a vector. */
static uint32_t per_elem(wl_em *e, LLVMTypeRef t, scalar_fn f, uint32_t x, uint32_t y, uint32_t z)
{
    unsigned n = wl_vec_len(t), w = wl_scalar_bits(t);
    if (!n)
        return f(e, x, w, y, z);
    uint32_t et = wl_ty_int(e, w), parts[4];
    for (unsigned i = 0; i < n && i < 4; i++) {
        uint32_t xi = OP(e, SpvOpCompositeExtract, et, x, i);
        uint32_t yi = y ? OP(e, SpvOpCompositeExtract, et, y, i) : 0;
        uint32_t zi = z ? OP(e, SpvOpCompositeExtract, et, z, i) : 0;
        parts[i] = f(e, xi, w, yi, zi);
    }
    return wl_op(e, SpvOpCompositeConstruct, wl_ty_llvm(e, t), (int)n, parts);
}

static uint32_t lo32(wl_em *e, uint32_t x) { return OP(e, SpvOpUConvert, wl_ty_int(e, 32), x); }
static uint32_t hi32(wl_em *e, uint32_t x)
{
    return OP(e, SpvOpUConvert, wl_ty_int(e, 32), OP(e, SpvOpShiftRightLogical, wl_ty_int(e, 64), x, wl_c_u32(e, 32)));
}
static uint32_t join64(wl_em *e, uint32_t lo, uint32_t hi)
{
    uint32_t u64 = wl_ty_int(e, 64);
    uint32_t h = OP(e, SpvOpShiftLeftLogical, u64, OP(e, SpvOpUConvert, u64, hi), wl_c_u32(e, 32));
    return OP(e, SpvOpBitwiseOr, u64, h, OP(e, SpvOpUConvert, u64, lo));
}
static uint32_t to32(wl_em *e, uint32_t x, unsigned w)
{
    return w == 32 ? x : OP(e, SpvOpUConvert, wl_ty_int(e, 32), x);
}
static uint32_t from32(wl_em *e, uint32_t x, unsigned w)
{
    return w == 32 ? x : OP(e, SpvOpUConvert, wl_ty_int(e, w), x);
}

static uint32_t s_ctpop(wl_em *e, uint32_t x, unsigned w, uint32_t y, uint32_t z)
{
    uint32_t u32 = wl_ty_int(e, 32);
    if (w == 64) {
        uint32_t a = OP(e, SpvOpBitCount, u32, lo32(e, x)), b = OP(e, SpvOpBitCount, u32, hi32(e, x));
        return OP(e, SpvOpUConvert, wl_ty_int(e, 64), OP(e, SpvOpIAdd, u32, a, b));
    }
    return from32(e, OP(e, SpvOpBitCount, u32, to32(e, x, w)), w);
}

/* 31 - FindUMsb(x): 32 for 0 (FindUMsb gives -1) */
static uint32_t clz32(wl_em *e, uint32_t x)
{
    uint32_t u32 = wl_ty_int(e, 32);
    return OP(e, SpvOpISub, u32, wl_c_u32(e, 31), wl_glsl(e, u32, GLSLFindUMsb, WL_OPS(x)));
}

static uint32_t s_ctlz(wl_em *e, uint32_t x, unsigned w, uint32_t y, uint32_t z)
{
    uint32_t u32 = wl_ty_int(e, 32);
    if (w == 64) {
        uint32_t hi = hi32(e, x), lo = lo32(e, x);
        uint32_t hz = OP(e, SpvOpIEqual, wl_ty_bool(e), hi, wl_c_u32(e, 0));
        uint32_t r = OP(e, SpvOpSelect, u32, hz, OP(e, SpvOpIAdd, u32, clz32(e, lo), wl_c_u32(e, 32)), clz32(e, hi));
        return OP(e, SpvOpUConvert, wl_ty_int(e, 64), r);
    }
    uint32_t r = clz32(e, to32(e, x, w));
    if (w != 32)
        r = OP(e, SpvOpISub, u32, r, wl_c_u32(e, 32 - w));
    return from32(e, r, w);
}

/* min(FindILsb(x) as unsigned, cap) */
static uint32_t ctz32(wl_em *e, uint32_t x, unsigned cap)
{
    uint32_t u32 = wl_ty_int(e, 32);
    return wl_glsl(e, u32, GLSLUMin, WL_OPS(wl_glsl(e, u32, GLSLFindILsb, WL_OPS(x)), wl_c_u32(e, cap)));
}

static uint32_t s_cttz(wl_em *e, uint32_t x, unsigned w, uint32_t y, uint32_t z)
{
    uint32_t u32 = wl_ty_int(e, 32);
    if (w == 64) {
        uint32_t hi = hi32(e, x), lo = lo32(e, x);
        uint32_t lz = OP(e, SpvOpIEqual, wl_ty_bool(e), lo, wl_c_u32(e, 0));
        uint32_t r = OP(e, SpvOpSelect, u32, lz, OP(e, SpvOpIAdd, u32, ctz32(e, hi, 32), wl_c_u32(e, 32)),
                        ctz32(e, lo, 32));
        return OP(e, SpvOpUConvert, wl_ty_int(e, 64), r);
    }
    return from32(e, ctz32(e, to32(e, x, w), w), w);
}

static uint32_t s_bitreverse(wl_em *e, uint32_t x, unsigned w, uint32_t y, uint32_t z)
{
    uint32_t u32 = wl_ty_int(e, 32);
    if (w == 64) {
        uint32_t a = OP(e, SpvOpBitReverse, u32, lo32(e, x)), b = OP(e, SpvOpBitReverse, u32, hi32(e, x));
        return join64(e, b, a);
    }
    uint32_t r = OP(e, SpvOpBitReverse, u32, to32(e, x, w));
    if (w != 32)
        r = OP(e, SpvOpShiftRightLogical, u32, r, wl_c_u32(e, 32 - w));
    return from32(e, r, w);
}

static uint32_t bswap32(wl_em *e, uint32_t x)
{
    uint32_t u32 = wl_ty_int(e, 32);
    uint32_t a = OP(e, SpvOpShiftLeftLogical, u32, x, wl_c_u32(e, 24));
    uint32_t b = OP(e, SpvOpShiftLeftLogical, u32, OP(e, SpvOpBitwiseAnd, u32, x, wl_c_u32(e, 0xff00)), wl_c_u32(e, 8));
    uint32_t c = OP(e, SpvOpBitwiseAnd, u32, OP(e, SpvOpShiftRightLogical, u32, x, wl_c_u32(e, 8)), wl_c_u32(e, 0xff00));
    uint32_t d = OP(e, SpvOpShiftRightLogical, u32, x, wl_c_u32(e, 24));
    return OP(e, SpvOpBitwiseOr, u32, OP(e, SpvOpBitwiseOr, u32, a, b), OP(e, SpvOpBitwiseOr, u32, c, d));
}

static uint32_t s_bswap(wl_em *e, uint32_t x, unsigned w, uint32_t y, uint32_t z)
{
    if (w == 64)
        return join64(e, bswap32(e, hi32(e, x)), bswap32(e, lo32(e, x)));
    uint32_t r = bswap32(e, to32(e, x, w));
    if (w == 16)
        r = OP(e, SpvOpShiftRightLogical, wl_ty_int(e, 32), r, wl_c_u32(e, 16));
    return from32(e, r, w);
}

/* funnel shifts: fshl(a, b, c) = (a << s) | (b >> (w - s)), s = c % w */
static uint32_t fsh(wl_em *e, uint32_t a, unsigned w, uint32_t b, uint32_t c, int right)
{
    uint32_t t = wl_ty_int(e, w), bt = wl_ty_bool(e);
    uint32_t s = OP(e, SpvOpBitwiseAnd, t, c, wl_c_int(e, w, w - 1));
    uint32_t inv = OP(e, SpvOpISub, t, wl_c_int(e, w, w), s);
    uint32_t r;
    if (!right)
        r = OP(e, SpvOpBitwiseOr, t, OP(e, SpvOpShiftLeftLogical, t, a, s), OP(e, SpvOpShiftRightLogical, t, b, inv));
    else
        r = OP(e, SpvOpBitwiseOr, t, OP(e, SpvOpShiftLeftLogical, t, a, inv), OP(e, SpvOpShiftRightLogical, t, b, s));
    uint32_t zero = OP(e, SpvOpIEqual, bt, s, wl_c_int(e, w, 0));
    return OP(e, SpvOpSelect, t, zero, right ? b : a, r);
}
static uint32_t s_fshl(wl_em *e, uint32_t a, unsigned w, uint32_t b, uint32_t c) { return fsh(e, a, w, b, c, 0); }
static uint32_t s_fshr(wl_em *e, uint32_t a, unsigned w, uint32_t b, uint32_t c) { return fsh(e, a, w, b, c, 1); }

/* ---- saturating and overflow arithmetic (element-wise on vectors) ---- */

static uint32_t splat_of(wl_em *e, LLVMTypeRef t, uint32_t s)
{
    unsigned n = wl_vec_len(t);
    return n ? wl_c_splat(e, wl_ty_llvm(e, t), n, s) : s;
}

static uint32_t bool_ty(wl_em *e, LLVMTypeRef t)
{
    unsigned n = wl_vec_len(t);
    return n ? wl_ty_vec(e, wl_ty_bool(e), n) : wl_ty_bool(e);
}

/* sign bit of x set */
static uint32_t is_neg(wl_em *e, LLVMTypeRef t, uint32_t x)
{
    unsigned w = wl_scalar_bits(t);
    return OP(e, SpvOpSLessThan, bool_ty(e, t), x, splat_of(e, t, wl_c_int(e, w, 0)));
}

/* signed overflow of r = a + b (sub: r = a - b) */
static uint32_t s_overflow(wl_em *e, LLVMTypeRef t, uint32_t a, uint32_t b, uint32_t r, int sub)
{
    uint32_t ty = wl_ty_llvm(e, t);
    uint32_t x = OP(e, SpvOpBitwiseXor, ty, a, r);
    uint32_t y = sub ? OP(e, SpvOpBitwiseXor, ty, a, b) : OP(e, SpvOpBitwiseXor, ty, b, r);
    return is_neg(e, t, OP(e, SpvOpBitwiseAnd, ty, x, y));
}

static void saturating(wl_em *e, LLVMValueRef call, const char *n, size_t len)
{
    LLVMTypeRef t = LLVMTypeOf(call);
    uint32_t ty = wl_ty_llvm(e, t), bt = bool_ty(e, t);
    unsigned w = wl_scalar_bits(t);
    uint32_t a = wl_val(e, arg(call, 0)), b = wl_val(e, arg(call, 1));
    uint64_t umax = w == 64 ? ~0ull : (1ull << w) - 1;
    uint32_t r;
    if (named(n, len, "llvm.uadd.sat")) {
        /* Saturates where a > umax - b, i.e. a > (b ^ umax): no wrapped
         * sum is compared. NVIDIA's driver 580 does not wrap 8-bit sums
         * before a comparison (measured: uadd.sat.i8 in exec_intrinsics read
         * the unsaturated low byte on an H200). */
        uint32_t s = OP(e, SpvOpIAdd, ty, a, b);
        uint32_t nb = OP(e, SpvOpBitwiseXor, ty, b, splat_of(e, t, wl_c_int(e, w, umax)));
        r = OP(e, SpvOpSelect, ty, OP(e, SpvOpUGreaterThan, bt, a, nb), splat_of(e, t, wl_c_int(e, w, umax)), s);
    } else if (named(n, len, "llvm.usub.sat")) {
        r = OP(e, SpvOpISub, ty, wl_glsl(e, ty, GLSLUMax, WL_OPS(a, b)), b);
    } else {
        int sub = named(n, len, "llvm.ssub.sat");
        uint32_t s = OP(e, sub ? SpvOpISub : SpvOpIAdd, ty, a, b);
        uint32_t ov = s_overflow(e, t, a, b, s, sub);
        uint32_t smax = splat_of(e, t, wl_c_int(e, w, umax >> 1)), smin = splat_of(e, t, wl_c_int(e, w, (umax >> 1) + 1));
        uint32_t sat = OP(e, SpvOpSelect, ty, is_neg(e, t, a), smin, smax);
        r = OP(e, SpvOpSelect, ty, ov, sat, s);
    }
    wl_bind(e, call, r);
}

static void with_overflow(wl_em *e, LLVMValueRef call, const char *n, size_t len)
{
    LLVMTypeRef st = LLVMTypeOf(call);
    LLVMTypeRef t = LLVMStructGetTypeAtIndex(st, 0);
    uint32_t ty = wl_ty_llvm(e, t), bt = bool_ty(e, t), sty = wl_ty_llvm(e, st);
    unsigned w = wl_scalar_bits(t);
    if (!ty || !sty || w < 8) {
        wl_refuse(e, call, "overflow intrinsic of a type outside the profile");
        return;
    }
    uint32_t a = wl_val(e, arg(call, 0)), b = wl_val(e, arg(call, 1));
    uint32_t zero = splat_of(e, t, wl_c_int(e, w, 0));
    uint32_t r, ov;
    if (named(n, len, "llvm.uadd.with.overflow")) {
        r = OP(e, SpvOpIAdd, ty, a, b);
        ov = OP(e, SpvOpULessThan, bt, r, a);
    } else if (named(n, len, "llvm.usub.with.overflow")) {
        r = OP(e, SpvOpISub, ty, a, b);
        ov = OP(e, SpvOpULessThan, bt, a, b);
    } else if (named(n, len, "llvm.sadd.with.overflow") || named(n, len, "llvm.ssub.with.overflow")) {
        int sub = named(n, len, "llvm.ssub.with.overflow");
        r = OP(e, sub ? SpvOpISub : SpvOpIAdd, ty, a, b);
        ov = s_overflow(e, t, a, b, r, sub);
    } else if (named(n, len, "llvm.umul.with.overflow") || named(n, len, "llvm.smul.with.overflow")) {
        int sg = named(n, len, "llvm.smul.with.overflow");
        if (w != 32 && w != 64) {
            wl_refuse(e, call, "multiply with overflow on a type other than i32 or i64");
            return;
        }
        uint32_t pt = wl_ty_struct2(e, ty, ty);
        uint32_t p = OP(e, sg ? SpvOpSMulExtended : SpvOpUMulExtended, pt, a, b);
        r = OP(e, SpvOpCompositeExtract, ty, p, 0);
        uint32_t hi = OP(e, SpvOpCompositeExtract, ty, p, 1);
        if (sg)
            ov = OP(e, SpvOpINotEqual, bt, hi,
                    OP(e, SpvOpShiftRightArithmetic, ty, r, splat_of(e, t, wl_c_int(e, w, w - 1))));
        else
            ov = OP(e, SpvOpINotEqual, bt, hi, zero);
    } else {
        wl_refuse(e, call, "intrinsic outside the profile");
        return;
    }
    wl_bind(e, call, OP(e, SpvOpCompositeConstruct, sty, r, ov));
}

/* ---- float helpers ---- */

static int float_ok(wl_em *e, LLVMValueRef call, LLVMTypeRef t, int allow64)
{
    unsigned w = wl_scalar_bits(t);
    LLVMTypeRef el = wl_vec_len(t) ? LLVMGetElementType(t) : t;
    LLVMTypeKind k = LLVMGetTypeKind(el);
    if (k != LLVMHalfTypeKind && k != LLVMFloatTypeKind && k != LLVMDoubleTypeKind)
        return wl_refuse(e, call, "float intrinsic on a non-float type");
    if (w == 64 && !allow64)
        return wl_refuse(e, call, "GLSL.std.450 allows this function on 16- and 32-bit floats only");
    return 1;
}

static uint32_t f_copysign(wl_em *e, LLVMTypeRef t, uint32_t a, uint32_t b)
{
    unsigned w = wl_scalar_bits(t), n = wl_vec_len(t);
    uint32_t it = wl_ty_int(e, w);
    if (n)
        it = wl_ty_vec(e, it, n);
    uint64_t sign = 1ull << (w - 1);
    uint32_t sm = wl_c_int(e, w, sign), mm = wl_c_int(e, w, sign - 1);
    if (n) {
        sm = wl_c_splat(e, it, n, sm);
        mm = wl_c_splat(e, it, n, mm);
    }
    uint32_t ai = OP(e, SpvOpBitcast, it, a), bi = OP(e, SpvOpBitcast, it, b);
    uint32_t r = OP(e, SpvOpBitwiseOr, it, OP(e, SpvOpBitwiseAnd, it, ai, mm), OP(e, SpvOpBitwiseAnd, it, bi, sm));
    return OP(e, SpvOpBitcast, wl_ty_llvm(e, t), r);
}

/* llvm.round: halfway cases away from zero: trunc(x + copysign(0.5 - ulp/2, x)) */
static uint32_t round_away(wl_em *e, LLVMTypeRef t, uint32_t x)
{
    uint32_t ty = wl_ty_llvm(e, t);
    unsigned w = wl_scalar_bits(t);
    /* the largest value below 0.5 */
    double h = w == 64 ? 0.49999999999999994 : w == 32 ? 0.4999999701976776 : 0.49975585937500000;
    uint32_t hv = wl_vec_len(t) ? wl_c_splat(e, ty, wl_vec_len(t), wl_c_float(e, w, h)) : wl_c_float(e, w, h);
    uint32_t s = f_copysign(e, t, hv, x);
    return wl_glsl(e, ty, GLSLTrunc, WL_OPS(OP(e, SpvOpFAdd, ty, x, s)));
}

/* The simple float intrinsics: name -> GLSL.std.450 instruction, arguments,
 * whether 64-bit floats are allowed. */
static const struct {
    const char *name;
    uint32_t glsl;
    int nargs, f64;
} fmath[] = {
    {"llvm.fabs", GLSLFAbs, 1, 1},       {"llvm.sqrt", GLSLSqrt, 1, 1},     {"llvm.floor", GLSLFloor, 1, 1},
    {"llvm.ceil", GLSLCeil, 1, 1},       {"llvm.trunc", GLSLTrunc, 1, 1},   {"llvm.rint", GLSLRoundEven, 1, 1},
    {"llvm.nearbyint", GLSLRoundEven, 1, 1}, {"llvm.roundeven", GLSLRoundEven, 1, 1},
    {"llvm.fmuladd", GLSLFma, 3, 1},   {"llvm.minnum", GLSLNMin, 2, 1},
    {"llvm.maxnum", GLSLNMax, 2, 1},     {"llvm.sin", GLSLSin, 1, 0},       {"llvm.cos", GLSLCos, 1, 0},
    {"llvm.exp2", GLSLExp2, 1, 0},       {"llvm.log2", GLSLLog2, 1, 0},     {"llvm.exp", GLSLExp, 1, 0},
    {"llvm.log", GLSLLog, 1, 0},         {"llvm.pow", GLSLPow, 2, 0},       {"llvm.tan", GLSLTan, 1, 0},
};

/* spv.glsl.<Name>: the GLSL.std.450 instructions by name. */
static const struct {
    const char *name;
    uint32_t glsl;
} glsl_names[] = {
    {"Round", GLSLRound}, {"RoundEven", GLSLRoundEven}, {"Trunc", GLSLTrunc}, {"FAbs", GLSLFAbs},
    {"SAbs", GLSLSAbs}, {"FSign", GLSLFSign}, {"SSign", GLSLSSign}, {"Floor", GLSLFloor}, {"Ceil", GLSLCeil},
    {"Fract", GLSLFract}, {"Sin", GLSLSin}, {"Cos", GLSLCos}, {"Tan", GLSLTan}, {"Asin", GLSLAsin},
    {"Acos", GLSLAcos}, {"Atan", GLSLAtan}, {"Atan2", GLSLAtan2}, {"Pow", GLSLPow}, {"Exp", GLSLExp},
    {"Log", GLSLLog}, {"Exp2", GLSLExp2}, {"Log2", GLSLLog2}, {"Sqrt", GLSLSqrt},
    {"InverseSqrt", GLSLInverseSqrt}, {"FMin", GLSLFMin}, {"UMin", GLSLUMin}, {"SMin", GLSLSMin},
    {"FMax", GLSLFMax}, {"UMax", GLSLUMax}, {"SMax", GLSLSMax}, {"FClamp", GLSLFClamp}, {"UClamp", GLSLUClamp},
    {"SClamp", GLSLSClamp}, {"FMix", GLSLFMix}, {"Step", GLSLStep}, {"SmoothStep", GLSLSmoothStep},
    {"Fma", GLSLFma}, {"FrexpStruct", GLSLFrexpStruct}, {"Ldexp", GLSLLdexp}, {"FindILsb", GLSLFindILsb},
    {"FindSMsb", GLSLFindSMsb}, {"FindUMsb", GLSLFindUMsb}, {"NMin", GLSLNMin}, {"NMax", GLSLNMax},
    {"NClamp", GLSLNClamp},
};

static void call_args(wl_em *e, LLVMValueRef call, int n, uint32_t *out)
{
    for (int i = 0; i < n; i++)
        out[i] = wl_val(e, arg(call, (unsigned)i));
}

static void vector_reduce(wl_em *e, LLVMValueRef call, const char *n, size_t len)
{
    int has_start = named(n, len, "llvm.vector.reduce.fadd") || named(n, len, "llvm.vector.reduce.fmul");
    LLVMValueRef vec = arg(call, has_start ? 1 : 0);
    LLVMTypeRef vt = LLVMTypeOf(vec), et = LLVMTypeOf(call);
    unsigned k = wl_vec_len(vt);
    uint32_t ty = wl_ty_llvm(e, et), v = wl_val(e, vec);
    if (!ty || !k || !wl_ty_llvm(e, vt)) {
        wl_refuse(e, call, "vector reduction outside the profile");
        return;
    }
    static const struct {
        const char *name;
        uint32_t op, glsl;
    } red[] = {
        {"llvm.vector.reduce.add", SpvOpIAdd, 0}, {"llvm.vector.reduce.mul", SpvOpIMul, 0},
        {"llvm.vector.reduce.and", SpvOpBitwiseAnd, 0}, {"llvm.vector.reduce.or", SpvOpBitwiseOr, 0},
        {"llvm.vector.reduce.xor", SpvOpBitwiseXor, 0}, {"llvm.vector.reduce.umin", 0, GLSLUMin},
        {"llvm.vector.reduce.umax", 0, GLSLUMax}, {"llvm.vector.reduce.smin", 0, GLSLSMin},
        {"llvm.vector.reduce.smax", 0, GLSLSMax}, {"llvm.vector.reduce.fadd", SpvOpFAdd, 0},
        {"llvm.vector.reduce.fmul", SpvOpFMul, 0}, {"llvm.vector.reduce.fmin", 0, GLSLNMin},
        {"llvm.vector.reduce.fmax", 0, GLSLNMax},
    };
    for (size_t i = 0; i < sizeof red / sizeof red[0]; i++) {
        if (!named(n, len, red[i].name))
            continue;
        uint32_t op = red[i].op, g = red[i].glsl;
        if (wl_scalar_bits(et) == 1) {
            if (op == SpvOpBitwiseAnd || op == SpvOpIMul || g == GLSLUMin || g == GLSLSMax)
                op = SpvOpLogicalAnd, g = 0;
            else if (op == SpvOpBitwiseOr || g == GLSLUMax || g == GLSLSMin)
                op = SpvOpLogicalOr, g = 0;
            else
                op = SpvOpLogicalNotEqual, g = 0;
        }
        uint32_t acc = has_start ? wl_val(e, arg(call, 0)) : 0;
        for (unsigned j = 0; j < k; j++) {
            uint32_t x = OP(e, SpvOpCompositeExtract, ty, v, j);
            if (!acc)
                acc = x;
            else
                acc = g ? wl_glsl(e, ty, g, WL_OPS(acc, x)) : OP(e, op, ty, acc, x);
        }
        wl_bind(e, call, acc);
        return;
    }
    wl_refuse(e, call, "vector reduction outside the profile");
}

static void llvm_intrinsic(wl_em *e, LLVMValueRef call, const char *n, size_t len)
{
    LLVMTypeRef t = LLVMTypeOf(call);
    uint32_t ty = wl_ty_llvm(e, t);
    uint32_t a[4];
    if (named(n, len, "llvm.lifetime.start") || named(n, len, "llvm.lifetime.end") || named(n, len, "llvm.assume") ||
        has_prefix(n, len, "llvm.dbg.") || named(n, len, "llvm.experimental.noalias.scope.decl") ||
        named(n, len, "llvm.sideeffect") || named(n, len, "llvm.invariant.start") ||
        named(n, len, "llvm.invariant.end") || named(n, len, "llvm.donothing"))
        return;
    if (named(n, len, "llvm.expect") || named(n, len, "llvm.expect.with.probability") ||
        named(n, len, "llvm.ssa.copy")) {
        wl_bind(e, call, wl_val(e, arg(call, 0)));
        return;
    }
    if (named(n, len, "llvm.memset") || named(n, len, "llvm.memcpy") || named(n, len, "llvm.memmove") ||
        named(n, len, "llvm.memcpy.inline") || named(n, len, "llvm.memset.inline")) {
        wl_mem_intrinsic(e, call, named(n, len, "llvm.memset") || named(n, len, "llvm.memset.inline")
                                      ? "llvm.memset."
                                      : "llvm.memcpy.");
        return;
    }
    if (!ty && LLVMGetTypeKind(t) != LLVMStructTypeKind) {
        wl_refuse(e, call, "intrinsic of a type outside the profile");
        return;
    }
    static const struct {
        const char *name;
        uint32_t glsl;
    } imath[] = {
        {"llvm.umin", GLSLUMin}, {"llvm.umax", GLSLUMax}, {"llvm.smin", GLSLSMin}, {"llvm.smax", GLSLSMax},
    };
    for (size_t i = 0; i < sizeof imath / sizeof imath[0]; i++)
        if (named(n, len, imath[i].name)) {
            if (wl_scalar_bits(t) == 1) {
                wl_refuse(e, call, "min/max on i1");
                return;
            }
            call_args(e, call, 2, a);
            wl_bind(e, call, wl_glsl(e, ty, imath[i].glsl, 2, a));
            return;
        }
    if (named(n, len, "llvm.abs")) {
        call_args(e, call, 1, a);
        wl_bind(e, call, wl_glsl(e, ty, GLSLSAbs, 1, a));
        return;
    }
    static const struct {
        const char *name;
        scalar_fn f;
        int nargs;
    } bits[] = {
        {"llvm.ctpop", s_ctpop, 1}, {"llvm.ctlz", s_ctlz, 1}, {"llvm.cttz", s_cttz, 1},
        {"llvm.bitreverse", s_bitreverse, 1}, {"llvm.bswap", s_bswap, 1}, {"llvm.fshl", s_fshl, 3},
        {"llvm.fshr", s_fshr, 3},
    };
    for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++)
        if (named(n, len, bits[i].name)) {
            unsigned w = wl_scalar_bits(t);
            if (w < 8 || LLVMGetTypeKind(wl_vec_len(t) ? LLVMGetElementType(t) : t) != LLVMIntegerTypeKind) {
                wl_refuse(e, call, "bit intrinsic on a type outside the profile");
                return;
            }
            call_args(e, call, bits[i].nargs, a);
            wl_bind(e, call, per_elem(e, t, bits[i].f, a[0], bits[i].nargs > 1 ? a[1] : 0,
                                      bits[i].nargs > 2 ? a[2] : 0));
            return;
        }
    if (named(n, len, "llvm.uadd.sat") || named(n, len, "llvm.usub.sat") || named(n, len, "llvm.sadd.sat") ||
        named(n, len, "llvm.ssub.sat")) {
        saturating(e, call, n, len);
        return;
    }
    if (has_prefix(n, len, "llvm.") && len > 19 && strstr(n, ".with.overflow")) {
        with_overflow(e, call, n, len);
        return;
    }
    if (has_prefix(n, len, "llvm.vector.reduce.")) {
        vector_reduce(e, call, n, len);
        return;
    }
    if (named(n, len, "llvm.fma")) {
        /* fused exactly (backend/fma.c) unless the device's Fma is fused */
        if (!float_ok(e, call, t, 1))
            return;
        call_args(e, call, 3, a);
        /* half: always the exact routine; the probe (wl_rt_probe_fma) tells
         * f32 and f64 only, and a fused f32 Fma may still round a half fma
         * twice */
        unsigned bits = wl_scalar_bits(t);
        if (e->opt && bits != 16 && (e->opt->fused_fma_native & (bits == 64 ? WL_FMA_F64 : WL_FMA_F32)))
            wl_bind(e, call, wl_glsl(e, ty, GLSLFma, 3, a));
        else
            wl_bind(e, call, wl_fma_exact(e, t, a[0], a[1], a[2]));
        return;
    }
    for (size_t i = 0; i < sizeof fmath / sizeof fmath[0]; i++)
        if (named(n, len, fmath[i].name)) {
            if (!float_ok(e, call, t, fmath[i].f64))
                return;
            call_args(e, call, fmath[i].nargs, a);
            wl_bind(e, call, wl_glsl(e, ty, fmath[i].glsl, fmath[i].nargs, a));
            return;
        }
    if (named(n, len, "llvm.copysign")) {
        if (!float_ok(e, call, t, 1))
            return;
        call_args(e, call, 2, a);
        wl_bind(e, call, f_copysign(e, t, a[0], a[1]));
        return;
    }
    if (named(n, len, "llvm.round")) {
        if (!float_ok(e, call, t, 1))
            return;
        call_args(e, call, 1, a);
        wl_bind(e, call, round_away(e, t, a[0]));
        return;
    }
    if (named(n, len, "llvm.ldexp")) {
        if (!float_ok(e, call, t, 1))
            return;
        if (wl_scalar_bits(LLVMTypeOf(arg(call, 1))) != 32) {
            wl_refuse(e, call, "ldexp with an exponent other than i32");
            return;
        }
        call_args(e, call, 2, a);
        wl_bind(e, call, wl_glsl(e, ty, GLSLLdexp, 2, a));
        return;
    }
    if (named(n, len, "llvm.frexp")) {
        LLVMTypeRef ft = LLVMStructGetTypeAtIndex(t, 0), it = LLVMStructGetTypeAtIndex(t, 1);
        if (!float_ok(e, call, ft, 1))
            return;
        if (wl_scalar_bits(it) != 32) {
            wl_refuse(e, call, "frexp with an exponent other than i32");
            return;
        }
        call_args(e, call, 1, a);
        wl_bind(e, call, wl_glsl(e, ty, GLSLFrexpStruct, 1, a));
        return;
    }
    wl_refuse(e, call, "intrinsic outside the profile");
}

/* ---- spv.* ---- */

static uint32_t const_arg(wl_em *e, LLVMValueRef call, unsigned i, uint32_t max)
{
    LLVMValueRef x = arg(call, i);
    if (!LLVMIsAConstantInt(x) || LLVMConstIntGetZExtValue(x) > max) {
        wl_refuse(e, call, "argument must be a constant in range");
        return 0xffffffffu;
    }
    return (uint32_t)LLVMConstIntGetZExtValue(x);
}

/* OpControlBarrier of scope (execution and memory), acquire-release of
 * workgroup and uniform memory; the block's invocations are together after
 * it (e->sg_synced) */
static void control_barrier(wl_em *e, uint32_t scope)
{
    uint32_t sc = wl_c_u32(e, scope);
    INS(e, &e->body, SpvOpControlBarrier, sc, sc,
        wl_c_u32(e, SpvSemAcquireRelease | SpvSemWorkgroupMemory | SpvSemUniformMemory));
    e->sg_synced = 1;
}

static void spv_call(wl_em *e, LLVMValueRef call, const char *n, size_t len)
{
    LLVMTypeRef t = LLVMTypeOf(call);
    uint32_t ty = wl_ty_llvm(e, t);
    uint32_t u32 = wl_ty_int(e, 32), bt = wl_ty_bool(e);
    if (has_prefix(n, len, "spv.fma.host.")) {
        /* the host's Fma as it is, its result checked (fma-host-first) */
        uint32_t a[3];
        if (!float_ok(e, call, t, 1))
            return;
        call_args(e, call, 3, a);
        wl_bind(e, call, wl_glsl(e, ty, GLSLFma, 3, a));
        return;
    }
    static const struct {
        const char *name;
        uint32_t builtin;
        int vec3;
    } bi[] = {
        {"spv.workgroup_id", SpvBuiltInWorkgroupId, 1},
        {"spv.local_invocation_id", SpvBuiltInLocalInvocationId, 1},
        {"spv.global_invocation_id", SpvBuiltInGlobalInvocationId, 1},
        {"spv.num_workgroups", SpvBuiltInNumWorkgroups, 1},
        {"spv.local_invocation_index", SpvBuiltInLocalInvocationIndex, 0},
        {"spv.subgroup_id", SpvBuiltInSubgroupId, 0},
        {"spv.num_subgroups", SpvBuiltInNumSubgroups, 0},
        {"spv.subgroup_size", SpvBuiltInSubgroupSize, 0},
        {"spv.subgroup_local_invocation_id", SpvBuiltInSubgroupLocalInvocationId, 0},
    };
    for (size_t i = 0; i < sizeof bi / sizeof bi[0]; i++)
        if (named(n, len, bi[i].name)) {
            if (ty != u32) {
                wl_refuse(e, call, "builtin must return i32");
                return;
            }
            uint32_t v = wl_builtin(e, bi[i].builtin, bi[i].vec3);
            if (bi[i].vec3) {
                uint32_t d = const_arg(e, call, 0, 2);
                if (d > 2)
                    return;
                v = OP(e, SpvOpCompositeExtract, u32, v, d);
            }
            wl_bind(e, call, v);
            return;
        }
    uint32_t sg = wl_c_u32(e, SpvScopeSubgroup);
    if (named(n, len, "spv.barrier.workgroup") || named(n, len, "spv.barrier.subgroup")) {
        control_barrier(e, named(n, len, "spv.barrier.workgroup") ? SpvScopeWorkgroup : SpvScopeSubgroup);
        return;
    }
    if (has_prefix(n, len, "spv.subgroup.") && !e->sg_synced)
        /* the block's first subgroup operation: a subgroup barrier before
         * it, so that the invocations a per-lane branch before took apart
         * are together again. NVIDIA (580.159.04, H100) ran a reduction
         * after such branches with 16 of 32 invocations, with and without
         * MaximallyReconvergesKHR (glsl_compact at k = 2; with no OpUndef in
         * the module as well, module.c's wl_c_undef: docs/backend.md). */
        control_barrier(e, SpvScopeSubgroup);
    if (named(n, len, "spv.memory_barrier.workgroup") || named(n, len, "spv.memory_barrier.device") ||
        named(n, len, "spv.memory_barrier.subgroup")) {
        uint32_t sc = named(n, len, "spv.memory_barrier.device")      ? SpvScopeDevice
                      : named(n, len, "spv.memory_barrier.workgroup") ? SpvScopeWorkgroup
                                                                      : SpvScopeSubgroup;
        uint32_t sem = wl_c_u32(e, SpvSemAcquireRelease | SpvSemWorkgroupMemory | SpvSemUniformMemory);
        INS(e, &e->body, SpvOpMemoryBarrier, wl_c_u32(e, sc), sem);
        return;
    }
    if (named(n, len, "spv.subgroup.elect")) {
        wl_cap(e, SpvCapGroupNonUniform);
        wl_bind(e, call, OP(e, SpvOpGroupNonUniformElect, bt, sg));
        return;
    }
    if (named(n, len, "spv.subgroup.any") || named(n, len, "spv.subgroup.all") ||
        named(n, len, "spv.subgroup.all_equal")) {
        wl_cap(e, SpvCapGroupNonUniformVote);
        uint32_t op = named(n, len, "spv.subgroup.any")   ? SpvOpGroupNonUniformAny
                      : named(n, len, "spv.subgroup.all") ? SpvOpGroupNonUniformAll
                                                          : SpvOpGroupNonUniformAllEqual;
        wl_bind(e, call, OP(e, op, bt, sg, wl_val(e, arg(call, 0))));
        return;
    }
    if (named(n, len, "spv.subgroup.ballot")) {
        wl_cap(e, SpvCapGroupNonUniformBallot);
        if (ty != wl_ty_vec(e, u32, 4)) {
            wl_refuse(e, call, "ballot must return <4 x i32>");
            return;
        }
        wl_bind(e, call, OP(e, SpvOpGroupNonUniformBallot, ty, sg, wl_val(e, arg(call, 0))));
        return;
    }
    if (named(n, len, "spv.subgroup.inverse_ballot")) {
        wl_cap(e, SpvCapGroupNonUniformBallot);
        wl_bind(e, call, OP(e, SpvOpGroupNonUniformInverseBallot, bt, sg, wl_val(e, arg(call, 0))));
        return;
    }
    if (named(n, len, "spv.subgroup.ballot_bit_count") || named(n, len, "spv.subgroup.ballot_inclusive_count") ||
        named(n, len, "spv.subgroup.ballot_exclusive_count")) {
        wl_cap(e, SpvCapGroupNonUniformBallot);
        uint32_t gop = named(n, len, "spv.subgroup.ballot_bit_count")         ? SpvGroupOpReduce
                       : named(n, len, "spv.subgroup.ballot_inclusive_count") ? SpvGroupOpInclusiveScan
                                                                              : SpvGroupOpExclusiveScan;
        wl_bind(e, call, OP(e, SpvOpGroupNonUniformBallotBitCount, u32, sg, gop, wl_val(e, arg(call, 0))));
        return;
    }
    if (named(n, len, "spv.subgroup.broadcast_first")) {
        wl_cap(e, SpvCapGroupNonUniformBallot);
        wl_bind(e, call, OP(e, SpvOpGroupNonUniformBroadcastFirst, ty, sg, wl_val(e, arg(call, 0))));
        return;
    }
    static const struct {
        const char *name;
        uint32_t op, cap;
    } lane[] = {
        {"spv.subgroup.broadcast", SpvOpGroupNonUniformBroadcast, SpvCapGroupNonUniformBallot},
        {"spv.subgroup.shuffle", SpvOpGroupNonUniformShuffle, SpvCapGroupNonUniformShuffle},
        {"spv.subgroup.shuffle_xor", SpvOpGroupNonUniformShuffleXor, SpvCapGroupNonUniformShuffle},
        {"spv.subgroup.shuffle_up", SpvOpGroupNonUniformShuffleUp, SpvCapGroupNonUniformShuffleRelative},
        {"spv.subgroup.shuffle_down", SpvOpGroupNonUniformShuffleDown, SpvCapGroupNonUniformShuffleRelative},
    };
    for (size_t i = 0; i < sizeof lane / sizeof lane[0]; i++)
        if (named(n, len, lane[i].name)) {
            if (!ty || wl_scalar_bits(LLVMTypeOf(arg(call, 1))) != 32) {
                wl_refuse(e, call, "subgroup lane operation: (value, i32 lane)");
                return;
            }
            wl_cap(e, lane[i].cap);
            wl_bind(e, call, OP(e, lane[i].op, ty, sg, wl_val(e, arg(call, 0)), wl_val(e, arg(call, 1))));
            return;
        }
    static const struct {
        const char *name;
        uint32_t op;
    } arith[] = {
        {"spv.subgroup.iadd", SpvOpGroupNonUniformIAdd}, {"spv.subgroup.fadd", SpvOpGroupNonUniformFAdd},
        {"spv.subgroup.imul", SpvOpGroupNonUniformIMul},
        {"spv.subgroup.umin", SpvOpGroupNonUniformUMin}, {"spv.subgroup.umax", SpvOpGroupNonUniformUMax},
        {"spv.subgroup.smin", SpvOpGroupNonUniformSMin}, {"spv.subgroup.smax", SpvOpGroupNonUniformSMax},
        {"spv.subgroup.fmin", SpvOpGroupNonUniformFMin}, {"spv.subgroup.fmax", SpvOpGroupNonUniformFMax},
        {"spv.subgroup.and", SpvOpGroupNonUniformBitwiseAnd}, {"spv.subgroup.or", SpvOpGroupNonUniformBitwiseOr},
        {"spv.subgroup.xor", SpvOpGroupNonUniformBitwiseXor},
    };
    for (size_t i = 0; i < sizeof arith / sizeof arith[0]; i++)
        if (named(n, len, arith[i].name)) {
            /* spv.subgroup.<op>(value, i32 group operation: 0 reduce,
             * 1 inclusive scan, 2 exclusive scan) */
            uint32_t gop = const_arg(e, call, 1, 2);
            if (gop > 2 || !ty)
                return;
            wl_cap(e, SpvCapGroupNonUniformArithmetic);
            wl_bind(e, call, OP(e, arith[i].op, ty, sg, gop, wl_val(e, arg(call, 0))));
            return;
        }
    if (named(n, len, "spv.construct")) {
        /* <N x T> spv.construct(T x0, ..., T xN-1): OpCompositeConstruct
         * (llvm-passes/vectorize_lanes/vec_lanes.c builds its vectors of lane clones this way:
         * 3 + N words, where N insertelements cost 6 each) */
        unsigned na = (unsigned)LLVMGetNumArgOperands(call), nv = wl_vec_len(t);
        if (!ty || !nv || na != nv) {
            wl_refuse(e, call, "spv.construct must return a vector of its arguments");
            return;
        }
        uint32_t a[4];
        for (unsigned i = 0; i < na; i++) {
            if (LLVMTypeOf(arg(call, i)) != LLVMGetElementType(t)) {
                wl_refuse(e, call, "spv.construct: argument type is not the element type");
                return;
            }
            a[i] = wl_val(e, arg(call, i));
        }
        wl_bind(e, call, wl_op(e, SpvOpCompositeConstruct, ty, (int)na, a));
        return;
    }
    if (has_prefix(n, len, "spv.glsl.")) {
        const char *nm = n + 9;
        size_t nl = len - 9;
        for (size_t i = 0; i < nl; i++)
            if (nm[i] == '.')
                nl = i;
        for (size_t i = 0; i < sizeof glsl_names / sizeof glsl_names[0]; i++)
            if (strlen(glsl_names[i].name) == nl && !memcmp(glsl_names[i].name, nm, nl)) {
                int na = LLVMGetNumArgOperands(call);
                uint32_t a[4];
                if (!ty || na > 3) {
                    wl_refuse(e, call, "GLSL.std.450 call outside the profile");
                    return;
                }
                call_args(e, call, na, a);
                wl_bind(e, call, wl_glsl(e, ty, glsl_names[i].glsl, na, a));
                return;
            }
    }
    wl_refuse(e, call, "unknown spv.* function");
}

/* A call of a function defined in the module: OpFunctionCall of the id
 * wl_emit_spirv gave it (every defined function is emitted). */
static void user_call(wl_em *e, LLVMValueRef call, LLVMValueRef f)
{
    wl_pent *p = wl_pmap_get(&e->vals, f);
    if (!p || !p->a) {
        wl_refuse(e, call, "call of a function the backend has not numbered");
        return;
    }
    if (f == e->entry || p->b) {
        wl_refuse(e, call, "a recursive call or a call of the entry (Vulkan has no recursion)");
        return;
    }
    unsigned n = (unsigned)LLVMGetNumArgOperands(call);
    if (n > 32) {
        wl_refuse(e, call, "a call of more than 32 arguments");
        return;
    }
    uint32_t ops[34];
    LLVMTypeRef rt = LLVMGetReturnType(LLVMGlobalGetValueType(f));
    int isvoid = LLVMGetTypeKind(rt) == LLVMVoidTypeKind;
    ops[0] = isvoid ? wl_ty_void(e) : wl_ty_llvm(e, rt);
    ops[1] = p->a;
    for (unsigned i = 0; i < n; i++)
        ops[2 + i] = wl_val(e, LLVMGetOperand(call, i));
    if (e->failed)
        return;
    uint32_t id = wl_id(e);
    wl_wb_push(e, &e->body, ((uint32_t)(n + 4) << 16) | SpvOpFunctionCall);
    wl_wb_push(e, &e->body, ops[0]);
    wl_wb_push(e, &e->body, id);
    for (unsigned i = 0; i < n + 1; i++)
        wl_wb_push(e, &e->body, ops[1 + i]);
    if (!isvoid)
        wl_bind(e, call, id);
}

void wl_call(wl_em *e, LLVMValueRef call)
{
    LLVMValueRef f = LLVMGetCalledValue(call);
    if (!f || !LLVMIsAFunction(f)) {
        wl_refuse(e, call, "indirect call");
        return;
    }
    size_t len = 0;
    const char *n = LLVMGetValueName2(f, &len);
    if (has_prefix(n, len, "llvm."))
        llvm_intrinsic(e, call, n, len);
    else if (has_prefix(n, len, "spv."))
        spv_call(e, call, n, len);
    else if (!LLVMIsDeclaration(f))
        user_call(e, call, f);
    else
        wl_refuse(e, call, "call of a function declared but not defined");
}

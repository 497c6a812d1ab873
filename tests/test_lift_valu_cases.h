/* The cases of test_lift_valu.c: a program text and its reference, written
 * from the RDNA2 ISA's definitions. In the texts, SM is the lane-mask SGPR
 * operand (s[20:21] in wave64, s20 in wave32), SN a second one (s[22:23] /
 * s22) and VCC is vcc (vcc_lo in wave32). Inputs: v0..v9 per lane, s0..s31
 * uniform (s5 is a lane number 0..79); the result goes to v3 (32-bit) or
 * v[4:5] (64-bit), a mask to SM, vcc or exec. Included once. */

/* C_SCALE: floats with many subnormal, tiny and huge ones in v0, v2, ...,
 * small exponents (-300..300) in v1, v3, ...; C_DSCALE: such doubles in
 * v[0:1], v[6:7], v[8:9], exponents (-2200..2200) in v2..v5. */
/* C_LOGEXP: floats near 1 (log) and in [-160, 130] (exp). */
/* C_DN32 / C_DN16: floats (f32, or two f16 halves) with many denormals,
 * tiny normals, zeros and NaNs (the float-mode cases). */
/* C_ZS32: f32 from {+-0, +-1, +-2}, so that operands tie and signed zeros
 * meet (the +0 > -0 rules of v_min/v_max/v_med3) */
enum { C_INT, C_F32, C_F16, C_F64, C_SHIFT, C_SCALE, C_DSCALE, C_LOGEXP, C_DN32, C_DN16, C_ZS32 };
enum { K_BITS, K_F32, K_F16, K_F16HI, K_F64, K_PK16 };
enum { G_VOP1, G_VOP2, G_VOP3, G_VOPC, G_SDWA, G_DPP, G_VOP3P, G_LANE, G_MODE, G_COUNT };
static const char *const group_names[G_COUNT] = {"VOP1", "VOP2", "VOP3", "VOPC", "SDWA", "DPP", "VOP3P", "lanes", "mode"};

typedef struct expect {
    unsigned nv;
    unsigned vreg[3];
    int vcmp[3];
    uint32_t v[3][64];
    unsigned ns;
    unsigned sreg[4];
    uint32_t s[4];
} expect;

typedef struct tcase {
    int group, cls;
    const char *text;
    void (*ref)(const wave *w, expect *e);
} tcase;

/* A case run under a float mode at launch: mode is FM(MODE bits 9:0), or
 * 0 for a program whose mode is unknown (the lifter's default). */
typedef struct mcase {
    tcase c;
    unsigned mode;
} mcase;

/* The float mode at launch, as MODE bits 9:0 (3:0 round, 7:4 denorm,
 * 8 DX10_CLAMP, 9 IEEE). ACO's compute shaders: f32 denormals flushed, f16/
 * f64 kept, DX10 clamp on, IEEE off. */
#define FM(bits) (0x10000u | (bits))
#define FM_ACO FM(0x1c0)

#define ACT(w, l) (((w)->exec >> (l)) & 1)

/* ---- ISA helpers ---- */
static bool snan32(uint32_t a) { return (a & 0x7f800000) == 0x7f800000 && (a & 0x7fffff) && !(a & 0x400000); }
static bool nan32(uint32_t a) { return (a & 0x7f800000) == 0x7f800000 && (a & 0x7fffff); }
/* v_max_f32 / v_min_f32 in IEEE mode: a signaling NaN gives a quiet NaN,
 * a quiet NaN loses, +0 > -0. */
static uint32_t hw_max32(uint32_t a, uint32_t b, bool max)
{
    if (snan32(a)) return a | 0x400000;
    if (snan32(b)) return b | 0x400000;
    if (nan32(a)) return b;
    if (nan32(b)) return a;
    if (F(a) == F(b)) return max ? (a & b) : (a | b);
    return (F(a) > F(b)) == max ? a : b;
}
static bool nan16(uint32_t a) { return (a & 0x7c00) == 0x7c00 && (a & 0x3ff); }
static uint32_t hw_max16(uint32_t a, uint32_t b, bool max)
{
    a &= 0xffff;
    b &= 0xffff;
    if (nan16(a) && !(a & 0x200)) return a | 0x200;
    if (nan16(b) && !(b & 0x200)) return b | 0x200;
    if (nan16(a)) return b;
    if (nan16(b)) return a;
    if (H(a) == H(b)) return max ? (a & b) : (a | b);
    return (H(a) > H(b)) == max ? a : b;
}
static bool nan64(uint64_t a) { return (a & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (a & 0xfffffffffffffull); }
static uint64_t hw_max64(uint64_t a, uint64_t b, bool max)
{
    if (nan64(a) && !(a & 0x8000000000000ull)) return a | 0x8000000000000ull;
    if (nan64(b) && !(b & 0x8000000000000ull)) return b | 0x8000000000000ull;
    if (nan64(a)) return b;
    if (nan64(b)) return a;
    if (D(a) == D(b)) return max ? (a & b) : (a | b);
    return (D(a) > D(b)) == max ? a : b;
}
static uint32_t hw_med3_32(uint32_t a, uint32_t b, uint32_t c)
{
    if (nan32(a) || nan32(b) || nan32(c))
        return hw_max32(hw_max32(a, b, false), c, false);
    uint32_t m = hw_max32(hw_max32(a, b, true), c, true);
    if (F(m) == F(a)) return hw_max32(b, c, true);
    if (F(m) == F(b)) return hw_max32(a, c, true);
    return hw_max32(a, b, true);
}
static uint32_t clamp01(uint32_t r)
{
    if (nan32(r)) return 0;
    if (F(r) > 1.0f) return 0x3f800000;
    if (!(F(r) > 0.0f)) return 0;
    return r;
}
static int32_t f2i(double x, bool sg)
{
    if (isnan(x)) return 0;
    x = trunc(x);
    if (sg) {
        if (x >= 2147483648.0) return INT32_MAX;
        if (x < -2147483648.0) return INT32_MIN;
        return (int32_t)x;
    }
    if (x >= 4294967296.0) return (int32_t)0xffffffffu;
    if (x < 0) return 0;
    return (int32_t)(uint32_t)x;
}
static uint32_t f32_to_f16_rtz(uint32_t x)
{
    uint32_t s = (x >> 16) & 0x8000;
    uint32_t e = (x >> 23) & 0xff, m = x & 0x7fffff;
    if (e == 0xff) return m ? 0x7e00 | s : 0x7c00 | s;
    double ax = fabs((double)F(x));
    if (ax >= 65536.0) return s | 0x7bff;
    int ue = (int)e - 127;
    if (ue >= -14) return s | (uint32_t)(ue + 15) << 10 | (m >> 13);
    return s | (uint32_t)floor(ax * 16777216.0); /* subnormal: units of 2^-24 */
}
static uint32_t perm_byte(uint64_t d, uint32_t s)
{
    s &= 0xff;
    if (s >= 13) return 0xff;
    if (s == 12) return 0;
    if (s >= 8) return ((d >> (15 + 16 * (s - 8))) & 1) ? 0xff : 0;
    return (uint32_t)(d >> (8 * s)) & 0xff;
}
static int clz32(uint32_t x) { return x ? __builtin_clz(x) : 32; }
static uint32_t bfe_s(uint32_t a, uint32_t o, uint32_t w)
{
    o &= 31;
    w &= 31;
    if (!w) return 0;
    uint32_t x = (uint32_t)((int32_t)a >> o);
    return (uint32_t)((int32_t)(x << (32 - w)) >> (32 - w));
}
static uint32_t bfe_u(uint32_t a, uint32_t o, uint32_t w)
{
    o &= 31;
    w &= 31;
    return w ? (a >> o) & ((1u << w) - 1) : 0;
}
static uint32_t f_fract(uint32_t a)
{
    float x = F(a), f = x - floorf(x);
    if (isnan(f)) return U(f);
    return f < F(0x3f7fffff) ? U(f) : 0x3f7fffff;
}
static uint64_t f_fract64(uint64_t a)
{
    double x = D(a), f = x - floor(x);
    if (isnan(f)) return UD(f);
    return f < D(0x3fefffffffffffffull) ? UD(f) : 0x3fefffffffffffffull;
}
static uint64_t A64(const wave *w, unsigned v, unsigned l) { return w->v[v][l] | (uint64_t)w->v[v + 1][l] << 32; }
static uint64_t SMASK(const wave *w, unsigned s) { return w->W == 64 ? (w->s[s] | (uint64_t)w->s[s + 1] << 32) : w->s[s]; }
static unsigned cls_f32(uint32_t x)
{
    uint32_t e = (x >> 23) & 0xff, m = x & 0x7fffff, neg = x >> 31;
    if (e == 0xff && m) return (m & 0x400000) ? 1 : 0;
    if (e == 0xff) return neg ? 2 : 9;
    if (e) return neg ? 3 : 8;
    if (m) return neg ? 4 : 7;
    return neg ? 5 : 6;
}
static unsigned cls_f64(uint64_t x)
{
    uint64_t e = (x >> 52) & 0x7ff, m = x & 0xfffffffffffffull, neg = x >> 63;
    if (e == 0x7ff && m) return (m & 0x8000000000000ull) ? 1 : 0;
    if (e == 0x7ff) return neg ? 2 : 9;
    if (e) return neg ? 3 : 8;
    if (m) return neg ? 4 : 7;
    return neg ? 5 : 6;
}

/* ---- reference shapes ---- */
#define LANES                                                                                     \
    for (unsigned l = 0; l < w->W; l++)                                                           \
        for (uint32_t a = w->v[0][l], b = w->v[1][l], c = w->v[2][l], old = w->v[3][l], once = 1; \
             once; once = 0)

/* v3 = EXPR in active lanes */
#define R32(NAME, KIND, EXPR)                                                                     \
    static void NAME(const wave *w, expect *e)                                                    \
    {                                                                                             \
        e->nv = 1; e->vreg[0] = 3; e->vcmp[0] = KIND;                                             \
        LANES { (void)a; (void)b; (void)c; e->v[0][l] = ACT(w, l) ? (uint32_t)(EXPR) : old; }     \
    }
/* v[4:5] = EXPR (64-bit) with A = v[0:1], B = v[6:7], C = v[8:9] */
#define R64(NAME, KIND, EXPR)                                                                     \
    static void NAME(const wave *w, expect *e)                                                    \
    {                                                                                             \
        e->nv = 2; e->vreg[0] = 4; e->vreg[1] = 5; e->vcmp[0] = e->vcmp[1] = KIND;                \
        LANES {                                                                                   \
            (void)a; (void)b; (void)c; (void)old;                                                 \
            uint64_t A = A64(w, 0, l), B = A64(w, 6, l), C = A64(w, 8, l);                        \
            (void)A; (void)B; (void)C;                                                            \
            uint64_t r = ACT(w, l) ? (uint64_t)(EXPR) : A64(w, 4, l);                             \
            e->v[0][l] = (uint32_t)r; e->v[1][l] = (uint32_t)(r >> 32);                           \
        }                                                                                         \
    }
/* a mask of the active lanes where PRED, into scalar register REG (pair in wave64) */
static void put_mask(const wave *w, expect *e, unsigned reg, uint64_t m)
{
    e->sreg[e->ns] = reg; e->s[e->ns++] = (uint32_t)m;
    if (w->W == 64) { e->sreg[e->ns] = reg + 1; e->s[e->ns++] = (uint32_t)(m >> 32); }
}
#define CMP(NAME, REG, PRED)                                                                      \
    static void NAME(const wave *w, expect *e)                                                    \
    {                                                                                             \
        uint64_t m = 0;                                                                           \
        LANES {                                                                                   \
            (void)a; (void)b; (void)c; (void)old;                                                 \
            uint64_t A = A64(w, 0, l), B = A64(w, 6, l);                                          \
            (void)A; (void)B;                                                                     \
            if (ACT(w, l) && (PRED)) m |= 1ull << l;                                              \
        }                                                                                         \
        put_mask(w, e, REG, m);                                                                   \
    }
/* v3 = VAL, carry mask to REG */
#define CARRY(NAME, REG, CIN, VAL, COUT)                                                          \
    static void NAME(const wave *w, expect *e)                                                    \
    {                                                                                             \
        uint64_t m = 0;                                                                           \
        e->nv = 1; e->vreg[0] = 3; e->vcmp[0] = K_BITS;                                           \
        LANES {                                                                                   \
            uint64_t ci = (CIN);                                                                  \
            (void)ci; (void)c;                                                                    \
            e->v[0][l] = ACT(w, l) ? (uint32_t)(VAL) : old;                                       \
            if (ACT(w, l) && (COUT)) m |= 1ull << l;                                              \
        }                                                                                         \
        put_mask(w, e, REG, m);                                                                   \
    }
#define SMB(l) ((SMASK(w, 20) >> (l)) & 1)

/* ---- integer ---- */
R32(r_add, K_BITS, a + b)
R32(r_add_lit, K_BITS, 0x12345 + b)
R32(r_lshl_add_sh, K_BITS, (b << (a & 31)) + c)
R32(r_bfe_u_sh, K_BITS, bfe_u(b, a, c))
R32(r_bfe_i_sh, K_BITS, bfe_s(b, a, c))
R32(r_add_clamp, K_BITS, (uint64_t)a + b > 0xffffffffu ? 0xffffffffu : a + b)
R32(r_sub, K_BITS, a - b)
R32(r_sub_clamp, K_BITS, a < b ? 0 : a - b)
R32(r_subrev, K_BITS, b - a)
R32(r_add_i_clamp, K_BITS, (int64_t)(int32_t)a + (int32_t)b > INT32_MAX ? INT32_MAX : (int64_t)(int32_t)a + (int32_t)b < INT32_MIN ? (uint32_t)INT32_MIN : a + b)
R32(r_and, K_BITS, a & b)
R32(r_or, K_BITS, a | b)
R32(r_xor, K_BITS, a ^ b)
R32(r_xnor, K_BITS, ~(a ^ b))
R32(r_not, K_BITS, ~a)
R32(r_shl, K_BITS, b << (a & 31))
R32(r_shr, K_BITS, b >> (a & 31))
R32(r_sar, K_BITS, (uint32_t)((int32_t)b >> (a & 31)))
R32(r_mullo, K_BITS, a * b)
R32(r_mulhi_u, K_BITS, (uint32_t)(((uint64_t)a * b) >> 32))
R32(r_mulhi_i, K_BITS, (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32))
R32(r_mul_u24, K_BITS, (a & 0xffffff) * (b & 0xffffff))
R32(r_mulhi_u24, K_BITS, (uint32_t)(((uint64_t)(a & 0xffffff) * (b & 0xffffff)) >> 32))
R32(r_mul_i24, K_BITS, (uint32_t)((int64_t)((int32_t)(a << 8) >> 8) * ((int32_t)(b << 8) >> 8)))
R32(r_mad_u24, K_BITS, (a & 0xffffff) * (b & 0xffffff) + c)
R32(r_add3, K_BITS, a + b + c)
R32(r_lshl_add, K_BITS, (a << (b & 31)) + c)
R32(r_add_lshl, K_BITS, (a + b) << (c & 31))
R32(r_lshl_or, K_BITS, (a << (b & 31)) | c)
R32(r_and_or, K_BITS, (a & b) | c)
R32(r_or3, K_BITS, a | b | c)
R32(r_xor3, K_BITS, a ^ b ^ c)
R32(r_xad, K_BITS, (a ^ b) + c)
R32(r_bfe_u, K_BITS, bfe_u(a, b, c))
R32(r_bfe_i, K_BITS, bfe_s(a, b, c))
R32(r_bfi, K_BITS, (a & b) | (~a & c))
R32(r_bfm, K_BITS, ((1u << (a & 31)) - 1) << (b & 31))
R32(r_alignbit, K_BITS, (uint32_t)((((uint64_t)a << 32) | b) >> (c & 31)))
R32(r_alignbyte, K_BITS, (uint32_t)((((uint64_t)a << 32) | b) >> (8 * (c & 3))))
R32(r_perm, K_BITS, perm_byte((uint64_t)a << 32 | b, c) | perm_byte((uint64_t)a << 32 | b, c >> 8) << 8 | perm_byte((uint64_t)a << 32 | b, c >> 16) << 16 | perm_byte((uint64_t)a << 32 | b, c >> 24) << 24)
R32(r_min_u, K_BITS, a < b ? a : b)
R32(r_max_i, K_BITS, (int32_t)a > (int32_t)b ? a : b)
R32(r_med3_i, K_BITS, (int32_t)a > (int32_t)b ? ((int32_t)b > (int32_t)c ? b : (int32_t)a > (int32_t)c ? c : a) : ((int32_t)a > (int32_t)c ? a : (int32_t)b > (int32_t)c ? c : b))
R32(r_med3_u, K_BITS, a > b ? (b > c ? b : a > c ? c : a) : (a > c ? a : b > c ? c : b))
R32(r_min3_u, K_BITS, a < b ? (a < c ? a : c) : (b < c ? b : c))
R32(r_max3_i, K_BITS, (int32_t)a > (int32_t)b ? ((int32_t)a > (int32_t)c ? a : c) : ((int32_t)b > (int32_t)c ? b : c))
R32(r_bcnt, K_BITS, (uint32_t)__builtin_popcount(a) + b)
R32(r_ffbh, K_BITS, a ? (uint32_t)__builtin_clz(a) : 0xffffffffu)
R32(r_ffbl, K_BITS, a ? (uint32_t)__builtin_ctz(a) : 0xffffffffu)
R32(r_ffbh_i, K_BITS, (a ^ (uint32_t)((int32_t)a >> 31)) ? (uint32_t)clz32(a ^ (uint32_t)((int32_t)a >> 31)) - 1 : 0xffffffffu)
R32(r_bfrev, K_BITS, ({ uint32_t x = a, r = 0; for (int i = 0; i < 32; i++) r |= ((x >> i) & 1) << (31 - i); r; }))
R32(r_mov, K_BITS, a)
R32(r_cndmask_sm, K_BITS, SMB(l) ? b : a)
R32(r_cndmask_fmods, K_BITS, SMB(l) ? (b & 0x7fffffff) : (a ^ 0x80000000u))
R32(r_cndmask_vcc, K_BITS, c < b ? b : a)
R32(r_mbcnt_lo, K_BITS, (uint32_t)__builtin_popcount(w->s[20] & (uint32_t)(l >= 32 ? 0xffffffffu : (1u << l) - 1)) + b)
R32(r_mbcnt_hi, K_BITS, (uint32_t)__builtin_popcount(w->s[21] & (uint32_t)(l <= 32 ? 0 : (1ull << (l - 32)) - 1)) + b)
static uint32_t sad_ref(uint32_t a, uint32_t b, unsigned bits)
{
    uint32_t s = 0, m = (1u << bits) - 1;
    for (unsigned i = 0; i < 32; i += bits) {
        uint32_t x = (a >> i) & m, y = (b >> i) & m;
        s += x > y ? x - y : y - x;
    }
    return s;
}
static uint32_t lerp_ref(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < 32; i += 8)
        r |= ((((a >> i) & 0xff) + ((b >> i) & 0xff) + ((c >> i) & 1)) >> 1) << i;
    return r;
}
R32(r_sad_u8, K_BITS, sad_ref(a, b, 8) + c)
R32(r_sad_hi_u8, K_BITS, (sad_ref(a, b, 8) << 16) + c)
R32(r_sad_u16, K_BITS, sad_ref(a, b, 16) + c)
R32(r_lerp_u8, K_BITS, lerp_ref(a, b, c))
/* 16-bit (gfx10 keeps the other half) */
R32(r_add16, K_BITS, lo16(old, a + b))
R32(r_add16_hi, K_BITS, hi16(old, (a >> 16) + (b >> 16)))
R32(r_mullo16, K_BITS, lo16(old, a * b))
R32(r_shl16, K_BITS, lo16(old, (b & 0xffff) << (a & 15)))
R32(r_ashr16, K_BITS, lo16(old, (uint32_t)((int16_t)b >> (a & 15))))
R32(r_mad16, K_BITS, lo16(old, a * b + c))
R32(r_max_i16, K_BITS, lo16(old, (int16_t)a > (int16_t)b ? a : b))
/* 64-bit */
R64(r_shl64, K_BITS, A << (c & 63))
R64(r_shr64, K_BITS, A >> (c & 63))
R64(r_sar64, K_BITS, (uint64_t)((int64_t)A >> (c & 63)))
R64(r_mad_u64, K_BITS, (uint64_t)a * b + B)
R64(r_mad_i64, K_BITS, (uint64_t)((int64_t)(int32_t)a * (int32_t)b) + B)
static void r_mad_u64_carry(const wave *w, expect *e)
{
    r_mad_u64(w, e);
    uint64_t m = 0;
    LANES {
        (void)b; (void)c; (void)old;
        uint64_t p = (uint64_t)a * w->v[1][l], B = A64(w, 6, l);
        if (ACT(w, l) && p + B < p) m |= 1ull << l;
    }
    put_mask(w, e, 20, m);
}
/* carries */
CARRY(r_add_co, 20, 0, a + b, (uint64_t)a + b > 0xffffffffu)
CARRY(r_sub_co, 20, 0, a - b, b > a)
CARRY(r_subrev_co, 20, 0, b - a, a > b)
CARRY(r_addc_e64, 22, SMB(l), a + b + ci, (uint64_t)a + b + ci > 0xffffffffu)
CARRY(r_subc_e64, 22, SMB(l), a - b - ci, (uint64_t)b + ci > a)
CARRY(r_subrevc_e64, 22, SMB(l), b - a - ci, (uint64_t)a + ci > b)
CARRY(r_addc_vcc, 106, (c < b), a + b + ci, (uint64_t)a + b + ci > 0xffffffffu)

/* ---- f32 ---- */
R32(r_fadd, K_F32, U(F(a) + F(b)))
R32(r_fsub, K_F32, U(F(a) - F(b)))
R32(r_fsubrev, K_F32, U(F(b) - F(a)))
R32(r_fmul, K_F32, U(F(a) * F(b)))
R32(r_fadd_mods, K_F32, U(-F(a) + fabsf(F(b))))
R32(r_fadd_clamp, K_F32, clamp01(U(F(a) + F(b))))
R32(r_fma, K_F32, U(fmaf(F(a), F(b), F(c))))
R32(r_fmac, K_F32, U(fmaf(F(a), F(b), F(old))))
R32(r_fmaak, K_F32, U(fmaf(F(a), F(b), F(0x40490fdb))))
R32(r_fmamk, K_F32, U(fmaf(F(a), F(0x3fc00000), F(b))))
R32(r_fmin, K_F32, hw_max32(a, b, false))
R32(r_fmax, K_F32, hw_max32(a, b, true))
R32(r_fmed3, K_F32, hw_med3_32(a, b, c))
R32(r_fmed3_clamp, K_F32, clamp01(hw_med3_32(a, b, c)))
R32(r_ldexp, K_F32, U(ldexpf(F(a), (int32_t)b)))
R32(r_rndne, K_F32, U(nearbyintf(F(a))))
R32(r_trunc, K_F32, U(truncf(F(a))))
R32(r_floor, K_F32, U(floorf(F(a))))
R32(r_ceil, K_F32, U(ceilf(F(a))))
R32(r_fract, K_F32, f_fract(a))
R32(r_frexp_mant, K_F32, ({ int ex; U(frexpf(F(a), &ex)); }))
R32(r_frexp_exp, K_BITS, ({ int ex = 0; float m = frexpf(F(a), &ex); (isinf(m) || isnan(m)) ? 0u : (uint32_t)ex; }))
/* the ISA's V_FREXP_EXP_I32_F32 / V_FREXP_MANT_F32: inf and NaN give exponent 0 */
static int isa_frexp_exp(float x) { int ex = 0; float m = frexpf(x, &ex); return (isinf(m) || isnan(m)) ? 0 : ex; }
/* clang-19's OpenCL f32 division a / b (v0 / v1) on gfx1030: the frexp/rcp/ldexp macro */
static uint32_t fdiv_macro(uint32_t a, uint32_t b)
{
    int ea = isa_frexp_exp(F(a)), eb = isa_frexp_exp(F(b)), ex;
    float r = 1.0f / frexpf(F(b), &ex), q = frexpf(F(a), &ex) * r;
    return U(ldexpf(q, (int32_t)((uint32_t)ea - (uint32_t)eb)));
}
R32(r_fdiv_macro, K_F32, fdiv_macro(a, b))
R64(r_dfrexp_mant, K_F64, ({ int ex; UD(frexp(D(A), &ex)); }))
R32(r_rcp, K_F32, U(1.0f / F(a)))
R32(r_rsq, K_F32, U(1.0f / sqrtf(F(a))))
R32(r_sqrt, K_F32, U(sqrtf(F(a))))
/* v_exp_f32/v_log_f32 are lifted more exactly than the hardware's 1 ulp:
 * correctly rounded but for values extremely close to a midpoint; the
 * references round glibc's f64 exp2/log2 (< 1 f64 ulp) once. */
R32(r_exp, K_F32, U((float)exp2((double)F(a))))
R32(r_log, K_F32, U((float)log2((double)F(a))))
R32(r_sin, K_F32, U(sinf(F(a) * 6.2831855f)))
R32(r_cos, K_F32, U(cosf(F(a) * 6.2831855f)))
R32(r_mul_legacy, K_F32, (F(a) == 0.0f || F(b) == 0.0f) ? 0u : U(F(a) * F(b)))
/* conversions */
R32(r_cvt_i32_f32, K_BITS, f2i(F(a), true))
R32(r_cvt_u32_f32, K_BITS, f2i(F(a), false))
R32(r_cvt_f32_i32, K_F32, U((float)(int32_t)a))
R32(r_cvt_f32_u32, K_F32, U((float)a))
R32(r_cvt_f16_f32, K_F16, lo16(old, UH((_Float16)F(a))))
R32(r_cvt_f32_f16, K_F32, U((float)H(a)))
R32(r_cvt_f32_ubyte1, K_F32, U((float)((a >> 8) & 0xff)))
R32(r_cvt_flr, K_BITS, f2i(floor((double)F(a)), true))
R32(r_cvt_rpi, K_BITS, f2i(floor((double)(F(a) + 0.5f)), true))
R32(r_cvt_pkrtz, K_PK16, f32_to_f16_rtz(a) | f32_to_f16_rtz(b) << 16)
R32(r_cvt_pk_u16_u32, K_BITS, (a > 0xffff ? 0xffff : a) | (b > 0xffff ? 0xffff : b) << 16)
/* f16 */
R32(r_hadd, K_F16, lo16(old, UH((_Float16)((double)H(a) + (double)H(b)))))
R32(r_hfma_opsel, K_F16HI, hi16(old, UH((_Float16)fma((double)H(a >> 16), (double)H(b), (double)H(c)))))
R32(r_hfma, K_F16, lo16(old, UH((_Float16)fma((double)H(a), (double)H(b), (double)H(c)))))
R32(r_hfmac, K_F16, lo16(old, UH((_Float16)fma((double)H(a), (double)H(b), (double)H(old)))))
R32(r_hmax, K_F16, lo16(old, hw_max16(a, b, true)))
R32(r_hldexp, K_F16, lo16(old, UH((_Float16)ldexp((double)H(a), (int16_t)b))))
/* f64 */
R64(r_dadd, K_F64, UD(D(A) + D(B)))
R64(r_dmul, K_F64, UD(D(A) * D(B)))
R64(r_dfma, K_F64, UD(fma(D(A), D(B), D(C))))
R64(r_dmax, K_F64, hw_max64(A, B, true))
R64(r_dldexp, K_F64, UD(ldexp(D(A), (int32_t)c)))
R64(r_drndne, K_F64, UD(nearbyint(D(A))))
R64(r_dfloor, K_F64, UD(floor(D(A))))
R64(r_dtrunc, K_F64, UD(trunc(D(A))))
R64(r_dfract, K_F64, f_fract64(A))
R64(r_drcp, K_F64, UD(1.0 / D(A)))
R64(r_dsqrt, K_F64, UD(sqrt(D(A))))
R64(r_cvt_f64_f32, K_F64, UD((double)F(a)))
R64(r_cvt_f64_i32, K_F64, UD((double)(int32_t)a))
R64(r_cvt_f64_u32, K_F64, UD((double)a))
R32(r_cvt_f32_f64, K_F32, U((float)D(A64(w, 0, l))))
R32(r_cvt_i32_f64, K_BITS, f2i(D(A64(w, 0, l)), true))
R32(r_cvt_u32_f64, K_BITS, f2i(D(A64(w, 0, l)), false))
R32(r_dfrexp_exp, K_BITS, ({ int ex = 0; double m = frexp(D(A64(w, 0, l)), &ex); (isinf(m) || isnan(m)) ? 0u : (uint32_t)ex; }))

/* ---- compares ---- */
CMP(c_gt_f32_vcc, 106, F(a) > F(b))
CMP(c_lt_f32_sm, 20, F(a) < F(b))
CMP(c_neq_f32, 20, !(F(a) == F(b)))
CMP(c_nlt_f32, 106, !(F(a) < F(b)))
CMP(c_ngt_f32, 20, !(F(a) > F(b)))
CMP(c_lg_f32, 20, F(a) < F(b) || F(a) > F(b))
CMP(c_nlg_f32, 20, !(F(a) < F(b) || F(a) > F(b)))
CMP(c_u_f32, 20, isnan(F(a)) || isnan(F(b)))
CMP(c_o_f32, 106, !isnan(F(a)) && !isnan(F(b)))
CMP(c_eq_u32, 106, a == b)
CMP(c_lt_i32, 20, (int32_t)a < (int32_t)b)
CMP(c_ge_u32, 20, a >= b)
CMP(c_ne_u32_sdwa, 106, (a & 0xff) != (b >> 16))
CMP(c_class_f32, 20, (b >> cls_f32(a)) & 1)
CMP(c_class_f64, 20, (c >> cls_f64(A)) & 1)
CMP(c_lt_f64, 106, D(A) < D(B))
CMP(c_nge_f64, 20, !(D(A) >= D(B)))
CMP(c_lt_i64, 20, (int64_t)A < (int64_t)B)
CMP(c_gt_u64, 106, A > B)
CMP(c_eq_f16, 106, H(a) == H(b))
CMP(c_ne_u16, 20, (a & 0xffff) != (b & 0xffff))
CMP(cx_eq_u32, 126, a == b)
CMP(cx_gt_f32, 126, F(a) > F(b))
CMP(cx_lt_i32, 126, (int32_t)a < (int32_t)b)

/* ---- lanes ---- */
static void l_readlane(const wave *w, expect *e)
{
    e->sreg[0] = 30; e->s[0] = w->v[0][w->s[5] % w->W]; e->ns = 1;
}
static void l_readlane7(const wave *w, expect *e)
{
    e->sreg[0] = 30; e->s[0] = w->v[0][7]; e->ns = 1;
}
static void l_readfirstlane(const wave *w, expect *e)
{
    e->sreg[0] = 30; e->s[0] = w->v[0][w->exec ? __builtin_ctzll(w->exec) : 0]; e->ns = 1;
}
static void l_swap(const wave *w, expect *e)
{
    e->nv = 2; e->vreg[0] = 3; e->vreg[1] = 0;
    for (unsigned l = 0; l < w->W; l++) {
        e->v[0][l] = ACT(w, l) ? w->v[0][l] : w->v[3][l];
        e->v[1][l] = ACT(w, l) ? w->v[3][l] : w->v[0][l];
    }
}
static void l_writelane(const wave *w, expect *e)
{
    e->nv = 1; e->vreg[0] = 3;
    for (unsigned l = 0; l < w->W; l++)
        e->v[0][l] = l == w->s[5] % w->W ? w->s[4] : w->v[3][l];
}
/* DPP16 reference: ctrl, row/bank masks, bound_ctrl, fi; op combines the
 * fetched src0 with src1 */
static void dpp_ref(const wave *w, expect *e, unsigned ctrl, unsigned rm, unsigned bm, bool bc, bool fi,
                    int op)
{
    e->nv = 1; e->vreg[0] = 3; e->vcmp[0] = op == 2 ? K_F32 : K_BITS;
    for (unsigned l = 0; l < w->W; l++) {
        unsigned r = l & 15, base = l & ~15u, src = l;
        bool valid = true;
        if (ctrl <= 0xff) src = (l & ~3u) | ((ctrl >> (2 * (l & 3))) & 3);
        else if (ctrl >= 0x101 && ctrl <= 0x10f) { src = l + (ctrl & 15); valid = r + (ctrl & 15) < 16; }
        else if (ctrl >= 0x111 && ctrl <= 0x11f) { src = l - (ctrl & 15); valid = r >= (ctrl & 15); }
        else if (ctrl >= 0x121 && ctrl <= 0x12f) src = base | ((r - (ctrl & 15)) & 15);
        else if (ctrl == 0x140) src = base | (15 - r);
        else if (ctrl == 0x141) src = (l & ~7u) | (7 - (l & 7));
        else if (ctrl >= 0x150 && ctrl <= 0x15f) src = base | (ctrl & 15);
        else if (ctrl >= 0x160 && ctrl <= 0x16f) src = base | (r ^ (ctrl & 15));
        src &= w->W - 1;
        if (!fi && !((w->exec >> src) & 1)) valid = false;
        uint32_t x = valid ? w->v[0][src] : 0;
        bool write = ACT(w, l) && ((rm >> ((l >> 4) & 3)) & 1) && ((bm >> ((l >> 2) & 3)) & 1) && (valid || bc);
        uint32_t y = w->v[1][l], res;
        if (op == 0) res = x;
        else if (op == 1) res = x + y;
        else res = U(-F(x) + fabsf(F(y)));
        e->v[0][l] = write ? res : w->v[3][l];
    }
}
#define DPP(NAME, CTRL, RM, BM, BC, FI, OP) \
    static void NAME(const wave *w, expect *e) { dpp_ref(w, e, CTRL, RM, BM, BC, FI, OP); }
DPP(d_quad, 0x1b, 15, 15, false, false, 0)
DPP(d_shl1, 0x101, 15, 15, false, false, 0)
DPP(d_shr3_bc, 0x113, 15, 15, true, false, 0)
DPP(d_ror5, 0x125, 15, 15, false, false, 0)
DPP(d_mirror, 0x140, 15, 15, false, false, 0)
DPP(d_hmirror, 0x141, 15, 15, false, false, 0)
DPP(d_share3, 0x153, 15, 15, false, false, 0)
DPP(d_xmask5, 0x165, 15, 15, false, false, 0)
DPP(d_masks, 0x111, 5, 3, false, false, 0)
DPP(d_fi, 0x111, 15, 15, false, true, 0)
DPP(d_add_shr1, 0x111, 15, 15, false, false, 1)
DPP(d_fadd_shr2, 0x112, 15, 15, true, false, 2)
static void dpp8_ref(const wave *w, expect *e, uint32_t sel, bool fi)
{
    e->nv = 1; e->vreg[0] = 3;
    for (unsigned l = 0; l < w->W; l++) {
        unsigned src = (l & ~7u) | ((sel >> (3 * (l & 7))) & 7);
        uint32_t x = (fi || ((w->exec >> src) & 1)) ? w->v[0][src] : 0;
        e->v[0][l] = ACT(w, l) ? x : w->v[3][l];
    }
}
#define SEL_REV (7 | 6 << 3 | 5 << 6 | 4 << 9 | 3 << 12 | 2 << 15 | 1 << 18 | 0 << 21)
static void d8_rev(const wave *w, expect *e) { dpp8_ref(w, e, SEL_REV, false); }
static void d8_rev_fi(const wave *w, expect *e) { dpp8_ref(w, e, SEL_REV, true); }
static void perm_ref(const wave *w, expect *e, bool x16, bool fi, bool bc)
{
    e->nv = 1; e->vreg[0] = 3;
    uint64_t sel = w->s[6] | (uint64_t)w->s[7] << 32;
    for (unsigned l = 0; l < w->W; l++) {
        unsigned row = (l & ~15u) ^ (x16 ? 16 : 0);
        unsigned src = (row | ((sel >> (4 * (l & 15))) & 15)) & (w->W - 1);
        bool ok = fi || ((w->exec >> src) & 1);
        bool write = ACT(w, l) && (ok || bc);
        e->v[0][l] = write ? (ok ? w->v[0][src] : 0) : w->v[3][l];
    }
}
static void p_16(const wave *w, expect *e) { perm_ref(w, e, false, false, false); }
static void p_x16(const wave *w, expect *e) { perm_ref(w, e, true, false, false); }
static void p_x16_fi(const wave *w, expect *e) { perm_ref(w, e, true, true, false); }
static void p_16_bc(const wave *w, expect *e) { perm_ref(w, e, false, false, true); }

/* ---- SDWA ---- */
static uint32_t sel(uint32_t v, unsigned s, bool sx)
{
    if (s >= 6) return v;
    unsigned wdt = s < 4 ? 8 : 16, sh = s < 4 ? 8 * s : 16 * (s - 4);
    uint32_t x = (v >> sh) & ((1u << wdt) - 1);
    if (sx && (x >> (wdt - 1))) x |= ~((1u << wdt) - 1);
    return x;
}
static uint32_t dsel(uint32_t old, uint32_t r, unsigned s, unsigned unused)
{
    if (s >= 6) return r;
    unsigned wdt = s < 4 ? 8 : 16, sh = s < 4 ? 8 * s : 16 * (s - 4);
    uint32_t f = ((1u << wdt) - 1) << sh, x = (r << sh) & f;
    if (unused == 2) return (old & ~f) | x;
    if (unused == 1 && ((r >> (wdt - 1)) & 1)) return x | (0xffffffffu << (sh + wdt) & (sh + wdt < 32 ? 0xffffffffu : 0));
    return x;
}
R32(s_and, K_BITS, dsel(old, sel(a, 5, false) & sel(b, 2, false), 1, 2))
R32(s_add_sext, K_BITS, dsel(old, sel(a, 0, true) + b, 5, 0))
R32(s_cvt_sext, K_F32, U((float)(int32_t)sel(a, 5, true)))
R32(s_shl, K_BITS, sel(b, 4, false) << (sel(a, 0, false) & 31))
R32(s_mov_sext, K_BITS, dsel(old, sel(a, 3, false), 5, 1))

/* ---- VOP3P ---- */
static uint32_t pk2(uint32_t lo, uint32_t hi) { return (lo & 0xffff) | (hi << 16); }
R32(p_add_f16, K_PK16, pk2(UH((_Float16)((double)H(a) + (double)H(b))), UH((_Float16)((double)H(a >> 16) + (double)H(b >> 16)))))
R32(p_mul_f16_sel, K_PK16, pk2(UH((_Float16)((double)H(a >> 16) * (double)H(b))), UH((_Float16)((double)H(a) * (double)H(b >> 16)))))
R32(p_fma_f16_neg, K_PK16, pk2(UH((_Float16)fma(-(double)H(a), (double)H(b), (double)H(c))), UH((_Float16)fma((double)H(a >> 16), (double)H(b >> 16), (double)H(c >> 16)))))
R32(p_max_f16, K_PK16, pk2(hw_max16(a, b, true), hw_max16(a >> 16, b >> 16, true)))
R32(p_mul_lo_u16_lit, K_BITS, pk2(0x101 * b, 0x101 * (b >> 16)))
R32(p_fma_f16_inl, K_PK16, pk2(UH((_Float16)fma((double)H(a), (double)H(b), -1.0)), UH((_Float16)fma((double)H(a >> 16), (double)H(b >> 16), -1.0))))
R32(p_fma_f16_lit, K_PK16, pk2(UH((_Float16)fma((double)H(a), (double)H(b), 1.0)), UH((_Float16)fma((double)H(a >> 16), (double)H(b >> 16), -2.0))))
R32(p_dot8_i4_clamp, K_BITS, ({ int64_t s = (int32_t)c; for (int i = 0; i < 8; i++) s += (int64_t)((int32_t)(a << (28 - 4 * i)) >> 28) * ((int32_t)(b << (28 - 4 * i)) >> 28); s > INT32_MAX ? (uint32_t)INT32_MAX : s < INT32_MIN ? (uint32_t)INT32_MIN : (uint32_t)s; }))
R32(p_dot4_u8_clamp, K_BITS, ({ uint64_t s = c; for (int i = 0; i < 4; i++) s += (uint64_t)((a >> 8 * i) & 0xff) * ((b >> 8 * i) & 0xff); s > 0xffffffffu ? 0xffffffffu : (uint32_t)s; }))
R32(p_mul_lo_u16, K_BITS, pk2(a * b, (a >> 16) * (b >> 16)))
R32(p_add_u16, K_BITS, pk2(a + b, (a >> 16) + (b >> 16)))
R32(p_fma_mix, K_F32, U(fmaf((float)H(a), (float)H(b), F(c))))
R32(p_dot4_i8, K_BITS, c + (uint32_t)((int8_t)a * (int8_t)b + (int8_t)(a >> 8) * (int8_t)(b >> 8) + (int8_t)(a >> 16) * (int8_t)(b >> 16) + (int8_t)(a >> 24) * (int8_t)(b >> 24)))
R32(p_dot2_i16, K_BITS, c + (uint32_t)((int16_t)a * (int16_t)b + (int16_t)(a >> 16) * (int16_t)(b >> 16)))
R32(p_dot8_u4, K_BITS, ({ uint32_t s = c; for (int i = 0; i < 8; i++) s += ((a >> 4 * i) & 15) * ((b >> 4 * i) & 15); s; }))

/* ---- division helpers (frontend/lift/lift_valu_div.c's comment: the RDNA ISA
 * pseudocode with the hardware's corrections) ---- */
typedef struct dfmt { unsigned w, mb; int bias, emax, K, T, tiny, under; } dfmt;
static const dfmt DF32 = {32, 23, 127, 255, 64, 96, 23, -150}, DF64 = {64, 52, 1023, 2047, 128, 768, 53, -1075},
                  DF16 = {16, 10, 15, 31, 0, 0, 0, 0};
static double dval(const dfmt *f, uint64_t x) { return f->w == 64 ? D(x) : f->w == 32 ? (double)F((uint32_t)x) : (double)H((uint32_t)x); }
static int dexp(const dfmt *f, uint64_t x) { return (int)(x >> f->mb & (uint64_t)f->emax); }
static bool dsub(const dfmt *f, uint64_t x)
{
    uint64_t ax = x & ((1ull << (f->w - 1)) - 1);
    return ax && ax < (1ull << f->mb);
}
/* the quotient n/d rounded to the format (host: correctly rounded) */
static uint64_t dquot(const dfmt *f, uint64_t n, uint64_t d)
{
    return f->w == 64 ? UD(D(n) / D(d)) : U(F((uint32_t)n) / F((uint32_t)d));
}
static uint64_t dldexp(const dfmt *f, uint64_t x, int k)
{
    return f->w == 64 ? UD(ldexp(D(x), k)) : U(ldexpf(F((uint32_t)x), k));
}
static uint64_t ref_div_scale(const dfmt *f, uint64_t s0, uint64_t d, uint64_t n, bool *vcc)
{
    *vcc = false;
    if (dval(f, n) == 0 || dval(f, d) == 0)
        return f->w == 64 ? 0x7ff8000000000000ull : 0x7fc00000u;
    bool qsub = dsub(f, dquot(f, n, d));
    bool rsub = f->w == 64 && dsub(f, UD(1.0 / D(d)));
    if (dexp(f, n) - dexp(f, d) >= f->T) {
        *vcc = true;
        return dval(f, s0) == dval(f, d) ? dldexp(f, s0, f->K) : s0;
    }
    if (dsub(f, d))
        return dldexp(f, s0, f->K);
    if (rsub && qsub) {
        *vcc = true;
        return dval(f, s0) == dval(f, d) ? dldexp(f, s0, -f->K) : s0;
    }
    if (rsub)
        return dldexp(f, s0, -f->K);
    if (qsub) {
        *vcc = true;
        return dval(f, s0) == dval(f, n) ? dldexp(f, s0, f->K) : s0;
    }
    if (dexp(f, n) <= f->tiny)
        return dldexp(f, s0, f->K);
    return s0;
}
static uint64_t ref_div_fmas(const dfmt *f, uint64_t a, uint64_t b, uint64_t c, bool vcc)
{
    uint64_t r = f->w == 64 ? UD(fma(D(a), D(b), D(c))) : U(fmaf(F((uint32_t)a), F((uint32_t)b), F((uint32_t)c)));
    return vcc ? dldexp(f, r, dexp(f, c) > f->bias ? f->K : -f->K) : r;
}
static uint64_t ref_div_fixup(const dfmt *f, uint64_t q, uint64_t d, uint64_t n)
{
    uint64_t sb = 1ull << (f->w - 1), inf = (uint64_t)f->emax << f->mb, qb = 1ull << (f->mb - 1);
    uint64_t sign = (d ^ n) & sb;
    double dv = dval(f, d), nv = dval(f, n);
    if (isnan(nv)) return n | qb;
    if (isnan(dv)) return d | qb;
    if ((dv == 0 && nv == 0) || (isinf(dv) && isinf(nv))) return sb | inf | qb;
    if (dv == 0 || isinf(nv)) return sign | inf;
    if (isinf(dv) || nv == 0) return sign;
    if (f->under && dexp(f, n) - dexp(f, d) < f->under) return sign;
    if (isnan(dval(f, q))) return sign | inf;
    return (q & (sb - 1)) | sign;
}
static void r_div_scale32(const wave *w, expect *e, int s0n)
{
    uint64_t m = 0;
    e->nv = 1; e->vreg[0] = 3; e->vcmp[0] = K_F32;
    LANES {
        bool v;
        (void)a;
        uint32_t r = (uint32_t)ref_div_scale(&DF32, s0n ? c : b, b, c, &v);
        e->v[0][l] = ACT(w, l) ? r : old;
        if (ACT(w, l) && v) m |= 1ull << l;
    }
    put_mask(w, e, 20, m);
}
static void r_div_scale32_d(const wave *w, expect *e) { r_div_scale32(w, e, 0); }
static void r_div_scale32_n(const wave *w, expect *e) { r_div_scale32(w, e, 1); }
static void r_div_scale64(const wave *w, expect *e, int s0n)
{
    uint64_t m = 0;
    e->nv = 2; e->vreg[0] = 4; e->vreg[1] = 5; e->vcmp[0] = e->vcmp[1] = K_F64;
    LANES {
        (void)a; (void)b; (void)c; (void)old;
        uint64_t B = A64(w, 6, l), C = A64(w, 8, l);
        bool v;
        uint64_t r = ACT(w, l) ? ref_div_scale(&DF64, s0n ? C : B, B, C, &v) : A64(w, 4, l);
        e->v[0][l] = (uint32_t)r; e->v[1][l] = (uint32_t)(r >> 32);
        if (ACT(w, l) && v) m |= 1ull << l;
    }
    put_mask(w, e, 20, m);
}
static void r_div_scale64_d(const wave *w, expect *e) { r_div_scale64(w, e, 0); }
static void r_div_scale64_n(const wave *w, expect *e) { r_div_scale64(w, e, 1); }
R32(r_div_fmas32, K_F32, (uint32_t)ref_div_fmas(&DF32, a, b, c, c < b))
R64(r_div_fmas64, K_F64, ref_div_fmas(&DF64, A, B, C, w->v[2][l] < w->v[1][l]))
R32(r_div_fixup32, K_F32, (uint32_t)ref_div_fixup(&DF32, a, b, c))
R64(r_div_fixup64, K_F64, ref_div_fixup(&DF64, A, B, C))
R32(r_div_fixup16, K_F16, lo16(old, (uint32_t)ref_div_fixup(&DF16, a & 0xffff, b & 0xffff, c & 0xffff)))

/* v_trig_preop_f64: 2/pi in 24-bit chunks (fdlibm's ipio2 layout) */
static const uint32_t ipio2[51] = {
    0xA2F983, 0x6E4E44, 0x1529FC, 0x2757D1, 0xF534DD, 0xC0DB62, 0x95993C, 0x439041, 0xFE5163,
    0xABDEBB, 0xC561B7, 0x246E3A, 0x424DD2, 0xE00649, 0x2EEA09, 0xD1921C, 0xFE1DEB, 0x1CB129,
    0xA73EE8, 0x8235F5, 0x2EBB44, 0x84E99C, 0x7026B4, 0x5F7E41, 0x3991D6, 0x398353, 0x39F49C,
    0x845F8B, 0xBDF928, 0x3B1FF8, 0x97FFDE, 0x05980F, 0xEF2F11, 0x8B5A0A, 0x6D1F6D, 0x367ECF,
    0x27CB09, 0xB74F46, 0x3F669E, 0x5FEA2D, 0x7527BA, 0xC7EBE5, 0xF17B3D, 0x0739F7, 0x8A5292,
    0xEA6BFB, 0x5FB11F, 0x8D5D08, 0x560330, 0x46FC7B, 0x6BABF0
};
static uint64_t ref_trig_preop(uint64_t x, uint32_t seg)
{
    int ex = (int)(x >> 52 & 0x7ff);
    int shift = (int)(seg & 31) * 53 + (ex > 1077 ? ex - 1077 : 0);
    uint64_t m = 0;
    for (int i = 1; i <= 53; i++) {
        int bit = shift + i; /* fraction bit, 1-based; the table has 1201 */
        m = m << 1 | (bit <= 1201 ? ipio2[(bit - 1) / 24] >> (23 - (bit - 1) % 24) & 1 : 0);
    }
    return UD(ldexp((double)m, -53 - shift + (ex >= 1968 ? 128 : 0)));
}
R64(r_trig_preop, K_F64, ref_trig_preop(A, w->v[2][l]))
R64(r_trig_preop_abs, K_F64, ref_trig_preop(A & 0x7fffffffffffffffull, 3))


/* ---- the float mode (the ISA: a denormal input or result of an f32
 * (f16/f64) arithmetic operation is flushed to a zero of its sign where
 * MODE's denorm field for that precision flushes inputs (bit 0 clear) or
 * outputs (bit 1 clear); moves and v_cmp_class do not flush; without IEEE
 * mode v_min/v_max return the other operand for a NaN one, nothing
 * quieted; omod multiplies the result by 2, 4 or 1/2 and gives +0 for -0
 * where output denormals are flushed; clamp without DX10_CLAMP keeps NaN) */
static uint32_t fz32(uint32_t x) { return (x & 0x7f800000u) ? x : x & 0x80000000u; }
static uint32_t fz16(uint32_t x) { x &= 0xffff; return (x & 0x7c00u) ? x : x & 0x8000u; }
static uint64_t fz64(uint64_t x) { return (x & 0x7ff0000000000000ull) ? x : x & 0x8000000000000000ull; }
static uint32_t max_noieee32(uint32_t a, uint32_t b, bool max)
{
    if (nan32(a)) return b;
    if (nan32(b)) return a;
    if (F(a) == F(b)) return max ? (a & b) : (a | b);
    return (F(a) > F(b)) == max ? a : b;
}
static uint32_t omod32(float r, float k)
{
    float x = r * k;
    return x == 0.0f ? 0u : U(x);
}
static uint32_t clamp_nodx10(uint32_t r) { return nan32(r) ? r : clamp01(r); }
#define FA(x) F(fz32(x))
R32(m_add_ftz, K_F32, fz32(U(FA(a) + FA(b))))
R32(m_mul_ftz, K_F32, fz32(U(FA(a) * FA(b))))
R32(m_fma_ftz, K_F32, fz32(U(fmaf(FA(a), FA(b), FA(c)))))
R32(m_fmac_ftz, K_F32, fz32(U(fmaf(FA(a), FA(b), FA(old)))))
R32(m_sub_dpp_ftz, K_F32, fz32(U(FA(a) - FA(b))))
R32(m_max_ftz, K_F32, max_noieee32(fz32(a), fz32(b), true))
R32(m_min_ftz, K_F32, max_noieee32(fz32(a), fz32(b), false))
R32(m_max_noieee, K_F32, max_noieee32(a, b, true))
R32(m_min_ieee_ftz, K_F32, fz32(hw_max32(fz32(a), fz32(b), false)))
R32(m_mov, K_BITS, a)
R32(m_cvt_f16_f32_ftz, K_F16, lo16(old, UH((_Float16)FA(a))))
R32(m_cvt_f32_f16_ftz16, K_F32, U((float)H(fz16(a))))
R32(m_omod2, K_F32, fz32(omod32(FA(a) + FA(b), 2.0f)))
R32(m_omod_div2, K_F32, fz32(omod32(FA(a) * FA(b), 0.5f)))
R32(m_omod4_clamp, K_F32, clamp01(fz32(omod32(FA(a) + FA(b), 4.0f))))
R32(m_omod_ignored, K_F32, U(F(a) + F(b)))
R32(m_clamp_nodx10, K_F32, clamp_nodx10(U(F(a) + F(b))))
R32(m_hadd_ftz16, K_F16, lo16(old, fz16(UH((_Float16)((double)H(fz16(a)) + (double)H(fz16(b)))))))
R32(m_pk_mul_ftz16, K_PK16, fz16(UH((_Float16)((double)H(fz16(a)) * (double)H(fz16(b))))) |
                            fz16(UH((_Float16)((double)H(fz16(a >> 16)) * (double)H(fz16(b >> 16))))) << 16)
R64(m_dadd_ftz64, K_F64, fz64(UD(D(fz64(A)) + D(fz64(B)))))
CMP(m_eq_ftz, 106, FA(a) == FA(b))
CMP(m_lt_ftz, 20, FA(a) < FA(b))
static void m_getreg(const wave *w, expect *e, uint32_t v)
{
    (void)w;
    e->ns = 1; e->sreg[0] = 30; e->s[0] = v;
}
static void m_getreg_aco(const wave *w, expect *e) { m_getreg(w, e, 0x1c0); }
static void m_getreg_default(const wave *w, expect *e) { m_getreg(w, e, 0x3f0); }
static void m_getreg_denorm(const wave *w, expect *e) { m_getreg(w, e, 0x130); }
static void m_getreg_field(const wave *w, expect *e) { m_getreg(w, e, 0x2); }


/* ---- SAD, cube, f16 dots, M0-relative indexing (the ISA's pseudocode) ---- */
static uint32_t ad(uint32_t x, uint32_t y) { return x > y ? x - y : y - x; }
static uint32_t msad(uint32_t s0, uint32_t s1, uint32_t s2)
{
    for (unsigned i = 0; i < 32; i += 8)
        if ((s1 >> i) & 0xff)
            s2 += ad((s0 >> i) & 0xff, (s1 >> i) & 0xff);
    return s2;
}
static uint32_t cube(char op, uint32_t xu, uint32_t yu, uint32_t zu)
{
    float x = F(xu), y = F(yu), z = F(zu);
    if (fabsf(z) >= fabsf(x) && fabsf(z) >= fabsf(y)) {
        if (op == 'i') return U(z < 0 ? 5.0f : 4.0f);
        if (op == 's') return z < 0 ? xu ^ 0x80000000u : xu;
        if (op == 't') return yu ^ 0x80000000u;
        return U(z * 2.0f);
    }
    if (fabsf(y) >= fabsf(x)) {
        if (op == 'i') return U(y < 0 ? 3.0f : 2.0f);
        if (op == 's') return xu;
        if (op == 't') return y < 0 ? zu ^ 0x80000000u : zu;
        return U(y * 2.0f);
    }
    if (op == 'i') return U(x < 0 ? 1.0f : 0.0f);
    if (op == 's') return x < 0 ? zu : zu ^ 0x80000000u;
    if (op == 't') return yu ^ 0x80000000u;
    return U(x * 2.0f);
}
/* tmp = S2; tmp += lo * lo; tmp += hi * hi (two f32 fmas) */
static uint32_t fdot2(uint32_t a, uint32_t b, uint32_t acc)
{
    float t = fmaf((float)H(a), (float)H(b), F(acc));
    return U(fmaf((float)H(a >> 16), (float)H(b >> 16), t));
}
R32(x_msad, K_BITS, msad(a, b, c))
R32(x_msad_masked, K_BITS, msad(a, b & 0x00ff00ffu, c))
R32(x_sad_u32, K_BITS, ad(a, b) + c)
R32(x_cubeid, K_F32, cube('i', a, b, c))
R32(x_cubesc, K_F32, cube('s', a, b, c))
R32(x_cubetc, K_F32, cube('t', a, b, c))
R32(x_cubema, K_F32, cube('m', a, b, c))
R32(x_cubesc_mods, K_F32, cube('s', a ^ 0x80000000u, b, c & 0x7fffffffu))
R32(x_fdot2, K_F32, fdot2(a, b, c))
R32(x_fdot2c, K_F32, fdot2(a, b, old))
R32(x_fdot2_neg_clamp, K_F32, clamp01(fdot2(a ^ 0x8000u, b ^ 0x80000000u, c)))
/* VGPR r of lane l at entry: inputs v0..v9, 0 above */
static uint32_t vin_at(const wave *w, unsigned r, unsigned l) { return r < NV ? w->v[r][l] : 0; }
/* M0-relative indexing reaches the VGPRs the program names, v0 up to its
 * highest (`top` past it); an index past them reads 0 (and escapes). */
static void movrels_top(const wave *w, expect *e, unsigned top)
{
    e->nv = 1; e->vreg[0] = 3; e->vcmp[0] = K_BITS;
    LANES { (void)a; (void)b; (void)c; e->v[0][l] = ACT(w, l) ? (w->s[5] < top ? vin_at(w, w->s[5], l) : 0) : old; }
}
static void x_movrels_s5(const wave *w, expect *e) { movrels_top(w, e, 4); }
static void x_movrels_s5_v9(const wave *w, expect *e) { movrels_top(w, e, 10); }
static void x_movrels_oob(const wave *w, expect *e)
{
    e->nv = 1; e->vreg[0] = 3; e->vcmp[0] = K_BITS;
    LANES { (void)a; (void)b; (void)c; e->v[0][l] = ACT(w, l) ? 0 : old; }
}
/* VGPR dst (< 16) gets src's value in active lanes */
static void movrel_put(const wave *w, expect *e, unsigned dst, unsigned src)
{
    e->nv = 1; e->vreg[0] = dst; e->vcmp[0] = K_BITS;
    for (unsigned l = 0; l < w->W; l++)
        e->v[0][l] = ACT(w, l) ? vin_at(w, src, l) : vin_at(w, dst, l);
}
/* the programs below name the register written (v_mov_b32 vN, vN), so that
 * M0-relative indexing reaches it */
static void x_movreld3(const wave *w, expect *e) { movrel_put(w, e, 7, 0); }
static void movreld_top(const wave *w, expect *e, unsigned top)
{
    if (w->s[5] < top) movrel_put(w, e, w->s[5], 1);
    else movrel_put(w, e, 0, 0); /* no write (past the named VGPRs): v0 unchanged */
}
static void x_movreld_s5(const wave *w, expect *e) { movreld_top(w, e, 2); }
static void x_movreld_s5_v15(const wave *w, expect *e) { movreld_top(w, e, 16); }
static void x_movrelsd(const wave *w, expect *e) { movrel_put(w, e, 4, 1); }
static void x_movrelsd2(const wave *w, expect *e) { movrel_put(w, e, 4, 2); }

static const tcase cases[] = {
    /* VOP2 / VOP1 integer */
    {G_VOP2, C_INT, "v_add_nc_u32_e32 v3, v0, v1", r_add},
    {G_VOP2, C_INT, "v_add_nc_u32_e32 v3, 0x12345, v1", r_add_lit},
    {G_VOP2, C_INT, "v_sub_nc_u32_e32 v3, v0, v1", r_sub},
    {G_VOP2, C_INT, "v_subrev_nc_u32_e32 v3, v0, v1", r_subrev},
    {G_VOP2, C_INT, "v_and_b32_e32 v3, v0, v1", r_and},
    {G_VOP2, C_INT, "v_or_b32_e32 v3, v0, v1", r_or},
    {G_VOP2, C_INT, "v_xor_b32_e32 v3, v0, v1", r_xor},
    {G_VOP2, C_INT, "v_xnor_b32_e32 v3, v0, v1", r_xnor},
    {G_VOP2, C_SHIFT, "v_lshlrev_b32_e32 v3, v0, v1", r_shl},
    {G_VOP2, C_SHIFT, "v_lshrrev_b32_e32 v3, v0, v1", r_shr},
    {G_VOP2, C_SHIFT, "v_ashrrev_i32_e32 v3, v0, v1", r_sar},
    {G_VOP2, C_INT, "v_mul_u32_u24_e32 v3, v0, v1", r_mul_u24},
    {G_VOP2, C_INT, "v_mul_hi_u32_u24_e32 v3, v0, v1", r_mulhi_u24},
    {G_VOP2, C_INT, "v_mul_i32_i24_e32 v3, v0, v1", r_mul_i24},
    {G_VOP2, C_INT, "v_min_u32_e32 v3, v0, v1", r_min_u},
    {G_VOP2, C_INT, "v_max_i32_e32 v3, v0, v1", r_max_i},
    {G_VOP2, C_INT, "v_cmp_lt_u32_e32 VCC, v2, v1\nv_cndmask_b32_e32 v3, v0, v1, VCC", r_cndmask_vcc},
    {G_VOP1, C_INT, "v_mov_b32_e32 v3, v0", r_mov},
    {G_VOP1, C_INT, "v_not_b32_e32 v3, v0", r_not},
    {G_VOP1, C_INT, "v_bfrev_b32_e32 v3, v0", r_bfrev},
    {G_VOP1, C_INT, "v_ffbh_u32_e32 v3, v0", r_ffbh},
    {G_VOP1, C_INT, "v_ffbl_b32_e32 v3, v0", r_ffbl},
    {G_VOP1, C_INT, "v_ffbh_i32_e32 v3, v0", r_ffbh_i},
    /* VOP3 integer */
    {G_VOP3, C_INT, "v_add_nc_u32_e64 v3, v0, v1 clamp", r_add_clamp},
    {G_VOP3, C_INT, "v_sub_nc_u32_e64 v3, v0, v1 clamp", r_sub_clamp},
    {G_VOP3, C_INT, "v_add_nc_i32 v3, v0, v1 clamp", r_add_i_clamp},
    {G_VOP3, C_INT, "v_mul_lo_u32 v3, v0, v1", r_mullo},
    {G_VOP3, C_INT, "v_mul_hi_u32 v3, v0, v1", r_mulhi_u},
    {G_VOP3, C_INT, "v_mul_hi_i32 v3, v0, v1", r_mulhi_i},
    {G_VOP3, C_INT, "v_mad_u32_u24 v3, v0, v1, v2", r_mad_u24},
    {G_VOP3, C_INT, "v_add3_u32 v3, v0, v1, v2", r_add3},
    {G_VOP3, C_SHIFT, "v_lshl_add_u32 v3, v1, v0, v2", r_lshl_add_sh},
    {G_VOP3, C_INT, "v_lshl_add_u32 v3, v0, v1, v2", r_lshl_add},
    {G_VOP3, C_INT, "v_add_lshl_u32 v3, v0, v1, v2", r_add_lshl},
    {G_VOP3, C_INT, "v_lshl_or_b32 v3, v0, v1, v2", r_lshl_or},
    {G_VOP3, C_INT, "v_and_or_b32 v3, v0, v1, v2", r_and_or},
    {G_VOP3, C_INT, "v_or3_b32 v3, v0, v1, v2", r_or3},
    {G_VOP3, C_INT, "v_xor3_b32 v3, v0, v1, v2", r_xor3},
    {G_VOP3, C_INT, "v_xad_u32 v3, v0, v1, v2", r_xad},
    {G_VOP3, C_SHIFT, "v_bfe_u32 v3, v1, v0, v2", r_bfe_u_sh},
    {G_VOP3, C_INT, "v_bfe_u32 v3, v0, v1, v2", r_bfe_u},
    {G_VOP3, C_INT, "v_bfe_i32 v3, v0, v1, v2", r_bfe_i},
    {G_VOP3, C_SHIFT, "v_bfe_i32 v3, v1, v0, v2", r_bfe_i_sh},
    {G_VOP3, C_INT, "v_bfi_b32 v3, v0, v1, v2", r_bfi},
    {G_VOP3, C_INT, "v_bfm_b32 v3, v0, v1", r_bfm},
    {G_VOP3, C_INT, "v_alignbit_b32 v3, v0, v1, v2", r_alignbit},
    {G_VOP3, C_INT, "v_alignbyte_b32 v3, v0, v1, v2", r_alignbyte},
    {G_VOP3, C_INT, "v_perm_b32 v3, v0, v1, v2", r_perm},
    {G_VOP3, C_INT, "v_med3_i32 v3, v0, v1, v2", r_med3_i},
    {G_VOP3, C_INT, "v_med3_u32 v3, v0, v1, v2", r_med3_u},
    {G_VOP3, C_INT, "v_min3_u32 v3, v0, v1, v2", r_min3_u},
    {G_VOP3, C_INT, "v_max3_i32 v3, v0, v1, v2", r_max3_i},
    {G_VOP3, C_INT, "v_bcnt_u32_b32 v3, v0, v1", r_bcnt},
    {G_VOP3, C_INT, "v_sad_u8 v3, v0, v1, v2", r_sad_u8},
    {G_VOP3, C_INT, "v_sad_hi_u8 v3, v0, v1, v2", r_sad_hi_u8},
    {G_VOP3, C_INT, "v_sad_u16 v3, v0, v1, v2", r_sad_u16},
    {G_VOP3, C_INT, "v_lerp_u8 v3, v0, v1, v2", r_lerp_u8},
    {G_VOP3, C_INT, "v_cndmask_b32_e64 v3, v0, v1, SM", r_cndmask_sm},
    {G_VOP3, C_INT, "v_cndmask_b32_e64 v3, -v0, |v1|, SM", r_cndmask_fmods},
    {G_VOP3, C_INT, "v_add_nc_u16 v3, v0, v1", r_add16},
    {G_VOP3, C_INT, "v_add_nc_u16 v3, v0, v1 op_sel:[1,1,1]", r_add16_hi},
    {G_VOP3, C_INT, "v_mul_lo_u16 v3, v0, v1", r_mullo16},
    {G_VOP3, C_SHIFT, "v_lshlrev_b16 v3, v0, v1", r_shl16},
    {G_VOP3, C_SHIFT, "v_ashrrev_i16 v3, v0, v1", r_ashr16},
    {G_VOP3, C_INT, "v_mad_u16 v3, v0, v1, v2", r_mad16},
    {G_VOP3, C_INT, "v_max_i16 v3, v0, v1", r_max_i16},
    {G_VOP3, C_SHIFT, "v_lshlrev_b64 v[4:5], v2, v[0:1]", r_shl64},
    {G_VOP3, C_SHIFT, "v_lshrrev_b64 v[4:5], v2, v[0:1]", r_shr64},
    {G_VOP3, C_SHIFT, "v_ashrrev_i64 v[4:5], v2, v[0:1]", r_sar64},
    {G_VOP3, C_INT, "v_mad_u64_u32 v[4:5], SM, v0, v1, v[6:7]", r_mad_u64_carry},
    {G_VOP3, C_INT, "v_mad_i64_i32 v[4:5], null, v0, v1, v[6:7]", r_mad_i64},
    {G_VOP3, C_INT, "v_add_co_u32 v3, SM, v0, v1", r_add_co},
    {G_VOP3, C_INT, "v_sub_co_u32 v3, SM, v0, v1", r_sub_co},
    {G_VOP3, C_INT, "v_subrev_co_u32 v3, SM, v0, v1", r_subrev_co},
    {G_VOP3, C_INT, "v_add_co_ci_u32_e64 v3, SN, v0, v1, SM", r_addc_e64},
    {G_VOP3, C_INT, "v_sub_co_ci_u32_e64 v3, SN, v0, v1, SM", r_subc_e64},
    {G_VOP3, C_INT, "v_subrev_co_ci_u32_e64 v3, SN, v0, v1, SM", r_subrevc_e64},
    {G_VOP2, C_INT, "v_cmp_lt_u32_e32 VCC, v2, v1\nv_add_co_ci_u32_e32 v3, VCC, v0, v1, VCC", r_addc_vcc},
    /* f32 */
    {G_VOP2, C_F32, "v_add_f32_e32 v3, v0, v1", r_fadd},
    {G_VOP2, C_F32, "v_sub_f32_e32 v3, v0, v1", r_fsub},
    {G_VOP2, C_F32, "v_subrev_f32_e32 v3, v0, v1", r_fsubrev},
    {G_VOP2, C_F32, "v_mul_f32_e32 v3, v0, v1", r_fmul},
    {G_VOP3, C_F32, "v_add_f32_e64 v3, -v0, |v1|", r_fadd_mods},
    {G_VOP3, C_F32, "v_add_f32_e64 v3, v0, v1 clamp", r_fadd_clamp},
    {G_VOP3, C_F32, "v_fma_f32 v3, v0, v1, v2", r_fma},
    {G_VOP2, C_F32, "v_fmac_f32_e32 v3, v0, v1", r_fmac},
    {G_VOP2, C_F32, "v_fmaak_f32 v3, v0, v1, 0x40490fdb", r_fmaak},
    {G_VOP2, C_F32, "v_fmamk_f32 v3, v0, 0x3fc00000, v1", r_fmamk},
    {G_VOP2, C_F32, "v_min_f32_e32 v3, v0, v1", r_fmin},
    {G_VOP2, C_F32, "v_max_f32_e32 v3, v0, v1", r_fmax},
    {G_VOP3, C_F32, "v_med3_f32 v3, v0, v1, v2", r_fmed3},
    {G_VOP3, C_ZS32, "v_med3_f32 v3, v0, v1, v2", r_fmed3},
    {G_VOP2, C_ZS32, "v_min_f32_e32 v3, v0, v1", r_fmin},
    {G_VOP2, C_ZS32, "v_max_f32_e32 v3, v0, v1", r_fmax},
    {G_VOP3, C_F32, "v_med3_f32 v3, v0, v1, v2 clamp", r_fmed3_clamp},
    {G_VOP3, C_F32, "v_ldexp_f32 v3, v0, v1", r_ldexp},
    {G_VOP2, C_F32, "v_mul_legacy_f32_e32 v3, v0, v1", r_mul_legacy},
    {G_VOP1, C_F32, "v_rndne_f32_e32 v3, v0", r_rndne},
    {G_VOP1, C_F32, "v_trunc_f32_e32 v3, v0", r_trunc},
    {G_VOP1, C_F32, "v_floor_f32_e32 v3, v0", r_floor},
    {G_VOP1, C_F32, "v_ceil_f32_e32 v3, v0", r_ceil},
    {G_VOP1, C_F32, "v_fract_f32_e32 v3, v0", r_fract},
    {G_VOP1, C_F32, "v_frexp_mant_f32_e32 v3, v0", r_frexp_mant},
    {G_VOP1, C_F32, "v_frexp_exp_i32_f32_e32 v3, v0", r_frexp_exp},
    /* exact scaling on subnormal, tiny and huge values (lavapipe's own
     * Frexp ignores subnormals: lift_valu_scale.c) */
    {G_VOP3, C_SCALE, "v_ldexp_f32 v3, v0, v1", r_ldexp},
    {G_VOP1, C_SCALE, "v_frexp_mant_f32_e32 v3, v0", r_frexp_mant},
    {G_VOP1, C_SCALE, "v_frexp_exp_i32_f32_e32 v3, v0", r_frexp_exp},
    {G_VOP2, C_SCALE, "v_ldexp_f16_e32 v3, v0, v1", r_hldexp},
    {G_VOP1, C_SCALE,
     "v_frexp_mant_f32_e32 v4, v1\nv_frexp_exp_i32_f32_e32 v5, v1\nv_rcp_f32_e32 v4, v4\n"
     "v_frexp_exp_i32_f32_e32 v6, v0\nv_frexp_mant_f32_e32 v7, v0\nv_sub_nc_u32_e32 v5, v6, v5\n"
     "v_mul_f32_e32 v4, v7, v4\nv_ldexp_f32 v3, v4, v5", r_fdiv_macro},
    {G_VOP3, C_DSCALE, "v_ldexp_f64 v[4:5], v[0:1], v2", r_dldexp},
    {G_VOP1, C_DSCALE, "v_frexp_mant_f64_e32 v[4:5], v[0:1]", r_dfrexp_mant},
    {G_VOP1, C_DSCALE, "v_frexp_exp_i32_f64_e32 v3, v[0:1]", r_dfrexp_exp},
    {G_VOP1, C_F32, "v_rcp_f32_e32 v3, v0", r_rcp},
    {G_VOP1, C_F32, "v_rsq_f32_e32 v3, v0", r_rsq},
    {G_VOP1, C_F32, "v_sqrt_f32_e32 v3, v0", r_sqrt},
    {G_VOP1, C_F32, "v_exp_f32_e32 v3, v0", r_exp},
    {G_VOP1, C_SCALE, "v_exp_f32_e32 v3, v0", r_exp},
    {G_VOP1, C_SCALE, "v_log_f32_e32 v3, v0", r_log},
    {G_VOP1, C_LOGEXP, "v_exp_f32_e32 v3, v0", r_exp},
    {G_VOP1, C_LOGEXP, "v_log_f32_e32 v3, v0", r_log},
    {G_VOP1, C_F32, "v_log_f32_e32 v3, v0", r_log},
    {G_VOP1, C_F32, "v_sin_f32_e32 v3, v0", r_sin},
    {G_VOP1, C_F32, "v_cos_f32_e32 v3, v0", r_cos},
    {G_VOP1, C_F32, "v_cvt_i32_f32_e32 v3, v0", r_cvt_i32_f32},
    {G_VOP1, C_F32, "v_cvt_u32_f32_e32 v3, v0", r_cvt_u32_f32},
    {G_VOP1, C_INT, "v_cvt_f32_i32_e32 v3, v0", r_cvt_f32_i32},
    {G_VOP1, C_INT, "v_cvt_f32_u32_e32 v3, v0", r_cvt_f32_u32},
    {G_VOP1, C_F32, "v_cvt_f16_f32_e32 v3, v0", r_cvt_f16_f32},
    {G_VOP1, C_F16, "v_cvt_f32_f16_e32 v3, v0", r_cvt_f32_f16},
    {G_VOP1, C_INT, "v_cvt_f32_ubyte1_e32 v3, v0", r_cvt_f32_ubyte1},
    {G_VOP1, C_F32, "v_cvt_flr_i32_f32_e32 v3, v0", r_cvt_flr},
    {G_VOP1, C_F32, "v_cvt_rpi_i32_f32_e32 v3, v0", r_cvt_rpi},
    {G_VOP2, C_F32, "v_cvt_pkrtz_f16_f32_e32 v3, v0, v1", r_cvt_pkrtz},
    {G_VOP3, C_INT, "v_cvt_pk_u16_u32 v3, v0, v1", r_cvt_pk_u16_u32},
    /* f16 */
    {G_VOP2, C_F16, "v_add_f16_e32 v3, v0, v1", r_hadd},
    {G_VOP3, C_F16, "v_fma_f16 v3, v0, v1, v2 op_sel:[1,0,0,1]", r_hfma_opsel},
    {G_VOP3, C_F16, "v_fma_f16 v3, v0, v1, v2", r_hfma},
    {G_VOP2, C_F16, "v_fmac_f16_e32 v3, v0, v1", r_hfmac},
    {G_VOP2, C_F16, "v_max_f16_e32 v3, v0, v1", r_hmax},
    {G_VOP2, C_F16, "v_ldexp_f16_e32 v3, v0, v1", r_hldexp},
    /* f64 */
    {G_VOP3, C_F64, "v_add_f64 v[4:5], v[0:1], v[6:7]", r_dadd},
    {G_VOP3, C_F64, "v_mul_f64 v[4:5], v[0:1], v[6:7]", r_dmul},
    {G_VOP3, C_F64, "v_fma_f64 v[4:5], v[0:1], v[6:7], v[8:9]", r_dfma},
    {G_VOP3, C_F64, "v_max_f64 v[4:5], v[0:1], v[6:7]", r_dmax},
    {G_VOP3, C_F64, "v_ldexp_f64 v[4:5], v[0:1], v2", r_dldexp},
    {G_VOP1, C_F64, "v_rndne_f64_e32 v[4:5], v[0:1]", r_drndne},
    {G_VOP1, C_F64, "v_floor_f64_e32 v[4:5], v[0:1]", r_dfloor},
    {G_VOP1, C_F64, "v_trunc_f64_e32 v[4:5], v[0:1]", r_dtrunc},
    {G_VOP1, C_F64, "v_fract_f64_e32 v[4:5], v[0:1]", r_dfract},
    {G_VOP1, C_F64, "v_rcp_f64_e32 v[4:5], v[0:1]", r_drcp},
    {G_VOP1, C_F64, "v_sqrt_f64_e32 v[4:5], v[0:1]", r_dsqrt},
    {G_VOP1, C_F32, "v_cvt_f64_f32_e32 v[4:5], v0", r_cvt_f64_f32},
    {G_VOP1, C_INT, "v_cvt_f64_i32_e32 v[4:5], v0", r_cvt_f64_i32},
    {G_VOP1, C_INT, "v_cvt_f64_u32_e32 v[4:5], v0", r_cvt_f64_u32},
    {G_VOP1, C_F64, "v_cvt_f32_f64_e32 v3, v[0:1]", r_cvt_f32_f64},
    {G_VOP1, C_F64, "v_cvt_i32_f64_e32 v3, v[0:1]", r_cvt_i32_f64},
    {G_VOP1, C_F64, "v_cvt_u32_f64_e32 v3, v[0:1]", r_cvt_u32_f64},
    {G_VOP1, C_F64, "v_frexp_exp_i32_f64_e32 v3, v[0:1]", r_dfrexp_exp},
    /* compares */
    {G_VOPC, C_F32, "v_cmp_gt_f32_e32 VCC, v0, v1", c_gt_f32_vcc},
    {G_VOPC, C_F32, "v_cmp_lt_f32_e64 SM, v0, v1", c_lt_f32_sm},
    {G_VOPC, C_F32, "v_cmp_neq_f32_e64 SM, v0, v1", c_neq_f32},
    {G_VOPC, C_F32, "v_cmp_nlt_f32_e32 VCC, v0, v1", c_nlt_f32},
    {G_VOPC, C_F32, "v_cmp_ngt_f32_e64 SM, v0, v1", c_ngt_f32},
    {G_VOPC, C_F32, "v_cmp_lg_f32_e64 SM, v0, v1", c_lg_f32},
    {G_VOPC, C_F32, "v_cmp_nlg_f32_e64 SM, v0, v1", c_nlg_f32},
    {G_VOPC, C_F32, "v_cmp_u_f32_e64 SM, v0, v1", c_u_f32},
    {G_VOPC, C_F32, "v_cmp_o_f32_e32 VCC, v0, v1", c_o_f32},
    {G_VOPC, C_INT, "v_cmp_eq_u32_e32 VCC, v0, v1", c_eq_u32},
    {G_VOPC, C_INT, "v_cmp_lt_i32_e64 SM, v0, v1", c_lt_i32},
    {G_VOPC, C_INT, "v_cmp_ge_u32_e64 SM, v0, v1", c_ge_u32},
    {G_VOPC, C_F32, "v_cmp_class_f32_e64 SM, v0, v1", c_class_f32},
    {G_VOPC, C_F64, "v_cmp_class_f64_e64 SM, v[0:1], v2", c_class_f64},
    {G_VOPC, C_F64, "v_cmp_lt_f64_e32 VCC, v[0:1], v[6:7]", c_lt_f64},
    {G_VOPC, C_F64, "v_cmp_nge_f64_e64 SM, v[0:1], v[6:7]", c_nge_f64},
    {G_VOPC, C_F64, "v_cmp_lt_i64_e64 SM, v[0:1], v[6:7]", c_lt_i64},
    {G_VOPC, C_F64, "v_cmp_gt_u64_e32 VCC, v[0:1], v[6:7]", c_gt_u64},
    {G_VOPC, C_F16, "v_cmp_eq_f16_e32 VCC, v0, v1", c_eq_f16},
    {G_VOPC, C_INT, "v_cmp_ne_u16_e64 SM, v0, v1", c_ne_u16},
    {G_VOPC, C_INT, "v_cmpx_eq_u32_e32 v0, v1", cx_eq_u32},
    {G_VOPC, C_F32, "v_cmpx_gt_f32_e64 v0, v1", cx_gt_f32},
    {G_VOPC, C_INT, "v_cmpx_lt_i32_e32 v0, v1", cx_lt_i32},
    {G_SDWA, C_INT, "v_cmp_ne_u32_sdwa VCC, v0, v1 src0_sel:BYTE_0 src1_sel:WORD_1", c_ne_u32_sdwa},
    /* SDWA */
    {G_SDWA, C_INT, "v_and_b32_sdwa v3, v0, v1 dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:BYTE_2", s_and},
    {G_SDWA, C_INT, "v_add_nc_u32_sdwa v3, sext(v0), v1 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:DWORD", s_add_sext},
    {G_SDWA, C_INT, "v_cvt_f32_i32_sdwa v3, sext(v0) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1", s_cvt_sext},
    {G_SDWA, C_INT, "v_lshlrev_b32_sdwa v3, v0, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:WORD_0", s_shl},
    {G_SDWA, C_INT, "v_mov_b32_sdwa v3, v0 dst_sel:WORD_1 dst_unused:UNUSED_SEXT src0_sel:BYTE_3", s_mov_sext},
    /* DPP */
    {G_DPP, C_INT, "v_mov_b32_dpp v3, v0 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf", d_quad},
    {G_DPP, C_INT, "v_mov_b32_dpp v3, v0 row_shl:1 row_mask:0xf bank_mask:0xf", d_shl1},
    {G_DPP, C_INT, "v_mov_b32_dpp v3, v0 row_shr:3 row_mask:0xf bank_mask:0xf bound_ctrl:1", d_shr3_bc},
    {G_DPP, C_INT, "v_mov_b32_dpp v3, v0 row_ror:5 row_mask:0xf bank_mask:0xf", d_ror5},
    {G_DPP, C_INT, "v_mov_b32_dpp v3, v0 row_mirror row_mask:0xf bank_mask:0xf", d_mirror},
    {G_DPP, C_INT, "v_mov_b32_dpp v3, v0 row_half_mirror row_mask:0xf bank_mask:0xf", d_hmirror},
    {G_DPP, C_INT, "v_mov_b32_dpp v3, v0 row_share:3 row_mask:0xf bank_mask:0xf", d_share3},
    {G_DPP, C_INT, "v_mov_b32_dpp v3, v0 row_xmask:5 row_mask:0xf bank_mask:0xf", d_xmask5},
    {G_DPP, C_INT, "v_mov_b32_dpp v3, v0 row_shr:1 row_mask:0x5 bank_mask:0x3", d_masks},
    {G_DPP, C_INT, "v_mov_b32_dpp v3, v0 row_shr:1 row_mask:0xf bank_mask:0xf fi:1", d_fi},
    {G_DPP, C_INT, "v_add_nc_u32_dpp v3, v0, v1 row_shr:1 row_mask:0xf bank_mask:0xf", d_add_shr1},
    {G_DPP, C_F32, "v_add_f32_dpp v3, -v0, |v1| row_shr:2 row_mask:0xf bank_mask:0xf bound_ctrl:1", d_fadd_shr2},
    {G_DPP, C_INT, "v_mov_b32_dpp v3, v0 dpp8:[7,6,5,4,3,2,1,0]", d8_rev},
    {G_DPP, C_INT, "v_mov_b32_dpp v3, v0 dpp8:[7,6,5,4,3,2,1,0] fi:1", d8_rev_fi},
    /* lanes */
    {G_LANE, C_INT, "v_readlane_b32 s30, v0, s5", l_readlane},
    {G_LANE, C_INT, "v_readlane_b32 s30, v0, 7", l_readlane7},
    {G_LANE, C_INT, "v_readfirstlane_b32 s30, v0", l_readfirstlane},
    {G_LANE, C_INT, "v_writelane_b32 v3, s4, s5", l_writelane},
    {G_VOP1, C_INT, "v_swap_b32 v3, v0", l_swap},
    {G_LANE, C_INT, "v_mbcnt_lo_u32_b32 v3, s20, v1", r_mbcnt_lo},
    {G_LANE, C_INT, "v_mbcnt_hi_u32_b32 v3, s21, v1", r_mbcnt_hi},
    {G_LANE, C_INT, "v_permlane16_b32 v3, v0, s6, s7", p_16},
    {G_LANE, C_INT, "v_permlanex16_b32 v3, v0, s6, s7", p_x16},
    {G_LANE, C_INT, "v_permlanex16_b32 v3, v0, s6, s7 op_sel:[1,0]", p_x16_fi},
    {G_LANE, C_INT, "v_permlane16_b32 v3, v0, s6, s7 op_sel:[0,1]", p_16_bc},
    /* VOP3P */
    {G_VOP3P, C_F16, "v_pk_add_f16 v3, v0, v1", p_add_f16},
    {G_VOP3P, C_F16, "v_pk_mul_f16 v3, v0, v1 op_sel:[1,0] op_sel_hi:[0,1]", p_mul_f16_sel},
    {G_VOP3P, C_F16, "v_pk_fma_f16 v3, v0, v1, v2 neg_lo:[1,0,0]", p_fma_f16_neg},
    {G_VOP3P, C_F16, "v_pk_max_f16 v3, v0, v1", p_max_f16},
    {G_VOP3P, C_INT, "v_pk_mul_lo_u16 v3, v0, v1", p_mul_lo_u16},
    {G_VOP3P, C_INT, "v_pk_add_u16 v3, v0, v1", p_add_u16},
    {G_VOP3P, C_INT, "v_pk_mul_lo_u16 v3, 0x101, v1 op_sel_hi:[0,1]", p_mul_lo_u16_lit},
    {G_VOP3P, C_F16, "v_pk_fma_f16 v3, v0, v1, -1.0 op_sel_hi:[1,1,0]", p_fma_f16_inl},
    {G_VOP3P, C_F16, "v_pk_fma_f16 v3, v0, v1, 0xc0003c00", p_fma_f16_lit},
    {G_VOP3P, C_INT, "v_dot8_i32_i4 v3, v0, v1, v2 clamp", p_dot8_i4_clamp},
    {G_VOP3P, C_INT, "v_dot4_u32_u8 v3, v0, v1, v2 clamp", p_dot4_u8_clamp},
    {G_VOP3P, C_F16, "v_fma_mix_f32 v3, v0, v1, v2 op_sel_hi:[1,1,0]", p_fma_mix},
    {G_VOP3P, C_INT, "v_dot4_i32_i8 v3, v0, v1, v2", p_dot4_i8},
    {G_VOP3P, C_INT, "v_dot2_i32_i16 v3, v0, v1, v2", p_dot2_i16},
    {G_VOP3P, C_INT, "v_dot8_u32_u4 v3, v0, v1, v2", p_dot8_u4},
    /* division helpers */
    {G_VOP3, C_F32, "v_div_scale_f32 v3, SM, v1, v1, v2", r_div_scale32_d},
    {G_VOP3, C_F32, "v_div_scale_f32 v3, SM, v2, v1, v2", r_div_scale32_n},
    {G_VOP3, C_F64, "v_div_scale_f64 v[4:5], SM, v[6:7], v[6:7], v[8:9]", r_div_scale64_d},
    {G_VOP3, C_F64, "v_div_scale_f64 v[4:5], SM, v[8:9], v[6:7], v[8:9]", r_div_scale64_n},
    {G_VOP3, C_F32, "v_cmp_lt_u32_e32 VCC, v2, v1\nv_div_fmas_f32 v3, v0, v1, v2", r_div_fmas32},
    {G_VOP3, C_F64, "v_cmp_lt_u32_e32 VCC, v2, v1\nv_div_fmas_f64 v[4:5], v[0:1], v[6:7], v[8:9]", r_div_fmas64},
    {G_VOP3, C_F32, "v_div_fixup_f32 v3, v0, v1, v2", r_div_fixup32},
    {G_VOP3, C_F64, "v_div_fixup_f64 v[4:5], v[0:1], v[6:7], v[8:9]", r_div_fixup64},
    {G_VOP3, C_F16, "v_div_fixup_f16 v3, v0, v1, v2", r_div_fixup16},
    {G_VOP3, C_F64, "v_trig_preop_f64 v[4:5], v[0:1], v2", r_trig_preop},
    {G_VOP3, C_F64, "v_trig_preop_f64 v[4:5], |v[0:1]|, 3", r_trig_preop_abs},
    /* SAD, cube, f16 dots, M0-relative indexing */
    {G_VOP3, C_INT, "v_msad_u8 v3, v0, v1, v2", x_msad},
    {G_VOP3, C_INT, "v_and_b32 v1, 0xff00ff, v1\nv_msad_u8 v3, v0, v1, v2", x_msad_masked},
    {G_VOP3, C_INT, "v_sad_u32 v3, v0, v1, v2", x_sad_u32},
    {G_VOP3, C_F32, "v_cubeid_f32 v3, v0, v1, v2", x_cubeid},
    {G_VOP3, C_F32, "v_cubesc_f32 v3, v0, v1, v2", x_cubesc},
    {G_VOP3, C_F32, "v_cubetc_f32 v3, v0, v1, v2", x_cubetc},
    {G_VOP3, C_F32, "v_cubema_f32 v3, v0, v1, v2", x_cubema},
    {G_VOP3, C_F32, "v_cubesc_f32 v3, -v0, v1, |v2|", x_cubesc_mods},
    {G_VOP3P, C_F16, "v_dot2_f32_f16 v3, v0, v1, v2", x_fdot2},
    {G_VOP2, C_F16, "v_dot2c_f32_f16 v3, v0, v1", x_fdot2c},
    {G_VOP3P, C_F16, "v_dot2_f32_f16 v3, v0, v1, v2 neg_lo:[1,0,0] neg_hi:[0,1,0] clamp", x_fdot2_neg_clamp},
    {G_VOP1, C_INT, "s_mov_b32 m0, s5\nv_movrels_b32 v3, v0", x_movrels_s5},
    {G_VOP1, C_INT, "v_mov_b32 v9, v9\ns_mov_b32 m0, s5\nv_movrels_b32 v3, v0", x_movrels_s5_v9},
    {G_VOP1, C_INT, "s_movk_i32 m0, 0x12c\nv_movrels_b32 v3, v0", x_movrels_oob},
    {G_VOP1, C_INT, "v_mov_b32 v7, v7\ns_mov_b32 m0, 3\nv_movreld_b32 v4, v0", x_movreld3},
    {G_VOP1, C_INT, "s_mov_b32 m0, s5\nv_movreld_b32 v0, v1", x_movreld_s5},
    {G_VOP1, C_INT, "v_mov_b32 v15, v15\ns_mov_b32 m0, s5\nv_movreld_b32 v0, v1", x_movreld_s5_v15},
    {G_VOP1, C_INT, "v_mov_b32 v4, v4\ns_mov_b32 m0, 1\nv_movrelsd_b32 v3, v0", x_movrelsd},
    {G_VOP1, C_INT, "v_mov_b32 v4, v4\ns_mov_b32 m0, 0x10002\nv_movrelsd_2_b32 v3, v0", x_movrelsd2},
};

static const mcase mode_cases[] = {
    {{G_MODE, C_DN32, "v_add_f32 v3, v0, v1", m_add_ftz}, FM_ACO},
    {{G_MODE, C_DN32, "v_mul_f32 v3, v0, v1", m_mul_ftz}, FM_ACO},
    {{G_MODE, C_DN32, "v_fma_f32 v3, v0, v1, v2", m_fma_ftz}, FM_ACO},
    {{G_MODE, C_DN32, "v_fmac_f32 v3, v0, v1", m_fmac_ftz}, FM_ACO},
    {{G_MODE, C_DN32, "v_sub_f32_sdwa v3, v0, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD", m_sub_dpp_ftz}, FM_ACO},
    {{G_MODE, C_DN32, "v_max_f32 v3, v0, v1", m_max_ftz}, FM_ACO},
    {{G_MODE, C_DN32, "v_min_f32_e64 v3, v0, v1", m_min_ftz}, FM_ACO},
    {{G_MODE, C_DN32, "v_max_f32 v3, v0, v1", m_max_noieee}, FM(0x1f0)},
    {{G_MODE, C_DN32, "v_min_f32 v3, v0, v1", m_min_ieee_ftz}, FM(0x3c0)},
    {{G_MODE, C_DN32, "v_mov_b32 v3, v0", m_mov}, FM_ACO},
    {{G_MODE, C_DN32, "v_cvt_f16_f32 v3, v0", m_cvt_f16_f32_ftz}, FM_ACO},
    {{G_MODE, C_DN16, "v_cvt_f32_f16 v3, v0", m_cvt_f32_f16_ftz16}, FM(0x330)},
    {{G_MODE, C_DN32, "v_cmp_eq_f32_e32 VCC, v0, v1", m_eq_ftz}, FM_ACO},
    {{G_MODE, C_DN32, "v_cmp_lt_f32_e64 SM, v0, v1", m_lt_ftz}, FM_ACO},
    {{G_MODE, C_DN32, "v_cmp_class_f32_e64 SM, v0, v1", c_class_f32}, FM_ACO},
    {{G_MODE, C_DN32, "v_add_f32_e64 v3, v0, v1 mul:2", m_omod2}, FM_ACO},
    {{G_MODE, C_DN32, "v_mul_f32_e64 v3, v0, v1 div:2", m_omod_div2}, FM_ACO},
    {{G_MODE, C_DN32, "v_add_f32_e64 v3, v0, v1 clamp mul:4", m_omod4_clamp}, FM_ACO},
    {{G_MODE, C_DN32, "v_add_f32_e64 v3, v0, v1 mul:2", m_omod_ignored}, FM(0x1f0)},
    {{G_MODE, C_F32, "v_add_f32_e64 v3, v0, v1 clamp", m_clamp_nodx10}, FM(0x2f0)},
    {{G_MODE, C_DN16, "v_add_f16 v3, v0, v1", m_hadd_ftz16}, FM(0x330)},
    {{G_MODE, C_DN16, "v_pk_mul_f16 v3, v0, v1", m_pk_mul_ftz16}, FM(0x330)},
    {{G_MODE, C_DSCALE, "v_add_f64 v[4:5], v[0:1], v[6:7]", m_dadd_ftz64}, FM(0x330)},
    {{G_MODE, C_DN32, "s_denorm_mode 0x0\nv_add_f32 v3, v0, v1\ns_denorm_mode 0xf", m_add_ftz}, 0},
    {{G_MODE, C_DN32, "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 0\nv_mul_f32 v3, v0, v1\ns_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3", m_mul_ftz}, FM(0x1f0)},
    {{G_MODE, C_DN32, "s_getreg_b32 s30, hwreg(HW_REG_MODE, 0, 32)", m_getreg_aco}, FM_ACO},
    {{G_MODE, C_DN32, "s_getreg_b32 s30, hwreg(HW_REG_MODE, 0, 32)", m_getreg_default}, 0},
    {{G_MODE, C_DN32, "s_denorm_mode 0x3\ns_getreg_b32 s30, hwreg(HW_REG_MODE, 0, 32)\ns_denorm_mode 0xc", m_getreg_denorm}, FM_ACO},
    {{G_MODE, C_DN32, "s_getreg_b32 s30, hwreg(HW_REG_MODE, 8, 2)", m_getreg_field}, FM(0x2f0)},
};

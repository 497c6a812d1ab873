/* More cases of test_lift_valu.c (included once, after
 * test_lift_valu_cases.h, whose helpers and shapes they use): the legacy
 * multiply-adds, the quad SADs, the normalizing and packing conversions,
 * the M0-relative swap and the small 16-bit operations, with references
 * written from the RDNA ISA's definitions. `g10_cases` run on gfx1010
 * (assembled and lifted for it: the mad/mac forms exist only there),
 * `cases2` on gfx1030. */

/* A denormal (exponent 0) becomes a zero of its sign. */
static uint32_t ftz32(uint32_t x) { return (x & 0x7f800000u) ? x : x & 0x80000000u; }

/* v_mad_f32 / v_mad_legacy_f32: S0 * S1 rounded, then + S2 rounded; no
 * denormals anywhere (inputs, product, result flushed); legacy: 0 * x = +0
 * for any x (inf, NaN). */
static uint32_t mad32(uint32_t a, uint32_t b, uint32_t c, bool legacy)
{
    a = ftz32(a), b = ftz32(b), c = ftz32(c);
    volatile float p;
    if (legacy && (F(a) == 0.0f || F(b) == 0.0f))
        p = 0.0f;
    else
        p = F(ftz32(U(F(a) * F(b))));
    volatile float r = p + F(c);
    return ftz32(U(r));
}
/* v_fma_legacy_f32: fused, 0 * x = +0 (then + S2). */
static uint32_t fma_legacy(uint32_t a, uint32_t b, uint32_t c)
{
    if (F(a) == 0.0f || F(b) == 0.0f) {
        volatile float z = 0.0f;
        return U(z + F(c));
    }
    return U(fmaf(F(a), F(b), F(c)));
}
static uint32_t fma_legacy_ftz(uint32_t a, uint32_t b, uint32_t c)
{
    return ftz32(fma_legacy(ftz32(a), ftz32(b), ftz32(c)));
}

R32(n_mad_legacy, K_F32, mad32(a, b, c, true))
R32(n_mac_legacy, K_F32, mad32(a, b, old, true))
R32(n_mac_legacy_mods, K_F32, mad32(a ^ 0x80000000u, b & 0x7fffffffu, old, true))
R32(n_mad, K_F32, mad32(a, b, c, false))
R32(n_mac, K_F32, mad32(a, b, old, false))
R32(n_madak, K_F32, mad32(a, b, 0x40490fdb, false))
R32(n_madmk, K_F32, mad32(a, 0x3fc00000, b, false))
R32(n_mul_lo_i32, K_BITS, a * b)
R32(n_fma_legacy, K_F32, fma_legacy(a, b, c))
R32(n_fma_legacy_neg, K_F32, fma_legacy(a, b ^ 0x80000000u, c & 0x7fffffffu))
R32(n_fmac_legacy, K_F32, fma_legacy(a, b, old))
R32(n_fma_legacy_ftz, K_F32, fma_legacy_ftz(a, b, c))

/* f32_to_snorm / f32_to_unorm: NaN 0, clamp to [-1, 1] / [0, 1], times
 * 32767 / 65535, rounded to nearest even (the product in double is exact). */
static uint32_t norm16(double x, bool sg)
{
    if (isnan(x)) return 0;
    double lo = sg ? -1.0 : 0.0;
    x = x > 1.0 ? 1.0 : x < lo ? lo : x;
    return (uint32_t)(int32_t)nearbyint(x * (sg ? 32767.0 : 65535.0)) & 0xffff;
}
/* f32_to_u8 of v_cvt_pk_u8_f32: NaN 0, rounded to nearest even, clamped to [0, 255]. */
static uint32_t pk_u8(uint32_t a, uint32_t b, uint32_t c)
{
    double x = F(a);
    uint32_t u = isnan(x) ? 0 : x >= 255.0 ? 255 : x <= 0 ? 0 : (uint32_t)nearbyint(x);
    unsigned sh = 8 * (b & 3);
    return (c & ~(0xffu << sh)) | (u << sh);
}
static uint32_t sat8(int32_t x) { return x < 0 ? 0 : x > 255 ? 255 : (uint32_t)x; }
R32(n_pknorm_i16_f32, K_BITS, norm16(F(a), true) | norm16(F(b), true) << 16)
R32(n_pknorm_u16_f32, K_BITS, norm16(F(a), false) | norm16(F(b), false) << 16)
R32(n_pknorm_i16_f16, K_BITS, norm16(H(a), true) | norm16(H(b), true) << 16)
R32(n_pknorm_u16_f16_opsel, K_BITS, norm16(H(a >> 16), false) | norm16(H(b), false) << 16)
R32(n_norm_i16_f16, K_BITS, lo16(old, norm16(H(a), true)))
R32(n_norm_u16_f16, K_BITS, lo16(old, norm16(H(a), false)))
R32(n_pk_u8, K_BITS, pk_u8(a, b, c))
R32(n_off_f32_i4, K_F32, U((float)((int32_t)(a << 28) >> 28) / 16.0f))
R32(n_pack_b32_f16, K_BITS, (a & 0xffff) | b << 16)
R32(n_pack_b32_f16_mods, K_BITS, (a >> 16) | ((b ^ 0x8000u) & 0xffff) << 16)
R32(n_sat_pk_u8_i16, K_BITS, lo16(old, sat8((int16_t)a) | sat8((int16_t)(a >> 16)) << 8))
R32(n_mad_u32_u16, K_BITS, (a & 0xffff) * (b & 0xffff) + c)
R32(n_mad_u32_u16_opsel, K_BITS, (a >> 16) * (b & 0xffff) + c)
R32(n_mad_i32_i16, K_BITS, (uint32_t)((int32_t)(int16_t)a * (int16_t)b) + c)
R32(n_pk_fmac_f16, K_PK16, pk2(UH((_Float16)fma((double)H(a), (double)H(b), (double)H(old))),
                               UH((_Float16)fma((double)H(a >> 16), (double)H(b >> 16), (double)H(old >> 16)))))
R32(n_nop, K_BITS, a + b)

/* v_sad_u8 / v_msad_u8 of S0's bytes against the reference S1, plus acc */
static uint32_t sadb(uint32_t s0, uint32_t s1, uint32_t acc, bool masked)
{
    for (unsigned i = 0; i < 32; i += 8)
        if (!masked || ((s1 >> i) & 0xff))
            acc += ad((s0 >> i) & 0xff, (s1 >> i) & 0xff);
    return acc;
}
/* D.u16[i] = 16'B(sad(S0[8i+31 : 8i], S1, S2.u16[i])) */
static uint64_t qsad(uint64_t s0, uint32_t s1, uint64_t s2, bool masked)
{
    uint64_t d = 0;
    for (unsigned i = 0; i < 4; i++)
        d |= (uint64_t)(sadb((uint32_t)(s0 >> (8 * i)), s1, (uint32_t)(s2 >> (16 * i)) & 0xffff, masked) & 0xffff)
             << (16 * i);
    return d;
}
R64(n_qsad, K_BITS, qsad(A, c, B, false))
R64(n_mqsad_pk, K_BITS, qsad(A, c, B, true))
/* v_mqsad_u32_u8 v[10:13], v[0:1], v2, v[4:7]: D.u32[i] = msad(S0[8i+31 : 8i], S1, S2.u32[i]) */
static void mqsad_u32(const wave *w, expect *e, unsigned first)
{
    e->nv = 2;
    for (unsigned k = 0; k < 2; k++) {
        unsigned i = first + k;
        e->vreg[k] = 10 + i;
        e->vcmp[k] = K_BITS;
        for (unsigned l = 0; l < w->W; l++) {
            uint64_t s0 = A64(w, 0, l);
            e->v[k][l] = ACT(w, l) ? sadb((uint32_t)(s0 >> (8 * i)), w->v[2][l], w->v[4 + i][l], true) : 0;
        }
    }
}
static void n_mqsad_u32_lo(const wave *w, expect *e) { mqsad_u32(w, e, 0); }
static void n_mqsad_u32_hi(const wave *w, expect *e) { mqsad_u32(w, e, 2); }

/* v_swaprel_b32 v3, v0 with M0 = s5 (M0[9:0] = s5, M0[25:16] = 0): v3 and
 * v[s5] exchange their values (registers above v9 start at 0; the program
 * names v15, so M0-relative indexing reaches v0..v15, and past them v3
 * reads 0). */
static void n_swaprel_s5(const wave *w, expect *e)
{
    unsigned r = w->s[5];
    e->nv = 1; e->vreg[0] = 3; e->vcmp[0] = K_BITS;
    if (r != 3 && r < 16) {
        e->nv = 2; e->vreg[1] = r; e->vcmp[1] = K_BITS;
    }
    for (unsigned l = 0; l < w->W; l++) {
        bool act = ACT(w, l);
        e->v[0][l] = act ? vin_at(w, r, l) : vin_at(w, 3, l);
        if (e->nv == 2)
            e->v[1][l] = act ? vin_at(w, 3, l) : vin_at(w, r, l);
    }
}
/* M0 = 0x10002: v[3 + 1] and v[0 + 2] exchange */
static void n_swaprel_2(const wave *w, expect *e)
{
    e->nv = 2; e->vreg[0] = 4; e->vreg[1] = 2; e->vcmp[0] = e->vcmp[1] = K_BITS;
    for (unsigned l = 0; l < w->W; l++) {
        e->v[0][l] = ACT(w, l) ? w->v[2][l] : w->v[4][l];
        e->v[1][l] = ACT(w, l) ? w->v[4][l] : w->v[2][l];
    }
}

static const tcase g10_cases[] = {
    {G_VOP3, C_DN32, "v_mad_legacy_f32 v3, v0, v1, v2", n_mad_legacy},
    {G_VOP3, C_F32, "v_mad_legacy_f32 v3, v0, v1, v2", n_mad_legacy},
    {G_VOP2, C_DN32, "v_mac_legacy_f32 v3, v0, v1", n_mac_legacy},
    {G_VOP3, C_F32, "v_mac_legacy_f32_e64 v3, -v0, |v1|", n_mac_legacy_mods},
    {G_VOP3, C_DN32, "v_mad_f32 v3, v0, v1, v2", n_mad},
    {G_VOP2, C_DN32, "v_mac_f32 v3, v0, v1", n_mac},
    {G_VOP2, C_F32, "v_madak_f32 v3, v0, v1, 0x40490fdb", n_madak},
    {G_VOP2, C_DN32, "v_madmk_f32 v3, v0, 0x3fc00000, v1", n_madmk},
    {G_VOP3, C_INT, "v_mul_lo_i32 v3, v0, v1", n_mul_lo_i32},
};

static const tcase cases2[] = {
    {G_VOP3, C_F32, "v_fma_legacy_f32 v3, v0, v1, v2", n_fma_legacy},
    {G_VOP3, C_DN32, "v_fma_legacy_f32 v3, v0, -v1, |v2|", n_fma_legacy_neg},
    {G_VOP2, C_F32, "v_fmac_legacy_f32 v3, v0, v1", n_fmac_legacy},
    {G_VOP3, C_F32, "v_cvt_pknorm_i16_f32 v3, v0, v1", n_pknorm_i16_f32},
    {G_VOP3, C_F32, "v_cvt_pknorm_u16_f32 v3, v0, v1", n_pknorm_u16_f32},
    {G_VOP3, C_F16, "v_cvt_pknorm_i16_f16 v3, v0, v1", n_pknorm_i16_f16},
    {G_VOP3, C_F16, "v_cvt_pknorm_u16_f16 v3, v0, v1 op_sel:[1,0,0]", n_pknorm_u16_f16_opsel},
    {G_VOP1, C_F16, "v_cvt_norm_i16_f16 v3, v0", n_norm_i16_f16},
    {G_VOP1, C_F16, "v_cvt_norm_u16_f16 v3, v0", n_norm_u16_f16},
    {G_VOP3, C_F32, "v_cvt_pk_u8_f32 v3, v0, v1, v2", n_pk_u8},
    {G_VOP1, C_INT, "v_cvt_off_f32_i4 v3, v0", n_off_f32_i4},
    {G_VOP3, C_F16, "v_pack_b32_f16 v3, v0, v1", n_pack_b32_f16},
    {G_VOP3, C_F16, "v_pack_b32_f16 v3, v0, -v1 op_sel:[1,0,0]", n_pack_b32_f16_mods},
    {G_VOP1, C_INT, "v_sat_pk_u8_i16 v3, v0", n_sat_pk_u8_i16},
    {G_VOP3, C_INT, "v_mad_u32_u16 v3, v0, v1, v2", n_mad_u32_u16},
    {G_VOP3, C_INT, "v_mad_u32_u16 v3, v0, v1, v2 op_sel:[1,0,0,0]", n_mad_u32_u16_opsel},
    {G_VOP3, C_INT, "v_mad_i32_i16 v3, v0, v1, v2", n_mad_i32_i16},
    {G_VOP2, C_F16, "v_pk_fmac_f16 v3, v0, v1", n_pk_fmac_f16},
    {G_VOP1, C_INT, "v_nop\nv_pipeflush\nv_clrexcp\nv_add_nc_u32 v3, v0, v1", n_nop},
    {G_VOP3, C_INT, "v_qsad_pk_u16_u8 v[4:5], v[0:1], v2, v[6:7]", n_qsad},
    {G_VOP3, C_INT, "v_mqsad_pk_u16_u8 v[4:5], v[0:1], v2, v[6:7]", n_mqsad_pk},
    {G_VOP3, C_INT, "v_mqsad_u32_u8 v[10:13], v[0:1], v2, v[4:7]", n_mqsad_u32_lo},
    {G_VOP3, C_INT, "v_mqsad_u32_u8 v[10:13], v[0:1], v2, v[4:7]", n_mqsad_u32_hi},
    {G_VOP1, C_INT, "v_mov_b32 v15, v15\ns_mov_b32 m0, s5\nv_swaprel_b32 v3, v0", n_swaprel_s5},
    {G_VOP1, C_INT, "v_mov_b32 v4, v4\ns_mov_b32 m0, 0x10002\nv_swaprel_b32 v3, v0", n_swaprel_2},
};

static const mcase mode_cases2[] = {
    {{G_MODE, C_DN32, "v_fma_legacy_f32 v3, v0, v1, v2", n_fma_legacy_ftz}, FM_ACO},
};

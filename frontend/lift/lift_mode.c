/* The float mode: the MODE register as the lifter tracks it.
 *
 * MODE (hwreg 1) bits: 1:0 round f32, 3:2 round f16/f64 (0 nearest even,
 * 1 +inf, 2 -inf, 3 zero); 5:4 denorm f32, 7:6 denorm f16/f64 (bit 0 of
 * each field: input denormals kept, bit 1: output denormals kept; 0 flushes
 * both, 3 keeps both); 8 DX10_CLAMP; 9 IEEE; 10 LOD_CLAMPED, 11 DEBUG_EN,
 * 20:12 EXCP_EN, 23 FP16_OVFL and the rest.
 *
 * At launch bits 7:0 are the kernel descriptor's FLOAT_MODE (rsrc1 19:12),
 * bit 8 DX10_CLAMP (rsrc1 21) and bit 9 IEEE_MODE (rsrc1 23); a program
 * without a known mode (float_mode_known 0) launches with 0x3f0 (nearest
 * even, denormals kept, DX10 clamp and IEEE on: clang's kernels). The bits
 * above 9 are 0 at launch as far as the lifter knows: wl_lift_program does
 * not carry the exception enables (compilers launch compute with them off).
 *
 * s_round_mode, s_denorm_mode and s_setreg of MODE with a constant change
 * the tracked mode from that instruction on; a write known only at run time
 * is refused by name. The mode is tracked along straight-line code only: a
 * block starts with the launch's mode, and a block that changes it must
 * restore it before it branches or falls into the next block (the pattern
 * LLVM emits around its f32 division), else the program is refused. */
#include "lift_internal.h"

#define MODE_TRACKED 0x3ffu /* bits 9:0 */

static uint32_t launch_mode(const wl_lift_program *p)
{
    if (!p->float_mode_known)
        return 0x3f0u;
    return (p->float_round_mode_32 & 3u) | (p->float_round_mode_16_64 & 3u) << 2 |
           (p->float_denorm_mode_32 & 3u) << 4 | (p->float_denorm_mode_16_64 & 3u) << 6 |
           (p->dx10_clamp ? 1u : 0u) << 8 | (p->ieee_mode ? 1u : 0u) << 9;
}

uint32_t wl_l_mode(const wl_lifter *L)
{
    return (launch_mode(L->prog) & ~L->mode_set) | (L->mode_val & L->mode_set);
}

wl_status wl_l_mode_step(wl_lifter *L, int leader, int fell_in, int branches)
{
    int changed = wl_l_mode(L) != launch_mode(L->prog);
    if (leader) {
        if (fell_in && changed)
            return wl_l_refuse(L, "the float mode set by a mode write earlier in the previous "
                                  "block is still in effect where this block starts");
        L->mode_set = 0;
        L->mode_val = 0;
        changed = 0;
    }
    if (branches && changed)
        return wl_l_refuse(L, "a branch while a mode write's float mode is in effect "
                              "(the mode is tracked within blocks only)");
    return WL_OK;
}

/* Writes MODE bits [off, off+size) with v (a constant). Bits above 9 can
 * only be written with 0 (their launch value as far as the lifter knows). */
wl_status wl_l_mode_write(wl_lifter *L, unsigned off, unsigned size, uint32_t v)
{
    uint32_t mask = size >= 32 ? 0xffffffffu : ((1u << size) - 1u);
    uint32_t m = off >= 32 ? 0 : mask << off, val = off >= 32 ? 0 : (v & mask) << off;
    if (val & ~MODE_TRACKED & m)
        return wl_l_refuse(L, "a MODE write that sets LOD_CLAMPED, DEBUG_EN, an exception "
                              "enable or another bit above IEEE (not modelled)");
    L->mode_set |= m & MODE_TRACKED;
    L->mode_val = (L->mode_val & ~(m & MODE_TRACKED)) | (val & MODE_TRACKED);
    return WL_OK;
}

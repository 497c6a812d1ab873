/* The AMDHSA kernel descriptor's fields and bits, and the AMDGPU e_flags
 * (EF_AMDGPU_MACH and the feature bits). */
#include "codeobj_internal.h"

#include <stdio.h>
#include <string.h>

static unsigned bits(uint32_t v, unsigned lo, unsigned width)
{
    return (v >> lo) & ((1u << width) - 1u);
}

/* Layout: see wl_kernel_descriptor in wavelift/codeobj.h. Bit fields
 * (gfx10):
 *   rsrc1: 5:0 VGPR granules, 9:6 SGPR granules, 11:10 priority,
 *          13:12 round mode 32, 15:14 round mode 16/64, 17:16 denorm 32,
 *          19:18 denorm 16/64, 20 priv, 21 dx10 clamp, 22 debug mode,
 *          23 IEEE mode, 24 bulky, 25 cdbg user, 26 fp16 overflow,
 *          29 WGP mode, 30 mem ordered, 31 forward progress
 *   rsrc2: 0 private segment, 5:1 user SGPR count, 6 trap handler,
 *          7/8/9 workgroup id x/y/z, 10 workgroup info, 12:11 workitem id,
 *          13 address watch, 14 memory exceptions, 23:15 LDS granules,
 *          24..30 FP invalid, denorm source, div by zero, overflow,
 *          underflow, inexact, integer div by zero
 *   rsrc3: 3:0 shared VGPR count
 *   kernel_code_properties: 0..6 user SGPRs (private segment buffer,
 *          dispatch ptr, queue ptr, kernarg segment ptr, dispatch id,
 *          flat scratch init, private segment size), 10 wave32,
 *          11 uses dynamic stack
 *   kernarg_preload: 6:0 length, 15:7 offset */
void wl_kernel_descriptor_decode(const uint8_t raw[64], wl_kernel_descriptor *kd,
                                 wl_kernel_launch_info *l)
{
    memset(kd, 0, sizeof(*kd));
    memcpy(kd->raw, raw, WL_KD_SIZE);
    kd->group_segment_fixed_size = wl_co_rd32(raw + 0);
    kd->private_segment_fixed_size = wl_co_rd32(raw + 4);
    kd->kernarg_size = wl_co_rd32(raw + 8);
    kd->kernel_code_entry_byte_offset = (int64_t)wl_co_rd64(raw + 16);
    kd->compute_pgm_rsrc3 = wl_co_rd32(raw + 44);
    kd->compute_pgm_rsrc1 = wl_co_rd32(raw + 48);
    kd->compute_pgm_rsrc2 = wl_co_rd32(raw + 52);
    kd->kernel_code_properties = wl_co_rd16(raw + 56);
    kd->kernarg_preload = wl_co_rd16(raw + 58);

    memset(l, 0, sizeof(*l));
    uint32_t p = kd->kernel_code_properties;
    l->user_sgpr_private_segment_buffer = bits(p, 0, 1);
    l->user_sgpr_dispatch_ptr = bits(p, 1, 1);
    l->user_sgpr_queue_ptr = bits(p, 2, 1);
    l->user_sgpr_kernarg_segment_ptr = bits(p, 3, 1);
    l->user_sgpr_dispatch_id = bits(p, 4, 1);
    l->user_sgpr_flat_scratch_init = bits(p, 5, 1);
    l->user_sgpr_private_segment_size = bits(p, 6, 1);
    l->wave32 = bits(p, 10, 1);
    l->uses_dynamic_stack = bits(p, 11, 1);

    uint32_t r2 = kd->compute_pgm_rsrc2;
    l->enable_private_segment = bits(r2, 0, 1);
    l->user_sgpr_count = bits(r2, 1, 5);
    l->enable_trap_handler = bits(r2, 6, 1);
    for (unsigned i = 0; i < 3; i++)
        l->enable_sgpr_workgroup_id[i] = bits(r2, 7 + i, 1);
    l->enable_sgpr_workgroup_info = bits(r2, 10, 1);
    l->enable_vgpr_workitem_id = bits(r2, 11, 2);
    l->exception_address_watch = bits(r2, 13, 1);
    l->exception_memory = bits(r2, 14, 1);
    l->granulated_lds_size = bits(r2, 15, 9);
    l->exception_fp_ieee_invalid_op = bits(r2, 24, 1);
    l->exception_fp_denorm_src = bits(r2, 25, 1);
    l->exception_fp_ieee_div_zero = bits(r2, 26, 1);
    l->exception_fp_ieee_overflow = bits(r2, 27, 1);
    l->exception_fp_ieee_underflow = bits(r2, 28, 1);
    l->exception_fp_ieee_inexact = bits(r2, 29, 1);
    l->exception_int_div_zero = bits(r2, 30, 1);

    uint32_t r1 = kd->compute_pgm_rsrc1;
    l->vgpr_granules = bits(r1, 0, 6);
    l->sgpr_granules = bits(r1, 6, 4);
    l->priority = bits(r1, 10, 2);
    l->float_round_mode_32 = bits(r1, 12, 2);
    l->float_round_mode_16_64 = bits(r1, 14, 2);
    l->float_denorm_mode_32 = bits(r1, 16, 2);
    l->float_denorm_mode_16_64 = bits(r1, 18, 2);
    l->priv = bits(r1, 20, 1);
    l->dx10_clamp = bits(r1, 21, 1);
    l->debug_mode = bits(r1, 22, 1);
    l->ieee_mode = bits(r1, 23, 1);
    l->bulky = bits(r1, 24, 1);
    l->cdbg_user = bits(r1, 25, 1);
    l->fp16_overflow = bits(r1, 26, 1);
    l->wgp_mode = bits(r1, 29, 1);
    l->mem_ordered = bits(r1, 30, 1);
    l->fwd_progress = bits(r1, 31, 1);

    l->shared_vgpr_count = bits(kd->compute_pgm_rsrc3, 0, 4);
    l->kernarg_preload_length = bits(kd->kernarg_preload, 0, 7);
    l->kernarg_preload_offset = bits(kd->kernarg_preload, 7, 9);
}

/* EF_AMDGPU_MACH values (LLVM 19's llvm/BinaryFormat/ELF.h). */
typedef struct mach_entry {
    uint8_t mach;
    int8_t target; /* wl_target or -1 */
    char name[16];
} mach_entry;

static const mach_entry mach_table[] = {
    {0x020, -1, "gfx600"},  {0x021, -1, "gfx601"},  {0x022, -1, "gfx700"},
    {0x023, -1, "gfx701"},  {0x024, -1, "gfx702"},  {0x025, -1, "gfx703"},
    {0x026, -1, "gfx704"},  {0x028, -1, "gfx801"},  {0x029, -1, "gfx802"},
    {0x02a, -1, "gfx803"},  {0x02b, -1, "gfx810"},  {0x02c, -1, "gfx900"},
    {0x02d, -1, "gfx902"},  {0x02e, -1, "gfx904"},  {0x02f, -1, "gfx906"},
    {0x030, -1, "gfx908"},  {0x031, -1, "gfx909"},  {0x032, -1, "gfx90c"},
    {0x033, WL_GFX1010, "gfx1010"}, {0x034, WL_GFX1011, "gfx1011"},
    {0x035, WL_GFX1012, "gfx1012"}, {0x036, WL_GFX1030, "gfx1030"},
    {0x037, WL_GFX1031, "gfx1031"}, {0x038, WL_GFX1032, "gfx1032"},
    {0x039, WL_GFX1033, "gfx1033"}, {0x03a, -1, "gfx602"},  {0x03b, -1, "gfx705"},
    {0x03c, -1, "gfx805"},  {0x03d, WL_GFX1035, "gfx1035"},
    {0x03e, WL_GFX1034, "gfx1034"}, {0x03f, -1, "gfx90a"},  {0x040, -1, "gfx940"},
    {0x041, -1, "gfx1100"}, {0x042, WL_GFX1013, "gfx1013"}, {0x043, -1, "gfx1150"},
    {0x044, -1, "gfx1103"}, {0x045, WL_GFX1036, "gfx1036"}, {0x046, -1, "gfx1101"},
    {0x047, -1, "gfx1102"}, {0x048, -1, "gfx1200"}, {0x04a, -1, "gfx1151"},
    {0x04b, -1, "gfx941"},  {0x04c, -1, "gfx942"},  {0x04e, -1, "gfx1201"},
    {0x051, -1, "gfx9-generic"},
    {0x052, WL_GFX1010, "gfx10-1-generic"}, /* the GFX10.1 subset */
    {0x053, WL_GFX1030, "gfx10-3-generic"}, /* the GFX10.3 subset */
    {0x054, -1, "gfx11-generic"}, {0x055, -1, "gfx1152"}, {0x059, -1, "gfx12-generic"},
};

/* e_flags (HSA v4+): 7:0 EF_AMDGPU_MACH, 9:8 XNACK, 11:10 SRAMECC,
 * 31:24 generic version (v6). */
void wl_co_decode_flags(wl_codeobj *co)
{
    uint32_t f = co->e_flags;
    co->mach = f & 0xffu;
    co->xnack = (int)((f >> 8) & 3u);
    co->sramecc = (int)((f >> 10) & 3u);
    co->generic_version = f >> 24;
    co->target = -1;
    snprintf(co->mach_name, sizeof(co->mach_name), "mach-0x%02x", co->mach);
    for (size_t i = 0; i < sizeof(mach_table) / sizeof(mach_table[0]); i++) {
        if (mach_table[i].mach == co->mach) {
            co->target = mach_table[i].target;
            memcpy(co->mach_name, mach_table[i].name, sizeof(co->mach_name));
            break;
        }
    }
}

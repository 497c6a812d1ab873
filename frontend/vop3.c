/* Stub: the vop3 family is not decoded yet. */
#include "decode_internal.h"

wl_status wl_decode_vop3(const wl_decoder *d, const uint32_t *w, size_t nwords, wl_inst *inst)
{
    (void)d; (void)w; (void)nwords; (void)inst;
    return WL_ERR_INVALID;
}

void wl_print_vop3(const wl_inst *inst, wl_sb *sb)
{
    (void)inst;
    wl_sb_puts(sb, "<unsupported>");
}

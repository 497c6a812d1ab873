/* Probes of what the device's shaders do where Vulkan leaves it open
 * (wl_rt_probe_fma). */
#include "rt_internal.h"

#include <string.h>

static const uint32_t probe_fma_words[] = {
#include "probe/fma.inc"
};

/* The probe buffer (runtime/probe/fma.comp's std430 block): din[3] at 0,
 * dout at 24, fin[3] at 32, fout at 44. */
typedef struct fma_io {
    double din[3], dout;
    float fin[3], fout;
} fma_io;

wl_rt_status wl_rt_probe_fma(wl_rt *rt)
{
    if (!rt)
        return WL_RT_ERR_USAGE;
    wl_host_profile *p = &rt->profile;
    if (p->fma_probed)
        return WL_RT_OK;
    if (!p->shader_float64) {
        p->fma_probed = 1; /* no doubles: nothing to probe in them; float fma unknown, taken as unfused */
        return WL_RT_OK;
    }
    fma_io io;
    memset(&io, 0, sizeof io);
    io.din[0] = 1.0 + 0x1p-30;
    io.din[1] = 1.0 - 0x1p-30;
    io.din[2] = -1.0;
    io.fin[0] = 1.0f + 0x1p-13f;
    io.fin[1] = 1.0f - 0x1p-13f;
    io.fin[2] = -1.0f;
    io.dout = 1.0; /* neither answer */
    io.fout = 1.0f;
    wl_rt_buffer *buf = NULL;
    wl_rt_pipeline *pipe = NULL;
    wl_rt_pipeline_desc pd = {.words = probe_fma_words, .nwords = sizeof probe_fma_words / 4};
    wl_rt_status st = wl_rt_buffer_create(rt, sizeof io, &buf);
    if (!st)
        st = wl_rt_buffer_upload(rt, buf, 0, &io, sizeof io);
    if (!st)
        st = wl_rt_pipeline_create(rt, &pd, &pipe);
    if (!st) {
        wl_rt_dispatch_desc d = {.groups = {1, 1, 1}};
        d.bindings[3] = buf;
        st = wl_rt_dispatch(rt, pipe, &d, NULL);
    }
    if (!st)
        st = wl_rt_buffer_download(rt, buf, 0, &io, sizeof io);
    if (pipe)
        wl_rt_pipeline_destroy(rt, pipe);
    if (buf)
        wl_rt_buffer_destroy(rt, buf);
    if (st)
        return st;
    /* fused: the exact -2^-60 and -2^-26; unfused: 0 (a*b rounds to 1);
     * anything else is neither, and counts as not fused */
    p->fma_fused_f64 = io.dout == -0x1p-60;
    p->fma_fused_f32 = io.fout == -0x1p-26f;
    p->fma_probed = 1;
    if (!(p->fma_fused_f64 || io.dout == 0.0) || !(p->fma_fused_f32 || io.fout == 0.0f))
        return wl_rt_fail(rt, WL_RT_ERR_UNSUPPORTED, "fma probe: neither fused nor rounded (double %a, float %a)",
                          io.dout, (double)io.fout);
    return WL_RT_OK;
}

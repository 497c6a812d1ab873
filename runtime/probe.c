/* Probes of what the device's shaders do where Vulkan leaves it open
 * (wl_rt_probe_fma). */
#include "rt_internal.h"

#include <math.h>
#include <string.h>

static const uint32_t probe_fma_words[] = {
#include "probe/fma.inc"
};

#define PROBE_N 9 /* runtime/probe/fma.comp's N */

/* The probe buffer (fma.comp's std430 block). */
typedef struct fma_io {
    double din[3 * PROBE_N], dout[PROBE_N];
    float fin[3 * PROBE_N], fout[PROBE_N];
} fma_io;

/* Hard cases of each width: an unfused Fma (the product rounded), one that
 * flushes subnormal operands or results, or gets a zero's sign wrong,
 * fails at least one. The expected results are the host C library's
 * fma()/fmaf(), correctly rounded (C99 F.10.10.1). The float results are
 * also held against a flushing Fma's (ftz_fmaf): operands and rounded
 * results that are subnormal become zeros of their sign, a result that
 * rounds up to the least normal (the last case) is kept. */
static void fill(fma_io *io)
{
    static const double d[PROBE_N][3] = {
        {1.0 + 0x1p-30, 1.0 - 0x1p-30, -1.0},           /* cancellation: -2^-60 fused, 0 rounded */
        {0x1p-1060, 0x1p1000, 0x1p-61},                  /* a subnormal operand */
        {0x1p-540, 0x1p-540, 0.0},                       /* a subnormal result (2^-1080) */
        {0x1p-540, -0x1p-540, 0x1p-1070},                /* a subnormal sum */
        {1.0, -0.0, -0.0},                               /* -0 */
        {-1.0, 0.0, 0.0},                                /* +0 (RNE) */
        {1.0 + 0x1p-52, 1.0 + 0x1p-52, -(1.0 + 0x1p-51)}, /* the product's rounding error: 2^-104 */
        {0x1.fffffffffffffp+1023, 2.0, -0x1.fffffffffffffp+1023}, /* a product past the range, sum finite */
        {0x1p-511, 0x1.fffffffffffffp-512, 0.0}, /* 2^-1022 - 2^-1075: rounds up to the least normal */
    };
    static const float f[PROBE_N][3] = {
        {1.0f + 0x1p-13f, 1.0f - 0x1p-13f, -1.0f},
        {0x1p-140f, 0x1p100f, 0x1p-41f},
        {0x1p-70f, 0x1p-70f, 0.0f},
        {0x1p-70f, -0x1p-70f, 0x1p-148f},
        {1.0f, -0.0f, -0.0f},
        {-1.0f, 0.0f, 0.0f},
        {1.0f + 0x1p-23f, 1.0f + 0x1p-23f, -(1.0f + 0x1p-22f)},
        {0x1.fffffep+127f, 2.0f, -0x1.fffffep+127f},
        {0x1p-62f, 0x1.fffffep-65f, 0.0f}, /* 2^-126 - 2^-150: rounds up to the least normal */
    };
    for (int i = 0; i < PROBE_N; i++)
        for (int j = 0; j < 3; j++) {
            io->din[3 * i + j] = d[i][j];
            io->fin[3 * i + j] = f[i][j];
        }
    for (int i = 0; i < PROBE_N; i++) {
        io->dout[i] = 12345.0; /* no case's answer */
        io->fout[i] = 12345.0f;
    }
}

static float ftz(float x)
{
    return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
}

static float ftz_fmaf(float a, float b, float c)
{
    return ftz(fmaf(ftz(a), ftz(b), ftz(c)));
}

wl_rt_status wl_rt_probe_fma(wl_rt *rt)
{
    if (!rt)
        return WL_RT_ERR_USAGE;
    wl_host_profile *p = &rt->profile;
    if (p->fma_probed)
        return WL_RT_OK;
    if (!p->shader_float64) {
        p->fma_probed = 1; /* the probe uses doubles: both taken as not exact */
        return WL_RT_OK;
    }
    fma_io io;
    memset(&io, 0, sizeof io);
    fill(&io);
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
    unsigned miss64 = 0, miss32 = 0, miss_ftz = 0;
    for (int i = 0; i < PROBE_N; i++) {
        double wd = fma(io.din[3 * i], io.din[3 * i + 1], io.din[3 * i + 2]);
        float wf = fmaf(io.fin[3 * i], io.fin[3 * i + 1], io.fin[3 * i + 2]);
        float wz = ftz_fmaf(io.fin[3 * i], io.fin[3 * i + 1], io.fin[3 * i + 2]);
        miss64 |= (unsigned)(memcmp(&wd, &io.dout[i], sizeof wd) != 0) << i;
        miss32 |= (unsigned)(memcmp(&wf, &io.fout[i], sizeof wf) != 0) << i;
        miss_ftz |= (unsigned)(memcmp(&wz, &io.fout[i], sizeof wz) != 0) << i;
    }
    p->fma_fused_f64 = !miss64;
    p->fma_fused_f32 = !miss32;
    p->fma_ftz_f32 = !miss32 || !miss_ftz; /* an exact Fma serves a flushing program too */
    /* fused and correctly rounded on the cases whose operands and result
     * are normal: the cancellation, the product's rounding error, the
     * product past the range (0, 6, 7) */
    p->fma_normal_f32 = !(miss32 & 0xc1u);
    p->fma_missed_f64 = miss64;
    p->fma_missed_f32 = miss32;
    p->fma_missed_ftz_f32 = miss_ftz;
    p->fma_probed = 1;
    return WL_RT_OK;
}

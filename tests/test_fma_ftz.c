/* WL_FMA_F32_FTZ (include/wavelift/backend.h): a host whose float Fma is
 * exact but flushes subnormal operands and results (NVIDIA's, measured by
 * wl_rt_probe_fma) gets its Fma for a program's v_fma_f32 only where the
 * program's float mode flushes f32 subnormals in and out and every f32
 * fma is a whole instruction (no omod, no clamp, no division sequence with
 * denormals switched on), the lifter's !wl.fma_f32_ftz; else the exact
 * routine. Checked on the SPIR-V: GLSL.std.450 Fma (instruction 50) of a
 * float type present or not, in both models. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "wavelift/translate.h"

/* OpExtInst ... Fma (GLSL.std.450 50) whose result type is a 32-bit float
 * or a vector of them */
static unsigned float_fmas(const uint32_t *w, size_t n)
{
    uint32_t f32 = 0, vec[8] = {0}, nv = 0, glsl = 0;
    unsigned count = 0;
    for (size_t i = 5; i < n;) {
        uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
        if (!len || i + len > n)
            break;
        if (op == 22 && len == 3 && w[i + 2] == 32) /* OpTypeFloat 32 */
            f32 = w[i + 1];
        if (op == 23 && len == 4 && w[i + 2] == f32 && nv < 8) /* OpTypeVector of it */
            vec[nv++] = w[i + 1];
        if (op == 11 && !memcmp(&w[i + 2], "GLSL", 4)) /* OpExtInstImport */
            glsl = w[i + 1];
        if (op == 12 && len >= 5 && w[i + 3] == glsl && w[i + 4] == 50) {
            int is_f = w[i + 1] == f32;
            for (uint32_t v = 0; v < nv; v++)
                is_f |= w[i + 1] == vec[v];
            count += (unsigned)is_f;
        }
        i += len;
    }
    return count;
}

static const char *const body =
    "v_lshlrev_b32 v0, 2, v0\n"
    "global_load_dword v1, v0, s[0:1]\n"
    "global_load_dword v2, v0, s[0:1] offset:256\n"
    "global_load_dword v3, v0, s[0:1] offset:512\n"
    "s_waitcnt vmcnt(0)\n"
    "%s\n"
    "global_store_dword v0, v1, s[0:1] offset:1024\n"
    "s_endpgm\n";

static void gating(void **state)
{
    (void)state;
    static const struct {
        const char *what, *inst;
        unsigned denorm32; /* MODE's f32 field: 0 flush in and out, 3 keep both */
        int fused;         /* WL_FMA_* given */
        int host_fma;      /* want the host's Fma */
    } cases[] = {
        {"flushing mode, f32-ftz host", "v_fma_f32 v1, v1, v2, v3", 0, WL_FMA_F32_FTZ, 1},
        {"flushing mode, fmac", "v_fmac_f32 v1, v2, v3", 0, WL_FMA_F32_FTZ, 1},
        {"denormals kept, f32-ftz host", "v_fma_f32 v1, v1, v2, v3", 3, WL_FMA_F32_FTZ, 0},
        {"inputs flushed, outputs kept", "v_fma_f32 v1, v1, v2, v3", 2, WL_FMA_F32_FTZ, 0},
        {"flushing mode, omod (the result scaled after)", "v_fma_f32 v1, v1, v2, v3 mul:2", 0, WL_FMA_F32_FTZ, 0},
        {"flushing mode, clamp", "v_fma_f32 v1, v1, v2, v3 clamp", 0, WL_FMA_F32_FTZ, 0},
        {"flushing mode, no f32-ftz host", "v_fma_f32 v1, v1, v2, v3", 0, 0, 0},
        {"denormals kept, an exact host", "v_fma_f32 v1, v1, v2, v3", 3, WL_FMA_F32, 1},
        {"flushing, then a mode write keeping them for one fma",
         "v_fma_f32 v1, v1, v2, v3\ns_denorm_mode 15\nv_fma_f32 v1, v1, v2, v3\ns_denorm_mode 0", 0, WL_FMA_F32_FTZ, 0},
    };
    int good = 0, n = (int)(sizeof cases / sizeof cases[0]);
    for (int i = 0; i < n; i++)
        for (int model = 0; model < 2; model++) {
            char text[1024];
            snprintf(text, sizeof text, body, cases[i].inst);
            size_t size = 0;
            char *msg = NULL;
            uint8_t *code = wlt_assemble(text, "gfx1030", 64, &size, &msg);
            if (!code)
                fail_msg("%s: %s", cases[i].what, msg ? msg : "does not assemble");
            wl_lift_program p;
            wlt_program64(&p, code, size, 2);
            p.float_mode_known = 1;
            p.float_denorm_mode_32 = cases[i].denorm32;
            p.float_denorm_mode_16_64 = 3;
            p.ieee_mode = 0; /* omod applies (with IEEE on and outputs flushed it is refused) */
            p.dx10_clamp = 1;
            wl_translate_options o;
            wlt_options64(&o, model, 32);
            o.fused_fma = cases[i].fused;
            uint32_t *w = NULL;
            size_t nw = 0;
            wl_translate_info info;
            char err[1024] = "";
            wl_status st = wl_translate(&p, &o, &w, &nw, &info, err, sizeof err);
            free(code);
            if (st != WL_OK)
                fail_msg("%s: %s", cases[i].what, err);
            unsigned fmas = float_fmas(w, nw);
            int ok = (fmas > 0) == cases[i].host_fma;
            printf("%-56s %s model: %u float Fma, %zu words%s\n", cases[i].what, model ? "wave" : "lanes", fmas, nw,
                   ok ? "" : "  WRONG");
            good += ok;
            free(w);
        }
    assert_int_equal(good, 2 * n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(gating)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* libFuzzer target for the whole translator (lift, lower, optimize, emit):
 * byte 0 picks the target and the wave size (as fuzz_lift), byte 1 the
 * model, the subgroup size, the optimization level and the sub-word store
 * path; the rest is a program. Whatever translates must give a module that
 * SPIRV-Tools accepts (the translator validates it itself: a refusal is an
 * error message, never a crash, a hang or a leak). */
#include "fuzz_program.h"
#include "wavelift/lift.h"
#include "wavelift/translate.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 6 || size > 2048)
        return 0;
    wl_lift_program p;
    wl_fuzz_program(&p, data, size, 2);
    static const unsigned sizes[] = {4, 8, 16, 32};
    wl_translate_options o;
    wl_translate_options_init(&o);
    o.model = (data[1] & 1) ? WL_MODEL_WAVE : WL_MODEL_LANES;
    o.subgroup_size = sizes[(data[1] >> 1) & 3];
    if (o.subgroup_size > p.wave_size)
        o.subgroup_size = p.wave_size;
    o.opt_level = (data[1] & 8) ? 2 : 0;
    o.force_merge_stores = (data[1] >> 4) & 1;
    o.validate = 1;
    o.local_size[0] = (data[1] & 0x20) ? 2 * p.wave_size : p.wave_size;
    uint32_t *words = NULL;
    size_t n = 0;
    wl_translate_info info;
    char err[512];
    if (wl_translate(&p, &o, &words, &n, &info, err, sizeof err) == WL_OK && (!words || !n))
        abort(); /* success without a module */
    free(words);
    return 0;
}

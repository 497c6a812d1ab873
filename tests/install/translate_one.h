/* One kernel of a code object translated through the public API (at
 * subgroup 32, -O2, validated): the programs that stand where an
 * emulator would (tests/install/consumer.c, tests/selfcontained/
 * two_llvms.c). Returns 0 with *nwords, or 1 with the reason on stderr. */
#ifndef WL_TEST_TRANSLATE_ONE_H
#define WL_TEST_TRANSLATE_ONE_H

#include <stdio.h>
#include <stdlib.h>

#include <wavelift/codeobj.h>
#include <wavelift/lift.h>
#include <wavelift/translate.h>

static int translate_one(const char *path, const char *kernel, size_t *nwords)
{
    char err[512];
    wl_codeobj *co = NULL;
    if (wl_codeobj_load(path, &co, err, sizeof err) != WL_OK) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    const wl_kernel *k = wl_codeobj_find_kernel(co, kernel);
    wl_lift_program prog;
    if (!k || wl_lift_program_from_kernel(co, k, &prog, err, sizeof err) != WL_OK) {
        fprintf(stderr, "%s\n", k ? err : "no such kernel");
        wl_codeobj_free(co);
        return 1;
    }
    wl_translate_options opt = {.struct_size = sizeof(wl_translate_options), .subgroup_size = 32,
                                .local_size = {prog.wave_size, 1, 1},
                                .opt_level = 2,
                                .validate = 1};
    uint32_t *words = NULL;
    wl_status st = wl_translate(&prog, &opt, &words, nwords, NULL, err, sizeof err);
    if (st != WL_OK)
        fprintf(stderr, "%s\n", err);
    free(words);
    wl_codeobj_free(co);
    return st != WL_OK;
}

#endif

/* A program built against the installed package (tests/install/run.sh):
 * translates one kernel of a code object through the public API and says
 * how many words, and the library's version. */
#include <stdio.h>
#include <stdlib.h>

#include <wavelift.h>
#include <wavelift/codeobj.h>
#include <wavelift/lift.h>
#include <wavelift/translate.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: consumer CODE_OBJECT KERNEL\n");
        return 2;
    }
    char err[512];
    wl_codeobj *co = NULL;
    if (wl_codeobj_load(argv[1], &co, err, sizeof err) != WL_OK) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    const wl_kernel *k = wl_codeobj_find_kernel(co, argv[2]);
    wl_lift_program prog;
    if (!k || wl_lift_program_from_kernel(co, k, &prog, err, sizeof err) != WL_OK) {
        fprintf(stderr, "%s\n", k ? err : "no such kernel");
        wl_codeobj_free(co);
        return 1;
    }
    wl_translate_options opt = {.subgroup_size = 32,
                                .local_size = {prog.wave_size, 1, 1},
                                .opt_level = 2,
                                .validate = 1};
    uint32_t *words = NULL;
    size_t n = 0;
    wl_status st = wl_translate(&prog, &opt, &words, &n, NULL, err, sizeof err);
    if (st == WL_OK)
        printf("wavelift %s (header %s): %s: %zu words\n", wl_version(), WAVELIFT_VERSION_STRING, argv[2], n);
    else
        fprintf(stderr, "%s\n", err);
    free(words);
    wl_codeobj_free(co);
    return st == WL_OK ? 0 : 1;
}

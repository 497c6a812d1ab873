/* Opening a code object's kernel for lift and run, and the translate
 * entry points the CLI calls. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

int cli_open_kernel(const char *file, const char *name, wl_codeobj **co,
                    const wl_kernel **k)
{
    char err[512];
    *co = NULL;
    *k = NULL;
    wl_status st = wl_codeobj_load(file, co, err, sizeof(err));
    if (st != WL_OK) {
        fprintf(stderr, "wavelift: %s: %s\n", file, err);
        return EXIT_BAD_INPUT;
    }
    *k = wl_codeobj_find_kernel(*co, name);
    if (!*k) {
        fprintf(stderr, "wavelift: %s: no kernel named %s (kernels:", file, name);
        for (size_t i = 0; i < (*co)->nkernels; i++)
            fprintf(stderr, " %s", (*co)->kernels[i].name);
        fprintf(stderr, ")\n");
        wl_codeobj_free(*co);
        *co = NULL;
        return EXIT_BAD_INPUT;
    }
    if ((*co)->target < 0) {
        fprintf(stderr, "wavelift: %s: target %s is not a gfx10 target\n", file,
                (*co)->mach_name);
        wl_codeobj_free(*co);
        *co = NULL;
        return EXIT_BAD_INPUT;
    }
    return 0;
}

/* A program built against the installed package (tests/install/run.sh):
 * translates one kernel of a code object through the public API and says
 * how many words, and the library's version. */
#include <stdio.h>

#include <wavelift.h>

#include "translate_one.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: consumer CODE_OBJECT KERNEL\n");
        return 2;
    }
    unsigned major = 99, minor = 99, patch = 99;
    wl_version_numbers(&major, &minor, &patch);
    if (major != WL_VERSION_MAJOR || minor != WL_VERSION_MINOR || patch != WL_VERSION_PATCH) {
        fprintf(stderr, "the library is %u.%u.%u, its headers %d.%d.%d\n", major, minor, patch, WL_VERSION_MAJOR,
                WL_VERSION_MINOR, WL_VERSION_PATCH);
        return 1;
    }
    size_t n = 0;
    if (translate_one(argv[1], argv[2], &n))
        return 1;
    printf("wavelift %s (header %s): %s: %zu words\n", wl_version(), WAVELIFT_VERSION_STRING, argv[2], n);
    return 0;
}

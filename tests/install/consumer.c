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
    size_t n = 0;
    if (translate_one(argv[1], argv[2], &n))
        return 1;
    printf("wavelift %s (header %s): %s: %zu words\n", wl_version(), WAVELIFT_VERSION_STRING, argv[2], n);
    return 0;
}

/* Benchmark: decodes (and, separately, decodes and prints) the kernels of
 * code objects repeatedly, and prints instructions per second.
 *
 * usage: wl_bench_decode [--min-time SECONDS] FILE...
 *
 * Each kernel is swept at least 10 times and for at least --min-time
 * seconds (default 0.05) per mode; the figures count one sweep's
 * instructions once per repetition. */
#include "wavelift.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct totals {
    unsigned long long insts;  /* one sweep over every kernel */
    unsigned long long bytes;
    unsigned long long undecodable;
    unsigned long long reps_insts[2]; /* instructions processed: decode, decode+print */
    double seconds[2];
    size_t text_bytes;         /* printed text of one sweep */
} totals;

/* One sweep over [code, code+size): returns the instructions; counts the
 * undecodable ones and, when `print`, the printed bytes. */
static unsigned long long sweep(const wl_decoder *dec, const uint8_t *code, size_t size,
                                uint64_t base, int print, unsigned long long *bad,
                                size_t *text)
{
    unsigned long long n = 0;
    char buf[256];
    size_t pos = 0;
    while (pos < size) {
        wl_inst inst;
        wl_status st = wl_decode(dec, code + pos, size - pos, base + pos, &inst);
        if (st != WL_OK) {
            if (bad)
                (*bad)++;
            pos += 4;
        } else {
            if (print) {
                size_t len = wl_print(&inst, buf, sizeof(buf));
                if (text)
                    *text += len;
            }
            pos += inst.size;
        }
        n++;
    }
    return n;
}

static int bench_file(const char *path, double min_time, totals *t)
{
    wl_codeobj *co;
    char err[256];
    if (wl_codeobj_load(path, &co, err, sizeof(err)) != WL_OK) {
        fprintf(stderr, "wl_bench_decode: %s: %s\n", path, err);
        return -1;
    }
    for (size_t k = 0; k < co->nkernels; k++) {
        const wl_kernel *kn = &co->kernels[k];
        const uint8_t *code = wl_kernel_code(co, kn);
        wl_decoder dec;
        wl_decoder_init(&dec, co->target >= 0 ? (wl_target)co->target : WL_GFX1030,
                        !kn->launch.wave32);
        t->insts += sweep(&dec, code, kn->code_size, kn->code_address, 1, &t->undecodable,
                          &t->text_bytes);
        t->bytes += kn->code_size;
        for (int mode = 0; mode < 2; mode++) {
            double t0 = now(), t1;
            int reps = 0;
            do {
                t->reps_insts[mode] += sweep(&dec, code, kn->code_size, kn->code_address, mode,
                                             NULL, NULL);
                reps++;
                t1 = now();
            } while (t1 - t0 < min_time || reps < 10);
            t->seconds[mode] += t1 - t0;
        }
    }
    wl_codeobj_free(co);
    return 0;
}

int main(int argc, char **argv)
{
    double min_time = 0.05;
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "--min-time") == 0) {
        min_time = atof(argv[2]);
        first = 3;
    }
    if (first >= argc) {
        fprintf(stderr, "usage: wl_bench_decode [--min-time SECONDS] FILE...\n");
        return 2;
    }
    totals t;
    memset(&t, 0, sizeof(t));
    for (int i = first; i < argc; i++)
        if (bench_file(argv[i], min_time, &t) != 0)
            return 1;
    if (t.insts == 0) {
        fprintf(stderr, "wl_bench_decode: no kernels\n");
        return 1;
    }
    printf("%d files: %llu instructions (%llu bytes of code), %llu undecodable, "
           "%zu bytes of text\n", argc - first, t.insts, t.bytes, t.undecodable, t.text_bytes);
    printf("decode:         %.1f million instructions/s (%.0f ns each)\n",
           (double)t.reps_insts[0] / t.seconds[0] / 1e6,
           t.seconds[0] / (double)t.reps_insts[0] * 1e9);
    printf("decode + print: %.1f million instructions/s (%.0f ns each)\n",
           (double)t.reps_insts[1] / t.seconds[1] / 1e6,
           t.seconds[1] / (double)t.reps_insts[1] * 1e9);
    return 0;
}

/* Benchmark: decodes code objects' kernels repeatedly and prints
 * instructions per second. Usage: wl_bench_decode FILE... */
#include "wavelift.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: wl_bench_decode FILE...\n");
        return 2;
    }
    unsigned long long insts = 0, bytes = 0, errors = 0;
    double t_decode = 0;
    for (int i = 1; i < argc; i++) {
        wl_codeobj *co;
        char err[256];
        if (wl_codeobj_load(argv[i], &co, err, sizeof(err)) != WL_OK) {
            fprintf(stderr, "wl_bench_decode: %s: %s\n", argv[i], err);
            return 1;
        }
        for (size_t k = 0; k < co->nkernels; k++) {
            const wl_kernel *kn = &co->kernels[k];
            const uint8_t *code = wl_kernel_code(co, kn);
            wl_decoder dec;
            wl_decoder_init(&dec, co->target >= 0 ? (wl_target)co->target : WL_GFX1030,
                            !kn->launch.wave32);
            double t0 = now();
            int reps = 0;
            do {
                size_t pos = 0;
                while (pos < kn->code_size) {
                    wl_inst inst;
                    if (wl_decode(&dec, code + pos, kn->code_size - pos, pos, &inst) != WL_OK)
                        errors++;
                    pos += inst.size ? inst.size : 4;
                    insts++;
                }
                bytes += kn->code_size;
                reps++;
            } while (now() - t0 < 0.05 || reps < 10);
            t_decode += now() - t0;
        }
        wl_codeobj_free(co);
    }
    printf("decoded %llu instructions (%llu bytes, %llu undecodable) in %.3f s: %.1f million instructions/s\n",
           insts, bytes, errors, t_decode, insts / t_decode / 1e6);
    return 0;
}

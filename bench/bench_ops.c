/* What one guest instruction costs in SPIR-V words (issue 17: the
 * emulated operations and their cost, docs/benchmarks.md).
 *
 *   wl_bench_ops [--llvm-mc PATH] [--fused-fma] [--spv OUT.spv INSTRUCTION WAVE]
 *
 * For each instruction of the table below: a program that loads its
 * operands from memory, applies the instruction N times in a chain (each
 * result the next one's first operand, so nothing folds or merges) and
 * stores the result, assembled by LLVM's assembler (llvm-mc) for gfx1030,
 * translated at -O2 with the checked mapping, lanes model at S = 32: wave64
 * (k = 2) and wave32 (k = 1). Printed: (words(N = 16) - words(N = 0)) / 16,
 * the words one more such instruction adds, against the same for v_add_f32.
 * --fused-fma translates as for a device whose Fma fuses (both widths);
 * --spv writes the module of one such instruction (wave 64 or 32) instead.
 * Exit 0 when every program translated. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wavelift/backend.h"
#include "wavelift/lift.h"
#include "wavelift/translate.h"

#ifndef WL_LLVM_MC
#define WL_LLVM_MC "llvm-mc-19"
#endif

typedef struct op {
    const char *what; /* what the translator does with it */
    const char *text; /* the instruction: v1 (32-bit) or v[4:5] (64-bit) is both result and first operand */
} op;

static const op ops[] = {
    {"native OpFAdd (the baseline)", "v_add_f32 v1, v1, v2"},
    {"native OpFMul", "v_mul_f32 v1, v1, v2"},
    {"native f64 OpFAdd", "v_add_f64 v[4:5], v[4:5], v[6:7]"},
    {"native f64 OpFMul", "v_mul_f64 v[4:5], v[4:5], v[6:7]"},
    {"exact fma through f64, called (outline_fma.c)", "v_fma_f32 v1, v1, v2, v3"},
    {"exact fma on the integer bits, called", "v_fma_f64 v[4:5], v[4:5], v[6:7], v[8:9]"},
    {"the f64 sum of the exact product, rounded to odd in f32 (lift_valu_scale.c)", "v_fma_f16 v1, v1, v2, v3"},
    {"two such f16 fma", "v_pk_fma_f16 v1, v1, v2, v3"},
    {"ISA pseudocode (lift_valu_div.c)", "v_div_fixup_f32 v1, v1, v2, v3"},
    {"ISA pseudocode", "v_div_fixup_f64 v[4:5], v[4:5], v[6:7], v[8:9]"},
    {"ISA pseudocode (an exact fma inside)", "v_div_fmas_f32 v1, v1, v2, v3"},
    {"ISA pseudocode (an exact fma inside)", "v_div_fmas_f64 v[4:5], v[4:5], v[6:7], v[8:9]"},
    {"exact ldexp (lift_valu_scale.c)", "v_ldexp_f32 v1, v1, v2"},
    {"exact ldexp", "v_ldexp_f64 v[4:5], v[4:5], v2"},
    {"exact frexp mantissa", "v_frexp_mant_f32 v1, v1"},
    {"log2 computed in f64 (lift_valu_transc.c)", "v_log_f32 v1, v1"},
    {"exp2 computed in f64", "v_exp_f32 v1, v1"},
    {"host reciprocal", "v_rcp_f32 v1, v1"},
    {"host inverse square root", "v_rsq_f32 v1, v1"},
    {"host square root", "v_sqrt_f32 v1, v1"},
    {"host f64 reciprocal", "v_rcp_f64 v[4:5], v[4:5]"},
    {"host f64 square root", "v_sqrt_f64 v[4:5], v[4:5]"},
    {"host sine of 2 pi x", "v_sin_f32 v1, v1"},
    {"the 2/pi table", "v_trig_preop_f64 v[4:5], v[4:5], v2"},
    {"32x32 high half", "v_mul_hi_u32 v1, v1, v2"},
    {"64-bit multiply-add of 32-bit operands", "v_mad_u64_u32 v[4:5], null, v1, v2, v[4:5]"},
    {"f32 to f16", "v_cvt_f16_f32 v1, v1"},
    {"f64 to f32", "v_cvt_f32_f64 v1, v[4:5]"},
    {"median of three", "v_med3_f32 v1, v1, v2, v3"},
    {"bit count", "v_bcnt_u32_b32 v1, v1, v2"},
};

enum { CHAIN = 16 };

/* the program: operands from the buffer at s[0:1] + 64 * lane, N chained
 * instructions, the results stored back */
static void program_text(char *buf, size_t cap, const char *inst, int n, unsigned wave)
{
    size_t o = (size_t)snprintf(buf, cap,
                                "v_lshlrev_b32 v0, 6, v0\n"
                                "global_load_dword v1, v0, s[0:1]\n"
                                "global_load_dword v2, v0, s[0:1] offset:4\n"
                                "global_load_dword v3, v0, s[0:1] offset:8\n"
                                "global_load_dwordx2 v[4:5], v0, s[0:1] offset:16\n"
                                "global_load_dwordx2 v[6:7], v0, s[0:1] offset:24\n"
                                "global_load_dwordx2 v[8:9], v0, s[0:1] offset:32\n"
                                "s_waitcnt vmcnt(0)\n");
    (void)wave;
    for (int i = 0; i < n && o < cap; i++)
        o += (size_t)snprintf(buf + o, cap - o, "%s\n", inst);
    if (o < cap)
        snprintf(buf + o, cap - o,
                 "global_store_dword v0, v1, s[0:1]\n"
                 "global_store_dwordx2 v0, v[4:5], s[0:1] offset:16\n"
                 "s_endpgm\n");
}

/* llvm-mc's .text bytes of `text`; NULL with a message on stderr */
static uint8_t *assemble(const char *mc, const char *text, unsigned wave, size_t *n)
{
    char dir[] = "/tmp/wl_bench_ops.XXXXXX";
    if (!mkdtemp(dir))
        return NULL;
    char path[256], cmd[1024];
    snprintf(path, sizeof path, "%s/p.s", dir);
    FILE *f = fopen(path, "w");
    uint8_t *bytes = NULL;
    if (f) {
        fputs(text, f);
        fclose(f);
        snprintf(cmd, sizeof cmd,
                 "'%s' -triple=amdgcn-amd-amdhsa -mcpu=gfx1030 -mattr=%cwavefrontsize64 -filetype=obj -o '%s/p.o' "
                 "'%s' 2>'%s/mc.err' && llvm-objcopy-19 -O binary --only-section=.text '%s/p.o' '%s/p.bin'",
                 mc, wave == 64 ? '+' : '-', dir, path, dir, dir, dir);
        if (system(cmd) == 0) {
            snprintf(path, sizeof path, "%s/p.bin", dir);
            FILE *b = fopen(path, "rb");
            if (b) {
                bytes = malloc(1 << 16);
                *n = bytes ? fread(bytes, 1, 1 << 16, b) : 0;
                fclose(b);
            }
        }
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "wl_bench_ops: could not remove %s\n", dir);
    return bytes;
}

/* the module's words, or 0 with the reason in err; written to `out` where not NULL */
static size_t words_of(const char *mc, const char *inst, int n, unsigned wave, int fused, char *err, size_t cap,
                       const char *out)
{
    char text[8192];
    program_text(text, sizeof text, inst, n, wave);
    size_t nb = 0;
    uint8_t *code = assemble(mc, text, wave, &nb);
    if (!code) {
        snprintf(err, cap, "llvm-mc failed");
        return 0;
    }
    /* s[0:1]: the buffer (two user SGPRs), v0: the lane */
    wl_lift_program p = {.code = code, .size = nb, .address = 0x1000, .target = WL_GFX1030, .wave_size = wave,
                         .user_sgpr_count = 2, .vgpr_workitem_ids = 1};
    wl_translate_options o = {.struct_size = sizeof(wl_translate_options), .subgroup_size = 32, .local_size = {wave, 1, 1}, .opt_level = 2,
                              .fused_fma = fused ? WL_FMA_F32 | WL_FMA_F64 : 0};
    uint32_t *w = NULL;
    size_t nw = 0;
    wl_translate_info info;
    wl_status st = wl_translate(&p, &o, &w, &nw, &info, err, cap);
    if (st == WL_OK && out) {
        FILE *f = fopen(out, "wb");
        if (!f || fwrite(w, 4, nw, f) != nw)
            fprintf(stderr, "wl_bench_ops: cannot write %s\n", out);
        if (f)
            fclose(f);
    }
    free(code);
    free(w);
    return st == WL_OK ? nw : 0;
}

int main(int argc, char **argv)
{
    const char *mc = WL_LLVM_MC;
    int fused = 0;
    const char *spv = NULL, *one = NULL;
    unsigned one_wave = 64;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--llvm-mc") && i + 1 < argc)
            mc = argv[++i];
        else if (!strcmp(argv[i], "--fused-fma"))
            fused = 1;
        else if (!strcmp(argv[i], "--spv") && i + 3 < argc) {
            spv = argv[++i];
            one = argv[++i];
            one_wave = (unsigned)atoi(argv[++i]);
        } else {
            fprintf(stderr, "usage: wl_bench_ops [--llvm-mc PATH] [--fused-fma] [--spv OUT.spv INSTRUCTION WAVE]\n");
            return 2;
        }
    }
    if (spv) { /* one program, one instruction, written out */
        char err[512];
        size_t w = words_of(mc, one, 1, one_wave == 32 ? 32 : 64, fused, err, sizeof err, spv);
        if (!w)
            fprintf(stderr, "wl_bench_ops: %s\n", err);
        else
            printf("%s: %zu words\n", spv, w);
        return w ? 0 : 1;
    }
    printf("words one more guest instruction adds (a chain of %d, -O2, lanes model, S = 32%s)\n", CHAIN,
           fused ? ", the host's Fma fused" : "");
    printf("%-52s %8s %8s  %s\n", "instruction", "k = 2", "k = 1", "how");
    int bad = 0;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        double per[2];
        for (int wi = 0; wi < 2; wi++) {
            unsigned wave = wi ? 32 : 64;
            char err[512];
            size_t w0 = words_of(mc, ops[i].text, 0, wave, fused, err, sizeof err, NULL);
            size_t wn = w0 ? words_of(mc, ops[i].text, CHAIN, wave, fused, err, sizeof err, NULL) : 0;
            if (!w0 || !wn) {
                printf("%-52s wave%u: %s\n", ops[i].text, wave, err);
                bad++;
                per[wi] = -1;
                continue;
            }
            per[wi] = ((double)wn - (double)w0) / CHAIN;
        }
        printf("%-52s %8.1f %8.1f  %s\n", ops[i].text, per[0], per[1], ops[i].what);
    }
    return bad ? 1 : 0;
}

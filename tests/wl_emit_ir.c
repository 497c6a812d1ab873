/* wl_emit_ir: a lanes-model bundle's SPIR-V module emitted again from its
 * host-stage IR (docs/native.md, "Finding a device-only difference").
 *
 *   wl_emit_ir [--maximal-reconvergence] [--fused-fma BITS] BUNDLE_DIR [IR]
 *
 * Reads IR (default: the bundle's `host-ir` file; a .ll is parsed as
 * text), emits its `main` with the backend as the translation did
 * (validated, the bundle's host-local size, the Fma widths of its
 * `fused-fma` line unless --fused-fma says otherwise), writes the
 * bundle's `spirv` file and word count, and an IR given writes the
 * bundle's host IR too, so that wl_hostsim and wl_bundlerun run the same
 * program. So a value can be stored to a spare buffer at any
 * point of the IR (scripts/ir_probe.py) and compared between the device
 * and the simulator. Without IR and options the module written is the
 * bundle's own (hostsim/run.sh checks it byte for byte). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#include "bundle_manifest.h"
#include "wavelift/backend.h"

static int usage(void)
{
    fprintf(stderr, "usage: wl_emit_ir [--maximal-reconvergence] [--fused-fma BITS] BUNDLE_DIR [IR.ll|IR.bc]\n");
    return 2;
}

/* the manifest with its spirv line's word count set to nw */
static int set_words(const char *dir, size_t nw)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/manifest.txt", dir);
    size_t n = 0;
    uint8_t *text = bundle_read(dir, "manifest.txt", &n);
    if (!text)
        return 1;
    FILE *f = fopen(path, "wb");
    if (!f) {
        free(text);
        return 1;
    }
    const char *s = (const char *)text, *end = s + n;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t len = nl ? (size_t)(nl - s) + 1 : (size_t)(end - s);
        char file[256];
        if (len < 300 && sscanf(s, "spirv %255s", file) == 1 && !strncmp(s, "spirv ", 6))
            fprintf(f, "spirv %s %zu\n", file, nw);
        else
            fwrite(s, 1, len, f);
        s += len;
    }
    free(text);
    return fclose(f) != 0;
}

int main(int argc, char **argv)
{
    wl_emit_options o;
    memset(&o, 0, sizeof o);
    int a = 1;
    for (; a < argc && argv[a][0] == '-'; a++) {
        if (!strcmp(argv[a], "--maximal-reconvergence"))
            o.maximal_reconvergence = 1;
        else if (!strcmp(argv[a], "--fused-fma") && a + 1 < argc)
            o.fused_fma_native = (int)strtoul(argv[++a], NULL, 0);
        else
            return usage();
    }
    if (argc - a < 1 || argc - a > 2)
        return usage();
    int fused_given = o.fused_fma_native != 0;
    const char *dir = argv[a];
    char ir[1400], host_ir[1400], spv[1400], msg[1500];
    bundle *b = malloc(sizeof *b); /* large: not on the stack */
    if (!b)
        return 1;
    bundle_init(b, dir);
    int lb = bundle_load(b, msg, sizeof msg);
    if (lb || b->model != M_LANES || !b->local[0] || !b->host_ir[0]) {
        fprintf(stderr, "%s: %s\n", dir,
                lb ? msg : "needs a lanes-model bundle with host-local and host-ir lines");
        free(b);
        return 1;
    }
    for (int i = 0; i < 3; i++)
        o.local_size[i] = b->local[i];
    if (!fused_given) /* as lower/pipeline.c passes them */
        o.fused_fma_native = (int)(b->fused_fma & (WL_FMA_F32 | WL_FMA_F64 | WL_FMA_F32_NORMAL));
    snprintf(host_ir, sizeof host_ir, "%s/%s", dir, b->host_ir);
    snprintf(spv, sizeof spv, "%s/%s", dir, b->spirv);
    free(b);
    snprintf(ir, sizeof ir, "%s", argc - a == 2 ? argv[a + 1] : host_ir);
    o.entry = "main";
    o.validate = 1;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef mb = NULL;
    LLVMModuleRef m = NULL;
    char *e = NULL;
    size_t il = strlen(ir);
    int text = il > 3 && !strcmp(ir + il - 3, ".ll");
    int bad = LLVMCreateMemoryBufferWithContentsOfFile(ir, &mb, &e);
    if (!bad && text)
        bad = LLVMParseIRInContext(ctx, mb, &m, &e); /* takes mb */
    else if (!bad) {
        bad = LLVMParseBitcodeInContext2(ctx, mb, &m);
        LLVMDisposeMemoryBuffer(mb);
    }
    if (bad) {
        fprintf(stderr, "%s: %s\n", ir, e ? e : "not LLVM IR");
        LLVMDisposeMessage(e);
        LLVMContextDispose(ctx);
        return 1;
    }
    if (argc - a == 2 && LLVMWriteBitcodeToFile(m, host_ir)) { /* before the emission changes m */
        fprintf(stderr, "%s: cannot write\n", host_ir);
        LLVMContextDispose(ctx);
        return 1;
    }
    uint32_t *w = NULL;
    size_t nw = 0;
    wl_status st = wl_emit_spirv(m, &o, &w, &nw, NULL, msg, sizeof msg);
    LLVMContextDispose(ctx);
    if (st != WL_OK) {
        fprintf(stderr, "%s: %s\n", ir, msg);
        return 1;
    }
    FILE *f = fopen(spv, "wb");
    bad = !f || fwrite(w, 4, nw, f) != nw;
    if (f && fclose(f))
        bad = 1;
    free(w);
    if (bad || set_words(dir, nw)) {
        fprintf(stderr, "%s: cannot write the module or the manifest\n", dir);
        return 1;
    }
    printf("%s: %zu words\n", dir, nw);
    return 0;
}

/* wavelift: the command-line program.
 *
 *   wavelift dis  [--mcpu gfx1030] [--wave32|--wave64] [--kernel NAME]
 *                 [--asm-only] [--raw] FILE                      (cmd_dis.c)
 *   wavelift lift CODE_OBJECT --kernel NAME [...] -o OUT.spv     (cmd_lift.c)
 *   wavelift run  CODE_OBJECT --kernel NAME --global .. --local .. [...]
 *                                                                (cmd_run.c)
 *   wavelift replay CAPTURE [--model M] [--both] [...]           (cmd_replay.c)
 *
 * Exit status: 0 success, 1 bad input (a message says what and where),
 * 2 usage error, 3 (lift, run) the program or its result was refused by
 * name (an instruction not translated, an escape recorded at run time). */
#include "cli.h"
#include "replay.h"

#include "wavelift.h"

#include <stdio.h>
#include <string.h>

static const char usage_text[] =
    "usage: wavelift <command> [options] FILE\n"
    "\n"
    "commands:\n"
    "  dis      list a code object's kernels (or raw code) in LLVM's syntax\n"
    "  lift     translate a kernel to a Vulkan SPIR-V module (offline)\n"
    "  run      translate a kernel for the device and run it through Vulkan\n"
    "  replay   run a dispatch capture (docs/capture.md)\n"
    "\n"
    "dis options:\n"
    "  --mcpu NAME     target (gfx1010, gfx1011, gfx1012, gfx1013, gfx1030..gfx1036);\n"
    "                  default: the code object's, or gfx1030 for raw code\n"
    "  --wave32        decode for wave32\n"
    "  --wave64        decode for wave64 (default: the kernel's wave size;\n"
    "                  wave64 for raw code)\n"
    "  --kernel NAME   only this kernel\n"
    "  --asm-only      print only the instructions\n"
    "  --raw           FILE is raw code bytes, not an ELF code object\n"
    "\n"
    "lift CODE_OBJECT --kernel NAME -o OUT.spv [options]:\n"
    "  --subgroup-size S   host subgroup size 4, 8, 16, 32, 64 (default 8)\n"
    "  --local X[,Y[,Z]]   workgroup size (default: one wave)\n"
    "  -O0 | -O2           LLVM optimization after lowering (default -O2)\n"
    "  --vectorize         -O2, lanes model: the k lane clones as vector instructions (the default)\n"
    "  --no-vectorize      -O2, lanes model: every lane clone a scalar instruction\n"
    "  --emit-llvm         also write the lifted wave IR to OUT.ll\n"
    "  --emit-stages       also write the module after each stage: OUT.wave.ll,\n"
    "                      OUT.lowered.ll, OUT.host.ll\n"
    "  --no-fold-masked    -O2, lanes model: keep every write under EXEC as a select\n"
    "                      (by default one no lane reads where EXEC is off is the plain value)\n"
    "  --scratch WHERE     the private segment: auto (default: private arrays up\n"
    "                      to 1024 bytes an invocation: a lane's, or a wave's in\n"
    "                      the wave model; device memory beyond), private,\n"
    "                      device, device:BYTES (device memory beyond BYTES)\n"
    "\n"
    "run CODE_OBJECT --kernel NAME --global X[,Y[,Z]] --local X[,Y[,Z]] [options]:\n"
    "  --arg SPEC          the next kernel argument: u32:N i32:N u64:N i64:N f32:X\n"
    "                      f64:X buf:FILE (a buffer filled from FILE) zero:BYTES\n"
    "                      (a zeroed buffer) local:BYTES (dynamic LDS)\n"
    "  --out N:FILE        write buffer argument N (from 0) to FILE after the run\n"
    "  --device D          device index or name substring (default $WAVELIFT_DEVICE,\n"
    "                      else the first GPU, else lavapipe)\n"
    "  --subgroup-size S   require this subgroup size (default: the device's)\n"
    "  --runs N            run the dispatch N times (timing: the median)\n"
    "  --timeout-ms MS     how long a submission may take (default 60000)\n"
    "  -O0 | -O2           as for lift\n"
    "  --scratch WHERE     as for lift\n"
    "  --[no-]vectorize    as for lift\n"
    "  --bundle DIR        do not run: write the dispatch to DIR for wl_bundlerun\n"
    "                      (needs --subgroup-size; --out N:FILE then names the\n"
    "                      expected DIR/FILE; docs/bundle.md)\n"
    "  --merge-stores      with --bundle: for a device without 8/16-bit storage\n"
    "  --capture DIR       also write the dispatch as a capture to DIR\n"
    "  --pages             each buffer on pages of its own, through the page table\n"
    "\n"
    "replay CAPTURE [options]:\n"
    "  --model M           auto (default), lanes or wave\n"
    "  --both              run both models and compare every writable byte\n"
    "  --out-dir DIR       write each writable range to DIR/NAME.bin\n"
    "  --device D, --subgroup-size S, --timeout-ms MS, -O0 | -O2: as for run\n"
    "  --runs N            one dispatch for the results, N - 1 warm ones timed\n"
    "                      (default 3)\n"
    "  --mapping M         auto (default: the ranges at their guest addresses, one\n"
    "                      window or the page table), window, pages, or identity\n"
    "                      (host buffers, address fields rewritten; docs/capture.md)\n"
    "\n"
    "  --help          this text\n"
    "  --version       the version\n";

int main(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage_error("no command", NULL);
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("wavelift %s (LLVM %s)\n", wl_version(), wl_llvm_version());
        return 0;
    }
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } cmds[] = {{"dis", cmd_dis}, {"lift", cmd_lift}, {"run", cmd_run}, {"replay", cmd_replay}};
    for (size_t c = 0; c < sizeof(cmds) / sizeof(cmds[0]); c++) {
        if (strcmp(argv[1], cmds[c].name) != 0)
            continue;
        for (int i = 2; i < argc; i++)
            if (strcmp(argv[i], "--help") == 0) {
                fputs(usage_text, stdout);
                return 0;
            }
        return cmds[c].fn(argc - 2, argv + 2);
    }
    return cli_usage_error("unknown command", argv[1]);
}

/* Helpers shared by the tests: running the oracles (llvm-mc, llvm-objdump)
 * and reading files. */
#ifndef WL_TEST_SUPPORT_H
#define WL_TEST_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#include "wavelift/lift.h"
#include "wavelift/lower.h"
#include "wavelift/runtime.h"
#include "wavelift/translate.h"
#include "llvm-passes/pass.h"

/* lavapipe's Vulkan ICD (the CPU device the tests run on). */
#define WLT_LVP_ICD "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
/* For main() before the first Vulkan call: chooses lavapipe when no driver
 * was chosen (VK_ICD_FILENAMES, VK_DRIVER_FILES) and it is installed; with
 * no_opt also GALLIVM_PERF=no_opt unless set (lavapipe's own LLVM
 * optimization off: results stay exact, compiles are faster). */
void wlt_use_lavapipe(int no_opt);

/* Runs a shell command; returns its stdout as a malloc'ed NUL-terminated
 * string (NULL on failure to start). *status gets the exit status. */
char *wlt_run(const char *cmd, int *status);
/* Reads a whole file; NULL on failure. */
uint8_t *wlt_read_file(const char *path, size_t *size);
/* Writes a file; 0 on success. */
int wlt_write_file(const char *path, const void *data, size_t size);
/* A fresh temporary directory (mkdtemp) under $TMPDIR; caller frees. */
char *wlt_tmpdir(void);
/* The names of the files in dir that end in suffix, sorted (strcmp), so
 * that a test's order and report are the same on every machine; the array
 * and each name malloc'ed (wlt_free_names). NULL with *count 0 where dir
 * cannot be read. */
char **wlt_dir_names(const char *dir, const char *suffix, size_t *count);
void wlt_free_names(char **names, size_t count);
/* Collapses runs of white space to one space and trims both ends, in place. */
void wlt_squash(char *s);
/* Runs this program again (/proc/self/exe) with `args` and
 * LP_NATIVE_VECTOR_WIDTH=width (lavapipe's subgroup size is width / 32; it
 * reads the variable once, so each width needs its own process), prints
 * its output and returns its exit status (-1 when it could not run). */
int wlt_run_self_at_width(int width, const char *args);
/* One child `--child S` for each lavapipe subgroup size S of sizes (at
 * LP_NATIVE_VECTOR_WIDTH 32 * S); the number of children that failed. */
int wlt_run_children(const unsigned *sizes, size_t n);
/* Assembles gfx10 assembly text with llvm-mc-19 for `cpu` (e.g. "gfx1030")
 * and wave size 32 or 64 into an object and takes its .text with
 * llvm-objcopy-19 (so branches to labels are resolved, which
 * -show-encoding leaves as fixups). Returns the bytes (malloc'ed, *n of
 * them), or NULL with the tools' output in *msg (malloc'ed; when msg is
 * NULL the output is printed). */
uint8_t *wlt_assemble(const char *text, const char *cpu, unsigned wave, size_t *n, char **msg);

/* The hand-written wave64 test programs: gfx1030 code at 0x1000 with
 * `user_sgprs` user SGPRs and one work-item id VGPR (the rest zero), and
 * their translation at -O2, validated, one wave a group (the rest zero). */
void wlt_program64(wl_lift_program *p, const uint8_t *code, size_t size, unsigned user_sgprs);
void wlt_options64(wl_translate_options *o, int model, unsigned S);

/* Parses wave-IR text (docs/wave-ir.md) in a fresh LLVM context and
 * translates it with `o` (wl_translate_module): the SPIR-V words
 * (malloc'ed, *nw of them), or NULL with the reason in err ("parse: ..."
 * or the translator's message). info may be NULL; so may st, which gets
 * the status (WL_ERR_INVALID when the text does not parse). */
uint32_t *wlt_translate_text(const char *ir, const wl_translate_options *o, size_t *nw, wl_translate_info *info,
                             wl_status *st, char *err, size_t errcap);

/* Runs translated words on rt the way the LDS tests do: `groups`
 * workgroups (x), the pipeline at subgroup size S with full subgroups (S
 * 0: any, the wave model), user SGPRs 0-1 = buf's address (push
 * constants), a fresh status buffer and a device-memory LDS of
 * WL_LDS_SLICE_BYTES(lds_bytes) a group, filled with 0xdeadbeef (the
 * hardware's LDS starts undefined), bound. On WL_RT_OK *status is the
 * status buffer (the caller checks and destroys it); on failure the
 * runtime's status (wl_rt_error says why) and *status NULL. tm may be NULL;
 * info (may be NULL) gives the module's device segment (wlt_segment). */
wl_rt_status wlt_run_lds(wl_rt *rt, const uint32_t *words, size_t nw, const wl_translate_info *info, unsigned S,
                         unsigned groups, wl_rt_buffer *buf, uint32_t lds_bytes, wl_rt_buffer **status,
                         wl_rt_timing *tm);

/* The device (wl_rt_create) with a dispatch timeout of timeout_ms; fails
 * the running test with the runtime's message when there is none. */
wl_rt *wlt_rt(uint32_t timeout_ms);
/* A pipeline of words (entry "main") at subgroup size S with full
 * subgroups (S 0: any size, the wave model); fails the running test with
 * the runtime's message when it cannot be made. */
wl_rt_pipeline *wlt_pipeline(wl_rt *rt, const uint32_t *words, size_t nw, unsigned S);
/* Push constants with user SGPRs s[0:1] = s01 and s[2:3] = s23 and the
 * guest mapping of the one range {guest, size} onto mem's device address
 * (WL_PUSH_MAP_OFFSET); the rest zero. */
void wlt_push_mapped(uint8_t push[WL_PUSH_BYTES], uint64_t s01, uint64_t s23, uint64_t guest, uint64_t size,
                     wl_rt_buffer *mem);

/* The device segment of a translation (device-memory scratch, the wave
 * model's lane arrays past its private limit: info's
 * scratch_bytes_per_invocation) for a dispatch of `groups` host workgroups:
 * a buffer, its address and stride in push (WL_PUSH_BYTES); *seg stays
 * NULL where the module has none. 0, or -1 (the runtime's message). */
int wlt_segment(wl_rt *rt, const wl_translate_info *info, uint64_t groups, void *push, wl_rt_buffer **seg);

/* A growable NUL-terminated text (wave IR built in pieces): start it as
 * {0}, free(t.s) when done. */
typedef struct wlt_text {
    char *s;
    size_t n, cap;
} wlt_text;
/* Appends printf-formatted text of any length; fails the running cmocka
 * test on a format error or when out of memory. */
void wlt_textf(wlt_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Runs one project pass (llvm-passes/pass.h) on m outside the pipeline,
 * with no lowering options; a failure fails the test with its message. */
int wlt_run_pass(wl_pass_fn fn, LLVMModuleRef m, unsigned arg);

#endif

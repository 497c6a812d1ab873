/* The kernel suite's machinery, shared by tests/test_suite_run.c (the lanes
 * model at S = 4, 8, 16) and tests/test_wave_model.c (the wave model):
 * the `//! run` specs of tests/kernels/suite_*.cl, their generated inputs,
 * PoCL's reference outputs (tests/pocl/pocl_run.c), the `wavelift run`
 * command of one run, and the comparison of its outputs with PoCL's.
 *
 * Spec syntax, in the .cl file's comments:
 *   //! run KERNEL global=X[,Y[,Z]] local=X[,Y[,Z]] [tol=N]
 *   //! arg GEN:WORDS       a buffer of WORDS 32-bit words: iota, rand
 *                           (xorshift), small (rand % 256), randf (floats
 *                           in [-1, 1))
 *   //! arg SPEC            any other `wavelift run --arg` SPEC as is
 *   //! out N               compare buffer argument N
 * A spec with `tol=N` compares 32-bit floats within N ulps, NaN equal to
 * NaN. Any other `//! WORD ...` line is kept, as it is, in the spec's meta
 * lines for the test to read: those before a file's first `run` in every
 * spec of the file, the others in the spec they follow (tests/test_corpus.c:
 * source packages, build options, host references, skips). */
#ifndef WLT_SUITE_COMMON_H
#define WLT_SUITE_COMMON_H

#include <stddef.h>

#define WLT_MAX_SPECS 128
#define WLT_MAX_ARGS 16
#define WLT_MAX_META 12

typedef struct wlt_spec {
    char file[64]; /* suite_x.cl */
    char kernel[64];
    char global[32], local[32];
    unsigned tol;
    char arg[WLT_MAX_ARGS][64];
    unsigned nargs;
    unsigned out[WLT_MAX_ARGS];
    unsigned nouts;
    char meta[WLT_MAX_META][192]; /* the other `//! ` lines, without the `//! ` */
    unsigned nmeta;
    char src[600];  /* the OpenCL C source PoCL builds; "": dir/file */
    char opts[768]; /* build options beside -cl-std=CL2.0 (PoCL's; clang's are the caller's) */
} wlt_spec;

typedef struct wlt_suite {
    wlt_spec specs[WLT_MAX_SPECS];
    unsigned n, files;
    char dir[600];   /* tests/kernels */
    char codir[600]; /* the code objects FILE_STEM.wW.co: WL_KERNEL_DIR */
    char *tmp;       /* the work directory (wlt_tmpdir) */
} wlt_suite;

/* Allocates a suite with its work directory; NULL on failure. */
wlt_suite *wlt_suite_new(void);
/* Removes the work directory and frees the suite. */
void wlt_suite_free(wlt_suite *s);
/* cmocka fixtures (group or test): *state a new suite, freed after. */
int wlt_suite_setup(void **state);
int wlt_suite_teardown(void **state);
/* Reads every spec of tests/kernels/suite_*.cl (sorted by file name). */
void wlt_suite_load(wlt_suite *s);
/* Reads every spec of the files PREFIX*EXT of s->dir (sorted by name),
 * after those already read. */
void wlt_suite_load_files(wlt_suite *s, const char *prefix, const char *ext);
/* Writes spec si's inputs into the work directory and its `--arg ...`
 * options into args. */
void wlt_suite_args(wlt_suite *s, unsigned si, char *args, size_t cap);
/* Runs spec si on PoCL (reference outputs ref.<oi>, overwritten for each
 * spec). 0, or PoCL's exit status with its output printed. */
int wlt_suite_pocl(wlt_suite *s, unsigned si, const char *args);
/* Appends to cmd (at *len) the background shell command of run r of spec
 * si: `env wavelift run CO --kernel .. args extra --out ..` for the code
 * object of wave size `wave`, writing got.<r>.<oi>, stdout.<r>,
 * stderr.<r> and rc.<r> in the work directory. */
void wlt_suite_run_cmd(wlt_suite *s, unsigned si, unsigned r, unsigned wave, const char *env,
                       const char *extra, const char *args, char *cmd, size_t cap, size_t *len);

/* Appends to cmd (at *len) the background shell command of capture run r
 * of spec si: `env wavelift run CO ... --out .. --capture cap.<r>` (as
 * wlt_suite_run_cmd, the model as `run` chooses), then, where it exits 0,
 * `env wavelift replay cap.<r> --both --out-dir rep.<r> --runs 1` (the
 * lanes and the wave model, every writable byte compared), writing
 * rstdout.<r>, rstderr.<r> and rrc.<r> in the work directory. */
void wlt_suite_capture_cmd(wlt_suite *s, unsigned si, unsigned r, unsigned wave, const char *env,
                           const char *args, char *cmd, size_t cap, size_t *len);

/* Reads the replay of capture run r: WLT_RUN_MATCH where `replay --both`
 * exited 0 and said "same: " and each output buffer it wrote equals PoCL's
 * (within the spec's tol), WLT_RUN_REFUSED (exit 3), WLT_RUN_MISMATCH (a
 * difference between the models or from PoCL, printed), WLT_RUN_FAILED
 * (anything else, or no replay). *rc gets its exit status; out (if not
 * NULL) its stdout, malloc'ed. */
int wlt_suite_replay_result(wlt_suite *s, unsigned si, unsigned r, int *rc, char **out);

enum { WLT_RUN_MATCH, WLT_RUN_REFUSED, WLT_RUN_TRANSLATE_ERR, WLT_RUN_FAILED, WLT_RUN_MISMATCH };
/* Reads run r's exit status and outputs: WLT_RUN_REFUSED (exit 3, refused
 * by name), WLT_RUN_TRANSLATE_ERR (exit 1, "translation failed"),
 * WLT_RUN_FAILED (another non-zero exit), else WLT_RUN_MATCH or
 * WLT_RUN_MISMATCH against PoCL's outputs (the first difference printed).
 * *rc gets the exit status; err (if not NULL) the first line of stderr,
 * out (if not NULL) the stdout; both malloc'ed. */
int wlt_suite_result(wlt_suite *s, unsigned si, unsigned r, int *rc, char **err, char **out);

#endif

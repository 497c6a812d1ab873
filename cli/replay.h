/* Dispatch captures on the command line (docs/capture.md):
 * `wavelift run --capture DIR` writes one (capture_out.c), `wavelift
 * replay` runs one (cmd_replay.c), one model at a time (replay_run.c). */
#ifndef WL_CLI_REPLAY_H
#define WL_CLI_REPLAY_H

#include "launch.h"

#include "wavelift/capture.h"
#include "wavelift/runtime.h"

/* Writes the dispatch of launch L of program prog (workgroup size local)
 * as a capture in DIR; hsa (may be NULL): the kernel descriptor's user
 * SGPRs, stated as `launch amdhsa`. Returns 0 or an exit status (message
 * on stderr). */
int cli_capture_write(const char *dir, const wl_lift_program *prog, const cli_launch *L,
                      const uint32_t local[3], const char *source,
                      const wl_kernel_launch_info *hsa);

typedef enum replay_model {
    REPLAY_AUTO = -1,
    REPLAY_LANES = 0, /* k = W / S lanes an invocation (docs/lanes.md) */
    REPLAY_WAVE = 1   /* a whole wave an invocation, lane loops (D956) */
} replay_model;

const char *replay_model_name(replay_model m);

/* How the replay reaches the capture's ranges (docs/capture.md, "Guest
 * addresses"): through the guest mapping, the ranges at their guest
 * addresses (one window where they lie close together, else the page
 * table), or, asked for by name only, the identity mapping with the
 * address fields relocated. */
typedef enum replay_mapping {
    REPLAY_MAP_AUTO = -1, /* window where the ranges' pages follow each other and span at
                             most REPLAY_WINDOW_AUTO bytes, else pages */
    REPLAY_MAP_WINDOW = 0,
    REPLAY_MAP_PAGES = 1,
    REPLAY_MAP_IDENTITY = 2
} replay_mapping;
#define REPLAY_WINDOW_AUTO (256ull << 20)
#define REPLAY_WINDOW_MAX (4ull << 30)

const char *replay_mapping_name(replay_mapping m);

typedef struct replay_opts {
    unsigned subgroup; /* lanes model: S (0: the device's) */
    replay_mapping mapping;
    int opt_level;
    unsigned runs;     /* 1 first dispatch, then runs - 1 warm ones (timed only) */
    int state_in_buffer; /* --state-in-buffer */
} replay_opts;

/* One model's replay of a capture. */
typedef struct replay_result {
    replay_model model;
    unsigned subgroup, k;  /* the lanes model's S and k (0 in the wave model) */
    size_t words;          /* SPIR-V */
    double ms_translate, ms_pipeline;
    double ms_first_device, ms_first_host; /* the first dispatch (device: -1 without timestamps) */
    double ms_warm;        /* median device time of the warm runs, -1: none */
    uint32_t status[4];    /* the escape status words after the first dispatch */
    char escape[512];      /* status[0]: the escape named (wl_rt_escape_check), else "" */
    /* a store outside every range that the mapping let through (the bytes
     * between ranges in the window or in a range's pages): its guest
     * address (identity: host address), else outside_bytes 0 */
    uint64_t outside_address, outside_bytes;
    replay_mapping mapping; /* the one used */
    char mapping_desc[160];
    uint8_t **bytes;       /* per range: its bytes after the first dispatch, guest addresses back */
    size_t nranges;
} replay_result;

/* Runs the capture once on rt in `model` (not REPLAY_AUTO). Returns 0 (the
 * dispatch ran: look at res->status for an escape), EXIT_REFUSED (the
 * translator refused the program, or the model is not built: message on
 * stderr), or EXIT_BAD_INPUT. res is filled as far as it got; free it with
 * replay_result_free. */
int replay_run(wl_rt *rt, const wl_capture *c, replay_model model, const replay_opts *o,
               replay_result *res);
void replay_result_free(replay_result *res);

/* auto: cli_choose_model's rule (the lanes model where the host subgroup S,
 * the one asked for or the device's, carries the wave and the device can
 * require it; else the wave model); why gets the reason. */
replay_model replay_choose_model(const wl_host_profile *hp, unsigned wave, unsigned subgroup,
                                 char *why, size_t whycap);

#endif

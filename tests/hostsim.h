/* A CPU oracle for the lanes model at any host subgroup size: a module at
 * the translation's last IR stage ("host", wl_translate_options.stage_hook)
 * compiled by MCJIT for this machine and run invocation by invocation,
 * each on a stack of its own, the subgroup operations and barriers done by
 * a scheduler that holds every invocation of the subgroup (or work-group)
 * at the same call before it answers. It runs what only a GPU runs
 * otherwise: S = 32 (wave64 at k = 2, wave32 at k = 1) and S = 64 (wave64
 * at k = 1); lavapipe offers S = 4, 8 and 16.
 *
 * It also checks what a GPU would leave undefined: a subgroup operation
 * that the invocations of a subgroup reach at different calls (divergent
 * control flow), a shuffle, broadcast or read of an inactive or absent
 * invocation, a work-group barrier not reached by every invocation. Each
 * is an error naming the call. Between two such calls the invocations of
 * a subgroup run one after another, first to last, or last to first where
 * WLT_SIM_REVERSE is set: a work-group memory access that only the order
 * of the invocations orders then reads differently.
 *
 * Memory: guest memory through the module's own mapping (the push words:
 * the caller encodes host addresses as the device's), the module's own
 * buffers by binding as host memory, work-group memory one instance (the
 * groups run one after another), private variables one copy an invocation
 * (swapped at every switch). */
#ifndef WLT_HOSTSIM_H
#define WLT_HOSTSIM_H

#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Core.h>

typedef struct wlt_hostsim_launch {
    unsigned subgroup;   /* S: invocations a subgroup */
    unsigned local[3];   /* the work-group size (the module's LocalSize) */
    unsigned groups[3];  /* work-groups */
    uint8_t push[128];   /* @wl.push: the caller's block, sink included */
    void *binding[8];    /* the module's own buffers (@wl.status: 0, @wl.pagetable: 1, @wl.lds: 2, @wl.state: 3) */
    unsigned max_groups; /* 0: all; else stop after this many (a prefix of the grid) */
} wlt_hostsim_launch;

/* Runs module m (taken: disposed of here, with its context left to the
 * caller). 0, or -1 with the first error in err. */
int wlt_hostsim_run(LLVMModuleRef m, const wlt_hostsim_launch *L, char *err, size_t errcap);

#endif

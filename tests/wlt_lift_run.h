/* Assemble, lift and run one program on the reference executor
 * (wlt_wir_exec.h), for the tests that check lifted instructions by their
 * effect on guest memory (test_lift_fmt.c, test_lift_atomic.c). Include
 * after cmocka.h, support.h and wlt_wir_exec.h. */
#ifndef WLT_LIFT_RUN_H
#define WLT_LIFT_RUN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wavelift/lift.h"

/* The code llvm-mc-19 assembles `text` to (gfx1030, wave W; support.c's
 * wlt_assemble); *out malloc'd. */
static size_t wlt_lr_assemble(const char *text, unsigned W, uint8_t **out)
{
    size_t n = 0;
    char *msg = NULL;
    *out = wlt_assemble(text, "gfx1030", W, &n, &msg);
    if (!*out)
        fail_msg("llvm-mc failed:\n%s\n%s", text, msg ? msg : "");
    return n;
}

/* The program these tests lift: gfx1030, wave W, s[0:1] user SGPRs, v0 the
 * lane's x id. */
static void wlt_lr_program(wl_lift_program *p, const uint8_t *code, size_t size, unsigned W)
{
    memset(p, 0, sizeof *p);
    p->code = code;
    p->size = size;
    p->target = WL_GFX1030;
    p->wave_size = W;
    p->user_sgpr_count = 2;
    p->vgpr_workitem_ids = 1;
}

/* A state for W lanes: EXEC with holes (lanes 5, 17, 30, 41), s[0:1] the
 * guest memory's base, 512 bytes at `fill` set to 0xa5. */
static void wlt_lr_init(wlx_state *st, unsigned W, unsigned fill)
{
    memset(st, 0, sizeof *st);
    st->W = W;
    st->gbase = WLX_GBASE;
    st->exec = (W == 64 ? ~0ull : 0xffffffffull) & ~((1ull << 5) | (1ull << 17) | (1ull << 30) | (1ull << 41));
    st->user[0] = (uint32_t)WLX_GBASE;
    st->user[1] = (uint32_t)(WLX_GBASE >> 32);
    memset(st->g + fill, 0xa5, 64 * 8);
}

/* Differing bytes of the guest memory (the first six shown through
 * `show`), plus one for faults or escapes other than want's. */
__attribute__((unused)) static unsigned wlt_lr_diff(const wlx_state *st, const wlx_state *want,
                                                    const char *label, unsigned W,
                                                    void (*show)(const wlx_state *, const wlx_state *, unsigned, const char *, unsigned))
{
    unsigned bad = 0;
    for (unsigned a = 0; a < WLX_GSIZE; a++)
        if (st->g[a] != want->g[a] && bad++ < 6)
            show(st, want, a, label, W);
    if (st->faults || st->escapes != want->escapes) {
        print_message("  %s w%u: %u faults (%s), %u escapes (want %u)\n", label, W, st->faults, st->fault_msg,
                      st->escapes, want->escapes);
        bad++;
    }
    return bad;
}

/* Assembles `text` (gfx1030, wave W) and lifts it into *m in ctx; the
 * lift's status, its message in err */
__attribute__((unused)) static wl_status wlt_lr_lift(const char *text, unsigned W, LLVMContextRef ctx, LLVMModuleRef *m, char *err,
                             size_t errcap)
{
    uint8_t *code;
    size_t size = wlt_lr_assemble(text, W, &code);
    wl_lift_program p;
    wlt_lr_program(&p, code, size, W);
    *m = NULL;
    err[0] = 0;
    wl_status s = wl_lift(ctx, &p, m, err, errcap);
    free(code);
    return s;
}

/* The same, keeping nothing but the status and the message (the refusal
 * tests). */
__attribute__((unused)) static wl_status wlt_lr_lift_status(const char *text, unsigned W, char *err, size_t errcap)
{
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m;
    wl_status s = wlt_lr_lift(text, W, ctx, &m, err, errcap);
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    return s;
}

/* Assembles `text` (gfx1030, wave W), lifts, verifies and runs it on *st
 * (user SGPRs s[0:1] = st->user[0..1]: the guest memory's base). */
__attribute__((unused)) static void wlt_lr_lift_run(const char *text, unsigned W, wlx_state *st, const char *label)
{
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m;
    char err[1024];
    if (wlt_lr_lift(text, W, ctx, &m, err, sizeof err) != WL_OK)
        fail_msg("%s w%u: lift: %s", label, W, err);
    if (wl_wir_verify(m, err, sizeof err) != WL_OK)
        fail_msg("%s w%u: verify: %s", label, W, err);
    if (wlx_run(m, st, err, sizeof err) != 0)
        fail_msg("%s w%u: run: %s", label, W, err);
    LLVMContextDispose(ctx);
}

#endif

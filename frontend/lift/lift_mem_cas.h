/* Atomics lifted as compare-and-swap loops (lift_mem_cas.c). */
#ifndef WL_LIFT_MEM_CAS_H
#define WL_LIFT_MEM_CAS_H

#include "lift_mem_internal.h"

typedef enum wl_cas_kind {
    WL_CAS_FCMPSWAP, /* data: the new value (src), cmp: the compare value; 32 or 64 bits */
    WL_CAS_CSUB      /* data: the value subtracted; 32 bits; cmp unused */
} wl_cas_kind;

/* The operation of a FLAT/MUBUF atomic by its mnemonic's suffix ("add",
 * "cmpswap_x2", "fcmpswap", "csub"): *bits 32 or 64, and either *at (a
 * wl.atomic operation, *loop 0) or *loop (1: WL_CAS_FCMPSWAP + 1, 2:
 * WL_CAS_CSUB + 1); false where it is not lifted (fadd, unknown). */
bool wl_lm_atomic_op(const char *suffix, unsigned *bits, wl_atop *at, int *loop);

/* The atomic at addr (space sp, iN values) for the lanes where `active`
 * holds; vdst >= 0: VGPR vdst (and vdst + 1 for 64 bits) takes the old
 * value in those lanes. Leaves the builder after the loop. */
void wl_lm_cas_loop(wl_lifter *L, wl_cas_kind kind, wl_space sp, unsigned bits, LLVMValueRef addr,
                    LLVMValueRef data, LLVMValueRef cmp, LLVMValueRef active, int vdst);

#endif

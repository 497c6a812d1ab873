/* lower/scalar_mem.c: scalar stores and scalar atomics of the wave IR
 * (@wl.sstore.b32, @wl.satomic.*; docs/wave-ir.md), for both models. */
#ifndef WL_SCALAR_MEM_H
#define WL_SCALAR_MEM_H

#include "context.h"

/* Replaces the wave IR call `call` named `name` (len bytes) when it is a
 * scalar store or atomic, and returns WL_OK (or an error); returns
 * WL_ERR_NOT_FOUND for any other name. Requires the memory helpers to be
 * linked (wl_lc_link_helpers) and L->p to hold the value the helpers take
 * as the escape's lane.
 *
 *   whole_wave = 0 (the lanes model): the wave is the host subgroup; the
 *     access is performed once, by the subgroup's elected invocation
 *     (spv.subgroup.elect: the lowest active one), between two subgroup
 *     barriers (the wave's program order, D973), and an atomic's old value
 *     reaches every invocation by spv.subgroup.broadcast_first (the
 *     elected one is the first active one).
 *   whole_wave = 1 (the wave model): the invocation is the wave; the
 *     access is performed once, no subgroup operation is used.
 *
 * Either way the access goes through the guest mapping (an address outside
 * it is an escape, WL_ESC_ADDRESS) by memory.c's global helpers, and a
 * 64-bit atomic at an address 4- but not 8-byte aligned is an escape,
 * WL_ESC_UNALIGNED64 (status word 1, the guest offset, is 0), not done. */
wl_status wl_lc_lower_scalar_mem(wl_lower_ctx *L, LLVMValueRef call, const char *name, size_t len, int whole_wave);

#endif

/* lower/budget.c: the loop budget (D949, docs/escapes.md). */
#ifndef WL_LOWER_BUDGET_H
#define WL_LOWER_BUDGET_H

#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Types.h>

#include "wavelift/decode.h" /* wl_status */

/* Makes every backward edge of @wl.wave spend one from a per-invocation
 * budget: the push constant at WL_PUSH_LOOP_BUDGET_OFFSET, or
 * default_budget where it is 0. The edge taken with the budget spent
 * records WL_ESC_LOOP_BUDGET (the loop header's guest offset) and ends the
 * wave. *edges (may be NULL) gets the number of backward edges. */
wl_status wl_lower_loop_budget(LLVMModuleRef m, uint32_t default_budget, unsigned *edges, char *err,
                               size_t errcap);

#endif

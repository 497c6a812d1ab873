/* llvm-passes/merge_loads.c: adjacent dword loads of device memory as one vector
 * load, after the host passes (pipeline.c). */
#ifndef WL_LOWER_MERGE_LOADS_H
#define WL_LOWER_MERGE_LOADS_H

#include <llvm-c/Core.h>

/* Returns the vector loads made, or -1 when out of memory (the module is
 * then valid, with fewer merged). */
int wl_opt_merge_loads(LLVMModuleRef m);

/* fold_pair64.c: or (shl (zext hi), 32), (zext lo) as the bitcast of the
 * pair <lo, hi> (OpCompositeConstruct, OpBitcast). Returns the number
 * rewritten, -1 when out of memory. */
int wl_opt_fold_pair64(LLVMModuleRef m);

#endif

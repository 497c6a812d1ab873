/* llvm-passes/vectorize_lanes/vec_lanes.c: the k lane clones of the lanes model as one vector
 * instruction (wl_translate_options.vectorize; docs/backend.md "Vectors"). */
#ifndef WL_LOWER_VEC_LANES_H
#define WL_LOWER_VEC_LANES_H

#include <llvm-c/Core.h>

/* Rewrites the lowered module m (k lanes per invocation, subgroup size S)
 * in place: vectors of 2 lanes at k = 2, of 4 at k = 4, 8, 16; other k
 * leave it as it is. Returns the number of
 * tuples of clones made vectors, or -1 when out of memory (the module is
 * then valid but may be partly rewritten). */
int wl_opt_vectorize_lanes(LLVMModuleRef m, unsigned k, unsigned S);

#endif

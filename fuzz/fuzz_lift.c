/* libFuzzer target for the lifter: the first byte picks the target and the
 * wave size, the rest is a program. Whatever lifts must pass the wave-IR
 * verifier; nothing may crash, hang or leak. */
#include "fuzz_program.h"
#include "wavelift/lift.h"

#include <llvm-c/Core.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 5 || size > 4096)
        return 0;
    wl_lift_program p;
    wl_fuzz_program(&p, data, size, 1);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = NULL;
    char err[512];
    if (wl_lift(ctx, &p, &m, err, sizeof err) == WL_OK) {
        if (wl_wir_verify(m, err, sizeof err) != WL_OK)
            abort(); /* the lifter wrote IR that breaks its own contract */
        LLVMDisposeModule(m);
    }
    LLVMContextDispose(ctx);
    return 0;
}

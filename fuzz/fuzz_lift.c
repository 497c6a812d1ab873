/* libFuzzer target for the lifter: the first byte picks the target and the
 * wave size, the rest is a program. Whatever lifts must pass the wave-IR
 * verifier; nothing may crash, hang or leak. */
#include "wavelift/lift.h"

#include <llvm-c/Core.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 5 || size > 4096)
        return 0;
    wl_lift_program p;
    memset(&p, 0, sizeof p);
    p.target = (wl_target)(data[0] % WL_TARGET_COUNT);
    p.wave_size = (data[0] & 0x80) ? 64 : 32;
    p.code = data + 1;
    p.size = (size - 1) & ~(size_t)3;
    p.address = 0x1000;
    p.user_sgpr_count = 4;
    p.vgpr_workitem_ids = 3;
    p.lds_bytes = 4096;
    p.scratch_bytes = 256;
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

/* The fuzzers' guest program (fuzz_lift, fuzz_translate): byte 0 picks the
 * target and the wave size, the bytes from `skip` on are the code (whole
 * dwords), at 0x1000, with a fixed launch: 4 user SGPRs, three work-item
 * ids, 4 KiB of LDS and 256 bytes of scratch. */
#ifndef WL_FUZZ_PROGRAM_H
#define WL_FUZZ_PROGRAM_H

#include <string.h>

#include "wavelift/lift.h"

static inline void wl_fuzz_program(wl_lift_program *p, const uint8_t *data, size_t size, size_t skip)
{
    memset(p, 0, sizeof *p);
    p->target = (wl_target)(data[0] % WL_TARGET_COUNT);
    p->wave_size = (data[0] & 0x80) ? 64 : 32;
    p->code = data + skip;
    p->size = (size - skip) & ~(size_t)3;
    p->address = 0x1000;
    p->user_sgpr_count = 4;
    p->vgpr_workitem_ids = 3;
    p->lds_bytes = 4096;
    p->scratch_bytes = 256;
}

#endif

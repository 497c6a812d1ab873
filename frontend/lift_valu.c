/* Stub until the family is written: refuses every instruction by name. */
#include "lift_internal.h"

wl_status wl_lift_valu(wl_lifter *L, const wl_inst *in)
{
    (void)in;
    return wl_l_refuse(L, "not lifted yet");
}

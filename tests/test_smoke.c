/* Smoke test: the library links and reports its versions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "wavelift.h"

static void versions(void **state)
{
    (void)state;
    assert_string_equal(wl_version(), WAVELIFT_VERSION_STRING);
    assert_true(strncmp(wl_llvm_version(), "19.", 3) == 0);
    assert_int_equal(wl_target_from_name("gfx1030"), WL_GFX1030);
    assert_int_equal(wl_target_from_name("gfx9000"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(versions) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

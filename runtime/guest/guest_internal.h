/* What runtime/guest/'s sources share with the runtime (not installed). */
#ifndef WL_GUEST_INTERNAL_H
#define WL_GUEST_INTERNAL_H

#include <stddef.h>

/* Formats into a caller's error buffer (may be NULL / 0); status.c. */
void wl_rt_format_err(char *err, size_t errcap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif

/* What capture.c, capture_io.c (the reader) and capture_write.c (the writer) share. */
#ifndef WL_CAPTURE_INTERNAL_H
#define WL_CAPTURE_INTERNAL_H

#include "wavelift/capture.h"

/* FNV-1a, 64 bits: the hash the manifest records for each file. */
uint64_t wl_capture_fnv1a64(const uint8_t *p, uint64_t n);

/* 1 when every character of s is a letter, a digit, '_', '.' or '-'
 * (names of ranges and of the capture's files). */
int wl_capture_name_chars_ok(const char *s);

/* The AMDHSA launch items (manifest `launch amdhsa ITEM...`) in SGPR
 * order: item i's name and WL_CAPTURE_HSA_* bit, NULL past the last. */
const char *wl_capture_hsa_item_name(unsigned i, unsigned *bit);

/* Formats a message into err (when given) and returns st. */
wl_status wl_capture_fail(char *err, size_t errcap, wl_status st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif

/* The caller's wl_translate_options as this version's (lower/pipeline.c). */
#ifndef WL_LOWER_OPTIONS_H
#define WL_LOWER_OPTIONS_H

#include "wavelift/translate.h"

/* in as this version's options in *out: the fields its struct_size covers,
 * the rest zero (their defaults); 0 where in is NULL or its struct_size 0. */
int wl_translate_options_read(const wl_translate_options *in, wl_translate_options *out);

#endif

/* The helper libraries of the lanes model's memory (the .ll files of
 * lower/memory/helpers/), assembled by llvm-as-19 at build time and embedded as
 * bitcode by lower/memory/helpers/embed.cmake (docs/memory.md, "The helper IR"). */
#ifndef WL_LOWER_MEMORY_HELPERS_H
#define WL_LOWER_MEMORY_HELPERS_H

#include <stddef.h>

extern const unsigned char wl_helpers_map[], wl_helpers_global[], wl_helpers_tail[];
extern const size_t wl_helpers_map_size, wl_helpers_global_size, wl_helpers_tail_size;

#endif

/* WL_API marks the library's public functions: the only symbols the shared
 * library exports (it is built with -fvisibility=hidden; docs/architecture.md).
 * Everything else, the translator's internals, stays inside it. */
#ifndef WAVELIFT_API_H
#define WAVELIFT_API_H

#if defined(__GNUC__) || defined(__clang__)
#define WL_API __attribute__((visibility("default")))
#else
#define WL_API
#endif

#endif

/* A dispatch bundle's manifest (docs/bundle.md), read by
 * bench/wl_bundlerun.c and fuzzed by fuzz/fuzz_bundle.c. */
#ifndef WL_BENCH_BUNDLE_MANIFEST_H
#define WL_BENCH_BUNDLE_MANIFEST_H

#include <stdint.h>
#include <stdio.h>

#include "wavelift/runtime.h"

#define MAX_BUFS 96
#define MAX_RELS 512
#define MAX_CHECKS 32

enum { M_LANES, M_WAVE };

typedef struct bundle {
    char dir[1024], name[256];
    int model; /* M_LANES (also when the manifest has no `model` line) or M_WAVE */
    unsigned subgroup, merge_stores, tolerance, lane_loops, fused_fma;
    size_t words; /* from the manifest's spirv line */
    int statistics; /* --statistics: ask the driver for the pipeline's */
    double translate_ms; /* -1: not in the manifest */
    char spirv[256], push_file[256];
    uint32_t push_bytes, groups[3];
    uint32_t local[3]; /* `host-local X Y Z`: the module's LocalSize (the guest's over k), for wl_hostsim; 0: absent */
    char host_ir[256]; /* `host-ir FILE`: the module's host-stage IR (bitcode), for wl_hostsim; "" absent */
    unsigned nbuf;
    uint64_t size[MAX_BUFS];
    char file[MAX_BUFS][256]; /* "" : zeros */
    unsigned nrel;
    struct { int in; uint32_t offset; unsigned target; uint64_t addend; } rel[MAX_RELS];
    int binding[WL_RT_MAX_BINDINGS];
    unsigned ncheck;
    unsigned check_buf[MAX_CHECKS];
    char check_file[MAX_CHECKS][256];
    unsigned nsave; /* `save N FILE`: buffer N written to FILE after the first dispatch */
    unsigned save_buf[MAX_CHECKS];
    char save_file[MAX_CHECKS][256];
    /* format 2: the guest arena (one device buffer at guest address
     * arena_guest, mapped by the words at push byte arena_push) and each
     * buffer's place in it (UINT64_MAX: a buffer of its own) */
    uint64_t arena_guest, arena_bytes, place[MAX_BUFS];
    uint32_t arena_push;
    /* format 3: the arena mapped by the page table instead (`page-range
     * GUEST SIZE OFFSET`: guest pages onto the arena from OFFSET) */
    unsigned npr;
    wl_rt_mapping pr[MAX_BUFS];
} bundle;

/* b emptied, for the bundle in folder dir (its name: the last part) */
void bundle_init(bundle *b, const char *dir);

/* Reads the manifest from f (path: for the messages) into b, which
 * bundle_init made; 0, or -1 with a message in err. Every line is checked
 * against the limits above: buffers, relocations, places, bindings and
 * checks name buffers that exist and lie inside them. */
int bundle_parse(bundle *b, FILE *f, const char *path, char *err, size_t errcap);

/* The file NAME of folder dir (malloc'd, *n its bytes), NULL if unreadable. */
uint8_t *bundle_read(const char *dir, const char *name, size_t *n);

/* bundle_parse of b->dir's manifest.txt; 0 or -1 with a message in err. */
int bundle_load(bundle *b, char *err, size_t errcap);

/* 0: got holds want (32-bit floats within tol ulps, NaN equal to NaN, where
 * tol); else the first difference (buffer buf, its word) in msg. */
int bundle_compare(const uint8_t *want, size_t wn, const uint8_t *got, size_t gn, unsigned tol, unsigned buf,
                   char *msg, size_t cap);

/* Each buffer's initial file into bytes[i] (its full size), then every
 * relocation: the address addr[target] + addend at its offset in push or
 * in bytes[in]. 0, or -1 with a message. */
int bundle_fill(const bundle *b, uint8_t *const bytes[], const uint64_t addr[], uint8_t *push, char *msg,
                size_t cap);

/* check line c against got (the bytes of its buffer): 0 equal, 1 not (the
 * first difference in msg), -1 the expected file unreadable (msg) */
int bundle_check(const bundle *b, unsigned c, const uint8_t *got, char *msg, size_t cap);

/* save line c: bytes (its buffer's size) to its file. 0, or -1 with a
 * message */
int bundle_save(const bundle *b, unsigned c, const uint8_t *bytes, char *msg, size_t cap);

#endif

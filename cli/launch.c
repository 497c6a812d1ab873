/* The launch of one dispatch as data (launch.h): which buffers, their
 * initial bytes, the push constants, and where device addresses go.
 *
 * The kernarg segment, the dispatch packet and the user SGPRs are filled by
 * kernarg.c, which takes buffer addresses. To learn where those addresses
 * land without a second copy of its logic, they are filled twice, with two
 * sets of made-up addresses (FAKE(b) and FAKE(b) + 16 for buffer b); every
 * field that differs is a relocation: its first differing byte is where the
 * u64 begins, the value in the first fill names the buffer and the addend.
 * A field that differs but does not decode so is an error (an address used
 * in a way a relocation cannot express).
 *
 * With a loaded image (image.c) it is a buffer too, placed first in the
 * arena (at cli_image_base(), which the translation assumed); the packet's
 * kernel_object and the image's own R_AMDGPU_RELATIVE64 fields are
 * relocations into it. */
#include "launch.h"

#include "wavelift/image.h"

#include "wavelift/lower.h"   /* WL_LDS_SLICE_BYTES */
#include "wavelift/runtime.h" /* WL_RT_BINDING_LDS */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STATUS_BYTES 256
#define FAKE_BASE 0x5a0000000000ull
#define FAKE_DELTA 16u

static uint64_t fake(unsigned b, int second)
{
    return FAKE_BASE + ((uint64_t)(b + 1) << 32) + (second ? FAKE_DELTA : 0);
}

static uint64_t rd64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static int add_buffer(cli_launch *L, cli_buffer_role role, unsigned arg, uint64_t size)
{
    if (L->nbuf == CLI_LAUNCH_MAX_BUFFERS)
        return -1;
    if (size < 16)
        size = 16;
    size = (size + 15) & ~(uint64_t)15;
    cli_launch_buffer *b = &L->buf[L->nbuf];
    b->role = role;
    b->arg = arg;
    b->size = size;
    b->init = NULL;
    return (int)L->nbuf++;
}

/* Finds the relocations of region `in` from its two fills a and b (n
 * bytes), records them and zeroes their fields in a. */
static int find_relocs(cli_launch *L, int in, uint8_t *a, const uint8_t *b, size_t n, char *err,
                       size_t errcap)
{
    for (size_t p = 0; p < n; p++) {
        if (a[p] == b[p])
            continue;
        uint64_t v = p + 8 <= n ? rd64(a + p) : 0;
        uint64_t hi = v >> 32;
        unsigned t = (unsigned)(hi - (FAKE_BASE >> 32)) - 1;
        if (p + 8 > n || hi <= (FAKE_BASE >> 32) || t >= L->nbuf || rd64(b + p) != v + FAKE_DELTA ||
            (uint32_t)v > 0xffffffffu - FAKE_DELTA) {
            snprintf(err, errcap, "launch: %s byte %zu holds part of an address that is not a "
                                  "whole u64 (no relocation can express it)",
                     in < 0 ? "push constants" : "buffer", p);
            return -1;
        }
        if (L->nrel == CLI_LAUNCH_MAX_RELOCS) {
            snprintf(err, errcap, "launch: more than %d relocations", CLI_LAUNCH_MAX_RELOCS);
            return -1;
        }
        L->rel[L->nrel++] = (cli_reloc){in, (uint32_t)p, t, (uint32_t)v};
        memset(a + p, 0, 8);
        p += 7;
    }
    return 0;
}

/* Fills region bytes twice through kernarg.c (the caller's fill callback
 * with the address set `second`) and records its relocations. */
typedef int (*fill_fn)(const void *ctx, int second, uint8_t *out, char *err, size_t errcap);

static int fill_region(cli_launch *L, int in, size_t n, fill_fn fill, const void *ctx,
                       uint8_t **out, char *err, size_t errcap)
{
    uint8_t *a = calloc(1, n), *b = calloc(1, n);
    int rc = EXIT_BAD_INPUT;
    if (!a || !b)
        snprintf(err, errcap, "out of memory");
    else if ((rc = fill(ctx, 0, a, err, errcap)) == 0 && (rc = fill(ctx, 1, b, err, errcap)) == 0)
        rc = find_relocs(L, in, a, b, n, err, errcap) ? EXIT_BAD_INPUT : 0;
    free(b);
    if (rc) {
        free(a);
        return rc;
    }
    *out = a;
    return 0;
}

typedef struct fill_ctx {
    const cli_launch *L;
    const wl_kernel *k;
    const wl_hsa_arg *args;
    size_t nargs;
    const wl_hsa_geometry *g;
    const uint32_t *lds_off;
    uint32_t dynamic_lds, lds_bytes;
    int kernarg, packet, queue, image;
    size_t segsize;
} fill_ctx;

static wl_hsa_addresses fake_addresses(const fill_ctx *c, int second, uint64_t *argaddr)
{
    for (size_t i = 0; i < c->nargs; i++)
        argaddr[i] = c->L->arg_buf[i] >= 0 ? fake((unsigned)c->L->arg_buf[i], second) : 0;
    return (wl_hsa_addresses){
        .kernarg = fake((unsigned)c->kernarg, second),
        .dispatch_packet = fake((unsigned)c->packet, second),
        .queue = fake((unsigned)c->queue, second),
        .arg = argaddr,
    };
}

static int fill_kernarg(const void *ctx, int second, uint8_t *out, char *err, size_t errcap)
{
    const fill_ctx *c = ctx;
    uint64_t argaddr[CLI_LAUNCH_MAX_ARGS];
    wl_hsa_addresses ad = fake_addresses(c, second, argaddr);
    if (wl_hsa_fill_kernarg(c->k, c->args, c->nargs, &ad, c->lds_off, c->g, c->dynamic_lds, out,
                         c->segsize, err, errcap))
        return EXIT_REFUSED;
    return 0;
}

static int fill_packet(const void *ctx, int second, uint8_t *out, char *err, size_t errcap)
{
    (void)err, (void)errcap;
    const fill_ctx *c = ctx;
    wl_hsa_fill_dispatch_packet(c->k, c->g, fake((unsigned)c->kernarg, second), c->lds_bytes, out);
    if (c->image >= 0) {
        /* kernel_object: the descriptor in the loaded image */
        uint64_t ko = fake((unsigned)c->image, second) + c->k->kd_address;
        memcpy(out + 32, &ko, 8);
    }
    return 0;
}

static int fill_sgprs(const void *ctx, int second, uint8_t *out, char *err, size_t errcap)
{
    const fill_ctx *c = ctx;
    uint64_t argaddr[CLI_LAUNCH_MAX_ARGS];
    wl_hsa_addresses ad = fake_addresses(c, second, argaddr);
    uint32_t sg[WL_PUSH_USER_SGPRS];
    if (wl_hsa_user_sgprs(c->k, &ad, sg, err, errcap) < 0)
        return EXIT_REFUSED;
    memcpy(out, sg, sizeof(sg));
    return 0;
}

/* An image argument's buffer: its T# (written once the arena is laid out:
 * image_descriptors) and the file's rows at CLI_IMG_TEXELS, each
 * cli_img_row_bytes apart */
static uint8_t *image_bytes(const cli_img_arg *m, uint8_t *data, size_t n, const char *file, uint64_t *size,
                            char *err, size_t errcap)
{
    size_t row = (size_t)m->width * m->bpt;
    if (n != row * m->height) {
        snprintf(err, errcap, "%s: %zu bytes for an image of %u x %u texels of %u bytes (%zu)", file, n, m->width,
                 m->height, m->bpt, row * m->height);
        free(data);
        return NULL;
    }
    *size = CLI_IMG_TEXELS + (uint64_t)cli_img_row_bytes(m) * m->height;
    uint8_t *img = calloc(1, *size);
    if (img)
        for (uint32_t y = 0; y < m->height; y++)
            memcpy(img + CLI_IMG_TEXELS + (size_t)y * cli_img_row_bytes(m), data + y * row, row);
    else
        snprintf(err, errcap, "out of memory");
    free(data);
    return img;
}

static int arg_buffers(cli_launch *L, wl_hsa_arg *args, const cli_img_arg *imgs, size_t nargs, char *err,
                       size_t errcap)
{
    for (size_t i = 0; i < nargs; i++) {
        L->arg_buf[i] = -1;
        wl_hsa_arg *a = &args[i];
        if (a->kind != WL_HSA_ARG_BUF && a->kind != WL_HSA_ARG_ZERO)
            continue;
        uint8_t *data = NULL;
        if (a->kind == WL_HSA_ARG_BUF) {
            size_t n = 0;
            data = cli_read_file(a->file, &n);
            if (!data) {
                snprintf(err, errcap, "%s: cannot read", a->file);
                return EXIT_BAD_INPUT;
            }
            a->bytes = n;
            if (imgs && imgs[i].fmt && !(data = image_bytes(&imgs[i], data, n, a->file, &a->bytes, err, errcap)))
                return EXIT_BAD_INPUT;
        }
        int b = add_buffer(L, CLI_BUF_ARG, (unsigned)i, a->bytes);
        if (b < 0) {
            free(data);
            snprintf(err, errcap, "too many buffers");
            return EXIT_BAD_INPUT;
        }
        L->arg_buf[i] = b;
        if (data) {
            L->buf[b].init = calloc(1, L->buf[b].size);
            if (!L->buf[b].init) {
                free(data);
                snprintf(err, errcap, "out of memory");
                return EXIT_BAD_INPUT;
            }
            memcpy(L->buf[b].init, data, a->bytes);
            free(data);
        }
    }
    return 0;
}

/* The image's buffer, a copy of its bytes, and its relocations. */
static int image_buffer(cli_launch *L, const cli_image *img, char *err, size_t errcap)
{
    int b = add_buffer(L, CLI_BUF_IMAGE, 0, img->size);
    if (b < 0 || !(L->buf[b].init = calloc(1, L->buf[b].size))) {
        snprintf(err, errcap, b < 0 ? "too many buffers" : "out of memory");
        return EXIT_BAD_INPUT;
    }
    memcpy(L->buf[b].init, img->bytes, img->size);
    L->image = b;
    L->image_writable = img->writable;
    for (unsigned r = 0; r < img->nrel; r++) {
        if (L->nrel == CLI_LAUNCH_MAX_RELOCS) {
            snprintf(err, errcap, "launch: the code object has %u dynamic relocations: at most %d "
                                  "with the launch's own", img->nrel, CLI_LAUNCH_MAX_RELOCS);
            return EXIT_REFUSED;
        }
        L->rel[L->nrel++] = (cli_reloc){b, (uint32_t)img->rel_offset[r], (unsigned)b,
                                        img->rel_addend[r]};
    }
    return 0;
}

/* Each image argument's T# at the start of its buffer: a linear image at
 * the buffer's guest address + CLI_IMG_TEXELS (wl_tsharp_encode), and the
 * width in dword 10 */
static void image_descriptors(cli_launch *L, const cli_img_arg *imgs, size_t nargs)
{
    for (size_t i = 0; imgs && i < nargs; i++) {
        const cli_img_arg *m = &imgs[i];
        int b = L->arg_buf[i];
        if (!m->fmt || b < 0 || !L->buf[b].init || L->arena_off[b] == CLI_NOT_IN_ARENA)
            continue;
        wl_tsharp t;
        memset(&t, 0, sizeof t);
        t.base_address = L->guest_base + L->arena_off[b] + CLI_IMG_TEXELS;
        t.format = m->fmt;
        t.width = m->width;
        t.height = m->height;
        for (unsigned c = 0; c < 4; c++)
            t.dst_sel[c] = c < m->comps ? (uint8_t)(WL_SEL_X + c) : c == 3 ? WL_SEL_1 : WL_SEL_0;
        t.type = m->dims == 1 ? WL_IMG_1D : WL_IMG_2D;
        t.sw_mode = WL_SW_LINEAR;
        t.depth = 1;
        t.pitch = cli_img_row_bytes(m) / m->bpt;
        uint32_t w[11] = {0};
        wl_tsharp_encode(&t, w);
        /* after the T#, clang-19's OpenCL image object holds the width in
         * dword 10 (its nearest-sample code scales normalized coordinates
         * by it, docs/images.md); dwords 8, 9 stay 0 */
        w[10] = m->width;
        memcpy(L->buf[b].init, w, sizeof w);
    }
}

int cli_launch_build(const wl_kernel *k, wl_hsa_arg *args, const cli_img_arg *imgs, size_t nargs,
                     const wl_hsa_geometry *g,
                     uint32_t lds_bytes, uint32_t dynamic_lds, const uint32_t *lds_off,
                     const wl_translate_info *info, const cli_image *img, cli_launch *L,
                     char *err, size_t errcap)
{
    memset(L, 0, sizeof(*L));
    L->status = L->lds = L->image = -1;
    if (nargs > CLI_LAUNCH_MAX_ARGS) {
        snprintf(err, errcap, "more than %d arguments", CLI_LAUNCH_MAX_ARGS);
        return EXIT_USAGE;
    }
    int rc = arg_buffers(L, args, imgs, nargs, err, errcap);
    if (rc || (img && (rc = image_buffer(L, img, err, errcap))))
        return rc;
    uint64_t ngroups = 1;
    for (int d = 0; d < 3; d++) {
        L->groups[d] = g->global[d] / g->local[d];
        ngroups *= L->groups[d];
    }
    size_t segsize = k->kernarg_segment_size > k->kd.kernarg_size ? k->kernarg_segment_size
                                                                   : k->kd.kernarg_size;
    segsize = segsize < 16 ? 16 : segsize;
    fill_ctx c = {L, k, args, nargs, g, lds_off, dynamic_lds, lds_bytes, 0, 0, 0, L->image, segsize};
    c.kernarg = add_buffer(L, CLI_BUF_KERNARG, 0, segsize);
    c.packet = add_buffer(L, CLI_BUF_PACKET, 0, WL_HSA_DISPATCH_PACKET_BYTES);
    c.queue = add_buffer(L, CLI_BUF_QUEUE, 0, WL_HSA_QUEUE_BYTES);
    L->status = add_buffer(L, CLI_BUF_STATUS, 0, STATUS_BYTES);
    int scratch = -1;
    if (info->scratch_bytes_per_invocation) {
        uint64_t inv = (uint64_t)info->host_local_size[0] * info->host_local_size[1] *
                       info->host_local_size[2] * ngroups;
        scratch = add_buffer(L, CLI_BUF_SCRATCH, 0, inv * info->scratch_bytes_per_invocation);
    }
    if (info->bindings & (1u << WL_RT_BINDING_LDS)) {
        /* Device-memory LDS: one slice a workgroup (lower.h) */
        L->lds = add_buffer(L, CLI_BUF_LDS, 0, WL_LDS_SLICE_BYTES(lds_bytes) * ngroups);
    }
    /* (at most CLI_LAUNCH_MAX_ARGS argument buffers: these always fit) */

    uint8_t *sg = NULL, *queue = calloc(1, L->buf[c.queue].size);
    if (!queue) {
        snprintf(err, errcap, "out of memory");
        return EXIT_BAD_INPUT;
    }
    wl_hsa_fill_queue(queue);
    L->buf[c.queue].init = queue;
    if ((rc = fill_region(L, c.kernarg, segsize, fill_kernarg, &c, &L->buf[c.kernarg].init, err,
                          errcap)) ||
        (rc = fill_region(L, c.packet, WL_HSA_DISPATCH_PACKET_BYTES, fill_packet, &c,
                          &L->buf[c.packet].init, err, errcap)) ||
        (rc = fill_region(L, -1, WL_PUSH_USER_SGPRS * 4, fill_sgprs, &c, &sg, err, errcap)))
        return rc;
    /* the regions were filled at their exact sizes; the buffers are rounded up */
    for (int b = c.kernarg; b <= c.packet; b++) {
        size_t n = b == c.kernarg ? segsize : WL_HSA_DISPATCH_PACKET_BYTES;
        if (L->buf[b].size > n) {
            uint8_t *r = realloc(L->buf[b].init, L->buf[b].size);
            if (!r) {
                snprintf(err, errcap, "out of memory");
                return EXIT_BAD_INPUT;
            }
            memset(r + n, 0, L->buf[b].size - n);
            L->buf[b].init = r;
        }
    }
    memcpy(L->push, sg, WL_PUSH_USER_SGPRS * 4);
    free(sg);
    /* the guest arena: the image first, ending at CLI_GUEST_BASE (its base
     * aligned as its segments ask), then 256-byte aligned places from
     * CLI_GUEST_BASE on */
    L->guest_base = img ? cli_image_base(img) : CLI_GUEST_BASE;
    if (L->image >= 0) {
        L->arena_bytes = cli_image_span(img);
        L->arena_off[L->image] = 0;
    }
    for (unsigned b = 0; b < L->nbuf; b++) {
        cli_buffer_role r = L->buf[b].role;
        if (r == CLI_BUF_IMAGE)
            continue;
        L->arena_off[b] = CLI_NOT_IN_ARENA;
        if (r == CLI_BUF_ARG || r == CLI_BUF_KERNARG || r == CLI_BUF_PACKET || r == CLI_BUF_QUEUE) {
            L->arena_off[b] = L->arena_bytes;
            L->arena_bytes += (L->buf[b].size + 255) & ~(uint64_t)255;
        }
    }
    image_descriptors(L, imgs, nargs);
    if (scratch >= 0) {
        if (L->nrel == CLI_LAUNCH_MAX_RELOCS) {
            snprintf(err, errcap, "launch: too many relocations");
            return EXIT_BAD_INPUT;
        }
        L->rel[L->nrel++] = (cli_reloc){-1, WL_PUSH_SCRATCH_BASE_OFFSET, (unsigned)scratch, 0};
        uint32_t stride = info->scratch_bytes_per_invocation;
        memcpy(L->push + WL_PUSH_SCRATCH_STRIDE_OFFSET, &stride, 4);
    }
    return 0;
}

void cli_launch_free(cli_launch *L)
{
    for (unsigned b = 0; b < L->nbuf; b++) {
        free(L->buf[b].init);
        L->buf[b].init = NULL;
    }
    L->nbuf = 0;
}

/* wavelift/hsa.h: the launch of an OpenCL kernel as the ROCm runtime does it: the kernarg
 * segment (explicit arguments and the hidden ones the AMDHSA metadata
 * lists, code object v4 and v5), the dispatch packet, the queue's aperture
 * fields, and the initial user SGPRs as the kernel descriptor enables them.
 *
 * Guest addresses are the runtime's device addresses (the lowering reaches
 * guest memory by device address, identity mapped). */
#include "wavelift/hsa.h"

#include "ir/wave_ir.h" /* WL_APERTURE_*, WL_PRIVATE_VSHARP_* */

#include <stdio.h>
#include <string.h>

static void put16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

static int is_hidden(const wl_kernel_arg *a)
{
    return a->value_kind && strncmp(a->value_kind, "hidden_", 7) == 0;
}

static const char *kind_name(wl_hsa_arg_kind k)
{
    static const char *const n[] = {"u32", "i32", "u64", "i64", "f32", "f64",
                                    "buf", "zero", "local"};
    return n[k];
}

int wl_hsa_check_args(const wl_kernel *k, const wl_hsa_arg *args, size_t nargs,
                   char *err, size_t errcap)
{
    if (!k->has_metadata) {
        snprintf(err, errcap, "kernel %s has no metadata: its arguments are unknown", k->name);
        return -1;
    }
    size_t n = 0;
    for (size_t i = 0; i < k->nargs; i++) {
        const wl_kernel_arg *a = &k->args[i];
        if (is_hidden(a))
            continue;
        const char *vk = a->value_kind ? a->value_kind : "?";
        if (n >= nargs) {
            n++;
            continue;
        }
        const wl_hsa_arg *c = &args[n];
        int ok;
        if (strcmp(vk, "global_buffer") == 0)
            ok = c->kind == WL_HSA_ARG_BUF || c->kind == WL_HSA_ARG_ZERO;
        else if (strcmp(vk, "image") == 0) /* a pointer to its T# (the caller's buffer: docs/images.md) */
            ok = c->kind == WL_HSA_ARG_BUF && a->size == 8;
        else if (strcmp(vk, "dynamic_shared_pointer") == 0)
            ok = c->kind == WL_HSA_ARG_LOCAL;
        else if (strcmp(vk, "by_value") == 0)
            ok = c->kind <= WL_HSA_ARG_F64 && c->size == a->size;
        else {
            snprintf(err, errcap, "argument %zu of %s is a %s: not supported", n, k->name, vk);
            return -1;
        }
        if (!ok) {
            snprintf(err, errcap, "argument %zu of %s is %s of %u bytes%s%s; --arg gives %s",
                     n, k->name, vk, a->size, a->type_name ? " " : "",
                     a->type_name ? a->type_name : "", kind_name(c->kind));
            return -1;
        }
        n++;
    }
    if (n != nargs) {
        snprintf(err, errcap, "kernel %s takes %zu arguments, %zu given", k->name, n, nargs);
        return -1;
    }
    return 0;
}

uint32_t wl_hsa_dynamic_lds(const wl_kernel *k, const wl_hsa_arg *args, size_t nargs,
                         uint32_t *lds_off)
{
    uint32_t base = k->kd.group_segment_fixed_size;
    uint32_t pos = (base + 15u) & ~15u;
    for (size_t i = 0; i < nargs; i++) {
        lds_off[i] = 0;
        if (args[i].kind != WL_HSA_ARG_LOCAL)
            continue;
        lds_off[i] = pos;
        pos += (uint32_t)((args[i].bytes + 15u) & ~(uint64_t)15u);
    }
    return pos - base;
}

/* Hidden arguments that read as 0 here (no device queue, no multigrid,
 * no heap, no completion action, no hostcall buffer: clang -O0 declares it
 * for every kernel; a program that does use it reads and writes through
 * address 0, outside the mapping, and is refused by that escape). */
static const char *const zero_hidden[] = {
    "hidden_global_offset_x", "hidden_global_offset_y", "hidden_global_offset_z",
    "hidden_none", "hidden_default_queue", "hidden_completion_action",
    "hidden_multigrid_sync_arg", "hidden_heap_v1", "hidden_hostcall_buffer",
};

int wl_hsa_fill_kernarg(const wl_kernel *k, const wl_hsa_arg *args, size_t nargs,
                     const wl_hsa_addresses *addr, const uint32_t *lds_off,
                     const wl_hsa_geometry *g, uint32_t dynamic_lds,
                     uint8_t *seg, size_t segsize, char *err, size_t errcap)
{
    memset(seg, 0, segsize);
    size_t n = 0;
    for (size_t i = 0; i < k->nargs; i++) {
        const wl_kernel_arg *a = &k->args[i];
        const char *vk = a->value_kind ? a->value_kind : "?";
        if ((uint64_t)a->offset + a->size > segsize || a->size > 8) {
            snprintf(err, errcap, "argument %zu (%s) at %u+%u is outside the %zu-byte kernarg segment",
                     i, vk, a->offset, a->size, segsize);
            return -1;
        }
        uint8_t *p = seg + a->offset;
        if (!is_hidden(a)) {
            if (n >= nargs)
                return -1; /* wl_hsa_check_args first */
            const wl_hsa_arg *c = &args[n];
            if (c->kind == WL_HSA_ARG_BUF || c->kind == WL_HSA_ARG_ZERO)
                put64(p, addr->arg[n]);
            else if (c->kind == WL_HSA_ARG_LOCAL)
                put32(p, lds_off[n]);
            else
                memcpy(p, &c->bits, a->size);
            n++;
            continue;
        }
        const char *h = vk + 7;
        int dim = -1;
        size_t hl = strlen(h);
        if (hl > 2 && h[hl - 2] == '_' && h[hl - 1] >= 'x' && h[hl - 1] <= 'z')
            dim = h[hl - 1] - 'x';
        if (strncmp(h, "block_count_", 12) == 0 && dim >= 0)
            put32(p, g->global[dim] / g->local[dim]);
        else if (strncmp(h, "group_size_", 11) == 0 && dim >= 0)
            put16(p, (uint16_t)g->local[dim]);
        else if (strncmp(h, "remainder_", 10) == 0 && dim >= 0)
            put16(p, (uint16_t)(g->global[dim] % g->local[dim]));
        else if (strcmp(h, "grid_dims") == 0)
            put16(p, (uint16_t)g->dims);
        else if (strcmp(h, "dynamic_lds_size") == 0)
            put32(p, dynamic_lds);
        else if (strcmp(h, "private_base") == 0)
            put32(p, WL_APERTURE_PRIVATE_HI);
        else if (strcmp(h, "shared_base") == 0)
            put32(p, WL_APERTURE_SHARED_HI);
        else if (strcmp(h, "queue_ptr") == 0)
            put64(p, addr->queue);
        else {
            int zero = 0;
            for (size_t z = 0; z < sizeof(zero_hidden) / sizeof(zero_hidden[0]); z++)
                zero |= strcmp(vk, zero_hidden[z]) == 0;
            if (!zero) {
                /* hidden_printf_buffer and anything new. */
                snprintf(err, errcap, "kernel %s needs %s: not supported", k->name, vk);
                return -1;
            }
        }
    }
    return 0;
}

/* hsa_kernel_dispatch_packet_t:
 *   0 u16 header, 2 u16 setup (dimensions), 4 u16 workgroup_size_x, 6 y, 8 z,
 *  10 u16 reserved, 12 u32 grid_size_x, 16 y, 20 z, 24 u32 private_segment_size,
 *  28 u32 group_segment_size, 32 u64 kernel_object, 40 u64 kernarg_address,
 *  48 u64 reserved, 56 u64 completion_signal. */
void wl_hsa_fill_dispatch_packet(const wl_kernel *k, const wl_hsa_geometry *g,
                              uint64_t kernarg_addr, uint32_t group_bytes,
                              uint8_t pkt[WL_HSA_DISPATCH_PACKET_BYTES])
{
    memset(pkt, 0, WL_HSA_DISPATCH_PACKET_BYTES);
    put16(pkt + 0, 2 /* HSA_PACKET_TYPE_KERNEL_DISPATCH */);
    put16(pkt + 2, (uint16_t)g->dims);
    for (int d = 0; d < 3; d++) {
        put16(pkt + 4 + 2 * d, (uint16_t)g->local[d]);
        put32(pkt + 12 + 4 * d, g->global[d]);
    }
    put32(pkt + 24, k->kd.private_segment_fixed_size);
    put32(pkt + 28, group_bytes);
    put64(pkt + 32, k->kd_address);
    put64(pkt + 40, kernarg_addr);
}

/* amd_queue_t: group_segment_aperture_base_hi at 0x40, private at 0x44
 * (what code object v4 kernels read through the queue pointer). */
void wl_hsa_fill_queue(uint8_t q[WL_HSA_QUEUE_BYTES])
{
    memset(q, 0, WL_HSA_QUEUE_BYTES);
    put32(q + 0x40, WL_APERTURE_SHARED_HI);
    put32(q + 0x44, WL_APERTURE_PRIVATE_HI);
}

/* User SGPRs in the AMDHSA order: private segment buffer (4: the V#
 * WL_PRIVATE_VSHARP_W0..3 of wave_ir.h, swizzled, base[47:32] 0xffff; the
 * lowering places scratch itself), dispatch
 * ptr (2), queue ptr (2), kernarg segment ptr (2), dispatch id (2: 0), flat
 * scratch init (2: 0, scratch-relative), private segment size (1). */
int wl_hsa_user_sgprs(const wl_kernel *k, const wl_hsa_addresses *addr,
                   uint32_t sgpr[16], char *err, size_t errcap)
{
    const wl_kernel_launch_info *l = &k->launch;
    unsigned n = 0;
    memset(sgpr, 0, 16 * sizeof(uint32_t));
    if (l->kernarg_preload_length) {
        snprintf(err, errcap, "kernel %s preloads kernel arguments into SGPRs: not supported", k->name);
        return -1;
    }
#define PUT(v) do { if (n < 16) sgpr[n] = (uint32_t)(v); n++; } while (0)
    if (l->user_sgpr_private_segment_buffer) {
        /* the swizzled private V# the lifter recognizes (wave_ir.h): its
         * buffer accesses go to the lane's scratch, range-checked */
        PUT(WL_PRIVATE_VSHARP_W0);
        PUT(WL_PRIVATE_VSHARP_W1);
        PUT(WL_PRIVATE_VSHARP_W2);
        PUT(WL_PRIVATE_VSHARP_W3);
    }
    if (l->user_sgpr_dispatch_ptr) {
        PUT(addr->dispatch_packet);
        PUT(addr->dispatch_packet >> 32);
    }
    if (l->user_sgpr_queue_ptr) {
        PUT(addr->queue);
        PUT(addr->queue >> 32);
    }
    if (l->user_sgpr_kernarg_segment_ptr) {
        PUT(addr->kernarg);
        PUT(addr->kernarg >> 32);
    }
    if (l->user_sgpr_dispatch_id) {
        PUT(0);
        PUT(0);
    }
    if (l->user_sgpr_flat_scratch_init) {
        PUT(0);
        PUT(0);
    }
    if (l->user_sgpr_private_segment_size)
        PUT(k->kd.private_segment_fixed_size);
#undef PUT
    if (n > 16 || l->user_sgpr_count > 16) {
        snprintf(err, errcap, "kernel %s has %u user SGPRs: at most 16", k->name,
                 n > l->user_sgpr_count ? n : l->user_sgpr_count);
        return -1;
    }
    return (int)(n > l->user_sgpr_count ? n : l->user_sgpr_count);
}

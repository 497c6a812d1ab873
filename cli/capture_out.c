/* `wavelift run --capture DIR`: the dispatch a code-object launch makes
 * (launch.c's buffers, relocations and push constants) as a capture
 * (include/wavelift/capture.h, docs/capture.md).
 *
 * The guest memory is what the kernel reads and writes by address: the
 * code object's loaded image (read-only, or writable when a segment is:
 * it holds the code, so a replay's s_getpc reaches its copy of .rodata),
 * the argument buffers (writable), the kernarg segment, the dispatch
 * packet and the queue (read-only). The status words, scratch and
 * device-memory LDS are the translation's, not the guest's: the capture
 * keeps only the scratch and LDS sizes. Each range keeps the guest address
 * the run gives it (its place in the arena, launch.h), the launch's
 * relocations are filled with those, and each becomes an address field. */
#include "launch.h"

#include "wavelift/capture.h"

#include <stdio.h>
#include <string.h>

static uint64_t guest_of(const cli_launch *L, unsigned b)
{
    return L->guest_base + L->arena_off[b];
}

static int is_guest(const cli_launch *L, unsigned b)
{
    cli_buffer_role r = L->buf[b].role;
    return L->arena_off[b] != CLI_NOT_IN_ARENA &&
           (r == CLI_BUF_ARG || r == CLI_BUF_KERNARG || r == CLI_BUF_PACKET ||
            r == CLI_BUF_QUEUE || r == CLI_BUF_IMAGE);
}

static void range_name(const cli_launch_buffer *b, char *out, size_t cap)
{
    switch (b->role) {
    case CLI_BUF_ARG: snprintf(out, cap, "arg%u", b->arg); break;
    case CLI_BUF_KERNARG: snprintf(out, cap, "kernarg"); break;
    case CLI_BUF_PACKET: snprintf(out, cap, "packet"); break;
    case CLI_BUF_IMAGE: snprintf(out, cap, "image"); break;
    default: snprintf(out, cap, "queue"); break;
    }
}

/* The kernel descriptor's user SGPRs as the capture's launch convention,
 * where they take exactly the user SGPRs and their pointers lie in the
 * ranges (else none is stated: the fields say it all). */
static void state_launch(wl_capture *c, const wl_kernel_launch_info *k)
{
    if (!k)
        return;
    c->launch = WL_CAPTURE_LAUNCH_AMDHSA;
    c->launch_hsa = (k->user_sgpr_dispatch_ptr ? WL_CAPTURE_HSA_DISPATCH_PTR : 0) |
                    (k->user_sgpr_queue_ptr ? WL_CAPTURE_HSA_QUEUE_PTR : 0) |
                    (k->user_sgpr_kernarg_segment_ptr ? WL_CAPTURE_HSA_KERNARG_PTR : 0) |
                    (k->user_sgpr_dispatch_id ? WL_CAPTURE_HSA_DISPATCH_ID : 0) |
                    (k->user_sgpr_flat_scratch_init ? WL_CAPTURE_HSA_FLAT_SCRATCH_INIT : 0) |
                    (k->user_sgpr_private_segment_size ? WL_CAPTURE_HSA_PRIVATE_SEGMENT_SIZE : 0);
    if (wl_capture_launch_sgprs(c) != c->user_sgpr_count || wl_capture_check(c, NULL, 0) != WL_OK) {
        c->launch = WL_CAPTURE_LAUNCH_NONE;
        c->launch_hsa = 0;
    }
}

int cli_capture_write(const char *dir, const wl_lift_program *prog, const cli_launch *L,
                      const uint32_t local[3], const char *source,
                      const wl_kernel_launch_info *hsa)
{
    char err[1024];
    wl_capture *c = NULL;
    int rc = EXIT_BAD_INPUT;
    if (wl_capture_create(prog->target, prog->code, prog->size, prog->address, prog->entry, &c,
                          err, sizeof(err)) != WL_OK)
        goto out;
    c->wave_size = prog->wave_size;
    for (int d = 0; d < 3; d++) {
        c->local[d] = local[d] ? local[d] : 1;
        c->groups[d] = L->groups[d];
        c->enable_workgroup_id[d] = prog->enable_workgroup_id[d];
    }
    c->user_sgpr_count = prog->user_sgpr_count;
    if (c->user_sgpr_count > WL_CAPTURE_MAX_USER_SGPRS) {
        snprintf(err, sizeof(err), "%u user SGPRs", c->user_sgpr_count);
        goto out;
    }
    c->private_segment_buffer = prog->private_segment_buffer;
    c->enable_workgroup_info = prog->enable_workgroup_info;
    c->enable_scratch_wave_offset = prog->enable_private_segment_wave_offset;
    c->vgpr_workitem_ids = prog->vgpr_workitem_ids;
    c->lds_bytes = prog->lds_bytes;
    c->scratch_bytes = prog->scratch_bytes;
    c->float_mode_known = prog->float_mode_known;
    c->float_round_mode_32 = prog->float_round_mode_32;
    c->float_round_mode_16_64 = prog->float_round_mode_16_64;
    c->float_denorm_mode_32 = prog->float_denorm_mode_32;
    c->float_denorm_mode_16_64 = prog->float_denorm_mode_16_64;
    c->dx10_clamp = prog->dx10_clamp;
    c->ieee_mode = prog->ieee_mode;

    /* the user SGPRs and the ranges' bytes with guest addresses put in */
    uint8_t push[WL_PUSH_BYTES];
    memcpy(push, L->push, sizeof(push));
    int range_of[CLI_LAUNCH_MAX_BUFFERS];
    for (unsigned b = 0; b < L->nbuf; b++) {
        range_of[b] = -1;
        if (!is_guest(L, b))
            continue;
        char name[32];
        range_name(&L->buf[b], name, sizeof(name));
        int writable = L->buf[b].role == CLI_BUF_ARG ||
                       (L->buf[b].role == CLI_BUF_IMAGE && L->image_writable);
        if (wl_capture_add_range(c, name, guest_of(L, b), L->buf[b].init, L->buf[b].size,
                                 writable, err, sizeof(err)) != WL_OK)
            goto out;
        range_of[b] = (int)c->nranges - 1;
    }
    for (unsigned r = 0; r < L->nrel; r++) {
        const cli_reloc *rl = &L->rel[r];
        if (rl->in < 0 && rl->offset >= WL_PUSH_USER_SGPRS * 4)
            continue; /* the scratch base: the translation's, not the guest's */
        if (range_of[rl->target] < 0 || (rl->in >= 0 && range_of[rl->in] < 0)) {
            snprintf(err, sizeof(err), "launch relocation %u points at or sits in memory "
                                       "that is not the guest's", r);
            goto out;
        }
        uint64_t v = guest_of(L, rl->target) + rl->addend;
        if (rl->in < 0)
            memcpy(push + rl->offset, &v, 8);
        else
            memcpy(c->ranges[range_of[rl->in]].data + rl->offset, &v, 8);
        if (wl_capture_add_field(c, WL_CAPTURE_FIELD_U64,
                                 rl->in < 0 ? NULL : c->ranges[range_of[rl->in]].name, rl->offset,
                                 err, sizeof(err)) != WL_OK)
            goto out;
    }
    memcpy(c->user_sgpr, push, sizeof(c->user_sgpr));
    for (unsigned i = c->user_sgpr_count; i < WL_CAPTURE_MAX_USER_SGPRS; i++)
        c->user_sgpr[i] = 0;
    state_launch(c, hsa);
    if (source && !(c->source = strdup(source))) {
        snprintf(err, sizeof(err), "out of memory");
        goto out;
    }
    if (wl_capture_write(c, dir, err, sizeof(err)) != WL_OK)
        goto out;
    printf("capture: %s (%zu ranges, %zu address fields)\n", dir, c->nranges, c->nfields);
    rc = 0;
out:
    if (rc)
        fprintf(stderr, "wavelift: --capture %s: %s\n", dir, err);
    wl_capture_free(c);
    return rc;
}

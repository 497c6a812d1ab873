/* Dispatch captures as files (docs/capture.md): the writer,
 * wl_capture_write. DIR/manifest.txt, DIR/code.bin, and DIR/mem.NAME.bin
 * for each range that is not all zeros; capture_io.c reads them back. */
#include "capture_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define ULL(x) ((unsigned long long)(x))


static int all_zero(const uint8_t *p, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        if (p[i])
            return 0;
    return 1;
}

static wl_status write_blob(const char *dir, const char *name, const uint8_t *p, uint64_t n,
                            char *err, size_t errcap)
{
    size_t len = strlen(dir) + strlen(name) + 2;
    char *path = malloc(len);
    if (!path)
        return wl_capture_fail(err, errcap, WL_ERR_NOMEM, "out of memory");
    snprintf(path, len, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(p, 1, n, f) == n;
    if (f && fclose(f) != 0)
        ok = 0;
    wl_status st = ok ? WL_OK : wl_capture_fail(err, errcap, WL_ERR_IO, "cannot write %s", path);
    free(path);
    return st;
}

wl_status wl_capture_write(const wl_capture *c, const char *dir, char *err, size_t errcap)
{
    if (!c || !dir)
        return wl_capture_fail(err, errcap, WL_ERR_USAGE, "wl_capture_write: missing argument");
    wl_status st = wl_capture_check(c, err, errcap);
    if (st != WL_OK)
        return st;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return wl_capture_fail(err, errcap, WL_ERR_IO, "cannot create %s: %s", dir, strerror(errno));
    if ((st = write_blob(dir, "code.bin", c->code, c->code_size, err, errcap)) != WL_OK)
        return st;
    size_t len = strlen(dir) + sizeof("/manifest.txt");
    char *path = malloc(len);
    if (!path)
        return wl_capture_fail(err, errcap, WL_ERR_NOMEM, "out of memory");
    snprintf(path, len, "%s/manifest.txt", dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        st = wl_capture_fail(err, errcap, WL_ERR_IO, "cannot write %s: %s", path, strerror(errno));
        free(path);
        return st;
    }
    fprintf(f, "wavelift-capture 1\n");
    if (c->source && !strpbrk(c->source, "\r\n"))
        fprintf(f, "source %s\n", c->source);
    fprintf(f, "target %s\nwave %u\n", wl_target_name(c->target), c->wave_size);
    fprintf(f, "code code.bin %llu %016llx 0x%llx 0x%llx\n", ULL(c->code_size),
            ULL(wl_capture_fnv1a64(c->code, c->code_size)), ULL(c->code_address), ULL(c->entry));
    fprintf(f, "local %u %u %u\ngroups %u %u %u\n", c->local[0], c->local[1], c->local[2],
            c->groups[0], c->groups[1], c->groups[2]);
    fprintf(f, "user-sgprs %u", c->user_sgpr_count);
    for (unsigned i = 0; i < c->user_sgpr_count; i++)
        fprintf(f, " 0x%08x", c->user_sgpr[i]);
    fprintf(f, "\nprivate-segment-buffer %d\nworkgroup-id %d %d %d\nworkgroup-info %d\n",
            c->private_segment_buffer != 0, c->enable_workgroup_id[0] != 0,
            c->enable_workgroup_id[1] != 0, c->enable_workgroup_id[2] != 0,
            c->enable_workgroup_info != 0);
    fprintf(f, "scratch-wave-offset %d\nthread-id-vgprs %u\nlds %u\nscratch %u\n",
            c->enable_scratch_wave_offset != 0, c->vgpr_workitem_ids, c->lds_bytes,
            c->scratch_bytes);
    if (c->float_mode_known)
        fprintf(f, "float-mode %u %u %u %u %d %d\n", c->float_round_mode_32,
                c->float_round_mode_16_64, c->float_denorm_mode_32, c->float_denorm_mode_16_64,
                c->dx10_clamp != 0, c->ieee_mode != 0);
    if (c->launch == WL_CAPTURE_LAUNCH_RADV)
        fprintf(f, "launch radv %u 0x%08x\n", c->launch_pointers, c->launch_high);
    if (c->launch == WL_CAPTURE_LAUNCH_AMDHSA) {
        fprintf(f, "launch amdhsa");
        unsigned bit;
        const char *name;
        for (unsigned k = 0; (name = wl_capture_hsa_item_name(k, &bit)); k++)
            if (c->launch_hsa & bit)
                fprintf(f, " %s", name);
        fprintf(f, "\n");
    }
    for (size_t i = 0; i < c->nranges && st == WL_OK; i++) {
        const wl_capture_range *r = &c->ranges[i];
        if (all_zero(r->data, r->size)) {
            fprintf(f, "range %s 0x%llx %llu %s zero -\n", r->name, ULL(r->address), ULL(r->size),
                    r->writable ? "rw" : "ro");
            continue;
        }
        char file[WL_CAPTURE_NAME_MAX + 16];
        snprintf(file, sizeof(file), "mem.%s.bin", r->name);
        fprintf(f, "range %s 0x%llx %llu %s %s %016llx\n", r->name, ULL(r->address), ULL(r->size),
                r->writable ? "rw" : "ro", file, ULL(wl_capture_fnv1a64(r->data, r->size)));
        st = write_blob(dir, file, r->data, r->size, err, errcap);
    }
    for (size_t i = 0; i < c->nfields; i++) {
        const wl_capture_field *fd = &c->fields[i];
        const char *k = fd->kind == WL_CAPTURE_FIELD_U64 ? "u64" : "vsharp";
        if (fd->range < 0)
            fprintf(f, "address %s sgpr %llu\n", k, ULL(fd->offset / 4));
        else
            fprintf(f, "address %s range %s %llu\n", k, c->ranges[fd->range].name, ULL(fd->offset));
    }
    if (fclose(f) != 0 && st == WL_OK)
        st = wl_capture_fail(err, errcap, WL_ERR_IO, "cannot write %s", path);
    free(path);
    return st;
}

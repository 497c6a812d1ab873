/* Dispatch captures (include/wavelift/capture.h, docs/capture.md): the
 * builder, the rules, and what turns a capture into a launch (the lifter's
 * program description and the relocation of address fields). The manifest
 * reader and writer are capture_io.c. */
#include "wavelift/capture.h"
#include "capture_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Formats a message into err (when given) and returns st. */
wl_status wl_capture_fail(char *err, size_t errcap, wl_status st, const char *fmt, ...)
{
    if (err && errcap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errcap, fmt, ap);
        va_end(ap);
    }
    return st;
}

#define ULL(x) ((unsigned long long)(x))

int wl_capture_name_chars_ok(const char *s)
{
    for (; *s; s++) {
        char ch = *s;
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '_' || ch == '.' || ch == '-'))
            return 0;
    }
    return 1;
}

static int name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= WL_CAPTURE_NAME_MAX)
        return 0;
    return wl_capture_name_chars_ok(s);
}

wl_status wl_capture_create(wl_target target, const uint8_t *code, size_t code_size,
                            uint64_t code_address, size_t entry, wl_capture **out,
                            char *err, size_t errcap)
{
    if (!out)
        return wl_capture_fail(err, errcap, WL_ERR_USAGE, "wl_capture_create: no output");
    *out = NULL;
    if (!code || code_size < 4 || code_size > WL_CAPTURE_MAX_CODE)
        return wl_capture_fail(err, errcap, WL_ERR_USAGE, "capture: code of %llu bytes (4 to %u allowed)",
                    ULL(code_size), WL_CAPTURE_MAX_CODE);
    wl_capture *c = calloc(1, sizeof(*c));
    if (!c || !(c->code = malloc(code_size))) {
        free(c);
        return wl_capture_fail(err, errcap, WL_ERR_NOMEM, "capture: out of memory");
    }
    memcpy(c->code, code, code_size);
    c->code_size = code_size;
    c->code_address = code_address;
    c->entry = entry;
    c->target = target;
    c->wave_size = 64;
    for (int d = 0; d < 3; d++)
        c->local[d] = c->groups[d] = 1;
    c->vgpr_workitem_ids = 1;
    *out = c;
    return WL_OK;
}

void wl_capture_free(wl_capture *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->nranges; i++)
        free(c->ranges[i].data);
    free(c->ranges);
    free(c->fields);
    free(c->code);
    free(c->source);
    free(c);
}

/* Guest addresses are 48 bits: bits 63:48 ignored (docs/capture.md). */
static uint64_t a48(uint64_t a)
{
    return a & WL_CAPTURE_ADDRESS_MASK;
}

static int overlaps(const wl_capture_range *a, uint64_t address, uint64_t size)
{
    uint64_t x = a48(address), y = a48(a->address);
    return x < y + a->size && y < x + size;
}

/* A range from `address` of `size` bytes whose 48 bits wrap past 2^48. */
static int past_48(uint64_t address, uint64_t size)
{
    return size > (1ull << 48) - a48(address);
}

static int range_by_name(const wl_capture *c, const char *name)
{
    for (size_t i = 0; i < c->nranges; i++)
        if (strcmp(c->ranges[i].name, name) == 0)
            return (int)i;
    return -1;
}

wl_status wl_capture_add_range(wl_capture *c, const char *name, uint64_t address,
                               const void *data, uint64_t size, int writable,
                               char *err, size_t errcap)
{
    if (!c || !name)
        return wl_capture_fail(err, errcap, WL_ERR_USAGE, "wl_capture_add_range: missing argument");
    if (!name_ok(name))
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT,
                    "range name '%.80s': 1 to %d characters of A-Z a-z 0-9 _ . -", name,
                    WL_CAPTURE_NAME_MAX - 1);
    if (range_by_name(c, name) >= 0)
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "range %s named twice", name);
    if (c->nranges >= WL_CAPTURE_MAX_RANGES)
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "more than %d ranges", WL_CAPTURE_MAX_RANGES);
    if (size == 0 || size > WL_CAPTURE_MAX_RANGE_BYTES)
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "range %s: size %llu (1 to %llu allowed)", name,
                    ULL(size), ULL(WL_CAPTURE_MAX_RANGE_BYTES));
    if (address > UINT64_MAX - size || past_48(address, size))
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "range %s: 0x%llx + %llu wraps around "
                    "(guest addresses are 48 bits)", name, ULL(address), ULL(size));
    uint64_t total = size;
    for (size_t i = 0; i < c->nranges; i++) {
        total += c->ranges[i].size;
        if (overlaps(&c->ranges[i], address, size))
            return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "range %s [0x%llx, +%llu) overlaps range %s",
                        name, ULL(address), ULL(size), c->ranges[i].name);
    }
    if (total > WL_CAPTURE_MAX_TOTAL_BYTES)
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "ranges of more than %llu bytes in all",
                    ULL(WL_CAPTURE_MAX_TOTAL_BYTES));
    wl_capture_range *r = realloc(c->ranges, (c->nranges + 1) * sizeof(*r));
    if (!r)
        return wl_capture_fail(err, errcap, WL_ERR_NOMEM, "capture: out of memory");
    c->ranges = r;
    wl_capture_range *n = &r[c->nranges];
    memset(n, 0, sizeof(*n));
    if (!(n->data = data ? malloc(size) : calloc(1, size)))
        return wl_capture_fail(err, errcap, WL_ERR_NOMEM, "capture: out of memory for range %s", name);
    if (data)
        memcpy(n->data, data, size);
    strcpy(n->name, name);
    n->address = address;
    n->size = size;
    n->writable = writable != 0;
    c->nranges++;
    return WL_OK;
}

static uint64_t field_bytes(wl_capture_field_kind k)
{
    return k == WL_CAPTURE_FIELD_U64 ? 8 : 6;
}

wl_status wl_capture_add_field(wl_capture *c, wl_capture_field_kind kind,
                               const char *range_name, uint64_t offset,
                               char *err, size_t errcap)
{
    if (!c)
        return wl_capture_fail(err, errcap, WL_ERR_USAGE, "wl_capture_add_field: missing argument");
    if (kind != WL_CAPTURE_FIELD_U64 && kind != WL_CAPTURE_FIELD_VSHARP)
        return wl_capture_fail(err, errcap, WL_ERR_USAGE, "address field kind %d unknown", (int)kind);
    int r = -1;
    if (range_name && (r = range_by_name(c, range_name)) < 0)
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "address field in range %.80s: no such range",
                    range_name);
    if (c->nfields >= WL_CAPTURE_MAX_FIELDS)
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "more than %d address fields",
                    WL_CAPTURE_MAX_FIELDS);
    wl_capture_field *f = realloc(c->fields, (c->nfields + 1) * sizeof(*f));
    if (!f)
        return wl_capture_fail(err, errcap, WL_ERR_NOMEM, "capture: out of memory");
    c->fields = f;
    f[c->nfields++] = (wl_capture_field){kind, r, offset};
    return WL_OK;
}

/* The field's bytes: where they are and how many there are. */
static uint8_t *field_at(const wl_capture *c, const wl_capture_field *f, uint8_t *sgpr_bytes,
                         uint8_t *const *bytes)
{
    if (f->range < 0)
        return sgpr_bytes + f->offset;
    uint8_t *b = bytes ? bytes[f->range] : c->ranges[f->range].data;
    return b ? b + f->offset : NULL;
}

static uint64_t rd_field(const uint8_t *p, wl_capture_field_kind k)
{
    uint64_t v = 0;
    memcpy(&v, p, field_bytes(k) == 8 ? 8 : 6); /* little-endian host */
    return v;
}

static void wr_field(uint8_t *p, wl_capture_field_kind k, uint64_t v)
{
    memcpy(p, &v, field_bytes(k) == 8 ? 8 : 6);
}

static const char *field_where(const wl_capture *c, const wl_capture_field *f, char *buf,
                               size_t cap)
{
    if (f->range < 0)
        snprintf(buf, cap, "sgpr %llu", ULL(f->offset / 4));
    else
        snprintf(buf, cap, "range %s offset %llu", c->ranges[f->range].name, ULL(f->offset));
    return buf;
}

static const struct {
    unsigned bit, sgprs, pointer;
    const char *name;
} hsa_items[] = {
    {WL_CAPTURE_HSA_DISPATCH_PTR, 2, 1, "dispatch-ptr"},
    {WL_CAPTURE_HSA_QUEUE_PTR, 2, 1, "queue-ptr"},
    {WL_CAPTURE_HSA_KERNARG_PTR, 2, 1, "kernarg-ptr"},
    {WL_CAPTURE_HSA_DISPATCH_ID, 2, 0, "dispatch-id"},
    {WL_CAPTURE_HSA_FLAT_SCRATCH_INIT, 2, 0, "flat-scratch-init"},
    {WL_CAPTURE_HSA_PRIVATE_SEGMENT_SIZE, 1, 0, "private-segment-size"},
};

const char *wl_capture_hsa_item_name(unsigned i, unsigned *bit)
{
    if (i >= sizeof(hsa_items) / sizeof(hsa_items[0]))
        return NULL;
    *bit = hsa_items[i].bit;
    return hsa_items[i].name;
}

unsigned wl_capture_launch_sgprs(const wl_capture *c)
{
    if (c->launch == WL_CAPTURE_LAUNCH_RADV)
        return 2 + c->launch_pointers;
    if (c->launch != WL_CAPTURE_LAUNCH_AMDHSA)
        return 0;
    unsigned n = c->private_segment_buffer ? 4 : 0;
    for (size_t i = 0; i < sizeof(hsa_items) / sizeof(hsa_items[0]); i++)
        if (c->launch_hsa & hsa_items[i].bit)
            n += hsa_items[i].sgprs;
    return n;
}

size_t wl_capture_launch_pointers(const wl_capture *c, wl_capture_pointer *out)
{
    size_t n = 0;
    if (c->launch == WL_CAPTURE_LAUNCH_RADV) {
        for (unsigned i = 0; i < c->launch_pointers && 2 + i < WL_CAPTURE_MAX_USER_SGPRS; i++)
            out[n++] = (wl_capture_pointer){2 + i, 32,
                                            (uint64_t)c->launch_high << 32 | c->user_sgpr[2 + i],
                                            "32-bit pointer"};
    } else if (c->launch == WL_CAPTURE_LAUNCH_AMDHSA) {
        unsigned s = c->private_segment_buffer ? 4 : 0;
        for (size_t i = 0; i < sizeof(hsa_items) / sizeof(hsa_items[0]); i++) {
            if (!(c->launch_hsa & hsa_items[i].bit))
                continue;
            if (hsa_items[i].pointer && s + 1 < WL_CAPTURE_MAX_USER_SGPRS)
                out[n++] = (wl_capture_pointer){s, 64,
                                                (uint64_t)c->user_sgpr[s + 1] << 32 | c->user_sgpr[s],
                                                hsa_items[i].name};
            s += hsa_items[i].sgprs;
        }
    }
    return n;
}

static wl_status check_launch(const wl_capture *c, char *err, size_t errcap)
{
    if (c->launch == WL_CAPTURE_LAUNCH_NONE)
        return WL_OK;
    if (c->launch != WL_CAPTURE_LAUNCH_RADV && c->launch != WL_CAPTURE_LAUNCH_AMDHSA)
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "launch convention %d unknown", (int)c->launch);
    if (c->launch == WL_CAPTURE_LAUNCH_RADV &&
        (c->launch_pointers < 1 || c->launch_pointers > WL_CAPTURE_MAX_USER_SGPRS - 2))
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "launch radv: %u pointers (1 to %d)",
                    c->launch_pointers, WL_CAPTURE_MAX_USER_SGPRS - 2);
    if (c->launch == WL_CAPTURE_LAUNCH_AMDHSA && (c->launch_hsa & ~63u))
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "launch amdhsa: unknown items");
    unsigned need = wl_capture_launch_sgprs(c);
    if (need > c->user_sgpr_count)
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "launch %s takes %u user SGPRs, the capture "
                    "has %u", c->launch == WL_CAPTURE_LAUNCH_RADV ? "radv" : "amdhsa", need,
                    c->user_sgpr_count);
    wl_capture_pointer p[WL_CAPTURE_MAX_POINTERS];
    size_t n = wl_capture_launch_pointers(c, p);
    for (size_t i = 0; i < n; i++)
        if (wl_capture_find_range(c, p[i].address) < 0)
            return wl_capture_fail(err, errcap, WL_ERR_FORMAT,
                        "launch %s: the %s in sgpr %u names 0x%llx (48 bits: 0x%llx), which lies "
                        "in no range", c->launch == WL_CAPTURE_LAUNCH_RADV ? "radv" : "amdhsa",
                        p[i].what, p[i].sgpr, ULL(p[i].address), ULL(a48(p[i].address)));
    return WL_OK;
}

wl_status wl_capture_check(const wl_capture *c, char *err, size_t errcap)
{
    if (!c)
        return wl_capture_fail(err, errcap, WL_ERR_USAGE, "no capture");
    if ((unsigned)c->target >= WL_TARGET_COUNT)
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "target %d is not a gfx10 target", (int)c->target);
    if (c->wave_size != 32 && c->wave_size != 64)
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "wave size %u (32 or 64)", c->wave_size);
    if (!c->code || c->code_size < 4 || c->code_size > WL_CAPTURE_MAX_CODE)
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "code of %llu bytes", ULL(c->code_size));
    if (c->entry % 4 || c->entry >= c->code_size)
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "entry offset 0x%llx outside the %llu code bytes "
                    "or not a multiple of 4", ULL(c->entry), ULL(c->code_size));
    if (c->code_address % 4 || c->code_address > UINT64_MAX - c->code_size)
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "code address 0x%llx", ULL(c->code_address));
    uint64_t items = 1, groups = 1;
    for (int d = 0; d < 3; d++) {
        if (c->local[d] == 0 || c->groups[d] == 0)
            return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "local and groups must be at least 1 (dimension %d)", d);
        items *= c->local[d];
        groups *= c->groups[d];
    }
    if (items > 1024)
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "a workgroup of %llu work-items (at most 1024)",
                    ULL(items));
    if (groups > (1ull << 32))
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "%llu workgroups", ULL(groups));
    if (c->user_sgpr_count > WL_CAPTURE_MAX_USER_SGPRS)
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "%u user SGPRs (at most %d)", c->user_sgpr_count,
                    WL_CAPTURE_MAX_USER_SGPRS);
    if (c->private_segment_buffer && c->user_sgpr_count < 4)
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "private-segment-buffer needs 4 user SGPRs");
    if (c->vgpr_workitem_ids < 1 || c->vgpr_workitem_ids > 3)
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "thread-id-vgprs %u (1 to 3)", c->vgpr_workitem_ids);
    if (c->lds_bytes > 65536)
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "LDS of %u bytes (at most 65536)", c->lds_bytes);
    if (c->float_mode_known &&
        (c->float_round_mode_32 > 3 || c->float_round_mode_16_64 > 3 ||
         c->float_denorm_mode_32 > 3 || c->float_denorm_mode_16_64 > 3))
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "float mode field above 3");
    uint64_t total = 0;
    for (size_t i = 0; i < c->nranges; i++) {
        const wl_capture_range *r = &c->ranges[i];
        if (!name_ok(r->name))
            return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "range %zu: bad name", i);
        if (!r->data || r->size == 0 || r->size > WL_CAPTURE_MAX_RANGE_BYTES ||
            r->address > UINT64_MAX - r->size || past_48(r->address, r->size))
            return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "range %s: bad size or address", r->name);
        total += r->size;
        for (size_t j = 0; j < i; j++) {
            if (strcmp(c->ranges[j].name, r->name) == 0)
                return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "range %s named twice", r->name);
            if (overlaps(&c->ranges[j], r->address, r->size))
                return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "range %s overlaps range %s", r->name,
                            c->ranges[j].name);
        }
    }
    if (total > WL_CAPTURE_MAX_TOTAL_BYTES)
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "ranges of %llu bytes in all", ULL(total));
    uint8_t sg[WL_CAPTURE_MAX_USER_SGPRS * 4];
    memcpy(sg, c->user_sgpr, sizeof(sg));
    char where[128];
    for (size_t i = 0; i < c->nfields; i++) {
        const wl_capture_field *f = &c->fields[i];
        uint64_t n = field_bytes(f->kind);
        if (f->kind != WL_CAPTURE_FIELD_U64 && f->kind != WL_CAPTURE_FIELD_VSHARP)
            return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "address field %zu: unknown kind", i);
        if (f->range >= (int)c->nranges || f->range < -1)
            return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "address field %zu: no such range", i);
        uint64_t lim = f->range < 0 ? (uint64_t)c->user_sgpr_count * 4 : c->ranges[f->range].size;
        if ((f->range < 0 && f->offset % 4) || f->offset > lim || n > lim - f->offset)
            return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "address field at %s: outside it",
                        field_where(c, f, where, sizeof(where)));
        for (size_t j = 0; j < i; j++) {
            const wl_capture_field *o = &c->fields[j];
            if (o->range == f->range && o->offset < f->offset + n &&
                f->offset < o->offset + field_bytes(o->kind))
                return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "address fields at %s overlap",
                            field_where(c, f, where, sizeof(where)));
        }
        uint64_t v = rd_field(field_at(c, f, sg, NULL), f->kind);
        if (wl_capture_find_range(c, v) < 0)
            return wl_capture_fail(err, errcap, WL_ERR_FORMAT,
                        "address field at %s holds 0x%llx, which lies in no range",
                        field_where(c, f, where, sizeof(where)), ULL(v));
    }
    return check_launch(c, err, errcap);
}

int wl_capture_find_range(const wl_capture *c, uint64_t g)
{
    int edge = -1;
    g = a48(g);
    for (size_t i = 0; i < c->nranges; i++) {
        const wl_capture_range *r = &c->ranges[i];
        uint64_t b = a48(r->address);
        if (g >= b && g - b < r->size)
            return (int)i;
        if (g == b + r->size)
            edge = (int)i;
    }
    return edge;
}

wl_status wl_capture_lift_program(const wl_capture *c, wl_lift_program *p, char *err, size_t errcap)
{
    if (!c || !p)
        return wl_capture_fail(err, errcap, WL_ERR_USAGE, "wl_capture_lift_program: missing argument");
    memset(p, 0, sizeof(*p));
    wl_status st = wl_capture_check(c, err, errcap);
    if (st != WL_OK)
        return st;
    p->code = c->code;
    p->size = c->code_size;
    p->entry = c->entry;
    p->address = c->code_address;
    p->target = c->target;
    p->wave_size = c->wave_size;
    p->user_sgpr_count = c->user_sgpr_count;
    p->private_segment_buffer = c->private_segment_buffer;
    for (int d = 0; d < 3; d++)
        p->enable_workgroup_id[d] = c->enable_workgroup_id[d];
    p->enable_workgroup_info = c->enable_workgroup_info;
    /* tg_size's wave count, as the hardware computes it from the group size */
    if (c->enable_workgroup_info)
        p->workgroup_waves = (unsigned)(((uint64_t)c->local[0] * c->local[1] * c->local[2] +
                                         c->wave_size - 1) / c->wave_size);
    p->enable_private_segment_wave_offset = c->enable_scratch_wave_offset;
    p->vgpr_workitem_ids = c->vgpr_workitem_ids;
    p->lds_bytes = c->lds_bytes;
    p->scratch_bytes = c->scratch_bytes;
    p->float_mode_known = c->float_mode_known;
    p->float_round_mode_32 = c->float_round_mode_32;
    p->float_round_mode_16_64 = c->float_round_mode_16_64;
    p->float_denorm_mode_32 = c->float_denorm_mode_32;
    p->float_denorm_mode_16_64 = c->float_denorm_mode_16_64;
    p->dx10_clamp = c->dx10_clamp;
    p->ieee_mode = c->ieee_mode;
    return WL_OK;
}

/* The host address a guest address g becomes (g lies in range r). */
static uint64_t to_host(const wl_capture *c, const uint64_t *host, int r, uint64_t g)
{
    return host[r] + (a48(g) - a48(c->ranges[r].address));
}

wl_status wl_capture_relocate(const wl_capture *c, const uint64_t *host, uint32_t *sgpr,
                              uint8_t *const *bytes, char *err, size_t errcap)
{
    if (!c || !host || !sgpr)
        return wl_capture_fail(err, errcap, WL_ERR_USAGE, "wl_capture_relocate: missing argument");
    wl_status st = wl_capture_check(c, err, errcap);
    if (st != WL_OK)
        return st;
    uint8_t sg[WL_CAPTURE_MAX_USER_SGPRS * 4];
    memset(sg, 0, sizeof(sg));
    memcpy(sg, c->user_sgpr, (size_t)c->user_sgpr_count * 4);
    /* the guest values come from the capture, not from the copies */
    uint8_t orig[WL_CAPTURE_MAX_USER_SGPRS * 4];
    memcpy(orig, sg, sizeof(orig));
    char where[128];
    for (size_t i = 0; i < c->nfields; i++) {
        const wl_capture_field *f = &c->fields[i];
        uint8_t *p = field_at(c, f, sg, bytes);
        if (!p)
            continue;
        uint64_t g = rd_field(field_at(c, f, orig, NULL), f->kind);
        int r = wl_capture_find_range(c, g);
        uint64_t h = to_host(c, host, r, g);
        if (f->kind == WL_CAPTURE_FIELD_VSHARP && h >> 48)
            return wl_capture_fail(err, errcap, WL_ERR_UNSUPPORTED,
                        "address field at %s: host address 0x%llx does not fit a V#'s 48 bits",
                        field_where(c, f, where, sizeof(where)), ULL(h));
        wr_field(p, f->kind, h);
    }
    wl_capture_pointer lp[WL_CAPTURE_MAX_POINTERS];
    size_t np = wl_capture_launch_pointers(c, lp);
    for (size_t i = 0; i < np; i++) {
        int covered = 0;
        for (size_t j = 0; j < c->nfields; j++)
            covered |= c->fields[j].range < 0 && c->fields[j].offset == 4ull * lp[i].sgpr;
        if (covered)
            continue;
        if (lp[i].bits == 32)
            return wl_capture_fail(err, errcap, WL_ERR_UNSUPPORTED,
                        "sgpr %u: a 32-bit pointer whose high half (0x%08x) the code supplies "
                        "cannot be rewritten to a host address: replay it through the guest "
                        "mapping", lp[i].sgpr, c->launch_high);
        uint64_t g = lp[i].address;
        uint64_t h = to_host(c, host, wl_capture_find_range(c, g), g);
        memcpy(sg + 4 * lp[i].sgpr, &h, 8);
    }
    memcpy(sgpr, sg, sizeof(sg));
    return WL_OK;
}

void wl_capture_unrelocate(const wl_capture *c, const uint64_t *host, size_t i, uint8_t *bytes)
{
    if (!c || !host || !bytes || i >= c->nranges)
        return;
    for (size_t n = 0; n < c->nfields; n++) {
        const wl_capture_field *f = &c->fields[n];
        if (f->range != (int)i)
            continue;
        uint64_t g = rd_field(c->ranges[i].data + f->offset, f->kind);
        int r = wl_capture_find_range(c, g);
        if (r < 0)
            continue;
        uint64_t h = to_host(c, host, r, g) & (f->kind == WL_CAPTURE_FIELD_U64 ? UINT64_MAX
                                                                                : 0xffffffffffffull);
        if (rd_field(bytes + f->offset, f->kind) == h)
            wr_field(bytes + f->offset, f->kind, g);
    }
}

int wl_capture_code_host_address(const wl_capture *c, const uint64_t *host, uint64_t *addr)
{
    for (size_t i = 0; i < c->nranges; i++) {
        const wl_capture_range *r = &c->ranges[i];
        uint64_t ca = a48(c->code_address), ra = a48(r->address);
        if (ca >= ra && ca - ra < r->size && c->code_size <= r->size - (ca - ra)) {
            *addr = to_host(c, host, (int)i, c->code_address);
            return 1;
        }
    }
    return 0;
}

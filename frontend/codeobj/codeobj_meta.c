/* The NT_AMDGPU_METADATA note (HSA code object v4+): a msgpack map
 *   { "amdhsa.version": [major, minor], "amdhsa.target": "amdgcn-...",
 *     "amdhsa.kernels": [ { ".name": ..., ".symbol": "NAME.kd",
 *         ".args": [ { ".offset", ".size", ".value_kind", ".name",
 *                      ".type_name", ".address_space", ... }, ... ],
 *         ".kernarg_segment_size", ".kernarg_segment_align",
 *         ".group_segment_fixed_size", ".private_segment_fixed_size",
 *         ".wavefront_size", ".sgpr_count", ".vgpr_count",
 *         ".max_flat_workgroup_size", ... }, ... ] }
 * parsed with msgpack-c. The bytes are first walked by a small checker that
 * bounds every count by the bytes left (so msgpack-c never allocates more
 * than a small multiple of the note's size) and limits the nesting. */
#include "codeobj_internal.h"

#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ULL(x) ((unsigned long long)(x))

enum { MP_MAX_DEPTH = 24 };

/* Walks one msgpack object at p[*pos..len). Returns 0 when it is complete
 * and well-formed, -1 otherwise (*pos is then where the problem is). */
static int mp_check(const uint8_t *p, size_t len, size_t *pos, unsigned depth)
{
    if (depth > MP_MAX_DEPTH || *pos >= len)
        return -1;
    uint8_t b = p[*pos];
    size_t at = *pos + 1, left = len - at;
    uint64_t skip = 0, items = 0; /* bytes to skip; sub-objects that follow */
    if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3) {
        skip = 0;
    } else if (b >= 0x80 && b <= 0x8f) {
        items = 2u * (b & 0x0fu);
    } else if (b >= 0x90 && b <= 0x9f) {
        items = b & 0x0fu;
    } else if (b >= 0xa0 && b <= 0xbf) {
        skip = b & 0x1fu;
    } else {
        switch (b) {
        case 0xcc: case 0xd0: skip = 1; break;
        case 0xcd: case 0xd1: skip = 2; break;
        case 0xca: case 0xce: case 0xd2: skip = 4; break;
        case 0xcb: case 0xcf: case 0xd3: skip = 8; break;
        case 0xd4: skip = 2; break;  /* fixext 1 */
        case 0xd5: skip = 3; break;
        case 0xd6: skip = 5; break;
        case 0xd7: skip = 9; break;
        case 0xd8: skip = 17; break;
        case 0xc4: case 0xd9: /* bin 8, str 8 */
            if (left < 1) return -1;
            skip = 1 + (uint64_t)p[at];
            break;
        case 0xc5: case 0xda: /* bin 16, str 16 */
            if (left < 2) return -1;
            skip = 2 + (((uint64_t)p[at] << 8) | p[at + 1]);
            break;
        case 0xc6: case 0xdb: /* bin 32, str 32 */
            if (left < 4) return -1;
            skip = 4 + (((uint64_t)p[at] << 24) | ((uint64_t)p[at + 1] << 16) |
                        ((uint64_t)p[at + 2] << 8) | p[at + 3]);
            break;
        case 0xc7: /* ext 8 */
            if (left < 1) return -1;
            skip = 2 + (uint64_t)p[at];
            break;
        case 0xc8: /* ext 16 */
            if (left < 2) return -1;
            skip = 3 + (((uint64_t)p[at] << 8) | p[at + 1]);
            break;
        case 0xc9: /* ext 32 */
            if (left < 4) return -1;
            skip = 5 + (((uint64_t)p[at] << 24) | ((uint64_t)p[at + 1] << 16) |
                        ((uint64_t)p[at + 2] << 8) | p[at + 3]);
            break;
        case 0xdc: case 0xde: /* array 16, map 16 */
            if (left < 2) return -1;
            items = ((uint64_t)p[at] << 8) | p[at + 1];
            skip = 2;
            break;
        case 0xdd: case 0xdf: /* array 32, map 32 */
            if (left < 4) return -1;
            items = ((uint64_t)p[at] << 24) | ((uint64_t)p[at + 1] << 16) |
                    ((uint64_t)p[at + 2] << 8) | p[at + 3];
            skip = 4;
            break;
        default: /* 0xc1: never used */
            return -1;
        }
        if (b == 0xde || b == 0xdf)
            items *= 2;
    }
    if (skip > left)
        return -1;
    at += (size_t)skip;
    /* Every sub-object takes at least one byte. */
    if (items > len - at)
        return -1;
    *pos = at;
    for (uint64_t i = 0; i < items; i++)
        if (mp_check(p, len, pos, depth + 1) != 0)
            return -1;
    return 0;
}

static int key_is(const msgpack_object *k, const char *s)
{
    size_t n = strlen(s);
    return k->type == MSGPACK_OBJECT_STR && k->via.str.size == n &&
           memcmp(k->via.str.ptr, s, n) == 0;
}

static char *str_dup(const msgpack_object *o)
{
    char *s = malloc((size_t)o->via.str.size + 1);
    if (s) {
        if (o->via.str.size)
            memcpy(s, o->via.str.ptr, o->via.str.size);
        s[o->via.str.size] = '\0';
    }
    return s;
}

/* The parse context: where to write messages. */
typedef struct meta_ctx {
    char *err;
    size_t cap;
    uint64_t file_offset;
} meta_ctx;

/* Sets *out to the unsigned 32-bit integer o. */
static wl_status get_u32(const meta_ctx *c, const msgpack_object *o, const char *where,
                         const char *key, uint32_t *out)
{
    if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER || o->via.u64 > UINT32_MAX) {
        wl_co_fail(c->err, c->cap,
                   "metadata note at offset 0x%llx: %s: %s is not an unsigned 32-bit integer",
                   ULL(c->file_offset), where, key);
        return WL_ERR_FORMAT;
    }
    *out = (uint32_t)o->via.u64;
    return WL_OK;
}

/* Sets *out to a copy of the string o (freeing what was there). */
static wl_status get_str(const meta_ctx *c, const msgpack_object *o, const char *where,
                         const char *key, char **out)
{
    if (o->type != MSGPACK_OBJECT_STR) {
        wl_co_fail(c->err, c->cap, "metadata note at offset 0x%llx: %s: %s is not a string",
                   ULL(c->file_offset), where, key);
        return WL_ERR_FORMAT;
    }
    char *s = str_dup(o);
    if (!s) {
        wl_co_fail(c->err, c->cap, "out of memory");
        return WL_ERR_NOMEM;
    }
    free(*out);
    *out = s;
    return WL_OK;
}

void wl_co_free_args(wl_kernel_arg *args, size_t n)
{
    for (size_t i = 0; i < n && args; i++) {
        free(args[i].name);
        free(args[i].type_name);
        free(args[i].value_kind);
        free(args[i].address_space);
    }
    free(args);
}

static wl_status parse_arg(const meta_ctx *c, const msgpack_object *o, const char *where,
                           wl_kernel_arg *a)
{
    if (o->type != MSGPACK_OBJECT_MAP) {
        wl_co_fail(c->err, c->cap, "metadata note at offset 0x%llx: %s is not a map",
                   ULL(c->file_offset), where);
        return WL_ERR_FORMAT;
    }
    int have_offset = 0, have_size = 0;
    for (uint32_t i = 0; i < o->via.map.size; i++) {
        const msgpack_object *k = &o->via.map.ptr[i].key, *v = &o->via.map.ptr[i].val;
        wl_status st = WL_OK;
        if (key_is(k, ".offset")) {
            st = get_u32(c, v, where, ".offset", &a->offset);
            have_offset = 1;
        } else if (key_is(k, ".size")) {
            st = get_u32(c, v, where, ".size", &a->size);
            have_size = 1;
        } else if (key_is(k, ".value_kind")) {
            st = get_str(c, v, where, ".value_kind", &a->value_kind);
        } else if (key_is(k, ".name")) {
            st = get_str(c, v, where, ".name", &a->name);
        } else if (key_is(k, ".type_name")) {
            st = get_str(c, v, where, ".type_name", &a->type_name);
        } else if (key_is(k, ".address_space")) {
            st = get_str(c, v, where, ".address_space", &a->address_space);
        }
        if (st != WL_OK)
            return st;
    }
    if (!have_offset || !have_size || !a->value_kind) {
        wl_co_fail(c->err, c->cap,
                   "metadata note at offset 0x%llx: %s lacks %s", ULL(c->file_offset), where,
                   !have_offset ? ".offset" : !have_size ? ".size" : ".value_kind");
        return WL_ERR_FORMAT;
    }
    return WL_OK;
}

static wl_status parse_args(const meta_ctx *c, const msgpack_object *o, const char *where,
                            wl_kernel *k)
{
    if (o->type != MSGPACK_OBJECT_ARRAY) {
        wl_co_fail(c->err, c->cap, "metadata note at offset 0x%llx: %s: .args is not an array",
                   ULL(c->file_offset), where);
        return WL_ERR_FORMAT;
    }
    wl_co_free_args(k->args, k->nargs);
    k->args = NULL;
    k->nargs = 0;
    if (o->via.array.size == 0)
        return WL_OK;
    k->args = calloc(o->via.array.size, sizeof(*k->args));
    if (!k->args) {
        wl_co_fail(c->err, c->cap, "out of memory");
        return WL_ERR_NOMEM;
    }
    k->nargs = o->via.array.size;
    for (uint32_t i = 0; i < o->via.array.size; i++) {
        char w[96];
        snprintf(w, sizeof(w), "%s, arg %u", where, i);
        wl_status st = parse_arg(c, &o->via.array.ptr[i], w, &k->args[i]);
        if (st != WL_OK)
            return st;
    }
    return WL_OK;
}

/* One entry of amdhsa.kernels into *k (metadata fields only). */
static wl_status parse_kernel(const meta_ctx *c, const msgpack_object *o, uint32_t index,
                              wl_kernel *k, char **symbol)
{
    char where[32];
    snprintf(where, sizeof(where), "kernel %u", index);
    if (o->type != MSGPACK_OBJECT_MAP) {
        wl_co_fail(c->err, c->cap, "metadata note at offset 0x%llx: %s is not a map",
                   ULL(c->file_offset), where);
        return WL_ERR_FORMAT;
    }
    static const struct {
        const char *key;
        size_t off;
    } u32_keys[] = {
        {".kernarg_segment_size", offsetof(wl_kernel, kernarg_segment_size)},
        {".kernarg_segment_align", offsetof(wl_kernel, kernarg_segment_align)},
        {".group_segment_fixed_size", offsetof(wl_kernel, group_segment_fixed_size)},
        {".private_segment_fixed_size", offsetof(wl_kernel, private_segment_fixed_size)},
        {".wavefront_size", offsetof(wl_kernel, wavefront_size)},
        {".sgpr_count", offsetof(wl_kernel, sgpr_count)},
        {".vgpr_count", offsetof(wl_kernel, vgpr_count)},
        {".max_flat_workgroup_size", offsetof(wl_kernel, max_flat_workgroup_size)},
    };
    for (uint32_t i = 0; i < o->via.map.size; i++) {
        const msgpack_object *key = &o->via.map.ptr[i].key, *v = &o->via.map.ptr[i].val;
        wl_status st = WL_OK;
        if (key_is(key, ".name")) {
            st = get_str(c, v, where, ".name", &k->name);
        } else if (key_is(key, ".symbol")) {
            st = get_str(c, v, where, ".symbol", symbol);
        } else if (key_is(key, ".args")) {
            st = parse_args(c, v, where, k);
        } else {
            for (size_t j = 0; j < sizeof(u32_keys) / sizeof(u32_keys[0]); j++)
                if (key_is(key, u32_keys[j].key)) {
                    st = get_u32(c, v, where, u32_keys[j].key,
                                 (uint32_t *)((char *)k + u32_keys[j].off));
                    break;
                }
        }
        if (st != WL_OK)
            return st;
    }
    if (!k->name && !*symbol) {
        wl_co_fail(c->err, c->cap, "metadata note at offset 0x%llx: %s has neither .name nor .symbol",
                   ULL(c->file_offset), where);
        return WL_ERR_FORMAT;
    }
    return WL_OK;
}

/* The code object's kernel that metadata kernel m describes, or NULL. */
static wl_kernel *match_kernel(wl_codeobj *co, const wl_co_kname *names, const wl_kernel *m,
                               const char *symbol)
{
    size_t i = SIZE_MAX;
    if (symbol) {
        size_t n = strlen(symbol);
        if (n > 3 && strcmp(symbol + n - 3, ".kd") == 0)
            i = wl_co_find_kname(names, co->nkernels, symbol, n - 3);
    }
    if (i == SIZE_MAX && m->name)
        i = wl_co_find_kname(names, co->nkernels, m->name, strlen(m->name));
    return i == SIZE_MAX ? NULL : &co->kernels[i];
}

static wl_status parse_kernels(const meta_ctx *c, wl_codeobj *co, const wl_co_kname *names,
                               const msgpack_object *o)
{
    if (o->type != MSGPACK_OBJECT_ARRAY) {
        wl_co_fail(c->err, c->cap, "metadata note at offset 0x%llx: amdhsa.kernels is not an array",
                   ULL(c->file_offset));
        return WL_ERR_FORMAT;
    }
    for (uint32_t i = 0; i < o->via.array.size; i++) {
        wl_kernel m;
        memset(&m, 0, sizeof(m));
        char *symbol = NULL;
        wl_status st = parse_kernel(c, &o->via.array.ptr[i], i, &m, &symbol);
        wl_kernel *k = st == WL_OK ? match_kernel(co, names, &m, symbol) : NULL;
        if (k && !k->has_metadata) {
            k->has_metadata = 1;
            k->args = m.args;
            k->nargs = m.nargs;
            m.args = NULL;
            k->kernarg_segment_size = m.kernarg_segment_size;
            k->kernarg_segment_align = m.kernarg_segment_align;
            k->group_segment_fixed_size = m.group_segment_fixed_size;
            k->private_segment_fixed_size = m.private_segment_fixed_size;
            k->wavefront_size = m.wavefront_size;
            k->sgpr_count = m.sgpr_count;
            k->vgpr_count = m.vgpr_count;
            k->max_flat_workgroup_size = m.max_flat_workgroup_size;
        }
        wl_co_free_args(m.args, m.nargs);
        free(m.name);
        free(symbol);
        if (st != WL_OK)
            return st;
    }
    return WL_OK;
}

static wl_status parse_root(const meta_ctx *c, wl_codeobj *co, const wl_co_kname *names,
                            const msgpack_object *root)
{
    if (root->type != MSGPACK_OBJECT_MAP) {
        wl_co_fail(c->err, c->cap, "metadata note at offset 0x%llx: the root is not a map",
                   ULL(c->file_offset));
        return WL_ERR_FORMAT;
    }
    for (uint32_t i = 0; i < root->via.map.size; i++) {
        const msgpack_object *k = &root->via.map.ptr[i].key, *v = &root->via.map.ptr[i].val;
        wl_status st = WL_OK;
        if (key_is(k, "amdhsa.kernels")) {
            st = parse_kernels(c, co, names, v);
        } else if (key_is(k, "amdhsa.target")) {
            st = get_str(c, v, "root", "amdhsa.target", &co->metadata_target);
        } else if (key_is(k, "amdhsa.version")) {
            if (v->type != MSGPACK_OBJECT_ARRAY || v->via.array.size != 2) {
                wl_co_fail(c->err, c->cap,
                           "metadata note at offset 0x%llx: amdhsa.version is not an array of 2",
                           ULL(c->file_offset));
                return WL_ERR_FORMAT;
            }
            uint32_t ver[2];
            for (int j = 0; j < 2 && st == WL_OK; j++)
                st = get_u32(c, &v->via.array.ptr[j], "root", "amdhsa.version", &ver[j]);
            if (st == WL_OK) {
                co->metadata_version[0] = ver[0];
                co->metadata_version[1] = ver[1];
            }
        }
        if (st != WL_OK)
            return st;
    }
    return WL_OK;
}

wl_status wl_co_parse_metadata(wl_codeobj *co, const wl_co_kname *names,
                               const uint8_t *desc, size_t size, uint64_t file_offset,
                               char *err, size_t cap)
{
    meta_ctx c = {err, cap, file_offset};
    size_t end = 0;
    if (mp_check(desc, size, &end, 0) != 0) {
        wl_co_fail(err, cap, "metadata note at offset 0x%llx (%zu bytes): not valid msgpack (at offset 0x%llx)",
                   ULL(file_offset), size, ULL(file_offset + end));
        return WL_ERR_FORMAT;
    }
    for (size_t i = end; i < size; i++)
        if (desc[i] != 0) {
            wl_co_fail(err, cap, "metadata note at offset 0x%llx: trailing bytes after the msgpack object at offset 0x%llx",
                       ULL(file_offset), ULL(file_offset + end));
            return WL_ERR_FORMAT;
        }
    msgpack_unpacked result;
    msgpack_unpacked_init(&result);
    size_t off = 0;
    msgpack_unpack_return r = msgpack_unpack_next(&result, (const char *)desc, end, &off);
    wl_status st;
    if (r == MSGPACK_UNPACK_SUCCESS) {
        st = parse_root(&c, co, names, &result.data);
    } else if (r == MSGPACK_UNPACK_NOMEM_ERROR) {
        wl_co_fail(err, cap, "out of memory");
        st = WL_ERR_NOMEM;
    } else {
        wl_co_fail(err, cap, "metadata note at offset 0x%llx: msgpack-c cannot unpack it (status %d)",
                   ULL(file_offset), (int)r);
        st = WL_ERR_FORMAT;
    }
    msgpack_unpacked_destroy(&result);
    return st;
}

/* The cache key of a translation (wl_translate_key, translate.h): SHA-256
 * (FIPS 180-4) over everything the module depends on, in a fixed order:
 * the library's and LLVM's versions, the program (its code bytes, entry,
 * address, target and launch state) and every option that reaches the
 * module, with the WAVELIFT_PASSES variable (docs/architecture.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wavelift.h"
#include "wavelift/translate.h"
#include "lower/options.h"

typedef struct sha256 {
    uint32_t h[8];
    uint8_t buf[64];
    size_t nbuf;
    uint64_t bytes;
} sha256;

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static uint32_t ror(uint32_t x, unsigned n)
{
    return x >> n | x << (32 - n);
}

static void block(sha256 *s, const uint8_t *p)
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ w[i - 15] >> 3;
        uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ w[i - 2] >> 10;
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3], e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
        uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    s->h[0] += a, s->h[1] += b, s->h[2] += c, s->h[3] += d;
    s->h[4] += e, s->h[5] += f, s->h[6] += g, s->h[7] += h;
}

static void sha_init(sha256 *s)
{
    static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memset(s, 0, sizeof *s);
    memcpy(s->h, h0, sizeof h0);
}

static void sha_add(sha256 *s, const void *data, size_t n)
{
    const uint8_t *p = data;
    s->bytes += n;
    while (n) {
        size_t k = 64 - s->nbuf < n ? 64 - s->nbuf : n;
        memcpy(s->buf + s->nbuf, p, k);
        s->nbuf += k;
        p += k;
        n -= k;
        if (s->nbuf == 64) {
            block(s, s->buf);
            s->nbuf = 0;
        }
    }
}

static void sha_end(sha256 *s, uint8_t out[32])
{
    uint64_t bits = s->bytes * 8;
    uint8_t pad = 0x80, zero = 0;
    sha_add(s, &pad, 1);
    while (s->nbuf != 56)
        sha_add(s, &zero, 1);
    uint8_t len[8];
    for (int i = 0; i < 8; i++)
        len[i] = (uint8_t)(bits >> (56 - 8 * i));
    sha_add(s, len, 8);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 4; j++)
            out[4 * i + j] = (uint8_t)(s->h[i] >> (24 - 8 * j));
}

void wl_sha256(const void *data, size_t n, uint8_t out[32])
{
    sha256 s;
    sha_init(&s);
    sha_add(&s, data, n);
    sha_end(&s, out);
}

/* a tagged field: the tag, then the value as 8 little-endian bytes */
static void field(sha256 *s, const char *tag, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    sha_add(s, tag, strlen(tag) + 1);
    sha_add(s, b, 8);
}

static void text(sha256 *s, const char *tag, const char *t)
{
    field(s, tag, t ? strlen(t) : (uint64_t)-1);
    if (t)
        sha_add(s, t, strlen(t));
}

wl_status wl_translate_key(const wl_lift_program *p, const wl_translate_options *caller, uint8_t key[32])
{
    wl_translate_options full, *o = &full;
    if (!p || !key || (!p->code && p->size) || !wl_translate_options_read(caller, &full))
        return WL_ERR_USAGE;
    sha256 s;
    sha_init(&s);
    text(&s, "wavelift-key", "1");
    text(&s, "version", wl_version());
    text(&s, "llvm", wl_llvm_version());
    /* the program */
    field(&s, "code", p->size);
    sha_add(&s, p->code, p->size);
    field(&s, "entry", p->entry);
    field(&s, "address", p->address);
    field(&s, "target", (uint64_t)p->target);
    field(&s, "wave", p->wave_size);
    field(&s, "user-sgprs", p->user_sgpr_count);
    field(&s, "private-buffer", (uint64_t)p->private_segment_buffer);
    for (int i = 0; i < 3; i++)
        field(&s, "workgroup-id", (uint64_t)p->enable_workgroup_id[i]);
    field(&s, "workgroup-info", (uint64_t)p->enable_workgroup_info);
    field(&s, "workgroup-waves", p->workgroup_waves);
    field(&s, "wave-offset", (uint64_t)p->enable_private_segment_wave_offset);
    field(&s, "thread-ids", p->vgpr_workitem_ids);
    field(&s, "lds", p->lds_bytes);
    field(&s, "scratch", p->scratch_bytes);
    field(&s, "float-known", (uint64_t)p->float_mode_known);
    field(&s, "round", (uint64_t)p->float_round_mode_32 | (uint64_t)p->float_round_mode_16_64 << 8);
    field(&s, "denorm", (uint64_t)p->float_denorm_mode_32 | (uint64_t)p->float_denorm_mode_16_64 << 8);
    field(&s, "clamp-ieee", (uint64_t)p->dx10_clamp | (uint64_t)p->ieee_mode << 8);
    /* the options (stage_hook only looks) */
    field(&s, "subgroup", o->subgroup_size);
    for (int i = 0; i < 3; i++)
        field(&s, "local", o->local_size[i] ? o->local_size[i] : 1);
    field(&s, "opt", (uint64_t)o->opt_level);
    field(&s, "validate", (uint64_t)o->validate);
    field(&s, "merge-stores", (uint64_t)o->force_merge_stores);
    field(&s, "atomic64-lock", (uint64_t)o->force_atomic64_lock);
    field(&s, "lds-limit", o->lds_limit);
    field(&s, "lds-atomic64-lock", (uint64_t)o->force_lds_atomic64_lock);
    field(&s, "scratch-limit", o->scratch_limit);
    field(&s, "scratch-buffer", (uint64_t)o->force_scratch_buffer);
    field(&s, "private-limit", o->private_limit);
    field(&s, "fused-fma", (uint64_t)o->fused_fma);
    field(&s, "model", (uint64_t)o->model);
    field(&s, "loop-budget", o->loop_budget);
    field(&s, "pages", (uint64_t)o->mapping_pages);
    field(&s, "maximal-reconvergence", (uint64_t)o->maximal_reconvergence);
    field(&s, "loop-iteration-limit", o->loop_iteration_limit);
    field(&s, "state-in-buffer", (uint64_t)o->state_in_buffer);
    /* the host's descriptor slots: its answer for each buffer (a refusal
     * keys as one too) */
    static const char *const bufs[WL_OWN_BUFFERS] = WL_OWN_BUFFER_NAMES;
    for (int b = 0; b < WL_OWN_BUFFERS; b++) {
        uint32_t set = WL_DESCRIPTOR_SET, slot = (uint32_t)b;
        char why[64];
        int refused = o->remap_binding ? o->remap_binding(o->remap_user, bufs[b], &set, &slot, why, sizeof why) : 0;
        field(&s, "binding", refused ? UINT64_MAX : (uint64_t)set << 32 | slot);
    }
    text(&s, "passes", o->passes);
    text(&s, "env-passes", getenv("WAVELIFT_PASSES"));
    sha_end(&s, key);
    return WL_OK;
}

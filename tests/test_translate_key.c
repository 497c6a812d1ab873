/* wl_translate_key (lower/translate_key.c): SHA-256 against FIPS 180-4's
 * examples (the values printed in the standard's appendix, not computed
 * here), and the key's properties: equal inputs give equal keys; a code
 * byte, a launch field or an option changed gives another; the stage hook
 * (it only looks) does not count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "wavelift/abi.h"
#include "wavelift/codeobj.h"
#include "wavelift/translate.h"

static void hex(const uint8_t *k, char *out)
{
    for (int i = 0; i < 32; i++)
        sprintf(out + 2 * i, "%02x", k[i]);
}

static void sha256_vectors(void **state)
{
    (void)state;
    static const struct {
        const char *msg, *digest;
    } v[] = {
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        uint8_t d[32];
        char h[65];
        wl_sha256(v[i].msg, strlen(v[i].msg), d);
        hex(d, h);
        printf("sha256(\"%.20s...\") = %s\n", v[i].msg, h);
        assert_string_equal(h, v[i].digest);
    }
    /* a million 'a' (FIPS 180-4 / NIST's long example) */
    char *m = malloc(1000000);
    assert_non_null(m);
    memset(m, 'a', 1000000);
    uint8_t d[32];
    char h[65];
    wl_sha256(m, 1000000, d);
    free(m);
    hex(d, h);
    assert_string_equal(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

static void hook(void *user, const char *stage, LLVMModuleRef m)
{
    (void)user, (void)stage, (void)m;
}

static void log_nothing(void *user, const char *line)
{
    (void)user;
    (void)line;
}

/* A host's descriptor slots: set 2, bindings 7 + the default; with a
 * non-NULL user, the LDS buffer refused. */
static int remap_set2(void *user, const char *name, uint32_t *set, uint32_t *binding, char *why, size_t whycap)
{
    if (user && !strcmp(name, "lds")) {
        snprintf(why, whycap, "this host keeps no room for device-memory LDS");
        return 1;
    }
    *set = 2;
    *binding += 7;
    return 0;
}

static void key_properties(void **state)
{
    (void)state;
    uint8_t code[64];
    for (int i = 0; i < 64; i++)
        code[i] = (uint8_t)(i * 37 + 5);
    wl_lift_program p;
    wlt_program64(&p, code, sizeof code, 4);
    wl_translate_options o;
    wlt_options64(&o, 0, 32);
    uint8_t k0[32], k1[32];
    assert_int_equal(wl_translate_key(&p, &o, k0), WL_OK);
    assert_int_equal(wl_translate_key(&p, &o, k1), WL_OK);
    assert_memory_equal(k0, k1, 32);
    o.stage_hook = hook; /* looks only */
    assert_int_equal(wl_translate_key(&p, &o, k1), WL_OK);
    assert_memory_equal(k0, k1, 32);
    o.stage_hook = NULL;
    int changed = 0, tried = 0;
    wl_target tgt;
#define DIFFERS(what, change, undo)                                                                                    \
    do {                                                                                                               \
        change;                                                                                                        \
        assert_int_equal(wl_translate_key(&p, &o, k1), WL_OK);                                                        \
        int d = memcmp(k0, k1, 32) != 0;                                                                               \
        printf("%-32s %s\n", what, d ? "another key" : "THE SAME KEY");                                              \
        changed += d;                                                                                                  \
        tried++;                                                                                                       \
        undo;                                                                                                          \
    } while (0)
    DIFFERS("a code byte", code[17] ^= 1, code[17] ^= 1);
    DIFFERS("the code's address", p.address += 4, p.address -= 4);
    DIFFERS("the entry", p.entry = 8, p.entry = 0);
    DIFFERS("the LDS size", p.lds_bytes = 256, p.lds_bytes = 0);
    DIFFERS("the f32 denormal mode", p.float_denorm_mode_32 = 3, p.float_denorm_mode_32 = 0);
    DIFFERS("the subgroup size", o.subgroup_size = 16, o.subgroup_size = 32);
    DIFFERS("the work-group size", o.local_size[0] = 128, o.local_size[0] = 64);
    DIFFERS("-O0", o.opt_level = 0, o.opt_level = 2);
    DIFFERS("the model", o.model = 1, o.model = 0);
    DIFFERS("fused_fma", o.fused_fma = WL_FMA_F64, o.fused_fma = 0);
    DIFFERS("a pass skipped", o.passes = "skip=merge-loads", o.passes = NULL);
    DIFFERS("the loop budget", o.loop_budget = 5, o.loop_budget = 0);
    DIFFERS("maximal reconvergence", o.maximal_reconvergence = 1, o.maximal_reconvergence = 0);
    DIFFERS("the host's loop limit", o.loop_iteration_limit = 65535, o.loop_iteration_limit = 0);
    DIFFERS("the state in a buffer", o.state_in_buffer = 1, o.state_in_buffer = 0);
    /* every other input: the program's launch fields and the options */
    DIFFERS("the target", (tgt = p.target, p.target = p.target == WL_GFX1010 ? WL_GFX1030 : WL_GFX1010), p.target = tgt);
    DIFFERS("the wave size", p.wave_size = 32, p.wave_size = 64);
    DIFFERS("the user SGPRs", p.user_sgpr_count = 6, p.user_sgpr_count = 4);
    DIFFERS("the private segment buffer", p.private_segment_buffer ^= 1, p.private_segment_buffer ^= 1);
    DIFFERS("workgroup id y", p.enable_workgroup_id[1] ^= 1, p.enable_workgroup_id[1] ^= 1);
    DIFFERS("the workgroup info", p.enable_workgroup_info ^= 1, p.enable_workgroup_info ^= 1);
    DIFFERS("the waves of a group", p.workgroup_waves += 1, p.workgroup_waves -= 1);
    DIFFERS("the scratch wave offset", p.enable_private_segment_wave_offset ^= 1,
            p.enable_private_segment_wave_offset ^= 1);
    DIFFERS("the thread-id VGPRs", p.vgpr_workitem_ids ^= 2, p.vgpr_workitem_ids ^= 2);
    DIFFERS("the scratch size", p.scratch_bytes += 16, p.scratch_bytes -= 16);
    DIFFERS("the float mode known", p.float_mode_known ^= 1, p.float_mode_known ^= 1);
    DIFFERS("the f32 rounding", p.float_round_mode_32 ^= 1, p.float_round_mode_32 ^= 1);
    DIFFERS("the f64 denormal mode", p.float_denorm_mode_16_64 ^= 1, p.float_denorm_mode_16_64 ^= 1);
    DIFFERS("dx10 clamp", p.dx10_clamp ^= 1, p.dx10_clamp ^= 1);
    DIFFERS("IEEE mode", p.ieee_mode ^= 1, p.ieee_mode ^= 1);
    DIFFERS("validation", o.validate ^= 1, o.validate ^= 1);
    DIFFERS("merged byte stores", o.force_merge_stores ^= 1, o.force_merge_stores ^= 1);
    DIFFERS("64-bit atomics under a lock", o.force_atomic64_lock ^= 1, o.force_atomic64_lock ^= 1);
    DIFFERS("the shared memory limit", o.lds_limit = 4096, o.lds_limit = 0);
    DIFFERS("device-memory LDS", o.passes = "lds-buffer", o.passes = NULL);
    DIFFERS("LDS 64-bit atomics under a lock", o.force_lds_atomic64_lock ^= 1, o.force_lds_atomic64_lock ^= 1);
    DIFFERS("helpers kept as functions", o.passes = "helper-calls=12", o.passes = NULL);
    DIFFERS("the scratch limit", o.scratch_limit = 64, o.scratch_limit = 0);
    DIFFERS("device-memory scratch", o.force_scratch_buffer ^= 1, o.force_scratch_buffer ^= 1);
    DIFFERS("the private limit", o.private_limit = 4096, o.private_limit = 0);
    DIFFERS("the page table", o.mapping_pages ^= 1, o.mapping_pages ^= 1);
    DIFFERS("the work-group size y", o.local_size[1] = 2, o.local_size[1] = 1);
    DIFFERS("the host's bindings", (o.remap_binding = remap_set2, o.remap_user = NULL), o.remap_binding = NULL);
    int refuse_lds = 1;
    DIFFERS("a binding refused", (o.remap_binding = remap_set2, o.remap_user = &refuse_lds), (o.remap_binding = NULL, o.remap_user = NULL));
    assert_int_equal(changed, tried);
    /* what the module does not depend on leaves the key as it was: the
     * log, where the remap callback's user points when it answers alike,
     * a struct_size from an older header when the fields past it are zero */
    o.log = log_nothing;
    o.log_user = k1;
    assert_int_equal(wl_translate_key(&p, &o, k1), WL_OK);
    assert_memory_equal(k0, k1, 32);
    o.log = NULL;
    o.log_user = NULL;
    uint8_t ka[32], kb[32];
    o.remap_binding = remap_set2;
    assert_int_equal(wl_translate_key(&p, &o, ka), WL_OK);
    o.remap_user = NULL; /* remap_set2 moves all alike whatever non-refusing user: NULL is its plain form */
    assert_int_equal(wl_translate_key(&p, &o, kb), WL_OK);
    assert_memory_equal(ka, kb, 32);
    o.remap_binding = NULL;
    /* back to the start: the first key again */
    assert_int_equal(wl_translate_key(&p, &o, k1), WL_OK);
    assert_memory_equal(k0, k1, 32);
    assert_int_equal(wl_translate_key(NULL, &o, k1), WL_ERR_USAGE);
}

/* wl_translate_options.maximal_reconvergence: the module of a small program
 * with the option is the one without it plus exactly OpExtension
 * "SPV_KHR_maximal_reconvergence" before OpMemoryModel and OpExecutionMode
 * %entry MaximallyReconvergesKHR (6023) after the entry's first mode. */
static void maximal_reconvergence_words(void **state)
{
    (void)state;
    static const char ir[] = "define void @wl.wave() {\nentry:\n  ret void\n}\n"
                             "!wl.program = !{!0}\n!0 = !{i32 64, i32 0, i32 0, i32 2}\n";
    wl_translate_options o;
    wlt_options64(&o, 0, 32);
    o.validate = 1;
    char err[512] = "";
    size_t n0 = 0, n1 = 0;
    uint32_t *w0 = wlt_translate_text(ir, &o, &n0, NULL, NULL, err, sizeof err);
    if (!w0)
        fail_msg("%s", err);
    o.maximal_reconvergence = 1;
    uint32_t *w1 = wlt_translate_text(ir, &o, &n1, NULL, NULL, err, sizeof err);
    if (!w1)
        fail_msg("%s", err);
    printf("words: %zu without, %zu with MaximallyReconvergesKHR\n", n0, n1);
    assert_int_equal(n1, n0 + 12);
    /* walk both: equal but for the two added instructions */
    size_t i = 5, j = 5, ext = 0, mode = 0;
    assert_memory_equal(w0, w1, 5 * sizeof *w0);
    while (i < n0 && j < n1) {
        uint32_t op = w1[j] & 0xffffu, len = w1[j] >> 16;
        assert_true(len > 0);
        if (op == 10 && !memcmp(&w1[j + 1], "SPV_KHR_maximal_reconvergence", 30)) {
            ext++;
            j += len;
            continue;
        }
        if (op == 16 && len == 3 && w1[j + 2] == 6023u) {
            mode++;
            j += len;
            continue;
        }
        assert_int_equal(w0[i], w1[j]);
        assert_memory_equal(&w0[i], &w1[j], len * sizeof *w0);
        i += len;
        j += len;
    }
    assert_int_equal(i, n0);
    assert_int_equal(j, n1);
    assert_int_equal(ext, 1);
    assert_int_equal(mode, 1);
    free(w0);
    free(w1);
}

/* The first kernel of a suite object (freed with the returned object), and
 * the options the tests below start from: S = 32, a group of `local`, -O2. */
static wl_codeobj *first_kernel(const char *file, wl_lift_program *prog)
{
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/%s", WL_KERNEL_DIR, file);
    wl_codeobj *co = NULL;
    assert_int_equal(wl_codeobj_load(path, &co, err, sizeof err), WL_OK);
    assert_int_equal(wl_lift_program_from_kernel(co, &co->kernels[0], prog, err, sizeof err), WL_OK);
    return co;
}

static void base_options(wl_translate_options *o, unsigned local)
{
    wl_translate_options_init(o);
    o->subgroup_size = 32;
    o->local_size[0] = local;
    o->local_size[1] = o->local_size[2] = 1;
    o->opt_level = 2;
}

/* ---- reflection against the module's own words --------------------------
 * Every kernel of a set of suite objects (64-bit atomics on global and
 * shared memory, bytes and halves, doubles, subgroups, scratch, LDS), both
 * models, with and without maximal reconvergence: wl_reflect's answer is
 * compared with what the SPIR-V words say, read here: the capabilities
 * (each feature wl_reflect names has its capability, and each capability
 * that needs a feature is named), OpDecorate Binding (the bindings), the
 * LocalSize mode, OpExtension, a PushConstant variable, and the subgroup
 * operations' capabilities. */
typedef struct words_says {
    uint32_t caps[64];
    unsigned ncaps;
    uint32_t bindings;   /* bit b: an OpDecorate Binding b */
    uint32_t var[8], set[8], slot[8]; /* each variable's DescriptorSet and Binding */
    unsigned nvar;
    uint32_t local[3];
    int maxrec_ext, push;
} words_says;

static void read_words(const uint32_t *w, size_t n, words_says *s)
{
    memset(s, 0, sizeof *s);
    for (size_t i = 5; i < n;) {
        uint32_t op = w[i] & 0xffffu, len = w[i] >> 16;
        assert_true(len > 0 && i + len <= n);
        if (op == 17 && s->ncaps < 64) /* OpCapability */
            s->caps[s->ncaps++] = w[i + 1];
        else if (op == 71 && len >= 4 && (w[i + 2] == 33 || w[i + 2] == 34)) { /* Binding, DescriptorSet */
            unsigned v = 0;
            while (v < s->nvar && s->var[v] != w[i + 1])
                v++;
            assert_true(v < 8);
            if (v == s->nvar)
                s->var[s->nvar++] = w[i + 1];
            if (w[i + 2] == 33) {
                s->slot[v] = w[i + 3];
                s->bindings |= 1u << (w[i + 3] & 31);
            } else {
                s->set[v] = w[i + 3];
            }
        }
        else if (op == 16 && len >= 6 && w[i + 2] == 17) /* OpExecutionMode LocalSize */
            memcpy(s->local, &w[i + 3], sizeof s->local);
        else if (op == 10 && !memcmp(&w[i + 1], "SPV_KHR_maximal_reconvergence", 30))
            s->maxrec_ext = 1;
        else if (op == 59 && len >= 4 && w[i + 3] == 9) /* OpVariable PushConstant */
            s->push = 1;
        i += len;
    }
}

static int has_cap(const words_says *s, uint32_t cap)
{
    for (unsigned i = 0; i < s->ncaps; i++)
        if (s->caps[i] == cap)
            return 1;
    return 0;
}

static int names(const wl_reflection *r, const char *feature)
{
    for (uint32_t i = 0; i < r->nfeatures; i++)
        if (!strcmp(r->features[i], feature))
            return 1;
    return 0;
}

static void reflection_matches_module(void **state)
{
    (void)state;
    static const char *files[] = {"suite_lds64", "atomics_global", "bytes_shorts", "double_math", "half_math",
                                  "subgroup_ops", "scratch", "lds_barrier", "vector_add"};
    /* capability -> the feature it needs */
    static const struct {
        uint32_t cap;
        const char *feature;
    } CAPS[] = {{39, "shaderInt8"},   {22, "shaderInt16"}, {11, "shaderInt64"}, {9, "shaderFloat16"},
                {10, "shaderFloat64"}, {4448, "storageBuffer8BitAccess"}, {4433, "storageBuffer16BitAccess"},
                {5347, "bufferDeviceAddress"}};
    /* capability -> VkSubgroupFeatureFlagBits */
    static const struct {
        uint32_t cap, bit;
    } SG[] = {{61, 0x1}, {62, 0x2}, {63, 0x4}, {64, 0x8}, {65, 0x10}, {66, 0x20}};
    char err[2048], path[512];
    unsigned checked = 0, shared64 = 0, buffer64 = 0, wave = 0, states = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        snprintf(path, sizeof path, "%s/%s.w64.co", WL_KERNEL_DIR, files[f]);
        wl_codeobj *co = NULL;
        if (wl_codeobj_load(path, &co, err, sizeof err) != WL_OK)
            fail_msg("%s: %s", path, err);
        for (size_t k = 0; k < co->nkernels; k++) {
            wl_lift_program prog;
            if (wl_lift_program_from_kernel(co, &co->kernels[k], &prog, err, sizeof err) != WL_OK)
                continue;
            for (int v = 0; v < 4; v++) {
                wl_translate_options o;
                wl_translate_options_init(&o);
                o.model = v == 2 ? WL_MODEL_WAVE : WL_MODEL_LANES;
                o.subgroup_size = 32;
                o.local_size[0] = 64;
                o.local_size[1] = o.local_size[2] = 1;
                o.opt_level = 2;
                o.validate = 1;
                o.maximal_reconvergence = v == 1;
                if (v == 3) { /* the host's slots, the state in a buffer */
                    o.remap_binding = remap_set2;
                    o.state_in_buffer = 1;
                }
                uint32_t *w = NULL;
                size_t nw = 0;
                wl_translate_info info;
                if (wl_translate(&prog, &o, &w, &nw, &info, err, sizeof err) != WL_OK)
                    continue; /* a refusal: nothing to reflect */
                wl_reflection r = {.struct_size = sizeof r};
                assert_int_equal(wl_reflect(&info, &o, &r), WL_OK);
                words_says s;
                read_words(w, nw, &s);
                const char *what = co->kernels[k].name;
                for (size_t c = 0; c < sizeof CAPS / sizeof CAPS[0]; c++)
                    if (has_cap(&s, CAPS[c].cap) != names(&r, CAPS[c].feature))
                        fail_msg("%s/%s model %d: capability %u in the module %d, %s named %d", files[f], what,
                                 o.model, CAPS[c].cap, has_cap(&s, CAPS[c].cap), CAPS[c].feature,
                                 names(&r, CAPS[c].feature));
                int a64 = names(&r, "shaderBufferInt64Atomics") || names(&r, "shaderSharedInt64Atomics");
                assert_int_equal(has_cap(&s, 12), a64); /* Int64Atomics */
                shared64 += names(&r, "shaderSharedInt64Atomics");
                buffer64 += names(&r, "shaderBufferInt64Atomics");
                uint32_t sg = 0;
                for (size_t c = 0; c < sizeof SG / sizeof SG[0]; c++)
                    if (has_cap(&s, SG[c].cap))
                        sg |= SG[c].bit;
                assert_int_equal(sg, r.subgroup_operations);
                /* each binding reflected is a variable's decorations, and each
                 * variable's is reflected */
                assert_int_equal(r.nbindings, s.nvar);
                for (uint32_t b = 0; b < r.nbindings; b++) {
                    unsigned hit = 0;
                    for (unsigned q = 0; q < s.nvar; q++)
                        hit += s.set[q] == r.bindings[b].set && s.slot[q] == r.bindings[b].binding;
                    if (hit != 1)
                        fail_msg("%s/%s: %s at set %u binding %u: %u variables there", files[f], what,
                                 r.bindings[b].name, r.bindings[b].set, r.bindings[b].binding, hit);
                    assert_int_equal(r.bindings[b].set, v == 3 ? 2u : (uint32_t)WL_DESCRIPTOR_SET);
                }
                if (v == 3) {
                    assert_int_equal(r.push_size, 0);
                    assert_false(s.push);
                    int state = 0;
                    for (uint32_t b = 0; b < r.nbindings; b++)
                        state += !strcmp(r.bindings[b].name, "state") && r.bindings[b].binding == 7 + WL_BINDING_STATE;
                    assert_int_equal(state, 1);
                    states++;
                }
                assert_memory_equal(r.local_size, s.local, sizeof s.local);
                assert_int_equal(s.push, r.push_size > 0);
                if (r.push_size)
                    assert_true(r.npush > 0 && r.push[r.npush - 1].offset + r.push[r.npush - 1].size <= r.push_size);
                assert_int_equal(s.maxrec_ext, r.nextensions > 0);
                assert_int_equal(r.model, o.model);
                if (o.model == WL_MODEL_WAVE) {
                    assert_int_equal(r.required_subgroup_size, 0);
                    assert_int_equal(r.full_subgroups, 0);
                    assert_int_equal(sg, 0); /* the wave model: no subgroup operation */
                    wave++;
                } else {
                    assert_int_equal(r.required_subgroup_size, 32);
                    assert_int_equal(r.full_subgroups, 1);
                    assert_true(names(&r, "subgroupSizeControl") && names(&r, "computeFullSubgroups"));
                }
                checked++;
                free(w);
            }
        }
        wl_codeobj_free(co);
    }
    printf("reflection: %u modules matched their words (%u wave model; 64-bit atomics: %u on buffers, %u on "
           "shared memory)\n", checked, wave, buffer64, shared64);
    assert_true(checked >= 30);
    assert_true(states >= 10);
    assert_true(shared64 > 0);
    assert_true(buffer64 > 0);
    /* a host that refuses the device-memory LDS buffer: a kernel whose LDS
     * lives there is refused, naming it */
    wl_lift_program prog;
    wl_codeobj *co = first_kernel("lds_barrier.w64.co", &prog);
    wl_translate_options lo;
    base_options(&lo, 64);
    lo.passes = "lds-buffer";
    int refuse = 1;
    lo.remap_binding = remap_set2;
    lo.remap_user = &refuse;
    uint32_t *w = NULL;
    size_t nw = 0;
    assert_int_equal(wl_translate(&prog, &lo, &w, &nw, NULL, err, sizeof err), WL_ERR_UNSUPPORTED);
    printf("a host without room for the LDS buffer: %s\n", err);
    assert_non_null(strstr(err, "lds"));
    assert_non_null(strstr(err, "no room for device-memory LDS"));
    wl_codeobj_free(co);
    wl_reflection small = {.struct_size = 4};
    wl_translate_info info;
    memset(&info, 0, sizeof info);
    wl_translate_options o;
    wl_translate_options_init(&o);
    assert_int_equal(wl_reflect(&info, &o, &small), WL_ERR_USAGE);
    assert_int_equal(wl_reflect(NULL, &o, &small), WL_ERR_USAGE);
}

/* wl_translate_options_for_host: hosts described by hand, the options and
 * models expected of each written here. */
static void options_for_host(void **state)
{
    (void)state;
    static const struct {
        unsigned S, lo, hi, W;
        int asked;            /* o.model before */
        unsigned asked_S;     /* o.subgroup_size before */
        int model;            /* after */
        unsigned S_after;
        const char *why;
    } cases[] = {
        {32, 32, 32, 64, WL_MODEL_AUTO, 0, WL_MODEL_LANES, 32, "2 lanes an invocation"},  /* NVIDIA, wave64 */
        {32, 32, 32, 32, WL_MODEL_AUTO, 0, WL_MODEL_LANES, 32, "1 lanes an invocation"},  /* NVIDIA, wave32 */
        {64, 32, 64, 32, WL_MODEL_AUTO, 0, WL_MODEL_LANES, 32, "1 lanes an invocation"},  /* RADV: 64 by default */
        {8, 8, 8, 64, WL_MODEL_AUTO, 0, WL_MODEL_LANES, 8, "8 lanes an invocation"},      /* lavapipe */
        {64, 64, 64, 32, WL_MODEL_AUTO, 0, WL_MODEL_WAVE, 64, "cannot carry"},            /* only 64 */
        {2, 2, 2, 64, WL_MODEL_AUTO, 0, WL_MODEL_WAVE, 2, "under 4 lanes"},
        {32, 32, 32, 64, WL_MODEL_AUTO, 16, WL_MODEL_WAVE, 16, "offers subgroups of 32 to 32"},
        {8, 8, 8, 64, WL_MODEL_WAVE, 0, WL_MODEL_WAVE, 8, "asked for"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        wl_host h = {.struct_size = sizeof h, .subgroup_size = cases[i].S, .min_subgroup_size = cases[i].lo,
                     .max_subgroup_size = cases[i].hi, .full_subgroups = 1, .storage_8bit_16bit = (int)(i & 1),
                     .buffer_int64_atomics = 1, .shared_int64_atomics = 0, .shared_memory_bytes = 49152,
                     .loop_iteration_limit = i == 3 ? 65535u : 0, .maximal_reconvergence = i == 0,
                     .fused_fma = i == 0 ? WL_FMA_F64 | WL_FMA_F32_NORMAL : 0};
        wl_translate_options o;
        wl_translate_options_init(&o);
        o.model = cases[i].asked;
        o.subgroup_size = cases[i].asked_S;
        o.opt_level = 2; /* not the host's: left alone */
        char why[256] = "";
        assert_int_equal(wl_translate_options_for_host(&h, cases[i].W, &o, why, sizeof why), WL_OK);
        printf("host S=%u (%u..%u), wave%u: %s (S %u): %s\n", cases[i].S, cases[i].lo, cases[i].hi, cases[i].W,
               o.model == WL_MODEL_WAVE ? "wave" : "lanes", o.subgroup_size, why);
        assert_int_equal(o.model, cases[i].model);
        assert_int_equal(o.subgroup_size, cases[i].S_after);
        assert_non_null(strstr(why, cases[i].why));
        assert_int_equal(o.force_merge_stores, !(i & 1));
        assert_int_equal(o.force_atomic64_lock, 0);
        assert_int_equal(o.force_lds_atomic64_lock, 1);
        assert_int_equal(o.lds_limit, 49152);
        assert_int_equal(o.loop_iteration_limit, i == 3 ? 65535u : 0);
        assert_int_equal(o.maximal_reconvergence, i == 0);
        assert_int_equal(o.fused_fma, i == 0 ? WL_FMA_F64 | WL_FMA_F32_NORMAL : 0);
        assert_int_equal(o.opt_level, 2);
    }
    wl_host bad = {.struct_size = 4, .subgroup_size = 32};
    wl_translate_options o;
    wl_translate_options_init(&o);
    assert_int_equal(wl_translate_options_for_host(&bad, 64, &o, NULL, 0), WL_ERR_USAGE);
    bad.struct_size = sizeof bad;
    o.model = 7;
    assert_int_equal(wl_translate_options_for_host(&bad, 64, &o, NULL, 0), WL_ERR_USAGE);
}

/* wl_translate_options.log: the debug option's lines and a refusal's
 * message reach the caller's log. */
typedef struct logbook {
    unsigned lines, passes, refusals;
} logbook;

static void note_line(void *user, const char *line)
{
    logbook *b = user;
    b->lines++;
    b->passes += strncmp(line, "wavelift passes: ", 17) == 0;
    b->refusals += strstr(line, "wavelift: unsupported: ") == line && strstr(line, "image_") != NULL;
}

static void log_callback(void **state)
{
    (void)state;
    char err[1024];
    static const char *const objs[] = {"vector_add.w64.co", "images.w32.co"}; /* images: img_3d, refused */
    logbook book[2];
    memset(book, 0, sizeof book);
    for (int i = 0; i < 2; i++) {
        wl_lift_program prog;
        wl_codeobj *co = first_kernel(objs[i], &prog);
        if (i) {
            const wl_kernel *k = wl_codeobj_find_kernel(co, "img_3d");
            assert_non_null(k);
            assert_int_equal(wl_lift_program_from_kernel(co, k, &prog, err, sizeof err), WL_OK);
        }
        wl_translate_options o;
        base_options(&o, prog.wave_size);
        o.passes = "time";
        o.log = note_line;
        o.log_user = &book[i];
        uint32_t *w = NULL;
        size_t nw = 0;
        wl_status st = wl_translate(&prog, &o, &w, &nw, NULL, err, sizeof err);
        assert_int_equal(st, i ? WL_ERR_UNSUPPORTED : WL_OK);
        free(w);
        wl_codeobj_free(co);
    }
    printf("log: vector_add %u lines (%u pass timings), images %u lines (%u refusal)\n", book[0].lines,
           book[0].passes, book[1].lines, book[1].refusals);
    assert_true(book[0].passes >= 10);
    assert_int_equal(book[0].refusals, 0);
    assert_int_equal(book[1].refusals, 1);
}

/* wl_translate_options.struct_size: a caller built against older headers
 * (a smaller struct, here cut before remap_binding, the bytes after it
 * garbage) gets the fields past its size as zero: the same module and key
 * as a full struct with them zero; 0 is refused. */
static void options_versioned(void **state)
{
    (void)state;
    char err[512];
    wl_lift_program prog;
    wl_codeobj *co = first_kernel("vector_add.w64.co", &prog);
    wl_translate_options full;
    base_options(&full, 64);
    assert_int_equal(full.struct_size, sizeof full);
    wl_translate_options old = full;
    old.struct_size = (uint32_t)offsetof(wl_translate_options, remap_binding);
    memset((uint8_t *)&old + old.struct_size, 0xa5, sizeof old - old.struct_size); /* not the caller's */
    uint32_t *w0 = NULL, *w1 = NULL;
    size_t n0 = 0, n1 = 0;
    assert_int_equal(wl_translate(&prog, &full, &w0, &n0, NULL, err, sizeof err), WL_OK);
    assert_int_equal(wl_translate(&prog, &old, &w1, &n1, NULL, err, sizeof err), WL_OK);
    assert_int_equal(n0, n1);
    assert_memory_equal(w0, w1, n0 * 4);
    uint8_t k0[32], k1[32];
    assert_int_equal(wl_translate_key(&prog, &full, k0), WL_OK);
    assert_int_equal(wl_translate_key(&prog, &old, k1), WL_OK);
    assert_memory_equal(k0, k1, 32);
    printf("options of an older size (%u of %zu bytes): the same %zu words and key\n", old.struct_size,
           sizeof full, n0);
    free(w0);
    free(w1);
    old.struct_size = 0;
    assert_int_equal(wl_translate(&prog, &old, &w1, &n1, NULL, err, sizeof err), WL_ERR_USAGE);
    printf("struct_size 0: %s\n", err);
    assert_non_null(strstr(err, "struct_size"));
    assert_int_equal(wl_translate_key(&prog, &old, k1), WL_ERR_USAGE);
    wl_codeobj_free(co);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(sha256_vectors), cmocka_unit_test(key_properties),
                                       cmocka_unit_test(maximal_reconvergence_words),
                                       cmocka_unit_test(reflection_matches_module),
                                       cmocka_unit_test(options_for_host), cmocka_unit_test(log_callback),
                                       cmocka_unit_test(options_versioned)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The backend's modules run (runtime/, lavapipe or the first GPU): IR
 * programs are emitted, validated, dispatched, and their outputs compared
 * with values computed here in C. Each program runs as written and after
 * LLVM's default<O2>. Skipped when no Vulkan device is available. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "support.h"
#include "wavelift/backend.h"
#include "wavelift/runtime.h"

static wl_rt *rt;

static int setup(void **state)
{
    (void)state;
    char err[512];
    if (wl_rt_create(NULL, &rt, err, sizeof err) != WL_RT_OK) {
        print_message("no Vulkan device: %s\n", err);
        rt = NULL;
    } else {
        print_message("device: %s, subgroup size %u\n", wl_rt_profile(rt)->device_name,
                      wl_rt_profile(rt)->subgroup_size);
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    wl_rt_destroy(rt);
    return 0;
}

/* Emits the IR text (O2 first when asked); words are malloc'ed. */
static uint32_t *emit(const char *ir, int o2, uint32_t local, size_t *nwords)
{
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "exec");
    LLVMModuleRef m = NULL;
    char *msg = NULL;
    uint32_t *w = NULL;
    if (LLVMParseIRInContext(ctx, mb, &m, &msg)) {
        print_error("parse: %s\n", msg);
        LLVMDisposeMessage(msg);
        LLVMContextDispose(ctx);
        return NULL;
    }
    if (o2) {
        LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
        LLVMErrorRef r = LLVMRunPasses(m, "default<O2>", NULL, o);
        LLVMDisposePassBuilderOptions(o);
        if (r)
            LLVMConsumeError(r);
    }
    wl_emit_options opt = {0};
    opt.local_size[0] = local;
    opt.validate = 1;
    char err[1024];
    if (wl_emit_spirv(m, &opt, &w, nwords, NULL, err, sizeof err) != WL_OK)
        print_error("emit: %s\n", err);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    return w;
}

/* Runs words with one guest buffer `mem` (its address in push constants
 * word 0-1, `n` in word 2); returns 1 and mem updated. */
static int run(const uint32_t *w, size_t nw, uint32_t *mem, size_t words, uint32_t n, uint32_t groups)
{
    wl_rt_pipeline *p = NULL;
    wl_rt_buffer *buf = NULL;
    wl_rt_pipeline_desc pd = {w, nw, NULL, 0, 0};
    int ok = 0;
    if (wl_rt_pipeline_create(rt, &pd, &p) != WL_RT_OK || wl_rt_buffer_create(rt, words * 4, &buf) != WL_RT_OK ||
        wl_rt_buffer_upload(rt, buf, 0, mem, words * 4) != WL_RT_OK) {
        print_error("runtime: %s\n", wl_rt_error(rt));
        goto out;
    }
    uint64_t addr = wl_rt_buffer_address(buf);
    uint32_t push[4] = {(uint32_t)addr, (uint32_t)(addr >> 32), n, 0};
    wl_rt_dispatch_desc d;
    memset(&d, 0, sizeof d);
    d.groups[0] = groups;
    d.push_constants = push;
    d.push_constant_size = sizeof push;
    if (wl_rt_dispatch(rt, p, &d, NULL) != WL_RT_OK || wl_rt_buffer_download(rt, buf, 0, mem, words * 4) != WL_RT_OK) {
        print_error("runtime: %s\n", wl_rt_error(rt));
        goto out;
    }
    ok = 1;
out:
    if (buf)
        wl_rt_buffer_destroy(rt, buf);
    if (p)
        wl_rt_pipeline_destroy(rt, p);
    return ok;
}

static char *read_program(const char *name)
{
    char path[1024];
    size_t len;
    snprintf(path, sizeof path, "%s/tests/backend/%s", WL_SOURCE_DIR, name);
    uint8_t *t = wlt_read_file(path, &len);
    if (!t)
        return NULL;
    char *s = malloc(len + 1);
    memcpy(s, t, len);
    s[len] = 0;
    free(t);
    return s;
}

/* loop_early_exit.ll, one invocation: the C model of the program. */
static void loop_early_exit(void **state)
{
    (void)state;
    if (!rt)
        skip();
    char *ir = read_program("loop_early_exit.ll");
    assert_non_null(ir);
    int good = 0, total = 0;
    for (int o2 = 0; o2 < 2; o2++)
        for (int seed = 0; seed < 3; seed++) {
            uint32_t mem[64], want[64];
            uint32_t n = 40;
            for (int i = 0; i < 64; i++)
                mem[i] = (uint32_t)((i * 7 + seed * 13) % 11);
            mem[30 - seed * 10] = seed == 2 ? 1 : 7;
            memcpy(want, mem, sizeof mem);
            uint32_t i;
            int early = 0;
            for (i = 0; i < n; i++) {
                if (want[i] == 7) {
                    early = 1;
                    break;
                }
                if (want[i] != 3)
                    want[i]++;
            }
            want[0] = early ? i : n;
            size_t nw;
            uint32_t *w = emit(ir, o2, 1, &nw);
            assert_non_null(w);
            int ok = run(w, nw, mem, 64, n, 1) && !memcmp(mem, want, sizeof mem);
            if (!ok)
                print_error("loop_early_exit seed %d o2 %d: out[0] %u want %u\n", seed, o2, mem[0], want[0]);
            good += ok;
            total++;
            free(w);
        }
    free(ir);
    print_message("loop_early_exit: %d runs, %d match\n", total, good);
    assert_int_equal(good, total);
}

/* nested_loops.ll, one invocation. */
static void nested_loops(void **state)
{
    (void)state;
    if (!rt)
        skip();
    char *ir = read_program("nested_loops.ll");
    assert_non_null(ir);
    int good = 0, total = 0;
    for (int o2 = 0; o2 < 2; o2++)
        for (uint32_t n = 3; n <= 12; n += 3) {
            uint32_t mem[256];
            for (int i = 0; i < 256; i++)
                mem[i] = (uint32_t)((i * 37 + n) % 23);
            int32_t s = 0, r = 0;
            int done = 0;
            for (uint32_t i = 0; i < n && !done; i++) {
                for (uint32_t j = 0; j < n; j++) {
                    int32_t v = (int32_t)mem[i * n + j];
                    s += v;
                    if (s > 1000) {
                        r = s;
                        done = 1;
                        break;
                    }
                    if (v == 5)
                        break;
                }
            }
            if (!done)
                r = s;
            size_t nw;
            uint32_t *w = emit(ir, o2, 1, &nw);
            assert_non_null(w);
            int ok = run(w, nw, mem, 256, n, 1) && mem[0] == (uint32_t)r;
            if (!ok)
                print_error("nested_loops n %u o2 %d: %u want %d\n", n, o2, mem[0], r);
            good += ok;
            total++;
            free(w);
        }
    free(ir);
    print_message("nested_loops: %d runs, %d match\n", total, good);
    assert_int_equal(good, total);
}

/* Every atomic under contention: all invocations of 4 groups of 64 on one
 * word of device memory, of workgroup memory, and 64-bit ones. */
static const char contention_ir[] =
    "@wl.push = external addrspace(6) global [4 x i32]\n"
    "@lds = addrspace(3) global [4 x i32] poison\n"
    "define void @main() {\n"
    "  %pa = load i64, ptr addrspace(6) @wl.push, align 4\n"
    "  %p = inttoptr i64 %pa to ptr addrspace(1)\n"
    "  %t = call i32 @spv.global_invocation_id(i32 0)\n"
    "  %l = call i32 @spv.local_invocation_index()\n"
    "  %t64 = zext i32 %t to i64\n"
    "  %q1 = getelementptr i32, ptr addrspace(1) %p, i32 1\n"
    "  %q2 = getelementptr i32, ptr addrspace(1) %p, i32 2\n"
    "  %q3 = getelementptr i32, ptr addrspace(1) %p, i32 3\n"
    "  %q4 = getelementptr i32, ptr addrspace(1) %p, i32 4\n"
    "  %q5 = getelementptr i32, ptr addrspace(1) %p, i32 5\n"
    "  %q6 = getelementptr i32, ptr addrspace(1) %p, i32 6\n"
    "  %q7 = getelementptr i32, ptr addrspace(1) %p, i32 7\n"
    "  %q8 = getelementptr i64, ptr addrspace(1) %p, i32 4\n"
    "  %q9 = getelementptr i64, ptr addrspace(1) %p, i32 5\n"
    "  %a0 = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic\n"
    "  %a1 = atomicrmw sub ptr addrspace(1) %q1, i32 %t monotonic\n"
    "  %a2 = atomicrmw xor ptr addrspace(1) %q2, i32 %t monotonic\n"
    "  %a3 = atomicrmw umax ptr addrspace(1) %q3, i32 %t monotonic\n"
    "  %a4 = atomicrmw min ptr addrspace(1) %q4, i32 %t monotonic\n"
    "  %a5 = atomicrmw or ptr addrspace(1) %q5, i32 %t monotonic\n"
    "  %a6 = atomicrmw and ptr addrspace(1) %q6, i32 %t monotonic\n"
    "  %c = cmpxchg ptr addrspace(1) %q7, i32 0, i32 %t seq_cst seq_cst\n"
    "  %a8 = atomicrmw add ptr addrspace(1) %q8, i64 4294967296 monotonic\n"
    "  %a9 = atomicrmw umax ptr addrspace(1) %q9, i64 %t64 monotonic\n"
    "  %z = icmp eq i32 %l, 0\n"
    "  br i1 %z, label %init, label %go\n"
    "init:\n"
    "  store i32 0, ptr addrspace(3) @lds, align 4\n"
    "  br label %go\n"
    "go:\n"
    "  call void @spv.barrier.workgroup()\n"
    "  %b0 = atomicrmw add ptr addrspace(3) @lds, i32 %l monotonic\n"
    "  call void @spv.barrier.workgroup()\n"
    "  %r = load i32, ptr addrspace(3) @lds, align 4\n"
    "  %o = getelementptr i32, ptr addrspace(1) %p, i32 16\n"
    "  %g = call i32 @spv.workgroup_id(i32 0)\n"
    "  %og = getelementptr i32, ptr addrspace(1) %o, i32 %g\n"
    "  store i32 %r, ptr addrspace(1) %og, align 4\n"
    "  ret void\n"
    "}\n"
    "declare i32 @spv.global_invocation_id(i32)\n"
    "declare i32 @spv.local_invocation_index()\n"
    "declare i32 @spv.workgroup_id(i32)\n"
    "declare void @spv.barrier.workgroup()\n";

static void atomics_contention(void **state)
{
    (void)state;
    if (!rt)
        skip();
    const wl_host_profile *hp = wl_rt_profile(rt);
    if (!hp->shader_buffer_int64_atomics)
        skip();
    int good = 0, total = 0;
    for (int o2 = 0; o2 < 2; o2++) {
        uint32_t mem[32] = {0};
        mem[1] = 1000000;
        mem[4] = 0x7fffffff;
        mem[6] = 0xffffffffu;
        const uint32_t N = 256;
        uint32_t want[32];
        memcpy(want, mem, sizeof mem);
        uint64_t w64a = 0, w64b = 0;
        want[0] += N;
        for (uint32_t t = 0; t < N; t++) {
            want[1] -= t;
            want[2] ^= t;
            want[3] = want[3] > t ? want[3] : t;
            want[4] = (int32_t)want[4] < (int32_t)t ? want[4] : t;
            want[5] |= t;
            want[6] &= t;
            w64a += 1ull << 32;
            w64b = w64b > t ? w64b : t;
        }
        want[8] = (uint32_t)w64a;
        want[9] = (uint32_t)(w64a >> 32);
        want[10] = (uint32_t)w64b;
        want[11] = (uint32_t)(w64b >> 32);
        for (int g = 0; g < 4; g++)
            want[16 + g] = 63 * 64 / 2;
        size_t nw;
        uint32_t *w = emit(contention_ir, o2, 64, &nw);
        assert_non_null(w);
        int ran = run(w, nw, mem, 32, 0, 4);
        /* the cmpxchg winner is any one invocation */
        int ok = ran && mem[7] < N;
        mem[7] = 0;
        ok = ok && !memcmp(mem, want, sizeof mem);
        if (!ok)
            for (int i = 0; i < 20; i++)
                if (mem[i] != want[i])
                    print_error("atomics o2 %d word %d: %#x want %#x\n", o2, i, mem[i], want[i]);
        good += ok;
        total++;
        free(w);
    }
    print_message("atomics under contention: %d runs, %d match\n", total, good);
    assert_int_equal(good, total);
}

/* Subgroup: ballot of all, its count, shuffle_xor of the lane id. */
static const char subgroup_ir[] =
    "@wl.push = external addrspace(6) global [4 x i32]\n"
    "define void @main() {\n"
    "  %pa = load i64, ptr addrspace(6) @wl.push, align 4\n"
    "  %p = inttoptr i64 %pa to ptr addrspace(1)\n"
    "  %t = call i32 @spv.local_invocation_index()\n"
    "  %lid = call i32 @spv.subgroup_local_invocation_id()\n"
    "  %sz = call i32 @spv.subgroup_size()\n"
    "  %odd = trunc i32 %lid to i1\n"
    "  %b = call <4 x i32> @spv.subgroup.ballot(i1 %odd)\n"
    "  %c = call i32 @spv.subgroup.ballot_bit_count(<4 x i32> %b)\n"
    "  %x = call i32 @spv.subgroup.shuffle_xor.i32(i32 %lid, i32 1)\n"
    "  %s = call i32 @spv.subgroup.iadd.i32(i32 %lid, i32 0)\n"
    "  %o = getelementptr [4 x i32], ptr addrspace(1) %p, i32 %t\n"
    "  store i32 %sz, ptr addrspace(1) %o, align 4\n"
    "  %o1 = getelementptr i32, ptr addrspace(1) %o, i32 1\n"
    "  store i32 %c, ptr addrspace(1) %o1, align 4\n"
    "  %o2 = getelementptr i32, ptr addrspace(1) %o, i32 2\n"
    "  store i32 %x, ptr addrspace(1) %o2, align 4\n"
    "  %o3 = getelementptr i32, ptr addrspace(1) %o, i32 3\n"
    "  store i32 %s, ptr addrspace(1) %o3, align 4\n"
    "  ret void\n"
    "}\n"
    "declare i32 @spv.local_invocation_index()\n"
    "declare i32 @spv.subgroup_local_invocation_id()\n"
    "declare i32 @spv.subgroup_size()\n"
    "declare <4 x i32> @spv.subgroup.ballot(i1)\n"
    "declare i32 @spv.subgroup.ballot_bit_count(<4 x i32>)\n"
    "declare i32 @spv.subgroup.shuffle_xor.i32(i32, i32)\n"
    "declare i32 @spv.subgroup.iadd.i32(i32, i32)\n";

static void subgroup_ops(void **state)
{
    (void)state;
    if (!rt)
        skip();
    int good = 0, total = 0;
    for (int o2 = 0; o2 < 2; o2++) {
        uint32_t mem[64 * 4] = {0};
        size_t nw;
        uint32_t *w = emit(subgroup_ir, o2, 64, &nw);
        assert_non_null(w);
        int ok = run(w, nw, mem, 64 * 4, 0, 1);
        uint32_t S = mem[0];
        ok = ok && S >= 1 && S <= 64 && (64 % S) == 0;
        for (uint32_t t = 0; ok && t < 64; t++) {
            uint32_t lid = t % S;
            ok = mem[4 * t] == S && mem[4 * t + 1] == S / 2 && mem[4 * t + 2] == (lid ^ 1) &&
                 mem[4 * t + 3] == S * (S - 1) / 2;
            if (!ok)
                print_error("subgroup o2 %d invocation %u: %u %u %u %u\n", o2, t, mem[4 * t], mem[4 * t + 1],
                            mem[4 * t + 2], mem[4 * t + 3]);
        }
        print_message("subgroup size %u\n", S);
        good += ok;
        total++;
        free(w);
    }
    print_message("subgroup operations: %d runs, %d match\n", total, good);
    assert_int_equal(good, total);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(loop_early_exit),
        cmocka_unit_test(nested_loops),
        cmocka_unit_test(atomics_contention),
        cmocka_unit_test(subgroup_ops),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

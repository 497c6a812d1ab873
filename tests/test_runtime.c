/* The runtime on lavapipe: host profile, device choice, buffers with device
 * addresses, pipelines with required subgroup sizes 4, 8 and 16 (each in a
 * child process with its own LP_NATIVE_VECTOR_WIDTH, read when lavapipe
 * starts), 64-bit atomics under contention, the binding convention, timing,
 * error paths, and a plain C program linking only the runtime and libvulkan.
 *
 * The SPIR-V modules are written here as assembly, assembled and validated
 * by spirv-as / spirv-val (SPIRV-Tools, Vulkan 1.3 rules) at test time; every
 * output is compared with values computed here in C. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if WL_RT_SANITIZE
#include <dlfcn.h>
#endif

#include <vulkan/vulkan.h>

#include "support.h"
#include "wavelift/runtime.h"

#define LVP_LIB "/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so"
#define MAX_SHOWN 20

static const char SPV_A[] =
    "OpCapability Shader\n"
    "OpCapability Int64\n"
    "OpCapability PhysicalStorageBufferAddresses\n"
    "OpMemoryModel PhysicalStorageBuffer64 GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\" %gid %pc\n"
    "OpExecutionMode %main LocalSize 8 2 1\n"
    "OpDecorate %gid BuiltIn GlobalInvocationId\n"
    "OpDecorate %PC Block\n"
    "OpMemberDecorate %PC 0 Offset 0\n"
    "OpMemberDecorate %PC 1 Offset 8\n"
    "OpMemberDecorate %PC 2 Offset 12\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%u32 = OpTypeInt 32 0\n"
    "%u64 = OpTypeInt 64 0\n"
    "%v3 = OpTypeVector %u32 3\n"
    "%PC = OpTypeStruct %u64 %u32 %u32\n"
    "%ptr_pc = OpTypePointer PushConstant %PC\n"
    "%pc = OpVariable %ptr_pc PushConstant\n"
    "%ptr_pc_u64 = OpTypePointer PushConstant %u64\n"
    "%ptr_pc_u32 = OpTypePointer PushConstant %u32\n"
    "%ptr_in_v3 = OpTypePointer Input %v3\n"
    "%gid = OpVariable %ptr_in_v3 Input\n"
    "%psb = OpTypePointer PhysicalStorageBuffer %u32\n"
    "%c0 = OpConstant %u32 0\n"
    "%c1 = OpConstant %u32 1\n"
    "%c2 = OpConstant %u32 2\n"
    "%c3 = OpConstant %u32 3\n"
    "%c4 = OpConstant %u64 4\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%g = OpLoad %v3 %gid\n"
    "%x = OpCompositeExtract %u32 %g 0\n"
    "%y = OpCompositeExtract %u32 %g 1\n"
    "%z = OpCompositeExtract %u32 %g 2\n"
    "%ap = OpAccessChain %ptr_pc_u64 %pc %c0\n"
    "%base = OpLoad %u64 %ap\n"
    "%wp = OpAccessChain %ptr_pc_u32 %pc %c1\n"
    "%w = OpLoad %u32 %wp\n"
    "%plp = OpAccessChain %ptr_pc_u32 %pc %c2\n"
    "%pl = OpLoad %u32 %plp\n"
    "%yw = OpIMul %u32 %y %w\n"
    "%zp = OpIMul %u32 %z %pl\n"
    "%i0 = OpIAdd %u32 %x %yw\n"
    "%idx = OpIAdd %u32 %i0 %zp\n"
    "%i3 = OpIMul %u32 %idx %c3\n"
    "%i64 = OpUConvert %u64 %i3\n"
    "%off = OpIMul %u64 %i64 %c4\n"
    "%a0 = OpIAdd %u64 %base %off\n"
    "%a1 = OpIAdd %u64 %a0 %c4\n"
    "%a2 = OpIAdd %u64 %a1 %c4\n"
    "%p0 = OpConvertUToPtr %psb %a0\n"
    "%p1 = OpConvertUToPtr %psb %a1\n"
    "%p2 = OpConvertUToPtr %psb %a2\n"
    "OpStore %p0 %x Aligned 4\n"
    "OpStore %p1 %y Aligned 4\n"
    "OpStore %p2 %z Aligned 4\n"
    "OpReturn\n"
    "OpFunctionEnd\n"
    ;

static const char SPV_B[] =
    "OpCapability Shader\n"
    "OpCapability Int64\n"
    "OpCapability PhysicalStorageBufferAddresses\n"
    "OpCapability GroupNonUniform\n"
    "OpCapability GroupNonUniformBallot\n"
    "OpCapability GroupNonUniformShuffle\n"
    "OpMemoryModel PhysicalStorageBuffer64 GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\" %lidx %wgid %sgsize %sglane %sgid %nsg %pc\n"
    "OpExecutionMode %main LocalSize 64 1 1\n"
    "OpDecorate %lidx BuiltIn LocalInvocationIndex\n"
    "OpDecorate %wgid BuiltIn WorkgroupId\n"
    "OpDecorate %sgsize BuiltIn SubgroupSize\n"
    "OpDecorate %sglane BuiltIn SubgroupLocalInvocationId\n"
    "OpDecorate %sgid BuiltIn SubgroupId\n"
    "OpDecorate %nsg BuiltIn NumSubgroups\n"
    "OpDecorate %PC Block\n"
    "OpMemberDecorate %PC 0 Offset 0\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%bool = OpTypeBool\n"
    "%u32 = OpTypeInt 32 0\n"
    "%u64 = OpTypeInt 64 0\n"
    "%v3 = OpTypeVector %u32 3\n"
    "%v4 = OpTypeVector %u32 4\n"
    "%PC = OpTypeStruct %u64\n"
    "%ptr_pc = OpTypePointer PushConstant %PC\n"
    "%pc = OpVariable %ptr_pc PushConstant\n"
    "%ptr_pc_u64 = OpTypePointer PushConstant %u64\n"
    "%ptr_in_u32 = OpTypePointer Input %u32\n"
    "%ptr_in_v3 = OpTypePointer Input %v3\n"
    "%lidx = OpVariable %ptr_in_u32 Input\n"
    "%wgid = OpVariable %ptr_in_v3 Input\n"
    "%sgsize = OpVariable %ptr_in_u32 Input\n"
    "%sglane = OpVariable %ptr_in_u32 Input\n"
    "%sgid = OpVariable %ptr_in_u32 Input\n"
    "%nsg = OpVariable %ptr_in_u32 Input\n"
    "%psb = OpTypePointer PhysicalStorageBuffer %u32\n"
    "%c0 = OpConstant %u32 0\n"
    "%c1 = OpConstant %u32 1\n"
    "%c3 = OpConstant %u32 3\n"
    "%c5 = OpConstant %u32 5\n"
    "%c7 = OpConstant %u32 7\n"
    "%c8 = OpConstant %u32 8\n"
    "%c64 = OpConstant %u32 64\n"
    "%c1000 = OpConstant %u32 1000\n"
    "%sub = OpConstant %u32 3\n"
    "%c4_64 = OpConstant %u64 4\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%L = OpLoad %u32 %lidx\n"
    "%wg3 = OpLoad %v3 %wgid\n"
    "%wg = OpCompositeExtract %u32 %wg3 0\n"
    "%S = OpLoad %u32 %sgsize\n"
    "%lane = OpLoad %u32 %sglane\n"
    "%sg = OpLoad %u32 %sgid\n"
    "%ns = OpLoad %u32 %nsg\n"
    "%m3 = OpUMod %u32 %L %c3\n"
    "%pred = OpIEqual %bool %m3 %c0\n"
    "%ballot = OpGroupNonUniformBallot %v4 %sub %pred\n"
    "%cnt = OpGroupNonUniformBallotBitCount %u32 %sub Reduce %ballot\n"
    "%bw0 = OpCompositeExtract %u32 %ballot 0\n"
    "%L7 = OpIMul %u32 %L %c7\n"
    "%wk = OpIMul %u32 %wg %c1000\n"
    "%v0 = OpIAdd %u32 %L7 %wk\n"
    "%v = OpIAdd %u32 %v0 %c1\n"
    "%ln1 = OpIAdd %u32 %lane %c1\n"
    "%src = OpUMod %u32 %ln1 %S\n"
    "%shuf = OpGroupNonUniformShuffle %u32 %sub %v %src\n"
    "%L3 = OpIMul %u32 %L %c3\n"
    "%v2 = OpIAdd %u32 %L3 %wg\n"
    "%first = OpGroupNonUniformBroadcastFirst %u32 %sub %v2\n"
    "%gl = OpIMul %u32 %wg %c64\n"
    "%gi = OpIAdd %u32 %gl %L\n"
    "%gi8 = OpIMul %u32 %gi %c8\n"
    "%gi64 = OpUConvert %u64 %gi8\n"
    "%off = OpIMul %u64 %gi64 %c4_64\n"
    "%ap = OpAccessChain %ptr_pc_u64 %pc %c0\n"
    "%base = OpLoad %u64 %ap\n"
    "%a0 = OpIAdd %u64 %base %off\n"
    "%a1 = OpIAdd %u64 %a0 %c4_64\n"
    "%a2 = OpIAdd %u64 %a1 %c4_64\n"
    "%a3 = OpIAdd %u64 %a2 %c4_64\n"
    "%a4 = OpIAdd %u64 %a3 %c4_64\n"
    "%a5 = OpIAdd %u64 %a4 %c4_64\n"
    "%a6 = OpIAdd %u64 %a5 %c4_64\n"
    "%a7 = OpIAdd %u64 %a6 %c4_64\n"
    "%p0 = OpConvertUToPtr %psb %a0\n"
    "%p1 = OpConvertUToPtr %psb %a1\n"
    "%p2 = OpConvertUToPtr %psb %a2\n"
    "%p3 = OpConvertUToPtr %psb %a3\n"
    "%p4 = OpConvertUToPtr %psb %a4\n"
    "%p5 = OpConvertUToPtr %psb %a5\n"
    "%p6 = OpConvertUToPtr %psb %a6\n"
    "%p7 = OpConvertUToPtr %psb %a7\n"
    "OpStore %p0 %S Aligned 4\n"
    "OpStore %p1 %lane Aligned 4\n"
    "OpStore %p2 %sg Aligned 4\n"
    "OpStore %p3 %ns Aligned 4\n"
    "OpStore %p4 %cnt Aligned 4\n"
    "OpStore %p5 %bw0 Aligned 4\n"
    "OpStore %p6 %shuf Aligned 4\n"
    "OpStore %p7 %first Aligned 4\n"
    "OpReturn\n"
    "OpFunctionEnd\n"
    ;

static const char SPV_C[] =
    "OpCapability Shader\n"
    "OpCapability Int64\n"
    "OpCapability Int64Atomics\n"
    "OpCapability PhysicalStorageBufferAddresses\n"
    "OpMemoryModel PhysicalStorageBuffer64 GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\" %gidv %pc\n"
    "OpExecutionMode %main LocalSize 64 1 1\n"
    "OpDecorate %gidv BuiltIn GlobalInvocationId\n"
    "OpDecorate %PC Block\n"
    "OpMemberDecorate %PC 0 Offset 0\n"
    "OpMemberDecorate %PC 1 Offset 8\n"
    "OpMemberDecorate %PC 2 Offset 16\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%bool = OpTypeBool\n"
    "%u32 = OpTypeInt 32 0\n"
    "%u64 = OpTypeInt 64 0\n"
    "%v3 = OpTypeVector %u32 3\n"
    "%PC = OpTypeStruct %u64 %u64 %u64\n"
    "%ptr_pc = OpTypePointer PushConstant %PC\n"
    "%pc = OpVariable %ptr_pc PushConstant\n"
    "%ptr_pc_u64 = OpTypePointer PushConstant %u64\n"
    "%ptr_in_v3 = OpTypePointer Input %v3\n"
    "%gidv = OpVariable %ptr_in_v3 Input\n"
    "%psb = OpTypePointer PhysicalStorageBuffer %u64\n"
    "%c0 = OpConstant %u32 0\n"
    "%c1 = OpConstant %u32 1\n"
    "%c2 = OpConstant %u32 2\n"
    "%dev = OpConstant %u32 1\n"
    "%relaxed = OpConstant %u32 0\n"
    "%k1 = OpConstant %u64 1\n"
    "%k3 = OpConstant %u64 3\n"
    "%k8 = OpConstant %u64 8\n"
    "%kadd = OpConstant %u64 0x100000001\n"
    "%kgold = OpConstant %u64 0x9E3779B97F4A7C15\n"
    "%kand = OpConstant %u64 0xFFFFFFF0FFFFFFF0\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%g3 = OpLoad %v3 %gidv\n"
    "%g32 = OpCompositeExtract %u32 %g3 0\n"
    "%g = OpUConvert %u64 %g32\n"
    "%g1 = OpIAdd %u64 %g %k1\n"
    "%h = OpIMul %u64 %g1 %kgold\n"
    "%pa = OpAccessChain %ptr_pc_u64 %pc %c0\n"
    "%cbase = OpLoad %u64 %pa\n"
    "%pb = OpAccessChain %ptr_pc_u64 %pc %c1\n"
    "%obase = OpLoad %u64 %pb\n"
    "%pcc = OpAccessChain %ptr_pc_u64 %pc %c2\n"
    "%xbase = OpLoad %u64 %pcc\n"
    "%a1 = OpIAdd %u64 %cbase %k8\n"
    "%a2 = OpIAdd %u64 %a1 %k8\n"
    "%a3 = OpIAdd %u64 %a2 %k8\n"
    "%a4 = OpIAdd %u64 %a3 %k8\n"
    "%a5 = OpIAdd %u64 %a4 %k8\n"
    "%a6 = OpIAdd %u64 %a5 %k8\n"
    "%a7 = OpIAdd %u64 %a6 %k8\n"
    "%a8 = OpIAdd %u64 %a7 %k8\n"
    "%a9 = OpIAdd %u64 %a8 %k8\n"
    "%a10 = OpIAdd %u64 %a9 %k8\n"
    "%p0 = OpConvertUToPtr %psb %cbase\n"
    "%p1 = OpConvertUToPtr %psb %a1\n"
    "%p2 = OpConvertUToPtr %psb %a2\n"
    "%p3 = OpConvertUToPtr %psb %a3\n"
    "%p4 = OpConvertUToPtr %psb %a4\n"
    "%p5 = OpConvertUToPtr %psb %a5\n"
    "%p6 = OpConvertUToPtr %psb %a6\n"
    "%p7 = OpConvertUToPtr %psb %a7\n"
    "%p8 = OpConvertUToPtr %psb %a8\n"
    "%p9 = OpConvertUToPtr %psb %a9\n"
    "%p10 = OpConvertUToPtr %psb %a10\n"
    "%addv = OpIAdd %u64 %kadd %g\n"
    "%r0 = OpAtomicIAdd %u64 %p0 %dev %relaxed %addv\n"
    "%r1 = OpAtomicUMax %u64 %p1 %dev %relaxed %h\n"
    "%r2 = OpAtomicUMin %u64 %p2 %dev %relaxed %h\n"
    "%r3 = OpAtomicSMax %u64 %p3 %dev %relaxed %h\n"
    "%r4 = OpAtomicSMin %u64 %p4 %dev %relaxed %h\n"
    "%r5 = OpAtomicOr %u64 %p5 %dev %relaxed %h\n"
    "%r6 = OpAtomicXor %u64 %p6 %dev %relaxed %h\n"
    "%andv = OpBitwiseOr %u64 %h %kand\n"
    "%r7 = OpAtomicAnd %u64 %p7 %dev %relaxed %andv\n"
    "%old8 = OpAtomicIAdd %u64 %p8 %dev %relaxed %k1\n"
    "%g8 = OpIMul %u64 %g %k8\n"
    "%oa = OpIAdd %u64 %obase %g8\n"
    "%op = OpConvertUToPtr %psb %oa\n"
    "OpStore %op %old8 Aligned 8\n"
    "%old10 = OpAtomicExchange %u64 %p10 %dev %relaxed %g1\n"
    "%xa = OpIAdd %u64 %xbase %g8\n"
    "%xp = OpConvertUToPtr %psb %xa\n"
    "OpStore %xp %old10 Aligned 8\n"
    "%g3x = OpIMul %u64 %g %k3\n"
    "%inc = OpIAdd %u64 %g3x %k1\n"
    "OpBranch %header\n"
    "%header = OpLabel\n"
    "OpLoopMerge %merge %cont None\n"
    "OpBranch %body\n"
    "%body = OpLabel\n"
    "%old = OpAtomicLoad %u64 %p9 %dev %relaxed\n"
    "%new = OpIAdd %u64 %old %inc\n"
    "%r = OpAtomicCompareExchange %u64 %p9 %dev %relaxed %relaxed %new %old\n"
    "%ok = OpIEqual %bool %r %old\n"
    "OpBranchConditional %ok %merge %cont\n"
    "%cont = OpLabel\n"
    "OpBranch %header\n"
    "%merge = OpLabel\n"
    "OpReturn\n"
    "OpFunctionEnd\n"
    ;

static const char SPV_D[] =
    "OpCapability Shader\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\" %gidv %status %pt %lds %extra %pc\n"
    "OpExecutionMode %main LocalSize 32 1 1\n"
    "OpDecorate %gidv BuiltIn GlobalInvocationId\n"
    "OpDecorate %rta ArrayStride 4\n"
    "OpMemberDecorate %SB 0 Offset 0\n"
    "OpDecorate %SB Block\n"
    "OpDecorate %status DescriptorSet 0\n"
    "OpDecorate %status Binding 0\n"
    "OpDecorate %pt DescriptorSet 0\n"
    "OpDecorate %pt Binding 1\n"
    "OpDecorate %lds DescriptorSet 0\n"
    "OpDecorate %lds Binding 2\n"
    "OpDecorate %extra DescriptorSet 0\n"
    "OpDecorate %extra Binding 7\n"
    "OpDecorate %PC Block\n"
    "OpMemberDecorate %PC 0 Offset 0\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%u32 = OpTypeInt 32 0\n"
    "%v3 = OpTypeVector %u32 3\n"
    "%rta = OpTypeRuntimeArray %u32\n"
    "%SB = OpTypeStruct %rta\n"
    "%ptr_sb = OpTypePointer StorageBuffer %SB\n"
    "%ptr_sb_u32 = OpTypePointer StorageBuffer %u32\n"
    "%status = OpVariable %ptr_sb StorageBuffer\n"
    "%pt = OpVariable %ptr_sb StorageBuffer\n"
    "%lds = OpVariable %ptr_sb StorageBuffer\n"
    "%extra = OpVariable %ptr_sb StorageBuffer\n"
    "%PC = OpTypeStruct %u32\n"
    "%ptr_pc = OpTypePointer PushConstant %PC\n"
    "%ptr_pc_u32 = OpTypePointer PushConstant %u32\n"
    "%pc = OpVariable %ptr_pc PushConstant\n"
    "%ptr_in_v3 = OpTypePointer Input %v3\n"
    "%gidv = OpVariable %ptr_in_v3 Input\n"
    "%c0 = OpConstant %u32 0\n"
    "%c3 = OpConstant %u32 3\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%g3 = OpLoad %v3 %gidv\n"
    "%g = OpCompositeExtract %u32 %g3 0\n"
    "%ptp = OpAccessChain %ptr_sb_u32 %pt %c0 %g\n"
    "%ptv = OpLoad %u32 %ptp\n"
    "%ldp = OpAccessChain %ptr_sb_u32 %lds %c0 %g\n"
    "%ldv = OpLoad %u32 %ldp\n"
    "%exp = OpAccessChain %ptr_sb_u32 %extra %c0 %g\n"
    "%exv = OpLoad %u32 %exp\n"
    "%pcp = OpAccessChain %ptr_pc_u32 %pc %c0\n"
    "%k = OpLoad %u32 %pcp\n"
    "%t0 = OpIMul %u32 %ptv %c3\n"
    "%t1 = OpIAdd %u32 %t0 %ldv\n"
    "%t2 = OpIAdd %u32 %t1 %exv\n"
    "%t3 = OpIAdd %u32 %t2 %k\n"
    "%stp = OpAccessChain %ptr_sb_u32 %status %c0 %g\n"
    "OpStore %stp %t3\n"
    "OpReturn\n"
    "OpFunctionEnd\n"
    ;

/* ---- helpers ------------------------------------------------------------ */

typedef struct fixture {
    char *tmp;
    wl_rt *rt;
} fixture;

/* Assembles `text` with SPIRV-Tools, and validates it unless `invalid` (a
 * module meant to be refused); the words are malloc'ed. */
static uint32_t *assemble_ex(const char *tmp, const char *name, const char *text, int invalid, size_t *nwords)
{
    char src[512], bin[512], cmd[2048];
    snprintf(src, sizeof src, "%s/%s.spvasm", tmp, name);
    snprintf(bin, sizeof bin, "%s/%s.spv", tmp, name);
    if (wlt_write_file(src, text, strlen(text)) != 0)
        return NULL;
    /* An invalid module must assemble, and spirv-val must refuse it. */
    snprintf(cmd, sizeof cmd,
             "spirv-as --target-env vulkan1.3 -o '%s' '%s' 2>&1 && %s spirv-val --target-env vulkan1.3 '%s' 2>&1",
             bin, src, invalid ? "!" : "", bin);
    int status = -1;
    char *out = wlt_run(cmd, &status);
    if (status != 0) {
        fprintf(stderr, "%s: spirv-as/spirv-val failed:\n%s\n", name, out ? out : "");
        free(out);
        return NULL;
    }
    free(out);
    uint32_t *words = NULL;
    char err[256];
    if (wl_rt_spirv_read_file(bin, &words, nwords, err, sizeof err) != WL_RT_OK) {
        fprintf(stderr, "%s: %s\n", name, err);
        return NULL;
    }
    return words;
}

static uint32_t *assemble(const char *tmp, const char *name, const char *text, size_t *nwords)
{
    return assemble_ex(tmp, name, text, 0, nwords);
}

static wl_rt_pipeline *make_pipeline(wl_rt *rt, const char *tmp, const char *name, const char *text,
                                     uint32_t subgroup_size, int full)
{
    size_t n = 0;
    uint32_t *w = assemble(tmp, name, text, &n);
    if (!w)
        return NULL;
    wl_rt_pipeline_desc pd = { .words = w, .nwords = n, .subgroup_size = subgroup_size,
                               .require_full_subgroups = full };
    wl_rt_pipeline *p = NULL;
    wl_rt_status st = wl_rt_pipeline_create(rt, &pd, &p);
    free(w);
    if (st != WL_RT_OK)
        fprintf(stderr, "%s: %s: %s\n", name, wl_rt_status_name(st), wl_rt_error(rt));
    return p;
}

#define CHECK_RT(rt, call)                                                                    \
    do {                                                                                      \
        wl_rt_status st_ = (call);                                                            \
        if (st_ != WL_RT_OK) {                                                                \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, wl_rt_status_name(st_),   \
                    wl_rt_error(rt));                                                         \
            return -1;                                                                        \
        }                                                                                     \
    } while (0)

/* ---- (b) subgroups ------------------------------------------------------- */

#define SG_GROUPS 3u
#define SG_LOCAL 64u
#define SG_WORDS 8u

/* The expected words of invocation L of group wg with subgroup size S
 * (subgroups are consecutive runs of S local invocation indices). */
static void subgroup_expect(uint32_t S, uint32_t wg, uint32_t L, uint32_t e[SG_WORDS])
{
    uint32_t sg = L / S, lane = L % S, cnt = 0, bits = 0;
    for (uint32_t l = 0; l < S; l++)
        if ((sg * S + l) % 3 == 0) {
            cnt++;
            bits |= 1u << l;
        }
    uint32_t src = sg * S + (lane + 1) % S;
    e[0] = S;
    e[1] = lane;
    e[2] = sg;
    e[3] = SG_LOCAL / S;
    e[4] = cnt;
    e[5] = bits;
    e[6] = src * 7 + wg * 1000 + 1;
    e[7] = sg * S * 3 + wg;
}

/* Runs module (b) requiring subgroup size S (0: the device's own) and
 * prints the summary. Returns the number of mismatching words, -1 on a
 * runtime failure. */
static int run_subgroups(wl_rt *rt, const char *tmp, uint32_t S, int full)
{
    wl_rt_pipeline *p = make_pipeline(rt, tmp, "subgroups", SPV_B, S, full);
    if (!p)
        return -1;
    uint32_t expect_S = S ? S : wl_rt_profile(rt)->subgroup_size;
    const uint32_t n = SG_GROUPS * SG_LOCAL * SG_WORDS;
    wl_rt_buffer *out = NULL;
    CHECK_RT(rt, wl_rt_buffer_create(rt, n * 4, &out));
    CHECK_RT(rt, wl_rt_buffer_fill(rt, out, 0, UINT64_MAX, 0xdeadbeef));
    uint64_t addr = wl_rt_buffer_address(out);
    wl_rt_dispatch_desc d = { .groups = { SG_GROUPS, 1, 1 }, .push_constants = &addr, .push_constant_size = 8 };
    CHECK_RT(rt, wl_rt_dispatch(rt, p, &d, NULL));
    uint32_t *got = calloc(n, 4);
    if (!got)
        return -1;
    CHECK_RT(rt, wl_rt_buffer_download(rt, out, 0, got, n * 4));
    int bad = 0;
    static const char *const what[SG_WORDS] = { "SubgroupSize", "SubgroupLocalInvocationId", "SubgroupId",
                                                "NumSubgroups", "ballot bit count", "ballot word 0",
                                                "shuffle", "broadcast first" };
    for (uint32_t wg = 0; wg < SG_GROUPS; wg++)
        for (uint32_t L = 0; L < SG_LOCAL; L++) {
            uint32_t e[SG_WORDS];
            subgroup_expect(expect_S, wg, L, e);
            for (uint32_t k = 0; k < SG_WORDS; k++) {
                uint32_t g = got[(wg * SG_LOCAL + L) * SG_WORDS + k];
                if (g != e[k] && bad++ < MAX_SHOWN)
                    printf("  S=%u group %u invocation %u %s: got %u, expected %u\n", expect_S, wg, L, what[k],
                           g, e[k]);
            }
        }
    printf("subgroups S=%u%s: %u invocations, %u words, %u match\n", expect_S, full ? " (full)" : "",
           SG_GROUPS * SG_LOCAL, n, n - (uint32_t)bad);
    free(got);
    wl_rt_buffer_destroy(rt, out);
    wl_rt_pipeline_destroy(rt, p);
    return bad;
}

/* ---- (c) 64-bit atomics under contention --------------------------------- */

#define AT_GROUPS 16u
#define AT_N (AT_GROUPS * 64u)
#define AT_COUNTERS 11

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Returns the number of mismatches, -1 on a runtime failure, -2 when the
 * device has no 64-bit buffer atomics. */
static int run_atomics(wl_rt *rt, const char *tmp, uint32_t S)
{
    if (!wl_rt_profile(rt)->shader_buffer_int64_atomics) {
        printf("atomics64: skipped, the device has no shaderBufferInt64Atomics\n");
        return -2;
    }
    wl_rt_pipeline *p = make_pipeline(rt, tmp, "atomics64", SPV_C, S, S != 0);
    if (!p)
        return -1;
    uint64_t init[AT_COUNTERS] = { 0 };
    init[2] = UINT64_MAX;              /* umin */
    init[3] = (uint64_t)INT64_MIN;     /* smax */
    init[4] = (uint64_t)INT64_MAX;     /* smin */
    init[7] = UINT64_MAX;              /* and */
    uint64_t e[AT_COUNTERS];
    memcpy(e, init, sizeof e);
    for (uint64_t g = 0; g < AT_N; g++) {
        uint64_t h = (g + 1) * 0x9E3779B97F4A7C15ull;
        e[0] += 0x100000001ull + g;
        e[1] = h > e[1] ? h : e[1];
        e[2] = h < e[2] ? h : e[2];
        e[3] = (int64_t)h > (int64_t)e[3] ? h : e[3];
        e[4] = (int64_t)h < (int64_t)e[4] ? h : e[4];
        e[5] |= h;
        e[6] ^= h;
        e[7] &= h | 0xFFFFFFF0FFFFFFF0ull;
        e[8] += 1;
        e[9] += 3 * g + 1;
    }
    wl_rt_buffer *cnt = NULL, *olds = NULL, *xolds = NULL;
    CHECK_RT(rt, wl_rt_buffer_create(rt, sizeof init, &cnt));
    CHECK_RT(rt, wl_rt_buffer_create(rt, AT_N * 8, &olds));
    CHECK_RT(rt, wl_rt_buffer_create(rt, AT_N * 8, &xolds));
    CHECK_RT(rt, wl_rt_buffer_upload(rt, cnt, 0, init, sizeof init));
    uint64_t pc[3] = { wl_rt_buffer_address(cnt), wl_rt_buffer_address(olds), wl_rt_buffer_address(xolds) };
    wl_rt_dispatch_desc d = { .groups = { AT_GROUPS, 1, 1 }, .push_constants = pc, .push_constant_size = sizeof pc };
    CHECK_RT(rt, wl_rt_dispatch(rt, p, &d, NULL));
    uint64_t got[AT_COUNTERS];
    uint64_t *o = calloc(AT_N + 1, 8), *x = calloc(AT_N + 1, 8);
    if (!o || !x)
        return -1;
    CHECK_RT(rt, wl_rt_buffer_download(rt, cnt, 0, got, sizeof got));
    CHECK_RT(rt, wl_rt_buffer_download(rt, olds, 0, o, AT_N * 8));
    CHECK_RT(rt, wl_rt_buffer_download(rt, xolds, 0, x, AT_N * 8));
    static const char *const what[AT_COUNTERS] = { "add", "umax", "umin", "smax", "smin", "or", "xor", "and",
                                                   "add 1", "cmpxchg loop", "exchange" };
    int bad = 0, checks = 0;
    for (int i = 0; i < 10; i++, checks++)
        if (got[i] != e[i] && bad++ < MAX_SHOWN)
            printf("  atomic %s: got 0x%016llx, expected 0x%016llx\n", what[i], (unsigned long long)got[i],
                   (unsigned long long)e[i]);
    /* The add-1 results are 0..N-1 once each. */
    qsort(o, AT_N, 8, cmp_u64);
    for (uint64_t i = 0; i < AT_N; i++, checks++)
        if (o[i] != i && bad++ < MAX_SHOWN)
            printf("  add 1: sorted result %llu is %llu\n", (unsigned long long)i, (unsigned long long)o[i]);
    /* Exchange: the results and the final value are 0..N once each. */
    x[AT_N] = got[10];
    qsort(x, AT_N + 1, 8, cmp_u64);
    for (uint64_t i = 0; i <= AT_N; i++, checks++)
        if (x[i] != i && bad++ < MAX_SHOWN)
            printf("  exchange: sorted value %llu is %llu\n", (unsigned long long)i, (unsigned long long)x[i]);
    printf("atomics64 S=%u: %u invocations on %d words, %d checks, %d match\n",
           S ? S : wl_rt_profile(rt)->subgroup_size, AT_N, AT_COUNTERS, checks, checks - bad);
    free(o);
    free(x);
    wl_rt_buffer_destroy(rt, cnt);
    wl_rt_buffer_destroy(rt, olds);
    wl_rt_buffer_destroy(rt, xolds);
    wl_rt_pipeline_destroy(rt, p);
    return bad;
}

/* ---- child process: one LP_NATIVE_VECTOR_WIDTH --------------------------- */

static int child_main(uint32_t S)
{
    char err[1024];
    wl_rt *rt = NULL;
    wl_rt_status st = wl_rt_create(NULL, &rt, err, sizeof err);
    if (st != WL_RT_OK) {
        printf("child: %s: %s\n", wl_rt_status_name(st), err);
        return 1;
    }
    const wl_host_profile *pr = wl_rt_profile(rt);
    printf("child: %s subgroup_size %u (control %d, %u..%u, full %d)\n", pr->device_name, pr->subgroup_size,
           pr->subgroup_size_control, pr->min_subgroup_size, pr->max_subgroup_size, pr->compute_full_subgroups);
    char *tmp = wlt_tmpdir();
    int bad_sg = run_subgroups(rt, tmp, S, 1);
    int bad_at = run_atomics(rt, tmp, S);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    free(wlt_run(cmd, NULL));
    free(tmp);
    wl_rt_destroy(rt);
    printf("child S=%u: subgroups %s, atomics %s\n", S, bad_sg == 0 ? "ok" : "FAIL",
           bad_at == 0 ? "ok" : bad_at == -2 ? "skipped" : "FAIL");
    return bad_sg == 0 && (bad_at == 0 || bad_at == -2) ? 0 : 1;
}

/* ---- tests ---------------------------------------------------------------- */

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    f->tmp = wlt_tmpdir();
    char err[1024];
    wl_rt_status st = wl_rt_create(NULL, &f->rt, err, sizeof err);
    if (st != WL_RT_OK) {
        fprintf(stderr, "wl_rt_create: %s: %s\n", wl_rt_status_name(st), err);
        return -1;
    }
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    if (!f)
        return 0;
    wl_rt_destroy(f->rt);
    if (f->tmp) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->tmp);
        free(wlt_run(cmd, NULL));
        free(f->tmp);
    }
    free(f);
    return 0;
}

static void profile_read(void **state)
{
    fixture *f = *state;
    const wl_host_profile *p = wl_rt_profile(f->rt);
    wl_host_profile_print(p, stdout);
    assert_true(p->device_name[0] != 0);
    assert_true(p->api_version >= ((1u << 22) | (3u << 12))); /* Vulkan 1.3 */
    assert_true(p->subgroup_size >= 1 && (p->subgroup_size & (p->subgroup_size - 1)) == 0);
    assert_true(p->min_subgroup_size <= p->subgroup_size && p->subgroup_size <= p->max_subgroup_size);
    assert_true(p->max_compute_shared_memory_size >= 16384);
    assert_true(p->max_compute_workgroup_invocations >= 128);
    assert_int_equal(p->buffer_device_address, 1);
    assert_true(p->max_push_constants_size >= WL_RT_PUSH_CONSTANT_BYTES);
    if (strstr(p->device_name, "llvmpipe")) {
        /* lavapipe as DESIGN.md measured it (default LP_NATIVE_VECTOR_WIDTH). */
        assert_int_equal(p->is_cpu, 1);
        assert_int_equal(p->subgroup_size, 8);
        assert_int_equal(p->max_compute_shared_memory_size, 32768);
        assert_int_equal(p->host_visible_device_local, 1);
    }
}

/* wl_rt_probe_fma: the probe dispatch decides fused or not (its two
 * possible answers are the oracle: the exact fused value of inputs chosen
 * by hand, or 0); lavapipe (Mesa 22.3) rounds the product (backend/fma.c,
 * measured: it is why the exact routine exists). The probe's SPIR-V is the
 * current compile of runtime/probe/fma.comp. */
static void fma_probe(void **state)
{
    fixture *f = *state;
    assert_int_equal(wl_rt_probe_fma(f->rt), WL_RT_OK);
    const wl_host_profile *p = wl_rt_profile(f->rt);
    printf("fma fused: f32 %d, f64 %d (cases missed: 0x%02x, 0x%02x)\n", p->fma_fused_f32, p->fma_fused_f64,
           p->fma_missed_f32, p->fma_missed_f64);
    assert_int_equal(p->fma_probed, 1);
    /* a width is fused exactly where it missed no case; 8 cases */
    assert_int_equal(p->fma_fused_f32, p->fma_missed_f32 == 0);
    assert_int_equal(p->fma_fused_f64, p->fma_missed_f64 == 0);
    assert_true(p->fma_missed_f32 < 256 && p->fma_missed_f64 < 256);
    if (strstr(p->device_name, "llvmpipe")) {
        assert_int_equal(p->fma_fused_f64, 0);
    }
    assert_int_equal(wl_rt_probe_fma(f->rt), WL_RT_OK); /* once: the second call reads the record */
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "command -v glslangValidator >/dev/null || exit 77; d=$(mktemp -d) && cp -r '%s/runtime' '%s/scripts' \"$d\" "
             "&& sh \"$d/scripts/gen_probe.sh\" && cmp \"$d/runtime/probe/fma.inc\" '%s/runtime/probe/fma.inc'; "
             "r=$?; rm -rf \"$d\"; exit $r",
             WL_SOURCE_DIR, WL_SOURCE_DIR, WL_SOURCE_DIR);
    int st;
    char *out = wlt_run(cmd, &st);
    free(out);
    if (st == 77)
        skip();
    assert_int_equal(st, 0);
}

static void device_choice(void **state)
{
    (void)state;
    char err[1024];
    wl_rt *rt = NULL;
    wl_rt_options o = { .device = "LLVMPIPE" };
    assert_int_equal(wl_rt_create(&o, &rt, err, sizeof err), WL_RT_OK);
    assert_non_null(strstr(wl_rt_profile(rt)->device_name, "llvmpipe"));
    wl_rt_destroy(rt);

    o.device = "0";
    assert_int_equal(wl_rt_create(&o, &rt, err, sizeof err), WL_RT_OK);
    assert_int_equal(wl_rt_profile(rt)->device_index, 0);
    wl_rt_destroy(rt);

    o.device = "no-such-device-xyz";
    assert_int_equal(wl_rt_create(&o, &rt, err, sizeof err), WL_RT_ERR_NO_DEVICE);
    assert_null(rt);
    printf("by a wrong name: %s\n", err);
    assert_non_null(strstr(err, "no-such-device-xyz"));
    assert_non_null(strstr(err, "llvmpipe")); /* the message lists the devices */

    o.device = "99";
    assert_int_equal(wl_rt_create(&o, &rt, err, sizeof err), WL_RT_ERR_NO_DEVICE);
    printf("by a wrong index: %s\n", err);

    /* $WAVELIFT_DEVICE when the option is NULL. */
    setenv("WAVELIFT_DEVICE", "no-such-device-xyz", 1);
    assert_int_equal(wl_rt_create(NULL, &rt, err, sizeof err), WL_RT_ERR_NO_DEVICE);
    setenv("WAVELIFT_DEVICE", "llvm", 1);
    assert_int_equal(wl_rt_create(NULL, &rt, err, sizeof err), WL_RT_OK);
    wl_rt_destroy(rt);
    unsetenv("WAVELIFT_DEVICE");
    assert_int_equal(wl_rt_create(NULL, NULL, err, sizeof err), WL_RT_ERR_USAGE);
}

static void buffers(void **state)
{
    fixture *f = *state;
    wl_rt *rt = f->rt;
    const uint64_t size = 3u << 20; /* 3 MiB: more than one staging chunk would need on a GPU */
    wl_rt_buffer *a = NULL, *b = NULL, *odd = NULL;
    assert_int_equal(wl_rt_buffer_create(rt, size, &a), WL_RT_OK);
    assert_int_equal(wl_rt_buffer_create(rt, 4096, &b), WL_RT_OK);
    assert_int_equal(wl_rt_buffer_create(rt, 7, &odd), WL_RT_OK);
    uint64_t aa = wl_rt_buffer_address(a), ba = wl_rt_buffer_address(b);
    assert_true(aa != 0 && ba != 0);
    assert_true(aa % 16 == 0 && ba % 16 == 0);
    assert_true(aa + size <= ba || ba + 4096 <= aa);
    assert_int_equal(wl_rt_buffer_size(a), size);
    assert_int_equal(wl_rt_buffer_size(odd), 7);

    uint8_t *host = malloc(size), *back = malloc(size);
    assert_non_null(host);
    assert_non_null(back);
    /* Starts as zeros. */
    assert_int_equal(wl_rt_buffer_download(rt, a, 0, back, size), WL_RT_OK);
    for (uint64_t i = 0; i < size; i++)
        if (back[i])
            fail_msg("byte %llu of a new buffer is %u", (unsigned long long)i, back[i]);
    for (uint64_t i = 0; i < size; i++)
        host[i] = (uint8_t)(i * 131 + (i >> 11));
    assert_int_equal(wl_rt_buffer_upload(rt, a, 0, host, size), WL_RT_OK);
    assert_int_equal(wl_rt_buffer_download(rt, a, 0, back, size), WL_RT_OK);
    assert_memory_equal(host, back, size);
    /* Partial, unaligned ranges. */
    assert_int_equal(wl_rt_buffer_upload(rt, a, 1001, "wavelift", 8), WL_RT_OK);
    char word[9] = { 0 };
    assert_int_equal(wl_rt_buffer_download(rt, a, 1001, word, 8), WL_RT_OK);
    assert_string_equal(word, "wavelift");
    assert_int_equal(wl_rt_buffer_upload(rt, odd, 0, "1234567", 7), WL_RT_OK);
    assert_int_equal(wl_rt_buffer_download(rt, odd, 3, word, 4), WL_RT_OK);
    assert_memory_equal(word, "4567", 4);
    /* Fill. */
    assert_int_equal(wl_rt_buffer_fill(rt, b, 64, 128, 0xa5a55a5a), WL_RT_OK);
    uint32_t w[64];
    assert_int_equal(wl_rt_buffer_download(rt, b, 0, w, sizeof w), WL_RT_OK);
    for (int i = 0; i < 64; i++)
        assert_int_equal(w[i], i >= 16 && i < 48 ? 0xa5a55a5au : 0u);
    /* Out of range and bad arguments: errors by name, no crash. */
    assert_int_equal(wl_rt_buffer_upload(rt, b, 4090, host, 7), WL_RT_ERR_USAGE);
    printf("out of range: %s\n", wl_rt_error(rt));
    assert_int_equal(wl_rt_buffer_download(rt, b, UINT64_MAX, back, 2), WL_RT_ERR_USAGE);
    assert_int_equal(wl_rt_buffer_fill(rt, b, 2, 4, 0), WL_RT_ERR_USAGE);
    assert_int_equal(wl_rt_buffer_fill(rt, b, 4096, 4, 0), WL_RT_ERR_USAGE);
    wl_rt_buffer *z = NULL;
    assert_int_equal(wl_rt_buffer_create(rt, 0, &z), WL_RT_ERR_USAGE);
    assert_null(z);
    free(host);
    free(back);
    wl_rt_buffer_destroy(rt, a);
    wl_rt_buffer_destroy(rt, b);
    /* `odd` is left for wl_rt_destroy to free. */
}

/* (a) gl_GlobalInvocationID through a device address from push constants.
 * Returns the number of mismatching words, -1 on a runtime failure. */
static int run_global_id(wl_rt *rt, const char *tmp)
{
    wl_rt_pipeline *p = make_pipeline(rt, tmp, "global_id", SPV_A, 0, 0);
    if (!p)
        return -1;
    const uint32_t groups[3] = { 5, 3, 2 }, local[3] = { 8, 2, 1 };
    const uint32_t sx = groups[0] * local[0], sy = groups[1] * local[1], sz = groups[2] * local[2];
    const uint32_t n = sx * sy * sz * 3;
    wl_rt_buffer *out = NULL;
    CHECK_RT(rt, wl_rt_buffer_create(rt, (uint64_t)n * 4 + 64, &out));
    CHECK_RT(rt, wl_rt_buffer_fill(rt, out, 0, UINT64_MAX, 0xffffffffu));
    struct {
        uint64_t addr;
        uint32_t w, plane;
    } pc = { wl_rt_buffer_address(out), sx, sx * sy };
    wl_rt_dispatch_desc d = { .groups = { groups[0], groups[1], groups[2] }, .push_constants = &pc,
                              .push_constant_size = sizeof pc };
    CHECK_RT(rt, wl_rt_dispatch(rt, p, &d, NULL));
    uint32_t *got = calloc(n + 16, 4);
    if (!got)
        return -1;
    CHECK_RT(rt, wl_rt_buffer_download(rt, out, 0, got, (uint64_t)n * 4 + 64));
    uint32_t bad = 0;
    for (uint32_t z = 0; z < sz; z++)
        for (uint32_t y = 0; y < sy; y++)
            for (uint32_t x = 0; x < sx; x++) {
                uint32_t i = (x + y * sx + z * sx * sy) * 3;
                if ((got[i] != x || got[i + 1] != y || got[i + 2] != z) && bad++ < MAX_SHOWN)
                    printf("  (%u,%u,%u): got (%u,%u,%u)\n", x, y, z, got[i], got[i + 1], got[i + 2]);
            }
    for (uint32_t i = n; i < n + 16; i++)
        if (got[i] != 0xffffffffu && bad++ < MAX_SHOWN)
            printf("  word %u past the end was written: %u\n", i, got[i]);
    printf("global_id%s: %u invocations, %u words, %u match\n",
           wl_rt_profile(rt)->host_visible_device_local ? "" : " (staging copies)", sx * sy * sz, n + 16,
           n + 16 - bad);
    free(got);
    wl_rt_buffer_destroy(rt, out);
    wl_rt_pipeline_destroy(rt, p);
    return (int)bad;
}

static void global_id(void **state)
{
    fixture *f = *state;
    assert_int_equal(run_global_id(f->rt, f->tmp), 0);
}

/* The discrete-GPU path (device-local buffers, staging copies in 64 MiB
 * chunks, fills by vkCmdFillBuffer), forced on lavapipe. */
static void staging(void **state)
{
    fixture *f = *state;
    char err[1024];
    wl_rt *rt = NULL;
    wl_rt_options o = { .force_staging = 1 };
    assert_int_equal(wl_rt_create(&o, &rt, err, sizeof err), WL_RT_OK);
    assert_int_equal(wl_rt_profile(rt)->host_visible_device_local, 0);
    const uint64_t size = (65u << 20) + 12; /* crosses a chunk boundary */
    wl_rt_buffer *b = NULL;
    assert_int_equal(wl_rt_buffer_create(rt, size, &b), WL_RT_OK);
    uint8_t *host = malloc(size), *back = malloc(size);
    assert_non_null(host);
    assert_non_null(back);
    memset(back, 0x77, size);
    assert_int_equal(wl_rt_buffer_download(rt, b, 0, back, size), WL_RT_OK);
    uint64_t nonzero = 0;
    for (uint64_t i = 0; i < size; i++)
        nonzero += back[i] != 0;
    assert_int_equal(nonzero, 0);
    for (uint64_t i = 0; i < size; i++)
        host[i] = (uint8_t)(i * 7 + (i >> 20));
    assert_int_equal(wl_rt_buffer_upload(rt, b, 0, host, size), WL_RT_OK);
    assert_int_equal(wl_rt_buffer_download(rt, b, 0, back, size), WL_RT_OK);
    assert_memory_equal(host, back, size);
    assert_int_equal(wl_rt_buffer_upload(rt, b, (64u << 20) - 3, "staging", 7), WL_RT_OK);
    char word[8] = { 0 };
    assert_int_equal(wl_rt_buffer_download(rt, b, (64u << 20) - 3, word, 7), WL_RT_OK);
    assert_string_equal(word, "staging");
    assert_int_equal(wl_rt_buffer_fill(rt, b, 4096, 8, 0x01020304u), WL_RT_OK);
    uint32_t w[4];
    assert_int_equal(wl_rt_buffer_download(rt, b, 4092, w, sizeof w), WL_RT_OK);
    assert_int_equal(w[0], host[4092] | host[4093] << 8 | host[4094] << 16 | (uint32_t)host[4095] << 24);
    assert_int_equal(w[1], 0x01020304u);
    assert_int_equal(w[2], 0x01020304u);
    free(host);
    free(back);
    printf("staging: %llu bytes round trip, fill, partial copies ok\n", (unsigned long long)size);
    assert_int_equal(run_global_id(rt, f->tmp), 0);
    wl_rt_destroy(rt);
}

/* (b) at the device's own subgroup size, with and without requiring it. */
static void subgroups_default(void **state)
{
    fixture *f = *state;
    assert_int_equal(run_subgroups(f->rt, f->tmp, 0, 0), 0);
    const wl_host_profile *p = wl_rt_profile(f->rt);
    if (p->subgroup_size_control)
        assert_int_equal(run_subgroups(f->rt, f->tmp, p->subgroup_size, 1), 0);
}

/* (b) and (c) at subgroup sizes 4, 8 and 16: lavapipe reads
 * LP_NATIVE_VECTOR_WIDTH once, so each size runs in a child process. */
static void subgroup_sizes(void **state)
{
    (void)state;
    char self[512];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    assert_true(len > 0);
    self[len] = 0;
    static const struct {
        int width;
        uint32_t size;
    } cases[] = { { 128, 4 }, { 256, 8 }, { 512, 16 } };
    int failed = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char cmd[1024];
        /* Sanitizer build: the children create no invalid module, so they
         * check for leaks with no suppression at all (tests/lsan.supp). */
        snprintf(cmd, sizeof cmd, "%sLP_NATIVE_VECTOR_WIDTH=%d '%s' --child %u 2>&1",
                 WL_RT_SANITIZE ? "LSAN_OPTIONS=print_suppressions=0 " : "", cases[i].width, self, cases[i].size);
        int status = -1;
        char *out = wlt_run(cmd, &status);
        printf("--- LP_NATIVE_VECTOR_WIDTH=%d, required subgroup size %u (exit %d)\n%s", cases[i].width,
               cases[i].size, status, out ? out : "(no output)\n");
        if (status != 0)
            failed++;
        free(out);
    }
    assert_int_equal(failed, 0);
}

/* (c) in this process, at the default subgroup size. */
static void atomics64(void **state)
{
    fixture *f = *state;
    int r = run_atomics(f->rt, f->tmp, 0);
    if (r == -2)
        skip();
    assert_int_equal(r, 0);
}

/* The binding convention: set 0, bindings 0 (status), 1 (page table),
 * 2 (LDS) and a free one (7), plus push constants. */
static void bindings(void **state)
{
    fixture *f = *state;
    wl_rt *rt = f->rt;
    wl_rt_pipeline *p = make_pipeline(rt, f->tmp, "bindings", SPV_D, 0, 0);
    assert_non_null(p);
    enum { N = 256 };
    uint32_t pt[N], lds[N], extra[N], got[N];
    for (uint32_t i = 0; i < N; i++) {
        pt[i] = i * 11 + 5;
        lds[i] = i ^ 0x5a5a;
        extra[i] = 1000000u * (i & 3);
    }
    wl_rt_buffer *bs = NULL, *bp = NULL, *bl = NULL, *be = NULL;
    assert_int_equal(wl_rt_buffer_create(rt, sizeof got, &bs), WL_RT_OK);
    assert_int_equal(wl_rt_buffer_create(rt, sizeof pt, &bp), WL_RT_OK);
    assert_int_equal(wl_rt_buffer_create(rt, sizeof lds, &bl), WL_RT_OK);
    assert_int_equal(wl_rt_buffer_create(rt, sizeof extra, &be), WL_RT_OK);
    assert_int_equal(wl_rt_buffer_upload(rt, bp, 0, pt, sizeof pt), WL_RT_OK);
    assert_int_equal(wl_rt_buffer_upload(rt, bl, 0, lds, sizeof lds), WL_RT_OK);
    assert_int_equal(wl_rt_buffer_upload(rt, be, 0, extra, sizeof extra), WL_RT_OK);
    uint32_t k = 77;
    wl_rt_dispatch_desc d = { .groups = { N / 32, 1, 1 }, .push_constants = &k, .push_constant_size = 4 };
    d.bindings[WL_RT_BINDING_STATUS] = bs;
    d.bindings[WL_RT_BINDING_PAGE_TABLE] = bp;
    d.bindings[WL_RT_BINDING_LDS] = bl;
    d.bindings[7] = be;
    assert_int_equal(wl_rt_dispatch(rt, p, &d, NULL), WL_RT_OK);
    assert_int_equal(wl_rt_buffer_download(rt, bs, 0, got, sizeof got), WL_RT_OK);
    int bad = 0;
    for (uint32_t i = 0; i < N; i++) {
        uint32_t e = pt[i] * 3 + lds[i] + extra[i] + k;
        if (got[i] != e && bad++ < MAX_SHOWN)
            printf("  status[%u] = %u, expected %u\n", i, got[i], e);
    }
    printf("bindings: %d words, %d match\n", N, N - bad);
    assert_int_equal(bad, 0);
    wl_rt_pipeline_destroy(rt, p);
    /* The buffers are left for wl_rt_destroy. */
}

static void timing(void **state)
{
    fixture *f = *state;
    wl_rt *rt = f->rt;
    wl_rt_pipeline *p = make_pipeline(rt, f->tmp, "timed", SPV_A, 0, 0);
    assert_non_null(p);
    assert_true(wl_rt_pipeline_create_ns(p) > 0);
    wl_rt_buffer *out = NULL;
    const uint32_t groups[3] = { 64, 32, 4 };
    const uint32_t sx = groups[0] * 8, sy = groups[1] * 2, sz = groups[2];
    assert_int_equal(wl_rt_buffer_create(rt, (uint64_t)sx * sy * sz * 12, &out), WL_RT_OK);
    struct {
        uint64_t addr;
        uint32_t w, plane;
    } pc = { wl_rt_buffer_address(out), sx, sx * sy };
    wl_rt_dispatch_desc d = { .groups = { groups[0], groups[1], groups[2] }, .push_constants = &pc,
                              .push_constant_size = sizeof pc, .runs = 7 };
    wl_rt_timing t;
    assert_int_equal(wl_rt_dispatch(rt, p, &d, &t), WL_RT_OK);
    printf("pipeline build: %.3f ms; dispatch of %u invocations: median %.3f ms (min %.3f, max %.3f) over %u "
           "runs, host %.3f ms\n",
           wl_rt_pipeline_create_ns(p) / 1e6, sx * sy * sz, t.median_ns / 1e6, t.min_ns / 1e6, t.max_ns / 1e6,
           t.runs, t.host_ns / 1e6);
    if (wl_rt_profile(rt)->timestamps) {
        assert_int_equal(t.runs, 7);
        assert_true(t.min_ns <= t.median_ns && t.median_ns <= t.max_ns);
        assert_true(t.max_ns > 0);
    }
    assert_true(t.host_ns > 0);
    d.runs = WL_RT_MAX_TIMED_RUNS + 1;
    assert_int_equal(wl_rt_dispatch(rt, p, &d, &t), WL_RT_ERR_USAGE);
    wl_rt_buffer_destroy(rt, out);
    wl_rt_pipeline_destroy(rt, p);
}

static void errors(void **state)
{
    fixture *f = *state;
    wl_rt *rt = f->rt;
    size_t n = 0;
    uint32_t *w = assemble(f->tmp, "err_base", SPV_A, &n);
    assert_non_null(w);
    uint32_t *bad = malloc(n * 4);
    assert_non_null(bad);
    wl_rt_pipeline *p = NULL;
    wl_rt_pipeline_desc pd = { .words = bad, .nwords = n };

    /* Malformed words never reach the driver. */
    memcpy(bad, w, n * 4);
    bad[0] = 0x03022307u;
    assert_int_equal(wl_rt_pipeline_create(rt, &pd, &p), WL_RT_ERR_FORMAT);
    printf("byte-swapped: %s\n", wl_rt_error(rt));
    assert_null(p);
    pd.nwords = 3;
    assert_int_equal(wl_rt_pipeline_create(rt, &pd, &p), WL_RT_ERR_FORMAT);
    printf("too short: %s\n", wl_rt_error(rt));
    memcpy(bad, w, n * 4);
    pd.nwords = 6; /* the header and half of "OpCapability Shader" */
    assert_int_equal(wl_rt_pipeline_create(rt, &pd, &p), WL_RT_ERR_FORMAT);
    printf("truncated: %s\n", wl_rt_error(rt));
    pd.nwords = n;
    bad[5] = (0xffffu << 16) | (bad[5] & 0xffff);
    assert_int_equal(wl_rt_pipeline_create(rt, &pd, &p), WL_RT_ERR_FORMAT);
    printf("word count: %s\n", wl_rt_error(rt));
    memcpy(bad, w, n * 4);
    pd.entry = "kernel";
    assert_int_equal(wl_rt_pipeline_create(rt, &pd, &p), WL_RT_ERR_FORMAT);
    printf("entry point: %s\n", wl_rt_error(rt));
    pd.entry = NULL;
    pd.words = NULL;
    assert_int_equal(wl_rt_pipeline_create(rt, &pd, &p), WL_RT_ERR_FORMAT);
    pd.words = bad;

    /* Well-formed words that spirv-val refuses (a store of a 64-bit value
     * through a pointer to 32 bits): the driver's error, by name. */
    const char *at = strstr(SPV_A, "OpStore %p0 %x Aligned 4");
    assert_non_null(at);
    static const char from[] = "OpStore %p0 %x", to[] = "OpStore %p0 %a0";
    char *text = calloc(1, sizeof SPV_A + sizeof to);
    assert_non_null(text);
    size_t head = (size_t)(at - SPV_A);
    memcpy(text, SPV_A, head);
    memcpy(text + head, to, strlen(to));
    strcpy(text + head + strlen(to), at + strlen(from));
    size_t ni = 0;
    uint32_t *inv = assemble_ex(f->tmp, "err_invalid", text, 1, &ni);
    free(text);
    assert_non_null(inv);
    wl_rt_pipeline_desc pi = { .words = inv, .nwords = ni };
    wl_rt_status sti = wl_rt_pipeline_create(rt, &pi, &p);
    printf("invalid module: %s: %s\n", wl_rt_status_name(sti), wl_rt_error(rt));
    free(inv);
    if (sti == WL_RT_OK) {
        /* A driver may accept it; lavapipe does not. */
        assert_null(strstr(wl_rt_profile(rt)->device_name, "llvmpipe"));
        wl_rt_pipeline_destroy(rt, p);
    } else {
        assert_int_equal(sti, WL_RT_ERR_VULKAN);
        assert_non_null(strstr(wl_rt_error(rt), "vkCreateComputePipelines: VK_ERROR_"));
        assert_true(wl_rt_vk_result(rt) < 0);
    }
    p = NULL;

    /* Random bit flips after a valid header: the check or the driver
     * refuses them by name, or the driver accepts them; nothing crashes. */
    uint32_t seed = 12345;
    int refused = 0, by_check = 0;
    for (int round = 0; round < 20; round++) {
        memcpy(bad, w, n * 4);
        for (size_t i = 5; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            if ((seed >> 16) % 4 == 0)
                bad[i] ^= 1u << ((seed >> 8) % 16); /* flip a low bit: ids and opcodes */
        }
        wl_rt_status st = wl_rt_pipeline_create(rt, &pd, &p);
        if (st == WL_RT_OK) {
            wl_rt_pipeline_destroy(rt, p);
            p = NULL;
        } else {
            refused++;
            by_check += st == WL_RT_ERR_FORMAT;
            assert_true(st == WL_RT_ERR_FORMAT || st == WL_RT_ERR_VULKAN);
            assert_true(strlen(wl_rt_error(rt)) > 0);
        }
    }
    printf("corrupted modules: %d of 20 refused by name (%d by the check, %d by the driver)\n", refused,
           by_check, refused - by_check);

    /* Subgroup sizes the device does not offer. */
    pd.words = w;
    const wl_host_profile *pr = wl_rt_profile(rt);
    pd.subgroup_size = 3;
    assert_int_equal(wl_rt_pipeline_create(rt, &pd, &p), WL_RT_ERR_UNSUPPORTED);
    printf("subgroup size 3: %s\n", wl_rt_error(rt));
    pd.subgroup_size = pr->max_subgroup_size * 2;
    assert_int_equal(wl_rt_pipeline_create(rt, &pd, &p), WL_RT_ERR_UNSUPPORTED);
    printf("subgroup size %u: %s\n", pd.subgroup_size, wl_rt_error(rt));
    /* LocalSize x 8 is not a multiple of a subgroup of 16 (full subgroups). */
    if (pr->compute_full_subgroups && pr->subgroup_size_control && pr->max_subgroup_size >= 16) {
        pd.subgroup_size = 16;
        pd.require_full_subgroups = 1;
        assert_int_equal(wl_rt_pipeline_create(rt, &pd, &p), WL_RT_ERR_USAGE);
        printf("full subgroups: %s\n", wl_rt_error(rt));
    }
    pd.subgroup_size = 0;
    pd.require_full_subgroups = 0;

    /* Dispatch arguments. */
    assert_int_equal(wl_rt_pipeline_create(rt, &pd, &p), WL_RT_OK);
    uint8_t big[WL_RT_PUSH_CONSTANT_BYTES + 4] = { 0 };
    wl_rt_dispatch_desc d = { .groups = { 1, 1, 1 }, .push_constants = big, .push_constant_size = sizeof big };
    assert_int_equal(wl_rt_dispatch(rt, p, &d, NULL), WL_RT_ERR_USAGE);
    printf("push constants: %s\n", wl_rt_error(rt));
    d.push_constant_size = 6;
    assert_int_equal(wl_rt_dispatch(rt, p, &d, NULL), WL_RT_ERR_USAGE);
    d.push_constant_size = 16;
    d.push_constants = NULL;
    assert_int_equal(wl_rt_dispatch(rt, p, &d, NULL), WL_RT_ERR_USAGE);
    d.push_constants = big;
    d.groups[0] = UINT32_MAX;
    assert_int_equal(wl_rt_dispatch(rt, p, &d, NULL), WL_RT_ERR_UNSUPPORTED);
    printf("workgroup count: %s\n", wl_rt_error(rt));
    assert_int_equal(wl_rt_dispatch(rt, NULL, &d, NULL), WL_RT_ERR_USAGE);
    wl_rt_pipeline_destroy(rt, p);

    /* Names. */
    assert_string_equal(wl_rt_vk_result_name(-4), "VK_ERROR_DEVICE_LOST");
    assert_string_equal(wl_rt_vk_result_name(0), "VK_SUCCESS");
    assert_string_equal(wl_rt_vk_result_name(-1000012000), "VK_ERROR_INVALID_SHADER_NV");
    assert_non_null(strstr(wl_rt_vk_result_name(-77777), "VK_ERROR_"));
    assert_string_equal(wl_rt_status_name(WL_RT_ERR_VULKAN), "WL_RT_ERR_VULKAN");
    char err[256];
    uint32_t *fw = NULL;
    size_t fn = 0;
    assert_int_equal(wl_rt_spirv_read_file("/nonexistent/x.spv", &fw, &fn, err, sizeof err), WL_RT_ERR_IO);
    printf("file: %s\n", err);
    free(bad);
    free(w);
}

/* A plain C program linking only the runtime library and libvulkan runs a
 * SPIR-V file (what the NVIDIA machine, without LLVM, gets). */
static const char STANDALONE_C[] =
    "#include <stdio.h>\n"
    "#include <stdlib.h>\n"
    "#include \"wavelift/runtime.h\"\n"
    "int main(int argc, char **argv) {\n"
    "    if (argc != 2) return 2;\n"
    "    char err[1024]; uint32_t *w; size_t n; wl_rt *rt;\n"
    "    if (wl_rt_spirv_read_file(argv[1], &w, &n, err, sizeof err)) { puts(err); return 1; }\n"
    "    if (wl_rt_create(NULL, &rt, err, sizeof err)) { puts(err); return 1; }\n"
    "    wl_rt_pipeline_desc pd = { .words = w, .nwords = n };\n"
    "    wl_rt_pipeline *p; wl_rt_buffer *b;\n"
    "    if (wl_rt_pipeline_create(rt, &pd, &p) || wl_rt_buffer_create(rt, 16 * 2 * 12, &b)) {\n"
    "        puts(wl_rt_error(rt)); return 1; }\n"
    "    struct { uint64_t a; uint32_t w, plane; } pc = { wl_rt_buffer_address(b), 16, 32 };\n"
    "    wl_rt_dispatch_desc d = { .groups = { 2, 1, 1 }, .push_constants = &pc, .push_constant_size = 16 };\n"
    "    wl_rt_timing t; uint32_t out[96];\n"
    "    if (wl_rt_dispatch(rt, p, &d, &t) || wl_rt_buffer_download(rt, b, 0, out, sizeof out)) {\n"
    "        puts(wl_rt_error(rt)); return 1; }\n"
    "    int bad = 0;\n"
    "    for (uint32_t i = 0; i < 32; i++)\n"
    "        bad += out[3 * i] != i % 16 || out[3 * i + 1] != i / 16 || out[3 * i + 2] != 0;\n"
    "    printf(\"%s: %d of 32 invocations wrong, pipeline %llu ns\\n\", wl_rt_profile(rt)->device_name, bad,\n"
    "           (unsigned long long)wl_rt_pipeline_create_ns(p));\n"
    "    wl_rt_destroy(rt); free(w);\n"
    "    return bad != 0;\n"
    "}\n";

static void standalone(void **state)
{
    fixture *f = *state;
    size_t n = 0;
    uint32_t *w = assemble(f->tmp, "standalone", SPV_A, &n);
    assert_non_null(w);
    free(w);
    char src[512], exe[512], cmd[4096];
    snprintf(src, sizeof src, "%s/standalone.c", f->tmp);
    snprintf(exe, sizeof exe, "%s/standalone", f->tmp);
    assert_int_equal(wlt_write_file(src, STANDALONE_C, strlen(STANDALONE_C)), 0);
    snprintf(cmd, sizeof cmd, "'%s' -std=c17 %s -I'%s/include' -o '%s' '%s' '%s' -lvulkan -lm 2>&1", WL_CC,
             WL_RT_SANITIZE ? "-fsanitize=address,undefined" : "", WL_SOURCE_DIR, exe, src, WL_RUNTIME_LIB);
    int status = -1;
    char *out = wlt_run(cmd, &status);
    if (status != 0)
        fail_msg("compiling the standalone program failed:\n%s\n%s", cmd, out ? out : "");
    free(out);
    /* Sanitizer build: its leak check is off; the driver it loads and
     * unloads would show as leaks without names (test_runtime itself checks
     * the same runtime code for leaks). */
    snprintf(cmd, sizeof cmd, "%s'%s' '%s/standalone.spv' 2>&1", WL_RT_SANITIZE ? "ASAN_OPTIONS=detect_leaks=0 " : "",
             exe, f->tmp);
    out = wlt_run(cmd, &status);
    printf("standalone: %s", out ? out : "(no output)\n");
    free(out);
    assert_int_equal(status, 0);
    if (!WL_RT_SANITIZE) {
        snprintf(cmd, sizeof cmd, "'%s' -d '%s' | grep NEEDED", WL_LLVM_READELF, exe);
        out = wlt_run(cmd, &status);
        assert_non_null(out);
        printf("standalone needs:\n%s", out);
        int libs = 0;
        for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
            libs++;
            if (!strstr(line, "[libvulkan.so.1]") && !strstr(line, "[libc.so.6]"))
                fail_msg("the standalone program needs more than libc and libvulkan: %s", line);
        }
        assert_int_equal(libs, 2);
        free(out);
    }
}

/* wl_rt_create_on_device: an emulator's own instance and device (made
 * here as a host program would, on the fixture's device, with every
 * feature the device has but storageBuffer8BitAccess): the runtime's
 * profile says only what was enabled, a dispatch runs right on it, and
 * after wl_rt_destroy the caller's device still works (a buffer made and
 * freed, the queue idle) and is the caller's to destroy. Bad descriptions
 * are refused by name, leaving the device as it was. */
static void on_callers_device(void **state)
{
    fixture *f = *state;
    const wl_host_profile *own = wl_rt_profile(f->rt);
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_3};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
    VkInstance inst = VK_NULL_HANDLE;
    assert_int_equal(vkCreateInstance(&ici, NULL, &inst), VK_SUCCESS);
    VkPhysicalDevice devs[16];
    uint32_t n = 16;
    assert_true(vkEnumeratePhysicalDevices(inst, &n, devs) >= VK_SUCCESS);
    assert_true(own->device_index < n);
    VkPhysicalDevice phys = devs[own->device_index];
    VkQueueFamilyProperties fam[32];
    uint32_t nf = 32, family = UINT32_MAX;
    vkGetPhysicalDeviceQueueFamilyProperties(phys, &nf, fam);
    for (uint32_t i = 0; i < nf && family == UINT32_MAX; i++)
        if (fam[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            family = i;
    assert_true(family != UINT32_MAX);
    VkPhysicalDeviceVulkan13Features f13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                            .pNext = &f13};
    VkPhysicalDeviceVulkan11Features f11 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
                                            .pNext = &f12};
    VkPhysicalDeviceFeatures2 feats = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f11};
    vkGetPhysicalDeviceFeatures2(phys, &feats);
    assert_true(own->storage_buffer_8bit_access); /* lavapipe has it: leaving it out must show */
    f12.storageBuffer8BitAccess = VK_FALSE;
    f12.uniformAndStorageBuffer8BitAccess = VK_FALSE;
    f12.storagePushConstant8 = VK_FALSE;
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = family,
                                  .queueCount = 1, .pQueuePriorities = &prio};
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &feats,
                              .queueCreateInfoCount = 1, .pQueueCreateInfos = &qi};
    VkDevice dev = VK_NULL_HANDLE;
    assert_int_equal(vkCreateDevice(phys, &dci, NULL, &dev), VK_SUCCESS);

    char err[1024];
    wl_rt *rt = NULL;
    wl_rt_device_desc d = {.struct_size = sizeof d, .instance = inst, .physical_device = phys, .device = dev,
                           .queue_family = family, .enabled_features = &feats, .timeout_ms = 300000};
    /* refusals: nothing made, the device untouched */
    assert_int_equal(wl_rt_create_on_device(NULL, &rt, err, sizeof err), WL_RT_ERR_USAGE);
    assert_null(rt);
    wl_rt_device_desc bad = d;
    bad.struct_size = 8;
    assert_int_equal(wl_rt_create_on_device(&bad, &rt, err, sizeof err), WL_RT_ERR_USAGE);
    assert_non_null(strstr(err, "struct_size"));
    bad = d;
    bad.enabled_features = NULL;
    assert_int_equal(wl_rt_create_on_device(&bad, &rt, err, sizeof err), WL_RT_ERR_USAGE);
    assert_non_null(strstr(err, "enabled_features"));
    bad = d;
    bad.queue_family = 99;
    assert_int_equal(wl_rt_create_on_device(&bad, &rt, err, sizeof err), WL_RT_ERR_USAGE);
    printf("on_callers_device: a missing queue: %s\n", err);
    assert_null(rt);
    f12.bufferDeviceAddress = VK_FALSE; /* as if the device were made without it */
    assert_int_equal(wl_rt_create_on_device(&d, &rt, err, sizeof err), WL_RT_ERR_UNSUPPORTED);
    printf("on_callers_device: without bufferDeviceAddress: %s\n", err);
    f12.bufferDeviceAddress = VK_TRUE;

    assert_int_equal(wl_rt_create_on_device(&d, &rt, err, sizeof err), WL_RT_OK);
    const wl_host_profile *p = wl_rt_profile(rt);
    printf("on_callers_device: %s; 8-bit storage %d (the runtime's own device: %d), 16-bit %d\n", p->device_name,
           p->storage_buffer_8bit_access, own->storage_buffer_8bit_access, p->storage_buffer_16bit_access);
    assert_int_equal(p->storage_buffer_8bit_access, 0);
    assert_int_equal(p->storage_buffer_16bit_access, own->storage_buffer_16bit_access);
    assert_int_equal(p->subgroup_size_control, own->subgroup_size_control);
    assert_int_equal(p->device_index, own->device_index);
    assert_int_equal(p->loop_iteration_limit, own->loop_iteration_limit);
    assert_int_equal(run_global_id(rt, f->tmp), 0);

    /* the caller's own buffer (guest memory it allocated): wrapped, written
     * through the runtime (staging copies), read back by the caller */
    VkBufferCreateInfo gbi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = 1 << 16,
                              .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                       VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
                                       VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT};
    VkBuffer gbuf = VK_NULL_HANDLE;
    assert_int_equal(vkCreateBuffer(dev, &gbi, NULL, &gbuf), VK_SUCCESS);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(dev, gbuf, &req);
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(phys, &mp);
    uint32_t type = UINT32_MAX;
    VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    for (uint32_t i = 0; i < mp.memoryTypeCount && type == UINT32_MAX; i++)
        if ((req.memoryTypeBits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want)
            type = i;
    assert_true(type != UINT32_MAX);
    VkMemoryAllocateFlagsInfo fl = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
                                    .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT};
    VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .pNext = &fl,
                                .allocationSize = req.size, .memoryTypeIndex = type};
    VkDeviceMemory gmem = VK_NULL_HANDLE;
    assert_int_equal(vkAllocateMemory(dev, &mai, NULL, &gmem), VK_SUCCESS);
    assert_int_equal(vkBindBufferMemory(dev, gbuf, gmem, 0), VK_SUCCESS);
    wl_rt_buffer *wrapped = NULL;
    assert_int_equal(wl_rt_buffer_wrap(rt, NULL, 16, NULL, &wrapped), WL_RT_ERR_USAGE);
    assert_int_equal(wl_rt_buffer_wrap(rt, gbuf, 1 << 16, NULL, &wrapped), WL_RT_OK);
    VkBufferDeviceAddressInfo ai = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = gbuf};
    assert_true(wl_rt_buffer_address(wrapped) == vkGetBufferDeviceAddress(dev, &ai));
    uint32_t pattern[1024];
    for (uint32_t i = 0; i < 1024; i++)
        pattern[i] = i * 2654435761u;
    assert_int_equal(wl_rt_buffer_upload(rt, wrapped, 4096, pattern, sizeof pattern), WL_RT_OK);
    assert_int_equal(wl_rt_buffer_fill(rt, wrapped, 0, 16, 0xabcdef01u), WL_RT_OK);
    wl_rt_buffer_destroy(rt, wrapped);
    void *host = NULL;
    assert_int_equal(vkMapMemory(dev, gmem, 0, VK_WHOLE_SIZE, 0, &host), VK_SUCCESS);
    assert_memory_equal((uint8_t *)host + 4096, pattern, sizeof pattern);
    assert_int_equal(((uint32_t *)host)[3], 0xabcdef01u);
    vkUnmapMemory(dev, gmem);
    printf("on_callers_device: the caller's buffer wrapped, written through the runtime, read by the caller\n");
    wl_rt_destroy(rt);
    vkDestroyBuffer(dev, gbuf, NULL);
    vkFreeMemory(dev, gmem, NULL);

    /* the caller's device lives on */
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = 4096,
                             .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
    VkBuffer buf = VK_NULL_HANDLE;
    assert_int_equal(vkCreateBuffer(dev, &bi, NULL, &buf), VK_SUCCESS);
    vkDestroyBuffer(dev, buf, NULL);
    assert_int_equal(vkDeviceWaitIdle(dev), VK_SUCCESS);
    vkDestroyDevice(dev, NULL);
    vkDestroyInstance(inst, NULL);
}

int main(int argc, char **argv)
{
    /* lavapipe unless the caller chose a driver. */
    wlt_use_lavapipe(0);
#if WL_RT_SANITIZE
    /* Sanitizer build: LeakSanitizer reads its options at start, so run
     * again with tests/lsan.supp (leaks inside Mesa and its LLVM only). */
    if (!getenv("LSAN_OPTIONS")) {
        setenv("LSAN_OPTIONS", "suppressions=" WL_SOURCE_DIR "/tests/lsan.supp:print_suppressions=0", 1);
        execv("/proc/self/exe", argv);
        perror("execv");
        return 1;
    }
    /* The loader unloads the driver at vkDestroyInstance; keep it mapped so
     * that the leak reports at exit can name its frames (and the
     * suppressions match them). */
    dlopen(LVP_LIB, RTLD_NOW | RTLD_NODELETE);
#endif
    if (argc == 3 && strcmp(argv[1], "--child") == 0)
        return child_main((uint32_t)strtoul(argv[2], NULL, 10));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(profile_read),
        cmocka_unit_test(fma_probe),
        cmocka_unit_test(device_choice),
        cmocka_unit_test(buffers),
        cmocka_unit_test(global_id),
        cmocka_unit_test(staging),
        cmocka_unit_test(subgroups_default),
        cmocka_unit_test(subgroup_sizes),
        cmocka_unit_test(atomics64),
        cmocka_unit_test(bindings),
        cmocka_unit_test(timing),
        cmocka_unit_test(errors),
        cmocka_unit_test(standalone),
        cmocka_unit_test(on_callers_device),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

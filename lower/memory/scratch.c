/* Scratch, the private segment (docs/memory.md, "Scratch"): the helpers
 * @wl.h.{load,store}.scratch.bN.jJ that lower/memory/memory.c links into the
 * module and memory.c's wl_lc_lower_mem_call calls for clone j of an access
 * (the wave model: k = 1, the lane's segment chosen by lower/wave/wave.c). */
#include <stdarg.h>
#include <stdio.h>

#include "lower/context.h"

#define ATTR "alwaysinline"


/* Where the words are (L->scratch_buffer, wl_lc_scratch_options):
 *
 *   private  lane clone j's words in its own private array @wl.scratch.j (a
 *            [words x i32], j < k), one set of helpers per clone
 *            (@wl.h.{load,store}.scratch.bN.jJ). A dynamic index into a
 *            private array costs the device compiler in proportion to the
 *            array (lavapipe: 7.6 s to compile the suite's private_array at
 *            k = 4 with one interleaved [k*words] array), so each access
 *            only indexes its own lane's.
 *   device   the storage the runtime allocates (WL_PUSH_SCRATCH_BASE_OFFSET,
 *            scratch_bytes_per_invocation a host invocation): one segment a
 *            wave of the dispatch, wave slot (flattened group id) * waves +
 *            (wave in the group), WL_SCRATCH_SEGMENT_BYTES(words, W) each;
 *            inside it word e of lane l is at byte 4 * (e * W + l), as the
 *            hardware swizzles its scratch: neighbouring lanes' words are
 *            neighbours (coalesced on a GPU). The helpers take the lane
 *            (p + j*S; the wave model's loop lane) and the segment's address
 *            from @wl.scratch.segment(), a placeholder that
 *            wl_lc_scratch_finish computes once a function. Every wave of
 *            the dispatch has a segment of its own, so no slot is claimed or
 *            shared whatever order the device runs the groups in (the price:
 *            the buffer grows with the grid, as device-memory LDS does). */

/* ptr %name to word %w of lane clone j (device: of lane %lane) */
static void word_ptr(wl_lc_txt *t, wl_lower_ctx *L, unsigned j, uint32_t nw, const char *name, const char *w)
{
    if (!L->scratch_buffer) {
        wl_lc_put(t, "  %%%s = getelementptr [%u x i32], ptr @wl.scratch.%u, i32 0, i32 %s\n", name, nw + WL_SCRATCH_SPARE_WORDS,
            j, w);
        return;
    }
    /* word e of lane l: index e * W + l of the segment's i32 (below 2^29:
     * the range check has passed, wl_lc_scratch_options bounds the
     * segment), a getelementptr so that LLVM sees one object */
    wl_lc_put(t, "  %%%s.e = mul nuw nsw i32 %s, %u\n  %%%s.l = add nuw nsw i32 %%%s.e, %%lane\n"
           "  %%%s = getelementptr inbounds i32, ptr addrspace(1) %%seg, i32 %%%s.l\n",
        name, w, L->W, name, name, name, name);
}

void wl_lc_gen_scratch(wl_lower_ctx *L, void (*out)(void *ctx, const char *text), void *ctx)
{
    wl_lc_txt t = {out, ctx};
    uint32_t words = (L->scratch_bytes + 3) / 4;
    uint32_t nw = words ? words : 1;
    int dev = L->scratch_buffer;
    const char *pt = dev ? "ptr addrspace(1)" : "ptr";
    const char *lane = dev ? ", i32 %lane" : "";
    if (dev)
        wl_lc_put(&t, "declare ptr addrspace(1) @wl.scratch.segment()\n");
    else
        for (unsigned j = 0; j < L->k; j++)
            wl_lc_put(&t, "@wl.scratch.%u = internal global [%u x i32] zeroinitializer\n", j, nw + WL_SCRATCH_SPARE_WORDS);
#define WORDP(name, w) word_ptr(&t, L, j, nw, name, w)
    for (unsigned j = 0; j < L->k; j++)
    for (unsigned bits = 8; bits <= 64; bits *= 2) {
        unsigned size = bits / 8;
        const char *rt = bits == 64 ? "i64" : "i32";
        for (int store = 0; store < 2; store++) {
            if (store)
                wl_lc_put(&t, "define void @wl.h.store.scratch.b%u.j%u(i32 %%a, %s %%v, i1 %%act%s) " ATTR " {\ne:\n",
                    bits, j, rt, lane);
            else
                wl_lc_put(&t, "define %s @wl.h.load.scratch.b%u.j%u(i32 %%a, i1 %%act%s) " ATTR " {\ne:\n", rt, bits, j,
                    lane);
            /* the range check: the whole access inside the lane's segment */
            if (L->scratch_bytes >= size)
                wl_lc_put(&t, "  %%inr = icmp ule i32 %%a, %u\n  %%ok = and i1 %%act, %%inr\n", L->scratch_bytes - size);
            else
                wl_lc_put(&t, "  %%ok = and i1 %%act, false\n");
            /* no branch: an access that is off or outside goes to the spare
             * words after the segment (a load's value is then 0) */
            wl_lc_put(&t, "  %%as = select i1 %%ok, i32 %%a, i32 %u\n  %%w = lshr i32 %%as, 2\n", nw * 4);
            if (dev)
                wl_lc_put(&t, "  %%seg = call ptr addrspace(1) @wl.scratch.segment()\n");
            WORDP("p", "%w");
            if (bits == 64) {
                wl_lc_put(&t, "  %%w1 = add i32 %%w, 1\n");
                WORDP("p1", "%w1");
            }
            if (!store) {
                if (bits == 32) {
                    wl_lc_put(&t, "  %%r = load i32, %s %%p, align 4\n", pt);
                } else if (bits == 64) {
                    wl_lc_put(&t, "  %%lo = load i32, %s %%p, align 4\n  %%hi = load i32, %s %%p1, align 4\n"
                           "  %%lo64 = zext i32 %%lo to i64\n  %%hi64 = zext i32 %%hi to i64\n"
                           "  %%his = shl i64 %%hi64, 32\n  %%r = or i64 %%lo64, %%his\n", pt, pt);
                } else {
                    wl_lc_put(&t, "  %%lo3 = and i32 %%as, 3\n  %%cross = icmp eq i32 %%lo3, %u\n  %%w1p = add i32 %%w, 1\n"
                           "  %%w1 = select i1 %%cross, i32 %%w1p, i32 %%w\n",
                        bits == 16 ? 3 : 4);
                    WORDP("p1", "%w1");
                    wl_lc_put(&t, "  %%lo = load i32, %s %%p, align 4\n  %%hi = load i32, %s %%p1, align 4\n"
                           "  %%lo64 = zext i32 %%lo to i64\n  %%hi64 = zext i32 %%hi to i64\n"
                           "  %%his = shl i64 %%hi64, 32\n  %%both = or i64 %%lo64, %%his\n"
                           "  %%sh32 = shl i32 %%lo3, 3\n  %%sh = zext i32 %%sh32 to i64\n"
                           "  %%s = lshr i64 %%both, %%sh\n  %%st = trunc i64 %%s to i32\n  %%r = and i32 %%st, %u\n",
                        pt, pt, bits == 8 ? 0xffu : 0xffffu);
                }
                wl_lc_put(&t, "  %%res = select i1 %%ok, %s %%r, %s 0\n  ret %s %%res\n}\n", rt, rt, rt);
            } else {
                if (bits == 32) {
                    wl_lc_put(&t, "  store i32 %%v, %s %%p, align 4\n", pt);
                } else if (bits == 64) {
                    wl_lc_put(&t, "  %%lo = trunc i64 %%v to i32\n  %%hs = lshr i64 %%v, 32\n  %%hi = trunc i64 %%hs to i32\n"
                           "  store i32 %%lo, %s %%p, align 4\n  store i32 %%hi, %s %%p1, align 4\n", pt, pt);
                } else {
                    /* byte by byte into the words (the lane's own words:
                     * no other writer, in either place) */
                    for (unsigned i = 0; i < size; i++) {
                        wl_lc_put(&t, "  %%a%u = add i32 %%as, %u\n  %%w%u = lshr i32 %%a%u, 2\n", i, i, i, i);
                        char nm[8], wv[8];
                        snprintf(nm, sizeof nm, "q%u", i);
                        snprintf(wv, sizeof wv, "%%w%u", i);
                        WORDP(nm, wv);
                        wl_lc_put(&t, "  %%b%u.3 = and i32 %%a%u, 3\n  %%sh%u = shl i32 %%b%u.3, 3\n  %%m%u = shl i32 255, %%sh%u\n"
                               "  %%nm%u = xor i32 %%m%u, -1\n  %%vsh%u = lshr i32 %%v, %u\n  %%vb%u = and i32 %%vsh%u, 255\n"
                               "  %%vs%u = shl i32 %%vb%u, %%sh%u\n  %%old%u = load i32, %s %%q%u, align 4\n"
                               "  %%kept%u = and i32 %%old%u, %%nm%u\n  %%new%u = or i32 %%kept%u, %%vs%u\n"
                               "  store i32 %%new%u, %s %%q%u, align 4\n",
                            i, i, i, i, i, i, i, i, i, 8 * i, i, i, i, i, i, i, pt, i, i, i, i, i, i, i, i, pt, i);
                    }
                }
                wl_lc_put(&t, "  ret void\n}\n");
            }
        }
    }
#undef WORDP
}

wl_status wl_lc_scratch_options(wl_lower_ctx *L, const wl_lower_options *opt)
{
    /* the limit is on the private array an invocation indexes: a lane's
     * segment in the lanes model (an array a clone), the wave's W segments
     * in the wave model (one array) */
    uint32_t limit = opt->scratch_limit ? opt->scratch_limit : WL_SCRATCH_LIMIT_DEFAULT;
    uint64_t array = (uint64_t)L->scratch_bytes * (L->wave_model ? L->W : 1);
    L->scratch_buffer = L->scratch_bytes && (opt->force_scratch_buffer || array > limit);
    /* the segment's byte offsets are i32 */
    if (L->scratch_buffer && WL_SCRATCH_SEGMENT_BYTES(L->scratch_bytes, L->W) > 0x7fffffffu)
        return wl_lc_fail(L, WL_ERR_UNSUPPORTED, NULL, "device-memory scratch: %u bytes a lane of a wave%u",
                          L->scratch_bytes, L->W);
    return WL_OK;
}

uint64_t wl_lc_segment_bytes(const wl_lower_ctx *L)
{
    return (L->scratch_buffer ? WL_SCRATCH_SEGMENT_BYTES(L->scratch_bytes, L->W) : 0) + L->lane_array_bytes;
}

uint32_t wl_lc_scratch_invocation_bytes(const wl_lower_ctx *L)
{
    /* a wave's host invocations: one (wave model), S (lanes model) */
    return (uint32_t)(wl_lc_segment_bytes(L) / (L->wave_model ? 1 : L->S));
}

/* The wave's segment in fn: base + ((x + nx * (y + ny * z)) * waves + wave)
 * * segment bytes, at fn's entry after its allocas. */
static LLVMValueRef segment_of(wl_lower_ctx *L, LLVMValueRef fn)
{
    LLVMValueRef first = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn));
    while (first && LLVMIsAAllocaInst(first))
        first = LLVMGetNextInstruction(first);
    LLVMPositionBuilderBefore(L->b, first);
    LLVMValueRef id[3], n[2];
    for (unsigned d = 0; d < 3; d++) {
        LLVMValueRef dv = LLVMConstInt(L->i32, d, 0);
        id[d] = wl_lc_call(L, "spv.workgroup_id", L->i32, &dv, 1);
        if (d < 2)
            n[d] = wl_lc_call(L, "spv.num_workgroups", L->i32, &dv, 1);
    }
    LLVMValueRef flat = LLVMBuildAdd(L->b, id[1], LLVMBuildMul(L->b, n[1], id[2], ""), "");
    flat = LLVMBuildAdd(L->b, id[0], LLVMBuildMul(L->b, n[0], flat, ""), "scratch.group");
    LLVMValueRef wave;
    if (L->wave_model) {
        LLVMValueRef zero = LLVMConstInt(L->i32, 0, 0);
        wave = wl_lc_call(L, "spv.local_invocation_id", L->i32, &zero, 1);
    } else {
        wave = L->waves == 1 ? LLVMConstInt(L->i32, 0, 0) : wl_lc_call(L, "spv.subgroup_id", L->i32, NULL, 0);
    }
    LLVMValueRef slot = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, LLVMBuildZExt(L->b, flat, L->i64, ""),
                                                        LLVMConstInt(L->i64, L->waves, 0), ""),
                                     LLVMBuildZExt(L->b, wave, L->i64, ""), "scratch.slot");
    LLVMValueRef push = LLVMGetNamedGlobal(L->m, "wl.push");
    LLVMValueRef off = LLVMConstInt(L->i32, WL_PUSH_SCRATCH_BASE_OFFSET, 0);
    LLVMValueRef bp = LLVMBuildGEP2(L->b, L->i8, push, &off, 1, "");
    LLVMValueRef base = LLVMBuildLoad2(L->b, L->i64, bp, "scratch.base");
    LLVMSetAlignment(base, 8);
    LLVMValueRef seg = LLVMConstInt(L->i64, wl_lc_segment_bytes(L), 0);
    LLVMValueRef a = LLVMBuildAdd(L->b, base, LLVMBuildMul(L->b, slot, seg, ""), "");
    return LLVMBuildIntToPtr(L->b, a, LLVMPointerTypeInContext(L->ctx, 1), "scratch.segment");
}

/* Whether p is the segment pointer or a getelementptr on it */
static int on_segment(LLVMValueRef p, LLVMValueRef seg)
{
    for (int d = 0; d < 16 && p; d++) {
        if (p == seg)
            return 1;
        if (!LLVMIsAGetElementPtrInst(p))
            return 0;
        p = LLVMGetOperand(p, 0);
    }
    return 0;
}

/* Scoped alias metadata: scratch accesses (on the segment) in a scope no
 * other access of fn is in, so that LLVM keeps a spill's value across the
 * guest's stores and removes the reloads it can, as it does for private
 * arrays. True: the scratch buffer is reached only through the segment
 * (the runtime keeps it outside the guest mapping). */
static void mark_scopes(wl_lower_ctx *L, LLVMValueRef fn, LLVMValueRef seg)
{
    LLVMMetadataRef dn = LLVMMDStringInContext2(L->ctx, "wl.scratch", 10);
    LLVMMetadataRef dom = LLVMMDNodeInContext2(L->ctx, &dn, 1);
    LLVMMetadataRef sc[2] = {LLVMMDStringInContext2(L->ctx, "wl.scratch.segment", 18), dom};
    LLVMMetadataRef scope = LLVMMDNodeInContext2(L->ctx, sc, 2);
    LLVMValueRef list = LLVMMetadataAsValue(L->ctx, LLVMMDNodeInContext2(L->ctx, &scope, 1));
    unsigned k_scope = LLVMGetMDKindIDInContext(L->ctx, "alias.scope", 11);
    unsigned k_noalias = LLVMGetMDKindIDInContext(L->ctx, "noalias", 7);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I)) {
            LLVMOpcode op = LLVMGetInstructionOpcode(I);
            int at = op == LLVMStore ? 1 : op == LLVMLoad || op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg ? 0 : -1;
            if (at >= 0)
                LLVMSetMetadata(I, on_segment(LLVMGetOperand(I, (unsigned)at), seg) ? k_scope : k_noalias, list);
        }
}

wl_status wl_lc_scratch_finish(wl_lower_ctx *L)
{
    LLVMValueRef f = LLVMGetNamedFunction(L->m, "wl.scratch.segment");
    if (!f)
        return WL_OK;
    if (!LLVMGetNamedGlobal(L->m, "wl.push"))
        return wl_lc_fail(L, WL_ERR_INVALID, NULL, "device-memory scratch: no @wl.push");
    /* the calls, by function: one segment a function (the main function,
     * or a helper kept as a function: helper_calls.c) */
    LLVMValueRef fns[16], segs[16];
    unsigned nf = 0;
    for (LLVMUseRef u; (u = LLVMGetFirstUse(f));) {
        LLVMValueRef c = LLVMGetUser(u);
        if (!LLVMIsACallInst(c) || LLVMGetCalledValue(c) != f)
            return wl_lc_fail(L, WL_ERR_INVALID, c, "device-memory scratch: @wl.scratch.segment used otherwise");
        LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(c));
        if (fn != L->fn && !LLVMGetFirstUse(fn)) {
            /* a helper inlined everywhere, deleted by wl_lc_finish */
            LLVMReplaceAllUsesWith(c, LLVMGetPoison(LLVMPointerTypeInContext(L->ctx, 1)));
            wl_lc_forget(L, c);
            LLVMInstructionEraseFromParent(c);
            continue;
        }
        unsigned i = 0;
        while (i < nf && fns[i] != fn)
            i++;
        if (i == nf) {
            if (nf == sizeof fns / sizeof fns[0])
                return wl_lc_fail(L, WL_ERR_UNSUPPORTED, c, "device-memory scratch: scratch in over %u functions", nf);
            fns[nf] = fn;
            segs[nf++] = segment_of(L, fn);
        }
        LLVMReplaceAllUsesWith(c, segs[i]);
        wl_lc_forget(L, c);
        LLVMInstructionEraseFromParent(c);
    }
    LLVMDeleteFunction(f);
    for (unsigned i = 0; i < nf; i++)
        mark_scopes(L, fns[i], segs[i]);
    return WL_OK;
}

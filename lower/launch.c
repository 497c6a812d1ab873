/* Launch state and lane operations of the lanes model (docs/lanes.md).
 *
 * p = SubgroupLocalInvocationId, sid = SubgroupId, computed once at the top
 * of the entry block. Clone j is the wave's lane p + j*S; the wave is
 * subgroup sid of the workgroup, its first work-item sid * W.
 *
 *   @wl.user_sgpr(n)        push constant dword n (lower.h's layout)
 *   @wl.workgroup_id(d)     WorkgroupId[d]
 *   @wl.thread_id(d)        flat = sid*W + p + j*S, split by the guest local size
 *   @wl.wave_id()           sid
 *   @wl.launch_exec()       the lanes whose flat id < the group's size (D855)
 *   @wl.scratch_wave_offset() 0 (scratch is per invocation: memory.c)
 *   @wl.lane_id()           p + j*S
 *   @wl.lane_active(e)      bit p + j*S of e
 *   @wl.ballot(c)           OR_j (ballot(c_j) low S bits) << j*S
 *   @wl.shuffle(v, n)       k shuffles of v_i by n mod S, pick i = n / S
 *   @wl.readfirstlane(v, e) shuffle by cttz(e) (0 when e is 0)
 *   @wl.barrier()           workgroup barrier
 *   @wl.sload.b32(a)        a load through the guest mapping (memory.c) */
#include <stdio.h>
#include <string.h>

#include "llvm-passes/passes.h"
#include "context.h"

static LLVMValueRef c32(wl_lower_ctx *L, uint64_t v) { return LLVMConstInt(L->i32, v, 0); }
static LLVMValueRef c64(wl_lower_ctx *L, uint64_t v) { return LLVMConstInt(L->i64, v, 0); }

wl_status wl_lc_launch_setup(wl_lower_ctx *L)
{
    LLVMBasicBlockRef e = LLVMGetEntryBasicBlock(L->fn);
    LLVMValueRef first = LLVMGetFirstInstruction(e);
    if (first)
        LLVMPositionBuilderBefore(L->b, first);
    else
        LLVMPositionBuilderAtEnd(L->b, e);
    L->p = wl_lc_call(L, "spv.subgroup_local_invocation_id", L->i32, NULL, 0);
    /* one wave a group: one subgroup, whose SubgroupId is 0 */
    L->sid = L->waves == 1 ? c32(L, 0) : wl_lc_call(L, "spv.subgroup_id", L->i32, NULL, 0);
    return WL_OK;
}

static LLVMValueRef lane_of(wl_lower_ctx *L, unsigned j)
{
    return LLVMBuildAdd(L->b, L->p, c32(L, (uint64_t)j * L->S), "lane");
}

static LLVMValueRef push_word(wl_lower_ctx *L, unsigned n)
{
    LLVMValueRef g = LLVMGetNamedGlobal(L->m, "wl.push");
    if (!g) {
        g = LLVMAddGlobalInAddressSpace(L->m, LLVMArrayType2(L->i32, WL_PUSH_BYTES / 4), "wl.push", 6);
        LLVMSetLinkage(g, LLVMExternalLinkage);
    }
    LLVMValueRef off = c32(L, 4u * n);
    LLVMValueRef pt = LLVMBuildGEP2(L->b, L->i8, g, &off, 1, "");
    LLVMValueRef v = LLVMBuildLoad2(L->b, L->i32, pt, "usgpr");
    LLVMSetAlignment(v, 4);
    return v;
}

/* the flat work-item id of lane j */
static LLVMValueRef flat_id(wl_lower_ctx *L, unsigned j)
{
    LLVMValueRef base = LLVMBuildMul(L->b, L->sid, c32(L, L->W), "");
    return LLVMBuildAdd(L->b, base, lane_of(L, j), "flat");
}

static LLVMValueRef thread_id(wl_lower_ctx *L, unsigned dim, unsigned j)
{
    LLVMValueRef f = flat_id(L, j);
    if (dim == 0)
        return L->local[0] == 1 ? c32(L, 0) : LLVMBuildURem(L->b, f, c32(L, L->local[0]), "tid.x");
    if (dim == 1) {
        LLVMValueRef q = LLVMBuildUDiv(L->b, f, c32(L, L->local[0]), "");
        return L->local[1] == 1 ? c32(L, 0) : LLVMBuildURem(L->b, q, c32(L, L->local[1]), "tid.y");
    }
    return LLVMBuildUDiv(L->b, f, c32(L, (uint64_t)L->local[0] * L->local[1]), "tid.z");
}

static LLVMValueRef launch_exec(wl_lower_ctx *L)
{
    uint32_t total = L->local[0] * L->local[1] * L->local[2];
    LLVMValueRef first = LLVMBuildMul(L->b, L->sid, c32(L, L->W), "");
    LLVMValueRef left = LLVMBuildSub(L->b, c32(L, total), first, "");
    LLVMValueRef n = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntUGT, left, c32(L, L->W), ""),
                                     c32(L, L->W), left, "");
    LLVMValueRef n64 = LLVMBuildZExt(L->b, n, L->i64, "");
    LLVMValueRef m = LLVMBuildSub(L->b, LLVMBuildShl(L->b, c64(L, 1), n64, ""), c64(L, 1), "");
    LLVMValueRef full = c64(L, L->W == 64 ? ~0ull : 0xffffffffull);
    return LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntUGE, n, c32(L, 64), ""), full, m, "launch_exec");
}

/* OR over j of (ballot(c_j) & low S bits) << j*S */
static LLVMValueRef ballot(wl_lower_ctx *L, LLVMValueRef orig_c)
{
    LLVMValueRef acc = c64(L, 0);
    for (unsigned j = 0; j < L->k; j++) {
        LLVMValueRef c = wl_lc_get(L, orig_c, j);
        LLVMValueRef b = wl_lc_call(L, "spv.subgroup.ballot", L->v4i32, &c, 1);
        LLVMValueRef lo = LLVMBuildZExt(L->b, LLVMBuildExtractElement(L->b, b, c32(L, 0), ""), L->i64, "");
        LLVMValueRef v = lo;
        if (L->S > 32) {
            LLVMValueRef hi = LLVMBuildZExt(L->b, LLVMBuildExtractElement(L->b, b, c32(L, 1), ""), L->i64, "");
            v = LLVMBuildOr(L->b, lo, LLVMBuildShl(L->b, hi, c64(L, 32), ""), "");
        } else if (L->S < 32) {
            v = LLVMBuildAnd(L->b, lo, c64(L, (1ull << L->S) - 1), "");
        }
        if (j)
            v = LLVMBuildShl(L->b, v, c64(L, (uint64_t)j * L->S), "");
        acc = j ? LLVMBuildOr(L->b, acc, v, "ballot") : v;
    }
    return acc;
}

/* orig (a wl.ballot) is only compared with 0 (icmp eq/ne, either side) */
static int only_zero_tests(LLVMValueRef orig)
{
    LLVMUseRef u = LLVMGetFirstUse(orig);
    if (!u)
        return 0;
    for (; u; u = LLVMGetNextUse(u))
        if (!wl_fold_zero_test(LLVMGetUser(u), orig))
            return 0;
    return 1;
}

/* A ballot only compared with 0 (an s_cbranch_execz's mask): "some lane's
 * c is true" is one subgroup any of the clones' or, where the mask costs
 * k ballots, their extracts, conversions, shifts and ors. The compares
 * read the any (or its negation); the ballot's value stands in as its
 * zext, which nothing reads then. */
static LLVMValueRef ballot_tested(wl_lower_ctx *L, LLVMValueRef orig)
{
    LLVMValueRef acc = NULL;
    for (unsigned j = 0; j < L->k; j++) {
        LLVMValueRef c = wl_lc_get(L, LLVMGetOperand(orig, 0), j);
        acc = j ? LLVMBuildOr(L->b, acc, c, "") : c;
    }
    LLVMValueRef any = wl_lc_call(L, "spv.subgroup.any", L->i1, &acc, 1);
    /* here, before the compares: they stay (unread) until the end and read
     * it (built after the negation below, an earlier compare would read
     * it before it is defined) */
    LLVMValueRef stand_in = LLVMBuildZExt(L->b, any, L->i64, "ballot.any");
    for (LLVMUseRef u = LLVMGetFirstUse(orig); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef U = LLVMGetUser(u);
        LLVMValueRef r = any;
        if (LLVMGetICmpPredicate(U) == LLVMIntEQ) {
            LLVMPositionBuilderBefore(L->b, U);
            r = LLVMBuildNot(L->b, any, "none");
        }
        LLVMReplaceAllUsesWith(U, r);
    }
    return stand_in;
}

/* the value of orig_v (all its clones) at wave lane `lane` (an i32) */
static LLVMValueRef read_lane(wl_lower_ctx *L, LLVMValueRef orig_v, LLVMValueRef lane, const char *suffix)
{
    if (wl_lc_find(L, orig_v) < 0)
        return orig_v; /* the same in every lane */
    char fname[64];
    snprintf(fname, sizeof fname, "spv.subgroup.shuffle%s", suffix);
    LLVMValueRef l = LLVMBuildAnd(L->b, lane, c32(L, L->W - 1), "");
    LLVMValueRef src = L->k > 1 ? LLVMBuildAnd(L->b, l, c32(L, L->S - 1), "src") : l;
    LLVMValueRef which = L->k > 1 ? LLVMBuildLShr(L->b, l, c32(L, L->log2S), "which") : NULL;
    LLVMValueRef r = NULL;
    for (unsigned i = 0; i < L->k; i++) {
        LLVMValueRef a[2] = {wl_lc_get(L, orig_v, i), src};
        LLVMValueRef s = wl_lc_call(L, fname, LLVMTypeOf(a[0]), a, 2);
        r = i ? LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, which, c32(L, i), ""), s, r, "") : s;
    }
    return r;
}

static int const_arg(LLVMValueRef call, unsigned i, unsigned *out)
{
    LLVMValueRef a = LLVMGetOperand(call, i);
    if (!LLVMIsAConstantInt(a))
        return 0;
    *out = (unsigned)LLVMConstIntGetZExtValue(a);
    return 1;
}

wl_status wl_lc_lower_lane_call(wl_lower_ctx *L, LLVMValueRef orig, const char *name, size_t len)
{
    long idx = wl_lc_find(L, orig);
    unsigned n = idx >= 0 ? L->k : 1;
    /* which family; per clone below */
    int fam;
    static const char *const names[] = {"wl.lane_id", "wl.thread_id", "wl.lane_active", "wl.ballot",
                                        "wl.shuffle", "wl.readfirstlane", "wl.user_sgpr", "wl.workgroup_id",
                                        "wl.wave_id", "wl.launch_exec", "wl.scratch_wave_offset",
                                        "wl.barrier", "wl.sload.b32"};
    for (fam = 0; fam < (int)(sizeof names / sizeof names[0]); fam++)
        if (wl_lc_prefix(name, len, names[fam]))
            break;
    if (fam == (int)(sizeof names / sizeof names[0]))
        return WL_ERR_NOT_FOUND;
    const char *suffix = "";
    if (fam == 4 || fam == 5)
        suffix = name + strlen(names[fam]);
    for (unsigned j = 0; j < n; j++) {
        LLVMValueRef c = idx >= 0 ? wl_lc_clones(L, idx)[j] : orig;
        LLVMPositionBuilderBefore(L->b, c);
        LLVMValueRef v = NULL;
        unsigned a;
        switch (fam) {
        case 0:
            v = lane_of(L, j);
            break;
        case 1:
            if (!const_arg(c, 0, &a) || a > 2)
                return wl_lc_fail(L, WL_ERR_UNSUPPORTED, c, "lanes model: @wl.thread_id needs a constant dimension");
            v = thread_id(L, a, j);
            break;
        case 2: {
            LLVMValueRef e = LLVMGetOperand(c, 0);
            LLVMValueRef sh = LLVMBuildLShr(L->b, e, LLVMBuildZExt(L->b, lane_of(L, j), L->i64, ""), "");
            v = LLVMBuildTrunc(L->b, sh, L->i1, "active");
            break;
        }
        case 3:
            v = only_zero_tests(orig) ? ballot_tested(L, orig) : ballot(L, LLVMGetOperand(orig, 0));
            break;
        case 4:
            v = read_lane(L, LLVMGetOperand(orig, 0), LLVMGetOperand(c, 1), suffix);
            break;
        case 5: {
            LLVMValueRef e = LLVMGetOperand(c, 1);
            LLVMTypeRef t = L->i64;
            unsigned id = LLVMLookupIntrinsicID("llvm.cttz", 9);
            LLVMValueRef f = LLVMGetIntrinsicDeclaration(L->m, id, &t, 1);
            LLVMValueRef args[2] = {e, LLVMConstInt(L->i1, 0, 0)};
            LLVMValueRef tz = LLVMBuildCall2(L->b, LLVMGlobalGetValueType(f), f, args, 2, "");
            LLVMValueRef lane = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, e, c64(L, 0), ""), c32(L, 0),
                                                LLVMBuildTrunc(L->b, tz, L->i32, ""), "first");
            v = read_lane(L, LLVMGetOperand(orig, 0), lane, suffix);
            break;
        }
        case 6:
            if (!const_arg(c, 0, &a) || a >= WL_PUSH_USER_SGPRS)
                return wl_lc_fail(L, WL_ERR_UNSUPPORTED, c, "lanes model: user SGPR beyond the %d pushed",
                                  WL_PUSH_USER_SGPRS);
            v = push_word(L, a);
            break;
        case 7:
            if (!const_arg(c, 0, &a) || a > 2)
                return wl_lc_fail(L, WL_ERR_UNSUPPORTED, c, "lanes model: @wl.workgroup_id needs a constant dimension");
            {
                LLVMValueRef d = c32(L, a);
                v = wl_lc_call(L, "spv.workgroup_id", L->i32, &d, 1);
            }
            break;
        case 8:
            v = L->sid;
            break;
        case 9:
            v = launch_exec(L);
            break;
        case 10:
            v = c32(L, 0);
            break;
        case 11:
            /* a group of one wave in the wave model is one invocation (its
             * phantom partner returns at entry: wave.c phantom_guard), whose
             * own accesses are in order: no barrier, which the returned
             * phantom would never reach */
            if (!(L->wave_model && L->waves == 1))
                wl_lc_call(L, "spv.barrier.workgroup", L->t_void, NULL, 0);
            break;
        case 12: /* through the guest mapping (memory.c's @wl.h.sload.b32, spans) */
            v = wl_lc_sload(L, orig, c);
            break;
        }
        wl_status rs = wl_lc_replace(L, orig, j, c, v);
        if (rs)
            return rs;
    }
    return WL_OK;
}

/* The byte offset of a push-constant pointer (@wl.push or a constant GEP
 * of it by bytes, as push_word makes), or -1 */
static long push_offset(LLVMValueRef g, LLVMValueRef p)
{
    if (p == g)
        return 0;
    if (!LLVMIsAConstantExpr(p) || LLVMGetConstOpcode(p) != LLVMGetElementPtr || LLVMGetNumOperands(p) != 2 ||
        LLVMGetOperand(p, 0) != g || LLVMGetGEPSourceElementType(p) != LLVMInt8TypeInContext(LLVMGetTypeContext(LLVMTypeOf(p))))
        return -1;
    LLVMValueRef i = LLVMGetOperand(p, 1);
    if (!LLVMIsAConstantInt(i) || LLVMConstIntGetZExtValue(i) > 0xffff)
        return -1;
    return (long)LLVMConstIntGetZExtValue(i);
}

/* v = zext(load i32 from @wl.push + off): off, else -1 */
static long push_word_of(LLVMValueRef g, LLVMValueRef v)
{
    if (!LLVMIsAZExtInst(v))
        return -1;
    LLVMValueRef ld = LLVMGetOperand(v, 0);
    if (!LLVMIsALoadInst(ld) || LLVMGetVolatile(ld) || LLVMGetTypeKind(LLVMTypeOf(ld)) != LLVMIntegerTypeKind ||
        LLVMGetIntTypeWidth(LLVMTypeOf(ld)) != 32)
        return -1;
    return push_offset(g, LLVMGetOperand(ld, 0));
}

/* A 64-bit value made of two push words, (zext w[o + 4] << 32) | zext w[o]
 * (a pointer in a user-SGPR pair), becomes one i64 load where o is
 * 8-aligned: the backend reads it as one u64 push member (backend/push.c)
 * instead of two words, two conversions, a shift and an or. */
void wl_lc_push_pairs(wl_lower_ctx *L)
{
    LLVMValueRef g = LLVMGetNamedGlobal(L->m, "wl.push");
    if (!g)
        return;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(L->fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef I = LLVMGetFirstInstruction(bb);
        while (I) {
            LLVMValueRef next = LLVMGetNextInstruction(I);
            if (LLVMGetInstructionOpcode(I) == LLVMOr && LLVMTypeOf(I) == L->i64) {
                for (unsigned s = 0; s < 2; s++) {
                    LLVMValueRef hi = LLVMGetOperand(I, s), lo = LLVMGetOperand(I, 1 - s);
                    if (!LLVMIsAInstruction(hi) || LLVMGetInstructionOpcode(hi) != LLVMShl ||
                        !LLVMIsAConstantInt(LLVMGetOperand(hi, 1)) || LLVMConstIntGetZExtValue(LLVMGetOperand(hi, 1)) != 32)
                        continue;
                    long o = push_word_of(g, lo), oh = push_word_of(g, LLVMGetOperand(hi, 0));
                    if (o < 0 || o % 8 || oh != o + 4)
                        continue;
                    LLVMPositionBuilderBefore(L->b, I);
                    LLVMValueRef off = LLVMConstInt(L->i32, (unsigned long long)o, 0);
                    LLVMValueRef v = LLVMBuildLoad2(L->b, L->i64, LLVMBuildGEP2(L->b, L->i8, g, &off, 1, ""), "usgpr64");
                    LLVMSetAlignment(v, 4);
                    LLVMReplaceAllUsesWith(I, v);
                    wl_lc_forget(L, I);
                    LLVMInstructionEraseFromParent(I);
                    break;
                }
            }
            I = next;
        }
    }
}

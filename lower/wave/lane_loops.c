/* Runs of lane work and their loops (D956; docs/wave-model.md).
 *
 * Requires: the uniformity map of V->L (wl_lc_uniformity), no varying phi.
 * Leaves: every block B cut into parts U0 L1 U1 ... Lr Ur in program order,
 * where Ui holds uniform instructions (run once by the invocation) and Li is
 * one lane loop: a block of its own that runs its instructions for lane
 * %lane = 0 .. W-1. Ur stays in B (with B's terminator, so the successors'
 * phis stay right); the other parts are new blocks before it, and B's
 * predecessors branch to U0.
 *
 * A run collects the consecutive eligible (varying) instructions of a block:
 * arithmetic, VGPR accesses, lane id / thread id / EXEC bits, memory and
 * escapes, and wl.shuffle with a varying lane (a DPP or bpermute read: the
 * source's lane array, indexed by the lane it names). A uniform instruction
 * met inside a run has no varying operand (uniformity) and reads only
 * uniform allocas, which no varying instruction writes: it moves before the
 * run's loop (its part U), so that scalar work runs once. A run ends:
 *   - before a store or atomic when it holds an access of the same memory,
 *     before a load when it holds a store or atomic of the same memory (the
 *     LDS, or guest memory: no guest address reaches the LDS; scratch is
 *     the lane's own and escapes only record: neither counts);
 *   - before a cross-lane read whose source it computes (every lane's value
 *     must exist first), and before a wl.readfirstlane or a uniform-lane
 *     wl.shuffle of such a source (they then run between the loops); but a
 *     uniform read of a VGPR loaded in the block with no store to it before
 *     the read reads the VGPR's lane array as it was at the block's top: it
 *     goes before the open run's loop, which goes on (V->dxl);
 *   - before a lane instruction that needs a wl.ballot's whole mask: the
 *     loop carries the mask (a phi, one bit a lane) and its value is the
 *     ballot after the loop. The run itself goes on past the ballot; the
 *     uniform work that needs the mask (and any later uniform instruction
 *     using such work, or an alloca it loads or stores) waits and runs
 *     after the loop, in program order (`late`);
 *   - at a scalar memory access, a barrier or anything else with an effect;
 *   - at the end of the block. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "wave_internal.h"

enum { C_UNIFORM, C_BARRIER, C_LANE, C_BALLOT, C_XREAD_UNIFORM, C_XREAD_LANE };
/* an access's kind; M_LDS marks the LDS, else guest memory (global,
 * buffer, flat's global half, images, SMEM stores): the two never meet */
enum { M_NONE, M_LOAD, M_STORE, M_LDS = 4 };

typedef struct part {
    LLVMValueRef *ins;
    size_t n, cap;
} part;

static int part_add(part *p, LLVMValueRef I)
{
    if (p->n == p->cap) {
        size_t nc = p->cap ? p->cap * 2 : 16;
        LLVMValueRef *ni = realloc(p->ins, nc * sizeof *ni);
        if (!ni)
            return 0;
        p->ins = ni;
        p->cap = nc;
    }
    p->ins[p->n++] = I;
    return 1;
}

/* the guest instruction (its byte offset) a memory call was lifted from,
 * its !wl.insn (frontend/lift/lift_mem.c), or -1 */
static int64_t insn_of(wl_wv *V, LLVMValueRef I)
{
    LLVMValueRef md = LLVMGetMetadata(I, LLVMGetMDKindIDInContext(V->L.ctx, "wl.insn", 7));
    if (!md || LLVMGetMDNodeNumOperands(md) != 1)
        return -1;
    LLVMValueRef op;
    LLVMGetMDNodeOperands(md, &op);
    return op && LLVMIsAConstantInt(op) ? (int64_t)(LLVMConstIntGetZExtValue(op) & INT64_MAX) : -1;
}

/* what the instruction is to the runs */
static int classify(wl_wv *V, LLVMValueRef I, int *mem)
{
    wl_lower_ctx *L = &V->L;
    *mem = M_NONE;
    size_t len;
    const char *n = wl_lc_callee(I, &len);
    int varying = wl_lc_find(L, I) >= 0;
    if (LLVMIsAAllocaInst(I))
        return C_UNIFORM; /* stays in the entry block; a varying one becomes a lane array */
    if (n && wl_lc_prefix(n, len, "wl.")) {
        if (wl_lc_prefix(n, len, "wl.ballot"))
            return C_BALLOT;
        if (wl_lc_prefix(n, len, "wl.readfirstlane"))
            return C_XREAD_UNIFORM;
        if (wl_lc_prefix(n, len, "wl.shuffle"))
            return varying ? C_XREAD_LANE : C_XREAD_UNIFORM;
        if (wl_lc_prefix(n, len, "wl.load.") || wl_lc_prefix(n, len, "wl.store.") ||
            wl_lc_prefix(n, len, "wl.atomic.")) {
            if (!strstr(n, ".scratch."))
                *mem = (wl_lc_prefix(n, len, "wl.load.") ? M_LOAD : M_STORE) | (strstr(n, ".lds.") ? M_LDS : 0);
            return C_LANE;
        }
        if (varying)
            return C_LANE; /* lane_id, thread_id, lane_active, escape */
        /* uniform launch state runs once, anywhere before its use */
        static const char *const pure[] = {"wl.user_sgpr", "wl.workgroup_id", "wl.wave_id", "wl.launch_exec",
                                           "wl.scratch_wave_offset"};
        for (size_t i = 0; i < sizeof pure / sizeof pure[0]; i++)
            if (wl_lc_prefix(n, len, pure[i]))
                return C_UNIFORM;
        return C_BARRIER; /* sload, sstore, barrier, memtime, anything else */
    }
    return varying ? C_LANE : C_UNIFORM;
}

/* A lane loop's id: !{!self, !{"llvm.loop.unroll.disable"}}, so that LLVM
 * never unrolls the lanes (the module must not grow with W); where the host
 * limits an invocation's loop iterations (wl_translate_options.
 * loop_iteration_limit: lavapipe ends every loop of an invocation once its
 * loops together ran 65,535 iterations, and a lane loop in a guest loop
 * spends W of them each guest iteration; docs/wave-model.md, "lavapipe's
 * loop limit"), a lane loop in a guest loop gets !{!self,
 * !{"llvm.loop.unroll.count", WL_WV_LANE_UNROLL}}: four lanes an iteration
 * make that W / 4, for a body four times the size (-O2 only: LLVM's
 * unroller does it). */
static LLVMValueRef no_unroll(wl_wv *V, int in_cycle)
{
    wl_lower_ctx *L = &V->L;
    LLVMMetadataRef tmp = LLVMTemporaryMDNode(L->ctx, NULL, 0);
    LLVMMetadataRef s[2] = {LLVMMDStringInContext2(L->ctx, "llvm.loop.unroll.disable", 24), NULL};
    if (in_cycle && V->lane_unroll > 1) {
        s[0] = LLVMMDStringInContext2(L->ctx, "llvm.loop.unroll.count", 22);
        s[1] = LLVMValueAsMetadata(LLVMConstInt(L->i32, V->lane_unroll, 0));
    }
    LLVMMetadataRef dis = LLVMMDNodeInContext2(L->ctx, s, s[1] ? 2 : 1);
    LLVMMetadataRef ops[2] = {tmp, dis};
    LLVMMetadataRef id = LLVMMDNodeInContext2(L->ctx, ops, 2);
    LLVMMetadataReplaceAllUsesWith(tmp, id);
    return LLVMMetadataAsValue(L->ctx, id);
}

static wl_status add_loop(wl_wv *V, LLVMBasicBlockRef bb, LLVMValueRef lane)
{
    if (V->nloops == V->caploops) {
        size_t nc = V->caploops ? V->caploops * 2 : 64;
        LLVMBasicBlockRef *nb = realloc(V->bb, nc * sizeof *nb);
        if (nb)
            V->bb = nb;
        LLVMValueRef *nl = nb ? realloc(V->lane, nc * sizeof *nl) : NULL;
        if (!nb || !nl)
            return wl_lc_fail(&V->L, WL_ERR_NOMEM, NULL, "out of memory");
        V->lane = nl;
        V->caploops = nc;
    }
    if (!wl_ptrmap_put(&V->loop_of, bb, (long)V->nloops))
        return wl_lc_fail(&V->L, WL_ERR_NOMEM, NULL, "out of memory");
    V->bb[V->nloops] = bb;
    V->lane[V->nloops] = lane;
    V->nloops++;
    return WL_OK;
}

static wl_status record_xread(wl_wv *V, LLVMValueRef call)
{
    if (V->nxl == V->capxl) {
        size_t nc = V->capxl ? V->capxl * 2 : 64;
        LLVMValueRef *nx = realloc(V->xl, nc * sizeof *nx);
        if (!nx)
            return wl_lc_fail(&V->L, WL_ERR_NOMEM, NULL, "out of memory");
        V->xl = nx;
        V->capxl = nc;
    }
    V->xl[V->nxl++] = call;
    return WL_OK;
}

static wl_status record_direct(wl_wv *V, LLVMValueRef call, LLVMValueRef a)
{
    if (V->ndxl == V->capdxl) {
        size_t nc = V->capdxl ? V->capdxl * 2 : 32;
        LLVMValueRef *nx = realloc(V->dxl, nc * sizeof *nx);
        if (nx)
            V->dxl = nx;
        LLVMValueRef *na = nx ? realloc(V->dxa, nc * sizeof *na) : NULL;
        if (!nx || !na)
            return wl_lc_fail(&V->L, WL_ERR_NOMEM, NULL, "out of memory");
        V->dxa = na;
        V->capdxl = nc;
    }
    V->dxl[V->ndxl] = call;
    V->dxa[V->ndxl] = a;
    V->ndxl++;
    return WL_OK;
}

/* The VGPR alloca a uniform cross-lane read X can read directly: X's source
 * is a load of a varying alloca A in X's block and no store to A comes
 * before X in the block, so A's lane array holds at the block's top (before
 * the open run's loop) what the load reads. NULL otherwise. */
static LLVMValueRef direct_source(wl_wv *V, LLVMValueRef X)
{
    wl_lower_ctx *L = &V->L;
    LLVMValueRef src = LLVMGetOperand(X, 0);
    if (!LLVMIsALoadInst(src) || LLVMGetInstructionParent(src) != LLVMGetInstructionParent(X))
        return NULL;
    LLVMValueRef A = LLVMGetOperand(src, 0);
    if (!LLVMIsAAllocaInst(A) || wl_lc_find(L, A) < 0 || LLVMGetAllocatedType(A) != LLVMTypeOf(X))
        return NULL;
    for (LLVMValueRef I = LLVMGetFirstInstruction(LLVMGetInstructionParent(X)); I && I != X;
         I = LLVMGetNextInstruction(I))
        if (LLVMIsAStoreInst(I) && LLVMGetOperand(I, 1) == A)
            return NULL;
    return A;
}

/* A lane loop's body as the backend will size it, roughly: one an
 * instruction, WL_WV_FMA64_COST a double fused multiply-add (the backend
 * computes it on the integer bits, backend/fma.c: about 1,800 SPIR-V words
 * each; a double division is five of them and a v_div_fmas). */
static size_t body_cost(const part *p)
{
    size_t c = 0;
    for (size_t j = 0; j < p->n; j++) {
        LLVMValueRef I = p->ins[j];
        size_t len;
        const char *n = LLVMIsACallInst(I) ? wl_lc_callee(I, &len) : NULL;
        int fma64 = n && LLVMGetTypeKind(LLVMTypeOf(I)) == LLVMDoubleTypeKind &&
                    (wl_lc_prefix(n, len, "llvm.fma.") || wl_lc_prefix(n, len, "llvm.fmuladd."));
        c += fma64 ? WL_WV_FMA64_COST : 1;
    }
    return c;
}

/* Moves the parts' instructions into their blocks and builds the loops.
 * parts[0..2r]: even = uniform, odd = loop. */
static wl_status build_block(wl_wv *V, LLVMBasicBlockRef B, part *parts, size_t nparts, int in_cycle)
{
    wl_lower_ctx *L = &V->L;
    LLVMBasicBlockRef *blk = calloc(nparts, sizeof *blk);
    if (!blk)
        return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
    for (size_t i = 0; i + 1 < nparts; i++)
        blk[i] = LLVMInsertBasicBlockInContext(L->ctx, B, (i & 1) ? "lanes" : "wave");
    blk[nparts - 1] = B;
    /* B's predecessors (and a self loop's back edge) enter at the first part.
     * A block's RAUW also renames it in its successors' phis: B keeps the
     * terminator, so take it out meanwhile (B then has no successors). */
    LLVMValueRef term = LLVMGetBasicBlockTerminator(B);
    LLVMInstructionRemoveFromParent(term);
    LLVMReplaceAllUsesWith(LLVMBasicBlockAsValue(B), LLVMBasicBlockAsValue(blk[0]));
    LLVMPositionBuilderAtEnd(L->b, B);
    LLVMInsertIntoBuilder(L->b, term);
    unsigned lkind = LLVMGetMDKindIDInContext(L->ctx, "llvm.loop", 9);
    LLVMTypeRef i64 = L->i64;
    wl_status st = WL_OK;
    for (size_t i = 0; i + 1 < nparts && !st; i++) {
        LLVMPositionBuilderAtEnd(L->b, blk[i]);
        LLVMValueRef lane = NULL;
        if (i & 1) {
            lane = LLVMBuildPhi(L->b, L->i32, "lane");
            st = add_loop(V, blk[i], lane);
        }
        for (size_t j = 0; j < parts[i].n && !st; j++) {
            LLVMValueRef I = parts[i].ins[j];
            LLVMInstructionRemoveFromParent(I);
            LLVMPositionBuilderAtEnd(L->b, blk[i]);
            LLVMInsertIntoBuilder(L->b, I);
            size_t len;
            const char *n = wl_lc_callee(I, &len);
            if ((i & 1) && n && wl_lc_prefix(n, len, "wl.ballot")) {
                /* the mask around the loop: acc | (c << lane) */
                LLVMValueRef first = LLVMGetFirstInstruction(blk[i]);
                LLVMPositionBuilderBefore(L->b, LLVMGetNextInstruction(first));
                LLVMValueRef acc = LLVMBuildPhi(L->b, i64, "mask");
                LLVMPositionBuilderBefore(L->b, I);
                LLVMValueRef c = LLVMGetOperand(I, 0);
                LLVMValueRef bit = LLVMBuildZExt(L->b, c, i64, "");
                LLVMValueRef sh = LLVMBuildShl(L->b, bit, LLVMBuildZExt(L->b, lane, i64, ""), "");
                LLVMValueRef nacc = LLVMBuildOr(L->b, acc, sh, "mask.next");
                LLVMValueRef zero = LLVMConstInt(i64, 0, 0);
                LLVMBasicBlockRef from = blk[i - 1];
                LLVMAddIncoming(acc, &zero, &from, 1);
                LLVMAddIncoming(acc, &nacc, &blk[i], 1);
                LLVMReplaceAllUsesWith(I, nacc);
                wl_lc_forget(&V->L, I);
                LLVMInstructionEraseFromParent(I);
            }
        }
        LLVMPositionBuilderAtEnd(L->b, blk[i]);
        if (i & 1) {
            LLVMValueRef next = LLVMBuildAdd(L->b, lane, LLVMConstInt(L->i32, 1, 0), "lane.next");
            LLVMValueRef more = LLVMBuildICmp(L->b, LLVMIntULT, next, LLVMConstInt(L->i32, L->W, 0), "");
            LLVMValueRef br = LLVMBuildCondBr(L->b, more, blk[i], blk[i + 1]);
            /* in a guest loop, four lanes an iteration where the body is
             * small; a large body four times over costs lavapipe's compiler
             * more than the limit it avoids (docs/wave-model.md) */
            int unroll = in_cycle && body_cost(&parts[i]) <= WL_WV_UNROLL_MAX_COST;
            LLVMSetMetadata(br, lkind, no_unroll(V, unroll));
            LLVMValueRef zero = LLVMConstInt(L->i32, 0, 0);
            LLVMAddIncoming(lane, &zero, &blk[i - 1], 1);
            LLVMAddIncoming(lane, &next, &blk[i], 1);
        } else {
            LLVMBuildBr(L->b, blk[i + 1]);
        }
    }
    free(blk);
    return st;
}

/* the instruction defining v when it is one of the current run's */
static int in_run(const wl_ptrmap *run_of, LLVMValueRef v, long run)
{
    return run >= 0 && LLVMIsAInstruction(v) && wl_ptrmap_get(run_of, v) == run;
}

/* Does I need a value of run `run` that only exists after its loop: a
 * ballot's mask, or uniform work waiting for one (an operand, or the
 * alloca a late load or store used)? */
static int needs_late(const wl_ptrmap *late_of, LLVMValueRef I, long run)
{
    int n = LLVMGetNumOperands(I);
    for (int i = 0; i < n; i++) {
        LLVMValueRef o = LLVMGetOperand(I, (unsigned)i);
        if (LLVMIsAInstruction(o) && wl_ptrmap_get(late_of, o) == run)
            return 1;
    }
    return 0;
}

/* I waits for run `run`'s loop; so does the alloca it loads or stores
 * (a later access to it must keep its order) */
static int mark_late(wl_ptrmap *late_of, LLVMValueRef I, long run)
{
    if (!wl_ptrmap_put(late_of, I, run))
        return 0;
    LLVMValueRef p = LLVMIsALoadInst(I) ? LLVMGetOperand(I, 0) : LLVMIsAStoreInst(I) ? LLVMGetOperand(I, 1) : NULL;
    return !p || !LLVMIsAAllocaInst(p) || wl_ptrmap_put(late_of, p, run);
}

static wl_status split_block(wl_wv *V, LLVMBasicBlockRef B, wl_ptrmap *run_of, wl_ptrmap *late_of, long *run_id,
                             int in_cycle)
{
    wl_lower_ctx *L = &V->L;
    size_t nparts = 1, capparts = 8;
    part *parts = calloc(capparts, sizeof *parts);
    if (!parts)
        return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
    wl_status st = WL_OK;
    long run = -1;  /* the open run's id, -1 in a uniform part */
    part late = {0}; /* uniform instructions waiting for the open run's masks */
    int mem = 0;    /* the open run's memory: bit 0 an access, bit 1 a store or atomic; of the LDS bits 2, 3 */
    int64_t insn[2] = {-1, -1}; /* the one guest instruction of the run's accesses (guest memory, LDS), or -1 */
#define OPEN_RUN()                                                                                         \
    do {                                                                                                   \
        if (nparts + 2 > capparts) {                                                                       \
            part *np = realloc(parts, 2 * capparts * sizeof *np);                                          \
            if (!np) {                                                                                     \
                st = wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");                                   \
                goto out;                                                                                  \
            }                                                                                              \
            memset(np + capparts, 0, capparts * sizeof *np);                                               \
            parts = np;                                                                                    \
            capparts *= 2;                                                                                 \
        }                                                                                                  \
        nparts += 2;                                                                                       \
        run = (*run_id)++;                                                                                 \
        mem = 0;                                                                                           \
        insn[0] = insn[1] = -1;                                                                            \
    } while (0)
    /* the open run's ballots and the uniform work that needs their masks:
     * it runs after the loop (late), in program order (D956's compare
     * carrying its mask around the loop; the run goes on past it) */
#define CLOSE_RUN()                                                                                        \
    do {                                                                                                   \
        if (run >= 0)                                                                                      \
            for (size_t q = 0; q < late.n; q++)                                                            \
                if (!part_add(&parts[nparts - 1], late.ins[q]))                                            \
                    goto oom;                                                                              \
        late.n = 0;                                                                                        \
        run = -1;                                                                                          \
    } while (0)
    LLVMValueRef resume = NULL; /* set where I was erased as the block's first instruction */
    for (LLVMValueRef I = LLVMGetFirstInstruction(B); I; I = resume ? resume : LLVMGetNextInstruction(I)) {
        resume = NULL;
        part *U = &parts[run >= 0 ? nparts - 3 : nparts - 1]; /* the uniform part before the open run */
        if (LLVMIsATerminatorInst(I)) {
            CLOSE_RUN();
            U = &parts[nparts - 1];
            if (!part_add(U, I))
                goto oom;
            continue;
        }
        if (LLVMIsAPHINode(I) && wl_lc_find(L, I) >= 0) {
            st = wl_lc_fail(L, WL_ERR_UNSUPPORTED, I, "wave model: a varying phi");
            goto out;
        }
        int m;
        int c = classify(V, I, &m);
        if (run >= 0 && needs_late(late_of, I, run)) {
            /* it reads a mask the open run is still making */
            if (c == C_UNIFORM && !LLVMIsAPHINode(I)) {
                if (!part_add(&late, I) || !mark_late(late_of, I, run))
                    goto oom;
                continue;
            }
            CLOSE_RUN();
            U = &parts[nparts - 1];
        }
        LLVMValueRef src = (c == C_BALLOT || c == C_XREAD_UNIFORM || c == C_XREAD_LANE) ? LLVMGetOperand(I, 0) : NULL;
        switch (c) {
        case C_UNIFORM:
            if (!part_add(U, I))
                goto oom;
            break;
        case C_XREAD_UNIFORM: {
            /* a VGPR's value at the block's top: read its lane array before the
             * open run (no loop to fill a lane array of the load's) */
            LLVMValueRef A = wl_lc_find(L, src) >= 0 ? direct_source(V, I) : NULL;
            if (A) {
                if ((st = record_direct(V, I, A)))
                    goto out;
                if (!part_add(U, I))
                    goto oom;
                break;
            }
            /* runs between loops; before the open run unless that computes its source */
            if (in_run(run_of, src, run)) {
                CLOSE_RUN();
                U = &parts[nparts - 1];
            }
            if (wl_lc_find(L, src) >= 0 && (st = record_xread(V, I)))
                goto out;
            if (!part_add(U, I))
                goto oom;
            break;
        }
        case C_BARRIER:
            CLOSE_RUN();
            if (!part_add(&parts[nparts - 1], I))
                goto oom;
            break;
        case C_BALLOT:
            if (wl_lc_find(L, src) < 0) {
                /* a uniform condition: all W lanes or none */
                LLVMPositionBuilderBefore(L->b, I);
                uint64_t full = L->W == 64 ? ~0ull : 0xffffffffull;
                LLVMValueRef v = LLVMBuildSelect(L->b, src, LLVMConstInt(L->i64, full, 0),
                                                 LLVMConstInt(L->i64, 0, 0), "ballot");
                LLVMReplaceAllUsesWith(I, v);
                /* the builder folds a constant condition to a constant */
                if (LLVMIsAInstruction(v) && !part_add(U, v))
                    goto oom;
                LLVMValueRef prev = LLVMGetPreviousInstruction(I), after = LLVMGetNextInstruction(I);
                wl_lc_forget(&V->L, I);
                LLVMInstructionEraseFromParent(I);
                /* the select was inserted before I: it is prev now, already
                 * added; where it folded to a constant and I was the block's
                 * first, go on at the one after I (found by fuzz_translate) */
                I = prev;
                if (!prev)
                    resume = after;
                break;
            }
            if (run < 0)
                OPEN_RUN();
            if (!part_add(&parts[nparts - 2], I) || !wl_ptrmap_put(run_of, I, run) ||
                !wl_ptrmap_put(late_of, I, run))
                goto oom;
            break;
        case C_XREAD_LANE:
            if (run >= 0 && in_run(run_of, src, run))
                CLOSE_RUN();
            if (wl_lc_find(L, src) >= 0 && (st = record_xread(V, I)))
                goto out;
            /* lane work */
            __attribute__((fallthrough));
        default: /* C_LANE */
            if (m != M_NONE) {
                unsigned sh = m & M_LDS ? 2 : 0, k = m & 3, sp = sh / 2;
                int64_t x = insn_of(V, I);
                /* one guest instruction's accesses share the loop: each
                 * lane makes all of them, lane after lane (the order of
                 * one instruction's lanes is the hardware's choice) */
                int same = x >= 0 && insn[sp] == x;
                if (run >= 0 && !same && ((k == M_STORE && (mem >> sh & 1)) || (k == M_LOAD && (mem >> sh & 2))))
                    CLOSE_RUN();
                if (run < 0)
                    OPEN_RUN();
                insn[sp] = !(mem >> sh & 1) ? x : insn[sp] == x ? x : -1;
                mem |= (k == M_LOAD ? 1 : 3) << sh;
            } else if (run < 0)
                OPEN_RUN();
            if (!part_add(&parts[nparts - 2], I) || !wl_ptrmap_put(run_of, I, run))
                goto oom;
            break;
        }
    }
    if (nparts > 1)
        st = build_block(V, B, parts, nparts, in_cycle);
    goto out;
oom:
    st = wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
out:
    for (size_t i = 0; i < capparts; i++)
        free(parts[i].ins);
    free(parts);
    free(late.ins);
    return st;
#undef OPEN_RUN
#undef CLOSE_RUN
}

/* cyc[i] = 1 where bbs[i] lies on a cycle of the CFG (a guest loop):
 * Tarjan's strongly connected components, iteratively; a component of more
 * than one block, or a block branching to itself. 0: out of memory. */
static int mark_cycles(LLVMBasicBlockRef *bbs, size_t nb, unsigned char *cyc)
{
    wl_ptrmap ix = {0};
    size_t n = nb ? nb : 1;
    size_t *num = calloc(n, sizeof *num), *low = calloc(n, sizeof *low), *stk = malloc(n * sizeof *stk),
           *cs = malloc(n * sizeof *cs), *succ = calloc(n, sizeof *succ);
    unsigned char *on = calloc(n, 1);
    int ok = num && low && stk && cs && succ && on;
    for (size_t i = 0; ok && i < nb; i++)
        ok = wl_ptrmap_put(&ix, bbs[i], (long)i);
    size_t counter = 0, sp = 0;
    for (size_t r = 0; ok && r < nb; r++) {
        if (num[r])
            continue;
        size_t csp = 0;
        cs[csp++] = r;
        num[r] = low[r] = ++counter;
        stk[sp++] = r;
        on[r] = 1;
        while (csp) {
            size_t v = cs[csp - 1];
            LLVMValueRef t = LLVMGetBasicBlockTerminator(bbs[v]);
            unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
            if (succ[v] < ns) {
                LLVMBasicBlockRef sb = LLVMGetSuccessor(t, (unsigned)succ[v]++);
                long w = wl_ptrmap_get(&ix, sb);
                if (w < 0)
                    continue;
                if ((size_t)w == v)
                    cyc[v] = 1;
                if (!num[w]) {
                    num[w] = low[w] = ++counter;
                    stk[sp++] = (size_t)w;
                    on[w] = 1;
                    cs[csp++] = (size_t)w;
                } else if (on[w] && num[w] < low[v]) {
                    low[v] = num[w];
                }
                continue;
            }
            csp--;
            if (csp && low[v] < low[cs[csp - 1]])
                low[cs[csp - 1]] = low[v];
            if (low[v] == num[v]) {
                size_t first = sp;
                do
                    on[stk[--first]] = 0;
                while (stk[first] != v);
                if (sp - first > 1)
                    for (size_t q = first; q < sp; q++)
                        cyc[stk[q]] = 1;
                sp = first;
            }
        }
    }
    wl_ptrmap_free(&ix);
    free(num), free(low), free(stk), free(cs), free(succ), free(on);
    return ok;
}

wl_status wl_wv_build_loops(wl_wv *V)
{
    wl_lower_ctx *L = &V->L;
    /* the blocks as the lifter made them (splitting adds blocks) */
    size_t nb = LLVMCountBasicBlocks(L->fn);
    LLVMBasicBlockRef *bbs = malloc((nb ? nb : 1) * sizeof *bbs);
    if (!bbs)
        return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
    LLVMGetBasicBlocks(L->fn, bbs);
    unsigned char *cyc = calloc(nb ? nb : 1, 1);
    if (!cyc || !mark_cycles(bbs, nb, cyc)) {
        free(cyc);
        free(bbs);
        return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
    }
    wl_ptrmap run_of = {0}, late_of = {0};
    long run_id = 0;
    wl_status st = WL_OK;
    for (size_t i = 0; i < nb && !st; i++)
        st = split_block(V, bbs[i], &run_of, &late_of, &run_id, cyc[i]);
    free(cyc);
    wl_ptrmap_free(&run_of);
    wl_ptrmap_free(&late_of);
    free(bbs);
    return st;
}

/* Device-memory LDS and the LDS lock (docs/memory.md, "LDS"; the seed pull
 * request on device-memory LDS).
 *
 *   where     An LDS larger than the host's workgroup memory
 *             (wl_lower_options.lds_limit, the host's
 *             maxComputeSharedMemorySize), or any LDS with force_lds_buffer,
 *             lives in the storage buffer at binding 2: one slice a
 *             workgroup of the dispatch, at byte (flattened group id) *
 *             WL_LDS_SLICE_BYTES(LDS). Every workgroup has a slice of its
 *             own, so no state passes between workgroups and no slice is
 *             shared by two groups in flight, whatever order the device runs
 *             them in (the price: the buffer grows with the dispatch).
 *             The helpers of lower/memory/memory.c are written against @wl.group
 *             as always; after inlining, wl_lc_lds_finish moves every
 *             access to the slice (@wl.lds, or @wl.lds64 where @wl.group has
 *             64-bit units), so both models and every LDS form share one
 *             set of helpers.
 *   64-bit    A program with 64-bit LDS atomics gets 64-bit units (memory.c,
 *             gen_lds64: native 64-bit atomics, 32-bit atomics compare-and-
 *             swap loops on their unit) where the host has 64-bit atomics on
 *             that memory: shaderSharedInt64Atomics for workgroup memory,
 *             shaderBufferInt64Atomics for the buffer. Without them
 *             (force_lds_atomic64_lock, force_atomic64_lock) the LDS stays
 *             words and every LDS atomic, 32- and 64-bit, takes the lock in
 *             the spare dword after the LDS (wl_lc_gen_lds_lock).
 *   the lock  One block a round, no branch and no barrier-like construct
 *             inside (wl_lc_gen_lds_lock): every lane tries a 32-bit
 *             compare-and-swap 0 -> 1 on the lock, reads its dwords by
 *             atomic or 0 (the latest value), and adds the difference to the
 *             new value, 0 where it lost; the winner then subtracts 1 from
 *             the lock. All relaxed: an atomic with acquire or release
 *             semantics is a barrier on lavapipe (a switch between a group's
 *             SIMD batches, as a workgroup barrier is), and in a loop whose
 *             trip count differs between the batches it pairs with the
 *             program's own barriers: measured, a wave's sum only (the
 *             seed's failure on AMD's driver, where they were s_barriers).
 *             The result leaves the loop through a private slot (volatile
 *             store a round, load after the loop; removed where unused:
 *             prune_result_slots), not as a value of the round.
 *             The lock word starts undefined: every invocation stores 0 to
 *             it at the program's start, then a workgroup barrier. At most
 *             WL_LC_LOCK_ROUNDS rounds, then WL_ESC_MERGE_ROUNDS and nothing
 *             done. A 64-bit atomic at an address 4- but not 8-byte aligned
 *             records WL_ESC_UNALIGNED64 and does nothing, as on the other
 *             paths. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lower/context.h"

void wl_lc_lds_options(wl_lower_ctx *L, const wl_lower_options *opt)
{
    L->lds_buffer = opt->force_lds_buffer || (opt->lds_limit && L->lds_bytes > opt->lds_limit);
    /* the spare bytes after the LDS (WL_LDS_SLICE_BYTES: always in a
     * slice; in workgroup memory where they fit the limit too, else the
     * accesses keep their branches, so that an LDS of exactly the limit
     * stays in workgroup memory) */
    L->lds_spare = L->lds_buffer || !opt->lds_limit || WL_LDS_SLICE_BYTES(L->lds_bytes) <= opt->lds_limit;
    L->lds_lock_shared = opt->force_lds_atomic64_lock;
}

/* ---- the lock ------------------------------------------------------------- */


/* %n, the new value, from the old %o and the operand %v (and %nv) */
static void new_value(wl_lc_txt *t, const char *op, unsigned bits)
{
    static const char *const direct[][2] = {{"add", "add"}, {"sub", "sub"}, {"and", "and"}, {"or", "or"},
                                            {"xor", "xor"}};
    static const char *const sel[][2] = {{"smin", "slt"}, {"umin", "ult"}, {"smax", "sgt"}, {"umax", "ugt"}};
    for (size_t i = 0; i < sizeof direct / sizeof direct[0]; i++)
        if (!strcmp(op, direct[i][0])) {
            wl_lc_put(t, "  %%n = %s i%u %%o, %%v\n", direct[i][1], bits);
            return;
        }
    for (size_t i = 0; i < sizeof sel / sizeof sel[0]; i++)
        if (!strcmp(op, sel[i][0])) {
            wl_lc_put(t, "  %%pk = icmp %s i%u %%v, %%o\n  %%n = select i1 %%pk, i%u %%v, i%u %%o\n", sel[i][1], bits,
                bits, bits);
            return;
        }
    if (!strcmp(op, "swap")) {
        wl_lc_put(t, "  %%n = add i%u %%v, 0\n", bits);
    } else if (!strcmp(op, "cmpswap")) {
        wl_lc_put(t, "  %%eq = icmp eq i%u %%o, %%v\n  %%n = select i1 %%eq, i%u %%nv, i%u %%o\n", bits, bits, bits);
    } else if (!strcmp(op, "inc")) { /* o >= v ? 0 : o + 1 */
        wl_lc_put(t, "  %%ge = icmp uge i%u %%o, %%v\n  %%o1 = add i%u %%o, 1\n  %%n = select i1 %%ge, i%u 0, i%u %%o1\n",
            bits, bits, bits, bits);
    } else if (!strcmp(op, "dec")) { /* o == 0 || o > v ? v : o - 1 */
        wl_lc_put(t, "  %%z = icmp eq i%u %%o, 0\n  %%gt = icmp ugt i%u %%o, %%v\n  %%zz = or i1 %%z, %%gt\n"
               "  %%o1 = sub i%u %%o, 1\n  %%n = select i1 %%zz, i%u %%v, i%u %%o1\n",
            bits, bits, bits, bits, bits);
    } else { /* fadd fmin fmax */
        const char *ft = bits == 64 ? "double" : "float";
        wl_lc_put(t, "  %%fo = bitcast i%u %%o to %s\n  %%fv = bitcast i%u %%v to %s\n", bits, ft, bits, ft);
        if (!strcmp(op, "fadd"))
            wl_lc_put(t, "  %%fn = fadd %s %%fo, %%fv\n", ft);
        else
            wl_lc_put(t, "  %%fn = call %s @llvm.%s.%s(%s %%fo, %s %%fv)\n", ft, !strcmp(op, "fmin") ? "minnum" : "maxnum",
                bits == 64 ? "f64" : "f32", ft, ft);
        wl_lc_put(t, "  %%n = bitcast %s %%fn to i%u\n", ft, bits);
    }
}

/* @wl.h.atomic.lds.<op>.b<bits> under the lock. The LDS is @wl.group as
 * [LDS/4 + 1 x i32] (memory.c), the lock its last word. The data are read
 * and written by 32-bit atomic loads and stores, so that a plain load of
 * another lane never sees a torn dword. */
static void gen_locked(wl_lc_txt *t, wl_lower_ctx *L, const char *op, unsigned bits)
{
    int cmpswap = !strcmp(op, "cmpswap");
    unsigned size = bits / 8;
    wl_lc_put(t, "define i%u @wl.h.atomic.lds.%s.b%u(i32 %%a, i%u %%v, %si1 %%act%s) alwaysinline {\ne:\n", bits, op, bits,
        bits, cmpswap ? (bits == 64 ? "i64 %nv, " : "i32 %nv, ") : "", bits == 64 ? ", i32 %lane" : "");
    /* the result's slot: see the round below */
    wl_lc_put(t, "  %%rs = alloca i%u, align %u\n", bits, size);
    if (L->lds_bytes >= size)
        wl_lc_put(t, "  %%inr = icmp ule i32 %%a, %u\n  %%ok = and i1 %%act, %%inr\n", L->lds_bytes - size);
    else
        wl_lc_put(t, "  %%ok = and i1 %%act, false\n");
    if (bits == 64)
        wl_lc_put(t, "  br i1 %%ok, label %%c8, label %%x\nc8:\n  %%lo7 = and i32 %%a, 7\n  %%al = icmp eq i32 %%lo7, 0\n"
               "  br i1 %%al, label %%d, label %%u\n"
               "u:\n  call void @wl.h.escape(i32 %u, i32 0, i1 true, i32 %%lane)\n  br label %%x\n",
            (unsigned)WL_ESC_UNALIGNED64);
    else
        wl_lc_put(t, "  br i1 %%ok, label %%d, label %%x\n");
    wl_lc_put(t, "d:\n  %%lk = getelementptr i8, ptr addrspace(3) @wl.group, i32 %u\n"
           "  %%p = getelementptr i8, ptr addrspace(3) @wl.group, i32 %%a\n",
        WL_LDS_LOCK_BYTE(L->lds_bytes));
    if (bits == 64)
        wl_lc_put(t, "  %%a4 = add i32 %%a, 4\n  %%p1 = getelementptr i8, ptr addrspace(3) @wl.group, i32 %%a4\n");
    /* One block a round, no branch inside: every lane tries the lock, and
     * the updates are atomic adds of the difference, 0 where the lock was
     * not won, so that no optimization can move the update out of the
     * round in which the lock was taken (jump threading turned the first
     * form, a branch to the update, into a spin loop with the update after
     * it: lanes that won waited there for lanes spinning on their lock). */
    wl_lc_put(t, "  br label %%l\nl:\n  %%i = phi i32 [0, %%d], [%%i1, %%l]\n  %%r0 = phi i%u [0, %%d], [%%r, %%l]\n"
           "  %%lc = cmpxchg ptr addrspace(3) %%lk, i32 0, i32 1 monotonic monotonic\n"
           "  %%got = extractvalue {i32, i1} %%lc, 1\n"
           "  %%lo = atomicrmw volatile or ptr addrspace(3) %%p, i32 0 monotonic, align 4\n",
        bits);
    if (bits == 64)
        wl_lc_put(t, "  %%hi = atomicrmw volatile or ptr addrspace(3) %%p1, i32 0 monotonic, align 4\n"
               "  %%lz = zext i32 %%lo to i64\n  %%hz = zext i32 %%hi to i64\n  %%hs = shl i64 %%hz, 32\n"
               "  %%o = or i64 %%lz, %%hs\n");
    else
        wl_lc_put(t, "  %%o = add i32 %%lo, 0\n");
    new_value(t, op, bits);
    if (bits == 64)
        wl_lc_put(t, "  %%nlo = trunc i64 %%n to i32\n");
    else
        wl_lc_put(t, "  %%nlo = add i32 %%n, 0\n");
    wl_lc_put(t, "  %%dlo = sub i32 %%nlo, %%lo\n  %%alo = select i1 %%got, i32 %%dlo, i32 0\n"
           "  %%ulo = atomicrmw add ptr addrspace(3) %%p, i32 %%alo monotonic, align 4\n");
    if (bits == 64)
        wl_lc_put(t, "  %%nhs = lshr i64 %%n, 32\n  %%nhi = trunc i64 %%nhs to i32\n  %%dhi = sub i32 %%nhi, %%hi\n"
               "  %%ahi = select i1 %%got, i32 %%dhi, i32 0\n"
               "  %%uhi = atomicrmw add ptr addrspace(3) %%p1, i32 %%ahi monotonic, align 4\n");
    /* The result leaves the round through a private slot, written by
     * volatile store in every round and read after the loop, not as an SSA
     * value of the round used after the loop: LLVM's loop passes drop the
     * loop-carried phi of the result and use the round's value after the
     * loop, and lavapipe (Mesa 22.3) computes such a value for the SIMD
     * lanes of later rounds too, whatever their exit: in the wave model
     * (a group's waves contend in one SIMD batch) the winner's 64-bit swap
     * returned another round's read (measured: tests/test_lds64.c). A store
     * is masked to the lanes still in the loop, so the slot keeps the
     * winner's own read. The escape after the last try is recorded at once
     * (@wl.h.escape.now, memory.c): as a note (memory/escape_records.c), a select after
     * the loop, lavapipe's swaps under the lock returned wrong values at
     * S = 8 (test_lds64, test_subword), also with whether the lock was won
     * carried out of the loop through a slot like the result's. */
    wl_lc_put(t, "  %%rel = zext i1 %%got to i32\n  %%un = atomicrmw sub ptr addrspace(3) %%lk, i32 %%rel monotonic, align 4\n"
           "  %%r = select i1 %%got, i%u %%o, i%u %%r0\n  store volatile i%u %%r, ptr %%rs, align %u\n"
           "  %%i1 = add i32 %%i, 1\n  %%lim = icmp uge i32 %%i1, %u\n  %%stop = or i1 %%got, %%lim\n"
           "  br i1 %%stop, label %%fin, label %%l\nfin:\n  %%rf = load volatile i%u, ptr %%rs, align %u\n"
           "  br i1 %%got, label %%x, label %%esc\n"
           "esc:\n  call void @wl.h.escape.now(i32 %u, i32 0, i1 true, i32 %s)\n  br label %%x\n",
        bits, bits, bits, size, WL_LC_LOCK_ROUNDS, bits, size, (unsigned)WL_ESC_MERGE_ROUNDS, bits == 64 ? "%lane" : "0");
    wl_lc_put(t, "x:\n  %%res = phi i%u [0, %%e], %s[%%rf, %%fin], [0, %%esc]\n  ret i%u %%res\n}\n", bits,
        bits == 64 ? "[0, %u], " : "", bits);
}

void wl_lc_gen_lds_lock(wl_lower_ctx *L, void (*out)(void *ctx, const char *text), void *ctx)
{
    static const char *const ops[] = {"swap", "add", "sub",  "smin", "umin", "smax", "umax", "and",
                                      "or",   "xor", "inc",  "dec",  "fadd", "fmin", "fmax", "cmpswap"};
    wl_lc_txt t = {out, ctx};
    for (unsigned bits = 32; bits <= 64; bits *= 2)
        for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
            gen_locked(&t, L, ops[i], bits);
}

/* ---- the move to the buffer ---------------------------------------------- */

/* Moves the use `u` of the LDS pointer `old` (addrspace 3) to `nw`, the
 * same byte in the slice (addrspace 4): a getelementptr is built again on
 * nw (before its old self, or before each user of a constant one) and its
 * own uses moved; a load, store or atomic takes nw as its address. */
static wl_status move_use(wl_lower_ctx *L, LLVMUseRef u, LLVMValueRef old, LLVMValueRef nw, int depth)
{
    LLVMValueRef user = LLVMGetUser(u);
    if (depth > 32)
        return wl_lc_fail(L, WL_ERR_UNSUPPORTED, user, "device-memory LDS: an LDS address nested too deep");
    if (LLVMIsAConstantExpr(user) && LLVMGetConstOpcode(user) == LLVMGetElementPtr) {
        for (LLVMUseRef v = LLVMGetFirstUse(user), vn; v; v = vn) {
            vn = LLVMGetNextUse(v);
            LLVMValueRef at = LLVMGetUser(v);
            if (!LLVMIsAInstruction(at) || LLVMIsAPHINode(at))
                return wl_lc_fail(L, WL_ERR_UNSUPPORTED, at, "device-memory LDS: an LDS address outside the forms known");
            LLVMPositionBuilderBefore(L->b, at);
            unsigned n = (unsigned)LLVMGetNumOperands(user) - 1;
            LLVMValueRef idx[8];
            if (n > 8)
                return wl_lc_fail(L, WL_ERR_UNSUPPORTED, at, "device-memory LDS: a getelementptr of %u indices", n);
            for (unsigned i = 0; i < n; i++)
                idx[i] = LLVMGetOperand(user, i + 1);
            LLVMValueRef g = LLVMBuildGEP2(L->b, LLVMGetGEPSourceElementType(user), nw, idx, n, "lds.c");
            wl_status st = move_use(L, v, user, g, depth + 1);
            if (st)
                return st;
        }
        return WL_OK;
    }
    if (!LLVMIsAInstruction(user))
        return wl_lc_fail(L, WL_ERR_UNSUPPORTED, NULL, "device-memory LDS: an LDS address outside the forms known");
    switch (LLVMGetInstructionOpcode(user)) {
    case LLVMGetElementPtr: {
        if (LLVMGetOperand(user, 0) != old)
            break;
        unsigned n = (unsigned)LLVMGetNumOperands(user) - 1;
        LLVMValueRef idx[8];
        if (n > 8)
            return wl_lc_fail(L, WL_ERR_UNSUPPORTED, user, "device-memory LDS: a getelementptr of %u indices", n);
        for (unsigned i = 0; i < n; i++)
            idx[i] = LLVMGetOperand(user, i + 1);
        LLVMPositionBuilderBefore(L->b, user);
        LLVMValueRef g = LLVMBuildGEP2(L->b, LLVMGetGEPSourceElementType(user), nw, idx, n, "lds.p");
        for (LLVMUseRef v = LLVMGetFirstUse(user), vn; v; v = vn) {
            vn = LLVMGetNextUse(v);
            wl_status st = move_use(L, v, user, g, depth + 1);
            if (st)
                return st;
        }
        wl_lc_forget(L, user);
        LLVMInstructionEraseFromParent(user);
        return WL_OK;
    }
    case LLVMLoad:
    case LLVMAtomicRMW:
    case LLVMAtomicCmpXchg:
        if (LLVMGetOperand(user, 0) != old)
            break;
        LLVMSetOperand(user, 0, nw);
        return WL_OK;
    case LLVMStore:
        if (LLVMGetOperand(user, 1) != old || LLVMGetOperand(user, 0) == old)
            break;
        LLVMSetOperand(user, 1, nw);
        return WL_OK;
    default:
        break;
    }
    return wl_lc_fail(L, WL_ERR_UNSUPPORTED, user, "device-memory LDS: an LDS address outside the forms known");
}

/* The entry block after its allocas */
static void at_entry(wl_lower_ctx *L)
{
    LLVMValueRef first = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(L->fn));
    while (first && LLVMIsAAllocaInst(first))
        first = LLVMGetNextInstruction(first);
    LLVMPositionBuilderBefore(L->b, first);
}

/* The lock's first value: LDS starts undefined (workgroup memory, and a
 * buffer slice holds what its last user left), so every invocation stores
 * 0 to the lock word at the start, then a workgroup barrier (the entry
 * block: every invocation of the group passes it once, before any LDS
 * atomic). */
static void lock_init(wl_lower_ctx *L, LLVMValueRef grp)
{
    at_entry(L);
    LLVMValueRef off = LLVMConstInt(L->i32, WL_LDS_LOCK_BYTE(L->lds_bytes), 0);
    LLVMValueRef p = LLVMBuildGEP2(L->b, L->i8, grp, &off, 1, "lds.lock");
    LLVMValueRef st = LLVMBuildStore(L->b, LLVMConstInt(L->i32, 0, 0), p);
    LLVMSetAlignment(st, 4);
    LLVMSetOrdering(st, LLVMAtomicOrderingMonotonic);
    if (!(L->wave_model && L->waves == 1)) /* as launch.c's s_barrier */
        wl_lc_call(L, "spv.barrier.workgroup", L->t_void, NULL, 0);
}

static wl_status to_buffer(wl_lower_ctx *L, LLVMValueRef grp)
{
    LLVMTypeRef gt = LLVMGlobalGetValueType(grp);
    int q = LLVMGetTypeKind(gt) == LLVMArrayTypeKind && LLVMGetElementType(gt) == L->i64;
    LLVMTypeRef unit = q ? L->i64 : L->i32;
    const char *name = q ? "wl.lds64" : "wl.lds";
    LLVMValueRef buf = LLVMGetNamedGlobal(L->m, name);
    if (!buf) {
        buf = LLVMAddGlobalInAddressSpace(L->m, LLVMArrayType2(unit, 0), name, 4);
        LLVMSetLinkage(buf, LLVMExternalLinkage);
    }
    /* the slice: (x + nx * (y + ny * z)) * WL_LDS_SLICE_BYTES, in the entry
     * block after its allocas */
    uint64_t slice = WL_LDS_SLICE_BYTES(L->lds_bytes);
    if (slice > 0x7fffffffu)
        return wl_lc_fail(L, WL_ERR_UNSUPPORTED, NULL, "device-memory LDS: %u bytes", L->lds_bytes);
    at_entry(L);
    LLVMValueRef id[3], n[2];
    for (unsigned d = 0; d < 3; d++) {
        LLVMValueRef dv = LLVMConstInt(L->i32, d, 0);
        id[d] = wl_lc_call(L, "spv.workgroup_id", L->i32, &dv, 1);
        if (d < 2)
            n[d] = wl_lc_call(L, "spv.num_workgroups", L->i32, &dv, 1);
    }
    LLVMValueRef flat = LLVMBuildAdd(L->b, id[1], LLVMBuildMul(L->b, n[1], id[2], ""), "");
    flat = LLVMBuildAdd(L->b, id[0], LLVMBuildMul(L->b, n[0], flat, ""), "lds.group");
    LLVMValueRef off = LLVMBuildMul(L->b, flat, LLVMConstInt(L->i32, slice, 0), "lds.slice");
    LLVMValueRef base = LLVMBuildGEP2(L->b, L->i8, buf, &off, 1, "lds.base");
    for (LLVMUseRef u = LLVMGetFirstUse(grp), un; u; u = un) {
        un = LLVMGetNextUse(u);
        wl_status st = move_use(L, u, grp, base, 0);
        if (st)
            return st;
    }
    return WL_OK;
}

/* A dead load, or one whose only users are phis without users (the
 * helper's %res where the call's result is unused) */
static int load_dead(LLVMValueRef ld)
{
    for (LLVMUseRef u = LLVMGetFirstUse(ld); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef us = LLVMGetUser(u);
        if (!LLVMIsAPHINode(us) || LLVMGetFirstUse(us))
            return 0;
    }
    return 1;
}

static int is_lifetime(LLVMValueRef I)
{
    LLVMValueRef f = LLVMIsACallInst(I) ? LLVMGetCalledValue(I) : NULL;
    size_t len = 0;
    const char *n = f && LLVMIsAFunction(f) ? LLVMGetValueName2(f, &len) : NULL;
    return n && wl_lc_prefix(n, len, "llvm.lifetime.");
}

/* The locks' result slots (gen_locked here, the .lock atomics of
 * helpers/global.ll: an alloca written and read by volatile accesses only, and the
 * inliner's lifetime markers) where the
 * atomic's result is not used, removed after inlining: LLVM keeps volatile
 * accesses, and each would cost an invocation-private store a round. */
static void prune_result_slots(wl_lower_ctx *L)
{
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(L->fn);
    for (LLVMValueRef a = LLVMGetFirstInstruction(entry), an; a; a = an) {
        an = LLVMGetNextInstruction(a);
        if (!LLVMIsAAllocaInst(a))
            continue;
        LLVMTypeRef t = LLVMGetAllocatedType(a);
        if (t != L->i32 && t != L->i64)
            continue;
        int ok = LLVMGetFirstUse(a) != NULL;
        for (LLVMUseRef u = LLVMGetFirstUse(a); u && ok; u = LLVMGetNextUse(u)) {
            LLVMValueRef us = LLVMGetUser(u);
            if (LLVMIsAStoreInst(us))
                ok = LLVMGetVolatile(us) && LLVMGetOperand(us, 1) == a && LLVMGetOperand(us, 0) != a;
            else if (LLVMIsALoadInst(us))
                ok = LLVMGetVolatile(us) && load_dead(us);
            else
                ok = is_lifetime(us); /* the inliner's markers */
        }
        if (!ok)
            continue;
        for (LLVMUseRef u; (u = LLVMGetFirstUse(a));) {
            LLVMValueRef us = LLVMGetUser(u);
            if (LLVMIsALoadInst(us)) {
                /* the dead phis first: they use the load */
                for (LLVMUseRef v; (v = LLVMGetFirstUse(us));)
                    LLVMInstructionEraseFromParent(LLVMGetUser(v));
            }
            LLVMInstructionEraseFromParent(us); /* one use of a each */
        }
        an = LLVMGetNextInstruction(a); /* the erased ones may have followed it */
        wl_lc_forget(L, a);
        LLVMInstructionEraseFromParent(a);
    }
}

wl_status wl_lc_lds_finish(wl_lower_ctx *L)
{
    prune_result_slots(L);
    LLVMValueRef grp = LLVMGetNamedGlobal(L->m, "wl.group");
    if (!grp || !LLVMGetFirstUse(grp))
        return WL_OK;
    if (L->lds_lock)
        lock_init(L, grp);
    return L->lds_buffer ? to_buffer(L, grp) : WL_OK;
}

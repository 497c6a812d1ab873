/* llvm-passes/: the project's optimization passes, one a file, each named
 * after its entry (llvm-passes/fold_lane_bits.c defines
 * wl_opt_fold_lane_bits). Each has the shape of pass.h: it returns the
 * changes it made, or -1 after wl_pass_fail. None changes what the program
 * means in the chosen model. lower/pipeline.c runs them from its tables;
 * above each entry: what it requires, what it leaves, and its place.
 *
 * Wave-IR passes (before the model's lowering; every value one per wave
 * lane, not yet cloned k times): fold_prepare, promote_registers,
 * fold_lane_bits, fold_pair_phis, fold_masked_selects, fold_add64,
 * fold_odd_widths, fold_ballot_tests. Host-IR passes (after it):
 * vectorize_lanes, version_align, merge_loads, fold_pair64, outline_fma. */
#ifndef WL_LLVM_PASSES_H
#define WL_LLVM_PASSES_H

#include <llvm-c/Core.h>

#include "wavelift/lower.h"
#include "pass.h"

/* v is an instruction with opcode op */
static inline int wl_fold_is_op(LLVMValueRef v, LLVMOpcode op)
{
    return v && LLVMIsAInstruction(v) && LLVMGetInstructionOpcode(v) == op;
}

/* v is an integer constant of at most 64 bits equal to c */
static inline int wl_fold_is_const(LLVMValueRef v, uint64_t c)
{
    return v && LLVMIsAConstantInt(v) && LLVMGetIntTypeWidth(LLVMTypeOf(v)) <= 64 &&
           LLVMConstIntGetZExtValue(v) == c;
}

/* v is a call to the function named exactly `name` (fold_prepare.c) */
int wl_fold_is_call(LLVMValueRef v, const char *name);
/* the module's @wl.wave when it has a body, else NULL (fold_prepare.c) */
LLVMValueRef wl_opt_the_wave(LLVMModuleRef m);
/* adds the enum attribute `name` (value val) to function f (fold_prepare.c) */
void wl_opt_add_attr(LLVMContextRef ctx, LLVMValueRef f, const char *name, uint64_t val);

/* u is icmp eq/ne comparing x with the constant 0 (either side) */
static inline int wl_fold_zero_test(LLVMValueRef u, LLVMValueRef x)
{
    if (!LLVMIsAICmpInst(u) || (LLVMGetICmpPredicate(u) != LLVMIntEQ && LLVMGetICmpPredicate(u) != LLVMIntNE))
        return 0;
    LLVMValueRef o = LLVMGetOperand(u, LLVMGetOperand(u, 0) == x);
    return LLVMIsAConstantInt(o) && LLVMConstIntGetZExtValue(o) == 0;
}

/* the constant v of integer type t, in every element where t is a vector */
static inline LLVMValueRef wl_fold_splat(LLVMTypeRef t, uint64_t v)
{
    if (LLVMGetTypeKind(t) != LLVMVectorTypeKind)
        return LLVMConstInt(t, v, 0);
    unsigned n = LLVMGetVectorSize(t);
    LLVMValueRef e[16];
    for (unsigned i = 0; i < n && i < 16; i++)
        e[i] = LLVMConstInt(LLVMGetElementType(t), v, 0);
    return LLVMConstVector(e, n);
}

/* v's integer width, 0 for a value of another type */
static inline unsigned wl_fold_width(LLVMValueRef v)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    return LLVMGetTypeKind(t) == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(t) : 0;
}

/* Marks the wl.* lane and launch queries (lane_id, thread_id, lane_active,
 * ballot, shuffle, readfirstlane, user_sgpr, workgroup_id, wave_id,
 * launch_exec, scratch_wave_offset) as reading no memory, so LLVM's passes
 * merge repeats and drop the unused ones; and replaces @wl.launch_exec()
 * by its constant when the guest workgroup is a whole number of waves (or
 * one wave). `opt` is what wl_lower_lanes will get. */
/* Requires: the wave IR as lifted (or after the loop budget). Leaves: the
 * same IR, the queries marked. Runs first: every other wave-IR pass counts
 * on LLVM's passes seeing the queries as pure. */
int wl_opt_fold_prepare(wl_pass_ctx *P, unsigned arg);

/* Rewrites "this lane's bit of a mask" into per-lane values:
 *   lshr(X, lane_id & (W-1)) & 1, trunc(lshr(X, lane)) to i1  -> lane_active(X)
 *   lane_active(ballot(c))                                   -> c
 *   lane_active(A & B | ^ ...)   -> lane_active(A) & | ^ lane_active(B)
 *   lane_active(C) for a constant C with the low W bits equal -> true/false
 *   lane_active(sext(i1 c)) -> c;  lane_active(select(c, A, B)) -> select(c, bit A, bit B)
 * Each is exact for every lane whatever EXEC is (a ballot carries every
 * lane's own value in its own bit). A bit expression is built only where
 * it needs at most `max_calls` lane_active calls on masks it cannot take
 * apart (each is a shift per lane clone after the lowering; 0: only free
 * bits). Returns the number of rewrites. */
/* arg: max_calls. Requires: the registers promoted (promote_registers) and
 * the repeats merged (early-cse). Before fold_pair_phis, fold_add64 and
 * fold_masked_selects, which read the compares it leaves; again after the
 * InstCombine of the cleaning (which makes sext(i1) masks and selects). */
int wl_opt_fold_lane_bits(wl_pass_ctx *P, unsigned arg);

/* fold_masked_selects.c: a write under EXEC, select(p, new, old), whose value
 * every use reads only in lanes where p holds (through memory calls under
 * `active`, selects, i1 ands and lane-local arithmetic; no phis) becomes
 * `new`. Run after wl_opt_fold_lane_bits (the predicates are then and-trees
 * of compares) and before InstCombine, which cleans what it frees.
 * Returns the number of selects bypassed. */
/* Requires: fold_lane_bits before it. Before fold_add64 (a 64-bit address
 * then reads as one add) and the InstCombine that cleans what it frees.
 * Lanes model only (the wave model keeps its VGPRs in memory). */
int wl_opt_fold_masked_selects(wl_pass_ctx *P, unsigned arg);

/* fold_ballot_tests.c: icmp eq/ne (B1 & B2 & ..., 0) of ballots read by nothing
 * else (and constants whose low W bits are ones) becomes
 * icmp eq/ne (ballot(c1 & c2 & ...), 0) (a lane's bit of each
 * ballot is its condition: exact), which the lanes model then lowers as a
 * subgroup any (launch.c). Returns the number rewritten. */
/* arg: the wave size W (0: the module's !wl.program's). Last of the lanes model's
 * wave-IR passes: after the second fold_lane_bits. */
int wl_opt_fold_ballot_tests(wl_pass_ctx *P, unsigned arg);

/* fold_flushes.c: a denormal flush (the lifter's select on the exponent
 * bits) of a value known to hold no denormal is that value; a NaN test
 * (fcmp uno/ord) of values that cannot be NaN is a constant. Returns the
 * number removed and folded. After wave-clean, in both models. */
int wl_opt_fold_flushes(wl_pass_ctx *P, unsigned arg);
/* v (a float or its bits, 16/32/64-bit) holds no denormal in any lane by
 * its definition alone: a constant, a flush, and what fold_flushes derives
 * from them without phis */
int wl_fold_no_denormal(LLVMValueRef v);

/* Rewrites sext/zext of a trunc to an odd width (i4, i24: outside the host
 * IR profile, which InstCombine leaves as the canonical sign extension) as
 * shifts and masks in the source width. Returns the number rewritten. */
/* After the last InstCombine on the wave IR, which makes them. */
int wl_opt_fold_odd_widths(wl_pass_ctx *P, unsigned arg);

/* fold_add64.c: a 64-bit register pair read back as one i64 after a
 * 32-bit add with carry-out and its carry-in add (v_add_co_u32 +
 * v_add_co_ci_u32, s_add_u32 + s_addc_u32),
 *   zext(trunc L) | (zext(trunc H) << 32),  L = zext a + zext b < 2^33,
 *   H = ... + zext(icmp ugt L, 0xffffffff)
 * becomes L + (H without the carry << 32): exact, one 64-bit add. Run
 * after wl_opt_fold_lane_bits (which makes the carry-in the compare) and
 * before InstCombine. Returns the number rewritten. */
/* Requires: fold_lane_bits (the carry-in is then the compare) and
 * fold_pair_phis; before InstCombine. */
int wl_opt_fold_add64(wl_pass_ctx *P, unsigned arg);

/* The same for one pair: the i64 of the register pair (lo, hi) (i32 values
 * of that shape) built at b's place, or NULL (nothing built). With b NULL
 * nothing is built and non-NULL says it would fold. */
LLVMValueRef wl_fold_add64_pair(LLVMBuilderRef b, LLVMValueRef lo, LLVMValueRef hi);

/* fold_pair_phis.c: a 64-bit value kept in two 32-bit registers (an SGPR or
 * VGPR pair: EXEC saved by s_and_saveexec_b64, a pointer) that flows
 * through phis as two i32 phis, whose incoming values are on every edge
 * the halves of one i64 (trunc X, trunc(X >> 32); a 64-bit add's halves,
 * wl_fold_add64_pair; constants; or such a pair of phis), becomes one i64
 * phi; the halves are taken from it after the phis. Its rebuilds as 64 bits
 * then fold away (InstCombine). Returns the number of pairs merged, -1
 * when out of memory (the module is unchanged). */
/* Requires: promote_registers and fold_lane_bits before it; before
 * fold_add64. -1 when out of memory (the module is unchanged). */
int wl_opt_fold_pair_phis(wl_pass_ctx *P, unsigned arg);

/* promote_registers.c: the register allocas of @wl.wave (loaded and stored only) to
 * SSA values and phis, in one pass. Returns the number promoted, -1 when
 * out of memory (the module is then unusable). */
/* Requires: the wave IR's register allocas (the wave model marks the
 * VGPRs' accesses volatile first: those stay in memory). Leaves SSA values
 * and phis; before every other fold. */
int wl_opt_promote_registers(wl_pass_ctx *P, unsigned arg);

/* vectorize_lanes/vec_lanes.c: the k lane clones of an instruction of the
 * lowered lanes-model module as one vector instruction where that saves
 * words: vectors of 2 lanes at k = 2, of 4 at k = 4, 8, 16; other k leave
 * it as it is (docs/backend.md "Vectors"). Requires: the lanes model's
 * lowering (P->li, P->subgroup_size) and the host passes; followed by a
 * verification and adce (the constructs and extracts no one reads).
 * -1 when out of memory (the module is then valid, partly rewritten). */
int wl_opt_vectorize_lanes(wl_pass_ctx *P, unsigned arg);

/* version_align.c: windows of device-memory loads or stores of unknown
 * alignment, branched once on their addresses: align 4 where all are
 * 4-aligned, as they were otherwise. After the host passes (and the lane
 * vectorizer), before merge_loads. -1 when out of memory. */
int wl_opt_version_align(wl_pass_ctx *P, unsigned arg);
/* subgroup_reduce.c: chains of shuffle steps read at one lane that are a
 * whole subgroup's integer reduction or scan, as one OpGroupNonUniform<op>
 * (lanes model) */
int wl_opt_subgroup_reduce(wl_pass_ctx *P, unsigned arg);

/* sink_stores.c: a store whose address can only be the sink's store part
 * (its lane's condition folded to false) is dropped. Returns the number. */
int wl_opt_drop_sink_stores(wl_pass_ctx *P, unsigned arg);

/* merge_loads.c: adjacent dword loads of device memory as one vector load.
 * After the host passes. -1 when out of memory (the module is then valid,
 * with fewer merged). */
int wl_opt_merge_loads(wl_pass_ctx *P, unsigned arg);

/* fold_pair64.c: or (shl (zext hi), 32), (zext lo) as the bitcast of the
 * pair <lo, hi> (OpCompositeConstruct, OpBitcast). Last, after
 * merge_loads. -1 when out of memory. */
int wl_opt_fold_pair64(wl_pass_ctx *P, unsigned arg);

/* outline_fma.c: every llvm.fma of a width whose Fma the host does not fuse
 * (P->fused_fma: WL_FMA_F64 for doubles, WL_FMA_F32 for floats; a half one
 * never is)
 * used at least arg times becomes a call of one noinline function (the
 * backend's exact routine, emitted once a type). After the last LLVM pass
 * and the lane vectorizer (it calls the vector routine). */
int wl_opt_outline_fma(wl_pass_ctx *P, unsigned arg);
/* outline_fma.c: where the host's float Fma is exact for normal operands and
 * results only (WL_FMA_F32_NORMAL in P->fused_fma, WL_FMA_F32 not), each
 * float llvm.fma as that Fma (@spv.fma.host.*, the backend's GLSL Fma), the
 * exact routine in a branch where the result is not a finite normal or an
 * operand subnormal. After the last LLVM pass, before outline-fma. */
int wl_opt_fma_host_first(wl_pass_ctx *P, unsigned arg);

/* outline_calls.c: each guest function the call plan lifted once and
 * several calls enter (the lifter's wl.call.<e> / wl.ret.<e> blocks), a
 * function `i32 @wl.fn.<n>()` of the host module, its boundary values
 * through the private array @wl.xfer. arg: the fewest calls (0: 2).
 * Returns the functions made. */
int wl_opt_outline_calls(wl_pass_ctx *P, unsigned arg);

#endif

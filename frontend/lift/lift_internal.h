/* The lifter's internal interface: one wl_lifter owns the LLVM objects of a
 * translation; the instruction families (lift_salu.c, lift_smem.c,
 * lift_valu*.c, lift_mem*.c) lift one decoded instruction each through the
 * helpers declared here (implemented in lift_state.c). The wave IR rules are
 * in docs/wave-ir.md. */
#ifndef WL_LIFT_INTERNAL_H
#define WL_LIFT_INTERNAL_H

#include "wavelift/lift.h"
#include "frontend/isa/decode_internal.h"

#include <llvm-c/Core.h>

typedef struct wl_lifter {
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
    LLVMValueRef fn;          /* @wl.wave */
    LLVMTypeRef t_void, i1, i8, i16, i32, i64, f16, f32, f64;
    const wl_lift_program *prog;
    unsigned wave;            /* 32 or 64 */

    /* Scalar state: allocas in the entry block (uniform). */
    LLVMValueRef sgpr[106];
    LLVMValueRef vcc[2], exec[2], m0, scc;
    /* VGPRs: allocas with !wl.vgpr, made on first use. */
    LLVMValueRef vgpr[256];
    /* One past the highest VGPR the program names (an operand of any
     * instruction discovery found, or a thread-id VGPR of the launch): the
     * registers M0-relative indexing can reach without an escape
     * (lift_valu_misc.c). */
    unsigned vgpr_top;
    /* The image instructions convert their texels through one called
     * function (wl_lift_img_texel_call, lift_mem_img.c). */
    int texel_call;
    LLVMBasicBlockRef entry;  /* allocas go here */
    /* The call plan's outline form (lift_calls.h): cs and its save slot a
     * context, allocas made on first use. */
    LLVMValueRef cs, *cs_save;

    const wl_inst *inst;      /* the instruction being lifted */
    /* The MODE register where a mode write changed it (lift_mode.c): bits
     * in mode_set take mode_val, the others are the launch's. */
    uint32_t mode_set, mode_val;
    /* f32 fmas lifted: those whose operands and result the mode flushes,
     * the result the instruction's (no omod, no clamp): a host Fma that
     * flushes subnormals computes them exactly; and any other (a kept
     * denormal, an fma inside a longer sequence). !wl.fma_f32_ftz says
     * the module's are all of the first kind (ir/wave_ir.h). */
    unsigned fma32_flushed, fma32_other;
    char *err;
    size_t errcap;
} wl_lifter;

/* Whether the image instructions of a program (insts[0..n)) are better
 * off calling one texel conversion than each carrying it (lift_mem_img.c) */
int wl_lift_img_texel_call(const wl_inst *insts, size_t n);

/* An alloca in the entry block, stored 0 (lift_state.c); vgpr: marked
 * !wl.vgpr */
LLVMValueRef wl_l_entry_alloca(wl_lifter *L, LLVMTypeRef t, const char *name, int vgpr);

/* Errors. Formats "unsupported instruction <mnemonic> at offset 0x..: <why>"
 * into the lifter's message and returns WL_ERR_UNSUPPORTED. */
wl_status wl_l_refuse(wl_lifter *L, const char *why);

/* A call to a wl.* function, declared on first use with the given type. */
LLVMValueRef wl_l_call(wl_lifter *L, const char *name, LLVMTypeRef ret,
                       LLVMValueRef *args, unsigned nargs);
LLVMValueRef wl_l_i32c(wl_lifter *L, uint32_t v);
LLVMValueRef wl_l_i64c(wl_lifter *L, uint64_t v);
/* A call to the LLVM intrinsic `name` overloaded on tys[0..ntys) */
LLVMValueRef wl_l_intrin(wl_lifter *L, const char *name, LLVMTypeRef *tys, unsigned ntys, LLVMValueRef *args,
                         unsigned nargs);

/* Scalar state. SGPR-like operands by raw index: 0..105 SGPRs, and the
 * special encodings of wl_operand (vcc_lo 106, vcc_hi 107, m0 124,
 * null 125 (reads 0, writes dropped), exec_lo 126, exec_hi 127). */
LLVMValueRef wl_l_get_s32(wl_lifter *L, unsigned enc);
void wl_l_set_s32(wl_lifter *L, unsigned enc, LLVMValueRef v);
LLVMValueRef wl_l_get_s64(wl_lifter *L, unsigned enc);   /* pair enc, enc+1 */
void wl_l_set_s64(wl_lifter *L, unsigned enc, LLVMValueRef v);
LLVMValueRef wl_l_get_scc(wl_lifter *L);                 /* i1 */
void wl_l_set_scc(wl_lifter *L, LLVMValueRef v);          /* i1 */
LLVMValueRef wl_l_exec(wl_lifter *L);   /* i64 (wave32: zero-extended exec_lo) */
LLVMValueRef wl_l_vcc(wl_lifter *L);    /* i64 (wave32: zero-extended vcc_lo) */
void wl_l_set_exec(wl_lifter *L, LLVMValueRef mask64);
void wl_l_set_vcc(wl_lifter *L, LLVMValueRef mask64);
/* A lane mask destination operand (SGPR pair in wave64, one SGPR in
 * wave32), from/to an i64 mask. */
LLVMValueRef wl_l_get_mask(wl_lifter *L, const wl_operand *o);
void wl_l_set_mask(wl_lifter *L, const wl_operand *o, LLVMValueRef mask64);

/* VGPRs (varying). */
LLVMValueRef wl_l_get_v32(wl_lifter *L, unsigned v);
/* Writes lane values under EXEC: select(active, val, old). */
void wl_l_set_v32(wl_lifter *L, unsigned v, LLVMValueRef val);
/* Writes with an explicit per-lane predicate instead of EXEC. */
void wl_l_set_v32_if(wl_lifter *L, unsigned v, LLVMValueRef val, LLVMValueRef pred);
LLVMValueRef wl_l_get_v64(wl_lifter *L, unsigned v);
void wl_l_set_v64(wl_lifter *L, unsigned v, LLVMValueRef val);
/* i1: this lane is in EXEC (varying). */
LLVMValueRef wl_l_active(wl_lifter *L);

/* Source operands: SGPR/VGPR/special/inline constant/literal, as i32 or i64
 * (64-bit inline float constants per `type`, 64-bit literals as the
 * hardware extends them), without modifiers. */
LLVMValueRef wl_l_src32(wl_lifter *L, const wl_operand *o, wl_imm_type type);
LLVMValueRef wl_l_src64(wl_lifter *L, const wl_operand *o, wl_imm_type type);

/* The float mode (lift_mode.c). wl_l_mode: the MODE register's bits 9:0
 * now (3:0 round, 7:4 denorm, 8 DX10_CLAMP, 9 IEEE). wl_l_mode_step runs
 * before each instruction: a mode changed inside a block must be restored
 * before the block ends (refused otherwise); a leader starts with the
 * launch's mode. */
uint32_t wl_l_mode(const wl_lifter *L);
wl_status wl_l_mode_step(wl_lifter *L, int leader, int fell_in, int branches);
/* Writes MODE bits [off, off + size) with the constant v (lift_mode.c). */
wl_status wl_l_mode_write(wl_lifter *L, unsigned off, unsigned size, uint32_t v);

/* Instruction families: WL_OK, or WL_ERR_UNSUPPORTED through wl_l_refuse. */
wl_status wl_lift_salu(wl_lifter *L, const wl_inst *in);  /* SOP1/2/K/C, SOPP but branches */
wl_status wl_lift_smem(wl_lifter *L, const wl_inst *in);
wl_status wl_lift_valu(wl_lifter *L, const wl_inst *in);  /* VOP1/2/C/3/3P, SDWA, DPP */
wl_status wl_lift_mem(wl_lifter *L, const wl_inst *in);   /* DS, MUBUF, MTBUF, FLAT, GLOBAL, SCRATCH, MIMG */

#endif

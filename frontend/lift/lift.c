/* wl_lift: a gfx10 program to the wave IR (docs/wave-ir.md, "The lifter").
 *
 * 1. Discovery: decode from the entry, following control flow (a worklist of
 *    offsets): s_branch goes on at its target, s_cbranch_* at its target and
 *    the next instruction, s_endpgm and s_code_end stop a path. s_setpc_b64
 *    and s_swappc_b64 go on at the target a small constant tracker finds
 *    (lift_track.c), s_swappc_b64 also at
 *    its return site (lift_jump says how they are lifted). Only reachable
 *    bytes are decoded, so data and
 *    padding after s_endpgm are never read. A reachable offset that does not
 *    decode, or a branch into the middle of an instruction, is an error.
 * 2. Leaders: the entry, every branch target, the instruction after every
 *    conditional branch. The call plan (lift_calls.c): which copies of the
 *    code are lifted; one LLVM block per leader of each copy.
 * 3. The entry block: the launch state (user SGPRs, the enabled system SGPRs
 *    after them, v0..v2 thread ids, EXEC), then a branch to the first block.
 * 4. Lifting each copy in offset order: control flow here, everything else through the
 *    families (lift_salu.c, lift_smem.c, lift_valu*.c, lift_mem*.c). A block
 *    that ends without a terminator falls into the next leader's block.
 *    The first refusal stops the translation (nothing is ever skipped). */
#include "lift_calls.h"
#include "lift_ex.h"
#include "ir/wave_ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    CF_NONE = WL_CF_NONE, CF_END = WL_CF_END, CF_BRANCH = WL_CF_BRANCH, CF_CBRANCH = WL_CF_CBRANCH,
    CF_STOP = WL_CF_STOP, CF_SETPC = WL_CF_SETPC, CF_SWAPPC = WL_CF_SWAPPC
};

/* SOPP opcodes (gfx10). */
enum {
    SOPP_ENDPGM = 0x01, SOPP_BRANCH = 0x02, SOPP_SCC0 = 0x04, SOPP_SCC1 = 0x05,
    SOPP_VCCZ = 0x06, SOPP_VCCNZ = 0x07, SOPP_EXECZ = 0x08, SOPP_EXECNZ = 0x09,
    SOPP_CODE_END = 0x1f
};
enum { SOP1_GETPC = 0x1f, SOP1_SETPC = 0x20, SOP1_SWAPPC = 0x21 };

int wl_lift_cf_kind(const wl_inst *in)
{
    if (in->format == WL_FMT_SOPP) {
        switch (in->op) {
        case SOPP_ENDPGM: return CF_END;
        case SOPP_BRANCH: return CF_BRANCH;
        case SOPP_SCC0: case SOPP_SCC1: case SOPP_VCCZ:
        case SOPP_VCCNZ: case SOPP_EXECZ: case SOPP_EXECNZ: return CF_CBRANCH;
        case SOPP_CODE_END: return CF_STOP;
        default: return CF_NONE;
        }
    }
    if (in->format == WL_FMT_SOP1 && in->op == SOP1_SETPC)
        return CF_SETPC;
    if (in->format == WL_FMT_SOP1 && in->op == SOP1_SWAPPC)
        return CF_SWAPPC;
    return CF_NONE;
}

#define cf_kind wl_lift_cf_kind

int64_t wl_lift_branch_target(const wl_inst *in)
{
    return (int64_t)in->offset + 4 + 4 * (int64_t)(int32_t)in->src[0].value;
}
#define branch_target wl_lift_branch_target

static void map_free(wl_prog_map *m)
{
    free(m->jump);
    free(m->rets);
    free(m->at);
    free(m->leader);
    free(m->insts);
    wl_lift_calls_free(m);
}

static wl_status seterr(char *err, size_t cap, wl_status st, const char *fmt, unsigned long long a)
{
    if (err && cap)
        snprintf(err, cap, fmt, a);
    return st;
}

/* Step 1 and 2. */
static wl_status discover(const wl_lift_program *p, wl_prog_map *m, char *err, size_t errcap)
{
    wl_decoder d;
    wl_decoder_init(&d, p->target, p->wave_size == 64);
    m->nwords = p->size / 4;
    if (m->nwords == 0)
        return seterr(err, errcap, WL_ERR_INVALID, "empty program (%llu bytes)", p->size);
    m->at = malloc(m->nwords * sizeof *m->at);
    m->leader = calloc(m->nwords, 1);
    /* The worklist: a word and the tracker's state there (NULL: none
     * known; a branch target or return site carries the state of the
     * path that found it, a callee starts with none). */
    size_t *stack = malloc((2 * m->nwords + 2) * sizeof *stack);
    wl_ctrack **states = calloc(2 * m->nwords + 2, sizeof *states);
    size_t sp = 0;
    wl_ctrack *ct = malloc(sizeof *ct);
    if (!m->at || !m->leader || !stack || !ct || !states) {
        free(stack);
        free(states);
        free(ct);
        return WL_ERR_NOMEM;
    }
    for (size_t i = 0; i < m->nwords; i++)
        m->at[i] = -1;
    if (p->entry % 4 || p->entry / 4 >= m->nwords) {
        free(stack);
        free(states);
        free(ct);
        return seterr(err, errcap, WL_ERR_INVALID, "entry point 0x%llx is outside the code",
                      (unsigned long long)p->entry);
    }
    m->leader[p->entry / 4] = 1;
    stack[sp++] = p->entry / 4;
    wl_status st = WL_OK;
    while (sp && st == WL_OK) {
        size_t w = stack[--sp];
        if (states[sp]) {
            *ct = *states[sp];
            free(states[sp]);
            states[sp] = NULL;
        } else {
            memset(ct, 0, sizeof *ct);
        }
        for (;;) {
            if (w >= m->nwords) {
                st = seterr(err, errcap, WL_ERR_INVALID,
                            "control flow runs past the end of the code at offset 0x%llx",
                            (unsigned long long)w * 4);
                break;
            }
            if (m->at[w] == -2) {
                st = seterr(err, errcap, WL_ERR_INVALID,
                            "control flow enters the middle of an instruction at offset 0x%llx",
                            (unsigned long long)w * 4);
                break;
            }
            if (m->at[w] >= 0)
                break; /* already decoded from here on */
            if (m->ninsts == m->cap) {
                size_t nc = m->cap ? m->cap * 2 : 256;
                wl_inst *ni = realloc(m->insts, nc * sizeof *ni);
                int64_t *nj = ni ? realloc(m->jump, nc * sizeof *nj) : NULL;
                if (ni)
                    m->insts = ni;
                if (!ni || !nj) {
                    st = WL_ERR_NOMEM;
                    break;
                }
                m->jump = nj;
                m->cap = nc;
            }
            wl_inst *in = &m->insts[m->ninsts];
            wl_status ds = wl_decode(&d, p->code + w * 4, p->size - w * 4, w * 4, in);
            if (ds != WL_OK) {
                st = seterr(err, errcap, WL_ERR_INVALID,
                            ds == WL_ERR_TRUNCATED ? "truncated instruction at offset 0x%llx"
                                                   : "invalid instruction encoding at offset 0x%llx",
                            (unsigned long long)w * 4);
                break;
            }
            size_t nw = in->size / 4;
            for (size_t k = 1; k < nw; k++) {
                if (w + k < m->nwords && m->at[w + k] >= 0) {
                    st = seterr(err, errcap, WL_ERR_INVALID,
                                "overlapping instructions at offset 0x%llx",
                                (unsigned long long)w * 4);
                    break;
                }
                if (w + k < m->nwords)
                    m->at[w + k] = -2;
            }
            if (st != WL_OK)
                break;
            m->at[w] = (int32_t)m->ninsts++;
            m->jump[m->at[w]] = -1;
            int cf = cf_kind(in);
            if (cf == CF_SETPC || cf == CF_SWAPPC) {
                /* A target the tracker knows, inside the code, starts a path. */
                uint64_t t;
                const wl_operand *so = &in->src[0];
                int known = wl_ct_get64(ct, so, &t);
                if (known)
                    m->jump[m->at[w]] = -2; /* known, but not an instruction of the code */
                if (known && t >= p->address && t - p->address < (uint64_t)m->nwords * 4 &&
                    ((t - p->address) & 3) == 0) {
                    size_t tw = (size_t)((t - p->address) / 4);
                    m->jump[m->at[w]] = (int64_t)tw;
                    m->leader[tw] = 1;
                    if (sp < 2 * m->nwords + 2)
                        stack[sp++] = tw;
                }
                if (cf == CF_SETPC)
                    break;
                /* s_swappc_b64: the next instruction is a return site. */
                if (w + nw < m->nwords) {
                    if (m->nrets == m->retcap) {
                        size_t nc = m->retcap ? m->retcap * 2 : 16;
                        size_t *nr = realloc(m->rets, nc * sizeof *nr);
                        if (!nr) {
                            st = WL_ERR_NOMEM;
                            break;
                        }
                        m->rets = nr;
                        m->retcap = nc;
                    }
                    m->rets[m->nrets++] = w + nw;
                    m->leader[w + nw] = 1;
                    if (sp < 2 * m->nwords + 2) {
                        /* The callee keeps what the caller relies on
                         * (a hint: see lift_track.c). */
                        wl_ct_step(ct, in, p->address);
                        states[sp] = malloc(sizeof *ct);
                        if (states[sp])
                            *states[sp] = *ct;
                        stack[sp++] = w + nw;
                    }
                }
                break;
            }
            wl_ct_step(ct, in, p->address);
            if (cf == CF_END || cf == CF_STOP)
                break;
            if (cf == CF_BRANCH || cf == CF_CBRANCH) {
                int64_t t = branch_target(in);
                if (t < 0 || (uint64_t)t >= (uint64_t)m->nwords * 4) {
                    st = seterr(err, errcap, WL_ERR_INVALID,
                                "branch at offset 0x%llx leaves the code", (unsigned long long)w * 4);
                    break;
                }
                m->leader[t / 4] = 1;
                if (sp < 2 * m->nwords + 2) {
                    states[sp] = malloc(sizeof *ct);
                    if (states[sp])
                        *states[sp] = *ct;
                    stack[sp++] = (size_t)t / 4;
                }
                if (cf == CF_BRANCH)
                    break;
                if (w + nw < m->nwords)
                    m->leader[w + nw] = 1;
            }
            w += nw;
        }
    }
    for (size_t i = 0; i < sp; i++)
        free(states[i]);
    free(states);
    free(stack);
    free(ct);
    /* A leader must start a decoded instruction (targets were pushed). */
    for (size_t w = 0; st == WL_OK && w < m->nwords; w++)
        if (m->leader[w] && m->at[w] == -2)
            st = seterr(err, errcap, WL_ERR_INVALID,
                        "control flow enters the middle of an instruction at offset 0x%llx",
                        (unsigned long long)w * 4);
    return st;
}

static void init_types(wl_lifter *L)
{
    L->t_void = LLVMVoidTypeInContext(L->ctx);
    L->i1 = LLVMInt1TypeInContext(L->ctx);
    L->i8 = LLVMInt8TypeInContext(L->ctx);
    L->i16 = LLVMInt16TypeInContext(L->ctx);
    L->i32 = LLVMInt32TypeInContext(L->ctx);
    L->i64 = LLVMInt64TypeInContext(L->ctx);
    L->f16 = LLVMHalfTypeInContext(L->ctx);
    L->f32 = LLVMFloatTypeInContext(L->ctx);
    L->f64 = LLVMDoubleTypeInContext(L->ctx);
}

static void add_program_md(wl_lifter *L, const wl_lift_program *p)
{
    LLVMMetadataRef f[4] = {
        LLVMValueAsMetadata(wl_l_i32c(L, p->wave_size)),
        LLVMValueAsMetadata(wl_l_i32c(L, p->lds_bytes)),
        LLVMValueAsMetadata(wl_l_i32c(L, p->scratch_bytes)),
        LLVMValueAsMetadata(wl_l_i32c(L, p->user_sgpr_count)),
    };
    LLVMAddNamedMetadataOperand(L->mod, WL_WIR_PROGRAM_MD,
                                LLVMMetadataAsValue(L->ctx, LLVMMDNodeInContext2(L->ctx, f, 4)));
}

/* Step 3: the launch state, in the entry block (the builder is there). */
static wl_status launch_state(wl_lifter *L, const wl_lift_program *p, char *err, size_t errcap)
{
    unsigned s = 0;
    if (p->user_sgpr_count > 32)
        return seterr(err, errcap, WL_ERR_INVALID, "user SGPR count %llu out of range",
                      p->user_sgpr_count);
    static const uint32_t vsharp[4] = {WL_PRIVATE_VSHARP_W0, WL_PRIVATE_VSHARP_W1,
                                       WL_PRIVATE_VSHARP_W2, WL_PRIVATE_VSHARP_W3};
    for (; s < p->user_sgpr_count; s++) {
        LLVMValueRef a = wl_l_i32c(L, s);
        if (p->private_segment_buffer && s < 4)
            wl_l_set_s32(L, s, wl_l_i32c(L, vsharp[s]));
        else
            wl_l_set_s32(L, s, wl_l_call(L, "wl.user_sgpr", L->i32, &a, 1));
    }
    for (unsigned d = 0; d < 3; d++) {
        if (!p->enable_workgroup_id[d])
            continue;
        LLVMValueRef a = wl_l_i32c(L, d);
        wl_l_set_s32(L, s++, wl_l_call(L, "wl.workgroup_id", L->i32, &a, 1));
    }
    if (p->enable_workgroup_info) {
        /* The workgroup-info SGPR (COMPUTE_PGM_RSRC2.TG_SIZE_EN; RADV's
         * tg_size): bits [5:0] the number of waves in the work-group,
         * bits [11:6] this wave's index in it, the other bits 0. */
        if (p->workgroup_waves == 0 || p->workgroup_waves > 63)
            return seterr(err, errcap, WL_ERR_UNSUPPORTED,
                          "the workgroup info system SGPR needs the work-group's wave count "
                          "(wl_lift_program.workgroup_waves, 1..63; got %llu)",
                          p->workgroup_waves);
        LLVMValueRef wave = wl_l_call(L, "wl.wave_id", L->i32, NULL, 0);
        LLVMValueRef id = LLVMBuildShl(L->b, LLVMBuildAnd(L->b, wave, wl_l_i32c(L, 63), ""),
                                       wl_l_i32c(L, 6), "");
        wl_l_set_s32(L, s++, LLVMBuildOr(L->b, id, wl_l_i32c(L, p->workgroup_waves), "tg_size"));
    }
    if (p->enable_private_segment_wave_offset)
        wl_l_set_s32(L, s++, wl_l_call(L, "wl.scratch_wave_offset", L->i32, NULL, 0));
    unsigned nv = p->vgpr_workitem_ids ? p->vgpr_workitem_ids : 1;
    for (unsigned d = 0; d < nv && d < 3; d++) {
        LLVMValueRef a = wl_l_i32c(L, d);
        LLVMValueRef tid = wl_l_call(L, "wl.thread_id", L->i32, &a, 1);
        /* A plain store: at launch every lane, active or not, holds its id. */
        wl_l_set_v32_if(L, d, tid, LLVMConstInt(L->i1, 1, 0));
    }
    wl_l_set_exec(L, wl_l_call(L, "wl.launch_exec", L->i64, NULL, 0));
    wl_l_set_vcc(L, wl_l_i64c(L, 0));
    wl_l_set_s32(L, WL_SRC_M0, wl_l_i32c(L, 0));
    wl_l_set_scc(L, LLVMConstInt(L->i1, 0, 0));
    return WL_OK;
}

/* The block of word w in context ci (made on first use; named b<offset>,
 * b<offset>.c<context> in a callee's copy). */
static LLVMBasicBlockRef block_in(wl_lifter *L, wl_prog_map *m, size_t ci, size_t w)
{
    wl_call_ctx *c = &m->ctx[ci];
    long k = wl_lift_ctx_find(c, w);
    char name[48];
    if (k < 0) {
        /* Not in the context (the plan puts every target there): kept
         * well formed, a wave arriving here escapes. */
        LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(L->ctx, L->fn, "lost");
        LLVMBasicBlockRef here = LLVMGetInsertBlock(L->b);
        LLVMPositionBuilderAtEnd(L->b, bb);
        LLVMValueRef args[3] = {wl_l_i32c(L, WL_ESC_INSTRUCTION), wl_l_i32c(L, (uint32_t)(w * 4)),
                                LLVMConstInt(L->i1, 1, 0)};
        wl_l_call(L, "wl.escape", L->t_void, args, 3);
        LLVMBuildRetVoid(L->b);
        LLVMPositionBuilderAtEnd(L->b, here);
        return bb;
    }
    if (!c->bb[k]) {
        if (ci)
            snprintf(name, sizeof name, "b%zx.c%zu", w * 4, ci);
        else
            snprintf(name, sizeof name, "b%zx", w * 4);
        c->bb[k] = LLVMAppendBasicBlockInContext(L->ctx, L->fn, name);
    }
    return c->bb[k];
}

static LLVMBasicBlockRef block_at(wl_lifter *L, wl_prog_map *m, size_t w)
{
    return block_in(L, m, m->cur, w);
}

static LLVMValueRef branch_cond(wl_lifter *L, unsigned op)
{
    LLVMValueRef zero = wl_l_i64c(L, 0);
    switch (op) {
    case SOPP_SCC0: return LLVMBuildNot(L->b, wl_l_get_scc(L), "");
    case SOPP_SCC1: return wl_l_get_scc(L);
    case SOPP_VCCZ: return LLVMBuildICmp(L->b, LLVMIntEQ, wl_l_vcc(L), zero, "vccz");
    case SOPP_VCCNZ: return LLVMBuildICmp(L->b, LLVMIntNE, wl_l_vcc(L), zero, "");
    case SOPP_EXECZ: return LLVMBuildICmp(L->b, LLVMIntEQ, wl_l_exec(L), zero, "execz");
    default: return LLVMBuildICmp(L->b, LLVMIntNE, wl_l_exec(L), zero, "");
    }
}

/* The pseudo-register of the plan's outline form (lift_calls.h): the call
 * edge that entered the running callee (cs), and per context the value it
 * had when the context was entered (its save slot, written at the
 * context's calls, read back at their returns). */
static LLVMValueRef cs_reg(wl_lifter *L, long ctx)
{
    LLVMValueRef *slot = ctx < 0 ? &L->cs : &L->cs_save[ctx];
    if (!*slot) {
        char name[32];
        if (ctx < 0)
            snprintf(name, sizeof name, "cs");
        else
            snprintf(name, sizeof name, "cs.c%ld", ctx);
        *slot = wl_l_entry_alloca(L, L->i32, name, 0);
    }
    return *slot;
}

/* A block named NAME.<e> of the outline form (lift_calls.h): cs saved to
 * `save` (call) or restored from it (return), then on to `to` */
static LLVMBasicBlockRef cs_block(wl_lifter *L, wl_prog_map *m, const char *name, size_t e, int call)
{
    const wl_call_edge *ed = &m->edges[e];
    char bname[32];
    snprintf(bname, sizeof bname, "%s.%zu", name, e);
    LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(L->ctx, L->fn, bname);
    LLVMBasicBlockRef here = LLVMGetInsertBlock(L->b);
    LLVMPositionBuilderAtEnd(L->b, bb);
    LLVMValueRef cs = cs_reg(L, -1), save = cs_reg(L, (long)ed->from);
    if (call) { /* the caller's cs saved, cs = the edge, on to the callee's start */
        LLVMBuildStore(L->b, LLVMBuildLoad2(L->b, L->i32, cs, ""), save);
        LLVMBuildStore(L->b, wl_l_i32c(L, (uint32_t)e), cs);
        LLVMBuildBr(L->b, block_in(L, m, ed->to, ed->target));
    } else { /* the caller's cs back, on to the return site */
        LLVMBuildStore(L->b, LLVMBuildLoad2(L->b, L->i32, save, ""), cs);
        LLVMBuildBr(L->b, block_in(L, m, ed->from, ed->ret));
    }
    LLVMPositionBuilderAtEnd(L->b, here);
    return bb;
}

/* Branches to the first candidate whose address cw[i] equals the run-time
 * value v: to its block (context cctx[i]), or where edge is given, through
 * the edge's call block (call) or return block (a return, which also needs
 * cs to name the edge); none equal records WL_ESC_INSTRUCTION and ends the
 * wave. */
static void dispatch(wl_lifter *L, wl_prog_map *m, const wl_inst *in, LLVMValueRef v, const size_t *cctx,
                     const size_t *cw, const long *edge, int call, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        LLVMValueRef eq = LLVMBuildICmp(L->b, LLVMIntEQ, v, wl_l_i64c(L, L->prog->address + cw[i] * 4), "");
        if (edge && edge[i] >= 0 && !call) {
            LLVMValueRef cs = LLVMBuildLoad2(L->b, L->i32, cs_reg(L, -1), "");
            eq = LLVMBuildAnd(L->b, eq, LLVMBuildICmp(L->b, LLVMIntEQ, cs, wl_l_i32c(L, (uint32_t)edge[i]), ""), "");
        }
        LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(L->ctx, L->fn, "jump.next");
        LLVMBasicBlockRef to = !edge || edge[i] < 0 ? block_in(L, m, cctx[i], cw[i])
                                         : cs_block(L, m, call ? "wl.call" : "wl.ret", (size_t)edge[i], call);
        LLVMBuildCondBr(L->b, eq, to, next);
        LLVMPositionBuilderAtEnd(L->b, next);
    }
    LLVMValueRef args[3] = {wl_l_i32c(L, WL_ESC_INSTRUCTION), wl_l_i32c(L, (uint32_t)in->offset),
                            LLVMConstInt(L->i1, 1, 0)};
    wl_l_call(L, "wl.escape", L->t_void, args, 3);
    LLVMBuildRetVoid(L->b);
}

/* Calls in the call plan (lift_calls.c): s_swappc_b64 D, S writes the
 * return address to D and compares S with the start of each callee copy the
 * plan made for this call site; s_setpc_b64 S compares S with the tracker's
 * target (a jump or tail call within this copy) and with the return sites
 * of the calls that reach this copy (the one call that made it, per call
 * site; every call of the function, per function). The first equal one is
 * taken; none equal escapes (dispatch). */
static wl_status lift_jump_inline(wl_lifter *L, wl_prog_map *m, const wl_inst *in)
{
    int swap = in->op == SOP1_SWAPPC;
    const wl_operand *so = &in->src[0];
    size_t w = in->offset / 4, idx = (size_t)m->at[w];
    const wl_call_ctx *c = &m->ctx[m->cur];
    if (swap) {
        size_t ne = 0;
        for (size_t e = c->edge0; e < c->edge0 + c->nedges; e++)
            ne += m->edges[e].site == w;
        if (ne == 0)
            return wl_l_refuse(L, m->jump[idx] == -2 ? "the target lies outside the program's code"
                                                     : "indirect call with a target unknown at translation");
        if (so->kind != WL_OPND_SGPR || in->dst[0].kind != WL_OPND_SGPR)
            return wl_l_refuse(L, "operand not supported");
        size_t *ec = malloc(ne * sizeof *ec), *ew = malloc(ne * sizeof *ew);
        long *ee = malloc(ne * sizeof *ee);
        if (!ec || !ew || !ee) {
            free(ec);
            free(ew);
            free(ee);
            return WL_ERR_NOMEM;
        }
        ne = 0;
        for (size_t e = c->edge0; e < c->edge0 + c->nedges; e++)
            if (m->edges[e].site == w) {
                ec[ne] = m->edges[e].to;
                ee[ne] = (long)e;
                ew[ne++] = m->edges[e].target;
            }
        LLVMValueRef v = wl_l_get_s64(L, so->index);
        wl_l_set_s64(L, in->dst[0].index, wl_l_i64c(L, L->prog->address + in->offset + in->size));
        dispatch(L, m, in, v, ec, ew, m->outline ? ee : NULL, 1, ne);
        free(ec);
        free(ew);
        free(ee);
        return WL_OK;
    }
    size_t cap = 1 + (c->parent >= 0 ? 1 : 0);
    if (m->shared)
        for (size_t e = 0; e < m->nedges; e++)
            cap += m->edges[e].to == m->cur;
    size_t *cctx = malloc(cap * sizeof *cctx), *cw = malloc(cap * sizeof *cw), n = 0;
    long *ce = malloc(cap * sizeof *ce);
    if (!cctx || !cw || !ce) {
        free(cctx);
        free(cw);
        free(ce);
        return WL_ERR_NOMEM;
    }
    if (wl_lift_setpc_local(m, c, idx)) {
        cctx[n] = m->cur;
        ce[n] = -1;
        cw[n++] = (size_t)m->jump[idx];
    }
    if (m->shared) {
        for (size_t e = 0; e < m->nedges; e++)
            if (m->edges[e].to == m->cur) {
                cctx[n] = m->edges[e].from;
                ce[n] = (long)e;
                cw[n++] = m->edges[e].ret;
            }
    } else if (c->parent >= 0) {
        cctx[n] = (size_t)c->parent;
        ce[n] = -1;
        cw[n++] = c->ret;
    }
    wl_status st = WL_OK;
    if (n == 0)
        st = wl_l_refuse(L, m->jump[idx] == -2 ? "the target lies outside the program's code"
                                               : "indirect jump with a target unknown at translation");
    else if (so->kind != WL_OPND_SGPR)
        st = wl_l_refuse(L, "operand not supported");
    else
        dispatch(L, m, in, wl_l_get_s64(L, so->index), cctx, cw, m->outline ? ce : NULL, 0, n);
    free(cctx);
    free(cw);
    free(ce);
    return st;
}

/* s_setpc_b64 / s_swappc_b64 in the general plan: a jump to the run-time
 * value of an SGPR pair, lifted as a comparison with every target discovery found (the tracker's
 * constant for this instruction; for s_setpc_b64 also every return site, the
 * instruction after each s_swappc_b64): the first equal one is taken. A
 * value that matches none records WL_ESC_INSTRUCTION and ends the wave. With
 * no candidate at all the instruction is refused. */
static wl_status lift_jump(wl_lifter *L, wl_prog_map *m, const wl_inst *in)
{
    int swap = in->op == SOP1_SWAPPC;
    const wl_operand *so = &in->src[0];
    size_t idx = (size_t)m->at[in->offset / 4];
    if (m->inlined)
        return lift_jump_inline(L, m, in);
    size_t ncand = (m->jump[idx] >= 0) + (swap ? 0 : m->nrets);
    if (ncand == 0 && m->jump[idx] == -2)
        return wl_l_refuse(L, "the target lies outside the program's code");
    if (swap && m->jump[idx] == -1) {
        /* A call whose target the tracker lost (e.g. an address kept across
         * an earlier call): every target another call of the program was
         * found to reach is a candidate; the comparison at run time makes a
         * wrong candidate harmless (no match escapes). */
        uint8_t *seen = calloc(m->nwords, 1);
        if (!seen)
            return WL_ERR_NOMEM;
        LLVMValueRef v = wl_l_get_s64(L, so->index);
        size_t n = 0;
        for (size_t i = 0; i < m->ninsts; i++) {
            const wl_inst *ci = &m->insts[i];
            if (m->jump[i] < 0 || cf_kind(ci) != CF_SWAPPC || seen[m->jump[i]])
                continue;
            seen[m->jump[i]] = 1;
            n++;
        }
        if (n == 0 || so->kind != WL_OPND_SGPR || in->dst[0].kind != WL_OPND_SGPR) {
            free(seen);
            return wl_l_refuse(L, "indirect call with a target unknown at translation");
        }
        wl_l_set_s64(L, in->dst[0].index, wl_l_i64c(L, L->prog->address + in->offset + in->size));
        for (size_t tw = 0; tw < m->nwords; tw++) {
            if (!seen[tw])
                continue;
            LLVMValueRef eq = LLVMBuildICmp(L->b, LLVMIntEQ, v, wl_l_i64c(L, L->prog->address + tw * 4), "");
            LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(L->ctx, L->fn, "call.next");
            LLVMBuildCondBr(L->b, eq, block_at(L, m, tw), next);
            LLVMPositionBuilderAtEnd(L->b, next);
        }
        free(seen);
        LLVMValueRef eargs[3] = {wl_l_i32c(L, WL_ESC_INSTRUCTION), wl_l_i32c(L, (uint32_t)in->offset),
                                 LLVMConstInt(L->i1, 1, 0)};
        wl_l_call(L, "wl.escape", L->t_void, eargs, 3);
        LLVMBuildRetVoid(L->b);
        return WL_OK;
    }
    if (ncand == 0)
        return wl_l_refuse(L, swap ? "indirect call with a target unknown at translation"
                                   : "indirect jump with a target unknown at translation");
    if (so->kind != WL_OPND_SGPR || (swap && in->dst[0].kind != WL_OPND_SGPR))
        return wl_l_refuse(L, "operand not supported");
    LLVMValueRef v = wl_l_get_s64(L, so->index);
    if (swap)
        wl_l_set_s64(L, in->dst[0].index, wl_l_i64c(L, L->prog->address + in->offset + in->size));
    for (size_t i = 0; i < ncand; i++) {
        size_t tw = (i == 0 && m->jump[idx] >= 0) ? (size_t)m->jump[idx]
                                                  : m->rets[i - (m->jump[idx] >= 0)];
        LLVMValueRef eq = LLVMBuildICmp(L->b, LLVMIntEQ, v, wl_l_i64c(L, L->prog->address + tw * 4), "");
        LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(L->ctx, L->fn, "jump.next");
        LLVMBuildCondBr(L->b, eq, block_at(L, m, tw), next);
        LLVMPositionBuilderAtEnd(L->b, next);
    }
    LLVMValueRef args[3] = {wl_l_i32c(L, WL_ESC_INSTRUCTION), wl_l_i32c(L, (uint32_t)in->offset),
                            LLVMConstInt(L->i1, 1, 0)};
    wl_l_call(L, "wl.escape", L->t_void, args, 3);
    LLVMBuildRetVoid(L->b);
    return WL_OK;
}

/* One past the highest VGPR any discovered instruction names (a register
 * tuple counts whole) or the launch writes (the thread-id VGPRs). */
static unsigned vgpr_top(const wl_lift_program *p, const wl_prog_map *m)
{
    unsigned top = p->vgpr_workitem_ids ? p->vgpr_workitem_ids : 1;
    for (size_t i = 0; i < m->ninsts; i++) {
        const wl_inst *in = &m->insts[i];
        unsigned nd = in->ndst < WL_MAX_DST ? in->ndst : WL_MAX_DST;
        unsigned ns = in->nsrc < WL_MAX_SRC ? in->nsrc : WL_MAX_SRC;
        for (unsigned j = 0; j < nd + ns; j++) {
            const wl_operand *o = j < nd ? &in->dst[j] : &in->src[j - nd];
            unsigned end = o->index + (o->nregs ? o->nregs : 1u);
            if (o->kind == WL_OPND_VGPR && end > top)
                top = end;
        }
    }
    return top < 256 ? top : 256;
}

/* Step 4 for one instruction. */
static wl_status lift_one(wl_lifter *L, wl_prog_map *m, const wl_inst *in)
{
    size_t next = (size_t)(in->offset + in->size) / 4;
    switch (cf_kind(in)) {
    case CF_END:
        LLVMBuildRetVoid(L->b);
        return WL_OK;
    case CF_BRANCH:
        LLVMBuildBr(L->b, block_at(L, m, (size_t)branch_target(in) / 4));
        return WL_OK;
    case CF_CBRANCH:
        LLVMBuildCondBr(L->b, branch_cond(L, in->op), block_at(L, m, (size_t)branch_target(in) / 4),
                        block_at(L, m, next));
        return WL_OK;
    case CF_STOP:
        return wl_l_refuse(L, "control reaches the end of the code");
    case CF_SETPC:
    case CF_SWAPPC:
        return lift_jump(L, m, in);
    default:
        break;
    }
    if (in->format == WL_FMT_SOP1 && in->op == SOP1_GETPC) {
        /* The address of the next instruction. */
        const wl_operand *o = &in->dst[0];
        if (o->kind != WL_OPND_SGPR)
            return wl_l_refuse(L, "destination not supported");
        wl_l_set_s64(L, o->index, wl_l_i64c(L, L->prog->address + in->offset + in->size));
        return WL_OK;
    }
    switch (in->format) {
    case WL_FMT_SOP1: case WL_FMT_SOP2: case WL_FMT_SOPK: case WL_FMT_SOPC: case WL_FMT_SOPP:
        return wl_lift_salu(L, in);
    case WL_FMT_SMEM:
        return wl_lift_smem(L, in);
    case WL_FMT_VOP1: case WL_FMT_VOP2: case WL_FMT_VOPC: case WL_FMT_VOP3: case WL_FMT_VOP3P:
        return wl_lift_valu(L, in);
    case WL_FMT_DS: case WL_FMT_MUBUF: case WL_FMT_MTBUF: case WL_FMT_MIMG:
    case WL_FMT_FLAT: case WL_FMT_GLOBAL: case WL_FMT_SCRATCH:
        return wl_lift_mem(L, in);
    default:
        return wl_l_refuse(L, "unknown format");
    }
}

wl_status wl_lift(LLVMContextRef ctx, const wl_lift_program *p, LLVMModuleRef *out, char *err,
                  size_t errcap)
{
    return wl_lift_ex(ctx, p, 0, out, err, errcap);
}

wl_status wl_lift_ex(LLVMContextRef ctx, const wl_lift_program *p, unsigned flags, LLVMModuleRef *out, char *err,
                     size_t errcap)
{
    char ebuf[512];
    if (out)
        *out = NULL;
    if (err && errcap)
        err[0] = '\0';
    if (!ctx || !p || !out || !p->code)
        return seterr(err, errcap, WL_ERR_USAGE, "wl_lift: missing argument (%llu)", 0);
    if (p->wave_size != 32 && p->wave_size != 64)
        return seterr(err, errcap, WL_ERR_USAGE, "wave size %llu is not 32 or 64", p->wave_size);
    if ((unsigned)p->target >= WL_TARGET_COUNT)
        return seterr(err, errcap, WL_ERR_USAGE, "unknown target %llu", (unsigned)p->target);

    wl_prog_map m;
    memset(&m, 0, sizeof m);
    wl_status st = discover(p, &m, err, errcap);
    if (st == WL_OK)
        st = wl_lift_calls_plan(&m, p->entry / 4);
    if (!(flags & WL_LIFT_OUTLINE_CALLS))
        m.outline = 0;
    if (st != WL_OK) {
        map_free(&m);
        return st;
    }

    wl_lifter *L = calloc(1, sizeof *L);
    if (!L) {
        map_free(&m);
        return WL_ERR_NOMEM;
    }
    ebuf[0] = '\0';
    L->err = ebuf;
    L->errcap = sizeof ebuf;
    L->ctx = ctx;
    L->prog = p;
    L->wave = p->wave_size;
    L->vgpr_top = vgpr_top(p, &m);
    L->texel_call = wl_lift_img_texel_call(m.insts, m.ninsts);
    init_types(L);
    if (m.outline && !(L->cs_save = calloc(m.nctx, sizeof *L->cs_save))) {
        free(L);
        map_free(&m);
        return WL_ERR_NOMEM;
    }
    L->mod = LLVMModuleCreateWithNameInContext("wavelift", ctx);
    L->b = LLVMCreateBuilderInContext(ctx);
    L->fn = LLVMAddFunction(L->mod, WL_WIR_FUNCTION, LLVMFunctionType(L->t_void, NULL, 0, 0));
    L->entry = LLVMAppendBasicBlockInContext(ctx, L->fn, "entry");
    add_program_md(L, p);
    LLVMMetadataRef gi = LLVMValueAsMetadata(wl_l_i32c(L, (uint32_t)m.ninsts));
    LLVMAddNamedMetadataOperand(L->mod, WL_WIR_GUEST_MD, LLVMMetadataAsValue(ctx, LLVMMDNodeInContext2(ctx, &gi, 1)));

    LLVMPositionBuilderAtEnd(L->b, L->entry);
    st = launch_state(L, p, err, errcap);
    if (st == WL_OK) {
        LLVMBuildBr(L->b, block_at(L, &m, p->entry / 4));
        for (size_t wi = 0; m.cur < m.nctx && st == WL_OK; wi++) {
            if (wi == m.ctx[m.cur].nwords) {
                /* The next context: its first word is a leader, nothing
                 * falls into it (cannot happen after the plan; kept well
                 * formed). */
                if (!LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(L->b)))
                    LLVMBuildUnreachable(L->b);
                m.cur++;
                wi = (size_t)-1;
                continue;
            }
            size_t w = m.ctx[m.cur].words[wi];
            const wl_inst *in = &m.insts[m.at[w]];
            LLVMBasicBlockRef cur = LLVMGetInsertBlock(L->b);
            int terminated = LLVMGetBasicBlockTerminator(cur) != NULL;
            if (m.leader[w]) {
                LLVMBasicBlockRef bb = block_at(L, &m, w);
                if (!terminated)
                    LLVMBuildBr(L->b, bb);
                LLVMPositionBuilderAtEnd(L->b, bb);
            } else if (terminated) {
                /* Not reachable by discovery's rules; kept well formed. */
                LLVMPositionBuilderAtEnd(L->b, LLVMAppendBasicBlockInContext(ctx, L->fn, "dead"));
            }
            L->inst = in;
            int cf = cf_kind(in);
            st = wl_l_mode_step(L, m.leader[w], m.leader[w] && !terminated,
                                cf == CF_BRANCH || cf == CF_CBRANCH || cf == CF_SETPC || cf == CF_SWAPPC);
            if (st == WL_OK)
                st = lift_one(L, &m, in);
            if (st == WL_OK && ebuf[0])
                st = WL_ERR_UNSUPPORTED;
            if (st != WL_OK && !ebuf[0])
                wl_l_refuse(L, wl_status_name(st));
        }
        if (st == WL_OK) {
            /* The code after the last instruction: a block that did not end
             * (cannot happen after discovery; kept well formed). */
            LLVMBasicBlockRef cur = LLVMGetInsertBlock(L->b);
            if (!LLVMGetBasicBlockTerminator(cur))
                LLVMBuildUnreachable(L->b);
        }
        if (st != WL_OK && err && errcap)
            snprintf(err, errcap, "%s", ebuf);
    }
    LLVMDisposeBuilder(L->b);
    if (st == WL_OK && L->fma32_flushed && !L->fma32_other)
        LLVMAddNamedMetadataOperand(L->mod, WL_WIR_FMA_FTZ_MD, LLVMMetadataAsValue(ctx, LLVMMDNodeInContext2(ctx, NULL, 0)));
    if (st == WL_OK)
        *out = L->mod;
    else
        LLVMDisposeModule(L->mod);
    free(L->cs_save);
    free(L);
    map_free(&m);
    return st;
}

wl_status wl_lift_program_from_kernel(const wl_codeobj *co, const wl_kernel *k,
                                      wl_lift_program *p, char *err, size_t errcap)
{
    if (!co || !k || !p)
        return seterr(err, errcap, WL_ERR_USAGE, "wl_lift_program_from_kernel: missing argument (%llu)", 0);
    memset(p, 0, sizeof *p);
    if (co->target < 0 || co->target >= WL_TARGET_COUNT)
        return seterr(err, errcap, WL_ERR_UNSUPPORTED,
                      "code object target is not a gfx10 target (mach 0x%llx)", co->mach);
    if (k->code_offset > co->size || k->code_size > co->size - k->code_offset || k->code_size < 4)
        return seterr(err, errcap, WL_ERR_FORMAT, "kernel code (offset 0x%llx) is outside the file",
                      (unsigned long long)k->code_offset);
    /* printf writes through a buffer the launch hands over (the printf
     * buffer, or the hostcall buffer of code object v5) and the host reads
     * or serves during the dispatch: nothing here provides one. clang -O0
     * declares the hostcall buffer whether or not the kernel uses it, so a
     * buffer argument refuses only beside printf's own code. */
    static const char *const printf_fns[] = {"printf", "__printf_alloc", "__ockl_printf_begin",
                                             "__ockl_hostcall_internal", "__ockl_hostcall_preview"};
    int has_printf = 0;
    for (size_t i = 0; i < co->nfunctions && !has_printf; i++)
        for (size_t j = 0; j < sizeof printf_fns / sizeof printf_fns[0]; j++)
            has_printf |= co->functions[i].name && !strcmp(co->functions[i].name, printf_fns[j]);
    for (size_t i = 0; i < k->nargs; i++) {
        const char *vk = k->args[i].value_kind;
        if (vk && (!strcmp(vk, "hidden_printf_buffer") || (has_printf && !strcmp(vk, "hidden_hostcall_buffer"))))
            return seterr(err, errcap, WL_ERR_UNSUPPORTED,
                          "the kernel calls printf (argument %llu: its buffer): printf is not supported",
                          (unsigned long long)i);
    }
    const wl_kernel_launch_info *li = &k->launch;
    /* The whole .text, so that functions the kernel calls are reachable
     * wherever the linker put them (clang places callees before kernels). */
    if (co->text_offset <= k->code_offset && co->text_offset <= co->size &&
        co->text_size <= co->size - co->text_offset &&
        k->code_offset - co->text_offset < co->text_size) {
        p->code = co->data + co->text_offset;
        p->size = (size_t)co->text_size;
        p->entry = (size_t)(k->code_offset - co->text_offset);
        p->address = co->text_address;
    } else {
        p->code = co->data + k->code_offset;
        p->size = (size_t)k->code_size;
        p->entry = 0;
        p->address = k->code_address;
    }
    p->target = (wl_target)co->target;
    p->wave_size = li->wave32 ? 32 : 64;
    p->user_sgpr_count = li->user_sgpr_count;
    p->private_segment_buffer = li->user_sgpr_private_segment_buffer && li->user_sgpr_count >= 4;
    for (int d = 0; d < 3; d++)
        p->enable_workgroup_id[d] = li->enable_sgpr_workgroup_id[d];
    p->enable_workgroup_info = li->enable_sgpr_workgroup_info;
    p->enable_private_segment_wave_offset = li->enable_private_segment;
    p->vgpr_workitem_ids = li->enable_vgpr_workitem_id + 1;
    if (p->vgpr_workitem_ids > 3)
        p->vgpr_workitem_ids = 3;
    p->lds_bytes = k->kd.group_segment_fixed_size;
    p->scratch_bytes = k->kd.private_segment_fixed_size;
    p->float_mode_known = 1;
    p->float_round_mode_32 = li->float_round_mode_32;
    p->float_round_mode_16_64 = li->float_round_mode_16_64;
    p->float_denorm_mode_32 = li->float_denorm_mode_32;
    p->float_denorm_mode_16_64 = li->float_denorm_mode_16_64;
    p->dx10_clamp = li->dx10_clamp;
    p->ieee_mode = li->ieee_mode;
    return WL_OK;
}

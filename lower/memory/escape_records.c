/* The escape records (D950, docs/escapes.md): every escape of a translated
 * module is a note of its invocation, recorded once, at the kernel's one
 * return.
 *
 * Requires: wl_lc_finish after always-inline. Every escape site calls
 * @wl.esc.note(kind, off, act, lane) there (the body of memory.c's
 * @wl.h.escape: the loop budget's edges, the sub-word merge rounds, the
 * 64-bit LDS atomics' alignment, the lifter's escapes; the locks record
 * theirs at once, @wl.h.escape.now), and every access through the
 * mapping @wl.note (bad_note.c).
 *
 * Leaves: each active site a select into the invocation's note `code`
 * (i64, 0 for none), so that the invocation's first escape stays:
 *
 *   bits 0..7    kind (1..255)
 *   bits 8..29   the lane, or what is added to the launch lane p
 *   bit 30       the lane is p + bits 8..29 (lane clone j's p + j*S)
 *   bit 31       the lane is in the variable `lane` (any other lane: the
 *                wave model's lane loops, a helper kept as a function)
 *   bits 32..63  the guest offset
 *
 * The kind and the offset are constants at every site, so a site costs a
 * compare and one select (with a select of `lane` for the last form).
 * The kernel's returns become branches to one return; before it, where
 * the note or the bad-address note is set, a compare-and-swap of status
 * word 0 with the kind (the first escape of the dispatch wins) and the
 * winner's words 1..3 (offset, lane, group x) and, for an address, 4..5.
 * Where a site lies in a helper kept as a function (helper_calls.c),
 * every site notes into private globals reset at the kernel's entry, so
 * that the first stays first.
 *
 * Order within an invocation: its first escape in program order; its bad
 * address (bad_note.c) only where it noted no other escape (the order of
 * the earlier form, which recorded the other kinds at once and the
 * address at the returns). Between invocations: the device's order, as
 * before, now that of their returns. */
#include <stdlib.h>
#include <string.h>

#include "lower/context.h"

#define LANE_P (1u << 22)   /* in the lane field: p + the rest */
#define LANE_VAR (1u << 23) /* in the lane field: the variable `lane` */
#define LANE_ADD_MAX (LANE_P - 1)

typedef struct escs {
    wl_lower_ctx *L;
    LLVMValueRef p;          /* the launch lane, or NULL */
    LLVMValueRef code, lane; /* the note's variables, NULL until a site needs them */
    int globals;             /* the variables are private globals */
    int usep;                /* a site's lane is p + c */
} escs;

static LLVMValueRef load(wl_lower_ctx *L, LLVMTypeRef t, LLVMValueRef var)
{
    LLVMValueRef v = LLVMBuildLoad2(L->b, t, var, "");
    LLVMSetAlignment(v, t == L->i64 ? 8 : 4);
    return v;
}

static void store(wl_lower_ctx *L, LLVMValueRef v, LLVMValueRef var)
{
    LLVMSetAlignment(LLVMBuildStore(L->b, v, var), LLVMTypeOf(v) == L->i64 ? 8 : 4);
}

static LLVMValueRef var_of(escs *E, LLVMValueRef *var, LLVMTypeRef t, const char *name)
{
    if (!*var)
        *var = E->globals ? wl_lc_private_var(E->L, t, name) : wl_lc_entry_var(E->L, t, name);
    return *var;
}

/* the lane field of a site's lane (LANE_VAR where no other form fits) */
static uint32_t lane_field(const escs *E, LLVMValueRef lane)
{
    if (E->globals)
        return LANE_VAR;
    if (LLVMIsAConstantInt(lane)) {
        uint64_t v = LLVMConstIntGetZExtValue(lane);
        return v <= LANE_ADD_MAX ? (uint32_t)v : LANE_VAR;
    }
    if (!E->p)
        return LANE_VAR;
    if (lane == E->p)
        return LANE_P;
    if (!LLVMIsAInstruction(lane) || LLVMGetInstructionOpcode(lane) != LLVMAdd)
        return LANE_VAR;
    LLVMValueRef x = LLVMGetOperand(lane, 0), c = LLVMGetOperand(lane, 1);
    if (x != E->p) {
        c = x;
        x = LLVMGetOperand(lane, 1);
    }
    if (x != E->p || !LLVMIsAConstantInt(c) || LLVMConstIntGetZExtValue(c) > LANE_ADD_MAX)
        return LANE_VAR;
    return LANE_P | (uint32_t)LLVMConstIntGetZExtValue(c);
}

/* one @wl.esc.note call c: its select(s) before it */
static wl_status place(escs *E, LLVMValueRef c)
{
    wl_lower_ctx *L = E->L;
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(c));
    if (fn != L->fn && !wl_lc_is_outlined(fn))
        return WL_OK; /* a helper inlined everywhere: deleted by wl_lc_finish */
    LLVMValueRef kind = LLVMGetOperand(c, 0), off = LLVMGetOperand(c, 1), act = LLVMGetOperand(c, 2),
                 lane = LLVMGetOperand(c, 3);
    if (!LLVMIsAConstantInt(kind) || !LLVMIsAConstantInt(off) || LLVMConstIntGetZExtValue(kind) - 1 > 254)
        return wl_lc_fail(L, WL_ERR_INVALID, c,
                          "escape record: an escape's kind and offset must be constants, the kind 1..255");
    if (LLVMIsAConstantInt(act) && !LLVMConstIntGetZExtValue(act))
        return WL_OK; /* never active */
    uint32_t field = lane_field(E, lane);
    E->usep |= (field & LANE_P) != 0;
    uint64_t C = LLVMConstIntGetZExtValue(kind) | (uint64_t)field << 8 | LLVMConstIntGetZExtValue(off) << 32;
    LLVMValueRef code = var_of(E, &E->code, L->i64, "esc.code");
    LLVMValueRef lv = field & LANE_VAR ? var_of(E, &E->lane, L->i32, "esc.lane") : NULL;
    LLVMPositionBuilderBefore(L->b, c);
    LLVMValueRef old = load(L, L->i64, code);
    LLVMValueRef take = LLVMBuildICmp(L->b, LLVMIntEQ, old, LLVMConstInt(L->i64, 0, 0), "esc.first");
    if (!LLVMIsAConstantInt(act))
        take = LLVMBuildAnd(L->b, take, act, "");
    store(L, LLVMBuildSelect(L->b, take, LLVMConstInt(L->i64, C, 0), old, ""), code);
    if (lv)
        store(L, LLVMBuildSelect(L->b, take, lane, load(L, L->i32, lv), ""), lv);
    return WL_OK;
}

/* The kernel's returns made one (void returns only); NULL where it has none */
static wl_status one_return(wl_lower_ctx *L, LLVMValueRef *ret)
{
    *ret = NULL;
    size_t n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(L->fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        if (t && LLVMGetInstructionOpcode(t) == LLVMRet) {
            if (LLVMGetNumOperands(t))
                return wl_lc_fail(L, WL_ERR_INVALID, t, "escape record: the kernel returns a value");
            n++;
            *ret = t;
        }
    }
    if (n < 2)
        return WL_OK;
    LLVMValueRef *r = malloc(n * sizeof *r);
    if (!r)
        return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
    n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(L->fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        if (t && LLVMGetInstructionOpcode(t) == LLVMRet)
            r[n++] = t;
    }
    LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(L->ctx, L->fn, "wl.exit");
    LLVMPositionBuilderAtEnd(L->b, exit);
    *ret = LLVMBuildRetVoid(L->b);
    for (size_t i = 0; i < n; i++) {
        LLVMPositionBuilderBefore(L->b, r[i]);
        LLVMBuildBr(L->b, exit);
        LLVMInstructionEraseFromParent(r[i]);
    }
    free(r);
    return WL_OK;
}

/* the values a record reads: the note, its lane variable, the bad-address
 * note (lane + 1 and offset) */
typedef struct notev {
    LLVMValueRef code, lv, lane1, boff;
} notev;

/* at the builder: the invocation's notes */
static notev read_notes(escs *E, wl_lc_bad *bad)
{
    wl_lower_ctx *L = E->L;
    notev v = {E->code ? load(L, L->i64, E->code) : LLVMConstInt(L->i64, 0, 0),
               E->lane ? load(L, L->i32, E->lane) : NULL, NULL, NULL};
    if (bad)
        wl_lc_bad_read(bad, &v.lane1, &v.boff);
    return v;
}

/* before `ret` (of the kernel or of the record function): the escape of
 * the notes v, if any, into @wl.status; p the launch lane where a site's
 * lane is p + c */
static void record(escs *E, const notev *v, LLVMValueRef ret, LLVMValueRef status, LLVMValueRef p)
{
    wl_lower_ctx *L = E->L;
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(ret));
    LLVMValueRef z32 = LLVMConstInt(L->i32, 0, 0), z64 = LLVMConstInt(L->i64, 0, 0);
    LLVMPositionBuilderBefore(L->b, ret);
    LLVMValueRef code = v->code, lv = v->lv, lane1 = v->lane1, boff = v->boff;
    LLVMValueRef has = E->code ? LLVMBuildICmp(L->b, LLVMIntNE, code, z64, "esc.has") : NULL;
    LLVMValueRef kind = LLVMBuildAnd(L->b, LLVMBuildTrunc(L->b, code, L->i32, ""), LLVMConstInt(L->i32, 255, 0), "");
    LLVMValueRef any = has;
    if (lane1) { /* where no other escape is noted: the bad address */
        LLVMValueRef bhas = LLVMBuildICmp(L->b, LLVMIntNE, lane1, z32, "");
        LLVMValueRef ka = LLVMConstInt(L->i32, WL_ESC_ADDRESS, 0);
        kind = has ? LLVMBuildSelect(L->b, has, kind, ka, "") : ka;
        any = has ? LLVMBuildOr(L->b, has, bhas, "") : bhas;
    }
    LLVMBasicBlockRef rec = LLVMAppendBasicBlockInContext(L->ctx, fn, "esc.record");
    LLVMBasicBlockRef won = LLVMAppendBasicBlockInContext(L->ctx, fn, "esc.won");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(L->ctx, fn, "esc.done");
    LLVMBuildCondBr(L->b, any, rec, done);
    LLVMInstructionRemoveFromParent(ret);
    LLVMPositionBuilderAtEnd(L->b, done);
    LLVMInsertIntoBuilder(L->b, ret);

    LLVMPositionBuilderAtEnd(L->b, rec);
    LLVMValueRef x = LLVMBuildAtomicCmpXchg(L->b, status, z32, kind, LLVMAtomicOrderingMonotonic,
                                           LLVMAtomicOrderingMonotonic, 0);
    LLVMBuildCondBr(L->b, LLVMBuildExtractValue(L->b, x, 1, ""), won, done);

    LLVMPositionBuilderAtEnd(L->b, won);
    LLVMValueRef off = LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, code, LLVMConstInt(L->i64, 32, 0), ""), L->i32, "");
    LLVMValueRef f = LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, code, LLVMConstInt(L->i64, 8, 0), ""), L->i32, "");
    LLVMValueRef lane = LLVMBuildAnd(L->b, f, LLVMConstInt(L->i32, LANE_ADD_MAX, 0), "");
    if (E->usep) {
        LLVMValueRef fp = LLVMBuildICmp(L->b, LLVMIntNE, LLVMBuildAnd(L->b, f, LLVMConstInt(L->i32, LANE_P, 0), ""),
                                        z32, "");
        lane = LLVMBuildAdd(L->b, lane, LLVMBuildSelect(L->b, fp, p, z32, ""), "");
    }
    if (lv) {
        LLVMValueRef fv = LLVMBuildICmp(L->b, LLVMIntNE,
                                        LLVMBuildAnd(L->b, f, LLVMConstInt(L->i32, LANE_VAR, 0), ""), z32, "");
        lane = LLVMBuildSelect(L->b, fv, lv, lane, "");
    }
    LLVMValueRef a = NULL;
    if (lane1) {
        LLVMValueRef bl = LLVMBuildSub(L->b, lane1, LLVMConstInt(L->i32, 1, 0), "");
        a = wl_lc_bad_address(L, boff);
        if (has) {
            lane = LLVMBuildSelect(L->b, has, lane, bl, "");
            a = LLVMBuildSelect(L->b, has, z64, a, "");
        } else {
            lane = bl;
        }
    }
    /* words 1..5: the offset where an escape other than an address can be
     * noted, the lane, the group, the address (0 where another escape is
     * recorded, as the zeroed buffer holds) */
    LLVMValueRef vals[5] = {E->code ? off : NULL, lane, wl_lc_call(L, "spv.workgroup_id", L->i32, &z32, 1), NULL, NULL};
    if (a) {
        vals[3] = LLVMBuildTrunc(L->b, a, L->i32, "");
        vals[4] = LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, a, LLVMConstInt(L->i64, 32, 0), ""), L->i32, "");
    }
    for (unsigned w = 0; w < 5; w++) {
        if (!vals[w])
            continue;
        LLVMValueRef o = LLVMConstInt(L->i32, 4 + 4 * w, 0);
        LLVMSetAlignment(LLVMBuildStore(L->b, vals[w], LLVMBuildGEP2(L->b, L->i8, status, &o, 1, "")), 4);
    }
    LLVMBuildBr(L->b, done);
}

wl_status wl_lc_record_escapes(wl_lower_ctx *L)
{
    escs E;
    memset(&E, 0, sizeof E);
    E.L = L;
    E.p = wl_lc_launch_lane(L);
    wl_lc_bad *bad = NULL;
    wl_status st = wl_lc_bad_place(L, &bad);
    if (st)
        return st;
    LLVMValueRef f = LLVMGetNamedFunction(L->m, "wl.esc.note");
    size_t n = 0;
    for (LLVMUseRef u = f ? LLVMGetFirstUse(f) : NULL; u; u = LLVMGetNextUse(u))
        n++;
    LLVMValueRef *calls = malloc((n ? n : 1) * sizeof *calls);
    if (!calls) {
        wl_lc_bad_free(bad);
        return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
    }
    n = 0;
    for (LLVMUseRef u = f ? LLVMGetFirstUse(f) : NULL; u; u = LLVMGetNextUse(u)) {
        LLVMValueRef c = LLVMGetUser(u);
        if (!LLVMIsACallInst(c) || LLVMGetCalledValue(c) != f || LLVMGetNumOperands(c) != 5) {
            free(calls);
            wl_lc_bad_free(bad);
            return wl_lc_fail(L, WL_ERR_INVALID, NULL, "escape record: @wl.esc.note is used other than by a call");
        }
        calls[n++] = c;
        if (wl_lc_is_outlined(LLVMGetBasicBlockParent(LLVMGetInstructionParent(c))))
            E.globals = 1; /* a site in a helper kept as a function: all note into globals */
    }
    for (size_t i = 0; i < n && !st; i++)
        st = place(&E, calls[i]);
    for (size_t i = 0; i < n; i++)
        LLVMInstructionEraseFromParent(calls[i]);
    free(calls);
    if (f)
        LLVMDeleteFunction(f);
    if (!st && E.globals && E.code) { /* the helpers' notes start at 0 in every invocation */
        LLVMPositionBuilderBefore(L->b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(L->fn)));
        store(L, LLVMConstInt(L->i64, 0, 0), E.code);
        if (E.lane)
            store(L, LLVMConstInt(L->i32, 0, 0), E.lane);
    }
    LLVMValueRef status = LLVMGetNamedGlobal(L->m, "wl.status"), ret = NULL;
    if (!st && (E.code || bad) && !status) { /* the helpers' declaration, linked only where used */
        status = LLVMAddGlobalInAddressSpace(L->m, LLVMArrayType2(L->i32, 0), "wl.status", 4);
        LLVMSetLinkage(status, LLVMExternalLinkage);
    }
    if (!st && (E.code || bad)) {
        st = one_return(L, &ret);
    }
    if (!st && ret) { /* none: the kernel never returns, nothing to record */
        LLVMPositionBuilderBefore(L->b, ret);
        notev v = read_notes(&E, bad);
        record(&E, &v, ret, status, E.p);
    }
    wl_lc_bad_free(bad);
    return st;
}

/* The bad-address notes of the guest mapping (docs/escapes.md;
 * lower/memory/helpers/map.ll). Every access through the mapping calls @wl.note(keep, off,
 * lane): keep is false where an active access lies outside the mapping,
 * off = a48 - G (never 0 there; the paged mapping, map.ll @wl.h.gmap.pages: a48 with
 * bit 48 set), lane the guest lane. After inlining
 * (wl_lc_finish) each call becomes one select into a variable:
 *
 *   - in the kernel, where the lane is the launch's p + j*S (lane clone j
 *     of the lanes model) or a constant (scalar loads name lane 0): that
 *     lane's own offset, so the lane is not noted per access (it is known
 *     at the end);
 *   - elsewhere in the kernel (the wave model's lane loops): one offset
 *     and one lane + 1 (two selects);
 *   - in a helper kept as a function (helper_calls.c): that pair as
 *     private globals, reset at the kernel's entry.
 *
 * The kernel's variables are allocas of the entry block (the host
 * pipeline's mem2reg makes each a chain of selects), 0 for "none". At the
 * kernel's return a non-zero note is the invocation's bad address:
 * memory/escape_records.c records it (WL_ESC_ADDRESS, the lane, the group and the
 * address a48 = off + G: bits 47:0 of the address, the bits the hardware
 * uses) where the invocation noted no other escape. */
#include <stdlib.h>
#include <string.h>

#include "lower/context.h"

#define WL_NOTE_SLOTS 64

/* a lane known at every return: lane + 1 = (fromp ? p : 0) + add */
typedef struct slot {
    LLVMValueRef var; /* its i64 offset */
    uint64_t add;
    int fromp;
} slot;

struct wl_lc_bad {
    wl_lower_ctx *L;
    LLVMValueRef p; /* the launch's lane (lanes model), or NULL */
    slot slots[WL_NOTE_SLOTS];
    unsigned nslots;
    LLVMValueRef off, lane1;            /* the kernel's pair */
    LLVMValueRef goff, glane1;          /* the helpers' pair (globals) */
};
typedef struct wl_lc_bad notes;

/* L->p where it is the lanes model's spv.subgroup_local_invocation_id of
 * the entry block (it dominates every return), else NULL */
LLVMValueRef wl_lc_launch_lane(wl_lower_ctx *L)
{
    static const char want[] = "spv.subgroup_local_invocation_id";
    LLVMValueRef p = L->p;
    if (!p || !LLVMIsACallInst(p) || LLVMGetInstructionParent(p) != LLVMGetEntryBasicBlock(L->fn))
        return NULL;
    size_t n = 0;
    const char *nm = wl_lc_callee(p, &n);
    return nm && n == sizeof want - 1 && !memcmp(nm, want, n) ? p : NULL;
}


/* the slot of a lane that is p + j*S (memory.c passes lane clone j's lane
 * so) or a constant (scalar accesses), found or added; NULL for another
 * lane or when the slots are full */
static slot *slot_of(notes *N, LLVMValueRef lane)
{
    wl_lower_ctx *L = N->L;
    slot want = {NULL, 0, 1};
    if (LLVMIsAConstantInt(lane)) {
        want.fromp = 0;
        want.add = (LLVMConstIntGetZExtValue(lane) + 1) & 0xffffffffu;
        if (!want.add)
            return NULL; /* lane + 1 must not be 0 */
    } else if (!N->p) {
        return NULL;
    } else if (lane == N->p) {
        want.add = 1;
    } else {
        if (!LLVMIsAInstruction(lane) || LLVMGetInstructionOpcode(lane) != LLVMAdd)
            return NULL;
        LLVMValueRef x = LLVMGetOperand(lane, 0), c = LLVMGetOperand(lane, 1);
        if (x != N->p) {
            c = x;
            x = LLVMGetOperand(lane, 1);
        }
        if (x != N->p || !LLVMIsAConstantInt(c))
            return NULL;
        uint64_t v = LLVMConstIntGetZExtValue(c);
        if (v % L->S || v / L->S >= L->k) /* p < S: p + v + 1 is not 0 */
            return NULL;
        want.add = v + 1;
    }
    for (unsigned i = 0; i < N->nslots; i++)
        if (N->slots[i].fromp == want.fromp && N->slots[i].add == want.add)
            return &N->slots[i];
    if (N->nslots == WL_NOTE_SLOTS)
        return NULL;
    want.var = wl_lc_entry_var(L, L->i64, "bad.off.lane");
    N->slots[N->nslots] = want;
    return &N->slots[N->nslots++];
}

static unsigned align_of(wl_lower_ctx *L, LLVMTypeRef t) { return t == L->i64 ? 8 : 4; }

LLVMValueRef wl_lc_entry_var(wl_lower_ctx *L, LLVMTypeRef t, const char *name)
{
    LLVMPositionBuilderBefore(L->b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(L->fn)));
    LLVMValueRef a = LLVMBuildAlloca(L->b, t, name);
    LLVMSetAlignment(a, align_of(L, t));
    LLVMSetAlignment(LLVMBuildStore(L->b, LLVMConstInt(t, 0, 0), a), align_of(L, t));
    return a;
}

LLVMValueRef wl_lc_private_var(wl_lower_ctx *L, LLVMTypeRef t, const char *name)
{
    LLVMValueRef g = LLVMAddGlobal(L->m, t, name);
    LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMSetInitializer(g, LLVMConstInt(t, 0, 0));
    LLVMSetAlignment(g, align_of(L, t));
    return g;
}

static LLVMValueRef load(wl_lower_ctx *L, LLVMTypeRef t, LLVMValueRef var)
{
    LLVMValueRef v = LLVMBuildLoad2(L->b, t, var, "");
    LLVMSetAlignment(v, align_of(L, t));
    return v;
}

/* at the builder: var = keep ? var : v */
static void note(wl_lower_ctx *L, LLVMTypeRef t, LLVMValueRef var, LLVMValueRef keep, LLVMValueRef v)
{
    LLVMValueRef s = LLVMBuildSelect(L->b, keep, load(L, t, var), v, "");
    LLVMSetAlignment(LLVMBuildStore(L->b, s, var), align_of(L, t));
}

/* one @wl.note call c: its select(s) in place of it */
static void place(notes *N, LLVMValueRef c)
{
    wl_lower_ctx *L = N->L;
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(c));
    LLVMValueRef keep = LLVMGetOperand(c, 0), off = LLVMGetOperand(c, 1), lane = LLVMGetOperand(c, 2);
    LLVMValueRef *vo = NULL, *vl = NULL;
    if (fn == L->fn) {
        slot *s = slot_of(N, lane);
        if (s) {
            LLVMPositionBuilderBefore(L->b, c);
            note(L, L->i64, s->var, keep, off);
            return;
        }
        if (!N->off) {
            N->off = wl_lc_entry_var(L, L->i64, "bad.off");
            N->lane1 = wl_lc_entry_var(L, L->i32, "bad.lane");
        }
        vo = &N->off;
        vl = &N->lane1;
    } else if (wl_lc_is_outlined(fn)) {
        if (!N->goff) {
            N->goff = wl_lc_private_var(L, L->i64, "wl.bad.off");
            N->glane1 = wl_lc_private_var(L, L->i32, "wl.bad.lane");
        }
        vo = &N->goff;
        vl = &N->glane1;
    } else {
        return; /* a helper inlined everywhere: deleted by wl_lc_finish */
    }
    LLVMPositionBuilderBefore(L->b, c);
    note(L, L->i64, *vo, keep, off);
    note(L, L->i32, *vl, keep, LLVMBuildAdd(L->b, lane, LLVMConstInt(L->i32, 1, 0), ""));
}

void wl_lc_bad_read(wl_lc_bad *N, LLVMValueRef *lane1_out, LLVMValueRef *off_out)
{
    wl_lower_ctx *L = N->L;
    LLVMValueRef z32 = LLVMConstInt(L->i32, 0, 0);
    LLVMValueRef lane1 = N->lane1 ? load(L, L->i32, N->lane1) : z32;
    LLVMValueRef off = N->off ? load(L, L->i64, N->off) : LLVMConstInt(L->i64, 0, 0);
    if (N->glane1) {
        LLVMValueRef gl = load(L, L->i32, N->glane1), go = load(L, L->i64, N->goff);
        LLVMValueRef own = LLVMBuildICmp(L->b, LLVMIntNE, lane1, z32, "");
        lane1 = LLVMBuildSelect(L->b, own, lane1, gl, "");
        off = LLVMBuildSelect(L->b, own, off, go, "");
    }
    for (unsigned i = 0; i < N->nslots; i++) {
        const slot *s = &N->slots[i];
        LLVMValueRef nj = load(L, L->i64, s->var);
        LLVMValueRef c = LLVMBuildICmp(L->b, LLVMIntNE, nj, LLVMConstInt(L->i64, 0, 0), "");
        LLVMValueRef lj = LLVMConstInt(L->i32, s->add, 0);
        if (s->fromp)
            lj = LLVMBuildAdd(L->b, N->p, lj, "");
        lane1 = LLVMBuildSelect(L->b, c, lj, lane1, "");
        off = LLVMBuildSelect(L->b, c, nj, off, "");
    }
    *lane1_out = lane1;
    *off_out = off;
}

LLVMValueRef wl_lc_bad_address(wl_lower_ctx *L, LLVMValueRef off)
{
    if (L->mapping_pages) /* map.ll, the paged mapping: off is a48 with bit 48 set */
        return LLVMBuildAnd(L->b, off, LLVMConstInt(L->i64, (1ull << 48) - 1, 0), "");
    LLVMValueRef push = LLVMGetNamedGlobal(L->m, "wl.push");
    LLVMValueRef go = LLVMConstInt(L->i64, WL_PUSH_MAP_OFFSET, 0);
    LLVMValueRef g = LLVMBuildLoad2(L->b, L->i64, LLVMBuildInBoundsGEP2(L->b, L->i8, push, &go, 1, ""), "");
    LLVMSetAlignment(g, 4);
    /* as gmap's loads: LLVM reuses G where one of them dominates */
    LLVMSetMetadata(g, LLVMGetMDKindIDInContext(L->ctx, "invariant.load", 14),
                    LLVMMetadataAsValue(L->ctx, LLVMMDNodeInContext2(L->ctx, NULL, 0)));
    return LLVMBuildAdd(L->b, off, g, "");
}

wl_status wl_lc_bad_place(wl_lower_ctx *L, wl_lc_bad **out)
{
    *out = NULL;
    LLVMValueRef f = LLVMGetNamedFunction(L->m, "wl.note");
    if (!f)
        return WL_OK;
    size_t n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u))
        n++;
    LLVMValueRef *calls = malloc((n ? n : 1) * sizeof *calls);
    notes *N = calloc(1, sizeof *N);
    if (!calls || !N) {
        free(calls);
        free(N);
        return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
    }
    n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef c = LLVMGetUser(u);
        if (!LLVMIsACallInst(c) || LLVMGetCalledValue(c) != f || LLVMGetNumOperands(c) != 4) {
            free(calls);
            free(N);
            return wl_lc_fail(L, WL_ERR_INVALID, NULL, "lanes model: @wl.note is used other than by a call");
        }
        calls[n++] = c;
    }
    N->L = L;
    N->p = wl_lc_launch_lane(L);
    for (size_t i = 0; i < n; i++) {
        place(N, calls[i]);
        LLVMInstructionEraseFromParent(calls[i]);
    }
    free(calls);
    LLVMDeleteFunction(f);
    if (!N->off && !N->goff && !N->nslots) {
        free(N);
        return WL_OK;
    }
    if (!L->mapping_pages && !LLVMGetNamedGlobal(L->m, "wl.push")) {
        free(N);
        return wl_lc_fail(L, WL_ERR_INVALID, NULL, "lanes model: the bad-address record needs @wl.push");
    }
    if (N->goff) { /* the helpers' notes start at 0 in every invocation */
        LLVMPositionBuilderBefore(L->b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(L->fn)));
        LLVMSetAlignment(LLVMBuildStore(L->b, LLVMConstInt(L->i64, 0, 0), N->goff), 8);
        LLVMSetAlignment(LLVMBuildStore(L->b, LLVMConstInt(L->i32, 0, 0), N->glane1), 4);
    }
    *out = N;
    return WL_OK;
}

void wl_lc_bad_free(wl_lc_bad *N) { free(N); }

/* The push constants as a struct of the scalars the module reads
 * (docs/backend.md "Push constants"). @wl.push is an array of 32-bit words;
 * as a word-memory object (memory.c) a 64-bit load from it is two unit
 * loads, a composite and a bitcast (27 words). Where every load of @wl.push
 * is a scalar load at a constant offset, the block is instead a struct with
 * one member per word read and one u64 member per 8-aligned 64-bit value
 * read only whole (an access chain and a load: 9 words). Words never read
 * have no member (the members' Offset decorations leave them out); a
 * 64-bit value at an offset that is not 8-aligned, or whose words are also
 * read alone, stays two u32 members. Where no u64 member results, memory.c
 * keeps the array. */
#include <string.h>

#include "be.h"

#define PUSH_MAX_WORDS 64

typedef struct playout {
    uint8_t word32[PUSH_MAX_WORDS]; /* the word is read as (part of) a u32 */
    uint8_t whole64[PUSH_MAX_WORDS / 2]; /* the 8-aligned slot is read as a 64-bit value */
    unsigned nw;
    int ok;
} playout;

static void note_load(wl_em *e, playout *P, LLVMValueRef ld, uint64_t off)
{
    LLVMTypeRef t = LLVMTypeOf(ld);
    unsigned bits = wl_scalar_bits(t);
    if (wl_vec_len(t) || !bits || bits > 64 || LLVMGetOrdering(ld) != LLVMAtomicOrderingNotAtomic ||
        LLVMGetVolatile(ld)) {
        P->ok = 0;
        return;
    }
    uint64_t size = bits < 8 ? 1 : bits / 8;
    if (off + size > 4ull * P->nw) {
        P->ok = 0;
        return;
    }
    (void)e;
    if (size == 8 && off % 8 == 0) {
        P->whole64[off / 8] = 1;
        return;
    }
    if (off % (size < 4 ? size : 4)) { /* below its natural alignment: memory.c's word path refuses it */
        P->ok = 0;
        return;
    }
    for (uint64_t w = off / 4; w <= (off + size - 1) / 4; w++)
        P->word32[w] = 1;
}

/* the loads of v (the global or a constant GEP of it), recursively */
static void visit(wl_em *e, playout *P, LLVMValueRef v, int depth)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u && P->ok; u = LLVMGetNextUse(u)) {
        LLVMValueRef U = LLVMGetUser(u);
        uint64_t off = 0;
        if (LLVMIsALoadInst(U) && LLVMGetOperand(U, 0) == v && wl_mem_const_offset(e, v, &off)) {
            note_load(e, P, U, off);
        } else if (depth < 8 && LLVMIsAConstantExpr(U) && LLVMGetConstOpcode(U) == LLVMGetElementPtr &&
                   LLVMGetOperand(U, 0) == v) {
            visit(e, P, U, depth + 1);
        } else {
            P->ok = 0;
        }
    }
}

int wl_push_struct(wl_em *e, wl_mobj *m, LLVMValueRef g, uint64_t bytes, uint32_t sc)
{
    playout P;
    memset(&P, 0, sizeof P);
    if (bytes % 8 || bytes / 4 > PUSH_MAX_WORDS)
        return 0;
    P.nw = (unsigned)(bytes / 4);
    P.ok = 1;
    visit(e, &P, g, 0);
    if (!P.ok)
        return 0;
    unsigned n64 = 0;
    for (unsigned s = 0; s < P.nw / 2; s++) {
        if (!P.whole64[s])
            continue;
        if (P.word32[2 * s] || P.word32[2 * s + 1]) { /* read in parts too: two u32 members */
            P.whole64[s] = 0;
            P.word32[2 * s] = P.word32[2 * s + 1] = 1;
        } else {
            n64++;
        }
    }
    if (!n64)
        return 0;
    uint32_t u32 = wl_ty_int(e, 32), u64 = wl_ty_int(e, 64);
    uint32_t types[PUSH_MAX_WORDS], offs[PUSH_MAX_WORDS];
    unsigned nm = 0;
    memset(m->pmember, 0xff, sizeof m->pmember);
    memset(m->pkind, 0, sizeof m->pkind);
    for (unsigned w = 0; w < P.nw; w++) {
        if (w % 2 == 0 && P.whole64[w / 2]) {
            m->pmember[w] = (uint8_t)nm;
            m->pkind[w] = 8;
            types[nm] = u64;
            offs[nm++] = 4 * w;
            w++;
        } else if (P.word32[w]) {
            m->pmember[w] = (uint8_t)nm;
            m->pkind[w] = 4;
            types[nm] = u32;
            offs[nm++] = 4 * w;
        }
    }
    uint32_t st = wl_id(e);
    wl_wb_push(e, &e->types, ((uint32_t)(nm + 2) << 16) | SpvOpTypeStruct);
    wl_wb_push(e, &e->types, st);
    for (unsigned i = 0; i < nm; i++)
        wl_wb_push(e, &e->types, types[i]);
    INS(e, &e->decor, SpvOpDecorate, st, SpvDecBlock);
    for (unsigned i = 0; i < nm; i++)
        INS(e, &e->decor, SpvOpMemberDecorate, st, i, SpvDecOffset, offs[i]);
    uint32_t pt = wl_id(e);
    INS(e, &e->types, SpvOpTypePointer, pt, sc, st);
    m->sc = sc;
    m->unit = 4;
    m->block = 1;
    m->nunits = P.nw;
    m->pstruct = 1;
    m->uptr = wl_ty_ptr(e, sc, u32);
    m->ptr64 = wl_ty_ptr(e, sc, u64);
    m->var = wl_id(e);
    INS(e, &e->types, SpvOpVariable, pt, m->var, sc);
    return 1;
}

uint32_t wl_push_load(wl_em *e, LLVMValueRef inst, wl_mobj *m, uint32_t off, LLVMTypeRef t)
{
    uint32_t ty = wl_ty_llvm(e, t), u32 = wl_ty_int(e, 32);
    unsigned bits = wl_scalar_bits(t);
    uint32_t size = bits < 8 ? 1 : bits / 8, w = off / 4;
    if (!ty || !bits || wl_vec_len(t) || off + size > 4 * m->nunits)
        return wl_refuse(e, inst, "push-constant load outside the profile");
    if (size == 8 && off % 8 == 0 && m->pkind[w] == 8) {
        uint32_t x = OP(e, SpvOpLoad, wl_ty_int(e, 64),
                        OP(e, SpvOpAccessChain, m->ptr64, m->var, wl_c_u32(e, m->pmember[w])));
        return ty == wl_ty_int(e, 64) ? x : OP(e, SpvOpBitcast, ty, x);
    }
    uint32_t parts[2];
    unsigned np = size == 8 ? 2 : 1;
    for (unsigned i = 0; i < np; i++) {
        if (m->pkind[w + i] != 4)
            return wl_refuse(e, inst, "push-constant load the layout does not hold");
        parts[i] = OP(e, SpvOpLoad, u32, OP(e, SpvOpAccessChain, m->uptr, m->var, wl_c_u32(e, m->pmember[w + i])));
    }
    if (size == 8)
        return OP(e, SpvOpBitcast, ty, OP(e, SpvOpCompositeConstruct, wl_ty_vec(e, u32, 2), parts[0], parts[1]));
    if (size == 4)
        return ty == u32 ? parts[0] : OP(e, SpvOpBitcast, ty, parts[0]);
    uint32_t it = wl_ty_int(e, size * 8);
    uint32_t x = OP(e, SpvOpShiftRightLogical, u32, parts[0], wl_c_u32(e, 8 * (off % 4)));
    x = OP(e, SpvOpUConvert, it, x);
    if (bits == 1)
        return OP(e, SpvOpINotEqual, ty, x, wl_c_int(e, 8, 0));
    return ty == it ? x : OP(e, SpvOpBitcast, ty, x);
}

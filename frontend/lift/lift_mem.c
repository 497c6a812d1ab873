/* The memory family of the lifter: dispatch by format, and the helpers the
 * per-format files share (lift_mem_internal.h). */
#include "lift_mem_internal.h"
#include "ir/wave_ir.h"

#include <stdio.h>
#include <string.h>

wl_status wl_lift_mem(wl_lifter *L, const wl_inst *in)
{
    switch (in->format) {
    case WL_FMT_DS:
        return wl_lift_mem_ds(L, in);
    case WL_FMT_FLAT:
    case WL_FMT_GLOBAL:
    case WL_FMT_SCRATCH:
        return wl_lift_mem_flat(L, in);
    case WL_FMT_MUBUF:
    case WL_FMT_MTBUF:
        return wl_lift_mem_buf(L, in);
    case WL_FMT_MIMG:
        return wl_lift_mem_img(L, in);
    default:
        return wl_l_refuse(L, "not a memory instruction");
    }
}

/* Suffix tables. d16: 1 low half, 2 high half. */
struct xfer_name {
    const char *name;
    wl_xfer x;
};

static const struct xfer_name load_names[] = {
    /* FLAT, GLOBAL, SCRATCH, MUBUF */
    {"ubyte", {8, 1, 0, 0}}, {"sbyte", {8, 1, 1, 0}},
    {"ushort", {16, 1, 0, 0}}, {"sshort", {16, 1, 1, 0}},
    {"dword", {32, 1, 0, 0}}, {"dwordx2", {32, 2, 0, 0}},
    {"dwordx3", {32, 3, 0, 0}}, {"dwordx4", {32, 4, 0, 0}},
    {"ubyte_d16", {8, 1, 0, 1}}, {"ubyte_d16_hi", {8, 1, 0, 2}},
    {"sbyte_d16", {8, 1, 1, 1}}, {"sbyte_d16_hi", {8, 1, 1, 2}},
    {"short_d16", {16, 1, 0, 1}}, {"short_d16_hi", {16, 1, 0, 2}},
    /* DS */
    {"u8", {8, 1, 0, 0}}, {"i8", {8, 1, 1, 0}},
    {"u16", {16, 1, 0, 0}}, {"i16", {16, 1, 1, 0}},
    {"b32", {32, 1, 0, 0}}, {"b64", {32, 2, 0, 0}},
    {"b96", {32, 3, 0, 0}}, {"b128", {32, 4, 0, 0}},
    {"u8_d16", {8, 1, 0, 1}}, {"u8_d16_hi", {8, 1, 0, 2}},
    {"i8_d16", {8, 1, 1, 1}}, {"i8_d16_hi", {8, 1, 1, 2}},
    {"u16_d16", {16, 1, 0, 1}}, {"u16_d16_hi", {16, 1, 0, 2}},
};

static const struct xfer_name store_names[] = {
    {"byte", {8, 1, 0, 0}}, {"byte_d16_hi", {8, 1, 0, 2}},
    {"short", {16, 1, 0, 0}}, {"short_d16_hi", {16, 1, 0, 2}},
    {"dword", {32, 1, 0, 0}}, {"dwordx2", {32, 2, 0, 0}},
    {"dwordx3", {32, 3, 0, 0}}, {"dwordx4", {32, 4, 0, 0}},
    {"b8", {8, 1, 0, 0}}, {"b8_d16_hi", {8, 1, 0, 2}},
    {"b16", {16, 1, 0, 0}}, {"b16_d16_hi", {16, 1, 0, 2}},
    {"b32", {32, 1, 0, 0}}, {"b64", {32, 2, 0, 0}},
    {"b96", {32, 3, 0, 0}}, {"b128", {32, 4, 0, 0}},
};

static bool find_xfer(const struct xfer_name *t, size_t n, const char *s, wl_xfer *x)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(t[i].name, s) == 0) {
            *x = t[i].x;
            return true;
        }
    }
    return false;
}

bool wl_lm_load_suffix(const char *s, wl_xfer *x)
{
    return find_xfer(load_names, sizeof load_names / sizeof load_names[0], s, x);
}

bool wl_lm_store_suffix(const char *s, wl_xfer *x)
{
    return find_xfer(store_names, sizeof store_names / sizeof store_names[0], s, x);
}

static const char *const atop_names[] = {
    [WL_AT_NONE] = NULL, [WL_AT_SWAP] = "swap", [WL_AT_ADD] = "add", [WL_AT_SUB] = "sub",
    [WL_AT_SMIN] = "smin", [WL_AT_UMIN] = "umin", [WL_AT_SMAX] = "smax", [WL_AT_UMAX] = "umax",
    [WL_AT_AND] = "and", [WL_AT_OR] = "or", [WL_AT_XOR] = "xor", [WL_AT_INC] = "inc",
    [WL_AT_DEC] = "dec", [WL_AT_FMIN] = "fmin", [WL_AT_FMAX] = "fmax", [WL_AT_FADD] = "fadd",
    [WL_AT_CMPSWAP] = "cmpswap",
};

wl_atop wl_lm_atop(const char *s)
{
    for (unsigned i = 1; i < sizeof atop_names / sizeof atop_names[0]; i++)
        if (strcmp(atop_names[i], s) == 0)
            return (wl_atop)i;
    return WL_AT_NONE;
}

const char *wl_lm_atop_name(wl_atop op)
{
    return (unsigned)op < sizeof atop_names / sizeof atop_names[0] ? atop_names[op] : NULL;
}

static const char *const space_names[] = {"global", "lds", "scratch"};

LLVMValueRef wl_lm_addr_add(wl_lifter *L, LLVMValueRef addr, int64_t off)
{
    if (off == 0)
        return addr;
    LLVMTypeRef t = LLVMTypeOf(addr);
    return LLVMBuildAdd(L->b, addr, LLVMConstInt(t, (uint64_t)off, 1), "");
}

/* The guest instruction a memory call belongs to, as !wl.insn (its byte
 * offset): the wave model's lane loops let one instruction's accesses
 * share a loop (lower/wave/lane_loops.c) */
static LLVMValueRef tag_insn(wl_lifter *L, LLVMValueRef call)
{
    if (call && L->inst && LLVMIsACallInst(call)) {
        LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(call));
        LLVMMetadataRef off = LLVMValueAsMetadata(LLVMConstInt(LLVMInt64TypeInContext(c), L->inst->offset, 0));
        LLVMSetMetadata(call, LLVMGetMDKindIDInContext(c, "wl.insn", 7), LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, &off, 1)));
    }
    return call;
}

LLVMValueRef wl_lm_load(wl_lifter *L, wl_space sp, unsigned bits, LLVMValueRef addr,
                        LLVMValueRef active)
{
    char name[48];
    snprintf(name, sizeof name, "wl.load.%s.b%u", space_names[sp], bits);
    LLVMValueRef args[2] = {addr, active};
    return tag_insn(L, wl_l_call(L, name, bits == 64 ? L->i64 : L->i32, args, 2));
}

void wl_lm_store(wl_lifter *L, wl_space sp, unsigned bits, LLVMValueRef addr,
                 LLVMValueRef val, LLVMValueRef active)
{
    char name[48];
    snprintf(name, sizeof name, "wl.store.%s.b%u", space_names[sp], bits);
    LLVMValueRef args[3] = {addr, val, active};
    tag_insn(L, wl_l_call(L, name, L->t_void, args, 3));
}

LLVMValueRef wl_lm_atomic(wl_lifter *L, wl_space sp, wl_atop op, unsigned bits,
                          LLVMValueRef addr, LLVMValueRef val, LLVMValueRef active)
{
    char name[64];
    snprintf(name, sizeof name, "wl.atomic.%s.%s.b%u", space_names[sp], wl_lm_atop_name(op), bits);
    LLVMValueRef args[3] = {addr, val, active};
    return tag_insn(L, wl_l_call(L, name, bits == 64 ? L->i64 : L->i32, args, 3));
}

LLVMValueRef wl_lm_cmpswap(wl_lifter *L, wl_space sp, unsigned bits, LLVMValueRef addr,
                           LLVMValueRef cmp, LLVMValueRef nv, LLVMValueRef active)
{
    char name[64];
    snprintf(name, sizeof name, "wl.atomic.%s.cmpswap.b%u", space_names[sp], bits);
    LLVMValueRef args[4] = {addr, cmp, nv, active};
    return tag_insn(L, wl_l_call(L, name, bits == 64 ? L->i64 : L->i32, args, 4));
}

LLVMValueRef wl_lm_load_value(wl_lifter *L, const wl_xfer *x, LLVMValueRef raw, unsigned vdst)
{
    LLVMValueRef v = raw;
    if (x->bits < 32 && x->sign) {
        /* sign-extend the low `bits` bits */
        LLVMValueRef sh = wl_l_i32c(L, 32u - x->bits);
        v = LLVMBuildAShr(L->b, LLVMBuildShl(L->b, v, sh, ""), sh, "");
    }
    if (x->d16 == 0)
        return v;
    LLVMValueRef old = wl_l_get_v32(L, vdst);
    LLVMValueRef lo16 = LLVMBuildAnd(L->b, v, wl_l_i32c(L, 0xffff), "");
    if (x->d16 == 1)
        return LLVMBuildOr(L->b, LLVMBuildAnd(L->b, old, wl_l_i32c(L, 0xffff0000u), ""), lo16, "");
    return LLVMBuildOr(L->b, LLVMBuildAnd(L->b, old, wl_l_i32c(L, 0xffff), ""),
                       LLVMBuildShl(L->b, lo16, wl_l_i32c(L, 16), ""), "");
}

LLVMValueRef wl_lm_store_value(wl_lifter *L, const wl_xfer *x, unsigned v)
{
    LLVMValueRef val = wl_l_get_v32(L, v);
    if (x->d16 == 2)
        val = LLVMBuildLShr(L->b, val, wl_l_i32c(L, 16), "");
    return val;
}

LLVMValueRef wl_lm_field(wl_lifter *L, LLVMValueRef w, unsigned sh, uint32_t mask)
{
    return LLVMBuildAnd(L->b, LLVMBuildLShr(L->b, w, wl_l_i32c(L, sh), ""), wl_l_i32c(L, mask), "");
}

void wl_lm_escape_if(wl_lifter *L, const wl_inst *in, LLVMValueRef p)
{
    LLVMValueRef args[3] = {wl_l_i32c(L, WL_ESC_INSTRUCTION), wl_l_i32c(L, (uint32_t)in->offset), p};
    wl_l_call(L, "wl.escape", L->t_void, args, 3);
}

LLVMValueRef wl_lm_mask_bit(wl_lifter *L, LLVMValueRef mask, LLVMValueRef lane)
{
    LLVMValueRef l64 = LLVMBuildZExt(L->b, LLVMBuildAnd(L->b, lane, wl_l_i32c(L, 63), ""), L->i64, "");
    LLVMValueRef bit = LLVMBuildAnd(L->b, LLVMBuildLShr(L->b, mask, l64, ""), wl_l_i64c(L, 1), "");
    return LLVMBuildICmp(L->b, LLVMIntNE, bit, wl_l_i64c(L, 0), "");
}

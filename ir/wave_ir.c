/* The wave-IR verifier (docs/wave-ir.md, "Rules") and !wl.program.
 *
 * Uniformity is computed by forward propagation to a fixed point: varying
 * are loads of VGPR allocas, @wl.lane_id, @wl.thread_id, @wl.lane_active,
 * per-lane memory calls (wl.load.*, wl.atomic.*), @wl.shuffle.* with a
 * varying lane, and any instruction with a varying operand, except
 * @wl.ballot and @wl.readfirstlane.*, whose results are uniform. */
#include "wave_ir.h"
#include "ptrmap.h"
#include "wavelift/lift.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The wl.* functions of docs/wave-ir.md: exact names, or prefixes ending
 * in '.'. `res`: 0 uniform result (or void), 1 varying result, 2 varying
 * when an operand is (shuffle), 3 uniform whatever the operands (ballot,
 * readfirstlane). */
static const struct {
    const char *name;
    int prefix;
    int res;
} wl_fns[] = {
    {"wl.user_sgpr", 0, 0},       {"wl.workgroup_id", 0, 0},
    {"wl.thread_id", 0, 1},       {"wl.wave_id", 0, 0},
    {"wl.launch_exec", 0, 0},     {"wl.scratch_wave_offset", 0, 0},
    {"wl.lane_id", 0, 1},         {"wl.lane_active", 0, 1},
    {"wl.ballot", 0, 3},          {"wl.shuffle.", 1, 2},
    {"wl.readfirstlane.", 1, 3},  {"wl.load.", 1, 1},
    {"wl.store.", 1, 1},          {"wl.atomic.", 1, 1},
    {"wl.sload.b32", 0, 0},       {"wl.sstore.b32", 0, 0},
    {"wl.memtime", 0, 0},         {"wl.barrier", 0, 0},
    {"wl.escape", 0, 0},          {"wl.satomic.", 1, 0},
};

/* Signatures of the fixed-type wl.* functions ("ret(args)"). */
static const struct {
    const char *name, *sig;
} wl_sigs[] = {
    {"wl.user_sgpr", "i32(i32)"},     {"wl.workgroup_id", "i32(i32)"},
    {"wl.thread_id", "i32(i32)"},     {"wl.wave_id", "i32()"},
    {"wl.launch_exec", "i64()"},      {"wl.scratch_wave_offset", "i32()"},
    {"wl.lane_id", "i32()"},          {"wl.lane_active", "i1(i64)"},
    {"wl.ballot", "i64(i1)"},         {"wl.sload.b32", "i32(i64)"},
    {"wl.sstore.b32", "void(i64,i32)"}, {"wl.memtime", "i64()"},
    {"wl.barrier", "void()"},         {"wl.escape", "void(i32,i32,i1)"},
};

static void type_sig(LLVMTypeRef ft, char *buf, size_t cap)
{
    size_t len = 0;
    char *r = LLVMPrintTypeToString(LLVMGetReturnType(ft));
    len += (size_t)snprintf(buf + len, cap - len, "%s(", r);
    LLVMDisposeMessage(r);
    unsigned n = LLVMCountParamTypes(ft);
    LLVMTypeRef ps[16];
    if (n > 16)
        n = 16;
    LLVMGetParamTypes(ft, ps);
    for (unsigned i = 0; i < n && len < cap; i++) {
        char *p = LLVMPrintTypeToString(ps[i]);
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? "," : "", p);
        LLVMDisposeMessage(p);
    }
    if (len < cap)
        snprintf(buf + len, cap - len, ")");
}

/* 0 when a declared wl.* function has its documented type (or one not
 * fixed here); -1 otherwise. */
static int wl_sig_ok(LLVMValueRef f, const char *name)
{
    LLVMTypeRef ft = LLVMGlobalGetValueType(f);
    if (LLVMCountParamTypes(ft) > 16)
        return -1;
    char sig[256];
    type_sig(ft, sig, sizeof sig);
    for (size_t i = 0; i < sizeof wl_sigs / sizeof wl_sigs[0]; i++)
        if (strcmp(name, wl_sigs[i].name) == 0)
            return strcmp(sig, wl_sigs[i].sig) == 0 ? 0 : -1;
    /* Per-lane memory calls take `i1 active` last. */
    if (strncmp(name, "wl.load.", 8) == 0 || strncmp(name, "wl.store.", 9) == 0 ||
        strncmp(name, "wl.atomic.", 10) == 0) {
        size_t l = strlen(sig);
        return l > 4 && strcmp(sig + l - 4, ",i1)") == 0 ? 0 : -1;
    }
    return 0;
}

static int wl_fn_kind(const char *name)
{
    for (size_t i = 0; i < sizeof wl_fns / sizeof wl_fns[0]; i++) {
        size_t n = strlen(wl_fns[i].name);
        if (wl_fns[i].prefix ? strncmp(name, wl_fns[i].name, n) == 0 && name[n]
                             : strcmp(name, wl_fns[i].name) == 0)
            return wl_fns[i].res;
    }
    return -1;
}

static int is_vgpr_alloca(LLVMValueRef v, unsigned kind)
{
    return v && LLVMIsAAllocaInst(v) && LLVMGetMetadata(v, kind) != NULL;
}

static wl_status fail(char *err, size_t cap, const char *what, LLVMValueRef inst)
{
    if (err && cap) {
        char *s = inst ? LLVMPrintValueToString(inst) : NULL;
        snprintf(err, cap, "wave IR: %s%s%s%s", what, s ? ": `" : "", s ? s : "", s ? "`" : "");
        if (s)
            LLVMDisposeMessage(s);
        for (char *p = err; *p; p++) /* one line: declarations print a newline */
            if (*p == '\n')
                *p = ' ';
    }
    return WL_ERR_INVALID;
}

static const char *callee_name(LLVMValueRef call)
{
    LLVMValueRef f = LLVMGetCalledValue(call);
    if (!f || !LLVMIsAFunction(f))
        return NULL;
    size_t len;
    return LLVMGetValueName2(f, &len);
}

/* Is this instruction's result varying, given the operands' states? */
static int result_varying(LLVMValueRef I, const wl_ptrmap *var, unsigned vk)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(I);
    if (op == LLVMLoad)
        return is_vgpr_alloca(LLVMGetOperand(I, 0), vk) || wl_ptrmap_has(var, LLVMGetOperand(I, 0));
    if (op == LLVMAlloca || op == LLVMStore || op == LLVMBr || op == LLVMRet)
        return 0;
    int nops = LLVMGetNumOperands(I);
    if (op == LLVMCall) {
        const char *n = callee_name(I);
        int k = n ? wl_fn_kind(n) : -1;
        nops = LLVMGetNumArgOperands(I);
        if (k == 1)
            return 1;
        if (k == 3)
            return 0;
        if (k == 2) /* wl.shuffle.*(v, lane): varying with the lane */
            return nops > 1 && wl_ptrmap_has(var, LLVMGetOperand(I, 1));
    }
    for (int i = 0; i < nops; i++)
        if (wl_ptrmap_has(var, LLVMGetOperand(I, (unsigned)i)))
            return 1;
    return 0;
}

/* A wl_pure.* function (docs/wave-ir.md "Pure functions"): arithmetic of
 * its parameters, called from @wl.wave like an instruction. */
static int is_pure_name(const char *n)
{
    return strncmp(n, "wl_pure.", 8) == 0;
}

/* NULL where f is a valid pure function, else what is wrong */
static const char *pure_body(LLVMValueRef f)
{
    if (LLVMGetLinkage(f) != LLVMInternalLinkage)
        return "a wl_pure.* function must have internal linkage";
    if (LLVMGetTypeKind(LLVMGetReturnType(LLVMGlobalGetValueType(f))) == LLVMVoidTypeKind)
        return "a wl_pure.* function must return a value";
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I)) {
            switch (LLVMGetInstructionOpcode(I)) {
            case LLVMLoad:
            case LLVMStore:
            case LLVMAlloca:
            case LLVMAtomicRMW:
            case LLVMAtomicCmpXchg:
            case LLVMFence:
            case LLVMInvoke:
            case LLVMCallBr:
                return "a wl_pure.* function may not touch memory";
            case LLVMCall: {
                const char *n = callee_name(I);
                if (!n || strncmp(n, "llvm.", 5) != 0)
                    return "a wl_pure.* function may call only LLVM intrinsics";
                break;
            }
            default:
                break;
            }
        }
    return NULL;
}

static int has_nonzero_addrspace(LLVMTypeRef t)
{
    return LLVMGetTypeKind(t) == LLVMPointerTypeKind && LLVMGetPointerAddressSpace(t) != 0;
}

wl_status wl_wir_verify(LLVMModuleRef m, char *err, size_t errcap)
{
    if (err && errcap)
        err[0] = '\0';
    if (!m)
        return fail(err, errcap, "no module", NULL);
    char *msg = NULL;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
        if (err && errcap)
            snprintf(err, errcap, "wave IR: LLVM verifier: %s", msg ? msg : "");
        LLVMDisposeMessage(msg);
        return WL_ERR_INVALID;
    }
    LLVMDisposeMessage(msg);
    wl_wir_info info;
    if (wl_wir_program_info(m, &info) != 0)
        return fail(err, errcap, "missing or malformed !wl.program", NULL);

    LLVMValueRef fn = NULL;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        if (LLVMIsDeclaration(f)) {
            if (strncmp(name, "llvm.", 5) == 0)
                continue;
            if (wl_fn_kind(name) < 0)
                return fail(err, errcap, "a declaration that is not a wl.* function of docs/wave-ir.md", f);
            if (wl_sig_ok(f, name) != 0)
                return fail(err, errcap, "a wl.* function with a type other than docs/wave-ir.md's", f);
            continue;
        }
        if (is_pure_name(name)) {
            const char *why = pure_body(f);
            if (why)
                return fail(err, errcap, why, f);
            continue;
        }
        if (strcmp(name, WL_WIR_FUNCTION) != 0 || fn)
            return fail(err, errcap, "the only defined function must be @wl.wave (besides wl_pure.* functions)", f);
        fn = f;
    }
    if (!fn)
        return fail(err, errcap, "no @wl.wave", NULL);
    if (LLVMCountParams(fn) != 0 ||
        LLVMGetTypeKind(LLVMGetReturnType(LLVMGlobalGetValueType(fn))) != LLVMVoidTypeKind)
        return fail(err, errcap, "@wl.wave must be void()", NULL);
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
        return fail(err, errcap, "no global variables are allowed", g);

    unsigned vk = LLVMGetMDKindIDInContext(LLVMGetModuleContext(m), WL_WIR_VGPR_MD,
                                           (unsigned)strlen(WL_WIR_VGPR_MD));
    wl_ptrmap var = {0};
    wl_status st = WL_OK;
    /* Uniformity to a fixed point (phis may carry values around loops). */
    for (int changed = 1, round = 0; changed && round < 64; round++) {
        changed = 0;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I))
                if (!wl_ptrmap_has(&var, I) && result_varying(I, &var, vk)) {
                    if (!wl_ptrmap_put(&var, I, 1)) {
                        wl_ptrmap_free(&var);
                        return WL_ERR_NOMEM;
                    }
                    changed = 1;
                }
    }
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && st == WL_OK;
         bb = LLVMGetNextBasicBlock(bb)) {
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I && st == WL_OK;
             I = LLVMGetNextInstruction(I)) {
            LLVMOpcode op = LLVMGetInstructionOpcode(I);
            if (has_nonzero_addrspace(LLVMTypeOf(I))) {
                st = fail(err, errcap, "a pointer outside address space 0 (guest addresses are i64)", I);
                break;
            }
            int nops = LLVMGetNumOperands(I);
            for (int i = 0; i < nops; i++)
                if (has_nonzero_addrspace(LLVMTypeOf(LLVMGetOperand(I, (unsigned)i))))
                    st = fail(err, errcap, "a pointer outside address space 0 (guest addresses are i64)", I);
            if (st != WL_OK)
                break;
            switch (op) {
            case LLVMBr:
                if (LLVMIsConditional(I) && wl_ptrmap_has(&var, LLVMGetCondition(I)))
                    st = fail(err, errcap, "rule 1: a branch on a varying condition", I);
                break;
            case LLVMSwitch:
            case LLVMIndirectBr:
                st = fail(err, errcap, "only br and ret are allowed as terminators", I);
                break;
            case LLVMAlloca:
                if (bb != entry)
                    st = fail(err, errcap, "an alloca outside the entry block", I);
                break;
            case LLVMStore: {
                LLVMValueRef val = LLVMGetOperand(I, 0), ptr = LLVMGetOperand(I, 1);
                if (!LLVMIsAAllocaInst(ptr)) {
                    st = fail(err, errcap, "a store to something other than a register alloca", I);
                } else if (is_vgpr_alloca(ptr, vk)) {
                    if (bb != entry && !LLVMIsASelectInst(val))
                        st = fail(err, errcap, "rule 2: a VGPR write that is not a select under EXEC", I);
                } else if (wl_ptrmap_has(&var, val)) {
                    st = fail(err, errcap, "rule 3: a varying value stored to a uniform register", I);
                }
                break;
            }
            case LLVMLoad:
                if (!LLVMIsAAllocaInst(LLVMGetOperand(I, 0)))
                    st = fail(err, errcap, "a load from something other than a register alloca", I);
                break;
            case LLVMCall: {
                const char *n = callee_name(I);
                if (!n || (strncmp(n, "llvm.", 5) != 0 && wl_fn_kind(n) < 0 && !is_pure_name(n)))
                    st = fail(err, errcap, "rule 4: a call to something other than a wl.* function or an intrinsic", I);
                break;
            }
            case LLVMInvoke:
            case LLVMCallBr:
                st = fail(err, errcap, "rule 4: instruction not allowed", I);
                break;
            default:
                break;
            }
        }
    }
    wl_ptrmap_free(&var);
    return st;
}

int wl_wir_program_info(LLVMModuleRef m, wl_wir_info *info)
{
    if (!m || !info)
        return -1;
    memset(info, 0, sizeof *info);
    if (LLVMGetNamedMetadataNumOperands(m, WL_WIR_PROGRAM_MD) != 1)
        return -1;
    LLVMValueRef node;
    LLVMGetNamedMetadataOperands(m, WL_WIR_PROGRAM_MD, &node);
    if (!node || LLVMGetMDNodeNumOperands(node) != 4)
        return -1;
    LLVMValueRef ops[4];
    LLVMGetMDNodeOperands(node, ops);
    uint64_t v[4];
    for (int i = 0; i < 4; i++) {
        if (!ops[i] || !LLVMIsAConstantInt(ops[i]))
            return -1;
        v[i] = LLVMConstIntGetZExtValue(ops[i]);
    }
    if (v[0] != 32 && v[0] != 64)
        return -1;
    info->wave_size = (unsigned)v[0];
    info->lds_bytes = (uint32_t)v[1];
    info->scratch_bytes = (uint32_t)v[2];
    info->user_sgprs = (unsigned)v[3];
    return 0;
}

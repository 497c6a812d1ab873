/* Memory of the lanes model (docs/lanes.md). Each per-lane memory call
 * (every clone) becomes a call to a helper @wl.h.<name> written here as IR
 * text, linked into the module and inlined at the end (always-inline):
 *
 *   global   the guest address mapped to a host address (@wl.h.gmap, the
 *            guest mapping of docs/memory.md; outside it: WL_ESC_ADDRESS,
 *            the load reads 0, the store is dropped), then `if (active &&
 *            inside)` around an access through inttoptr to
 *            addrspace(1); b8/b16 loads read their aligned word(s); b8/b16
 *            stores merge into their word by a compare-and-swap loop of at
 *            most 1024 rounds, then an escape (D977); inc/dec/float atomics
 *            are compare-and-swap loops.
 *   lds      @wl.group, an addrspace(3) [LDS/4 x i32] global, byte offsets;
 *            accesses past the LDS size read 0 and write nothing (no
 *            branch: off or outside, on the spare bytes after the LDS,
 *            lds_enter); b8/b16
 *            stores are i8/i16 stores (the backend merges them atomically);
 *            after the k clones of an access, a subgroup barrier (D973).
 *            A program with 64-bit LDS atomics gets a [LDS/8 x i64] object
 *            instead (gen_lds64_atomics): the backend gives an object one
 *            unit size, and 64-bit atomics need 64-bit units.
 *   scratch  @wl.scratch.j, a private [words x i32] array per lane clone j
 *            (D973's interleaved array, split: scratch.c); accesses
 *            past the private segment size read 0 and write nothing.
 *   sstore   by the subgroup's elected invocation only; sstore and sload
 *            (launch.c) go through the global helpers, so through the mapping.
 *   escape   a note of the invocation (@wl.esc.note); at the kernel's
 *            return the first escape of the dispatch wins @wl.status word 0
 *            (kind) by compare-and-swap, then words 1..3: guest offset,
 *            lane, group x (4..5: the address of an address escape):
 *            esc_note.c, bad_note.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "lower/context.h"

typedef struct sb {
    char *s;
    size_t n, cap;
    int oom;
} sb;

static void sbf(sb *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = 1;
            return;
        }
        if (b->s && b->n + (size_t)n < b->cap) {
            b->n += (size_t)n;
            return;
        }
        size_t nc = (b->cap ? b->cap * 2 : 16384) + (size_t)n;
        char *ns = realloc(b->s, nc);
        if (!ns) {
            b->oom = 1;
            return;
        }
        b->s = ns;
        b->cap = nc;
    }
}

#define ATTR "alwaysinline"

/* the pointer %p and the predicate %ok of an access of `size` bytes */
static void access_setup(sb *b, wl_lower_ctx *L, int lds, unsigned size)
{
    if (lds) {
        if (L->lds_bytes >= size)
            sbf(b, "  %%inr = icmp ule i32 %%a, %u\n  %%ok = and i1 %%act, %%inr\n", L->lds_bytes - size);
        else
            sbf(b, "  %%ok = and i1 %%act, false\n");
    } else {
        /* the guest mapping (docs/memory.md): %ha the host address, an
         * access outside it an escape naming the address */
        sbf(b, "  %%mp = call {i64, i1} @wl.h.gmap(i64 %%a, i64 %u, i1 %%act, i32 %%lane)\n"
               "  %%ha = extractvalue {i64, i1} %%mp, 0\n  %%inr = extractvalue {i64, i1} %%mp, 1\n"
               "  %%ok = and i1 %%act, %%inr\n",
            size - 1);
    }
}

static void ptr_at(sb *b, int lds, const char *dst, const char *addr)
{
    if (lds)
        sbf(b, "  %s = getelementptr i8, ptr addrspace(3) @wl.group, i32 %s\n", dst, addr);
    else
        sbf(b, "  %s = inttoptr i64 %s to ptr addrspace(1)\n", dst, !strcmp(addr, "%a") ? "%ha" : addr);
}

/* The entry of an LDS access of `size` bytes at %a: %ok (access_setup) and
 * %as, the offset used, then block %d. With the spare bytes (L->lds_spare)
 * no branch: %as is %a where the access is made, else the spare bytes at
 * `spare`, and %d follows %e (a load's value is then selected away,
 * lds_load_exit). Without them, or where no access of this size fits the
 * LDS (%ok false: the branch folds and the access goes), %as is %a under a
 * branch to %d or %x. Returns whether branch-free. */
static int lds_enter(sb *b, wl_lower_ctx *L, unsigned size, uint64_t spare)
{
    access_setup(b, L, 1, size);
    int bf = L->lds_spare && L->lds_bytes >= size;
    if (bf)
        sbf(b, "  %%as = select i1 %%ok, i32 %%a, i32 %u\n  br label %%d\nd:\n", (unsigned)spare);
    else
        sbf(b, "  %%as = add i32 %%a, 0\n  br i1 %%ok, label %%d, label %%x\nd:\n");
    return bf;
}

/* The end of an LDS load whose value %r is made in block `from`: %r where
 * the access is made, else 0 (bf: lds_enter's) */
static void lds_load_exit(sb *b, int bf, const char *rt, const char *from)
{
    if (bf)
        sbf(b, "  br label %%x\nx:\n  %%v = select i1 %%ok, %s %%r, %s 0\n  ret %s %%v\n}\n", rt, rt, rt);
    else
        sbf(b, "  br label %%x\nx:\n  %%v = phi %s [0, %%e], [%%r, %%%s]\n  ret %s %%v\n}\n", rt, from, rt);
}

static const char *const rmw_ops[][2] = {
    {"swap", "xchg"}, {"add", "add"}, {"sub", "sub"}, {"smin", "min"}, {"umin", "umin"}, {"smax", "max"},
    {"umax", "umax"}, {"and", "and"}, {"or", "or"}, {"xor", "xor"}};

/* compare-and-swap loop ops: the new value %n from the old %o and %v */
static void cas_op(sb *b, const char *op, unsigned bits)
{
    const char *ft = bits == 64 ? "double" : "float";
    if (!strcmp(op, "inc"))
        sbf(b, "  %%ge = icmp uge i%u %%o, %%v\n  %%o1 = add i%u %%o, 1\n  %%n = select i1 %%ge, i%u 0, i%u %%o1\n",
            bits, bits, bits, bits);
    else if (!strcmp(op, "dec"))
        sbf(b, "  %%z = icmp eq i%u %%o, 0\n  %%gt = icmp ugt i%u %%o, %%v\n  %%zz = or i1 %%z, %%gt\n"
               "  %%o1 = sub i%u %%o, 1\n  %%n = select i1 %%zz, i%u %%v, i%u %%o1\n",
            bits, bits, bits, bits, bits);
    else {
        sbf(b, "  %%fo = bitcast i%u %%o to %s\n  %%fv = bitcast i%u %%v to %s\n", bits, ft, bits, ft);
        if (!strcmp(op, "fadd"))
            sbf(b, "  %%fn = fadd %s %%fo, %%fv\n", ft);
        else
            sbf(b, "  %%fn = call %s @llvm.%s.%s(%s %%fo, %s %%fv)\n", ft, !strcmp(op, "fmin") ? "minnum" : "maxnum",
                bits == 64 ? "f64" : "f32", ft, ft);
        sbf(b, "  %%n = bitcast %s %%fn to i%u\n", ft, bits);
    }
}

/* ---- sub-word stores (D977, docs/memory.md "Sub-word stores") ----------- */

/* A b8/b16 store (%a the guest address or LDS offset, %v the value, in
 * block %d, falls through to the caller's "br label %x") merged into its
 * word by one compare-and-swap loop (@wl.h.merge / @wl.h.merge.lds); a
 * half at a word's last byte swaps the next word too, for its high byte. */
static void gen_subword_merge(sb *b, int lds, unsigned bits)
{
    const char *at = lds ? "i32" : "i64";
    /* the merge helper's word address: the host address (global) or the
     * LDS byte offset %as (lds_enter), whose word the helper finds itself;
     * there %m is empty where the store is off (%ok false: %as is then the
     * spare merge word, which so keeps its value, and the first swap
     * succeeds) */
    if (lds)
        sbf(b, "  %%wa = and i32 %%as, -4\n  %%lo3 = and i32 %%as, 3\n  %%sh = shl i32 %%lo3, 3\n");
    else
        sbf(b, "  %%wa = and i64 %%ha, -4\n  %%lo3w = and i64 %%a, 3\n  %%sh64 = shl i64 %%lo3w, 3\n"
               "  %%sh = trunc i64 %%sh64 to i32\n  %%lo3 = trunc i64 %%lo3w to i32\n");
    const char *mg = lds ? "@wl.h.merge.lds" : "@wl.h.merge";
    /* where off: an empty mask, and so an empty value */
    const char *mk = lds ? "  %m = select i1 %ok, i32 %m0, i32 0\n  %vs = and i32 %vs0, %m\n" : "";
    const char *z = lds ? "0" : ""; /* global: %m and %vs themselves */
    if (bits == 8) {
        sbf(b, "  %%m%s = shl i32 255, %%sh\n  %%vb = and i32 %%v, 255\n  %%vs%s = shl i32 %%vb, %%sh\n%s"
               "  call void %s(%s %%wa, i32 %%m, i32 %%vs)\n",
            z, z, mk, mg, at);
        return;
    }
    /* c2 only where the store is made (the spare word is aligned) */
    sbf(b, "  %%cross = icmp eq i32 %%lo3, 3\n  br i1 %%cross, label %%c2, label %%c1\n"
           "c1:\n  %%m%s = shl i32 65535, %%sh\n  %%vh = and i32 %%v, 65535\n  %%vs%s = shl i32 %%vh, %%sh\n%s"
           "  call void %s(%s %%wa, i32 %%m, i32 %%vs)\n  br label %%cj\n"
           "c2:\n  %%vl = shl i32 %%v, 24\n  call void %s(%s %%wa, i32 -16777216, i32 %%vl)\n"
           "  %%wa4 = add %s %%wa, 4\n  %%vt = lshr i32 %%v, 8\n  %%vt8 = and i32 %%vt, 255\n"
           "  call void %s(%s %%wa4, i32 255, i32 %%vt8)\n  br label %%cj\ncj:\n",
        z, z, mk, mg, at, mg, at, at, mg, at);
}

/* The same where the host stores bytes (storageBuffer8/16BitAccess): an i8
 * store, an i16 store at an even address, two i8 stores at an odd one (the
 * hardware does not store an unaligned half as one write either, D977). */
static void gen_subword_native(sb *b, unsigned bits)
{
    sbf(b, "  %%p = inttoptr i64 %%ha to ptr addrspace(1)\n  %%v8 = trunc i32 %%v to i8\n");
    if (bits == 8) {
        sbf(b, "  store i8 %%v8, ptr addrspace(1) %%p, align 1\n");
        return;
    }
    sbf(b, "  %%odd = and i64 %%a, 1\n  %%isodd = icmp ne i64 %%odd, 0\n  br i1 %%isodd, label %%c2, label %%c1\n"
           "c1:\n  %%v16 = trunc i32 %%v to i16\n  store i16 %%v16, ptr addrspace(1) %%p, align 2\n  br label %%cj\n"
           "c2:\n  store i8 %%v8, ptr addrspace(1) %%p, align 1\n  %%ha1 = add i64 %%ha, 1\n"
           "  %%p1 = inttoptr i64 %%ha1 to ptr addrspace(1)\n  %%vt = lshr i32 %%v, 8\n  %%vt8 = trunc i32 %%vt to i8\n"
           "  store i8 %%vt8, ptr addrspace(1) %%p1, align 1\n  br label %%cj\ncj:\n");
}

/* The swap loops themselves: @wl.h.merge on a global word (its host
 * address), @wl.h.merge.lds on the LDS word holding byte offset %a (the
 * 64-bit unit holding it where the LDS is [LDS/8 x i64]). At most
 * WL_LC_MERGE_ROUNDS rounds, then WL_ESC_MERGE_ROUNDS and the store not
 * made. */
static void gen_merge_loops(sb *b, int lds64)
{
    sbf(b,
        "define void @wl.h.merge(i64 %%wa, i32 %%m, i32 %%vs) " ATTR " {\n"
        "e:\n  %%p = inttoptr i64 %%wa to ptr addrspace(1)\n  %%nm = xor i32 %%m, -1\n"
        "  %%o0 = load i32, ptr addrspace(1) %%p, align 4\n  br label %%l\nl:\n"
        "  %%o = phi i32 [%%o0, %%e], [%%s, %%l]\n  %%n = phi i32 [0, %%e], [%%n1, %%l]\n"
        "  %%kept = and i32 %%o, %%nm\n  %%new = or i32 %%kept, %%vs\n"
        "  %%c = cmpxchg ptr addrspace(1) %%p, i32 %%o, i32 %%new monotonic monotonic\n"
        "  %%s = extractvalue {i32, i1} %%c, 0\n  %%k = extractvalue {i32, i1} %%c, 1\n"
        "  %%n1 = add i32 %%n, 1\n  %%lim = icmp uge i32 %%n1, %u\n  %%stop = or i1 %%k, %%lim\n"
        "  br i1 %%stop, label %%fin, label %%l\nfin:\n  br i1 %%k, label %%x, label %%esc\nesc:\n"
        "  call void @wl.h.escape(i32 %u, i32 0, i1 true, i32 0)\n  br label %%x\nx:\n  ret void\n}\n",
        WL_LC_MERGE_ROUNDS, (unsigned)WL_ESC_MERGE_ROUNDS);
    const char *ut = lds64 ? "i64" : "i32";
    sbf(b, "define void @wl.h.merge.lds(i32 %%a, i32 %%m32, i32 %%vs32) " ATTR " {\ne:\n");
    if (lds64)
        sbf(b, "  %%wa = and i32 %%a, -8\n  %%hi4 = and i32 %%a, 4\n  %%sh32 = shl i32 %%hi4, 3\n"
               "  %%sh = zext i32 %%sh32 to i64\n  %%mz = zext i32 %%m32 to i64\n  %%m = shl i64 %%mz, %%sh\n"
               "  %%vz = zext i32 %%vs32 to i64\n  %%vs = shl i64 %%vz, %%sh\n");
    else
        sbf(b, "  %%wa = and i32 %%a, -4\n  %%m = add i32 %%m32, 0\n  %%vs = add i32 %%vs32, 0\n");
    sbf(b,
        "  %%p = getelementptr i8, ptr addrspace(3) @wl.group, i32 %%wa\n  %%nm = xor %s %%m, -1\n"
        "  %%o0 = load %s, ptr addrspace(3) %%p, align %u\n  br label %%l\nl:\n"
        "  %%o = phi %s [%%o0, %%e], [%%s, %%l]\n  %%n = phi i32 [0, %%e], [%%n1, %%l]\n"
        "  %%kept = and %s %%o, %%nm\n  %%new = or %s %%kept, %%vs\n"
        "  %%c = cmpxchg ptr addrspace(3) %%p, %s %%o, %s %%new monotonic monotonic\n"
        "  %%s = extractvalue {%s, i1} %%c, 0\n  %%k = extractvalue {%s, i1} %%c, 1\n"
        "  %%n1 = add i32 %%n, 1\n  %%lim = icmp uge i32 %%n1, %u\n  %%stop = or i1 %%k, %%lim\n"
        "  br i1 %%stop, label %%fin, label %%l\nfin:\n  br i1 %%k, label %%x, label %%esc\nesc:\n"
        "  call void @wl.h.escape(i32 %u, i32 0, i1 true, i32 0)\n  br label %%x\nx:\n  ret void\n}\n",
        ut, ut, lds64 ? 8u : 4u, ut, ut, ut, ut, ut, ut, ut, WL_LC_MERGE_ROUNDS, (unsigned)WL_ESC_MERGE_ROUNDS);
}

/* ---- 64-bit global atomics on a host without shaderBufferInt64Atomics -- */

/* @wl.h.atomic.global.<op>.b64 under one lock, status word 7 (byte
 * WL_LC_LOCK_BYTE), the LDS lock's form (lower/memory/lds.c): one block a
 * round, no branch inside; every lane tries a 32-bit compare-and-swap
 * 0 -> 1, reads the two dwords by atomic or 0 and adds to each the
 * difference to the new value (0 where it lost the lock); the winner then
 * subtracts 1 from the lock. All relaxed: acquire/release semantics are
 * barriers on lavapipe, and a branch to the update let jump threading move
 * the update after a spin loop where the winner waited for lanes spinning
 * on its lock (both measured: docs/memory.md). At most WL_LC_LOCK_ROUNDS
 * tries, then WL_ESC_MERGE_ROUNDS and nothing done (result 0).
 * docs/memory.md says why this is exact and a 32-bit pair without a lock
 * is not. */
static void gen_atomic64_locked(sb *b, wl_lower_ctx *L, const char *name, int cmpswap)
{
    sbf(b, "define i64 @wl.h.atomic.global.%s.b64(i64 %%a, i64 %%v, %si1 %%act, i32 %%lane) " ATTR " {\ne:\n", name,
        cmpswap ? "i64 %nv, " : "");
    sbf(b, "  %%rs = alloca i64, align 8\n"); /* the result's slot: lds_buffer.c, gen_locked, says why */
    access_setup(b, L, 0, 8);
    sbf(b, "  br i1 %%ok, label %%d, label %%x\nd:\n  %%p = inttoptr i64 %%ha to ptr addrspace(1)\n"
           "  %%ha4 = add i64 %%ha, 4\n  %%p1 = inttoptr i64 %%ha4 to ptr addrspace(1)\n"
           "  %%lk = getelementptr i8, ptr addrspace(4) @wl.status, i32 %u\n  br label %%l\n"
           "l:\n  %%i = phi i32 [0, %%d], [%%i1, %%l]\n  %%r0 = phi i64 [0, %%d], [%%r, %%l]\n"
           "  %%lc = cmpxchg ptr addrspace(4) %%lk, i32 0, i32 1 monotonic monotonic\n"
           "  %%got = extractvalue {i32, i1} %%lc, 1\n"
           "  %%lo = atomicrmw volatile or ptr addrspace(1) %%p, i32 0 monotonic, align 4\n"
           "  %%hi = atomicrmw volatile or ptr addrspace(1) %%p1, i32 0 monotonic, align 4\n"
           "  %%lz = zext i32 %%lo to i64\n  %%hz = zext i32 %%hi to i64\n  %%hs = shl i64 %%hz, 32\n"
           "  %%o = or i64 %%lz, %%hs\n",
        (unsigned)WL_LC_LOCK_BYTE);
    static const char *const simple[][2] = {{"add", "add"}, {"sub", "sub"}, {"and", "and"}, {"or", "or"},
                                            {"xor", "xor"}};
    int done = 0;
    for (size_t i = 0; i < sizeof simple / sizeof simple[0]; i++)
        if (!strcmp(name, simple[i][0])) {
            sbf(b, "  %%n = %s i64 %%o, %%v\n", simple[i][1]);
            done = 1;
        }
    if (done) {
    } else if (!strcmp(name, "swap")) {
        sbf(b, "  %%n = add i64 %%v, 0\n");
    } else if (cmpswap) {
        sbf(b, "  %%eq = icmp eq i64 %%o, %%v\n  %%n = select i1 %%eq, i64 %%nv, i64 %%o\n");
    } else if (!strcmp(name, "smin") || !strcmp(name, "umin") || !strcmp(name, "smax") || !strcmp(name, "umax")) {
        const char *pred = name[0] == 's' ? (name[2] == 'i' ? "slt" : "sgt") : (name[2] == 'i' ? "ult" : "ugt");
        sbf(b, "  %%pk = icmp %s i64 %%v, %%o\n  %%n = select i1 %%pk, i64 %%v, i64 %%o\n", pred);
    } else {
        cas_op(b, name, 64); /* inc dec fadd fmin fmax */
    }
    sbf(b, "  %%nlo = trunc i64 %%n to i32\n  %%nhs = lshr i64 %%n, 32\n  %%nhi = trunc i64 %%nhs to i32\n"
           "  %%dlo = sub i32 %%nlo, %%lo\n  %%alo = select i1 %%got, i32 %%dlo, i32 0\n"
           "  %%ulo = atomicrmw add ptr addrspace(1) %%p, i32 %%alo monotonic, align 4\n"
           "  %%dhi = sub i32 %%nhi, %%hi\n  %%ahi = select i1 %%got, i32 %%dhi, i32 0\n"
           "  %%uhi = atomicrmw add ptr addrspace(1) %%p1, i32 %%ahi monotonic, align 4\n"
           "  %%rel = zext i1 %%got to i32\n"
           "  %%un = atomicrmw sub ptr addrspace(4) %%lk, i32 %%rel monotonic, align 4\n"
           "  %%r = select i1 %%got, i64 %%o, i64 %%r0\n  store volatile i64 %%r, ptr %%rs, align 8\n"
           "  %%i1 = add i32 %%i, 1\n  %%lim = icmp uge i32 %%i1, %u\n  %%stop = or i1 %%got, %%lim\n"
           "  br i1 %%stop, label %%fin, label %%l\nfin:\n  %%rf = load volatile i64, ptr %%rs, align 8\n"
           "  br i1 %%got, label %%x, label %%esc\n"
           "esc:\n  call void @wl.h.escape.now(i32 %u, i32 0, i1 true, i32 %%lane)\n  br label %%x\n"
           "x:\n  %%res = phi i64 [0, %%e], [%%rf, %%fin], [0, %%esc]\n  ret i64 %%res\n}\n",
        WL_LC_LOCK_ROUNDS, (unsigned)WL_ESC_MERGE_ROUNDS);
}

/* ---- straight-line global loads and stores (docs/memory.md) ----------- */

/* %hs: the host address of an access (%ha, %ok from access_setup) where it
 * is made, else the runtime's sink (WL_PUSH_SINK_OFFSET): its zero half for
 * a load (reads 0), its other half for a store (written, never read). So a
 * masked-off or outside access is an access too, and needs no block. */
static void sink_select(sb *b, int store)
{
    sbf(b, "  %%skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 %u\n"
           "  %%sk0 = load i64, ptr addrspace(6) %%skp, align 4, !invariant.load !{}\n"
           "  %%sk = add i64 %%sk0, %u\n  %%hs = select i1 %%ok, i64 %%ha, i64 %%sk\n",
        WL_PUSH_SINK_OFFSET, store ? 128u : 0u);
}

/* A span (wl_lc_span): the accesses of one block at constant offsets from
 * one address X with one EXEC, mapped once. This access is at X + %c; the
 * span's bytes are [X + %c0, X + %c0 + %nm1]; %note is set in one of them
 * (the escape noted once, naming X + c0). The mapping being one range, the
 * span is inside exactly when its first and last access are, so a span
 * escapes exactly when one of its accesses alone would. The rest of the
 * span's code is the same in every access (LLVM keeps one copy); %hs the
 * access's host address, or the sink's at the same offset. */
#define SPAN_ARGS "i64 %c0, i64 %nm1, i64 %c, i1 %note, "

static void span_setup(sb *b, int store)
{
    sbf(b, "  %%xa = add i64 %%a, %%c0\n  %%na = and i1 %%act, %%note\n"
           "  %%mp = call {i64, i1} @wl.h.gmap(i64 %%xa, i64 %%nm1, i1 %%na, i32 %%lane)\n"
           "  %%ha = extractvalue {i64, i1} %%mp, 0\n  %%inr = extractvalue {i64, i1} %%mp, 1\n"
           "  %%ok = and i1 %%act, %%inr\n"
           "  %%skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 %u\n"
           "  %%sk0 = load i64, ptr addrspace(6) %%skp, align 4, !invariant.load !{}\n"
           "  %%sk = add i64 %%sk0, %u\n  %%hs0 = select i1 %%ok, i64 %%ha, i64 %%sk\n"
           "  %%d = sub i64 %%c, %%c0\n  %%hs = add i64 %%hs0, %%d\n",
        WL_PUSH_SINK_OFFSET, store ? 128u : 0u);
}

/* %dst = the i32 at guest byte shift %sh of the words %lo (at hs & -4) and
 * %hi (the next word, or the same one where the access lies in one word):
 * (lo >> sh) | ((hi << 1) << (31 - sh)), exact for sh = 0 (no shift by 32) */
static void funnel32(sb *b, const char *dst, const char *lo, const char *hi)
{
    sbf(b, "  %%%s.r = lshr i32 %s, %%sh\n  %%%s.h1 = shl i32 %s, 1\n  %%%s.h = shl i32 %%%s.h1, %%sh31\n"
           "  %%%s = or i32 %%%s.r, %%%s.h\n",
        dst, lo, dst, hi, dst, dst, dst, dst, dst);
}

static void load_word(sb *b, const char *dst, const char *addr)
{
    sbf(b, "  %%%s.p = inttoptr i64 %s to ptr addrspace(1)\n  %%%s = load i32, ptr addrspace(1) %%%s.p, align 4\n",
        dst, addr, dst, dst);
}

/* @wl.h.load.global.bN(a, act, lane), and for N = 32, 64 the variant .a4
 * for an address known 4-aligned and .ax(a, x, act, lane) for one whose
 * low two bits are those of x (a = x + y, y known 4-aligned:
 * wl_lc_lower_mem_call). No block: the
 * words the access covers are read from %hs (an access need not be aligned
 * on the hardware: clang reads 16-bit kernel arguments with an unaligned
 * dword load; a host access must be) and shifted together. The first word
 * is at hs & -4, the last at (hs + n - 1) & -4: both inside the access's
 * bytes, so inside the mapping (or the sink) whatever the alignment; an
 * aligned access reads one word twice (the same value). With .ax the shift
 * and the last word's distance (0 or 4 bytes past hs + n - 4 rounded down)
 * come from x: G, H and the sink are multiples of 16, so hs & 3 = a & 3 =
 * x & 3 where the access is made, and the sink reads 0 at any shift. x is
 * usually a kernel argument's pointer, the same for every lane clone and
 * access, so LLVM computes them once. */
static void gen_global_load(sb *b, wl_lower_ctx *L, unsigned bits, int aligned, int span, int ax)
{
    const char *rt = bits == 64 ? "i64" : "i32";
    sbf(b, "define %s @wl.h.load.global.b%u%s%s%s(i64 %%a, %s%si1 %%act, i32 %%lane) " ATTR " {\ne:\n", rt, bits,
        aligned ? ".a4" : "", ax ? ".ax" : "", span ? ".span" : "", ax ? "i64 %x, " : "", span ? SPAN_ARGS : "");
    if (span) {
        span_setup(b, 0);
    } else {
        access_setup(b, L, 0, bits / 8);
        sink_select(b, 0);
    }
    if (aligned) {
        sbf(b, "  %%p = inttoptr i64 %%hs to ptr addrspace(1)\n  %%r = load %s, ptr addrspace(1) %%p, align 4\n"
               "  ret %s %%r\n}\n", rt, rt);
        return;
    }
    if (!L->merge_stores) {
        /* the host reads bytes (storageBuffer8BitAccess): the access at its
         * own address, align 1 (the backend reads a vector of bytes) */
        if (bits >= 32)
            sbf(b, "  %%p = inttoptr i64 %%hs to ptr addrspace(1)\n  %%r = load %s, ptr addrspace(1) %%p, align 1\n"
                   "  ret %s %%r\n}\n", rt, rt);
        else
            sbf(b, "  %%p = inttoptr i64 %%hs to ptr addrspace(1)\n  %%n = load i%u, ptr addrspace(1) %%p, align 1\n"
                   "  %%r = zext i%u %%n to i32\n  ret i32 %%r\n}\n", bits, bits);
        return;
    }
    if (ax) {
        sbf(b, "  %%xt = trunc i64 %%x to i32\n  %%lo3 = and i32 %%xt, 3\n  %%sh = shl i32 %%lo3, 3\n"
               "  %%sh31 = sub i32 31, %%sh\n  %%mis = icmp ne i32 %%lo3, 0\n  %%wd = select i1 %%mis, i64 %u, i64 %u\n"
               "  %%wa0 = and i64 %%hs, -4\n  %%wae = add i64 %%wa0, %%wd\n",
            bits / 8, bits / 8 - 4);
        if (bits == 64)
            sbf(b, "  %%wa1 = add i64 %%wa0, 4\n");
    } else {
        sbf(b, "  %%t = trunc i64 %%hs to i32\n  %%lo3 = and i32 %%t, 3\n  %%sh = shl i32 %%lo3, 3\n"
               "  %%sh31 = sub i32 31, %%sh\n  %%wa0 = and i64 %%hs, -4\n");
    }
    load_word(b, "w0", "%wa0");
    if (bits == 8) {
        sbf(b, "  %%s = lshr i32 %%w0, %%sh\n  %%r = and i32 %%s, 255\n  ret i32 %%r\n}\n");
        return;
    }
    if (!ax) {
        if (bits == 64)
            sbf(b, "  %%wa1 = add i64 %%wa0, 4\n  %%hse = add i64 %%hs, 7\n");
        else
            sbf(b, "  %%hse = add i64 %%hs, %u\n", bits / 8 - 1);
        sbf(b, "  %%wae = and i64 %%hse, -4\n");
    }
    load_word(b, "we", "%wae");
    if (bits == 16) {
        funnel32(b, "f", "%w0", "%we");
        sbf(b, "  %%r = and i32 %%f, 65535\n  ret i32 %%r\n}\n");
    } else if (bits == 32) {
        funnel32(b, "r", "%w0", "%we");
        sbf(b, "  ret i32 %%r\n}\n");
    } else {
        load_word(b, "w1", "%wa1");
        funnel32(b, "lo", "%w0", "%w1");
        funnel32(b, "hi", "%w1", "%we");
        sbf(b, "  %%lz = zext i32 %%lo to i64\n  %%hz = zext i32 %%hi to i64\n  %%hsh = shl i64 %%hz, 32\n"
               "  %%r = or i64 %%lz, %%hsh\n  ret i64 %%r\n}\n");
    }
}

/* @wl.h.store.global.b32/b64: one store, to the sink where not made; .a4
 * for an address known 4-aligned. Else the store need not be aligned (the
 * hardware writes the four bytes at any address): align 1 where the host
 * writes bytes (the backend stores a vector of bytes). Without byte access
 * (merge_stores) it stays align 4, exact only at aligned addresses
 * (docs/memory.md). */
static void gen_global_store(sb *b, wl_lower_ctx *L, unsigned bits, int span, int aligned)
{
    const char *vt = bits == 64 ? "i64" : "i32";
    sbf(b, "define void @wl.h.store.global.b%u%s%s(i64 %%a, %s%s %%v, i1 %%act, i32 %%lane) " ATTR " {\ne:\n", bits,
        aligned ? ".a4" : "", span ? ".span" : "", span ? SPAN_ARGS : "", vt);
    if (span) {
        span_setup(b, 1);
    } else {
        access_setup(b, L, 0, bits / 8);
        sink_select(b, 1);
    }
    sbf(b, "  %%p = inttoptr i64 %%hs to ptr addrspace(1)\n  store %s %%v, ptr addrspace(1) %%p, align %u\n"
           "  ret void\n}\n", vt, aligned || L->merge_stores ? 4u : 1u);
}

static void gen_space(sb *b, wl_lower_ctx *L, int lds, int lds64)
{
    const char *sp = lds ? "lds" : "global";
    const char *at = lds ? "i32" : "i64";
    const char *as = lds ? "3" : "1";
    const char *LANE = lds ? "" : ", i32 %lane"; /* the escape's lane (an address outside the mapping) */
    /* loads */
    for (unsigned bits = 8; bits <= 64; bits *= 2) {
        if (lds && lds64 && bits == 64)
            break; /* gen_lds64 */
        if (!lds) {
            gen_global_load(b, L, bits, 0, 0, 0); /* straight-line (gen_global_load) */
            if (bits >= 32) {
                gen_global_load(b, L, bits, 1, 0, 0);
                gen_global_load(b, L, bits, 0, 0, 1);
            }
            if (bits == 32) {
                gen_global_load(b, L, bits, 0, 1, 0);
                gen_global_load(b, L, bits, 1, 1, 0);
            }
            continue;
        }
        const char *rt = bits == 64 ? "i64" : "i32";
        sbf(b, "define %s @wl.h.load.%s.b%u(%s %%a, i1 %%act%s) " ATTR " {\ne:\n", rt, sp, bits, at, LANE);
        int bf = 0;
        if (lds) {
            bf = lds_enter(b, L, bits / 8, WL_LDS_SPARE_BYTE(L->lds_bytes));
        } else {
            access_setup(b, L, lds, bits / 8);
            sbf(b, "  br i1 %%ok, label %%d, label %%x\nd:\n");
        }
        if (bits >= 32 && !lds) {
            /* A dword access need not be 4-byte aligned on the hardware
             * (clang reads 16-bit kernel arguments with an unaligned dword
             * load); a host access must be. Misaligned: the aligned words
             * it covers, shifted together. */
            sbf(b, "  %%lo3 = and i64 %%a, 3\n  %%mis = icmp ne i64 %%lo3, 0\n"
                   "  br i1 %%mis, label %%u, label %%al\nal:\n");
            ptr_at(b, lds, "%p", "%a");
            sbf(b, "  %%ra = load %s, ptr addrspace(1) %%p, align 4\n  br label %%dd\nu:\n", rt);
            if (bits == 32)
                sbf(b, "  %%wa = and i64 %%ha, -4\n  %%wp = inttoptr i64 %%wa to ptr addrspace(1)\n"
                       "  %%w0 = load i32, ptr addrspace(1) %%wp, align 4\n  %%wa1 = add i64 %%wa, 4\n"
                       "  %%wp1 = inttoptr i64 %%wa1 to ptr addrspace(1)\n"
                       "  %%w1 = load i32, ptr addrspace(1) %%wp1, align 4\n  %%z0 = zext i32 %%w0 to i64\n"
                       "  %%z1 = zext i32 %%w1 to i64\n  %%z1s = shl i64 %%z1, 32\n  %%zz = or i64 %%z0, %%z1s\n"
                       "  %%sh = shl i64 %%lo3, 3\n  %%zs = lshr i64 %%zz, %%sh\n  %%ru = trunc i64 %%zs to i32\n");
            else
                sbf(b, "  %%ul = call i32 @wl.h.load.global.b32(i64 %%a, i1 true, i32 %%lane)\n  %%a4 = add i64 %%a, 4\n"
                       "  %%uh = call i32 @wl.h.load.global.b32(i64 %%a4, i1 true, i32 %%lane)\n  %%ul64 = zext i32 %%ul to i64\n"
                       "  %%uh64 = zext i32 %%uh to i64\n  %%uhs = shl i64 %%uh64, 32\n  %%ru = or i64 %%ul64, %%uhs\n");
            sbf(b, "  br label %%dd\ndd:\n  %%r = phi %s [%%ra, %%al], [%%ru, %%u]\n", rt);
        } else if (bits >= 32 || lds) {
            ptr_at(b, lds, "%p", lds ? "%as" : "%a");
            if (bits >= 32) {
                sbf(b, "  %%r = load %s, ptr addrspace(%s) %%p, align 4\n", rt, as);
            } else if (bits == 8) {
                sbf(b, "  %%r8 = load i8, ptr addrspace(3) %%p, align 1\n  %%r = zext i8 %%r8 to i32\n");
            } else { /* lds b16: two bytes */
                sbf(b, "  %%a1 = add i32 %%as, 1\n");
                ptr_at(b, lds, "%p1", "%a1");
                sbf(b, "  %%l8 = load i8, ptr addrspace(3) %%p, align 1\n  %%h8 = load i8, ptr addrspace(3) %%p1, align 1\n"
                       "  %%l = zext i8 %%l8 to i32\n  %%h = zext i8 %%h8 to i32\n  %%hs = shl i32 %%h, 8\n"
                       "  %%r = or i32 %%l, %%hs\n");
            }
        } else { /* global b8/b16: the aligned word(s) */
            sbf(b, "  %%wa = and i64 %%ha, -4\n  %%wp = inttoptr i64 %%wa to ptr addrspace(1)\n"
                   "  %%w = load i32, ptr addrspace(1) %%wp, align 4\n  %%lo3 = and i64 %%a, 3\n"
                   "  %%sh = shl i64 %%lo3, 3\n  %%w64 = zext i32 %%w to i64\n");
            if (bits == 16) {
                sbf(b, "  %%cross = icmp eq i64 %%lo3, 3\n  br i1 %%cross, label %%d2, label %%d3\nd2:\n"
                       "  %%wa2 = add i64 %%wa, 4\n  %%wp2 = inttoptr i64 %%wa2 to ptr addrspace(1)\n"
                       "  %%w2 = load i32, ptr addrspace(1) %%wp2, align 4\n  br label %%d3\nd3:\n"
                       "  %%hw = phi i32 [0, %%d], [%%w2, %%d2]\n  %%hw64 = zext i32 %%hw to i64\n"
                       "  %%hws = shl i64 %%hw64, 32\n  %%both = or i64 %%w64, %%hws\n"
                       "  %%s = lshr i64 %%both, %%sh\n");
            } else {
                sbf(b, "  %%s = lshr i64 %%w64, %%sh\n");
            }
            sbf(b, "  %%st = trunc i64 %%s to i32\n  %%r = and i32 %%st, %u\n", bits == 8 ? 0xffu : 0xffffu);
            sbf(b, "  br label %%dd\ndd:\n");
        }
        if (lds)
            lds_load_exit(b, bf, rt, "d");
        else
            sbf(b, "  br label %%x\nx:\n  %%v = phi %s [0, %%e], [%%r, %%dd]\n  ret %s %%v\n}\n", rt, rt);
    }
    /* stores */
    for (unsigned bits = 8; bits <= 64; bits *= 2) {
        if (lds && lds64 && bits == 64)
            break; /* gen_lds64 */
        if (!lds && bits >= 32) {
            for (int al = 0; al < 2; al++) {
                gen_global_store(b, L, bits, 0, al); /* straight-line */
                if (bits == 32)
                    gen_global_store(b, L, bits, 1, al);
            }
            continue;
        }
        const char *vt = bits == 64 ? "i64" : "i32";
        sbf(b, "define void @wl.h.store.%s.b%u(%s %%a, %s %%v, i1 %%act%s) " ATTR " {\ne:\n", sp, bits, at, vt,
            LANE);
        if (lds) {
            /* a merged store off: the spare merge unit, with an empty mask */
            uint64_t spare = WL_LDS_SPARE_BYTE(L->lds_bytes) + (bits < 32 || lds64 ? 8 : 0);
            lds_enter(b, L, bits / 8, spare);
        } else {
            access_setup(b, L, lds, bits / 8);
            sbf(b, "  br i1 %%ok, label %%d, label %%x\nd:\n");
        }
        if (bits == 32 && lds && lds64) {
            /* a dword in a 64-bit unit: a sub-unit store, merged like a byte */
            sbf(b, "  %%m = select i1 %%ok, i32 -1, i32 0\n  %%vs = and i32 %%v, %%m\n"
                   "  call void @wl.h.merge.lds(i32 %%as, i32 %%m, i32 %%vs)\n");
        } else if (bits >= 32) {
            ptr_at(b, lds, "%p", lds ? "%as" : "%a");
            sbf(b, "  store %s %%v, ptr addrspace(%s) %%p, align 4\n", vt, as);
        } else if (lds || L->merge_stores) {
            gen_subword_merge(b, lds, bits);
        } else {
            gen_subword_native(b, bits);
        }
        sbf(b, "  br label %%x\nx:\n  ret void\n}\n");
    }
    /* atomics */
    static const char *const cas_ops[] = {"inc", "dec", "fadd", "fmin", "fmax"};
    for (unsigned bits = 32; bits <= 64; bits *= 2) {
        if (lds && (lds64 || L->lds_lock))
            break; /* the 64-bit-unit LDS: gen_lds64; under the lock: lds_buffer.c */
        if (lds && bits == 64)
            continue; /* the word-unit LDS has no 64-bit atomics (none in the program) */
        size_t nr = sizeof rmw_ops / sizeof rmw_ops[0], nc = sizeof cas_ops / sizeof cas_ops[0];
        for (size_t i = 0; i < nr + nc + 1; i++) {
            int cmpswap = i == nr + nc;
            const char *name = cmpswap ? "cmpswap" : i < nr ? rmw_ops[i][0] : cas_ops[i - nr];
            if (!lds && bits == 64 && L->atomic64_lock) {
                gen_atomic64_locked(b, L, name, cmpswap);
                continue;
            }
            sbf(b, "define i%u @wl.h.atomic.%s.%s.b%u(%s %%a, i%u %%v, %si1 %%act%s) " ATTR " {\ne:\n", bits,
                sp, name, bits, at, bits, cmpswap ? (bits == 64 ? "i64 %nv, " : "i32 %nv, ") : "", LANE);
            /* an LDS atomic of one instruction off: on the spare load and
             * store bytes, its result selected away (the swap loops keep
             * their branch: off lanes would contend on the spare word) */
            int bf = 0;
            if (lds && (cmpswap || i < nr)) {
                bf = lds_enter(b, L, bits / 8, WL_LDS_SPARE_BYTE(L->lds_bytes));
            } else {
                access_setup(b, L, lds, bits / 8);
                sbf(b, "  br i1 %%ok, label %%d, label %%x\nd:\n");
            }
            ptr_at(b, lds, "%p", bf ? "%as" : "%a");
            const char *from = "d";
            if (cmpswap) {
                sbf(b, "  %%c = cmpxchg ptr addrspace(%s) %%p, i%u %%v, i%u %%nv monotonic monotonic\n"
                       "  %%r = extractvalue {i%u, i1} %%c, 0\n",
                    as, bits, bits, bits);
            } else if (i < nr) {
                sbf(b, "  %%r = atomicrmw %s ptr addrspace(%s) %%p, i%u %%v monotonic, align %u\n", rmw_ops[i][1], as,
                    bits, bits / 8);
            } else {
                sbf(b, "  %%o0 = load i%u, ptr addrspace(%s) %%p, align %u\n  br label %%l\nl:\n"
                       "  %%o = phi i%u [%%o0, %%d], [%%s, %%l]\n",
                    bits, as, bits / 8, bits);
                cas_op(b, name, bits);
                sbf(b, "  %%c = cmpxchg ptr addrspace(%s) %%p, i%u %%o, i%u %%n monotonic monotonic\n"
                       "  %%s = extractvalue {i%u, i1} %%c, 0\n  %%k = extractvalue {i%u, i1} %%c, 1\n"
                       "  br i1 %%k, label %%y, label %%l\ny:\n  %%r = add i%u %%o, 0\n",
                    as, bits, bits, bits, bits, bits);
                from = "y";
            }
            if (bf)
                sbf(b, "  br label %%x\nx:\n  %%res = select i1 %%ok, i%u %%r, i%u 0\n  ret i%u %%res\n}\n", bits, bits,
                    bits);
            else
                sbf(b, "  br label %%x\nx:\n  %%res = phi i%u [0, %%e], [%%r, %%%s]\n  ret i%u %%res\n}\n", bits, from,
                    bits);
        }
    }
}

/* The LDS as 64-bit units (a program with 64-bit LDS atomics): @wl.group is
 * [LDS/8 x i64]. b8/b16/b32 loads and stores stay as gen_space writes them
 * (the backend reads a smaller scalar as a shift and mask of its unit, and
 * stores it by an atomic and + or on the unit). Here:
 *   b64 load/store  one i64 access where the address is 8-byte aligned,
 *                   else two dword accesses (ds_read_b64 needs only 4);
 *   64-bit atomics  atomicrmw / cmpxchg on the unit (compare-and-swap loops
 *                   for inc dec fadd fmin fmax); at an address 4- but not
 *                   8-byte aligned: WL_ESC_UNALIGNED64 and nothing done,
 *                   result 0 (the escape makes the runtime refuse the run);
 *                   these helpers take the lane as a last argument;
 *   32-bit atomics  and/or/xor: one 64-bit atomic with the other half
 *                   masked neutral; the others a compare-and-swap loop on
 *                   the containing unit that replaces only the dword. */
static void gen_lds64(sb *b, wl_lower_ctx *L)
{
    /* b64 load (off: the spare unit, 8-byte aligned, value selected away) */
    sbf(b, "define i64 @wl.h.load.lds.b64(i32 %%a, i1 %%act) " ATTR " {\ne:\n");
    int bf = lds_enter(b, L, 8, WL_LDS_SPARE_BYTE(L->lds_bytes));
    sbf(b, "  %%lo7 = and i32 %%as, 7\n  %%al = icmp eq i32 %%lo7, 0\n"
           "  %%p = getelementptr i8, ptr addrspace(3) @wl.group, i32 %%as\n  br i1 %%al, label %%w, label %%h\n"
           "w:\n  %%rw = load i64, ptr addrspace(3) %%p, align 8\n  br label %%j\n"
           "h:\n  %%a4 = add i32 %%as, 4\n  %%p4 = getelementptr i8, ptr addrspace(3) @wl.group, i32 %%a4\n"
           "  %%lo = load i32, ptr addrspace(3) %%p, align 4\n  %%hi = load i32, ptr addrspace(3) %%p4, align 4\n"
           "  %%lo64 = zext i32 %%lo to i64\n  %%hi64 = zext i32 %%hi to i64\n  %%his = shl i64 %%hi64, 32\n"
           "  %%rh = or i64 %%lo64, %%his\n  br label %%j\n"
           "j:\n  %%r = phi i64 [%%rw, %%w], [%%rh, %%h]\n");
    lds_load_exit(b, bf, "i64", "j");
    /* b64 store */
    sbf(b, "define void @wl.h.store.lds.b64(i32 %%a, i64 %%v, i1 %%act) " ATTR " {\ne:\n");
    lds_enter(b, L, 8, WL_LDS_SPARE_BYTE(L->lds_bytes));
    sbf(b, "  %%lo7 = and i32 %%as, 7\n  %%al = icmp eq i32 %%lo7, 0\n"
           "  %%p = getelementptr i8, ptr addrspace(3) @wl.group, i32 %%as\n  br i1 %%al, label %%w, label %%h\n"
           "w:\n  store i64 %%v, ptr addrspace(3) %%p, align 8\n  br label %%x\n"
           "h:\n  %%a4 = add i32 %%as, 4\n  %%p4 = getelementptr i8, ptr addrspace(3) @wl.group, i32 %%a4\n"
           "  %%lo = trunc i64 %%v to i32\n  %%hs = lshr i64 %%v, 32\n  %%hi = trunc i64 %%hs to i32\n"
           "  store i32 %%lo, ptr addrspace(3) %%p, align 4\n  store i32 %%hi, ptr addrspace(3) %%p4, align 4\n"
           "  br label %%x\nx:\n  ret void\n}\n");

    static const char *const cas_ops[] = {"inc", "dec", "fadd", "fmin", "fmax"};
    size_t nr = sizeof rmw_ops / sizeof rmw_ops[0], nc = sizeof cas_ops / sizeof cas_ops[0];
    /* 64-bit atomics */
    for (size_t i = 0; i < nr + nc + 1; i++) {
        int cmpswap = i == nr + nc;
        const char *name = cmpswap ? "cmpswap" : i < nr ? rmw_ops[i][0] : cas_ops[i - nr];
        sbf(b, "define i64 @wl.h.atomic.lds.%s.b64(i32 %%a, i64 %%v, %si1 %%act, i32 %%lane) " ATTR " {\ne:\n", name,
            cmpswap ? "i64 %nv, " : "");
        access_setup(b, L, 1, 8);
        sbf(b, "  br i1 %%ok, label %%c8, label %%x\nc8:\n  %%lo7 = and i32 %%a, 7\n  %%al = icmp eq i32 %%lo7, 0\n"
               "  br i1 %%al, label %%d, label %%u\n"
               "u:\n  call void @wl.h.escape(i32 %u, i32 0, i1 true, i32 %%lane)\n  br label %%x\nd:\n"
               "  %%p = getelementptr i8, ptr addrspace(3) @wl.group, i32 %%a\n",
            (unsigned)WL_ESC_UNALIGNED64);
        const char *from = "d";
        if (cmpswap) {
            sbf(b, "  %%c = cmpxchg ptr addrspace(3) %%p, i64 %%v, i64 %%nv monotonic monotonic\n"
                   "  %%r = extractvalue {i64, i1} %%c, 0\n");
        } else if (i < nr) {
            sbf(b, "  %%r = atomicrmw %s ptr addrspace(3) %%p, i64 %%v monotonic, align 8\n", rmw_ops[i][1]);
        } else {
            sbf(b, "  %%o0 = load i64, ptr addrspace(3) %%p, align 8\n  br label %%l\nl:\n"
                   "  %%o = phi i64 [%%o0, %%d], [%%s, %%l]\n");
            cas_op(b, name, 64);
            sbf(b, "  %%c = cmpxchg ptr addrspace(3) %%p, i64 %%o, i64 %%n monotonic monotonic\n"
                   "  %%s = extractvalue {i64, i1} %%c, 0\n  %%k = extractvalue {i64, i1} %%c, 1\n"
                   "  br i1 %%k, label %%y, label %%l\ny:\n  %%r = add i64 %%o, 0\n");
            from = "y";
        }
        sbf(b, "  br label %%x\nx:\n  %%res = phi i64 [0, %%e], [0, %%u], [%%r, %%%s]\n  ret i64 %%res\n}\n", from);
    }
    /* 32-bit atomics on the containing unit: %sh = 0 or 32 */
    static const char *const int_ops[][2] = {{"add", "add"}, {"sub", "sub"}, {"smin", "llvm.smin.i32"},
                                             {"umin", "llvm.umin.i32"}, {"smax", "llvm.smax.i32"},
                                             {"umax", "llvm.umax.i32"}};
    for (size_t i = 0; i < nr + nc + 1; i++) {
        int cmpswap = i == nr + nc;
        const char *name = cmpswap ? "cmpswap" : i < nr ? rmw_ops[i][0] : cas_ops[i - nr];
        sbf(b, "define i32 @wl.h.atomic.lds.%s.b32(i32 %%a, i32 %%v, %si1 %%act) " ATTR " {\ne:\n", name,
            cmpswap ? "i32 %nv, " : "");
        access_setup(b, L, 1, 4);
        sbf(b, "  br i1 %%ok, label %%d, label %%x\nd:\n  %%a8 = and i32 %%a, -8\n"
               "  %%p = getelementptr i8, ptr addrspace(3) @wl.group, i32 %%a8\n  %%hb = and i32 %%a, 4\n"
               "  %%sh32 = shl i32 %%hb, 3\n  %%sh = zext i32 %%sh32 to i64\n"
               "  %%msk = shl i64 4294967295, %%sh\n  %%nmsk = xor i64 %%msk, -1\n"
               "  %%vz = zext i32 %%v to i64\n  %%vs = shl i64 %%vz, %%sh\n");
        const char *from = "d";
        const char *native = !strcmp(name, "and") ? "and" : !strcmp(name, "or") ? "or" : !strcmp(name, "xor") ? "xor" : NULL;
        if (native) {
            /* and: the other dword's bits set; or, xor: clear */
            sbf(b, "  %%opnd = or i64 %%vs, %s\n"
                   "  %%u = atomicrmw %s ptr addrspace(3) %%p, i64 %%opnd monotonic, align 8\n"
                   "  %%us = lshr i64 %%u, %%sh\n  %%r = trunc i64 %%us to i32\n",
                !strcmp(native, "and") ? "%nmsk" : "0", native);
        } else {
            sbf(b, "  %%u0 = load i64, ptr addrspace(3) %%p, align 8\n  br label %%l\nl:\n"
                   "  %%u = phi i64 [%%u0, %%d], [%%s, %%l]\n  %%us = lshr i64 %%u, %%sh\n  %%o = trunc i64 %%us to i32\n");
            if (cmpswap) {
                sbf(b, "  %%eq = icmp eq i32 %%o, %%v\n  %%n = select i1 %%eq, i32 %%nv, i32 %%o\n");
            } else if (!strcmp(name, "swap")) {
                sbf(b, "  %%n = add i32 %%v, 0\n");
            } else if (i < nr) {
                for (size_t q = 0; q < sizeof int_ops / sizeof int_ops[0]; q++)
                    if (!strcmp(int_ops[q][0], name)) {
                        if (!strncmp(int_ops[q][1], "llvm.", 5))
                            sbf(b, "  %%n = call i32 @%s(i32 %%o, i32 %%v)\n", int_ops[q][1]);
                        else
                            sbf(b, "  %%n = %s i32 %%o, %%v\n", int_ops[q][1]);
                    }
            } else {
                cas_op(b, name, 32);
            }
            sbf(b, "  %%nz = zext i32 %%n to i64\n  %%ns = shl i64 %%nz, %%sh\n  %%keep = and i64 %%u, %%nmsk\n"
                   "  %%nu = or i64 %%keep, %%ns\n"
                   "  %%c = cmpxchg ptr addrspace(3) %%p, i64 %%u, i64 %%nu monotonic monotonic\n"
                   "  %%s = extractvalue {i64, i1} %%c, 0\n  %%k = extractvalue {i64, i1} %%c, 1\n"
                   "  br i1 %%k, label %%y, label %%l\ny:\n  %%r = add i32 %%o, 0\n");
            from = "y";
        }
        sbf(b, "  br label %%x\nx:\n  %%res = phi i32 [0, %%e], [%%r, %%%s]\n  ret i32 %%res\n}\n", from);
    }
    sbf(b, "declare i32 @llvm.smin.i32(i32, i32)\ndeclare i32 @llvm.umin.i32(i32, i32)\n"
           "declare i32 @llvm.smax.i32(i32, i32)\ndeclare i32 @llvm.umax.i32(i32, i32)\n");
}

/* The guest mapping (docs/memory.md): @wl.h.gmap(a, n - 1, act, lane)
 * gives {host address, inside} for an access of n bytes at guest address a.
 * Bits 63:48 of a are ignored, as the hardware does. The push constants
 * hold the guest base G, ~L (L = the range's last byte offset) and the host
 * base H: inside is (a48 - G) <= L - (n - 1), the host address
 * (a48 - G) + H; all zero is the identity.
 *
 * An active access outside is an escape (WL_ESC_ADDRESS) naming the
 * address. Recording it at the access (a compare-and-swap and five stores,
 * in every clone of every access) made the suite's modules larger by a
 * tenth; the access only notes it: @wl.note(keep, off, lane), keep false
 * for an active access outside. Its offset off = a48 - G is never 0 there
 * (off <= L - (n - 1) holds for off = 0 whenever that bound does not wrap,
 * and every off does where it wraps), so 0 can mean "none".
 * wl_lc_bad_place (bad_note.c) makes the notes one select each into a
 * variable of the lane clone; esc_note.c records the invocation's bad
 * address once, at the kernel's return. The push-constant loads are
 * invariant, so that LLVM keeps one copy of G, F, H. */
static void gen_map(sb *b)
{
    sbf(b, "declare void @wl.note(i1, i64, i32)\n");
    sbf(b, "define {i64, i1} @wl.h.gmap(i64 %%a, i64 %%nm1, i1 %%act, i32 %%lane) " ATTR " {\ne:\n"
           "  %%pg = getelementptr i8, ptr addrspace(6) @wl.push, i32 %u\n"
           "  %%pf = getelementptr i8, ptr addrspace(6) @wl.push, i32 %u\n"
           "  %%ph = getelementptr i8, ptr addrspace(6) @wl.push, i32 %u\n"
           "  %%g = load i64, ptr addrspace(6) %%pg, align 4, !invariant.load !{}\n"
           "  %%f = load i64, ptr addrspace(6) %%pf, align 4, !invariant.load !{}\n"
           "  %%h = load i64, ptr addrspace(6) %%ph, align 4, !invariant.load !{}\n"
           "  %%a48 = and i64 %%a, 281474976710655\n  %%off = sub i64 %%a48, %%g\n"
           "  %%lim = xor i64 %%f, -1\n  %%limn = sub i64 %%lim, %%nm1\n"
           "  %%in = icmp ule i64 %%off, %%limn\n  %%ha = add i64 %%off, %%h\n"
           /* keep = !(act && !in), written so that act = true folds to in */
           "  %%aok = and i1 %%act, %%in\n  %%keep = icmp eq i1 %%aok, %%act\n"
           "  call void @wl.note(i1 %%keep, i64 %%off, i32 %%lane)\n"
           "  %%v0 = insertvalue {i64, i1} undef, i64 %%ha, 0\n"
           "  %%v1 = insertvalue {i64, i1} %%v0, i1 %%in, 1\n  ret {i64, i1} %%v1\n}\n",
        WL_PUSH_MAP_OFFSET, WL_PUSH_MAP_OFFSET + 8, WL_PUSH_MAP_OFFSET + 16);
}

static void append_text(void *b, const char *text)
{
    sbf(b, "%s", text);
}

void wl_lc_put(wl_lc_txt *t, const char *fmt, ...)
{
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap); /* each piece is far shorter */
    va_end(ap);
    t->out(t->ctx, line);
}

/* Whether the program has a 64-bit LDS atomic (a used wl.atomic.lds.*.b64). */
static int has_lds64_atomics(wl_lower_ctx *L)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(L->m); f; f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *n = LLVMGetValueName2(f, &len);
        if (len > 18 && wl_lc_prefix(n, len, "wl.atomic.lds.") && !memcmp(n + len - 4, ".b64", 4) && LLVMGetFirstUse(f))
            return 1;
    }
    return 0;
}

wl_status wl_lc_link_helpers(wl_lower_ctx *L)
{
    sb b = {0};
    sbf(&b, "@wl.status = external addrspace(4) global [0 x i32]\n"
            "@wl.push = external addrspace(6) global [%d x i32]\n", WL_PUSH_BYTES / 4);
    if (L->mapping_pages)
        wl_lc_gen_gmap_pages(append_text, &b); /* gmap_pages.c: the page table */
    else
        gen_map(&b);
    int lds64 = has_lds64_atomics(L);
    /* 64-bit LDS atomics without a 64-bit view: every LDS atomic under the
     * lock in the spare dword (lds_buffer.c), the LDS as words */
    L->lds_lock = lds64 && (L->lds_buffer ? L->atomic64_lock : L->lds_lock_shared);
    /* with the spare bytes (L->lds_spare), the slice's layout:
     * WL_LDS_SLICE_BYTES, a multiple of 8 */
    uint64_t sl = WL_LDS_SLICE_BYTES(L->lds_bytes);
    if (L->lds_lock) {
        lds64 = 0;
        sbf(&b, "@wl.group = addrspace(3) global [%u x i32] poison\n",
            L->lds_spare ? (unsigned)(sl / 4) : WL_LDS_LOCK_BYTE(L->lds_bytes) / 4 + 1);
        wl_lc_gen_lds_lock(L, append_text, &b);
    } else if (lds64) {
        uint32_t lq = (L->lds_bytes + 7) / 8;
        sbf(&b, "@wl.group = addrspace(3) global [%u x i64] poison\n", L->lds_spare ? (unsigned)(sl / 8) : lq ? lq : 1);
    } else {
        uint32_t lw = (L->lds_bytes + 3) / 4;
        sbf(&b, "@wl.group = addrspace(3) global [%u x i32] poison\n", L->lds_spare ? (unsigned)(sl / 4) : lw ? lw : 1);
    }
    gen_space(&b, L, 0, 0);
    gen_space(&b, L, 1, lds64);
    if (lds64)
        gen_lds64(&b, L);
    wl_lc_gen_scratch(L, append_text, &b); /* scratch.c */
    gen_merge_loops(&b, lds64);
    sbf(&b,
        /* an escape only notes itself; esc_note.c makes the note a select
         * and records the invocation's first at its return */
        "declare void @wl.esc.note(i32, i32, i1, i32)\n"
        "define void @wl.h.escape(i32 %%kind, i32 %%off, i1 %%act, i32 %%lane) " ATTR " {\n"
        "e:\n  call void @wl.esc.note(i32 %%kind, i32 %%off, i1 %%act, i32 %%lane)\n  ret void\n}\n"
        /* the escape recorded at once: the locks' (gen_atomic64_locked,
         * lds_buffer.c gen_locked). With a note there, lavapipe returned
         * wrong 64-bit swap results under the lock (test_subword,
         * test_lds64; lds_buffer.c says more) */
        "define void @wl.h.escape.now(i32 %%kind, i32 %%off, i1 %%act, i32 %%lane) " ATTR " {\n"
        "e:\n  br i1 %%act, label %%d, label %%x\nd:\n"
        "  %%c = cmpxchg ptr addrspace(4) @wl.status, i32 0, i32 %%kind monotonic monotonic\n"
        "  %%won = extractvalue {i32, i1} %%c, 1\n  br i1 %%won, label %%w, label %%x\nw:\n"
        "  %%p1 = getelementptr i8, ptr addrspace(4) @wl.status, i32 4\n  store i32 %%off, ptr addrspace(4) %%p1, align 4\n"
        "  %%p2 = getelementptr i8, ptr addrspace(4) @wl.status, i32 8\n  store i32 %%lane, ptr addrspace(4) %%p2, align 4\n"
        "  %%g = call i32 @spv.workgroup_id(i32 0)\n"
        "  %%p3 = getelementptr i8, ptr addrspace(4) @wl.status, i32 12\n  store i32 %%g, ptr addrspace(4) %%p3, align 4\n"
        "  br label %%x\nx:\n  ret void\n}\n"
        "define void @wl.h.sstore.b32(i64 %%a, i32 %%v, i32 %%lane) " ATTR " {\n"
        "e:\n  %%el = call i1 @spv.subgroup.elect()\n"
        "  %%a4 = and i64 %%a, -4\n"
        "  call void @wl.h.store.global.b32.a4(i64 %%a4, i32 %%v, i1 %%el, i32 %%lane)\n  ret void\n}\n"
        /* SMEM ignores the address's low 2 bits (docs/wave-ir.md): no
         * misaligned path, one mapped dword */
        "define i32 @wl.h.sload.b32(i64 %%a) " ATTR " {\n"
        "e:\n  %%a4 = and i64 %%a, -4\n"
        "  %%mp = call {i64, i1} @wl.h.gmap(i64 %%a4, i64 3, i1 true, i32 0)\n"
        "  %%ha = extractvalue {i64, i1} %%mp, 0\n  %%ok = extractvalue {i64, i1} %%mp, 1\n"
        "  %%skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 %u\n"
        "  %%sk = load i64, ptr addrspace(6) %%skp, align 4, !invariant.load !{}\n"
        "  %%hs = select i1 %%ok, i64 %%ha, i64 %%sk\n  %%p = inttoptr i64 %%hs to ptr addrspace(1)\n"
        "  %%r = load i32, ptr addrspace(1) %%p, align 4\n  ret i32 %%r\n}\n"
        /* a span of scalar loads (wl_lc_span): X + c, X the address with
         * its low 2 bits cleared where the loads' offsets are multiples of 4 */
        "define i32 @wl.h.sload.b32.span(i64 %%a, i64 %%c0, i64 %%nm1, i64 %%c, i1 %%note) " ATTR " {\n"
        "e:\n  %%xa0 = add i64 %%a, %%c0\n  %%xa = and i64 %%xa0, -4\n"
        "  %%mp = call {i64, i1} @wl.h.gmap(i64 %%xa, i64 %%nm1, i1 %%note, i32 0)\n"
        "  %%ha = extractvalue {i64, i1} %%mp, 0\n  %%ok = extractvalue {i64, i1} %%mp, 1\n"
        "  %%skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 %u\n"
        "  %%sk = load i64, ptr addrspace(6) %%skp, align 4, !invariant.load !{}\n"
        "  %%hs0 = select i1 %%ok, i64 %%ha, i64 %%sk\n  %%d = sub i64 %%c, %%c0\n  %%hs = add i64 %%hs0, %%d\n"
        "  %%p = inttoptr i64 %%hs to ptr addrspace(1)\n"
        "  %%r = load i32, ptr addrspace(1) %%p, align 4\n  ret i32 %%r\n}\n"
        "declare i32 @spv.workgroup_id(i32)\ndeclare i1 @spv.subgroup.elect()\n"
        "declare float @llvm.minnum.f32(float, float)\ndeclare float @llvm.maxnum.f32(float, float)\n"
        "declare double @llvm.minnum.f64(double, double)\ndeclare double @llvm.maxnum.f64(double, double)\n",
        WL_PUSH_SINK_OFFSET, WL_PUSH_SINK_OFFSET);
    if (b.oom) {
        free(b.s);
        return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
    }
    LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRange(b.s, b.n, "wl.helpers", 0);
    LLVMModuleRef hm = NULL;
    char *msg = NULL;
    if (LLVMParseIRInContext(L->ctx, mb, &hm, &msg)) {
        wl_status st = wl_lc_fail(L, WL_ERR_INVALID, NULL, "lanes model: helper IR: %s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        free(b.s);
        return st;
    }
    free(b.s);
    if (LLVMLinkModules2(L->m, hm))
        return wl_lc_fail(L, WL_ERR_INVALID, NULL, "lanes model: linking the helpers failed");
    LLVMValueRef push = LLVMGetNamedGlobal(L->m, "wl.push");
    if (push)
        LLVMSetGlobalConstant(push, 1); /* read-only: its loads are not clobbered by stores */
    return WL_OK;
}

/* Whether the next call after `at` in its block (LLVM intrinsics aside) is
 * a wave-IR LDS load (not lowered yet: the calls are lowered in order).
 * Two loads need no order between the lanes (nothing is written between
 * them), so the LDS order barrier after a load is left out when the next
 * LDS access is a load; after a store or an atomic, and before anything
 * else (a store, a barrier, any other call, the block's end), it stays. */
static int next_lds_is_load(LLVMValueRef at)
{
    for (LLVMValueRef I = LLVMGetNextInstruction(at); I; I = LLVMGetNextInstruction(I)) {
        if (!LLVMIsACallInst(I))
            continue;
        LLVMValueRef f = LLVMGetCalledValue(I);
        size_t n = 0;
        const char *nm = f && LLVMIsAFunction(f) ? LLVMGetValueName2(f, &n) : NULL;
        if (nm && n > 5 && !memcmp(nm, "llvm.", 5))
            continue;
        return nm && n > 12 && !memcmp(nm, "wl.load.lds.", 12);
    }
    return 0;
}

/* The low bits of an integer value known to be zero (at most 64): a small
 * known-bits walk over constants, add/sub/or/xor (the fewest of the two),
 * and (the most), shifts left by a constant, mul, casts, select and phi
 * (depth-limited). 0 where unknown. */
static unsigned low_zero_bits(LLVMValueRef v, unsigned depth)
{
    if (LLVMIsAConstantInt(v)) {
        unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(v));
        if (w > 64)
            return 0;
        uint64_t c = LLVMConstIntGetZExtValue(v);
        unsigned n = 0;
        while (n < w && !(c >> n & 1))
            n++;
        return n;
    }
    if (!LLVMIsAInstruction(v) || depth > 8)
        return 0;
    unsigned a, b2;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMAdd:
    case LLVMSub:
    case LLVMOr:
    case LLVMXor:
        a = low_zero_bits(LLVMGetOperand(v, 0), depth + 1);
        if (!a)
            return 0;
        b2 = low_zero_bits(LLVMGetOperand(v, 1), depth + 1);
        return a < b2 ? a : b2;
    case LLVMAnd:
        a = low_zero_bits(LLVMGetOperand(v, 0), depth + 1);
        b2 = low_zero_bits(LLVMGetOperand(v, 1), depth + 1);
        return a > b2 ? a : b2;
    case LLVMMul:
        a = low_zero_bits(LLVMGetOperand(v, 0), depth + 1) + low_zero_bits(LLVMGetOperand(v, 1), depth + 1);
        return a > 64 ? 64 : a;
    case LLVMShl: {
        LLVMValueRef sh = LLVMGetOperand(v, 1);
        if (!LLVMIsAConstantInt(sh))
            return 0;
        uint64_t s = LLVMConstIntGetZExtValue(sh);
        a = low_zero_bits(LLVMGetOperand(v, 0), depth + 1);
        return s >= 64 || a + s > 64 ? 64 : a + (unsigned)s;
    }
    case LLVMZExt:
    case LLVMSExt:
    case LLVMTrunc:
    case LLVMFreeze:
        a = low_zero_bits(LLVMGetOperand(v, 0), depth + 1);
        b2 = LLVMGetIntTypeWidth(LLVMTypeOf(v));
        return a < b2 ? a : b2;
    case LLVMSelect:
        a = low_zero_bits(LLVMGetOperand(v, 1), depth + 1);
        if (!a)
            return 0;
        b2 = low_zero_bits(LLVMGetOperand(v, 2), depth + 1);
        return a < b2 ? a : b2;
    case LLVMPHI: {
        unsigned n = LLVMCountIncoming(v), m = 64;
        for (unsigned i = 0; i < n && m; i++) {
            LLVMValueRef in = LLVMGetIncomingValue(v, i);
            if (in == v)
                continue;
            a = low_zero_bits(in, depth + 4); /* loops: a few levels only */
            m = a < m ? a : m;
        }
        return m;
    }
    default:
        return 0;
    }
}

/* x with addr & 3 == x & 3 that is not addr itself: through adds and ors
 * of a term known 4-aligned (and subtractions of one), the deepest such x
 * (a kernel argument's pointer, shared by the accesses from it); NULL when
 * there is none. */
static LLVMValueRef align_base(LLVMValueRef addr)
{
    LLVMValueRef x = NULL;
    for (unsigned depth = 0; depth < 8 && LLVMIsAInstruction(addr) && LLVMGetNumOperands(addr) == 2; depth++) {
        LLVMOpcode op = LLVMGetInstructionOpcode(addr);
        LLVMValueRef a = LLVMGetOperand(addr, 0), b = LLVMGetOperand(addr, 1), next = NULL;
        if ((op == LLVMAdd || op == LLVMOr || op == LLVMSub) && low_zero_bits(b, 0) >= 2)
            next = a;
        else if ((op == LLVMAdd || op == LLVMOr) && low_zero_bits(a, 0) >= 2)
            next = b;
        if (!next)
            break;
        x = addr = next;
    }
    return x;
}

/* The x of align_base where it is the same for all n > 1 lane clones of
 * the access idx (so its shift is computed once, not per clone: a single
 * load's .ax costs a few words more than the plain load), else NULL. */
static LLVMValueRef shared_align_base(wl_lower_ctx *L, long idx, unsigned n)
{
    if (idx < 0 || n < 2)
        return NULL;
    LLVMValueRef x = NULL;
    for (unsigned j = 0; j < n; j++) {
        LLVMValueRef c = wl_lc_clones(L, idx)[j];
        LLVMValueRef xj = LLVMGetNumOperands(c) > 1 ? align_base(LLVMGetOperand(c, 0)) : NULL;
        if (!xj || (x && xj != x))
            return NULL;
        x = xj;
    }
    return x;
}

/* addr = X + c with c a constant in [0, WL_SPAN_MAX] (an add, or an or
 * whose constant has no bits in common with X's known-zero low bits);
 * otherwise X = addr, c = 0 */
#define WL_SPAN_MAX 252
static LLVMValueRef addr_split(LLVMValueRef addr, uint64_t *c)
{
    *c = 0;
    if (!LLVMIsAInstruction(addr) || LLVMGetNumOperands(addr) != 2)
        return addr;
    LLVMOpcode op = LLVMGetInstructionOpcode(addr);
    LLVMValueRef k = LLVMGetOperand(addr, 1);
    if ((op != LLVMAdd && op != LLVMOr) || !LLVMIsAConstantInt(k) || LLVMConstIntGetZExtValue(k) > WL_SPAN_MAX)
        return addr;
    uint64_t v = LLVMConstIntGetZExtValue(k);
    if (op == LLVMOr && v && (v >> low_zero_bits(LLVMGetOperand(addr, 0), 0)))
        return addr;
    *c = v;
    return LLVMGetOperand(addr, 0);
}

/* The span of the wave-IR access `orig` (span_setup): the calls of its
 * block to the same function with the same EXEC operand (act_op, -1: none)
 * at X + c for the same X (c a multiple of `step`), their offsets within
 * WL_SPAN_MAX bytes of each other. 0 where orig is alone. */
typedef struct span {
    uint64_t c, c0, nm1;
    int note; /* orig is the span's first access in the block */
} span;

/* The span index of one block: every call of the block with its callee, X
 * and c (addr_split of its first argument), sorted by (callee, X, place) so
 * that one access's candidates are one run, and by call for the lookup.
 * Built once per block instead of a scan of the whole block per access
 * (scratch_big's spills: 60,000 instructions, the scan was quadratic). */
typedef struct span_ent {
    LLVMValueRef call, f, X;
    uint64_t c;
    size_t pos;
} span_ent;

typedef struct span_at {
    LLVMValueRef call;
    size_t i; /* in ents */
} span_at;

struct wl_span_index {
    LLVMBasicBlockRef bb;
    span_ent *ents;   /* by (f, X, pos) */
    span_at *by_call; /* by call */
    size_t n, cap;
    int built;
};

static int cmp_ptr(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b; /* values, not pointers to them */
    return x < y ? -1 : x > y;
}

static int cmp_key(const void *pa, const void *pb)
{
    const span_ent *a = pa, *b = pb;
    int r = cmp_ptr(a->f, b->f);
    if (!r)
        r = cmp_ptr(a->X, b->X);
    return r ? r : (a->pos > b->pos) - (a->pos < b->pos);
}

int wl_lc_spans_begin(wl_lower_ctx *L)
{
    L->spans = calloc(1, sizeof *L->spans);
    return L->spans != NULL;
}

void wl_lc_spans_end(wl_lower_ctx *L)
{
    if (!L->spans)
        return;
    free(L->spans->ents);
    free(L->spans->by_call);
    free(L->spans);
    L->spans = NULL;
}

static int cmp_call(const void *pa, const void *pb)
{
    return cmp_ptr(((const span_at *)pa)->call, ((const span_at *)pb)->call);
}

/* (re)builds the index for bb: 0 on out of memory */
static int spans_build(struct wl_span_index *S, LLVMBasicBlockRef bb)
{
    S->bb = bb;
    S->n = 0;
    S->built = 0;
    size_t pos = 0;
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I), pos++) {
        if (!LLVMIsACallInst(I) || LLVMGetNumOperands(I) < 2)
            continue;
        if (S->n == S->cap) {
            size_t nc = S->cap ? 2 * S->cap : 64;
            span_ent *ne = realloc(S->ents, nc * sizeof *ne);
            if (!ne)
                return 0;
            S->ents = ne;
            span_at *nb = realloc(S->by_call, nc * sizeof *nb);
            if (!nb)
                return 0;
            S->by_call = nb;
            S->cap = nc;
        }
        span_ent *e = &S->ents[S->n++];
        e->call = I;
        e->f = LLVMGetCalledValue(I);
        e->X = addr_split(LLVMGetOperand(I, 0), &e->c);
        e->pos = pos;
    }
    if (S->n)
        qsort(S->ents, S->n, sizeof *S->ents, cmp_key);
    for (size_t i = 0; i < S->n; i++)
        S->by_call[i] = (span_at){S->ents[i].call, i};
    if (S->n)
        qsort(S->by_call, S->n, sizeof *S->by_call, cmp_call);
    S->built = 1;
    return 1;
}

/* orig's entry in the index of its block, or NULL (no index, out of memory) */
static const span_ent *spans_find(wl_lower_ctx *L, LLVMValueRef orig)
{
    struct wl_span_index *S = L->spans;
    if (!S)
        return NULL;
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(orig);
    for (int pass = 0; pass < 2; pass++) {
        if (!S->built || S->bb != bb) {
            if (!spans_build(S, bb))
                return NULL;
        }
        size_t lo = 0, hi = S->n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            uintptr_t m = (uintptr_t)S->by_call[mid].call;
            if (m < (uintptr_t)orig)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < S->n && S->by_call[lo].call == orig)
            return &S->ents[S->by_call[lo].i];
        S->built = 0; /* the block changed: once more from scratch */
    }
    return NULL;
}

static int span_of(wl_lower_ctx *L, LLVMValueRef orig, int act_op, unsigned step, span *sp)
{
    uint64_t c;
    LLVMValueRef X = addr_split(LLVMGetOperand(orig, 0), &c);
    if (c % step)
        return 0;
    LLVMValueRef f = LLVMGetCalledValue(orig);
    LLVMValueRef act = act_op >= 0 ? LLVMGetOperand(orig, (unsigned)act_op) : NULL;
    uint64_t lo = c, hi = c;
    unsigned n = 0;
    int first = 1, seen = 0;
    const span_ent *me = spans_find(L, orig);
    if (me) {
        /* the run of (f, X) around me, in block order */
        const span_ent *b = me, *e = me + 1, *end = L->spans->ents + L->spans->n;
        while (b > L->spans->ents && b[-1].f == f && b[-1].X == X)
            b--;
        while (e < end && e->f == f && e->X == X)
            e++;
        for (const span_ent *q = b; q < e; q++) {
            if (q == me)
                seen = 1;
            if (act && LLVMGetOperand(q->call, (unsigned)act_op) != act)
                continue;
            if (q->c % step)
                continue;
            uint64_t nlo = q->c < lo ? q->c : lo, nhi = q->c > hi ? q->c : hi;
            if (nhi - nlo > WL_SPAN_MAX)
                continue;
            lo = nlo;
            hi = nhi;
            n++;
            if (!seen)
                first = 0;
        }
    } else {
        for (LLVMValueRef I = LLVMGetFirstInstruction(LLVMGetInstructionParent(orig)); I; I = LLVMGetNextInstruction(I)) {
            if (I == orig)
                seen = 1;
            if (!LLVMIsACallInst(I) || LLVMGetCalledValue(I) != f || (act && LLVMGetOperand(I, (unsigned)act_op) != act))
                continue;
            uint64_t ci;
            if (addr_split(LLVMGetOperand(I, 0), &ci) != X || ci % step)
                continue;
            uint64_t nlo = ci < lo ? ci : lo, nhi = ci > hi ? ci : hi;
            if (nhi - nlo > WL_SPAN_MAX)
                continue;
            lo = nlo;
            hi = nhi;
            n++;
            if (!seen)
                first = 0;
        }
    }
    if (n < 2)
        return 0;
    sp->c = c;
    sp->c0 = lo;
    sp->nm1 = hi - lo + 3;
    sp->note = first;
    return 1;
}

/* Clone j's X (the clone of orig's address is X + c, or X itself) */
static LLVMValueRef span_base(LLVMValueRef clone_addr, const span *sp)
{
    uint64_t c;
    LLVMValueRef X = addr_split(clone_addr, &c);
    return c == sp->c ? X : NULL;
}

/* @wl.sload.b32 of launch.c, clone c of orig: the guest mapping's load,
 * one mapping for a span of loads from one address */
LLVMValueRef wl_lc_sload(wl_lower_ctx *L, LLVMValueRef orig, LLVMValueRef c)
{
    LLVMValueRef a = LLVMGetOperand(c, 0);
    span sp;
    LLVMValueRef X = span_of(L, orig, -1, 4, &sp) ? span_base(a, &sp) : NULL;
    if (!X)
        return wl_lc_call(L, "wl.h.sload.b32", L->i32, &a, 1);
    LLVMValueRef args[5] = {X, LLVMConstInt(L->i64, sp.c0, 0), LLVMConstInt(L->i64, sp.nm1, 0),
                            LLVMConstInt(L->i64, sp.c, 0), LLVMConstInt(L->i1, (unsigned long long)sp.note, 0)};
    return wl_lc_call(L, "wl.h.sload.b32.span", L->i32, args, 5);
}

wl_status wl_lc_lower_mem_call(wl_lower_ctx *L, LLVMValueRef orig, const char *name, size_t len)
{
    int scratch = 0, lds = 0, escape = 0, lane_arg = 0;
    if (wl_lc_prefix(name, len, "wl.load.") || wl_lc_prefix(name, len, "wl.store.") ||
        wl_lc_prefix(name, len, "wl.atomic.")) {
        scratch = strstr(name, ".scratch.") != NULL;
        lds = strstr(name, ".lds.") != NULL;
        /* 64-bit LDS atomics take the lane (their unaligned escape), global
         * accesses too (an address outside the mapping) */
        lane_arg = (lds && wl_lc_prefix(name, len, "wl.atomic.") && len > 4 && !memcmp(name + len - 4, ".b64", 4)) ||
                   (!lds && !scratch) || (scratch && L->scratch_buffer);
    } else if (wl_lc_prefix(name, len, "wl.escape")) {
        escape = lane_arg = 1;
    } else if (wl_lc_prefix(name, len, "wl.sstore.b32")) {
        lane_arg = 1;
    } else {
        return WL_ERR_NOT_FOUND;
    }
    char hname[160];
    long idx = wl_lc_find(L, orig);
    unsigned n = idx >= 0 ? L->k : 1;
    LLVMValueRef last = NULL;
    for (unsigned j = 0; j < n; j++) {
        /* scratch: clone j's own helper (its own array) */
        if (scratch)
            snprintf(hname, sizeof hname, "wl.h.%s.j%u", name + 3, j);
        else
            snprintf(hname, sizeof hname, "wl.h.%s", escape ? "escape" : name + 3);
        LLVMValueRef c = idx >= 0 ? wl_lc_clones(L, idx)[j] : orig;
        /* a global dword load at an address known 4-aligned: one word */
        int isload = !strcmp(name, "wl.load.global.b32") || !strcmp(name, "wl.load.global.b64");
        int isstore = !strcmp(name, "wl.store.global.b32") || !strcmp(name, "wl.store.global.b64");
        LLVMValueRef ax = NULL; /* else: the low bits of the address are those of ax (.ax) */
        if (!lds && !scratch && (isload || isstore) && LLVMGetNumOperands(c) > 1 &&
            low_zero_bits(LLVMGetOperand(c, 0), 0) >= 2)
            snprintf(hname, sizeof hname, "wl.h.%s.a4", name + 3);
        else if (!lds && !scratch && isload && (ax = shared_align_base(L, idx, n)))
            snprintf(hname, sizeof hname, "wl.h.%s.ax", name + 3);
        /* a span of dword accesses from one address: mapped once */
        span sp;
        LLVMValueRef X = NULL;
        int spanned = (!strcmp(name, "wl.load.global.b32") || !strcmp(name, "wl.store.global.b32")) &&
                      span_of(L, orig, isload ? 1 : 2, 1, &sp) && (X = span_base(LLVMGetOperand(c, 0), &sp));
        if (spanned && ax) { /* a span of the plain load */
            ax = NULL;
            snprintf(hname, sizeof hname, "wl.h.%s", name + 3);
        }
        if (spanned)
            snprintf(hname + strlen(hname), sizeof hname - strlen(hname), ".span");
        LLVMValueRef h = LLVMGetNamedFunction(L->m, hname);
        if (!h)
            return wl_lc_fail(L, WL_ERR_UNSUPPORTED, NULL, "lanes model: @%s is not lowered", name);
        LLVMTypeRef hty = LLVMGlobalGetValueType(h);
        LLVMPositionBuilderBefore(L->b, c);
        LLVMValueRef args[12];
        unsigned na = (unsigned)LLVMGetNumOperands(c) - 1;
        if (na > 6 || LLVMCountParams(h) != na + (lane_arg ? 1 : 0) + (spanned ? 4 : 0) + (ax ? 1 : 0))
            return wl_lc_fail(L, WL_ERR_INVALID, c, "lanes model: @%s has the wrong signature", name);
        for (unsigned i = 0, o = 0; i < na; i++) {
            args[o++] = LLVMGetOperand(c, i);
            if (spanned && i == 0) { /* X, then the span's c0, nm1, c, note */
                args[0] = X;
                args[o++] = LLVMConstInt(L->i64, sp.c0, 0);
                args[o++] = LLVMConstInt(L->i64, sp.nm1, 0);
                args[o++] = LLVMConstInt(L->i64, sp.c, 0);
                args[o++] = LLVMConstInt(L->i1, (unsigned long long)sp.note, 0);
            }
            if (ax && i == 0)
                args[o++] = ax;
        }
        if (spanned)
            na += 4;
        if (ax)
            na++;
        if (lane_arg)
            args[na++] = LLVMBuildAdd(L->b, L->p, LLVMConstInt(L->i32, (uint64_t)j * L->S, 0), "lane");
        for (unsigned i = 0; i < na; i++)
            if (LLVMTypeOf(args[i]) != LLVMTypeOf(LLVMGetParam(h, i)))
                return wl_lc_fail(L, WL_ERR_INVALID, c, "lanes model: @%s has the wrong signature", name);
        LLVMValueRef v = LLVMBuildCall2(L->b, hty, h, args, na, "");
        int isvoid = LLVMGetReturnType(hty) == L->t_void;
        if (!isvoid && LLVMGetReturnType(hty) != LLVMTypeOf(c))
            return wl_lc_fail(L, WL_ERR_INVALID, c, "lanes model: @%s has the wrong signature", name);
        last = v;
        wl_status rs = wl_lc_replace(L, orig, j, c, isvoid ? NULL : v);
        if (rs)
            return rs;
    }
    if (lds && last && !(wl_lc_prefix(name, len, "wl.load.lds.") && next_lds_is_load(last))) {
        LLVMValueRef next = LLVMGetNextInstruction(last);
        LLVMPositionBuilder(L->b, LLVMGetInstructionParent(last), next);
        wl_lc_call(L, "spv.barrier.subgroup", L->t_void, NULL, 0);
    }
    return WL_OK;
}

wl_status wl_lc_finish(wl_lower_ctx *L)
{
    wl_lc_push_pairs(L); /* launch.c */
    wl_lc_outline_helpers(L->m, L->helper_calls); /* helper_calls.c: the large helpers called often stay functions */
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(L->m, "always-inline", NULL, po);
    LLVMDisposePassBuilderOptions(po);
    if (e) {
        char *msg = LLVMGetErrorMessage(e);
        wl_status st = wl_lc_fail(L, WL_ERR_INVALID, NULL, "lanes model: always-inline: %s", msg);
        LLVMDisposeErrorMessage(msg);
        return st;
    }
    wl_status rs = wl_lc_record_escapes(L); /* esc_note.c, bad_note.c */
    if (!rs)
        rs = wl_lc_lds_finish(L); /* lds_buffer.c: the lock's first value, device-memory LDS */
    if (!rs)
        rs = wl_lc_scratch_finish(L); /* scratch.c: device-memory scratch's segment */
    if (rs)
        return rs;
    /* drop the helpers and the wl.* declarations */
    LLVMValueRef f = LLVMGetFirstFunction(L->m);
    while (f) {
        LLVMValueRef next = LLVMGetNextFunction(f);
        size_t len;
        const char *n = LLVMGetValueName2(f, &len);
        if (f != L->fn && wl_lc_prefix(n, len, "wl.") && !(wl_lc_is_outlined(f) && LLVMGetFirstUse(f))) {
            if (LLVMGetFirstUse(f))
                return wl_lc_fail(L, WL_ERR_INVALID, NULL, "lanes model: @%.*s is still called", (int)len, n);
            LLVMDeleteFunction(f);
        }
        f = next;
    }
    static const char *const gl[] = {"wl.group", "wl.status"};
    for (size_t i = 0; i < 2; i++) {
        LLVMValueRef g = LLVMGetNamedGlobal(L->m, gl[i]);
        if (g && !LLVMGetFirstUse(g))
            LLVMDeleteGlobal(g);
    }
    for (unsigned j = 0; j < L->k; j++) {
        char gname[32];
        snprintf(gname, sizeof gname, "wl.scratch.%u", j);
        LLVMValueRef g = LLVMGetNamedGlobal(L->m, gname);
        if (g && !LLVMGetFirstUse(g))
            LLVMDeleteGlobal(g);
    }
    /* the metadata the lifter used */
    unsigned vk = LLVMGetMDKindIDInContext(L->ctx, "wl.vgpr", 7);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(L->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I))
            if (LLVMIsAAllocaInst(I))
                LLVMSetMetadata(I, vk, NULL);
    LLVMSetValueName2(L->fn, "main", 4);
    return WL_OK;
}

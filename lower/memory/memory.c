/* Memory of the lanes model (docs/lanes.md). Each per-lane memory call
 * (every clone) becomes a call to a helper @wl.h.<name>, linked into the
 * module (wl_lc_link_helpers, build_helpers below: docs/memory.md, "The
 * helper IR") and inlined at the end (always-inline). The helpers that do
 * not depend on the program are IR files, lower/memory/helpers/ (.ll),
 * assembled at build time and embedded as bitcode; those of the LDS and
 * scratch, whose sizes and k they bake in, are IR text written here, in
 * lds.c and in scratch.c:
 *
 *   global   the guest address mapped to a host address (@wl.h.gmap, the
 *            guest mapping of docs/memory.md, helpers/map.ll; outside it:
 *            WL_ESC_ADDRESS, the load reads 0, the store is dropped), then
 *            the access at the host address or the sink, without a block
 *            (helpers/global.ll); b8/b16 stores by bytes, or merged into
 *            their word by a compare-and-swap loop of at most 1024 rounds,
 *            then an escape (D977); inc/dec/float atomics are
 *            compare-and-swap loops.
 *   lds      @wl.group, an addrspace(3) [LDS/4 x i32] global, byte offsets;
 *            accesses past the LDS size read 0 and write nothing (no
 *            branch: off or outside, on the spare bytes after the LDS,
 *            lds_enter); b8/b16 stores merged into their word
 *            (@wl.h.merge.lds, helpers/tail.ll);
 *            after the k clones of an access, a subgroup barrier where
 *            a later access of the wave may meet it (D973, lds_order.c).
 *            A program with 64-bit LDS atomics gets a [LDS/8 x i64] object
 *            instead (gen_lds64): the backend gives an object one
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
 *            escape_records.c, bad_note.c; helpers/tail.ll.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "lower/context.h"
#include "lower/memory/helpers.h"

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

/* the predicate %ok of an LDS access of `size` bytes at byte offset %a */
static void access_setup(sb *b, wl_lower_ctx *L, unsigned size)
{
    if (L->lds_bytes >= size)
        sbf(b, "  %%inr = icmp ule i32 %%a, %u\n  %%ok = and i1 %%act, %%inr\n", L->lds_bytes - size);
    else
        sbf(b, "  %%ok = and i1 %%act, false\n");
}

static void ptr_at(sb *b, const char *dst, const char *addr)
{
    sbf(b, "  %s = getelementptr i8, ptr addrspace(3) @wl.group, i32 %s\n", dst, addr);
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
    access_setup(b, L, size);
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
static const char *const cas_ops[] = {"inc", "dec", "fadd", "fmin", "fmax"};
#define N_RMW_OPS (sizeof rmw_ops / sizeof rmw_ops[0])
#define N_ATOMIC_OPS (N_RMW_OPS + sizeof cas_ops / sizeof cas_ops[0] + 1)

/* Atomic i of N_ATOMIC_OPS: the rmw ops (*rmw its atomicrmw operation),
 * the compare-and-swap loops (*rmw NULL), cmpswap last */
static const char *atomic_name(size_t i, int *cmpswap, const char **rmw)
{
    *cmpswap = i == N_ATOMIC_OPS - 1;
    *rmw = i < N_RMW_OPS ? rmw_ops[i][1] : NULL;
    return *cmpswap ? "cmpswap" : i < N_RMW_OPS ? rmw_ops[i][0] : cas_ops[i - N_RMW_OPS];
}

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

/* An LDS b8/b16 store (%as the LDS byte offset of lds_enter, %v the value,
 * in block %d, falls through to the caller's "br label %x") merged into its
 * word by one compare-and-swap loop (@wl.h.merge.lds, tail.ll, which finds
 * the word itself); a half at a word's last byte swaps the next word too,
 * for its high byte. %m is empty where the store is off (%ok false: %as is
 * then the spare merge word, which so keeps its value, and the first swap
 * succeeds). */
static void gen_subword_merge(sb *b, unsigned bits)
{
    sbf(b, "  %%wa = and i32 %%as, -4\n  %%lo3 = and i32 %%as, 3\n  %%sh = shl i32 %%lo3, 3\n");
    /* where off: an empty mask, and so an empty value */
    const char *mk = "  %m = select i1 %ok, i32 %m0, i32 0\n  %vs = and i32 %vs0, %m\n";
    if (bits == 8) {
        sbf(b, "  %%m0 = shl i32 255, %%sh\n  %%vb = and i32 %%v, 255\n  %%vs0 = shl i32 %%vb, %%sh\n%s"
               "  call void @wl.h.merge.lds(i32 %%wa, i32 %%m, i32 %%vs)\n",
            mk);
        return;
    }
    /* c2 only where the store is made (the spare word is aligned) */
    sbf(b, "  %%cross = icmp eq i32 %%lo3, 3\n  br i1 %%cross, label %%c2, label %%c1\n"
           "c1:\n  %%m0 = shl i32 65535, %%sh\n  %%vh = and i32 %%v, 65535\n  %%vs0 = shl i32 %%vh, %%sh\n%s"
           "  call void @wl.h.merge.lds(i32 %%wa, i32 %%m, i32 %%vs)\n  br label %%cj\n"
           "c2:\n  %%vl = shl i32 %%v, 24\n  call void @wl.h.merge.lds(i32 %%wa, i32 -16777216, i32 %%vl)\n"
           "  %%wa4 = add i32 %%wa, 4\n  %%vt = lshr i32 %%v, 8\n  %%vt8 = and i32 %%vt, 255\n"
           "  call void @wl.h.merge.lds(i32 %%wa4, i32 255, i32 %%vt8)\n  br label %%cj\ncj:\n",
        mk);
}

/* The operation of an LDS atomic of `bits` on %p (block %d) into %r:
 * cmpxchg, an atomicrmw `rmw`, or a compare-and-swap loop of `name`
 * (cas_op). Returns the block %r is made in. */
static const char *atomic_op(sb *b, const char *name, const char *rmw, int cmpswap, unsigned bits)
{
    if (cmpswap) {
        sbf(b, "  %%c = cmpxchg ptr addrspace(3) %%p, i%u %%v, i%u %%nv monotonic monotonic\n"
               "  %%r = extractvalue {i%u, i1} %%c, 0\n",
            bits, bits, bits);
        return "d";
    }
    if (rmw) {
        sbf(b, "  %%r = atomicrmw %s ptr addrspace(3) %%p, i%u %%v monotonic, align %u\n", rmw, bits, bits / 8);
        return "d";
    }
    sbf(b, "  %%o0 = load i%u, ptr addrspace(3) %%p, align %u\n  br label %%l\nl:\n"
           "  %%o = phi i%u [%%o0, %%d], [%%s, %%l]\n",
        bits, bits / 8, bits);
    cas_op(b, name, bits);
    sbf(b, "  %%c = cmpxchg ptr addrspace(3) %%p, i%u %%o, i%u %%n monotonic monotonic\n"
           "  %%s = extractvalue {i%u, i1} %%c, 0\n  %%k = extractvalue {i%u, i1} %%c, 1\n"
           "  br i1 %%k, label %%y, label %%l\ny:\n  %%r = add i%u %%o, 0\n",
        bits, bits, bits, bits, bits);
    return "y";
}

/* The LDS helpers @wl.h.{load,store,atomic}.lds.* against @wl.group, byte
 * offsets: accesses past the LDS size read 0 and write nothing (lds_enter);
 * b8/b16 loads read bytes, b8/b16 stores are merged into their word
 * (gen_subword_merge). Where the LDS is 64-bit units (lds64) the b64
 * accesses and the atomics are gen_lds64's; under the lock (L->lds_lock)
 * the atomics are lds.c's. */
static void gen_lds(sb *b, wl_lower_ctx *L, int lds64)
{
    /* loads */
    for (unsigned bits = 8; bits <= 64; bits *= 2) {
        if (lds64 && bits == 64)
            break; /* gen_lds64 */
        const char *rt = bits == 64 ? "i64" : "i32";
        sbf(b, "define %s @wl.h.load.lds.b%u(i32 %%a, i1 %%act) " ATTR " {\ne:\n", rt, bits);
        int bf = lds_enter(b, L, bits / 8, WL_LDS_SPARE_BYTE(L->lds_bytes));
        ptr_at(b, "%p", "%as");
        if (bits >= 32) {
            sbf(b, "  %%r = load %s, ptr addrspace(3) %%p, align 4\n", rt);
        } else if (bits == 8) {
            sbf(b, "  %%r8 = load i8, ptr addrspace(3) %%p, align 1\n  %%r = zext i8 %%r8 to i32\n");
        } else { /* b16: two bytes */
            sbf(b, "  %%a1 = add i32 %%as, 1\n");
            ptr_at(b, "%p1", "%a1");
            sbf(b, "  %%l8 = load i8, ptr addrspace(3) %%p, align 1\n  %%h8 = load i8, ptr addrspace(3) %%p1, align 1\n"
                   "  %%l = zext i8 %%l8 to i32\n  %%h = zext i8 %%h8 to i32\n  %%hs = shl i32 %%h, 8\n"
                   "  %%r = or i32 %%l, %%hs\n");
        }
        lds_load_exit(b, bf, rt, "d");
    }
    /* stores */
    for (unsigned bits = 8; bits <= 64; bits *= 2) {
        if (lds64 && bits == 64)
            break; /* gen_lds64 */
        const char *vt = bits == 64 ? "i64" : "i32";
        sbf(b, "define void @wl.h.store.lds.b%u(i32 %%a, %s %%v, i1 %%act) " ATTR " {\ne:\n", bits, vt);
        /* a merged store off: the spare merge unit, with an empty mask */
        uint64_t spare = WL_LDS_SPARE_BYTE(L->lds_bytes) + (bits < 32 || lds64 ? 8 : 0);
        lds_enter(b, L, bits / 8, spare);
        if (bits == 32 && lds64) {
            /* a dword in a 64-bit unit: a sub-unit store, merged like a byte */
            sbf(b, "  %%m = select i1 %%ok, i32 -1, i32 0\n  %%vs = and i32 %%v, %%m\n"
                   "  call void @wl.h.merge.lds(i32 %%as, i32 %%m, i32 %%vs)\n");
        } else if (bits >= 32) {
            ptr_at(b, "%p", "%as");
            sbf(b, "  store %s %%v, ptr addrspace(3) %%p, align 4\n", vt);
        } else {
            gen_subword_merge(b, bits);
        }
        sbf(b, "  br label %%x\nx:\n  ret void\n}\n");
    }
    /* atomics: the word-unit LDS has no 64-bit atomics (none in the
     * program); the 64-bit-unit LDS: gen_lds64; under the lock: lds.c */
    if (lds64 || L->lds_lock)
        return;
    for (size_t i = 0; i < N_ATOMIC_OPS; i++) {
        int cmpswap;
        const char *rmw, *name = atomic_name(i, &cmpswap, &rmw);
        sbf(b, "define i32 @wl.h.atomic.lds.%s.b32(i32 %%a, i32 %%v, %si1 %%act) " ATTR " {\ne:\n", name,
            cmpswap ? "i32 %nv, " : "");
        /* every atomic under a branch on the lane being on: an off lane
         * sent to the spare word instead (no branch) makes every lane of
         * every subgroup an atomic on that one word, which the host
         * serializes (NVIDIA H100: glsl_histogram 1.40 -> 0.71 ms at k = 1,
         * docs/native.md) */
        access_setup(b, L, 4);
        sbf(b, "  br i1 %%ok, label %%d, label %%x\nd:\n");
        ptr_at(b, "%p", "%a");
        const char *from = atomic_op(b, name, rmw, cmpswap, 32);
        sbf(b, "  br label %%x\nx:\n  %%res = phi i32 [0, %%e], [%%r, %%%s]\n  ret i32 %%res\n}\n", from);
    }
}

/* The LDS as 64-bit units (a program with 64-bit LDS atomics): @wl.group is
 * [LDS/8 x i64]. b8/b16/b32 loads and stores stay as gen_lds writes them
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

    /* 64-bit atomics */
    for (size_t i = 0; i < N_ATOMIC_OPS; i++) {
        int cmpswap;
        const char *rmw, *name = atomic_name(i, &cmpswap, &rmw);
        sbf(b, "define i64 @wl.h.atomic.lds.%s.b64(i32 %%a, i64 %%v, %si1 %%act, i32 %%lane) " ATTR " {\ne:\n", name,
            cmpswap ? "i64 %nv, " : "");
        access_setup(b, L, 8);
        sbf(b, "  br i1 %%ok, label %%c8, label %%x\nc8:\n  %%lo7 = and i32 %%a, 7\n  %%al = icmp eq i32 %%lo7, 0\n"
               "  br i1 %%al, label %%d, label %%u\n"
               "u:\n  call void @wl.h.escape(i32 %u, i32 0, i1 true, i32 %%lane)\n  br label %%x\nd:\n"
               "  %%p = getelementptr i8, ptr addrspace(3) @wl.group, i32 %%a\n",
            (unsigned)WL_ESC_UNALIGNED64);
        const char *from = atomic_op(b, name, rmw, cmpswap, 64);
        sbf(b, "  br label %%x\nx:\n  %%res = phi i64 [0, %%e], [0, %%u], [%%r, %%%s]\n  ret i64 %%res\n}\n", from);
    }
    /* 32-bit atomics on the containing unit: %sh = 0 or 32 */
    static const char *const int_ops[][2] = {{"add", "add"}, {"sub", "sub"}, {"smin", "llvm.smin.i32"},
                                             {"umin", "llvm.umin.i32"}, {"smax", "llvm.smax.i32"},
                                             {"umax", "llvm.umax.i32"}};
    for (size_t i = 0; i < N_ATOMIC_OPS; i++) {
        int cmpswap;
        const char *rmw, *name = atomic_name(i, &cmpswap, &rmw);
        sbf(b, "define i32 @wl.h.atomic.lds.%s.b32(i32 %%a, i32 %%v, %si1 %%act) " ATTR " {\ne:\n", name,
            cmpswap ? "i32 %nv, " : "");
        access_setup(b, L, 4);
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
            } else if (rmw) {
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

/* The span of the wave-IR access `orig` (the .span helpers of helpers/global.ll): the calls of its
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
    if (lds && last && wl_ptrmap_has(&L->lds_barrier_after, orig)) { /* lds_order.c */
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
    wl_status rs = wl_lc_record_escapes(L); /* memory/escape_records.c, bad_note.c */
    if (!rs)
        rs = wl_lc_lds_finish(L); /* memory/lds.c: the lock's first value, device-memory LDS */
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

/* ---- the helper module ---------------------------------------------------- */

/* One embedded helper library (lower/memory/helpers/NAME.ll as bitcode) */
static wl_status load_bc(wl_lower_ctx *L, const unsigned char *data, size_t n, const char *name, LLVMModuleRef *out)
{
    LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRange((const char *)data, n, name, 0);
    if (!mb)
        return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
    LLVMBool bad = LLVMParseBitcodeInContext2(L->ctx, mb, out);
    LLVMDisposeMemoryBuffer(mb);
    if (bad)
        return wl_lc_fail(L, WL_ERR_INVALID, NULL, "lanes model: the helper library %s does not load", name);
    return WL_OK;
}

/* The same, its function bodies read where the module is linked: those
 * deleted before are never read */
static wl_status load_bc_lazy(wl_lower_ctx *L, const unsigned char *data, size_t n, const char *name,
                              LLVMModuleRef *out)
{
    LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRange((const char *)data, n, name, 0);
    if (!mb)
        return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
    if (LLVMGetBitcodeModuleInContext2(L->ctx, mb, out)) /* takes mb */
        return wl_lc_fail(L, WL_ERR_INVALID, NULL, "lanes model: the helper library %s does not load", name);
    return WL_OK;
}

/* The helpers written here (LDS, scratch: their text depends on the
 * program's LDS and scratch sizes and on k) */
static wl_status load_text(wl_lower_ctx *L, sb *b, LLVMModuleRef *out)
{
    if (b->oom) {
        free(b->s);
        return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
    }
    LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRange(b->s, b->n, "wl.helpers", 0);
    char *msg = NULL;
    wl_status st = WL_OK;
    if (!mb)
        st = wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
    else if (LLVMParseIRInContext(L->ctx, mb, out, &msg)) /* takes mb */
        st = wl_lc_fail(L, WL_ERR_INVALID, NULL, "lanes model: helper IR: %s", msg ? msg : "?");
    LLVMDisposeMessage(msg);
    free(b->s);
    *b = (sb){0};
    return st;
}

/* Keeps one of each pair NAME, NAME.<suffix> of m: NAME.<suffix> under
 * the name NAME where `on`, else NAME */
static void keep_variant(LLVMModuleRef m, const char *suffix, int on)
{
    size_t sl = strlen(suffix);
    for (LLVMValueRef f = LLVMGetFirstFunction(m), next; f; f = next) {
        next = LLVMGetNextFunction(f);
        size_t len;
        const char *n = LLVMGetValueName2(f, &len);
        if (len <= sl + 1 || len - sl > 128 || n[len - sl - 1] != '.' || memcmp(n + len - sl, suffix, sl))
            continue;
        if (!on) {
            LLVMDeleteFunction(f);
            continue;
        }
        char base[128];
        snprintf(base, sizeof base, "%.*s", (int)(len - sl - 1), n);
        LLVMValueRef d = LLVMGetNamedFunction(m, base);
        if (d) {
            LLVMReplaceAllUsesWith(d, f);
            LLVMDeleteFunction(d);
        }
        LLVMSetValueName2(f, base, strlen(base));
    }
}

/* m linked into the helper module *acc (m itself where it is the first) */
static wl_status add_to(wl_lower_ctx *L, LLVMModuleRef *acc, LLVMModuleRef m)
{
    if (!*acc) {
        *acc = m;
        return WL_OK;
    }
    if (LLVMLinkModules2(*acc, m)) /* takes m */
        return wl_lc_fail(L, WL_ERR_INVALID, NULL, "lanes model: linking the helpers failed");
    return WL_OK;
}

/* Whether the program calls a function named a..., b... or c... */
static int uses_calls(wl_lower_ctx *L, const char *a, const char *b, const char *c)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(L->m); f; f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *n = LLVMGetValueName2(f, &len);
        if ((wl_lc_prefix(n, len, a) || wl_lc_prefix(n, len, b) || (c && wl_lc_prefix(n, len, c))) &&
            LLVMGetFirstUse(f))
            return 1;
    }
    return 0;
}

/* Whether the program calls @wl.<s>, s the part of a global helper's name
 * @wl.h.<s>[.<variant>] up to a dot (wl_lc_lower_mem_call's names: .a4,
 * .ax, .span), or a scalar access made by it (scalar_mem.c: wl.sstore.b32
 * by @wl.h.store.global.b32.a4, as tail.ll's @wl.h.sstore.b32 does, and
 * wl.satomic.OP.bN by @wl.h.atomic.global.OP.bN) */
static int global_used(LLVMModuleRef prog, const char *h, size_t len)
{
    char name[128];
    if (len < 5 || len > 100 || memcmp(h, "wl.h.", 5))
        return 1;
    const char *s = h + 5;
    size_t sl = len - 5;
    for (size_t cut = sl;; cut--) { /* s itself, then s up to each dot */
        if (cut == sl || s[cut] == '.') {
            snprintf(name, sizeof name, "wl.%.*s", (int)cut, s);
            LLVMValueRef f = LLVMGetNamedFunction(prog, name);
            if (f && LLVMGetFirstUse(f))
                return 1;
        }
        if (!cut)
            break;
    }
    if (sl == 19 && !memcmp(s, "store.global.b32.a4", 19)) {
        LLVMValueRef f = LLVMGetNamedFunction(prog, "wl.sstore.b32");
        if (f && LLVMGetFirstUse(f))
            return 1;
    }
    if (sl > 14 && !memcmp(s, "atomic.global.", 14)) {
        snprintf(name, sizeof name, "wl.satomic.%.*s", (int)(sl - 14), s + 14);
        LLVMValueRef f = LLVMGetNamedFunction(prog, name);
        if (f && LLVMGetFirstUse(f))
            return 1;
    }
    return 0;
}

/* global.ll's helpers that the program calls, the others deleted before
 * their bodies are read. A helper not called was deleted after the
 * inlining (wl_lc_finish); where a helper called is missing,
 * wl_lc_lower_mem_call says so by name. */
static void keep_used_global(wl_lower_ctx *L, LLVMModuleRef m)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m), next; f; f = next) {
        next = LLVMGetNextFunction(f);
        size_t len;
        const char *n = LLVMGetValueName2(f, &len);
        if (!LLVMIsDeclaration(f) && !global_used(L->m, n, len))
            LLVMDeleteFunction(f);
    }
}

/* g made again at the end of its module's globals (the linker makes a
 * global declared by both modules again at the end of the list) */
static void move_to_end(LLVMModuleRef m, LLVMValueRef g)
{
    size_t len;
    const char *n = LLVMGetValueName2(g, &len);
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), n);
    LLVMTypeRef t = LLVMGlobalGetValueType(g);
    LLVMValueRef ng = LLVMAddGlobalInAddressSpace(m, t, "", LLVMGetPointerAddressSpace(LLVMTypeOf(g)));
    LLVMSetLinkage(ng, LLVMGetLinkage(g));
    LLVMSetGlobalConstant(ng, LLVMIsGlobalConstant(g));
    LLVMSetAlignment(ng, LLVMGetAlignment(g));
    LLVMSetUnnamedAddress(ng, LLVMGetUnnamedAddress(g));
    if (LLVMGetInitializer(g))
        LLVMSetInitializer(ng, LLVMGetInitializer(g));
    LLVMReplaceAllUsesWith(g, ng);
    LLVMDeleteGlobal(g);
    LLVMSetValueName2(ng, name, strlen(name));
}

/* The globals as the one text had them: @wl.status, @wl.push, @wl.group,
 * then the scratch arrays */
static int order_globals(LLVMModuleRef m)
{
    static const char *const first[] = {"wl.status", "wl.push", "wl.group"};
    size_t nr = 0, ng = 0;
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
        ng++;
    LLVMValueRef *rest = malloc((ng ? ng : 1) * sizeof *rest);
    if (!rest)
        return 0;
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
        const char *n = LLVMGetValueName(g);
        if (strcmp(n, first[0]) && strcmp(n, first[1]) && strcmp(n, first[2]))
            rest[nr++] = g;
    }
    for (size_t i = 0; i < 3; i++) {
        LLVMValueRef g = LLVMGetNamedGlobal(m, first[i]);
        if (g)
            move_to_end(m, g);
    }
    for (size_t i = 0; i < nr; i++)
        move_to_end(m, rest[i]);
    free(rest);
    return 1;
}

/* The helper module, in this order (the order of the functions is the
 * inliner's, which orders the escape notes: it stays as it was when all
 * was one text): map.ll (the push block, @wl.h.gmap), @wl.group (with the
 * LDS lock's helpers where the LDS atomics take the lock: lds.c),
 * global.ll, the LDS and scratch helpers (text written here, lds.c and
 * scratch.c), tail.ll (the merge loops, escapes, SMEM). */
static wl_status build_helpers(wl_lower_ctx *L, LLVMModuleRef *out)
{
    LLVMModuleRef acc = NULL, m = NULL;
    sb b = {0};
    wl_status st = load_bc(L, wl_helpers_map, wl_helpers_map_size, "map", &m);
    if (!st) {
        keep_variant(m, "pages", L->mapping_pages);
        st = add_to(L, &acc, m);
    }
    int lds64 = has_lds64_atomics(L);
    /* 64-bit LDS atomics without a 64-bit view: every LDS atomic under the
     * lock in the spare dword (lds.c), the LDS as words */
    L->lds_lock = lds64 && (L->lds_buffer ? L->atomic64_lock : L->lds_lock_shared);
    /* with the spare bytes (L->lds_spare), the slice's layout:
     * WL_LDS_SLICE_BYTES, a multiple of 8 */
    uint64_t sl = WL_LDS_SLICE_BYTES(L->lds_bytes);
    unsigned units;
    if (L->lds_lock) {
        lds64 = 0;
        units = L->lds_spare ? (unsigned)(sl / 4) : WL_LDS_LOCK_BYTE(L->lds_bytes) / 4 + 1;
    } else if (lds64) {
        uint32_t lq = (L->lds_bytes + 7) / 8;
        units = L->lds_spare ? (unsigned)(sl / 8) : lq ? lq : 1;
    } else {
        uint32_t lw = (L->lds_bytes + 3) / 4;
        units = L->lds_spare ? (unsigned)(sl / 4) : lw ? lw : 1;
    }
    const char *ut = lds64 ? "i64" : "i32";
    static const char *const decls = "declare void @wl.h.escape(i32, i32, i1, i32)\n"
                                     "declare void @wl.h.escape.now(i32, i32, i1, i32)\n"
                                     "declare void @wl.h.merge.lds(i32, i32, i32)\n"
                                     "declare float @llvm.minnum.f32(float, float)\n"
                                     "declare float @llvm.maxnum.f32(float, float)\n"
                                     "declare double @llvm.minnum.f64(double, double)\n"
                                     "declare double @llvm.maxnum.f64(double, double)\n";
    if (!st && L->lds_lock) {
        sbf(&b, "@wl.group = addrspace(3) global [%u x i32] poison\n%s", units, decls);
        wl_lc_gen_lds_lock(L, append_text, &b);
        m = NULL;
        st = load_text(L, &b, &m);
        if (!st)
            st = add_to(L, &acc, m);
    } else if (!st) {
        LLVMTypeRef gt = LLVMArrayType2(lds64 ? L->i64 : L->i32, units);
        LLVMValueRef g = LLVMAddGlobalInAddressSpace(acc, gt, "wl.group", 3);
        LLVMSetInitializer(g, LLVMGetPoison(gt));
    }
    if (!st) {
        m = NULL;
        st = load_bc_lazy(L, wl_helpers_global, wl_helpers_global_size, "global", &m);
    }
    if (!st) {
        keep_variant(m, "words", L->merge_stores);
        keep_variant(m, "lock", L->atomic64_lock);
        keep_used_global(L, m);
        st = add_to(L, &acc, m); /* reads the bodies of those kept */
    }
    /* the LDS and scratch helpers only where the program has such an
     * access (or the LDS is in device memory: wl_lc_lds_finish then moves
     * every use of @wl.group, an unused helper's too); unused, they were
     * deleted after the inlining */
    int lds = L->lds_buffer || uses_calls(L, "wl.load.lds.", "wl.store.lds.", "wl.atomic.lds.");
    int scratch = uses_calls(L, "wl.load.scratch.", "wl.store.scratch.", NULL);
    if (!st && (lds || scratch)) {
        sbf(&b, "@wl.group = external addrspace(3) global [%u x %s]\n%s", units, ut, decls);
        if (lds) {
            gen_lds(&b, L, lds64);
            if (lds64)
                gen_lds64(&b, L);
        }
        if (scratch)
            wl_lc_gen_scratch(L, append_text, &b); /* scratch.c */
        m = NULL;
        st = load_text(L, &b, &m);
        if (!st)
            st = add_to(L, &acc, m);
    }
    if (!st) {
        m = NULL;
        st = load_bc(L, wl_helpers_tail, wl_helpers_tail_size, "tail", &m);
    }
    if (!st) {
        keep_variant(m, "units64", lds64);
        st = add_to(L, &acc, m);
    }
    free(b.s);
    if (!st && !order_globals(acc))
        st = wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
    if (st && acc)
        LLVMDisposeModule(acc);
    *out = st ? NULL : acc;
    return st;
}

wl_status wl_lc_link_helpers(wl_lower_ctx *L)
{
    LLVMModuleRef hm = NULL;
    wl_status st = build_helpers(L, &hm);
    if (st)
        return st;
    if (LLVMLinkModules2(L->m, hm)) /* takes hm */
        return wl_lc_fail(L, WL_ERR_INVALID, NULL, "lanes model: linking the helpers failed");
    LLVMValueRef push = LLVMGetNamedGlobal(L->m, "wl.push");
    if (push)
        LLVMSetGlobalConstant(push, 1); /* read-only: its loads are not clobbered by stores */
    return WL_OK;
}

/* Scratch, the private segment (docs/memory.md, "Scratch"): the helpers
 * @wl.h.{load,store}.scratch.bN.jJ that lower/memory.c links into the
 * module and memory.c's wl_lw_lower_mem_call calls for clone j of an access
 * (the wave model: k = 1, the lane's segment chosen by lower/wave.c). */
#include <stdarg.h>
#include <stdio.h>

#include "lower_internal.h"

#define ATTR "alwaysinline"

typedef struct txt {
    void (*out)(void *, const char *);
    void *ctx;
} txt;

static void put(txt *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(txt *t, const char *fmt, ...)
{
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap); /* each piece is far shorter */
    va_end(ap);
    t->out(t->ctx, line);
}

/* Scratch: lane clone j's words in its own private array @wl.scratch.j (a
 * [words x i32], j < k), one set of helpers per clone
 * (@wl.h.{load,store}.scratch.bN.jJ). A dynamic index into a private array
 * costs the device compiler in proportion to the array (lavapipe: 7.6 s to
 * compile the suite's private_array at k = 4 with one interleaved [k*words]
 * array, 0.? s with k arrays), so each access only indexes its own lane's. */
void wl_lw_gen_scratch(wl_lw *L, void (*out)(void *ctx, const char *text), void *ctx)
{
    txt t = {out, ctx};
    uint32_t words = (L->scratch_bytes + 3) / 4;
    uint32_t nw = words ? words : 1;
    for (unsigned j = 0; j < L->k; j++)
        put(&t, "@wl.scratch.%u = internal global [%u x i32] zeroinitializer\n", j, nw);
    /* word w of this clone: ptr %name */
    const char *wordp = "  %%%s = getelementptr [%u x i32], ptr @wl.scratch.%u, i32 0, i32 %s\n";
#define WORDP(name, w) put(&t, wordp, name, nw, j, w)
    for (unsigned j = 0; j < L->k; j++)
    for (unsigned bits = 8; bits <= 64; bits *= 2) {
        unsigned size = bits / 8;
        const char *rt = bits == 64 ? "i64" : "i32";
        for (int store = 0; store < 2; store++) {
            if (store)
                put(&t, "define void @wl.h.store.scratch.b%u.j%u(i32 %%a, %s %%v, i1 %%act) " ATTR " {\ne:\n",
                    bits, j, rt);
            else
                put(&t, "define %s @wl.h.load.scratch.b%u.j%u(i32 %%a, i1 %%act) " ATTR " {\ne:\n", rt, bits, j);
            /* the range check: the whole access inside the lane's segment */
            if (L->scratch_bytes >= size)
                put(&t, "  %%inr = icmp ule i32 %%a, %u\n  %%ok = and i1 %%act, %%inr\n", L->scratch_bytes - size);
            else
                put(&t, "  %%ok = and i1 %%act, false\n");
            put(&t, "  br i1 %%ok, label %%d, label %%x\nd:\n  %%w = lshr i32 %%a, 2\n");
            WORDP("p", "%w");
            if (bits == 64) {
                put(&t, "  %%w1 = add i32 %%w, 1\n");
                WORDP("p1", "%w1");
            }
            if (!store) {
                if (bits == 32) {
                    put(&t, "  %%r = load i32, ptr %%p, align 4\n");
                } else if (bits == 64) {
                    put(&t, "  %%lo = load i32, ptr %%p, align 4\n  %%hi = load i32, ptr %%p1, align 4\n"
                           "  %%lo64 = zext i32 %%lo to i64\n  %%hi64 = zext i32 %%hi to i64\n"
                           "  %%his = shl i64 %%hi64, 32\n  %%r = or i64 %%lo64, %%his\n");
                } else {
                    put(&t, "  %%lo3 = and i32 %%a, 3\n  %%cross = icmp eq i32 %%lo3, %u\n  %%w1p = add i32 %%w, 1\n"
                           "  %%w1 = select i1 %%cross, i32 %%w1p, i32 %%w\n",
                        bits == 16 ? 3 : 4);
                    WORDP("p1", "%w1");
                    put(&t, "  %%lo = load i32, ptr %%p, align 4\n  %%hi = load i32, ptr %%p1, align 4\n"
                           "  %%lo64 = zext i32 %%lo to i64\n  %%hi64 = zext i32 %%hi to i64\n"
                           "  %%his = shl i64 %%hi64, 32\n  %%both = or i64 %%lo64, %%his\n"
                           "  %%sh32 = shl i32 %%lo3, 3\n  %%sh = zext i32 %%sh32 to i64\n"
                           "  %%s = lshr i64 %%both, %%sh\n  %%st = trunc i64 %%s to i32\n  %%r = and i32 %%st, %u\n",
                        bits == 8 ? 0xffu : 0xffffu);
                }
                put(&t, "  br label %%x\nx:\n  %%res = phi %s [0, %%e], [%%r, %%d]\n  ret %s %%res\n}\n", rt, rt);
            } else {
                if (bits == 32) {
                    put(&t, "  store i32 %%v, ptr %%p, align 4\n");
                } else if (bits == 64) {
                    put(&t, "  %%lo = trunc i64 %%v to i32\n  %%hs = lshr i64 %%v, 32\n  %%hi = trunc i64 %%hs to i32\n"
                           "  store i32 %%lo, ptr %%p, align 4\n  store i32 %%hi, ptr %%p1, align 4\n");
                } else {
                    /* byte by byte into the words (private: no other writer) */
                    for (unsigned i = 0; i < size; i++) {
                        put(&t, "  %%a%u = add i32 %%a, %u\n  %%w%u = lshr i32 %%a%u, 2\n", i, i, i, i);
                        char nm[8], wv[8];
                        snprintf(nm, sizeof nm, "q%u", i);
                        snprintf(wv, sizeof wv, "%%w%u", i);
                        WORDP(nm, wv);
                        put(&t, "  %%b%u.3 = and i32 %%a%u, 3\n  %%sh%u = shl i32 %%b%u.3, 3\n  %%m%u = shl i32 255, %%sh%u\n"
                               "  %%nm%u = xor i32 %%m%u, -1\n  %%vsh%u = lshr i32 %%v, %u\n  %%vb%u = and i32 %%vsh%u, 255\n"
                               "  %%vs%u = shl i32 %%vb%u, %%sh%u\n  %%old%u = load i32, ptr %%q%u, align 4\n"
                               "  %%kept%u = and i32 %%old%u, %%nm%u\n  %%new%u = or i32 %%kept%u, %%vs%u\n"
                               "  store i32 %%new%u, ptr %%q%u, align 4\n",
                            i, i, i, i, i, i, i, i, i, 8 * i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i);
                    }
                }
                put(&t, "  br label %%x\nx:\n  ret void\n}\n");
            }
        }
    }
#undef WORDP
}

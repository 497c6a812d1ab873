/* The paged guest mapping (docs/memory.md "The paged mapping"): the
 * translate option mapping_pages makes @wl.h.gmap read the runtime's page
 * table (runtime/pagetable.c) instead of one contiguous range.
 *
 * Requires: nothing but the push block @wl.push (its u64 at
 * WL_PUSH_MAP_OFFSET the table's device address, 16-aligned). Leaves:
 * @wl.h.gmap with gen_map's contract, {host address, inside} for an access
 * of nm1 + 1 bytes (at most 256, so it touches one page or two), plus the
 * note of a bad address (@wl.note, bad_note.c: its offset is the address's
 * bits 47:0 with bit 48 set, never 0; the record keeps bits 47:0).
 *
 *   leaf  = root[(a >> 32) & 0xffff]     the leaf's device address (bits
 *                                       63:48 ignored, as the hardware does)
 *   E     = leaf[(a >> 16) & 0xffff]    u64 page entry
 *   po    = a & 0xffff
 *   cross = (po + nm1) >> 16            0, or 1: the last byte is in the
 *                                       next page
 *   in    = bit `cross` of E            VALID, or NEXT (which the builder
 *                                       sets only with VALID)
 *   host  = (E & -16) + po
 *
 * An access crossing a page boundary is inside only where the next page is
 * mapped and follows on the host (NEXT, set by the builder): then its
 * bytes are one host run and the helpers' word reads stay inside it.
 * Otherwise (the next page not mapped, or mapped elsewhere on the host) it
 * is refused as outside: an escape naming its address, the load 0, the
 * store dropped. Not split: the hardware would make it, but a split needs
 * two host addresses in every helper for an access that only straddles a
 * seam between two separately backed ranges. A span (memory.c,
 * span_setup) is checked as one access of its bytes, so a span across such
 * a seam is refused too, even where none of its dwords crosses it. Both
 * table loads are invariant (the table does not change during a
 * dispatch). */
#include <stdio.h>

#include "lower/context.h"

void wl_lc_gen_gmap_pages(void (*out)(void *ctx, const char *text), void *ctx)
{
    char t[4096];
    snprintf(t, sizeof t,
             "declare void @wl.note(i1, i64, i32)\n"
             "define {i64, i1} @wl.h.gmap(i64 %%a, i64 %%nm1, i1 %%act, i32 %%lane) alwaysinline {\ne:\n"
             "  %%pt = getelementptr i8, ptr addrspace(6) @wl.push, i32 %u\n"
             "  %%t = load i64, ptr addrspace(6) %%pt, align 4, !invariant.load !{}\n"
             "  %%ro0 = lshr i64 %%a, 29\n  %%ro = and i64 %%ro0, 524280\n  %%rp = add i64 %%t, %%ro\n"
             "  %%rpp = inttoptr i64 %%rp to ptr addrspace(1)\n"
             "  %%leaf = load i64, ptr addrspace(1) %%rpp, align 8, !invariant.load !{}\n"
             "  %%li0 = lshr i64 %%a, 13\n  %%li = and i64 %%li0, 524280\n  %%lp = add i64 %%leaf, %%li\n"
             "  %%lpp = inttoptr i64 %%lp to ptr addrspace(1)\n"
             "  %%pe = load i64, ptr addrspace(1) %%lpp, align 8, !invariant.load !{}\n"
             /* cross: 1 where the last byte is in the next page; bit
              * `cross` of the entry is VALID or NEXT (NEXT implies VALID) */
             "  %%po = and i64 %%a, 65535\n  %%pl = add i64 %%po, %%nm1\n  %%cross = lshr i64 %%pl, 16\n"
             "  %%sel = lshr i64 %%pe, %%cross\n  %%in = trunc i64 %%sel to i1\n"
             "  %%hb = and i64 %%pe, -16\n  %%ha = add i64 %%hb, %%po\n"
             /* the note (bad_note.c): off never 0 for a bad access, here
              * a48 with bit 48 set (the record takes bits 47:0 of it) */
             "  %%a48 = and i64 %%a, 281474976710655\n  %%off = or i64 %%a48, 281474976710656\n"
             "  %%aok = and i1 %%act, %%in\n  %%keep = icmp eq i1 %%aok, %%act\n"
             "  call void @wl.note(i1 %%keep, i64 %%off, i32 %%lane)\n"
             "  %%v0 = insertvalue {i64, i1} undef, i64 %%ha, 0\n"
             "  %%v1 = insertvalue {i64, i1} %%v0, i1 %%in, 1\n  ret {i64, i1} %%v1\n}\n",
             WL_PUSH_MAP_OFFSET);
    out(ctx, t);
}

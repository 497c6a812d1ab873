; The guest mapping (docs/memory.md): @wl.h.gmap(a, n - 1, act, lane) gives
; {host address, inside} for an access of n bytes at guest address a, and
; notes a bad address (@wl.note, lower/memory/bad_note.c). Bits 63:48 of a
; are ignored, as the hardware does.
;
;   @wl.h.gmap        one contiguous range: the push constants hold the guest
;                     base G, ~L (L the range's last byte offset) and the
;                     host base H; inside is (a48 - G) <= L - (n - 1), the
;                     host address (a48 - G) + H; all zero is the identity.
;                     The note's offset a48 - G is never 0 for a bad access.
;   @wl.h.gmap.pages  the runtime's page table (translate option
;                     mapping_pages; runtime/pagetable.c): leaf =
;                     root[(a >> 32) & 0xffff], E = leaf[(a >> 16) & 0xffff],
;                     inside = bit `cross` of E (VALID, or NEXT where the
;                     access's last byte is in the next page), host =
;                     (E & -16) + (a & 0xffff). The note's offset is a48
;                     with bit 48 set. A span (memory.c) is checked as one
;                     access of its bytes.
;
; The loader (lower/memory/memory.c, wl_lc_link_helpers) keeps one of the
; two, named @wl.h.gmap. The push-constant and table loads are invariant, so
; that LLVM keeps one copy of G, ~L, H.
;
; wl-const WL_PUSH_BYTES 128
; wl-const WL_PUSH_MAP_OFFSET 80
@wl.status = external addrspace(4) global [0 x i32]
@wl.push = external addrspace(6) global [32 x i32]
declare void @wl.note(i1, i64, i32)
; The address a masked-off lane's store goes to instead of its own: the
; sink's other half (WL_PUSH_SINK_OFFSET; loads of masked-off lanes read its
; first 128 bytes, which stay 0), 16 bytes a guest lane and 1 KiB a
; work-group (x mod 64): sink + 128 + 16 (lane mod 64) + 1024 (group x mod
; 64), at most 65,648 + a span's 127 + 8 bytes, inside WL_SINK_BYTES. Spread
; so that the stores of different lanes and groups do not all meet on one
; word (docs/native.md: glsl_compact at k = 1 on the H200 7.63x -> 3.21x).
; llvm-passes/sink_stores.c deletes a store that can only reach the sink.
declare i32 @spv.workgroup_id(i32)
define i64 @wl.h.sink.store(i32 %lane) alwaysinline {
e:
  %skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 120
  %sk0 = load i64, ptr addrspace(6) %skp, align 4, !invariant.load !{}
  %g = call i32 @spv.workgroup_id(i32 0) nounwind willreturn memory(none)
  %g6 = and i32 %g, 63
  %gs = shl i32 %g6, 10
  %l6 = and i32 %lane, 63
  %ls = shl i32 %l6, 4
  %o0 = or i32 %gs, %ls
  %o = add i32 %o0, 128
  %o64 = zext i32 %o to i64
  %sk = add i64 %sk0, %o64
  ret i64 %sk
}
define {i64, i1} @wl.h.gmap(i64 %a, i64 %nm1, i1 %act, i32 %lane) alwaysinline {
e:
  %pg = getelementptr i8, ptr addrspace(6) @wl.push, i32 80
  %pf = getelementptr i8, ptr addrspace(6) @wl.push, i32 88
  %ph = getelementptr i8, ptr addrspace(6) @wl.push, i32 96
  %g = load i64, ptr addrspace(6) %pg, align 4, !invariant.load !{}
  %f = load i64, ptr addrspace(6) %pf, align 4, !invariant.load !{}
  %h = load i64, ptr addrspace(6) %ph, align 4, !invariant.load !{}
  %a48 = and i64 %a, 281474976710655
  %off = sub i64 %a48, %g
  %lim = xor i64 %f, -1
  %limn = sub i64 %lim, %nm1
  %in = icmp ule i64 %off, %limn
  %ha = add i64 %off, %h
  %aok = and i1 %act, %in
  %keep = icmp eq i1 %aok, %act
  call void @wl.note(i1 %keep, i64 %off, i32 %lane)
  %v0 = insertvalue {i64, i1} undef, i64 %ha, 0
  %v1 = insertvalue {i64, i1} %v0, i1 %in, 1
  ret {i64, i1} %v1
}
define {i64, i1} @wl.h.gmap.pages(i64 %a, i64 %nm1, i1 %act, i32 %lane) alwaysinline {
e:
  %pt = getelementptr i8, ptr addrspace(6) @wl.push, i32 80
  %t = load i64, ptr addrspace(6) %pt, align 4, !invariant.load !{}
  %ro0 = lshr i64 %a, 29
  %ro = and i64 %ro0, 524280
  %rp = add i64 %t, %ro
  %rpp = inttoptr i64 %rp to ptr addrspace(1)
  %leaf = load i64, ptr addrspace(1) %rpp, align 8, !invariant.load !{}
  %li0 = lshr i64 %a, 13
  %li = and i64 %li0, 524280
  %lp = add i64 %leaf, %li
  %lpp = inttoptr i64 %lp to ptr addrspace(1)
  %pe = load i64, ptr addrspace(1) %lpp, align 8, !invariant.load !{}
  %po = and i64 %a, 65535
  %pl = add i64 %po, %nm1
  %cross = lshr i64 %pl, 16
  %sel = lshr i64 %pe, %cross
  %in = trunc i64 %sel to i1
  %hb = and i64 %pe, -16
  %ha = add i64 %hb, %po
  %a48 = and i64 %a, 281474976710655
  %off = or i64 %a48, 281474976710656
  %aok = and i1 %act, %in
  %keep = icmp eq i1 %aok, %act
  call void @wl.note(i1 %keep, i64 %off, i32 %lane)
  %v0 = insertvalue {i64, i1} undef, i64 %ha, 0
  %v1 = insertvalue {i64, i1} %v0, i1 %in, 1
  ret {i64, i1} %v1
}

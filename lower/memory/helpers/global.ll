; The global-memory helpers of the lanes model (docs/memory.md), written
; against the guest mapping @wl.h.gmap (map.ll). Each per-lane access of the
; wave IR (every lane clone) becomes a call to one of these, inlined at the
; end of the lowering (alwaysinline; helper_calls.c keeps some as functions).
;
;   @wl.h.load.global.bN(a, act, lane)       no block: the words the access
;       covers read from %hs (the host address where the access is made, else
;       the runtime's sink, WL_PUSH_SINK_OFFSET, which reads 0) and shifted
;       together (an access need not be aligned on the hardware; a host access
;       must be). .a4: an address known 4-aligned; .ax(a, x, ...): one whose
;       low two bits are those of x (the shift computed once from x); .span:
;       one of a span of dword accesses at constant offsets from one address,
;       mapped once (the span is [a + c0, a + c0 + nm1], this access at a + c).
;   @wl.h.store.global.bN                    b32/b64: one store, to the sink's
;       other half where not made. b8/b16: an i8 store, an i16 store at an even
;       address, two i8 stores at an odd one.
;   @wl.h.atomic.global.<op>.bN              one atomic under `if (act &&
;       inside)`; inc dec fadd fmin fmax compare-and-swap loops.
;
; Variants, one of each pair kept by the loader (memory.c), under the name
; without the suffix:
;   .words  the host has no byte access (translate option force_merge_stores):
;           loads read aligned words, b8/b16 stores are merged into their word
;           by @wl.h.merge (tail.ll, D977), b32/b64 stores stay align 4.
;   .lock   no 64-bit buffer atomics (force_atomic64_lock): the 64-bit atomic
;           under one lock, status word 7 (byte WL_LC_LOCK_BYTE): one block a
;           round, no branch inside; every lane tries a 32-bit compare-and-
;           swap 0 -> 1, reads the two dwords by atomic or 0 and adds to each
;           the difference to the new value (0 where it lost the lock); the
;           winner then subtracts 1 from the lock. All relaxed (docs/memory.md
;           says why). At most WL_LC_LOCK_ROUNDS tries, then
;           WL_ESC_MERGE_ROUNDS (@wl.h.escape.now) and result 0.
;
; wl-const WL_PUSH_SINK_OFFSET 120
; wl-const WL_LC_LOCK_BYTE 28
; wl-const WL_LC_LOCK_ROUNDS 1048576
; wl-const WL_ESC_MERGE_ROUNDS 2

@wl.status = external addrspace(4) global [0 x i32]
@wl.push = external addrspace(6) global [32 x i32]
declare {i64, i1} @wl.h.gmap(i64, i64, i1, i32)
declare i64 @wl.h.sink.store(i32)
declare void @wl.h.merge(i64, i32, i32)
declare void @wl.h.escape.now(i32, i32, i1, i32)
declare float @llvm.minnum.f32(float, float)
declare float @llvm.maxnum.f32(float, float)
declare double @llvm.minnum.f64(double, double)
declare double @llvm.maxnum.f64(double, double)

; ---- loads: no block. The first word is at hs & -4, the last at
; (hs + n - 1) & -4, both inside the access's bytes, so inside the mapping (or
; the sink) whatever the alignment; an aligned access reads one word twice.
; A dword is (lo >> sh) | ((hi << 1) << (31 - sh)), exact for sh = 0. With
; .ax the shift and the last word's distance come from x: G, H and the sink
; are multiples of 16, so hs & 3 = a & 3 = x & 3 where the access is made.
; Where the host reads bytes the access is one load at its own address,
; align 1 (the backend reads a vector of bytes).
define i32 @wl.h.load.global.b8(i64 %a, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 0, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 120
  %sk0 = load i64, ptr addrspace(6) %skp, align 4, !invariant.load !{}
  %sk = add i64 %sk0, 0
  %hs = select i1 %ok, i64 %ha, i64 %sk
  %p = inttoptr i64 %hs to ptr addrspace(1)
  %n = load i8, ptr addrspace(1) %p, align 1
  %r = zext i8 %n to i32
  ret i32 %r
}
define i32 @wl.h.load.global.b8.words(i64 %a, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 0, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 120
  %sk0 = load i64, ptr addrspace(6) %skp, align 4, !invariant.load !{}
  %sk = add i64 %sk0, 0
  %hs = select i1 %ok, i64 %ha, i64 %sk
  %t = trunc i64 %hs to i32
  %lo3 = and i32 %t, 3
  %sh = shl i32 %lo3, 3
  %sh31 = sub i32 31, %sh
  %wa0 = and i64 %hs, -4
  %w0.p = inttoptr i64 %wa0 to ptr addrspace(1)
  %w0 = load i32, ptr addrspace(1) %w0.p, align 4
  %s = lshr i32 %w0, %sh
  %r = and i32 %s, 255
  ret i32 %r
}
define i32 @wl.h.load.global.b16(i64 %a, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 1, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 120
  %sk0 = load i64, ptr addrspace(6) %skp, align 4, !invariant.load !{}
  %sk = add i64 %sk0, 0
  %hs = select i1 %ok, i64 %ha, i64 %sk
  %p = inttoptr i64 %hs to ptr addrspace(1)
  %n = load i16, ptr addrspace(1) %p, align 1
  %r = zext i16 %n to i32
  ret i32 %r
}
define i32 @wl.h.load.global.b16.words(i64 %a, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 1, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 120
  %sk0 = load i64, ptr addrspace(6) %skp, align 4, !invariant.load !{}
  %sk = add i64 %sk0, 0
  %hs = select i1 %ok, i64 %ha, i64 %sk
  %t = trunc i64 %hs to i32
  %lo3 = and i32 %t, 3
  %sh = shl i32 %lo3, 3
  %sh31 = sub i32 31, %sh
  %wa0 = and i64 %hs, -4
  %w0.p = inttoptr i64 %wa0 to ptr addrspace(1)
  %w0 = load i32, ptr addrspace(1) %w0.p, align 4
  %hse = add i64 %hs, 1
  %wae = and i64 %hse, -4
  %we.p = inttoptr i64 %wae to ptr addrspace(1)
  %we = load i32, ptr addrspace(1) %we.p, align 4
  %f.r = lshr i32 %w0, %sh
  %f.h1 = shl i32 %we, 1
  %f.h = shl i32 %f.h1, %sh31
  %f = or i32 %f.r, %f.h
  %r = and i32 %f, 65535
  ret i32 %r
}
define i32 @wl.h.load.global.b32(i64 %a, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 3, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 120
  %sk0 = load i64, ptr addrspace(6) %skp, align 4, !invariant.load !{}
  %sk = add i64 %sk0, 0
  %hs = select i1 %ok, i64 %ha, i64 %sk
  %p = inttoptr i64 %hs to ptr addrspace(1)
  %r = load i32, ptr addrspace(1) %p, align 1
  ret i32 %r
}
define i32 @wl.h.load.global.b32.words(i64 %a, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 3, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 120
  %sk0 = load i64, ptr addrspace(6) %skp, align 4, !invariant.load !{}
  %sk = add i64 %sk0, 0
  %hs = select i1 %ok, i64 %ha, i64 %sk
  %t = trunc i64 %hs to i32
  %lo3 = and i32 %t, 3
  %sh = shl i32 %lo3, 3
  %sh31 = sub i32 31, %sh
  %wa0 = and i64 %hs, -4
  %w0.p = inttoptr i64 %wa0 to ptr addrspace(1)
  %w0 = load i32, ptr addrspace(1) %w0.p, align 4
  %hse = add i64 %hs, 3
  %wae = and i64 %hse, -4
  %we.p = inttoptr i64 %wae to ptr addrspace(1)
  %we = load i32, ptr addrspace(1) %we.p, align 4
  %r.r = lshr i32 %w0, %sh
  %r.h1 = shl i32 %we, 1
  %r.h = shl i32 %r.h1, %sh31
  %r = or i32 %r.r, %r.h
  ret i32 %r
}
define i32 @wl.h.load.global.b32.a4(i64 %a, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 3, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 120
  %sk0 = load i64, ptr addrspace(6) %skp, align 4, !invariant.load !{}
  %sk = add i64 %sk0, 0
  %hs = select i1 %ok, i64 %ha, i64 %sk
  %p = inttoptr i64 %hs to ptr addrspace(1)
  %r = load i32, ptr addrspace(1) %p, align 4
  ret i32 %r
}
define i32 @wl.h.load.global.b32.ax(i64 %a, i64 %x, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 3, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 120
  %sk0 = load i64, ptr addrspace(6) %skp, align 4, !invariant.load !{}
  %sk = add i64 %sk0, 0
  %hs = select i1 %ok, i64 %ha, i64 %sk
  %p = inttoptr i64 %hs to ptr addrspace(1)
  %r = load i32, ptr addrspace(1) %p, align 1
  ret i32 %r
}
define i32 @wl.h.load.global.b32.ax.words(i64 %a, i64 %x, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 3, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 120
  %sk0 = load i64, ptr addrspace(6) %skp, align 4, !invariant.load !{}
  %sk = add i64 %sk0, 0
  %hs = select i1 %ok, i64 %ha, i64 %sk
  %xt = trunc i64 %x to i32
  %lo3 = and i32 %xt, 3
  %sh = shl i32 %lo3, 3
  %sh31 = sub i32 31, %sh
  %mis = icmp ne i32 %lo3, 0
  %wd = select i1 %mis, i64 4, i64 0
  %wa0 = and i64 %hs, -4
  %wae = add i64 %wa0, %wd
  %w0.p = inttoptr i64 %wa0 to ptr addrspace(1)
  %w0 = load i32, ptr addrspace(1) %w0.p, align 4
  %we.p = inttoptr i64 %wae to ptr addrspace(1)
  %we = load i32, ptr addrspace(1) %we.p, align 4
  %r.r = lshr i32 %w0, %sh
  %r.h1 = shl i32 %we, 1
  %r.h = shl i32 %r.h1, %sh31
  %r = or i32 %r.r, %r.h
  ret i32 %r
}
define i32 @wl.h.load.global.b32.span(i64 %a, i64 %c0, i64 %nm1, i64 %c, i1 %note, i1 %act, i32 %lane) alwaysinline {
e:
  %xa = add i64 %a, %c0
  %na = and i1 %act, %note
  %mp = call {i64, i1} @wl.h.gmap(i64 %xa, i64 %nm1, i1 %na, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 120
  %sk0 = load i64, ptr addrspace(6) %skp, align 4, !invariant.load !{}
  %sk = add i64 %sk0, 0
  %hs0 = select i1 %ok, i64 %ha, i64 %sk
  %d = sub i64 %c, %c0
  %hs = add i64 %hs0, %d
  %p = inttoptr i64 %hs to ptr addrspace(1)
  %r = load i32, ptr addrspace(1) %p, align 1
  ret i32 %r
}
define i32 @wl.h.load.global.b32.span.words(i64 %a, i64 %c0, i64 %nm1, i64 %c, i1 %note, i1 %act, i32 %lane) alwaysinline {
e:
  %xa = add i64 %a, %c0
  %na = and i1 %act, %note
  %mp = call {i64, i1} @wl.h.gmap(i64 %xa, i64 %nm1, i1 %na, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 120
  %sk0 = load i64, ptr addrspace(6) %skp, align 4, !invariant.load !{}
  %sk = add i64 %sk0, 0
  %hs0 = select i1 %ok, i64 %ha, i64 %sk
  %d = sub i64 %c, %c0
  %hs = add i64 %hs0, %d
  %t = trunc i64 %hs to i32
  %lo3 = and i32 %t, 3
  %sh = shl i32 %lo3, 3
  %sh31 = sub i32 31, %sh
  %wa0 = and i64 %hs, -4
  %w0.p = inttoptr i64 %wa0 to ptr addrspace(1)
  %w0 = load i32, ptr addrspace(1) %w0.p, align 4
  %hse = add i64 %hs, 3
  %wae = and i64 %hse, -4
  %we.p = inttoptr i64 %wae to ptr addrspace(1)
  %we = load i32, ptr addrspace(1) %we.p, align 4
  %r.r = lshr i32 %w0, %sh
  %r.h1 = shl i32 %we, 1
  %r.h = shl i32 %r.h1, %sh31
  %r = or i32 %r.r, %r.h
  ret i32 %r
}
define i32 @wl.h.load.global.b32.a4.span(i64 %a, i64 %c0, i64 %nm1, i64 %c, i1 %note, i1 %act, i32 %lane) alwaysinline {
e:
  %xa = add i64 %a, %c0
  %na = and i1 %act, %note
  %mp = call {i64, i1} @wl.h.gmap(i64 %xa, i64 %nm1, i1 %na, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 120
  %sk0 = load i64, ptr addrspace(6) %skp, align 4, !invariant.load !{}
  %sk = add i64 %sk0, 0
  %hs0 = select i1 %ok, i64 %ha, i64 %sk
  %d = sub i64 %c, %c0
  %hs = add i64 %hs0, %d
  %p = inttoptr i64 %hs to ptr addrspace(1)
  %r = load i32, ptr addrspace(1) %p, align 4
  ret i32 %r
}
define i64 @wl.h.load.global.b64(i64 %a, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 120
  %sk0 = load i64, ptr addrspace(6) %skp, align 4, !invariant.load !{}
  %sk = add i64 %sk0, 0
  %hs = select i1 %ok, i64 %ha, i64 %sk
  %p = inttoptr i64 %hs to ptr addrspace(1)
  %r = load i64, ptr addrspace(1) %p, align 1
  ret i64 %r
}
define i64 @wl.h.load.global.b64.words(i64 %a, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 120
  %sk0 = load i64, ptr addrspace(6) %skp, align 4, !invariant.load !{}
  %sk = add i64 %sk0, 0
  %hs = select i1 %ok, i64 %ha, i64 %sk
  %t = trunc i64 %hs to i32
  %lo3 = and i32 %t, 3
  %sh = shl i32 %lo3, 3
  %sh31 = sub i32 31, %sh
  %wa0 = and i64 %hs, -4
  %w0.p = inttoptr i64 %wa0 to ptr addrspace(1)
  %w0 = load i32, ptr addrspace(1) %w0.p, align 4
  %wa1 = add i64 %wa0, 4
  %hse = add i64 %hs, 7
  %wae = and i64 %hse, -4
  %we.p = inttoptr i64 %wae to ptr addrspace(1)
  %we = load i32, ptr addrspace(1) %we.p, align 4
  %w1.p = inttoptr i64 %wa1 to ptr addrspace(1)
  %w1 = load i32, ptr addrspace(1) %w1.p, align 4
  %lo.r = lshr i32 %w0, %sh
  %lo.h1 = shl i32 %w1, 1
  %lo.h = shl i32 %lo.h1, %sh31
  %lo = or i32 %lo.r, %lo.h
  %hi.r = lshr i32 %w1, %sh
  %hi.h1 = shl i32 %we, 1
  %hi.h = shl i32 %hi.h1, %sh31
  %hi = or i32 %hi.r, %hi.h
  %lz = zext i32 %lo to i64
  %hz = zext i32 %hi to i64
  %hsh = shl i64 %hz, 32
  %r = or i64 %lz, %hsh
  ret i64 %r
}
define i64 @wl.h.load.global.b64.a4(i64 %a, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 120
  %sk0 = load i64, ptr addrspace(6) %skp, align 4, !invariant.load !{}
  %sk = add i64 %sk0, 0
  %hs = select i1 %ok, i64 %ha, i64 %sk
  %p = inttoptr i64 %hs to ptr addrspace(1)
  %r = load i64, ptr addrspace(1) %p, align 4
  ret i64 %r
}
define i64 @wl.h.load.global.b64.ax(i64 %a, i64 %x, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 120
  %sk0 = load i64, ptr addrspace(6) %skp, align 4, !invariant.load !{}
  %sk = add i64 %sk0, 0
  %hs = select i1 %ok, i64 %ha, i64 %sk
  %p = inttoptr i64 %hs to ptr addrspace(1)
  %r = load i64, ptr addrspace(1) %p, align 1
  ret i64 %r
}
define i64 @wl.h.load.global.b64.ax.words(i64 %a, i64 %x, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 120
  %sk0 = load i64, ptr addrspace(6) %skp, align 4, !invariant.load !{}
  %sk = add i64 %sk0, 0
  %hs = select i1 %ok, i64 %ha, i64 %sk
  %xt = trunc i64 %x to i32
  %lo3 = and i32 %xt, 3
  %sh = shl i32 %lo3, 3
  %sh31 = sub i32 31, %sh
  %mis = icmp ne i32 %lo3, 0
  %wd = select i1 %mis, i64 8, i64 4
  %wa0 = and i64 %hs, -4
  %wae = add i64 %wa0, %wd
  %wa1 = add i64 %wa0, 4
  %w0.p = inttoptr i64 %wa0 to ptr addrspace(1)
  %w0 = load i32, ptr addrspace(1) %w0.p, align 4
  %we.p = inttoptr i64 %wae to ptr addrspace(1)
  %we = load i32, ptr addrspace(1) %we.p, align 4
  %w1.p = inttoptr i64 %wa1 to ptr addrspace(1)
  %w1 = load i32, ptr addrspace(1) %w1.p, align 4
  %lo.r = lshr i32 %w0, %sh
  %lo.h1 = shl i32 %w1, 1
  %lo.h = shl i32 %lo.h1, %sh31
  %lo = or i32 %lo.r, %lo.h
  %hi.r = lshr i32 %w1, %sh
  %hi.h1 = shl i32 %we, 1
  %hi.h = shl i32 %hi.h1, %sh31
  %hi = or i32 %hi.r, %hi.h
  %lz = zext i32 %lo to i64
  %hz = zext i32 %hi to i64
  %hsh = shl i64 %hz, 32
  %r = or i64 %lz, %hsh
  ret i64 %r
}
; ---- stores: one store, to the sink's other half (@wl.h.sink.store, map.ll)
; where not made; b32/b64 align 1 where the host writes bytes, align 4
; in the .words forms (exact only at aligned addresses: docs/memory.md).
define void @wl.h.store.global.b8(i64 %a, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 0, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %v8 = trunc i32 %v to i8
  store i8 %v8, ptr addrspace(1) %p, align 1
  br label %x
x:
  ret void
}
define void @wl.h.store.global.b8.words(i64 %a, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 0, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %wa = and i64 %ha, -4
  %lo3w = and i64 %a, 3
  %sh64 = shl i64 %lo3w, 3
  %sh = trunc i64 %sh64 to i32
  %lo3 = trunc i64 %lo3w to i32
  %m = shl i32 255, %sh
  %vb = and i32 %v, 255
  %vs = shl i32 %vb, %sh
  call void @wl.h.merge(i64 %wa, i32 %m, i32 %vs)
  br label %x
x:
  ret void
}
define void @wl.h.store.global.b16(i64 %a, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 1, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %v8 = trunc i32 %v to i8
  %odd = and i64 %a, 1
  %isodd = icmp ne i64 %odd, 0
  br i1 %isodd, label %c2, label %c1
c1:
  %v16 = trunc i32 %v to i16
  store i16 %v16, ptr addrspace(1) %p, align 2
  br label %cj
c2:
  store i8 %v8, ptr addrspace(1) %p, align 1
  %ha1 = add i64 %ha, 1
  %p1 = inttoptr i64 %ha1 to ptr addrspace(1)
  %vt = lshr i32 %v, 8
  %vt8 = trunc i32 %vt to i8
  store i8 %vt8, ptr addrspace(1) %p1, align 1
  br label %cj
cj:
  br label %x
x:
  ret void
}
define void @wl.h.store.global.b16.words(i64 %a, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 1, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %wa = and i64 %ha, -4
  %lo3w = and i64 %a, 3
  %sh64 = shl i64 %lo3w, 3
  %sh = trunc i64 %sh64 to i32
  %lo3 = trunc i64 %lo3w to i32
  %cross = icmp eq i32 %lo3, 3
  br i1 %cross, label %c2, label %c1
c1:
  %m = shl i32 65535, %sh
  %vh = and i32 %v, 65535
  %vs = shl i32 %vh, %sh
  call void @wl.h.merge(i64 %wa, i32 %m, i32 %vs)
  br label %cj
c2:
  %vl = shl i32 %v, 24
  call void @wl.h.merge(i64 %wa, i32 -16777216, i32 %vl)
  %wa4 = add i64 %wa, 4
  %vt = lshr i32 %v, 8
  %vt8 = and i32 %vt, 255
  call void @wl.h.merge(i64 %wa4, i32 255, i32 %vt8)
  br label %cj
cj:
  br label %x
x:
  ret void
}
define void @wl.h.store.global.b32(i64 %a, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 3, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %sk = call i64 @wl.h.sink.store(i32 %lane)
  %hs = select i1 %ok, i64 %ha, i64 %sk
  %p = inttoptr i64 %hs to ptr addrspace(1)
  store i32 %v, ptr addrspace(1) %p, align 1
  ret void
}
define void @wl.h.store.global.b32.words(i64 %a, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 3, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %sk = call i64 @wl.h.sink.store(i32 %lane)
  %hs = select i1 %ok, i64 %ha, i64 %sk
  %p = inttoptr i64 %hs to ptr addrspace(1)
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void
}
define void @wl.h.store.global.b32.span(i64 %a, i64 %c0, i64 %nm1, i64 %c, i1 %note, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %xa = add i64 %a, %c0
  %na = and i1 %act, %note
  %mp = call {i64, i1} @wl.h.gmap(i64 %xa, i64 %nm1, i1 %na, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %sk = call i64 @wl.h.sink.store(i32 %lane)
  %hs0 = select i1 %ok, i64 %ha, i64 %sk
  %d = sub i64 %c, %c0
  %hs = add i64 %hs0, %d
  %p = inttoptr i64 %hs to ptr addrspace(1)
  store i32 %v, ptr addrspace(1) %p, align 1
  ret void
}
define void @wl.h.store.global.b32.span.words(i64 %a, i64 %c0, i64 %nm1, i64 %c, i1 %note, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %xa = add i64 %a, %c0
  %na = and i1 %act, %note
  %mp = call {i64, i1} @wl.h.gmap(i64 %xa, i64 %nm1, i1 %na, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %sk = call i64 @wl.h.sink.store(i32 %lane)
  %hs0 = select i1 %ok, i64 %ha, i64 %sk
  %d = sub i64 %c, %c0
  %hs = add i64 %hs0, %d
  %p = inttoptr i64 %hs to ptr addrspace(1)
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void
}
define void @wl.h.store.global.b32.a4(i64 %a, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 3, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %sk = call i64 @wl.h.sink.store(i32 %lane)
  %hs = select i1 %ok, i64 %ha, i64 %sk
  %p = inttoptr i64 %hs to ptr addrspace(1)
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void
}
define void @wl.h.store.global.b32.a4.span(i64 %a, i64 %c0, i64 %nm1, i64 %c, i1 %note, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %xa = add i64 %a, %c0
  %na = and i1 %act, %note
  %mp = call {i64, i1} @wl.h.gmap(i64 %xa, i64 %nm1, i1 %na, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %sk = call i64 @wl.h.sink.store(i32 %lane)
  %hs0 = select i1 %ok, i64 %ha, i64 %sk
  %d = sub i64 %c, %c0
  %hs = add i64 %hs0, %d
  %p = inttoptr i64 %hs to ptr addrspace(1)
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void
}
define void @wl.h.store.global.b64(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %sk = call i64 @wl.h.sink.store(i32 %lane)
  %hs = select i1 %ok, i64 %ha, i64 %sk
  %p = inttoptr i64 %hs to ptr addrspace(1)
  store i64 %v, ptr addrspace(1) %p, align 1
  ret void
}
define void @wl.h.store.global.b64.words(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %sk = call i64 @wl.h.sink.store(i32 %lane)
  %hs = select i1 %ok, i64 %ha, i64 %sk
  %p = inttoptr i64 %hs to ptr addrspace(1)
  store i64 %v, ptr addrspace(1) %p, align 4
  ret void
}
define void @wl.h.store.global.b64.a4(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  %sk = call i64 @wl.h.sink.store(i32 %lane)
  %hs = select i1 %ok, i64 %ha, i64 %sk
  %p = inttoptr i64 %hs to ptr addrspace(1)
  store i64 %v, ptr addrspace(1) %p, align 4
  ret void
}
; ---- 32-bit atomics: one atomic under `if (act && inside)`; inc dec fadd
; fmin fmax compare-and-swap loops.
define i32 @wl.h.atomic.global.swap.b32(i64 %a, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 3, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %r = atomicrmw xchg ptr addrspace(1) %p, i32 %v monotonic, align 4
  br label %x
x:
  %res = phi i32 [0, %e], [%r, %d]
  ret i32 %res
}
define i32 @wl.h.atomic.global.add.b32(i64 %a, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 3, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %r = atomicrmw add ptr addrspace(1) %p, i32 %v monotonic, align 4
  br label %x
x:
  %res = phi i32 [0, %e], [%r, %d]
  ret i32 %res
}
define i32 @wl.h.atomic.global.sub.b32(i64 %a, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 3, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %r = atomicrmw sub ptr addrspace(1) %p, i32 %v monotonic, align 4
  br label %x
x:
  %res = phi i32 [0, %e], [%r, %d]
  ret i32 %res
}
define i32 @wl.h.atomic.global.smin.b32(i64 %a, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 3, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %r = atomicrmw min ptr addrspace(1) %p, i32 %v monotonic, align 4
  br label %x
x:
  %res = phi i32 [0, %e], [%r, %d]
  ret i32 %res
}
define i32 @wl.h.atomic.global.umin.b32(i64 %a, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 3, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %r = atomicrmw umin ptr addrspace(1) %p, i32 %v monotonic, align 4
  br label %x
x:
  %res = phi i32 [0, %e], [%r, %d]
  ret i32 %res
}
define i32 @wl.h.atomic.global.smax.b32(i64 %a, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 3, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %r = atomicrmw max ptr addrspace(1) %p, i32 %v monotonic, align 4
  br label %x
x:
  %res = phi i32 [0, %e], [%r, %d]
  ret i32 %res
}
define i32 @wl.h.atomic.global.umax.b32(i64 %a, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 3, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %r = atomicrmw umax ptr addrspace(1) %p, i32 %v monotonic, align 4
  br label %x
x:
  %res = phi i32 [0, %e], [%r, %d]
  ret i32 %res
}
define i32 @wl.h.atomic.global.and.b32(i64 %a, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 3, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %r = atomicrmw and ptr addrspace(1) %p, i32 %v monotonic, align 4
  br label %x
x:
  %res = phi i32 [0, %e], [%r, %d]
  ret i32 %res
}
define i32 @wl.h.atomic.global.or.b32(i64 %a, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 3, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %r = atomicrmw or ptr addrspace(1) %p, i32 %v monotonic, align 4
  br label %x
x:
  %res = phi i32 [0, %e], [%r, %d]
  ret i32 %res
}
define i32 @wl.h.atomic.global.xor.b32(i64 %a, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 3, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %r = atomicrmw xor ptr addrspace(1) %p, i32 %v monotonic, align 4
  br label %x
x:
  %res = phi i32 [0, %e], [%r, %d]
  ret i32 %res
}
define i32 @wl.h.atomic.global.inc.b32(i64 %a, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 3, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %o0 = load i32, ptr addrspace(1) %p, align 4
  br label %l
l:
  %o = phi i32 [%o0, %d], [%s, %l]
  %ge = icmp uge i32 %o, %v
  %o1 = add i32 %o, 1
  %n = select i1 %ge, i32 0, i32 %o1
  %c = cmpxchg ptr addrspace(1) %p, i32 %o, i32 %n monotonic monotonic
  %s = extractvalue {i32, i1} %c, 0
  %k = extractvalue {i32, i1} %c, 1
  br i1 %k, label %y, label %l
y:
  %r = add i32 %o, 0
  br label %x
x:
  %res = phi i32 [0, %e], [%r, %y]
  ret i32 %res
}
define i32 @wl.h.atomic.global.dec.b32(i64 %a, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 3, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %o0 = load i32, ptr addrspace(1) %p, align 4
  br label %l
l:
  %o = phi i32 [%o0, %d], [%s, %l]
  %z = icmp eq i32 %o, 0
  %gt = icmp ugt i32 %o, %v
  %zz = or i1 %z, %gt
  %o1 = sub i32 %o, 1
  %n = select i1 %zz, i32 %v, i32 %o1
  %c = cmpxchg ptr addrspace(1) %p, i32 %o, i32 %n monotonic monotonic
  %s = extractvalue {i32, i1} %c, 0
  %k = extractvalue {i32, i1} %c, 1
  br i1 %k, label %y, label %l
y:
  %r = add i32 %o, 0
  br label %x
x:
  %res = phi i32 [0, %e], [%r, %y]
  ret i32 %res
}
define i32 @wl.h.atomic.global.fadd.b32(i64 %a, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 3, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %o0 = load i32, ptr addrspace(1) %p, align 4
  br label %l
l:
  %o = phi i32 [%o0, %d], [%s, %l]
  %fo = bitcast i32 %o to float
  %fv = bitcast i32 %v to float
  %fn = fadd float %fo, %fv
  %n = bitcast float %fn to i32
  %c = cmpxchg ptr addrspace(1) %p, i32 %o, i32 %n monotonic monotonic
  %s = extractvalue {i32, i1} %c, 0
  %k = extractvalue {i32, i1} %c, 1
  br i1 %k, label %y, label %l
y:
  %r = add i32 %o, 0
  br label %x
x:
  %res = phi i32 [0, %e], [%r, %y]
  ret i32 %res
}
define i32 @wl.h.atomic.global.fmin.b32(i64 %a, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 3, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %o0 = load i32, ptr addrspace(1) %p, align 4
  br label %l
l:
  %o = phi i32 [%o0, %d], [%s, %l]
  %fo = bitcast i32 %o to float
  %fv = bitcast i32 %v to float
  %fn = call float @llvm.minnum.f32(float %fo, float %fv)
  %n = bitcast float %fn to i32
  %c = cmpxchg ptr addrspace(1) %p, i32 %o, i32 %n monotonic monotonic
  %s = extractvalue {i32, i1} %c, 0
  %k = extractvalue {i32, i1} %c, 1
  br i1 %k, label %y, label %l
y:
  %r = add i32 %o, 0
  br label %x
x:
  %res = phi i32 [0, %e], [%r, %y]
  ret i32 %res
}
define i32 @wl.h.atomic.global.fmax.b32(i64 %a, i32 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 3, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %o0 = load i32, ptr addrspace(1) %p, align 4
  br label %l
l:
  %o = phi i32 [%o0, %d], [%s, %l]
  %fo = bitcast i32 %o to float
  %fv = bitcast i32 %v to float
  %fn = call float @llvm.maxnum.f32(float %fo, float %fv)
  %n = bitcast float %fn to i32
  %c = cmpxchg ptr addrspace(1) %p, i32 %o, i32 %n monotonic monotonic
  %s = extractvalue {i32, i1} %c, 0
  %k = extractvalue {i32, i1} %c, 1
  br i1 %k, label %y, label %l
y:
  %r = add i32 %o, 0
  br label %x
x:
  %res = phi i32 [0, %e], [%r, %y]
  ret i32 %res
}
define i32 @wl.h.atomic.global.cmpswap.b32(i64 %a, i32 %v, i32 %nv, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 3, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %c = cmpxchg ptr addrspace(1) %p, i32 %v, i32 %nv monotonic monotonic
  %r = extractvalue {i32, i1} %c, 0
  br label %x
x:
  %res = phi i32 [0, %e], [%r, %d]
  ret i32 %res
}
; ---- 64-bit atomics, each followed by its .lock form (one lock, status
; word 7: see the top of the file).
define i64 @wl.h.atomic.global.swap.b64(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %r = atomicrmw xchg ptr addrspace(1) %p, i64 %v monotonic, align 8
  br label %x
x:
  %res = phi i64 [0, %e], [%r, %d]
  ret i64 %res
}
define i64 @wl.h.atomic.global.swap.b64.lock(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %rs = alloca i64, align 8
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %ha4 = add i64 %ha, 4
  %p1 = inttoptr i64 %ha4 to ptr addrspace(1)
  %lk = getelementptr i8, ptr addrspace(4) @wl.status, i32 28
  br label %l
l:
  %i = phi i32 [0, %d], [%i1, %l]
  %r0 = phi i64 [0, %d], [%r, %l]
  %lc = cmpxchg ptr addrspace(4) %lk, i32 0, i32 1 monotonic monotonic
  %got = extractvalue {i32, i1} %lc, 1
  %lo = atomicrmw volatile or ptr addrspace(1) %p, i32 0 monotonic, align 4
  %hi = atomicrmw volatile or ptr addrspace(1) %p1, i32 0 monotonic, align 4
  %lz = zext i32 %lo to i64
  %hz = zext i32 %hi to i64
  %hs = shl i64 %hz, 32
  %o = or i64 %lz, %hs
  %n = add i64 %v, 0
  %nlo = trunc i64 %n to i32
  %nhs = lshr i64 %n, 32
  %nhi = trunc i64 %nhs to i32
  %dlo = sub i32 %nlo, %lo
  %alo = select i1 %got, i32 %dlo, i32 0
  %ulo = atomicrmw add ptr addrspace(1) %p, i32 %alo monotonic, align 4
  %dhi = sub i32 %nhi, %hi
  %ahi = select i1 %got, i32 %dhi, i32 0
  %uhi = atomicrmw add ptr addrspace(1) %p1, i32 %ahi monotonic, align 4
  %rel = zext i1 %got to i32
  %un = atomicrmw sub ptr addrspace(4) %lk, i32 %rel monotonic, align 4
  %r = select i1 %got, i64 %o, i64 %r0
  store volatile i64 %r, ptr %rs, align 8
  %i1 = add i32 %i, 1
  %lim = icmp uge i32 %i1, 1048576
  %stop = or i1 %got, %lim
  br i1 %stop, label %fin, label %l
fin:
  %rf = load volatile i64, ptr %rs, align 8
  br i1 %got, label %x, label %esc
esc:
  call void @wl.h.escape.now(i32 2, i32 0, i1 true, i32 %lane)
  br label %x
x:
  %res = phi i64 [0, %e], [%rf, %fin], [0, %esc]
  ret i64 %res
}
define i64 @wl.h.atomic.global.add.b64(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %r = atomicrmw add ptr addrspace(1) %p, i64 %v monotonic, align 8
  br label %x
x:
  %res = phi i64 [0, %e], [%r, %d]
  ret i64 %res
}
define i64 @wl.h.atomic.global.add.b64.lock(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %rs = alloca i64, align 8
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %ha4 = add i64 %ha, 4
  %p1 = inttoptr i64 %ha4 to ptr addrspace(1)
  %lk = getelementptr i8, ptr addrspace(4) @wl.status, i32 28
  br label %l
l:
  %i = phi i32 [0, %d], [%i1, %l]
  %r0 = phi i64 [0, %d], [%r, %l]
  %lc = cmpxchg ptr addrspace(4) %lk, i32 0, i32 1 monotonic monotonic
  %got = extractvalue {i32, i1} %lc, 1
  %lo = atomicrmw volatile or ptr addrspace(1) %p, i32 0 monotonic, align 4
  %hi = atomicrmw volatile or ptr addrspace(1) %p1, i32 0 monotonic, align 4
  %lz = zext i32 %lo to i64
  %hz = zext i32 %hi to i64
  %hs = shl i64 %hz, 32
  %o = or i64 %lz, %hs
  %n = add i64 %o, %v
  %nlo = trunc i64 %n to i32
  %nhs = lshr i64 %n, 32
  %nhi = trunc i64 %nhs to i32
  %dlo = sub i32 %nlo, %lo
  %alo = select i1 %got, i32 %dlo, i32 0
  %ulo = atomicrmw add ptr addrspace(1) %p, i32 %alo monotonic, align 4
  %dhi = sub i32 %nhi, %hi
  %ahi = select i1 %got, i32 %dhi, i32 0
  %uhi = atomicrmw add ptr addrspace(1) %p1, i32 %ahi monotonic, align 4
  %rel = zext i1 %got to i32
  %un = atomicrmw sub ptr addrspace(4) %lk, i32 %rel monotonic, align 4
  %r = select i1 %got, i64 %o, i64 %r0
  store volatile i64 %r, ptr %rs, align 8
  %i1 = add i32 %i, 1
  %lim = icmp uge i32 %i1, 1048576
  %stop = or i1 %got, %lim
  br i1 %stop, label %fin, label %l
fin:
  %rf = load volatile i64, ptr %rs, align 8
  br i1 %got, label %x, label %esc
esc:
  call void @wl.h.escape.now(i32 2, i32 0, i1 true, i32 %lane)
  br label %x
x:
  %res = phi i64 [0, %e], [%rf, %fin], [0, %esc]
  ret i64 %res
}
define i64 @wl.h.atomic.global.sub.b64(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %r = atomicrmw sub ptr addrspace(1) %p, i64 %v monotonic, align 8
  br label %x
x:
  %res = phi i64 [0, %e], [%r, %d]
  ret i64 %res
}
define i64 @wl.h.atomic.global.sub.b64.lock(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %rs = alloca i64, align 8
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %ha4 = add i64 %ha, 4
  %p1 = inttoptr i64 %ha4 to ptr addrspace(1)
  %lk = getelementptr i8, ptr addrspace(4) @wl.status, i32 28
  br label %l
l:
  %i = phi i32 [0, %d], [%i1, %l]
  %r0 = phi i64 [0, %d], [%r, %l]
  %lc = cmpxchg ptr addrspace(4) %lk, i32 0, i32 1 monotonic monotonic
  %got = extractvalue {i32, i1} %lc, 1
  %lo = atomicrmw volatile or ptr addrspace(1) %p, i32 0 monotonic, align 4
  %hi = atomicrmw volatile or ptr addrspace(1) %p1, i32 0 monotonic, align 4
  %lz = zext i32 %lo to i64
  %hz = zext i32 %hi to i64
  %hs = shl i64 %hz, 32
  %o = or i64 %lz, %hs
  %n = sub i64 %o, %v
  %nlo = trunc i64 %n to i32
  %nhs = lshr i64 %n, 32
  %nhi = trunc i64 %nhs to i32
  %dlo = sub i32 %nlo, %lo
  %alo = select i1 %got, i32 %dlo, i32 0
  %ulo = atomicrmw add ptr addrspace(1) %p, i32 %alo monotonic, align 4
  %dhi = sub i32 %nhi, %hi
  %ahi = select i1 %got, i32 %dhi, i32 0
  %uhi = atomicrmw add ptr addrspace(1) %p1, i32 %ahi monotonic, align 4
  %rel = zext i1 %got to i32
  %un = atomicrmw sub ptr addrspace(4) %lk, i32 %rel monotonic, align 4
  %r = select i1 %got, i64 %o, i64 %r0
  store volatile i64 %r, ptr %rs, align 8
  %i1 = add i32 %i, 1
  %lim = icmp uge i32 %i1, 1048576
  %stop = or i1 %got, %lim
  br i1 %stop, label %fin, label %l
fin:
  %rf = load volatile i64, ptr %rs, align 8
  br i1 %got, label %x, label %esc
esc:
  call void @wl.h.escape.now(i32 2, i32 0, i1 true, i32 %lane)
  br label %x
x:
  %res = phi i64 [0, %e], [%rf, %fin], [0, %esc]
  ret i64 %res
}
define i64 @wl.h.atomic.global.smin.b64(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %r = atomicrmw min ptr addrspace(1) %p, i64 %v monotonic, align 8
  br label %x
x:
  %res = phi i64 [0, %e], [%r, %d]
  ret i64 %res
}
define i64 @wl.h.atomic.global.smin.b64.lock(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %rs = alloca i64, align 8
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %ha4 = add i64 %ha, 4
  %p1 = inttoptr i64 %ha4 to ptr addrspace(1)
  %lk = getelementptr i8, ptr addrspace(4) @wl.status, i32 28
  br label %l
l:
  %i = phi i32 [0, %d], [%i1, %l]
  %r0 = phi i64 [0, %d], [%r, %l]
  %lc = cmpxchg ptr addrspace(4) %lk, i32 0, i32 1 monotonic monotonic
  %got = extractvalue {i32, i1} %lc, 1
  %lo = atomicrmw volatile or ptr addrspace(1) %p, i32 0 monotonic, align 4
  %hi = atomicrmw volatile or ptr addrspace(1) %p1, i32 0 monotonic, align 4
  %lz = zext i32 %lo to i64
  %hz = zext i32 %hi to i64
  %hs = shl i64 %hz, 32
  %o = or i64 %lz, %hs
  %pk = icmp slt i64 %v, %o
  %n = select i1 %pk, i64 %v, i64 %o
  %nlo = trunc i64 %n to i32
  %nhs = lshr i64 %n, 32
  %nhi = trunc i64 %nhs to i32
  %dlo = sub i32 %nlo, %lo
  %alo = select i1 %got, i32 %dlo, i32 0
  %ulo = atomicrmw add ptr addrspace(1) %p, i32 %alo monotonic, align 4
  %dhi = sub i32 %nhi, %hi
  %ahi = select i1 %got, i32 %dhi, i32 0
  %uhi = atomicrmw add ptr addrspace(1) %p1, i32 %ahi monotonic, align 4
  %rel = zext i1 %got to i32
  %un = atomicrmw sub ptr addrspace(4) %lk, i32 %rel monotonic, align 4
  %r = select i1 %got, i64 %o, i64 %r0
  store volatile i64 %r, ptr %rs, align 8
  %i1 = add i32 %i, 1
  %lim = icmp uge i32 %i1, 1048576
  %stop = or i1 %got, %lim
  br i1 %stop, label %fin, label %l
fin:
  %rf = load volatile i64, ptr %rs, align 8
  br i1 %got, label %x, label %esc
esc:
  call void @wl.h.escape.now(i32 2, i32 0, i1 true, i32 %lane)
  br label %x
x:
  %res = phi i64 [0, %e], [%rf, %fin], [0, %esc]
  ret i64 %res
}
define i64 @wl.h.atomic.global.umin.b64(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %r = atomicrmw umin ptr addrspace(1) %p, i64 %v monotonic, align 8
  br label %x
x:
  %res = phi i64 [0, %e], [%r, %d]
  ret i64 %res
}
define i64 @wl.h.atomic.global.umin.b64.lock(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %rs = alloca i64, align 8
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %ha4 = add i64 %ha, 4
  %p1 = inttoptr i64 %ha4 to ptr addrspace(1)
  %lk = getelementptr i8, ptr addrspace(4) @wl.status, i32 28
  br label %l
l:
  %i = phi i32 [0, %d], [%i1, %l]
  %r0 = phi i64 [0, %d], [%r, %l]
  %lc = cmpxchg ptr addrspace(4) %lk, i32 0, i32 1 monotonic monotonic
  %got = extractvalue {i32, i1} %lc, 1
  %lo = atomicrmw volatile or ptr addrspace(1) %p, i32 0 monotonic, align 4
  %hi = atomicrmw volatile or ptr addrspace(1) %p1, i32 0 monotonic, align 4
  %lz = zext i32 %lo to i64
  %hz = zext i32 %hi to i64
  %hs = shl i64 %hz, 32
  %o = or i64 %lz, %hs
  %pk = icmp ult i64 %v, %o
  %n = select i1 %pk, i64 %v, i64 %o
  %nlo = trunc i64 %n to i32
  %nhs = lshr i64 %n, 32
  %nhi = trunc i64 %nhs to i32
  %dlo = sub i32 %nlo, %lo
  %alo = select i1 %got, i32 %dlo, i32 0
  %ulo = atomicrmw add ptr addrspace(1) %p, i32 %alo monotonic, align 4
  %dhi = sub i32 %nhi, %hi
  %ahi = select i1 %got, i32 %dhi, i32 0
  %uhi = atomicrmw add ptr addrspace(1) %p1, i32 %ahi monotonic, align 4
  %rel = zext i1 %got to i32
  %un = atomicrmw sub ptr addrspace(4) %lk, i32 %rel monotonic, align 4
  %r = select i1 %got, i64 %o, i64 %r0
  store volatile i64 %r, ptr %rs, align 8
  %i1 = add i32 %i, 1
  %lim = icmp uge i32 %i1, 1048576
  %stop = or i1 %got, %lim
  br i1 %stop, label %fin, label %l
fin:
  %rf = load volatile i64, ptr %rs, align 8
  br i1 %got, label %x, label %esc
esc:
  call void @wl.h.escape.now(i32 2, i32 0, i1 true, i32 %lane)
  br label %x
x:
  %res = phi i64 [0, %e], [%rf, %fin], [0, %esc]
  ret i64 %res
}
define i64 @wl.h.atomic.global.smax.b64(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %r = atomicrmw max ptr addrspace(1) %p, i64 %v monotonic, align 8
  br label %x
x:
  %res = phi i64 [0, %e], [%r, %d]
  ret i64 %res
}
define i64 @wl.h.atomic.global.smax.b64.lock(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %rs = alloca i64, align 8
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %ha4 = add i64 %ha, 4
  %p1 = inttoptr i64 %ha4 to ptr addrspace(1)
  %lk = getelementptr i8, ptr addrspace(4) @wl.status, i32 28
  br label %l
l:
  %i = phi i32 [0, %d], [%i1, %l]
  %r0 = phi i64 [0, %d], [%r, %l]
  %lc = cmpxchg ptr addrspace(4) %lk, i32 0, i32 1 monotonic monotonic
  %got = extractvalue {i32, i1} %lc, 1
  %lo = atomicrmw volatile or ptr addrspace(1) %p, i32 0 monotonic, align 4
  %hi = atomicrmw volatile or ptr addrspace(1) %p1, i32 0 monotonic, align 4
  %lz = zext i32 %lo to i64
  %hz = zext i32 %hi to i64
  %hs = shl i64 %hz, 32
  %o = or i64 %lz, %hs
  %pk = icmp sgt i64 %v, %o
  %n = select i1 %pk, i64 %v, i64 %o
  %nlo = trunc i64 %n to i32
  %nhs = lshr i64 %n, 32
  %nhi = trunc i64 %nhs to i32
  %dlo = sub i32 %nlo, %lo
  %alo = select i1 %got, i32 %dlo, i32 0
  %ulo = atomicrmw add ptr addrspace(1) %p, i32 %alo monotonic, align 4
  %dhi = sub i32 %nhi, %hi
  %ahi = select i1 %got, i32 %dhi, i32 0
  %uhi = atomicrmw add ptr addrspace(1) %p1, i32 %ahi monotonic, align 4
  %rel = zext i1 %got to i32
  %un = atomicrmw sub ptr addrspace(4) %lk, i32 %rel monotonic, align 4
  %r = select i1 %got, i64 %o, i64 %r0
  store volatile i64 %r, ptr %rs, align 8
  %i1 = add i32 %i, 1
  %lim = icmp uge i32 %i1, 1048576
  %stop = or i1 %got, %lim
  br i1 %stop, label %fin, label %l
fin:
  %rf = load volatile i64, ptr %rs, align 8
  br i1 %got, label %x, label %esc
esc:
  call void @wl.h.escape.now(i32 2, i32 0, i1 true, i32 %lane)
  br label %x
x:
  %res = phi i64 [0, %e], [%rf, %fin], [0, %esc]
  ret i64 %res
}
define i64 @wl.h.atomic.global.umax.b64(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %r = atomicrmw umax ptr addrspace(1) %p, i64 %v monotonic, align 8
  br label %x
x:
  %res = phi i64 [0, %e], [%r, %d]
  ret i64 %res
}
define i64 @wl.h.atomic.global.umax.b64.lock(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %rs = alloca i64, align 8
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %ha4 = add i64 %ha, 4
  %p1 = inttoptr i64 %ha4 to ptr addrspace(1)
  %lk = getelementptr i8, ptr addrspace(4) @wl.status, i32 28
  br label %l
l:
  %i = phi i32 [0, %d], [%i1, %l]
  %r0 = phi i64 [0, %d], [%r, %l]
  %lc = cmpxchg ptr addrspace(4) %lk, i32 0, i32 1 monotonic monotonic
  %got = extractvalue {i32, i1} %lc, 1
  %lo = atomicrmw volatile or ptr addrspace(1) %p, i32 0 monotonic, align 4
  %hi = atomicrmw volatile or ptr addrspace(1) %p1, i32 0 monotonic, align 4
  %lz = zext i32 %lo to i64
  %hz = zext i32 %hi to i64
  %hs = shl i64 %hz, 32
  %o = or i64 %lz, %hs
  %pk = icmp ugt i64 %v, %o
  %n = select i1 %pk, i64 %v, i64 %o
  %nlo = trunc i64 %n to i32
  %nhs = lshr i64 %n, 32
  %nhi = trunc i64 %nhs to i32
  %dlo = sub i32 %nlo, %lo
  %alo = select i1 %got, i32 %dlo, i32 0
  %ulo = atomicrmw add ptr addrspace(1) %p, i32 %alo monotonic, align 4
  %dhi = sub i32 %nhi, %hi
  %ahi = select i1 %got, i32 %dhi, i32 0
  %uhi = atomicrmw add ptr addrspace(1) %p1, i32 %ahi monotonic, align 4
  %rel = zext i1 %got to i32
  %un = atomicrmw sub ptr addrspace(4) %lk, i32 %rel monotonic, align 4
  %r = select i1 %got, i64 %o, i64 %r0
  store volatile i64 %r, ptr %rs, align 8
  %i1 = add i32 %i, 1
  %lim = icmp uge i32 %i1, 1048576
  %stop = or i1 %got, %lim
  br i1 %stop, label %fin, label %l
fin:
  %rf = load volatile i64, ptr %rs, align 8
  br i1 %got, label %x, label %esc
esc:
  call void @wl.h.escape.now(i32 2, i32 0, i1 true, i32 %lane)
  br label %x
x:
  %res = phi i64 [0, %e], [%rf, %fin], [0, %esc]
  ret i64 %res
}
define i64 @wl.h.atomic.global.and.b64(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %r = atomicrmw and ptr addrspace(1) %p, i64 %v monotonic, align 8
  br label %x
x:
  %res = phi i64 [0, %e], [%r, %d]
  ret i64 %res
}
define i64 @wl.h.atomic.global.and.b64.lock(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %rs = alloca i64, align 8
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %ha4 = add i64 %ha, 4
  %p1 = inttoptr i64 %ha4 to ptr addrspace(1)
  %lk = getelementptr i8, ptr addrspace(4) @wl.status, i32 28
  br label %l
l:
  %i = phi i32 [0, %d], [%i1, %l]
  %r0 = phi i64 [0, %d], [%r, %l]
  %lc = cmpxchg ptr addrspace(4) %lk, i32 0, i32 1 monotonic monotonic
  %got = extractvalue {i32, i1} %lc, 1
  %lo = atomicrmw volatile or ptr addrspace(1) %p, i32 0 monotonic, align 4
  %hi = atomicrmw volatile or ptr addrspace(1) %p1, i32 0 monotonic, align 4
  %lz = zext i32 %lo to i64
  %hz = zext i32 %hi to i64
  %hs = shl i64 %hz, 32
  %o = or i64 %lz, %hs
  %n = and i64 %o, %v
  %nlo = trunc i64 %n to i32
  %nhs = lshr i64 %n, 32
  %nhi = trunc i64 %nhs to i32
  %dlo = sub i32 %nlo, %lo
  %alo = select i1 %got, i32 %dlo, i32 0
  %ulo = atomicrmw add ptr addrspace(1) %p, i32 %alo monotonic, align 4
  %dhi = sub i32 %nhi, %hi
  %ahi = select i1 %got, i32 %dhi, i32 0
  %uhi = atomicrmw add ptr addrspace(1) %p1, i32 %ahi monotonic, align 4
  %rel = zext i1 %got to i32
  %un = atomicrmw sub ptr addrspace(4) %lk, i32 %rel monotonic, align 4
  %r = select i1 %got, i64 %o, i64 %r0
  store volatile i64 %r, ptr %rs, align 8
  %i1 = add i32 %i, 1
  %lim = icmp uge i32 %i1, 1048576
  %stop = or i1 %got, %lim
  br i1 %stop, label %fin, label %l
fin:
  %rf = load volatile i64, ptr %rs, align 8
  br i1 %got, label %x, label %esc
esc:
  call void @wl.h.escape.now(i32 2, i32 0, i1 true, i32 %lane)
  br label %x
x:
  %res = phi i64 [0, %e], [%rf, %fin], [0, %esc]
  ret i64 %res
}
define i64 @wl.h.atomic.global.or.b64(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %r = atomicrmw or ptr addrspace(1) %p, i64 %v monotonic, align 8
  br label %x
x:
  %res = phi i64 [0, %e], [%r, %d]
  ret i64 %res
}
define i64 @wl.h.atomic.global.or.b64.lock(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %rs = alloca i64, align 8
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %ha4 = add i64 %ha, 4
  %p1 = inttoptr i64 %ha4 to ptr addrspace(1)
  %lk = getelementptr i8, ptr addrspace(4) @wl.status, i32 28
  br label %l
l:
  %i = phi i32 [0, %d], [%i1, %l]
  %r0 = phi i64 [0, %d], [%r, %l]
  %lc = cmpxchg ptr addrspace(4) %lk, i32 0, i32 1 monotonic monotonic
  %got = extractvalue {i32, i1} %lc, 1
  %lo = atomicrmw volatile or ptr addrspace(1) %p, i32 0 monotonic, align 4
  %hi = atomicrmw volatile or ptr addrspace(1) %p1, i32 0 monotonic, align 4
  %lz = zext i32 %lo to i64
  %hz = zext i32 %hi to i64
  %hs = shl i64 %hz, 32
  %o = or i64 %lz, %hs
  %n = or i64 %o, %v
  %nlo = trunc i64 %n to i32
  %nhs = lshr i64 %n, 32
  %nhi = trunc i64 %nhs to i32
  %dlo = sub i32 %nlo, %lo
  %alo = select i1 %got, i32 %dlo, i32 0
  %ulo = atomicrmw add ptr addrspace(1) %p, i32 %alo monotonic, align 4
  %dhi = sub i32 %nhi, %hi
  %ahi = select i1 %got, i32 %dhi, i32 0
  %uhi = atomicrmw add ptr addrspace(1) %p1, i32 %ahi monotonic, align 4
  %rel = zext i1 %got to i32
  %un = atomicrmw sub ptr addrspace(4) %lk, i32 %rel monotonic, align 4
  %r = select i1 %got, i64 %o, i64 %r0
  store volatile i64 %r, ptr %rs, align 8
  %i1 = add i32 %i, 1
  %lim = icmp uge i32 %i1, 1048576
  %stop = or i1 %got, %lim
  br i1 %stop, label %fin, label %l
fin:
  %rf = load volatile i64, ptr %rs, align 8
  br i1 %got, label %x, label %esc
esc:
  call void @wl.h.escape.now(i32 2, i32 0, i1 true, i32 %lane)
  br label %x
x:
  %res = phi i64 [0, %e], [%rf, %fin], [0, %esc]
  ret i64 %res
}
define i64 @wl.h.atomic.global.xor.b64(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %r = atomicrmw xor ptr addrspace(1) %p, i64 %v monotonic, align 8
  br label %x
x:
  %res = phi i64 [0, %e], [%r, %d]
  ret i64 %res
}
define i64 @wl.h.atomic.global.xor.b64.lock(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %rs = alloca i64, align 8
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %ha4 = add i64 %ha, 4
  %p1 = inttoptr i64 %ha4 to ptr addrspace(1)
  %lk = getelementptr i8, ptr addrspace(4) @wl.status, i32 28
  br label %l
l:
  %i = phi i32 [0, %d], [%i1, %l]
  %r0 = phi i64 [0, %d], [%r, %l]
  %lc = cmpxchg ptr addrspace(4) %lk, i32 0, i32 1 monotonic monotonic
  %got = extractvalue {i32, i1} %lc, 1
  %lo = atomicrmw volatile or ptr addrspace(1) %p, i32 0 monotonic, align 4
  %hi = atomicrmw volatile or ptr addrspace(1) %p1, i32 0 monotonic, align 4
  %lz = zext i32 %lo to i64
  %hz = zext i32 %hi to i64
  %hs = shl i64 %hz, 32
  %o = or i64 %lz, %hs
  %n = xor i64 %o, %v
  %nlo = trunc i64 %n to i32
  %nhs = lshr i64 %n, 32
  %nhi = trunc i64 %nhs to i32
  %dlo = sub i32 %nlo, %lo
  %alo = select i1 %got, i32 %dlo, i32 0
  %ulo = atomicrmw add ptr addrspace(1) %p, i32 %alo monotonic, align 4
  %dhi = sub i32 %nhi, %hi
  %ahi = select i1 %got, i32 %dhi, i32 0
  %uhi = atomicrmw add ptr addrspace(1) %p1, i32 %ahi monotonic, align 4
  %rel = zext i1 %got to i32
  %un = atomicrmw sub ptr addrspace(4) %lk, i32 %rel monotonic, align 4
  %r = select i1 %got, i64 %o, i64 %r0
  store volatile i64 %r, ptr %rs, align 8
  %i1 = add i32 %i, 1
  %lim = icmp uge i32 %i1, 1048576
  %stop = or i1 %got, %lim
  br i1 %stop, label %fin, label %l
fin:
  %rf = load volatile i64, ptr %rs, align 8
  br i1 %got, label %x, label %esc
esc:
  call void @wl.h.escape.now(i32 2, i32 0, i1 true, i32 %lane)
  br label %x
x:
  %res = phi i64 [0, %e], [%rf, %fin], [0, %esc]
  ret i64 %res
}
define i64 @wl.h.atomic.global.inc.b64(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %o0 = load i64, ptr addrspace(1) %p, align 8
  br label %l
l:
  %o = phi i64 [%o0, %d], [%s, %l]
  %ge = icmp uge i64 %o, %v
  %o1 = add i64 %o, 1
  %n = select i1 %ge, i64 0, i64 %o1
  %c = cmpxchg ptr addrspace(1) %p, i64 %o, i64 %n monotonic monotonic
  %s = extractvalue {i64, i1} %c, 0
  %k = extractvalue {i64, i1} %c, 1
  br i1 %k, label %y, label %l
y:
  %r = add i64 %o, 0
  br label %x
x:
  %res = phi i64 [0, %e], [%r, %y]
  ret i64 %res
}
define i64 @wl.h.atomic.global.inc.b64.lock(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %rs = alloca i64, align 8
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %ha4 = add i64 %ha, 4
  %p1 = inttoptr i64 %ha4 to ptr addrspace(1)
  %lk = getelementptr i8, ptr addrspace(4) @wl.status, i32 28
  br label %l
l:
  %i = phi i32 [0, %d], [%i1, %l]
  %r0 = phi i64 [0, %d], [%r, %l]
  %lc = cmpxchg ptr addrspace(4) %lk, i32 0, i32 1 monotonic monotonic
  %got = extractvalue {i32, i1} %lc, 1
  %lo = atomicrmw volatile or ptr addrspace(1) %p, i32 0 monotonic, align 4
  %hi = atomicrmw volatile or ptr addrspace(1) %p1, i32 0 monotonic, align 4
  %lz = zext i32 %lo to i64
  %hz = zext i32 %hi to i64
  %hs = shl i64 %hz, 32
  %o = or i64 %lz, %hs
  %ge = icmp uge i64 %o, %v
  %o1 = add i64 %o, 1
  %n = select i1 %ge, i64 0, i64 %o1
  %nlo = trunc i64 %n to i32
  %nhs = lshr i64 %n, 32
  %nhi = trunc i64 %nhs to i32
  %dlo = sub i32 %nlo, %lo
  %alo = select i1 %got, i32 %dlo, i32 0
  %ulo = atomicrmw add ptr addrspace(1) %p, i32 %alo monotonic, align 4
  %dhi = sub i32 %nhi, %hi
  %ahi = select i1 %got, i32 %dhi, i32 0
  %uhi = atomicrmw add ptr addrspace(1) %p1, i32 %ahi monotonic, align 4
  %rel = zext i1 %got to i32
  %un = atomicrmw sub ptr addrspace(4) %lk, i32 %rel monotonic, align 4
  %r = select i1 %got, i64 %o, i64 %r0
  store volatile i64 %r, ptr %rs, align 8
  %i1 = add i32 %i, 1
  %lim = icmp uge i32 %i1, 1048576
  %stop = or i1 %got, %lim
  br i1 %stop, label %fin, label %l
fin:
  %rf = load volatile i64, ptr %rs, align 8
  br i1 %got, label %x, label %esc
esc:
  call void @wl.h.escape.now(i32 2, i32 0, i1 true, i32 %lane)
  br label %x
x:
  %res = phi i64 [0, %e], [%rf, %fin], [0, %esc]
  ret i64 %res
}
define i64 @wl.h.atomic.global.dec.b64(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %o0 = load i64, ptr addrspace(1) %p, align 8
  br label %l
l:
  %o = phi i64 [%o0, %d], [%s, %l]
  %z = icmp eq i64 %o, 0
  %gt = icmp ugt i64 %o, %v
  %zz = or i1 %z, %gt
  %o1 = sub i64 %o, 1
  %n = select i1 %zz, i64 %v, i64 %o1
  %c = cmpxchg ptr addrspace(1) %p, i64 %o, i64 %n monotonic monotonic
  %s = extractvalue {i64, i1} %c, 0
  %k = extractvalue {i64, i1} %c, 1
  br i1 %k, label %y, label %l
y:
  %r = add i64 %o, 0
  br label %x
x:
  %res = phi i64 [0, %e], [%r, %y]
  ret i64 %res
}
define i64 @wl.h.atomic.global.dec.b64.lock(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %rs = alloca i64, align 8
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %ha4 = add i64 %ha, 4
  %p1 = inttoptr i64 %ha4 to ptr addrspace(1)
  %lk = getelementptr i8, ptr addrspace(4) @wl.status, i32 28
  br label %l
l:
  %i = phi i32 [0, %d], [%i1, %l]
  %r0 = phi i64 [0, %d], [%r, %l]
  %lc = cmpxchg ptr addrspace(4) %lk, i32 0, i32 1 monotonic monotonic
  %got = extractvalue {i32, i1} %lc, 1
  %lo = atomicrmw volatile or ptr addrspace(1) %p, i32 0 monotonic, align 4
  %hi = atomicrmw volatile or ptr addrspace(1) %p1, i32 0 monotonic, align 4
  %lz = zext i32 %lo to i64
  %hz = zext i32 %hi to i64
  %hs = shl i64 %hz, 32
  %o = or i64 %lz, %hs
  %z = icmp eq i64 %o, 0
  %gt = icmp ugt i64 %o, %v
  %zz = or i1 %z, %gt
  %o1 = sub i64 %o, 1
  %n = select i1 %zz, i64 %v, i64 %o1
  %nlo = trunc i64 %n to i32
  %nhs = lshr i64 %n, 32
  %nhi = trunc i64 %nhs to i32
  %dlo = sub i32 %nlo, %lo
  %alo = select i1 %got, i32 %dlo, i32 0
  %ulo = atomicrmw add ptr addrspace(1) %p, i32 %alo monotonic, align 4
  %dhi = sub i32 %nhi, %hi
  %ahi = select i1 %got, i32 %dhi, i32 0
  %uhi = atomicrmw add ptr addrspace(1) %p1, i32 %ahi monotonic, align 4
  %rel = zext i1 %got to i32
  %un = atomicrmw sub ptr addrspace(4) %lk, i32 %rel monotonic, align 4
  %r = select i1 %got, i64 %o, i64 %r0
  store volatile i64 %r, ptr %rs, align 8
  %i1 = add i32 %i, 1
  %lim = icmp uge i32 %i1, 1048576
  %stop = or i1 %got, %lim
  br i1 %stop, label %fin, label %l
fin:
  %rf = load volatile i64, ptr %rs, align 8
  br i1 %got, label %x, label %esc
esc:
  call void @wl.h.escape.now(i32 2, i32 0, i1 true, i32 %lane)
  br label %x
x:
  %res = phi i64 [0, %e], [%rf, %fin], [0, %esc]
  ret i64 %res
}
define i64 @wl.h.atomic.global.fadd.b64(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %o0 = load i64, ptr addrspace(1) %p, align 8
  br label %l
l:
  %o = phi i64 [%o0, %d], [%s, %l]
  %fo = bitcast i64 %o to double
  %fv = bitcast i64 %v to double
  %fn = fadd double %fo, %fv
  %n = bitcast double %fn to i64
  %c = cmpxchg ptr addrspace(1) %p, i64 %o, i64 %n monotonic monotonic
  %s = extractvalue {i64, i1} %c, 0
  %k = extractvalue {i64, i1} %c, 1
  br i1 %k, label %y, label %l
y:
  %r = add i64 %o, 0
  br label %x
x:
  %res = phi i64 [0, %e], [%r, %y]
  ret i64 %res
}
define i64 @wl.h.atomic.global.fadd.b64.lock(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %rs = alloca i64, align 8
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %ha4 = add i64 %ha, 4
  %p1 = inttoptr i64 %ha4 to ptr addrspace(1)
  %lk = getelementptr i8, ptr addrspace(4) @wl.status, i32 28
  br label %l
l:
  %i = phi i32 [0, %d], [%i1, %l]
  %r0 = phi i64 [0, %d], [%r, %l]
  %lc = cmpxchg ptr addrspace(4) %lk, i32 0, i32 1 monotonic monotonic
  %got = extractvalue {i32, i1} %lc, 1
  %lo = atomicrmw volatile or ptr addrspace(1) %p, i32 0 monotonic, align 4
  %hi = atomicrmw volatile or ptr addrspace(1) %p1, i32 0 monotonic, align 4
  %lz = zext i32 %lo to i64
  %hz = zext i32 %hi to i64
  %hs = shl i64 %hz, 32
  %o = or i64 %lz, %hs
  %fo = bitcast i64 %o to double
  %fv = bitcast i64 %v to double
  %fn = fadd double %fo, %fv
  %n = bitcast double %fn to i64
  %nlo = trunc i64 %n to i32
  %nhs = lshr i64 %n, 32
  %nhi = trunc i64 %nhs to i32
  %dlo = sub i32 %nlo, %lo
  %alo = select i1 %got, i32 %dlo, i32 0
  %ulo = atomicrmw add ptr addrspace(1) %p, i32 %alo monotonic, align 4
  %dhi = sub i32 %nhi, %hi
  %ahi = select i1 %got, i32 %dhi, i32 0
  %uhi = atomicrmw add ptr addrspace(1) %p1, i32 %ahi monotonic, align 4
  %rel = zext i1 %got to i32
  %un = atomicrmw sub ptr addrspace(4) %lk, i32 %rel monotonic, align 4
  %r = select i1 %got, i64 %o, i64 %r0
  store volatile i64 %r, ptr %rs, align 8
  %i1 = add i32 %i, 1
  %lim = icmp uge i32 %i1, 1048576
  %stop = or i1 %got, %lim
  br i1 %stop, label %fin, label %l
fin:
  %rf = load volatile i64, ptr %rs, align 8
  br i1 %got, label %x, label %esc
esc:
  call void @wl.h.escape.now(i32 2, i32 0, i1 true, i32 %lane)
  br label %x
x:
  %res = phi i64 [0, %e], [%rf, %fin], [0, %esc]
  ret i64 %res
}
define i64 @wl.h.atomic.global.fmin.b64(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %o0 = load i64, ptr addrspace(1) %p, align 8
  br label %l
l:
  %o = phi i64 [%o0, %d], [%s, %l]
  %fo = bitcast i64 %o to double
  %fv = bitcast i64 %v to double
  %fn = call double @llvm.minnum.f64(double %fo, double %fv)
  %n = bitcast double %fn to i64
  %c = cmpxchg ptr addrspace(1) %p, i64 %o, i64 %n monotonic monotonic
  %s = extractvalue {i64, i1} %c, 0
  %k = extractvalue {i64, i1} %c, 1
  br i1 %k, label %y, label %l
y:
  %r = add i64 %o, 0
  br label %x
x:
  %res = phi i64 [0, %e], [%r, %y]
  ret i64 %res
}
define i64 @wl.h.atomic.global.fmin.b64.lock(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %rs = alloca i64, align 8
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %ha4 = add i64 %ha, 4
  %p1 = inttoptr i64 %ha4 to ptr addrspace(1)
  %lk = getelementptr i8, ptr addrspace(4) @wl.status, i32 28
  br label %l
l:
  %i = phi i32 [0, %d], [%i1, %l]
  %r0 = phi i64 [0, %d], [%r, %l]
  %lc = cmpxchg ptr addrspace(4) %lk, i32 0, i32 1 monotonic monotonic
  %got = extractvalue {i32, i1} %lc, 1
  %lo = atomicrmw volatile or ptr addrspace(1) %p, i32 0 monotonic, align 4
  %hi = atomicrmw volatile or ptr addrspace(1) %p1, i32 0 monotonic, align 4
  %lz = zext i32 %lo to i64
  %hz = zext i32 %hi to i64
  %hs = shl i64 %hz, 32
  %o = or i64 %lz, %hs
  %fo = bitcast i64 %o to double
  %fv = bitcast i64 %v to double
  %fn = call double @llvm.minnum.f64(double %fo, double %fv)
  %n = bitcast double %fn to i64
  %nlo = trunc i64 %n to i32
  %nhs = lshr i64 %n, 32
  %nhi = trunc i64 %nhs to i32
  %dlo = sub i32 %nlo, %lo
  %alo = select i1 %got, i32 %dlo, i32 0
  %ulo = atomicrmw add ptr addrspace(1) %p, i32 %alo monotonic, align 4
  %dhi = sub i32 %nhi, %hi
  %ahi = select i1 %got, i32 %dhi, i32 0
  %uhi = atomicrmw add ptr addrspace(1) %p1, i32 %ahi monotonic, align 4
  %rel = zext i1 %got to i32
  %un = atomicrmw sub ptr addrspace(4) %lk, i32 %rel monotonic, align 4
  %r = select i1 %got, i64 %o, i64 %r0
  store volatile i64 %r, ptr %rs, align 8
  %i1 = add i32 %i, 1
  %lim = icmp uge i32 %i1, 1048576
  %stop = or i1 %got, %lim
  br i1 %stop, label %fin, label %l
fin:
  %rf = load volatile i64, ptr %rs, align 8
  br i1 %got, label %x, label %esc
esc:
  call void @wl.h.escape.now(i32 2, i32 0, i1 true, i32 %lane)
  br label %x
x:
  %res = phi i64 [0, %e], [%rf, %fin], [0, %esc]
  ret i64 %res
}
define i64 @wl.h.atomic.global.fmax.b64(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %o0 = load i64, ptr addrspace(1) %p, align 8
  br label %l
l:
  %o = phi i64 [%o0, %d], [%s, %l]
  %fo = bitcast i64 %o to double
  %fv = bitcast i64 %v to double
  %fn = call double @llvm.maxnum.f64(double %fo, double %fv)
  %n = bitcast double %fn to i64
  %c = cmpxchg ptr addrspace(1) %p, i64 %o, i64 %n monotonic monotonic
  %s = extractvalue {i64, i1} %c, 0
  %k = extractvalue {i64, i1} %c, 1
  br i1 %k, label %y, label %l
y:
  %r = add i64 %o, 0
  br label %x
x:
  %res = phi i64 [0, %e], [%r, %y]
  ret i64 %res
}
define i64 @wl.h.atomic.global.fmax.b64.lock(i64 %a, i64 %v, i1 %act, i32 %lane) alwaysinline {
e:
  %rs = alloca i64, align 8
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %ha4 = add i64 %ha, 4
  %p1 = inttoptr i64 %ha4 to ptr addrspace(1)
  %lk = getelementptr i8, ptr addrspace(4) @wl.status, i32 28
  br label %l
l:
  %i = phi i32 [0, %d], [%i1, %l]
  %r0 = phi i64 [0, %d], [%r, %l]
  %lc = cmpxchg ptr addrspace(4) %lk, i32 0, i32 1 monotonic monotonic
  %got = extractvalue {i32, i1} %lc, 1
  %lo = atomicrmw volatile or ptr addrspace(1) %p, i32 0 monotonic, align 4
  %hi = atomicrmw volatile or ptr addrspace(1) %p1, i32 0 monotonic, align 4
  %lz = zext i32 %lo to i64
  %hz = zext i32 %hi to i64
  %hs = shl i64 %hz, 32
  %o = or i64 %lz, %hs
  %fo = bitcast i64 %o to double
  %fv = bitcast i64 %v to double
  %fn = call double @llvm.maxnum.f64(double %fo, double %fv)
  %n = bitcast double %fn to i64
  %nlo = trunc i64 %n to i32
  %nhs = lshr i64 %n, 32
  %nhi = trunc i64 %nhs to i32
  %dlo = sub i32 %nlo, %lo
  %alo = select i1 %got, i32 %dlo, i32 0
  %ulo = atomicrmw add ptr addrspace(1) %p, i32 %alo monotonic, align 4
  %dhi = sub i32 %nhi, %hi
  %ahi = select i1 %got, i32 %dhi, i32 0
  %uhi = atomicrmw add ptr addrspace(1) %p1, i32 %ahi monotonic, align 4
  %rel = zext i1 %got to i32
  %un = atomicrmw sub ptr addrspace(4) %lk, i32 %rel monotonic, align 4
  %r = select i1 %got, i64 %o, i64 %r0
  store volatile i64 %r, ptr %rs, align 8
  %i1 = add i32 %i, 1
  %lim = icmp uge i32 %i1, 1048576
  %stop = or i1 %got, %lim
  br i1 %stop, label %fin, label %l
fin:
  %rf = load volatile i64, ptr %rs, align 8
  br i1 %got, label %x, label %esc
esc:
  call void @wl.h.escape.now(i32 2, i32 0, i1 true, i32 %lane)
  br label %x
x:
  %res = phi i64 [0, %e], [%rf, %fin], [0, %esc]
  ret i64 %res
}
define i64 @wl.h.atomic.global.cmpswap.b64(i64 %a, i64 %v, i64 %nv, i1 %act, i32 %lane) alwaysinline {
e:
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %c = cmpxchg ptr addrspace(1) %p, i64 %v, i64 %nv monotonic monotonic
  %r = extractvalue {i64, i1} %c, 0
  br label %x
x:
  %res = phi i64 [0, %e], [%r, %d]
  ret i64 %res
}
define i64 @wl.h.atomic.global.cmpswap.b64.lock(i64 %a, i64 %v, i64 %nv, i1 %act, i32 %lane) alwaysinline {
e:
  %rs = alloca i64, align 8
  %mp = call {i64, i1} @wl.h.gmap(i64 %a, i64 7, i1 %act, i32 %lane)
  %ha = extractvalue {i64, i1} %mp, 0
  %inr = extractvalue {i64, i1} %mp, 1
  %ok = and i1 %act, %inr
  br i1 %ok, label %d, label %x
d:
  %p = inttoptr i64 %ha to ptr addrspace(1)
  %ha4 = add i64 %ha, 4
  %p1 = inttoptr i64 %ha4 to ptr addrspace(1)
  %lk = getelementptr i8, ptr addrspace(4) @wl.status, i32 28
  br label %l
l:
  %i = phi i32 [0, %d], [%i1, %l]
  %r0 = phi i64 [0, %d], [%r, %l]
  %lc = cmpxchg ptr addrspace(4) %lk, i32 0, i32 1 monotonic monotonic
  %got = extractvalue {i32, i1} %lc, 1
  %lo = atomicrmw volatile or ptr addrspace(1) %p, i32 0 monotonic, align 4
  %hi = atomicrmw volatile or ptr addrspace(1) %p1, i32 0 monotonic, align 4
  %lz = zext i32 %lo to i64
  %hz = zext i32 %hi to i64
  %hs = shl i64 %hz, 32
  %o = or i64 %lz, %hs
  %eq = icmp eq i64 %o, %v
  %n = select i1 %eq, i64 %nv, i64 %o
  %nlo = trunc i64 %n to i32
  %nhs = lshr i64 %n, 32
  %nhi = trunc i64 %nhs to i32
  %dlo = sub i32 %nlo, %lo
  %alo = select i1 %got, i32 %dlo, i32 0
  %ulo = atomicrmw add ptr addrspace(1) %p, i32 %alo monotonic, align 4
  %dhi = sub i32 %nhi, %hi
  %ahi = select i1 %got, i32 %dhi, i32 0
  %uhi = atomicrmw add ptr addrspace(1) %p1, i32 %ahi monotonic, align 4
  %rel = zext i1 %got to i32
  %un = atomicrmw sub ptr addrspace(4) %lk, i32 %rel monotonic, align 4
  %r = select i1 %got, i64 %o, i64 %r0
  store volatile i64 %r, ptr %rs, align 8
  %i1 = add i32 %i, 1
  %lim = icmp uge i32 %i1, 1048576
  %stop = or i1 %got, %lim
  br i1 %stop, label %fin, label %l
fin:
  %rf = load volatile i64, ptr %rs, align 8
  br i1 %got, label %x, label %esc
esc:
  call void @wl.h.escape.now(i32 2, i32 0, i1 true, i32 %lane)
  br label %x
x:
  %res = phi i64 [0, %e], [%rf, %fin], [0, %esc]
  ret i64 %res
}

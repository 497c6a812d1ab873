; The helpers linked after the LDS and scratch ones (memory.c,
; wl_lc_link_helpers), in this order:
;
;   @wl.h.merge(wa, m, vs)       a b8/b16 store merged into the global word at
;                                host address wa by compare-and-swap (D977):
;                                at most WL_LC_MERGE_ROUNDS rounds, then
;                                WL_ESC_MERGE_ROUNDS and the store not made.
;   @wl.h.merge.lds(a, m, vs)    the same on the LDS word holding byte offset
;                                a; .units64: on the 64-bit unit holding it,
;                                where @wl.group is [LDS/8 x i64] (the program
;                                has 64-bit LDS atomics); the loader keeps one.
;   @wl.h.escape                 an escape only notes itself (@wl.esc.note);
;                                escape_records.c makes the note a select and
;                                records the invocation's first at its return.
;   @wl.h.escape.now             the escape recorded at once (the locks'): the
;                                first escape of the dispatch wins status word
;                                0 by compare-and-swap, then words 1..3 (guest
;                                offset, lane, group x). With a note there,
;                                lavapipe returned wrong 64-bit swap results
;                                under the lock (test_subword, test_lds64).
;   @wl.h.sstore.b32             s_store_dword: by the subgroup's elected
;                                invocation only, through the mapping.
;   @wl.h.sload.b32(.span)       a mapped dword for SMEM (the address's low 2
;                                bits ignored, docs/wave-ir.md); .span: one of
;                                a span of scalar loads, mapped once.
;
; wl-const WL_PUSH_SINK_OFFSET 120
; wl-const WL_LC_MERGE_ROUNDS 1024
; wl-const WL_ESC_MERGE_ROUNDS 2

@wl.status = external addrspace(4) global [0 x i32]
@wl.push = external addrspace(6) global [32 x i32]
@wl.group = external addrspace(3) global [0 x i32]
declare {i64, i1} @wl.h.gmap(i64, i64, i1, i32)
declare void @wl.h.store.global.b32.a4(i64, i32, i1, i32)

define void @wl.h.merge(i64 %wa, i32 %m, i32 %vs) alwaysinline {
e:
  %p = inttoptr i64 %wa to ptr addrspace(1)
  %nm = xor i32 %m, -1
  %o0 = load i32, ptr addrspace(1) %p, align 4
  br label %l
l:
  %o = phi i32 [%o0, %e], [%s, %l]
  %n = phi i32 [0, %e], [%n1, %l]
  %kept = and i32 %o, %nm
  %new = or i32 %kept, %vs
  %c = cmpxchg ptr addrspace(1) %p, i32 %o, i32 %new monotonic monotonic
  %s = extractvalue {i32, i1} %c, 0
  %k = extractvalue {i32, i1} %c, 1
  %n1 = add i32 %n, 1
  %lim = icmp uge i32 %n1, 1024
  %stop = or i1 %k, %lim
  br i1 %stop, label %fin, label %l
fin:
  br i1 %k, label %x, label %esc
esc:
  call void @wl.h.escape(i32 2, i32 0, i1 true, i32 0)
  br label %x
x:
  ret void
}
define void @wl.h.merge.lds(i32 %a, i32 %m32, i32 %vs32) alwaysinline {
e:
  %wa = and i32 %a, -4
  %m = add i32 %m32, 0
  %vs = add i32 %vs32, 0
  %p = getelementptr i8, ptr addrspace(3) @wl.group, i32 %wa
  %nm = xor i32 %m, -1
  %o0 = load i32, ptr addrspace(3) %p, align 4
  br label %l
l:
  %o = phi i32 [%o0, %e], [%s, %l]
  %n = phi i32 [0, %e], [%n1, %l]
  %kept = and i32 %o, %nm
  %new = or i32 %kept, %vs
  %c = cmpxchg ptr addrspace(3) %p, i32 %o, i32 %new monotonic monotonic
  %s = extractvalue {i32, i1} %c, 0
  %k = extractvalue {i32, i1} %c, 1
  %n1 = add i32 %n, 1
  %lim = icmp uge i32 %n1, 1024
  %stop = or i1 %k, %lim
  br i1 %stop, label %fin, label %l
fin:
  br i1 %k, label %x, label %esc
esc:
  call void @wl.h.escape(i32 2, i32 0, i1 true, i32 0)
  br label %x
x:
  ret void
}
define void @wl.h.merge.lds.units64(i32 %a, i32 %m32, i32 %vs32) alwaysinline {
e:
  %wa = and i32 %a, -8
  %hi4 = and i32 %a, 4
  %sh32 = shl i32 %hi4, 3
  %sh = zext i32 %sh32 to i64
  %mz = zext i32 %m32 to i64
  %m = shl i64 %mz, %sh
  %vz = zext i32 %vs32 to i64
  %vs = shl i64 %vz, %sh
  %p = getelementptr i8, ptr addrspace(3) @wl.group, i32 %wa
  %nm = xor i64 %m, -1
  %o0 = load i64, ptr addrspace(3) %p, align 8
  br label %l
l:
  %o = phi i64 [%o0, %e], [%s, %l]
  %n = phi i32 [0, %e], [%n1, %l]
  %kept = and i64 %o, %nm
  %new = or i64 %kept, %vs
  %c = cmpxchg ptr addrspace(3) %p, i64 %o, i64 %new monotonic monotonic
  %s = extractvalue {i64, i1} %c, 0
  %k = extractvalue {i64, i1} %c, 1
  %n1 = add i32 %n, 1
  %lim = icmp uge i32 %n1, 1024
  %stop = or i1 %k, %lim
  br i1 %stop, label %fin, label %l
fin:
  br i1 %k, label %x, label %esc
esc:
  call void @wl.h.escape(i32 2, i32 0, i1 true, i32 0)
  br label %x
x:
  ret void
}
declare void @wl.esc.note(i32, i32, i1, i32)
define void @wl.h.escape(i32 %kind, i32 %off, i1 %act, i32 %lane) alwaysinline {
e:
  call void @wl.esc.note(i32 %kind, i32 %off, i1 %act, i32 %lane)
  ret void
}
define void @wl.h.escape.now(i32 %kind, i32 %off, i1 %act, i32 %lane) alwaysinline {
e:
  br i1 %act, label %d, label %x
d:
  %c = cmpxchg ptr addrspace(4) @wl.status, i32 0, i32 %kind monotonic monotonic
  %won = extractvalue {i32, i1} %c, 1
  br i1 %won, label %w, label %x
w:
  %p1 = getelementptr i8, ptr addrspace(4) @wl.status, i32 4
  store i32 %off, ptr addrspace(4) %p1, align 4
  %p2 = getelementptr i8, ptr addrspace(4) @wl.status, i32 8
  store i32 %lane, ptr addrspace(4) %p2, align 4
  %g = call i32 @spv.workgroup_id(i32 0)
  %p3 = getelementptr i8, ptr addrspace(4) @wl.status, i32 12
  store i32 %g, ptr addrspace(4) %p3, align 4
  br label %x
x:
  ret void
}
define void @wl.h.sstore.b32(i64 %a, i32 %v, i32 %lane) alwaysinline {
e:
  %el = call i1 @spv.subgroup.elect()
  %a4 = and i64 %a, -4
  call void @wl.h.store.global.b32.a4(i64 %a4, i32 %v, i1 %el, i32 %lane)
  ret void
}
define i32 @wl.h.sload.b32(i64 %a) alwaysinline {
e:
  %a4 = and i64 %a, -4
  %mp = call {i64, i1} @wl.h.gmap(i64 %a4, i64 3, i1 true, i32 0)
  %ha = extractvalue {i64, i1} %mp, 0
  %ok = extractvalue {i64, i1} %mp, 1
  %skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 120
  %sk = load i64, ptr addrspace(6) %skp, align 4, !invariant.load !{}
  %hs = select i1 %ok, i64 %ha, i64 %sk
  %p = inttoptr i64 %hs to ptr addrspace(1)
  %r = load i32, ptr addrspace(1) %p, align 4
  ret i32 %r
}
define i32 @wl.h.sload.b32.span(i64 %a, i64 %c0, i64 %nm1, i64 %c, i1 %note) alwaysinline {
e:
  %xa0 = add i64 %a, %c0
  %xa = and i64 %xa0, -4
  %mp = call {i64, i1} @wl.h.gmap(i64 %xa, i64 %nm1, i1 %note, i32 0)
  %ha = extractvalue {i64, i1} %mp, 0
  %ok = extractvalue {i64, i1} %mp, 1
  %skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 120
  %sk = load i64, ptr addrspace(6) %skp, align 4, !invariant.load !{}
  %hs0 = select i1 %ok, i64 %ha, i64 %sk
  %d = sub i64 %c, %c0
  %hs = add i64 %hs0, %d
  %p = inttoptr i64 %hs to ptr addrspace(1)
  %r = load i32, ptr addrspace(1) %p, align 4
  ret i32 %r
}
declare i32 @spv.workgroup_id(i32)
declare i1 @spv.subgroup.elect()
declare float @llvm.minnum.f32(float, float)
declare float @llvm.maxnum.f32(float, float)
declare double @llvm.minnum.f64(double, double)
declare double @llvm.maxnum.f64(double, double)

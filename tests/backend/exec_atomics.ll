; exec: local 64 groups 4 mem 512 lds 32
; Every atomic under contention: all 256 invocations (4 groups of 64) on the
; same words of device memory and of the device-memory LDS buffer, and the
; 64 invocations of a group on the same words of workgroup memory. gid =
; 64 group + l, v = mem[256 + gid], v64 = zext(v) << 28 ^ gid, sv64 =
; sext(v) << 20 ^ gid. Device words (final values):
;   0 add 1, 1 the sum of the values add 1 returned, 2 sub v, 3 and v,
;   4 or v, 5 xor v, 6 max v, 7 min v, 8 umax v, 9 umin v;
;   10.. i64 add, sub, and, or, xor (v64), max, min (sv64), umax, umin (v64),
;   two words each; 56 a compare-exchange loop adding 3, 58 one adding v64;
;   per group g: 32+g xchg gid+1, 36+g the sum of the values xchg returned,
;   40+g the two added (read by l = 0 after a barrier), 44+g cmpxchg 0 ->
;   gid+1, 48+g how many cmpxchg succeeded, 52+g whether 44+g holds a gid+1
;   of this group.
; Workgroup memory, per group (l = 0 initializes, barrier, atomics, barrier,
; l = 0 copies to mem[64 + 16g + k]): k 0 add 1, 1 sum of the returned
; values, 2 sub v, 3 and, 4 or, 5 xor, 6 max, 7 umin, 8 xchg + sum of the
; returned values, 9 successful cmpxchg count, 10/11 i64 add v64, 12/13 i64
; umax v64, 14/15 i64 xor v64.
; LDS buffer (binding 2): 0 add v, 1 or v, 2 umax v, words 4/5 i64 add v64,
; 6/7 i64 min sv64.
@wl.push = external addrspace(6) global [4 x i32]
@wl.lds = external addrspace(4) global [0 x i32]
@wl.lds64 = external addrspace(4) global [0 x i64]
@lds = addrspace(3) global [16 x i32] poison
@lds64 = addrspace(3) global [4 x i64] poison

define void @main() {
entry:
  %pa = load i64, ptr addrspace(6) @wl.push, align 4
  %p = inttoptr i64 %pa to ptr addrspace(1)
  %l = call i32 @spv.local_invocation_index()
  %g = call i32 @spv.workgroup_id(i32 0)
  %g64 = shl i32 %g, 6
  %gid = add i32 %g64, %l
  %vi = add i32 %gid, 256
  %va = getelementptr i32, ptr addrspace(1) %p, i32 %vi
  %v = load i32, ptr addrspace(1) %va, align 4
  %gid64 = zext i32 %gid to i64
  %vz = zext i32 %v to i64
  %vzs = shl i64 %vz, 28
  %v64 = xor i64 %vzs, %gid64
  %vs = sext i32 %v to i64
  %vss = shl i64 %vs, 20
  %sv64 = xor i64 %vss, %gid64
  %gid1 = add i32 %gid, 1
  %first = icmp eq i32 %l, 0
  br i1 %first, label %init, label %go
init:
  store i32 5, ptr addrspace(3) @lds, align 4
  %li1 = getelementptr i32, ptr addrspace(3) @lds, i32 1
  store i32 0, ptr addrspace(3) %li1, align 4
  %li2 = getelementptr i32, ptr addrspace(3) @lds, i32 2
  store i32 1000, ptr addrspace(3) %li2, align 4
  %li3 = getelementptr i32, ptr addrspace(3) @lds, i32 3
  store i32 -1, ptr addrspace(3) %li3, align 4
  %li4 = getelementptr i32, ptr addrspace(3) @lds, i32 4
  store i32 0, ptr addrspace(3) %li4, align 4
  %li5 = getelementptr i32, ptr addrspace(3) @lds, i32 5
  store i32 0, ptr addrspace(3) %li5, align 4
  %li6 = getelementptr i32, ptr addrspace(3) @lds, i32 6
  store i32 -2147483648, ptr addrspace(3) %li6, align 4
  %li7 = getelementptr i32, ptr addrspace(3) @lds, i32 7
  store i32 -1, ptr addrspace(3) %li7, align 4
  %li8 = getelementptr i32, ptr addrspace(3) @lds, i32 8
  store i32 7, ptr addrspace(3) %li8, align 4
  %li9 = getelementptr i32, ptr addrspace(3) @lds, i32 9
  store i32 0, ptr addrspace(3) %li9, align 4
  %li10 = getelementptr i32, ptr addrspace(3) @lds, i32 10
  store i32 0, ptr addrspace(3) %li10, align 4
  %li11 = getelementptr i32, ptr addrspace(3) @lds, i32 11
  store i32 0, ptr addrspace(3) %li11, align 4
  store i64 0, ptr addrspace(3) @lds64, align 8
  %lj1 = getelementptr i64, ptr addrspace(3) @lds64, i32 1
  store i64 0, ptr addrspace(3) %lj1, align 8
  %lj2 = getelementptr i64, ptr addrspace(3) @lds64, i32 2
  store i64 291, ptr addrspace(3) %lj2, align 8
  br label %go
go:
  call void @spv.barrier.workgroup()
  %d0 = getelementptr i32, ptr addrspace(1) %p, i32 0
  %o0 = atomicrmw add ptr addrspace(1) %d0, i32 1 monotonic
  %d1 = getelementptr i32, ptr addrspace(1) %p, i32 1
  %x1 = atomicrmw add ptr addrspace(1) %d1, i32 %o0 monotonic
  %d2 = getelementptr i32, ptr addrspace(1) %p, i32 2
  %x2 = atomicrmw sub ptr addrspace(1) %d2, i32 %v monotonic
  %d3 = getelementptr i32, ptr addrspace(1) %p, i32 3
  %x3 = atomicrmw and ptr addrspace(1) %d3, i32 %v monotonic
  %d4 = getelementptr i32, ptr addrspace(1) %p, i32 4
  %x4 = atomicrmw or ptr addrspace(1) %d4, i32 %v monotonic
  %d5 = getelementptr i32, ptr addrspace(1) %p, i32 5
  %x5 = atomicrmw xor ptr addrspace(1) %d5, i32 %v monotonic
  %d6 = getelementptr i32, ptr addrspace(1) %p, i32 6
  %x6 = atomicrmw max ptr addrspace(1) %d6, i32 %v monotonic
  %d7 = getelementptr i32, ptr addrspace(1) %p, i32 7
  %x7 = atomicrmw min ptr addrspace(1) %d7, i32 %v monotonic
  %d8 = getelementptr i32, ptr addrspace(1) %p, i32 8
  %x8 = atomicrmw umax ptr addrspace(1) %d8, i32 %v monotonic
  %d9 = getelementptr i32, ptr addrspace(1) %p, i32 9
  %x9 = atomicrmw umin ptr addrspace(1) %d9, i32 %v monotonic
  %d10 = getelementptr i32, ptr addrspace(1) %p, i32 10
  %y10 = atomicrmw add ptr addrspace(1) %d10, i64 %v64 monotonic
  %d12 = getelementptr i32, ptr addrspace(1) %p, i32 12
  %y12 = atomicrmw sub ptr addrspace(1) %d12, i64 %v64 monotonic
  %d14 = getelementptr i32, ptr addrspace(1) %p, i32 14
  %y14 = atomicrmw and ptr addrspace(1) %d14, i64 %v64 monotonic
  %d16 = getelementptr i32, ptr addrspace(1) %p, i32 16
  %y16 = atomicrmw or ptr addrspace(1) %d16, i64 %v64 monotonic
  %d18 = getelementptr i32, ptr addrspace(1) %p, i32 18
  %y18 = atomicrmw xor ptr addrspace(1) %d18, i64 %v64 monotonic
  %d20 = getelementptr i32, ptr addrspace(1) %p, i32 20
  %y20 = atomicrmw max ptr addrspace(1) %d20, i64 %sv64 monotonic
  %d22 = getelementptr i32, ptr addrspace(1) %p, i32 22
  %y22 = atomicrmw min ptr addrspace(1) %d22, i64 %sv64 monotonic
  %d24 = getelementptr i32, ptr addrspace(1) %p, i32 24
  %y24 = atomicrmw umax ptr addrspace(1) %d24, i64 %v64 monotonic
  %d26 = getelementptr i32, ptr addrspace(1) %p, i32 26
  %y26 = atomicrmw umin ptr addrspace(1) %d26, i64 %v64 monotonic
  %d56 = getelementptr i32, ptr addrspace(1) %p, i32 56
  %d58 = getelementptr i32, ptr addrspace(1) %p, i32 58
  br label %cas
cas:
  %c32 = load atomic i32, ptr addrspace(1) %d56 monotonic, align 4
  %c32n = add i32 %c32, 3
  %cx32 = cmpxchg ptr addrspace(1) %d56, i32 %c32, i32 %c32n monotonic monotonic
  %ok32 = extractvalue { i32, i1 } %cx32, 1
  br i1 %ok32, label %cas64, label %cas
cas64:
  %c64 = load atomic i64, ptr addrspace(1) %d58 monotonic, align 8
  %c64n = add i64 %c64, %v64
  %cx64 = cmpxchg ptr addrspace(1) %d58, i64 %c64, i64 %c64n monotonic monotonic
  %ok64 = extractvalue { i64, i1 } %cx64, 1
  br i1 %ok64, label %pergroup, label %cas64
pergroup:
  %xwi = add i32 %g, 32
  %xw = getelementptr i32, ptr addrspace(1) %p, i32 %xwi
  %xsi = add i32 %g, 36
  %xs = getelementptr i32, ptr addrspace(1) %p, i32 %xsi
  %xri = add i32 %g, 40
  %xr = getelementptr i32, ptr addrspace(1) %p, i32 %xri
  %cwi = add i32 %g, 44
  %cw = getelementptr i32, ptr addrspace(1) %p, i32 %cwi
  %cni = add i32 %g, 48
  %cn = getelementptr i32, ptr addrspace(1) %p, i32 %cni
  %cfi = add i32 %g, 52
  %cf = getelementptr i32, ptr addrspace(1) %p, i32 %cfi
  %xo = atomicrmw xchg ptr addrspace(1) %xw, i32 %gid1 acq_rel
  %xso = atomicrmw add ptr addrspace(1) %xs, i32 %xo acq_rel
  %cx = cmpxchg ptr addrspace(1) %cw, i32 0, i32 %gid1 acq_rel acquire
  %cok = extractvalue { i32, i1 } %cx, 1
  %cok32 = zext i1 %cok to i32
  %cno = atomicrmw add ptr addrspace(1) %cn, i32 %cok32 acq_rel
  %b0 = atomicrmw add ptr addrspace(3) @lds, i32 1 monotonic
  %lp1 = getelementptr i32, ptr addrspace(3) @lds, i32 1
  %b1 = atomicrmw add ptr addrspace(3) %lp1, i32 %b0 monotonic
  %lp2 = getelementptr i32, ptr addrspace(3) @lds, i32 2
  %b2 = atomicrmw sub ptr addrspace(3) %lp2, i32 %v monotonic
  %lp3 = getelementptr i32, ptr addrspace(3) @lds, i32 3
  %b3 = atomicrmw and ptr addrspace(3) %lp3, i32 %v monotonic
  %lp4 = getelementptr i32, ptr addrspace(3) @lds, i32 4
  %b4 = atomicrmw or ptr addrspace(3) %lp4, i32 %v monotonic
  %lp5 = getelementptr i32, ptr addrspace(3) @lds, i32 5
  %b5 = atomicrmw xor ptr addrspace(3) %lp5, i32 %v monotonic
  %lp6 = getelementptr i32, ptr addrspace(3) @lds, i32 6
  %b6 = atomicrmw max ptr addrspace(3) %lp6, i32 %v monotonic
  %lp7 = getelementptr i32, ptr addrspace(3) @lds, i32 7
  %b7 = atomicrmw umin ptr addrspace(3) %lp7, i32 %v monotonic
  %lp8 = getelementptr i32, ptr addrspace(3) @lds, i32 8
  %lp9 = getelementptr i32, ptr addrspace(3) @lds, i32 9
  %lp10 = getelementptr i32, ptr addrspace(3) @lds, i32 10
  %lp11 = getelementptr i32, ptr addrspace(3) @lds, i32 11
  %b8 = atomicrmw xchg ptr addrspace(3) %lp8, i32 %gid1 monotonic
  %b9 = atomicrmw add ptr addrspace(3) %lp9, i32 %b8 monotonic
  %b10 = cmpxchg ptr addrspace(3) %lp10, i32 0, i32 %gid1 monotonic monotonic
  %b10ok = extractvalue { i32, i1 } %b10, 1
  %b10z = zext i1 %b10ok to i32
  %b11 = atomicrmw add ptr addrspace(3) %lp11, i32 %b10z monotonic
  %e0 = atomicrmw add ptr addrspace(3) @lds64, i64 %v64 monotonic
  %lq1 = getelementptr i64, ptr addrspace(3) @lds64, i32 1
  %e1 = atomicrmw umax ptr addrspace(3) %lq1, i64 %v64 monotonic
  %lq2 = getelementptr i64, ptr addrspace(3) @lds64, i32 2
  %e2 = atomicrmw xor ptr addrspace(3) %lq2, i64 %v64 monotonic
  %f0 = atomicrmw add ptr addrspace(4) @wl.lds, i32 %v monotonic
  %fp1 = getelementptr [0 x i32], ptr addrspace(4) @wl.lds, i32 0, i32 1
  %f1 = atomicrmw or ptr addrspace(4) %fp1, i32 %v monotonic
  %fp2 = getelementptr [0 x i32], ptr addrspace(4) @wl.lds, i32 0, i32 2
  %f2 = atomicrmw umax ptr addrspace(4) %fp2, i32 %v monotonic
  %fq2 = getelementptr [0 x i64], ptr addrspace(4) @wl.lds64, i32 0, i32 2
  %f3 = atomicrmw add ptr addrspace(4) %fq2, i64 %v64 monotonic
  %fq3 = getelementptr [0 x i64], ptr addrspace(4) @wl.lds64, i32 0, i32 3
  %f4 = atomicrmw min ptr addrspace(4) %fq3, i64 %sv64 monotonic
  call void @spv.barrier.workgroup()
  br i1 %first, label %report, label %done
report:
  %rx = load atomic i32, ptr addrspace(1) %xw acquire, align 4
  %rs = load atomic i32, ptr addrspace(1) %xs acquire, align 4
  %rxs = add i32 %rx, %rs
  store i32 %rxs, ptr addrspace(1) %xr, align 4
  %rc = load atomic i32, ptr addrspace(1) %cw acquire, align 4
  %rc1 = sub i32 %rc, 1
  %rc2 = sub i32 %rc1, %g64
  %rcok = icmp ult i32 %rc2, 64
  %rcz = zext i1 %rcok to i32
  store i32 %rcz, ptr addrspace(1) %cf, align 4
  %wb0 = shl i32 %g, 4
  %wb = add i32 %wb0, 64
  %wo = getelementptr i32, ptr addrspace(1) %p, i32 %wb
  %w0 = load i32, ptr addrspace(3) @lds, align 4
  %wo0 = getelementptr i32, ptr addrspace(1) %wo, i32 0
  store i32 %w0, ptr addrspace(1) %wo0, align 4
  %w1 = load i32, ptr addrspace(3) %lp1, align 4
  %wo1 = getelementptr i32, ptr addrspace(1) %wo, i32 1
  store i32 %w1, ptr addrspace(1) %wo1, align 4
  %w2 = load i32, ptr addrspace(3) %lp2, align 4
  %wo2 = getelementptr i32, ptr addrspace(1) %wo, i32 2
  store i32 %w2, ptr addrspace(1) %wo2, align 4
  %w3 = load i32, ptr addrspace(3) %lp3, align 4
  %wo3 = getelementptr i32, ptr addrspace(1) %wo, i32 3
  store i32 %w3, ptr addrspace(1) %wo3, align 4
  %w4 = load i32, ptr addrspace(3) %lp4, align 4
  %wo4 = getelementptr i32, ptr addrspace(1) %wo, i32 4
  store i32 %w4, ptr addrspace(1) %wo4, align 4
  %w5 = load i32, ptr addrspace(3) %lp5, align 4
  %wo5 = getelementptr i32, ptr addrspace(1) %wo, i32 5
  store i32 %w5, ptr addrspace(1) %wo5, align 4
  %w6 = load i32, ptr addrspace(3) %lp6, align 4
  %wo6 = getelementptr i32, ptr addrspace(1) %wo, i32 6
  store i32 %w6, ptr addrspace(1) %wo6, align 4
  %w7 = load i32, ptr addrspace(3) %lp7, align 4
  %wo7 = getelementptr i32, ptr addrspace(1) %wo, i32 7
  store i32 %w7, ptr addrspace(1) %wo7, align 4
  %w8 = load i32, ptr addrspace(3) %lp8, align 4
  %w9 = load i32, ptr addrspace(3) %lp9, align 4
  %w89 = add i32 %w8, %w9
  %wo8 = getelementptr i32, ptr addrspace(1) %wo, i32 8
  store i32 %w89, ptr addrspace(1) %wo8, align 4
  %w11 = load i32, ptr addrspace(3) %lp11, align 4
  %wo9 = getelementptr i32, ptr addrspace(1) %wo, i32 9
  store i32 %w11, ptr addrspace(1) %wo9, align 4
  %u0 = load i64, ptr addrspace(3) @lds64, align 8
  %wo10 = getelementptr i32, ptr addrspace(1) %wo, i32 10
  store i64 %u0, ptr addrspace(1) %wo10, align 4
  %u1 = load i64, ptr addrspace(3) %lq1, align 8
  %wo12 = getelementptr i32, ptr addrspace(1) %wo, i32 12
  store i64 %u1, ptr addrspace(1) %wo12, align 4
  %u2 = load i64, ptr addrspace(3) %lq2, align 8
  %wo14 = getelementptr i32, ptr addrspace(1) %wo, i32 14
  store i64 %u2, ptr addrspace(1) %wo14, align 4
  br label %done
done:
  ret void
}
declare i32 @spv.local_invocation_index()
declare i32 @spv.workgroup_id(i32)
declare void @spv.barrier.workgroup() #0
attributes #0 = { convergent nounwind }

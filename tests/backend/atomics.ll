; Every atomicrmw operation, 32 and 64 bits, on device memory, workgroup
; memory, the device-memory LDS buffer and private memory; cmpxchg; atomic
; loads and stores; fences.
@wl.push = external addrspace(6) global [4 x i32]
@wl.lds = external addrspace(4) global [0 x i32]
@wl.lds64 = external addrspace(4) global [0 x i64]
@lds = addrspace(3) global [64 x i32] poison
@lds64 = addrspace(3) global [8 x i64] poison

define void @main() {
entry:
  %priv = alloca [4 x i32], align 4
  %pa = load i64, ptr addrspace(6) @wl.push, align 4
  %p = inttoptr i64 %pa to ptr addrspace(1)
  %p64 = getelementptr i8, ptr addrspace(1) %p, i64 64
  %tid = call i32 @spv.local_invocation_index()
  %t64 = zext i32 %tid to i64
  %a0 = atomicrmw add ptr addrspace(1) %p, i32 %tid monotonic
  %a1 = atomicrmw sub ptr addrspace(1) %p, i32 1 seq_cst
  %a2 = atomicrmw and ptr addrspace(1) %p, i32 -2 acquire
  %a3 = atomicrmw or ptr addrspace(1) %p, i32 4 release
  %a4 = atomicrmw xor ptr addrspace(1) %p, i32 8 acq_rel
  %a5 = atomicrmw max ptr addrspace(1) %p, i32 %tid monotonic
  %a6 = atomicrmw min ptr addrspace(1) %p, i32 %tid monotonic
  %a7 = atomicrmw umax ptr addrspace(1) %p, i32 %tid monotonic
  %a8 = atomicrmw umin ptr addrspace(1) %p, i32 %tid monotonic
  %a9 = atomicrmw xchg ptr addrspace(1) %p, i32 %tid monotonic
  %af = atomicrmw xchg ptr addrspace(1) %p, float 1.0 monotonic
  %b0 = atomicrmw add ptr addrspace(1) %p64, i64 %t64 monotonic
  %b1 = atomicrmw umax ptr addrspace(1) %p64, i64 %t64 monotonic
  %b2 = atomicrmw min ptr addrspace(1) %p64, i64 %t64 monotonic
  %cx = cmpxchg ptr addrspace(1) %p, i32 %a0, i32 %tid seq_cst seq_cst
  %cx0 = extractvalue { i32, i1 } %cx, 0
  %cx64 = cmpxchg ptr addrspace(1) %p64, i64 %b0, i64 %t64 monotonic monotonic
  %c0 = atomicrmw add ptr addrspace(3) @lds, i32 1 monotonic
  %lp = getelementptr [64 x i32], ptr addrspace(3) @lds, i32 0, i32 %tid
  %c1 = atomicrmw umin ptr addrspace(3) %lp, i32 %tid acq_rel
  %c2 = atomicrmw add ptr addrspace(3) @lds64, i64 %t64 monotonic
  %cx3 = cmpxchg ptr addrspace(3) %lp, i32 0, i32 %tid acquire acquire
  %d0 = atomicrmw xor ptr addrspace(4) @wl.lds, i32 %tid monotonic
  %d1 = atomicrmw add ptr addrspace(4) @wl.lds64, i64 %t64 monotonic
  %pp = getelementptr [4 x i32], ptr %priv, i32 0, i32 1
  store i32 5, ptr %pp, align 4
  %e0 = atomicrmw add ptr %pp, i32 3 monotonic
  %e1 = cmpxchg ptr %pp, i32 8, i32 9 monotonic monotonic
  %e2 = load i32, ptr %pp, align 4
  %ld = load atomic i32, ptr addrspace(1) %p acquire, align 4
  store atomic i32 %ld, ptr addrspace(3) %lp release, align 4
  fence acq_rel
  %s0 = add i32 %a1, %a9
  %s1 = add i32 %s0, %cx0
  %s2 = add i32 %s1, %c1
  %s3 = add i32 %s2, %d0
  %s4 = add i32 %s3, %e2
  %s5 = add i32 %s4, %e0
  %fi = bitcast float %af to i32
  %s6 = add i32 %s5, %fi
  %o = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  store i32 %s6, ptr addrspace(1) %o, align 4
  ret void
}
declare i32 @spv.local_invocation_index()

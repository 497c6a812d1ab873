; Builtins and subgroup operations: ids, ballot, shuffles, broadcasts,
; elect, any/all, reductions and scans, barriers.
@wl.push = external addrspace(6) global [4 x i32]

define void @main() {
entry:
  %pa = load i64, ptr addrspace(6) @wl.push, align 4
  %p = inttoptr i64 %pa to ptr addrspace(1)
  %lid = call i32 @spv.subgroup_local_invocation_id()
  %ssz = call i32 @spv.subgroup_size()
  %sid = call i32 @spv.subgroup_id()
  %nsg = call i32 @spv.num_subgroups()
  %wg = call i32 @spv.workgroup_id(i32 0)
  %li = call i32 @spv.local_invocation_id(i32 1)
  %gi = call i32 @spv.global_invocation_id(i32 0)
  %nw = call i32 @spv.num_workgroups(i32 2)
  %idx = call i32 @spv.local_invocation_index()
  %odd = trunc i32 %lid to i1
  %bal = call <4 x i32> @spv.subgroup.ballot(i1 %odd)
  %b0 = extractelement <4 x i32> %bal, i32 0
  %cnt = call i32 @spv.subgroup.ballot_bit_count(<4 x i32> %bal)
  %ex = call i32 @spv.subgroup.ballot_exclusive_count(<4 x i32> %bal)
  %ib = call i1 @spv.subgroup.inverse_ballot(<4 x i32> %bal)
  %x1 = xor i32 %lid, 1
  %sh = call i32 @spv.subgroup.shuffle.i32(i32 %idx, i32 %x1)
  %shx = call float @spv.subgroup.shuffle_xor.f32(float 1.0, i32 2)
  %shd = call i64 @spv.subgroup.shuffle.i64(i64 %pa, i32 0)
  %shb = call i1 @spv.subgroup.shuffle.i1(i1 %odd, i32 3)
  %up = call i32 @spv.subgroup.shuffle_up.i32(i32 %idx, i32 1)
  %dn = call i32 @spv.subgroup.shuffle_down.i32(i32 %idx, i32 1)
  %bf = call i32 @spv.subgroup.broadcast_first.i32(i32 %idx)
  %bc = call i32 @spv.subgroup.broadcast.i32(i32 %idx, i32 0)
  %el = call i1 @spv.subgroup.elect()
  %an = call i1 @spv.subgroup.any(i1 %odd)
  %al = call i1 @spv.subgroup.all(i1 %odd)
  %sum = call i32 @spv.subgroup.iadd.i32(i32 %idx, i32 0)
  %scan = call i32 @spv.subgroup.iadd.i32(i32 %idx, i32 2)
  %mx = call i32 @spv.subgroup.umax.i32(i32 %idx, i32 1)
  %fm = call float @spv.subgroup.fmin.f32(float %shx, i32 0)
  call void @spv.barrier.subgroup()
  call void @spv.barrier.workgroup()
  call void @spv.memory_barrier.device()
  %r0 = add i32 %lid, %ssz
  %r1 = add i32 %r0, %sid
  %r2 = add i32 %r1, %nsg
  %r3 = add i32 %r2, %wg
  %r4 = add i32 %r3, %li
  %r5 = add i32 %r4, %gi
  %r6 = add i32 %r5, %nw
  %r7 = add i32 %r6, %b0
  %r8 = add i32 %r7, %cnt
  %r9 = add i32 %r8, %ex
  %r10 = add i32 %r9, %sh
  %r11 = add i32 %r10, %up
  %r12 = add i32 %r11, %dn
  %r13 = add i32 %r12, %bf
  %r14 = add i32 %r13, %bc
  %r15 = add i32 %r14, %sum
  %r16 = add i32 %r15, %scan
  %r17 = add i32 %r16, %mx
  %e1 = zext i1 %el to i32
  %e2 = zext i1 %an to i32
  %e3 = zext i1 %al to i32
  %e4 = zext i1 %ib to i32
  %e5 = zext i1 %shb to i32
  %r18 = add i32 %r17, %e1
  %r19 = add i32 %r18, %e2
  %r20 = add i32 %r19, %e3
  %r21 = add i32 %r20, %e4
  %r22 = add i32 %r21, %e5
  %fi = fptoui float %fm to i32
  %r23 = add i32 %r22, %fi
  %d32 = trunc i64 %shd to i32
  %r24 = add i32 %r23, %d32
  %o = getelementptr i32, ptr addrspace(1) %p, i32 %gi
  store i32 %r24, ptr addrspace(1) %o, align 4
  ret void
}
declare i32 @spv.subgroup_local_invocation_id()
declare i32 @spv.subgroup_size()
declare i32 @spv.subgroup_id()
declare i32 @spv.num_subgroups()
declare i32 @spv.workgroup_id(i32)
declare i32 @spv.local_invocation_id(i32)
declare i32 @spv.global_invocation_id(i32)
declare i32 @spv.num_workgroups(i32)
declare i32 @spv.local_invocation_index()
declare <4 x i32> @spv.subgroup.ballot(i1)
declare i32 @spv.subgroup.ballot_bit_count(<4 x i32>)
declare i32 @spv.subgroup.ballot_exclusive_count(<4 x i32>)
declare i1 @spv.subgroup.inverse_ballot(<4 x i32>)
declare i32 @spv.subgroup.shuffle.i32(i32, i32)
declare float @spv.subgroup.shuffle_xor.f32(float, i32)
declare i64 @spv.subgroup.shuffle.i64(i64, i32)
declare i1 @spv.subgroup.shuffle.i1(i1, i32)
declare i32 @spv.subgroup.shuffle_up.i32(i32, i32)
declare i32 @spv.subgroup.shuffle_down.i32(i32, i32)
declare i32 @spv.subgroup.broadcast_first.i32(i32)
declare i32 @spv.subgroup.broadcast.i32(i32, i32)
declare i1 @spv.subgroup.elect()
declare i1 @spv.subgroup.any(i1)
declare i1 @spv.subgroup.all(i1)
declare i32 @spv.subgroup.iadd.i32(i32, i32)
declare i32 @spv.subgroup.umax.i32(i32, i32)
declare float @spv.subgroup.fmin.f32(float, i32)
declare void @spv.barrier.subgroup()
declare void @spv.barrier.workgroup()
declare void @spv.memory_barrier.device()

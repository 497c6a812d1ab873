; exec: local 64 groups 2 mem 5248
; Each subgroup operation, with full subgroups of size S (a divisor of 64):
; invocation gid = 64 group + l, lane = l % S, x = mem[gid]; its 40 output
; words at mem[128 + 40 gid]:
;   0 S, 1 lane, 2 subgroup id, 3 number of subgroups, 4/5 ballot(x odd)
;   words 0/1, 6/7/8 its bit count, inclusive and exclusive counts, 9
;   inverse ballot, 10 shuffle(x, (lane+3) % S), 11 shuffle_xor(x, 1),
;   12 shuffle_up(x, 2) (0xdead below lane 2), 13 shuffle_down(x, 1)
;   (0xbeef on the last lane), 14 broadcast(x, 2), 15 broadcast_first(x),
;   16 elect, 17 any(x odd) | all(x odd) << 1 | all(lane < S) << 2,
;   18/19/20 iadd reduce, inclusive, exclusive, 21 umin reduce, 22 umax
;   reduce, 23 smin inclusive, 24 smax exclusive, 25 and reduce, 26 or
;   inclusive, 27 xor exclusive, 28 fadd reduce of float(x & 0xffff), 29
;   fmin reduce and 30 fmax inclusive of float(x & 0xfff) - 2048 (as bits),
;   31/32 shuffle_xor of the i64 x << 32 | lane by 2;
;   in a branch taken by the lanes with x odd: 33 broadcast_first(lane),
;   34 elect, 35 iadd reduce(x), 36 ballot bit count of true; in the lanes
;   with x even: 33 0x1000 + iadd reduce(1);
;   37 all_equal(x >> 31), 38 broadcast_first(x) of a float, 39 0.
@wl.push = external addrspace(6) global [4 x i32]

define void @main() {
entry:
  %pa = load i64, ptr addrspace(6) @wl.push, align 4
  %p = inttoptr i64 %pa to ptr addrspace(1)
  %l = call i32 @spv.local_invocation_index()
  %g = call i32 @spv.workgroup_id(i32 0)
  %g64 = shl i32 %g, 6
  %gid = add i32 %g64, %l
  %xa = getelementptr i32, ptr addrspace(1) %p, i32 %gid
  %x = load i32, ptr addrspace(1) %xa, align 4
  %ob0 = mul i32 %gid, 40
  %ob = add i32 %ob0, 128
  %out = getelementptr i32, ptr addrspace(1) %p, i32 %ob
  %S = call i32 @spv.subgroup_size()
  %lane = call i32 @spv.subgroup_local_invocation_id()
  %sid = call i32 @spv.subgroup_id()
  %nsg = call i32 @spv.num_subgroups()
  %odd = trunc i32 %x to i1
  %bal = call <4 x i32> @spv.subgroup.ballot(i1 %odd)
  %bal0 = extractelement <4 x i32> %bal, i32 0
  %bal1 = extractelement <4 x i32> %bal, i32 1
  %bc = call i32 @spv.subgroup.ballot_bit_count(<4 x i32> %bal)
  %bic = call i32 @spv.subgroup.ballot_inclusive_count(<4 x i32> %bal)
  %bec = call i32 @spv.subgroup.ballot_exclusive_count(<4 x i32> %bal)
  %ib = call i1 @spv.subgroup.inverse_ballot(<4 x i32> %bal)
  %ibz = zext i1 %ib to i32
  %S1 = sub i32 %S, 1
  %lane3 = add i32 %lane, 3
  %src = and i32 %lane3, %S1
  %shf = call i32 @spv.subgroup.shuffle.i32(i32 %x, i32 %src)
  %shx = call i32 @spv.subgroup.shuffle_xor.i32(i32 %x, i32 1)
  %shu0 = call i32 @spv.subgroup.shuffle_up.i32(i32 %x, i32 2)
  %lge2 = icmp uge i32 %lane, 2
  %shu = select i1 %lge2, i32 %shu0, i32 57005
  %shd0 = call i32 @spv.subgroup.shuffle_down.i32(i32 %x, i32 1)
  %notlast = icmp ult i32 %lane, %S1
  %shd = select i1 %notlast, i32 %shd0, i32 48879
  %brc = call i32 @spv.subgroup.broadcast.i32(i32 %x, i32 2)
  %bf = call i32 @spv.subgroup.broadcast_first.i32(i32 %x)
  %el = call i1 @spv.subgroup.elect()
  %elz = zext i1 %el to i32
  %any = call i1 @spv.subgroup.any(i1 %odd)
  %all = call i1 @spv.subgroup.all(i1 %odd)
  %inr = icmp ult i32 %lane, %S
  %allt = call i1 @spv.subgroup.all(i1 %inr)
  %anyz = zext i1 %any to i32
  %allz0 = zext i1 %all to i32
  %allz = shl i32 %allz0, 1
  %alltz0 = zext i1 %allt to i32
  %alltz = shl i32 %alltz0, 2
  %v17a = or i32 %anyz, %allz
  %v17 = or i32 %v17a, %alltz
  %sr = call i32 @spv.subgroup.iadd.i32(i32 %x, i32 0)
  %si = call i32 @spv.subgroup.iadd.i32(i32 %x, i32 1)
  %se = call i32 @spv.subgroup.iadd.i32(i32 %x, i32 2)
  %umn = call i32 @spv.subgroup.umin.i32(i32 %x, i32 0)
  %umx = call i32 @spv.subgroup.umax.i32(i32 %x, i32 0)
  %smn = call i32 @spv.subgroup.smin.i32(i32 %x, i32 1)
  %smx = call i32 @spv.subgroup.smax.i32(i32 %x, i32 2)
  %and = call i32 @spv.subgroup.and.i32(i32 %x, i32 0)
  %or = call i32 @spv.subgroup.or.i32(i32 %x, i32 1)
  %xor = call i32 @spv.subgroup.xor.i32(i32 %x, i32 2)
  %x16 = and i32 %x, 65535
  %fx16 = uitofp i32 %x16 to float
  %fsum = call float @spv.subgroup.fadd.f32(float %fx16, i32 0)
  %fsumb = bitcast float %fsum to i32
  %x12 = and i32 %x, 4095
  %x12s = sub i32 %x12, 2048
  %fx12 = sitofp i32 %x12s to float
  %fmn = call float @spv.subgroup.fmin.f32(float %fx12, i32 0)
  %fmnb = bitcast float %fmn to i32
  %fmx = call float @spv.subgroup.fmax.f32(float %fx12, i32 1)
  %fmxb = bitcast float %fmx to i32
  %xz = zext i32 %x to i64
  %xh = shl i64 %xz, 32
  %lz = zext i32 %lane to i64
  %w64 = or i64 %xh, %lz
  %s64 = call i64 @spv.subgroup.shuffle_xor.i64(i64 %w64, i32 2)
  %s64lo = trunc i64 %s64 to i32
  %s64h = lshr i64 %s64, 32
  %s64hi = trunc i64 %s64h to i32
  %sgn = lshr i32 %x, 31
  %aeq = call i1 @spv.subgroup.all_equal.i32(i32 %sgn)
  %aeqz = zext i1 %aeq to i32
  %fxx = bitcast i32 %x to float
  %fbf = call float @spv.subgroup.broadcast_first.f32(float %fxx)
  %fbfb = bitcast float %fbf to i32
  br i1 %odd, label %oddb, label %evenb
oddb:
  %obf = call i32 @spv.subgroup.broadcast_first.i32(i32 %lane)
  %oel = call i1 @spv.subgroup.elect()
  %oelz = zext i1 %oel to i32
  %osum = call i32 @spv.subgroup.iadd.i32(i32 %x, i32 0)
  %obal = call <4 x i32> @spv.subgroup.ballot(i1 true)
  %obc = call i32 @spv.subgroup.ballot_bit_count(<4 x i32> %obal)
  br label %joined
evenb:
  %ecnt = call i32 @spv.subgroup.iadd.i32(i32 1, i32 0)
  %ev = add i32 %ecnt, 4096
  br label %joined
joined:
  %j33 = phi i32 [ %obf, %oddb ], [ %ev, %evenb ]
  %j34 = phi i32 [ %oelz, %oddb ], [ 0, %evenb ]
  %j35 = phi i32 [ %osum, %oddb ], [ 0, %evenb ]
  %j36 = phi i32 [ %obc, %oddb ], [ 0, %evenb ]
  %q0 = getelementptr i32, ptr addrspace(1) %out, i32 0
  store i32 %S, ptr addrspace(1) %q0, align 4
  %q1 = getelementptr i32, ptr addrspace(1) %out, i32 1
  store i32 %lane, ptr addrspace(1) %q1, align 4
  %q2 = getelementptr i32, ptr addrspace(1) %out, i32 2
  store i32 %sid, ptr addrspace(1) %q2, align 4
  %q3 = getelementptr i32, ptr addrspace(1) %out, i32 3
  store i32 %nsg, ptr addrspace(1) %q3, align 4
  %q4 = getelementptr i32, ptr addrspace(1) %out, i32 4
  store i32 %bal0, ptr addrspace(1) %q4, align 4
  %q5 = getelementptr i32, ptr addrspace(1) %out, i32 5
  store i32 %bal1, ptr addrspace(1) %q5, align 4
  %q6 = getelementptr i32, ptr addrspace(1) %out, i32 6
  store i32 %bc, ptr addrspace(1) %q6, align 4
  %q7 = getelementptr i32, ptr addrspace(1) %out, i32 7
  store i32 %bic, ptr addrspace(1) %q7, align 4
  %q8 = getelementptr i32, ptr addrspace(1) %out, i32 8
  store i32 %bec, ptr addrspace(1) %q8, align 4
  %q9 = getelementptr i32, ptr addrspace(1) %out, i32 9
  store i32 %ibz, ptr addrspace(1) %q9, align 4
  %q10 = getelementptr i32, ptr addrspace(1) %out, i32 10
  store i32 %shf, ptr addrspace(1) %q10, align 4
  %q11 = getelementptr i32, ptr addrspace(1) %out, i32 11
  store i32 %shx, ptr addrspace(1) %q11, align 4
  %q12 = getelementptr i32, ptr addrspace(1) %out, i32 12
  store i32 %shu, ptr addrspace(1) %q12, align 4
  %q13 = getelementptr i32, ptr addrspace(1) %out, i32 13
  store i32 %shd, ptr addrspace(1) %q13, align 4
  %q14 = getelementptr i32, ptr addrspace(1) %out, i32 14
  store i32 %brc, ptr addrspace(1) %q14, align 4
  %q15 = getelementptr i32, ptr addrspace(1) %out, i32 15
  store i32 %bf, ptr addrspace(1) %q15, align 4
  %q16 = getelementptr i32, ptr addrspace(1) %out, i32 16
  store i32 %elz, ptr addrspace(1) %q16, align 4
  %q17 = getelementptr i32, ptr addrspace(1) %out, i32 17
  store i32 %v17, ptr addrspace(1) %q17, align 4
  %q18 = getelementptr i32, ptr addrspace(1) %out, i32 18
  store i32 %sr, ptr addrspace(1) %q18, align 4
  %q19 = getelementptr i32, ptr addrspace(1) %out, i32 19
  store i32 %si, ptr addrspace(1) %q19, align 4
  %q20 = getelementptr i32, ptr addrspace(1) %out, i32 20
  store i32 %se, ptr addrspace(1) %q20, align 4
  %q21 = getelementptr i32, ptr addrspace(1) %out, i32 21
  store i32 %umn, ptr addrspace(1) %q21, align 4
  %q22 = getelementptr i32, ptr addrspace(1) %out, i32 22
  store i32 %umx, ptr addrspace(1) %q22, align 4
  %q23 = getelementptr i32, ptr addrspace(1) %out, i32 23
  store i32 %smn, ptr addrspace(1) %q23, align 4
  %q24 = getelementptr i32, ptr addrspace(1) %out, i32 24
  store i32 %smx, ptr addrspace(1) %q24, align 4
  %q25 = getelementptr i32, ptr addrspace(1) %out, i32 25
  store i32 %and, ptr addrspace(1) %q25, align 4
  %q26 = getelementptr i32, ptr addrspace(1) %out, i32 26
  store i32 %or, ptr addrspace(1) %q26, align 4
  %q27 = getelementptr i32, ptr addrspace(1) %out, i32 27
  store i32 %xor, ptr addrspace(1) %q27, align 4
  %q28 = getelementptr i32, ptr addrspace(1) %out, i32 28
  store i32 %fsumb, ptr addrspace(1) %q28, align 4
  %q29 = getelementptr i32, ptr addrspace(1) %out, i32 29
  store i32 %fmnb, ptr addrspace(1) %q29, align 4
  %q30 = getelementptr i32, ptr addrspace(1) %out, i32 30
  store i32 %fmxb, ptr addrspace(1) %q30, align 4
  %q31 = getelementptr i32, ptr addrspace(1) %out, i32 31
  store i32 %s64lo, ptr addrspace(1) %q31, align 4
  %q32 = getelementptr i32, ptr addrspace(1) %out, i32 32
  store i32 %s64hi, ptr addrspace(1) %q32, align 4
  %q33 = getelementptr i32, ptr addrspace(1) %out, i32 33
  store i32 %j33, ptr addrspace(1) %q33, align 4
  %q34 = getelementptr i32, ptr addrspace(1) %out, i32 34
  store i32 %j34, ptr addrspace(1) %q34, align 4
  %q35 = getelementptr i32, ptr addrspace(1) %out, i32 35
  store i32 %j35, ptr addrspace(1) %q35, align 4
  %q36 = getelementptr i32, ptr addrspace(1) %out, i32 36
  store i32 %j36, ptr addrspace(1) %q36, align 4
  %q37 = getelementptr i32, ptr addrspace(1) %out, i32 37
  store i32 %aeqz, ptr addrspace(1) %q37, align 4
  %q38 = getelementptr i32, ptr addrspace(1) %out, i32 38
  store i32 %fbfb, ptr addrspace(1) %q38, align 4
  %q39 = getelementptr i32, ptr addrspace(1) %out, i32 39
  store i32 0, ptr addrspace(1) %q39, align 4
  ret void
}
declare i32 @spv.local_invocation_index()
declare i32 @spv.workgroup_id(i32)
declare i32 @spv.subgroup_size()
declare i32 @spv.subgroup_local_invocation_id()
declare i32 @spv.subgroup_id()
declare i32 @spv.num_subgroups()
declare <4 x i32> @spv.subgroup.ballot(i1) #0
declare i32 @spv.subgroup.ballot_bit_count(<4 x i32>) #0
declare i32 @spv.subgroup.ballot_inclusive_count(<4 x i32>) #0
declare i32 @spv.subgroup.ballot_exclusive_count(<4 x i32>) #0
declare i1 @spv.subgroup.inverse_ballot(<4 x i32>) #0
declare i32 @spv.subgroup.shuffle.i32(i32, i32) #0
declare i32 @spv.subgroup.shuffle_xor.i32(i32, i32) #0
declare i64 @spv.subgroup.shuffle_xor.i64(i64, i32) #0
declare i32 @spv.subgroup.shuffle_up.i32(i32, i32) #0
declare i32 @spv.subgroup.shuffle_down.i32(i32, i32) #0
declare i32 @spv.subgroup.broadcast.i32(i32, i32) #0
declare i32 @spv.subgroup.broadcast_first.i32(i32) #0
declare float @spv.subgroup.broadcast_first.f32(float) #0
declare i1 @spv.subgroup.elect() #0
declare i1 @spv.subgroup.any(i1) #0
declare i1 @spv.subgroup.all(i1) #0
declare i1 @spv.subgroup.all_equal.i32(i32) #0
declare i32 @spv.subgroup.iadd.i32(i32, i32) #0
declare i32 @spv.subgroup.umin.i32(i32, i32) #0
declare i32 @spv.subgroup.umax.i32(i32, i32) #0
declare i32 @spv.subgroup.smin.i32(i32, i32) #0
declare i32 @spv.subgroup.smax.i32(i32, i32) #0
declare i32 @spv.subgroup.and.i32(i32, i32) #0
declare i32 @spv.subgroup.or.i32(i32, i32) #0
declare i32 @spv.subgroup.xor.i32(i32, i32) #0
declare float @spv.subgroup.fadd.f32(float, i32) #0
declare float @spv.subgroup.fmin.f32(float, i32) #0
declare float @spv.subgroup.fmax.f32(float, i32) #0
attributes #0 = { convergent nounwind }

; exec: local 64 groups 1 mem 2304
; The intrinsics LLVM's optimizer introduces, per invocation t with a, b, c
; the words mem[4t], mem[4t+1], mem[4t+2]; results at mem[256 + 32t + i]:
;   0 umin, 1 umax, 2 smin, 3 smax (a, b), 4 fshl(a, b, c), 5 fshr(a, b, c),
;   6 ctpop a, 7 ctlz a, 8 cttz a (32 for 0), 9 bitreverse a, 10 bswap a,
;   11 abs a, 12 uadd.sat, 13 usub.sat, 14 sadd.sat, 15 ssub.sat (a, b),
;   16 ctpop i16, 17 ctlz i16, 18 cttz i8, 19 bitreverse i8, 20 bswap i16,
;   21 low and 22 high word of fshl.i64(a:b, b:c, c), 23 of bswap.i64(a:b)
;   (low word), with fa = sitofp(a ashr 22) / 4, fb, fc likewise from b, c
;   (fb NaN when b & 15 == 0): 24 fma(fa, fb, fc), 25 fmuladd, 26 fabs fa,
;   27 copysign(fa, fb), 28 minnum, 29 maxnum (fa, fb), 30 uadd.sat.i8,
;   31 sadd.sat.i16 (sign-extended).
@wl.push = external addrspace(6) global [4 x i32]

define void @main() {
entry:
  %pa = load i64, ptr addrspace(6) @wl.push, align 4
  %p = inttoptr i64 %pa to ptr addrspace(1)
  %t = call i32 @spv.local_invocation_index()
  %ib = shl i32 %t, 2
  %ap = getelementptr i32, ptr addrspace(1) %p, i32 %ib
  %a = load i32, ptr addrspace(1) %ap, align 4
  %bpp = getelementptr i32, ptr addrspace(1) %ap, i32 1
  %b = load i32, ptr addrspace(1) %bpp, align 4
  %cpp = getelementptr i32, ptr addrspace(1) %ap, i32 2
  %c = load i32, ptr addrspace(1) %cpp, align 4
  %ob0 = shl i32 %t, 5
  %ob = add i32 %ob0, 256
  %out = getelementptr i32, ptr addrspace(1) %p, i32 %ob
  %r0 = call i32 @llvm.umin.i32(i32 %a, i32 %b)
  %r1 = call i32 @llvm.umax.i32(i32 %a, i32 %b)
  %r2 = call i32 @llvm.smin.i32(i32 %a, i32 %b)
  %r3 = call i32 @llvm.smax.i32(i32 %a, i32 %b)
  %r4 = call i32 @llvm.fshl.i32(i32 %a, i32 %b, i32 %c)
  %r5 = call i32 @llvm.fshr.i32(i32 %a, i32 %b, i32 %c)
  %r6 = call i32 @llvm.ctpop.i32(i32 %a)
  %r7 = call i32 @llvm.ctlz.i32(i32 %a, i1 false)
  %r8 = call i32 @llvm.cttz.i32(i32 %a, i1 false)
  %r9 = call i32 @llvm.bitreverse.i32(i32 %a)
  %r10 = call i32 @llvm.bswap.i32(i32 %a)
  %r11 = call i32 @llvm.abs.i32(i32 %a, i1 false)
  %r12 = call i32 @llvm.uadd.sat.i32(i32 %a, i32 %b)
  %r13 = call i32 @llvm.usub.sat.i32(i32 %a, i32 %b)
  %r14 = call i32 @llvm.sadd.sat.i32(i32 %a, i32 %b)
  %r15 = call i32 @llvm.ssub.sat.i32(i32 %a, i32 %b)
  %a16 = trunc i32 %a to i16
  %a8 = trunc i32 %a to i8
  %b16 = trunc i32 %b to i16
  %b8 = trunc i32 %b to i8
  %h16 = call i16 @llvm.ctpop.i16(i16 %a16)
  %r16 = zext i16 %h16 to i32
  %h17 = call i16 @llvm.ctlz.i16(i16 %a16, i1 false)
  %r17 = zext i16 %h17 to i32
  %h18 = call i8 @llvm.cttz.i8(i8 %a8, i1 false)
  %r18 = zext i8 %h18 to i32
  %h19 = call i8 @llvm.bitreverse.i8(i8 %a8)
  %r19 = zext i8 %h19 to i32
  %h20 = call i16 @llvm.bswap.i16(i16 %a16)
  %r20 = zext i16 %h20 to i32
  %az = zext i32 %a to i64
  %bz = zext i32 %b to i64
  %cz = zext i32 %c to i64
  %ah = shl i64 %az, 32
  %ab = or i64 %ah, %bz
  %bh = shl i64 %bz, 32
  %bc = or i64 %bh, %cz
  %fl = call i64 @llvm.fshl.i64(i64 %ab, i64 %bc, i64 %cz)
  %r21 = trunc i64 %fl to i32
  %flh = lshr i64 %fl, 32
  %r22 = trunc i64 %flh to i32
  %bs = call i64 @llvm.bswap.i64(i64 %ab)
  %r23 = trunc i64 %bs to i32
  %ai = ashr i32 %a, 22
  %af = sitofp i32 %ai to float
  %fa = fmul float %af, 0.25
  %bi = ashr i32 %b, 22
  %bf = sitofp i32 %bi to float
  %fb0 = fmul float %bf, 0.25
  %b15 = and i32 %b, 15
  %bnan = icmp eq i32 %b15, 0
  %fb = select i1 %bnan, float 0x7FF8000000000000, float %fb0
  %ci = ashr i32 %c, 22
  %cf = sitofp i32 %ci to float
  %fc = fmul float %cf, 0.25
  %fbn = select i1 %bnan, float 1.0, float %fb
  %e24 = call float @llvm.fma.f32(float %fa, float %fbn, float %fc)
  %e25 = call float @llvm.fmuladd.f32(float %fa, float %fbn, float %fc)
  %e26 = call float @llvm.fabs.f32(float %fa)
  %e27 = call float @llvm.copysign.f32(float %fa, float %fbn)
  %e28 = call float @llvm.minnum.f32(float %fa, float %fb)
  %e29 = call float @llvm.maxnum.f32(float %fa, float %fb)
  %h30 = call i8 @llvm.uadd.sat.i8(i8 %a8, i8 %b8)
  %r30 = zext i8 %h30 to i32
  %h31 = call i16 @llvm.sadd.sat.i16(i16 %a16, i16 %b16)
  %r31 = sext i16 %h31 to i32
  %r24 = bitcast float %e24 to i32
  %r25 = bitcast float %e25 to i32
  %r26 = bitcast float %e26 to i32
  %r27 = bitcast float %e27 to i32
  %r28 = bitcast float %e28 to i32
  %r29 = bitcast float %e29 to i32
  %q0 = getelementptr i32, ptr addrspace(1) %out, i32 0
  store i32 %r0, ptr addrspace(1) %q0, align 4
  %q1 = getelementptr i32, ptr addrspace(1) %out, i32 1
  store i32 %r1, ptr addrspace(1) %q1, align 4
  %q2 = getelementptr i32, ptr addrspace(1) %out, i32 2
  store i32 %r2, ptr addrspace(1) %q2, align 4
  %q3 = getelementptr i32, ptr addrspace(1) %out, i32 3
  store i32 %r3, ptr addrspace(1) %q3, align 4
  %q4 = getelementptr i32, ptr addrspace(1) %out, i32 4
  store i32 %r4, ptr addrspace(1) %q4, align 4
  %q5 = getelementptr i32, ptr addrspace(1) %out, i32 5
  store i32 %r5, ptr addrspace(1) %q5, align 4
  %q6 = getelementptr i32, ptr addrspace(1) %out, i32 6
  store i32 %r6, ptr addrspace(1) %q6, align 4
  %q7 = getelementptr i32, ptr addrspace(1) %out, i32 7
  store i32 %r7, ptr addrspace(1) %q7, align 4
  %q8 = getelementptr i32, ptr addrspace(1) %out, i32 8
  store i32 %r8, ptr addrspace(1) %q8, align 4
  %q9 = getelementptr i32, ptr addrspace(1) %out, i32 9
  store i32 %r9, ptr addrspace(1) %q9, align 4
  %q10 = getelementptr i32, ptr addrspace(1) %out, i32 10
  store i32 %r10, ptr addrspace(1) %q10, align 4
  %q11 = getelementptr i32, ptr addrspace(1) %out, i32 11
  store i32 %r11, ptr addrspace(1) %q11, align 4
  %q12 = getelementptr i32, ptr addrspace(1) %out, i32 12
  store i32 %r12, ptr addrspace(1) %q12, align 4
  %q13 = getelementptr i32, ptr addrspace(1) %out, i32 13
  store i32 %r13, ptr addrspace(1) %q13, align 4
  %q14 = getelementptr i32, ptr addrspace(1) %out, i32 14
  store i32 %r14, ptr addrspace(1) %q14, align 4
  %q15 = getelementptr i32, ptr addrspace(1) %out, i32 15
  store i32 %r15, ptr addrspace(1) %q15, align 4
  %q16 = getelementptr i32, ptr addrspace(1) %out, i32 16
  store i32 %r16, ptr addrspace(1) %q16, align 4
  %q17 = getelementptr i32, ptr addrspace(1) %out, i32 17
  store i32 %r17, ptr addrspace(1) %q17, align 4
  %q18 = getelementptr i32, ptr addrspace(1) %out, i32 18
  store i32 %r18, ptr addrspace(1) %q18, align 4
  %q19 = getelementptr i32, ptr addrspace(1) %out, i32 19
  store i32 %r19, ptr addrspace(1) %q19, align 4
  %q20 = getelementptr i32, ptr addrspace(1) %out, i32 20
  store i32 %r20, ptr addrspace(1) %q20, align 4
  %q21 = getelementptr i32, ptr addrspace(1) %out, i32 21
  store i32 %r21, ptr addrspace(1) %q21, align 4
  %q22 = getelementptr i32, ptr addrspace(1) %out, i32 22
  store i32 %r22, ptr addrspace(1) %q22, align 4
  %q23 = getelementptr i32, ptr addrspace(1) %out, i32 23
  store i32 %r23, ptr addrspace(1) %q23, align 4
  %q24 = getelementptr i32, ptr addrspace(1) %out, i32 24
  store i32 %r24, ptr addrspace(1) %q24, align 4
  %q25 = getelementptr i32, ptr addrspace(1) %out, i32 25
  store i32 %r25, ptr addrspace(1) %q25, align 4
  %q26 = getelementptr i32, ptr addrspace(1) %out, i32 26
  store i32 %r26, ptr addrspace(1) %q26, align 4
  %q27 = getelementptr i32, ptr addrspace(1) %out, i32 27
  store i32 %r27, ptr addrspace(1) %q27, align 4
  %q28 = getelementptr i32, ptr addrspace(1) %out, i32 28
  store i32 %r28, ptr addrspace(1) %q28, align 4
  %q29 = getelementptr i32, ptr addrspace(1) %out, i32 29
  store i32 %r29, ptr addrspace(1) %q29, align 4
  %q30 = getelementptr i32, ptr addrspace(1) %out, i32 30
  store i32 %r30, ptr addrspace(1) %q30, align 4
  %q31 = getelementptr i32, ptr addrspace(1) %out, i32 31
  store i32 %r31, ptr addrspace(1) %q31, align 4
  ret void
}
declare i32 @spv.local_invocation_index()
declare i32 @llvm.umin.i32(i32, i32)
declare i32 @llvm.umax.i32(i32, i32)
declare i32 @llvm.smin.i32(i32, i32)
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i32 @llvm.fshr.i32(i32, i32, i32)
declare i32 @llvm.ctpop.i32(i32)
declare i32 @llvm.ctlz.i32(i32, i1)
declare i32 @llvm.cttz.i32(i32, i1)
declare i32 @llvm.bitreverse.i32(i32)
declare i32 @llvm.bswap.i32(i32)
declare i32 @llvm.abs.i32(i32, i1)
declare i32 @llvm.uadd.sat.i32(i32, i32)
declare i32 @llvm.usub.sat.i32(i32, i32)
declare i32 @llvm.sadd.sat.i32(i32, i32)
declare i32 @llvm.ssub.sat.i32(i32, i32)
declare i16 @llvm.ctpop.i16(i16)
declare i16 @llvm.ctlz.i16(i16, i1)
declare i8 @llvm.cttz.i8(i8, i1)
declare i8 @llvm.bitreverse.i8(i8)
declare i16 @llvm.bswap.i16(i16)
declare i64 @llvm.fshl.i64(i64, i64, i64)
declare i64 @llvm.bswap.i64(i64)
declare float @llvm.fma.f32(float, float, float)
declare float @llvm.fmuladd.f32(float, float, float)
declare float @llvm.fabs.f32(float)
declare float @llvm.copysign.f32(float, float)
declare float @llvm.minnum.f32(float, float)
declare float @llvm.maxnum.f32(float, float)
declare i8 @llvm.uadd.sat.i8(i8, i8)
declare i16 @llvm.sadd.sat.i16(i16, i16)

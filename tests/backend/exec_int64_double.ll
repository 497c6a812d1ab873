; exec: local 64 groups 1 mem 5376
; 64-bit integer and double arithmetic per invocation t: a, b are the i64 at
; mem[4t] and mem[4t+2]; 37 i64 results at mem[256 + 80t + 2i]:
;   0 a+b, 1 a-b, 2 a*b, 3 a udiv (b|1), 4 a urem (b|1), 5 a sdiv c, 6 a srem
;   c with c = (b lshr 3) | 1, 7 a shl (b&63), 8 lshr, 9 ashr, 10 and, 11 or,
;   12 xor, 13 ult | slt << 1 | eq << 2, 14 sext(trunc a to i32), 15 umin,
;   16 smax, 17 ctpop a, 18 ctlz a, 19 cttz b;
;   with da = sitofp(a ashr 40), db = sitofp((b ashr 44) | 1) (exact):
;   20 da+db, 21 da*db, 22 (da*db)/db, 23 da-db, 24 sqrt(da*da), 25 floor,
;   26 ceil, 27 trunc of da/8, 28 fptosi(da/4), 29 fma(da, db, 0.5), 30 da <
;   db | (da >= db) << 1 | (da != db) << 2, 31 uitofp(a lshr 11), 32
;   fabs(da - 1e6), 33 minnum, 34 maxnum, 35 fpext(fptrunc da), 36
;   fptoui(fabs(da)) (doubles as their bits).
@wl.push = external addrspace(6) global [4 x i32]

define void @main() {
entry:
  %pa = load i64, ptr addrspace(6) @wl.push, align 4
  %p = inttoptr i64 %pa to ptr addrspace(1)
  %t = call i32 @spv.local_invocation_index()
  %ib = shl i32 %t, 2
  %ap = getelementptr i32, ptr addrspace(1) %p, i32 %ib
  %a = load i64, ptr addrspace(1) %ap, align 8
  %bp = getelementptr i64, ptr addrspace(1) %ap, i32 1
  %b = load i64, ptr addrspace(1) %bp, align 8
  %ob0 = mul i32 %t, 80
  %ob = add i32 %ob0, 256
  %out = getelementptr i32, ptr addrspace(1) %p, i32 %ob
  %r0 = add i64 %a, %b
  %r1 = sub i64 %a, %b
  %r2 = mul i64 %a, %b
  %b1 = or i64 %b, 1
  %r3 = udiv i64 %a, %b1
  %r4 = urem i64 %a, %b1
  %c0 = lshr i64 %b, 3
  %c = or i64 %c0, 1
  %r5 = sdiv i64 %a, %c
  %r6 = srem i64 %a, %c
  %sh = and i64 %b, 63
  %r7 = shl i64 %a, %sh
  %r8 = lshr i64 %a, %sh
  %r9 = ashr i64 %a, %sh
  %r10 = and i64 %a, %b
  %r11 = or i64 %a, %b
  %r12 = xor i64 %a, %b
  %f0 = icmp ult i64 %a, %b
  %f1 = icmp slt i64 %a, %b
  %f2 = icmp eq i64 %a, %b
  %f0z = zext i1 %f0 to i64
  %f1z = zext i1 %f1 to i64
  %f2z = zext i1 %f2 to i64
  %f1s = shl i64 %f1z, 1
  %f2s = shl i64 %f2z, 2
  %f01 = or i64 %f0z, %f1s
  %r13 = or i64 %f01, %f2s
  %a32 = trunc i64 %a to i32
  %r14 = sext i32 %a32 to i64
  %r15 = call i64 @llvm.umin.i64(i64 %a, i64 %b)
  %r16 = call i64 @llvm.smax.i64(i64 %a, i64 %b)
  %r17 = call i64 @llvm.ctpop.i64(i64 %a)
  %r18 = call i64 @llvm.ctlz.i64(i64 %a, i1 false)
  %r19 = call i64 @llvm.cttz.i64(i64 %b, i1 false)
  %ai = ashr i64 %a, 40
  %da = sitofp i64 %ai to double
  %bi0 = ashr i64 %b, 44
  %bi = or i64 %bi0, 1
  %db = sitofp i64 %bi to double
  %d20 = fadd double %da, %db
  %d21 = fmul double %da, %db
  %d22 = fdiv double %d21, %db
  %d23 = fsub double %da, %db
  %dsq = fmul double %da, %da
  %d24 = call double @llvm.sqrt.f64(double %dsq)
  %d8 = fdiv double %da, 8.0
  %d25 = call double @llvm.floor.f64(double %d8)
  %d26 = call double @llvm.ceil.f64(double %d8)
  %d27 = call double @llvm.trunc.f64(double %d8)
  %d4 = fmul double %da, 0.25
  %r28 = fptosi double %d4 to i64
  %d29 = call double @llvm.fma.f64(double %da, double %db, double 0.5)
  %g0 = fcmp olt double %da, %db
  %g1 = fcmp oge double %da, %db
  %g2 = fcmp one double %da, %db
  %g0z = zext i1 %g0 to i64
  %g1z = zext i1 %g1 to i64
  %g2z = zext i1 %g2 to i64
  %g1s = shl i64 %g1z, 1
  %g2s = shl i64 %g2z, 2
  %g01 = or i64 %g0z, %g1s
  %r30 = or i64 %g01, %g2s
  %a11 = lshr i64 %a, 11
  %d31 = uitofp i64 %a11 to double
  %dm = fsub double %da, 1.0e6
  %d32 = call double @llvm.fabs.f64(double %dm)
  %d33 = call double @llvm.minnum.f64(double %da, double %db)
  %d34 = call double @llvm.maxnum.f64(double %da, double %db)
  %ft = fptrunc double %da to float
  %d35 = fpext float %ft to double
  %dab = call double @llvm.fabs.f64(double %da)
  %r36 = fptoui double %dab to i64
  %q0 = getelementptr i64, ptr addrspace(1) %out, i32 0
  store i64 %r0, ptr addrspace(1) %q0, align 8
  %q1 = getelementptr i64, ptr addrspace(1) %out, i32 1
  store i64 %r1, ptr addrspace(1) %q1, align 8
  %q2 = getelementptr i64, ptr addrspace(1) %out, i32 2
  store i64 %r2, ptr addrspace(1) %q2, align 8
  %q3 = getelementptr i64, ptr addrspace(1) %out, i32 3
  store i64 %r3, ptr addrspace(1) %q3, align 8
  %q4 = getelementptr i64, ptr addrspace(1) %out, i32 4
  store i64 %r4, ptr addrspace(1) %q4, align 8
  %q5 = getelementptr i64, ptr addrspace(1) %out, i32 5
  store i64 %r5, ptr addrspace(1) %q5, align 8
  %q6 = getelementptr i64, ptr addrspace(1) %out, i32 6
  store i64 %r6, ptr addrspace(1) %q6, align 8
  %q7 = getelementptr i64, ptr addrspace(1) %out, i32 7
  store i64 %r7, ptr addrspace(1) %q7, align 8
  %q8 = getelementptr i64, ptr addrspace(1) %out, i32 8
  store i64 %r8, ptr addrspace(1) %q8, align 8
  %q9 = getelementptr i64, ptr addrspace(1) %out, i32 9
  store i64 %r9, ptr addrspace(1) %q9, align 8
  %q10 = getelementptr i64, ptr addrspace(1) %out, i32 10
  store i64 %r10, ptr addrspace(1) %q10, align 8
  %q11 = getelementptr i64, ptr addrspace(1) %out, i32 11
  store i64 %r11, ptr addrspace(1) %q11, align 8
  %q12 = getelementptr i64, ptr addrspace(1) %out, i32 12
  store i64 %r12, ptr addrspace(1) %q12, align 8
  %q13 = getelementptr i64, ptr addrspace(1) %out, i32 13
  store i64 %r13, ptr addrspace(1) %q13, align 8
  %q14 = getelementptr i64, ptr addrspace(1) %out, i32 14
  store i64 %r14, ptr addrspace(1) %q14, align 8
  %q15 = getelementptr i64, ptr addrspace(1) %out, i32 15
  store i64 %r15, ptr addrspace(1) %q15, align 8
  %q16 = getelementptr i64, ptr addrspace(1) %out, i32 16
  store i64 %r16, ptr addrspace(1) %q16, align 8
  %q17 = getelementptr i64, ptr addrspace(1) %out, i32 17
  store i64 %r17, ptr addrspace(1) %q17, align 8
  %q18 = getelementptr i64, ptr addrspace(1) %out, i32 18
  store i64 %r18, ptr addrspace(1) %q18, align 8
  %q19 = getelementptr i64, ptr addrspace(1) %out, i32 19
  store i64 %r19, ptr addrspace(1) %q19, align 8
  %q20 = getelementptr i64, ptr addrspace(1) %out, i32 20
  store double %d20, ptr addrspace(1) %q20, align 8
  %q21 = getelementptr i64, ptr addrspace(1) %out, i32 21
  store double %d21, ptr addrspace(1) %q21, align 8
  %q22 = getelementptr i64, ptr addrspace(1) %out, i32 22
  store double %d22, ptr addrspace(1) %q22, align 8
  %q23 = getelementptr i64, ptr addrspace(1) %out, i32 23
  store double %d23, ptr addrspace(1) %q23, align 8
  %q24 = getelementptr i64, ptr addrspace(1) %out, i32 24
  store double %d24, ptr addrspace(1) %q24, align 8
  %q25 = getelementptr i64, ptr addrspace(1) %out, i32 25
  store double %d25, ptr addrspace(1) %q25, align 8
  %q26 = getelementptr i64, ptr addrspace(1) %out, i32 26
  store double %d26, ptr addrspace(1) %q26, align 8
  %q27 = getelementptr i64, ptr addrspace(1) %out, i32 27
  store double %d27, ptr addrspace(1) %q27, align 8
  %q28 = getelementptr i64, ptr addrspace(1) %out, i32 28
  store i64 %r28, ptr addrspace(1) %q28, align 8
  %q29 = getelementptr i64, ptr addrspace(1) %out, i32 29
  store double %d29, ptr addrspace(1) %q29, align 8
  %q30 = getelementptr i64, ptr addrspace(1) %out, i32 30
  store i64 %r30, ptr addrspace(1) %q30, align 8
  %q31 = getelementptr i64, ptr addrspace(1) %out, i32 31
  store double %d31, ptr addrspace(1) %q31, align 8
  %q32 = getelementptr i64, ptr addrspace(1) %out, i32 32
  store double %d32, ptr addrspace(1) %q32, align 8
  %q33 = getelementptr i64, ptr addrspace(1) %out, i32 33
  store double %d33, ptr addrspace(1) %q33, align 8
  %q34 = getelementptr i64, ptr addrspace(1) %out, i32 34
  store double %d34, ptr addrspace(1) %q34, align 8
  %q35 = getelementptr i64, ptr addrspace(1) %out, i32 35
  store double %d35, ptr addrspace(1) %q35, align 8
  %q36 = getelementptr i64, ptr addrspace(1) %out, i32 36
  store i64 %r36, ptr addrspace(1) %q36, align 8
  ret void
}
declare i32 @spv.local_invocation_index()
declare i64 @llvm.umin.i64(i64, i64)
declare i64 @llvm.smax.i64(i64, i64)
declare i64 @llvm.ctpop.i64(i64)
declare i64 @llvm.ctlz.i64(i64, i1)
declare i64 @llvm.cttz.i64(i64, i1)
declare double @llvm.sqrt.f64(double)
declare double @llvm.floor.f64(double)
declare double @llvm.ceil.f64(double)
declare double @llvm.trunc.f64(double)
declare double @llvm.fma.f64(double, double, double)
declare double @llvm.fabs.f64(double)
declare double @llvm.minnum.f64(double, double)
declare double @llvm.maxnum.f64(double, double)

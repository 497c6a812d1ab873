; The intrinsics LLVM's optimizer introduces, on i8/i16/i32/i64 and vectors,
; and the GLSL.std.450 math.
@wl.push = external addrspace(6) global [4 x i32]

define void @main() {
entry:
  %pa = load i64, ptr addrspace(6) @wl.push, align 4
  %p = inttoptr i64 %pa to ptr addrspace(1)
  %tid = call i32 @spv.local_invocation_index()
  %gp = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %x = load i32, ptr addrspace(1) %gp, align 4
  %y = xor i32 %x, 12345
  %x64 = zext i32 %x to i64
  %y64 = mul i64 %x64, 1000003
  %x16 = trunc i32 %x to i16
  %x8 = trunc i32 %x to i8
  %i0 = call i32 @llvm.umin.i32(i32 %x, i32 %y)
  %i1 = call i32 @llvm.smax.i32(i32 %x, i32 %y)
  %i2 = call i64 @llvm.umax.i64(i64 %x64, i64 %y64)
  %i3 = call i32 @llvm.abs.i32(i32 %y, i1 false)
  %i4 = call i32 @llvm.ctpop.i32(i32 %x)
  %i5 = call i64 @llvm.ctpop.i64(i64 %y64)
  %i6 = call i32 @llvm.ctlz.i32(i32 %x, i1 false)
  %i7 = call i64 @llvm.ctlz.i64(i64 %y64, i1 false)
  %i8 = call i16 @llvm.ctlz.i16(i16 %x16, i1 false)
  %i9 = call i32 @llvm.cttz.i32(i32 %x, i1 false)
  %i10 = call i64 @llvm.cttz.i64(i64 %y64, i1 true)
  %i11 = call i8 @llvm.cttz.i8(i8 %x8, i1 false)
  %i12 = call i32 @llvm.bitreverse.i32(i32 %x)
  %i13 = call i64 @llvm.bitreverse.i64(i64 %y64)
  %i14 = call i16 @llvm.bitreverse.i16(i16 %x16)
  %i15 = call i32 @llvm.bswap.i32(i32 %x)
  %i16 = call i64 @llvm.bswap.i64(i64 %y64)
  %i17 = call i16 @llvm.bswap.i16(i16 %x16)
  %i18 = call i32 @llvm.fshl.i32(i32 %x, i32 %y, i32 %tid)
  %i19 = call i32 @llvm.fshr.i32(i32 %x, i32 %y, i32 7)
  %i20 = call i64 @llvm.fshl.i64(i64 %x64, i64 %y64, i64 %y64)
  %i21 = call i32 @llvm.uadd.sat.i32(i32 %x, i32 %y)
  %i22 = call i32 @llvm.usub.sat.i32(i32 %x, i32 %y)
  %i23 = call i32 @llvm.sadd.sat.i32(i32 %x, i32 %y)
  %i24 = call i16 @llvm.ssub.sat.i16(i16 %x16, i16 300)
  %o1 = call { i32, i1 } @llvm.uadd.with.overflow.i32(i32 %x, i32 %y)
  %o2 = call { i64, i1 } @llvm.umul.with.overflow.i64(i64 %x64, i64 %y64)
  %o3 = call { i32, i1 } @llvm.smul.with.overflow.i32(i32 %x, i32 %y)
  %o4 = call { i32, i1 } @llvm.ssub.with.overflow.i32(i32 %x, i32 %y)
  %v = insertelement <4 x i32> poison, i32 %x, i32 0
  %vv = shufflevector <4 x i32> %v, <4 x i32> poison, <4 x i32> zeroinitializer
  %vy = add <4 x i32> %vv, <i32 1, i32 2, i32 3, i32 4>
  %vm = call <4 x i32> @llvm.umin.v4i32(<4 x i32> %vv, <4 x i32> %vy)
  %vc = call <4 x i32> @llvm.ctlz.v4i32(<4 x i32> %vy, i1 false)
  %vr = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %vm)
  %vr2 = call i32 @llvm.vector.reduce.umax.v4i32(<4 x i32> %vc)
  %f = uitofp i32 %x to float
  %d = uitofp i64 %y64 to double
  %h = fptrunc float %f to half
  %f0 = call float @llvm.sqrt.f32(float %f)
  %f1 = call float @llvm.fma.f32(float %f, float %f0, float 1.0)
  %f2 = call float @llvm.fmuladd.f32(float %f1, float 2.0, float %f)
  %f3 = call float @llvm.fabs.f32(float %f2)
  %f4 = call float @llvm.copysign.f32(float %f3, float -1.0)
  %f5 = call float @llvm.minnum.f32(float %f4, float %f0)
  %f6 = call float @llvm.maxnum.f32(float %f5, float %f1)
  %f7 = call float @llvm.exp2.f32(float %f6)
  %f8 = call float @llvm.log2.f32(float %f7)
  %f9 = call float @llvm.sin.f32(float %f8)
  %f10 = call float @llvm.cos.f32(float %f9)
  %f11 = call float @llvm.floor.f32(float %f10)
  %f12 = call float @llvm.ceil.f32(float %f11)
  %f13 = call float @llvm.trunc.f32(float %f12)
  %f14 = call float @llvm.rint.f32(float %f13)
  %f15 = call float @llvm.round.f32(float %f14)
  %f16 = call float @llvm.ldexp.f32.i32(float %f15, i32 3)
  %fr = call { float, i32 } @llvm.frexp.f32.i32(float %f16)
  %f17 = extractvalue { float, i32 } %fr, 0
  %f18 = call float @spv.glsl.InverseSqrt.f32(float %f17)
  %f19 = call float @spv.glsl.Fract.f32(float %f18)
  %f20 = call float @spv.glsl.FClamp.f32(float %f19, float 0.0, float 1.0)
  %d0 = call double @llvm.sqrt.f64(double %d)
  %d1 = call double @llvm.fma.f64(double %d0, double %d, double 0.5)
  %d2 = call double @llvm.floor.f64(double %d1)
  %d3 = call double @llvm.copysign.f64(double %d2, double -0.0)
  %d4 = fdiv double %d3, 3.0
  %d5 = frem double %d4, 7.0
  %d6 = call double @llvm.round.f64(double %d5)
  %h1 = call half @llvm.fabs.f16(half %h)
  %h2 = fadd half %h1, 0xH3C00
  %hf = fpext half %h2 to float
  %f21 = fadd float %f20, %hf
  %dd = fpext float %f21 to double
  %d7 = fadd double %d6, %dd
  %c1 = fcmp uno double %d7, %d0
  %c2 = fcmp one float %f21, 0.0
  %c3 = and i1 %c1, %c2
  ; 64-bit integer arithmetic
  %l0 = udiv i64 %y64, 7
  %l1 = sdiv i64 %y64, -3
  %l2 = urem i64 %y64, 1000
  %l3 = srem i64 %l1, 13
  %l4 = shl i64 %l0, 5
  %l5 = ashr i64 %l3, 2
  %l6 = lshr i64 %l4, %x64
  %l7 = mul i64 %l5, %l6
  %l8 = add i64 %l7, %l2
  %l9 = fptosi double %d7 to i64
  %l10 = add i64 %l8, %l9
  %lc = icmp sgt i64 %l10, %y64
  %l11 = select i1 %lc, i64 %l10, i64 %y64
  ; sum everything
  %s0 = add i32 %i0, %i1
  %t2 = trunc i64 %i2 to i32
  %s1 = add i32 %s0, %t2
  %s2 = add i32 %s1, %i3
  %s3 = add i32 %s2, %i4
  %t5 = trunc i64 %i5 to i32
  %s4 = add i32 %s3, %t5
  %s5 = add i32 %s4, %i6
  %t7 = trunc i64 %i7 to i32
  %s6 = add i32 %s5, %t7
  %t8 = zext i16 %i8 to i32
  %s7 = add i32 %s6, %t8
  %s8 = add i32 %s7, %i9
  %t10 = trunc i64 %i10 to i32
  %s9 = add i32 %s8, %t10
  %t11 = zext i8 %i11 to i32
  %s10 = add i32 %s9, %t11
  %s11 = add i32 %s10, %i12
  %t13 = trunc i64 %i13 to i32
  %s12 = add i32 %s11, %t13
  %t14 = sext i16 %i14 to i32
  %s13 = add i32 %s12, %t14
  %s14 = add i32 %s13, %i15
  %t16 = trunc i64 %i16 to i32
  %s15 = add i32 %s14, %t16
  %t17 = zext i16 %i17 to i32
  %s16 = add i32 %s15, %t17
  %s17 = add i32 %s16, %i18
  %s18 = add i32 %s17, %i19
  %t20 = trunc i64 %i20 to i32
  %s19 = add i32 %s18, %t20
  %s20 = add i32 %s19, %i21
  %s21 = add i32 %s20, %i22
  %s22 = add i32 %s21, %i23
  %t24 = sext i16 %i24 to i32
  %s23 = add i32 %s22, %t24
  %ov1 = extractvalue { i32, i1 } %o1, 1
  %ov2 = extractvalue { i64, i1 } %o2, 1
  %ov3 = extractvalue { i32, i1 } %o3, 1
  %ov4 = extractvalue { i32, i1 } %o4, 0
  %ovx = xor i1 %ov1, %ov2
  %ovy = or i1 %ovx, %ov3
  %ovz = and i1 %ovy, %c3
  %oz = zext i1 %ovz to i32
  %s24 = add i32 %s23, %oz
  %s25 = add i32 %s24, %ov4
  %s26 = add i32 %s25, %vr
  %s27 = add i32 %s26, %vr2
  %t28 = trunc i64 %l11 to i32
  %s28 = add i32 %s27, %t28
  store i32 %s28, ptr addrspace(1) %gp, align 4
  ret void
}
declare i32 @spv.local_invocation_index()
declare i32 @llvm.umin.i32(i32, i32)
declare i32 @llvm.smax.i32(i32, i32)
declare i64 @llvm.umax.i64(i64, i64)
declare i32 @llvm.abs.i32(i32, i1)
declare i32 @llvm.ctpop.i32(i32)
declare i64 @llvm.ctpop.i64(i64)
declare i32 @llvm.ctlz.i32(i32, i1)
declare i64 @llvm.ctlz.i64(i64, i1)
declare i16 @llvm.ctlz.i16(i16, i1)
declare i32 @llvm.cttz.i32(i32, i1)
declare i64 @llvm.cttz.i64(i64, i1)
declare i8 @llvm.cttz.i8(i8, i1)
declare i32 @llvm.bitreverse.i32(i32)
declare i64 @llvm.bitreverse.i64(i64)
declare i16 @llvm.bitreverse.i16(i16)
declare i32 @llvm.bswap.i32(i32)
declare i64 @llvm.bswap.i64(i64)
declare i16 @llvm.bswap.i16(i16)
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i32 @llvm.fshr.i32(i32, i32, i32)
declare i64 @llvm.fshl.i64(i64, i64, i64)
declare i32 @llvm.uadd.sat.i32(i32, i32)
declare i32 @llvm.usub.sat.i32(i32, i32)
declare i32 @llvm.sadd.sat.i32(i32, i32)
declare i16 @llvm.ssub.sat.i16(i16, i16)
declare { i32, i1 } @llvm.uadd.with.overflow.i32(i32, i32)
declare { i64, i1 } @llvm.umul.with.overflow.i64(i64, i64)
declare { i32, i1 } @llvm.smul.with.overflow.i32(i32, i32)
declare { i32, i1 } @llvm.ssub.with.overflow.i32(i32, i32)
declare <4 x i32> @llvm.umin.v4i32(<4 x i32>, <4 x i32>)
declare <4 x i32> @llvm.ctlz.v4i32(<4 x i32>, i1)
declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>)
declare i32 @llvm.vector.reduce.umax.v4i32(<4 x i32>)
declare float @llvm.sqrt.f32(float)
declare float @llvm.fma.f32(float, float, float)
declare float @llvm.fmuladd.f32(float, float, float)
declare float @llvm.fabs.f32(float)
declare float @llvm.copysign.f32(float, float)
declare float @llvm.minnum.f32(float, float)
declare float @llvm.maxnum.f32(float, float)
declare float @llvm.exp2.f32(float)
declare float @llvm.log2.f32(float)
declare float @llvm.sin.f32(float)
declare float @llvm.cos.f32(float)
declare float @llvm.floor.f32(float)
declare float @llvm.ceil.f32(float)
declare float @llvm.trunc.f32(float)
declare float @llvm.rint.f32(float)
declare float @llvm.round.f32(float)
declare float @llvm.ldexp.f32.i32(float, i32)
declare { float, i32 } @llvm.frexp.f32.i32(float)
declare float @spv.glsl.InverseSqrt.f32(float)
declare float @spv.glsl.Fract.f32(float)
declare float @spv.glsl.FClamp.f32(float, float, float)
declare double @llvm.sqrt.f64(double)
declare double @llvm.fma.f64(double, double, double)
declare double @llvm.floor.f64(double)
declare double @llvm.copysign.f64(double, double)
declare double @llvm.round.f64(double)
declare half @llvm.fabs.f16(half)

; exec: local 64 groups 16 mem 24576
; llvm.fma must be correctly rounded (backend/fma.c), on f32, f64, f16 and
; <2 x half>. Invocation t (global id) reads mem[16t ..]: words 0-2 f32 a, b,
; c; words 4-5, 6-7, 8-9 f64 a, b, c; words 10-12 f16 a, b, c (low halves).
; Results at mem[16384 + 8t ..]: 0 fma.f32, 2-3 fma.f64, 4 fma.f16 (zero
; extended), 5 fma.v2f16 of (a, b, c) and (b, c, a) (two halves), 6-7
; fma.v2f32 of the f32 (a, b, c) and (b, a, c) (the backend's vector form
; of the exact f32 fma: both lanes keep the hard cases). A NaN
; result is stored as the canonical NaN (the payload is the device's).
@wl.push = external addrspace(6) global [4 x i32]

define void @main() {
entry:
  %pa = load i64, ptr addrspace(6) @wl.push, align 4
  %p = inttoptr i64 %pa to ptr addrspace(1)
  %wg = call i32 @spv.workgroup_id(i32 0)
  %li = call i32 @spv.local_invocation_index()
  %wg64 = shl i32 %wg, 6
  %t = add i32 %wg64, %li
  %ib = shl i32 %t, 4
  %in = getelementptr i32, ptr addrspace(1) %p, i32 %ib
  %ob0 = shl i32 %t, 3
  %ob = add i32 %ob0, 16384
  %out = getelementptr i32, ptr addrspace(1) %p, i32 %ob
  ; f32
  %fa = load float, ptr addrspace(1) %in, align 4
  %fbp = getelementptr i32, ptr addrspace(1) %in, i32 1
  %fb = load float, ptr addrspace(1) %fbp, align 4
  %fcp = getelementptr i32, ptr addrspace(1) %in, i32 2
  %fc = load float, ptr addrspace(1) %fcp, align 4
  %fr = call float @llvm.fma.f32(float %fa, float %fb, float %fc)
  %fn = fcmp uno float %fr, %fr
  %fri = bitcast float %fr to i32
  %fro = select i1 %fn, i32 2143289344, i32 %fri
  store i32 %fro, ptr addrspace(1) %out, align 4
  ; f64
  %dap = getelementptr i32, ptr addrspace(1) %in, i32 4
  %da = load double, ptr addrspace(1) %dap, align 8
  %dbp = getelementptr i32, ptr addrspace(1) %in, i32 6
  %db = load double, ptr addrspace(1) %dbp, align 8
  %dcp = getelementptr i32, ptr addrspace(1) %in, i32 8
  %dc = load double, ptr addrspace(1) %dcp, align 8
  %dr = call double @llvm.fma.f64(double %da, double %db, double %dc)
  %dn = fcmp uno double %dr, %dr
  %dri = bitcast double %dr to i64
  %dro = select i1 %dn, i64 9221120237041090560, i64 %dri
  %drp = getelementptr i32, ptr addrspace(1) %out, i32 2
  store i64 %dro, ptr addrspace(1) %drp, align 8
  ; f16
  %hap = getelementptr i32, ptr addrspace(1) %in, i32 10
  %haw = load i32, ptr addrspace(1) %hap, align 4
  %hbp = getelementptr i32, ptr addrspace(1) %in, i32 11
  %hbw = load i32, ptr addrspace(1) %hbp, align 4
  %hcp = getelementptr i32, ptr addrspace(1) %in, i32 12
  %hcw = load i32, ptr addrspace(1) %hcp, align 4
  %hai = trunc i32 %haw to i16
  %hbi = trunc i32 %hbw to i16
  %hci = trunc i32 %hcw to i16
  %ha = bitcast i16 %hai to half
  %hb = bitcast i16 %hbi to half
  %hc = bitcast i16 %hci to half
  %hr = call half @llvm.fma.f16(half %ha, half %hb, half %hc)
  %hn = fcmp uno half %hr, %hr
  %hri = bitcast half %hr to i16
  %hro = select i1 %hn, i16 32256, i16 %hri
  %hrw = zext i16 %hro to i32
  %hrp = getelementptr i32, ptr addrspace(1) %out, i32 4
  store i32 %hrw, ptr addrspace(1) %hrp, align 4
  ; <2 x half>: lanes (a, b, c) and (b, c, a)
  %va0 = insertelement <2 x half> poison, half %ha, i32 0
  %va = insertelement <2 x half> %va0, half %hb, i32 1
  %vb0 = insertelement <2 x half> poison, half %hb, i32 0
  %vb = insertelement <2 x half> %vb0, half %hc, i32 1
  %vc0 = insertelement <2 x half> poison, half %hc, i32 0
  %vc = insertelement <2 x half> %vc0, half %ha, i32 1
  %vr = call <2 x half> @llvm.fma.v2f16(<2 x half> %va, <2 x half> %vb, <2 x half> %vc)
  %vn = fcmp uno <2 x half> %vr, %vr
  %vri = bitcast <2 x half> %vr to <2 x i16>
  %vro = select <2 x i1> %vn, <2 x i16> <i16 32256, i16 32256>, <2 x i16> %vri
  %vrw = bitcast <2 x i16> %vro to i32
  %vrp = getelementptr i32, ptr addrspace(1) %out, i32 5
  store i32 %vrw, ptr addrspace(1) %vrp, align 4
  ; <2 x float>: lanes (a, b, c) and (b, a, c)
  %wa0 = insertelement <2 x float> poison, float %fa, i32 0
  %wa = insertelement <2 x float> %wa0, float %fb, i32 1
  %wb0 = insertelement <2 x float> poison, float %fb, i32 0
  %wb = insertelement <2 x float> %wb0, float %fa, i32 1
  %wc0 = insertelement <2 x float> poison, float %fc, i32 0
  %wc = insertelement <2 x float> %wc0, float %fc, i32 1
  %wr = call <2 x float> @llvm.fma.v2f32(<2 x float> %wa, <2 x float> %wb, <2 x float> %wc)
  %wn = fcmp uno <2 x float> %wr, %wr
  %wri = bitcast <2 x float> %wr to <2 x i32>
  %wro = select <2 x i1> %wn, <2 x i32> <i32 2143289344, i32 2143289344>, <2 x i32> %wri
  %wrp = getelementptr i32, ptr addrspace(1) %out, i32 6
  store <2 x i32> %wro, ptr addrspace(1) %wrp, align 4
  ret void
}

declare i32 @spv.workgroup_id(i32)
declare i32 @spv.local_invocation_index()
declare float @llvm.fma.f32(float, float, float)
declare double @llvm.fma.f64(double, double, double)
declare half @llvm.fma.f16(half, half, half)
declare <2 x float> @llvm.fma.v2f32(<2 x float>, <2 x float>, <2 x float>)
declare <2 x half> @llvm.fma.v2f16(<2 x half>, <2 x half>, <2 x half>)

; Each memory kind: a private array indexed dynamically (with the byte-offset
; GEPs instcombine writes), a workgroup array, sub-word stores to both, 64-bit
; values in 32-bit word memory, a 64-bit workgroup array, the module's own
; buffers, push constants and a constant table.
@wl.push = external addrspace(6) global [8 x i32]
@wl.status = external addrspace(4) global [0 x i32]
@wl.lds = external addrspace(4) global [0 x i32]
@wl.pagetable = external addrspace(4) global [0 x i64]
@lds = addrspace(3) global [256 x i32] poison
@lds64 = addrspace(3) global [64 x i64] poison
@table = private unnamed_addr constant [4 x i32] [i32 11, i32 22, i32 33, i32 44]

define void @main() {
entry:
  %priv = alloca [16 x i32], align 4
  %priv64 = alloca [4 x double], align 8
  %pa = load i64, ptr addrspace(6) @wl.push, align 4
  %p = inttoptr i64 %pa to ptr addrspace(1)
  %tid = call i32 @spv.local_invocation_index()
  %t15 = and i32 %tid, 15
  %t64 = zext i32 %t15 to i64
  %gp = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %v = load i32, ptr addrspace(1) %gp, align 4
  ; private: word store, then a byte store at a byte offset, i16 load
  %pp = getelementptr inbounds [16 x i32], ptr %priv, i32 0, i32 %t15
  store i32 %v, ptr %pp, align 4
  %boff = shl i64 %t64, 2
  %bp = getelementptr i8, ptr %priv, i64 %boff
  %bp1 = getelementptr i8, ptr %bp, i64 1
  store i8 90, ptr %bp1, align 1
  %h = load i16, ptr %bp, align 2
  %hx = zext i16 %h to i32
  ; 64-bit values in a double array and in 32-bit word memory
  %dp = getelementptr double, ptr %priv64, i32 %tid
  %dv = uitofp i32 %v to double
  store double %dv, ptr %dp, align 8
  %dl = load double, ptr %dp, align 8
  %q = getelementptr i8, ptr %priv, i64 8
  store i64 %pa, ptr %q, align 4
  %ql = load i64, ptr %q, align 4
  ; workgroup: words, bytes (atomic merges), 64-bit units
  %lp = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %tid
  store i32 %hx, ptr addrspace(3) %lp, align 4
  %lb = getelementptr i8, ptr addrspace(3) %lp, i32 2
  store i8 1, ptr addrspace(3) %lb, align 1
  call void @spv.barrier.workgroup()
  %nx = xor i32 %tid, 1
  %lp2 = getelementptr [256 x i32], ptr addrspace(3) @lds, i32 0, i32 %nx
  %lv = load i32, ptr addrspace(3) %lp2, align 4
  %l64 = getelementptr [64 x i64], ptr addrspace(3) @lds64, i32 0, i32 %t15
  store i64 %ql, ptr addrspace(3) %l64, align 8
  %l64v = load i64, ptr addrspace(3) %l64, align 8
  %lvec = load <2 x i32>, ptr addrspace(3) @lds, align 8
  %le = extractelement <2 x i32> %lvec, i32 1
  ; the module's buffers
  %sp = getelementptr [0 x i32], ptr addrspace(4) @wl.status, i32 0, i32 1
  store i32 %lv, ptr addrspace(4) %sp, align 4
  %ldsp = getelementptr [0 x i32], ptr addrspace(4) @wl.lds, i32 0, i32 %tid
  store i16 7, ptr addrspace(4) %ldsp, align 2
  %pt = getelementptr [0 x i64], ptr addrspace(4) @wl.pagetable, i32 0, i32 %t15
  %ptv = load i64, ptr addrspace(4) %pt, align 8
  ; the constant table
  %t3 = and i32 %tid, 3
  %tp = getelementptr [4 x i32], ptr @table, i32 0, i32 %t3
  %tv = load i32, ptr %tp, align 4
  ; push constants
  %pc = getelementptr i8, ptr addrspace(6) @wl.push, i32 12
  %pcv = load i32, ptr addrspace(6) %pc, align 4
  ; results
  %s1 = add i32 %lv, %tv
  %s2 = add i32 %s1, %pcv
  %s3 = add i32 %s2, %le
  %d2 = fptoui double %dl to i32
  %s4 = add i32 %s3, %d2
  %w = add i64 %l64v, %ptv
  %w32 = trunc i64 %w to i32
  %s5 = add i32 %s4, %w32
  store i32 %s5, ptr addrspace(1) %gp, align 4
  %g8 = getelementptr i8, ptr addrspace(1) %gp, i64 1
  store i8 3, ptr addrspace(1) %g8, align 1
  %gv = getelementptr <2 x float>, ptr addrspace(1) %p, i32 %t15
  %fv = load <2 x float>, ptr addrspace(1) %gv, align 8
  %fs = fadd <2 x float> %fv, <float 1.0, float 2.0>
  store <2 x float> %fs, ptr addrspace(1) %gv, align 8
  ret void
}
declare i32 @spv.local_invocation_index()
declare void @spv.barrier.workgroup()

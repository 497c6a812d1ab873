; exec: local 64 groups 2 mem 1280 status 128 lds 256 n 5
; Each memory kind, per invocation (gid = 64 * group + l, x = mem[gid],
; n from the push constants, out = mem[256 + 8 gid ..]):
;   private [16 x i32]: priv[j] = x*(j+1) in a loop; out[0] = priv[(l+n)&15];
;     a byte store at byte 4k+1 and an i16 load at byte 4k through
;     byte-offset GEPs: out[1] = (x*(k+1) & 255) | 90 << 8;
;     an i64 store at byte 8: out[2] = priv[3] = x
;   workgroup: @lds[l] = x, a byte store of l+1 at byte l of @ldsb, an i64
;     (x << 32 | l) in @lds64[l]; after a barrier out[3] = @lds[l^1],
;     out[4] = word l/4 of @ldsb, out[5] = low word of @lds64[63-l] + its
;     high word
;   constant table: out[6] = table[x & 7]
;   device memory: out[7] by bytes and a half: x & 255, 0xab, l
;   the module's buffers: status[gid] = x + n; lds[64 + gid] = lds[l] ^ x
@wl.push = external addrspace(6) global [4 x i32]
@wl.status = external addrspace(4) global [0 x i32]
@wl.lds = external addrspace(4) global [0 x i32]
@lds = addrspace(3) global [64 x i32] poison
@ldsb = addrspace(3) global [16 x i32] poison
@lds64 = addrspace(3) global [64 x i64] poison
@table = private unnamed_addr constant [8 x i32] [i32 3, i32 1, i32 4, i32 1, i32 5, i32 9, i32 2, i32 6]

define void @main() {
entry:
  %priv = alloca [16 x i32], align 4
  %pa = load i64, ptr addrspace(6) @wl.push, align 4
  %p = inttoptr i64 %pa to ptr addrspace(1)
  %n = load i32, ptr addrspace(6) getelementptr (i8, ptr addrspace(6) @wl.push, i64 8), align 4
  %l = call i32 @spv.local_invocation_index()
  %g = call i32 @spv.workgroup_id(i32 0)
  %g64 = shl i32 %g, 6
  %gid = add i32 %g64, %l
  %ia = getelementptr i32, ptr addrspace(1) %p, i32 %gid
  %x = load i32, ptr addrspace(1) %ia, align 4
  %o8 = shl i32 %gid, 3
  %oi = add i32 %o8, 256
  %out = getelementptr i32, ptr addrspace(1) %p, i32 %oi
  br label %fill
fill:
  %j = phi i32 [ 0, %entry ], [ %j1, %fill ]
  %j1 = add i32 %j, 1
  %xj = mul i32 %x, %j1
  %pj = getelementptr [16 x i32], ptr %priv, i32 0, i32 %j
  store i32 %xj, ptr %pj, align 4
  %more = icmp ult i32 %j1, 16
  br i1 %more, label %fill, label %filled
filled:
  %ln = add i32 %l, %n
  %k = and i32 %ln, 15
  %pk = getelementptr [16 x i32], ptr %priv, i32 0, i32 %k
  %r0 = load i32, ptr %pk, align 4
  %k64 = zext i32 %k to i64
  %boff = shl i64 %k64, 2
  %bp = getelementptr i8, ptr %priv, i64 %boff
  %bp1 = getelementptr i8, ptr %bp, i64 1
  store i8 90, ptr %bp1, align 1
  %h = load i16, ptr %bp, align 2
  %r1 = zext i16 %h to i32
  %q = getelementptr i8, ptr %priv, i64 8
  %x64 = zext i32 %x to i64
  %xs = shl i64 %x64, 32
  %xw = or i64 %xs, 12345
  store i64 %xw, ptr %q, align 4
  %q2 = getelementptr i32, ptr %priv, i32 3
  %r2 = load i32, ptr %q2, align 4
  %lp = getelementptr [64 x i32], ptr addrspace(3) @lds, i32 0, i32 %l
  store i32 %x, ptr addrspace(3) %lp, align 4
  %lb = getelementptr i8, ptr addrspace(3) @ldsb, i32 %l
  %l8 = trunc i32 %l to i8
  %l8b = add i8 %l8, 1
  store i8 %l8b, ptr addrspace(3) %lb, align 1
  %l64p = getelementptr [64 x i64], ptr addrspace(3) @lds64, i32 0, i32 %l
  %l64 = zext i32 %l to i64
  %w64 = or i64 %xs, %l64
  store i64 %w64, ptr addrspace(3) %l64p, align 8
  call void @spv.barrier.workgroup()
  %nx = xor i32 %l, 1
  %lp2 = getelementptr [64 x i32], ptr addrspace(3) @lds, i32 0, i32 %nx
  %r3 = load i32, ptr addrspace(3) %lp2, align 4
  %wi = lshr i32 %l, 2
  %lbw = getelementptr [16 x i32], ptr addrspace(3) @ldsb, i32 0, i32 %wi
  %r4 = load i32, ptr addrspace(3) %lbw, align 4
  %rv = sub i32 63, %l
  %l64q = getelementptr [64 x i64], ptr addrspace(3) @lds64, i32 0, i32 %rv
  %v64 = load i64, ptr addrspace(3) %l64q, align 8
  %v64h = lshr i64 %v64, 32
  %v64s = add i64 %v64, %v64h
  %r5 = trunc i64 %v64s to i32
  %dl = getelementptr [0 x i32], ptr addrspace(4) @wl.lds, i32 0, i32 %l
  %dv = load i32, ptr addrspace(4) %dl, align 4
  %dw = add i32 %gid, 64
  %dlw = getelementptr [0 x i32], ptr addrspace(4) @wl.lds, i32 0, i32 %dw
  %dx = xor i32 %dv, %x
  store i32 %dx, ptr addrspace(4) %dlw, align 4
  %sp = getelementptr [0 x i32], ptr addrspace(4) @wl.status, i32 0, i32 %gid
  %sv = add i32 %x, %n
  store i32 %sv, ptr addrspace(4) %sp, align 4
  %t7 = and i32 %x, 7
  %tp = getelementptr [8 x i32], ptr @table, i32 0, i32 %t7
  %r6 = load i32, ptr %tp, align 4
  store i32 %r0, ptr addrspace(1) %out, align 4
  %o1 = getelementptr i32, ptr addrspace(1) %out, i32 1
  store i32 %r1, ptr addrspace(1) %o1, align 4
  %o2 = getelementptr i32, ptr addrspace(1) %out, i32 2
  store i32 %r2, ptr addrspace(1) %o2, align 4
  %o3 = getelementptr i32, ptr addrspace(1) %out, i32 3
  store i32 %r3, ptr addrspace(1) %o3, align 4
  %o4 = getelementptr i32, ptr addrspace(1) %out, i32 4
  store i32 %r4, ptr addrspace(1) %o4, align 4
  %o5 = getelementptr i32, ptr addrspace(1) %out, i32 5
  store i32 %r5, ptr addrspace(1) %o5, align 4
  %o6 = getelementptr i32, ptr addrspace(1) %out, i32 6
  store i32 %r6, ptr addrspace(1) %o6, align 4
  %o7 = getelementptr i8, ptr addrspace(1) %out, i64 28
  %x8 = trunc i32 %x to i8
  store i8 %x8, ptr addrspace(1) %o7, align 4
  %o7b = getelementptr i8, ptr addrspace(1) %out, i64 29
  store i8 -85, ptr addrspace(1) %o7b, align 1
  %o7h = getelementptr i8, ptr addrspace(1) %out, i64 30
  %l16 = trunc i32 %l to i16
  store i16 %l16, ptr addrspace(1) %o7h, align 2
  ret void
}
declare i32 @spv.local_invocation_index()
declare i32 @spv.workgroup_id(i32)
declare void @spv.barrier.workgroup() #0
attributes #0 = { convergent nounwind }

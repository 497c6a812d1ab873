; exec: local 64 groups 1 mem 1280 n 4
; Nested loops per invocation: a continue of the inner loop, a break out of
; the inner loop (continuing the outer one), a break out of both loops and
; an early return from inside both. Invocation t reads in[16t..16t+15]:
;   s = 0
;   for (i = 0; i < n; i++) { for (j = 0; j < n; j++) {
;     v = in[i*n+j]; if (v == 9) { out = {1000+i*n+j, 77}; return; }
;     if (v % 3 == 0) continue; if (v == 7) break;
;     s += v; if (s > 40) goto done; } }
;   done: out = {s, i}
; out is mem[1024 + 4t ..].
@wl.push = external addrspace(6) global [4 x i32]

define void @main() {
entry:
  %pa = load i64, ptr addrspace(6) @wl.push, align 4
  %p = inttoptr i64 %pa to ptr addrspace(1)
  %n = load i32, ptr addrspace(6) getelementptr (i8, ptr addrspace(6) @wl.push, i64 8), align 4
  %t = call i32 @spv.local_invocation_index()
  %base = mul i32 %t, 16
  %in = getelementptr i32, ptr addrspace(1) %p, i32 %base
  %o4 = shl i32 %t, 2
  %oi = add i32 %o4, 1024
  %out = getelementptr i32, ptr addrspace(1) %p, i32 %oi
  %out1 = getelementptr i32, ptr addrspace(1) %out, i32 1
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i1, %outer.latch ]
  %s = phi i32 [ 0, %entry ], [ %s.o, %outer.latch ]
  %ci = icmp slt i32 %i, %n
  br i1 %ci, label %inner, label %done
inner:
  %j = phi i32 [ 0, %outer ], [ %j1, %inner.latch ]
  %s1 = phi i32 [ %s, %outer ], [ %s2, %inner.latch ]
  %cj = icmp slt i32 %j, %n
  br i1 %cj, label %body, label %outer.latch
body:
  %m = mul i32 %i, %n
  %k = add i32 %m, %j
  %a = getelementptr i32, ptr addrspace(1) %in, i32 %k
  %v = load i32, ptr addrspace(1) %a, align 4
  %is9 = icmp eq i32 %v, 9
  br i1 %is9, label %early, label %b2
b2:
  %r3 = urem i32 %v, 3
  %z3 = icmp eq i32 %r3, 0
  br i1 %z3, label %inner.cont, label %b3
b3:
  %is7 = icmp eq i32 %v, 7
  br i1 %is7, label %outer.latch, label %b4
b4:
  %s3 = add i32 %s1, %v
  %big = icmp sgt i32 %s3, 40
  br i1 %big, label %done, label %inner.latch
inner.cont:
  br label %inner.latch
inner.latch:
  %s2 = phi i32 [ %s1, %inner.cont ], [ %s3, %b4 ]
  %j1 = add i32 %j, 1
  br label %inner
outer.latch:
  %s.o = phi i32 [ %s1, %inner ], [ %s1, %b3 ]
  %i1 = add i32 %i, 1
  br label %outer
done:
  %rs = phi i32 [ %s, %outer ], [ %s3, %b4 ]
  %ri = phi i32 [ %i, %outer ], [ %i, %b4 ]
  store i32 %rs, ptr addrspace(1) %out, align 4
  store i32 %ri, ptr addrspace(1) %out1, align 4
  ret void
early:
  %e = add i32 %k, 1000
  store i32 %e, ptr addrspace(1) %out, align 4
  store i32 77, ptr addrspace(1) %out1, align 4
  ret void
}
declare i32 @spv.local_invocation_index()

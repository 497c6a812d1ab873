; exec: local 64 groups 1 mem 256
; Irreducible control flow per invocation: two blocks that enter each
; other's loop, entered at either one (even or odd input). Invocation t:
;   x = in[t]; c = 0; side = x even ? L : R
;   L: x += 3; c++; if (x < 100) goto R; else exit
;   R: x += 5; c++; if (x < 100) goto L; else exit
;   mem[64 + 2t ..] = {x, c}
@wl.push = external addrspace(6) global [4 x i32]

define void @main() {
entry:
  %pa = load i64, ptr addrspace(6) @wl.push, align 4
  %p = inttoptr i64 %pa to ptr addrspace(1)
  %t = call i32 @spv.local_invocation_index()
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %t
  %v = load i32, ptr addrspace(1) %a, align 4
  %o2 = shl i32 %t, 1
  %oi = add i32 %o2, 64
  %out = getelementptr i32, ptr addrspace(1) %p, i32 %oi
  %out1 = getelementptr i32, ptr addrspace(1) %out, i32 1
  %b = and i32 %v, 1
  %even = icmp eq i32 %b, 0
  br i1 %even, label %left, label %right
left:
  %l = phi i32 [ %v, %entry ], [ %r1, %right ]
  %lc = phi i32 [ 0, %entry ], [ %rc1, %right ]
  %l1 = add i32 %l, 3
  %lc1 = add i32 %lc, 1
  %lt = icmp ult i32 %l1, 100
  br i1 %lt, label %right, label %exit
right:
  %r = phi i32 [ %v, %entry ], [ %l1, %left ]
  %rc = phi i32 [ 0, %entry ], [ %lc1, %left ]
  %r1 = add i32 %r, 5
  %rc1 = add i32 %rc, 1
  %rt = icmp ult i32 %r1, 100
  br i1 %rt, label %left, label %exit
exit:
  %x = phi i32 [ %l1, %left ], [ %r1, %right ]
  %xc = phi i32 [ %lc1, %left ], [ %rc1, %right ]
  store i32 %x, ptr addrspace(1) %out, align 4
  store i32 %xc, ptr addrspace(1) %out1, align 4
  ret void
}
declare i32 @spv.local_invocation_index()

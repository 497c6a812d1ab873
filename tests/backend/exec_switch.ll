; exec: local 64 groups 1 mem 1152 n 8
; A switch inside a loop, per invocation: shared case targets, a case that
; falls through into the next one, a case that leaves the loop, a default.
; Invocation t reads in[8t..8t+7]:
;   acc = 0
;   for (i = 0; i < n; i++) switch (in[i] & 7) {
;     case 0: acc += 1; break;   case 1: case 2: acc = acc*3 + v; break;
;     case 3: goto out;          case 5: acc ^= 85; /* fall through */
;     case 6: acc += 100; break; default: acc -= v; }
;   out: mem[1024 + 2t ..] = {acc, i}
@wl.push = external addrspace(6) global [4 x i32]

define void @main() {
entry:
  %pa = load i64, ptr addrspace(6) @wl.push, align 4
  %p = inttoptr i64 %pa to ptr addrspace(1)
  %n = load i32, ptr addrspace(6) getelementptr (i8, ptr addrspace(6) @wl.push, i64 8), align 4
  %t = call i32 @spv.local_invocation_index()
  %base = mul i32 %t, 8
  %in = getelementptr i32, ptr addrspace(1) %p, i32 %base
  %o2 = shl i32 %t, 1
  %oi = add i32 %o2, 1024
  %out = getelementptr i32, ptr addrspace(1) %p, i32 %oi
  %out1 = getelementptr i32, ptr addrspace(1) %out, i32 1
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  %acc = phi i32 [ 0, %entry ], [ %acc2, %latch ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %a = getelementptr i32, ptr addrspace(1) %in, i32 %i
  %v = load i32, ptr addrspace(1) %a, align 4
  %sel = and i32 %v, 7
  switch i32 %sel, label %def [
    i32 0, label %c0
    i32 1, label %c12
    i32 2, label %c12
    i32 3, label %exit
    i32 5, label %c5
    i32 6, label %c6
  ]
c0:
  %a0 = add i32 %acc, 1
  br label %latch
c12:
  %m = mul i32 %acc, 3
  %a12 = add i32 %m, %v
  br label %latch
c5:
  %a5 = xor i32 %acc, 85
  br label %c6
c6:
  %p6 = phi i32 [ %acc, %body ], [ %a5, %c5 ]
  %a6 = add i32 %p6, 100
  br label %latch
def:
  %ad = sub i32 %acc, %v
  br label %latch
latch:
  %acc2 = phi i32 [ %a0, %c0 ], [ %a12, %c12 ], [ %a6, %c6 ], [ %ad, %def ]
  %i1 = add i32 %i, 1
  br label %loop
exit:
  %ra = phi i32 [ %acc, %loop ], [ %acc, %body ]
  %ri = phi i32 [ %i, %loop ], [ %i, %body ]
  store i32 %ra, ptr addrspace(1) %out, align 4
  store i32 %ri, ptr addrspace(1) %out1, align 4
  ret void
}
declare i32 @spv.local_invocation_index()

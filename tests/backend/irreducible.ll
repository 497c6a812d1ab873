; exec: local 64 groups 1 mem 64
; Irreducible control flow: two blocks entering each other's loop; made
; reducible by fix-irreducible.
@wl.push = external addrspace(6) global [4 x i32]

define void @main() {
entry:
  %pa = load i64, ptr addrspace(6) @wl.push, align 4
  %p = inttoptr i64 %pa to ptr addrspace(1)
  %tid = call i32 @spv.local_invocation_index()
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %v = load i32, ptr addrspace(1) %a, align 4
  %c = icmp ult i32 %v, 50
  br i1 %c, label %left, label %right
left:
  %l = phi i32 [ %v, %entry ], [ %r1, %right ]
  %l1 = add i32 %l, 3
  %lc = icmp ult i32 %l1, 100
  br i1 %lc, label %right, label %exit
right:
  %r = phi i32 [ %v, %entry ], [ %l1, %left ]
  %r1 = add i32 %r, 5
  %rc = icmp ult i32 %r1, 100
  br i1 %rc, label %left, label %exit
exit:
  %x = phi i32 [ %l1, %left ], [ %r1, %right ]
  store i32 %x, ptr addrspace(1) %a, align 4
  ret void
}
declare i32 @spv.local_invocation_index()

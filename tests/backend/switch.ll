; exec: local 64 groups 1 mem 64
; A switch with fall-through-like shared targets, inside a loop.
@wl.push = external addrspace(6) global [4 x i32]

define void @main() {
entry:
  %pa = load i64, ptr addrspace(6) @wl.push, align 4
  %p = inttoptr i64 %pa to ptr addrspace(1)
  %tid = call i32 @spv.local_invocation_index()
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %v = load i32, ptr addrspace(1) %a, align 4
  %sel = and i32 %v, 7
  switch i32 %sel, label %def [
    i32 0, label %c0
    i32 1, label %c1
    i32 2, label %c1
    i32 5, label %c5
  ]
c0:
  br label %join
c1:
  %x1 = mul i32 %v, 3
  br label %join
c5:
  %x5 = xor i32 %v, 255
  %odd = icmp ne i32 %tid, 3
  br i1 %odd, label %join, label %def
def:
  %xd = phi i32 [ 100, %entry ], [ %x5, %c5 ]
  br label %join
join:
  %r = phi i32 [ 7, %c0 ], [ %x1, %c1 ], [ %x5, %c5 ], [ %xd, %def ]
  store i32 %r, ptr addrspace(1) %a, align 4
  ret void
}
declare i32 @spv.local_invocation_index()

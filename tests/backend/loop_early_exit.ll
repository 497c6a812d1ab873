; exec: local 1 groups 1 mem 64 n 40
; A loop with an early exit (a return from inside the loop) and a continue.
; out[0] = first i < n with in[i] == 7 else n; elements equal to 3 are skipped,
; the others are incremented in place.
@wl.push = external addrspace(6) global [4 x i32]

define void @main() {
entry:
  %pa = load i64, ptr addrspace(6) @wl.push, align 4
  %p = inttoptr i64 %pa to ptr addrspace(1)
  %n = load i32, ptr addrspace(6) getelementptr (i8, ptr addrspace(6) @wl.push, i64 8), align 4
  br label %h
h:
  %i = phi i32 [0, %entry], [%i2, %latch]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %i
  %v = load i32, ptr addrspace(1) %a, align 4
  %z = icmp eq i32 %v, 7
  br i1 %z, label %ret2, label %cont
cont:
  %w = icmp eq i32 %v, 3
  br i1 %w, label %latch, label %inner
inner:
  %v1 = add i32 %v, 1
  store i32 %v1, ptr addrspace(1) %a, align 4
  br label %latch
latch:
  %i2 = add i32 %i, 1
  br label %h
ret2:
  store i32 %i, ptr addrspace(1) %p, align 4
  ret void
exit:
  store i32 %n, ptr addrspace(1) %p, align 4
  ret void
}

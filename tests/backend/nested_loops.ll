; exec: local 1 groups 1 mem 256 n 10
; Nested loops with a break out of both loops and a continue of the outer
; loop from the inner one. For i < n, for j < n: s += in[i*n+j]; if s > 1000
; break both; if in[..] == 5 continue outer.
@wl.push = external addrspace(6) global [4 x i32]

define void @main() {
entry:
  %pa = load i64, ptr addrspace(6) @wl.push, align 4
  %p = inttoptr i64 %pa to ptr addrspace(1)
  %n = load i32, ptr addrspace(6) getelementptr (i8, ptr addrspace(6) @wl.push, i64 8), align 4
  br label %outer
outer:
  %i = phi i32 [0, %entry], [%i1, %outer.latch]
  %s = phi i32 [0, %entry], [%s2, %outer.latch]
  %ci = icmp slt i32 %i, %n
  br i1 %ci, label %inner, label %done
inner:
  %j = phi i32 [0, %outer], [%j1, %inner.latch]
  %s1 = phi i32 [%s, %outer], [%s3, %inner.latch]
  %cj = icmp slt i32 %j, %n
  br i1 %cj, label %inner.body, label %outer.latch.pre
inner.body:
  %m = mul i32 %i, %n
  %k = add i32 %m, %j
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %k
  %v = load i32, ptr addrspace(1) %a, align 4
  %s3 = add i32 %s1, %v
  %big = icmp sgt i32 %s3, 1000
  br i1 %big, label %done, label %chk
chk:
  %five = icmp eq i32 %v, 5
  br i1 %five, label %outer.latch.pre, label %inner.latch
inner.latch:
  %j1 = add i32 %j, 1
  br label %inner
outer.latch.pre:
  %s2p = phi i32 [%s1, %inner], [%s3, %chk]
  br label %outer.latch
outer.latch:
  %s2 = phi i32 [%s2p, %outer.latch.pre]
  %i1 = add i32 %i, 1
  br label %outer
done:
  %r = phi i32 [%s, %outer], [%s3, %inner.body]
  store i32 %r, ptr addrspace(1) %p, align 4
  ret void
}

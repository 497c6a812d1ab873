; exec: local 1 groups 1 mem 4
; The first block after the entry is a self loop (the case LLVM 19.1.7's fix-irreducible
; breaks when it runs first), followed by a do-while and a loop whose header
; is its own latch.
@wl.push = external addrspace(6) global [4 x i32]

define void @main() {
entry:
  br label %first
first:
  %i = phi i32 [ 0, %entry ], [ %i1, %first ]
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, 10
  br i1 %c, label %first, label %next
next:
  %pa = load i64, ptr addrspace(6) @wl.push, align 4
  %p = inttoptr i64 %pa to ptr addrspace(1)
  br label %dw
dw:
  %k = phi i32 [ %i1, %next ], [ %k1, %dw ]
  %k1 = mul i32 %k, 3
  %kc = icmp ult i32 %k1, 100000
  br i1 %kc, label %dw, label %out
out:
  store i32 %k1, ptr addrspace(1) %p, align 4
  ret void
}

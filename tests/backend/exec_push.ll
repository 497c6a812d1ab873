; exec: local 1 groups 1 mem 16 n 2343432205
; Push-constant loads in each layout backend/push.c knows (the push words:
; the buffer's address, n = 0x8badf00d, 0): the i64 at 0 read only whole (a
; u64 member), the words of 8..15 read in parts (u32 members): an i16, two
; i8 and another i16 of n, the i32 at 12, a double and a float at 8 (two
; words, and one, bitcast). mem[0] = i16@8, [1] = i8@9, [2] = i8@11,
; [3] = i16@10, [4] = i32@12, [6..7] = the double's bits, [8] = the float's
; bits, [9] = (address != 0); the other words keep their junk.
@wl.push = external addrspace(6) global [4 x i32]

define void @main() {
entry:
  %pa = load i64, ptr addrspace(6) @wl.push, align 4
  %p = inttoptr i64 %pa to ptr addrspace(1)
  %h8 = load i16, ptr addrspace(6) getelementptr (i8, ptr addrspace(6) @wl.push, i64 8), align 2
  %b9 = load i8, ptr addrspace(6) getelementptr (i8, ptr addrspace(6) @wl.push, i64 9), align 1
  %b11 = load i8, ptr addrspace(6) getelementptr (i8, ptr addrspace(6) @wl.push, i64 11), align 1
  %h10 = load i16, ptr addrspace(6) getelementptr (i8, ptr addrspace(6) @wl.push, i64 10), align 2
  %w12 = load i32, ptr addrspace(6) getelementptr (i8, ptr addrspace(6) @wl.push, i64 12), align 4
  %d8 = load double, ptr addrspace(6) getelementptr (i8, ptr addrspace(6) @wl.push, i64 8), align 4
  %f8 = load float, ptr addrspace(6) getelementptr (i8, ptr addrspace(6) @wl.push, i64 8), align 4
  %r0 = zext i16 %h8 to i32
  %r1 = zext i8 %b9 to i32
  %r2 = zext i8 %b11 to i32
  %r3 = zext i16 %h10 to i32
  %nz = icmp ne i64 %pa, 0
  %r9 = zext i1 %nz to i32
  store i32 %r0, ptr addrspace(1) %p, align 4
  %q1 = getelementptr i32, ptr addrspace(1) %p, i32 1
  store i32 %r1, ptr addrspace(1) %q1, align 4
  %q2 = getelementptr i32, ptr addrspace(1) %p, i32 2
  store i32 %r2, ptr addrspace(1) %q2, align 4
  %q3 = getelementptr i32, ptr addrspace(1) %p, i32 3
  store i32 %r3, ptr addrspace(1) %q3, align 4
  %q4 = getelementptr i32, ptr addrspace(1) %p, i32 4
  store i32 %w12, ptr addrspace(1) %q4, align 4
  %q6 = getelementptr i32, ptr addrspace(1) %p, i32 6
  store double %d8, ptr addrspace(1) %q6, align 8
  %q8 = getelementptr i32, ptr addrspace(1) %p, i32 8
  store float %f8, ptr addrspace(1) %q8, align 4
  %q9 = getelementptr i32, ptr addrspace(1) %p, i32 9
  store i32 %r9, ptr addrspace(1) %q9, align 4
  ret void
}

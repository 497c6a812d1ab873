; exec: local 1 groups 1 mem 64 n 48
; Functions (docs/backend.md "Functions"): @main calls @update for each
; i in 1 .. n-1; @update walks in[i] by the Collatz step for at most 20
; steps in a loop of its own, calling @classify, which returns a struct
; {next value, was odd} from a branch; odd steps count twice. out[i] = the
; count, out[0] = the number of calls that returned a count above 10 (a
; value returned by a call). noinline keeps all three functions through
; default<O2>.
@wl.push = external addrspace(6) global [4 x i32]

define internal { i32, i1 } @classify(i32 %v) noinline {
e:
  %odd = and i32 %v, 1
  %isodd = icmp ne i32 %odd, 0
  br i1 %isodd, label %o, label %ev
o:
  %t = mul i32 %v, 3
  %t1 = add i32 %t, 1
  br label %x
ev:
  %h = lshr i32 %v, 1
  br label %x
x:
  %r = phi i32 [ %t1, %o ], [ %h, %ev ]
  %s0 = insertvalue { i32, i1 } poison, i32 %r, 0
  %s1 = insertvalue { i32, i1 } %s0, i1 %isodd, 1
  ret { i32, i1 } %s1
}

define internal i1 @update(i64 %base, i32 %i) noinline {
e:
  %p = inttoptr i64 %base to ptr addrspace(1)
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %i
  %v = load i32, ptr addrspace(1) %a, align 4
  br label %l
l:
  %x = phi i32 [ %v, %e ], [ %nx, %l2 ]
  %steps = phi i32 [ 0, %e ], [ %ns, %l2 ]
  %done = icmp ule i32 %x, 1
  %cap = icmp uge i32 %steps, 20
  %stop = or i1 %done, %cap
  br i1 %stop, label %out, label %l2
l2:
  %c = call { i32, i1 } @classify(i32 %x)
  %nx = extractvalue { i32, i1 } %c, 0
  %wasodd = extractvalue { i32, i1 } %c, 1
  %inc = zext i1 %wasodd to i32
  %ns0 = add i32 %steps, 1
  %ns = add i32 %ns0, %inc
  br label %l
out:
  store i32 %steps, ptr addrspace(1) %a, align 4
  %big = icmp ugt i32 %steps, 10
  ret i1 %big
}

define void @main() {
entry:
  %pa = load i64, ptr addrspace(6) @wl.push, align 4
  %n = load i32, ptr addrspace(6) getelementptr (i8, ptr addrspace(6) @wl.push, i64 8), align 4
  br label %h
h:
  %i = phi i32 [ 1, %entry ], [ %i2, %b ]
  %cnt = phi i32 [ 0, %entry ], [ %cnt2, %b ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %b, label %exit
b:
  %big = call i1 @update(i64 %pa, i32 %i)
  %bi = zext i1 %big to i32
  %cnt2 = add i32 %cnt, %bi
  %i2 = add i32 %i, 1
  br label %h
exit:
  %p = inttoptr i64 %pa to ptr addrspace(1)
  store i32 %cnt, ptr addrspace(1) %p, align 4
  ret void
}

; Wave IR (docs/wave-ir.md) written by hand for tests/test_lower.c: one
; wave of @W@ lanes in groups of 96 work-items (wave64: a full and a partial
; wave, D855). Each lane loads A[gid] (user SGPRs 0-1: the buffer), then:
;   out[gid*16 + 0] = x of lane ^ 1            (varying shuffle)
;   out[gid*16 + 1] = x of lane (lane + 5) % W  (varying shuffle, wraps)
;   out[gid*16 + 2] = x of lane 7               (uniform shuffle)
;   out[gid*16 + 3] = readfirstlane(x, exec)
;   out[gid*16 + 4] = popcount(ballot(x odd) & exec), bit 16: some lane of the
;                     wave has x > 4250000000 (unsigned), bit 17: none has (a
;                     ballot read only by tests against 0: lower/launch.c
;                     lowers it as a subgroup any, test_lower checks that)
;   out[gid*16 + 5] = LDS exchange: A of work-item (t + 7) % 96, after a barrier
;   out[gid*16 + 6] = scratch: x + 2x + (lane & 255) through dword and byte stores,
;                     + 2 (x ^ lane) at a dynamic offset (out-of-range ones read 0)
;   out[gid*16 + 7] = 6x from a uniform loop over a VGPR
;   out[gid*16 + 8] = the sum of the group's A by LDS atomics
;   out[gid*16 + 9] = the wave id, [10] the lane id, [11] mbcnt-like count of
;                     active lanes below (popcount(exec & ((1 << lane) - 1)))
;   out[gid*16 + 12..14] sub-word stores (below); word 15 of the group's
;   first item counts the group's lanes by global atomic adds
; x is 0 in lanes that do not exist (their load is inactive).
define void @wl.wave() {
entry:
  %v0 = alloca i32, align 4, !wl.vgpr !1
  %v1 = alloca i32, align 4, !wl.vgpr !1
  %s0 = alloca i32, align 4
  store i32 0, ptr %v0
  store i32 0, ptr %v1
  %exec = call i64 @wl.launch_exec()
  %act = call i1 @wl.lane_active(i64 %exec)
  %lo = call i32 @wl.user_sgpr(i32 0)
  %hi = call i32 @wl.user_sgpr(i32 1)
  %lo64 = zext i32 %lo to i64
  %hi64 = zext i32 %hi to i64
  %his = shl i64 %hi64, 32
  %base = or i64 %lo64, %his
  %t = call i32 @wl.thread_id(i32 0)
  %g = call i32 @wl.workgroup_id(i32 0)
  %gb = mul i32 %g, 96
  %gt = add i32 %gb, %t
  %gt64 = zext i32 %gt to i64
  %off = shl i64 %gt64, 2
  %addr = add i64 %base, %off
  %a = call i32 @wl.load.global.b32(i64 %addr, i1 %act)
  %old0 = load i32, ptr %v0
  %n0 = select i1 %act, i32 %a, i32 %old0
  store i32 %n0, ptr %v0
  %x = load i32, ptr %v0
  %lane = call i32 @wl.lane_id()
  %l1 = xor i32 %lane, 1
  %sx = call i32 @wl.shuffle.i32(i32 %x, i32 %l1)
  %l5 = add i32 %lane, 5
  %s5 = call i32 @wl.shuffle.i32(i32 %x, i32 %l5)
  %u7 = call i32 @wl.shuffle.i32(i32 %x, i32 7)
  %rf = call i32 @wl.readfirstlane.i32(i32 %x, i64 %exec)
  %odd = trunc i32 %x to i1
  %bl = call i64 @wl.ballot(i1 %odd)
  %be = and i64 %bl, %exec
  %pc = call i64 @llvm.ctpop.i64(i64 %be)
  %pc32 = trunc i64 %pc to i32
  %big = icmp ugt i32 %x, -44967296
  %bz = call i64 @wl.ballot(i1 %big)
  %anyb = icmp ne i64 %bz, 0
  %noneb = icmp eq i64 %bz, 0
  %anyz = zext i1 %anyb to i32
  %nonez = zext i1 %noneb to i32
  %anys = shl i32 %anyz, 16
  %nones = shl i32 %nonez, 17
  %pca = or i32 %pc32, %anys
  %pcx = or i32 %pca, %nones
  ; LDS: word 100 (byte 400) starts at 0, written by work-item 0
  %t0 = icmp eq i32 %t, 0
  %act0 = and i1 %act, %t0
  call void @wl.store.lds.b32(i32 400, i32 0, i1 %act0)
  %t4 = shl i32 %t, 2
  call void @wl.store.lds.b32(i32 %t4, i32 %x, i1 %act)
  call void @wl.barrier()
  %tn = add i32 %t, 7
  %tm = urem i32 %tn, 96
  %tm4 = shl i32 %tm, 2
  %ld = call i32 @wl.load.lds.b32(i32 %tm4, i1 %act)
  %aa = call i32 @wl.atomic.lds.add.b32(i32 400, i32 %x, i1 %act)
  call void @wl.barrier()
  %sum = call i32 @wl.load.lds.b32(i32 400, i1 %act)
  ; scratch
  call void @wl.store.scratch.b32(i32 0, i32 %x, i1 %act)
  %x2 = mul i32 %x, 2
  call void @wl.store.scratch.b32(i32 4, i32 %x2, i1 %act)
  call void @wl.store.scratch.b8(i32 9, i32 %lane, i1 %act)
  %r0 = call i32 @wl.load.scratch.b32(i32 0, i1 %act)
  %r1 = call i32 @wl.load.scratch.b32(i32 4, i1 %act)
  %r2 = call i32 @wl.load.scratch.b8(i32 9, i1 %act)
  ; dynamic offsets, in range (lane & 3 words) and past the 16 bytes (read 0,
  ; written nowhere: the reload sees the in-range value)
  %dw = and i32 %lane, 3
  %do = shl i32 %dw, 2
  %xl = xor i32 %x, %lane
  call void @wl.store.scratch.b32(i32 %do, i32 %xl, i1 %act)
  %r3 = call i32 @wl.load.scratch.b32(i32 %do, i1 %act)
  %ow = and i32 %lane, 7
  %oo4 = shl i32 %ow, 2
  %oo = add i32 %oo4, 13
  call void @wl.store.scratch.b32(i32 %oo, i32 -559038737, i1 %act)
  call void @wl.store.scratch.b32(i32 -4, i32 -559038737, i1 %act)
  %r4 = call i32 @wl.load.scratch.b32(i32 %oo, i1 %act)
  %r5 = call i32 @wl.load.scratch.b32(i32 %do, i1 %act)
  %rs = add i32 %r0, %r1
  %rs1 = add i32 %rs, %r2
  %rs3 = add i32 %rs1, %r3
  %rs4 = add i32 %rs3, %r4
  %rs2 = add i32 %rs4, %r5
  ; a uniform loop over a VGPR
  store i32 0, ptr %s0
  br label %loop
loop:
  %i = load i32, ptr %s0
  %o1 = load i32, ptr %v1
  %m = mul i32 %x, %i
  %n1 = add i32 %o1, %m
  %sel = select i1 %act, i32 %n1, i32 %o1
  store i32 %sel, ptr %v1
  %i1 = add i32 %i, 1
  store i32 %i1, ptr %s0
  %c = icmp ult i32 %i1, 4
  br i1 %c, label %loop, label %done
done:
  %vl = load i32, ptr %v1
  %wid = call i32 @wl.wave_id()
  %lane64 = zext i32 %lane to i64
  %bit = shl i64 1, %lane64
  %below = sub i64 %bit, 1
  %eb = and i64 %exec, %below
  %mb = call i64 @llvm.ctpop.i64(i64 %eb)
  %mb32 = trunc i64 %mb to i32
  %gfirst = mul i32 %g, 6144
  %gfirst64 = zext i32 %gfirst to i64
  %gab = add i64 %base, 16384
  %gaddr = add i64 %gab, %gfirst64
  %gaddr15 = add i64 %gaddr, 60
  %ga_old = call i32 @wl.atomic.global.add.b32(i64 %gaddr15, i32 1, i1 %act)
  %ob0 = mul i64 %gt64, 64
  %ob1 = add i64 %ob0, 16384
  %ob = add i64 %base, %ob1
  call void @wl.store.global.b32(i64 %ob, i32 %sx, i1 %act)
  %o_1 = add i64 %ob, 4
  call void @wl.store.global.b32(i64 %o_1, i32 %s5, i1 %act)
  %o_2 = add i64 %ob, 8
  call void @wl.store.global.b32(i64 %o_2, i32 %u7, i1 %act)
  %o_3 = add i64 %ob, 12
  call void @wl.store.global.b32(i64 %o_3, i32 %rf, i1 %act)
  %o_4 = add i64 %ob, 16
  call void @wl.store.global.b32(i64 %o_4, i32 %pcx, i1 %act)
  %o_5 = add i64 %ob, 20
  call void @wl.store.global.b32(i64 %o_5, i32 %ld, i1 %act)
  %o_6 = add i64 %ob, 24
  call void @wl.store.global.b32(i64 %o_6, i32 %rs2, i1 %act)
  %o_7 = add i64 %ob, 28
  call void @wl.store.global.b32(i64 %o_7, i32 %vl, i1 %act)
  %o_8 = add i64 %ob, 32
  call void @wl.store.global.b32(i64 %o_8, i32 %sum, i1 %act)
  %o_9 = add i64 %ob, 36
  call void @wl.store.global.b32(i64 %o_9, i32 %wid, i1 %act)
  %o_10 = add i64 %ob, 40
  call void @wl.store.global.b32(i64 %o_10, i32 %lane, i1 %act)
  %o_11 = add i64 %ob, 44
  call void @wl.store.global.b32(i64 %o_11, i32 %mb32, i1 %act)
  ; sub-word stores (D977): a half at byte 51 (word 12 byte 3, crossing into
  ; word 13), a byte at byte 1 + lane % 3 of word 13, a half at byte 58
  %h = or i32 %lane, 43776
  %o_12 = add i64 %ob, 51
  call void @wl.store.global.b16(i64 %o_12, i32 %h, i1 %act)
  %lb = urem i32 %lane, 3
  %lb1 = add i32 %lb, 53
  %lb64 = zext i32 %lb1 to i64
  %o_13b = add i64 %ob, %lb64
  call void @wl.store.global.b8(i64 %o_13b, i32 %lane, i1 %act)
  %o_14 = add i64 %ob, 58
  call void @wl.store.global.b16(i64 %o_14, i32 %h, i1 %act)
  ; contended bytes: byte gid of the region at 8192 gets gid * 7
  %rb = add i64 %base, 8192
  %rba = add i64 %rb, %gt64
  %g7 = mul i32 %gt, 7
  call void @wl.store.global.b8(i64 %rba, i32 %g7, i1 %act)
  ret void
}

declare i64 @wl.launch_exec()
declare i1 @wl.lane_active(i64)
declare i32 @wl.user_sgpr(i32)
declare i32 @wl.thread_id(i32)
declare i32 @wl.workgroup_id(i32)
declare i32 @wl.wave_id()
declare i32 @wl.lane_id()
declare i32 @wl.load.global.b32(i64, i1)
declare void @wl.store.global.b32(i64, i32, i1)
declare void @wl.store.global.b8(i64, i32, i1)
declare void @wl.store.global.b16(i64, i32, i1)
declare i32 @wl.atomic.global.add.b32(i64, i32, i1)
declare i32 @wl.shuffle.i32(i32, i32)
declare i32 @wl.readfirstlane.i32(i32, i64)
declare i64 @wl.ballot(i1)
declare void @wl.store.lds.b32(i32, i32, i1)
declare i32 @wl.load.lds.b32(i32, i1)
declare i32 @wl.atomic.lds.add.b32(i32, i32, i1)
declare void @wl.barrier()
declare void @wl.store.scratch.b32(i32, i32, i1)
declare void @wl.store.scratch.b8(i32, i32, i1)
declare i32 @wl.load.scratch.b32(i32, i1)
declare i32 @wl.load.scratch.b8(i32, i1)
declare i64 @llvm.ctpop.i64(i64)

!wl.program = !{!0}
!0 = !{i32 @W@, i32 512, i32 16, i32 2}
!1 = !{}

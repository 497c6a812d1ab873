// Suite: 64-bit atomics, compare-and-swap loops, local and global atomics.
//! run atomics64 global=512 local=64
//! arg rand:1024
//! arg zero:64
//! out 1
//! run cas_loop global=256 local=64
//! arg rand:256
//! arg zero:64
//! out 1
//! run local_atomics global=512 local=128
//! arg rand:512
//! arg zero:128
//! out 1
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
kernel void atomics64(global const ulong *in, global ulong *out) {
  ulong x = in[get_global_id(0)];
  atom_add(&out[0], x);
  atom_max(&out[1], x);
  atom_min(&out[2], ~x);
  atom_xor(&out[3], x);
  atom_or(&out[4], x & 0x0101010101010101ul);
  atom_inc(&out[5]);
}
kernel void cas_loop(global const uint *in, global uint *out) {
  uint x = in[get_global_id(0)] >> 4;
  uint old = out[0], assumed;
  do {
    assumed = old;
    old = atomic_cmpxchg(&out[0], assumed, max(assumed, x) + 0u);
  } while (old != assumed);
  atomic_xchg(&out[1 + (x & 7u)], 1u);
}
kernel void local_atomics(global const uint *in, global uint *out) {
  local uint s[8];
  uint l = get_local_id(0);
  if (l < 8)
    s[l] = l == 2 ? 0xffffffffu : 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint x = in[get_global_id(0)];
  atomic_add(&s[0], x);
  atomic_max(&s[1], x);
  atomic_min(&s[2], x);
  atomic_or(&s[3], x & 0x11111111u);
  atomic_and(&s[4], 0u);
  atomic_xor(&s[5], x);
  atomic_sub(&s[6], x >> 8);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 8)
    out[get_group_id(0) * 8 + l] = s[l];
}

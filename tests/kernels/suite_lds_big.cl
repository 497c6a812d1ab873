// Suite: a 64 KiB LDS (the whole of gfx10's), more than lavapipe's 32 KiB
// and NVIDIA's 48 KiB of workgroup memory: `wavelift run` places it in
// device memory, a slice a workgroup (docs/memory.md). The groups fill
// every word, read words spread over the whole LDS, and every lane of the
// group's waves adds a 64-bit value into one slot at the LDS's last qword
// (the seed's lock-budget case: the sum must be exact, not half), with
// 32-bit atomics mixed into another slot. Outputs do not depend on the
// order the lanes run in. The first kernel is the one test_wave_model runs
// by default; the second adds mixed widths on one slot.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

// Both kernels: fill every word, read words spread over the whole LDS
// (the sum into *acc), clear the two atomic slots; the lane's 64-bit value.
static ulong fill_and_read(local ulong *big, global const uint *in, ulong *acc) {
  uint lid = get_local_id(0), g = get_group_id(0), n = get_local_size(0);
  for (uint i = lid; i < 8192; i += n)
    big[i] = ((ulong)in[(i + g * 7) & 2047] << 32) | (i ^ g);
  barrier(CLK_LOCAL_MEM_FENCE);
  ulong a = 0;
  for (uint j = 0; j < 16; j++)
    a += big[(lid * 31 + j * 517 + g) & 8191] * (j + 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    big[8191] = 0;
    big[8190] = 0x100000000ul;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  *acc = a;
  return ((ulong)in[get_global_id(0)] << 20) ^ in[(get_global_id(0) + 5) & 2047];
}

//! run lds_big global=1024 local=256
//! arg rand:2048
//! arg zero:8192
//! out 1
kernel void lds_big(global const uint *in, global ulong *out) {
  local ulong big[8192];
  uint lid = get_local_id(0);
  ulong acc;
  ulong v = fill_and_read(big, in, &acc);
  atom_add(&big[8191], v);
  atom_add(&big[8190], v & 0xffffu);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = acc ^ big[8191 - (lid & 1)] ^ ((ulong)lid << 13);
}

//! run lds_big_mixed global=1024 local=256
//! arg rand:2048
//! arg zero:8192
//! out 1
kernel void lds_big_mixed(global const uint *in, global ulong *out) {
  local ulong big[8192];
  uint lid = get_local_id(0);
  ulong acc;
  ulong v = fill_and_read(big, in, &acc);
  atom_add(&big[8191], v);
  // mixed widths on one slot: small values, no carry between the dwords
  atom_add(&big[8190], v & 0xffffu);
  atomic_add((local uint *)&big[8190], (uint)(v >> 40) & 0xffu);
  atomic_add((local uint *)&big[8190] + 1, 1u);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = acc ^ big[8191 - (lid & 1)] ^ ((ulong)lid << 13);
}

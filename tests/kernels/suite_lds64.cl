// Suite: 64-bit LDS atomics (ds_*_u64/i64/b64), mixed with 32-bit atomics
// on one slot and with 32-bit atomics elsewhere in the same LDS. Every
// output is independent of the order in which the lanes run: an order-
// dependent result (xchg, cmpxchg) is checked through what every order
// gives (the returned values' sum).
//! run lds64_atomics global=512 local=128
//! arg rand:1024
//! arg zero:1536
//! out 1
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
kernel void lds64_atomics(global const ulong *in, global ulong *out) {
  local ulong acc[16];
  local uint hist[32], hmax[32];
  uint lid = get_local_id(0);
  if (lid < 16)
    acc[lid] = lid == 2 ? 0x7ffffffffffffffful : lid == 3 ? 0x8000000000000000ul
             : (lid == 4 || lid == 6) ? ~0ul : 0ul;
  if (lid < 32) {
    hist[lid] = 0;
    hmax[lid] = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  ulong v = in[get_global_id(0)];
  atom_add(&acc[0], v);
  atom_sub(&acc[1], v);
  atom_min((local long *)&acc[2], (long)v);
  atom_max((local long *)&acc[3], (long)v);
  atom_min(&acc[4], v);
  atom_max(&acc[5], v);
  atom_and(&acc[6], v | 0xffff0000ffff0000ul);
  atom_or(&acc[7], v & 0x8040201008040201ul);
  atom_xor(&acc[8], v);
  ulong r = atom_inc(&acc[9]);
  atom_add(&acc[10], r);
  ulong s = atom_xchg(&acc[11], v);
  atom_add(&acc[12], s);
  ulong c = atom_cmpxchg(&acc[13], 0ul, v | 1ul);
  atom_add(&acc[14], c);
  /* mixed widths on one slot: small values, no carry between the dwords */
  atom_add(&acc[15], v & 0x0000ffff0000fffful);
  atomic_add((local uint *)&acc[15], (uint)(v >> 48));
  atomic_add((local uint *)&acc[15] + 1, (uint)(v >> 16) & 0xffffu);
  /* 32-bit atomics in the same LDS */
  atomic_inc(&hist[v & 31u]);
  atomic_max(&hmax[(v >> 40) & 31u], (uint)(v >> 50) & 0xffu);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 16) {
    ulong o = acc[lid];
    if (lid == 11)
      o = acc[11] + acc[12]; /* = the sum of v */
    if (lid == 12)
      o = 0;
    if (lid == 13)
      o = acc[14] == (ulong)(get_local_size(0) - 1) * acc[13];
    if (lid == 14)
      o = acc[13] & 1ul;
    out[get_group_id(0) * 48 + lid] = o;
  }
  if (lid < 32)
    out[get_group_id(0) * 48 + 16 + lid] = (ulong)hist[lid] | ((ulong)hmax[lid] << 32);
}

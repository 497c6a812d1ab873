// Suite: sub-group reductions, scans and broadcasts (DPP, permlanex16,
// readlane on gfx10). PoCL has no sub-groups: there the work-group
// equivalents (plain code) compute the same outputs, which do not depend on the
// sub-group size (every output is a work-group or global result, or a
// self-check flag of a sub-group result against global memory).
//! run sg_reduce global=1024 local=128
//! arg small:1024
//! arg zero:16
//! arg zero:4096
//! out 1
//! out 2
//! run sg_scan global=512 local=256
//! arg small:512
//! arg zero:2048
//! out 1
//! run sg_broadcast global=256 local=128
//! arg rand:256
//! arg zero:1024
//! out 1
//! run sg_minmax global=512 local=64
//! arg rand:512
//! arg zero:128
//! arg zero:2048
//! out 1
//! out 2
// The reductions' results are used by every lane before the branch (the
// `same` flags): where they are used inside `if (sub-group local id == 0)`
// only, clang-19 sinks the wave32 cross-row step (v_permlanex16_b32 without
// fetch-inactive) into the branch, where its source lane 16 is inactive and
// reads 0 (LLVM bug, fixed by llvm-project PR 142962: permlane made
// convergent); the translation then faithfully computes a short total.
kernel void sg_reduce(global const uint *in, global uint *out, global uint *same) {
  uint x = in[get_global_id(0)];
#ifdef cl_khr_subgroups
  uint s = sub_group_reduce_add(x);
  same[get_global_id(0)] = s == sub_group_broadcast(s, 0) ? 1u : 0u;
  if (get_sub_group_local_id() == 0)
    atomic_add(&out[0], s);
#else
  same[get_global_id(0)] = 1u;
  atomic_add(&out[0], x);
#endif
}
kernel void sg_scan(global const uint *in, global uint *out) {
  uint x = in[get_global_id(0)];
#ifdef cl_khr_subgroups
  local uint part[64];
  uint sc = sub_group_scan_inclusive_add(x);
  uint sg = get_sub_group_id();
  if (get_sub_group_local_id() == get_sub_group_size() - 1)
    part[sg] = sc;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint base = 0;
  for (uint i = 0; i < sg; i++)
    base += part[i];
  out[get_global_id(0)] = base + sc;
#else
  uint s = 0, i = get_global_id(0);
  for (uint j = i - get_local_id(0); j <= i; j++)
    s += in[j];
  out[i] = s;
#endif
}
kernel void sg_broadcast(global const uint *in, global uint *out) {
  uint i = get_global_id(0);
  uint x = in[i];
#ifdef cl_khr_subgroups
  uint first = i - get_sub_group_local_id();
  uint b = sub_group_broadcast(x, 0);
  out[i] = (b == in[first]) ? 1u : 0u;
#else
  out[i] = 1u;
#endif
}
kernel void sg_minmax(global const uint *in, global uint *out, global uint *same) {
  uint x = in[get_global_id(0)];
  int y = (int)x;
#ifdef cl_khr_subgroups
  uint mx = sub_group_reduce_max(x);
  uint mn = sub_group_reduce_min(x);
  int sm = sub_group_reduce_min(y);
  same[get_global_id(0)] = (mx == sub_group_broadcast(mx, 0) ? 1u : 0u) |
                           (mn == sub_group_broadcast(mn, 0) ? 2u : 0u) |
                           (sm == sub_group_broadcast(sm, 0) ? 4u : 0u);
  if (get_sub_group_local_id() == 0) {
    atomic_max(&out[get_group_id(0) * 4], mx);
    atomic_max(&out[get_group_id(0) * 4 + 1], ~mn);
    atomic_min((global int *)&out[get_group_id(0) * 4 + 2], sm);
  }
#else
  same[get_global_id(0)] = 7u;
  atomic_max(&out[get_group_id(0) * 4], x);
  atomic_max(&out[get_group_id(0) * 4 + 1], ~x);
  atomic_min((global int *)&out[get_group_id(0) * 4 + 2], y);
#endif
}

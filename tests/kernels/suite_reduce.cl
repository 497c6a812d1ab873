// Suite (tests/test_suite_run.c): reductions through LDS, with barriers
// inside loops, and through dynamic LDS (a local: argument).
//! run reduce_lds global=1024 local=256
//! arg rand:1024
//! arg zero:16
//! out 1
//! run reduce_dyn global=512 local=128
//! arg small:512
//! arg zero:16
//! arg local:512
//! out 1
kernel void reduce_lds(global const uint *in, global uint *out) {
  local uint t[256];
  uint l = get_local_id(0);
  t[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s)
      t[l] += t[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[get_group_id(0)] = t[0];
}
kernel void reduce_dyn(global const uint *in, global uint *out, local uint *t) {
  uint l = get_local_id(0);
  t[l] = in[get_global_id(0)] * 3u + 1u;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s)
      t[l] = max(t[l], t[l + s]) + (t[l] & 1u);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[get_group_id(0)] = t[0];
}

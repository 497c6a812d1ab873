// Suite: prefix sums (Blelloch, in LDS) and bitonic sort (LDS, barriers in
// nested loops).
//! run prefix_sum global=512 local=256
//! arg small:512
//! arg zero:2048
//! out 1
//! run bitonic global=512 local=256
//! arg rand:512
//! arg zero:2048
//! out 1
kernel void prefix_sum(global const uint *in, global uint *out) {
  local uint t[256];
  uint l = get_local_id(0), n = get_local_size(0);
  t[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = 1; d < n; d <<= 1) {
    uint v = l >= d ? t[l - d] : 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    t[l] += v;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = t[l];
}
kernel void bitonic(global const uint *in, global uint *out) {
  local uint t[256];
  uint l = get_local_id(0), n = get_local_size(0);
  t[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint k = 2; k <= n; k <<= 1) {
    for (uint j = k >> 1; j > 0; j >>= 1) {
      uint p = l ^ j;
      if (p > l) {
        uint a = t[l], b = t[p];
        int up = (l & k) == 0;
        if ((a > b) == up) {
          t[l] = b;
          t[p] = a;
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  out[get_global_id(0)] = t[l];
}

// Suite: histograms with LDS atomics and with global atomics.
//! run hist_lds global=2048 local=256
//! arg rand:2048
//! arg zero:256
//! out 1
//! run hist_global global=1024 local=64
//! arg rand:1024
//! arg zero:256
//! out 1
kernel void hist_lds(global const uint *in, global uint *out) {
  local uint h[64];
  uint l = get_local_id(0);
  if (l < 64)
    h[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&h[(in[get_global_id(0)] >> 7) & 63u]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 64)
    atomic_add(&out[l], h[l]);
}
kernel void hist_global(global const uint *in, global uint *out) {
  uint x = in[get_global_id(0)];
  atomic_add(&out[x & 31u], 1u);
  atomic_max(&out[(x >> 5 & 15u) + 32u], x >> 9);
}

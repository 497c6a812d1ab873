// Suite: tiled matrix multiply (LDS tiles, 2D) and transpose through LDS.
//! run matmul_tiled global=32,32 local=16,16
//! arg small:1024
//! arg small:1024
//! arg zero:4096
//! arg u32:32
//! out 2
//! run matmul_f32 global=32,16 local=16,16
//! arg randf:512
//! arg randf:1024
//! arg zero:2048
//! out 2
//! run transpose global=64,32 local=16,16
//! arg rand:2048
//! arg zero:8192
//! out 1
#define T 16
kernel void matmul_tiled(global const uint *a, global const uint *b, global uint *c, uint n) {
  local uint ta[T][T], tb[T][T];
  uint r = get_global_id(1), col = get_global_id(0);
  uint lr = get_local_id(1), lc = get_local_id(0);
  uint acc = 0;
  for (uint t = 0; t < n; t += T) {
    ta[lr][lc] = a[r * n + t + lc];
    tb[lr][lc] = b[(t + lr) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < T; k++)
      acc += ta[lr][k] * tb[k][lc];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[r * n + col] = acc;
}
/* c (16 x 32) = a (16 x 32) * b (32 x 32), fused multiply-adds written out. */
kernel void matmul_f32(global const float *a, global const float *b, global float *c) {
  uint r = get_global_id(1), col = get_global_id(0);
  float acc = 0.0f;
  for (uint k = 0; k < 32; k++)
    acc = fma(a[r * 32 + k], b[k * 32 + col], acc);
  c[r * 32 + col] = acc;
}
kernel void transpose(global const uint *in, global uint *out) {
  local uint t[T][T + 1];
  uint w = get_global_size(0), h = get_global_size(1);
  uint x = get_global_id(0), y = get_global_id(1);
  t[get_local_id(1)][get_local_id(0)] = in[y * w + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  uint ox = get_group_id(1) * T + get_local_id(0);
  uint oy = get_group_id(0) * T + get_local_id(1);
  out[oy * h + ox] = t[get_local_id(0)][get_local_id(1)];
}

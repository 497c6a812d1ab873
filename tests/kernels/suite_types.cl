// Suite: char and short stores, 64-bit integers, doubles, vectors.
//! run bytes_shorts global=256 local=64
//! arg rand:256
//! arg zero:256
//! arg zero:512
//! out 1
//! out 2
//! run int64_ops global=256 local=64
//! arg rand:512
//! arg zero:8192
//! out 1
//! run double_ops global=256 local=64
//! arg randf:256
//! arg zero:8192
//! out 1
//! run vector_ops global=128 local=64
//! arg rand:512
//! arg zero:2048
//! out 1
kernel void bytes_shorts(global const uint *in, global uchar *b, global short *s) {
  uint i = get_global_id(0);
  uint x = in[i];
  b[i] = (uchar)(x >> 3);
  s[i] = (short)(x >> 12) - (short)i;
}
kernel void int64_ops(global const ulong *in, global ulong *out) {
  uint i = get_global_id(0);
  ulong a = in[i], b = in[(i + 1) & 255u] | 1ul;
  long sa = (long)a;
  out[i * 4 + 0] = a * b + (a >> 13);
  out[i * 4 + 1] = a / b + a % (b >> 40 | 3ul);
  out[i * 4 + 2] = (ulong)(sa >> 7) ^ (a << (b & 63ul));
  out[i * 4 + 3] = (ulong)(sa / (long)(b >> 32 | 5ul)) + mul_hi(a, b);
}
kernel void double_ops(global const float *in, global double *out) {
  uint i = get_global_id(0);
  double x = (double)in[i] * 3.25, y = (double)in[(i + 7) & 255u] + 0.5;
  out[i * 4 + 0] = x * y + x;
  out[i * 4 + 1] = x / (y + 2.0);
  out[i * 4 + 2] = sqrt(fabs(x)) + fma(x, y, -1.0);
  out[i * 4 + 3] = (double)((long)(x * 1e6)) + floor(y * 10.0);
}
kernel void vector_ops(global const uint4 *in, global uint4 *out) {
  uint i = get_global_id(0);
  uint4 a = in[i], b = in[(i + 3) & 127u];
  out[i] = (a + b.wzyx) ^ (a >> (uint4)(1, 2, 3, 4));
}

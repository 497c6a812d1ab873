// Suite: device-library math (tolerance: the OpenCL ulp bounds, see
// test_suite_run.c), integer bit functions, conversions, a stencil with
// barriers inside a loop, 3D ids, private arrays.
//! run libm_f32 global=256 local=64 tol=16
//! arg randf:256
//! arg zero:6144
//! out 1
//! run bit_ops global=256 local=64
//! arg rand:256
//! arg zero:8192
//! out 1
//! run conversions global=256 local=64
//! arg randf:256
//! arg zero:6144
//! out 1
//! run stencil_loop global=256 local=256
//! arg small:256
//! arg zero:1024
//! out 1
//! run ids_3d global=8,4,4 local=4,2,2
//! arg zero:2048
//! out 0
//! run private_array global=128 local=64
//! arg rand:128
//! arg zero:512
//! out 1
kernel void libm_f32(global const float *in, global float *out) {
  uint i = get_global_id(0);
  float x = in[i] * 4.0f;
  global float *o = out + i * 6;
  o[0] = sin(x);
  o[1] = cos(x);
  o[2] = exp(x);
  o[3] = log(fabs(x) + 0.5f);
  o[4] = pow(fabs(x) + 0.25f, 1.5f);
  o[5] = sqrt(fabs(x));
}
kernel void bit_ops(global const uint *in, global uint *out) {
  uint i = get_global_id(0);
  uint x = in[i], y = in[(i + 5) & 255u];
  global uint *o = out + i * 8;
  o[0] = popcount(x);
  o[1] = clz(x);
  o[2] = rotate(x, y & 31u);
  o[3] = mul_hi(x, y);
  o[4] = (uint)mul_hi((int)x, (int)y);
  o[5] = mad24(x & 0xffffu, y & 0xffffu, x);
  o[6] = (uint)abs((int)x) + (uint)add_sat((int)x, (int)y);
  o[7] = select(x, y, (uint)(x > y)) + hadd(x, y);
}
kernel void conversions(global const float *in, global uint *out) {
  uint i = get_global_id(0);
  float x = in[i] * 300.0f;
  global uint *o = out + i * 6;
  o[0] = (uint)(int)x;
  o[1] = convert_uchar_sat(x);
  o[2] = (uint)convert_int_rte(x);
  o[3] = (uint)convert_short_sat(x * 200.0f);
  o[4] = as_uint((float)(int)(x * 3.0f));
  o[5] = as_uint((float)(x > 0.0f ? (uint)x : 7u));
}
kernel void stencil_loop(global const uint *in, global uint *out) {
  local uint a[258];
  uint l = get_local_id(0);
  a[l + 1] = in[get_global_id(0)];
  if (l == 0) {
    a[0] = 0;
    a[257] = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int step = 0; step < 8; step++) {
    uint v = (a[l] + 2u * a[l + 1] + a[l + 2]) >> 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    a[l + 1] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = a[l + 1];
}
kernel void ids_3d(global uint *out) {
  uint x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  uint idx = (z * get_global_size(1) + y) * get_global_size(0) + x;
  out[idx * 4 + 0] = get_local_id(0) | get_local_id(1) << 8 | get_local_id(2) << 16;
  out[idx * 4 + 1] = get_group_id(0) | get_group_id(1) << 8 | get_group_id(2) << 16;
  out[idx * 4 + 2] = get_num_groups(0) | get_num_groups(1) << 8 | get_num_groups(2) << 16;
  out[idx * 4 + 3] = get_local_size(0) * get_local_size(1) * get_local_size(2) + get_work_dim();
}
kernel void private_array(global const uint *in, global uint *out) {
  uint i = get_global_id(0);
  uint p[32];
  uint x = in[i];
  for (int k = 0; k < 32; k++)
    p[k] = x * (uint)k ^ (x >> k);
  uint s = 0;
  for (int k = 0; k < 32; k++)
    s += p[(x + (uint)k * 7u) & 31u];
  out[i] = s;
}

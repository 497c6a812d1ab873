// Single division on hard operands, and the exact scaling builtins it is
// made of. clang-19's OpenCL a / b for gfx1030 is v_frexp_mant/v_frexp_exp,
// v_rcp_f32, v_mul_f32, v_ldexp_f32: not correctly rounded (OpenCL allows
// 2.5 ulp), so fdiv_f32 compares within 2 ulp of PoCL's correctly rounded
// quotient; the bugs this guards against (host Frexp/Ldexp ignoring
// subnormals) were off by powers of two. Operands: any bits, subnormal
// (numerator, denominator or both), tiny and huge ones, quotients near
// overflow and underflow. scale_f32 (frexp, ldexp, ilogb) is exact: byte
// for byte. log_exp_f32: log/log2 near 1 and exp/exp2 (v_log_f32 and
// v_exp_f32, lifted in f64: Vulkan's Log2 may be 2^-21 absolutely off near
// 1) within 3 ulp of PoCL (the OpenCL bound). NaN results are stored as one
// canonical NaN.
//! run fdiv_f32 global=256 local=64 tol=2
//! arg rand:768
//! arg zero:8192
//! out 1
//! run scale_f32 global=256 local=64
//! arg rand:512
//! arg zero:5120
//! out 1
//! run log_exp_f32 global=256 local=64 tol=3
//! arg rand:256
//! arg zero:6144
//! out 1
uint canon32(float r) { return isnan(r) ? 0x7fc00000u : as_uint(r); }
kernel void fdiv_f32(global const uint *in, global uint *out) {
  uint i = get_global_id(0);
  uint a = in[i], b = in[i + 256], c = in[i + 512];
  float x = as_float(a), y = as_float(b);
  float xs = as_float(a & 0x807fffffu);              // subnormal (or 0)
  float ys = as_float(b & (c & 1u ? 0x807fffffu : 0x800000ffu));
  float xt = as_float((a & 0x807fffffu) | ((1u + (c >> 1) % 24u) << 23));  // tiny
  float yh = as_float((b & 0x807fffffu) | ((230u + (c >> 6) % 25u) << 23)); // huge
  // denominators whose quotient lands near overflow / the subnormal range
  uint ex = (a >> 23) & 0xffu;
  float yo = as_float((b & 0x807fffffu) | (((ex + 256u - 126u - (c >> 12) % 4u) & 0xffu) << 23));
  float yu = as_float((b & 0x807fffffu) | (((ex + 125u + (c >> 14) % 26u) % 255u) << 23));
  out[i * 8 + 0] = canon32(x / y);
  out[i * 8 + 1] = canon32(xs / y);
  out[i * 8 + 2] = canon32(x / ys);
  out[i * 8 + 3] = canon32(xs / ys);
  out[i * 8 + 4] = canon32(xt / yh);
  out[i * 8 + 5] = canon32(yh / xt);
  out[i * 8 + 6] = canon32(x / yo);
  out[i * 8 + 7] = canon32(x / yu);
}
kernel void scale_f32(global const uint *in, global uint *out) {
  uint i = get_global_id(0);
  uint a = in[i], b = in[i + 256];
  float x = as_float(a), xs = as_float(a & (b & 1u ? 0x807fffffu : 0x800000ffu));
  int k = (int)((b >> 1) % 601u) - 300;
  int e1, e2;
  float m1 = frexp(x, &e1), m2 = frexp(xs, &e2);
  out[i * 5 + 0] = canon32(m1);
  out[i * 5 + 1] = (uint)e1 ^ canon32(m2);
  out[i * 5 + 2] = (uint)e2;
  out[i * 5 + 3] = canon32(ldexp(x, k));
  out[i * 5 + 4] = canon32(ldexp(xs, k + 200)) ^ (uint)ilogb(xs);
}
kernel void log_exp_f32(global const uint *in, global uint *out) {
  uint i = get_global_id(0);
  uint a = in[i];
  float x = as_float(0x3f800000u + (a & 0xffffu) - 0x8000u);  // within 2^-8 of 1
  float y = as_float((a & 0x807fffffu) | ((120u + (a >> 16) % 14u) << 23));  // |y| < 64
  out[i * 6 + 0] = canon32(log(x));
  out[i * 6 + 1] = canon32(log2(x));
  out[i * 6 + 2] = canon32(log10(x));
  out[i * 6 + 3] = canon32(exp(y));
  out[i * 6 + 4] = canon32(exp2(y));
  out[i * 6 + 5] = canon32(log(as_float(a & 0x7fffffffu)));
}

// Double division (the v_div_scale / v_div_fmas / v_div_fixup macro) and
// fma() (f32 and f64, exact: backend/fma.c) on hard operands: any bits,
// denominators close in exponent, tiny (subnormal) and huge ones, subnormal
// numerators; NaN results are stored as one canonical NaN (payloads are
// not compared). (Single division is not here: OpenCL lets it be 2.5 ulp
// and the compiler's f32 sequence is not PoCL's correctly rounded one.)
//! run fdiv_f64 global=256 local=64
//! arg rand:1024
//! arg zero:8192
//! out 1
//! run fma_hard global=256 local=64
//! arg rand:1024
//! arg zero:4096
//! out 1
ulong canon64(double r) { return isnan(r) ? 0x7ff8000000000000UL : as_ulong(r); }
uint canon32(float r) { return isnan(r) ? 0x7fc00000u : as_uint(r); }
kernel void fdiv_f64(global const uint *in, global ulong *out) {
  uint i = get_global_id(0);
  uint a = in[i], b = in[i + 256], c = in[i + 512], d = in[i + 768];
  ulong pa = (ulong)a << 32 | b, pb = (ulong)c << 32 | d;
  double x = as_double(pa), y = as_double(pb);
  ulong ex = (pa >> 52) & 0x7ffUL;
  double yn = as_double((pb & 0x800fffffffffffffUL) | ((ex ^ (c & 63u)) << 52));
  double yt = as_double(pb & 0x801fffffffffffffUL);
  double yb = as_double((pb & 0x800fffffffffffffUL) | ((ulong)(2039 + (c & 7u)) << 52));
  double xs = as_double(pa & 0x803fffffffffffffUL);
  out[i * 4 + 0] = canon64(x / y);
  out[i * 4 + 1] = canon64(x / yn);
  out[i * 4 + 2] = canon64((c & 1u ? x : xs) / yt);
  out[i * 4 + 3] = canon64((c & 2u ? x : xs) / (c & 4u ? yb : yn));
}
kernel void fma_hard(global const uint *in, global uint *out) {
  uint i = get_global_id(0);
  uint a = in[i], b = in[i + 256], c = in[i + 512];
  float x = as_float(a), y = as_float(b), z = as_float(c);
  float yn = as_float((b & 0x807fffffu) | (((254u - ((a >> 23) & 0xffu)) & 0xffu) << 23));
  float p = x * yn;
  out[i * 4 + 0] = canon32(fma(x, y, z));
  out[i * 4 + 1] = canon32(fma(x, yn, -p));
  out[i * 4 + 2] = canon32(fma(x, yn, -p + as_float(c & 0x80ffffffu)));
  double dx = as_double((ulong)a << 32 | b), dy = as_double((ulong)b << 32 | c);
  double r = fma(dx, dy, -(dx * dy));
  out[i * 4 + 3] = (uint)(canon64(r) >> 32) ^ (uint)canon64(r);
}

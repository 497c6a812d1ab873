// Ours: pyopencl.clrandom's way to uniform floats (the generator's 32-bit
// words times 2^-32, as its PhiloxGenerator's kernels scale them) around
// Random123's philox4x32 (python3-pyopencl,
// /usr/lib/python3/dist-packages/pyopencl/cl/pyopencl-random123/philox.cl,
// Random123's BSD licence): a float and a double per word. Exact: the
// conversions and the multiplications by a power of two are correctly
// rounded on both sides.
//! source python3-pyopencl
//! options -I@python3-pyopencl@/usr/lib/python3/dist-packages/pyopencl/cl
//! run philox_u01 global=128 local=64
//! arg rand:16
//! arg zero:6144
//! out 1
#include <pyopencl-random123/philox.cl>
kernel void philox_u01(global const uint *in, global uint *out)
{
  const uint gid = get_global_id(0);
  philox4x32_key_t k = {{in[0], in[1]}};
  philox4x32_ctr_t c = {{gid, in[2], in[3], in[4]}};
  philox4x32_ctr_t r = philox4x32(c, k);
  global float *f = (global float *)out + gid * 4;
  global double *d = (global double *)(out + 512) + gid * 4;
  for (int i = 0; i < 4; i++) {
    f[i] = r.v[i] * 2.3283064365386963e-10f;
    d[i] = r.v[i] * 2.3283064365386963e-10 + 1.1641532182693481e-10;
  }
}

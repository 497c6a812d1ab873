// Ours: a wrapper kernel around Random123's philox2x32 (python3-pyopencl,
// /usr/lib/python3/dist-packages/pyopencl/cl/pyopencl-random123/philox.cl,
// Random123's BSD licence; what pyopencl.clrandom draws with): each
// work-item draws four counters' worth from a key and counter base in the
// input, its id in the counter.
//! source python3-pyopencl
//! options -I@python3-pyopencl@/usr/lib/python3/dist-packages/pyopencl/cl
//! run draw_philox2x32 global=128 local=64
//! arg rand:16
//! arg zero:4096
//! out 1
#include <pyopencl-random123/philox.cl>
kernel void draw_philox2x32(global const uint *in, global uint *out)
{
  const uint gid = get_global_id(0);
  philox2x32_key_t k;
  philox2x32_ctr_t c;
  for (int i = 0; i < sizeof(k.v) / sizeof(k.v[0]); i++) k.v[i] = in[i] | ((ulong)in[i + 4] << 32);
  for (int i = 0; i < sizeof(c.v) / sizeof(c.v[0]); i++) c.v[i] = in[i + 8] ^ ((ulong)in[(i + 1) & 7] << 32);
  c.v[0] = gid;
  global uint *o = (global uint *)out + gid * 4 * (sizeof(c.v) / sizeof(c.v[0]));
  for (int j = 0; j < 4; j++) {
    c.v[1] = j;
    philox2x32_ctr_t r = philox2x32(c, k);
    for (int i = 0; i < sizeof(r.v) / sizeof(r.v[0]); i++) o[j * (sizeof(r.v) / sizeof(r.v[0])) + i] = r.v[i];
  }
}

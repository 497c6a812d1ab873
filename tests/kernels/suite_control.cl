// Suite: divergent loops, nested divergent ifs, early exits.
//! run collatz global=512 local=64
//! arg small:512
//! arg zero:2048
//! out 1
//! run nested_ifs global=512 local=128
//! arg rand:512
//! arg zero:2048
//! out 1
//! run early_exit global=256 local=64
//! arg rand:256
//! arg zero:1024
//! out 1
kernel void collatz(global const uint *in, global uint *out) {
  uint x = in[get_global_id(0)] + 1u, n = 0;
  while (x != 1u && n < 1000u) {
    x = (x & 1u) ? 3u * x + 1u : x >> 1;
    n++;
  }
  out[get_global_id(0)] = n;
}
kernel void nested_ifs(global const uint *in, global uint *out) {
  uint x = in[get_global_id(0)], r;
  if (x & 1u) {
    if (x & 2u)
      r = x * 7u;
    else if (x & 4u)
      r = x ^ 0x5555u;
    else
      r = x >> 3;
  } else {
    r = 0;
    for (uint i = 0; i < (x & 7u); i++) {
      if ((x >> i) & 8u)
        r += i * x;
      else
        r -= x >> i;
    }
  }
  out[get_global_id(0)] = r;
}
kernel void early_exit(global const uint *in, global uint *out) {
  uint i = get_global_id(0);
  uint x = in[i];
  if ((x & 3u) == 0u)
    return;
  out[i] = 1u;
  for (uint k = 0; k < 16u; k++) {
    if (((x >> k) & 7u) == 5u)
      return;
    out[i] += k;
  }
  out[i] |= 0x80000000u;
}

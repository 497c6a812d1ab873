// Suite: data the compiler places in the code object's .rodata and reads
// with s_getpc-relative addresses (issue 4: `wavelift run` loads the code
// object's segments into guest memory, cli/launch.c): program-scope
// `constant` tables read by scalar and vector loads (bytes, words, 64-bit),
// and initialized private arrays indexed dynamically (clang copies their
// initializers from .rodata). Named to sort after every other suite file,
// so that the generators' seeds of the existing runs stay as they were.
//! run rodata_tables global=256 local=64
//! arg rand:256
//! arg zero:16384
//! out 1
//! run rodata_private global=256 local=64
//! arg rand:256
//! arg zero:12288
//! out 1
constant uint K32[64] = {
  0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
  0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
  0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
  0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
  0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
  0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
  0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
  0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u};
constant uchar SBOX[32] = {
  0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5, 0x30, 0x01, 0x67, 0x2b, 0xfe, 0xd7, 0xab, 0x76,
  0xca, 0x82, 0xc9, 0x7d, 0xfa, 0x59, 0x47, 0xf0, 0xad, 0xd4, 0xa2, 0xaf, 0x9c, 0xa4, 0x72, 0xc0};
constant ulong K64[8] = {
  0x6a09e667f3bcc908ul, 0xbb67ae8584caa73bul, 0x3c6ef372fe94f82bul, 0xa54ff53a5f1d36f1ul,
  0x510e527fade682d1ul, 0x9b05688c2b3e6c1ful, 0x1f83d9abfb41bd6bul, 0x5be0cd19137e2179ul};
constant float FT[8] = {0.5f, -1.25f, 3.0f, 1e-3f, -7.5f, 2.0e5f, 0.125f, -0.0f};

// 16 words per item: uniform (scalar) reads, per-lane (vector) reads of
// words, bytes, 64-bit words and floats, and a loop walking a table.
kernel void rodata_tables(global const uint *in, global uint *out) {
  uint i = get_global_id(0);
  uint x = in[i];
  global uint *o = out + i * 16;
  o[0] = K32[get_group_id(0) & 63];          // uniform index: s_load
  o[1] = K32[x & 63];                        // per-lane index
  o[2] = SBOX[(x >> 8) & 31];                // byte loads
  ulong q = K64[(x >> 16) & 7];
  o[3] = (uint)q;
  o[4] = (uint)(q >> 32);
  o[5] = as_uint(FT[(x >> 20) & 7] * (float)(x & 255));
  uint h = x;
  for (uint r = 0; r < (x & 7) + 1; r++)     // divergent loop over the table
    h = rotate(h, 7u) ^ K32[(h + r) & 63] ^ SBOX[h & 31];
  o[6] = h;
  uint s = 0;
  for (uint r = 0; r < 64; r++)              // uniform loop: scalar loads
    s = s * 33u + K32[r];
  o[7] = s;
  o[8] = K32[63 - (x & 63)] + SBOX[31 - ((x >> 3) & 31)];
  ulong q2 = K64[i & 7] ^ K64[(i >> 3) & 7];
  o[9] = (uint)q2;
  o[10] = (uint)(q2 >> 32);
  o[11] = K32[(x >> 26) & 63] ^ K32[(x >> 6) & 63];
  o[12] = SBOX[i & 31];
  o[13] = as_uint(FT[i & 7]);
  o[14] = i;
  o[15] = x;
}

// 12 words per item: initialized private arrays, read and written with
// indices only known at run time.
kernel void rodata_private(global const uint *in, global uint *out) {
  uint i = get_global_id(0);
  uint x = in[i];
  uint w[16] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au, 0x510e527fu, 0x9b05688cu,
                0x1f83d9abu, 0x5be0cd19u, 0xcbbb9d5du, 0x629a292au, 0x9159015au, 0x152fecd8u,
                0x67332667u, 0x8eb44a87u, 0xdb0c2e0du, 0x47b5481du};
  uchar b[24] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4};
  global uint *o = out + i * 12;
  o[0] = w[x & 15];
  o[1] = b[(x >> 4) % 24u];
  w[(x >> 8) & 15] ^= i;                     // a dynamic store into the copy
  b[(x >> 12) % 24u] += (uchar)x;
  o[2] = w[(x >> 16) & 15];
  o[3] = b[(x >> 20) % 24u];
  uint acc = 0;
  for (uint r = 0; r < 16; r++)
    acc = acc * 31u + w[(r + x) & 15] + b[(r * 5u + x) % 24u];
  o[4] = acc;
  for (uint r = 0; r < (x & 3) + 1; r++)     // divergent updates
    w[(x + r * 3u) & 15] = rotate(w[(x + r) & 15], r + 1u) + K32[(x + r) & 63];
  for (uint r = 0; r < 7; r++)
    o[5 + r] = w[(x * 7u + r) & 15] ^ b[(x + r * 11u) % 24u];
}

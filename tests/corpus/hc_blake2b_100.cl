// Ours: a wrapper kernel around hashcat's blake2b (hashcat-data,
// /usr/share/hashcat/OpenCL/inc_hash_blake2b.cl, MIT): each work-item hashes
// its 100-byte message (init, update, final) and stores the digest's bytes.
//! source hashcat-data
//! options -I@hashcat-data@/usr/share/hashcat/OpenCL
//! run blake2b_100 global=64 local=32
//! arg rand:4096
//! arg zero:4096
//! out 1
//! skip w32/wave the wave model's module takes minutes in lavapipe here (aes256 wave32: over 100 s of CPU); CI's budget
//! skip w64/wave the wave model's module takes minutes in lavapipe here (aes256 wave32: over 100 s of CPU); CI's budget
//! skip w64/S16 k = 4 and over: the module is over 90,000 SPIR-V words at k = 4 (lavapipe's compile time and memory: aes128 at k = 16 took 6.6 GB; CI's budget)
//! skip w32/S8 k = 4 and over: the module is over 90,000 SPIR-V words at k = 4 (lavapipe's compile time and memory: aes128 at k = 16 took 6.6 GB; CI's budget)
//! skip w32/S4 k = 4 and over: the module is over 90,000 SPIR-V words at k = 4 (lavapipe's compile time and memory: aes128 at k = 16 took 6.6 GB; CI's budget)
//! skip w64/S8 k = 4 and over: the module is over 90,000 SPIR-V words at k = 4 (lavapipe's compile time and memory: aes128 at k = 16 took 6.6 GB; CI's budget)
//! skip w64/S4 k = 4 and over: the module is over 90,000 SPIR-V words at k = 4 (lavapipe's compile time and memory: aes128 at k = 16 took 6.6 GB; CI's budget)
//! host 1 blake2b 100
#include "hashcat.h"
#include "inc_hash_blake2b.cl"
kernel void blake2b_100(global const u32 *in, global u32 *out)
{
  const u32 gid = get_global_id(0);
  u32 w[32];
  CORPUS_MSG(w, 32, in, gid, 100);
  blake2b_ctx_t ctx;
  blake2b_init(&ctx);
  blake2b_update(&ctx, w, 100);
  blake2b_final(&ctx);
  for (int i = 0; i < 8; i++) {
    out[gid * 16 + 2 * i] = l32_from_64_S(ctx.h[i]);
    out[gid * 16 + 2 * i + 1] = h32_from_64_S(ctx.h[i]);
  }
}

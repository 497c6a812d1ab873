// Ours: a wrapper kernel around hashcat's sha256 (hashcat-data,
// /usr/share/hashcat/OpenCL/inc_hash_sha256.cl, MIT): each work-item hashes
// its 150-byte message (init, update, final) and stores the digest's bytes.
//! source hashcat-data
//! options -I@hashcat-data@/usr/share/hashcat/OpenCL
//! run sha256_150 global=64 local=32
//! arg rand:4096
//! arg zero:2048
//! out 1
//! skip w32/S4 k = 8 and 16: the module is over 100,000 SPIR-V words (lavapipe's compile time; CI's budget)
//! skip w64/S8 k = 8 and 16: the module is over 100,000 SPIR-V words (lavapipe's compile time; CI's budget)
//! skip w64/S4 k = 8 and 16: the module is over 100,000 SPIR-V words (lavapipe's compile time; CI's budget)
//! host 1 sha256 150
#include "hashcat.h"
#include "inc_hash_sha256.cl"
kernel void sha256_150(global const u32 *in, global u32 *out)
{
  const u32 gid = get_global_id(0);
  u32 w[48];
  CORPUS_MSG(w, 48, in, gid, 150);
  sha256_ctx_t ctx;
  sha256_init(&ctx);
  sha256_update_swap(&ctx, w, 150);
  sha256_final(&ctx);
  for (int i = 0; i < 8; i++) out[gid * 8 + i] = hc_swap32_S(ctx.h[i]);
}

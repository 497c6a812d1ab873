// Ours: a wrapper kernel around hashcat's sha384 (hashcat-data,
// /usr/share/hashcat/OpenCL/inc_hash_sha384.cl, MIT): each work-item hashes
// its 111-byte message (init, update, final) and stores the digest's bytes.
//! source hashcat-data
//! options -I@hashcat-data@/usr/share/hashcat/OpenCL
//! run sha384_111 global=64 local=32
//! arg rand:4096
//! arg zero:3072
//! out 1
//! skip w32/S4 k = 8 and 16: the module is over 100,000 SPIR-V words (lavapipe's compile time; CI's budget)
//! skip w64/S8 k = 8 and 16: the module is over 100,000 SPIR-V words (lavapipe's compile time; CI's budget)
//! skip w64/S4 k = 8 and 16: the module is over 100,000 SPIR-V words (lavapipe's compile time; CI's budget)
//! host 1 sha384 111
#include "hashcat.h"
#include "inc_hash_sha384.cl"
kernel void sha384_111(global const u32 *in, global u32 *out)
{
  const u32 gid = get_global_id(0);
  u32 w[32];
  CORPUS_MSG(w, 32, in, gid, 111);
  sha384_ctx_t ctx;
  sha384_init(&ctx);
  sha384_update_swap(&ctx, w, 111);
  sha384_final(&ctx);
  for (int i = 0; i < 6; i++) {
    out[gid * 12 + 2 * i] = hc_swap32_S(h32_from_64_S(ctx.h[i]));
    out[gid * 12 + 2 * i + 1] = hc_swap32_S(l32_from_64_S(ctx.h[i]));
  }
}

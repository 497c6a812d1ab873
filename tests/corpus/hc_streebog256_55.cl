// Ours: a wrapper kernel around hashcat's streebog256 (hashcat-data,
// /usr/share/hashcat/OpenCL/inc_hash_streebog256.cl, MIT): each work-item hashes
// its 55-byte message (init, update, final) and stores the digest's bytes.
//! source hashcat-data
//! options -I@hashcat-data@/usr/share/hashcat/OpenCL
//! run streebog256_55 global=64 local=32
//! arg rand:4096
//! arg zero:2048
//! out 1

#include "hashcat.h"
#include "inc_hash_streebog256.cl"
kernel void streebog256_55(global const u32 *in, global u32 *out)
{
  const u32 gid = get_global_id(0);
  u32 w[16];
  CORPUS_MSG(w, 16, in, gid, 55);
  streebog256_ctx_t ctx;
  streebog256_init(&ctx, sbob256_sl64);
  streebog256_update_swap(&ctx, w, 55);
  streebog256_final(&ctx);
  for (int i = 0; i < 4; i++) {
    out[gid * 8 + 2 * i] = l32_from_64_S(ctx.h[i]);
    out[gid * 8 + 2 * i + 1] = h32_from_64_S(ctx.h[i]);
  }
}

// Ours: a wrapper kernel around hashcat's streebog512 (hashcat-data,
// /usr/share/hashcat/OpenCL/inc_hash_streebog512.cl, MIT): each work-item hashes
// its 55-byte message (init, update, final) and stores the digest's bytes.
//! source hashcat-data
//! options -I@hashcat-data@/usr/share/hashcat/OpenCL
//! run streebog512_55 global=64 local=32
//! arg rand:4096
//! arg zero:4096
//! out 1

#include "hashcat.h"
#include "inc_hash_streebog512.cl"
kernel void streebog512_55(global const u32 *in, global u32 *out)
{
  const u32 gid = get_global_id(0);
  u32 w[16];
  CORPUS_MSG(w, 16, in, gid, 55);
  streebog512_ctx_t ctx;
  streebog512_init(&ctx, sbob512_sl64);
  streebog512_update_swap(&ctx, w, 55);
  streebog512_final(&ctx);
  for (int i = 0; i < 8; i++) {
    out[gid * 16 + 2 * i] = l32_from_64_S(ctx.h[i]);
    out[gid * 16 + 2 * i + 1] = h32_from_64_S(ctx.h[i]);
  }
}

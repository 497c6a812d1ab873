// Ours: a wrapper kernel around hashcat's whirlpool (hashcat-data,
// /usr/share/hashcat/OpenCL/inc_hash_whirlpool.cl, MIT): each work-item hashes
// its 55-byte message (init, update, final) and stores the digest's bytes.
//! source hashcat-data
//! options -I@hashcat-data@/usr/share/hashcat/OpenCL
//! run whirlpool_55 global=64 local=32
//! arg rand:4096
//! arg zero:4096
//! out 1

#include "hashcat.h"
#include "inc_hash_whirlpool.cl"
kernel void whirlpool_55(global const u32 *in, global u32 *out)
{
  const u32 gid = get_global_id(0);
  u32 w[16];
  CORPUS_MSG(w, 16, in, gid, 55);
  whirlpool_ctx_t ctx;
  whirlpool_init(&ctx, MT0, MT1, MT2, MT3, MT4, MT5, MT6, MT7);
  whirlpool_update_swap(&ctx, w, 55);
  whirlpool_final(&ctx);
  for (int i = 0; i < 16; i++) out[gid * 16 + i] = hc_swap32_S(ctx.h[i]);
}

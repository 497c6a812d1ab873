// Ours: a wrapper kernel around hashcat's ripemd160 (hashcat-data,
// /usr/share/hashcat/OpenCL/inc_hash_ripemd160.cl, MIT): each work-item hashes
// its 55-byte message (init, update, final) and stores the digest's bytes.
//! source hashcat-data
//! options -I@hashcat-data@/usr/share/hashcat/OpenCL
//! run ripemd160_55 global=64 local=32
//! arg rand:4096
//! arg zero:1280
//! out 1
//! host 1 ripemd160 55
#include "hashcat.h"
#include "inc_hash_ripemd160.cl"
kernel void ripemd160_55(global const u32 *in, global u32 *out)
{
  const u32 gid = get_global_id(0);
  u32 w[16];
  CORPUS_MSG(w, 16, in, gid, 55);
  ripemd160_ctx_t ctx;
  ripemd160_init(&ctx);
  ripemd160_update(&ctx, w, 55);
  ripemd160_final(&ctx);
  for (int i = 0; i < 5; i++) out[gid * 5 + i] = ctx.h[i];
}

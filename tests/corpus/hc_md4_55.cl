// Ours: a wrapper kernel around hashcat's md4 (hashcat-data,
// /usr/share/hashcat/OpenCL/inc_hash_md4.cl, MIT): each work-item hashes
// its 55-byte message (init, update, final) and stores the digest's bytes.
//! source hashcat-data
//! options -I@hashcat-data@/usr/share/hashcat/OpenCL
//! run md4_55 global=64 local=32
//! arg rand:4096
//! arg zero:1024
//! out 1

#include "hashcat.h"
#include "inc_hash_md4.cl"
kernel void md4_55(global const u32 *in, global u32 *out)
{
  const u32 gid = get_global_id(0);
  u32 w[16];
  CORPUS_MSG(w, 16, in, gid, 55);
  md4_ctx_t ctx;
  md4_init(&ctx);
  md4_update(&ctx, w, 55);
  md4_final(&ctx);
  for (int i = 0; i < 4; i++) out[gid * 4 + i] = ctx.h[i];
}

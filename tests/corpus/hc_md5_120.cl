// Ours: a wrapper kernel around hashcat's md5 (hashcat-data,
// /usr/share/hashcat/OpenCL/inc_hash_md5.cl, MIT): each work-item hashes
// its 120-byte message (init, update, final) and stores the digest's bytes.
//! source hashcat-data
//! options -I@hashcat-data@/usr/share/hashcat/OpenCL
//! run md5_120 global=64 local=32
//! arg rand:4096
//! arg zero:1024
//! out 1
//! host 1 md5 120
#include "hashcat.h"
#include "inc_hash_md5.cl"
kernel void md5_120(global const u32 *in, global u32 *out)
{
  const u32 gid = get_global_id(0);
  u32 w[32];
  CORPUS_MSG(w, 32, in, gid, 120);
  md5_ctx_t ctx;
  md5_init(&ctx);
  md5_update(&ctx, w, 120);
  md5_final(&ctx);
  for (int i = 0; i < 4; i++) out[gid * 4 + i] = ctx.h[i];
}

// Ours: a wrapper kernel around hashcat's sha1 (hashcat-data,
// /usr/share/hashcat/OpenCL/inc_hash_sha1.cl, MIT): each work-item hashes
// its 55-byte message (init, update, final) and stores the digest's bytes.
//! source hashcat-data
//! options -I@hashcat-data@/usr/share/hashcat/OpenCL
//! run sha1_55 global=64 local=32
//! arg rand:4096
//! arg zero:1280
//! out 1
//! host 1 sha1 55
#include "hashcat.h"
#include "inc_hash_sha1.cl"
kernel void sha1_55(global const u32 *in, global u32 *out)
{
  const u32 gid = get_global_id(0);
  u32 w[16];
  CORPUS_MSG(w, 16, in, gid, 55);
  sha1_ctx_t ctx;
  sha1_init(&ctx);
  sha1_update_swap(&ctx, w, 55);
  sha1_final(&ctx);
  for (int i = 0; i < 5; i++) out[gid * 5 + i] = hc_swap32_S(ctx.h[i]);
}

// Ours: a wrapper kernel around hashcat's sha224 (hashcat-data,
// /usr/share/hashcat/OpenCL/inc_hash_sha224.cl, MIT): each work-item hashes
// its 55-byte message (init, update, final) and stores the digest's bytes.
//! source hashcat-data
//! options -I@hashcat-data@/usr/share/hashcat/OpenCL
//! run sha224_55 global=64 local=32
//! arg rand:4096
//! arg zero:1792
//! out 1
//! host 1 sha224 55
#include "hashcat.h"
#include "inc_hash_sha224.cl"
kernel void sha224_55(global const u32 *in, global u32 *out)
{
  const u32 gid = get_global_id(0);
  u32 w[16];
  CORPUS_MSG(w, 16, in, gid, 55);
  sha224_ctx_t ctx;
  sha224_init(&ctx);
  sha224_update_swap(&ctx, w, 55);
  sha224_final(&ctx);
  for (int i = 0; i < 7; i++) out[gid * 7 + i] = hc_swap32_S(ctx.h[i]);
}

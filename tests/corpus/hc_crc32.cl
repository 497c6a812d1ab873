// Ours: a wrapper kernel around hashcat's CRC-32 (hashcat-data,
// /usr/share/hashcat/OpenCL/inc_truecrypt_crc32.cl, MIT: TrueCrypt's
// keyfile CRC, a 256-entry constant table): each work-item folds its 64
// words, a byte at a time (round_crc32) and a word at a time
// (round_crc32_4).
//! source hashcat-data
//! options -I@hashcat-data@/usr/share/hashcat/OpenCL
//! run crc32 global=64 local=32
//! arg rand:4096
//! arg zero:512
//! out 1
//! quick
#include "hashcat.h"
#include "inc_truecrypt_crc32.cl"
kernel void crc32(global const u32 *in, global u32 *out)
{
  const u32 gid = get_global_id(0);
  u32 a = ~0u, b = ~0u;
  for (int i = 0; i < 64; i++) {
    const u32 w = in[gid * 64 + i];
    a = round_crc32(a, w & 255u);
    a = round_crc32(a, (w >> 8) & 255u);
    a = round_crc32(a, (w >> 16) & 255u);
    a = round_crc32(a, w >> 24);
    b = round_crc32_4(w, b);
  }
  out[gid * 2] = ~a;
  out[gid * 2 + 1] = b;
}

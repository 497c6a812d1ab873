// Ours: a wrapper kernel around hashcat's RC4 (hashcat-data,
// /usr/share/hashcat/OpenCL/inc_cipher_rc4.cl, MIT): each work-item keeps
// its 256-byte state in LDS, interleaved with its neighbours' (hashcat's
// KEY8 layout: byte accesses to local memory), sets it up from a 128-bit
// key and encrypts 32 bytes.
//! source hashcat-data
//! options -I@hashcat-data@/usr/share/hashcat/OpenCL
//! run rc4 global=64 local=32
//! arg rand:1024
//! arg zero:2048
//! out 1
//! host 1 rc4 0
//! pocl-wrong PoCL 3.1 gives bytes that are not RC4 with the state in LDS (the translation gives RC4)
//! skip w32/wave the wave model's module takes minutes in lavapipe here (aes256 wave32: over 100 s of CPU); CI's budget
//! skip w64/wave the wave model's module takes minutes in lavapipe here (aes256 wave32: over 100 s of CPU); CI's budget
//! skip w64/S16 k = 4 and over: the module is over 90,000 SPIR-V words at k = 4 (lavapipe's compile time and memory: aes128 at k = 16 took 6.6 GB; CI's budget)
//! skip w32/S8 k = 4 and over: the module is over 90,000 SPIR-V words at k = 4 (lavapipe's compile time and memory: aes128 at k = 16 took 6.6 GB; CI's budget)
//! skip w32/S4 k = 4 and over: the module is over 90,000 SPIR-V words at k = 4 (lavapipe's compile time and memory: aes128 at k = 16 took 6.6 GB; CI's budget)
//! skip w64/S8 k = 4 and over: the module is over 90,000 SPIR-V words at k = 4 (lavapipe's compile time and memory: aes128 at k = 16 took 6.6 GB; CI's budget)
//! skip w64/S4 k = 4 and over: the module is over 90,000 SPIR-V words at k = 4 (lavapipe's compile time and memory: aes128 at k = 16 took 6.6 GB; CI's budget)
#define FIXED_LOCAL_SIZE 32
#include "hashcat.h"
#include "inc_cipher_rc4.cl"
kernel void rc4(global const u32 *in, global u32 *out)
{
  const u32 gid = get_global_id(0), lid = get_local_id(0);
  LOCAL_VK u32 S[64 * FIXED_LOCAL_SIZE];
  u32 key[4], pt[8], ct[8];
  for (int i = 0; i < 4; i++) key[i] = in[gid * 16 + i];
  for (int i = 0; i < 8; i++) pt[i] = in[gid * 16 + 8 + i];
  rc4_init_128(S, key, lid);
  u8 j = rc4_next_16(S, 0, 0, pt, ct, lid);
  rc4_next_16(S, 16, j, pt + 4, ct + 4, lid);
  for (int i = 0; i < 8; i++) out[gid * 8 + i] = ct[i];
}

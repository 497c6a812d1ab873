// Ours: a wrapper kernel around hashcat's serpent (hashcat-data,
// /usr/share/hashcat/OpenCL/inc_cipher_serpent.cl, MIT): each work-item takes
// its key (256 bits) and a 16-byte block from the input, sets up the key
// schedule, encrypts the block and decrypts the ciphertext; it stores
// both (PoCL is the oracle; the decryption must give the block back).
//! source hashcat-data
//! options -I@hashcat-data@/usr/share/hashcat/OpenCL
//! run serpent256 global=64 local=32
//! arg rand:1024
//! arg zero:2048
//! out 1
//! skip w32/S4 k = 8 and 16: the module is over 100,000 SPIR-V words (lavapipe's compile time; CI's budget)
//! skip w64/S8 k = 8 and 16: the module is over 100,000 SPIR-V words (lavapipe's compile time; CI's budget)
//! skip w64/S4 k = 8 and 16: the module is over 100,000 SPIR-V words (lavapipe's compile time; CI's budget)

#include "hashcat.h"
#include "inc_cipher_serpent.cl"
kernel void serpent256(global const u32 *in, global u32 *out)
{
  const u32 gid = get_global_id(0);
  u32 ukey[8], pt[4], ct[4], dt[4];
  for (int i = 0; i < 8; i++) ukey[i] = in[gid * 16 + i];
  for (int i = 0; i < 4; i++) pt[i] = in[gid * 16 + 8 + i];
  u32 ks[140];
  serpent256_set_key(ks, ukey);
  serpent256_encrypt(ks, pt, ct);
  serpent256_decrypt(ks, ct, dt);
  for (int i = 0; i < 4; i++) {
    out[gid * 8 + i] = ct[i];
    out[gid * 8 + 4 + i] = dt[i];
  }
}

// Ours: a wrapper kernel around hashcat's aes (hashcat-data,
// /usr/share/hashcat/OpenCL/inc_cipher_aes.cl, MIT): each work-item takes
// its key (128 bits) and a 16-byte block from the input, sets up the key
// schedule, encrypts the block and decrypts the ciphertext; it stores
// both (PoCL is the oracle; the decryption must give the block back).
//! source hashcat-data
//! options -I@hashcat-data@/usr/share/hashcat/OpenCL
//! run aes128 global=64 local=32
//! arg rand:1024
//! arg zero:2048
//! out 1
//! host 1 aes128 0
//! skip w64/S16 k = 4 and over: the module is over 90,000 SPIR-V words at k = 4 (lavapipe's compile time and memory: aes128 at k = 16 took 6.6 GB; CI's budget)
//! skip w32/S8 k = 4 and over: the module is over 90,000 SPIR-V words at k = 4 (lavapipe's compile time and memory: aes128 at k = 16 took 6.6 GB; CI's budget)
//! skip w32/S4 k = 4 and over: the module is over 90,000 SPIR-V words at k = 4 (lavapipe's compile time and memory: aes128 at k = 16 took 6.6 GB; CI's budget)
//! skip w64/S8 k = 4 and over: the module is over 90,000 SPIR-V words at k = 4 (lavapipe's compile time and memory: aes128 at k = 16 took 6.6 GB; CI's budget)
//! skip w64/S4 k = 4 and over: the module is over 90,000 SPIR-V words at k = 4 (lavapipe's compile time and memory: aes128 at k = 16 took 6.6 GB; CI's budget)

#include "hashcat.h"
#include "inc_cipher_aes.cl"
kernel void aes128(global const u32 *in, global u32 *out)
{
  const u32 gid = get_global_id(0);
  u32 ukey[8], pt[4], ct[4], dt[4];
  for (int i = 0; i < 8; i++) ukey[i] = in[gid * 16 + i];
  for (int i = 0; i < 4; i++) pt[i] = in[gid * 16 + 8 + i];
  u32 ks[60];
  aes128_set_encrypt_key(ks, ukey, te0, te1, te2, te3);
  aes128_encrypt(ks, pt, ct, te0, te1, te2, te3, te4);
  aes128_set_decrypt_key(ks, ukey, te0, te1, te2, te3, td0, td1, td2, td3);
  aes128_decrypt(ks, ct, dt, td0, td1, td2, td3, td4);
  for (int i = 0; i < 4; i++) {
    out[gid * 8 + i] = ct[i];
    out[gid * 8 + 4 + i] = dt[i];
  }
}

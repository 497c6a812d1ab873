// Ours: a wrapper kernel around hashcat's twofish (hashcat-data,
// /usr/share/hashcat/OpenCL/inc_cipher_twofish.cl, MIT): each work-item takes
// its key (256 bits) and a 16-byte block from the input, sets up the key
// schedule, encrypts the block and decrypts the ciphertext; it stores
// both (PoCL is the oracle; the decryption must give the block back).
//! source hashcat-data
//! options -I@hashcat-data@/usr/share/hashcat/OpenCL
//! run twofish256 global=64 local=32
//! arg rand:1024
//! arg zero:2048
//! out 1

#include "hashcat.h"
#include "inc_cipher_twofish.cl"
kernel void twofish256(global const u32 *in, global u32 *out)
{
  const u32 gid = get_global_id(0);
  u32 ukey[8], pt[4], ct[4], dt[4];
  for (int i = 0; i < 8; i++) ukey[i] = in[gid * 16 + i];
  for (int i = 0; i < 4; i++) pt[i] = in[gid * 16 + 8 + i];
  u32 sk[4], lk[40];
  twofish256_set_key(sk, lk, ukey);
  twofish256_encrypt(sk, lk, pt, ct);
  twofish256_decrypt(sk, lk, ct, dt);
  for (int i = 0; i < 4; i++) {
    out[gid * 8 + i] = ct[i];
    out[gid * 8 + 4 + i] = dt[i];
  }
}

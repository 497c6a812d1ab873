// Ours: a wrapper kernel around hashcat's des (hashcat-data,
// /usr/share/hashcat/OpenCL/inc_cipher_des.cl, MIT): each work-item takes
// its key (56 bits) and a 16-byte block from the input, sets up the key
// schedule, encrypts the block and decrypts the ciphertext; it stores
// both (PoCL is the oracle; the decryption must give the block back).
//! source hashcat-data
//! options -I@hashcat-data@/usr/share/hashcat/OpenCL
//! run des global=64 local=32
//! arg rand:1024
//! arg zero:2048
//! out 1
//! skip w64/S4 k = 16: the module is over 60,000 SPIR-V words (lavapipe's compile time; CI's budget)

#include "hashcat.h"
#include "inc_cipher_des.cl"
kernel void des(global const u32 *in, global u32 *out)
{
  const u32 gid = get_global_id(0);
  u32 ukey[8], pt[4], ct[4], dt[4];
  for (int i = 0; i < 8; i++) ukey[i] = in[gid * 16 + i];
  for (int i = 0; i < 4; i++) pt[i] = in[gid * 16 + 8 + i];
  u32 Kc[16], Kd[16];
  _des_crypt_keysetup(ukey[0], ukey[1], Kc, Kd, c_skb);
  _des_crypt_encrypt(ct, pt, Kc, Kd, c_SPtrans);
  _des_crypt_decrypt(dt, ct, Kc, Kd, c_SPtrans);
  ct[2] = ct[3] = dt[2] = dt[3] = 0;
  for (int i = 0; i < 4; i++) {
    out[gid * 8 + i] = ct[i];
    out[gid * 8 + 4 + i] = dt[i];
  }
}

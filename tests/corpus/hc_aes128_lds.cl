// Ours: a wrapper kernel around hashcat's AES (hashcat-data,
// /usr/share/hashcat/OpenCL/inc_cipher_aes.cl, MIT) built as hashcat builds
// it for GPUs with local memory (LOCAL_MEM_TYPE 1: REAL_SHM): the group
// copies the ten 256-entry tables into LDS, waits at a barrier, then each
// work-item sets up its AES-128 key, encrypts its block and decrypts it.
//! source hashcat-data
//! options -I@hashcat-data@/usr/share/hashcat/OpenCL
//! run aes128_lds global=64 local=32
//! arg rand:1024
//! arg zero:2048
//! out 1
//! host 1 aes128 0
//! pocl-wrong PoCL 3.1 gives a cipher that is not AES with the tables in LDS (AES with them in constant memory)
//! skip w64/S16 k = 4 and over: the module is over 90,000 SPIR-V words at k = 4 (lavapipe's compile time and memory: aes128 at k = 16 took 6.6 GB; CI's budget)
//! skip w32/S8 k = 4 and over: the module is over 90,000 SPIR-V words at k = 4 (lavapipe's compile time and memory: aes128 at k = 16 took 6.6 GB; CI's budget)
//! skip w32/S4 k = 4 and over: the module is over 90,000 SPIR-V words at k = 4 (lavapipe's compile time and memory: aes128 at k = 16 took 6.6 GB; CI's budget)
//! skip w64/S8 k = 4 and over: the module is over 90,000 SPIR-V words at k = 4 (lavapipe's compile time and memory: aes128 at k = 16 took 6.6 GB; CI's budget)
//! skip w64/S4 k = 4 and over: the module is over 90,000 SPIR-V words at k = 4 (lavapipe's compile time and memory: aes128 at k = 16 took 6.6 GB; CI's budget)
#define LOCAL_MEM_TYPE 1
#include "hashcat.h"
#include "inc_cipher_aes.cl"
kernel void aes128_lds(global const u32 *in, global u32 *out)
{
  const u32 gid = get_global_id(0), lid = get_local_id(0), lsz = get_local_size(0);
  LOCAL_VK u32 s_te0[256], s_te1[256], s_te2[256], s_te3[256], s_te4[256];
  LOCAL_VK u32 s_td0[256], s_td1[256], s_td2[256], s_td3[256], s_td4[256];
  for (u32 i = lid; i < 256; i += lsz) {
    s_te0[i] = te0[i]; s_te1[i] = te1[i]; s_te2[i] = te2[i]; s_te3[i] = te3[i]; s_te4[i] = te4[i];
    s_td0[i] = td0[i]; s_td1[i] = td1[i]; s_td2[i] = td2[i]; s_td3[i] = td3[i]; s_td4[i] = td4[i];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  u32 ukey[4], pt[4], ct[4], dt[4], ks[60];
  for (int i = 0; i < 4; i++) ukey[i] = in[gid * 16 + i];
  for (int i = 0; i < 4; i++) pt[i] = in[gid * 16 + 8 + i];
  aes128_set_encrypt_key(ks, ukey, s_te0, s_te1, s_te2, s_te3);
  aes128_encrypt(ks, pt, ct, s_te0, s_te1, s_te2, s_te3, s_te4);
  aes128_set_decrypt_key(ks, ukey, s_te0, s_te1, s_te2, s_te3, s_td0, s_td1, s_td2, s_td3);
  aes128_decrypt(ks, ct, dt, s_td0, s_td1, s_td2, s_td3, s_td4);
  for (int i = 0; i < 4; i++) {
    out[gid * 8 + i] = ct[i];
    out[gid * 8 + 4 + i] = dt[i];
  }
}

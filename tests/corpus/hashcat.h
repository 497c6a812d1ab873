/* Ours: what hashcat's host code passes to its OpenCL C library (the
 * hashcat-data package's /usr/share/hashcat/OpenCL, included through -I):
 * scalar code (VECT_SIZE 1), the kernels' static build (KERNEL_STATIC), no
 * vendor (IS_GENERIC: the portable paths, the same source for PoCL and
 * amdgcn), and the digest layout hash_comp reads. Functions are
 * `inline static`, as inc_vendor.h makes them for AMD GPUs, so that only
 * what a kernel calls is compiled. */
#define VECT_SIZE 1
#define KERNEL_STATIC
#define DGST_ELEM 4
#define DGST_R0 0
#define DGST_R1 1
#define DGST_R2 2
#define DGST_R3 3
#include "inc_vendor.h"
#undef DECLSPEC
#define DECLSPEC inline static
#include "inc_types.h"
#include "inc_platform.cl"
#include "inc_common.cl"
#include "corpus.h"

/* A 256-bit-key block cipher's round trip, one work-item a block: the key
 * (8 words) and a 16-byte block from in[gid * 16 ..], the ciphertext and
 * its decryption to out[gid * 8 ..] (PoCL is the oracle; the decryption
 * must give the block back). KS: the key schedule's words. */
#define HC_CIPHER256_ROUNDTRIP(NAME, KS)                                  \
  kernel void NAME(global const u32 *in, global u32 *out)                 \
  {                                                                       \
    const u32 gid = get_global_id(0);                                     \
    u32 ukey[8], pt[4], ct[4], dt[4];                                     \
    for (int i = 0; i < 8; i++) ukey[i] = in[gid * 16 + i];               \
    for (int i = 0; i < 4; i++) pt[i] = in[gid * 16 + 8 + i];             \
    u32 ks[KS];                                                           \
    NAME##_set_key(ks, ukey);                                             \
    NAME##_encrypt(ks, pt, ct);                                           \
    NAME##_decrypt(ks, ct, dt);                                           \
    for (int i = 0; i < 4; i++) {                                         \
      out[gid * 8 + i] = ct[i];                                           \
      out[gid * 8 + 4 + i] = dt[i];                                       \
    }                                                                     \
  }

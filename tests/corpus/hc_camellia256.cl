// Ours: a wrapper kernel around hashcat's camellia (hashcat-data,
// /usr/share/hashcat/OpenCL/inc_cipher_camellia.cl, MIT): each work-item takes
// its key (256 bits) and a 16-byte block from the input, sets up the key
// schedule, encrypts the block and decrypts the ciphertext; it stores
// both (PoCL is the oracle; the decryption must give the block back).
//! source hashcat-data
//! options -I@hashcat-data@/usr/share/hashcat/OpenCL
//! run camellia256 global=64 local=32
//! arg rand:1024
//! arg zero:2048
//! out 1
//! skip w32/S4 k = 8 and 16: the module is over 100,000 SPIR-V words (lavapipe's compile time; CI's budget)
//! skip w64/S8 k = 8 and 16: the module is over 100,000 SPIR-V words (lavapipe's compile time; CI's budget)
//! skip w64/S4 k = 8 and 16: the module is over 100,000 SPIR-V words (lavapipe's compile time; CI's budget)

#include "hashcat.h"
#include "inc_cipher_camellia.cl"
HC_CIPHER256_ROUNDTRIP(camellia256, 68)

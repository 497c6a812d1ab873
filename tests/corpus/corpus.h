/* Ours: helpers of the corpus's wrapper kernels (tests/corpus/). */
#ifndef CORPUS_H
#define CORPUS_H
/* Work-item gid's message: LEN bytes of `in` from byte gid * 256, as NW
 * little-endian words in w (the bytes past LEN zero, as hashcat's update
 * functions require). The host reference (hostref.py) hashes the same
 * bytes. */
#define CORPUS_MSG(w, NW, in, gid, LEN)                                        \
  for (int i_ = 0; i_ < (NW); i_++) {                                          \
    const uint v_ = (in)[(gid) * 64 + i_];                                     \
    const int b_ = (LEN) - i_ * 4;                                             \
    (w)[i_] = b_ >= 4 ? v_ : b_ <= 0 ? 0u : (v_ & ((1u << (b_ * 8)) - 1u));    \
  }
#endif

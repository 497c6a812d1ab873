#!/usr/bin/env python3
"""Host reference of the corpus's hash wrappers (tests/test_corpus.c).

    hostref.py ALGO LEN INPUT COUNT OUTPUT

Writes to OUTPUT the digests, one after the other, of COUNT messages: the
message of work-item i is LEN bytes of INPUT from byte i * 256 (the
wrappers' CORPUS_MSG, tests/corpus/corpus.h). ALGO is a hashlib name, or
aes128 (LEN unused): work-item i's AES-128 key is the 16 bytes of INPUT
from i * 64, its block the 16 from i * 64 + 32, and it writes the block
encrypted, then the block (the cipher wrappers' layout; Python's
cryptography package, python3-cryptography); or rc4: work-item i's key is
the 16 bytes from i * 64, and it writes the 32 bytes from i * 64 + 32
encrypted (RC4 written out here, from its definition).
"""
import hashlib
import sys


def data_at(data, at, n):
    return data[at:at + n]


def main():
    algo, length, src, count, dst = sys.argv[1:6]
    length, count = int(length), int(count)
    data = open(src, "rb").read()
    out = bytearray()
    if algo == "rc4":
        for i in range(count):
            key, text = data_at(data, i * 64, 16), data_at(data, i * 64 + 32, 32)
            S, j = list(range(256)), 0
            for a in range(256):
                j = (j + S[a] + key[a % 16]) & 255
                S[a], S[j] = S[j], S[a]
            a = j = 0
            for b in text:
                a = (a + 1) & 255
                j = (j + S[a]) & 255
                S[a], S[j] = S[j], S[a]
                out.append(b ^ S[(S[a] + S[j]) & 255])
        open(dst, "wb").write(out)
        return
    if algo == "aes128":
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
        for i in range(count):
            key, block = data[i * 64:i * 64 + 16], data[i * 64 + 32:i * 64 + 48]
            enc = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
            out += enc.update(block) + enc.finalize() + block
        open(dst, "wb").write(out)
        return
    for i in range(count):
        msg = data[i * 256:i * 256 + length]
        if len(msg) != length:
            sys.exit("hostref.py: %s holds no %d bytes at %d" % (src, length, i * 256))
        out += hashlib.new(algo, msg).digest()
    open(dst, "wb").write(out)


if __name__ == "__main__":
    main()

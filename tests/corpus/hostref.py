#!/usr/bin/env python3
"""Host reference of the corpus's hash wrappers (tests/test_corpus.c).

    hostref.py ALGO LEN INPUT COUNT OUTPUT

Writes to OUTPUT the digests, one after the other, of COUNT messages: the
message of work-item i is LEN bytes of INPUT from byte i * 256 (the
wrappers' CORPUS_MSG, tests/corpus/corpus.h). ALGO is a hashlib name.
"""
import hashlib
import sys


def main():
    algo, length, src, count, dst = sys.argv[1:6]
    length, count = int(length), int(count)
    data = open(src, "rb").read()
    out = bytearray()
    for i in range(count):
        msg = data[i * 256:i * 256 + length]
        if len(msg) != length:
            sys.exit("hostref.py: %s holds no %d bytes at %d" % (src, length, i * 256))
        out += hashlib.new(algo, msg).digest()
    open(dst, "wb").write(out)


if __name__ == "__main__":
    main()

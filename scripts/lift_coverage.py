#!/usr/bin/env python3
"""Lists every gfx10 VOP1/VOP2/VOPC/VOP3/VOP3P/MUBUF/MTBUF opcode that LLVM 19
accepts, as one instruction each, for tests/test_lift_coverage.c.

For gfx1010 and gfx1030 the script disassembles probe encodings of every
opcode number with llvm-mc-19 (register operands first; sources in SGPRs,
or zero, where LLVM rejects VGPRs), takes LLVM's text of each accepted one,
and assembles that text again with llvm-mc-19 -show-encoding, so that the
bytes written are LLVM's own encoding of a complete instruction (literals
included). The output, one line an opcode:

    FORMAT OPCODE BYTES TEXT

(BYTES as hex, TEXT as LLVM prints it) goes to
tests/lift/coverage_<cpu>.txt. The files are committed; the test reads
them and lifts each line in wave64 and wave32.

Run:  python3 scripts/lift_coverage.py [--llvm-mc llvm-mc-19]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_vop3_tables as g3  # noqa: E402  (Oracle, enc_vop3, enc_vop3p)
import gen_mem_tables as gm   # noqa: E402  (mubuf_enc, mtbuf_enc)

CPUS = ["gfx1010", "gfx1030"]
V0, V2, V6 = 256, 258, 262


def vop1(op, s0=V0):
    return [0x7e000000 | (4 << 17) | (op << 9) | s0]


def vop2(op, s0=V0):
    return [(op << 25) | (4 << 17) | (2 << 9) | s0]


def vopc(op, s0=V0):
    return [0x7c000000 | (op << 17) | (2 << 9) | s0]


def variants(fmt, op):
    """Probe encodings of one opcode, the most ordinary first."""
    if fmt == "VOP1":
        return [vop1(op), vop1(op, 2)]
    if fmt == "VOP2":  # the madak/madmk forms take a literal dword
        return [vop2(op), vop2(op, 2), vop2(op) + [0x3c00]]
    if fmt == "VOPC":
        return [vopc(op), vopc(op, 2)]
    if fmt in ("VOP3", "VOP3P"):
        mk = g3.enc_vop3 if fmt == "VOP3" else g3.enc_vop3p
        hi, om = (0x40, 3) if fmt == "VOP3P" else (0, 0)
        out = []
        for vd in (4, 0):
            for s in ((V0, V2, V6), (V0, 2, V6), (2, V0, V6), (2, 6, V6), (V0, V2, 0),
                      (V0, 2, 0), (2, 6, 0), (V0, 0, 0), (2, 0, 0), (0, 0, 0)):
                out.append(mk(op, vdst=vd, s0=s[0], s1=s[1], s2=s[2], hi=hi, omod=om))
        return out
    if fmt == "MUBUF":
        return [gm.mubuf_enc(op, 1 << 12), gm.mubuf_enc(op, 0, 0, 0, 0, 0)]
    return [gm.mtbuf_enc(op, 1 << 12), gm.mtbuf_enc(op, 0, 0, 0, 0, 0)]


NOPS = {"VOP1": 256, "VOP2": 64, "VOPC": 256, "VOP3": 1024, "VOP3P": 128,
        "MUBUF": 256, "MTBUF": 16}


def enumerate_cpu(oracle, mc, cpu):
    """{(fmt, op): (text, bytes)}: the first probe of each opcode that LLVM
    disassembles and whose text it assembles again."""
    found = {}
    for fmt, n in NOPS.items():
        todo = list(range(n))
        k = 0
        while todo:
            probes, owners = [], []
            for op in todo:
                v = variants(fmt, op)
                if k < len(v):
                    probes.append(v[k])
                    owners.append(op)
            if not probes:
                break
            res = oracle.run(probes, cpu, True)
            cand = [(op, g3.strip_comments(t).strip()) for op, t in zip(owners, res) if t]
            encs = assemble(mc, cpu, [t for _, t in cand])
            for (op, t), e in zip(cand, encs):
                if e:
                    found[(fmt, op)] = (t, e)
            todo = [op for op in owners if (fmt, op) not in found]
            k += 1
    return found


def assemble(mc, cpu, texts):
    """LLVM's encoding of each text (None where it does not assemble), in
    one llvm-mc call: lines with an error are left out of its output."""
    if not texts:
        return []
    with tempfile.TemporaryDirectory() as td:
        path = os.path.join(td, "a.s")
        with open(path, "w") as f:
            f.write("\n".join(texts) + "\n")
        r = subprocess.run([mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + cpu,
                            "-mattr=+wavefrontsize64", "-show-encoding", path],
                           capture_output=True, text=True)
    bad = {int(m.group(1)) - 1 for m in re.finditer(r"a\.s:(\d+):\d+: error", r.stderr)}
    encs = re.findall(r"encoding: \[([^\]]*)\]", r.stdout)
    out, i = [], 0
    for n in range(len(texts)):
        if n in bad or i >= len(encs):
            out.append(None)
            continue
        out.append("".join("%02x" % int(x, 0) for x in encs[i].split(",")))
        i += 1
    if i != len(encs):
        sys.exit("llvm-mc output does not match its input (%d encodings, %d used)" % (len(encs), i))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llvm-mc", default="llvm-mc-19")
    ap.add_argument("--out", default=os.path.join(HERE, "..", "tests", "lift"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    with tempfile.TemporaryDirectory() as td:
        oracle = g3.Oracle(args.llvm_mc, td)
        for cpu in CPUS:
            found = enumerate_cpu(oracle, args.llvm_mc, cpu)
            keys = sorted(found, key=lambda k: (list(NOPS).index(k[0]), k[1]))
            lines = ["%s %d %s %s" % (k[0], k[1], found[k][1], found[k][0]) for k in keys]
            path = os.path.join(args.out, "coverage_%s.txt" % cpu)
            with open(path, "w") as f:
                f.write("# Generated by scripts/lift_coverage.py from llvm-mc-19 (%s): "
                        "FORMAT OPCODE BYTES TEXT\n" % cpu)
                f.write("\n".join(lines) + "\n")
            print("%s: %d opcodes" % (cpu, len(lines)), file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Generates frontend/isa/tables/valu_<isa>.inc: the VOP1, VOP2 and VOPC opcode
tables of the gfx10 decoder (32-bit VALU encodings with their SDWA, DPP16 and
DPP8 forms) for gfx1010, gfx1013 and gfx1030.

The tables are learnt from LLVM 19: for every opcode number of each format the
script writes probe encodings (plain e32 with VGPR operands, with literals of
chosen bit patterns, the VOP3 form with a literal src1, SDWA/DPP16/DPP8 with
each optional field set on its own), disassembles them with llvm-mc-19 and
reads off the mnemonic, the operand shapes and register widths, the operand
types (how constants print), and which SDWA/DPP fields LLVM accepts.

Usage: scripts/gen_valu_tables.py [--llvm-mc llvm-mc-19] [--out frontend/isa/tables]
The generated files are committed; the build does not run this script.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ISAS = [("gfx1010", "GFX1010"), ("gfx1013", "GFX1013"), ("gfx1030", "GFX1030")]
FORMATS = [("VOP1", 256), ("VOP2", 62), ("VOPC", 256)]

# Probe register numbers.
VDST, VSRC0, VSRC1 = 10, 20, 30
KLIT = 0x11223344

# Flags and extra bits; must match frontend/isa/valu_internal.h.
FLAGS = {
    "E32_SUFFIX": 0x0001, "NO_OPS": 0x0002, "SDST": 0x0004, "VCC_DST": 0x0008,
    "VCC_SRC": 0x0010, "MADMK": 0x0020, "MADAK": 0x0040, "CMPX": 0x0080,
    "SDWA": 0x0100, "DPP": 0x0200, "DPP8": 0x0400, "VOPC_VCC": 0x0800,
}
EXTRA = {
    "SDWA_DST": 1 << 0, "SDWA_CLAMP": 1 << 1, "SDWA_OMOD": 1 << 2,
    "SDWA_S0": 1 << 3, "SDWA_S1": 1 << 4, "SDWA_SRC0_FMODS": 1 << 5,
    "SDWA_SRC0_SEXT": 1 << 6, "SDWA_SRC1_FMODS": 1 << 7,
    "SDWA_SRC1_SEXT": 1 << 8, "SDWA_SD": 1 << 9, "SDWA_SRC1": 1 << 10,
    "DPP_SRC0_MODS": 1 << 11, "DPP_SRC1_MODS": 1 << 12,
    "SDWA_SRC0_I16": 1 << 13, "SDWA_SRC1_I16": 1 << 14,
    "DPP_SRC0_SEXT": 1 << 15, "DPP_SRC1_SEXT": 1 << 16,
    "DPP_SRC0_SILENT": 1 << 17, "DPP_SRC1_SILENT": 1 << 18,
}


def bytes_line(words):
    return ",".join("0x%02x" % b for w in words for b in (w & 0xffffffff).to_bytes(4, "little"))


def marker(n):
    v = (n + 1) & 0xffff
    return ",".join(["0x%02x,0x%02x,0x80,0xbf" % (v & 0xff, v >> 8)] * 5)


def disassemble(mc, cpu, wave64, cands):
    """Disassembles each candidate (a list of dwords); returns LLVM's text of
    its first instruction, or None where LLVM rejects its first dword. Each
    candidate is followed by five `s_nop <n>` markers so that the output can
    be split per candidate whatever the candidate's length."""
    out = []
    step = 60000
    for start in range(0, len(cands), step):
        chunk = cands[start:start + step]
        lines = []
        for n, c in enumerate(chunk):
            lines.append(bytes_line(c))
            lines.append(marker(n))
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("\n".join(lines) + "\n")
            path = f.name
        try:
            r = subprocess.run([mc, "-disassemble", "-triple=amdgcn-amd-amdhsa",
                                "-mcpu=" + cpu,
                                "-mattr=" + ("+" if wave64 else "-") + "wavefrontsize64",
                                path], capture_output=True, text=True)
        finally:
            os.unlink(path)
        if r.returncode != 0:
            sys.exit("llvm-mc failed: " + r.stderr[-2000:])
        rejected = set()
        for l in r.stderr.splitlines():
            m = re.match(r".*?:(\d+):(\d+): warning: invalid instruction encoding", l)
            if m and m.group(2) == "1":
                rejected.add(int(m.group(1)))
        groups = {}
        cur = []
        for l in r.stdout.splitlines():
            if not l.startswith("\t") or l.strip() == ".text":
                continue
            t = l.strip()
            m = re.match(r"s_nop (\S+)$", t)
            if m:
                k = int(m.group(1), 0)
                if cur:
                    groups.setdefault(k, cur)
                    cur = []
                continue
            cur.append(t)
        for n in range(len(chunk)):
            if 2 * n + 1 in rejected:
                out.append(None)
            else:
                g = groups.get((n + 1) & 0xffff)
                out.append(g[0] if g else None)
    return out


def e32(fmt, op, vdst, src0, vsrc1):
    if fmt == "VOP1":
        return 0x7e000000 | vdst << 17 | op << 9 | src0
    if fmt == "VOP2":
        return op << 25 | vdst << 17 | vsrc1 << 9 | src0
    return 0x7c000000 | op << 17 | vsrc1 << 9 | src0


def vop3_op(fmt, op):
    return {"VOPC": 0, "VOP2": 0x100, "VOP1": 0x180}[fmt] + op


SDWA_BASE = VSRC0 | 6 << 8 | 6 << 16
SDWA_FIELDS = {
    # name: (bits to set, bits to clear)
    "dst_sel": (4 << 8, 7 << 8),
    "dst_unused": (1 << 11, 0),
    "clamp": (1 << 13, 0),
    "omod": (1 << 14, 0),
    "src0_sel": (0, 7 << 16),
    "src0_sext": (1 << 19, 0),
    "src0_neg": (1 << 20, 0),
    "src0_abs": (1 << 21, 0),
    "s0": (1 << 23, 0),
    "src1_sel": (0, 7 << 24),
    "src1_sext": (1 << 27, 0),
    "src1_neg": (1 << 28, 0),
    "src1_abs": (1 << 29, 0),
    "s1": (1 << 31, 0),
    "sd": (1 << 15 | VDST << 8, 0),
}
DPP_BASE = VSRC0 | 0xe4 << 8 | 0xf << 24 | 0xf << 28
DPP_FIELDS = {
    "bc": 1 << 19, "fi": 1 << 18, "src0_neg": 1 << 20, "src0_abs": 1 << 21,
    "src1_neg": 1 << 22, "src1_abs": 1 << 23,
}


def probes_for(fmt, op):
    """(kind, words) pairs for one opcode."""
    p = []
    p.append(("e32", [e32(fmt, op, VDST, 256 + VSRC0, VSRC1), KLIT]))
    p.append(("e32z", [e32(fmt, op, 0, 0, 0), KLIT]))
    for i, lit in enumerate((0x12345678, 0x3c00, 0x3ff00000)):
        p.append(("lit%d" % i, [e32(fmt, op, VDST, 255, VSRC1), lit, lit]))
        w0 = 0xd4000000 | vop3_op(fmt, op) << 16 | (106 if fmt == "VOPC" else VDST)
        p.append(("v3lit%d" % i, [w0, (256 + VSRC0) | 255 << 9, lit]))
    sdwa_base = SDWA_BASE | (0 if fmt == "VOP1" else 6 << 24)
    w0 = e32(fmt, op, VDST, 249, VSRC1)
    p.append(("sdwa", [w0, sdwa_base]))
    for name, (s, c) in SDWA_FIELDS.items():
        p.append(("sdwa_" + name, [w0, (sdwa_base & ~c) | s]))
    p.append(("sdwa_inl0", [w0, (sdwa_base & ~0xff) | 240 | 1 << 23]))
    p.append(("sdwa_inl1", [e32(fmt, op, VDST, 249, 240), sdwa_base | 1 << 31]))
    w0 = e32(fmt, op, VDST, 250, VSRC1)
    p.append(("dpp", [w0, DPP_BASE]))
    for name, s in DPP_FIELDS.items():
        p.append(("dpp_" + name, [w0, DPP_BASE | s]))
    p.append(("dpp8", [e32(fmt, op, VDST, 233, VSRC1), VSRC0 | 0o76543210 << 8]))
    p.append(("dpp8fi", [e32(fmt, op, VDST, 234, VSRC1), VSRC0 | 0o76543210 << 8]))
    return p


REG_RE = re.compile(r"^([sv])(?:(\d+)|\[(\d+):(\d+)\])$")


def reg_width(tok):
    m = REG_RE.match(tok)
    if not m:
        return None
    if m.group(2) is not None:
        return 1
    return int(m.group(4)) - int(m.group(3)) + 1


def split_text(t):
    """mnemonic, operand list (modifiers dropped)."""
    parts = t.split(" ", 1)
    if len(parts) == 1:
        return parts[0], []
    ops = parts[1].split(", ")
    ops[-1] = ops[-1].split(" ")[0]
    return parts[0], ops


def const_type(width, lit_texts, name):
    """The wl_imm_type of a source from how LLVM printed the literals
    0x12345678, 0x3c00 and 0x3ff00000 in it."""
    t0, t1, t2 = lit_texts
    if width == 2:
        if t2 is None:
            return "F64" if "_f64" in name else "B64"
        return "F64" if t2 == "1.0" else "B64"
    if t0 is None:
        return None
    if t0 == "0x5678":
        return "F16" if t1 == "1.0" else "B16"
    if t1 == "1.0":
        return "V2F16"
    return "F32" if re.search(r"_f(16|32)", name) else "B32"


def operand_at(text, idx):
    if text is None:
        return None
    _, ops = split_text(text)
    return ops[idx] if idx < len(ops) else None


def classify(fmt, op, res):
    """Builds one table entry from the probe results `res` (kind -> text)."""
    t = res["e32"]
    flags = set()
    extra = set()
    if t is None:
        tz = res["e32z"]
        if tz is None:
            return None
        mn, ops = split_text(tz)
        if ops:
            return None
        flags.add("NO_OPS")
        if mn.endswith("_e32"):
            flags.add("E32_SUFFIX")
            mn = mn[:-4]
        return {"name": mn, "flags": flags, "extra": extra, "dst": [], "src": [],
                "types": []}
    mn, ops = split_text(t)
    if mn.endswith("_e32"):
        flags.add("E32_SUFFIX")
        mn = mn[:-4]
    name = mn
    vcc = ("vcc", "vcc_lo")
    dst, src = [], []
    if fmt == "VOP1":
        if len(ops) == 0:
            flags.add("NO_OPS")
        else:
            assert len(ops) == 2, t
            if ops[0].startswith("s"):
                flags.add("SDST")
            dst = [reg_width(ops[0])]
            src = [reg_width(ops[1])]
    elif fmt == "VOP2":
        k = "0x%x" % KLIT
        if len(ops) == 5 and ops[1] in vcc and ops[4] in vcc:
            flags |= {"VCC_DST", "VCC_SRC"}
            ops = [ops[0], ops[2], ops[3]]
        elif len(ops) == 4 and ops[3] in vcc:
            flags.add("VCC_SRC")
            ops = ops[:3]
        elif len(ops) == 4 and ops[2] == k:
            flags.add("MADMK")
            ops = [ops[0], ops[1], ops[3]]
        elif len(ops) == 4 and ops[3] == k:
            flags.add("MADAK")
            ops = ops[:3]
        assert len(ops) == 3, t
        dst = [reg_width(ops[0])]
        src = [reg_width(ops[1]), reg_width(ops[2])]
    else:
        if len(ops) == 3:
            assert ops[0] in vcc, t
            flags.add("VOPC_VCC")
            ops = ops[1:]
        else:
            flags.add("CMPX")
        assert len(ops) == 2, t
        src = [reg_width(ops[0]), reg_width(ops[1])]
    assert all(x for x in dst + src), t

    types = []
    if src:
        lit = [operand_at(res["lit%d" % i], len(dst) + (1 if "VCC_DST" in flags else 0)
                          + (1 if "VOPC_VCC" in flags else 0)) for i in range(3)]
        ty0 = const_type(src[0], lit, name)
        types.append(ty0)
        if "MADMK" in flags or "MADAK" in flags:
            types.append(ty0)
        elif len(src) > 1:
            v3 = [operand_at(res["v3lit%d" % i], 1 if "CMPX" in flags else 2)
                  for i in range(3)]
            # VOP3 prints vdst (or sdst), src0, src1; co_ci's VOP3b has an
            # extra sdst.
            if "VCC_DST" in flags:
                v3 = [operand_at(res["v3lit%d" % i], 3) for i in range(3)]
            ty1 = const_type(src[1], v3, name)
            types.append(ty1)

    # SDWA
    if res["sdwa"] is not None:
        flags.add("SDWA")
        ok = lambda k: res["sdwa_" + k] is not None
        if fmt != "VOPC" and ok("dst_sel") and ok("dst_unused"):
            extra.add("SDWA_DST")
        if fmt != "VOPC" and ok("clamp"):
            extra.add("SDWA_CLAMP")
        if fmt != "VOPC" and ok("omod"):
            extra.add("SDWA_OMOD")
        if ok("s0"):
            extra.add("SDWA_S0")
        if ok("src0_neg") and ok("src0_abs"):
            extra.add("SDWA_SRC0_FMODS")
        if ok("src0_sext"):
            extra.add("SDWA_SRC0_SEXT")
        if fmt != "VOP1":
            extra.add("SDWA_SRC1")
            if ok("s1"):
                extra.add("SDWA_S1")
            if ok("src1_neg") and ok("src1_abs"):
                extra.add("SDWA_SRC1_FMODS")
            if ok("src1_sext"):
                extra.add("SDWA_SRC1_SEXT")
        if fmt == "VOPC" and ok("sd"):
            extra.add("SDWA_SD")
        # How an inline constant prints in each SDWA source.
        i0 = res["sdwa_inl0"]
        if i0 is not None:
            o = operand_at(i0, len(dst) + (1 if "VCC_DST" in flags else 0)
                           + (1 if fmt == "VOPC" and "CMPX" not in flags else 0))
            if o == "0x3800":
                extra.add("SDWA_SRC0_I16")
        i1 = res["sdwa_inl1"]
        if i1 is not None and fmt != "VOP1":
            o = operand_at(i1, 1 + len(dst) + (1 if "VCC_DST" in flags else 0)
                           + (1 if fmt == "VOPC" and "CMPX" not in flags else 0))
            if o == "0x3800":
                extra.add("SDWA_SRC1_I16")
    if res["dpp"] is not None:
        flags.add("DPP")
        ok = lambda k: res["dpp_" + k] is not None
        base = len(dst) + (1 if "VCC_DST" in flags else 0)
        for i in range(len(src)):
            neg, ab = res["dpp_src%d_neg" % i], res["dpp_src%d_abs" % i]
            if neg is None or ab is None:
                continue
            extra.add("DPP_SRC%d_MODS" % i)
            reg = "v%d" % (VSRC0 if i == 0 else VSRC1)
            tneg, tabs = operand_at(neg, base + i), operand_at(ab, base + i)
            if tneg == "sext(%s)" % reg and tabs == reg:
                extra.add("DPP_SRC%d_SEXT" % i)
            elif tneg == reg and tabs == reg:
                extra.add("DPP_SRC%d_SILENT" % i)
            elif not (tneg == "-" + reg and tabs == "|%s|" % reg):
                print("warning: %s op %d: dpp src%d modifiers print as %r, %r"
                      % (fmt, op, i, tneg, tabs), file=sys.stderr)
        if not (ok("bc") and ok("fi")):
            print("warning: %s op %d: dpp bound_ctrl/fi rejected" % (fmt, op), file=sys.stderr)
    if res["dpp8"] is not None:
        flags.add("DPP8")
        if res["dpp8fi"] is None:
            print("warning: %s op %d: dpp8 fi rejected" % (fmt, op), file=sys.stderr)

    # Where e32 cannot take constants in src1, fall back on the SDWA view.
    for i, ty in enumerate(types):
        if ty is None:
            if "SDWA_SRC%d_I16" % i in extra:
                types[i] = "B16"
            elif i > 0 and src[i] == src[0] and types[0]:
                types[i] = types[0]
            else:
                types[i] = "F32" if re.search(r"_f(16|32)", name) else "B32"
    return {"name": name, "flags": flags, "extra": extra, "dst": dst, "src": src,
            "types": types}


def learn(mc, cpu):
    kinds = None
    cands = []
    index = []
    for fmt, nops in FORMATS:
        for op in range(nops):
            for kind, words in probes_for(fmt, op):
                cands.append(words)
                index.append((fmt, op, kind))
    r32 = disassemble(mc, cpu, False, cands)
    r64 = disassemble(mc, cpu, True, cands)
    for (fmt, op, kind), a, b in zip(index, r32, r64):
        if (a is None) != (b is None):
            print("warning: %s %s op %d %s: wave32 %r, wave64 %r" % (cpu, fmt, op, kind, a, b),
                  file=sys.stderr)
    res = {}
    for (fmt, op, kind), a in zip(index, r32):
        res.setdefault((fmt, op), {})[kind] = a
    table = {}
    for fmt, nops in FORMATS:
        for op in range(nops):
            e = classify(fmt, op, res[(fmt, op)])
            if e:
                table[(fmt, op)] = e
    return table


def c_entry(op, e):
    fl = " | ".join("WL_VF_" + f for f in sorted(e["flags"], key=lambda f: FLAGS[f])) or "0"
    ex = " | ".join("WL_VX_" + x for x in sorted(e["extra"], key=lambda x: EXTRA[x])) or "0"
    dst = ", ".join(str(x) for x in e["dst"]) or "0"
    src = ", ".join(str(x) for x in e["src"]) or "0"
    ty = ", ".join("WL_IMM_" + t for t in e["types"]) or "0"
    return ('    [0x%02x] = {"%s", %s, %d, %d, {%s}, {%s}, {%s}, %s},\n'
            % (op, e["name"], fl, len(e["dst"]), len(e["src"]), dst, src, ty, ex))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llvm-mc", default="llvm-mc-19")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--out", default=os.path.join(here, "..", "frontend", "tables"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for cpu, tag in ISAS:
        table = learn(args.llvm_mc, cpu)
        path = os.path.join(args.out, "valu_%s.inc" % cpu)
        with open(path, "w") as f:
            f.write("/* Generated by scripts/gen_valu_tables.py from llvm-mc-19 (%s): do not edit.\n"
                    " * VOP1/VOP2/VOPC opcode tables; see frontend/isa/valu_internal.h for the\n"
                    " * meaning of the flags (WL_VF_*) and extra bits (WL_VX_*). */\n" % cpu)
            for fmt, nops in FORMATS:
                f.write("\nstatic const struct wl_opinfo valu_%s_%s[%d] = {\n"
                        % (fmt.lower(), cpu, 256 if nops > 64 else 64))
                n = 0
                for op in range(nops):
                    e = table.get((fmt, op))
                    if e:
                        f.write(c_entry(op, e))
                        n += 1
                f.write("};\n")
                print("%s %s: %d opcodes" % (cpu, fmt, n), file=sys.stderr)


if __name__ == "__main__":
    main()

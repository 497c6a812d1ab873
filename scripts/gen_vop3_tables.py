#!/usr/bin/env python3
"""Generates frontend/isa/tables/vop3_ops.inc: the VOP3 (VOP3a/VOP3b, with the
VOP1/VOP2/VOPC opcodes promoted to VOP3) and VOP3P opcode tables for gfx10.

The tables are learned from LLVM 19's disassembler (llvm-mc-19), the project's
oracle: for every opcode number of each ISA (gfx1010, gfx1013, gfx1030) and
both wave sizes the script disassembles probe encodings and records

  * the mnemonic, and whether LLVM prints the _e64 suffix;
  * which encoding fields are operands (vdst, the VOP3b sdst, src0..src2), their
    width in dwords (a lane mask is 2 dwords in wave64 and 1 in wave32), and
    which fields LLVM requires to be zero or ignores;
  * how LLVM prints an inline constant or a literal in each source (the
    operand's wl_imm_type), by disassembling the same instruction with
    constants whose printing differs between the types;
  * for each modifier bit (abs, op_sel, clamp / sdst, omod, neg; for VOP3P
    neg_hi, op_sel, op_sel_hi, clamp, neg_lo) whether LLVM rejects it, ignores
    it, or prints it, and how.

The generated file is committed; the build does not need this script.
Run:  python3 scripts/gen_vop3_tables.py [--llvm-mc llvm-mc-19] [-o FILE]
"""
import argparse
import itertools
import os
import re
import subprocess
import sys
import tempfile

ISAS = [("gfx1010", "WL_ISA_GFX1010"), ("gfx1013", "WL_ISA_GFX1013"),
        ("gfx1030", "WL_ISA_GFX1030")]
LLVM_MC = "llvm-mc-19"

# ---------------------------------------------------------------- encodings

def enc_vop3(op, vdst=0, s0=0, s1=0, s2=0, hi=0, clamp=0, omod=0, neg=0,
             lit=None):
    """VOP3: w0 = 110101 op[25:16] clamp[15] hi[14:8] vdst[7:0],
    w1 = neg[31:29] omod[28:27] src2[26:18] src1[17:9] src0[8:0].
    `hi` is abs[10:8] and op_sel[14:11] (VOP3a) or sdst[14:8] (VOP3b)."""
    w0 = (0x35 << 26) | (op << 16) | (clamp << 15) | (hi << 8) | vdst
    w1 = s0 | (s1 << 9) | (s2 << 18) | (omod << 27) | (neg << 29)
    return [w0, w1] + ([lit] if lit is not None else [])


def enc_vop3p(op, vdst=0, s0=0, s1=0, s2=0, hi=0, clamp=0, omod=0, neg=0,
              lit=None):
    """VOP3P: w0 = 11001100 0 op[22:16] clamp[15] op_sel_hi2[14]
    op_sel[13:11] neg_hi[10:8] vdst[7:0], w1 = neg_lo[31:29]
    op_sel_hi[28:27] src2 src1 src0. `hi` holds w0 bits 14:8 and `omod`
    w1 bits 28:27, as for VOP3, so both share the bit numbering."""
    w0 = (0xcc << 24) | (op << 16) | (clamp << 15) | (hi << 8) | vdst
    w1 = s0 | (s1 << 9) | (s2 << 18) | (omod << 27) | (neg << 29)
    return [w0, w1] + ([lit] if lit is not None else [])


def byte_line(words):
    return ",".join("0x%02x" % ((w >> (8 * i)) & 0xff) for w in words
                    for i in range(4))


def needs_literal(words, nfields=3):
    return any(((words[1] >> (9 * f)) & 0x1ff) == 255 for f in range(nfields))


class Oracle:
    """Batches probe encodings through llvm-mc-19 -disassemble. Each probe is
    followed by marker instructions (s_movk_i32 s0, index) so that the bytes
    LLVM skips after a rejected encoding cannot shift the results. Should
    llvm-mc crash (LLVM 19 does on some bytes that follow a rejected
    encoding), the batch is split and run again; a single probe that crashes
    it counts as rejected."""

    NMARK = 5

    def __init__(self, llvm_mc, tmpdir):
        self.llvm_mc = llvm_mc
        self.path = os.path.join(tmpdir, "probe.txt")
        self.calls = 0

    def run(self, probes, cpu, wave64):
        out = [None] * len(probes)
        self._run(probes, 0, len(probes), cpu, wave64, out)
        return out

    def _run(self, probes, lo, hi, cpu, wave64, out):
        if lo >= hi:
            return
        per = 1 + self.NMARK
        lines = []
        for i in range(lo, hi):
            lines.append(byte_line(probes[i]))
            lines.extend([byte_line([0xb0000000 | (i & 0xffff)])] * self.NMARK)
        with open(self.path, "w") as f:
            f.write("\n".join(lines) + "\n")
        attr = "-mattr=%swavefrontsize64" % ("+" if wave64 else "-")
        r = subprocess.run([self.llvm_mc, "-disassemble",
                            "-triple=amdgcn-amd-amdhsa", "-mcpu=" + cpu, attr,
                            self.path], capture_output=True, text=True)
        self.calls += 1
        if r.returncode != 0 or "Stack dump" in r.stderr:
            if hi - lo == 1:
                return
            mid = (lo + hi) // 2
            self._run(probes, lo, mid, cpu, wave64, out)
            self._run(probes, mid, hi, cpu, wave64, out)
            return
        bad = set()
        for m in re.finditer(r":(\d+):(\d+): warning", r.stderr):
            ln = int(m.group(1)) - 1
            if ln % per == 0:
                bad.add(lo + ln // per)  # rejected, or bytes left over
        nxt = lo
        lost = set()
        since = []
        for x in r.stdout.splitlines():
            x = x.strip()
            if not x or x == ".text":
                continue
            m = re.match(r"s_movk_i32 s0, (0x[0-9a-f]+|\d+)$", x)
            if not m:
                since.append(x)
                continue
            v = int(m.group(1), 0)
            k = 0
            while k < 16 and nxt + k < hi and v != ((nxt + k) & 0xffff):
                k += 1
            if 0 < k < 16 and nxt + k < hi:
                lost.update(range(nxt, nxt + k + 1))
                nxt += k
            if nxt < hi and v == (nxt & 0xffff):
                if len(since) == 1 and nxt not in bad and nxt not in lost:
                    out[nxt] = since[0]
                nxt += 1
            since = []
        if lost:
            raise SystemExit("llvm-mc output lost for probes %s" %
                             sorted(lost)[:8])


def strip_comments(text):
    return re.sub(r"/\*.*?\*/", "", text) if text else text

# ------------------------------------------------- LLVM's constant printing
# A model of AMDGPUDisassembler's decoding of inline constants and literals
# and of AMDGPUInstPrinter's printing per operand type, used to classify the
# sources. frontend/isa/operand.c implements the same rules in C.

TYPES = ["WL_IMM_B32", "WL_IMM_F32", "WL_IMM_B16", "WL_IMM_F16",
         "WL_IMM_V2B16", "WL_IMM_V2F16", "WL_IMM_B64", "WL_IMM_F64"]
F32_NAMES = {0x3f800000: "1.0", 0xbf800000: "-1.0", 0x3f000000: "0.5",
             0xbf000000: "-0.5", 0x40000000: "2.0", 0xc0000000: "-2.0",
             0x40800000: "4.0", 0xc0800000: "-4.0",
             0x3e22f983: "0.15915494"}
F16_NAMES = {0x3c00: "1.0", 0xbc00: "-1.0", 0x3800: "0.5", 0xb800: "-0.5",
             0x4000: "2.0", 0xc000: "-2.0", 0x4400: "4.0", 0xc400: "-4.0",
             0x3118: "0.15915494"}
F64_NAMES = {0x3ff0000000000000: "1.0", 0xbff0000000000000: "-1.0",
             0x3fe0000000000000: "0.5", 0xbfe0000000000000: "-0.5",
             0x4000000000000000: "2.0", 0xc000000000000000: "-2.0",
             0x4010000000000000: "4.0", 0xc010000000000000: "-4.0",
             0x3fc45f306dc9c882: "0.15915494309189532"}
INL_F32 = [0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
           0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983]
INL_F16 = [0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400,
           0x3118]
INL_F64 = [0x3fe0000000000000, 0xbfe0000000000000, 0x3ff0000000000000,
           0xbff0000000000000, 0x4000000000000000, 0xc000000000000000,
           0x4010000000000000, 0xc010000000000000, 0x3fc45f306dc9c882]


def s32(v):
    v &= 0xffffffff
    return v - (1 << 32) if v & 0x80000000 else v


def s16(v):
    v &= 0xffff
    return v - (1 << 16) if v & 0x8000 else v


def inlinable(v):
    return -16 <= v <= 64


def print_const(enc, lit, ty):
    """Text LLVM prints for source encoding `enc` (128..208, 240..248, 255
    with literal `lit`) in an operand of type `ty`."""
    if 128 <= enc <= 208:
        val = enc - 128 if enc <= 192 else 192 - enc
    elif 240 <= enc <= 248:
        i = enc - 240
        if ty in ("WL_IMM_B16", "WL_IMM_F16", "WL_IMM_V2F16"):
            val = INL_F16[i]
        elif ty in ("WL_IMM_B64", "WL_IMM_F64"):
            val = INL_F64[i]
        else:
            val = INL_F32[i]
    else:
        val = lit << 32 if ty == "WL_IMM_F64" else lit
    if ty in ("WL_IMM_B32", "WL_IMM_F32"):
        if inlinable(s32(val)):
            return str(s32(val))
        return F32_NAMES.get(val & 0xffffffff, "0x%x" % (val & 0xffffffff))
    if ty == "WL_IMM_B16":
        if inlinable(s32(val)):
            return str(s32(val))
        if (val & 0xffffffff) in F32_NAMES:
            return F32_NAMES[val & 0xffffffff]
        return "0x%x" % (val & 0xffff)
    if ty == "WL_IMM_F16":
        if inlinable(s16(val)):
            return str(s16(val))
        return F16_NAMES.get(val & 0xffff, "0x%x" % (val & 0xffff))
    if ty in ("WL_IMM_V2B16", "WL_IMM_V2F16"):
        if inlinable(s32(val)):
            return str(s32(val))
        if ty == "WL_IMM_V2B16" and (val & 0xffffffff) in F32_NAMES:
            return F32_NAMES[val & 0xffffffff]
        if ty == "WL_IMM_V2F16" and val <= 0xffff and val in F16_NAMES:
            return F16_NAMES[val]
        return "0x%x" % (val & 0xffffffff)
    # 64 bit
    val &= (1 << 64) - 1
    sv = val - (1 << 64) if val & (1 << 63) else val
    if -16 <= sv <= 64:
        return str(sv)
    if val in F64_NAMES:
        return F64_NAMES[val]
    if ty == "WL_IMM_F64":
        return "0x%x" % (val >> 32)
    return "0x%x" % val


TYPE_PROBES = [(240, None), (248, None), (193, None), (255, 0x3f800000),
               (255, 0x3c00), (255, 0x3ff00000), (255, 0x10005),
               (255, 0xfffffff0), (255, 0xffff3800), (255, 0x5),
               (255, 0x3e22f983), (255, 0x3118), (255, 0x3fc45f30),
               (255, 0x40000000)]

# ------------------------------------------------------- operand parsing

FIELD_BY_NUM = {10: "vdst", 21: "src0", 20: "src0", 42: "src1", 40: "src1",
                63: "src2", 60: "src2", 80: "sdst"}
SRC_V = (256 + 21, 256 + 42, 256 + 63)
SRC_S = (20, 40, 60)
REG_RE = re.compile(r"^(v|s|ttmp)(?:(\d+)|\[(\d+):(\d+)\])$")


def split_operands(text):
    """'name a, b, c mods' -> (name, [a, b, c], [mods])."""
    text = strip_comments(text)
    name, _, rest = text.partition(" ")
    if not rest:
        return name, [], []
    parts = rest.split(", ")
    last = parts[-1].split(" ")
    parts[-1] = last[0]
    return name, parts, last[1:]


def parse_reg(tok):
    m = REG_RE.match(tok)
    if not m:
        return None
    if m.group(2) is not None:
        return m.group(1), int(m.group(2)), 1
    a, b = int(m.group(3)), int(m.group(4))
    return m.group(1), a, b - a + 1


# ------------------------------------------------------------- the probes

BITS = [(0, b) for b in range(8, 16)] + [(1, b) for b in range(27, 32)]
# mask bit k of the 13-bit modifier mask <-> BITS[k]


class OpInfo:
    def __init__(self, op):
        self.op = op
        self.name = None
        self.e64 = False
        self.text = None
        self.words = None
        self.dsts = []       # [(field, nregs)]
        self.srcs = []       # [nregs] for src0..src(n-1)
        self.src_print = []  # print order of operand fields
        self.types = []
        self.mods = []       # per source: 0 none, 1 fp, 2 int
        self.reject = 0
        self.flags = set()
        self.field_mode = {}  # field -> 'used' | 'zero' | 'ignored'
        self.interp = 0
        self.lanemask = set()
        self.ignored = 0


def flip(words, k):
    w = list(words)
    wi, b = BITS[k]
    w[wi] ^= 1 << b
    return w


def base_probes(mk, op):
    combos = sorted(itertools.product("VSZ", repeat=3),
                    key=lambda c: (c.count("Z"), c.count("S"), c))
    # VOP3P: op_sel_hi all set, LLVM's default for the packed forms
    hi, omod = (0x40, 3) if mk is enc_vop3p else (0, 0)
    out = []
    for vd in (10, 0):
        for c in combos:
            s = [SRC_V[i] if c[i] == "V" else SRC_S[i] if c[i] == "S" else 0
                 for i in range(3)]
            out.append(mk(op, vdst=vd, s0=s[0], s1=s[1], s2=s[2], hi=hi,
                          omod=omod))
    return out


def analyze(oracle, cpu, wave64, fmt):
    mk = enc_vop3 if fmt == "vop3" else enc_vop3p
    nops = 1024 if fmt == "vop3" else 128
    per = len(base_probes(mk, 0))
    probes = []
    for op in range(nops):
        probes += base_probes(mk, op)
    res = oracle.run(probes, cpu, wave64)
    infos = {}
    for op in range(nops):
        for i in range(per):
            t = res[op * per + i]
            if t:
                inf = OpInfo(op)
                inf.words = probes[op * per + i]
                inf.text = t
                infos[op] = inf
                break
    for inf in infos.values():
        parse_base(inf, fmt)

    # VOP3b: does w0[14:8] hold an SDST?
    if fmt == "vop3":
        cand = [inf for inf in infos.values() if "sdst0" in inf.flags]
        pr = [list(inf.words) for inf in cand]
        for w in pr:
            w[0] |= 80 << 8
        for inf, t in zip(cand, oracle.run(pr, cpu, wave64)):
            name, ops, _ = split_operands(t) if t else (None, [], [])
            if t and len(ops) > 1 and parse_reg(ops[1]) and \
                    parse_reg(ops[1])[1] == 80:
                inf.flags.add("VOP3B")
                inf.dsts.append(("sdst", parse_reg(ops[1])[2]))
            else:
                raise SystemExit("%s %s: unexplained s0 operand in %r" %
                                 (cpu, hex(inf.op), inf.text))

    # modifier bits
    pr, idx = [], []
    for inf in infos.values():
        for k in range(len(BITS)):
            if "VOP3B" in inf.flags and 1 <= k <= 6:
                continue  # bits 14:9 of the sdst
            if "VOP3B" in inf.flags and k == 0:
                continue
            pr.append(flip(inf.words, k))
            idx.append((inf, k))
    for (inf, k), t in zip(idx, oracle.run(pr, cpu, wave64)):
        classify_bit(inf, k, t, fmt)

    # unused fields: zero or ignored?
    pr, idx = [], []
    for inf in infos.values():
        for f, val in (("vdst", 10), ("src0", 257), ("src1", 258),
                       ("src2", 259)):
            if inf.field_mode.get(f) == "used":
                continue
            w = list(inf.words)
            cur = field_get(w, f)
            w = field_set(w, f, val if cur == 0 else 0)
            pr.append(w)
            idx.append((inf, f))
    for (inf, f), t in zip(idx, oracle.run(pr, cpu, wave64)):
        if t is None:
            inf.field_mode[f] = "zero"
        elif strip_comments(t) == strip_comments(inf.text):
            inf.field_mode[f] = "ignored"
        else:
            raise SystemExit("%s %s: field %s changes %r to %r" %
                             (cpu, hex(inf.op), f, inf.text, t))

    # source constant types
    pr, idx = [], []
    for inf in infos.values():
        for s in range(len(inf.srcs)):
            if inf.interp and s == 0:
                continue
            if inf.interp == 2 and s == 1:
                continue
            for enc, lit in TYPE_PROBES:
                w = field_set(list(inf.words), "src%d" % s, enc)
                if lit is not None:
                    w.append(lit)
                pr.append(w)
                idx.append((inf, s, enc, lit))
    got = {}
    for (inf, s, enc, lit), t in zip(idx, oracle.run(pr, cpu, wave64)):
        got.setdefault((inf.op, s), []).append((enc, lit, t))
    for inf in infos.values():
        if "VOP3P" in inf.flags and \
                any(m != ("MIX" in inf.flags) for m in inf.mods):
            raise SystemExit("%s %s: VOP3P source modifiers %r" %
                             (cpu, hex(inf.op), inf.mods))
        check_ignored(cpu, inf)
        inf.types = []
        for s in range(len(inf.srcs)):
            inf.types.append(classify_type(inf, s, got.get((inf.op, s), [])))
    return infos


FIELDS = {"vdst": (0, 0, 0xff), "src0": (1, 0, 0x1ff), "src1": (1, 9, 0x1ff),
          "src2": (1, 18, 0x1ff)}


def field_get(w, f):
    wi, sh, m = FIELDS[f]
    return (w[wi] >> sh) & m


def field_set(w, f, v):
    wi, sh, m = FIELDS[f]
    w = list(w)
    w[wi] = (w[wi] & ~(m << sh)) | ((v & m) << sh)
    return w


def parse_base(inf, fmt):
    name, ops, mods = split_operands(inf.text)
    if name.endswith("_e64"):
        inf.e64 = True
        name = name[:-4]
    inf.name = name
    if any(o.startswith("attr") for o in ops):
        parse_interp(inf, name, ops, mods)
        return
    srcs = {}
    order = []
    for pos, o in enumerate(ops):
        r = parse_reg(o)
        if r is None:
            raise SystemExit("%s: cannot parse operand %r of %r" %
                             (hex(inf.op), o, inf.text))
        kind, num, n = r
        if num == 0 and pos <= 1 and kind == "s" and fmt == "vop3":
            inf.flags.add("sdst0")
            order.append("sdst")
            continue
        f = FIELD_BY_NUM.get(num)
        if f is None:
            raise SystemExit("%s: operand %r of %r matches no field" %
                             (hex(inf.op), o, inf.text))
        order.append(f)
        if f == "vdst":
            inf.dsts.insert(0, ("vdst" if kind == "v" else "vdst_s", n))
        else:
            srcs[f] = n
    nsrc = len(srcs)
    if sorted(srcs) != ["src%d" % i for i in range(nsrc)]:
        raise SystemExit("%s: sources %r of %r are not src0..n" %
                         (hex(inf.op), sorted(srcs), inf.text))
    inf.srcs = [srcs["src%d" % i] for i in range(nsrc)]
    expect = [d for d in ("vdst", "sdst") if d in order] + \
        ["src%d" % i for i in range(nsrc)]
    if order != expect:
        raise SystemExit("%s: operand order %r of %r" % (hex(inf.op), order,
                                                         inf.text))
    for f in ("vdst", "src0", "src1", "src2"):
        if f in order:
            inf.field_mode[f] = "used"
    inf.mods = [0] * nsrc
    if fmt == "vop3p":
        inf.flags.add("VOP3P")
        if mods == ["op_sel_hi:[1,1,1]"]:
            inf.flags.add("MIX")
        elif mods:
            raise SystemExit("%s: base modifiers %r" % (hex(inf.op), mods))
    elif mods:
        raise SystemExit("%s: base modifiers %r" % (hex(inf.op), mods))


def parse_interp(inf, name, ops, mods):
    """v_interp_*: src0 holds attr[5:0] chan[7:6] (and high[8] for the f16
    forms); src1 is the P0/P10/P20 slot of v_interp_mov_f32 or a VGPR."""
    inf.dsts = [("vdst", 1)]
    inf.field_mode["vdst"] = "used"
    inf.field_mode["src0"] = "used"
    inf.field_mode["src1"] = "used"
    if name == "v_interp_mov_f32":
        inf.interp = 2
        inf.srcs = [1, 1]
    elif name.endswith("_f32"):
        inf.interp = 1
        inf.srcs = [1, 1]
    else:
        inf.interp = 3
        inf.srcs = [1, 1] + ([1] if len(ops) == 4 else [])
        if len(ops) == 4:
            inf.field_mode["src2"] = "used"
    inf.mods = [0] * len(inf.srcs)


def classify_bit(inf, k, t, fmt):
    wi, b = BITS[k]
    if t is None:
        inf.reject |= 1 << k
        return
    base = strip_comments(inf.text)
    t = strip_comments(t)
    if t == base:
        inf.ignored |= 1 << k
        return
    bn, bops, bmods = split_operands(base)
    tn, tops, tmods = split_operands(t)
    if tn != bn or len(tops) != len(bops):
        raise SystemExit("%s bit %d: %r -> %r" % (hex(inf.op), b, base, t))
    nd = len(tops) - len(inf.srcs) if not inf.interp else 1
    changed = [i for i in range(len(tops)) if tops[i] != bops[i]]
    newmods = [m for m in tmods if m not in bmods]
    if changed:
        if len(changed) != 1 or newmods:
            raise SystemExit("%s bit %d: %r -> %r" % (hex(inf.op), b, base, t))
        i = changed[0]
        o, n = bops[i], tops[i]
        src = i - nd
        if inf.interp:
            src = {1: 1, 2: 0, 3: 2}[i]
        if n == "|%s|" % o:
            kind = "abs"
        elif n == "-" + o:
            kind = "neg"
        elif n == "sext(%s)" % o:
            kind = "sext"
        else:
            raise SystemExit("%s bit %d: %r -> %r" % (hex(inf.op), b, base, t))
        want = ("abs" if (wi, b) in ((0, 8 + src),) else
                "neg" if (wi, b) == (1, 29 + src) else None)
        if kind == "sext":
            if (wi, b) != (1, 29 + src):
                raise SystemExit("%s bit %d: sext" % (hex(inf.op), b))
            inf.mods[src] = 2
            return
        if kind != want:
            raise SystemExit("%s bit %d: %s on src%d" % (hex(inf.op), b, kind,
                                                         src))
        inf.mods[src] = 1
        return
    if len(newmods) != 1:
        raise SystemExit("%s bit %d: %r -> %r" % (hex(inf.op), b, base, t))
    m = newmods[0]
    if m == "clamp" and (wi, b) == (0, 15):
        inf.flags.add("CLAMP")
    elif m in ("mul:2", "mul:4") and wi == 1 and b in (27, 28):
        inf.flags.add("OMOD")
    elif m.startswith("op_sel:["):
        vals = m[len("op_sel:["):-1].split(",")
        if "VOP3P" in inf.flags:
            return  # op_sel is generic for VOP3P
        pos = vals.index("1")
        if inf.name.startswith("v_permlane"):
            inf.flags.add("PERMLANE")
            return
        inf.flags.add("OPSEL")
        if len(vals) == len(inf.srcs) + 1:
            inf.flags.add("OPSEL_DST")
        elif len(vals) != len(inf.srcs):
            raise SystemExit("%s: op_sel %r" % (hex(inf.op), m))
    elif "VOP3P" in inf.flags and re.match(r"(op_sel_hi|neg_lo|neg_hi):\[", m):
        return
    elif "VOP3P" in inf.flags and "MIX" in inf.flags and \
            m.startswith("op_sel_hi:"):
        return
    else:
        raise SystemExit("%s bit %d: %r -> %r" % (hex(inf.op), b, base, t))


def classify_type(inf, s, results):
    ok = [(enc, lit, strip_comments(t)) for enc, lit, t in results if t]
    if not ok:
        return "WL_IMM_B32"
    name, bops, _ = split_operands(inf.text)
    nd = len(bops) - len(inf.srcs)
    pos = {1: 1, 2: 3}[s] if inf.interp else nd + s
    cands = []
    for ty in TYPES:
        good = True
        for enc, lit, t in ok:
            _, tops, _ = split_operands(t)
            if pos >= len(tops) or tops[pos] != print_const(enc, lit, ty):
                good = False
                break
        if good:
            cands.append(ty)
    if not cands:
        raise SystemExit("%s src%d: no type explains %r" %
                         (hex(inf.op), s, ok))
    # Types that print alike: take the one the mnemonic suggests.
    if "WL_IMM_V2B16" in cands and inf.name.startswith("v_pk_"):
        return "WL_IMM_V2B16"
    if "WL_IMM_F32" in cands and "_f32" in inf.name:
        return "WL_IMM_F32"
    return cands[0]


def check_ignored(cpu, inf):
    """Bits LLVM accepts without printing must be ones our printer skips."""
    for k in range(len(BITS)):
        if not inf.ignored >> k & 1:
            continue
        wi, b = BITS[k]
        if "VOP3P" in inf.flags:
            src = {8: 0, 9: 1, 10: 2, 11: 0, 12: 1, 13: 2, 14: 2, 27: 0,
                   28: 1, 29: 0, 30: 1, 31: 2}.get(b)
            if src is not None and src >= len(inf.srcs):
                continue
        else:
            if wi == 0 and 8 <= b <= 10 and inf.mods[b - 8] != 1:
                continue
            if wi == 1 and b >= 29 and (b - 29 >= len(inf.mods) or
                                        inf.mods[b - 29] == 0):
                continue
            if wi == 0 and 11 <= b <= 14 and not (
                    {"OPSEL", "PERMLANE"} & inf.flags):
                continue
            if "PERMLANE" in inf.flags and b in (13, 14):
                continue
        raise SystemExit("%s %s: bit %d accepted but not printed (%r)" %
                         (cpu, hex(inf.op), b, inf.text))

# ------------------------------------------------------------------ output

def merge_waves(cpu, fmt, w64, w32):
    if set(w64) != set(w32):
        raise SystemExit("%s %s: opcode sets differ between wave sizes" %
                         (cpu, fmt))
    for op, a in w64.items():
        b = w32[op]
        for attr in ("name", "e64", "srcs", "types", "mods", "reject",
                     "flags", "field_mode", "interp"):
            if attr in ("srcs",):
                continue
            if getattr(a, attr) != getattr(b, attr):
                raise SystemExit("%s %s %s: %s differs between waves: %r %r" %
                                 (cpu, fmt, hex(op), attr, getattr(a, attr),
                                  getattr(b, attr)))
        # lane masks: 2 dwords in wave64, 1 in wave32
        for i, ((fa, na), (fb, nb)) in enumerate(zip(a.dsts, b.dsts)):
            if na != nb:
                if (na, nb) != (2, 1):
                    raise SystemExit("%s %s: dst width" % (cpu, hex(op)))
                a.lanemask.add("d%d" % i)
        for i, (na, nb) in enumerate(zip(a.srcs, b.srcs)):
            if na != nb:
                if (na, nb) != (2, 1):
                    raise SystemExit("%s %s: src width" % (cpu, hex(op)))
                a.lanemask.add("s%d" % i)
    return w64


FLAG_BITS = ["E64", "VOP3B", "SDST_VDST", "CLAMP", "OMOD", "OPSEL",
             "OPSEL_DST", "PERMLANE", "VOP3P", "MIX", "LM_D0", "LM_D1",
             "LM_S0", "LM_S1", "LM_S2"]
MODE = {"used": 0, "zero": 1, "ignored": 2}


def entry_tuple(inf):
    flags = set(f for f in inf.flags if f in FLAG_BITS)
    if inf.e64:
        flags.add("E64")
    if inf.dsts and inf.dsts[0][0] == "vdst_s":
        flags.add("SDST_VDST")
    for lm in inf.lanemask:
        flags.add("LM_" + lm.upper())
    fl = " | ".join("V3F_" + f for f in FLAG_BITS if f in flags) or "0"
    extra = inf.reject
    for i, m in enumerate(inf.mods):
        extra |= m << (13 + 2 * i)
    for i, f in enumerate(("vdst", "src0", "src1", "src2")):
        extra |= MODE[inf.field_mode.get(f, "zero")] << (19 + 2 * i)
    extra |= inf.interp << 27
    dregs = [n for _, n in inf.dsts] + [0] * (2 - len(inf.dsts))
    sregs = inf.srcs + [0] * (6 - len(inf.srcs))
    types = inf.types + ["WL_IMM_B32"] * (6 - len(inf.types))
    return (inf.name, fl, len(inf.dsts), len(inf.srcs), tuple(dregs),
            tuple(sregs), tuple(types), extra)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llvm-mc", default=LLVM_MC)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("-o", default=os.path.join(here, "..", "frontend",
                                               "tables", "vop3_ops.inc"))
    args = ap.parse_args()
    entries = []
    entry_idx = {}
    index = {"vop3": {}, "vop3p": {}}
    with tempfile.TemporaryDirectory() as td:
        oracle = Oracle(args.llvm_mc, td)
        for cpu, isa in ISAS:
            for fmt in ("vop3", "vop3p"):
                w64 = analyze(oracle, cpu, True, fmt)
                w32 = analyze(oracle, cpu, False, fmt)
                infos = merge_waves(cpu, fmt, w64, w32)
                nops = 1024 if fmt == "vop3" else 128
                row = [0] * nops
                for op, inf in sorted(infos.items()):
                    t = entry_tuple(inf)
                    if t not in entry_idx:
                        entry_idx[t] = len(entries)
                        entries.append(t)
                    row[op] = entry_idx[t] + 1
                index[fmt][isa] = row
                print("%s %s: %d opcodes" % (cpu, fmt, len(infos)),
                      file=sys.stderr)
    write_inc(args.o, entries, index)


def write_inc(path, entries, index):
    out = []
    out.append("/* Generated by scripts/gen_vop3_tables.py from llvm-mc-19; "
               "do not edit.\n * VOP3/VOP3P opcode tables for gfx10: see "
               "vop3_internal.h for the meaning of\n * `flags` and `extra`. */")
    out.append("")
    out.append("static const struct wl_opinfo vop3_entries[%d] = {" %
               len(entries))
    for (name, fl, nd, ns, dr, sr, ty, extra) in entries:
        out.append("    {\"%s\", %s, %d, %d, {%s}, {%s},\n     {%s}, 0x%08x}," %
                   (name, fl, nd, ns, ", ".join(map(str, dr)),
                    ", ".join(map(str, sr)), ", ".join(ty), extra))
    out.append("};")
    out.append("")
    for fmt, n in (("vop3", 1024), ("vop3p", 128)):
        out.append("/* Entry number + 1 for each %s opcode; 0: invalid. */" %
                   fmt.upper())
        out.append("static const uint16_t %s_index[WL_ISA_COUNT][%d] = {" %
                   (fmt, n))
        for _, isa in ISAS:
            row = index[fmt][isa]
            out.append("    [%s] = {" % isa)
            for i in range(0, n, 16):
                out.append("        " + ", ".join("%d" % v for v in
                                                  row[i:i + 16]) + ",")
            out.append("    },")
        out.append("};")
        out.append("")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()

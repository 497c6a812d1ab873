#!/usr/bin/env python3
"""Generates frontend/isa/tables/salu_tables.inc: the opcode tables of the scalar
formats (SOP2, SOPK, SOP1, SOPC, SOPP, SMEM) for gfx1010, gfx1013 and gfx1030,
and the symbolic-name tables their printer needs (hwreg, sendmsg, s_version).

Everything is learned by probing llvm-mc-19's disassembler: every opcode number
of every format is disassembled with known field values, and the mnemonic,
which fields are operands, their register widths and the way immediates print
are read back from the text. The output is committed, so the build does not
need this script or LLVM.

Usage: scripts/gen_salu_tables.py [output]   (default frontend/isa/tables/salu_tables.inc)
"""
import os
import re
import subprocess
import sys

LLVM_MC = os.environ.get("LLVM_MC", "llvm-mc-19")
ISAS = [("gfx1010", "WL_ISA_GFX1010"), ("gfx1013", "WL_ISA_GFX1013"), ("gfx1030", "WL_ISA_GFX1030")]
NMARK = 6


# --------------------------------------------------------------------------
# The llvm-mc oracle: disassembles many instructions in one process. Each
# instruction is followed by NMARK copies of a numbered marker instruction so
# that the output lines can be attributed to their input even when an invalid
# word makes LLVM resynchronize.

def _marker(sopp, i):
    if sopp:  # s_movk_i32 s105, i
        return 0xb0000000 | (105 << 16) | i, "s_movk_i32 s105, 0x%x" % i
    return 0xbf800000 | i, ("s_nop %d" % i) if i <= 64 else ("s_nop 0x%x" % i)


def _bytes(words):
    b = []
    for v in words:
        b += [v & 255, (v >> 8) & 255, (v >> 16) & 255, (v >> 24) & 255]
    return ",".join("0x%02x" % y for y in b)


def disasm(cpu, insts, sopp=False, wave=64):
    """insts: list of word lists. Returns, per instruction, its text or None
    when LLVM rejects it (or a tuple when LLVM decoded a different length)."""
    res = []
    for s in range(0, len(insts), 30000):
        res += _disasm(cpu, insts[s:s + 30000], sopp, wave)
    return res


def _disasm(cpu, insts, sopp, wave):
    lines, mtext = [], {}
    for i, ws in enumerate(insts):
        lines.append(_bytes(ws))
        mw, mt = _marker(sopp, i)
        mtext[mt] = i
        lines.append(_bytes([mw] * NMARK))
    attr = "+wavefrontsize64" if wave == 64 else "+wavefrontsize32"
    p = subprocess.run([LLVM_MC, "-disassemble", "-triple=amdgcn-amd-amdhsa", "-mcpu=" + cpu,
                        "-mattr=" + attr], input="\n".join(lines) + "\n",
                       capture_output=True, text=True, check=False)
    bad = {}
    for l in p.stderr.splitlines():
        m = re.match(r"<stdin>:(\d+):(\d+): warning", l)
        if m:
            bad.setdefault(int(m.group(1)), []).append(int(m.group(2)))
    groups = [[] for _ in insts]
    cur = 0
    for l in p.stdout.splitlines():
        l = l.strip()
        if not l or l == ".text":
            continue
        j = mtext.get(l)
        if j is not None and j in (cur, cur - 1):
            if j == cur:
                cur += 1
            continue
        if cur >= len(insts):
            raise RuntimeError("llvm-mc output after the last marker: " + l)
        groups[cur].append(l)
    if cur != len(insts):
        raise RuntimeError("lost llvm-mc markers (%d of %d)" % (cur, len(insts)))
    out = []
    for i, g in enumerate(groups):
        cols = bad.get(2 * i + 1, [])
        if 1 in cols:
            out.append(None)
        elif cols or len(g) != 1:
            out.append(("odd", g, cols))
        else:
            out.append(re.sub(r"/\*.*?\*/", "", g[0]).strip())
    return out


def split_inst(text):
    """'s_add_u32 s2, s6, s4 glc' -> ('s_add_u32', ['s2', 's6', 's4 glc'])"""
    parts = text.split(None, 1)
    if len(parts) == 1:
        return parts[0], []
    opnds, depth, cur = [], 0, ""
    for c in parts[1]:
        if c == "," and depth == 0:
            opnds.append(cur.strip())
            cur = ""
            continue
        depth += (c in "([") - (c in ")]")
        cur += c
    opnds.append(cur.strip())
    return parts[0], opnds


def reg_of(tok):
    """'s6' -> (6, 1), 's[6:7]' -> (6, 2), else None."""
    m = re.fullmatch(r"s(\d+)", tok)
    if m:
        return int(m.group(1)), 1
    m = re.fullmatch(r"s\[(\d+):(\d+)\]", tok)
    if m:
        return int(m.group(1)), int(m.group(2)) - int(m.group(1)) + 1
    return None


def src_types(cpu, table, encode, nfields):
    """The printing type of every source: a 64-bit source prints the inline
    constant 1/(2*pi) (248) with double precision only when it accepts
    constants (SSrc_b64); plain 64-bit register operands print it, and
    literals, as 32-bit values. encode(op, field_index, value) -> words."""
    probes, keys = [], []
    for op, e in sorted(table.items()):
        e["types"] = ["B64" if w == 2 else "B32" for w in e["src"]]
        for i, w in enumerate(e["src"]):
            if w == 2 and i < nfields:
                probes.append(encode(op, i, 248))
                keys.append((op, i))
    for (op, i), t in zip(keys, disasm(cpu, probes)):
        if not isinstance(t, str):
            fail("op %d: 1/(2*pi) probe rejected: %r" % (op, t))
        if "0.15915494309189532" in t:
            continue
        if "0.15915494" not in t:
            fail("op %d: 1/(2*pi) probe printed %r" % (op, t))
        table[op]["types"][i] = "B32"


# --------------------------------------------------------------------------
# Per-format probing. Each returns {op: entry} for one ISA, where an entry is
# a dict: name, kind, flags (list of flag names), dst (list of widths),
# src (list of widths).

def enc_sop2(op, sdst, s0, s1):
    return 0x80000000 | op << 23 | sdst << 16 | s1 << 8 | s0


def enc_sop1(op, sdst, s0):
    return 0xbe800000 | sdst << 16 | op << 8 | s0


def enc_sopc(op, s0, s1):
    return 0xbf000000 | op << 16 | s1 << 8 | s0


def enc_sopk(op, sdst, imm):
    return 0xb0000000 | op << 23 | sdst << 16 | (imm & 0xffff)


def enc_sopp(op, imm):
    return 0xbf800000 | op << 16 | (imm & 0xffff)


def enc_smem(op, sdata, sbase, glc=0, dlc=0, off=0x24, soff=0x7d):
    return [0xf4000000 | op << 18 | glc << 16 | dlc << 14 | sdata << 6 | sbase,
            soff << 25 | (off & 0x1fffff)]


def fail(msg):
    raise SystemExit("gen_salu_tables: " + msg)


def probe_sop2(cpu):
    ops = list(range(0x60))
    texts = disasm(cpu, [[enc_sop2(op, 2, 6, 4)] for op in ops])
    table = {}
    for op, t in zip(ops, texts):
        if t is None:
            continue
        name, opnds = split_inst(t)
        regs = [reg_of(x) for x in opnds]
        if len(regs) != 3 or None in regs or [r[0] for r in regs] != [2, 6, 4]:
            fail("SOP2 %s: unexpected operands %r" % (name, t))
        table[op] = dict(name=name, kind="SOP", flags=["SDST", "SSRC0", "SSRC1"],
                         dst=[regs[0][1]], src=[regs[1][1], regs[2][1]])
    src_types(cpu, table, lambda op, i, v: [enc_sop2(op, 2, v if i == 0 else 6, v if i == 1 else 4)], 2)
    return table


def probe_sopc(cpu):
    ops = list(range(0x80))
    texts = disasm(cpu, [[enc_sopc(op, 6, 4)] for op in ops])
    table = {}
    for op, t in zip(ops, texts):
        if t is None:
            continue
        name, opnds = split_inst(t)
        regs = [reg_of(x) for x in opnds]
        if len(regs) != 2 or None in regs or [r[0] for r in regs] != [6, 4]:
            fail("SOPC %s: unexpected operands %r" % (name, t))
        table[op] = dict(name=name, kind="SOP", flags=["SSRC0", "SSRC1"], dst=[],
                         src=[regs[0][1], regs[1][1]])
    src_types(cpu, table, lambda op, i, v: [enc_sopc(op, v if i == 0 else 6, v if i == 1 else 4)], 2)
    return table


def probe_sop1(cpu):
    ops = list(range(0x100))
    texts = disasm(cpu, [[enc_sop1(op, 4, 8)] for op in ops])
    table = {}
    for op, t in zip(ops, texts):
        if t is None:
            continue
        name, opnds = split_inst(t)
        regs = [reg_of(x) for x in opnds]
        if None in regs:
            fail("SOP1 %s: unexpected operands %r" % (name, t))
        flags, dst, src = [], [], []
        for r in regs:
            if r[0] == 4 and not src and not dst:
                flags.append("SDST")
                dst.append(r[1])
            elif r[0] == 8 and not src:
                flags.append("SSRC0")
                src.append(r[1])
            else:
                fail("SOP1 %s: unexpected operands %r" % (name, t))
        table[op] = dict(name=name, kind="SOP", flags=flags, dst=dst, src=src)
    src_types(cpu, table, lambda op, i, v: [enc_sop1(op, 4, v)], 1)
    return table


# SOPK opcodes whose SDST register is read, not written (a naming fact the
# printed text cannot show).
SOPK_SDST_READ = re.compile(r"^s_(cmpk_|waitcnt_|setreg_b32)")


def probe_sopk(cpu):
    ops = list(range(0x1d))
    insts = []
    for op in ops:
        insts.append([enc_sopk(op, 4, 0x1234)])
        insts.append([enc_sopk(op, 4, 0x1234), 0x0000abcd])
        insts.append([enc_sopk(op, 4, 0x0041)])
        insts.append([enc_sopk(op, 4, 0x8000)])
    texts = disasm(cpu, insts)
    table = {}
    for i, op in enumerate(ops):
        t, t_lit, t65, t8000 = texts[4 * i:4 * i + 4]
        if t is None and t_lit is None:
            continue
        literal = isinstance(t, tuple) or (t is not None and "0xbf8" in t) or (
            isinstance(t_lit, str) and "0xabcd" in t_lit)
        text = t_lit if literal else t
        if not isinstance(text, str):
            fail("SOPK op %d: odd result %r / %r" % (op, t, t_lit))
        name, opnds = split_inst(text)
        flags, dst, src = [], [], []
        if literal:
            if not (len(opnds) == 2 and opnds[0].startswith("hwreg(") and opnds[1] == "0xabcd"):
                fail("SOPK %s: unexpected literal form %r" % (name, text))
            kind = "K_SETREG_IMM"
        elif len(opnds) == 1:
            kind = "K_VERSION"
        elif opnds[0].startswith("hwreg("):
            kind = "K_SETREG"
            flags.append("SDST")
            src.append(reg_of(opnds[1])[1])
        elif opnds[1].startswith("hwreg("):
            kind = "K_GETREG"
            flags.append("SDST")
            dst.append(reg_of(opnds[0])[1])
        else:
            r = reg_of(opnds[0])
            if r is None or r[0] != 4:
                fail("SOPK %s: unexpected operands %r" % (name, text))
            v65 = split_inst(t65)[1][1]
            v8000 = split_inst(t8000)[1][1]
            if opnds[1] == "0x1234" and v65 == "0x41" and v8000 == "0x8000":
                kind = "K_HEX"
            elif opnds[1] == "4660" and v65 == "65" and v8000 == "32768":
                kind = "K_LABEL"
            else:
                fail("SOPK %s: unknown immediate style %r %r %r" % (name, text, t65, t8000))
            flags.append("SDST")
            if SOPK_SDST_READ.match(name):
                src.append(r[1])
            else:
                dst.append(r[1])
        if SOPK_SDST_READ.match(name) and dst:
            fail("SOPK %s: read register parsed as a destination" % name)
        table[op] = dict(name=name, kind=kind, flags=flags, dst=dst, src=src)
    return table


def probe_sopp(cpu):
    ops = list(range(0x80))
    vals = [0, 3, 64, 65, 0xfff0]
    insts = [[enc_sopp(op, v)] for op in ops for v in vals]
    texts = disasm(cpu, insts, sopp=True)
    table = {}
    for i, op in enumerate(ops):
        t0, t3, t64, t65, tneg = texts[len(vals) * i:len(vals) * (i + 1)]
        if t0 is None and t3 is None:
            continue
        if t0 is None:
            fail("SOPP op %d: rejects 0 but accepts 3" % op)
        name, opnds = split_inst(t0)
        if t3 is None:
            if opnds:
                fail("SOPP %s: operand with 0 but 3 rejected" % name)
            kind = "P_NONE"
        elif not opnds:
            if split_inst(t3)[1] != ["3"]:
                fail("SOPP %s: unexpected %r" % (name, t3))
            kind = "P_ENDPGM"
        else:
            a0 = opnds[0]
            a = [split_inst(x)[1] for x in (t64, t65, tneg)]
            if a0.startswith("vmcnt("):
                kind = "P_WAITCNT"
            elif a0.startswith("sendmsg("):
                kind = "P_SENDMSG"
            elif a0.startswith("depctr_"):
                kind = "P_DEPCTR"
            elif a == [["64"], ["0x41"], ["0xfff0"]] and a0 == "0":
                kind = "P_IMM"
            elif a == [["0x40"], ["0x41"], ["0xfff0"]] and a0 == "0x0":
                kind = "P_HEX"
            elif a == [["64"], ["65"], ["65520"]] and a0 == "0":
                kind = "P_LABEL" if re.match(r"^s_(c?branch)", name) else "P_DEC"
            else:
                fail("SOPP %s: unknown immediate style %r" % (name, [t0, t64, t65, tneg]))
        table[op] = dict(name=name, kind=kind, flags=[], dst=[], src=[])
    return table


def probe_smem(cpu):
    ops = list(range(0x100))
    insts = []
    for op in ops:
        insts.append(enc_smem(op, 8, 2, 1, 1))   # glc dlc
        insts.append(enc_smem(op, 8, 2, 0, 0))
    texts = disasm(cpu, insts)
    table = {}
    for i, op in enumerate(ops):
        t1, t0 = texts[2 * i], texts[2 * i + 1]
        if t0 is None and t1 is None:
            continue
        if not isinstance(t0, str) or not isinstance(t1, str):
            fail("SMEM op %d: odd result %r %r" % (op, t0, t1))
        name, opnds = split_inst(t0)
        flags, dst, src = [], [], []
        if opnds and opnds[-1] == "0x24":
            flags.append("ADDR")
            base = reg_of(opnds[-2])
            if base is None or base[0] != 4:
                fail("SMEM %s: unexpected base %r" % (name, t0))
            data = opnds[:-2]
        else:
            base = None
            data = opnds
        if data:
            if len(data) != 1:
                fail("SMEM %s: unexpected operands %r" % (name, t0))
            r = reg_of(data[0])
            if data[0] == "8":
                flags.append("DATA_IMM")
            elif r is not None and r[0] == 8:
                if re.match(r"^s_(buffer_|scratch_)?(store|atomic)", name):
                    flags.append("DATA_SRC")
                    src.append(r[1])
                    if "atomic" in name:
                        flags.append("DATA_DST_GLC")
                else:
                    flags.append("DATA_DST")
                    dst.append(r[1])
            else:
                fail("SMEM %s: unexpected data %r" % (name, t0))
        if base is not None:
            src.append(base[1])
        mods = t1[len(t0):].split()
        if t1 != t0 and not t1.startswith(t0):
            fail("SMEM %s: modifiers not at the end: %r" % (name, t1))
        for m in mods:
            if m not in ("glc", "dlc"):
                fail("SMEM %s: unknown modifier %r" % (name, t1))
            flags.append(m.upper())
        table[op] = dict(name=name, kind="M_STD", flags=flags, dst=dst, src=src)
    return table


# --------------------------------------------------------------------------
# Symbolic names.

def probe_hwreg(cpu):
    texts = disasm(cpu, [[enc_sopk(0x12, 4, i)] for i in range(64)])
    names = []
    for i, t in enumerate(texts):
        m = re.search(r"hwreg\(([A-Z_0-9]+)", t or "")
        names.append(m.group(1) if m and not m.group(1).isdigit() else None)
    return names


def probe_sendmsg(cpu):
    """Message names by id, and op names of the system and GS messages."""
    vals = [i | o << 4 | s << 8 for i in range(16) for o in range(8) for s in range(4)]
    texts = disasm(cpu, [[enc_sopp(0x10, v)] for v in vals], sopp=True)
    msg, sysop, gsop = [None] * 16, [None] * 8, [None] * 4
    for v, t in zip(vals, texts):
        m = re.search(r"sendmsg\(([A-Z][A-Z_0-9]*)(?:, ([A-Z][A-Z_0-9]*))?", t or "")
        if not m:
            continue
        i, o = v & 15, (v >> 4) & 7
        msg[i] = m.group(1)
        if m.group(2):
            if i == 15:
                sysop[o] = m.group(2)
            else:
                gsop[o & 3] = m.group(2)
    return msg, sysop, gsop


def probe_ucversion(cpu):
    texts = disasm(cpu, [[enc_sopk(1, 0, v)] for v in range(256)])
    return [t.split()[1] if t and not t.split()[1].isdigit() else None for t in texts]


# --------------------------------------------------------------------------
# Output.

FLAG_BITS = {
    "SDST": "WL_SALU_F_SDST", "SSRC0": "WL_SALU_F_SSRC0", "SSRC1": "WL_SALU_F_SSRC1",
    "ADDR": "WL_SALU_F_ADDR", "DATA_IMM": "WL_SALU_F_DATA_IMM", "DATA_SRC": "WL_SALU_F_DATA_SRC",
    "DATA_DST": "WL_SALU_F_DATA_DST", "DATA_DST_GLC": "WL_SALU_F_DATA_DST_GLC",
    "GLC": "WL_SALU_F_GLC", "DLC": "WL_SALU_F_DLC",
}
KINDS = {
    "SOP": "WL_SALU_K_SOP", "K_HEX": "WL_SALU_K_SOPK_HEX", "K_LABEL": "WL_SALU_K_SOPK_LABEL",
    "K_VERSION": "WL_SALU_K_SOPK_VERSION", "K_GETREG": "WL_SALU_K_SOPK_GETREG",
    "K_SETREG": "WL_SALU_K_SOPK_SETREG", "K_SETREG_IMM": "WL_SALU_K_SOPK_SETREG_IMM",
    "P_NONE": "WL_SALU_K_SOPP_NONE", "P_ENDPGM": "WL_SALU_K_SOPP_ENDPGM",
    "P_IMM": "WL_SALU_K_SOPP_IMM", "P_HEX": "WL_SALU_K_SOPP_HEX", "P_DEC": "WL_SALU_K_SOPP_DEC",
    "P_LABEL": "WL_SALU_K_SOPP_LABEL", "P_WAITCNT": "WL_SALU_K_SOPP_WAITCNT",
    "P_SENDMSG": "WL_SALU_K_SOPP_SENDMSG", "P_DEPCTR": "WL_SALU_K_SOPP_DEPCTR",
    "M_STD": "WL_SALU_K_SMEM",
}


def merge(per_isa, fmt):
    """{isa_index: {op: entry}} -> {op: (entry, [isa indices])}; the entries
    of one opcode must agree across the ISAs that have it."""
    ops = {}
    for ii, table in enumerate(per_isa):
        for op, e in table.items():
            if op in ops:
                if ops[op][0] != e:
                    fail("%s op %d differs between ISAs: %r vs %r" % (fmt, op, ops[op][0], e))
                ops[op][1].append(ii)
            else:
                ops[op] = (e, [ii])
    return ops


def c_str(s):
    return '"%s"' % s if s is not None else "NULL"


def emit_table(out, fmt, size, ops):
    out.append("static const struct wl_opinfo wl_salu_%s[%d] = {" % (fmt.lower(), size))
    for op in sorted(ops):
        e, isas = ops[op]
        if len(isas) == len(ISAS):
            flags = ["WL_SALU_ALL"]
        else:
            flags = ["WL_SALU_ISA(%s)" % ISAS[i][1] for i in isas]
        flags += [FLAG_BITS[f] for f in e["flags"]]
        types = ["WL_IMM_" + t for t in e.get("types", ["B32"] * len(e["src"]))]
        out.append("    [0x%02x] = {%s, %s, %d, %d, {%s}, {%s}, {%s}, %s}," % (
            op, c_str(e["name"]), " | ".join(flags), len(e["dst"]), len(e["src"]),
            ", ".join(str(w) for w in e["dst"]) or "0",
            ", ".join(str(w) for w in e["src"]) or "0",
            ", ".join(types) or "0", KINDS[e["kind"]]))
    out.append("};")
    out.append("")


def emit_names(out, cname, rows, width):
    out.append("static const char *const %s[WL_ISA_COUNT][%d] = {" % (cname, width))
    for (cpu, isa), names in zip(ISAS, rows):
        out.append("    [%s] = {" % isa)
        for i, n in enumerate(names):
            if n is not None:
                out.append("        [%d] = %s," % (i, c_str(n)))
        out.append("    },")
    out.append("};")
    out.append("")


def main():
    dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "frontend", "tables", "salu_tables.inc")
    version = subprocess.run([LLVM_MC, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"LLVM version (\S+)", version)
    version = m.group(1) if m else "unknown"
    formats = [("SOP2", 0x60, probe_sop2), ("SOPK", 0x1d, probe_sopk), ("SOP1", 0x100, probe_sop1),
               ("SOPC", 0x80, probe_sopc), ("SOPP", 0x80, probe_sopp), ("SMEM", 0x100, probe_smem)]
    out = ["/* Generated by scripts/gen_salu_tables.py from llvm-mc %s. Do not edit." % version,
           " * Opcode tables of the scalar formats for gfx1010, gfx1013, gfx1030 and the",
           " * symbolic names the scalar printer uses. Included by frontend/isa/salu_tables.c. */",
           ""]
    for fmt, size, fn in formats:
        emit_table(out, fmt, size, merge([fn(cpu) for cpu, _ in ISAS], fmt))
    emit_names(out, "wl_salu_hwreg_names", [probe_hwreg(cpu) for cpu, _ in ISAS], 64)
    msgs = [probe_sendmsg(cpu) for cpu, _ in ISAS]
    emit_names(out, "wl_salu_msg_names", [m[0] for m in msgs], 16)
    emit_names(out, "wl_salu_sysop_names", [m[1] for m in msgs], 8)
    emit_names(out, "wl_salu_gsop_names", [m[2] for m in msgs], 4)
    versions = [probe_ucversion(cpu) for cpu, _ in ISAS]
    if any(v != versions[0] for v in versions):
        fail("s_version names differ between ISAs")
    out.append("/* s_version: the UC_VERSION_* symbols LLVM prints for bits [7:0]. */")
    out.append("static const struct wl_salu_ucversion { uint8_t code; const char *name; } wl_salu_ucversions[] = {")
    for code, name in enumerate(versions[0]):
        if name is not None:
            out.append("    {%d, %s}," % (code, c_str(name)))
    out.append("};")
    out.append("")
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with open(dest, "w") as f:
        f.write("\n".join(out))
    print("wrote", dest)


if __name__ == "__main__":
    main()

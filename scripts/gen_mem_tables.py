#!/usr/bin/env python3
"""Generates the opcode tables of the gfx10 memory formats (DS, MUBUF, MTBUF,
MIMG, FLAT/GLOBAL/SCRATCH) for wavelift's decoder by probing llvm-mc-19.

    python3 scripts/gen_mem_tables.py [--llvm-mc PATH] [--out frontend/isa/tables]

For every opcode number of every format and every ISA (gfx1010, gfx1013,
gfx1030) the script disassembles a few encodings with llvm-mc and learns:
  - the mnemonic (or that LLVM rejects the opcode),
  - which operands LLVM prints and how many dwords each register operand has,
  - the "fixed bits": encoding bits LLVM requires to have one value for this
    opcode (unused operand fields that must be zero, gds that must be set,
    modifiers an opcode does not have, ...), found by flipping every bit of
    two valid encodings and keeping the bits whose flip LLVM rejects in both,
  - for MIMG: the address-size model of the opcode (derived from its name the
    way LLVM's MIMGInstructions.td does, then checked against llvm-mc for
    every dim/a16/NSA combination) and the vdata register count for every
    data size.
It writes frontend/isa/tables/mem_{ds,buf,flat,mimg}.inc. The generated files are
committed; the build does not run this script.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

LLVM_MC = 'llvm-mc-19'
ISAS = [('gfx1010', 'WL_ISA_GFX1010'), ('gfx1013', 'WL_ISA_GFX1013'),
        ('gfx1030', 'WL_ISA_GFX1030')]

# --------------------------------------------------------------------------
# llvm-mc driver

MARK = 0x5a000000  # s_mov_b32 s0, MARK+i ends the block of input line i


def to_bytes(words):
    out = []
    for v in words:
        out += [v & 255, (v >> 8) & 255, (v >> 16) & 255, (v >> 24) & 255]
    return out


def disasm(cpu, insts, wave64=True):
    """Disassembles each word list as its own block. Returns, per block, the
    instruction text (white space squashed), None when LLVM rejects it, or
    ('PARTIAL', [texts]) when LLVM decoded it as several instructions."""
    res = [None] * len(insts)
    for start in range(0, len(insts), 200000):
        chunk = insts[start:start + 200000]
        lines = []
        for i, ws in enumerate(chunk):
            b = to_bytes(list(ws) + [0xbe8003ff, MARK + i])
            lines.append('[' + ','.join('0x%02x' % x for x in b) + ']')
        with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False) as f:
            f.write('\n'.join(lines) + '\n')
            fn = f.name
        attr = '+wavefrontsize64' if wave64 else '+wavefrontsize32'
        p = subprocess.run([LLVM_MC, '-disassemble', '-triple=amdgcn-amd-amdhsa',
                            '-mcpu=' + cpu, '-mattr=' + attr, fn],
                           capture_output=True, text=True)
        os.unlink(fn)
        cur = []
        for line in p.stdout.split('\n'):
            line = ' '.join(line.split())
            if not line or line.startswith('.text'):
                continue
            m = re.match(r's_mov_b32 s0, 0x5a([0-9a-f]{6})$', line)
            if m:
                i = start + int(m.group(1), 16)
                if len(cur) == 1:
                    res[i] = cur[0]
                elif cur:
                    res[i] = ('PARTIAL', cur)
                cur = []
            else:
                cur.append(line)
    return res


def valid(t):
    return isinstance(t, str)


def fixed_bits(cpu, bases, nwords, skip):
    """bases: valid encodings of one opcode. Returns (mask, value) lists per
    dword of the bits whose flip LLVM rejects in every base. `skip` is a
    per-dword mask of bits not to probe (format prefix, opcode)."""
    ins = []
    for ws in bases:
        for b in range(32 * nwords):
            if skip[b // 32] >> (b % 32) & 1:
                continue
            w = list(ws)
            w[b // 32] ^= 1 << (b % 32)
            ins.append(w)
    r = disasm(cpu, ins)
    mask = [0] * nwords
    k = 0
    bad = None
    for ws in bases:
        cur = [0] * nwords
        for b in range(32 * nwords):
            if skip[b // 32] >> (b % 32) & 1:
                continue
            if not valid(r[k]):
                cur[b // 32] |= 1 << (b % 32)
            k += 1
        bad = cur if bad is None else [x & y for x, y in zip(bad, cur)]
    mask = bad
    val = [bases[0][i] & mask[i] for i in range(nwords)]
    for ws in bases[1:]:
        for i in range(nwords):
            if ws[i] & mask[i] != val[i]:
                sys.exit('fixed bits differ between bases %r' % (bases,))
    return mask, val


REG_RE = re.compile(r'^(v|s|ttmp)(?:(\d+)|\[(\d+):(\d+)\])$')


def reg(tok):
    """'v[20:21]' -> ('v', 20, 2); 'v5' -> ('v', 5, 1); other -> None."""
    m = REG_RE.match(tok)
    if not m:
        return None
    if m.group(2) is not None:
        return (m.group(1), int(m.group(2)), 1)
    lo, hi = int(m.group(3)), int(m.group(4))
    return (m.group(1), lo, hi - lo + 1)


MOD_WORDS = {'gds', 'glc', 'slc', 'dlc', 'lds', 'offen', 'idxen', 'tfe', 'lwe',
             'unorm', 'r128', 'a16', 'd16'}


def split_text(t):
    """'name a, b, c mod1 mod2' -> (name, [operands], [modifiers])."""
    t = re.sub(r'\s+', ' ', t.strip())
    if ' ' not in t:
        return t, [], []
    name, rest = t.split(' ', 1)
    parts = re.split(r', (?![^\[]*\])', rest)
    last = re.split(r' (?![^\[]*\])', parts[-1])
    parts[-1] = last[0]
    mods = last[1:]
    ops = []
    for p in parts:
        if ':' in p and not p.startswith('[') and not REG_RE.match(p) or p in MOD_WORDS:
            mods.insert(0, p)
        else:
            ops.append(p)
    return name, ops, mods


def cname(s):
    return '"%s"' % s


# --------------------------------------------------------------------------
# Flags, shared with frontend/isa/mem_internal.h (keep in sync).

F = {
    'LOAD': 1 << 0, 'STORE': 1 << 1, 'ATOMIC': 1 << 2,
    # DS operands
    'VDST': 1 << 3, 'ADDR': 1 << 4, 'DATA0': 1 << 5, 'DATA1': 1 << 6,
    'OFF2': 1 << 7, 'SWZ': 1 << 8, 'GWS': 1 << 9,
    # MUBUF/MTBUF/FLAT
    'NODATA': 1 << 10, 'LDS': 1 << 11, 'NOVADDR': 1 << 12,
}


def flags_expr(flags, prefix='WL_MEM_F_'):
    names = [prefix + n for n in F if flags & F[n]]
    return ' | '.join(names) if names else '0'


# --------------------------------------------------------------------------
# DS: word0 [31:26]=110110 [25:18]=op [17]=gds [15:8]=offset1 [7:0]=offset0
#     word1 [31:24]=vdst [23:16]=data1 [15:8]=data0 [7:0]=addr

DS_REGS = {'addr': 10, 'data0': 20, 'data1': 30, 'vdst': 40}


def ds_enc(op, gds, off, f):
    w0 = (0x36 << 26) | (op << 18) | (gds << 17) | off
    w1 = (f.get('vdst', 0) << 24) | (f.get('data1', 0) << 16) | \
         (f.get('data0', 0) << 8) | f.get('addr', 0)
    return [w0, w1]


def gen_ds(cpu):
    fields = ['addr', 'data0', 'data1', 'vdst']
    ins, keys = [], []
    for op in range(256):
        for gds in (0, 1):
            for off in (0, 0x0201):
                for mask in range(16):
                    f = {n: DS_REGS[n] for i, n in enumerate(fields) if mask >> i & 1}
                    ins.append(ds_enc(op, gds, off, f))
                    keys.append((op, gds, off, mask))
    r = disasm(cpu, ins)
    best = {}
    for k, t in zip(keys, r):
        if valid(t):
            op, gds, off, mask = k
            b = best.setdefault(op, {'mask': -1, 'gds': set(), 'off': set()})
            b['gds'].add(gds)
            b['off'].add(off)
            score = (bin(mask).count('1'), off != 0, gds)
            if score > b.get('score', (-1,)):
                b['score'] = score
                b['mask'], b['text'], b['gdsv'], b['offv'] = mask, t, gds, off
    out = {}
    for op, b in sorted(best.items()):
        name, ops, mods = split_text(b['text'])
        flags = 0
        widths = {}
        used = {n for i, n in enumerate(fields) if b['mask'] >> i & 1}
        for o in ops:
            rg = reg(o)
            which = [n for n in used if DS_REGS[n] == rg[1]]
            assert rg and len(which) == 1, (cpu, op, b['text'])
            widths[which[0]] = rg[2]
        if 'vdst' in widths:
            flags |= F['VDST']
        if 'addr' in widths:
            # gws instructions take data0 from the addr field
            if 'data0' not in used and name.startswith('ds_gws'):
                flags |= F['GWS'] | F['DATA0']
                widths['data0'] = widths.pop('addr')
            else:
                flags |= F['ADDR']
        if 'data0' in widths:
            flags |= F['DATA0']
        if 'data1' in widths:
            flags |= F['DATA1']
        txt = b['text']
        if 'offset0:' in txt:
            flags |= F['OFF2']
        if 'swizzle(' in txt:
            flags |= F['SWZ']
        if 'vdst' in widths:
            flags |= F['LOAD']
        if 'data0' in widths and not flags & F['GWS']:
            flags |= F['STORE']
        if 'vdst' in widths and 'data0' in widths:
            flags |= F['ATOMIC']
        # fixed bits, from two bases: used fields small / distinctive
        gds, off = b['gdsv'], b['offv']
        base1 = ds_enc(op, gds, 0 if 0 in b['off'] else off, {})
        base2 = ds_enc(op, gds, off if off in b['off'] else 0,
                       {n: DS_REGS[n] for n in used})
        mask, val = fixed_bits(cpu, [base1, base2], 2, [0xfffc0000, 0])
        out[op] = dict(name=name, flags=flags, vdst=widths.get('vdst', 0),
                       data0=widths.get('data0', 0), data1=widths.get('data1', 0),
                       fm=mask, fv=val)
    return out


# --------------------------------------------------------------------------
# MUBUF: word0 [31:26]=111000 [25]=op[7] [24:18]=op[6:0] [16]=lds [15]=dlc
#        [14]=glc [13]=idxen [12]=offen [11:0]=offset
#        word1 [31:24]=soffset [23]=tfe [22]=slc [20:16]=srsrc/4 [15:8]=vdata
#        [7:0]=vaddr
# MTBUF: word0 [31:26]=111010 [25:19]=format [18:16]=op[2:0] [15]=dlc
#        [14]=glc [13]=idxen [12]=offen [11:0]=offset
#        word1 as MUBUF, [21]=op[3]

def mubuf_enc(op, w0bits=0, vaddr=10, vdata=20, srsrc=2, soff=30):
    w0 = (0x38 << 26) | ((op >> 7) << 25) | ((op & 0x7f) << 18) | w0bits
    w1 = (soff << 24) | (srsrc << 16) | (vdata << 8) | vaddr
    return [w0, w1]


def mtbuf_enc(op, w0bits=0, vaddr=10, vdata=20, srsrc=2, soff=30, fmt=1):
    w0 = (0x3a << 26) | (fmt << 19) | ((op & 7) << 16) | w0bits
    w1 = (soff << 24) | ((op >> 3) << 21) | (srsrc << 16) | (vdata << 8) | vaddr
    return [w0, w1]


def gen_buf(cpu, mt):
    enc = mtbuf_enc if mt else mubuf_enc
    nops = 16 if mt else 256
    ins = []
    for op in range(nops):
        ins.append(enc(op, 1 << 12))           # offen: vdata, vaddr
        ins.append(enc(op, 0, 0, 0, 0, 0))     # all zero (cache invalidates)
    r = disasm(cpu, ins)
    out = {}
    for op in range(nops):
        t1, t2 = r[2 * op], r[2 * op + 1]
        if not valid(t1) and not valid(t2):
            continue
        flags = 0
        if valid(t1):
            name, ops, mods = split_text(t1)
            rg = reg(ops[0])
            assert rg[1] == 20, t1
            width = rg[2]
            base = enc(op, 1 << 12)
        else:
            name, ops, mods = split_text(t2)
            assert not ops, t2
            flags |= F['NODATA']
            width = 0
            base = enc(op, 0, 0, 0, 0, 0)
        if 'atomic' in name:
            flags |= F['ATOMIC']
        elif 'store' in name:
            flags |= F['STORE']
        elif width:
            flags |= F['LOAD']
        skip = [0xfc070000, 0x00200000] if mt else [0xfffc0000, 0]
        if flags & F['NODATA']:
            bases = [base]
        else:
            bases = [base, enc(op, 0, 0, 0, 0, 0)]
        mask, val = fixed_bits(cpu, bases, 2, skip)
        if not mask[0] >> 16 & 1 and not flags & F['NODATA'] and not mt:
            flags |= F['LDS']
        out[op] = dict(name=name, flags=flags, width=width, fm=mask, fv=val)
    return out


def gen_formats(cpu):
    """MTBUF unified format names, 0..127 (None: printed as a number)."""
    ins = [mtbuf_enc(0, 0, fmt=f) for f in range(128)]
    r = disasm(cpu, ins)
    names = []
    for f, t in enumerate(r):
        m = re.search(r'format:\[([A-Z0-9_]+)\]', t)
        if m:
            names.append(m.group(1))
        else:
            assert f == 1 or re.search(r'format:%d' % f, t), t
            names.append(None)
    return names


# --------------------------------------------------------------------------
# FLAT/GLOBAL/SCRATCH: word0 [31:26]=110111 [25]=ignored [24:18]=op
#   [17]=slc [16]=glc [15:14]=seg [13]=lds [12]=dlc [11:0]=offset
#   word1 [31:24]=vdst [23]=reserved [22:16]=saddr [15:8]=data [7:0]=addr

def flat_enc(seg, op, w0bits=0, vdst=40, saddr=0x7d, data=20, addr=30):
    w0 = (0x37 << 26) | (op << 18) | (seg << 14) | w0bits
    w1 = (vdst << 24) | (saddr << 16) | (data << 8) | addr
    return [w0, w1]


def gen_flat(cpu):
    ins = []
    for seg in range(3):
        for op in range(128):
            ins.append(flat_enc(seg, op))
            ins.append(flat_enc(seg, op, 1 << 16))   # glc: atomics return
            ins.append(flat_enc(seg, op, 0, saddr=10))
            ins.append(flat_enc(seg, op | 128))      # bit 25
    r = disasm(cpu, ins)
    out = {}
    k = 0
    for seg in range(3):
        for op in range(128):
            t, tg, ts, t25 = r[k:k + 4]
            k += 4
            if not valid(t):
                assert not valid(tg) and not valid(ts), (seg, op)
                continue
            assert t25 == t, (t, t25)
            name, ops, mods = split_text(t)
            flags = 0
            regs = [reg(o) for o in ops]
            dwidth = 0
            vdst = 0
            for rg in regs:
                if rg and rg[1] == 20:
                    dwidth = rg[2]
                    flags |= F['DATA0']
                if rg and rg[1] == 40:
                    vdst = rg[2]
            if vdst:
                flags |= F['VDST'] | F['LOAD']
            if 'atomic' in name:
                flags |= F['ATOMIC']
                flags &= ~F['LOAD']
                _, gops, _ = split_text(tg)
                vdst = reg(gops[0])[2]
                assert reg(gops[0])[1] == 40, tg
            elif dwidth:
                flags |= F['STORE']
            if not any(rg and rg[1] == 30 for rg in regs):
                flags |= F['NOVADDR']
            base1 = flat_enc(seg, op, 0, 0, 0x7d, 0, 0)
            base2 = flat_enc(seg, op, 0, 40, 0x7d if seg == 0 else 10, 20, 30)
            mask, val = fixed_bits(cpu, [base1, base2], 2, [0xfffcc000, 0])
            if not mask[0] >> 13 & 1:
                flags |= F['LDS']
            out[(seg, op)] = dict(name=name, flags=flags, width=dwidth, vdst=vdst,
                                  fm=mask, fv=val)
    return out


# --------------------------------------------------------------------------
# MIMG: word0 [31:26]=111100 [25]=slc [24:18]=op[6:0] [17]=lwe [16]=tfe
#   [15]=r128 [14]=ignored [13]=glc [12]=unorm [11:8]=dmask [7]=dlc
#   [6]=ignored [5:3]=dim [2:1]=nsa (extra address dwords) [0]=op[7]
#   word1 [31]=d16 [30]=a16 [25:21]=ssamp/4 [20:16]=srsrc/4 [15:8]=vdata
#   [7:0]=vaddr0;  NSA dwords: one address VGPR per byte

# (NumCoords, NumGradients) per dim encoding, from LLVM's AMDGPUDimProps.
DIMS = [(1, 2), (2, 4), (3, 6), (3, 4), (2, 2), (3, 4), (3, 4), (4, 4)]

M = {  # MIMG property flags (wl_opinfo.extra), keep in sync with mem_internal.h
    'SAMPLER': 1 << 0, 'GATHER4': 1 << 1, 'ATOMIC': 1 << 2, 'STORE': 1 << 3,
    'D16': 1 << 4, 'COORDS': 1 << 5, 'LOD': 1 << 6, 'GRAD': 1 << 7,
    'G16': 1 << 8, 'BVH': 1 << 9, 'BVH64': 1 << 10, 'MSAA': 1 << 11,
    'CMPSWAP': 1 << 12,
}


def mimg_enc(op, dmask=1, dim=0, nsa=0, w0bits=0, vaddr=10, vdata=20,
             srsrc=2, ssamp=0, a16=0, d16=0, extra=None):
    w0 = (0x3c << 26) | ((op & 0x7f) << 18) | (op >> 7) | (dmask << 8) | \
         (dim << 3) | (nsa << 1) | w0bits
    w1 = (d16 << 31) | (a16 << 30) | (ssamp << 21) | (srsrc << 16) | \
         (vdata << 8) | vaddr
    ws = [w0, w1]
    if nsa:
        ws += extra if extra else [0x64636261 + 0x04040404 * i for i in range(nsa)]
    return ws


def mimg_props(name):
    """Base-opcode properties from the mnemonic, as MIMGInstructions.td
    defines them: flags, NumExtraArgs."""
    p = 0
    extra = 0
    if name.startswith('image_bvh'):
        p |= M['BVH'] | (M['BVH64'] if 'bvh64' in name else 0)
        return p, 0
    if name.startswith('image_sample') or name.startswith('image_gather4') or \
            name == 'image_get_lod':
        p |= M['SAMPLER'] | M['COORDS']
        if name.startswith('image_gather4'):
            p |= M['GATHER4']
            rest = name[len('image_gather4h'):] if name.startswith('image_gather4h') \
                else name[len('image_gather4'):]
        elif name == 'image_get_lod':
            rest = ''
        else:
            rest = name[len('image_sample'):]
        if rest.endswith('_g16'):
            p |= M['G16']
            rest = rest[:-4]
        for tok in [t for t in rest.split('_') if t]:
            if tok in ('c', 'b', 'o'):
                extra += 1
            elif tok in ('d', 'cd'):
                p |= M['GRAD']
            elif tok in ('l', 'cl'):
                p |= M['LOD']
            elif tok == 'lz':
                pass
            else:
                sys.exit('unknown sample modifier %s in %s' % (tok, name))
        return p, extra
    if name.startswith('image_atomic'):
        p |= M['ATOMIC'] | M['COORDS']
        if 'cmpswap' in name:
            p |= M['CMPSWAP']
        return p, 0
    if name == 'image_get_resinfo':
        return p | M['LOD'], 0
    p |= M['COORDS']
    if name.startswith('image_store'):
        p |= M['STORE']
    if '_mip' in name:
        p |= M['LOD']
    if name == 'image_msaa_load':
        p |= M['MSAA']
    return p, 0


def mimg_addr_model(p, extra):
    """(vaddr_ok, dflt_vaddr, nsa_ok, nsa_dflt[3]) following
    MIMG_Sampler_AddrSizes and MIMG_NoSampler_Src_Helper."""
    if not p & M['SAMPLER']:
        return 0b1111, 1, 0b1110, [4, 0, 0]
    lod = bool(p & M['LOD'])
    if p & M['GRAD']:
        if p & M['G16']:
            words = list(range(2, 8 + lod))
        else:
            words = list(range(2, 10 + lod))
    else:
        words = list(range(1, 4 + lod))
    words = [w + extra for w in words]
    vaddr_ok = 0
    dflt = 0
    for rng in [[1], [2], [3], [3, 4], [5], [6], [7], [5, 8], [9], [10], [11], [12], [13, 16]]:
        lo, hi = rng[0], rng[-1]
        if any(lo <= w <= hi for w in words):
            vaddr_ok |= 1 << (hi - 1)
            if not dflt:
                dflt = hi
    nsa_ok = 0
    nsa_dflt = [0, 0, 0]
    for i, group in enumerate([[5, 4, 3, 2], [9, 8, 7, 6], [12, 11, 10]]):
        for w in group:
            if w in words:
                nsa_ok |= 1 << (w - 1)
                if not nsa_dflt[i]:
                    nsa_dflt[i] = w
    return vaddr_ok, dflt, nsa_ok, nsa_dflt


def mimg_addr_size(p, extra, dim, a16, g16_supported=True):
    """getAddrSizeMIMGOp."""
    ncoords, ngrads = DIMS[dim]
    words = extra
    comps = (ncoords if p & M['COORDS'] else 0) + (1 if p & M['LOD'] else 0)
    words += (comps + 1) // 2 if a16 else comps
    if p & M['GRAD']:
        if (a16 and not g16_supported) or p & M['G16']:
            words += (ngrads // 2 + 1) // 2 * 2
        else:
            words += ngrads
    return words


def mimg_dst_size(p, dmask, d16, tfe):
    n = 4 if p & M['GATHER4'] else max(bin(dmask & 15).count('1'), 1)
    if d16:
        n = (n + 1) // 2
    return n + tfe


def count_regs(tok):
    if tok.startswith('['):
        return len(tok.strip('[]').split(', '))
    return reg(tok)[2]


def gen_mimg(cpu):
    g16 = True  # LLVM 19 decodes every gfx10 target as having G16
    ins = []
    for op in range(256):
        ins.append(mimg_enc(op))
        ins.append(mimg_enc(op, ssamp=3))
        ins.append(mimg_enc(op, dmask=0xf, w0bits=(1 << 12) | (1 << 15), vaddr=10,
                            vdata=20, srsrc=1))
    r = disasm(cpu, ins)
    out = {}
    for op in range(256):
        cands = [(i, t) for i, t in enumerate(r[3 * op:3 * op + 3]) if valid(t)]
        if not cands:
            continue
        i, t = cands[0]
        base = ins[3 * op + i]
        name, ops, mods = split_text(t)
        p, extra = mimg_props(name)
        if i == 1:
            assert p & M['SAMPLER'], t
        out[op] = dict(name=name, p=p, extra=extra, base=base, text=t)
    # fixed bits
    for op, d in out.items():
        base = d['base']
        b2 = list(base)
        b2[1] |= (40 << 8) | 50   # other registers
        d['fm'], d['fv'] = fixed_bits(cpu, [base, b2], 2, [0xfdfc0007, 0])
        if not d['p'] & M['BVH'] and not d['fm'][1] >> 31 & 1:
            d['p'] |= M['D16']
    # vdata model: the printed vdata dwords for each data size
    for op, d in out.items():
        p, extra = d['p'], d['extra']
        if p & M['BVH']:
            d.update(vdata_map=[0] * 6, dflt_vdata=4, vaddr_ok=0, dflt_vaddr=0,
                     nsa_ok=0, nsa_dflt=[0, 0, 0])
            continue
        d['vaddr_ok'], d['dflt_vaddr'], d['nsa_ok'], d['nsa_dflt'] = \
            mimg_addr_model(p, extra)
    for op, d in out.items():
        if d['p'] & M['BVH']:
            continue
        p, extra = d['p'], d['extra']
        ssamp = 3 if p & M['SAMPLER'] else 0
        # a dim/a16 whose address size is a variant but not the default one
        probe_dim = None
        for dim in range(8):
            for a16 in (0, 1):
                n = mimg_addr_size(p, extra, dim, a16, g16)
                if n != d['dflt_vaddr'] and d['vaddr_ok'] >> (n - 1) & 1:
                    probe_dim = (dim, a16, n)
                    break
            if probe_dim:
                break
        combos = []
        for dmask in (1, 3, 7, 15):
            for d16 in ((0, 1) if p & M['D16'] else (0,)):
                for tfe in (0, 1):
                    combos.append((dmask, d16, tfe))
        encs = []
        for dmask, d16, tfe in combos:
            dim, a16 = (probe_dim[0], probe_dim[1]) if probe_dim else (0, 0)
            encs.append(mimg_enc(op, dmask=dmask, dim=dim, a16=a16, d16=d16,
                                 w0bits=tfe << 16, ssamp=ssamp))
        rr = disasm(cpu, encs)
        vmap = [None] * 6
        dflt_vdata = None
        for (dmask, d16, tfe), t in zip(combos, rr):
            assert valid(t), (cpu, d['name'], dmask, d16, tfe)
            _, ops, _ = split_text(t)
            nv = reg(ops[0])[2]
            na = count_regs(ops[1])
            ds = mimg_dst_size(p, dmask, d16, tfe)
            ok = probe_dim is None or na == probe_dim[2]
            val = nv if ok else 0
            if not ok:
                dflt_vdata = nv
            if vmap[ds] is not None and vmap[ds] != val:
                sys.exit('inconsistent vdata size %s %s' % (d['name'], (dmask, d16, tfe)))
            vmap[ds] = val
        d['vdata_map'] = [v or 0 for v in vmap]
        if dflt_vdata is None:
            # the default variant: what a 1-dword vdata overflowing prints
            t = disasm(cpu, [mimg_enc(op, dmask=15, vdata=253, w0bits=1 << 16,
                                      ssamp=ssamp)])[0]
            dflt_vdata = reg(split_text(t)[1][0])[2] if valid(t) else None
            if dflt_vdata is None:
                dflt_vdata = 4 if p & M['GATHER4'] else 2 if p & M['CMPSWAP'] else 1
        d['dflt_vdata'] = dflt_vdata
    return out


def check_mimg(cpu, tab):
    """Checks the address-size model of every opcode against llvm-mc for
    every dim, a16 and NSA form, and the vdata model for every dmask/d16/tfe."""
    g16 = True  # LLVM 19 decodes every gfx10 target as having G16
    ins, exp = [], []
    for op, d in tab.items():
        p, extra = d['p'], d['extra']
        if p & M['BVH']:
            for a16 in (0, 1):
                n = (12 if p & M['BVH64'] else 11) - 3 * a16
                for nsa in range(4):
                    e = mimg_enc(op, dmask=15, nsa=nsa, w0bits=(1 << 12) | (1 << 15),
                                 a16=a16, srsrc=1)
                    ins.append(e)
                    want = nsa == 0 or nsa == (n + 2) // 4
                    exp.append((d['name'], e, (4, n) if want else None))
            continue
        ssamp = 3 if p & M['SAMPLER'] else 0
        for dim in range(8):
            for a16 in (0, 1):
                for nsa in range(4):
                    for dmask, d16, tfe in ((1, 0, 0), (15, 0, 1), (7, 1, 0), (3, 0, 0),
                                            (15, 0, 0), (15, 1, 1)):
                        if d16 and not p & M['D16']:
                            continue
                        e = mimg_enc(op, dmask=dmask, dim=dim, nsa=nsa, a16=a16,
                                     d16=d16, w0bits=tfe << 16, ssamp=ssamp)
                        ins.append(e)
                        n = mimg_addr_size(p, extra, dim, a16, g16)
                        ds = mimg_dst_size(p, dmask, d16, tfe)
                        if nsa == 0:
                            if n > 12:
                                n = 16
                            ok = d['vaddr_ok'] >> (n - 1) & 1
                            dfl = d['dflt_vaddr']
                        else:
                            dfl = d['nsa_dflt'][nsa - 1]
                            if not dfl:
                                ins.pop()
                                ins.append(e)
                                exp.append((d['name'], e, None))
                                continue
                            ok = n <= dfl and d['nsa_ok'] >> (n - 1) & 1
                        ok = ok and d['vdata_map'][ds]
                        want = (d['vdata_map'][ds], n) if ok else (d['dflt_vdata'], dfl)
                        exp.append((d['name'], e, want))
    r = disasm(cpu, ins)
    bad = 0
    for (name, e, want), t in zip(exp, r):
        got = None
        if valid(t):
            _, ops, _ = split_text(t)
            got = (reg(ops[0])[2], count_regs(ops[1]))
        if got != want:
            bad += 1
            if bad < 20:
                print('MIMG model mismatch %s %s: %s want %s got %s' %
                      (cpu, name, ['%08x' % x for x in e], want, t), file=sys.stderr)
    if bad:
        sys.exit('%d MIMG model mismatches on %s' % (bad, cpu))
    return len(ins)


# --------------------------------------------------------------------------
# Output

HEADER = '''/* Generated by scripts/gen_mem_tables.py from %s. Do not edit.
 * %s */

'''

DS_ATOMIC_WORDS = ('add', 'sub', 'rsub', 'inc', 'dec', 'min', 'max', 'and', 'or',
                   'xor', 'mskor', 'wrxchg', 'cmpst', 'wrap', 'condxchg')


def hx(v):
    return '0x%x' % v


def opinfo(name, flags, dst, src, extra=0):
    dst = [d for d in dst if d]
    return '{%s, %s, %d, %d, {%s}, {%s}, {0}, %s}' % (
        cname(name), flags_expr(flags), len(dst), len(src),
        ', '.join(str(x) for x in dst) or '0', ', '.join(str(x) for x in src) or '0',
        extra)


def desc(info, fm, fv, mimg=''):
    s = '{%s, {%s, %s}, {%s, %s}' % (info, hx(fm[0]), hx(fm[1]), hx(fv[0]), hx(fv[1]))
    return s + (', ' + mimg if mimg else '') + '}'


def emit_table(f, cname_, dims, entries_by_isa):
    """entries_by_isa: {isa_enum: {index_tuple_or_int: initializer}}."""
    f.write('static const struct wl_mem_desc %s[WL_ISA_COUNT]%s = {\n' % (
        cname_, ''.join('[%d]' % d for d in dims)))
    for isa, entries in entries_by_isa.items():
        f.write('    [%s] = {\n' % isa)
        for key in sorted(entries):
            idx = ''.join('[%d]' % k for k in key) if isinstance(key, tuple) else '[0x%02x]' % key
            f.write('        %s = %s,\n' % (idx, entries[key]))
        f.write('    },\n')
    f.write('};\n\n')


def ds_entries(tab):
    out = {}
    for op, d in tab.items():
        fl = d['flags'] & ~(F['LOAD'] | F['STORE'] | F['ATOMIC'])
        words = d['name'][3:].split('_')
        if any(w in DS_ATOMIC_WORDS for w in words):
            fl |= F['ATOMIC']
        elif d['name'].startswith('ds_write'):
            fl |= F['STORE']
        elif fl & F['VDST']:
            fl |= F['LOAD']
        src = ([1] if fl & F['ADDR'] else []) + ([d['data0']] if d['data0'] else []) + \
              ([d['data1']] if d['data1'] else [])
        out[op] = desc(opinfo(d['name'], fl, [d['vdst']], src), d['fm'], d['fv'])
    return out


def buf_entries(tab):
    out = {}
    for op, d in tab.items():
        fl, w = d['flags'], d['width']
        if fl & F['NODATA']:
            info = opinfo(d['name'], fl, [], [])
        elif fl & F['LOAD']:
            info = opinfo(d['name'], fl, [w], [1, 4, 1])
        else:
            info = opinfo(d['name'], fl, [], [w, 1, 4, 1])
        out[op] = desc(info, d['fm'], d['fv'])
    return out


def flat_entries(tab):
    out = {}
    for (seg, op), d in tab.items():
        fl = d['flags']
        src = [] if fl & F['NOVADDR'] else [1 if seg == 1 else 2]
        if d['width']:
            src.append(d['width'])
        out[(seg, op)] = desc(opinfo(d['name'], fl, [d['vdst']], src), d['fm'], d['fv'])
    return out


def mimg_entries(tab):
    out = {}
    for op, d in tab.items():
        p = d['p']
        mflags = ' | '.join('WL_MIMG_' + n for n in M if p & M[n]) or '0'
        vd = d['dflt_vdata']
        if p & (M['STORE'] | M['ATOMIC']):
            fl = F['ATOMIC'] if p & M['ATOMIC'] else F['STORE']
            dst, src = [], [vd, d['dflt_vaddr'] or 1, 8]
        else:
            fl = F['LOAD']
            dst, src = [vd], [d['dflt_vaddr'] or 1, 4 if p & M['BVH'] else 8]
        if p & M['SAMPLER']:
            src.append(4)
        info = opinfo(d['name'], fl, dst, src, mflags)
        mimg = '{%s}, %d, %d, %s, %s, {%s}, %d' % (
            ', '.join(str(x) for x in d['vdata_map']), d['dflt_vdata'], d['dflt_vaddr'],
            hx(d['vaddr_ok']), hx(d['nsa_ok']), ', '.join(str(x) for x in d['nsa_dflt']),
            d['extra'])
        out[op] = desc(info, d['fm'], d['fv'], mimg)
    return out


def llvm_version():
    p = subprocess.run([LLVM_MC, '--version'], capture_output=True, text=True)
    m = re.search(r'LLVM version (\S+)', p.stdout)
    return 'llvm-mc ' + (m.group(1) if m else 'unknown')


def main():
    global LLVM_MC
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--llvm-mc', default=LLVM_MC)
    ap.add_argument('--out', default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  '..', 'frontend', 'tables'))
    args = ap.parse_args()
    LLVM_MC = args.llvm_mc
    ver = llvm_version()
    ds, mubuf, mtbuf, flat, mimg = {}, {}, {}, {}, {}
    fmt_names = None
    for cpu, isa in ISAS:
        print('probing %s ...' % cpu, file=sys.stderr)
        ds[isa] = ds_entries(gen_ds(cpu))
        mubuf[isa] = buf_entries(gen_buf(cpu, False))
        mtbuf[isa] = buf_entries(gen_buf(cpu, True))
        flat[isa] = flat_entries(gen_flat(cpu))
        mt = gen_mimg(cpu)
        n = check_mimg(cpu, mt)
        print('  MIMG model checked with %d encodings' % n, file=sys.stderr)
        mimg[isa] = mimg_entries(mt)
        names = gen_formats(cpu)
        if fmt_names is not None and names != fmt_names:
            sys.exit('MTBUF format names differ between targets')
        fmt_names = names

    with open(os.path.join(args.out, 'mem_ds.inc'), 'w') as f:
        f.write(HEADER % (ver, 'DS opcodes per ISA, indexed by the 8-bit opcode. Included by\n'
                          ' * frontend/isa/mem_ds.c.'))
        emit_table(f, 'wl_mem_ds_tab', [256], ds)
    with open(os.path.join(args.out, 'mem_buf.inc'), 'w') as f:
        f.write(HEADER % (ver, 'MUBUF (8-bit opcode) and MTBUF (4-bit opcode) opcodes per ISA,\n'
                          ' * and the gfx10 unified buffer format names. Included by\n'
                          ' * frontend/isa/mem_buf.c.'))
        emit_table(f, 'wl_mem_mubuf_tab', [256], mubuf)
        emit_table(f, 'wl_mem_mtbuf_tab', [16], mtbuf)
        f.write('static const char *const wl_mem_ufmt_names[128] = {\n')
        for i, n in enumerate(fmt_names):
            if n:
                f.write('    [%d] = "%s",\n' % (i, n))
        f.write('};\n')
    with open(os.path.join(args.out, 'mem_flat.inc'), 'w') as f:
        f.write(HEADER % (ver, 'FLAT (seg 0), SCRATCH (seg 1) and GLOBAL (seg 2) opcodes per ISA,\n'
                          ' * indexed by [seg][7-bit opcode]. Included by frontend/isa/mem_flat.c.'))
        emit_table(f, 'wl_mem_flat_tab', [3, 128], flat)
    with open(os.path.join(args.out, 'mem_mimg.inc'), 'w') as f:
        f.write(HEADER % (ver, 'MIMG opcodes per ISA, indexed by the 8-bit opcode, with the\n'
                          ' * address and data size model of each. Included by frontend/isa/mem_mimg.c.'))
        emit_table(f, 'wl_mem_mimg_tab', [256], mimg)
    print('done', file=sys.stderr)


if __name__ == '__main__':
    main()

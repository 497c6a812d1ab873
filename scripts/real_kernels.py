#!/usr/bin/env python3
"""Runs OpenCL C kernels from outside the repository through `wavelift run`
and compares their outputs with PoCL's (issue 4: "real OpenCL kernels that
are not in the repository run through `wavelift run` with outputs identical
to PoCL's"; docs/real-kernels.md).

    scripts/real_kernels.py KERNEL_DIR [--build DIR] [--only NAME]...
                            [--sizes 8,16] [--waves 64,32] [--jobs N]
                            [--timeout-ms MS] [--keep DIR] [-v]

Every KERNEL_DIR/**/*.cl file with launch specs is a test. The specs are
`//! ` lines, in the .cl file itself or in a sidecar next to it (FILE.run
for FILE.cl), in the syntax of the kernel suite (tests/test_suite_run.c)
plus a few additions:

    //! options OPTS          build options for both compilers (e.g.
                              -DBLOCK_SIZE=16); -cl-std=CL2.0 is always given.
                              Before the first `run`: the file's options;
                              after a `run`: that run's own (replacing them)
    //! run KERNEL global=X[,Y[,Z]] local=X[,Y[,Z]] [tol=N]
    //! arg GEN:ARGS          an input buffer made here (below)
    //! arg SPEC              any other `wavelift run --arg` SPEC as is
    //! out N [sorted]        compare buffer argument N; `sorted`: as a
                              multiset of 32-bit words (a kernel whose output
                              order depends on atomics' order)
    //! note TEXT             printed with the run (why the launch is so)
    //! expect N TYPE:EXPR    a host reference for buffer N: the Python list
                              EXPR packed as TYPE (u8 i32 u32 f32); EXPR
                              may use A(I, T), argument I's input unpacked
                              as T ('I', 'i', 'f', 'B'). PoCL is checked
                              against it; where PoCL disagrees (a PoCL bug),
                              ours is compared with the host reference and
                              the run is marked "PoCL wrong"

Generators (deterministic: seeded by the kernel name and argument index):
    iota:N rand:N small:N randf:N   N 32-bit words, as the suite makes them
                                    (small: rand % 256; randf: [-1, 1))
    randu:N                         N floats in [0, 1)
    mod:N:M                         N words, rand % M
    const:N:V                       N words of V (an integer, or a float
                                    when V has a '.')
    text:N:ALPHABET                 N bytes drawn from ALPHABET
    py:TYPE:EXPR                    the Python list EXPR packed as TYPE
                                    (u8 i32 u32 f32); EXPR may use R, a
                                    random.Random seeded as above
    file:NAME                       the file NAME, relative to the .cl file

Each run spec runs once on PoCL (BUILD/tests/wl_pocl_run, the reference)
and through `wavelift run` from clang-19's gfx1030 code objects, wave64 and
wave32, on lavapipe at subgroup sizes 8 and 16 (LP_NATIVE_VECTOR_WIDTH 256
and 512). Output buffers must be equal byte for byte, or 32-bit floats
within `tol` ulps (NaN equal to NaN) where the spec gives one.

Exit: 0 when every run matches; 1 when any run mismatches or fails (or
PoCL fails); 3 when nothing mismatched but some runs were refused by name.
"""
import argparse
import hashlib
import os
import random
import re
import shlex
import struct
import subprocess
import sys
import tempfile
import zlib
from concurrent.futures import ThreadPoolExecutor

DEVICE_LIBS = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"
WIDTHS = {4: 128, 8: 256, 16: 512}


def parse_specs(path):
    """The specs of one .cl file: (options, [spec...])."""
    lines = []
    for p in (path, path[:-3] + ".run"):
        if os.path.exists(p):
            with open(p, encoding="utf-8", errors="replace") as f:
                lines += [(p, i + 1, l.rstrip("\n")) for i, l in enumerate(f)]
    options, specs, cur = "", [], None
    for p, ln, line in lines:
        if not line.startswith("//! "):
            continue
        word, _, rest = line[4:].partition(" ")
        if word == "options":
            if cur is None:
                options = rest.strip()
            else:
                cur["options"] = rest.strip()
        elif word == "run":
            m = re.match(r"(\S+) global=(\S+) local=(\S+)(?: tol=(\d+))?\s*$", rest)
            if not m:
                sys.exit(f"{p}:{ln}: bad run line: {line}")
            cur = {"kernel": m.group(1), "global": m.group(2), "local": m.group(3),
                   "tol": int(m.group(4) or 0), "args": [], "outs": [], "notes": [], "expect": {}}
            specs.append(cur)
        elif word in ("arg", "out", "note", "expect"):
            if cur is None:
                sys.exit(f"{p}:{ln}: `{word}` before any `run`")
            if word == "arg":
                cur["args"].append(rest.strip())
            elif word == "note":
                cur["notes"].append(rest.strip())
            elif word == "expect":
                n, _, e = rest.strip().partition(" ")
                cur["expect"][int(n)] = e
            else:
                parts = rest.split()
                cur["outs"].append((int(parts[0]), len(parts) > 1 and parts[1] == "sorted"))
        else:
            sys.exit(f"{p}:{ln}: unknown directive: {line}")
    return options, specs


def xorshift(seed):
    x = seed & 0xFFFFFFFF or 1
    while True:
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        yield x


def make_arg(tmp, kdir, kernel, ai, a):
    """The `--arg` SPEC of argument `a`, writing a generator's input file."""
    kind, _, rest = a.partition(":")
    seed = zlib.crc32(f"{kernel}:{ai}".encode())
    data = None
    if kind in ("iota", "rand", "small", "randf", "randu", "mod", "const"):
        fields = rest.split(":")
        n = int(fields[0])
        g = xorshift(0x9E3779B9 ^ seed)
        if kind == "iota":
            data = struct.pack(f"<{n}I", *range(n))
        elif kind == "rand":
            data = struct.pack(f"<{n}I", *(next(g) for _ in range(n)))
        elif kind == "small":
            data = struct.pack(f"<{n}I", *(next(g) & 255 for _ in range(n)))
        elif kind == "mod":
            m = int(fields[1])
            data = struct.pack(f"<{n}I", *(next(g) % m for _ in range(n)))
        elif kind == "randf":
            data = struct.pack(f"<{n}f", *(struct.unpack("<i", struct.pack("<I", next(g)))[0] / 2147483648.0
                                           for _ in range(n)))
        elif kind == "randu":
            data = struct.pack(f"<{n}f", *((next(g) >> 8) / 16777216.0 for _ in range(n)))
        else:
            v = fields[1]
            data = struct.pack(f"<{n}f", *([float(v)] * n)) if "." in v else \
                struct.pack(f"<{n}I", *([int(v, 0) & 0xFFFFFFFF] * n))
    elif kind == "text":
        n, _, alphabet = rest.partition(":")
        r = random.Random(seed)
        data = bytes(ord(r.choice(alphabet)) for _ in range(int(n)))
    elif kind == "py":
        ty, _, expr = rest.partition(":")
        fmt = {"u8": "B", "i32": "i", "u32": "I", "f32": "f"}[ty]
        vals = eval(expr, {"R": random.Random(seed), "range": range, "len": len,  # noqa: S307
                           "min": min, "max": max, "abs": abs, "int": int, "float": float})
        data = struct.pack(f"<{len(vals)}{fmt}", *vals)
    elif kind == "file":
        return "buf:" + os.path.join(kdir, rest)
    else:
        return a
    path = os.path.join(tmp, f"in.{ai}")
    with open(path, "wb") as f:
        f.write(data)
    return "buf:" + path


def host_expect(spec_expr, argfiles):
    """The bytes of an `expect` line's host reference."""
    ty, _, expr = spec_expr.partition(":")
    fmt = {"u8": "B", "i32": "i", "u32": "I", "f32": "f"}[ty]

    def A(i, t):
        with open(argfiles[i], "rb") as f:
            d = f.read()
        sz = struct.calcsize(t)
        return list(struct.unpack(f"<{len(d) // sz}{t}", d[:len(d) // sz * sz]))
    vals = eval(expr, {"A": A, "range": range, "len": len, "sum": sum, "min": min,  # noqa: S307
                       "max": max, "abs": abs, "int": int, "float": float, "bytes": bytes,
                       "hashlib": hashlib, "struct": struct})
    return struct.pack(f"<{len(vals)}{fmt}", *vals)


def ulp_key(b):
    return -(b & 0x7FFFFFFF) if b & 0x80000000 else b


def compare(ref, got, tol, sort, names=("ours", "PoCL")):
    """None when equal (within tol ulps), else the first difference
    (`names`: what got and ref are called in it)."""
    if len(ref) != len(got):
        return f"{len(got)} bytes, {names[1]} {len(ref)}"
    if ref == got:
        return None
    n = len(ref) // 4
    r = list(struct.unpack(f"<{n}I", ref[:n * 4]))
    g = list(struct.unpack(f"<{n}I", got[:n * 4]))
    if sort:
        r.sort()
        g.sort()
    if ref[n * 4:] != got[n * 4:]:
        return "trailing bytes differ"
    bad = 0
    first = None
    for i, (a, b) in enumerate(zip(r, g)):
        if a == b:
            continue
        if tol:
            fa, fb = struct.unpack("<2f", struct.pack("<2I", a, b))
            if (fa != fa and fb != fb) or abs(ulp_key(a) - ulp_key(b)) <= tol:
                continue
        bad += 1
        if first is None:
            first = f"word {i}{' (sorted)' if sort else ''}: {names[0]} 0x{b:08x}, {names[1]} 0x{a:08x}"
    return None if not bad else f"{first}; {bad} of {n} words differ"


def run(cmd, env=None, timeout=600):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return 124, "", "timed out"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kdir")
    ap.add_argument("--build", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build"))
    ap.add_argument("--only", action="append", default=[], help="kernel or file stem")
    ap.add_argument("--sizes", default="8,16")
    ap.add_argument("--waves", default="64,32")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout-ms", type=int, default=180000)
    ap.add_argument("--keep", help="keep inputs and outputs in this directory")
    ap.add_argument("--clang", default="clang-19")
    ap.add_argument("-v", "--verbose", action="store_true")
    o = ap.parse_args()
    cli = os.path.join(o.build, "wavelift")
    pocl = os.path.join(o.build, "tests", "wl_pocl_run")
    for t in (cli, pocl):
        if not os.access(t, os.X_OK):
            sys.exit(f"real_kernels: {t} missing: build the wavelift and wl_pocl_run targets")
    sizes = [int(s) for s in o.sizes.split(",")]
    waves = [int(w) for w in o.waves.split(",")]
    tmproot = o.keep or tempfile.mkdtemp(prefix="wl_real.")
    os.makedirs(tmproot, exist_ok=True)

    files = []
    for root, _, names in os.walk(o.kdir):
        files += [os.path.join(root, n) for n in names if n.endswith(".cl")]
    files.sort()
    counts = {"match": 0, "MISMATCH": 0, "refused": 0, "FAILED": 0}
    table = []
    nspecs = pocl_fail = 0
    counts_pocl_wrong = []
    for path in files:
        options, specs = parse_specs(path)
        stem = os.path.splitext(os.path.basename(path))[0]
        project = os.path.basename(os.path.dirname(path))
        specs = [s for s in specs if not o.only or s["kernel"] in o.only or stem in o.only]
        if not specs:
            continue
        fdir = os.path.join(tmproot, f"{project}.{stem}")
        os.makedirs(fdir, exist_ok=True)
        compiled = {}  # options -> {wave: code object} or None (clang failed)

        def compile_for(opts):
            if opts in compiled:
                return compiled[opts]
            cos = {}
            for w in waves:
                co = os.path.join(fdir, f"{stem}.{len(compiled)}.w{w}.co")
                rc, out, err = run([o.clang, "-x", "cl", "-cl-std=CL2.0", "-Xclang", "-finclude-default-header",
                                    "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1030",
                                    "-mwavefrontsize64" if w == 64 else "-mno-wavefrontsize64", "-O2",
                                    f"--rocm-device-lib-path={DEVICE_LIBS}", *shlex.split(opts), "-o", co, path])
                if rc != 0:
                    print(f"{project}/{stem}: clang-19 failed (wave{w}, options '{opts}'):\n{err}")
                    cos = None
                    break
                cos[w] = co
            compiled[opts] = cos
            return cos
        for si, sp in enumerate(specs):
            nspecs += 1
            name = f"{project}/{sp['kernel']}"
            sdir = os.path.join(fdir, f"{si}.{sp['kernel']}")
            os.makedirs(sdir, exist_ok=True)
            sopts = sp.get("options", options)
            cos = compile_for(sopts)
            if cos is None:
                counts["FAILED"] += len(waves) * len(sizes)
                table.append((name, sp, ["clang"] * (len(waves) * len(sizes)), "clang-19 failed"))
                continue
            args, argfiles = [], {}
            for ai, a in enumerate(sp["args"]):
                spec_ = make_arg(sdir, os.path.dirname(path), sp["kernel"], ai, a)
                args += ["--arg", spec_]
                if spec_.startswith("buf:"):
                    argfiles[ai] = spec_[4:]
            launch = ["--kernel", sp["kernel"], "--global", sp["global"], "--local", sp["local"]]
            refouts = [os.path.join(sdir, f"ref.{n}") for n, _ in sp["outs"]]
            rc, out, err = run([pocl, path, *launch, *args, "--options", f"-cl-std=CL2.0 {sopts}".strip(),
                                *sum((["--out", f"{n}:{f}"] for (n, _), f in zip(sp["outs"], refouts)), [])])
            if rc != 0:
                pocl_fail += 1
                print(f"{name}: PoCL failed ({rc}): {err.strip()}")
                table.append((name, sp, ["pocl"] * (len(waves) * len(sizes)), "PoCL failed"))
                counts["FAILED"] += len(waves) * len(sizes)
                continue
            # No vacuous pass: PoCL must have changed every compared buffer.
            unchanged = []
            for (n, _), rf in zip(sp["outs"], refouts):
                a = sp["args"][n] if n < len(sp["args"]) else ""
                if n in argfiles:
                    with open(argfiles[n], "rb") as f:
                        init = f.read()
                elif a.startswith("zero:"):
                    init = bytes(int(a[5:]))
                else:
                    continue
                with open(rf, "rb") as f:
                    if f.read() == init:
                        unchanged.append(n)
            if unchanged:
                print(f"{name}: PoCL left buffer {unchanged} as it was: the launch tests nothing there")
                table.append((name, sp, ["vacuous"] * (len(waves) * len(sizes)), "output unchanged"))
                counts["FAILED"] += len(waves) * len(sizes)
                continue
            # A host reference, where the spec gives one, checks PoCL; where
            # PoCL disagrees with it, ours is compared with it instead.
            pocl_wrong = []
            for (n, sort), rf in zip(sp["outs"], refouts):
                if n not in sp["expect"]:
                    continue
                want = host_expect(sp["expect"][n], argfiles)
                with open(rf, "rb") as f:
                    d = compare(want, f.read(), sp["tol"], sort, ("PoCL", "host"))
                if d:
                    pocl_wrong.append(n)
                    print(f"{name}: PoCL disagrees with the host reference, buffer {n}: {d}")
                    with open(rf, "wb") as f:
                        f.write(want)
            combos = [(w, s) for w in waves for s in sizes]

            def one(ws):
                w, s = ws
                outs = [os.path.join(sdir, f"got.w{w}.s{s}.{n}") for n, _ in sp["outs"]]
                for f in outs:
                    if os.path.exists(f):
                        os.remove(f)
                env = dict(os.environ, LP_NATIVE_VECTOR_WIDTH=str(WIDTHS[s]), WAVELIFT_DEVICE="llvmpipe")
                cmd = [cli, "run", "--timeout-ms", str(o.timeout_ms), cos[w], *launch, *args,
                       *sum((["--out", f"{n}:{f}"] for (n, _), f in zip(sp["outs"], outs)), [])]
                rc, out, err = run(cmd, env=env, timeout=o.timeout_ms / 1000 + 120)
                if rc == 3:
                    return "refused", err.strip().splitlines()[0] if err.strip() else "?", out
                if rc != 0:
                    return "FAILED", f"exit {rc}: {err.strip()[:300]}", out
                for (n, sort), rf, gf in zip(sp["outs"], refouts, outs):
                    if not os.path.exists(gf):
                        return "FAILED", f"no output file for buffer {n}", out
                    with open(rf, "rb") as a, open(gf, "rb") as b:
                        d = compare(a.read(), b.read(), sp["tol"], sort)
                    if d:
                        return "MISMATCH", f"buffer {n}: {d}", out
                return "match", "", out

            with ThreadPoolExecutor(max_workers=max(1, o.jobs)) as ex:
                results = list(ex.map(one, combos))
            cells, why = [], ""
            for (w, s), (res, detail, out) in zip(combos, results):
                counts[res] += 1
                cells.append(res)
                if res != "match":
                    why = why or f"w{w} S={s}: {detail}"
                    print(f"{name} w{w} S={s}: {res}: {detail}")
                elif o.verbose:
                    print(f"{name} w{w} S={s}: match ({' '.join(out.split())[:160]})")
            if pocl_wrong:
                why = (why + "; " if why else "") + \
                    f"PoCL wrong (buffer {', '.join(map(str, pocl_wrong))}): compared with the host reference"
                counts_pocl_wrong.append(name)
            table.append((name, sp, cells, why))
            print(f"{name:40s} " + " ".join(f"{c:8s}" for c in cells), flush=True)

    print()
    hdr = " ".join(f"w{w}/S{s:<4d}" for w in waves for s in sizes)
    print(f"{'kernel':40s} {hdr}")
    for name, sp, cells, why in table:
        print(f"{name:40s} " + " ".join(f"{c:8s}" for c in cells) + (f"  tol={sp['tol']}" if sp["tol"] else "")
              + (f"  ({sp['options']})" if sp.get("options") else "")
              + (f"  [{why}]" if why else ""))
    runs = sum(counts.values())
    print(f"\nreal kernels: {nspecs} launches in {len({t[0].split('/')[0] for t in table})} projects; "
          f"{runs} runs (wave {'/'.join(map(str, waves))} at S = {', '.join(map(str, sizes))}): "
          f"{counts['match']} match, {counts['MISMATCH']} mismatch, {counts['refused']} refused by name, "
          f"{counts['FAILED']} failed" + (f" (PoCL failed {pocl_fail})" if pocl_fail else "")
          + (f"; PoCL wrong on {len(counts_pocl_wrong)} launches (checked by host references)"
             if counts_pocl_wrong else ""))
    if not o.keep:
        subprocess.run(["rm", "-rf", tmproot])
    if counts["MISMATCH"] or counts["FAILED"] or runs == 0:
        return 1
    return 3 if counts["refused"] else 0


if __name__ == "__main__":
    sys.exit(main())

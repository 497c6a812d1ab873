#!/usr/bin/env python3
"""Measures how much of a large, unseen program wavelift lists exactly as
llvm-objdump-19 does.

It writes OpenCL C that is not in the repository (kernels calling most of
the ROCm device library's math on float, double and half, integer division
and 64-bit arithmetic, loops around them), compiles it with clang-19 for
gfx1030 (or the --mcpu targets) in wave64 and wave32, lists every function symbol with
`wavelift dis` and llvm-objdump-19, and reports the fraction of
instructions whose text is identical (white space aside). Instructions are
aligned by address; s_code_end / s_nop padding past a symbol's size is not
part of any function and is left out (as in tests/test_listing.c). Then it
runs wl_bench_decode over these objects and the test corpus.

usage: scripts/measure_listing.py [--build DIR] [--keep DIR] [--target PCT]
                                  [--strict] [--examples N] [--mcpu LIST]
Exit status: 0 when measured (1 with --strict when below the target),
2 when a tool failed.
"""
import argparse
import collections
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

DEVICE_LIBS = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"
CLANG = "clang-19"
OBJDUMP = "llvm-objdump-19"
READELF = "llvm-readelf-19"

UNARY = ["sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh",
         "acosh", "atanh", "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p",
         "cbrt", "sqrt", "rsqrt", "erf", "erfc", "lgamma", "tgamma", "ceil", "floor", "round",
         "trunc", "rint", "logb", "sinpi", "cospi", "tanpi", "asinpi", "acospi", "atanpi"]
BINARY = ["pow", "powr", "atan2", "atan2pi", "fmod", "remainder", "hypot", "fdim", "fmax",
          "fmin", "copysign", "nextafter", "maxmag", "minmag"]
NATIVE = ["native_sin", "native_cos", "native_exp", "native_log", "native_sqrt",
          "native_rsqrt", "native_recip", "native_exp2", "native_log2", "native_tan"]


def gen_float_kernels(t, suffix, per_kernel=5):
    """Kernels of type t (float, double, half): a few functions each, so
    every library function is inlined into some kernel."""
    lit = {"float": "f", "double": "", "half": "h"}[t]
    itype = {"float": "int", "double": "int", "half": "int"}[t]
    out = []
    calls = [f"{f}(x)" for f in UNARY] + [f"{f}(x, y)" for f in BINARY]
    calls += [f"pown(x, (int)k)", f"rootn(x, (int)k | 1)", f"ldexp(x, (int)k)",
              f"fma(x, y, ({t})1.5{lit})", f"mad(x, y, ({t})0.5{lit})",
              f"sincos(x, &tmp)", f"remquo(x, y, &q)", f"frexp(x, &q)", f"modf(x, &tmp)",
              f"fract(x, &tmp)", f"lgamma_r(x, &q)", f"(tmp + ({t})q)",
              f"({t})ilogb(x)", f"mix(x, y, ({t})0.25{lit})", f"smoothstep(({t})0, ({t})1, x)"]
    if t == "float":
        calls += [f"{f}(x)" for f in NATIVE] + ["half_exp(x)", "half_log(x)", "half_recip(x)"]
    for n in range(0, len(calls), per_kernel):
        chunk = calls[n:n + per_kernel]
        body = "\n".join(f"    r += {c};" for c in chunk)
        out.append(f"""
kernel void {suffix}_k{n // per_kernel}(global const {t} *a, global const {t} *b,
                                       global {t} *o, global const int *ks)
{{
    size_t i = get_global_id(0);
    {t} x = a[i], y = b[i], tmp = ({t})0, r = ({t})0;
    {itype} q = 0, k = ks[i];
{body}
    o[i] = r + tmp + ({t})q;
}}
""")
    # A loop around a few of them, with a data-dependent trip count.
    out.append(f"""
kernel void {suffix}_loop(global const {t} *a, global {t} *o, int n)
{{
    size_t i = get_global_id(0);
    {t} x = a[i], acc = ({t})0;
    for (int k = 0; k < n; k++) {{
        x = sin(x) * exp(-fabs(x)) + pow(fabs(x) + ({t})1, ({t})0.5{lit});
        if (x > ({t})2)
            break;
        acc += log1p(fabs(x)) / (({t})1 + x * x);
    }}
    o[i] = acc + tgamma(x) + erf(acc);
}}
""")
    return "".join(out)


def gen_int_kernels():
    out = []
    for t in ["int", "uint", "long", "ulong", "short", "uchar"]:
        out.append(f"""
kernel void int_{t}(global const {t} *a, global const {t} *b, global {t} *o, {t} k)
{{
    size_t i = get_global_id(0);
    {t} x = a[i], y = b[i] | ({t})1;
    {t} r = x / y + x % y + x / k + x % ({t})7 + mul_hi(x, y) + mad_hi(x, y, k);
    r += clz(x) + popcount(y) + ctz(x) + rotate(x, y) + abs_diff(x, y);
    r += add_sat(x, y) + sub_sat(x, k) + hadd(x, y) + rhadd(x, k) + mad_sat(x, y, k);
    r += max(x, y) - min(x, k) + clamp(x, ({t})3, ({t})100) + (x >> (y & 7)) + (x << 3);
    for ({t} j = 0; j < (k & ({t})15); j++)
        r = r * ({t})31 + x / (y + j + ({t})1);
    o[i] = r;
}}
""")
    out.append("""
kernel void int_mixed(global const long *a, global const int *b, global double *o,
                      global ulong *u, int n)
{
    size_t i = get_global_id(0);
    long x = a[i];
    ulong h = 1469598103934665603ul;
    for (int k = 0; k < n; k++) {
        h = (h ^ (ulong)(x + k)) * 1099511628211ul;
        x = x / ((long)b[(i + k) & 255] | 1) + (long)(h >> 33);
    }
    u[i] = h % 1000000007ul + (ulong)upsample((uint)x, (uint)h);
    o[i] = (double)x / (double)(h | 1) + (double)(uint)h + (double)(int)x;
}
""")
    return "".join(out)


def generate(workdir):
    srcs = {
        "gen_f32.cl": gen_float_kernels("float", "f32"),
        "gen_f64.cl": "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                      + gen_float_kernels("double", "f64"),
        "gen_f16.cl": "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                      + gen_float_kernels("half", "f16"),
        "gen_int.cl": gen_int_kernels(),
    }
    paths = []
    for name, text in srcs.items():
        p = os.path.join(workdir, name)
        with open(p, "w") as f:
            f.write("/* Generated by scripts/measure_listing.py. */\n" + text)
        paths.append(p)
    return paths


def indent(text):
    return "\n".join("  " + l for l in text.strip().splitlines())


def run(cmd, check=True):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if check and r.returncode != 0:
        sys.stderr.write(f"measure_listing: {' '.join(cmd)} failed ({r.returncode}):\n"
                         f"{r.stderr[-2000:]}\n")
        sys.exit(2)
    return r


def compile_cl(src, wave, outdir, mcpu):
    stem = os.path.splitext(os.path.basename(src))[0]
    tag = "" if mcpu == "gfx1030" else "." + mcpu
    out = os.path.join(outdir, f"{stem}{tag}.w{wave}.co")
    flag = "-mwavefrontsize64" if wave == 64 else "-mno-wavefrontsize64"
    run([CLANG, "-x", "cl", "-cl-std=CL2.0", "-Xclang", "-finclude-default-header",
         "-target", "amdgcn-amd-amdhsa", f"-mcpu={mcpu}", flag, "-O2",
         f"--rocm-device-lib-path={DEVICE_LIBS}", "-o", out, src])
    return out


LINE = re.compile(r"^\t(.*?)\s*//\s*([0-9A-Fa-f]+):\s*([0-9A-Fa-f ]+)")


def parse_listing(text):
    """{address: (text, encoding, label)} from objdump's or wavelift's listing."""
    res = {}
    label = None
    for line in text.splitlines():
        if line.startswith("\t"):
            m = LINE.match(line)
            if m:
                txt = " ".join(m.group(1).split())
                res[int(m.group(2), 16)] = (txt, m.group(3).strip(), label)
        elif line.endswith(":") and not line.startswith(";") and " " not in line.rstrip(":").split("<")[-1]:
            label = line.rstrip(":").split("<")[-1].rstrip(">")
    return res


def symbols(path):
    out = run([READELF, "-s", "--wide", path]).stdout
    syms = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 8 and f[0].endswith(":") and f[3] == "FUNC":
            syms[f[7]] = (int(f[1], 16), int(f[2]))
    return syms


def fmt_of(w0):
    if w0 >> 31 == 0:
        fam = {0x3f: "VOP1", 0x3e: "VOPC"}.get(w0 >> 25, "VOP2")
        src0 = w0 & 0x1ff
        var = {0xf9: " SDWA", 0xfa: " DPP16", 0xe9: " DPP8", 0xea: " DPP8"}.get(src0, "")
        return fam + var
    if w0 >> 30 == 2:
        return {0x17d: "SOP1", 0x17e: "SOPC", 0x17f: "SOPP"}.get(
            w0 >> 23, "SOPK" if w0 >> 28 == 0xb else "SOP2")
    if w0 >> 24 == 0xcc:
        return "VOP3P"
    top = w0 >> 26
    if top == 0x37:
        return ["FLAT", "SCRATCH", "GLOBAL", "FLAT?"][(w0 >> 14) & 3]
    return {0x3d: "SMEM", 0x35: "VOP3", 0x36: "DS", 0x38: "MUBUF", 0x3a: "MTBUF",
            0x3c: "MIMG"}.get(top, "unknown")


def compare(path, cli, stats):
    wave = 32 if path.endswith(".w32.co") else 64
    m = re.search(r"\.(gfx10\d\d)\.w\d\d\.co$", path)
    mcpu = m.group(1) if m else "gfx1030"
    od = parse_listing(run([OBJDUMP, "-d", f"--mcpu={mcpu}",
                            f"--mattr=+wavefrontsize{wave}", path]).stdout)
    wl_run = run([cli, "dis", path], check=False)
    if wl_run.returncode not in (0, 1):
        sys.stderr.write(f"measure_listing: wavelift dis {path}: exit {wl_run.returncode}\n"
                         f"{wl_run.stderr[-2000:]}\n")
        sys.exit(2)
    wl = parse_listing(wl_run.stdout)
    asm = run([cli, "dis", "--asm-only", path], check=False).stdout
    asm_texts = [" ".join(l.split()) for l in asm.splitlines() if l.strip()]
    full_texts = [v[0] for _, v in sorted(wl.items())]
    listed = {v[2] for v in wl.values()}
    n = ok = 0
    unlisted = []
    syms = symbols(path)
    for name, (addr, size) in syms.items():
        if name not in listed:
            unlisted.append(name)
            continue
        for a in sorted(x for x in od if addr <= x < addr + size):
            text, enc, _ = od[a]
            ours = wl.get(a, ("(no instruction here)", "", None))
            good = ours[0] == text and ours[2] == name
            n += 1
            ok += good
            key = (fmt_of(int(enc.split()[0], 16)), text.split()[0])
            stats[key][0] += 1
            stats[key][1] += good
            if not good and len(stats[key]) == 2:
                stats[key].append((enc, text, ours[0]))
    # Functions wavelift does not list count as all wrong.
    for name in unlisted:
        addr, size = syms[name]
        miss = sum(1 for x in od if addr <= x < addr + size)
        n += miss
        stats[("unlisted", "function " + name)][0] += miss
    return n, ok, unlisted, asm_texts == full_texts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--build", default=os.path.join(here, "build"),
                    help="the CMake build directory (default: build)")
    ap.add_argument("--keep", help="write the generated sources and objects here")
    ap.add_argument("--target", type=float, default=99.9, help="target match percentage")
    ap.add_argument("--strict", action="store_true", help="exit 1 below the target")
    ap.add_argument("--examples", type=int, default=25, help="mismatching opcodes to show")
    ap.add_argument("--mcpu", default="gfx1030",
                    help="comma-separated targets to compile for (default gfx1030; "
                         "gfx1010,gfx1013,gfx1030 for all three ISAs)")
    args = ap.parse_args()

    cli = os.path.join(args.build, "wavelift")
    bench = os.path.join(args.build, "wl_bench_decode")
    for tool in (cli, bench):
        if not os.access(tool, os.X_OK):
            sys.stderr.write(f"measure_listing: {tool} not built (cmake --build {args.build})\n")
            return 2
    workdir = args.keep or tempfile.mkdtemp(prefix="wl_measure.")
    os.makedirs(workdir, exist_ok=True)
    try:
        objs = [compile_cl(src, wave, workdir, mcpu) for mcpu in args.mcpu.split(",")
                for src in generate(workdir) for wave in (64, 32)]
        stats = collections.defaultdict(lambda: [0, 0])
        tn = tok = 0
        print(f"{'object':<30} {'instructions':>12} {'match':>8} {'rate':>8}")
        for o in objs:
            n, ok, unlisted, asm_same = compare(o, cli, stats)
            tn += n
            tok += ok
            note = "" if asm_same else "  (--asm-only differs from the full listing)"
            if unlisted:
                note += f"  (not listed: {', '.join(unlisted)})"
            print(f"{os.path.basename(o):<30} {n:>12} {ok:>8} {100.0 * ok / max(n, 1):>7.2f}%{note}")
        rate = 100.0 * tok / max(tn, 1)
        print(f"{'TOTAL':<30} {tn:>12} {tok:>8} {rate:>7.2f}%   "
              f"target {args.target}%: {'met' if rate >= args.target else 'NOT met'}")
        nlisted = tn - sum(v[0] for k, v in stats.items() if k[0] == "unlisted")
        if nlisted != tn:
            print(f"{'  of listed functions':<30} {nlisted:>12} {tok:>8} "
                  f"{100.0 * tok / max(nlisted, 1):>7.2f}%   (the decoder alone; the rest "
                  "are functions wavelift dis does not list)")

        fmts = collections.defaultdict(lambda: [0, 0, 0])
        for (fmt, _), v in stats.items():
            fmts[fmt][0] += 1
            fmts[fmt][1] += v[0]
            fmts[fmt][2] += v[1]
        print("\nBy format:")
        for fmt, (ops, cnt, good) in sorted(fmts.items(), key=lambda kv: -(kv[1][1] - kv[1][2])):
            print(f"  {fmt:<11} {ops:>4} opcodes, {cnt:>7} instances, {good:>7} match")
        bad = sorted(((k, v) for k, v in stats.items() if v[0] != v[1]),
                     key=lambda kv: -(kv[1][0] - kv[1][1]))
        if bad:
            print(f"\nOpcodes with mismatches ({len(bad)}), most first:")
        for (fmt, mn), v in bad[:args.examples]:
            print(f"  {fmt} {mn}: {v[0] - v[1]} of {v[0]} differ")
            if len(v) > 2:
                enc, text, ours = v[2]
                print(f"      [{enc}]\n      llvm: {text}\n      ours: {ours}")

        corpus = sorted(glob.glob(os.path.join(args.build, "kernels", "*.co")))
        print("\nwl_bench_decode over the generated objects:")
        print(indent(run([bench, "--min-time", "0.01"] + objs).stdout))
        if corpus:
            print(f"wl_bench_decode over the test corpus ({len(corpus)} objects):")
            print(indent(run([bench, "--min-time", "0.01"] + corpus).stdout))
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    return 1 if args.strict and rate < args.target else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Runs the translation benchmark (bench/bench_translate.c) over the compiled
corpus (BUILD/kernels/*.co) and a generated large program, for
docs/benchmarks.md.

The large programs are OpenCL C that is not in the repository: one kernel
calling every float function of scripts/measure_listing.py's generator (the
ROCm device library's libm, inlined), about 3,200 guest instructions, plus
its loop kernel (bench_big.cl), and the same functions 40 to a kernel
(bench_mid.cl: mid_k0 is about 2,250 instructions, the size the time aim
names). They are compiled by clang-19 for gfx1030 in wave64 and wave32.

With --third-party it also compiles the third-party corpus (tests/corpus:
hashcat's, Random123's and darktable's code from the Debian packages that
scripts/install-deps.sh unpacks under WL_CORPUS_DIR, docs/corpus.md), every
file wave64 and wave32, as tests/test_corpus.c does, and tests/wave_model/*.cl
(the cephes-style Bessel kernel in double precision).

usage: scripts/bench_translate.py [--build DIR] [--keep DIR] [--no-corpus] [--third-party] [-- BENCH ARGS...]
  e.g. scripts/bench_translate.py --build build -- --s8 --run --reps 3
       scripts/bench_translate.py --third-party -- --reps 1 --wave --csv all.csv
Exit status: the benchmark's (0 when every kernel translated or was refused
by name), 2 when a tool failed.
"""
import argparse
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure_listing  # noqa: E402  (the generator and clang-19 invocation)


HERE = os.path.dirname(os.path.abspath(__file__))


def corpus_sources(root):
    """(source path, clang options) of every tests/corpus file, its `//! options`
    with @PKG@ replaced by the package's directory under root."""
    cdir = os.path.join(HERE, "..", "tests", "corpus")
    out = []
    for name in sorted(os.listdir(cdir)):
        if not name.endswith((".cl", ".run")):
            continue
        src, opts = os.path.join(cdir, name), ""
        for line in open(os.path.join(cdir, name), encoding="utf-8"):
            if line.startswith("//! options "):
                opts = line[len("//! options "):].strip()
            elif line.startswith("//! file "):
                pkg, path = line.split()[2:4]
                src = os.path.join(root, pkg, path)
        for pkg in os.listdir(root):
            opts = opts.replace(f"@{pkg}@", os.path.join(root, pkg))
        if not os.path.exists(src):
            sys.stderr.write(f"bench_translate: {src} missing: run scripts/install-deps.sh (or set WL_CORPUS_DIR)\n")
            sys.exit(2)
        out.append((src, name.rsplit(".", 1)[0], opts.split() + ["-I", cdir]))
    return out


def compile_corpus(work, jobs):
    root = os.environ.get("WL_CORPUS_DIR", "/var/cache/wavelift-corpus")
    todo = []
    for src, stem, opts in corpus_sources(root):
        for wave in (64, 32):
            out = os.path.join(work, f"{stem}.w{wave}.co")
            flag = "-mwavefrontsize64" if wave == 64 else "-mno-wavefrontsize64"
            todo.append([measure_listing.CLANG, "-x", "cl", "-cl-std=CL2.0", "-Xclang",
                         "-finclude-default-header", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1030",
                         flag, "-O2", f"--rocm-device-lib-path={measure_listing.DEVICE_LIBS}"] + opts
                        + ["-o", out, src])
    sys.stderr.write(f"bench_translate: compiling the third-party corpus, {len(todo)} objects\n")
    with ThreadPoolExecutor(jobs) as ex:
        list(ex.map(measure_listing.run, todo))
    return [c[c.index("-o") + 1] for c in todo]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="the build directory (wl_bench_translate, kernels/)")
    ap.add_argument("--keep", help="write the generated sources and objects here (default: a temporary directory)")
    ap.add_argument("--no-corpus", action="store_true", help="the generated program only")
    ap.add_argument("--third-party", action="store_true", help="also the third-party corpus of tests/corpus")
    ap.add_argument("-j", type=int, default=2, help="clang processes at a time (default 2)")
    ap.add_argument("bench_args", nargs="*", help="arguments for wl_bench_translate (after --)")
    ap.add_argument("--skip-quick", action="store_true",
                    help="exit 77 (a skipped ctest) where WL_SUITE_QUICK is set (the sanitizer build)")
    a = ap.parse_args()
    if a.skip_quick and os.environ.get("WL_SUITE_QUICK"):
        print("bench_translate: skipped in the quick (sanitizer) run")
        return 77
    bench = os.path.join(a.build, "wl_bench_translate")
    corpus = os.path.join(a.build, "kernels")
    if not os.access(bench, os.X_OK) or not os.path.isdir(corpus):
        sys.stderr.write(f"bench_translate: build {a.build} first (wl_bench_translate, kernels/)\n")
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        work = a.keep or tmp
        os.makedirs(work, exist_ok=True)
        objs = []
        for name, per in (("big", 1000), ("mid", 40)):
            src = os.path.join(work, f"bench_{name}.cl")
            with open(src, "w") as f:
                f.write("/* Generated by scripts/bench_translate.py. */\n")
                f.write(measure_listing.gen_float_kernels("float", name, per_kernel=per))
            objs += [measure_listing.compile_cl(src, w, work, "gfx1030") for w in (64, 32)]
        if a.third_party:
            tdir = os.path.join(work, "third-party")
            os.makedirs(tdir, exist_ok=True)
            objs += compile_corpus(tdir, a.j)
            wdir = os.path.join(HERE, "..", "tests", "wave_model")  # our own large f64 kernel (bessel_f64.cl)
            for name in sorted(os.listdir(wdir)):
                if name.endswith(".cl"):
                    objs += [measure_listing.compile_cl(os.path.join(wdir, name), w, tdir, "gfx1030") for w in (64, 32)]
        return subprocess.call([bench] + a.bench_args + ([] if a.no_corpus else [corpus]) + objs)


if __name__ == "__main__":
    sys.exit(main())

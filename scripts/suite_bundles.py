#!/usr/bin/env python3
"""Writes the kernel suite as dispatch bundles (docs/bundle.md).

    scripts/suite_bundles.py [--models lanes|wave|both] [--corpus] S BUILD_DIR OUT_DIR [KERNEL...]

The bundles are translated for a device with WL_LDS_LIMIT bytes of shared
memory (environment; default 49152, the NVIDIA H200's
maxComputeSharedMemorySize): a kernel with more LDS keeps it in device
memory (docs/memory.md). WL_BUNDLE_EXTRA (environment): more `wavelift run` options for
every bundle, e.g. `--pages` (the paged mapping, format 3). WL_VECTORIZE=0:
lanes-model bundles translated with --no-vectorize (the lane clones stay
scalar; vectorized is the default, docs/backend.md "Vectors").

For every `//! run` spec of tests/kernels/suite_*.cl (the specs and input
data of tests/test_suite_run.c: the same files in the same order, the same
xorshift generators and seeds), at wave64 and wave32: runs the kernel on
PoCL from source (BUILD_DIR/tests/wl_pocl_run) for the expected outputs and
writes, with `wavelift run --bundle`, OUT_DIR/KERNEL.wWAVE/ in the lanes
model for subgroup size S and/or OUT_DIR/KERNEL.wWAVE.wave/ in the wave
model (docs/wave-model.md; no subgroup size), plus the expected files and
the spec's ulp tolerance.

--corpus: the third-party corpus instead (tests/corpus/*.cl and *.run, the
meta lines of tests/test_corpus.c; the packages under WL_CORPUS_DIR, by
default /var/cache/wavelift-corpus, scripts/install-deps.sh): each source
is compiled here by clang-19 as test_corpus compiles it, PoCL gives the
expected outputs, or the host reference (tests/corpus/hostref.py) where
the file says `pocl-wrong`. The `skip` lines are lavapipe's and CI's limits,
not the device's: every configuration is bundled. --models: lanes (the default), wave or both. A
kernel the translator refuses gets no bundle: OUT_DIR/REFUSED.txt lists it
with the reason. Exit 1 when PoCL or the translator fails otherwise.
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

GENS = ("iota", "rand", "small", "randf")


def parse_specs(kdir, corpus=False):
    specs = []
    if corpus:  # test_corpus's order: the .cl files, then the .run sidecars
        names = sorted(f for f in os.listdir(kdir) if f.endswith(".cl")) + \
            sorted(f for f in os.listdir(kdir) if f.endswith(".run"))
    else:
        names = sorted(f for f in os.listdir(kdir) if f.startswith("suite_") and f.endswith(".cl"))
    for name in names:
        cur = None
        meta = {}
        with open(os.path.join(kdir, name)) as f:
            for line in f:
                line = line.rstrip("\n")
                if not line.startswith("//! "):
                    continue
                l = line[4:]
                if l.startswith("run "):
                    m = re.match(r"(\S+) global=(\S+) local=(\S+)(?: tol=(\d+))?", l[4:])
                    if not m:
                        sys.exit(f"{name}: bad run line: {line}")
                    cur = {"file": name, "kernel": m.group(1), "global": m.group(2),
                           "local": m.group(3), "tol": int(m.group(4) or 0), "args": [], "outs": []}
                    specs.append(cur)
                elif l.startswith("arg "):
                    cur["args"].append(l[4:])
                elif l.startswith("out "):
                    cur["outs"].append(int(l[4:]))
                else:  # a file's meta line (the corpus): source, file, options, host, pocl-wrong
                    word, _, rest = l.partition(" ")
                    (cur if cur is not None and word in ("host", "pocl-wrong") else meta)[word] = rest
        for sp in specs:
            if sp["file"] == name:
                sp["meta"] = meta
    return specs


def corpus_build(sp, kdir, tmp):
    """tests/test_corpus.c's source path, build options and code objects."""
    root = os.environ.get("WL_CORPUS_DIR", "/var/cache/wavelift-corpus")
    meta = sp["meta"]
    opts = re.sub(r"@([^@]+)@", lambda m: os.path.join(root, m.group(1)), meta.get("options", ""))
    opts = f"-I{kdir} {opts}"
    if "file" in meta:
        pkg, path = meta["file"].split(None, 1)
        src = os.path.join(root, pkg, path)
    else:
        src = os.path.join(kdir, sp["file"])
    stem = sp["file"].rsplit(".", 1)[0]
    cos = {}
    for wave in (64, 32):
        co = os.path.join(tmp, f"{stem}.w{wave}.co")
        if not os.path.exists(co):
            cmd = ["clang-19", "-x", "cl", "-cl-std=CL2.0", "-Xclang", "-finclude-default-header",
                   "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1030",
                   "-mwavefrontsize64" if wave == 64 else "-mno-wavefrontsize64", "-O2",
                   "--rocm-device-lib-path=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"] + opts.split() + ["-o", co, src]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode:
                raise RuntimeError(f"clang-19 failed on {src}: {r.stderr.strip()}")
        cos[wave] = co
    return src, ["--options", "-cl-std=CL2.0 " + opts], cos


def make_arg(tmp, si, ai, a):
    """The input of a generator argument, as tests/test_suite_run.c makes it."""
    kind, _, n = a.partition(":")
    if kind not in GENS:
        return a
    gen = GENS.index(kind)
    x = (0x9E3779B9 ^ ((si * 7919 + ai * 104729) & 0xFFFFFFFF)) & 0xFFFFFFFF
    out = bytearray()
    for i in range(int(n)):
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        if gen == 0:
            out += struct.pack("<I", i)
        elif gen == 1:
            out += struct.pack("<I", x)
        elif gen == 2:
            out += struct.pack("<I", x & 255)
        else:
            s = x - (1 << 32) if x & 0x80000000 else x
            # (float)(int32_t)x / 2^31: one rounding to float, then an exact scaling
            out += struct.pack("<f", s / 2147483648.0)
    path = os.path.join(tmp, f"in.{si}.{ai}")
    with open(path, "wb") as f:
        f.write(out)
    return "buf:" + path


def main():
    argv = sys.argv[1:]
    models = ["lanes"]
    if argv[:1] == ["--models"] and len(argv) > 1:
        models = {"lanes": ["lanes"], "wave": ["wave"], "both": ["lanes", "wave"]}.get(argv[1])
        if not models:
            sys.exit(f"--models must be lanes, wave or both, not {argv[1]}")
        argv = argv[2:]
    corpus = argv[:1] == ["--corpus"]
    if corpus:
        argv = argv[1:]
    if len(argv) < 3:
        sys.exit(__doc__)
    S, build, out = argv[0], argv[1], argv[2]
    only = set(argv[3:])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    kdir = os.path.join(root, "tests", "corpus" if corpus else "kernels")
    cli = os.path.join(build, "wavelift")
    pocl = os.path.join(build, "tests", "wl_pocl_run")
    specs = parse_specs(kdir, corpus)
    os.makedirs(out, exist_ok=True)
    refused, bad, made = [], 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for si, sp in enumerate(specs):
            if only and sp["kernel"] not in only:
                continue
            args = []
            for ai, a in enumerate(sp["args"]):
                args += ["--arg", make_arg(tmp, si, ai, a)]
            geo = ["--kernel", sp["kernel"], "--global", sp["global"], "--local", sp["local"]]
            ref = []
            for oi, n in enumerate(sp["outs"]):
                ref += ["--out", f"{n}:{tmp}/ref.{si}.{oi}"]
            src, popts = os.path.join(kdir, sp["file"]), []
            if corpus:
                try:
                    src, popts, cos = corpus_build(sp, kdir, tmp)
                except RuntimeError as e:
                    print(f"{sp['kernel']}: {e}")
                    bad += 1
                    continue
            r = subprocess.run([pocl, src] + geo + args + ref + popts, capture_output=True, text=True)
            if r.returncode:
                print(f"{sp['kernel']}: PoCL failed ({r.returncode}): {r.stderr.strip()}")
                bad += 1
                continue
            host = sp.get("host") or sp.get("meta", {}).get("host")
            if corpus and host and (sp.get("pocl-wrong") or sp["meta"].get("pocl-wrong")):
                # PoCL is wrong here (test_corpus checks that it still is): the host reference instead
                n, algo, length = host.split()
                items = 1
                for g in sp["global"].split(","):
                    items *= int(g)
                oi = sp["outs"].index(int(n))
                r = subprocess.run(["python3", os.path.join(kdir, "hostref.py"), algo, length,
                                    f"{tmp}/in.{si}.0", str(items), f"{tmp}/ref.{si}.{oi}"],
                                   capture_output=True, text=True)
                if r.returncode:
                    print(f"{sp['kernel']}: the host reference failed: {r.stderr.strip()}")
                    bad += 1
                    continue
            stem = sp["file"][:-3]
            for wave, model in [(w, m) for w in (64, 32) for m in models]:
                name = f"{sp['kernel']}.w{wave}" + (".wave" if model == "wave" else "")
                d = os.path.join(out, name)
                shutil.rmtree(d, ignore_errors=True)
                outs = []
                for oi, n in enumerate(sp["outs"]):
                    outs += ["--out", f"{n}:want.{oi}.bin"]
                co = cos[wave] if corpus else os.path.join(build, "kernels", f"{stem}.w{wave}.co")
                how = ["--model", "wave"] if model == "wave" else ["--model", "lanes", "--subgroup-size", S]
                lim = ["--lds-limit", os.environ.get("WL_LDS_LIMIT", "49152")]
                lim += os.environ.get("WL_BUNDLE_EXTRA", "").split()  # e.g. --pages (format 3)
                if os.environ.get("WL_VECTORIZE") == "0" and model == "lanes":
                    lim.append("--no-vectorize")  # translate option vectorize (docs/backend.md "Vectors")
                r = subprocess.run([cli, "run", co] + geo + args + outs + how + lim + ["--bundle", d],
                                   capture_output=True, text=True)
                err = r.stderr.strip().splitlines()
                if r.returncode == 3:
                    refused.append(f"{name} {err[0] if err else ''}")
                    shutil.rmtree(d, ignore_errors=True)
                    continue
                if r.returncode:
                    print(f"{name}: wavelift failed ({r.returncode}): {r.stderr.strip()}")
                    shutil.rmtree(d, ignore_errors=True)
                    bad += 1
                    continue
                for oi in range(len(sp["outs"])):
                    shutil.copyfile(f"{tmp}/ref.{si}.{oi}", os.path.join(d, f"want.{oi}.bin"))
                if sp["tol"]:
                    with open(os.path.join(d, "manifest.txt"), "a") as f:
                        f.write(f"tolerance {sp['tol']}\n")
                made += 1
    with open(os.path.join(out, "REFUSED.txt"), "w") as f:
        f.write(f"# runs the translator refused by name (no bundle), models {'+'.join(models)}, "
                f"subgroup size {S} (lanes)\n")
        for line in refused:
            f.write(line + "\n")
    print(f"suite_bundles: {made} bundles ({'+'.join(models)}; lanes at subgroup size {S}) in {out}; "
          f"{len(refused)} refused by name; {bad} failures")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

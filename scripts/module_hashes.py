#!/usr/bin/env python3
"""The SHA-256 of every SPIR-V module the translator makes from the kernel
suite, so that a change meant to keep behaviour (a restructure) can show it
did: every kernel of every code object in build/kernels (tests/kernels/*.cl
compiled by clang-19, wave64 and wave32), in the lanes model at k = 1, 2 and 8
and in the wave model, at -O0 and -O2, through `wavelift lift`.

    scripts/module_hashes.py [--wavelift build/wavelift] [--kernels build/kernels]
                             [-j N] [-o FILE] [--compare FILE]

Writes one line per module: `sha256 code-object kernel model k -O` (sorted);
a refusal or failure is recorded as `refused:<first words of the message>`
so that it too must stay the same. --compare FILE prints the lines that
differ from FILE's and exits 1 when any does.
"""
import argparse
import concurrent.futures as cf
import hashlib
import os
import re
import subprocess
import sys
import tempfile


def kernels_of(wavelift, co):
    out = subprocess.run([wavelift, "dis", co], capture_output=True, text=True).stdout
    return re.findall(r"^; kernel (\S+)", out, re.M)


def one(job):
    wavelift, co, kernel, model, k, olevel, tmp = job
    wave = 64 if ".w64." in co else 32
    s = wave // k if model == "lanes" else 32
    spv = os.path.join(tmp, f"{os.path.basename(co)}.{kernel}.{model}.{k}.{olevel}.spv")
    cmd = [wavelift, "lift", co, "--kernel", kernel, "-o", spv, "--subgroup-size", str(s),
           "--model", model, olevel]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0 or not os.path.exists(spv):
        msg = (r.stderr.strip().splitlines() or ["?"])[-1]
        digest = "refused:" + re.sub(r"\s+", "_", msg)[:80]
    else:
        with open(spv, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        os.unlink(spv)
    return f"{digest} {os.path.basename(co)} {kernel} {model} {k if model == 'lanes' else '-'} {olevel}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wavelift", default="build/wavelift")
    ap.add_argument("--kernels", default="build/kernels")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 2)
    ap.add_argument("-o", default=None)
    ap.add_argument("--compare", default=None)
    a = ap.parse_args()
    cos = sorted(os.path.join(a.kernels, f) for f in os.listdir(a.kernels) if f.endswith(".co"))
    with tempfile.TemporaryDirectory() as tmp:
        jobs = []
        for co in cos:
            for kernel in kernels_of(a.wavelift, co):
                for olevel in ("-O0", "-O2"):
                    for k in (1, 2, 8):
                        jobs.append((a.wavelift, co, kernel, "lanes", k, olevel, tmp))
                    jobs.append((a.wavelift, co, kernel, "wave", 0, olevel, tmp))
        lines = []
        with cf.ThreadPoolExecutor(a.j) as ex:
            for n, line in enumerate(ex.map(one, jobs), 1):
                lines.append(line)
                if sys.stderr.isatty():
                    print(f"\r{n}/{len(jobs)}", end="", file=sys.stderr, flush=True)
        if sys.stderr.isatty():
            print(file=sys.stderr)
    lines.sort(key=lambda l: l.split(" ", 1)[1])
    text = "".join(l + "\n" for l in lines)
    if a.o:
        with open(a.o, "w") as f:
            f.write(text)
    refused = sum(l.startswith("refused:") for l in lines)
    print(f"{len(lines)} modules ({refused} refused or failed)", file=sys.stderr)
    if a.compare:
        with open(a.compare) as f:
            old = {l.split(" ", 1)[1]: l.split(" ", 1)[0] for l in f.read().splitlines() if l}
        new = {l.split(" ", 1)[1]: l.split(" ", 1)[0] for l in lines}
        diff = [k for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]
        for k in diff:
            print(f"differs: {k}: {old.get(k)} -> {new.get(k)}")
        print(f"{len(diff)} of {len(new)} differ", file=sys.stderr)
        return 1 if diff else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())

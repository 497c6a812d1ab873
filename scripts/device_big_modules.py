#!/usr/bin/env python3
"""The ten largest modules of a benchmark table, both models, for their
pipeline build time on the device (issue 17, docs/benchmarks.md).

Here: reads wl_bench_translate's --csv table, takes the N programs with the
most -O2 words (lanes model, S = 32), lifts each with `wavelift lift` in the
lanes model (S = 32) and the wave model, and writes them under OUT (default
.dev/big) with OUT/list.txt for bench/wl_pipebuild.c and a copy of
wl_pipebuild. On the device machine (carrying .dev and .gl):

    sh scripts/device_big_modules.sh OUT/list.txt RESULT

usage: scripts/device_big_modules.py [--build DIR] [--out DIR] [-n N] TABLE.csv OBJECT_DIR...
"""
import argparse
import csv
import os
import shutil
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--out", default=".dev/big")
    ap.add_argument("-n", type=int, default=10)
    ap.add_argument("table")
    ap.add_argument("dirs", nargs="+", help="where the table's code objects are (STEM.wNN.co)")
    a = ap.parse_args()
    rows = [r for r in csv.DictReader(open(a.table)) if r["o2_words"] and int(r["o2_words"]) > 0]
    rows.sort(key=lambda r: -int(r["o2_words"]))
    os.makedirs(a.out, exist_ok=True)
    wavelift = os.path.join(a.build, "wavelift")
    lines = []
    for r in rows[: a.n]:
        stem, kernel = r["kernel"].split(":", 1)
        obj = next((os.path.join(d, stem + ".co") for d in a.dirs if os.path.exists(os.path.join(d, stem + ".co"))), None)
        if not obj:
            sys.stderr.write(f"device_big_modules: {stem}.co not found in {a.dirs}\n")
            return 2
        for model, S in (("lanes", 32), ("wave", 0)):
            name = f"{stem}.{kernel}.{model}"
            out = os.path.join(a.out, name + ".spv")
            cmd = [wavelift, "lift", obj, "--kernel", kernel, "--subgroup-size", "32", "--model", model, "-o", out]
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if p.returncode != 0:
                sys.stderr.write(f"device_big_modules: {' '.join(cmd)}:\n{p.stdout}")
                continue
            lines.append(f"{name} {name}.spv {S}")
            print(f"{name}: {os.path.getsize(out) // 4} words")
    with open(os.path.join(a.out, "list.txt"), "w") as f:
        f.write("# NAME FILE SUBGROUP_SIZE (scripts/device_big_modules.py; 0: the wave model, the driver's size)\n")
        f.write("\n".join(lines) + "\n")
    shutil.copy(os.path.join(a.build, "wl_pipebuild"), os.path.join(os.path.dirname(a.out.rstrip("/")) or ".", "wl_pipebuild"))
    return 0


if __name__ == "__main__":
    sys.exit(main())

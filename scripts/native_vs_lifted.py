#!/usr/bin/env python3
"""Native against lifted on the GPU (issue 21, docs/native.md).

The same OpenCL C source twice on one device: built natively by the
device's own OpenCL driver (tests/pocl/pocl_run.c, which runs PoCL here
and the vendor's driver on the NVIDIA machine), and compiled by clang-19
for gfx1030, lifted by wavelift and run from a dispatch bundle
(bench/wl_bundlerun.c), in the lanes model (wave64 at k = 2, wave32 at
k = 1) and the wave model (both wave sizes).

    scripts/native_vs_lifted.py prepare BUILD OUT [NAME...]
        here (LLVM, clang-19, the corpus packages): OUT/ gets the runners,
        the OpenCL ICD loader, each program's source with the headers it
        includes, and a bundle a configuration, translated for subgroup 32
        and 48 KiB of shared memory; OUT/run.sh runs them all.
        WL_NVL_CONFIGS=lanes64,lanes32 keeps those configurations only;
        WAVELIFT_PASSES (docs/architecture.md) reaches the translations.
        WL_NVL_MAXREC=1: the GLSL modules declare MaximallyReconvergesKHR (for
        a device with VK_KHR_shader_maximal_reconvergence; wl_bundlerun skips
        them elsewhere).
        WL_NVL_FUSED=f64 (the default; none, or f32, f64, all,
        f32-ftz, f32-normal separated by commas): the widths translated with the host's
        Fma, as `wavelift run` does where the device's probe
        (wl_rt_probe_fma) finds it exact (the NVIDIA H100's double Fma; its
        float Fma flushes subnormals before rounding, which neither the
        exact nor the flushing model is: docs/native.md); wl_bundlerun skips a bundle on a device where
        it is not.
    on the device (carry OUT and .gl):  sh scripts/native_vs_lifted.sh OUT RESULTS
    scripts/native_vs_lifted.py cpu BUILD OUT [NAME...]
        the same programs on this machine's CPU, in the device's lanes
        configurations (subgroup 32: wave64 at k = 2, wave32 at k = 1):
        prepared at a 256th of the grids (WL_NVL_DIV), the native outputs
        from PoCL and lavapipe (run.sh, one run each; where the corpus marks
        PoCL wrong, its `host` program's output), the lifted bundles' host-stage
        IR run by tests/wl_hostsim (tests/hostsim.h). Exit 1 on any bundle
        that does not match.
    scripts/native_vs_lifted.py report RESULTS DIR
        the table (DIR/native-vs-lifted.md, printed), DIR/native-vs-lifted.csv
        and DIR/native-vs-lifted.svg (lifted/native dispatch time a program,
        one mark a configuration).

The grids are the corpus's (tests/corpus, the `//! run` lines) scaled up:
the global size times a program's factor, every buffer whose size is a
multiple of the work-items scaled with it (a key or a constant table is
not), the group size 64 (hashcat's 32 would leave half of a wave64 idle).
The wave model runs a sixteenth of the grid (its device segment grows with
the waves of the dispatch), against a native run of the same sixteenth.
Inputs are random bytes written on the device (/dev/urandom, one file a
size): too large to carry. The outputs are checked against the native run's, byte for byte
(the corpus tests check both against PoCL at the test grids); a
configuration whose output differs is reported and not timed.
"""
import csv
import glob
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import suite_bundles  # noqa: E402  (the corpus specs and clang-19's build)

# kernel -> grid factor over the corpus's global size (native dispatch at
# least 0.25 ms on an H100/H200 for the lanes-model grid: measured there)
PROGRAMS = {
    "md5_55": 1 << 16, "md4_55": 1 << 16, "sha1_55": 1 << 16, "sha256_55": 1 << 16,
    "ripemd160_55": 1 << 16, "sha512_111": 1 << 14, "aes128": 1 << 14, "aes128_lds": 1 << 14,
    "des": 1 << 14, "crc32": 1 << 16, "draw_philox4x32": 1 << 15, "draw_threefry2x64": 1 << 15,
    "draw_threefry4x32": 1 << 15, "draw_philox2x32": 1 << 15,
}
# Not here: philox_u01 writes its doubles at a fixed offset made for 128
# work-items, so at a larger grid its items overwrite each other and the
# output depends on their order (native and lifted differed at word 512).
# tests/aco's GLSL shaders (docs/aco.md) -> work-groups of the lanes-model grid
# (native dispatch at least 0.25 ms on an H100: measured there)
GLSL = {"wg_reduce": 1 << 17, "wg_scan": 1 << 17, "compact": 1 << 18, "histogram": 1 << 16,
        "pk_const": 1 << 16, "nbody": 1 << 12}
# Not here: quad_shuffle's words 14 and 15 come from a divergent branch
# whose shuffles read invocations that are not active. GLSL leaves those
# undefined: NVIDIA's native build gives 0 there, ACO's code the source's
# register (what test_aco_run checks on lavapipe, which gives it too), so
# the native output is no reference (H100: word 15, 0 against 2).
WAVE_DIV = 16
CONFIGS = (("lanes", 64), ("lanes", 32), ("wave", 64), ("wave", 32))
RUNS = 21


def scaled(sp, factor):
    """(global, local, [(kind, bytes)], outs) of spec sp at factor times its work-items"""
    g = [int(x) for x in sp["global"].split(",")]
    items = 1
    for x in g:
        items *= x
    g[0] *= factor
    args = []
    for a in sp["args"]:
        kind, _, n = a.partition(":")
        if kind in suite_bundles.GENS or kind == "zero":
            nbytes = int(n) * (4 if kind != "zero" else 1)
            if nbytes % items == 0 and nbytes >= items:
                nbytes *= factor
            args.append(("zero" if kind == "zero" else "rand", nbytes))
        else:
            args.append(("scalar", a))
    return ",".join(map(str, g)), "64", args, sp["outs"]


def deps(src, opts):
    """the files src includes (clang-19 -M), with the include roots of opts"""
    r = subprocess.run(["clang-19", "-x", "cl", "-cl-std=CL2.0", "-Xclang", "-finclude-default-header",
                        "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1030", "-nogpulib", "-M"] + opts + [src],
                       capture_output=True, text=True, check=True)
    files = r.stdout.replace("\\\n", " ").split(":", 1)[1].split()
    return [os.path.abspath(f) for f in files if not f.endswith(("opencl-c.h", "opencl-c-base.h"))]


def copy_source(src, opts, dest):
    """src and its headers under dest/iN (one directory an include root, the
    main file's own first); returns (source path, native -I options), both
    relative to dest's parent"""
    roots = [os.path.dirname(os.path.abspath(src))] + [os.path.abspath(o[2:]) for o in opts if o.startswith("-I")]
    for f in deps(src, opts):
        for i, r in enumerate(roots):
            if f.startswith(r + "/"):
                to = os.path.join(dest, f"i{i}", os.path.relpath(f, r))
                os.makedirs(os.path.dirname(to), exist_ok=True)
                shutil.copyfile(f, to)
                break
        else:
            raise RuntimeError(f"{f}: outside the include roots of {src}")
    base = os.path.basename(dest)
    inc = " ".join(f"-I$NVL/{base}/i{i}" for i in range(len(roots)))
    return f"$NVL/{base}/i0/{os.path.basename(src)}", inc


FUSED_BITS = {"none": 0, "f32": 1, "f64": 2, "all": 3, "f32-ftz": 4, "f32-normal": 8}  # WL_FMA_* bits
FUSED = os.environ.get("WL_NVL_FUSED", "f64")


def fused_bits():
    """WL_NVL_FUSED's widths as WL_FMA_* bits"""
    bits = 0
    for w in FUSED.split(","):
        bits |= FUSED_BITS[w]
    return bits


def prepare(build, out, only):
    div0 = int(os.environ.get("WL_NVL_DIV", "1"))  # smaller grids: a try on lavapipe and PoCL
    # a subset of the configurations (lanes64,lanes32,wave64,wave32): experiments
    configs = set(filter(None, os.environ.get("WL_NVL_CONFIGS", "").split(",")))
    fused = fused_bits()
    kdir = os.path.join(ROOT, "tests", "corpus")
    specs = [sp for sp in suite_bundles.parse_specs(kdir, corpus=True) if sp["kernel"] in PROGRAMS]
    if only:
        specs = [sp for sp in specs if sp["kernel"] in only]
    os.makedirs(out, exist_ok=True)
    for tool in (os.path.join(build, "wl_bundlerun"), os.path.join(build, "tests", "wl_pocl_run")):
        shutil.copy(tool, out)
    # the ICD loader (Debian's ocl-icd): the device machine has none
    lib = subprocess.run(["sh", "-c", "ls /usr/lib/x86_64-linux-gnu/libOpenCL.so.1.* | head -1"],
                         capture_output=True, text=True).stdout.strip()
    shutil.copy(lib, os.path.join(out, "libOpenCL.so.1"))
    run = ["#!/bin/sh", "# written by scripts/native_vs_lifted.py prepare; NVL is this folder", "set -u",
           ': "${NVL:?}"', f"RUNS={RUNS}",
           "# NVIDIA's build log names the registers (cl_nv_compiler_options); other drivers get nothing",
           'NV_VERBOSE=""; [ -n "${OCL_ICD_VENDORS:-}" ] && NV_VERBOSE=-cl-nv-verbose']
    cli = os.path.join(build, "wavelift")
    with tempfile.TemporaryDirectory() as tmp:
        for sp in specs:
            k = sp["kernel"]
            src, popts, cos = suite_bundles.corpus_build(sp, kdir, tmp)
            opts = popts[1].split()[1:]  # the -I options (after -cl-std)
            nsrc, ninc = copy_source(src, opts, os.path.join(out, f"src.{k}"))
            for div, tag in ((1, "lanes"), (WAVE_DIV, "wave")):
                if configs and not any(c.startswith(tag) for c in configs):
                    continue
                g, loc, args, outs = scaled(sp, max(1, PROGRAMS[k] // div // div0))
                nat, bund = [], []
                for i, (kind, v) in enumerate(args):
                    if kind == "scalar":
                        nat.append(f"--arg {v}")
                        bund.append(f"--arg {v}")
                    elif kind == "zero":
                        nat.append(f"--arg zero:{v}")
                        bund.append(f"--arg zero:{v}")
                    else:
                        # one random file a size, shared by the programs
                        nat.append(f"--arg buf:$NVL/in.{v}")
                        bund.append(f"--arg zero:{v}")
                        run.append(f"[ -s $NVL/in.{v} ] || head -c {v} /dev/urandom > $NVL/in.{v}")
                o = outs[0]
                run.append(f'echo "=== {k} native {tag} global={g}"')
                run.append(f"$NVL/wl_pocl_run {nsrc} --kernel {k} --global {g} --local {loc} {' '.join(nat)} "
                           f"--out {o}:$NVL/native.{k}.{tag}.bin --options \"-cl-std=CL3.0 $NV_VERBOSE {ninc}\" --runs $RUNS "
                           "--build-log")
                for model, wave in CONFIGS:
                    if model != tag or (configs and f"{model}{wave}" not in configs):
                        continue
                    name = f"{k}.w{wave}.{model}"
                    d = os.path.join(out, name)
                    shutil.rmtree(d, ignore_errors=True)
                    cmd = [cli, "run", cos[wave], "--kernel", k, "--global", g, "--local", loc] + \
                          " ".join(bund).split() + ["--out", f"{o}:native.bin", "--bundle", d, "--lds-limit", "49152"]
                    cmd += ["--model", "wave"] if model == "wave" else ["--subgroup-size", "32", "--model", "lanes"]
                    cmd += ["--fused-fma", FUSED] if fused else []
                    r = subprocess.run(cmd, capture_output=True, text=True)
                    if r.returncode:
                        print(f"{name}: not bundled (exit {r.returncode}): {r.stderr.strip()}")
                        run.append(f'echo "=== {k} {model}{wave} {tag} global={g}"; echo "not bundled: exit {r.returncode}"')
                        continue
                    # the inputs and the native output, by name (the bundle's are zeros)
                    man = os.path.join(d, "manifest.txt")
                    text = open(man).read()
                    for i, (kind, v) in enumerate(args):
                        if kind == "rand":
                            text = re.sub(rf"^buffer (\d+) (\d+) - arg{i}$", rf"buffer \1 \2 ../in.{v} arg{i}",
                                          text, flags=re.M)
                    text = text.replace(" native.bin\n", f" ../native.{k}.{tag}.bin\n")
                    open(man, "w").write(text)
                    run.append(f'echo "=== {k} {model}{wave} {tag} global={g}"')
                    run.append(f"$NVL/wl_bundlerun --runs $RUNS --statistics $NVL/{name}")
                print(f"{k} ({tag}): global {g}")
    glsl = {k: v for k, v in GLSL.items() if not only or k in only}
    if glsl:
        prepare_glsl(build, out, glsl, div0, configs, run)
    with open(os.path.join(out, "run.sh"), "w") as f:
        f.write("\n".join(run) + "\n")
    return 0


def prepare_glsl(build, out, glsl, div0, configs, run):
    """The GLSL half: tests/aco's shaders, ACO's code lifted (bundles written
    by test_aco_run --write-bundles) against the original GLSL compiled by
    glslangValidator, run as a bundle too (the same runtime, its output
    saved as the reference the lifted bundles check)"""
    tool = os.path.join(build, "tests", "test_aco_run")
    args = [f"{k}={max(1, g // div0)}" for k, g in glsl.items()]
    bits = fused_bits()
    fused = ["--fused-fma", str(bits)] if bits else []
    if os.environ.get("WL_NVL_MAXREC") == "1":  # modules declaring MaximallyReconvergesKHR (docs/native.md)
        fused.append("--maximal-reconvergence")
    r = subprocess.run([tool, "--write-bundles", out] + fused + args, capture_output=True, text=True)
    print(r.stdout.strip())
    if r.returncode:
        print(f"test_aco_run --write-bundles: exit {r.returncode}: {r.stderr.strip()}")
    inputs = set()
    for line in open(os.path.join(out, "glsl.txt")):
        name, tag, grid, groups, in_bytes = line.split()
        if int(in_bytes) not in inputs:
            inputs.add(int(in_bytes))
            run.append(f"[ -s $NVL/in.{in_bytes} ] || head -c {in_bytes} /dev/urandom > $NVL/in.{in_bytes}")
        if ".native." in tag:
            label = "native"
        else:
            label = ("lanes" if grid == "lanes" else "wave") + tag.split(".")[1][1:]
            if configs and label not in configs:
                continue
        run.append(f'echo "=== {name} {label} {grid} global={groups}"')
        run.append(f"$NVL/wl_bundlerun --runs $RUNS --statistics $NVL/{tag}")


def parse(results):
    """{(kernel, config, tag): {...}} from the device's output"""
    rows, cur = {}, None
    for line in open(results, errors="replace"):
        m = re.match(r"=== (\S+) (\S+) (\S+) global=(\S+)", line)
        if m:
            cur = rows.setdefault((m.group(1), m.group(2), m.group(3)), {"global": m.group(4)})
            continue
        if cur is None:
            continue
        m = re.match(r"(build|dispatch) ms: ([0-9.]+)", line)
        if m:
            cur[m.group(1)] = float(m.group(2))
        if line.startswith("device: "):
            cur["device"] = line[8:].strip()
        if "not bundled" in line or "wl_pocl_run:" in line:
            cur["error"] = line.strip()
        m = re.match(r"\S+\s+(MISMATCH|FAIL|REFUSED|SKIPPED)", line)
        if m:
            cur["result"] = m.group(1).lower()
        m = re.match(r"build log: .*[Uu]sed (\d+) registers", line)
        if m:
            cur["registers"] = int(m.group(1))
        m = re.match(r"\S+\s+statistics: .*Register Count=(\d+)", line)
        if m:
            cur["registers"] = int(m.group(1))
        # wl_bundlerun's line: NAME model words subgroup loops translate build first warm result
        m = re.match(r"(\S+)\s+(lanes|wave)\s+(\d+)\s+\d+\s+\d+\s+-?[0-9.]+\s+([0-9.]+)\s+[0-9.]+\s+([0-9.]+)\s+(\S+)", line)
        if m:
            cur.update(words=int(m.group(3)), build=float(m.group(4)), dispatch=float(m.group(5)),
                       result=m.group(6))
    return rows


def report(results, outdir):
    rows = parse(results)
    os.makedirs(outdir, exist_ok=True)
    kernels = sorted({k for k, _, _ in rows if k in PROGRAMS or k[5:] in GLSL})
    cols = [("lanes64", "lanes", "lanes, wave64 k = 2"), ("lanes32", "lanes", "lanes, wave32 k = 1"),
            ("wave64", "wave", "wave model, wave64"), ("wave32", "wave", "wave model, wave32")]
    device = next((r["device"] for r in rows.values() if "device" in r), "?")
    md = [f"Device: {device}. Dispatch: median of {RUNS - 1} warm dispatches (device time); "
          "lifted/native at the same grid (the wave model's is a sixteenth).", "",
          "| kernel | grid (lanes) | native ms | " + " | ".join(c[2] for c in cols) + " | native build ms | "
          "lifted build ms (lanes64) |", "|" + "---|" * (len(cols) + 5)]
    recs, ratios = [], {c[0]: [] for c in cols}
    for k in kernels:
        nat = {t: rows.get((k, "native", t), {}) for t in ("lanes", "wave")}
        cells = []
        for c, tag, _ in cols:
            r, n = rows.get((k, c, tag), {}), nat[tag]
            ok = r.get("result") == "match" and "dispatch" in n and "dispatch" in r and n["dispatch"] > 0
            ratio = r["dispatch"] / n["dispatch"] if ok else None
            if ratio:
                ratios[c].append(ratio)
            cells.append(f"{ratio:.2f}x" if ratio else (r.get("result") or r.get("error") or "not run"))
            recs.append({"kernel": k, "config": c, "grid": r.get("global", n.get("global", "")),
                         "native_ms": n.get("dispatch", ""), "lifted_ms": r.get("dispatch", ""),
                         "ratio": f"{ratio:.3f}" if ratio else "", "words": r.get("words", ""),
                         "native_build_ms": n.get("build", ""), "lifted_build_ms": r.get("build", ""),
                         "native_registers": n.get("registers", ""), "lifted_registers": r.get("registers", ""),
                         "result": r.get("result") or r.get("error") or "not run"})
        nl, l64 = nat["lanes"], rows.get((k, "lanes64", "lanes"), {})
        md.append(f"| {k} | {nl.get('global', '')} | {nl.get('dispatch', '?')} | " + " | ".join(cells) +
                  f" | {nl.get('build', '?')} | {l64.get('build', '?')} |")
    md.append("")
    builds = []
    for k in kernels:
        n, l = rows.get((k, "native", "lanes"), {}), rows.get((k, "lanes64", "lanes"), {})
        if n.get("build") and l.get("build"):
            builds.append(l["build"] / n["build"])
    if builds:
        md.append(f"- pipeline build, lifted (lanes, wave64) / native: median {statistics.median(builds):.2f}x, "
                  f"worst {max(builds):.2f}x over {len(builds)} programs")
    for c, _, name in cols:
        v = ratios[c]
        if v:
            md.append(f"- {name}: median {statistics.median(v):.2f}x, worst {max(v):.2f}x over {len(v)} programs")
        for half, pick in (("OpenCL C", lambda k: not k.startswith("glsl_")), ("GLSL", lambda k: k.startswith("glsl_"))):
            h = [float(r["ratio"]) for r in recs if r["config"] == c and r["ratio"] and pick(r["kernel"])]
            if h and len(h) < len(v):
                md.append(f"  - {half}: median {statistics.median(h):.2f}x, worst {max(h):.2f}x over {len(h)}")
    text = "\n".join(md) + "\n"
    print(text)
    open(os.path.join(outdir, "native-vs-lifted.md"), "w").write(text)
    with open(os.path.join(outdir, "native-vs-lifted.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(recs[0].keys()) if recs else ["kernel"])
        w.writeheader()
        w.writerows(recs)
    svg(recs, kernels, cols, os.path.join(outdir, "native-vs-lifted.svg"))
    return 0


def svg(recs, kernels, cols, path):
    """lifted/native a program (log scale), one mark a configuration"""
    W, H, L, B, T = 860, 420, 60, 120, 30
    vals = [float(r["ratio"]) for r in recs if r["ratio"]]
    top = max(vals + [2.0]) * 1.2
    import math
    ly = lambda v: T + (H - T - B) * (1 - math.log10(max(v, 0.1) / 0.5) / math.log10(top / 0.5))  # noqa: E731
    colors = {"lanes64": "#1f77b4", "lanes32": "#2ca02c", "wave64": "#d62728", "wave32": "#ff7f0e"}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="11">',
           f'<text x="{W/2}" y="16" text-anchor="middle">lifted / native dispatch time (log scale)</text>']
    for v in (0.5, 1, 1.3, 2, 5, 10, 20, 50, 100):
        if v <= top:
            out.append(f'<line x1="{L}" x2="{W-10}" y1="{ly(v):.1f}" y2="{ly(v):.1f}" stroke="#ddd"/>'
                       f'<text x="{L-4}" y="{ly(v)+4:.1f}" text-anchor="end">{v}x</text>')
    step = (W - L - 10) / max(len(kernels), 1)
    for i, k in enumerate(kernels):
        x = L + step * (i + 0.5)
        out.append(f'<text transform="translate({x:.1f},{H-B+12}) rotate(45)">{k}</text>')
        for j, (c, _, _) in enumerate(cols):
            r = next((r for r in recs if r["kernel"] == k and r["config"] == c and r["ratio"]), None)
            if r:
                out.append(f'<circle class="point" cx="{x - 9 + 6 * j:.1f}" cy="{ly(float(r["ratio"])):.1f}" r="4" '
                           f'fill="{colors[c]}"><title>{k} {c} {r["ratio"]}</title></circle>')
    for j, (c, _, name) in enumerate(cols):
        out.append(f'<circle cx="{L + 10 + 190 * j}" cy="{H-12}" r="4" fill="{colors[c]}"/>'
                   f'<text x="{L + 18 + 190 * j}" y="{H-8}">{name}</text>')
    out.append("</svg>")
    open(path, "w").write("\n".join(out) + "\n")


def cpu(build, out, only):
    """prepare, the native outputs on the CPU, wl_hostsim over the lanes bundles"""
    os.environ.setdefault("WL_NVL_DIV", "256")
    os.environ["WL_NVL_CONFIGS"] = "lanes64,lanes32"
    if prepare(build, out, only):
        return 1
    run = os.path.join(out, "run.sh")
    text = re.sub(r"^RUNS=.*$", "RUNS=1", open(run).read(), flags=re.M)
    open(run, "w").write(text)
    r = subprocess.run(["sh", run], env=dict(os.environ, NVL=os.path.abspath(out)), capture_output=True, text=True)
    open(os.path.join(out, "run.log"), "w").write(r.stdout + r.stderr)
    # PoCL's output is wrong for some programs: the corpus names the program
    # whose output is theirs (`host N KERNEL ARG`)
    kdir = os.path.join(ROOT, "tests", "corpus")
    for sp in suite_bundles.parse_specs(kdir, corpus=True):
        if "pocl-wrong" in sp and sp.get("host"):
            other = sp["host"].split()[1]
            for d in glob.glob(os.path.join(out, f"{sp['kernel']}.w*.lanes")):
                man = os.path.join(d, "manifest.txt")
                t = open(man).read().replace(f"native.{sp['kernel']}.lanes.bin", f"native.{other}.lanes.bin")
                open(man, "w").write(t)
    bundles = sorted(d for d in glob.glob(os.path.join(out, "*.w*.lanes")) if os.path.isdir(d))
    if not bundles:
        print("no lanes bundles")
        return 1
    r = subprocess.run([os.path.join(build, "tests", "wl_hostsim")] + bundles)
    print(f"wl_hostsim: {len(bundles)} bundles at subgroup 32" + (", all match" if r.returncode == 0 else ""))
    return 1 if r.returncode else 0


def main():
    a = sys.argv[1:]
    if len(a) >= 3 and a[0] == "cpu":
        return cpu(a[1], a[2], set(a[3:]))
    if len(a) >= 3 and a[0] == "prepare":
        return prepare(a[1], a[2], set(a[3:]))
    if len(a) == 3 and a[0] == "report":
        return report(a[1], a[2])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())

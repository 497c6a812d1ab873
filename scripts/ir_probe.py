#!/usr/bin/env python3
"""Values of a lanes-model bundle's host IR, stored where the device and
wl_hostsim can both be read (docs/native.md, "Finding a device-only
difference").

  ir_probe.py add BUNDLE AFTER V1,V2,...   store each value (i32 or
      <k x i32>) right after the instruction defining AFTER, per invocation
      and lane clone, into a probe area appended to the output buffer;
      re-emits the module (tests/wl_emit_ir) and saves that buffer as
      out.bin (BUILD: --build DIR, default build)
  ir_probe.py diff BUNDLE SIM.bin DEVICE.bin   the probe values that differ,
      per value: invocation, clone, simulator's and device's words

A probe changes the code's shape; a difference that goes away with it is
itself a finding. The first value that differs is where to look.
"""
import argparse
import json
import os
import re
import struct
import subprocess
import sys

PROBE_AT = 8192  # the probe area's distance from the output buffer's start, at least its size


def manifest(path):
    return open(os.path.join(path, "manifest.txt")).read().split("\n")


def field(lines, key):
    for line in lines:
        if line.startswith(key + " "):
            return line.split()[1:]
    return None


def value_type(ir, name):
    m = re.search(r"^\s+" + re.escape(name) + r" = (.*)$", ir, re.M)
    if not m:
        sys.exit(f"{name}: no such value")
    rest = m.group(1)
    if rest.startswith("extractelement"):
        return "i32"
    if rest.startswith("select "):  # the type after the condition
        rest = "select " + re.sub(r"^select (?:i1|<\d+ x i1>) [^,]+, ", "", rest)
    m2 = re.match(r"(?:call |[a-z]+ (?:(?:nuw|nsw|disjoint|exact) )*)?(<(\d+) x i32>|i32)\b", rest)
    if not m2:
        sys.exit(f"{name}: not an i32 or a vector of i32 ({rest[:60]})")
    return m2.group(1)


def add(args):
    lines = manifest(args.bundle)
    k = int(field(lines, "k")[0])
    S = int(field(lines, "subgroup")[0])
    local = [int(x) for x in field(lines, "host-local")]
    inv = local[0] * local[1] * local[2]
    groups = [int(x) for x in field(lines, "groups")]
    if groups != [1, 1, 1]:
        sys.exit("a probe needs a bundle of one work-group (groups 1 1 1)")
    arena = field(lines, "arena")
    if not arena:
        sys.exit("a probe needs a bundle with a guest arena (format 2)")
    map_off = int(arena[2])
    buf = args.buffer
    place = None
    for line in lines:
        f = line.split()
        if f[:2] == ["place", str(buf)]:
            place = int(f[2])
    if place is None:
        sys.exit(f"buffer {buf} has no place in the arena")
    vals = args.values.split(",")
    size = len(vals) * inv * k * 4
    ir = subprocess.run(["llvm-dis-19", os.path.join(args.bundle, field(lines, "host-ir")[0]), "-o", "-"], check=True,
                        capture_output=True, text=True).stdout
    types = {v: value_type(ir, v) for v in vals}
    out, found = [], 0
    for line in ir.split("\n"):
        out.append(line)
        m = re.match(r"\s+(%[\w.]+) = ", line)
        if not (m and m.group(1) == args.after):
            continue
        found += 1
        out += [
            f"  %pr.h = load i64, ptr addrspace(6) getelementptr inbounds (i8, ptr addrspace(6) @wl.push, i64 {map_off + 16}), align 4",
            "  %pr.p = call i32 @spv.subgroup_local_invocation_id()",
            "  %pr.s = call i32 @spv.subgroup_id()",
            f"  %pr.s2 = mul i32 %pr.s, {S}",
            "  %pr.i = add i32 %pr.s2, %pr.p",
            "  %pr.i64 = zext i32 %pr.i to i64",
            f"  %pr.o = mul i64 %pr.i64, {k * 4}",
            f"  %pr.b = add i64 %pr.h, {place + PROBE_AT}",
            "  %pr.a = add i64 %pr.b, %pr.o",
        ]
        for n, v in enumerate(vals):
            for j in range(k):
                e = v
                if types[v] != "i32":
                    e = f"%pr.e{n}.{j}"
                    out.append(f"  {e} = extractelement {types[v]} {v}, i32 {j}")
                out += [f"  %pr.q{n}.{j} = add i64 %pr.a, {(n * inv * k + j) * 4}",
                        f"  %pr.r{n}.{j} = inttoptr i64 %pr.q{n}.{j} to ptr addrspace(1)",
                        f"  store i32 {e}, ptr addrspace(1) %pr.r{n}.{j}, align 4"]
    if found != 1:
        sys.exit(f"{args.after}: no such value")
    if "declare i32 @spv.subgroup_id()" not in ir:
        out.append("declare i32 @spv.subgroup_id()")
    if "declare i32 @spv.subgroup_local_invocation_id()" not in ir:
        out.append("declare i32 @spv.subgroup_local_invocation_id()")
    probe_ll = os.path.join(args.bundle, "probe.ll")
    open(probe_ll, "w").write("\n".join(out))
    # the output buffer reaches over the probe area; the arena with it
    new, bsize = [], None
    for line in lines:
        f = line.split()
        if f[:2] == ["buffer", str(buf)]:
            bsize = max(int(f[2]), PROBE_AT + size)
            line = " ".join([f[0], f[1], str(bsize)] + f[3:])
        elif f[:1] == ["check"] and f[1] == str(buf):
            line = f"save {buf} out.bin"
        new.append(line)
    new = [(" ".join(["arena", l.split()[1], str(max(int(l.split()[2]), place + bsize + 4096)), l.split()[3]])
            if l.startswith("arena ") else l) for l in new]
    if not any(l.startswith(f"save {buf} ") for l in new):
        new.append(f"save {buf} out.bin")
    open(os.path.join(args.bundle, "manifest.txt"), "w").write("\n".join(new))
    json.dump({"values": vals, "k": k, "invocations": inv, "at": PROBE_AT},
              open(os.path.join(args.bundle, "probe.json"), "w"))
    subprocess.run([os.path.join(args.build, "tests", "wl_emit_ir"), args.bundle, probe_ll], check=True)


def diff(args):
    p = json.load(open(os.path.join(args.bundle, "probe.json")))
    a, b = open(args.sim, "rb").read(), open(args.device, "rb").read()
    k, inv, at = p["k"], p["invocations"], p["at"]
    for n, v in enumerate(p["values"]):
        d = []
        for i in range(inv):
            for j in range(k):
                o = at + ((n * inv + i) * k + j) * 4
                x, y = struct.unpack_from("<I", a, o)[0], struct.unpack_from("<I", b, o)[0]
                if x != y:
                    d.append(f"{i}.{j}: {x:#x} {y:#x}")
        print(f"{v}: {len(d)} differ" + (" (" + ", ".join(d[:4]) + (", ..." if len(d) > 4 else "") + ")" if d else ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("add")
    a.add_argument("bundle")
    a.add_argument("after")
    a.add_argument("values")
    a.add_argument("--buffer", type=int, default=2)
    a.add_argument("--build", default="build")
    d = sub.add_parser("diff")
    d.add_argument("bundle")
    d.add_argument("sim")
    d.add_argument("device")
    args = ap.parse_args()
    add(args) if args.cmd == "add" else diff(args)


if __name__ == "__main__":
    main()

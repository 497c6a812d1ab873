#!/bin/sh
# Regenerates runtime/probe/fma.inc, the SPIR-V of runtime/probe/fma.comp
# (the fused-fma probe of wl_rt_probe_fma), with glslangValidator.
#   sh scripts/gen_probe.sh
set -e
cd "$(dirname "$0")/.."
tmp=$(mktemp)
glslangValidator -V --target-env vulkan1.3 runtime/probe/fma.comp -o "$tmp" >/dev/null
python3 - "$tmp" > runtime/probe/fma.inc <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
w = struct.unpack("<%dI" % (len(b) // 4), b)
print("/* runtime/probe/fma.comp compiled by glslangValidator -V --target-env vulkan1.3")
print(" * (scripts/gen_probe.sh; tests/test_runtime.c checks it is current). */")
for i in range(0, len(w), 6):
    print("    " + ", ".join("0x%08xu" % x for x in w[i:i + 6]) + ",")
PY
rm -f "$tmp"

#!/bin/sh
# Large real programs (docs/benchmarks.md, "Large real programs"):
# hashcat's "pure" md5crypt and sha512crypt kernels, built as hashcat
# builds them (functions not inlined), clang-19, gfx1030 wave64, then one
# batch over them with a time limit a translation; prints the batch's
# summary and a table (guest instructions, words, time, peak memory).
#   scripts/bench_large.sh [BUILD] [OUT] [TIMEOUT_S]
# Needs the hashcat-data package under WL_CORPUS_DIR (scripts/install-deps.sh).
set -eu
BUILD=${1:-build}
OUT=${2:-/tmp/wavelift-large}
LIMIT=${3:-240}
HC=${WL_CORPUS_DIR:-/var/cache/wavelift-corpus}/hashcat-data/usr/share/hashcat/OpenCL
DEVLIBS=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode
[ -d "$HC" ] || { echo "bench_large: $HC missing: run scripts/install-deps.sh" >&2; exit 2; }
mkdir -p "$OUT"
for m in m00500 m01800; do
    # hashcat's kernels include their library through M2S(INCLUDE_PATH/...)
    printf '#define M2S_(x) #x\n#define M2S(x) M2S_(x)\n#include "%s/%s-pure.cl"\n' "$HC" "$m" > "$OUT/$m.cl"
    clang-19 -x cl -cl-std=CL2.0 -Xclang -finclude-default-header -target amdgcn-amd-amdhsa -mcpu=gfx1030 \
        -mwavefrontsize64 -O2 --rocm-device-lib-path="$DEVLIBS" -DKERNEL_STATIC -DVECT_SIZE=1 -DDGST_ELEM=4 \
        -DDGST_R0=0 -DDGST_R1=1 -DDGST_R2=2 -DDGST_R3=3 -DINCLUDE_PATH="$HC" -I"$HC" "$OUT/$m.cl" -o "$OUT/$m.w64.co"
done
"$BUILD/wavelift" lift "$OUT/m00500.w64.co" "$OUT/m01800.w64.co" -j2 --timeout "$LIMIT" --quiet \
    --json "$OUT/large.json" || true
python3 - "$OUT/large.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(f"{'kernel':<14} {'status':<8} {'guest':>7} {'words':>9} {'w/i':>6} {'seconds':>8} {'peak MiB':>9}")
for r in d["records"]:
    g, w = r["guest_instructions"], r["words"]
    print(f"{r['kernel']:<14} {r['status']:<8} {g:>7} {w:>9} {w / g if g else 0:>6.1f} "
          f"{r['ms']['wall'] / 1e3:>8.1f} {r['peak_kib'] / 1024:>9.0f}")
PY

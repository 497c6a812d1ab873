#!/bin/sh
# Bundles of the scratch kernels for the device machine (docs/memory.md,
# "Scratch"): scratch_big's big_private (16 KiB a lane: device memory) and
# spills (private arrays, and forced into device memory), scratch.cl's
# priv_dynamic forced into device memory; lanes model at subgroup size S
# (default 32, the H200) and the wave model; expected outputs from PoCL.
#   scripts/device_scratch.sh [S] [BUILD_DIR]     -> .dev/scratch/
# Then, there (carry .dev and .gl; scripts/device_kernels.sh puts the runner
# and the loader packages in place):
#   sh scripts/device_run_model.sh all OUT.txt .dev/scratch
set -eu
S=${1:-32}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "${2:-$ROOT/build}" && pwd)
K=$ROOT/tests/kernels
OUT=$ROOT/.dev/scratch
rm -rf "$OUT"
mkdir -p "$OUT"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
head -c 512 /dev/urandom >"$TMP/in128.bin"
head -c 24576 /dev/urandom >"$TMP/in6144.bin"
head -c 1280 /dev/urandom >"$TMP/in320.bin"
# mk NAME FILE KERNEL GLOBAL LOCAL "ARGS" OUTARG "WAVE:OPTION,OPTION ..."
mk() {
    name=$1 file=$2 kern=$3 g=$4 l=$5 args=$6 oa=$7 cfgs=$8
    (cd "$TMP" && "$B/tests/wl_pocl_run" "$K/$file" --kernel "$kern" --global "$g" --local "$l" $args \
        --out "$oa:ref.$name.bin" >/dev/null)
    for c in $cfgs; do
        w=${c%%:*}
        rest=${c#*:}
        how=$(echo "$rest" | tr , ' ')
        d=$OUT/$name.w$w.$(echo "$rest" | tr ', :' '___')
        (cd "$TMP" && "$B/wavelift" run "$B/kernels/${file%.cl}.w$w.co" --kernel "$kern" --global "$g" --local "$l" \
            $args --out "$oa:want.0.bin" $how --bundle "$d" | grep -E 'SPIR-V' | sed "s|^|$(basename "$d") |")
        cp "$TMP/ref.$name.bin" "$d/want.0.bin"
    done
}
mk big scratch_big.cl big_private 128 64 "--arg buf:in128.bin --arg zero:512 --arg u32:300" 1 \
    "64:--subgroup-size,$S 32:--subgroup-size,$S 64:--model,wave 32:--model,wave"
mk spills scratch_big.cl spills 128 64 "--arg buf:in6144.bin --arg zero:24576" 1 \
    "64:--subgroup-size,$S 64:--subgroup-size,$S,--scratch,device 32:--model,wave"
mk dyn scratch.cl priv_dynamic 256 128 "--arg buf:in320.bin --arg zero:1024 --arg i32:40" 1 \
    "64:--subgroup-size,$S 64:--subgroup-size,$S,--scratch,device 32:--subgroup-size,$S,--scratch,device 64:--model,wave,--scratch,device"
echo "device_scratch: $(ls -d "$OUT"/*/ | wc -l) bundles in .dev/scratch"

#!/bin/sh
# Writes .dev/escapes/ (ignored by git): dispatch bundles (docs/bundle.md) of
# tests/kernels/escapes.cl for the NVIDIA machine (docs/escapes.md), in both
# models and both wave sizes, at the default loop budget:
#   spin_uniform, spin_divergent, spin_lds   never end: each must come back
#                                            refused, "loop budget exhausted"
#   reach                                    a load and a store 1 TiB past its
#                                            buffer: refused, "address outside
#                                            the mapping"
#   normal                                   then a normal kernel: must match
#                                            (expected output written here by
#                                            Python from the source's formula)
# and .dev/escapes/run.sh, run there from the repository root:
#   sh .dev/escapes/run.sh           (carry .dev and .gl)
# Here, on lavapipe:
#   scripts/device_escapes.sh [BUILD_DIR] && sh .dev/escapes/run.sh
# WL_BUNDLE_EXTRA (environment): more `wavelift run` options for every
# bundle, e.g. `--pages` (the paged mapping: reach's address then lies in
# an unmapped page).
# (lavapipe ends any loop nest after 65535 iterations by itself, so some
# spins end there before the budget: docs/escapes.md.)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
S=32
cd "$ROOT"
cmake --build "$BUILD" -j2 --target wavelift wl_bundlerun wl_kernels >/dev/null
OUT=.dev/escapes
EXTRA=${WL_BUNDLE_EXTRA:-}
rm -rf "$OUT"
mkdir -p "$OUT"
python3 - "$OUT" <<'EOF'
import struct, sys
out = sys.argv[1]
words = [0] * 256
words[64] = 12345          # lane 0 of spin_divergent leaves
open(out + "/in.bin", "wb").write(struct.pack("<256I", *words))
open(out + "/normal.expect", "wb").write(struct.pack("<256I", *[3 * i + 5 for i in range(256)]))
EOF
for w in 64 32; do
    for m in lanes wave; do
        for k in spin_uniform spin_divergent spin_lds; do
            d=$OUT/$k.w$w.$m
            "$BUILD/wavelift" run "$BUILD/kernels/escapes.w$w.co" --kernel $k --global 64 --local 64 \
                --arg "buf:$OUT/in.bin" --out 0:in.bin --subgroup-size $S --model $m $EXTRA --bundle "$d" >/dev/null
            cp "$OUT/in.bin" "$d/in.bin"
        done
        # 1024 waves spinning at once (the watchdog case)
        d=$OUT/spin_uniform_1024w.w$w.$m
        "$BUILD/wavelift" run "$BUILD/kernels/escapes.w$w.co" --kernel spin_uniform --global $((1024 * w)) \
            --local $w --arg "zero:$((4 * (1024 * w + 1)))" --out 0:in.bin --subgroup-size $S --model $m \
            $EXTRA --bundle "$d" >/dev/null
        cp "$OUT/in.bin" "$d/in.bin"
        d=$OUT/reach.w$w.$m
        "$BUILD/wavelift" run "$BUILD/kernels/escapes.w$w.co" --kernel reach --global 64 --local 64 \
            --arg zero:256 --arg i64:$((1 << 40)) --out 0:in.bin --subgroup-size $S --model $m \
            $EXTRA --bundle "$d" >/dev/null
        cp "$OUT/in.bin" "$d/in.bin"
        d=$OUT/normal.w$w.$m
        "$BUILD/wavelift" run "$BUILD/kernels/escapes.w$w.co" --kernel normal --global 256 --local 64 \
            --arg zero:1024 --out 0:normal.expect --subgroup-size $S --model $m $EXTRA --bundle "$d" >/dev/null
        cp "$OUT/normal.expect" "$d/normal.expect"
    done
done
cp "$BUILD/wl_bundlerun" "$OUT/wl_bundlerun"
cat > "$OUT/run.sh" <<'RUN'
#!/bin/sh
# Written by scripts/device_escapes.sh. Every spin and reach bundle must be
# REFUSED naming its escape, every normal bundle (run after them) must match.
if [ -e /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ] && [ -d .gl ]; then
    for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
    export __GL_SHADER_DISK_CACHE=0
fi
D=.dev/escapes
for m in lanes wave; do
    for w in 64 32; do
        start=$(date +%s%N)
        $D/wl_bundlerun --runs 1 --timeout-ms 20000 $D/spin_uniform.w$w.$m $D/spin_divergent.w$w.$m \
            $D/spin_lds.w$w.$m $D/spin_uniform_1024w.w$w.$m $D/reach.w$w.$m $D/normal.w$w.$m |
            grep -E '^(spin|reach|normal)|^total'
        echo "wall: $(( ($(date +%s%N) - start) / 1000000 )) ms for the six bundles above"
    done
done
RUN
echo "device_escapes: $(ls -d $OUT/*.w* | wc -l) bundles in $OUT; run: sh $OUT/run.sh"

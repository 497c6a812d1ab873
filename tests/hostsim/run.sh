#!/bin/sh
# ctest hostsim: the lanes model at S = 32 and 64, which only a GPU runs
# otherwise, on the CPU (tests/hostsim.h): every ACO shader of tests/aco at
# wave64 and wave32, translated for those subgroup sizes, its host-stage IR
# run by wl_hostsim against the original GLSL run natively on lavapipe
# (test_aco_run --write-bundles; wl_bundlerun saves the native outputs).
# And that the simulator can fail: a wave64 module of S = 64 run as if its
# subgroups had 32 invocations must not match.
#   sh run.sh BUILD_DIR
set -eu
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
shaders="wg_reduce=4 wg_scan=4 compact=4 histogram=4 nbody=2 pk_const=4 quad_shuffle=4"
for S in 32 64; do
    "$build/tests/test_aco_run" --write-bundles "$tmp/s$S" --subgroup $S $shaders > "$tmp/write$S.log" 2>&1 || {
        cat "$tmp/write$S.log"
        exit 1
    }
done
# inputs: the same pseudo-random words for every size (a fixed seed)
awk '{print $5}' "$tmp/s32/glsl.txt" | sort -u | while read -r n; do
    python3 -c "import random,sys; random.seed($n); sys.stdout.buffer.write(random.randbytes($n))" > "$tmp/s32/in.$n"
    cp "$tmp/s32/in.$n" "$tmp/s64/in.$n"
done
fail=0
for d in "$tmp"/s32/glsl_*.native.lanes; do
    "$build/wl_bundlerun" "$d" > "$tmp/native.log" 2>&1 || { cat "$tmp/native.log"; fail=1; }
done
cp "$tmp"/s32/native.*.bin "$tmp/s64/"
n=0
for S in 32 64; do
    for d in "$tmp/s$S"/glsl_*.w*.lanes; do
        n=$((n + 1))
        "$build/tests/wl_hostsim" "$d" || fail=1
        # the invocations between two subgroup operations run last to
        # first: an LDS access ordered only by the invocations' order
        # would show (lower/memory/lds_order.c)
        WLT_SIM_REVERSE=1 "$build/tests/wl_hostsim" "$d" || fail=1
    done
done
# the float Fma as the host's, checked (fma-host-first: NVIDIA's
# WL_FMA_F32_NORMAL, 8; its runs of fmas under one branch): the simulator's
# Fma is the exact one, so only a wrong stretch or phi would show; the
# inputs' random bits give subnormal and special operands, so the exact
# branch runs too
"$build/tests/test_aco_run" --write-bundles "$tmp/hf" --fused-fma 8 --subgroup 32 nbody=2 > "$tmp/hf.log" 2>&1 || {
    cat "$tmp/hf.log"
    exit 1
}
cp "$tmp"/s32/in.* "$tmp"/s32/native.glsl_nbody.* "$tmp/hf/"
for d in "$tmp"/hf/glsl_nbody.w*.lanes; do
    n=$((n + 1))
    "$build/tests/wl_hostsim" "$d" || fail=1
done
# the simulator can fail: S = 64 code run with subgroups of 32
d="$tmp/s64/glsl_compact.w64.lanes"
sed -i 's/^subgroup 64$/subgroup 32/' "$d/manifest.txt"
if "$build/tests/wl_hostsim" "$d"; then
    echo "FAIL: a module for subgroups of 64 matched with subgroups of 32"
    fail=1
fi
# tests/wl_emit_ir emits a bundle's module again from its host IR, byte
# for byte (docs/native.md, "Finding a device-only difference")
d="$tmp/s32/glsl_compact.w64.lanes"
cp "$d/module.spv" "$tmp/module.spv"
"$build/tests/wl_emit_ir" "$d" > /dev/null || fail=1
if ! cmp -s "$d/module.spv" "$tmp/module.spv"; then
    echo "FAIL: wl_emit_ir's module differs from the bundle's"
    fail=1
fi
echo "hostsim: $n lifted bundles at S = 32 and 64"
exit $fail

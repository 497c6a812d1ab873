#!/bin/sh
# ctest outline_calls: guest functions made host functions (the debug
# option's outline-calls; llvm-passes/outline_calls.c) on real calls:
# clang-19 -O0 code, where every builtin is a call chain and the call plan
# lifts each callee once. Checks that the modules have functions of their
# own and that the kernels still match PoCL on lavapipe (test_suite_run
# over -O0 code objects, WL_SUITE_CODIR).
#   sh run.sh BUILD_DIR SOURCE_DIR CLANG DEVICE_LIBS
set -eu
build=$1 src=$2 clang=$3 libs=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in suite_histogram suite_misc; do
    for w in 64 32; do
        if [ $w = 64 ]; then wf=-mwavefrontsize64; else wf=-mno-wavefrontsize64; fi
        "$clang" -x cl -cl-std=CL2.0 -Xclang -finclude-default-header -target amdgcn-amd-amdhsa -mcpu=gfx1030 $wf \
            -O0 --rocm-device-lib-path="$libs" -o "$tmp/$f.w$w.co" "$src/tests/kernels/$f.cl"
    done
done
# the functions: more OpFunction with the option than without, every
# module valid (lift validates)
for k in suite_histogram:hist_lds suite_misc:stencil_loop; do
    f=${k%%:*} n=${k#*:}
    "$build/wavelift" lift "$tmp/$f.w64.co" --kernel "$n" --subgroup-size 32 -o "$tmp/plain.spv" > /dev/null
    WAVELIFT_PASSES=outline-calls "$build/wavelift" lift "$tmp/$f.w64.co" --kernel "$n" --subgroup-size 32 \
        -o "$tmp/fn.spv" > /dev/null
    a=$(spirv-dis "$tmp/plain.spv" | grep -c " OpFunction ") || a=0
    b=$(spirv-dis "$tmp/fn.spv" | grep -c " OpFunction ") || b=0
    echo "$n: $a functions, $b with outline-calls"
    if [ "$b" -le "$a" ]; then
        echo "FAIL: $n has no function of its own with outline-calls"
        exit 1
    fi
done
# the results, against PoCL (one subgroup size a wave size)
for n in hist_lds stencil_loop; do
    WAVELIFT_PASSES=outline-calls WL_SUITE_QUICK=1 WL_SUITE_CODIR="$tmp" WL_SUITE_ONLY=$n \
        "$build/tests/test_suite_run" > "$tmp/suite.txt" 2>&1 || { cat "$tmp/suite.txt"; exit 1; }
    grep "^$n" "$tmp/suite.txt"
    m=$(grep -c "^$n .* match" "$tmp/suite.txt") || m=0
    if [ "$m" -ne 2 ]; then
        cat "$tmp/suite.txt"
        echo "FAIL: $n: $m of 2 runs match"
        exit 1
    fi
done
echo "outline_calls: passed"

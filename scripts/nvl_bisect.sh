#!/bin/sh
# Bisects a native-against-lifted difference on the GPU by the optional
# passes (docs/native.md): one prepared folder a variant, each translated
# with one group of passes left out (WAVELIFT_PASSES=skip=...) or a pass
# that is off run (run=...), and a runner for the device.
#   here:       sh scripts/nvl_bisect.sh prepare BUILD OUT NAME   (NAME: a GLSL shader, compact)
#   on device:  sh scripts/nvl_bisect.sh run OUT RESULTS_DIR       (carry OUT and .gl)
set -eu
variants="base:
novec:skip=vectorize-lanes
red:run=subgroup-reduce
nomasked:skip=fold-masked-selects
nobits:skip=fold-lane-bits,skip=fold-ballot-tests
noalign:skip=version-align,skip=merge-loads,skip=fold-pair64
nohost:skip=host
nowave:skip=wave-cse,skip=wave-clean
none:skip=vectorize-lanes,skip=fold-masked-selects,skip=fold-lane-bits,skip=fold-ballot-tests,skip=version-align,skip=merge-loads,skip=fold-pair64,skip=host,skip=wave-cse,skip=wave-clean,skip=fold-pair-phis,skip=fold-add64,skip=fold-flushes,skip=fold-odd-widths"
case "${1:-}" in
prepare)
    build=$2 out=$3 name=$4
    mkdir -p "$out"
    echo "$variants" | while IFS=: read -r v passes; do
        WL_NVL_CONFIGS=lanes64,lanes32 WAVELIFT_PASSES="$passes" \
            python3 "$(dirname "$0")/native_vs_lifted.py" prepare "$build" "$out/$v" "$name" > "$out/$v.log" 2>&1
        echo "$v: $(grep -c words "$out/$v.log") modules (${passes:-all passes})"
    done
    ;;
run)
    out=$2 res=$3
    mkdir -p "$res"
    echo "$variants" | while IFS=: read -r v passes; do
        [ -d "$out/$v" ] || continue
        sh "$(dirname "$0")/native_vs_lifted.sh" "$out/$v" "$res/$v.txt" > /dev/null 2>&1 || true
        echo "$v (${passes:-all passes}): $(grep -E 'MISMATCH|  match' "$res/$v.txt" | grep -v statistics | cut -c1-100 | tr '\n' '|')"
    done
    ;;
*)
    echo "usage: sh scripts/nvl_bisect.sh prepare BUILD OUT NAME | run OUT RESULTS_DIR" >&2
    exit 2
    ;;
esac

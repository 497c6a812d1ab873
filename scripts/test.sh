#!/bin/sh
# Every test: installs the dependencies, builds and runs the test suite, then
# the same suite under AddressSanitizer + UndefinedBehaviorSanitizer, then
# the concurrent-translation test under ThreadSanitizer, then each
# libFuzzer target for FUZZ_SECONDS (default 60) seconds.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
JOBS=$(nproc)
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
"$ROOT/scripts/install-deps.sh"

echo "== build and test"
cmake -S "$ROOT" -B "$ROOT/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$ROOT/build" -j"$JOBS"
ctest --test-dir "$ROOT/build" --output-on-failure -j"$JOBS"

echo "== sanitizer build (ASan + UBSan) and test"
cmake -S "$ROOT" -B "$ROOT/build-asan" -DCMAKE_BUILD_TYPE=Debug -DWL_SANITIZE=ON
cmake --build "$ROOT/build-asan" -j"$JOBS"
# The end-to-end kernel suite runs one subgroup size per wave size here
# (WL_SUITE_QUICK); the normal build above ran all of them.
# tests/lsan.supp suppresses leaks inside Mesa's lavapipe only (named
# frames: the runtime keeps the driver mapped in sanitizer builds).
WL_SUITE_QUICK=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    LSAN_OPTIONS="suppressions=$ROOT/tests/lsan.supp:print_suppressions=0" \
    ctest --test-dir "$ROOT/build-asan" --output-on-failure -j"$JOBS"

echo "== ThreadSanitizer: translations from several threads at once (tests/test_threads.c)"
cmake -S "$ROOT" -B "$ROOT/build-tsan" -DCMAKE_BUILD_TYPE=Debug -DWL_TSAN=ON
cmake --build "$ROOT/build-tsan" -j"$JOBS" --target test_threads
# A data race in the library's code (LLVM's is not instrumented) fails the
# run (ThreadSanitizer's exit status 66). Where the kernel's address-space
# randomization leaves ThreadSanitizer no room ("unexpected memory
# mapping"), the test runs again without it (setarch -R); where even that
# is not allowed, this says so and goes on: the same test has run in both
# suites above.
tsan_log="$ROOT/build-tsan/test_threads.log"
tsan_failed() { tail -n 80 "$tsan_log"; echo "FAILED: test_threads under ThreadSanitizer"; exit 1; }
if ! "$ROOT/build-tsan/tests/test_threads" >"$tsan_log" 2>&1; then
    grep -q 'unexpected memory mapping' "$tsan_log" || tsan_failed
    if setarch "$(uname -m)" -R true 2>/dev/null; then
        setarch "$(uname -m)" -R "$ROOT/build-tsan/tests/test_threads" >"$tsan_log" 2>&1 || tsan_failed
    else
        echo "ThreadSanitizer cannot map its shadow memory on this machine and setarch -R is refused: not run"
    fi
fi
tail -n 3 "$tsan_log"

echo "== fuzzers, ${FUZZ_SECONDS} s each"
CC=clang-19 CXX=clang++-19 cmake -S "$ROOT" -B "$ROOT/build-fuzz" \
    -DCMAKE_BUILD_TYPE=Debug -DWL_FUZZ=ON -DWL_BUILD_TESTS=OFF
cmake --build "$ROOT/build-fuzz" -j"$JOBS"
for fz in "$ROOT"/build-fuzz/fuzz/fuzz_*; do
    [ -x "$fz" ] || continue
    name=$(basename "$fz")
    corpus="$ROOT/build-fuzz/corpus-$name"
    mkdir -p "$corpus"
    # Seed with real code objects where the corpus build has them, and with
    # the inputs that once crashed a target (fuzz/regress/NAME/: each runs first).
    cp "$ROOT"/build/kernels/*.co "$corpus"/ 2>/dev/null || true
    cp "$ROOT"/fuzz/regress/"$name"/* "$corpus"/ 2>/dev/null || true
    # The lifter's and translator's input is code: the kernels' .text,
    # behind the selector byte(s) (0x80|t: wave64, target t; 0x00|t: wave32).
    case $name in fuzz_lift|fuzz_translate)
        for co in "$ROOT"/build/kernels/suite_*.w64.co; do
            [ -e "$co" ] || continue
            b=$(basename "$co" .co)
            llvm-objcopy-19 -O binary --only-section=.text "$co" "$corpus/$b.text" 2>/dev/null || continue
            for sel in 81 83 8b; do
                { printf "\\$(printf %03o 0x$sel)"; [ $name = fuzz_translate ] && printf '\011'; \
                  cat "$corpus/$b.text"; } >"$corpus/$b.$sel" || true
            done
            rm -f "$corpus/$b.text"
        done;;
    esac
    echo "-- $name"
    # A crash, a leak or a timeout fails the run (the input is written to
    # the current directory as crash-*, leak-* or timeout-*).
    log="$ROOT/build-fuzz/$name.log"
    if ! "$fz" -max_total_time="$FUZZ_SECONDS" -rss_limit_mb=4096 -print_final_stats=1 "$corpus" >"$log" 2>&1; then
        tail -n 60 "$log"
        echo "FAILED: $name"
        exit 1
    fi
    tail -n 12 "$log"
done
echo "all tests passed"

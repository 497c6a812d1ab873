#!/bin/sh
# The main job on the bundled example: installs the dependencies, builds
# wavelift, compiles examples/vector_add.cl with clang-19 to a gfx1030 wave64
# code object, lists it, then lifts it and runs it on the Vulkan device
# (lavapipe without a GPU) and checks c = a + b. A program the translator
# refuses by name (exit 3) is reported, not failed.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
"$ROOT/scripts/install-deps.sh"
cmake -S "$ROOT" -B "$ROOT/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$ROOT/build" -j"$(nproc)" --target wavelift
mkdir -p "$ROOT/build/example"
clang-19 -x cl -cl-std=CL2.0 -Xclang -finclude-default-header \
    -target amdgcn-amd-amdhsa -mcpu=gfx1030 -mwavefrontsize64 -O2 \
    --rocm-device-lib-path=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode \
    -o "$ROOT/build/example/vector_add.co" "$ROOT/examples/vector_add.cl"
"$ROOT/build/wavelift" dis "$ROOT/build/example/vector_add.co"
EX="$ROOT/build/example"
python3 - "$EX" <<'PY'
import struct, sys
d = sys.argv[1]
open(d + "/a.bin", "wb").write(struct.pack("<1024i", *range(1024)))
open(d + "/b.bin", "wb").write(struct.pack("<1024i", *[7 * i - 300 for i in range(1024)]))
PY
rc=0
"$ROOT/build/wavelift" run "$EX/vector_add.co" --kernel add --global 1024 --local 64 \
    --arg "buf:$EX/a.bin" --arg "buf:$EX/b.bin" --arg zero:4096 --out "2:$EX/c.bin" || rc=$?
if [ "$rc" -eq 3 ]; then
    echo "example: the translator refused the kernel (see above)"
    exit 0
fi
[ "$rc" -eq 0 ] || exit "$rc"
python3 - "$EX" <<'PY'
import struct, sys
d = sys.argv[1]
c = struct.unpack("<1024i", open(d + "/c.bin", "rb").read())
bad = [i for i in range(1024) if c[i] != i + 7 * i - 300]
print("example: c = a + b for all 1024 elements" if not bad else "example: WRONG at %d" % bad[0])
sys.exit(1 if bad else 0)
PY

#!/bin/sh
# The main job on the bundled example: installs the dependencies, builds
# wavelift, compiles examples/vector_add.cl with clang-19 to a gfx1030 wave64
# code object and lists it.
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

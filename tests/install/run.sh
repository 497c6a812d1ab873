#!/bin/sh
# The installed package, as an emulator's build meets it (ctest install):
# cmake --install into a fresh prefix, then a consumer (consumer.c) and
# examples/embed built twice against it, with find_package(wavelift) and
# with pkg-config, each run (the consumer on a code object of the corpus,
# embed on a captured dispatch, on the Vulkan device: lavapipe in CI); the
# library's exported symbols are exactly the functions its headers declare
# WL_API.
#   run.sh BUILD_DIR KERNEL_DIR CC
set -eu
BUILD=$1 KERNELS=$2 CC=$3
SRC=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cmake --install "$BUILD" --prefix "$TMP/prefix" >/dev/null
LIBDIR=$(dirname "$(find "$TMP/prefix" -name libwavelift.so -print -quit)")
echo "installed: $(cd "$TMP/prefix" && find . -type f | sort | tr '\n' ' ')"

# with CMake
cmake -S "$SRC" -B "$TMP/cm" -DCMAKE_PREFIX_PATH="$TMP/prefix" -DCMAKE_C_COMPILER="$CC" >/dev/null
cmake --build "$TMP/cm" >/dev/null
LD_LIBRARY_PATH="$LIBDIR" "$TMP/cm/consumer" "$KERNELS/vector_add.w64.co" add > "$TMP/out" || { cat "$TMP/out"; exit 1; }
sed 's/^/cmake: /' "$TMP/out"

# with pkg-config
PKG_CONFIG_PATH="$LIBDIR/pkgconfig" "$CC" -o "$TMP/pc" "$SRC/consumer.c" \
    $(PKG_CONFIG_PATH="$LIBDIR/pkgconfig" pkg-config --cflags --libs wavelift)
LD_LIBRARY_PATH="$LIBDIR" "$TMP/pc" "$KERNELS/vector_add.w32.co" add > "$TMP/out" || { cat "$TMP/out"; exit 1; }
sed 's/^/pkg-config: /' "$TMP/out"
# the runtime's pkg-config file names a library that is there
for l in $(PKG_CONFIG_PATH="$LIBDIR/pkgconfig" pkg-config --libs-only-l wavelift-runtime); do
    case $l in -lwavelift_runtime) test -f "$LIBDIR/libwavelift_runtime.a";; esac
done

# examples/embed (docs/embedding.md): an emulator's own Vulkan device running
# a captured dispatch through the API, built with CMake and with pkg-config,
# each on a capture of vector_add (wave64 and wave32) made by `wavelift run
# --capture`; the output range checked against c = a + b computed here.
EX=$(cd "$SRC/../../examples/embed" && pwd)
cmake -S "$EX" -B "$TMP/ex" -DCMAKE_PREFIX_PATH="$TMP/prefix" -DCMAKE_C_COMPILER="$CC" >/dev/null
cmake --build "$TMP/ex" >/dev/null
"$CC" -std=c17 -o "$TMP/embed-pc" "$EX/embed.c" \
    $(PKG_CONFIG_PATH="$LIBDIR/pkgconfig" pkg-config --cflags --libs wavelift) -lvulkan
python3 - "$TMP" <<'PY'
import struct, sys
d = sys.argv[1]
a = [(i * 2654435761) % (1 << 31) - (1 << 30) for i in range(1024)]
b = [7 * i - 300 for i in range(1024)]
open(d + "/a.bin", "wb").write(struct.pack("<1024i", *a))
open(d + "/b.bin", "wb").write(struct.pack("<1024i", *b))
c = [((x + y + (1 << 31)) % (1 << 32)) - (1 << 31) for x, y in zip(a, b)]
open(d + "/c.bin", "wb").write(struct.pack("<1024i", *c))
PY
for w in 64 32; do
    "$BUILD/wavelift" run "$KERNELS/vector_add.w$w.co" --kernel add --global 1024 --local 64 \
        --arg "buf:$TMP/a.bin" --arg "buf:$TMP/b.bin" --arg zero:4096 --capture "$TMP/cap$w" >/dev/null
done
LD_LIBRARY_PATH="$LIBDIR" "$TMP/ex/embed" "$TMP/cap64" arg2 "$TMP/c.bin" > "$TMP/out" || { cat "$TMP/out"; exit 1; }
sed 's/^/embed (cmake, wave64): /' "$TMP/out"
LD_LIBRARY_PATH="$LIBDIR" "$TMP/embed-pc" "$TMP/cap32" arg2 "$TMP/c.bin" > "$TMP/out" || { cat "$TMP/out"; exit 1; }
sed 's/^/embed (pkg-config, wave32): /' "$TMP/out"
EMBED_MODEL=wave LD_LIBRARY_PATH="$LIBDIR" "$TMP/embed-pc" "$TMP/cap64" arg2 "$TMP/c.bin" > "$TMP/out" ||
    { cat "$TMP/out"; exit 1; }
sed 's/^/embed (pkg-config, wave64, the wave model): /' "$TMP/out"
# a wrong expectation is found (the check can fail)
if LD_LIBRARY_PATH="$LIBDIR" "$TMP/embed-pc" "$TMP/cap64" arg2 "$TMP/a.bin" >/dev/null; then
    echo "embed: a wrong expected file was not noticed"
    exit 1
fi

# the exported functions: those the installed headers (but api.h, the macro's, and the runtime's,
# a static library of its own) declare WL_API, no more, no fewer
nm -D --defined-only "$LIBDIR/libwavelift.so" | awk '$2 == "T" {print $3}' | sed 's/@.*//' | sort > "$TMP/exported"
# every one under the major version's node (cmake/libwavelift.map)
if objdump -T "$LIBDIR/libwavelift.so" | awk '$4 == ".text" && $NF ~ /^wl_/' | grep -v -q 'WAVELIFT_0'; then
    echo "an exported function is not under the version node WAVELIFT_0"
    exit 1
fi
cat "$TMP/prefix/include/wavelift.h" $(ls "$TMP/prefix"/include/wavelift/*.h | grep -v -e runtime.h -e api.h) |
    tr '\n' ' ' | sed 's|/\*[^*]*\*\+\([^/*][^*]*\*\+\)*/||g' | tr ';' '\n' | grep 'WL_API' | sed -n 's/.*[ *]\([a-z_][a-z0-9_]*\) *(.*/\1/p' | sort -u > "$TMP/declared"
if ! cmp -s "$TMP/exported" "$TMP/declared"; then
    echo "exported symbols differ from the headers' WL_API functions (< exported, > declared):"
    diff "$TMP/exported" "$TMP/declared" || true
    exit 1
fi
echo "exported: $(wc -l < "$TMP/exported") functions, each declared WL_API in the headers"

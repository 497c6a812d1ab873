#!/bin/sh
# The installed package, as an emulator's build meets it (ctest install):
# cmake --install into a fresh prefix, then a consumer (consumer.c) built
# twice against it, with find_package(wavelift) and with pkg-config, each
# run on a code object of the corpus; the library's exported symbols are
# exactly the functions its headers declare WL_API.
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
LD_LIBRARY_PATH="$LIBDIR" "$TMP/cm/consumer" "$KERNELS/vector_add.w64.co" add | sed 's/^/cmake: /'

# with pkg-config
PKG_CONFIG_PATH="$LIBDIR/pkgconfig" "$CC" -o "$TMP/pc" "$SRC/consumer.c" \
    $(PKG_CONFIG_PATH="$LIBDIR/pkgconfig" pkg-config --cflags --libs wavelift)
LD_LIBRARY_PATH="$LIBDIR" "$TMP/pc" "$KERNELS/vector_add.w32.co" add | sed 's/^/pkg-config: /'
# the runtime's pkg-config file names a library that is there
for l in $(PKG_CONFIG_PATH="$LIBDIR/pkgconfig" pkg-config --libs-only-l wavelift-runtime); do
    case $l in -lwavelift_runtime) test -f "$LIBDIR/libwavelift_runtime.a";; esac
done

# the exported functions: those the installed headers (but api.h, the macro's, and the runtime's,
# a static library of its own) declare WL_API, no more, no fewer
nm -D --defined-only "$LIBDIR/libwavelift.so" | awk '$2 == "T" {print $3}' | sort > "$TMP/exported"
cat "$TMP/prefix/include/wavelift.h" $(ls "$TMP/prefix"/include/wavelift/*.h | grep -v -e runtime.h -e api.h) |
    tr '\n' ' ' | sed 's|/\*[^*]*\*\+\([^/*][^*]*\*\+\)*/||g' | tr ';' '\n' | grep 'WL_API' | sed -n 's/.*[ *]\([a-z_][a-z0-9_]*\) *(.*/\1/p' | sort -u > "$TMP/declared"
if ! cmp -s "$TMP/exported" "$TMP/declared"; then
    echo "exported symbols differ from the headers' WL_API functions (< exported, > declared):"
    diff "$TMP/exported" "$TMP/declared" || true
    exit 1
fi
echo "exported: $(wc -l < "$TMP/exported") functions, each declared WL_API in the headers"

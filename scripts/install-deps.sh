#!/bin/sh
# Installs every dependency of wavelift from Debian 12 packages. Idempotent:
# packages already present are left as they are.
set -eu
PKGS="cmake make gcc g++ pkg-config python3
llvm-19 llvm-19-dev llvm-19-tools clang-19 lld-19 libclang-rt-19-dev
spirv-tools libvulkan-dev mesa-vulkan-drivers libcmocka-dev
rocm-device-libs libmsgpack-dev glslang-tools
ocl-icd-opencl-dev pocl-opencl-icd opencl-c-headers python3-cryptography zlib1g-dev libzstd-dev libedit-dev libxml2-dev libffi-dev libncurses-dev"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    $SUDO apt-get install -y -qq --no-install-recommends $missing
fi
# Third-party programs for the tests, extracted from Debian packages.
"$(dirname "$0")/install-piglit.sh"

# The third-party corpus of tests/test_corpus.c: Debian packages shipping
# OpenCL C, unpacked (dpkg-deb -x, not installed: darktable would pull in
# GTK) into WL_CORPUS_DIR, one directory per package, with its version in
# PKG.version. A package already unpacked at the same version is left.
CORPUS_DIR="${WL_CORPUS_DIR:-/var/cache/wavelift-corpus}"
CORPUS_PKGS="hashcat-data python3-pyopencl darktable"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
for p in $CORPUS_PKGS; do
    want=$(apt-cache policy "$p" 2>/dev/null | sed -n 's/^ *Candidate: //p')
    have=$(cat "$CORPUS_DIR/$p.version" 2>/dev/null || true)
    if [ -z "$want" ] || [ "$want" = "(none)" ]; then
        $SUDO apt-get update -qq
        want=$(apt-cache policy "$p" | sed -n 's/^ *Candidate: //p')
    fi
    if [ "$have" = "$want" ] && [ -f "$CORPUS_DIR/$p/usr/share/doc/$p/copyright" ]; then
        continue
    fi
    tmp=$(mktemp -d)
    chmod a+rwx "$tmp" # apt-get download writes as the _apt user
    (cd "$tmp" && apt-get download -qq "$p=$want")
    $SUDO rm -rf "$CORPUS_DIR/$p"
    $SUDO mkdir -p "$CORPUS_DIR/$p"
    $SUDO dpkg-deb -x "$tmp"/*.deb "$CORPUS_DIR/$p"
    echo "$want" | $SUDO tee "$CORPUS_DIR/$p.version" >/dev/null
    rm -rf "$tmp"
done

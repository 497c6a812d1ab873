#!/bin/sh
# Installs every dependency of wavelift from Debian 12 packages. Idempotent:
# packages already present are left as they are.
set -eu
PKGS="cmake make gcc g++ pkg-config python3
llvm-19 llvm-19-dev llvm-19-tools clang-19 lld-19 libclang-rt-19-dev
spirv-tools libvulkan-dev mesa-vulkan-drivers libcmocka-dev
rocm-device-libs libmsgpack-dev glslang-tools
ocl-icd-opencl-dev pocl-opencl-icd opencl-c-headers zlib1g-dev libzstd-dev libedit-dev libxml2-dev libffi-dev libncurses-dev"
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

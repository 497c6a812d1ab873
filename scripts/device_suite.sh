#!/bin/sh
# Prepares .dev/ (ignored by git) for running the backend's execution suite
# on a machine without LLVM (the NVIDIA machine, ../shared/device/README.md):
#   .dev/wl_vkrun      the runner (runtime + libvulkan + libc only)
#   .dev/suite/        the programs of tests/test_backend_exec.c, emitted as
#                      written and after default<O2>, with their initial
#                      memory, expected memory and masks, for subgroup size S
#   .dev/run.sh        what to run there: unpacks .gl/, sets the NVIDIA ICD,
#                      runs the suite (and vulkaninfo --summary if present)
# and .gl/ with the loader packages of ../shared/device when they are there.
#
#   scripts/device_suite.sh [S] [BUILD_DIR]    (S: 32, the H200's subgroup size)
#
# Then, on the device machine (carry .dev and .gl):  sh .dev/run.sh
set -eu
S=${1:-32}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${2:-$ROOT/build-device}
cd "$ROOT"
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$BUILD" -j1 --target wl_vkrun test_backend_exec >/dev/null
rm -rf .dev
mkdir -p .dev/suite
"$BUILD/tests/test_backend_exec" --write-suite .dev/suite "$S" >/dev/null
cp "$BUILD/wl_vkrun" .dev/wl_vkrun
# the runner must need libc and libvulkan only (glibc 2.36 here, 2.39 there)
needed=$(readelf -d .dev/wl_vkrun | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | sort | tr '\n' ' ')
if [ "$needed" != "libc.so.6 libvulkan.so.1 " ]; then
    echo "device_suite: wl_vkrun needs more than libc and libvulkan: $needed" >&2
    exit 1
fi
if [ -d ../shared/device ] && ls ../shared/device/*.deb >/dev/null 2>&1; then
    mkdir -p .gl && cp ../shared/device/*.deb .gl/
fi
cat > .dev/run.sh <<'RUN'
#!/bin/sh
# Runs on the device machine from the repository root (carry .dev and .gl).
for f in .gl/*.deb; do [ -e "$f" ] && dpkg -x "$f" /; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
export __GL_SHADER_DISK_CACHE=0
command -v vulkaninfo >/dev/null && vulkaninfo --summary 2>/dev/null | sed -n '/Devices:/,$p' | head -20
.dev/wl_vkrun --runs 20 .dev/suite
RUN
chmod +x .dev/run.sh
n=$(grep -vc '^#' .dev/suite/suite.txt)
echo "device_suite: .dev/ holds wl_vkrun and $n programs for subgroup size $S ($(du -sh .dev | cut -f1)); run there: sh .dev/run.sh"

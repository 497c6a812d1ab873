#!/bin/sh
# Prepares .dev/ (ignored by git) for running the OpenCL kernel suite on a
# machine without LLVM (the NVIDIA machine, ../shared/device/README.md):
#   .dev/wl_bundlerun     the runner (runtime + libvulkan + libc only)
#   .dev/kernels/         one dispatch bundle (docs/bundle.md) per suite
#                         kernel, wave size and model: KERNEL.w64, KERNEL.w32
#                         (lanes model, translated for subgroup size S) and,
#                         with --models wave|both, KERNEL.w64.wave,
#                         KERNEL.w32.wave (wave model, no subgroup size), with
#                         PoCL's outputs as the expected files
#                         (scripts/suite_bundles.py); REFUSED.txt lists the
#                         runs the translator refused
#   .dev/run_kernels.sh   what to run there: unpacks .gl/, sets the NVIDIA
#                         ICD, runs every bundle (one line each, a total)
# and .gl/ with the loader packages of ../shared/device when they are there.
# Leaves the rest of .dev/ (scripts/device_suite.sh's suite) alone.
#
#   scripts/device_kernels.sh [--models lanes|wave|both] [S] [BUILD_DIR]
#       (models: lanes by default; S: 32, the H200's subgroup size;
#        k = 2 for wave64, 1 for wave32)
#
# Then, on the device machine (carry .dev and .gl):  sh .dev/run_kernels.sh
# Here, on lavapipe (S = 8):
#   scripts/device_kernels.sh 8 && WAVELIFT_DEVICE=llvmpipe sh .dev/run_kernels.sh
set -eu
MODELS=lanes
if [ "${1:-}" = "--models" ]; then
    MODELS=${2:?--models needs lanes, wave or both}
    shift 2
fi
case $MODELS in lanes|wave|both) ;; *) echo "device_kernels: --models must be lanes, wave or both" >&2; exit 2;; esac
LABEL=$MODELS
[ "$MODELS" = both ] && LABEL="lanes and wave"
S=${1:-32}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${2:-$ROOT/build-device}
cd "$ROOT"
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$BUILD" -j1 --target wavelift wl_bundlerun wl_kernels wl_pocl_run >/dev/null
mkdir -p .dev
rm -rf .dev/kernels
python3 "$ROOT/scripts/suite_bundles.py" --models "$MODELS" "$S" "$BUILD" .dev/kernels
cp "$BUILD/wl_bundlerun" .dev/wl_bundlerun
# the runner must need libc and libvulkan only (glibc 2.36 here, 2.39 there)
needed=$(readelf -d .dev/wl_bundlerun | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | sort | tr '\n' ' ')
if [ "$needed" != "libc.so.6 libvulkan.so.1 " ]; then
    echo "device_kernels: wl_bundlerun needs more than libc and libvulkan: $needed" >&2
    exit 1
fi
if [ -d ../shared/device ] && ls ../shared/device/*.deb >/dev/null 2>&1; then
    mkdir -p .gl && cp ../shared/device/*.deb .gl/
fi
cat > .dev/run_kernels.sh <<RUN
#!/bin/sh
# Runs the kernel suite's bundles (models: $LABEL; lanes at subgroup size $S) on the device machine,
# from the repository root (carry .dev and .gl). Written by
# scripts/device_kernels.sh. Exit: wl_bundlerun's (0: every bundle matched).
# (the NVIDIA machine only: elsewhere, e.g. lavapipe here, nothing is unpacked)
if [ -e /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ] && [ -d .gl ]; then
    for f in .gl/*.deb; do dpkg -x \$f /; done; ldconfig
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
    export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
fi
export __GL_SHADER_DISK_CACHE=0   # else the driver's disk cache hides compile time (NVIDIA)
export MESA_SHADER_CACHE_DISABLE=true   # likewise for Mesa (lavapipe)
echo "kernel suite: bundles of the models $LABEL (lanes at subgroup size $S: wave64 k = \$((64 / $S)), wave32 k = \$((32 / $S)); wave: one invocation a wave)"
echo "refused by the translator (no bundle):"
grep -v '^#' .dev/kernels/REFUSED.txt | sed 's/^/    /'
# TIMEOUT_MS: lavapipe compiles at the first dispatch, minutes for the largest wave-model modules
.dev/wl_bundlerun --runs \${RUNS:-20} --timeout-ms \${TIMEOUT_MS:-300000} .dev/kernels/*/
RUN
chmod +x .dev/run_kernels.sh
n=$(ls -d .dev/kernels/*/ | wc -l)
echo "device_kernels: .dev/ holds wl_bundlerun and $n bundles (models $LABEL, lanes at subgroup size $S) ($(du -sh .dev/kernels | cut -f1)); run there: sh .dev/run_kernels.sh"

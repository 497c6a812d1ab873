#!/bin/sh
# On the device machine, after scripts/device_kernels.sh --models both (carry .dev and .gl):
#   sh scripts/device_run_model.sh lanes|wave|all OUTFILE [BASE]
# sets up the NVIDIA ICD as .dev/run_kernels.sh does and runs one model's
# bundles of BASE (default .dev/kernels; e.g. .dev/kpages for bundles of
# WL_BUNDLE_EXTRA=--pages) or all of them (RUNS, TIMEOUT_MS as there); the
# whole suite in one call can pass the 600 s limit of a device call.
if [ -e /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ] && [ -d .gl ]; then
    for f in .gl/*.deb; do dpkg -x $f / 2>/dev/null; done; ldconfig
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
export __GL_SHADER_DISK_CACHE=0
base=${3:-.dev/kernels}
case $1 in
wave) dirs=$(ls -d "$base"/*.wave/) ;;
all) dirs=$(ls -d "$base"/*/) ;;
*) dirs=$(ls -d "$base"/*/ | grep -v '\.wave/$') ;;
esac
.dev/wl_bundlerun --runs ${RUNS:-5} --timeout-ms ${TIMEOUT_MS:-120000} $dirs > "$2" 2>&1
echo "exit $?"
tail -3 "$2"

#!/bin/sh
# On the device machine, after scripts/device_kernels.sh --models both (carry .dev and .gl):
#   sh scripts/device_run_model.sh lanes|wave OUTFILE
# sets up the NVIDIA ICD as .dev/run_kernels.sh does and runs one model's
# bundles (RUNS, TIMEOUT_MS as there); the whole suite in one call can pass
# the 600 s limit of a device call.
if [ -e /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ] && [ -d .gl ]; then
    for f in .gl/*.deb; do dpkg -x $f / 2>/dev/null; done; ldconfig
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
export __GL_SHADER_DISK_CACHE=0
if [ "$1" = wave ]; then dirs=$(ls -d .dev/kernels/*.wave/); else dirs=$(ls -d .dev/kernels/*/ | grep -v '\.wave/$'); fi
.dev/wl_bundlerun --runs ${RUNS:-5} --timeout-ms ${TIMEOUT_MS:-120000} $dirs > "$2" 2>&1
echo "exit $?"
tail -3 "$2"

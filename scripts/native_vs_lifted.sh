#!/bin/sh
# On the device machine, after `scripts/native_vs_lifted.py prepare BUILD DIR`
# (carry DIR and .gl): runs DIR/run.sh, the native OpenCL build through the
# vendor's driver (its ICD named for the carried loader) and the lifted
# bundles, into RESULTS; `native_vs_lifted.py report RESULTS DOCDIR` reads it.
#   sh scripts/native_vs_lifted.sh DIR RESULTS
set -u
NVL=$(cd "$1" && pwd)
if [ -e /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ] && [ -d .gl ]; then
    for f in .gl/*.deb; do dpkg -x "$f" / 2>/dev/null; done; ldconfig
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
    export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
fi
export __GL_SHADER_DISK_CACHE=0 CUDA_CACHE_DISABLE=1 # no driver cache: build times are compiles
lib=$(ls /usr/local/nvidia/lib64/libnvidia-opencl.so.* /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.* 2>/dev/null | head -1)
if [ -n "$lib" ]; then
    mkdir -p "$NVL/icd"
    echo "$lib" > "$NVL/icd/nvidia.icd"
    export OCL_ICD_VENDORS="$NVL/icd"
fi
export LD_LIBRARY_PATH="$NVL:/usr/local/nvidia/lib64:${LD_LIBRARY_PATH:-}"
export NVL
sh "$NVL/run.sh" > "$2" 2>&1
echo "exit $?"
grep -c "^===" "$2"
tail -5 "$2"

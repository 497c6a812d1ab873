#!/bin/sh
# On the device machine, after scripts/device_big_modules.py (carry .dev and .gl):
#   sh scripts/device_big_modules.sh .dev/big/list.txt OUTFILE
# sets up the NVIDIA ICD as scripts/device_run_model.sh does and builds
# every listed module's pipeline three times, disk cache off.
if [ -e /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ] && [ -d .gl ]; then
    for f in .gl/*.deb; do dpkg -x $f / 2>/dev/null; done; ldconfig
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
export __GL_SHADER_DISK_CACHE=0
.dev/wl_pipebuild --builds ${BUILDS:-3} "$1" > "$2" 2>&1
echo "exit $?"
cat "$2"

#!/bin/sh
# Does the NVIDIA driver refuse pipelines by the size of their Function-
# storage (private) arrays? (docs/corpus.md, "On the H200": the wave-model
# pipelines that do not build all have large ones.) Writes .dev/syn/arrN,
# one bundle per array size N (words): a GLSL shader with `uint a[N]` that
# is written and read at indices known only at run time, compiled by
# glslang, in a copy of TEMPLATE (a wave-model bundle written by
# scripts/suite_bundles.py, for its launch: the status buffer is binding 0).
# The runs do not match (the check is the template's): what counts is
# whether vkCreateComputePipelines succeeds.
#   scripts/probe_private_arrays.sh TEMPLATE_BUNDLE
#   then on the device: sh scripts/device_run_model.sh all OUT .dev/syn
set -eu
tmpl=${1:?a wave-model bundle to copy, e.g. .dev/corpus/sha1_55.w64.wave}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p .dev/syn
for n in ${SIZES:-1024 2048 3072 3328 3584 3840 4096 6144 8192 16384 32768}; do
    cat > "$tmp/s.comp" <<GLSL
#version 450
layout(local_size_x = 2) in;
layout(set = 0, binding = 0) buffer B { uint d[]; } b;
layout(push_constant) uniform P { uint x; } pc;
void main() {
    uint a[$n];
    uint g = gl_GlobalInvocationID.x;
    for (uint i = 0; i < $n; i++) a[(i * 7u + g) % $n] = i ^ b.d[i & 31u];
    uint s = 0;
    for (uint i = 0; i < 32u; i++) s += a[b.d[i] % $n];
    b.d[32u + g] = s;
}
GLSL
    glslangValidator -V --target-env vulkan1.2 -o "$tmp/s.spv" "$tmp/s.comp" >/dev/null
    d=.dev/syn/arr$n
    rm -rf "$d"
    cp -r "$tmpl" "$d"
    cp "$tmp/s.spv" "$d/module.spv"
    sed -i "s/^spirv module.spv .*/spirv module.spv $(($(stat -c %s "$tmp/s.spv") / 4))/" "$d/manifest.txt"
done
echo "probe_private_arrays: $(ls .dev/syn | wc -l) bundles in .dev/syn"

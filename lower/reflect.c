/* wl_reflect (include/wavelift/translate.h; docs/embedding.md,
 * "Reflection"): what a translated module needs from the host that runs
 * it, from the translation's info (what the backend emitted: its
 * capabilities, bindings, push constants) and the options it was made
 * with (the model, the subgroup size, maximal reconvergence). The
 * contract's constants are wavelift/abi.h's. */
#include <string.h>

#include "wavelift/abi.h"
#include "wavelift/backend.h"
#include "wavelift/translate.h"
#include "lower/options.h"

/* the module's own buffers by binding: their names (abi.h) and what goes there */
static const char *const NAMES[WL_OWN_BUFFERS] = WL_OWN_BUFFER_NAMES;
static const char *const WHAT[WL_OWN_BUFFERS] = {
    [WL_BINDING_STATUS] = "the status words (zeroed before the dispatch; the escape record)",
    [WL_BINDING_PAGETABLE] = "the guest page table (wl_rt_pagetable_build)",
    [WL_BINDING_LDS] = "device-memory LDS, one slice a work-group (WL_LDS_SLICE_BYTES)",
    [WL_BINDING_STATE] = "the per-dispatch state, read-only: the push-constant block's WL_PUSH_BYTES",
};

static const wl_reflect_push PUSH[] = {
    {"user_sgprs", 0, 4 * WL_PUSH_USER_SGPRS},
    {"scratch_base", WL_PUSH_SCRATCH_BASE_OFFSET, 8},
    {"scratch_stride", WL_PUSH_SCRATCH_STRIDE_OFFSET, 4},
    {"mapping", WL_PUSH_MAP_OFFSET, WL_PUSH_MAP_BYTES},
    {"loop_budget", WL_PUSH_LOOP_BUDGET_OFFSET, 4},
    {"sink", WL_PUSH_SINK_OFFSET, 8},
};

/* WL_FEAT_* bits and the Vulkan feature each needs */
static const struct {
    uint32_t bit;
    const char *feature;
} FEATURES[] = {
    {WL_FEAT_INT8, "shaderInt8"},
    {WL_FEAT_INT16, "shaderInt16"},
    {WL_FEAT_INT64, "shaderInt64"},
    {WL_FEAT_FLOAT16, "shaderFloat16"},
    {WL_FEAT_FLOAT64, "shaderFloat64"},
    {WL_FEAT_STORAGE8, "storageBuffer8BitAccess"},
    {WL_FEAT_STORAGE16, "storageBuffer16BitAccess"},
    {WL_FEAT_BUFFER_INT64_ATOMICS, "shaderBufferInt64Atomics"},
    {WL_FEAT_SHARED_INT64_ATOMICS, "shaderSharedInt64Atomics"},
    {WL_FEAT_BDA, "bufferDeviceAddress"},
};

/* WL_FEAT_SUBGROUP_* and VkSubgroupFeatureFlagBits */
static const struct {
    uint32_t bit, vk;
} SUBGROUP[] = {
    {WL_FEAT_SUBGROUP_BASIC, 0x1},  {WL_FEAT_SUBGROUP_VOTE, 0x2},    {WL_FEAT_SUBGROUP_ARITH, 0x4},
    {WL_FEAT_SUBGROUP_BALLOT, 0x8}, {WL_FEAT_SUBGROUP_SHUFFLE, 0x10}, {WL_FEAT_SUBGROUP_RELATIVE, 0x20},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void add_name(const char **list, uint32_t *n, const char *name)
{
    if (*n < WL_REFLECT_MAX_NAMES)
        list[(*n)++] = name;
}

wl_status wl_reflect(const wl_translate_info *info, const wl_translate_options *caller, wl_reflection *out)
{
    wl_translate_options full, *opt = &full;
    if (!info || !out || out->struct_size < sizeof *out || !wl_translate_options_read(caller, &full))
        return WL_ERR_USAGE;
    memset(out, 0, sizeof *out);
    out->struct_size = sizeof *out;
    for (unsigned i = 0; i < WL_OWN_BUFFERS; i++)
        if (info->bindings & (1u << i)) {
            wl_reflect_binding *b = &out->bindings[out->nbindings++];
            b->set = info->binding_set[i];
            b->binding = info->binding_slot[i];
            b->name = NAMES[i];
            b->what = WHAT[i];
        }
    if (info->push_bytes) {
        out->push_size = info->push_bytes;
        for (size_t i = 0; i < COUNT(PUSH); i++)
            if (PUSH[i].offset + PUSH[i].size <= info->push_bytes)
                out->push[out->npush++] = PUSH[i];
    }
    memcpy(out->local_size, info->host_local_size, sizeof out->local_size);
    out->model = info->model;
    out->model_name = info->model == WL_MODEL_WAVE ? "wave" : "lanes";
    out->lanes_per_invocation = info->lanes_per_invocation;
    out->workgroup_bytes = info->workgroup_bytes;
    out->scratch_bytes_per_invocation = info->scratch_bytes_per_invocation;
    for (size_t i = 0; i < COUNT(FEATURES); i++)
        if (info->features & FEATURES[i].bit)
            add_name(out->features, &out->nfeatures, FEATURES[i].feature);
    for (size_t i = 0; i < COUNT(SUBGROUP); i++)
        if (info->features & SUBGROUP[i].bit)
            out->subgroup_operations |= SUBGROUP[i].vk;
    if (info->model != WL_MODEL_WAVE) {
        /* the lanes model: k lanes an invocation need the subgroup size the
         * translation assumed, every subgroup full */
        out->required_subgroup_size = opt->subgroup_size;
        out->full_subgroups = 1;
        add_name(out->features, &out->nfeatures, "subgroupSizeControl");
        add_name(out->features, &out->nfeatures, "computeFullSubgroups");
    }
    if (opt->maximal_reconvergence) {
        add_name(out->features, &out->nfeatures, "shaderMaximalReconvergence");
        add_name(out->extensions, &out->nextensions, "VK_KHR_shader_maximal_reconvergence");
        add_name(out->extensions, &out->nextensions, "VK_KHR_shader_subgroup_uniform_control_flow");
    }
    return WL_OK;
}

/* Compute pipelines: the fixed layout of the binding convention (set 0,
 * bindings 0..WL_RT_MAX_BINDINGS-1 storage buffers, one push-constant range
 * of WL_RT_PUSH_CONSTANT_BYTES), and pipelines from SPIR-V words with a
 * required subgroup size and full subgroups. No pipeline cache: the time
 * measured around vkCreateComputePipelines is the driver's whole compile. */
#include "rt_internal.h"

#include <stdio.h>
#include <stdlib.h>

wl_rt_status wl_rt_create_layouts(wl_rt *rt)
{
    VkDescriptorSetLayoutBinding b[WL_RT_MAX_BINDINGS];
    for (uint32_t i = 0; i < WL_RT_MAX_BINDINGS; i++)
        b[i] = (VkDescriptorSetLayoutBinding){
            .binding = i,
            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .descriptorCount = 1,
            .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
        };
    VkDescriptorSetLayoutCreateInfo li = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = WL_RT_MAX_BINDINGS,
        .pBindings = b,
    };
    VkResult r = vkCreateDescriptorSetLayout(rt->device, &li, NULL, &rt->set_layout);
    if (r != VK_SUCCESS)
        return wl_rt_fail_vk(rt, "vkCreateDescriptorSetLayout", r);
    VkPushConstantRange pc = {
        .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
        .offset = 0,
        .size = WL_RT_PUSH_CONSTANT_BYTES,
    };
    VkPipelineLayoutCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &rt->set_layout,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &pc,
    };
    if ((r = vkCreatePipelineLayout(rt->device, &pi, NULL, &rt->pipeline_layout)) != VK_SUCCESS)
        return wl_rt_fail_vk(rt, "vkCreatePipelineLayout", r);
    VkDescriptorPoolSize ps = { .type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = WL_RT_MAX_BINDINGS };
    VkDescriptorPoolCreateInfo dpi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 1,
        .poolSizeCount = 1,
        .pPoolSizes = &ps,
    };
    if ((r = vkCreateDescriptorPool(rt->device, &dpi, NULL, &rt->descriptor_pool)) != VK_SUCCESS)
        return wl_rt_fail_vk(rt, "vkCreateDescriptorPool", r);
    VkDescriptorSetAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = rt->descriptor_pool,
        .descriptorSetCount = 1,
        .pSetLayouts = &rt->set_layout,
    };
    if ((r = vkAllocateDescriptorSets(rt->device, &ai, &rt->set)) != VK_SUCCESS)
        return wl_rt_fail_vk(rt, "vkAllocateDescriptorSets", r);
    return WL_RT_OK;
}

static int is_pow2(uint32_t v)
{
    return v && !(v & (v - 1));
}

/* What the required subgroup size and full subgroups allow; fills
 * req/flags. */
static wl_rt_status subgroup_setup(wl_rt *rt, const wl_rt_pipeline_desc *d, const wl_rt_spirv_info *info,
                                   struct wl_rt_pipeline *p)
{
    const wl_host_profile *pr = &rt->profile;
    uint32_t s = d->subgroup_size;
    if (s) {
        if (!pr->subgroup_size_control)
            return wl_rt_fail(rt, WL_RT_ERR_UNSUPPORTED,
                              "subgroup size %u requested: %s has no subgroup size control for compute", s,
                              pr->device_name);
        if (!is_pow2(s) || s < pr->min_subgroup_size || s > pr->max_subgroup_size)
            return wl_rt_fail(rt, WL_RT_ERR_UNSUPPORTED, "subgroup size %u requested: %s offers %u to %u", s,
                              pr->device_name, pr->min_subgroup_size, pr->max_subgroup_size);
        uint64_t inv = (uint64_t)info->local_size[0] * info->local_size[1] * info->local_size[2];
        if (pr->max_compute_workgroup_subgroups && inv > (uint64_t)s * pr->max_compute_workgroup_subgroups)
            return wl_rt_fail(rt, WL_RT_ERR_UNSUPPORTED,
                              "subgroup size %u: a workgroup of %llu invocations is more than %u subgroups", s,
                              (unsigned long long)inv, pr->max_compute_workgroup_subgroups);
    }
    p->subgroup_size = s;
    p->full_subgroups = d->require_full_subgroups && pr->compute_full_subgroups;
    if (p->full_subgroups && info->local_size[0]) {
        uint32_t unit = s ? s : pr->max_subgroup_size;
        if (info->local_size[0] % unit)
            return wl_rt_fail(rt, WL_RT_ERR_USAGE,
                              "full subgroups: LocalSize x %u is not a multiple of the subgroup size %u",
                              info->local_size[0], unit);
    }
    return WL_RT_OK;
}

/* "name=value; ..." of the driver's statistics of every executable of
 * pipe (malloc'd), or NULL where it reports none or memory runs out */
static char *read_statistics(wl_rt *rt, VkPipeline pipe)
{
    PFN_vkGetPipelineExecutablePropertiesKHR props =
        (PFN_vkGetPipelineExecutablePropertiesKHR)vkGetDeviceProcAddr(rt->device,
                                                                      "vkGetPipelineExecutablePropertiesKHR");
    PFN_vkGetPipelineExecutableStatisticsKHR stats =
        (PFN_vkGetPipelineExecutableStatisticsKHR)vkGetDeviceProcAddr(rt->device,
                                                                      "vkGetPipelineExecutableStatisticsKHR");
    if (!props || !stats)
        return NULL;
    VkPipelineInfoKHR pi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, .pipeline = pipe};
    VkPipelineExecutablePropertiesKHR ex[4];
    uint32_t nex = 4;
    for (uint32_t i = 0; i < nex; i++)
        ex[i] = (VkPipelineExecutablePropertiesKHR){.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR};
    VkResult r = props(rt->device, &pi, &nex, ex);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || nex == 0)
        return NULL;
    size_t cap = 2048, len = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    out[0] = 0;
    for (uint32_t e = 0; e < nex; e++) {
        VkPipelineExecutableInfoKHR ei = {.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR,
                                          .pipeline = pipe, .executableIndex = e};
        VkPipelineExecutableStatisticKHR st[32];
        uint32_t n = 32;
        for (uint32_t i = 0; i < n; i++)
            st[i] = (VkPipelineExecutableStatisticKHR){.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR};
        r = stats(rt->device, &ei, &n, st);
        if (r != VK_SUCCESS && r != VK_INCOMPLETE)
            continue;
        if (nex > 1 && len < cap)
            len += (size_t)snprintf(out + len, cap - len, "%s%s:", len ? "; " : "", ex[e].name);
        for (uint32_t i = 0; i < n && len < cap; i++) {
            char v[64];
            switch (st[i].format) {
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
                snprintf(v, sizeof v, "%s", st[i].value.b32 ? "true" : "false");
                break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
                snprintf(v, sizeof v, "%lld", (long long)st[i].value.i64);
                break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
                snprintf(v, sizeof v, "%llu", (unsigned long long)st[i].value.u64);
                break;
            default:
                snprintf(v, sizeof v, "%g", st[i].value.f64);
                break;
            }
            len += (size_t)snprintf(out + len, cap - len, "%s%s=%s", len ? "; " : "", st[i].name, v);
        }
    }
    if (!len) {
        free(out);
        return NULL;
    }
    return out;
}

wl_rt_status wl_rt_pipeline_create(wl_rt *rt, const wl_rt_pipeline_desc *d, wl_rt_pipeline **out)
{
    if (!rt)
        return WL_RT_ERR_USAGE;
    if (!d || !out)
        return wl_rt_fail(rt, WL_RT_ERR_USAGE, "wl_rt_pipeline_create: NULL argument");
    *out = NULL;
    if (rt->broken != VK_SUCCESS)
        return wl_rt_fail_vk(rt, "context unusable after an earlier failure", rt->broken);
    const char *entry = d->entry ? d->entry : "main";
    wl_rt_spirv_info info;
    char msg[512];
    wl_rt_status st = wl_rt_spirv_check(d->words, d->nwords, entry, &info, msg, sizeof msg);
    if (st != WL_RT_OK)
        return wl_rt_fail(rt, st, "wl_rt_pipeline_create: %s", msg);
    struct wl_rt_pipeline *p = calloc(1, sizeof *p);
    if (!p)
        return wl_rt_fail(rt, WL_RT_ERR_NOMEM, "wl_rt_pipeline_create: out of host memory");
    for (int k = 0; k < 3; k++)
        p->local_size[k] = info.local_size[k];
    st = subgroup_setup(rt, d, &info, p);
    if (st != WL_RT_OK) {
        free(p);
        return st;
    }

    VkShaderModuleCreateInfo mi = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = d->nwords * 4,
        .pCode = d->words,
    };
    VkShaderModule module;
    VkResult r = vkCreateShaderModule(rt->device, &mi, NULL, &module);
    if (r != VK_SUCCESS) {
        free(p);
        return wl_rt_fail_vk(rt, "vkCreateShaderModule", r);
    }
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo req = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
        .requiredSubgroupSize = p->subgroup_size,
    };
    VkComputePipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .pNext = p->subgroup_size ? &req : NULL,
            .flags = p->full_subgroups ? VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT : 0,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = module,
            .pName = entry,
        },
        .layout = rt->pipeline_layout,
        .basePipelineIndex = -1,
    };
    if (d->statistics && rt->pexec)
        ci.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    uint64_t t0 = wl_rt_now_ns();
    r = vkCreateComputePipelines(rt->device, VK_NULL_HANDLE, 1, &ci, NULL, &p->pipeline);
    p->create_ns = wl_rt_now_ns() - t0;
    vkDestroyShaderModule(rt->device, module, NULL);
    if (r != VK_SUCCESS) {
        free(p);
        return wl_rt_fail_vk(rt, "vkCreateComputePipelines", r);
    }
    if (d->statistics && rt->pexec)
        p->statistics = read_statistics(rt, p->pipeline);
    p->next = rt->pipelines;
    rt->pipelines = p;
    st = wl_rt_check_validation(rt);
    if (st != WL_RT_OK) {
        wl_rt_pipeline_destroy(rt, p);
        return st;
    }
    *out = p;
    return WL_RT_OK;
}

void wl_rt_pipeline_destroy(wl_rt *rt, wl_rt_pipeline *p)
{
    if (!rt || !p)
        return;
    wl_rt_settle(rt);
    for (struct wl_rt_pipeline **q = &rt->pipelines; *q; q = &(*q)->next)
        if (*q == p) {
            *q = p->next;
            vkDestroyPipeline(rt->device, p->pipeline, NULL);
            free(p->statistics);
            free(p);
            return;
        }
}

void wl_rt_free_all_pipelines(wl_rt *rt)
{
    while (rt->pipelines) {
        struct wl_rt_pipeline *p = rt->pipelines;
        rt->pipelines = p->next;
        vkDestroyPipeline(rt->device, p->pipeline, NULL);
        free(p->statistics);
        free(p);
    }
}

uint64_t wl_rt_pipeline_create_ns(const wl_rt_pipeline *p)
{
    return p ? p->create_ns : 0;
}

uint32_t wl_rt_pipeline_subgroup_size(const wl_rt_pipeline *p)
{
    return p ? p->subgroup_size : 0;
}

int wl_rt_pipeline_full_subgroups(const wl_rt_pipeline *p)
{
    return p ? p->full_subgroups : 0;
}

const char *wl_rt_pipeline_statistics(const wl_rt_pipeline *p)
{
    return p ? p->statistics : NULL;
}

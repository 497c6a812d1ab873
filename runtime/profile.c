/* The host profile: what the chosen device offers, read from its properties
 * and features (Vulkan 1.1/1.2/1.3 structures and
 * VK_KHR_workgroup_memory_explicit_layout). */
#include "rt_internal.h"

#include <stdio.h>
#include <string.h>

static int has_extension(VkPhysicalDevice phys, const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateDeviceExtensionProperties(phys, NULL, &n, NULL) != VK_SUCCESS || n == 0)
        return 0;
    VkExtensionProperties ext[512];
    if (n > 512)
        n = 512;
    VkResult r = vkEnumerateDeviceExtensionProperties(phys, NULL, &n, ext);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE)
        return 0;
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(ext[i].extensionName, name) == 0)
            return 1;
    return 0;
}

int wl_rt_has_wmel(VkPhysicalDevice phys)
{
    return has_extension(phys, VK_KHR_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_EXTENSION_NAME);
}

int wl_rt_has_maxrec(VkPhysicalDevice phys)
{
    return has_extension(phys, WL_VK_MAXIMAL_RECONVERGENCE_NAME) &&
           has_extension(phys, VK_KHR_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_EXTENSION_NAME);
}

int wl_rt_has_pexec(VkPhysicalDevice phys)
{
    return has_extension(phys, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
}

void wl_rt_profile_features(wl_host_profile *p, int narrow, const VkPhysicalDeviceFeatures *f,
                            const VkPhysicalDeviceVulkan11Features *f11, const VkPhysicalDeviceVulkan12Features *f12,
                            const VkPhysicalDeviceVulkan13Features *f13,
                            const VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR *wmel)
{
#define SET(field, on) p->field = (narrow ? p->field != 0 : 1) && (on)
    SET(shader_int16, f && f->shaderInt16);
    SET(shader_int64, f && f->shaderInt64);
    SET(shader_float64, f && f->shaderFloat64);
    SET(storage_buffer_16bit_access, f11 && f11->storageBuffer16BitAccess);
    SET(storage_push_constant_16, f11 && f11->storagePushConstant16);
    SET(storage_buffer_8bit_access, f12 && f12->storageBuffer8BitAccess);
    SET(storage_push_constant_8, f12 && f12->storagePushConstant8);
    SET(shader_buffer_int64_atomics, f12 && f12->shaderBufferInt64Atomics);
    SET(shader_shared_int64_atomics, f12 && f12->shaderSharedInt64Atomics);
    SET(shader_int8, f12 && f12->shaderInt8);
    SET(shader_float16, f12 && f12->shaderFloat16);
    SET(buffer_device_address, f12 && f12->bufferDeviceAddress);
    SET(vulkan_memory_model, f12 && f12->vulkanMemoryModel);
    SET(vulkan_memory_model_device_scope, f12 && f12->vulkanMemoryModelDeviceScope);
    SET(subgroup_extended_types, f12 && f12->shaderSubgroupExtendedTypes);
    SET(subgroup_size_control, f13 && f13->subgroupSizeControl);
    SET(compute_full_subgroups, f13 && f13->computeFullSubgroups);
    SET(workgroup_memory_explicit_layout, wmel && wmel->workgroupMemoryExplicitLayout);
    SET(workgroup_memory_explicit_layout_8bit, wmel && wmel->workgroupMemoryExplicitLayout8BitAccess);
    SET(workgroup_memory_explicit_layout_16bit, wmel && wmel->workgroupMemoryExplicitLayout16BitAccess);
    SET(workgroup_memory_explicit_layout_scalar, wmel && wmel->workgroupMemoryExplicitLayoutScalarBlockLayout);
#undef SET
}

void wl_rt_read_profile(VkPhysicalDevice phys, uint32_t index, wl_host_profile *p)
{
    memset(p, 0, sizeof *p);
    p->device_index = index;

    VkPhysicalDeviceVulkan13Properties p13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES };
    VkPhysicalDeviceVulkan12Properties p12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES, .pNext = &p13 };
    VkPhysicalDeviceVulkan11Properties p11 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES, .pNext = &p12 };
    VkPhysicalDeviceProperties2 props = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &p11 };
    vkGetPhysicalDeviceProperties2(phys, &props);
    const VkPhysicalDeviceLimits *lim = &props.properties.limits;

    snprintf(p->device_name, sizeof p->device_name, "%s", props.properties.deviceName);
    snprintf(p->driver_name, sizeof p->driver_name, "%s", p12.driverName);
    snprintf(p->driver_info, sizeof p->driver_info, "%s", p12.driverInfo);
    p->vendor_id = props.properties.vendorID;
    p->device_id = props.properties.deviceID;
    p->driver_id = (uint32_t)p12.driverID;
    /* gallivm's loop limit (docs/wave-model.md, "lavapipe's loop limit") */
    p->loop_iteration_limit = p12.driverID == VK_DRIVER_ID_MESA_LLVMPIPE ? WL_LAVAPIPE_LOOP_LIMIT : 0;
    p->api_version = props.properties.apiVersion;
    p->driver_version = props.properties.driverVersion;
    p->device_type = (int)props.properties.deviceType;
    p->is_cpu = props.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;

    p->subgroup_size = p11.subgroupSize;
    p->subgroup_supported_ops = p11.subgroupSupportedOperations;
    p->min_subgroup_size = p13.minSubgroupSize ? p13.minSubgroupSize : p11.subgroupSize;
    p->max_subgroup_size = p13.maxSubgroupSize ? p13.maxSubgroupSize : p11.subgroupSize;
    p->max_compute_workgroup_subgroups = p13.maxComputeWorkgroupSubgroups;

    p->max_compute_shared_memory_size = lim->maxComputeSharedMemorySize;
    for (int i = 0; i < 3; i++) {
        p->max_compute_workgroup_size[i] = lim->maxComputeWorkGroupSize[i];
        p->max_compute_workgroup_count[i] = lim->maxComputeWorkGroupCount[i];
    }
    p->max_compute_workgroup_invocations = lim->maxComputeWorkGroupInvocations;
    p->max_push_constants_size = lim->maxPushConstantsSize;
    p->max_storage_buffer_range = lim->maxStorageBufferRange;
    p->min_storage_buffer_offset_alignment = lim->minStorageBufferOffsetAlignment;
    p->timestamp_period_ns = lim->timestampPeriod;

    VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR wmel = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR };
    int has_wmel = wl_rt_has_wmel(phys);
    VkPhysicalDeviceVulkan13Features f13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .pNext = has_wmel ? &wmel : NULL };
    VkPhysicalDeviceVulkan12Features f12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = &f13 };
    VkPhysicalDeviceVulkan11Features f11 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &f12 };
    VkPhysicalDeviceFeatures2 feats = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f11 };
    vkGetPhysicalDeviceFeatures2(phys, &feats);

    wl_rt_profile_features(p, 0, &feats.features, &f11, &f12, &f13, has_wmel ? &wmel : NULL);
    p->subgroup_size_control = p->subgroup_size_control &&
        (p13.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;

    VkPhysicalDeviceMemoryProperties mem;
    vkGetPhysicalDeviceMemoryProperties(phys, &mem);
    for (uint32_t i = 0; i < mem.memoryHeapCount; i++)
        if ((mem.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) &&
            mem.memoryHeaps[i].size > p->device_local_bytes)
            p->device_local_bytes = mem.memoryHeaps[i].size;
}

const wl_host_profile *wl_rt_profile(const wl_rt *rt)
{
    return &rt->profile;
}

void wl_host_profile_print(const wl_host_profile *p, void *file)
{
    FILE *f = file ? (FILE *)file : stdout;
    static const char *const types[] = { "other", "integrated", "discrete", "virtual", "cpu" };
    fprintf(f, "device: %s (index %u, %s, vendor 0x%04x, device 0x%04x)\n", p->device_name,
            p->device_index, (unsigned)p->device_type < 5 ? types[p->device_type] : "?",
            p->vendor_id, p->device_id);
    fprintf(f, "driver: %s (%s), id %u\n", p->driver_name, p->driver_info, p->driver_id);
    fprintf(f, "vulkan: %u.%u.%u\n", VK_API_VERSION_MAJOR(p->api_version),
            VK_API_VERSION_MINOR(p->api_version), VK_API_VERSION_PATCH(p->api_version));
    fprintf(f, "subgroup_size: %u\n", p->subgroup_size);
    fprintf(f, "subgroup_size_control: %d (min %u, max %u)\n", p->subgroup_size_control,
            p->min_subgroup_size, p->max_subgroup_size);
    fprintf(f, "compute_full_subgroups: %d\n", p->compute_full_subgroups);
    fprintf(f, "max_compute_workgroup_subgroups: %u\n", p->max_compute_workgroup_subgroups);
    fprintf(f, "subgroup_supported_ops: 0x%x\n", p->subgroup_supported_ops);
    fprintf(f, "subgroup_extended_types: %d\n", p->subgroup_extended_types);
    fprintf(f, "max_compute_shared_memory_size: %u\n", p->max_compute_shared_memory_size);
    fprintf(f, "max_compute_workgroup_size: %u %u %u\n", p->max_compute_workgroup_size[0],
            p->max_compute_workgroup_size[1], p->max_compute_workgroup_size[2]);
    fprintf(f, "max_compute_workgroup_invocations: %u\n", p->max_compute_workgroup_invocations);
    fprintf(f, "max_compute_workgroup_count: %u %u %u\n", p->max_compute_workgroup_count[0],
            p->max_compute_workgroup_count[1], p->max_compute_workgroup_count[2]);
    fprintf(f, "max_push_constants_size: %u\n", p->max_push_constants_size);
    fprintf(f, "max_storage_buffer_range: %u\n", p->max_storage_buffer_range);
    fprintf(f, "shader_buffer_int64_atomics: %d\n", p->shader_buffer_int64_atomics);
    fprintf(f, "shader_shared_int64_atomics: %d\n", p->shader_shared_int64_atomics);
    fprintf(f, "storage_buffer_8bit_access: %d\n", p->storage_buffer_8bit_access);
    fprintf(f, "storage_buffer_16bit_access: %d\n", p->storage_buffer_16bit_access);
    fprintf(f, "shader_int8/int16/int64: %d %d %d\n", p->shader_int8, p->shader_int16,
            p->shader_int64);
    fprintf(f, "shader_float16/float64: %d %d\n", p->shader_float16, p->shader_float64);
    fprintf(f, "buffer_device_address: %d\n", p->buffer_device_address);
    fprintf(f, "vulkan_memory_model: %d (device scope %d)\n", p->vulkan_memory_model,
            p->vulkan_memory_model_device_scope);
    fprintf(f, "workgroup_memory_explicit_layout: %d (8bit %d, 16bit %d, scalar %d)\n",
            p->workgroup_memory_explicit_layout, p->workgroup_memory_explicit_layout_8bit,
            p->workgroup_memory_explicit_layout_16bit,
            p->workgroup_memory_explicit_layout_scalar);
    if (p->fma_probed)
        fprintf(f, "fma_fused: f32 %d, f64 %d, f32 for normal results %d (probed)\n", p->fma_fused_f32,
                p->fma_fused_f64, p->fma_normal_f32);
    fprintf(f, "timestamps: %d (period %.3f ns)\n", p->timestamps, p->timestamp_period_ns);
    fprintf(f, "device_local_bytes: %llu (host visible: %d)\n",
            (unsigned long long)p->device_local_bytes, p->host_visible_device_local);
}

void wl_rt_host_of(const wl_host_profile *p, wl_host *h)
{
    memset(h, 0, sizeof *h);
    h->struct_size = sizeof *h;
    h->subgroup_size = p->subgroup_size;
    h->min_subgroup_size = p->subgroup_size_control ? p->min_subgroup_size : p->subgroup_size;
    h->max_subgroup_size = p->subgroup_size_control ? p->max_subgroup_size : p->subgroup_size;
    h->full_subgroups = p->compute_full_subgroups;
    h->storage_8bit_16bit = p->storage_buffer_8bit_access && p->storage_buffer_16bit_access;
    h->buffer_int64_atomics = p->shader_buffer_int64_atomics;
    h->shared_int64_atomics = p->shader_shared_int64_atomics;
    h->shared_memory_bytes = p->max_compute_shared_memory_size;
    h->loop_iteration_limit = p->loop_iteration_limit;
    h->maximal_reconvergence = p->maximal_reconvergence;
    h->fused_fma = (p->fma_fused_f32 ? WL_FMA_F32 : 0) | (p->fma_fused_f64 ? WL_FMA_F64 : 0) |
                   (p->fma_ftz_f32 ? WL_FMA_F32_FTZ : 0) | (p->fma_normal_f32 ? WL_FMA_F32_NORMAL : 0);
}

/* The context: Vulkan instance, the device choice, the logical device with
 * its compute queue, and the objects every dispatch shares. */
#include "rt_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#include <dlfcn.h>
/* Sanitizer builds only: keep lavapipe mapped after the loader unloads it,
 * so that LeakSanitizer names its frames (tests/lsan.supp suppresses
 * lavapipe's own leaks by name; frames of an unloaded library are unnamed
 * and cannot be suppressed). A no-op for other drivers and other builds. */
static void keep_driver_mapped(void)
{
    dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
}
#else
static void keep_driver_mapped(void) {}
#endif

#define MAX_DEVICES 64
#define VALIDATION_LAYER "VK_LAYER_KHRONOS_validation"

static VKAPI_ATTR VkBool32 VKAPI_CALL debug_cb(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                               VkDebugUtilsMessageTypeFlagsEXT types,
                                               const VkDebugUtilsMessengerCallbackDataEXT *data,
                                               void *user)
{
    (void)types;
    wl_rt *rt = user;
    if ((severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) && !rt->validation_error) {
        rt->validation_error = 1;
        snprintf(rt->err, sizeof rt->err, "VK_ERROR_VALIDATION_FAILED_EXT: %s",
                 data && data->pMessage ? data->pMessage : "(no message)");
    }
    return VK_FALSE;
}

static int instance_has_layer(const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS || n == 0)
        return 0;
    VkLayerProperties *l = calloc(n, sizeof *l);
    if (!l)
        return 0;
    int found = 0;
    VkResult r = vkEnumerateInstanceLayerProperties(&n, l);
    if (r == VK_SUCCESS || r == VK_INCOMPLETE)
        for (uint32_t i = 0; i < n && !found; i++)
            found = strcmp(l[i].layerName, name) == 0;
    free(l);
    return found;
}

static wl_rt_status create_instance(wl_rt *rt, int want_validation)
{
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "wavelift",
        .pEngineName = "wavelift",
        .apiVersion = VK_API_VERSION_1_3,
    };
    const char *layers[1] = { VALIDATION_LAYER };
    const char *exts[1] = { VK_EXT_DEBUG_UTILS_EXTENSION_NAME };
    rt->validation = want_validation && instance_has_layer(VALIDATION_LAYER);
    VkInstanceCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pApplicationInfo = &app,
        .enabledLayerCount = rt->validation ? 1 : 0,
        .ppEnabledLayerNames = layers,
        .enabledExtensionCount = rt->validation ? 1 : 0,
        .ppEnabledExtensionNames = exts,
    };
    VkResult r = vkCreateInstance(&ci, NULL, &rt->instance);
    keep_driver_mapped();
    if (r != VK_SUCCESS) {
        rt->instance = VK_NULL_HANDLE;
        return wl_rt_fail_vk(rt, "vkCreateInstance", r);
    }
    if (rt->validation) {
        PFN_vkCreateDebugUtilsMessengerEXT create = (PFN_vkCreateDebugUtilsMessengerEXT)
            vkGetInstanceProcAddr(rt->instance, "vkCreateDebugUtilsMessengerEXT");
        VkDebugUtilsMessengerCreateInfoEXT mi = {
            .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
            .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
            .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
            .pfnUserCallback = debug_cb,
            .pUserData = rt,
        };
        if (!create)
            return wl_rt_fail(rt, WL_RT_ERR_VULKAN, "vkCreateDebugUtilsMessengerEXT: not found");
        r = create(rt->instance, &mi, NULL, &rt->messenger);
        if (r != VK_SUCCESS)
            return wl_rt_fail_vk(rt, "vkCreateDebugUtilsMessengerEXT", r);
    }
    return WL_RT_OK;
}

/* The queue family: compute with timestamps, else any compute. UINT32_MAX:
 * none. */
static uint32_t compute_family(VkPhysicalDevice phys, uint32_t *valid_bits)
{
    VkQueueFamilyProperties fam[32];
    uint32_t n = 32;
    vkGetPhysicalDeviceQueueFamilyProperties(phys, &n, fam);
    uint32_t best = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        if (!(fam[i].queueFlags & VK_QUEUE_COMPUTE_BIT) || fam[i].queueCount == 0)
            continue;
        if (best == UINT32_MAX || (fam[best].timestampValidBits == 0 && fam[i].timestampValidBits))
            best = i;
    }
    *valid_bits = best == UINT32_MAX ? 0 : fam[best].timestampValidBits;
    return best;
}

static int icase_contains(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *h = hay; *h; h++) {
        size_t i = 0;
        while (i < n && h[i] && tolower((unsigned char)h[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return 1;
    }
    return n == 0;
}

static int is_gpu(VkPhysicalDeviceType t)
{
    return t == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU || t == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ||
           t == VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU;
}

static wl_rt_status choose_device(wl_rt *rt, const char *choice, uint32_t *index)
{
    VkPhysicalDevice devs[MAX_DEVICES];
    uint32_t n = MAX_DEVICES;
    VkResult r = vkEnumeratePhysicalDevices(rt->instance, &n, devs);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE)
        return wl_rt_fail_vk(rt, "vkEnumeratePhysicalDevices", r);
    if (n == 0)
        return wl_rt_fail(rt, WL_RT_ERR_NO_DEVICE, "no Vulkan device (check VK_ICD_FILENAMES / VK_DRIVER_FILES)");
    VkPhysicalDeviceProperties props[MAX_DEVICES];
    for (uint32_t i = 0; i < n; i++)
        vkGetPhysicalDeviceProperties(devs[i], &props[i]);

    uint32_t pick = UINT32_MAX;
    if (choice && *choice) {
        char *end = NULL;
        unsigned long v = strtoul(choice, &end, 10);
        if (isdigit((unsigned char)choice[0]) && end && *end == '\0') {
            if (v >= n)
                return wl_rt_fail(rt, WL_RT_ERR_NO_DEVICE, "device index %lu: there are %u devices", v, n);
            pick = (uint32_t)v;
        } else {
            for (uint32_t i = 0; i < n && pick == UINT32_MAX; i++)
                if (icase_contains(props[i].deviceName, choice))
                    pick = i;
            if (pick == UINT32_MAX) {
                int len = snprintf(rt->err, sizeof rt->err, "no device named like \"%s\"; devices:", choice);
                for (uint32_t i = 0; i < n && len > 0 && (size_t)len < sizeof rt->err; i++)
                    len += snprintf(rt->err + len, sizeof rt->err - (size_t)len, " [%u] %s", i, props[i].deviceName);
                return WL_RT_ERR_NO_DEVICE;
            }
        }
        if (props[pick].apiVersion < VK_API_VERSION_1_3)
            return wl_rt_fail(rt, WL_RT_ERR_UNSUPPORTED, "device %s supports Vulkan %u.%u; wavelift needs 1.3",
                              props[pick].deviceName, VK_API_VERSION_MAJOR(props[pick].apiVersion),
                              VK_API_VERSION_MINOR(props[pick].apiVersion));
    } else {
        uint32_t vb;
        for (int want_gpu = 1; want_gpu >= 0 && pick == UINT32_MAX; want_gpu--)
            for (uint32_t i = 0; i < n && pick == UINT32_MAX; i++)
                if (is_gpu(props[i].deviceType) == want_gpu && props[i].apiVersion >= VK_API_VERSION_1_3 &&
                    compute_family(devs[i], &vb) != UINT32_MAX)
                    pick = i;
        if (pick == UINT32_MAX)
            return wl_rt_fail(rt, WL_RT_ERR_NO_DEVICE, "no device with Vulkan 1.3 and a compute queue among %u", n);
    }
    rt->phys = devs[pick];
    *index = pick;
    return WL_RT_OK;
}

/* Enables what the profile reads, where supported; never robustness (it
 * costs speed and the translated code does its own range checks). */
static wl_rt_status create_device(wl_rt *rt)
{
    VkPhysicalDevice phys = rt->phys;
    int has_wmel = wl_rt_has_wmel(phys), has_pexec = wl_rt_has_pexec(phys), has_maxrec = wl_rt_has_maxrec(phys);
    /* the driver's statistics of a pipeline (wl_rt_pipeline_statistics) */
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR spexec = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR };
    VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR swmel = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR,
        .pNext = has_pexec ? &spexec : NULL };
    VkPhysicalDeviceVulkan13Features s13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .pNext = has_wmel ? (void *)&swmel : has_pexec ? (void *)&spexec : NULL };
    VkPhysicalDeviceVulkan12Features s12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = &s13 };
    VkPhysicalDeviceVulkan11Features s11 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &s12 };
    VkPhysicalDeviceFeatures2 sf = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &s11 };
    vkGetPhysicalDeviceFeatures2(phys, &sf);
    /* maximal reconvergence: after a branch that lanes took apart, the
     * subgroup operations that follow see every invocation again (Vulkan
     * promises it only with this feature and the module's
     * MaximallyReconvergesKHR) */
    wl_vk_maxrec_features smaxrec = {.sType = WL_VK_STYPE_MAXIMAL_RECONVERGENCE_FEATURES};
    if (has_maxrec) {
        VkPhysicalDeviceFeatures2 qf = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &smaxrec};
        vkGetPhysicalDeviceFeatures2(phys, &qf);
        has_maxrec = smaxrec.shaderMaximalReconvergence == VK_TRUE;
    }

    has_pexec = has_pexec && spexec.pipelineExecutableInfo;
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR epexec = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR,
        .pipelineExecutableInfo = VK_TRUE };
    VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR ewmel = swmel;
    ewmel.pNext = NULL;
    VkPhysicalDeviceVulkan13Features e13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, .pNext = has_wmel ? &ewmel : NULL,
        .subgroupSizeControl = s13.subgroupSizeControl,
        .computeFullSubgroups = s13.computeFullSubgroups,
        .synchronization2 = s13.synchronization2,
        .maintenance4 = s13.maintenance4,
        .shaderDemoteToHelperInvocation = s13.shaderDemoteToHelperInvocation,
        .shaderTerminateInvocation = s13.shaderTerminateInvocation,
        .shaderIntegerDotProduct = s13.shaderIntegerDotProduct,
        .shaderZeroInitializeWorkgroupMemory = s13.shaderZeroInitializeWorkgroupMemory,
    };
    VkPhysicalDeviceVulkan12Features e12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = &e13,
        .storageBuffer8BitAccess = s12.storageBuffer8BitAccess,
        .uniformAndStorageBuffer8BitAccess = s12.uniformAndStorageBuffer8BitAccess,
        .storagePushConstant8 = s12.storagePushConstant8,
        .shaderBufferInt64Atomics = s12.shaderBufferInt64Atomics,
        .shaderSharedInt64Atomics = s12.shaderSharedInt64Atomics,
        .shaderFloat16 = s12.shaderFloat16,
        .shaderInt8 = s12.shaderInt8,
        .scalarBlockLayout = s12.scalarBlockLayout,
        .uniformBufferStandardLayout = s12.uniformBufferStandardLayout,
        .shaderSubgroupExtendedTypes = s12.shaderSubgroupExtendedTypes,
        .hostQueryReset = s12.hostQueryReset,
        .timelineSemaphore = s12.timelineSemaphore,
        .bufferDeviceAddress = s12.bufferDeviceAddress,
        .vulkanMemoryModel = s12.vulkanMemoryModel,
        .vulkanMemoryModelDeviceScope = s12.vulkanMemoryModelDeviceScope,
        .subgroupBroadcastDynamicId = s12.subgroupBroadcastDynamicId,
    };
    VkPhysicalDeviceVulkan11Features e11 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &e12,
        .storageBuffer16BitAccess = s11.storageBuffer16BitAccess,
        .uniformAndStorageBuffer16BitAccess = s11.uniformAndStorageBuffer16BitAccess,
        .storagePushConstant16 = s11.storagePushConstant16,
        .variablePointersStorageBuffer = s11.variablePointersStorageBuffer,
        .variablePointers = s11.variablePointers,
    };
    VkPhysicalDeviceFeatures2 ef = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &e11 };
    ef.features.shaderInt16 = sf.features.shaderInt16;
    ef.features.shaderInt64 = sf.features.shaderInt64;
    ef.features.shaderFloat64 = sf.features.shaderFloat64;
    ef.features.pipelineStatisticsQuery = sf.features.pipelineStatisticsQuery;

    if (!s12.bufferDeviceAddress)
        return wl_rt_fail(rt, WL_RT_ERR_UNSUPPORTED, "device %s has no bufferDeviceAddress",
                          rt->profile.device_name);

    float prio = 1.0f;
    VkDeviceQueueCreateInfo qi = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = rt->queue_family,
        .queueCount = 1,
        .pQueuePriorities = &prio,
    };
    const char *exts[4];
    uint32_t next = 0;
    wl_vk_maxrec_features emaxrec = {.sType = WL_VK_STYPE_MAXIMAL_RECONVERGENCE_FEATURES,
                                     .shaderMaximalReconvergence = VK_TRUE};
    if (has_maxrec) {
        exts[next++] = VK_KHR_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_EXTENSION_NAME;
        exts[next++] = WL_VK_MAXIMAL_RECONVERGENCE_NAME;
        emaxrec.pNext = ef.pNext;
        ef.pNext = &emaxrec;
    }
    if (has_wmel)
        exts[next++] = VK_KHR_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_EXTENSION_NAME;
    if (has_pexec) {
        exts[next++] = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
        epexec.pNext = ef.pNext;
        ef.pNext = &epexec;
    }
    VkDeviceCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &ef,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &qi,
        .enabledExtensionCount = next,
        .ppEnabledExtensionNames = exts,
    };
    VkResult r = vkCreateDevice(phys, &ci, NULL, &rt->device);
    if (r != VK_SUCCESS) {
        rt->device = VK_NULL_HANDLE;
        return wl_rt_fail_vk(rt, "vkCreateDevice", r);
    }
    vkGetDeviceQueue(rt->device, rt->queue_family, 0, &rt->queue);
    rt->pexec = has_pexec;
    rt->profile.maximal_reconvergence = has_maxrec;
    return WL_RT_OK;
}

static wl_rt_status create_shared_objects(wl_rt *rt)
{
    VkResult r;
    VkCommandPoolCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
        .queueFamilyIndex = rt->queue_family,
    };
    if ((r = vkCreateCommandPool(rt->device, &pi, NULL, &rt->cmd_pool)) != VK_SUCCESS)
        return wl_rt_fail_vk(rt, "vkCreateCommandPool", r);
    VkCommandBufferAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = rt->cmd_pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    if ((r = vkAllocateCommandBuffers(rt->device, &ai, &rt->cmd)) != VK_SUCCESS)
        return wl_rt_fail_vk(rt, "vkAllocateCommandBuffers", r);
    VkFenceCreateInfo fi = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    if ((r = vkCreateFence(rt->device, &fi, NULL, &rt->fence)) != VK_SUCCESS)
        return wl_rt_fail_vk(rt, "vkCreateFence", r);
    if (rt->timestamp_valid_bits) {
        VkQueryPoolCreateInfo qi = {
            .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
            .queryType = VK_QUERY_TYPE_TIMESTAMP,
            .queryCount = 2 * WL_RT_MAX_TIMED_RUNS,
        };
        if ((r = vkCreateQueryPool(rt->device, &qi, NULL, &rt->query_pool)) != VK_SUCCESS)
            return wl_rt_fail_vk(rt, "vkCreateQueryPool", r);
    }
    wl_rt_status st = wl_rt_create_layouts(rt);
    if (st != WL_RT_OK)
        return st;
    st = wl_rt_buffer_create(rt, 256, &rt->dummy);
    if (st != WL_RT_OK)
        return st;
    return wl_rt_buffer_create(rt, WL_RT_SINK_BYTES, &rt->sink);
}

/* The end of wl_rt_create and wl_rt_create_on_device: on failure the
 * message and everything made freed, else the context handed out. */
static wl_rt_status finish_create(wl_rt *rt, wl_rt_status st, wl_rt **out, char *err, size_t errcap)
{
    if (st != WL_RT_OK) {
        wl_rt_format_err(err, errcap, "%s", rt->err);
        wl_rt_destroy(rt);
        return st;
    }
    rt->profile.host_visible_device_local = rt->dummy->mapped != NULL;
    *out = rt;
    return WL_RT_OK;
}

wl_rt_status wl_rt_create(const wl_rt_options *opt, wl_rt **out, char *err, size_t errcap)
{
    if (!out) {
        wl_rt_format_err(err, errcap, "wl_rt_create: out is NULL");
        return WL_RT_ERR_USAGE;
    }
    *out = NULL;
    wl_rt_options defaults = { 0 };
    if (!opt)
        opt = &defaults;
    wl_rt *rt = calloc(1, sizeof *rt);
    if (!rt) {
        wl_rt_format_err(err, errcap, "wl_rt_create: out of host memory");
        return WL_RT_ERR_NOMEM;
    }
    rt->timeout_ns = (uint64_t)(opt->timeout_ms ? opt->timeout_ms : 60000) * 1000000u;
    rt->force_staging = opt->force_staging != 0;
    const char *choice = opt->device ? opt->device : getenv("WAVELIFT_DEVICE");
    uint32_t index = 0;
    wl_rt_status st = create_instance(rt, opt->validation);
    if (st == WL_RT_OK)
        st = choose_device(rt, choice, &index);
    if (st == WL_RT_OK) {
        wl_rt_read_profile(rt->phys, index, &rt->profile);
        rt->queue_family = compute_family(rt->phys, &rt->timestamp_valid_bits);
        if (rt->queue_family == UINT32_MAX)
            st = wl_rt_fail(rt, WL_RT_ERR_NO_DEVICE, "device %s has no compute queue", rt->profile.device_name);
    }
    if (st == WL_RT_OK) {
        rt->profile.timestamps = rt->timestamp_valid_bits != 0;
        vkGetPhysicalDeviceMemoryProperties(rt->phys, &rt->memory);
        st = create_device(rt);
    }
    if (st == WL_RT_OK)
        st = create_shared_objects(rt);
    if (st == WL_RT_OK)
        st = wl_rt_check_validation(rt);
    return finish_create(rt, st, out, err, errcap);
}

/* ---- the caller's device (wl_rt_create_on_device) ------------------------- */

static int ext_listed(const wl_rt_device_desc *d, const char *name)
{
    for (uint32_t i = 0; i < d->enabled_extension_count; i++)
        if (d->enabled_extensions && d->enabled_extensions[i] && !strcmp(d->enabled_extensions[i], name))
            return 1;
    return 0;
}

/* The profile (what the physical device supports) narrowed to what the
 * caller's feature chain enabled. */
static void narrow_profile(wl_host_profile *p, const wl_rt_device_desc *d)
{
    const VkPhysicalDeviceFeatures *f = NULL;
    const VkPhysicalDeviceVulkan11Features *f11 = NULL;
    const VkPhysicalDeviceVulkan12Features *f12 = NULL;
    const VkPhysicalDeviceVulkan13Features *f13 = NULL;
    const VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR *wmel = NULL;
    const wl_vk_maxrec_features *maxrec = NULL;
    for (const VkBaseInStructure *s = d->enabled_features; s; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2)
            f = &((const VkPhysicalDeviceFeatures2 *)s)->features;
        else if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES)
            f11 = (const void *)s;
        else if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES)
            f12 = (const void *)s;
        else if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES)
            f13 = (const void *)s;
        else if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR)
            wmel = (const void *)s;
        else if (s->sType == WL_VK_STYPE_MAXIMAL_RECONVERGENCE_FEATURES)
            maxrec = (const void *)s;
    }
    if (!ext_listed(d, VK_KHR_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_EXTENSION_NAME))
        wmel = NULL;
    wl_rt_profile_features(p, 1, f, f11, f12, f13, wmel); /* profile.c: the same list as the device's */
    p->maximal_reconvergence = maxrec && maxrec->shaderMaximalReconvergence &&
                               ext_listed(d, WL_VK_MAXIMAL_RECONVERGENCE_NAME) &&
                               wl_rt_has_maxrec((VkPhysicalDevice)d->physical_device);
}

wl_rt_status wl_rt_create_on_device(const wl_rt_device_desc *d, wl_rt **out, char *err, size_t errcap)
{
    if (!out) {
        wl_rt_format_err(err, errcap, "wl_rt_create_on_device: out is NULL");
        return WL_RT_ERR_USAGE;
    }
    *out = NULL;
    if (!d || d->struct_size < sizeof *d || !d->instance || !d->physical_device || !d->device ||
        !d->enabled_features || (d->enabled_extension_count && !d->enabled_extensions)) {
        wl_rt_format_err(err, errcap, "wl_rt_create_on_device: %s",
                         !d ? "desc is NULL"
                         : d->struct_size < sizeof *d ? "desc->struct_size is not sizeof(wl_rt_device_desc)"
                         : !d->enabled_features ? "enabled_features (the device's feature chain) is NULL"
                         : d->enabled_extension_count && !d->enabled_extensions ? "enabled_extensions is NULL"
                                                                               : "a Vulkan handle is NULL");
        return WL_RT_ERR_USAGE;
    }
    wl_rt *rt = calloc(1, sizeof *rt);
    if (!rt) {
        wl_rt_format_err(err, errcap, "wl_rt_create_on_device: out of host memory");
        return WL_RT_ERR_NOMEM;
    }
    rt->borrowed = 1;
    rt->instance = (VkInstance)d->instance;
    rt->phys = (VkPhysicalDevice)d->physical_device;
    rt->device = (VkDevice)d->device;
    rt->timeout_ns = (uint64_t)(d->timeout_ms ? d->timeout_ms : 60000) * 1000000u;
    rt->force_staging = d->force_staging != 0;
    /* the device's index, for the profile (the caller chose it) */
    uint32_t index = UINT32_MAX, n = 0;
    VkPhysicalDevice devs[16];
    n = 16;
    if (vkEnumeratePhysicalDevices(rt->instance, &n, devs) >= VK_SUCCESS)
        for (uint32_t i = 0; i < n; i++)
            if (devs[i] == rt->phys)
                index = i;
    wl_rt_read_profile(rt->phys, index, &rt->profile);
    wl_rt_status st = WL_RT_OK;
    VkQueueFamilyProperties fam[32];
    uint32_t nf = 32;
    vkGetPhysicalDeviceQueueFamilyProperties(rt->phys, &nf, fam);
    if (rt->profile.api_version < VK_API_VERSION_1_3)
        st = wl_rt_fail(rt, WL_RT_ERR_UNSUPPORTED, "device %s is below Vulkan 1.3", rt->profile.device_name);
    else if (d->queue_family >= nf || !(fam[d->queue_family].queueFlags & VK_QUEUE_COMPUTE_BIT) ||
             d->queue_index >= fam[d->queue_family].queueCount)
        st = wl_rt_fail(rt, WL_RT_ERR_USAGE, "queue %u of family %u: no such compute queue on %s", d->queue_index,
                        d->queue_family, rt->profile.device_name);
    if (st == WL_RT_OK) {
        narrow_profile(&rt->profile, d);
        if (!rt->profile.buffer_device_address)
            st = wl_rt_fail(rt, WL_RT_ERR_UNSUPPORTED, "the device was made without bufferDeviceAddress");
    }
    if (st == WL_RT_OK) {
        rt->queue_family = d->queue_family;
        rt->timestamp_valid_bits = fam[d->queue_family].timestampValidBits;
        rt->profile.timestamps = rt->timestamp_valid_bits != 0;
        vkGetPhysicalDeviceMemoryProperties(rt->phys, &rt->memory);
        vkGetDeviceQueue(rt->device, d->queue_family, d->queue_index, &rt->queue);
        st = create_shared_objects(rt);
    }
    return finish_create(rt, st, out, err, errcap);
}

int wl_rt_validation_enabled(const wl_rt *rt)
{
    return rt ? rt->validation : 0;
}

void wl_rt_destroy(wl_rt *rt)
{
    if (!rt)
        return;
    if (rt->device) {
        /* Nothing to report to at this point; the wait only orders the
         * frees after any work still running. */
        if (rt->borrowed && rt->queue)
            (void)vkQueueWaitIdle(rt->queue); /* the owner's other queues go on */
        else if (!rt->borrowed)
            (void)vkDeviceWaitIdle(rt->device);
        wl_rt_free_all_pipelines(rt);
        wl_rt_free_all_buffers(rt);
        if (rt->query_pool)
            vkDestroyQueryPool(rt->device, rt->query_pool, NULL);
        if (rt->descriptor_pool)
            vkDestroyDescriptorPool(rt->device, rt->descriptor_pool, NULL);
        if (rt->pipeline_layout)
            vkDestroyPipelineLayout(rt->device, rt->pipeline_layout, NULL);
        if (rt->set_layout)
            vkDestroyDescriptorSetLayout(rt->device, rt->set_layout, NULL);
        if (rt->fence)
            vkDestroyFence(rt->device, rt->fence, NULL);
        if (rt->cmd_pool)
            vkDestroyCommandPool(rt->device, rt->cmd_pool, NULL);
        if (!rt->borrowed)
            vkDestroyDevice(rt->device, NULL);
    }
    if (rt->messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT destroy = (PFN_vkDestroyDebugUtilsMessengerEXT)
            vkGetInstanceProcAddr(rt->instance, "vkDestroyDebugUtilsMessengerEXT");
        if (destroy)
            destroy(rt->instance, rt->messenger, NULL);
    }
    if (rt->instance && !rt->borrowed)
        vkDestroyInstance(rt->instance, NULL);
    free(rt);
}

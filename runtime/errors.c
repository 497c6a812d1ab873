/* Error names and the context's error message. */
#include "rt_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

const char *wl_rt_status_name(wl_rt_status s)
{
    static const char *const names[] = {
        [WL_RT_OK] = "WL_RT_OK",
        [WL_RT_ERR_VULKAN] = "WL_RT_ERR_VULKAN",
        [WL_RT_ERR_NO_DEVICE] = "WL_RT_ERR_NO_DEVICE",
        [WL_RT_ERR_UNSUPPORTED] = "WL_RT_ERR_UNSUPPORTED",
        [WL_RT_ERR_USAGE] = "WL_RT_ERR_USAGE",
        [WL_RT_ERR_NOMEM] = "WL_RT_ERR_NOMEM",
        [WL_RT_ERR_IO] = "WL_RT_ERR_IO",
        [WL_RT_ERR_FORMAT] = "WL_RT_ERR_FORMAT",
        [WL_RT_ERR_ESCAPE] = "WL_RT_ERR_ESCAPE",
    };
    if ((unsigned)s < sizeof names / sizeof names[0] && names[s])
        return names[s];
    return "WL_RT_ERR_?";
}

/* Every VkResult of Vulkan 1.3 and the extensions the runtime can meet. */
static const struct {
    int code;
    const char *name;
} vk_results[] = {
#define R(x) { x, #x }
    R(VK_SUCCESS),
    R(VK_NOT_READY),
    R(VK_TIMEOUT),
    R(VK_EVENT_SET),
    R(VK_EVENT_RESET),
    R(VK_INCOMPLETE),
    R(VK_ERROR_OUT_OF_HOST_MEMORY),
    R(VK_ERROR_OUT_OF_DEVICE_MEMORY),
    R(VK_ERROR_INITIALIZATION_FAILED),
    R(VK_ERROR_DEVICE_LOST),
    R(VK_ERROR_MEMORY_MAP_FAILED),
    R(VK_ERROR_LAYER_NOT_PRESENT),
    R(VK_ERROR_EXTENSION_NOT_PRESENT),
    R(VK_ERROR_FEATURE_NOT_PRESENT),
    R(VK_ERROR_INCOMPATIBLE_DRIVER),
    R(VK_ERROR_TOO_MANY_OBJECTS),
    R(VK_ERROR_FORMAT_NOT_SUPPORTED),
    R(VK_ERROR_FRAGMENTED_POOL),
    R(VK_ERROR_UNKNOWN),
    R(VK_ERROR_OUT_OF_POOL_MEMORY),
    R(VK_ERROR_INVALID_EXTERNAL_HANDLE),
    R(VK_ERROR_FRAGMENTATION),
    R(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS),
    R(VK_PIPELINE_COMPILE_REQUIRED),
    R(VK_ERROR_SURFACE_LOST_KHR),
    R(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR),
    R(VK_SUBOPTIMAL_KHR),
    R(VK_ERROR_OUT_OF_DATE_KHR),
    R(VK_ERROR_INCOMPATIBLE_DISPLAY_KHR),
    R(VK_ERROR_VALIDATION_FAILED_EXT),
    R(VK_ERROR_INVALID_SHADER_NV),
    R(VK_ERROR_INVALID_DRM_FORMAT_MODIFIER_PLANE_LAYOUT_EXT),
    R(VK_ERROR_NOT_PERMITTED_KHR),
    R(VK_ERROR_FULL_SCREEN_EXCLUSIVE_MODE_LOST_EXT),
    R(VK_THREAD_IDLE_KHR),
    R(VK_THREAD_DONE_KHR),
    R(VK_OPERATION_DEFERRED_KHR),
    R(VK_OPERATION_NOT_DEFERRED_KHR),
    R(VK_ERROR_COMPRESSION_EXHAUSTED_EXT),
#undef R
};

const char *wl_rt_vk_result_name(int r)
{
    for (size_t i = 0; i < sizeof vk_results / sizeof vk_results[0]; i++)
        if (vk_results[i].code == r)
            return vk_results[i].name;
    /* Unknown codes: a fixed string per sign, so the pointer stays valid. */
    return r < 0 ? "VK_ERROR_(unknown)" : "VK_(unknown)";
}

wl_rt_status wl_rt_fail(wl_rt *rt, wl_rt_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rt->err, sizeof rt->err, fmt, ap);
    va_end(ap);
    return st;
}

wl_rt_status wl_rt_fail_vk(wl_rt *rt, const char *what, VkResult r)
{
    rt->last_vk = (int)r;
    const char *name = wl_rt_vk_result_name((int)r);
    if (strstr(name, "(unknown)"))
        return wl_rt_fail(rt, WL_RT_ERR_VULKAN, "%s: %s (%d)", what, name, (int)r);
    return wl_rt_fail(rt, WL_RT_ERR_VULKAN, "%s: %s", what, name);
}

wl_rt_status wl_rt_check_validation(wl_rt *rt)
{
    if (!rt->validation_error)
        return WL_RT_OK;
    rt->validation_error = 0;
    rt->last_vk = VK_ERROR_VALIDATION_FAILED_EXT;
    return WL_RT_ERR_VULKAN;
}

uint64_t wl_rt_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

const char *wl_rt_error(const wl_rt *rt)
{
    return rt ? rt->err : "";
}

int wl_rt_vk_result(const wl_rt *rt)
{
    return rt ? rt->last_vk : 0;
}

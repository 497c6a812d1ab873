/* Internal interface of the runtime: the context, buffers, pipelines and the
 * helpers the runtime's files share. Not installed. */
#ifndef WL_RT_INTERNAL_H
#define WL_RT_INTERNAL_H

#include "wavelift/runtime.h"

#include <vulkan/vulkan.h>

struct wl_rt_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize size;
    VkDeviceAddress address;
    void *mapped;              /* non-NULL: host visible and coherent, mapped */
    VkDeviceSize base;         /* a view: its bytes start here in buffer (wl_rt_buffer_view) */
    struct wl_rt_buffer *parent; /* a view: the buffer it lies in (owns nothing itself) */
    int borrowed;              /* wl_rt_buffer_wrap: the VkBuffer and its memory are the caller's */
    struct wl_rt_buffer *next; /* the context's list of live buffers */
};

struct wl_rt_pipeline {
    VkPipeline pipeline;
    uint64_t create_ns;
    uint32_t subgroup_size;
    int full_subgroups;
    uint32_t local_size[3];
    char *statistics; /* the driver's, "name=value; ..." (desc.statistics), or NULL */
    struct wl_rt_pipeline *next;
};

struct wl_rt {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice phys;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    uint32_t timestamp_valid_bits;
    VkCommandPool cmd_pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout pipeline_layout;
    VkDescriptorPool descriptor_pool;
    VkDescriptorSet set;
    VkQueryPool query_pool;
    VkPhysicalDeviceMemoryProperties memory;
    uint64_t timeout_ns;
    int validation;
    int force_staging;
    int validation_error;      /* a layer reported an error since the last check */
    wl_host_profile profile;
    struct wl_rt_buffer *buffers;
    struct wl_rt_pipeline *pipelines;
    struct wl_rt_buffer *dummy; /* bound where a dispatch names no buffer */
    struct wl_rt_buffer *sink;  /* WL_RT_PUSH_SINK_OFFSET: zero half, store half */
    struct wl_rt_buffer *state; /* a dispatch's state block where the module reads it from a buffer */
    int last_vk;
    /* A submission timed out or the device was lost: every later call
     * fails with this result (the pending work cannot be reused safely). */
    VkResult broken;
    int settled;               /* wl_rt_settle waited for that work once */
    int pexec;                 /* VK_KHR_pipeline_executable_properties enabled */
    int borrowed;              /* wl_rt_create_on_device: the instance and device are the caller's */
    char err[1024];
};

/* Records a message in the context and returns st. */
wl_rt_status wl_rt_fail(wl_rt *rt, wl_rt_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Records "<what>: VK_ERROR_..." and returns WL_RT_ERR_VULKAN. */
wl_rt_status wl_rt_fail_vk(wl_rt *rt, const char *what, VkResult r);
/* WL_RT_ERR_VULKAN when the validation layer reported an error since the
 * last call (its message is already in rt->err), else WL_RT_OK. */
wl_rt_status wl_rt_check_validation(wl_rt *rt);
#include "guest/guest_internal.h" /* wl_rt_format_err */

uint64_t wl_rt_now_ns(void);

/* profile.c: the profile's feature flags from a feature chain's structures
 * (NULL: all off); narrow: each kept only where already set (what the
 * caller enabled, of what the device supports: wl_rt_create_on_device). */
void wl_rt_profile_features(wl_host_profile *p, int narrow, const VkPhysicalDeviceFeatures *f,
                            const VkPhysicalDeviceVulkan11Features *f11, const VkPhysicalDeviceVulkan12Features *f12,
                            const VkPhysicalDeviceVulkan13Features *f13,
                            const VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR *wmel);
/* profile.c: fills rt->profile from rt->phys (properties, features). */
void wl_rt_read_profile(VkPhysicalDevice phys, uint32_t index, wl_host_profile *p);
/* The device offers VK_KHR_workgroup_memory_explicit_layout. */
int wl_rt_has_wmel(VkPhysicalDevice phys);
/* VK_KHR_shader_maximal_reconvergence (newer than Debian 12's headers: its
 * name, structure type and features structure are spelled here) and the
 * extension it needs, VK_KHR_shader_subgroup_uniform_control_flow */
#define WL_VK_MAXIMAL_RECONVERGENCE_NAME "VK_KHR_shader_maximal_reconvergence"
#define WL_VK_STYPE_MAXIMAL_RECONVERGENCE_FEATURES ((VkStructureType)1000434000)
typedef struct wl_vk_maxrec_features {
    VkStructureType sType;
    void *pNext;
    VkBool32 shaderMaximalReconvergence;
} wl_vk_maxrec_features;
int wl_rt_has_maxrec(VkPhysicalDevice phys);
/* the device offers VK_KHR_pipeline_executable_properties (profile.c) */
int wl_rt_has_pexec(VkPhysicalDevice phys);

/* memory.c */
/* Begins the context's one-shot command buffer (reset first). */
wl_rt_status wl_rt_cmd_begin(wl_rt *rt, VkCommandBuffer *cmd);
/* Ends, submits and waits for it; *host_ns (may be NULL) gets the host time
 * from submit to the fence. */
wl_rt_status wl_rt_cmd_submit_wait(wl_rt *rt, uint64_t *host_ns);
void wl_rt_free_all_buffers(wl_rt *rt);
/* After a timed-out submission the device may still be running it: waits
 * (once) until it is idle, so that freeing a buffer or pipeline the work
 * still uses cannot corrupt memory. A no-op on a healthy context. */
void wl_rt_settle(wl_rt *rt);

/* pipeline.c */
wl_rt_status wl_rt_create_layouts(wl_rt *rt);
void wl_rt_free_all_pipelines(wl_rt *rt);

#endif

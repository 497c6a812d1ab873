/* Buffers with 64-bit device addresses (guest memory and the module's own
 * buffers), upload/download, and the one-shot command buffer every
 * transfer and dispatch goes through.
 *
 * Memory choice: device-local memory that is also host visible, coherent and
 * cheap to read from the host (cached, or a CPU/integrated device: lavapipe)
 * is mapped once and copied with memcpy; otherwise (a discrete GPU) the
 * buffer is device-local only and transfers go through a temporary staging
 * buffer in chunks of STAGING_CHUNK bytes. */
#include "rt_internal.h"

#include <stdlib.h>
#include <string.h>

#define STAGING_CHUNK (64u << 20)

static const VkBufferUsageFlags BUFFER_USAGE =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
    VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

static wl_rt_status usable(wl_rt *rt)
{
    if (rt->broken != VK_SUCCESS)
        return wl_rt_fail_vk(rt, "context unusable after an earlier failure", rt->broken);
    return WL_RT_OK;
}

wl_rt_status wl_rt_cmd_begin(wl_rt *rt, VkCommandBuffer *cmd)
{
    wl_rt_status st = usable(rt);
    if (st != WL_RT_OK)
        return st;
    VkResult r = vkResetCommandBuffer(rt->cmd, 0);
    if (r != VK_SUCCESS)
        return wl_rt_fail_vk(rt, "vkResetCommandBuffer", r);
    VkCommandBufferBeginInfo bi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    if ((r = vkBeginCommandBuffer(rt->cmd, &bi)) != VK_SUCCESS)
        return wl_rt_fail_vk(rt, "vkBeginCommandBuffer", r);
    *cmd = rt->cmd;
    return WL_RT_OK;
}

wl_rt_status wl_rt_cmd_submit_wait(wl_rt *rt, uint64_t *host_ns)
{
    VkResult r = vkEndCommandBuffer(rt->cmd);
    if (r != VK_SUCCESS)
        return wl_rt_fail_vk(rt, "vkEndCommandBuffer", r);
    if ((r = vkResetFences(rt->device, 1, &rt->fence)) != VK_SUCCESS)
        return wl_rt_fail_vk(rt, "vkResetFences", r);
    VkSubmitInfo si = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .commandBufferCount = 1,
        .pCommandBuffers = &rt->cmd,
    };
    uint64_t t0 = wl_rt_now_ns();
    if ((r = vkQueueSubmit(rt->queue, 1, &si, rt->fence)) != VK_SUCCESS) {
        if (r == VK_ERROR_DEVICE_LOST)
            rt->broken = r;
        return wl_rt_fail_vk(rt, "vkQueueSubmit", r);
    }
    r = vkWaitForFences(rt->device, 1, &rt->fence, VK_TRUE, rt->timeout_ns);
    if (host_ns)
        *host_ns = wl_rt_now_ns() - t0;
    if (r != VK_SUCCESS) {
        rt->broken = r;
        return wl_rt_fail_vk(rt, "vkWaitForFences", r);
    }
    return wl_rt_check_validation(rt);
}

/* A memory type among `bits` with all of `need`; UINT32_MAX if none. */
static uint32_t find_type(const wl_rt *rt, uint32_t bits, VkMemoryPropertyFlags need)
{
    for (uint32_t i = 0; i < rt->memory.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (rt->memory.memoryTypes[i].propertyFlags & need) == need)
            return i;
    return UINT32_MAX;
}

/* Creates buffer + memory. host_only: a staging buffer (host visible,
 * coherent; cached preferred), no device address. */
static wl_rt_status make_buffer(wl_rt *rt, VkDeviceSize size, int host_only, struct wl_rt_buffer *b)
{
    VkBufferCreateInfo bi = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = host_only ? VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT : BUFFER_USAGE,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    VkResult r = vkCreateBuffer(rt->device, &bi, NULL, &b->buffer);
    if (r != VK_SUCCESS) {
        b->buffer = VK_NULL_HANDLE;
        return wl_rt_fail_vk(rt, "vkCreateBuffer", r);
    }
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(rt->device, b->buffer, &req);

    const VkMemoryPropertyFlags hv = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    const VkMemoryPropertyFlags dl = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    uint32_t cand[3];
    int ncand = 0;
    if (host_only) {
        cand[ncand++] = find_type(rt, req.memoryTypeBits, hv | VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
        cand[ncand++] = find_type(rt, req.memoryTypeBits, hv);
    } else {
        int cheap_reads = rt->profile.is_cpu || rt->profile.device_type == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
        cand[ncand++] = find_type(rt, req.memoryTypeBits,
                                  dl | hv | (cheap_reads ? 0 : VK_MEMORY_PROPERTY_HOST_CACHED_BIT));
        cand[ncand++] = find_type(rt, req.memoryTypeBits, dl);
        cand[ncand++] = find_type(rt, req.memoryTypeBits, hv);
    }
    VkMemoryAllocateFlagsInfo fi = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
        .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
    };
    r = VK_ERROR_OUT_OF_DEVICE_MEMORY;
    uint32_t type = UINT32_MAX;
    for (int i = 0; i < ncand && r != VK_SUCCESS; i++) {
        if (cand[i] == UINT32_MAX)
            continue;
        type = cand[i];
        VkMemoryAllocateInfo ai = {
            .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
            .pNext = host_only ? NULL : &fi,
            .allocationSize = req.size,
            .memoryTypeIndex = type,
        };
        r = vkAllocateMemory(rt->device, &ai, NULL, &b->memory);
        if (r != VK_SUCCESS && r != VK_ERROR_OUT_OF_DEVICE_MEMORY)
            break; /* only a full heap is worth another type */
    }
    if (r != VK_SUCCESS) {
        b->memory = VK_NULL_HANDLE;
        if (type == UINT32_MAX)
            return wl_rt_fail(rt, WL_RT_ERR_UNSUPPORTED, "no memory type for a %s buffer",
                              host_only ? "staging" : "storage");
        return wl_rt_fail_vk(rt, "vkAllocateMemory", r);
    }
    if ((r = vkBindBufferMemory(rt->device, b->buffer, b->memory, 0)) != VK_SUCCESS)
        return wl_rt_fail_vk(rt, "vkBindBufferMemory", r);
    if ((rt->memory.memoryTypes[type].propertyFlags & hv) == hv && (host_only || !rt->force_staging)) {
        if ((r = vkMapMemory(rt->device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->mapped)) != VK_SUCCESS) {
            b->mapped = NULL;
            return wl_rt_fail_vk(rt, "vkMapMemory", r);
        }
    }
    b->size = size;
    if (!host_only) {
        VkBufferDeviceAddressInfo ai = { .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = b->buffer };
        b->address = vkGetBufferDeviceAddress(rt->device, &ai);
        if (b->address == 0)
            return wl_rt_fail(rt, WL_RT_ERR_VULKAN, "vkGetBufferDeviceAddress: returned 0");
    }
    return WL_RT_OK;
}

static void free_buffer(wl_rt *rt, struct wl_rt_buffer *b)
{
    if (b->parent || b->borrowed) { /* a view, or the caller's buffer: owns nothing */
        free(b);
        return;
    }
    if (b->mapped)
        vkUnmapMemory(rt->device, b->memory);
    if (b->buffer)
        vkDestroyBuffer(rt->device, b->buffer, NULL);
    if (b->memory)
        vkFreeMemory(rt->device, b->memory, NULL);
    free(b);
}

wl_rt_status wl_rt_buffer_create(wl_rt *rt, uint64_t size, wl_rt_buffer **out)
{
    if (!rt || !out)
        return rt ? wl_rt_fail(rt, WL_RT_ERR_USAGE, "wl_rt_buffer_create: out is NULL") : WL_RT_ERR_USAGE;
    *out = NULL;
    wl_rt_status st = usable(rt);
    if (st != WL_RT_OK)
        return st;
    if (size == 0)
        return wl_rt_fail(rt, WL_RT_ERR_USAGE, "wl_rt_buffer_create: size 0");
    struct wl_rt_buffer *b = calloc(1, sizeof *b);
    if (!b)
        return wl_rt_fail(rt, WL_RT_ERR_NOMEM, "wl_rt_buffer_create: out of host memory");
    st = make_buffer(rt, (size + 3) & ~(uint64_t)3, 0, b);
    if (st != WL_RT_OK) {
        free_buffer(rt, b);
        return st;
    }
    b->size = size;
    b->next = rt->buffers;
    rt->buffers = b;
    /* Contents start as zeros (vkAllocateMemory promises nothing). */
    st = wl_rt_buffer_fill(rt, b, 0, UINT64_MAX, 0);
    if (st != WL_RT_OK) {
        wl_rt_buffer_destroy(rt, b);
        return st;
    }
    *out = b;
    return WL_RT_OK;
}

void wl_rt_settle(wl_rt *rt)
{
    if (rt->broken == VK_SUCCESS || rt->settled)
        return;
    rt->settled = 1;
    /* a lost device answers at once; a timed-out one finishes its work */
    (void)vkDeviceWaitIdle(rt->device);
}

void wl_rt_buffer_destroy(wl_rt *rt, wl_rt_buffer *buf)
{
    if (!rt || !buf)
        return;
    wl_rt_settle(rt);
    /* its views go with it */
    for (struct wl_rt_buffer **p = &rt->buffers; *p;) {
        if ((*p)->parent == buf) {
            struct wl_rt_buffer *v = *p;
            *p = v->next;
            free_buffer(rt, v);
        } else {
            p = &(*p)->next;
        }
    }
    for (struct wl_rt_buffer **p = &rt->buffers; *p; p = &(*p)->next)
        if (*p == buf) {
            *p = buf->next;
            free_buffer(rt, buf);
            return;
        }
}

void wl_rt_free_all_buffers(wl_rt *rt)
{
    while (rt->buffers) {
        struct wl_rt_buffer *b = rt->buffers;
        rt->buffers = b->next;
        free_buffer(rt, b);
    }
    rt->dummy = NULL;
    rt->sink = NULL;
    rt->state = NULL;
}

wl_rt_status wl_rt_buffer_wrap(wl_rt *rt, void *vk_buffer, uint64_t size, void *mapped, wl_rt_buffer **out)
{
    if (!rt || !out)
        return rt ? wl_rt_fail(rt, WL_RT_ERR_USAGE, "wl_rt_buffer_wrap: out is NULL") : WL_RT_ERR_USAGE;
    *out = NULL;
    wl_rt_status st = usable(rt);
    if (st != WL_RT_OK)
        return st;
    if (!vk_buffer || size == 0)
        return wl_rt_fail(rt, WL_RT_ERR_USAGE, "wl_rt_buffer_wrap: %s", size ? "the buffer is NULL" : "size 0");
    struct wl_rt_buffer *b = calloc(1, sizeof *b);
    if (!b)
        return wl_rt_fail(rt, WL_RT_ERR_NOMEM, "wl_rt_buffer_wrap: out of host memory");
    b->borrowed = 1;
    b->buffer = (VkBuffer)vk_buffer;
    b->size = size;
    b->mapped = mapped;
    VkBufferDeviceAddressInfo ai = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = b->buffer};
    b->address = vkGetBufferDeviceAddress(rt->device, &ai);
    if (!b->address) {
        free(b);
        return wl_rt_fail(rt, WL_RT_ERR_USAGE,
                          "wl_rt_buffer_wrap: the buffer has no device address (made without "
                          "VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT?)");
    }
    b->next = rt->buffers;
    rt->buffers = b;
    *out = b;
    return WL_RT_OK;
}

wl_rt_status wl_rt_buffer_view(wl_rt *rt, wl_rt_buffer *parent, uint64_t offset, uint64_t size,
                               wl_rt_buffer **out)
{
    if (!rt || !out)
        return rt ? wl_rt_fail(rt, WL_RT_ERR_USAGE, "wl_rt_buffer_view: out is NULL") : WL_RT_ERR_USAGE;
    *out = NULL;
    if (!parent || parent->parent)
        return wl_rt_fail(rt, WL_RT_ERR_USAGE, "wl_rt_buffer_view: no parent, or the parent is a view");
    if (size == 0 || (offset & 15) || offset > parent->size || size > parent->size - offset)
        return wl_rt_fail(rt, WL_RT_ERR_USAGE,
                          "wl_rt_buffer_view: bytes [%llu, +%llu) not a 16-aligned part of the buffer of %llu",
                          (unsigned long long)offset, (unsigned long long)size, (unsigned long long)parent->size);
    struct wl_rt_buffer *v = calloc(1, sizeof *v);
    if (!v)
        return wl_rt_fail(rt, WL_RT_ERR_NOMEM, "wl_rt_buffer_view: out of host memory");
    v->buffer = parent->buffer;
    v->size = size;
    v->address = parent->address + offset;
    v->mapped = parent->mapped ? (uint8_t *)parent->mapped + offset : NULL;
    v->base = offset;
    v->parent = parent;
    v->next = rt->buffers;
    rt->buffers = v;
    *out = v;
    return WL_RT_OK;
}

uint64_t wl_rt_buffer_address(const wl_rt_buffer *buf)
{
    return buf ? buf->address : 0;
}

uint64_t wl_rt_buffer_size(const wl_rt_buffer *buf)
{
    return buf ? buf->size : 0;
}

static wl_rt_status check_range(wl_rt *rt, const char *what, const wl_rt_buffer *buf, uint64_t offset,
                                uint64_t size, const void *data)
{
    if (!buf || (!data && size))
        return wl_rt_fail(rt, WL_RT_ERR_USAGE, "%s: NULL buffer or data", what);
    if (offset > buf->size || size > buf->size - offset)
        return wl_rt_fail(rt, WL_RT_ERR_USAGE, "%s: bytes [%llu, +%llu) outside the buffer of %llu", what,
                          (unsigned long long)offset, (unsigned long long)size,
                          (unsigned long long)buf->size);
    return usable(rt);
}

/* Copies between buf and host memory through a staging buffer. */
static wl_rt_status staged(wl_rt *rt, wl_rt_buffer *buf, uint64_t offset, void *host, uint64_t size, int up)
{
    struct wl_rt_buffer *s = calloc(1, sizeof *s);
    if (!s)
        return wl_rt_fail(rt, WL_RT_ERR_NOMEM, "staging: out of host memory");
    uint64_t chunk = size < STAGING_CHUNK ? size : STAGING_CHUNK;
    wl_rt_status st = make_buffer(rt, chunk, 1, s);
    for (uint64_t done = 0; st == WL_RT_OK && done < size; done += chunk) {
        uint64_t n = size - done < chunk ? size - done : chunk;
        if (up)
            memcpy(s->mapped, (const uint8_t *)host + done, n);
        VkCommandBuffer cmd;
        st = wl_rt_cmd_begin(rt, &cmd);
        if (st != WL_RT_OK)
            break;
        VkBufferCopy region = {
            .srcOffset = up ? 0 : buf->base + offset + done,
            .dstOffset = up ? buf->base + offset + done : 0,
            .size = n,
        };
        vkCmdCopyBuffer(cmd, up ? s->buffer : buf->buffer, up ? buf->buffer : s->buffer, 1, &region);
        VkMemoryBarrier mb = {
            .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
            .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
            .dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
        };
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0,
                             NULL, 0, NULL);
        st = wl_rt_cmd_submit_wait(rt, NULL);
        if (st == WL_RT_OK && !up)
            memcpy((uint8_t *)host + done, s->mapped, n);
    }
    free_buffer(rt, s);
    return st;
}

wl_rt_status wl_rt_buffer_upload(wl_rt *rt, wl_rt_buffer *buf, uint64_t offset, const void *data, uint64_t size)
{
    if (!rt)
        return WL_RT_ERR_USAGE;
    wl_rt_status st = check_range(rt, "wl_rt_buffer_upload", buf, offset, size, data);
    if (st != WL_RT_OK || size == 0)
        return st;
    if (buf->mapped) {
        memcpy((uint8_t *)buf->mapped + offset, data, size);
        return WL_RT_OK;
    }
    return staged(rt, buf, offset, (void *)data, size, 1);
}

wl_rt_status wl_rt_buffer_download(wl_rt *rt, wl_rt_buffer *buf, uint64_t offset, void *data, uint64_t size)
{
    if (!rt)
        return WL_RT_ERR_USAGE;
    wl_rt_status st = check_range(rt, "wl_rt_buffer_download", buf, offset, size, data);
    if (st != WL_RT_OK || size == 0)
        return st;
    if (buf->mapped) {
        memcpy(data, (const uint8_t *)buf->mapped + offset, size);
        return WL_RT_OK;
    }
    return staged(rt, buf, offset, data, size, 0);
}

wl_rt_status wl_rt_buffer_fill(wl_rt *rt, wl_rt_buffer *buf, uint64_t offset, uint64_t size, uint32_t value)
{
    if (!rt)
        return WL_RT_ERR_USAGE;
    if (!buf)
        return wl_rt_fail(rt, WL_RT_ERR_USAGE, "wl_rt_buffer_fill: NULL buffer");
    /* The allocation is the size rounded up to 4 bytes. */
    uint64_t cap = (buf->size + 3) & ~(uint64_t)3;
    if (size == UINT64_MAX)
        size = offset <= cap ? cap - offset : 0;
    if ((offset | size) & 3)
        return wl_rt_fail(rt, WL_RT_ERR_USAGE, "wl_rt_buffer_fill: offset and size must be multiples of 4");
    if (offset > cap || size > cap - offset)
        return wl_rt_fail(rt, WL_RT_ERR_USAGE, "wl_rt_buffer_fill: outside the buffer");
    wl_rt_status st = usable(rt);
    if (st != WL_RT_OK || size == 0)
        return st;
    if (buf->mapped) {
        uint32_t *w = (uint32_t *)((uint8_t *)buf->mapped + offset);
        for (uint64_t i = 0; i < size / 4; i++)
            w[i] = value;
        return WL_RT_OK;
    }
    VkCommandBuffer cmd;
    if ((st = wl_rt_cmd_begin(rt, &cmd)) != WL_RT_OK)
        return st;
    vkCmdFillBuffer(cmd, buf->buffer, buf->base + offset, size, value);
    VkMemoryBarrier mb = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT,
    };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, NULL,
                         0, NULL);
    return wl_rt_cmd_submit_wait(rt, NULL);
}

/* Dispatch: binds the convention's buffers and push constants, runs the
 * pipeline `runs` times, one submission each (so each run starts on an idle
 * queue and its timestamps measure it alone), and reads the timestamps.
 *
 * Each run's command buffer:
 *   barrier  (earlier compute/transfer/host writes -> this dispatch)
 *   bind pipeline, set 0, push constants (WL_RT_PUSH_CONSTANT_BYTES, zero padded;
 *   the sink's address at WL_RT_PUSH_SINK_OFFSET)
 *   timestamp TOP_OF_PIPE, dispatch, timestamp BOTTOM_OF_PIPE
 *   barrier  (compute writes -> host and transfer reads) */
#include "rt_internal.h"

#include <string.h>

static void sort_u64(uint64_t *v, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
            uint64_t t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

static wl_rt_status check_desc(wl_rt *rt, const wl_rt_pipeline *p, const wl_rt_dispatch_desc *d)
{
    if (!p || !d)
        return wl_rt_fail(rt, WL_RT_ERR_USAGE, "wl_rt_dispatch: NULL pipeline or description");
    if (d->push_constant_size % 4 || d->push_constant_size > WL_RT_PUSH_CONSTANT_BYTES ||
        (d->push_constant_size && !d->push_constants))
        return wl_rt_fail(rt, WL_RT_ERR_USAGE,
                          "wl_rt_dispatch: push constants of %u bytes (a multiple of 4, at most %d, with data)",
                          d->push_constant_size, WL_RT_PUSH_CONSTANT_BYTES);
    if (d->runs > WL_RT_MAX_TIMED_RUNS)
        return wl_rt_fail(rt, WL_RT_ERR_USAGE, "wl_rt_dispatch: %u runs, at most %d", d->runs,
                          WL_RT_MAX_TIMED_RUNS);
    for (int k = 0; k < 3; k++)
        if (d->groups[k] > rt->profile.max_compute_workgroup_count[k])
            return wl_rt_fail(rt, WL_RT_ERR_UNSUPPORTED, "wl_rt_dispatch: %u workgroups in %c, the device allows %u",
                              d->groups[k], "xyz"[k], rt->profile.max_compute_workgroup_count[k]);
    if (rt->broken != VK_SUCCESS)
        return wl_rt_fail_vk(rt, "context unusable after an earlier failure", rt->broken);
    return WL_RT_OK;
}

static void write_descriptors(wl_rt *rt, const wl_rt_dispatch_desc *d)
{
    const struct wl_rt_buffer *state = d->state_in_buffer ? rt->state : NULL;
    VkDescriptorBufferInfo bi[WL_RT_MAX_BINDINGS];
    VkWriteDescriptorSet w[WL_RT_MAX_BINDINGS];
    uint64_t range_max = rt->profile.max_storage_buffer_range & ~(uint64_t)3;
    for (uint32_t i = 0; i < WL_RT_MAX_BINDINGS; i++) {
        const struct wl_rt_buffer *b = d->bindings[i] ? d->bindings[i]
                                       : i == WL_BINDING_STATE && state ? state
                                                                        : rt->dummy;
        uint64_t alloc = (b->size + 3) & ~(uint64_t)3;
        bi[i] = (VkDescriptorBufferInfo){
            .buffer = b->buffer,
            .offset = b->base,
            .range = b->parent ? (alloc <= range_max ? alloc : range_max)
                               : (alloc <= range_max ? VK_WHOLE_SIZE : range_max),
        };
        w[i] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = rt->set,
            .dstBinding = i,
            .descriptorCount = 1,
            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .pBufferInfo = &bi[i],
        };
    }
    vkUpdateDescriptorSets(rt->device, WL_RT_MAX_BINDINGS, w, 0, NULL);
}

static void record_run(wl_rt *rt, VkCommandBuffer cmd, const wl_rt_pipeline *p, const wl_rt_dispatch_desc *d,
                       const uint8_t *push)
{
    VkMemoryBarrier before = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
    };
    vkCmdPipelineBarrier(cmd,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT |
                             VK_PIPELINE_STAGE_HOST_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &before, 0, NULL, 0, NULL);
    if (rt->query_pool)
        vkCmdResetQueryPool(cmd, rt->query_pool, 0, 2);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, rt->pipeline_layout, 0, 1, &rt->set, 0, NULL);
    vkCmdPushConstants(cmd, rt->pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, WL_RT_PUSH_CONSTANT_BYTES, push);
    if (rt->query_pool)
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, rt->query_pool, 0);
    vkCmdDispatch(cmd, d->groups[0] ? d->groups[0] : 1, d->groups[1] ? d->groups[1] : 1,
                  d->groups[2] ? d->groups[2] : 1);
    if (rt->query_pool)
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, rt->query_pool, 1);
    VkMemoryBarrier after = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT,
    };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &after, 0, NULL, 0,
                         NULL);
}

wl_rt_status wl_rt_dispatch(wl_rt *rt, wl_rt_pipeline *p, const wl_rt_dispatch_desc *d, wl_rt_timing *timing)
{
    if (!rt)
        return WL_RT_ERR_USAGE;
    if (timing)
        memset(timing, 0, sizeof *timing);
    wl_rt_status st = check_desc(rt, p, d);
    if (st != WL_RT_OK)
        return st;
    uint8_t push[WL_RT_PUSH_CONSTANT_BYTES] = { 0 };
    if (d->push_constant_size)
        memcpy(push, d->push_constants, d->push_constant_size);
    /* the runtime's sink (include/wavelift/runtime.h), whatever the caller
     * put there */
    uint64_t sink = wl_rt_buffer_address(rt->sink);
    memcpy(push + WL_RT_PUSH_SINK_OFFSET, &sink, sizeof sink);
    if (d->state_in_buffer) { /* the block in the runtime's state buffer */
        if (d->bindings[WL_BINDING_STATE])
            return wl_rt_fail(rt, WL_RT_ERR_USAGE, "wl_rt_dispatch: state_in_buffer with binding %d taken",
                              WL_BINDING_STATE);
        if (!rt->state && (st = wl_rt_buffer_create(rt, sizeof push, &rt->state)) != WL_RT_OK)
            return st;
        if ((st = wl_rt_buffer_upload(rt, rt->state, 0, push, sizeof push)) != WL_RT_OK)
            return st;
    }
    write_descriptors(rt, d);

    uint32_t runs = d->runs ? d->runs : 1;
    uint64_t ns[WL_RT_MAX_TIMED_RUNS];
    uint64_t host_total = 0;
    uint64_t mask = rt->timestamp_valid_bits >= 64 ? UINT64_MAX : ((uint64_t)1 << rt->timestamp_valid_bits) - 1;
    for (uint32_t i = 0; i < runs; i++) {
        VkCommandBuffer cmd;
        if ((st = wl_rt_cmd_begin(rt, &cmd)) != WL_RT_OK)
            return st;
        record_run(rt, cmd, p, d, push);
        uint64_t host_ns = 0;
        if ((st = wl_rt_cmd_submit_wait(rt, &host_ns)) != WL_RT_OK)
            return st;
        host_total += host_ns;
        if (rt->query_pool) {
            uint64_t ts[2];
            VkResult r = vkGetQueryPoolResults(rt->device, rt->query_pool, 0, 2, sizeof ts, ts, sizeof ts[0],
                                               VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
            if (r != VK_SUCCESS)
                return wl_rt_fail_vk(rt, "vkGetQueryPoolResults", r);
            ns[i] = (uint64_t)((double)((ts[1] - ts[0]) & mask) * rt->profile.timestamp_period_ns + 0.5);
        }
    }
    if (timing) {
        timing->host_ns = host_total;
        if (rt->query_pool) {
            timing->runs = runs;
            memcpy(timing->run_ns, ns, runs * sizeof ns[0]);
            sort_u64(ns, runs);
            timing->min_ns = ns[0];
            timing->max_ns = ns[runs - 1];
            timing->median_ns = runs % 2 ? ns[runs / 2] : (ns[runs / 2 - 1] + ns[runs / 2]) / 2;
        }
    }
    return WL_RT_OK;
}

/* An emulator's use of wavelift, in one file (docs/embedding.md walks
 * through it): its own Vulkan instance and device, a dispatch read from a
 * capture, translated through the API with the host's own descriptor
 * layout (remap_binding) and its own push constants (the translator's
 * per-dispatch state in a storage buffer: state_in_buffer), the pipeline
 * and descriptor set made from the reflection, guest memory in the host's
 * own buffer, the dispatch, the escape status, and one range's bytes
 * compared with an expected file. Needs libwavelift and libvulkan only.
 *
 *   embed CAPTURE_DIR RANGE EXPECTED_FILE
 *
 * EMBED_DEVICE=NAME picks the device by a part of its name, EMBED_MODEL=wave
 * the wave model (one invocation a wave, no subgroup requirement).
 *
 * Exit 0: the range equals the file; 1: it does not, or something failed
 * (the message says what); 3: the dispatch escaped (the kind is printed);
 * 77: the capture needs what this small host does not do (a page table). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan.h>

#include <wavelift.h>
#include <wavelift/abi.h>
#include <wavelift/capture.h>
#include <wavelift/guest.h>
#include <wavelift/host.h>
#include <wavelift/translate.h>

#define CHECK(call)                                                                                                    \
    do {                                                                                                               \
        VkResult r_ = (call);                                                                                          \
        if (r_ != VK_SUCCESS) {                                                                                        \
            fprintf(stderr, "embed: %s failed: %d\n", #call, (int)r_);                                                \
            exit(1);                                                                                                   \
        }                                                                                                              \
    } while (0)

/* The host's layout: its own push constants take bytes 0..15; wavelift's
 * buffers sit at set 0 from binding 10 (the host's own bindings would be
 * below). */
#define HOST_PUSH_BYTES 16
#define FIRST_BINDING 10

static int remap(void *user, const char *name, uint32_t *set, uint32_t *binding, char *why, size_t whycap)
{
    if (!strcmp(name, "pagetable")) { /* this host maps one window, no page table */
        snprintf(why, whycap, "this host maps guest memory as one window");
        *(int *)user = 1; /* the refusal was this host's choice (not an error to parse) */
        return 1;
    }
    *set = 0;
    *binding += FIRST_BINDING;
    return 0;
}

typedef struct host {
    VkInstance instance;
    VkPhysicalDevice phys;
    VkDevice device;
    VkQueue queue;
    uint32_t family;
    VkPhysicalDeviceMemoryProperties mem;
    VkPhysicalDeviceVulkan11Properties p11;
    VkPhysicalDeviceVulkan13Properties p13;
    VkPhysicalDeviceDriverProperties driver;
    VkPhysicalDeviceVulkan12Features f12;
    VkPhysicalDeviceVulkan11Features f11;
    VkPhysicalDeviceFeatures2 feats;
    VkPhysicalDeviceVulkan13Features f13;
    uint32_t max_shared;
} host;

typedef struct buffer {
    VkBuffer buf;
    VkDeviceMemory mem;
    void *map;
    VkDeviceAddress addr;
    VkDeviceSize size;
} buffer;

static void make_host(host *h)
{
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "embed",
                             .apiVersion = VK_API_VERSION_1_3};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
    CHECK(vkCreateInstance(&ici, NULL, &h->instance));
    VkPhysicalDevice devs[16];
    uint32_t n = 16;
    VkResult er = vkEnumeratePhysicalDevices(h->instance, &n, devs); /* VK_INCOMPLETE: the first 16 */
    if (er != VK_SUCCESS && er != VK_INCOMPLETE)
        n = 0;
    const char *want = getenv("EMBED_DEVICE"); /* a part of the device's name; else the first of Vulkan 1.3 */
    h->phys = VK_NULL_HANDLE;
    for (uint32_t i = 0; i < n && !h->phys; i++) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(devs[i], &p);
        if (p.apiVersion >= VK_API_VERSION_1_3 && (!want || strstr(p.deviceName, want)))
            h->phys = devs[i];
    }
    if (!h->phys) {
        fprintf(stderr, "embed: no Vulkan 1.3 device%s%s\n", want ? " named like " : "", want ? want : "");
        exit(1);
    }
    h->driver = (VkPhysicalDeviceDriverProperties){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    h->p13 = (VkPhysicalDeviceVulkan13Properties){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES,
                                                  .pNext = &h->driver};
    h->p11 = (VkPhysicalDeviceVulkan11Properties){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES,
                                                  .pNext = &h->p13};
    VkPhysicalDeviceProperties2 props = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &h->p11};
    vkGetPhysicalDeviceProperties2(h->phys, &props);
    h->max_shared = props.properties.limits.maxComputeSharedMemorySize;
    vkGetPhysicalDeviceMemoryProperties(h->phys, &h->mem);
    /* every feature the device has, as an emulator enabling what it may need */
    h->f13 = (VkPhysicalDeviceVulkan13Features){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    h->f12 = (VkPhysicalDeviceVulkan12Features){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                                .pNext = &h->f13};
    h->f11 = (VkPhysicalDeviceVulkan11Features){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
                                                .pNext = &h->f12};
    h->feats = (VkPhysicalDeviceFeatures2){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &h->f11};
    vkGetPhysicalDeviceFeatures2(h->phys, &h->feats);
    if (!h->f12.bufferDeviceAddress) {
        fprintf(stderr, "embed: the device has no bufferDeviceAddress\n");
        exit(1);
    }
    VkQueueFamilyProperties fam[32];
    uint32_t nf = 32;
    vkGetPhysicalDeviceQueueFamilyProperties(h->phys, &nf, fam);
    h->family = UINT32_MAX;
    for (uint32_t i = 0; i < nf && h->family == UINT32_MAX; i++)
        if (fam[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            h->family = i;
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = h->family,
                                  .queueCount = 1, .pQueuePriorities = &prio};
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &h->feats,
                              .queueCreateInfoCount = 1, .pQueueCreateInfos = &qi};
    CHECK(vkCreateDevice(h->phys, &dci, NULL, &h->device));
    vkGetDeviceQueue(h->device, h->family, 0, &h->queue);
}

/* The translate options from the host's own device: its description
 * (wavelift/host.h, what an emulator fills once per device from the
 * properties and the features it enabled), then the library's rule for
 * the model and the options (wl_translate_options_for_host). */
static wl_translate_options options_for(const host *h, const wl_lift_program *p, const wl_capture *c, int *refused,
                                        char *why, size_t whycap)
{
    int size_control = h->f13.subgroupSizeControl && (h->p13.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);
    wl_host d = {
        .struct_size = sizeof d,
        .subgroup_size = h->p11.subgroupSize,
        .min_subgroup_size = size_control ? h->p13.minSubgroupSize : h->p11.subgroupSize,
        .max_subgroup_size = size_control ? h->p13.maxSubgroupSize : h->p11.subgroupSize,
        .full_subgroups = h->f13.computeFullSubgroups,
        .storage_8bit_16bit = h->f12.storageBuffer8BitAccess && h->f11.storageBuffer16BitAccess,
        .buffer_int64_atomics = h->f12.shaderBufferInt64Atomics,
        .shared_int64_atomics = h->f12.shaderSharedInt64Atomics,
        .shared_memory_bytes = h->max_shared,
        .loop_iteration_limit = h->driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE ? 65535u : 0,
        /* no maximal reconvergence asked for, no Fma assumed exact (a probe
         * dispatch would find out: the runtime's wl_rt_probe_fma) */
    };
    wl_translate_options o;
    wl_translate_options_init(&o);
    o.model = WL_MODEL_AUTO;
    if (!d.full_subgroups || !size_control)
        o.model = WL_MODEL_WAVE; /* the lanes model needs the size required, subgroups full */
    const char *m = getenv("EMBED_MODEL"); /* wave: the wave model whatever the device */
    if (m && !strcmp(m, "wave"))
        o.model = WL_MODEL_WAVE;
    memcpy(o.local_size, c->local, sizeof o.local_size);
    o.opt_level = 2;
    o.validate = 1;
    if (wl_translate_options_for_host(&d, p->wave_size, &o, why, whycap) != WL_OK) {
        fprintf(stderr, "embed: wl_translate_options_for_host refused the host description\n");
        exit(1);
    }
    o.remap_binding = remap;  /* this host's layout */
    o.remap_user = refused;
    o.state_in_buffer = 1;    /* its push constants are its own */
    return o;
}

static void make_buffer(const host *h, VkDeviceSize size, buffer *b)
{
    memset(b, 0, sizeof *b);
    b->size = (size + 15) & ~(VkDeviceSize)15;
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = b->size,
                             .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT};
    CHECK(vkCreateBuffer(h->device, &bi, NULL, &b->buf));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(h->device, b->buf, &req);
    VkMemoryPropertyFlags need = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; i < h->mem.memoryTypeCount && type == UINT32_MAX; i++)
        if ((req.memoryTypeBits & (1u << i)) && (h->mem.memoryTypes[i].propertyFlags & need) == need)
            type = i;
    if (type == UINT32_MAX) {
        fprintf(stderr, "embed: no host-visible coherent memory for a buffer\n");
        exit(1);
    }
    VkMemoryAllocateFlagsInfo fl = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
                                    .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT};
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .pNext = &fl,
                               .allocationSize = req.size, .memoryTypeIndex = type};
    CHECK(vkAllocateMemory(h->device, &ai, NULL, &b->mem));
    CHECK(vkBindBufferMemory(h->device, b->buf, b->mem, 0));
    CHECK(vkMapMemory(h->device, b->mem, 0, VK_WHOLE_SIZE, 0, &b->map));
    memset(b->map, 0, b->size);
    VkBufferDeviceAddressInfo di = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = b->buf};
    b->addr = vkGetBufferDeviceAddress(h->device, &di);
}

static void free_buffer(const host *h, buffer *b)
{
    if (!b->buf)
        return;
    vkDestroyBuffer(h->device, b->buf, NULL);
    vkFreeMemory(h->device, b->mem, NULL);
}

static uint8_t *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *d = malloc(len > 0 ? (size_t)len : 1);
    if (d && len > 0 && fread(d, 1, (size_t)len, f) != (size_t)len) {
        free(d);
        d = NULL;
    }
    fclose(f);
    *n = len > 0 ? (size_t)len : 0;
    return d;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: embed CAPTURE_DIR RANGE EXPECTED_FILE\n");
        return 2;
    }
    char err[2048];

    /* 1. the dispatch, as the emulator saw it */
    wl_capture *c = NULL;
    if (wl_capture_read(argv[1], &c, err, sizeof err) != WL_OK) {
        fprintf(stderr, "embed: %s\n", err);
        return 1;
    }
    int out = -1;
    for (size_t i = 0; i < c->nranges; i++)
        if (!strcmp(c->ranges[i].name, argv[2]))
            out = (int)i;
    size_t nexp = 0;
    uint8_t *expected = read_file(argv[3], &nexp);
    if (out < 0 || !expected || nexp > c->ranges[out].size) {
        fprintf(stderr, "embed: no range %s in the capture, or %s is unreadable or longer than it\n", argv[2],
                argv[3]);
        return 1;
    }

    /* 2. the host's own device */
    host h;
    make_host(&h);

    /* 3. the translation, for this device, with this host's layout */
    wl_lift_program prog;
    if (wl_capture_lift_program(c, &prog, err, sizeof err) != WL_OK) {
        fprintf(stderr, "embed: %s\n", err);
        return 1;
    }
    char why[256];
    int refused = 0;
    wl_translate_options topt = options_for(&h, &prog, c, &refused, why, sizeof why);
    uint32_t *words = NULL;
    size_t nwords = 0;
    wl_translate_info info;
    wl_status st = wl_translate(&prog, &topt, &words, &nwords, &info, err, sizeof err);
    if (st != WL_OK) {
        fprintf(stderr, "embed: %s: %s\n", st == WL_ERR_UNSUPPORTED ? "refused" : "translation failed", err);
        return refused ? 77 : 1;
    }
    wl_reflection r = {.struct_size = sizeof r};
    if (wl_reflect(&info, &topt, &r) != WL_OK) {
        fprintf(stderr, "embed: wl_reflect failed\n");
        return 1;
    }
    printf("embed: %s, %s model (%s), %zu words; needs", wl_version(), r.model_name, why, nwords);
    for (uint32_t i = 0; i < r.nfeatures; i++)
        printf(" %s", r.features[i]);
    printf("\n");

    /* 4. guest memory: one window over every range, in the host's buffer */
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < c->nranges; i++) {
        uint64_t a = c->ranges[i].address & WL_CAPTURE_ADDRESS_MASK;
        lo = a < lo ? a : lo;
        hi = a + c->ranges[i].size > hi ? a + c->ranges[i].size : hi;
    }
    lo &= ~(uint64_t)15;
    if (hi - lo > (256u << 20)) {
        fprintf(stderr, "embed: the ranges span %llu bytes: this host maps one window of at most 256 MiB\n",
                (unsigned long long)(hi - lo));
        return 77;
    }
    buffer guest, status, state, sink, scratch = {0}, lds = {0};
    make_buffer(&h, hi - lo, &guest);
    for (size_t i = 0; i < c->nranges; i++)
        if (c->ranges[i].data)
            memcpy((uint8_t *)guest.map + ((c->ranges[i].address & WL_CAPTURE_ADDRESS_MASK) - lo),
                   c->ranges[i].data, c->ranges[i].size);
    make_buffer(&h, WL_STATUS_BYTES, &status);
    make_buffer(&h, WL_SINK_BYTES, &sink);

    /* 5. the translator's per-dispatch state (abi.h's block), in a buffer */
    uint8_t block[WL_PUSH_BYTES];
    memset(block, 0, sizeof block);
    memcpy(block, c->user_sgpr, 4 * c->user_sgpr_count);
    wl_rt_mapping window = {.guest_base = lo, .size = (hi - lo + 15) & ~(uint64_t)15, .host_base = guest.addr};
    uint32_t map[WL_RT_MAPPING_WORDS];
    if (wl_rt_mapping_encode(&window, map) != WL_RT_OK) {
        fprintf(stderr, "embed: the window 0x%llx + %llu cannot be mapped\n", (unsigned long long)lo,
                (unsigned long long)(hi - lo));
        return 1;
    }
    memcpy(block + WL_PUSH_MAP_OFFSET, map, sizeof map);
    memcpy(block + WL_PUSH_SINK_OFFSET, &sink.addr, 8);
    uint64_t groups = (uint64_t)c->groups[0] * c->groups[1] * c->groups[2];
    if (info.scratch_bytes_per_invocation) {
        uint64_t inv = (uint64_t)info.host_local_size[0] * info.host_local_size[1] * info.host_local_size[2] * groups;
        make_buffer(&h, inv * info.scratch_bytes_per_invocation, &scratch);
        uint32_t stride = info.scratch_bytes_per_invocation;
        memcpy(block + WL_PUSH_SCRATCH_BASE_OFFSET, &scratch.addr, 8);
        memcpy(block + WL_PUSH_SCRATCH_STRIDE_OFFSET, &stride, 4);
    }
    make_buffer(&h, sizeof block, &state);
    memcpy(state.map, block, sizeof block);

    /* 6. the descriptor set and pipeline, from the reflection */
    VkDescriptorSetLayoutBinding lb[8];
    VkDescriptorBufferInfo dbi[8];
    VkWriteDescriptorSet wr[8];
    for (uint32_t i = 0; i < r.nbindings; i++) {
        const char *n = r.bindings[i].name;
        buffer *b = !strcmp(n, "status") ? &status : !strcmp(n, "state") ? &state : &lds;
        if (!strcmp(n, "lds") && !lds.buf)
            make_buffer(&h, WL_LDS_SLICE_BYTES(c->lds_bytes) * groups, &lds);
        lb[i] = (VkDescriptorSetLayoutBinding){.binding = r.bindings[i].binding,
                                               .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                               .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
        dbi[i] = (VkDescriptorBufferInfo){.buffer = b->buf, .range = VK_WHOLE_SIZE};
        wr[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = lb[i].binding,
                                       .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                       .pBufferInfo = &dbi[i]};
    }
    VkDescriptorSetLayoutCreateInfo li = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                          .bindingCount = r.nbindings, .pBindings = lb};
    VkDescriptorSetLayout dsl;
    CHECK(vkCreateDescriptorSetLayout(h.device, &li, NULL, &dsl));
    VkPushConstantRange own = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .offset = 0, .size = HOST_PUSH_BYTES};
    VkPipelineLayoutCreateInfo pli = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                      .pSetLayouts = &dsl, .pushConstantRangeCount = 1, .pPushConstantRanges = &own};
    VkPipelineLayout pl;
    CHECK(vkCreatePipelineLayout(h.device, &pli, NULL, &pl));
    VkShaderModuleCreateInfo smi = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = nwords * 4,
                                    .pCode = words};
    VkShaderModule sm;
    CHECK(vkCreateShaderModule(h.device, &smi, NULL, &sm));
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo rss = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
        .requiredSubgroupSize = r.required_subgroup_size};
    VkComputePipelineCreateInfo cpi = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  .pNext = r.required_subgroup_size ? &rss : NULL,
                  .flags = r.full_subgroups ? VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT : 0,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = sm, .pName = "main"},
        .layout = pl};
    VkPipeline pipe;
    CHECK(vkCreateComputePipelines(h.device, VK_NULL_HANDLE, 1, &cpi, NULL, &pipe));
    VkDescriptorPoolSize ps = {.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 8};
    VkDescriptorPoolCreateInfo dpi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1,
                                      .poolSizeCount = 1, .pPoolSizes = &ps};
    VkDescriptorPool dp;
    CHECK(vkCreateDescriptorPool(h.device, &dpi, NULL, &dp));
    VkDescriptorSetAllocateInfo dai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .descriptorPool = dp,
                                       .descriptorSetCount = 1, .pSetLayouts = &dsl};
    VkDescriptorSet ds;
    CHECK(vkAllocateDescriptorSets(h.device, &dai, &ds));
    for (uint32_t i = 0; i < r.nbindings; i++)
        wr[i].dstSet = ds;
    vkUpdateDescriptorSets(h.device, r.nbindings, wr, 0, NULL);

    /* 7. the dispatch, with the host's own push constants beside */
    VkCommandPoolCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = h.family};
    VkCommandPool pool;
    CHECK(vkCreateCommandPool(h.device, &cpci, NULL, &pool));
    VkCommandBufferAllocateInfo cbai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = pool,
                                        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1};
    VkCommandBuffer cmd;
    CHECK(vkAllocateCommandBuffers(h.device, &cbai, &cmd));
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    CHECK(vkBeginCommandBuffer(cmd, &bi));
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 1, &ds, 0, NULL);
    const uint32_t mine[HOST_PUSH_BYTES / 4] = {0xe4bed000u, 1, 2, 3}; /* the emulator's own (unread here) */
    vkCmdPushConstants(cmd, pl, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof mine, mine);
    vkCmdDispatch(cmd, c->groups[0], c->groups[1], c->groups[2]);
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                          .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0,
                         NULL);
    CHECK(vkEndCommandBuffer(cmd));
    VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    CHECK(vkCreateFence(h.device, &fci, NULL, &fence));
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
    CHECK(vkQueueSubmit(h.queue, 1, &si, fence));
    CHECK(vkWaitForFences(h.device, 1, &fence, VK_TRUE, 120ull * 1000000000ull));

    /* 8. the escape status, then the output */
    int rc = 0;
    wl_rt_escape esc;
    if (wl_rt_escape_decode(status.map, &esc)) {
        printf("embed: the dispatch escaped: %s at guest offset 0x%x, lane %u, group %u, address 0x%llx\n",
               wl_rt_escape_name(esc.kind), esc.guest_offset, esc.lane, esc.group_x,
               (unsigned long long)esc.address);
        rc = 3;
    } else {
        const uint8_t *got = (const uint8_t *)guest.map + ((c->ranges[out].address & WL_CAPTURE_ADDRESS_MASK) - lo);
        size_t bad = 0, first = 0;
        for (size_t i = 0; i < nexp; i++)
            if (got[i] != expected[i] && !bad++)
                first = i;
        if (bad) {
            printf("embed: range %s: %zu of %zu bytes differ, the first at %zu\n", argv[2], bad, nexp, first);
            rc = 1;
        } else {
            printf("embed: range %s: all %zu bytes as expected\n", argv[2], nexp);
        }
    }

    vkDestroyFence(h.device, fence, NULL);
    vkDestroyCommandPool(h.device, pool, NULL);
    vkDestroyDescriptorPool(h.device, dp, NULL);
    vkDestroyPipeline(h.device, pipe, NULL);
    vkDestroyShaderModule(h.device, sm, NULL);
    vkDestroyPipelineLayout(h.device, pl, NULL);
    vkDestroyDescriptorSetLayout(h.device, dsl, NULL);
    buffer *all[] = {&guest, &status, &state, &sink, &scratch, &lds};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        free_buffer(&h, all[i]);
    vkDestroyDevice(h.device, NULL);
    vkDestroyInstance(h.instance, NULL);
    free(words);
    free(expected);
    wl_capture_free(c);
    return rc;
}

/* aco_dump: creates one Vulkan compute pipeline from a SPIR-V file, so
 * that Mesa's RADV driver compiles it with ACO. Run under
 *
 *   RADV_FORCE_FAMILY=navi21 RADV_DEBUG=shaders,nocache aco_dump FILE.spv LAYOUT
 *
 * RADV then uses its null winsys (no AMD GPU needed) and prints the shader
 * disassembly, with each instruction's encoding words, on stderr.
 * regen.sh turns that dump into NAME.words.
 *
 * LAYOUT lists the descriptors of set 0, binding 0 upwards, separated by
 * commas: ssbo, ubo, image (storage image), sampled (combined image
 * sampler), texel (storage texel buffer); an optional ":push=N" suffix
 * adds N bytes of push constants. Every device feature the driver offers
 * is enabled except robust buffer access.
 *
 * On stdout it prints "subgroup-size N": the wave size RADV chose, read
 * back through VK_KHR_pipeline_executable_properties (the dump itself does
 * not say it; RADV_PERFTEST=cswave32 makes it 32 where the shader allows;
 * RADV does not apply it to shaders with subgroup operations).
 * ACO_DUMP_REQUIRED_SUBGROUP_SIZE=N in the environment requires subgroup
 * size N (VK_EXT_subgroup_size_control), which gives wave32 code for
 * those too.
 *
 * Batch mode, "aco_dump --batch LIST": one device for many pipelines. Each
 * line of LIST is "FILE.spv LAYOUT REQUIRED DUMP": the pipeline's dump goes
 * to the file DUMP (stderr redirected while RADV compiles it), REQUIRED is
 * the required subgroup size (0: none), and stdout gets
 * "subgroup-size N DUMP" for each line.
 *
 * Exit status: 0 when the pipeline(s) were created, 1 otherwise. */
#include <fcntl.h>
#include <unistd.h>
#include <vulkan/vulkan.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                          \
    do {                                                                     \
        VkResult r_ = (call);                                                \
        if (r_ != VK_SUCCESS) {                                              \
            fprintf(stderr, "aco_dump: %s failed: %d\n", #call, (int)r_);    \
            return 1;                                                        \
        }                                                                    \
    } while (0)

static void *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *buf = n > 0 ? malloc((size_t)n) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *size = buf ? (size_t)n : 0;
    return buf;
}

/* Parses LAYOUT into bindings; returns their number or -1. */
static int parse_layout(const char *spec, VkDescriptorSetLayoutBinding *b, int cap,
                        unsigned *push)
{
    char buf[1024];
    snprintf(buf, sizeof(buf), "%s", spec);
    *push = 0;
    char *colon = strchr(buf, ':');
    if (colon) {
        *colon = '\0';
        if (sscanf(colon + 1, "push=%u", push) != 1)
            return -1;
    }
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        static const struct { const char *name; VkDescriptorType type; } kinds[] = {
            { "ssbo", VK_DESCRIPTOR_TYPE_STORAGE_BUFFER },
            { "ubo", VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER },
            { "image", VK_DESCRIPTOR_TYPE_STORAGE_IMAGE },
            { "sampled", VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER },
            { "texel", VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER },
        };
        if (n >= cap)
            return -1;
        int found = 0;
        for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
            if (strcmp(t, kinds[k].name) == 0) {
                b[n] = (VkDescriptorSetLayoutBinding){
                    .binding = (uint32_t)n,
                    .descriptorType = kinds[k].type,
                    .descriptorCount = 1,
                    .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
                };
                found = 1;
            }
        if (!found)
            return -1;
        n++;
    }
    return n;
}

/* Creates one pipeline from spv under the layout; *size gets the wave size. */
static int compile_one(VkDevice dev, const uint32_t *spv, size_t spv_size, const char *layout_spec,
                       uint32_t required, uint32_t *size)
{
    VkDescriptorSetLayoutBinding bindings[32];
    unsigned push_bytes;
    int nbindings = parse_layout(layout_spec, bindings, 32, &push_bytes);
    if (nbindings < 0) {
        fprintf(stderr, "aco_dump: bad LAYOUT: %s\n", layout_spec);
        return 1;
    }
    VkShaderModuleCreateInfo smci = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                      .codeSize = spv_size, .pCode = spv };
    VkShaderModule mod;
    CHECK(vkCreateShaderModule(dev, &smci, NULL, &mod));

    VkDescriptorSetLayoutCreateInfo dslci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = (uint32_t)nbindings, .pBindings = bindings };
    VkDescriptorSetLayout dsl;
    CHECK(vkCreateDescriptorSetLayout(dev, &dslci, NULL, &dsl));
    VkPushConstantRange pcr = { .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .size = push_bytes };
    VkPipelineLayoutCreateInfo plci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                        .setLayoutCount = 1, .pSetLayouts = &dsl,
                                        .pushConstantRangeCount = push_bytes ? 1 : 0,
                                        .pPushConstantRanges = &pcr };
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &layout));

    VkPipelineShaderStageRequiredSubgroupSizeCreateInfoEXT rss = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO_EXT,
        .requiredSubgroupSize = required };
    VkComputePipelineCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR,
        .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                   .pNext = required ? &rss : NULL,
                   .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = mod, .pName = "main" },
        .layout = layout,
    };
    VkPipeline pipe;
    CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL, &pipe));
    fprintf(stderr, "aco_dump: pipeline created\n");

    PFN_vkGetPipelineExecutablePropertiesKHR get_props =
        (PFN_vkGetPipelineExecutablePropertiesKHR)vkGetDeviceProcAddr(
            dev, "vkGetPipelineExecutablePropertiesKHR");
    if (!get_props) {
        fprintf(stderr, "aco_dump: no vkGetPipelineExecutablePropertiesKHR\n");
        return 1;
    }
    VkPipelineInfoKHR pinfo = { .sType = VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, .pipeline = pipe };
    uint32_t nexec = 1;
    VkPipelineExecutablePropertiesKHR props = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR };
    CHECK(get_props(dev, &pinfo, &nexec, &props));
    if (nexec != 1) {
        fprintf(stderr, "aco_dump: %u executables, expected 1\n", nexec);
        return 1;
    }
    *size = props.subgroupSize;

    vkDestroyPipeline(dev, pipe, NULL);
    vkDestroyPipelineLayout(dev, layout, NULL);
    vkDestroyDescriptorSetLayout(dev, dsl, NULL);
    vkDestroyShaderModule(dev, mod, NULL);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: aco_dump FILE.spv LAYOUT | aco_dump --batch LIST\n");
        return 2;
    }
    int batch = strcmp(argv[1], "--batch") == 0;
    size_t spv_size = 0;
    uint32_t *spv = NULL;
    if (!batch) {
        spv = read_file(argv[1], &spv_size);
        if (!spv || spv_size % 4) {
            fprintf(stderr, "aco_dump: %s: cannot read SPIR-V\n", argv[1]);
            return 1;
        }
    }

    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "aco_dump",
        .apiVersion = VK_API_VERSION_1_2,
    };
    VkInstanceCreateInfo ici = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                 .pApplicationInfo = &app };
    VkInstance inst;
    CHECK(vkCreateInstance(&ici, NULL, &inst));

    uint32_t ndev = 0;
    CHECK(vkEnumeratePhysicalDevices(inst, &ndev, NULL));
    VkPhysicalDevice devs[16];
    if (ndev > 16)
        ndev = 16;
    CHECK(vkEnumeratePhysicalDevices(inst, &ndev, devs));
    VkPhysicalDevice pd = VK_NULL_HANDLE;
    for (uint32_t i = 0; i < ndev; i++) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(devs[i], &p);
        if (p.vendorID == 0x1002 && !pd) {
            pd = devs[i];
            fprintf(stderr, "aco_dump: device %s\n", p.deviceName);
        }
    }
    if (!pd) {
        fprintf(stderr, "aco_dump: no AMD device; set RADV_FORCE_FAMILY=navi21\n");
        return 1;
    }

    /* Every feature the driver has, but robust buffer access. */
    const char *req_env = getenv("ACO_DUMP_REQUIRED_SUBGROUP_SIZE");
    uint32_t required = req_env ? (uint32_t)strtoul(req_env, NULL, 10) : 0;
    int size_control = required || batch; /* batch lines may require a size */
    VkPhysicalDeviceSubgroupSizeControlFeaturesEXT fsize = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES_EXT };
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR fexec = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR,
        .pNext = size_control ? &fsize : NULL };
    VkPhysicalDeviceVulkan12Features f12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                             .pNext = &fexec };
    VkPhysicalDeviceVulkan11Features f11 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
                                             .pNext = &f12 };
    VkPhysicalDeviceFeatures2 f2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                     .pNext = &f11 };
    vkGetPhysicalDeviceFeatures2(pd, &f2);
    f2.features.robustBufferAccess = VK_FALSE;
    if (!fexec.pipelineExecutableInfo) {
        fprintf(stderr, "aco_dump: no VK_KHR_pipeline_executable_properties\n");
        return 1;
    }

    uint32_t nq = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, NULL);
    VkQueueFamilyProperties qf[16];
    if (nq > 16)
        nq = 16;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, qf);
    uint32_t qfi = 0;
    while (qfi < nq && !(qf[qfi].queueFlags & VK_QUEUE_COMPUTE_BIT))
        qfi++;
    if (qfi == nq) {
        fprintf(stderr, "aco_dump: no compute queue\n");
        return 1;
    }
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                    .queueFamilyIndex = qfi, .queueCount = 1,
                                    .pQueuePriorities = &prio };
    if (size_control && !fsize.subgroupSizeControl) {
        fprintf(stderr, "aco_dump: no subgroup size control\n");
        return 1;
    }
    const char *exts[] = { VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME,
                           VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME };
    VkDeviceCreateInfo dci = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &f2,
                               .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci,
                               .enabledExtensionCount = size_control ? 2 : 1,
                               .ppEnabledExtensionNames = exts };
    VkDevice dev;
    CHECK(vkCreateDevice(pd, &dci, NULL, &dev));

    int rc = 0;
    if (batch) {
        FILE *list = fopen(argv[2], "r");
        if (!list) {
            fprintf(stderr, "aco_dump: cannot read %s\n", argv[2]);
            return 1;
        }
        char line[4096], spv_path[1024], spec[1024], dump[1024];
        unsigned req;
        while (rc == 0 && fgets(line, sizeof line, list)) {
            if (sscanf(line, "%1023s %1023s %u %1023s", spv_path, spec, &req, dump) != 4)
                continue;
            size_t n;
            uint32_t *code = read_file(spv_path, &n);
            if (!code || n % 4) {
                fprintf(stderr, "aco_dump: %s: cannot read SPIR-V\n", spv_path);
                free(code);
                rc = 1;
                break;
            }
            fflush(stderr);
            int saved = dup(2), fd = open(dump, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (saved < 0 || fd < 0) {
                fprintf(stderr, "aco_dump: cannot write %s\n", dump);
                free(code);
                rc = 1;
                break;
            }
            dup2(fd, 2);
            close(fd);
            uint32_t size = 0;
            rc = compile_one(dev, code, n, spec, req, &size);
            fflush(stderr);
            dup2(saved, 2);
            close(saved);
            if (rc == 0)
                printf("subgroup-size %u %s\n", size, dump);
            else
                fprintf(stderr, "aco_dump: %s failed (dump in %s)\n", spv_path, dump);
            free(code);
        }
        fclose(list);
    } else {
        uint32_t size = 0;
        rc = compile_one(dev, spv, spv_size, argv[2], required, &size);
        if (rc == 0)
            printf("subgroup-size %u\n", size);
    }
    vkDestroyDevice(dev, NULL);
    vkDestroyInstance(inst, NULL);
    free(spv);
    return rc;
}

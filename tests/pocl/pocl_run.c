/* The reference harness: runs an OpenCL C kernel from source on PoCL (the
 * CPU OpenCL implementation) with the arguments `wavelift run` takes, and
 * writes the output buffers the same way. On the NVIDIA machine the same
 * program runs the vendor's OpenCL driver: the native side of
 * scripts/native_vs_lifted.py (issue 21).
 *
 *   wl_pocl_run SOURCE.cl --kernel NAME --global X[,Y[,Z]] --local X[,Y[,Z]]
 *               [--arg SPEC]... [--out N:FILE]... [--options "BUILD OPTIONS"]
 *               [--runs N] [--build-log]
 *
 * SPEC and --out as for `wavelift run` (cli/args.c parses both; an image
 * argument is an OpenCL image of the same format, its --out the texels). The
 * program is built with -cl-std=CL2.0 unless --options says otherwise.
 * --build-log: the build's log after a successful build, each line as
 * "build log: LINE" (NVIDIA's -cl-nv-verbose puts the registers there).
 * --runs N (N >= 2): after the dispatch whose outputs are written, N - 1
 * more are timed by the queue's profiling events; it prints the device's
 * name, `build ms` (clBuildProgram's wall time) and `dispatch ms` (the
 * median of the timed ones, end - start). The outputs come from the first.
 * Exit: 0 success, 1 an OpenCL error (named), 2 usage. */
#include <time.h>
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "cli/cli.h"
#include "wavelift/image.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 64

static int cl_fail(const char *what, cl_int e)
{
    fprintf(stderr, "wl_pocl_run: %s: OpenCL error %d\n", what, (int)e);
    return 1;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* n more dispatches, each timed by its event; prints the median. 0, or 1
 * on an OpenCL error (named) */
static int time_runs(cl_command_queue q, cl_kernel k, unsigned dims, const size_t *gs, const size_t *ls,
                        unsigned n, cl_device_id dev, double build_ms)
{
    double *ms = malloc(n * sizeof *ms);
    cl_int e = ms ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    for (unsigned r = 0; r < n && e == CL_SUCCESS; r++) {
        cl_event ev;
        cl_ulong t0 = 0, t1 = 0;
        e = clEnqueueNDRangeKernel(q, k, dims, NULL, gs, ls, 0, NULL, &ev);
        if (e != CL_SUCCESS)
            break;
        e = clWaitForEvents(1, &ev);
        if (e == CL_SUCCESS)
            e = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
        if (e == CL_SUCCESS)
            e = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
        clReleaseEvent(ev);
        ms[r] = (double)(t1 - t0) / 1e6;
    }
    if (e != CL_SUCCESS) {
        free(ms);
        return cl_fail("timed dispatch", e);
    }
    if (!n) {
        free(ms);
        return 0;
    }
    qsort(ms, n, sizeof *ms, by_value);
    char name[256] = "?";
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    printf("device: %s\nbuild ms: %.3f\ndispatch ms: %.4f (median of %u)\n", name, build_ms,
           n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2, n);
    free(ms);
    return 0;
}

/* The OpenCL image format of an image argument: CL_R, CL_RG, CL_RGBA of
 * the component's kind and width */
static int image_format(const cli_img_arg *m, cl_image_format *f)
{
    static const cl_channel_order order[5] = {0, CL_R, CL_RG, 0, CL_RGBA};
    f->image_channel_order = order[m->comps];
    unsigned w = m->bits == 8 ? 0 : m->bits == 16 ? 1 : 2;
    static const cl_channel_type types[7][3] = {
        [WL_IMG_KIND_UNORM] = {CL_UNORM_INT8, CL_UNORM_INT16, 0},
        [WL_IMG_KIND_SNORM] = {CL_SNORM_INT8, CL_SNORM_INT16, 0},
        [WL_IMG_KIND_UINT] = {CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, CL_UNSIGNED_INT32},
        [WL_IMG_KIND_SINT] = {CL_SIGNED_INT8, CL_SIGNED_INT16, CL_SIGNED_INT32},
        [WL_IMG_KIND_FLOAT] = {0, CL_HALF_FLOAT, CL_FLOAT},
    };
    f->image_channel_data_type = m->kind < 7 ? types[m->kind][w] : 0;
    return !f->image_channel_order || !f->image_channel_data_type;
}

int main(int argc, char **argv)
{
    const char *src_path = NULL, *kname = NULL, *options = "-cl-std=CL2.0";
    wl_hsa_arg args[MAX_ARGS];
    cli_img_arg img[MAX_ARGS];
    size_t nargs = 0;
    unsigned out_arg[MAX_ARGS];
    const char *out_file[MAX_ARGS];
    size_t nouts = 0;
    uint32_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1};
    unsigned gdims = 0, ldims = 0, runs = 1;
    int build_log = 0;
    char err[512];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int hv = i + 1 < argc;
        if (strcmp(a, "--kernel") == 0 && hv)
            kname = argv[++i];
        else if (strcmp(a, "--options") == 0 && hv)
            options = argv[++i];
        else if (strcmp(a, "--build-log") == 0)
            build_log = 1;
        else if (strcmp(a, "--runs") == 0 && hv) {
            char *end;
            unsigned long n = strtoul(argv[++i], &end, 10);
            if (*end || n < 1 || n > 10000)
                return cli_usage_error("--runs must be 1 to 10000", argv[i]);
            runs = (unsigned)n;
        }
        else if (strcmp(a, "--global") == 0 && hv) {
            if (cli_parse_dims(argv[++i], global, &gdims))
                return cli_usage_error("bad --global", argv[i]);
        } else if (strcmp(a, "--local") == 0 && hv) {
            if (cli_parse_dims(argv[++i], local, &ldims))
                return cli_usage_error("bad --local", argv[i]);
        } else if (strcmp(a, "--arg") == 0 && hv && nargs < MAX_ARGS) {
            size_t n = nargs++;
            if (cli_parse_arg(argv[++i], &args[n], &img[n], err, sizeof(err)))
                return cli_usage_error(err, NULL);
        } else if (strcmp(a, "--out") == 0 && hv && nouts < MAX_ARGS) {
            if (cli_parse_out(argv[++i], &out_arg[nouts], &out_file[nouts]))
                return cli_usage_error("bad --out", argv[i]);
            nouts++;
        } else if (a[0] == '-' || src_path) {
            return cli_usage_error("bad argument", a);
        } else {
            src_path = a;
        }
    }
    if (!src_path || !kname || !gdims || !ldims)
        return cli_usage_error("needs SOURCE.cl, --kernel, --global and --local", NULL);
    unsigned dims = gdims > ldims ? gdims : ldims;

    size_t srclen = 0;
    char *src = (char *)cli_read_file(src_path, &srclen);
    if (!src)
        return 1;
    cl_platform_id plat;
    cl_device_id dev;
    cl_int e = clGetPlatformIDs(1, &plat, NULL);
    if (e != CL_SUCCESS)
        return cl_fail("clGetPlatformIDs", e);
    if ((e = clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL)) != CL_SUCCESS)
        return cl_fail("clGetDeviceIDs", e);
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    if (e != CL_SUCCESS)
        return cl_fail("clCreateContext", e);
    cl_queue_properties qprops[3] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, runs > 1 ? qprops : NULL, &e);
    if (e != CL_SUCCESS)
        return cl_fail("clCreateCommandQueue", e);
    const char *s = src;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &s, &srclen, &e);
    if (e != CL_SUCCESS)
        return cl_fail("clCreateProgramWithSource", e);
    double t0 = now_ms();
    e = clBuildProgram(prog, 1, &dev, options, NULL, NULL);
    double build_ms = now_ms() - t0;
    if (e != CL_SUCCESS) {
        static char log[65536];
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, NULL);
        fprintf(stderr, "%s\n", log);
        return cl_fail("clBuildProgram", e);
    }
    if (build_log) {
        static char log[65536];
        if (clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, NULL) == CL_SUCCESS)
            for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n"))
                printf("build log: %s\n", line);
    }
    cl_kernel k = clCreateKernel(prog, kname, &e);
    if (e != CL_SUCCESS)
        return cl_fail("clCreateKernel", e);
    cl_mem mem[MAX_ARGS] = {0};
    for (size_t i = 0; i < nargs; i++) {
        wl_hsa_arg *a = &args[i];
        if (a->kind == WL_HSA_ARG_BUF || a->kind == WL_HSA_ARG_ZERO) {
            void *data = NULL;
            if (a->kind == WL_HSA_ARG_BUF) {
                size_t n = 0;
                data = cli_read_file(a->file, &n);
                if (!data)
                    return 1;
                a->bytes = n;
            } else {
                data = calloc(1, a->bytes);
            }
            if (img[i].fmt) {
                cl_image_format f;
                if (image_format(&img[i], &f))
                    return cli_usage_error("the image's format has no OpenCL format", a->file);
                if (a->bytes != (size_t)img[i].width * img[i].height * img[i].bpt)
                    return cli_usage_error("the image file's size is not the image's", a->file);
                cl_image_desc d = {img[i].dims == 1 ? CL_MEM_OBJECT_IMAGE1D : CL_MEM_OBJECT_IMAGE2D, img[i].width,
                                   img[i].height, 1, 1, 0, 0, 0, 0, {NULL}};
                mem[i] = clCreateImage(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &f, &d, data, &e);
            } else {
                mem[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                        a->bytes ? a->bytes : 4, data, &e);
            }
            free(data);
            if (e != CL_SUCCESS)
                return cl_fail(img[i].fmt ? "clCreateImage" : "clCreateBuffer", e);
            e = clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &mem[i]);
        } else if (a->kind == WL_HSA_ARG_LOCAL) {
            e = clSetKernelArg(k, (cl_uint)i, a->bytes, NULL);
        } else {
            e = clSetKernelArg(k, (cl_uint)i, a->size, &a->bits);
        }
        if (e != CL_SUCCESS)
            return cl_fail("clSetKernelArg", e);
    }
    size_t gs[3] = {global[0], global[1], global[2]}, ls[3] = {local[0], local[1], local[2]};
    if ((e = clEnqueueNDRangeKernel(q, k, dims, NULL, gs, ls, 0, NULL, NULL)) != CL_SUCCESS)
        return cl_fail("clEnqueueNDRangeKernel", e);
    if ((e = clFinish(q)) != CL_SUCCESS)
        return cl_fail("clFinish", e);
    if (runs > 1 && time_runs(q, k, dims, gs, ls, runs - 1, dev, build_ms))
        return 1;
    for (size_t i = 0; i < nouts; i++) {
        unsigned n = out_arg[i];
        if (n >= nargs || !mem[n])
            return cli_usage_error("--out names no buffer argument", out_file[i]);
        void *data = malloc(args[n].bytes ? args[n].bytes : 1);
        if (img[n].fmt) {
            size_t origin[3] = {0, 0, 0}, region[3] = {img[n].width, img[n].height, 1};
            if ((e = clEnqueueReadImage(q, mem[n], CL_TRUE, origin, region, 0, 0, data, 0, NULL, NULL)) != CL_SUCCESS)
                return cl_fail("clEnqueueReadImage", e);
        } else if (args[n].bytes &&
                   (e = clEnqueueReadBuffer(q, mem[n], CL_TRUE, 0, args[n].bytes, data, 0, NULL, NULL)) != CL_SUCCESS)
            return cl_fail("clEnqueueReadBuffer", e);
        if (cli_write_file(out_file[i], data, args[n].bytes))
            return 1;
        free(data);
    }
    for (size_t i = 0; i < nargs; i++)
        if (mem[i])
            clReleaseMemObject(mem[i]);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(src);
    return 0;
}

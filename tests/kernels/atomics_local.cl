// Atomics on local memory (ds_* atomics), including 64-bit LDS atomics,
// compare-exchange loops and float LDS add.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

kernel void latom32(global const int *in, global int *out)
{
    local int hist[64];
    local uint bits[4];
    int lid = get_local_id(0);
    if (lid < 64)
        hist[lid] = 0;
    if (lid < 4)
        bits[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = in[get_global_id(0)];
    int a = atomic_add(&hist[v & 63], 1);
    atomic_inc(&hist[(v >> 6) & 63]);
    int b = atomic_max(&hist[1], v) + atomic_min(&hist[2], v) + atomic_xchg(&hist[3], v);
    int c = atomic_cmpxchg(&hist[4], 0, v);
    uint d = atomic_or(&bits[0], 1u << (v & 31)) ^ atomic_and(&bits[1], (uint)v) ^ atomic_xor(&bits[2], (uint)v);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = a + b + c + (int)d + hist[lid & 63];
}

kernel void latom64(global const long *in, global long *out)
{
    local long acc[8];
    local ulong m[2];
    int lid = get_local_id(0);
    if (lid < 8)
        acc[lid] = 0;
    if (lid < 2)
        m[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    long v = in[get_global_id(0)];
    long a = atom_add(&acc[0], v);
    long b = atom_cmpxchg(&acc[1], 0, v) + atom_xchg(&acc[2], v) + atom_min(&acc[3], v) + atom_max(&acc[4], v);
    ulong c = atom_or(&m[0], (ulong)v) | atom_and(&m[1], (ulong)v);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = a + b + (long)c + acc[lid & 7];
}

kernel void latom_float(global const float *in, global float *out)
{
    local atomic_float sum;
    local atomic_int cnt;
    if (get_local_id(0) == 0) {
        atomic_init(&sum, 0.0f);
        atomic_init(&cnt, 0);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    float v = in[get_global_id(0)];
    /* A compare-exchange loop: float add on LDS. */
    float old = atomic_load_explicit(&sum, memory_order_relaxed, memory_scope_work_group);
    while (!atomic_compare_exchange_weak_explicit(&sum, &old, old + v, memory_order_relaxed,
                                                  memory_order_relaxed, memory_scope_work_group))
        ;
    int n = atomic_fetch_add_explicit(&cnt, 1, memory_order_acq_rel, memory_scope_work_group);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (n == 0)
        out[get_group_id(0)] = atomic_load_explicit(&sum, memory_order_relaxed, memory_scope_work_group);
}

// Atomics on global memory: 32- and 64-bit, returning and not, OpenCL 1.x
// atom_* and OpenCL 2.0 atomic_fetch_*_explicit with memory scopes.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

kernel void atom32(global int *p, global uint *u, global int *out)
{
    int i = get_global_id(0);
    int a = atomic_add(&p[0], i);
    atomic_sub(&p[1], 3);
    int b = atomic_xchg(&p[2], i);
    int c = atomic_cmpxchg(&p[3], i, i + 1);
    int d = atomic_min(&p[4], i) + atomic_max(&p[5], i);
    uint e = atomic_and(&u[0], 0xf0f0u) | atomic_or(&u[1], (uint)i) | atomic_xor(&u[2], 5u);
    uint f = atomic_inc(&u[3]) + atomic_dec(&u[4]) + atomic_min(&u[5], (uint)i) + atomic_max(&u[6], (uint)i);
    out[i] = a + b + c + d + (int)e + (int)f;
}

kernel void atom64(global long *p, global ulong *u, global long *out)
{
    long i = get_global_id(0);
    long a = atom_add(&p[0], i);
    long b = atom_xchg(&p[1], i);
    long c = atom_cmpxchg(&p[2], i, i + 1);
    long d = atom_min(&p[3], i) + atom_max(&p[4], i);
    ulong e = atom_and(&u[0], 0xff00ff00ff00ul) | atom_or(&u[1], (ulong)i) | atom_xor(&u[2], 7ul);
    atom_inc(&u[3]);
    out[i] = a + b + c + d + (long)e;
}

kernel void atom_c11(global atomic_int *ai, global atomic_uint *au, global atomic_long *al,
                     global atomic_float *af, global int *out)
{
    int i = get_global_id(0);
    int a = atomic_fetch_add_explicit(ai, i, memory_order_relaxed, memory_scope_device);
    int b = atomic_fetch_sub_explicit(ai + 1, 2, memory_order_acq_rel, memory_scope_work_group);
    uint c = atomic_fetch_or_explicit(au, 1u << (i & 31), memory_order_seq_cst, memory_scope_all_svm_devices);
    int d = atomic_fetch_max_explicit(ai + 2, i, memory_order_release, memory_scope_device);
    int expected = 0;
    bool ok = atomic_compare_exchange_strong_explicit(ai + 3, &expected, i, memory_order_acq_rel,
                                                      memory_order_acquire, memory_scope_work_group);
    long e = atomic_fetch_add_explicit(al, (long)i, memory_order_relaxed, memory_scope_device);
    atomic_store_explicit(ai + 4, i, memory_order_release, memory_scope_device);
    int f = atomic_load_explicit(ai + 5, memory_order_acquire, memory_scope_device);
    float g = atomic_exchange_explicit(af, (float)i, memory_order_relaxed, memory_scope_device);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);
    out[i] = a + b + (int)c + d + (ok ? expected : 1) + (int)e + f + (int)g;
}

// Miscellaneous: generic (flat) address space through non-inlined
// functions (flat_load/flat_store/flat_atomic), timers (s_memtime,
// s_memrealtime), s_sleep, s_setprio, s_getreg, ds_append/ds_consume,
// LDS float add, barriers, floating-point atomics as CAS loops.

__attribute__((noinline)) int generic_sum(int *p, int n)
{
    int s = 0;
    for (int k = 0; k < n; k++)
        s += p[k];
    p[n] = s;
    return s + atomic_fetch_add((volatile atomic_int *)p, 1);
}

__attribute__((noinline)) void generic_bytes(uchar *d, const short *s, int n)
{
    for (int k = 0; k < n; k++)
        d[k] = (uchar)(s[k] >> 2);
}

kernel void misc_generic(global int *g, global short *s, int n)
{
    local int l[64];
    local uchar lb[64];
    l[get_local_id(0) & 63] = g[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    int a = generic_sum(g, n) + generic_sum(l, n & 63);
    generic_bytes((uchar *)(g + 1024), s, n);
    generic_bytes(lb, s, n & 63);
    barrier(CLK_LOCAL_MEM_FENCE);
    g[get_global_id(0)] = a + lb[get_local_id(0) & 63];
}

kernel void misc_hw(global ulong *o, global float *f, local int *l)
{
    size_t i = get_global_id(0);
    ulong t = __builtin_amdgcn_s_memtime();
    __builtin_amdgcn_s_sleep(2);
    __builtin_amdgcn_s_setprio(1);
    uint mode = __builtin_amdgcn_s_getreg((1 << 0) | (0 << 6) | (31 << 11)); /* HW_REG_MODE */
    int a = __builtin_amdgcn_ds_append(l);
    int c = __builtin_amdgcn_ds_consume(l + 1);
    __builtin_amdgcn_wave_barrier();
    __builtin_amdgcn_s_barrier();
    float m = __builtin_amdgcn_ds_faddf((local float *)l + 2, f[i], 0, 0, false);
    float fm = __atomic_fetch_min(f, 2.0f, __ATOMIC_RELAXED);
    float fx = __atomic_fetch_max(f + 1, f[i], __ATOMIC_RELAXED);
    __builtin_amdgcn_s_setprio(0);
    o[i] = t + __builtin_amdgcn_s_memrealtime() + mode + (ulong)(a + c) + (ulong)(m + fm + fx);
}

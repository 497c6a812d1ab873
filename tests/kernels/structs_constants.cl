// Kernel arguments by value (scalars, vectors and structs in the kernarg
// segment: s_load_dwordx8/x16), constant-address-space tables indexed
// uniformly (s_load) and per lane (global_load with saddr), program-scope
// constant arrays.

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

typedef struct params {
    float scale;
    int offset;
    float4 color;
    long big;
    uint flags[6];
    double weight;
} params;

constant float table[16] = { 0.0f, 0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f,
                             0.8f, 0.9f, 1.0f, 1.1f, 1.2f, 1.3f, 1.4f, 1.5f };
constant int primes[8] = { 2, 3, 5, 7, 11, 13, 17, 19 };

kernel void kargs_struct(params p, global float4 *out, float8 v, int2 q)
{
    size_t i = get_global_id(0);
    float4 r = p.color * p.scale + (float)(p.offset + q.x * q.y) + (float)p.big;
    r.x += p.flags[0] + p.flags[5] + (float)p.weight;
    r += v.lo * v.hi;
    out[i] = r;
}

kernel void kargs_constant(constant float *coef, constant int *idx, global float *out, int k)
{
    size_t i = get_global_id(0);
    float s = coef[k] + coef[k + 1] * 2.0f + table[k & 15];
    s += coef[idx[i & 7]] + table[i & 15] + (float)primes[i & 7] + (float)primes[k & 7];
    out[i] = s;
}

kernel void kargs_many(global int *out, char a, uchar b, short c, ushort d, int e, uint f,
                       long g, ulong h, float x, double y, half2 z)
{
    out[get_global_id(0)] = a + b + c + d + e + (int)f + (int)g + (int)h + (int)x + (int)y +
                            (int)(float)z.x;
}

typedef struct node { int value; int next; } node;

kernel void kargs_list(global const node *nodes, global int *out, int head)
{
    int s = 0;
    for (int n = head; n >= 0; n = nodes[n].next)
        s += nodes[n].value;
    out[get_global_id(0)] = s + (int)get_global_offset(0) + (int)get_num_groups(1) +
                            (int)get_global_size(2) + (int)get_work_dim() + (int)get_enqueued_local_size(0);
}

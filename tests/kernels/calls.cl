// Non-inlined calls: s_getpc_b64 / s_swappc_b64 / s_setpc_b64, the stack
// (s32 stack pointer, scratch spills of callee-saved registers), and
// functions with many arguments.

__attribute__((noinline)) float poly(float x, float a, float b, float c)
{
    return (a * x + b) * x + c;
}

__attribute__((noinline)) int mix_args(int a, long b, float c, double d, global int *p, int n)
{
    int s = 0;
    for (int k = 0; k < n; k++)
        s += p[k] * a;
    return s + (int)b + (int)c + (int)d;
}

__attribute__((noinline)) void store_pair(global float *p, size_t i, float x, float y)
{
    p[2 * i] = x;
    p[2 * i + 1] = y;
}

kernel void call_simple(global const float *in, global float *out)
{
    size_t i = get_global_id(0);
    float x = in[i];
    float y = poly(x, 1.0f, 2.0f, 3.0f) + poly(x * 2.0f, in[i + 1], 0.5f, -1.0f);
    store_pair(out, i, x, y);
}

kernel void call_many(global const int *in, global int *out, int n)
{
    size_t i = get_global_id(0);
    int x = in[i];
    out[i] = mix_args(x, (long)x << 33, (float)x * 0.5f, (double)x * 0.25, (global int *)in, n) +
             mix_args(x + 1, 5, 1.0f, 2.0, out + 1, n & 7);
}

// Control flow: uniform and divergent branches, loops with data-dependent
// trip counts, break/continue, switch statements (jump-free compare chains
// and s_cbranch_*), nested loops, early return.

kernel void cf_divergent(global const int *in, global int *out)
{
    size_t i = get_global_id(0);
    int x = in[i];
    int r;
    if (x > 100) {
        r = x * 3;
        if (x & 1)
            r -= in[i + 1];
        else
            r += in[i + 2];
    } else if (x < -100) {
        r = -x;
    } else {
        r = 0;
        for (int k = 0; k < (x & 15); k++)
            r += in[i + k] * k;
    }
    out[i] = r;
}

kernel void cf_loops(global const float *in, global float *out, int n, int m)
{
    size_t i = get_global_id(0);
    float acc = 0.0f;
    for (int a = 0; a < n; a++) {
        if (in[a] < 0.0f)
            continue;
        for (int b = 0; b < m; b++) {
            float v = in[a * m + b];
            if (v > 1000.0f)
                break;
            acc += v * (float)(i + b);
        }
    }
    int k = (int)i;
    while (k > 1)  /* Collatz: a divergent loop */
        k = (k & 1) ? 3 * k + 1 : k >> 1;
    out[i] = acc + (float)k;
}

kernel void cf_switch(global const int *in, global int *out, int mode)
{
    size_t i = get_global_id(0);
    int x = in[i];
    int r;
    switch (x & 7) {
    case 0: r = x + 1; break;
    case 1: r = x * 5; break;
    case 2: r = in[i + 3]; break;
    case 3: r = x ^ 0x55; /* fall through */
    case 4: r = x - 9; break;
    case 6: r = -x; break;
    default: r = 42;
    }
    switch (mode) { /* uniform switch: scalar branches */
    case 0: r += 1; break;
    case 1: r *= 2; break;
    case 5: r -= in[0]; break;
    default: r = 0;
    }
    if (r == 12345)
        return;
    out[i] = r;
}

kernel void cf_uniform(global int *out, int n, int step)
{
    int s = 0;
    for (int k = 0; k < n; k += step)
        s += k * k;
    if (s > 1000)
        out[get_global_id(0)] = s;
    else
        out[get_global_id(0) + 1] = -s;
}

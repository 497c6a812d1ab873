// Kernels that never finish or reach outside their memory, for
// tests/test_escapes.c (docs/escapes.md): each must end with its escape
// named, never hang the device or write outside its buffers.

// A uniform loop: every lane reads the same word, which nobody sets.
kernel void spin_uniform(global volatile int *o)
{
    while (o[0] != 12345) {
    }
    o[get_global_id(0) + 1] = 1;
}

// A divergent loop: each lane waits for its own word; lane 0's is set
// (input word 64 = 12345), so lane 0 leaves and EXEC never becomes 0.
kernel void spin_divergent(global volatile int *o)
{
    int i = get_global_id(0);
    while (o[i + 64] != 12345) {
    }
    o[i] = 2;
}

// An LDS flag nobody sets.
kernel void spin_lds(global int *o)
{
    local volatile int flag[1];
    if (get_local_id(0) == 0)
        flag[0] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    while (flag[0] == 0) {
    }
    o[get_global_id(0)] = 3;
}

// A load and a store `delta` bytes from o: outside the mapping they must
// read 0 and write nothing.
kernel void reach(global int *o, long delta)
{
    global int *far = (global int *)((global char *)o + delta);
    int v = *far;
    o[get_global_id(0)] = v + 7;
    *far = 99;
}

// A normal kernel: the device still works after the escapes.
kernel void normal(global int *o)
{
    int i = get_global_id(0);
    o[i] = 3 * i + 5;
}

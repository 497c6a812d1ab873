#version 450
// The fused-fma probe (runtime/probe.c, wl_rt_probe_fma): fma() on inputs
// where a fused multiply-add and a rounded multiply then add differ. With
// in = {1 + 2^-30, 1 - 2^-30, -1} (double) and {1 + 2^-13, 1 - 2^-13, -1}
// (float): fused gives -2^-60 and -2^-26, unfused 0 and 0. The inputs come
// from the buffer, so no compiler can fold them.
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 3) buffer Probe {
    double din[3];
    double dout;
    float fin[3];
    float fout;
} p;

void main()
{
    p.dout = fma(p.din[0], p.din[1], p.din[2]);
    p.fout = fma(p.fin[0], p.fin[1], p.fin[2]);
}

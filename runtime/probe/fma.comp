#version 450
// The fma probe (runtime/probe.c, wl_rt_probe_fma): fma() on N hard cases
// of each width (cancellation, subnormal operands and results, signed
// zeros, a product's rounding error), from the buffer so that no compiler
// folds them. The host compares each result, bit for bit, with its C
// library's fma()/fmaf() (correctly rounded): the device's Fma is taken as
// exact only where every case agrees. It runs under the float modes every
// lifted module with floats declares (backend/emit.c): denormals kept,
// signed zeros, infinities and NaNs kept, conversions round to nearest
// even. Without them NVIDIA's driver flushes f32 subnormals, so a probe
// without them judged an Fma that the lifted modules would run exactly.
#extension GL_EXT_spirv_intrinsics : require
spirv_execution_mode(capabilities = [4464], 4459, 32); // DenormPreserve
spirv_execution_mode(capabilities = [4464], 4459, 64);
spirv_execution_mode(capabilities = [4466], 4461, 32); // SignedZeroInfNanPreserve
spirv_execution_mode(capabilities = [4466], 4461, 64);
spirv_execution_mode(capabilities = [4467], 4462, 32); // RoundingModeRTE
spirv_execution_mode(capabilities = [4467], 4462, 64);
layout(local_size_x = 1) in;
const int N = 9;
layout(std430, set = 0, binding = 3) buffer Probe {
    double din[3 * N];
    double dout[N];
    float fin[3 * N];
    float fout[N];
} p;

void main()
{
    for (int i = 0; i < N; i++) {
        p.dout[i] = fma(p.din[3 * i], p.din[3 * i + 1], p.din[3 * i + 2]);
        p.fout[i] = fma(p.fin[3 * i], p.fin[3 * i + 1], p.fin[3 * i + 2]);
    }
}

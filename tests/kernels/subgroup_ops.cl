// Sub-group collectives from cl_khr_subgroups: reductions, scans and
// broadcasts lower to DPP row operations, v_permlanex16, v_readlane and
// s_bitcmp/ballot sequences.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable

kernel void sg_reduce(global const int *in, global int *out, global float *fout)
{
    size_t i = get_global_id(0);
    int x = in[i];
    float f = (float)x * 0.5f;
    out[4 * i + 0] = sub_group_reduce_add(x);
    out[4 * i + 1] = sub_group_reduce_min(x);
    out[4 * i + 2] = sub_group_reduce_max((uint)x);
    out[4 * i + 3] = (int)get_sub_group_local_id() + (int)get_sub_group_size();
    fout[2 * i + 0] = sub_group_reduce_add(f);
    fout[2 * i + 1] = sub_group_reduce_max(f);
}

kernel void sg_scan(global const int *in, global int *out, global long *lout)
{
    size_t i = get_global_id(0);
    int x = in[i];
    out[3 * i + 0] = sub_group_scan_inclusive_add(x);
    out[3 * i + 1] = sub_group_scan_exclusive_add(x);
    out[3 * i + 2] = sub_group_scan_inclusive_max(x);
    lout[i] = sub_group_scan_inclusive_add((long)x * 3) + sub_group_reduce_min((long)x);
}

kernel void sg_broadcast_vote(global const int *in, global int *out, global const float *fin,
                              global float *fout, uint lane)
{
    size_t i = get_global_id(0);
    int x = in[i];
    out[3 * i + 0] = sub_group_broadcast(x, 0);
    out[3 * i + 1] = sub_group_broadcast(x, lane);
    out[3 * i + 2] = sub_group_any(x > 10) + 2 * sub_group_all(x != 0);
    fout[i] = sub_group_broadcast(fin[i], 7) + sub_group_scan_exclusive_min(fin[i]);
}

kernel void sg_double(global const double *in, global double *out)
{
    size_t i = get_global_id(0);
    double d = in[i];
    out[2 * i] = sub_group_reduce_add(d);
    out[2 * i + 1] = sub_group_scan_inclusive_max(d);
}

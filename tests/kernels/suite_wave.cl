// Suite: the wave model's failures on real kernels (issue 15), as our own
// kernels. lds_stage: a workgroup of one wave (local = 64: one wave64,
// two wave32 waves) stages a 256-word table into LDS with a loop whose trip
// count depends on the work-item (i = lid; i < 256; i += lsz: the guest
// loop's exit is EXEC, not a scalar), then, after a barrier, walks it as
// AES's T-tables are walked (hashcat's inc_cipher_aes.cl after its
// s_te0..s_te4 copy). In the wave model a one-wave group was a host
// workgroup of one invocation, whose idle SIMD lanes lavapipe did not keep
// out (docs/wave-model.md, "Idle invocations return"): only lane 0 of each
// wave wrote its output.
//! run lds_stage global=256 local=64
//! arg rand:256
//! arg rand:256
//! arg zero:1024
//! out 2
kernel void lds_stage(global const uint *in, constant uint *tab, global uint *out) {
    uint lid = get_local_id(0), lsz = get_local_size(0), gid = get_global_id(0);
    local uint s[256];
    for (uint i = lid; i < 256; i += lsz)
        s[i] = tab[i] ^ 0x5a5a5a5au;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint x = in[gid];
    for (int r = 0; r < 4; r++)
        x = s[x & 255] ^ (x >> 8) ^ s[(x >> 24) & 255];
    out[gid] = x;
}

#!/usr/bin/env python3
"""Writes microbench.s: the timing model's microbenchmarks as hand-written gfx942 kernels.

Each kernel reproduces one figure of /work/shared/reference/timing.md (the figure and its
tolerance are in tests/sim/timing/test_timing_microbench.cpp). Every kernel takes
(global buffer, u32) arguments so one host harness launches them all. Run:
    python3 bench/timing/gen_microbench.py > bench/timing/microbench.s
and profile one with e.g.
    hipasm-sim profile microbench.co mfma_dep_32x32x8_bf16 --grid 1 --block 64 --arg out=/dev/null:64 --arg u32=0
"""

kernels = []  # (name, body lines, vgprs, agprs, lds bytes)


def k(name, body, vgprs=32, agprs=32, lds=0):
    kernels.append((name, body, vgprs, agprs, lds))


N = 64
# --- VALU and transcendental rates (T3): independent ops, one wave.
k("valu_fma", [f"v_fma_f32 v{2 + i % 8}, v0, v0, v{2 + i % 8}" for i in range(N)])
k("valu_chain", ["v_add_u32 v1, v1, v0"] * N)
k("trans_exp", [f"v_exp_f32 v{2 + i % 8}, v0" for i in range(N)])

# --- MFMA dependent latency (one accumulator) and throughput (four accumulators) (T4).
MFMA = {  # shape: (mnemonic, acc regs, A/B operands)
    "32x32x8_bf16": ("v_mfma_f32_32x32x8_bf16", 16, "v[0:1], v[2:3]"),
    "16x16x16_bf16": ("v_mfma_f32_16x16x16_bf16", 4, "v[0:1], v[2:3]"),
    "4x4x4_16b_f16": ("v_mfma_f32_4x4x4_16b_f16", 4, "v[0:1], v[2:3]"),
    "32x32x16_fp8": ("v_mfma_f32_32x32x16_fp8_fp8", 16, "v[0:1], v[2:3]"),
    "16x16x32_fp8": ("v_mfma_f32_16x16x32_fp8_fp8", 4, "v[0:1], v[2:3]"),
    "16x16x32_i8": ("v_mfma_i32_16x16x32_i8", 4, "v[0:1], v[2:3]"),
    "32x32x2_f32": ("v_mfma_f32_32x32x2_f32", 16, "v0, v1"),
    "16x16x4_f32": ("v_mfma_f32_16x16x4_f32", 4, "v0, v1"),
    "16x16x4_f64": ("v_mfma_f64_16x16x4_f64", 8, "v[0:1], v[2:3]"),
}
M = 32
for shape, (mn, acc, ab) in MFMA.items():
    dep = [f"{mn} a[0:{acc - 1}], {ab}, a[0:{acc - 1}]"]
    if shape.startswith("4x4"):  # a 2-pass producer needs 2 wait states before SrcC (T4)
        dep.append("s_nop 1")
    k(f"mfma_dep_{shape}", dep * M, agprs=64)
    body = []
    for i in range(M):
        b = (i % 4) * acc
        body.append(f"{mn} a[{b}:{b + acc - 1}], {ab}, a[{b}:{b + acc - 1}]")
    k(f"mfma_tput_{shape}", body, agprs=64)

# --- MFMA + VALU co-execution (T4), 16x16x16 bf16 (16 cycles), rotating accumulators.
def mf(i):
    b = (i % 4) * 4
    return f"v_mfma_f32_16x16x16_bf16 a[{b}:{b + 3}], v[0:1], v[2:3], a[{b}:{b + 3}]"
G = 16
body = []
for g in range(G):
    body += [mf(2 * g), "v_add_f32 v4, v0, v4", "v_add_f32 v5, v0, v5", "v_add_f32 v6, v0, v6", mf(2 * g + 1), "v_exp_f32 v7, v0"]
k("coexec_mfma_3valu_mfma_exp", body, agprs=64)
body = []
for g in range(G):
    body += [mf(2 * g), mf(2 * g + 1), "v_add_f32 v4, v0, v4", "v_add_f32 v5, v0, v5", "v_add_f32 v6, v0, v6", "v_exp_f32 v7, v0"]
k("coexec_mfma_mfma_3valu_exp", body, agprs=64)
k("coexec_mfma_exp", sum([[mf(g), "v_exp_f32 v7, v0"] for g in range(G)], []), agprs=64)
k("coexec_mfma_4valu", sum([[mf(g)] + [f"v_add_f32 v{4 + j}, v0, v{4 + j}" for j in range(4)] for g in range(G)], []), agprs=64)

# --- LDS (T5): issue interval by bank-conflict degree, latency, b64/b128.
L = 32
for stride in (1, 2, 4, 8, 16, 32):  # dwords between lanes
    k(f"lds_b32_stride{stride}", [f"v_mul_u32_u24 v1, {4 * stride}, v0"] + ["ds_read_b32 v2, v1"] * L +
      ["s_waitcnt lgkmcnt(0)"], lds=65536)
for stride in (2, 4, 32):  # b64: 2 dwords per lane is conflict-free
    k(f"lds_b64_stride{stride}", [f"v_mul_u32_u24 v1, {4 * stride}, v0"] + ["ds_read_b64 v[2:3], v1"] * L +
      ["s_waitcnt lgkmcnt(0)"], lds=65536)
for stride in (4, 8, 32):  # b128: 4 dwords per lane is conflict-free
    k(f"lds_b128_stride{stride}", [f"v_mul_u32_u24 v1, {4 * stride}, v0"] + ["ds_read_b128 v[2:5], v1"] * L +
      ["s_waitcnt lgkmcnt(0)"], lds=65536)
k("lds_latency_b32", ["v_lshlrev_b32 v1, 2, v0"] + ["ds_read_b32 v2, v1", "s_waitcnt lgkmcnt(0)"] * L, lds=65536)
k("lds_latency_b128", ["v_lshlrev_b32 v1, 4, v0"] + ["ds_read_b128 v[2:5], v1", "s_waitcnt lgkmcnt(0)"] * L, lds=65536)
k("lds_write_b32", ["v_lshlrev_b32 v1, 2, v0"] + ["ds_write_b32 v1, v0"] * L + ["s_waitcnt lgkmcnt(0)"], lds=65536)
k("lds_write_b128", ["v_lshlrev_b32 v1, 4, v0"] + ["ds_write_b128 v1, v[4:7]"] * L + ["s_waitcnt lgkmcnt(0)"], lds=65536)

# --- Memory latency by pointer chasing (T6): buf holds a chain of 64-bit pointers; lane 0 only
# (launch with block 1). P steps: the host lays the chain over distinct 128-byte lines, twice.
P = 128
k("chase", ["s_load_dwordx2 s[2:3], s[0:1], 0x0", "s_waitcnt lgkmcnt(0)", "v_mov_b32 v2, s2", "v_mov_b32 v3, s3"] +
  ["global_load_dwordx2 v[2:3], v[2:3], off", "s_waitcnt vmcnt(0)"] * P)
k("chase_nt", ["s_load_dwordx2 s[2:3], s[0:1], 0x0", "s_waitcnt lgkmcnt(0)", "v_mov_b32 v2, s2", "v_mov_b32 v3, s3"] +
  ["global_load_dwordx2 v[2:3], v[2:3], off nt", "s_waitcnt vmcnt(0)"] * P)

# The same chase through the scalar cache (s_load, T1: 16 KiB per 2 CUs; one wave).
k("chase_scalar", ["s_load_dwordx2 s[2:3], s[0:1], 0x0", "s_waitcnt lgkmcnt(0)"] +
  ["s_load_dwordx2 s[2:3], s[2:3], 0x0", "s_waitcnt lgkmcnt(0)"] * P)

# --- Streaming read / copy bandwidth (T1, T6): each wave reads R x 1 KiB (dwordx4 per lane)
# at buf + (workgroup * waves + wave) * R KiB; the copy writes it back to the second half.
R = 8
stream = ["s_mov_b32 s8, s2", "s_load_dwordx2 s[2:3], s[0:1], 0x0", "s_load_dword s6, s[0:1], 0x8",
          "v_lshlrev_b32 v1, 4, v0",                              # lane * 16 (block 256: 4 waves)
          f"s_lshl_b32 s7, s8, {10 + 2 + (R - 1).bit_length()}",  # workgroup * 4 waves * R KiB
          "v_add_u32 v1, s7, v1", "s_waitcnt lgkmcnt(0)"]
reads = [f"global_load_dwordx4 v[{4 + 4 * i}:{7 + 4 * i}], v1, s[2:3] offset:{0}" for i in range(1)]
body_read = list(stream)
for i in range(R):
    body_read += [f"global_load_dwordx4 v[{4 + 4 * i}:{7 + 4 * i}], v1, s[2:3]", "v_add_u32 v1, 0x1000, v1"]
body_read += ["s_waitcnt vmcnt(0)"]
k("stream_read", body_read, vgprs=40)
# --- Loads to LDS (T6: buffer_load_dword ... lds ~11 cycles/instr per CU): one wave, L loads of
# the same 256 bytes through a raw buffer resource on buf, LDS base 0, after one load that brings
# them into the L1 (so each completes at its start on the path + the L1 latency).
k("vmem_lds_dword", ["s_load_dwordx2 s[4:5], s[0:1], 0x0", "s_mov_b32 s6, 0x1000", "s_mov_b32 s7, 0x27000",
                     "s_mov_b32 m0, 0", "v_lshlrev_b32 v1, 2, v0", "s_waitcnt lgkmcnt(0)"] +
  ["buffer_load_dword v1, s[4:7], 0 offen lds", "s_waitcnt vmcnt(0)"] +
  ["buffer_load_dword v1, s[4:7], 0 offen lds"] * L + ["s_waitcnt vmcnt(0)"], lds=65536)
body_copy = list(body_read) + ["v_add_u32 v1, s6, v1", f"v_subrev_u32 v1, {R * 0x1000}, v1"]
for i in range(R):
    body_copy += [f"global_store_dwordx4 v1, v[{4 + 4 * i}:{7 + 4 * i}], s[2:3]", "v_add_u32 v1, 0x1000, v1"]
body_copy += ["s_waitcnt vmcnt(0)"]
k("stream_copy", body_copy, vgprs=40)

# --- One L2 channel (sampling test): lane l of a workgroup's thread t reads line 16 t (all in
# channel 0 of 16, T1), L1 bypassed (nt), 32 times: every CU of an XCD queues on one channel.
k("l2_one_channel", ["s_load_dwordx2 s[2:3], s[0:1], 0x0", "v_lshlrev_b32 v1, 11, v0", "s_waitcnt lgkmcnt(0)"] +
  [f"global_load_dword v{2 + i % 8}, v1, s[2:3] nt" for i in range(32)] + ["s_waitcnt vmcnt(0)"])

# --- Infinity Cache (MALL) bandwidth (T1 256 MB; 17 TB/s): workgroup g (grid a multiple of 8)
# reads its 64 KiB block (each wave 16 x 1 KiB, dwordx4 per lane), then the blocks of groups
# g^1 .. g^7, which run on the 7 other XCDs (round-robin dispatch): every XCD reads every block
# once, so all but the first read of a line miss the XCD's L2 and hit the device-wide MALL.
RB = 16
body = ["s_mov_b32 s8, s2", "s_load_dwordx2 s[2:3], s[0:1], 0x0", "v_lshlrev_b32 v1, 4, v0",
        "s_lshl_b32 s7, s8, 16", "v_add_u32 v2, s7, v1", "s_waitcnt lgkmcnt(0)"]
def block_reads():
    r = []
    for i in range(RB):
        r += [f"global_load_dwordx4 v[{4 + 4 * i}:{7 + 4 * i}], v2, s[2:3]", "v_add_u32 v2, 0x1000, v2"]
    return r + ["s_waitcnt vmcnt(0)"]
body += block_reads()
for x in range(1, 8):
    body += [f"s_xor_b32 s9, s8, {x}", "s_lshl_b32 s9, s9, 16", "v_add_u32 v2, s9, v1"] + block_reads()
k("mall_reread", body, vgprs=72, agprs=0)

out = ['// Generated by bench/timing/gen_microbench.py: timing-model microbenchmarks (see there).',
       '\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"', '\t.amdhsa_code_object_version 6', '\t.text']
for name, body, v, a, lds in kernels:
    out += [f"\t.globl\t{name}", "\t.p2align\t8", f"\t.type\t{name},@function", f"{name}:"]
    out += ["\t" + l for l in body] + ["\ts_endpgm", f".L{name}_end:", f"\t.size\t{name}, .L{name}_end-{name}", ""]
out += ["\t.rodata"]
for name, body, v, a, lds in kernels:
    out += ["\t.p2align\t6", f"\t.amdhsa_kernel {name}", "\t\t.amdhsa_kernarg_size 16",
            "\t\t.amdhsa_user_sgpr_count 2", "\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1",
            "\t\t.amdhsa_system_sgpr_workgroup_id_x 1", f"\t\t.amdhsa_next_free_vgpr {v + a}",
            "\t\t.amdhsa_next_free_sgpr 16", f"\t\t.amdhsa_accum_offset {v}",
            f"\t\t.amdhsa_group_segment_fixed_size {lds}",
            "\t\t.amdhsa_float_denorm_mode_32 3", "\t\t.amdhsa_float_denorm_mode_16_64 3", "\t.end_amdhsa_kernel"]
out += ["\t.amdgpu_metadata", "---", "amdhsa.kernels:"]
for name, body, v, a, lds in kernels:
    out += ["  - .args:", "      - .address_space:  global", "        .offset:         0", "        .size:           8",
            "        .value_kind:     global_buffer", "      - .offset:         8", "        .size:           4",
            "        .value_kind:     by_value", f"    .group_segment_fixed_size: {lds}", "    .kernarg_segment_align: 8",
            "    .kernarg_segment_size: 16", "    .max_flat_workgroup_size: 1024", f"    .name:           {name}",
            "    .private_segment_fixed_size: 0", "    .sgpr_count:     16", "    .sgpr_spill_count: 0",
            f"    .symbol:         {name}.kd", f"    .vgpr_count:     {v + a}", "    .vgpr_spill_count: 0",
            "    .wavefront_size: 64"]
out += ["amdhsa.target:   amdgcn-amd-amdhsa--gfx942", "amdhsa.version:", "  - 1", "  - 2", "...", "\t.end_amdgpu_metadata"]
print("\n".join(out))

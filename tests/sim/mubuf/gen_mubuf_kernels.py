#!/usr/bin/env python3
"""Writes mubuf_range.s: one kernel per MUBUF access form that test_mubuf_range.cpp checks
against the CDNA3 range-checking rules. Every kernel takes the V# (16 bytes), the soffset, a
per-lane table of VADDR pairs (vaddr[lane] = {first VGPR, second VGPR}) and an output
buffer (16 bytes per lane). Run: python3 gen_mubuf_kernels.py > mubuf_range.s"""

PROLOGUE = """\
	s_load_dwordx4 s[8:11], s[0:1], 0x0
	s_load_dword s12, s[0:1], 0x10
	s_load_dwordx4 s[4:7], s[0:1], 0x18
	v_lshlrev_b32_e32 v1, 3, v0
	v_lshlrev_b32_e32 v3, 4, v0
	v_mov_b32_e32 v4, 0x5e5e5e5e
	v_mov_b32_e32 v5, 0x5e5e5e5e
	v_mov_b32_e32 v6, 0x5e5e5e5e
	v_mov_b32_e32 v7, 0x5e5e5e5e
	s_waitcnt lgkmcnt(0)
	global_load_dwordx2 v[20:21], v1, s[4:5]
	s_waitcnt vmcnt(0)
"""

STORE_OUT = """\
	s_waitcnt vmcnt(0)
	global_store_dwordx4 v3, v[4:7], s[6:7]
	s_endpgm
"""

LANE_DATA = """\
	v_lshlrev_b32_e32 v4, 2, v0
	v_add_u32_e32 v4, 1, v4
	v_add_u32_e32 v5, 1, v4
	v_add_u32_e32 v6, 2, v4
	v_add_u32_e32 v7, 3, v4
"""

KERNELS = {
    # loads: out-of-range dwords must become 0 (the sentinel 0x5e5e5e5e must be overwritten)
    "mubuf_load_x4_offen": "\tbuffer_load_dwordx4 v[4:7], v20, s[8:11], s12 offen offset:16\n" + STORE_OUT,
    "mubuf_load_x4_idxen": "\tbuffer_load_dwordx4 v[4:7], v20, s[8:11], s12 idxen offset:4\n" + STORE_OUT,
    "mubuf_load_x4_idxen_offen": "\tbuffer_load_dwordx4 v[4:7], v[20:21], s[8:11], s12 idxen offen\n" + STORE_OUT,
    "mubuf_load_x2_offen": "\tbuffer_load_dwordx2 v[4:5], v20, s[8:11], s12 offen\n" + STORE_OUT,
    "mubuf_load_ushort_offen": "\tbuffer_load_ushort v4, v20, s[8:11], s12 offen\n" + STORE_OUT,
    # stores: lane L writes L*4+1 .. L*4+4; out-of-range dwords are dropped
    "mubuf_store_x4_offen": LANE_DATA + "\tbuffer_store_dwordx4 v[4:7], v20, s[8:11], s12 offen offset:16\n"
                            "\ts_waitcnt vmcnt(0)\n\ts_endpgm\n",
    # atomics with return: lane L adds L+1; out of range: memory unchanged, 0 returned
    "mubuf_atomic_add_offen": "\tv_add_u32_e32 v4, 1, v0\n"
                              "\tbuffer_atomic_add v4, v20, s[8:11], s12 offen sc0\n" + STORE_OUT,
    "mubuf_atomic_add_x2_offen": "\tv_add_u32_e32 v4, 1, v0\n\tv_mov_b32_e32 v5, 0\n"
                                 "\tbuffer_atomic_add_x2 v[4:5], v20, s[8:11], s12 offen sc0\n" + STORE_OUT,
    # LDS-DMA: LDS[4 * lane] is preset to the sentinel, then loaded through the V#
    "mubuf_load_lds_offen": "\tv_lshlrev_b32_e32 v2, 2, v0\n"
                            "\tds_write_b32 v2, v4\n"
                            "\ts_waitcnt lgkmcnt(0)\n"
                            "\ts_mov_b32 m0, 0\n"
                            "\ts_nop 0\n"
                            "\tbuffer_load_dword v20, s[8:11], s12 offen lds\n"
                            "\ts_waitcnt vmcnt(0)\n"
                            "\tds_read_b32 v4, v2\n"
                            "\ts_waitcnt lgkmcnt(0)\n"
                            "\tglobal_store_dwordx4 v3, v[4:7], s[6:7]\n"
                            "\ts_endpgm\n",
    # LDS-DMA with M0 bit 18 set: the LDS address takes M0[17:0] (0 here), so LDS[4 * lane]
    "mubuf_load_lds_m0_bit18": "\tv_lshlrev_b32_e32 v2, 2, v0\n"
                               "\tds_write_b32 v2, v4\n"
                               "\ts_waitcnt lgkmcnt(0)\n"
                               "\ts_mov_b32 m0, 0x40000\n"
                               "\ts_nop 0\n"
                               "\tbuffer_load_dword v20, s[8:11], s12 offen lds\n"
                               "\ts_waitcnt vmcnt(0)\n"
                               "\tds_read_b32 v4, v2\n"
                               "\ts_waitcnt lgkmcnt(0)\n"
                               "\tglobal_store_dwordx4 v3, v[4:7], s[6:7]\n"
                               "\ts_endpgm\n",
}

DESC = """\
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel {name}
		.amdhsa_group_segment_fixed_size 256
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 40
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 32
		.amdhsa_next_free_sgpr 16
		.amdhsa_accum_offset 32
		.amdhsa_reserve_vcc 1
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
	.end_amdhsa_kernel
	.text
"""

META = """\
  - .args:
      - .name:           rsrc
        .offset:         0
        .size:           16
        .value_kind:     by_value
      - .name:           soffset
        .offset:         16
        .size:           4
        .value_kind:     by_value
      - .address_space:  global
        .name:           vaddr
        .offset:         24
        .size:           8
        .value_kind:     global_buffer
      - .address_space:  global
        .name:           out
        .offset:         32
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 256
    .kernarg_segment_align: 8
    .kernarg_segment_size: 40
    .max_flat_workgroup_size: 64
    .name:           {name}
    .private_segment_fixed_size: 0
    .sgpr_count:     18
    .sgpr_spill_count: 0
    .symbol:         {name}.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     32
    .vgpr_spill_count: 0
    .wavefront_size: 64
"""


def main():
    out = ["\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"", "\t.amdhsa_code_object_version 6", "\t.text"]
    for name, body in KERNELS.items():
        out += [f"\t.globl\t{name}", "\t.p2align\t8", f"\t.type\t{name},@function", f"{name}:"]
        out.append((PROLOGUE + body).rstrip("\n"))
        out.append(DESC.format(name=name).rstrip("\n"))
        out.append("")
    out += ["\t.amdgpu_metadata", "---", "amdhsa.kernels:"]
    for name in KERNELS:
        out.append(META.format(name=name).rstrip("\n"))
    out += ["amdhsa.target:   amdgcn-amd-amdhsa--gfx942", "amdhsa.version:", "  - 1", "  - 2", "...",
            "\t.end_amdgpu_metadata"]
    print("\n".join(out))


if __name__ == "__main__":
    main()

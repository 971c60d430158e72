// Hand-written gfx942 kernels for tests/sim/test_scalar.cpp and test_dispatch.cpp.
// salu_ops: SALU instructions clang seldom emits; each result lands in s4..s75 and is
// stored with s_store_dwordx4 to out[0..71] (out[i] = s(4+i)).
// bad_encoding: a word that is no gfx942 instruction.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 6
	.text
	.globl	salu_ops
	.p2align	8
	.type	salu_ops,@function
salu_ops:

	s_load_dwordx4 s[0:3], s[0:1], 0x0
	s_waitcnt lgkmcnt(0)
	s_bfe_u32 s4, s2, 0x80004
	s_bfe_i32 s5, s2, 0x50003
	s_bfm_b32 s6, 5, 7
	s_bitcmp1_b32 s2, 3
	s_cselect_b32 s7, 1, 0
	s_quadmask_b32 s8, s2
	s_wqm_b32 s9, s2
	s_flbit_i32 s10, s2
	s_ff0_i32_b32 s11, s2
	s_bcnt0_i32_b32 s12, s2
	s_absdiff_i32 s13, s2, s3
	s_lshl3_add_u32 s14, s2, s3
	s_cselect_b32 s15, 1, 0
	s_pack_lh_b32_b16 s16, s2, s3
	s_pack_hh_b32_b16 s17, s2, s3
	s_mov_b32 s18, s2
	s_bitset1_b32 s18, s3
	s_mov_b32 s19, s2
	s_bitset0_b32 s19, 2
	s_mul_hi_i32 s20, s2, s3
	s_not_b32 s21, s2
	s_xnor_b32 s22, s2, s3
	s_nand_b32 s23, s2, s3
	s_nor_b32 s24, s2, s3
	s_brev_b32 s25, s3
	s_add_i32 s26, s2, s3
	s_cselect_b32 s27, 1, 0
	s_sub_u32 s28, s2, s3
	s_cselect_b32 s29, 1, 0
	s_movk_i32 s30, 0x8001
	s_mov_b32 s31, s2
	s_addk_i32 s31, 0x7fff
	s_cselect_b32 s32, 1, 0
	s_mov_b32 s33, s2
	s_mulk_i32 s33, 0xfffd
	s_cmpk_lt_u32 s2, 0x8000
	s_cselect_b32 s34, 1, 0
	s_cmpk_lt_i32 s2, 0x8000
	s_cselect_b32 s35, 1, 0
	s_mov_b64 s[36:37], exec
	s_mov_b32 s38, s2
	s_mov_b32 s39, s3
	s_andn2_saveexec_b64 s[40:41], s[38:39]
	s_cselect_b32 s42, 1, 0
	s_mov_b64 s[44:45], exec
	s_orn2_saveexec_b64 s[46:47], s[38:39]
	s_mov_b64 s[48:49], exec
	s_mov_b64 exec, s[36:37]
	s_flbit_i32_i64 s50, s[38:39]
	s_ff1_i32_b64 s51, s[38:39]
	s_bitreplicate_b64_b32 s[52:53], s2
	s_quadmask_b64 s[54:55], s[38:39]
	s_bfe_u64 s[56:57], s[38:39], 0x140010
	s_bfe_i64 s[58:59], s[38:39], 0x80018
	s_ashr_i64 s[60:61], s[38:39], 5
	s_mov_b32 m0, 3
	s_movrels_b32 s62, s4
	s_movreld_b32 s61, s3
	s_getreg_b32 s65, hwreg(HW_REG_MODE, 0, 8)
	s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 0xa
	s_getreg_b32 s66, hwreg(HW_REG_MODE, 0, 4)
	s_mov_b32 s70, 0
	s_call_b64 s[68:69], .Lsub
	s_branch .Lafter
.Lsub:
	s_mov_b32 s70, 77
	s_setpc_b64 s[68:69]
.Lafter:
	s_add_u32 s71, s70, 1
	s_xor_saveexec_b64 s[72:73], 0
	s_cselect_b32 s74, 1, 0
	s_mov_b64 exec, s[36:37]
	s_lshl4_add_u32 s75, s3, s2
	// the stores' unused slots: registers start undefined
	s_mov_b32 s43, 0
	s_mov_b32 s63, 0
	s_mov_b32 s67, 0
	s_store_dwordx4 s[4:7], s[0:1], 0x0
	s_store_dwordx4 s[8:11], s[0:1], 0x10
	s_store_dwordx4 s[12:15], s[0:1], 0x20
	s_store_dwordx4 s[16:19], s[0:1], 0x30
	s_store_dwordx4 s[20:23], s[0:1], 0x40
	s_store_dwordx4 s[24:27], s[0:1], 0x50
	s_store_dwordx4 s[28:31], s[0:1], 0x60
	s_store_dwordx4 s[32:35], s[0:1], 0x70
	s_store_dwordx4 s[36:39], s[0:1], 0x80
	s_store_dwordx4 s[40:43], s[0:1], 0x90
	s_store_dwordx4 s[44:47], s[0:1], 0xa0
	s_store_dwordx4 s[48:51], s[0:1], 0xb0
	s_store_dwordx4 s[52:55], s[0:1], 0xc0
	s_store_dwordx4 s[56:59], s[0:1], 0xd0
	s_store_dwordx4 s[60:63], s[0:1], 0xe0
	s_store_dwordx4 s[64:67], s[0:1], 0xf0
	s_store_dwordx4 s[68:71], s[0:1], 0x100
	s_store_dwordx4 s[72:75], s[0:1], 0x110
	s_waitcnt lgkmcnt(0)
	s_dcache_wb
	s_endpgm

.Lend_salu_ops:
	.size	salu_ops, .Lend_salu_ops-salu_ops
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel salu_ops
		.amdhsa_kernarg_size 16
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 80
		.amdhsa_accum_offset 4
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
	.end_amdhsa_kernel

	.text
	.globl	bad_encoding
	.p2align	8
	.type	bad_encoding,@function
bad_encoding:
	s_mov_b32 s4, 1
	.long 0xffffffff
	s_endpgm

.Lend_bad_encoding:
	.size	bad_encoding, .Lend_bad_encoding-bad_encoding
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel bad_encoding
		.amdhsa_kernarg_size 16
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 4
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .offset:         8
        .size:           4
        .value_kind:     by_value
      - .offset:         12
        .size:           4
        .value_kind:     by_value
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 1024
    .name:           salu_ops
    .private_segment_fixed_size: 0
    .sgpr_count:     80
    .sgpr_spill_count: 0
    .symbol:         salu_ops.kd
    .vgpr_count:     4
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .offset:         8
        .size:           4
        .value_kind:     by_value
      - .offset:         12
        .size:           4
        .value_kind:     by_value
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 1024
    .name:           bad_encoding
    .private_segment_fixed_size: 0
    .sgpr_count:     8
    .sgpr_spill_count: 0
    .symbol:         bad_encoding.kd
    .vgpr_count:     4
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata

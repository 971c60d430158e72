// The four checker rules AMD's production kernels break (aiter's fmha / GEMM code objects),
// in the shapes they have there, three times per wave (a loop): for test_checker_allow.cpp.
//   hazard valu-sgpr-valu  v_readlane_b32 s20 then v_mov_b32 v16, s20 with no wait state
//   hazard salu-m0         s_add_u32 m0 right before buffer_load_dword ... lds
//   hazard mfma-read       an MFMA result read 2 wait states after the MFMA
//   hazard mfma-waw        an MFMA result overwritten 2 wait states after the MFMA
// out[lane] = 4 (v16 = lane 1's v1) proves the run went to the end.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 6
	.text
	.globl	amd_patterns
	.p2align	8
	.type	amd_patterns,@function
amd_patterns:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	v_lshlrev_b32_e32 v1, 2, v0
	v_mov_b32_e32 v4, 1.0
	v_mov_b32_e32 v5, 1.0
	s_waitcnt lgkmcnt(0)
	s_mov_b32 s8, s2
	s_and_b32 s9, s3, 0xffff
	s_mov_b32 s10, -1
	s_mov_b32 s11, 0x20000
	s_mov_b32 s12, 3
	s_mov_b32 s42, 0
	s_nop 7
.Lloop:
	v_readlane_b32 s20, v1, 1
	v_mov_b32_e32 v16, s20
	s_add_u32 m0, s42, 0
	buffer_load_dword v1, s[8:11], 0 offen lds
	s_waitcnt vmcnt(0)
	v_mfma_f32_32x32x8_f16 a[0:15], v[4:5], v[4:5], 0
	s_nop 1
	v_accvgpr_read_b32 v8, a3
	s_nop 7
	s_nop 7
	s_nop 7
	v_mfma_f32_32x32x8_f16 a[0:15], v[4:5], v[4:5], 0
	s_nop 1
	v_accvgpr_write_b32 a0, v1
	s_nop 7
	s_nop 7
	s_nop 7
	s_sub_u32 s12, s12, 1
	s_cmp_lg_u32 s12, 0
	s_cbranch_scc1 .Lloop
	global_store_dword v1, v16, s[2:3]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel amd_patterns
		.amdhsa_group_segment_fixed_size 4096
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 64
		.amdhsa_next_free_sgpr 48
		.amdhsa_accum_offset 32
		.amdhsa_reserve_vcc 1
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
	.end_amdhsa_kernel
	.text

	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     32
    .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 4096
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           amd_patterns
    .private_segment_fixed_size: 0
    .sgpr_count:     54
    .sgpr_spill_count: 0
    .symbol:         amd_patterns.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     64
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata

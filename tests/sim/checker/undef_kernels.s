// Kernels for the checker's definedness rules (test_checker_undef.cpp): <name>_bad uses an
// undefined value where the hardware would show it, <name>_ok reads undefined registers only
// where the result cannot depend on them. Each takes `out` (>= 256 bytes); v1 = lane * 4.
// s[8:11] is a buffer resource over out with num_records 256.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 6
	.text
	.globl	undef_addr_bad
	.p2align	8
	.type	undef_addr_bad,@function
undef_addr_bad:
	s_load_dwordx2 s[2:3], s[0:1], 0x0 ; store.hip:7
	v_lshlrev_b32_e32 v1, 2, v0
	v_mov_b32_e32 v4, 1.0
	s_waitcnt lgkmcnt(0)
	s_mov_b32 s8, s2
	s_and_b32 s9, s3, 0xffff
	s_mov_b32 s10, 256
	s_mov_b32 s11, 0x20000
	buffer_store_dword v1, v9, s[8:11], 0 offen ; store.hip:12 out
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel undef_addr_bad
		.amdhsa_group_segment_fixed_size 4096
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 16
		.amdhsa_next_free_sgpr 48
		.amdhsa_accum_offset 16
		.amdhsa_reserve_vcc 1
	.end_amdhsa_kernel
	.text
	.globl	undef_partial_bad
	.p2align	8
	.type	undef_partial_bad,@function
undef_partial_bad:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	v_lshlrev_b32_e32 v1, 2, v0
	v_mov_b32_e32 v4, 1.0
	s_waitcnt lgkmcnt(0)
	s_mov_b32 s8, s2
	s_and_b32 s9, s3, 0xffff
	s_mov_b32 s10, 256
	s_mov_b32 s11, 0x20000
	s_mov_b64 exec, 0xffff
	v_mov_b32_e32 v9, 7
	s_mov_b64 exec, -1
	global_store_dword v1, v9, s[2:3]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel undef_partial_bad
		.amdhsa_group_segment_fixed_size 4096
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 16
		.amdhsa_next_free_sgpr 48
		.amdhsa_accum_offset 16
		.amdhsa_reserve_vcc 1
	.end_amdhsa_kernel
	.text
	.globl	undef_lds_bad
	.p2align	8
	.type	undef_lds_bad,@function
undef_lds_bad:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	v_lshlrev_b32_e32 v1, 2, v0
	v_mov_b32_e32 v4, 1.0
	s_waitcnt lgkmcnt(0)
	s_mov_b32 s8, s2
	s_and_b32 s9, s3, 0xffff
	s_mov_b32 s10, 256
	s_mov_b32 s11, 0x20000
	ds_write_b32 v1, v4 offset:512
	s_waitcnt lgkmcnt(0)
	ds_read_b32 v9, v1
	s_waitcnt lgkmcnt(0)
	global_store_dword v1, v9, s[2:3]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel undef_lds_bad
		.amdhsa_group_segment_fixed_size 4096
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 16
		.amdhsa_next_free_sgpr 48
		.amdhsa_accum_offset 16
		.amdhsa_reserve_vcc 1
	.end_amdhsa_kernel
	.text
	.globl	undef_lds_ok
	.p2align	8
	.type	undef_lds_ok,@function
undef_lds_ok:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	v_lshlrev_b32_e32 v1, 2, v0
	v_mov_b32_e32 v4, 1.0
	s_waitcnt lgkmcnt(0)
	s_mov_b32 s8, s2
	s_and_b32 s9, s3, 0xffff
	s_mov_b32 s10, 256
	s_mov_b32 s11, 0x20000
	ds_write_b32 v1, v4
	s_waitcnt lgkmcnt(0)
	ds_read_b32 v9, v1
	s_waitcnt lgkmcnt(0)
	global_store_dword v1, v9, s[2:3]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel undef_lds_ok
		.amdhsa_group_segment_fixed_size 4096
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 16
		.amdhsa_next_free_sgpr 48
		.amdhsa_accum_offset 16
		.amdhsa_reserve_vcc 1
	.end_amdhsa_kernel
	.text
	.globl	undef_dpp_ok
	.p2align	8
	.type	undef_dpp_ok,@function
undef_dpp_ok:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	v_lshlrev_b32_e32 v1, 2, v0
	v_mov_b32_e32 v4, 1.0
	s_waitcnt lgkmcnt(0)
	s_mov_b32 s8, s2
	s_and_b32 s9, s3, 0xffff
	s_mov_b32 s10, 256
	s_mov_b32 s11, 0x20000
	v_mov_b32_dpp v9, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
	s_nop 1
	global_store_dword v1, v9, s[2:3]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel undef_dpp_ok
		.amdhsa_group_segment_fixed_size 4096
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 16
		.amdhsa_next_free_sgpr 48
		.amdhsa_accum_offset 16
		.amdhsa_reserve_vcc 1
	.end_amdhsa_kernel
	.text
	.globl	undef_mad64_lo_ok
	.p2align	8
	.type	undef_mad64_lo_ok,@function
undef_mad64_lo_ok:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	v_lshlrev_b32_e32 v1, 2, v0
	v_mov_b32_e32 v2, 5
	s_waitcnt lgkmcnt(0)
	v_mad_u64_u32 v[8:9], s[4:5], v0, 3, v[2:3]
	global_store_dword v1, v8, s[2:3]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel undef_mad64_lo_ok
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 16
		.amdhsa_next_free_sgpr 48
		.amdhsa_accum_offset 16
		.amdhsa_reserve_vcc 1
	.end_amdhsa_kernel
	.text
	.globl	undef_dpp_bad
	.p2align	8
	.type	undef_dpp_bad,@function
undef_dpp_bad:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	v_lshlrev_b32_e32 v1, 2, v0
	v_mov_b32_e32 v4, 1.0
	s_waitcnt lgkmcnt(0)
	s_mov_b32 s8, s2
	s_and_b32 s9, s3, 0xffff
	s_mov_b32 s10, 256
	s_mov_b32 s11, 0x20000
	v_mov_b32_dpp v9, v1 row_shr:1 row_mask:0xf bank_mask:0xf
	s_nop 1
	global_store_dword v1, v9, s[2:3]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel undef_dpp_bad
		.amdhsa_group_segment_fixed_size 4096
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 16
		.amdhsa_next_free_sgpr 48
		.amdhsa_accum_offset 16
		.amdhsa_reserve_vcc 1
	.end_amdhsa_kernel
	.text
	.globl	undef_inactive_ok
	.p2align	8
	.type	undef_inactive_ok,@function
undef_inactive_ok:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	v_lshlrev_b32_e32 v1, 2, v0
	v_mov_b32_e32 v4, 1.0
	s_waitcnt lgkmcnt(0)
	s_mov_b32 s8, s2
	s_and_b32 s9, s3, 0xffff
	s_mov_b32 s10, 256
	s_mov_b32 s11, 0x20000
	v_cmp_gt_u32_e32 vcc, 32, v0
	s_and_saveexec_b64 s[20:21], vcc
	v_mov_b32_e32 v9, v1
	global_store_dword v1, v9, s[2:3]
	s_or_b64 exec, exec, s[20:21]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel undef_inactive_ok
		.amdhsa_group_segment_fixed_size 4096
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 16
		.amdhsa_next_free_sgpr 48
		.amdhsa_accum_offset 16
		.amdhsa_reserve_vcc 1
	.end_amdhsa_kernel
	.text
	.globl	undef_cndmask_ok
	.p2align	8
	.type	undef_cndmask_ok,@function
undef_cndmask_ok:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	v_lshlrev_b32_e32 v1, 2, v0
	v_mov_b32_e32 v4, 1.0
	s_waitcnt lgkmcnt(0)
	s_mov_b32 s8, s2
	s_and_b32 s9, s3, 0xffff
	s_mov_b32 s10, 256
	s_mov_b32 s11, 0x20000
	v_cmp_gt_u32_e32 vcc, 32, v0
	s_and_saveexec_b64 s[20:21], vcc
	v_mov_b32_e32 v9, v1
	s_or_b64 exec, exec, s[20:21]
	v_cndmask_b32_e32 v10, 0, v9, vcc
	global_store_dword v1, v10, s[2:3]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel undef_cndmask_ok
		.amdhsa_group_segment_fixed_size 4096
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 16
		.amdhsa_next_free_sgpr 48
		.amdhsa_accum_offset 16
		.amdhsa_reserve_vcc 1
	.end_amdhsa_kernel
	.text
	.globl	undef_branch_bad
	.p2align	8
	.type	undef_branch_bad,@function
undef_branch_bad:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	v_lshlrev_b32_e32 v1, 2, v0
	v_mov_b32_e32 v4, 1.0
	s_waitcnt lgkmcnt(0)
	s_mov_b32 s8, s2
	s_and_b32 s9, s3, 0xffff
	s_mov_b32 s10, 256
	s_mov_b32 s11, 0x20000
	s_cmp_eq_u32 s30, 0
	s_cbranch_scc1 .Lskip_undef_branch_bad
	v_mov_b32_e32 v9, 0
.Lskip_undef_branch_bad:
	global_store_dword v1, v1, s[2:3]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel undef_branch_bad
		.amdhsa_group_segment_fixed_size 4096
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 16
		.amdhsa_next_free_sgpr 48
		.amdhsa_accum_offset 16
		.amdhsa_reserve_vcc 1
	.end_amdhsa_kernel
	.text
	.globl	undef_exec_bad
	.p2align	8
	.type	undef_exec_bad,@function
undef_exec_bad:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	v_lshlrev_b32_e32 v1, 2, v0
	v_mov_b32_e32 v4, 1.0
	s_waitcnt lgkmcnt(0)
	s_mov_b32 s8, s2
	s_and_b32 s9, s3, 0xffff
	s_mov_b32 s10, 256
	s_mov_b32 s11, 0x20000
	v_cmp_eq_u32_e32 vcc, v9, v1
	s_and_saveexec_b64 s[20:21], vcc
	global_store_dword v1, v1, s[2:3]
	s_or_b64 exec, exec, s[20:21]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel undef_exec_bad
		.amdhsa_group_segment_fixed_size 4096
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 16
		.amdhsa_next_free_sgpr 48
		.amdhsa_accum_offset 16
		.amdhsa_reserve_vcc 1
	.end_amdhsa_kernel
	.text
	.globl	undef_halves_ok
	.p2align	8
	.type	undef_halves_ok,@function
undef_halves_ok:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	v_lshlrev_b32_e32 v1, 2, v0
	s_waitcnt lgkmcnt(0)
	s_mov_b32 s8, s2
	s_and_b32 s9, s3, 0xffff
	s_mov_b32 s10, 256
	s_mov_b32 s11, 0x20000
	buffer_load_short_d16 v9, v1, s[8:11], 0 offen   // v9: low half loaded, high half undefined
	s_waitcnt vmcnt(0)
	v_lshlrev_b32_e32 v10, 16, v9                    // bf16 -> f32 as aiter's topksoftmax: high half shifted out
	v_and_b32_e32 v11, 0xffff, v9
	v_bfe_u32 v12, v9, 0, 16
	v_mov_b32_e32 v13, v9
	v_lshl_or_b32 v13, v13, 16, v11
	s_mov_b32 vcc_lo, 0x55555555
	s_mov_b32 vcc_hi, 0x55555555
	v_cndmask_b32_e32 v14, v10, v9, vcc              // low half defined from either input
	v_lshlrev_b32_e32 v14, 16, v14
	v_bfe_i32 v2, v9, 0, 16                          // sign-extended from bit 15, in the low half
	v_or_b32_e32 v3, 0xffff0000, v9
	s_mov_b32 s12, 0xffff
	v_and_or_b32 v4, v9, s12, v10
	global_store_dword v1, v2, s[2:3]
	global_store_dword v1, v3, s[2:3]
	global_store_dword v1, v4, s[2:3]
	global_store_dword v1, v10, s[2:3]
	global_store_dword v1, v11, s[2:3]
	global_store_dword v1, v12, s[2:3]
	global_store_dword v1, v13, s[2:3]
	global_store_dword v1, v14, s[2:3]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel undef_halves_ok
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 16
		.amdhsa_next_free_sgpr 48
		.amdhsa_accum_offset 16
		.amdhsa_reserve_vcc 1
	.end_amdhsa_kernel
	.text
	.globl	undef_halves_bad
	.p2align	8
	.type	undef_halves_bad,@function
undef_halves_bad:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	v_lshlrev_b32_e32 v1, 2, v0
	s_waitcnt lgkmcnt(0)
	s_mov_b32 s8, s2
	s_and_b32 s9, s3, 0xffff
	s_mov_b32 s10, 256
	s_mov_b32 s11, 0x20000
	buffer_load_short_d16 v9, v1, s[8:11], 0 offen   // v9: low half loaded, high half undefined
	s_waitcnt vmcnt(0)
	v_lshrrev_b32_e32 v10, 16, v9                    // the undefined high half moves to the low half
	global_store_dword v1, v10, s[2:3]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel undef_halves_bad
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 16
		.amdhsa_next_free_sgpr 48
		.amdhsa_accum_offset 16
		.amdhsa_reserve_vcc 1
	.end_amdhsa_kernel
	.text

	.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 4096
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           undef_addr_bad
    .private_segment_fixed_size: 0
    .sgpr_count:     54
    .sgpr_spill_count: 0
    .symbol:         undef_addr_bad.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 4096
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           undef_partial_bad
    .private_segment_fixed_size: 0
    .sgpr_count:     54
    .sgpr_spill_count: 0
    .symbol:         undef_partial_bad.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 4096
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           undef_lds_bad
    .private_segment_fixed_size: 0
    .sgpr_count:     54
    .sgpr_spill_count: 0
    .symbol:         undef_lds_bad.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 4096
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           undef_lds_ok
    .private_segment_fixed_size: 0
    .sgpr_count:     54
    .sgpr_spill_count: 0
    .symbol:         undef_lds_ok.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 4096
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           undef_dpp_ok
    .private_segment_fixed_size: 0
    .sgpr_count:     54
    .sgpr_spill_count: 0
    .symbol:         undef_dpp_ok.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           undef_mad64_lo_ok
    .private_segment_fixed_size: 0
    .sgpr_count:     54
    .sgpr_spill_count: 0
    .symbol:         undef_mad64_lo_ok.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 4096
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           undef_dpp_bad
    .private_segment_fixed_size: 0
    .sgpr_count:     54
    .sgpr_spill_count: 0
    .symbol:         undef_dpp_bad.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 4096
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           undef_inactive_ok
    .private_segment_fixed_size: 0
    .sgpr_count:     54
    .sgpr_spill_count: 0
    .symbol:         undef_inactive_ok.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 4096
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           undef_cndmask_ok
    .private_segment_fixed_size: 0
    .sgpr_count:     54
    .sgpr_spill_count: 0
    .symbol:         undef_cndmask_ok.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 4096
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           undef_branch_bad
    .private_segment_fixed_size: 0
    .sgpr_count:     54
    .sgpr_spill_count: 0
    .symbol:         undef_branch_bad.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 4096
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           undef_exec_bad
    .private_segment_fixed_size: 0
    .sgpr_count:     54
    .sgpr_spill_count: 0
    .symbol:         undef_exec_bad.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           undef_halves_ok
    .private_segment_fixed_size: 0
    .sgpr_count:     54
    .sgpr_spill_count: 0
    .symbol:         undef_halves_ok.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           undef_halves_bad
    .private_segment_fixed_size: 0
    .sgpr_count:     54
    .sgpr_spill_count: 0
    .symbol:         undef_halves_bad.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata

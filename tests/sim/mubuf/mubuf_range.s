	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 6
	.text
	.globl	mubuf_load_x4_offen
	.p2align	8
	.type	mubuf_load_x4_offen,@function
mubuf_load_x4_offen:
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
	buffer_load_dwordx4 v[4:7], v20, s[8:11], s12 offen offset:16
	s_waitcnt vmcnt(0)
	global_store_dwordx4 v3, v[4:7], s[6:7]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel mubuf_load_x4_offen
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

	.globl	mubuf_load_x4_idxen
	.p2align	8
	.type	mubuf_load_x4_idxen,@function
mubuf_load_x4_idxen:
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
	buffer_load_dwordx4 v[4:7], v20, s[8:11], s12 idxen offset:4
	s_waitcnt vmcnt(0)
	global_store_dwordx4 v3, v[4:7], s[6:7]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel mubuf_load_x4_idxen
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

	.globl	mubuf_load_x4_idxen_offen
	.p2align	8
	.type	mubuf_load_x4_idxen_offen,@function
mubuf_load_x4_idxen_offen:
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
	buffer_load_dwordx4 v[4:7], v[20:21], s[8:11], s12 idxen offen
	s_waitcnt vmcnt(0)
	global_store_dwordx4 v3, v[4:7], s[6:7]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel mubuf_load_x4_idxen_offen
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

	.globl	mubuf_load_x2_offen
	.p2align	8
	.type	mubuf_load_x2_offen,@function
mubuf_load_x2_offen:
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
	buffer_load_dwordx2 v[4:5], v20, s[8:11], s12 offen
	s_waitcnt vmcnt(0)
	global_store_dwordx4 v3, v[4:7], s[6:7]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel mubuf_load_x2_offen
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

	.globl	mubuf_load_ushort_offen
	.p2align	8
	.type	mubuf_load_ushort_offen,@function
mubuf_load_ushort_offen:
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
	buffer_load_ushort v4, v20, s[8:11], s12 offen
	s_waitcnt vmcnt(0)
	global_store_dwordx4 v3, v[4:7], s[6:7]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel mubuf_load_ushort_offen
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

	.globl	mubuf_store_x4_offen
	.p2align	8
	.type	mubuf_store_x4_offen,@function
mubuf_store_x4_offen:
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
	v_lshlrev_b32_e32 v4, 2, v0
	v_add_u32_e32 v4, 1, v4
	v_add_u32_e32 v5, 1, v4
	v_add_u32_e32 v6, 2, v4
	v_add_u32_e32 v7, 3, v4
	buffer_store_dwordx4 v[4:7], v20, s[8:11], s12 offen offset:16
	s_waitcnt vmcnt(0)
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel mubuf_store_x4_offen
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

	.globl	mubuf_atomic_add_offen
	.p2align	8
	.type	mubuf_atomic_add_offen,@function
mubuf_atomic_add_offen:
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
	v_add_u32_e32 v4, 1, v0
	buffer_atomic_add v4, v20, s[8:11], s12 offen sc0
	s_waitcnt vmcnt(0)
	global_store_dwordx4 v3, v[4:7], s[6:7]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel mubuf_atomic_add_offen
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

	.globl	mubuf_atomic_add_x2_offen
	.p2align	8
	.type	mubuf_atomic_add_x2_offen,@function
mubuf_atomic_add_x2_offen:
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
	v_add_u32_e32 v4, 1, v0
	v_mov_b32_e32 v5, 0
	buffer_atomic_add_x2 v[4:5], v20, s[8:11], s12 offen sc0
	s_waitcnt vmcnt(0)
	global_store_dwordx4 v3, v[4:7], s[6:7]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel mubuf_atomic_add_x2_offen
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

	.globl	mubuf_load_lds_offen
	.p2align	8
	.type	mubuf_load_lds_offen,@function
mubuf_load_lds_offen:
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
	v_lshlrev_b32_e32 v2, 2, v0
	ds_write_b32 v2, v4
	s_waitcnt lgkmcnt(0)
	s_mov_b32 m0, 0
	s_nop 0
	buffer_load_dword v20, s[8:11], s12 offen lds
	s_waitcnt vmcnt(0)
	ds_read_b32 v4, v2
	s_waitcnt lgkmcnt(0)
	global_store_dwordx4 v3, v[4:7], s[6:7]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel mubuf_load_lds_offen
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

	.globl	mubuf_load_lds_m0_bit18
	.p2align	8
	.type	mubuf_load_lds_m0_bit18,@function
mubuf_load_lds_m0_bit18:
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
	v_lshlrev_b32_e32 v2, 2, v0
	ds_write_b32 v2, v4
	s_waitcnt lgkmcnt(0)
	s_mov_b32 m0, 0x40000
	s_nop 0
	buffer_load_dword v20, s[8:11], s12 offen lds
	s_waitcnt vmcnt(0)
	ds_read_b32 v4, v2
	s_waitcnt lgkmcnt(0)
	global_store_dwordx4 v3, v[4:7], s[6:7]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel mubuf_load_lds_m0_bit18
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

	.amdgpu_metadata
---
amdhsa.kernels:
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
    .name:           mubuf_load_x4_offen
    .private_segment_fixed_size: 0
    .sgpr_count:     18
    .sgpr_spill_count: 0
    .symbol:         mubuf_load_x4_offen.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     32
    .vgpr_spill_count: 0
    .wavefront_size: 64
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
    .name:           mubuf_load_x4_idxen
    .private_segment_fixed_size: 0
    .sgpr_count:     18
    .sgpr_spill_count: 0
    .symbol:         mubuf_load_x4_idxen.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     32
    .vgpr_spill_count: 0
    .wavefront_size: 64
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
    .name:           mubuf_load_x4_idxen_offen
    .private_segment_fixed_size: 0
    .sgpr_count:     18
    .sgpr_spill_count: 0
    .symbol:         mubuf_load_x4_idxen_offen.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     32
    .vgpr_spill_count: 0
    .wavefront_size: 64
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
    .name:           mubuf_load_x2_offen
    .private_segment_fixed_size: 0
    .sgpr_count:     18
    .sgpr_spill_count: 0
    .symbol:         mubuf_load_x2_offen.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     32
    .vgpr_spill_count: 0
    .wavefront_size: 64
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
    .name:           mubuf_load_ushort_offen
    .private_segment_fixed_size: 0
    .sgpr_count:     18
    .sgpr_spill_count: 0
    .symbol:         mubuf_load_ushort_offen.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     32
    .vgpr_spill_count: 0
    .wavefront_size: 64
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
    .name:           mubuf_store_x4_offen
    .private_segment_fixed_size: 0
    .sgpr_count:     18
    .sgpr_spill_count: 0
    .symbol:         mubuf_store_x4_offen.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     32
    .vgpr_spill_count: 0
    .wavefront_size: 64
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
    .name:           mubuf_atomic_add_offen
    .private_segment_fixed_size: 0
    .sgpr_count:     18
    .sgpr_spill_count: 0
    .symbol:         mubuf_atomic_add_offen.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     32
    .vgpr_spill_count: 0
    .wavefront_size: 64
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
    .name:           mubuf_atomic_add_x2_offen
    .private_segment_fixed_size: 0
    .sgpr_count:     18
    .sgpr_spill_count: 0
    .symbol:         mubuf_atomic_add_x2_offen.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     32
    .vgpr_spill_count: 0
    .wavefront_size: 64
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
    .name:           mubuf_load_lds_offen
    .private_segment_fixed_size: 0
    .sgpr_count:     18
    .sgpr_spill_count: 0
    .symbol:         mubuf_load_lds_offen.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     32
    .vgpr_spill_count: 0
    .wavefront_size: 64
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
    .name:           mubuf_load_lds_m0_bit18
    .private_segment_fixed_size: 0
    .sgpr_count:     18
    .sgpr_spill_count: 0
    .symbol:         mubuf_load_lds_m0_bit18.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     32
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata

// Hand-written gfx942 kernels for tests/sim/test_legacy.cpp: legacy and mode-changing control
// the compilers do not emit, run through the dispatcher. Each takes (uint* out, uint a, uint b).
// legacy_vgpr_index: s_set_gpr_idx_* and VALU operands offset by M0[7:0] (b == 1: out of range).
// legacy_vskip: s_setvskip skips vector instructions (a[3] decides the second s_setvskip).
// legacy_fork: s_cbranch_i_fork (b == 0) / s_cbranch_g_fork (b == 2) + s_cbranch_join on lanes
//   below a (b == 1: a join that underflows the branch stack).
// legacy_rfe: s_rfe_b64 and s_rfe_restore_b64 jump to S0.
// legacy_sscratch: vector scratch stores, then s_scratch_* on the wave view (b == 1: an
//   s_scratch_load at a * 64 bytes, out of range for a >= 64).
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 6
	.text
	.globl	legacy_vgpr_index
	.p2align	8
	.type	legacy_vgpr_index,@function
legacy_vgpr_index:
	s_load_dwordx4 s[24:27], s[0:1], 0x0     // out = s[24:25], a = s26, b = s27
	s_waitcnt lgkmcnt(0)
	v_lshlrev_b32 v9, 4, v0                   // v1..v8 = 16 * lane + k
	v_add_u32 v1, 1, v9
	v_add_u32 v2, 2, v9
	v_add_u32 v3, 3, v9
	v_add_u32 v4, 4, v9
	v_add_u32 v5, 5, v9
	v_add_u32 v6, 6, v9
	v_add_u32 v7, 7, v9
	v_add_u32 v8, 8, v9
	v_mov_b32 v13, 0
	s_mov_b32 m0, 0xabcd0000
	s_mov_b32 s30, 0x103                      // index = S0[7:0] = 3
	s_set_gpr_idx_on s30, gpr_idx(SRC0)
	s_mov_b32 s31, m0
	v_mov_b32 v20, v1                         // src0 indexed: v4
	v_mov_b32 v21, s26                        // an SGPR source is not indexed
	s_set_gpr_idx_mode gpr_idx(DST)
	v_mov_b32 v10, v1                         // dst indexed: v13 = v1
	s_set_gpr_idx_idx 2
	s_set_gpr_idx_mode gpr_idx(SRC0,SRC1,SRC2)
	v_mad_u32_u24 v22, v1, v2, v3             // v3 * v4 + v5
	v_add_u32 v23, v1, v2                     // v3 + v4
	s_mov_b32 s32, m0
	s_set_gpr_idx_off
	v_mov_b32 v24, v1                         // not indexed
	s_cmp_eq_u32 s27, 1
	s_cbranch_scc0 .Lvi_store
	s_set_gpr_idx_on 40, gpr_idx(DST)         // b == 1: v1 + 40 is beyond the 32 VGPRs
	v_mov_b32 v1, 0
.Lvi_store:
	v_lshlrev_b32 v30, 5, v0                  // out[8 * lane + j]
	v_mov_b32 v28, s31
	v_mov_b32 v29, s32
	global_store_dwordx4 v30, v[20:23], s[24:25]
	global_store_dword v30, v13, s[24:25] offset:16
	global_store_dword v30, v24, s[24:25] offset:20
	global_store_dword v30, v28, s[24:25] offset:24
	global_store_dword v30, v29, s[24:25] offset:28
	s_endpgm

.Lend_legacy_vgpr_index:
	.size	legacy_vgpr_index, .Lend_legacy_vgpr_index-legacy_vgpr_index
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel legacy_vgpr_index
		.amdhsa_kernarg_size 16
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 32
		.amdhsa_next_free_sgpr 48
		.amdhsa_accum_offset 32
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_enable_private_segment 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
	.end_amdhsa_kernel

	.text
	.globl	legacy_vskip
	.p2align	8
	.type	legacy_vskip,@function
legacy_vskip:
	s_load_dwordx4 s[24:27], s[0:1], 0x0
	s_waitcnt lgkmcnt(0)
	v_mov_b32 v1, 1
	v_mov_b32 v3, 0xdead
	v_lshlrev_b32 v30, 4, v0                  // out[4 * lane + j]
	v_add_u32 v31, 0x400, v30                 // out[256 + 4 * lane]: written only while skipped
	s_mov_b32 s30, 0
	s_setvskip 1, 0
	s_getreg_b32 s31, hwreg(HW_REG_MODE, 28, 1)
	v_mov_b32 v1, 2                           // skipped
	global_store_dword v31, v3, s[24:25]      // skipped
	ds_write_b32 v30, v3                      // skipped (no LDS allocated: would fault)
	s_add_u32 s30, s30, 5                     // scalar: runs
	s_setvskip s26, 3                         // VSKIP = a[3]
	s_getreg_b32 s32, hwreg(HW_REG_MODE, 28, 1)
	v_mov_b32 v4, v1
	v_mov_b32 v5, s30
	v_mov_b32 v6, s31
	v_mov_b32 v7, s32
	global_store_dwordx4 v30, v[4:7], s[24:25]
	s_endpgm

.Lend_legacy_vskip:
	.size	legacy_vskip, .Lend_legacy_vskip-legacy_vskip
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel legacy_vskip
		.amdhsa_kernarg_size 16
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 32
		.amdhsa_next_free_sgpr 48
		.amdhsa_accum_offset 32
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_enable_private_segment 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
	.end_amdhsa_kernel

	.text
	.globl	legacy_fork
	.p2align	8
	.type	legacy_fork,@function
legacy_fork:
	s_load_dwordx4 s[24:27], s[0:1], 0x0      // the stack lives in s[0:23]: kernel state above
	s_waitcnt lgkmcnt(0)
	s_mov_b32 s30, 0                          // path order, one nibble per path (fail 1, pass 2)
	s_getreg_b32 s20, hwreg(HW_REG_MODE, 29, 3)   // CSP before the fork
	s_cmp_eq_u32 s27, 1
	s_cbranch_scc1 .Lf_underflow
	v_cmp_gt_u32 vcc, s26, v0                 // lanes below a take the branch (mask_pass)
	s_mov_b64 s[22:23], exec
	s_cmp_eq_u32 s27, 2
	s_cbranch_scc1 .Lf_gfork
	s_cbranch_i_fork vcc, .Lf_pass
	s_branch .Lf_fail
.Lf_gfork:
	s_getpc_b64 s[28:29]
.Lf_pc:
	s_add_u32 s28, s28, .Lf_pass-.Lf_pc
	s_addc_u32 s29, s29, 0
	s_cbranch_g_fork vcc, s[28:29]
.Lf_fail:
	v_mov_b32 v2, 100
	s_lshl_b32 s30, s30, 4
	s_or_b32 s30, s30, 1
	s_branch .Lf_join
.Lf_pass:
	v_mov_b32 v2, 200
	s_lshl_b32 s30, s30, 4
	s_or_b32 s30, s30, 2
.Lf_join:
	s_cbranch_join s20
	s_mov_b64 exec, s[22:23]
	s_getreg_b32 s31, hwreg(HW_REG_MODE, 29, 3)
	s_lshl_b32 s31, s31, 16
	s_or_b32 s30, s30, s31
	v_mov_b32 v3, s30
	v_lshlrev_b32 v30, 3, v0                  // out[2 * lane + j]
	global_store_dwordx2 v30, v[2:3], s[24:25]
	s_endpgm
.Lf_underflow:
	s_mov_b32 s21, 1                          // CSP is 0, the saved CSP 1
	s_cbranch_join s21
	s_endpgm

.Lend_legacy_fork:
	.size	legacy_fork, .Lend_legacy_fork-legacy_fork
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel legacy_fork
		.amdhsa_kernarg_size 16
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 32
		.amdhsa_next_free_sgpr 48
		.amdhsa_accum_offset 32
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_enable_private_segment 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
	.end_amdhsa_kernel

	.text
	.globl	legacy_rfe
	.p2align	8
	.type	legacy_rfe,@function
legacy_rfe:
	s_load_dwordx4 s[24:27], s[0:1], 0x0
	s_waitcnt lgkmcnt(0)
	s_mov_b32 s30, 0
	s_getpc_b64 s[28:29]
.Lr_pc1:
	s_add_u32 s28, s28, .Lr_t1-.Lr_pc1
	s_addc_u32 s29, s29, 0
	s_rfe_b64 s[28:29]
	s_or_b32 s30, s30, 1                      // jumped over
.Lr_t1:
	s_or_b32 s30, s30, 2
	s_getpc_b64 s[28:29]
.Lr_pc2:
	s_add_u32 s28, s28, .Lr_t2-.Lr_pc2
	s_addc_u32 s29, s29, 0
	s_rfe_restore_b64 s[28:29], s27
	s_or_b32 s30, s30, 4                      // jumped over
.Lr_t2:
	s_or_b32 s30, s30, 8
	v_mov_b32 v1, s30
	v_lshlrev_b32 v30, 2, v0
	global_store_dword v30, v1, s[24:25]
	s_endpgm

.Lend_legacy_rfe:
	.size	legacy_rfe, .Lend_legacy_rfe-legacy_rfe
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel legacy_rfe
		.amdhsa_kernarg_size 16
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 32
		.amdhsa_next_free_sgpr 48
		.amdhsa_accum_offset 32
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_enable_private_segment 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
	.end_amdhsa_kernel

	.text
	.globl	legacy_sscratch
	.p2align	8
	.type	legacy_sscratch,@function
legacy_sscratch:
	s_load_dwordx4 s[24:27], s[0:1], 0x0
	s_waitcnt lgkmcnt(0)
	v_mul_u32_u24 v9, 100, v0                 // lane L's private dword k = 100 * L + k
	v_add_u32 v2, 0, v9
	v_add_u32 v3, 1, v9
	v_add_u32 v4, 2, v9
	v_add_u32 v5, 3, v9
	scratch_store_dwordx4 off, v[2:5], off
	s_waitcnt vmcnt(0)
	s_mov_b64 s[28:29], flat_scratch
	s_scratch_load_dwordx4 s[32:35], s[28:29], 0x104  // wave bytes 0x104..0x113
	s_mov_b32 s36, 3
	s_scratch_load_dword s37, s[28:29], s36           // 3 * 64 bytes
	s_mov_b32 m0, 2
	s_scratch_load_dwordx2 s[38:39], s[28:29], m0 offset:0x7c  // 2 * 64 + 0x7c
	s_waitcnt lgkmcnt(0)
	s_mov_b32 s40, 0x5eed
	s_mov_b32 s41, 0xfeed
	s_scratch_store_dwordx2 s[40:41], s[28:29], 0x208  // wave bytes 0x208..0x20f
	s_waitcnt lgkmcnt(0)
	s_cmp_eq_u32 s27, 1
	s_cbranch_scc0 .Ls_load
	s_scratch_load_dword s42, s[28:29], s26   // b == 1: a * 64 bytes
.Ls_load:
	scratch_load_dword v6, off, off offset:8
	s_waitcnt vmcnt(0)
	v_lshlrev_b32 v30, 2, v0
	global_store_dword v30, v6, s[24:25]      // out[lane]
	v_mov_b32 v10, s32
	v_mov_b32 v11, s33
	v_mov_b32 v12, s34
	v_mov_b32 v13, s35
	v_mov_b32 v14, s37
	v_mov_b32 v15, s38
	v_mov_b32 v16, s39
	v_mov_b32 v31, 0
	global_store_dwordx4 v31, v[10:13], s[24:25] offset:256
	global_store_dwordx3 v31, v[14:16], s[24:25] offset:272
	s_endpgm

.Lend_legacy_sscratch:
	.size	legacy_sscratch, .Lend_legacy_sscratch-legacy_sscratch
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel legacy_sscratch
		.amdhsa_kernarg_size 16
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 32
		.amdhsa_next_free_sgpr 48
		.amdhsa_accum_offset 32
		.amdhsa_private_segment_fixed_size 64
		.amdhsa_enable_private_segment 1
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
    .name:           legacy_vgpr_index
    .private_segment_fixed_size: 0
    .sgpr_count:     48
    .sgpr_spill_count: 0
    .symbol:         legacy_vgpr_index.kd
    .vgpr_count:     32
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
    .name:           legacy_vskip
    .private_segment_fixed_size: 0
    .sgpr_count:     48
    .sgpr_spill_count: 0
    .symbol:         legacy_vskip.kd
    .vgpr_count:     32
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
    .name:           legacy_fork
    .private_segment_fixed_size: 0
    .sgpr_count:     48
    .sgpr_spill_count: 0
    .symbol:         legacy_fork.kd
    .vgpr_count:     32
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
    .name:           legacy_rfe
    .private_segment_fixed_size: 0
    .sgpr_count:     48
    .sgpr_spill_count: 0
    .symbol:         legacy_rfe.kd
    .vgpr_count:     32
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
    .name:           legacy_sscratch
    .private_segment_fixed_size: 64
    .sgpr_count:     48
    .sgpr_spill_count: 0
    .symbol:         legacy_sscratch.kd
    .vgpr_count:     32
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata

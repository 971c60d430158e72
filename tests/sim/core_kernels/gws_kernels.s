// Hand-written gfx942 kernels for tests/sim/test_gws.cpp: global wave sync (ds_gws_*) across
// workgroups, run through the dispatcher's cooperative mode.
// gws_grid_barrier(uint* buf, uint T, uint G, uint bar): T work-items per group, G groups.
//   Wave 0 of group 0 initialises resource 3 (M0 = 0, offset 3) with `bar`, before the other
//   groups run (the dispatcher starts a group only when the resident ones block; on hardware the
//   host would initialise it). Every wave then: buf[t] = 3t + 1; barrier on resource 3 (M0[21:16]
//   = 2, offset 1); out2[t] = buf[(t + T) % total]; barrier again (re-armed by the last arrival);
//   out3[t] = out2[(t - T) % total], xor'ed with a scratch round trip of t (per-group slots).
//   buf = 3 * total words: buf, out2, out3. bar > waves - 1: the barrier never completes.
// gws_sema(uint* buf, uint C, uint n): groups 0..C-1 consume, group C produces (one lane each).
//   Resource 0, a FIFO: the producer writes data[i] = 7i + 5 then sema_v, n times; consumer 0
//   sema_p's n times, out[i] = 2 * data[i]. Resource 1: all consumers sema_p, the producer writes
//   gate = 0xabc0, then sema_br C; out2[g] = gate + g. Resource 2: consumers sema_p then add 1 to
//   done; the producer repeats sema_release_all until done == C. Layout (words): data[n],
//   out[n], out2[C], done, gate. Without the producer (grid C) the consumers block forever.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 6
	.text
	.globl	gws_grid_barrier
	.p2align	8
	.type	gws_grid_barrier,@function
gws_grid_barrier:
	s_load_dwordx4 s[24:27], s[0:1], 0x0      // buf = s[24:25], T = s26, G = s27
	s_load_dword s28, s[0:1], 0x10            // bar
	s_waitcnt lgkmcnt(0)
	s_mul_i32 s29, s26, s27                   // total
	s_mul_i32 s30, s2, s26                    // first work-item of the group
	v_add_u32 v1, s30, v0                     // t
	v_mov_b32 v10, s28
	scratch_store_dword off, v1, off offset:4
	v_readfirstlane_b32 s31, v0               // 0 in wave 0
	s_or_b32 s31, s31, s2
	s_cmp_lg_u32 s31, 0
	s_cbranch_scc1 .Lgb_init_done
	s_mov_b32 m0, 0
	s_nop 0                                   // SALU write of M0 -> GWS read: 1 wait state
	ds_gws_init v10 offset:3 gds
	s_waitcnt lgkmcnt(0)
.Lgb_init_done:
	s_barrier
	v_mul_u32_u24 v2, 3, v1
	v_add_u32 v2, 1, v2
	v_lshlrev_b32 v3, 2, v1
	global_store_dword v3, v2, s[24:25]
	s_waitcnt vmcnt(0)
	s_mov_b32 m0, 0x20000                     // M0[21:16] = 2, + offset 1 = resource 3
	s_nop 0
	ds_gws_barrier v10 offset:1 gds
	s_waitcnt lgkmcnt(0)
	v_add_u32 v4, s26, v1                     // (t + T) % total
	v_cmp_le_u32 vcc, s29, v4
	v_subrev_u32 v5, s29, v4
	s_nop 0                                   // VALU write of VCC -> VALU read: 2 wait states
	v_cndmask_b32 v4, v4, v5, vcc
	v_lshlrev_b32 v4, 2, v4
	global_load_dword v5, v4, s[24:25]
	s_waitcnt vmcnt(0)
	s_lshl_b32 s32, s29, 2
	s_add_u32 s34, s24, s32                   // out2
	s_addc_u32 s35, s25, 0
	s_add_u32 s36, s34, s32                   // out3
	s_addc_u32 s37, s35, 0
	global_store_dword v3, v5, s[34:35]
	s_waitcnt vmcnt(0)
	ds_gws_barrier v10 offset:1 gds
	s_waitcnt lgkmcnt(0)
	v_add_u32 v6, s29, v1                     // (t + total - T) % total
	v_subrev_u32 v6, s26, v6
	v_cmp_le_u32 vcc, s29, v6
	v_subrev_u32 v7, s29, v6
	s_nop 0
	v_cndmask_b32 v6, v6, v7, vcc
	v_lshlrev_b32 v6, 2, v6
	global_load_dword v7, v6, s[34:35]
	scratch_load_dword v8, off, off offset:4
	s_waitcnt vmcnt(0)
	v_xor_b32 v7, v7, v8
	v_xor_b32 v7, v7, v1
	global_store_dword v3, v7, s[36:37]
	s_endpgm

.Lend_gws_grid_barrier:
	.size	gws_grid_barrier, .Lend_gws_grid_barrier-gws_grid_barrier
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel gws_grid_barrier
		.amdhsa_kernarg_size 24
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 16
		.amdhsa_next_free_sgpr 48
		.amdhsa_accum_offset 16
		.amdhsa_private_segment_fixed_size 16
		.amdhsa_enable_private_segment 1
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
	.end_amdhsa_kernel

	.text
	.globl	gws_sema
	.p2align	8
	.type	gws_sema,@function
gws_sema:
	s_load_dwordx4 s[24:27], s[0:1], 0x0      // buf = s[24:25], C = s26, n = s27
	s_waitcnt lgkmcnt(0)
	s_mov_b64 exec, 1                         // one lane does everything
	s_mov_b32 m0, 0
	s_lshl_b32 s28, s27, 2                    // out
	s_lshl_b32 s29, s27, 3                    // out2
	s_lshl_b32 s30, s26, 2
	s_add_u32 s30, s30, s29                   // done
	s_cmp_eq_u32 s2, s26
	s_cbranch_scc1 .Lsema_producer
	s_cmp_lg_u32 s2, 0
	s_cbranch_scc1 .Lsema_gate
	s_mov_b32 s31, 0                          // consumer 0: n items in order
.Lsema_fifo:
	ds_gws_sema_p gds
	s_waitcnt lgkmcnt(0)
	s_lshl_b32 s32, s31, 2
	v_mov_b32 v1, s32
	global_load_dword v2, v1, s[24:25]
	s_waitcnt vmcnt(0)
	v_lshlrev_b32 v2, 1, v2
	v_add_u32 v1, s28, v1
	global_store_dword v1, v2, s[24:25]
	s_add_u32 s31, s31, 1
	s_cmp_lt_u32 s31, s27
	s_cbranch_scc1 .Lsema_fifo
.Lsema_gate:
	ds_gws_sema_p offset:1 gds
	s_waitcnt lgkmcnt(0)
	s_add_u32 s31, s30, 4                     // gate
	v_mov_b32 v1, s31
	global_load_dword v2, v1, s[24:25]
	s_waitcnt vmcnt(0)
	v_add_u32 v2, s2, v2
	s_lshl_b32 s32, s2, 2
	s_add_u32 s32, s32, s29
	v_mov_b32 v1, s32
	global_store_dword v1, v2, s[24:25]
	s_waitcnt vmcnt(0)
	ds_gws_sema_p offset:2 gds
	s_waitcnt lgkmcnt(0)
	v_mov_b32 v1, s30
	v_mov_b32 v2, 1
	global_atomic_add v1, v2, s[24:25]
	s_waitcnt vmcnt(0)
	s_endpgm
.Lsema_producer:
	s_mov_b32 s31, 0
.Lsema_produce:
	s_mul_i32 s32, s31, 7
	s_add_u32 s32, s32, 5
	v_mov_b32 v2, s32
	s_lshl_b32 s33, s31, 2
	v_mov_b32 v1, s33
	global_store_dword v1, v2, s[24:25]
	s_waitcnt vmcnt(0)
	ds_gws_sema_v gds
	s_waitcnt lgkmcnt(0)
	s_add_u32 s31, s31, 1
	s_cmp_lt_u32 s31, s27
	s_cbranch_scc1 .Lsema_produce
	s_add_u32 s31, s30, 4
	v_mov_b32 v1, s31
	v_mov_b32 v2, 0xabc0
	global_store_dword v1, v2, s[24:25]
	s_waitcnt vmcnt(0)
	v_mov_b32 v4, s26
	ds_gws_sema_br v4 offset:1 gds            // releases the C consumers
	s_waitcnt lgkmcnt(0)
	v_mov_b32 v1, s30
.Lsema_release:
	ds_gws_sema_release_all offset:2 gds
	s_waitcnt lgkmcnt(0)
	global_load_dword v2, v1, s[24:25] sc0 sc1
	s_waitcnt vmcnt(0)
	v_readfirstlane_b32 s34, v2
	s_cmp_lt_u32 s34, s26
	s_cbranch_scc1 .Lsema_release
	s_endpgm

.Lend_gws_sema:
	.size	gws_sema, .Lend_gws_sema-gws_sema
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel gws_sema
		.amdhsa_kernarg_size 16
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 16
		.amdhsa_next_free_sgpr 48
		.amdhsa_accum_offset 16
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_enable_private_segment 0
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
      - .offset:         16
        .size:           4
        .value_kind:     by_value
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .max_flat_workgroup_size: 1024
    .name:           gws_grid_barrier
    .private_segment_fixed_size: 16
    .sgpr_count:     48
    .sgpr_spill_count: 0
    .symbol:         gws_grid_barrier.kd
    .vgpr_count:     16
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
    .name:           gws_sema
    .private_segment_fixed_size: 0
    .sgpr_count:     48
    .sgpr_spill_count: 0
    .symbol:         gws_sema.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata

// Hand-written gfx942 kernels for tests/sim/test_launch.cpp: descriptors the way AMD's
// production asm kernels (aiter) and clang's kernarg preloading write them.
//
// zero_kernarg_size(int* out, int a, int b, int c): out[tid] = a + b * tid + c. The descriptor's
//   kernarg_size is 0 (no .amdhsa_kernarg_size: "unspecified"); the metadata gives the 24-byte
//   segment, and c sits at byte 16, past what a 16-byte segment would hold.
// preload_trap(int* out, int a, int b): out[tid] = a + b * tid from 4 preloaded dwords (s2..s5
//   after the kernarg pointer). The 256 bytes before the body start with s_trap, as aiter's
//   preloading kernels do: a dispatcher that does not skip them aborts.
// preload_offset(int* out, int a, int b, int c): preloads 2 dwords from dword 3 (b, c) into
//   s4, s5 after the dispatch and kernarg pointers; out and a come from the kernarg segment,
//   the workgroup size from the dispatch packet, the workgroup id from s6.
//   out[wg * 64 + tid] = a + b * tid + c + 1000 * wg + 100000 * workgroup_size_x.
// past_segment(int* out, int a): out[tid] = a + the dword at byte 16, past the metadata's
//   16-byte segment (aiter's hosts pass a KernelArgs struct longer than the metadata: the
//   launch must supply that many bytes, --kernarg-size).
// optional_ptr(int* out, const int* in): out[tid] = in ? 2 * in[tid] : -1 (a null argument).
// count_loop(int* out, int n): out[tid] = n + 3 after a 3-trip backward-branch loop to a
//   labelled head (a symbol) and a forward branch to a .L label (none): --trace prints both
//   the way llvm-objdump-22 does, with the target address and the signed offset.
// wide_vgprs(int* out): out[wg * 512 + tid] = tid, with 176 VGPRs allocated (as a kernel whose
//   registers reach v175): 2 waves a SIMD fit the SIMD's 512, 4 (a 1024-item workgroup) do not.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 6
	.text
	.globl	zero_kernarg_size
	.p2align	8
	.type	zero_kernarg_size,@function
zero_kernarg_size:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	s_load_dword s8, s[0:1], 0x10
	s_waitcnt lgkmcnt(0)
	v_mul_lo_u32 v1, s7, v0
	v_add_u32_e32 v1, s6, v1
	v_add_u32_e32 v1, s8, v1
	v_lshlrev_b32_e32 v0, 2, v0
	global_store_dword v0, v1, s[4:5]
	s_endpgm
.Lend_zero_kernarg_size:
	.size	zero_kernarg_size, .Lend_zero_kernarg_size-zero_kernarg_size
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel zero_kernarg_size
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 16
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
	.text

	.globl	preload_trap
	.p2align	8
	.type	preload_trap,@function
preload_trap:
	s_trap 2
	.p2align	8
	v_mul_lo_u32 v1, s5, v0
	v_add_u32_e32 v1, s4, v1
	v_lshlrev_b32_e32 v0, 2, v0
	global_store_dword v0, v1, s[2:3]
	s_endpgm
.Lend_preload_trap:
	.size	preload_trap, .Lend_preload_trap-preload_trap
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel preload_trap
		.amdhsa_kernarg_size 16
		.amdhsa_user_sgpr_count 6
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_kernarg_preload_length 4
		.amdhsa_user_sgpr_kernarg_preload_offset 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 16
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
	.text

	.globl	preload_offset
	.p2align	8
	.type	preload_offset,@function
preload_offset:
	s_trap 2
	.p2align	8
	s_load_dwordx2 s[8:9], s[2:3], 0x0
	s_load_dword s10, s[2:3], 0x8
	s_load_dword s11, s[0:1], 0x4
	s_waitcnt lgkmcnt(0)
	s_and_b32 s11, s11, 0xffff
	s_mul_i32 s11, s11, 100000
	s_mul_i32 s12, s6, 1000
	s_add_u32 s10, s10, s5
	s_add_u32 s10, s10, s11
	s_add_u32 s10, s10, s12
	v_mul_lo_u32 v1, s4, v0
	v_add_u32_e32 v1, s10, v1
	s_lshl_b32 s12, s6, 6
	v_add_u32_e32 v0, s12, v0
	v_lshlrev_b32_e32 v0, 2, v0
	global_store_dword v0, v1, s[8:9]
	s_endpgm
.Lend_preload_offset:
	.size	preload_offset, .Lend_preload_offset-preload_offset
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel preload_offset
		.amdhsa_kernarg_size 20
		.amdhsa_user_sgpr_count 6
		.amdhsa_user_sgpr_dispatch_ptr 1
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_kernarg_preload_length 2
		.amdhsa_user_sgpr_kernarg_preload_offset 3
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 16
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
	.text

	.globl	past_segment
	.p2align	8
	.type	past_segment,@function
past_segment:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	s_load_dword s6, s[0:1], 0x8
	s_load_dword s7, s[0:1], 0x10
	s_waitcnt lgkmcnt(0)
	s_add_u32 s6, s6, s7
	v_mov_b32_e32 v1, s6
	v_lshlrev_b32_e32 v0, 2, v0
	global_store_dword v0, v1, s[4:5]
	s_endpgm
.Lend_past_segment:
	.size	past_segment, .Lend_past_segment-past_segment
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel past_segment
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 16
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
	.text

	.globl	optional_ptr
	.p2align	8
	.type	optional_ptr,@function
optional_ptr:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	v_lshlrev_b32_e32 v0, 2, v0
	v_mov_b32_e32 v1, -1
	s_waitcnt lgkmcnt(0)
	s_cmp_eq_u64 s[6:7], 0
	s_cbranch_scc1 .Lstore
	global_load_dword v1, v0, s[6:7]
	s_waitcnt vmcnt(0)
	v_lshlrev_b32_e32 v1, 1, v1
.Lstore:
	global_store_dword v0, v1, s[4:5]
	s_endpgm
.Lend_optional_ptr:
	.size	optional_ptr, .Lend_optional_ptr-optional_ptr
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel optional_ptr
		.amdhsa_kernarg_size 16
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 16
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
	.text

	.globl	count_loop
	.p2align	8
	.type	count_loop,@function
count_loop:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	s_load_dword s6, s[0:1], 0x8
	s_mov_b32 s7, 3
	s_waitcnt lgkmcnt(0)
count_loop_head:
	s_add_u32 s6, s6, 1
	s_sub_u32 s7, s7, 1
	s_cmp_lg_u32 s7, 0
	s_cbranch_scc1 count_loop_head
	s_branch .Ldone
	s_trap 2
.Ldone:
	v_mov_b32_e32 v1, s6
	v_lshlrev_b32_e32 v0, 2, v0
	global_store_dword v0, v1, s[4:5]
	s_endpgm
.Lend_count_loop:
	.size	count_loop, .Lend_count_loop-count_loop
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel count_loop
		.amdhsa_kernarg_size 12
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 16
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
	.text

	.globl	wide_vgprs
	.p2align	8
	.type	wide_vgprs,@function
wide_vgprs:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	s_lshl_b32 s6, s2, 9
	v_add_u32_e32 v1, s6, v0
	v_lshlrev_b32_e32 v1, 2, v1
	s_waitcnt lgkmcnt(0)
	global_store_dword v1, v0, s[4:5]
	s_endpgm
.Lend_wide_vgprs:
	.size	wide_vgprs, .Lend_wide_vgprs-wide_vgprs
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel wide_vgprs
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_next_free_vgpr 176
		.amdhsa_next_free_sgpr 16
		.amdhsa_accum_offset 176
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
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 1024
    .name:           wide_vgprs
    .private_segment_fixed_size: 0
    .sgpr_count:     16
    .symbol:         wide_vgprs.kd
    .vgpr_count:     176
    .wavefront_size: 64
  - .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .name:           a
        .offset:         8
        .size:           4
        .value_kind:     by_value
      - .name:           b
        .offset:         12
        .size:           4
        .value_kind:     by_value
      - .name:           c
        .offset:         16
        .size:           4
        .value_kind:     by_value
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .max_flat_workgroup_size: 256
    .name:           zero_kernarg_size
    .private_segment_fixed_size: 0
    .sgpr_count:     16
    .symbol:         zero_kernarg_size.kd
    .vgpr_count:     4
    .wavefront_size: 64
  - .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .name:           a
        .offset:         8
        .size:           4
        .value_kind:     by_value
      - .name:           b
        .offset:         12
        .size:           4
        .value_kind:     by_value
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 256
    .name:           preload_trap
    .private_segment_fixed_size: 0
    .sgpr_count:     16
    .symbol:         preload_trap.kd
    .vgpr_count:     4
    .wavefront_size: 64
  - .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .name:           a
        .offset:         8
        .size:           4
        .value_kind:     by_value
      - .name:           b
        .offset:         12
        .size:           4
        .value_kind:     by_value
      - .name:           c
        .offset:         16
        .size:           4
        .value_kind:     by_value
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 20
    .max_flat_workgroup_size: 256
    .name:           preload_offset
    .private_segment_fixed_size: 0
    .sgpr_count:     16
    .symbol:         preload_offset.kd
    .vgpr_count:     4
    .wavefront_size: 64
  - .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .name:           a
        .offset:         8
        .size:           4
        .value_kind:     by_value
      - .name:           pad
        .offset:         12
        .size:           4
        .value_kind:     by_value
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 256
    .name:           past_segment
    .private_segment_fixed_size: 0
    .sgpr_count:     16
    .symbol:         past_segment.kd
    .vgpr_count:     4
    .wavefront_size: 64
  - .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .address_space:  global
        .name:           in
        .offset:         8
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 256
    .name:           optional_ptr
    .private_segment_fixed_size: 0
    .sgpr_count:     16
    .symbol:         optional_ptr.kd
    .vgpr_count:     4
    .wavefront_size: 64
  - .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .name:           n
        .offset:         8
        .size:           4
        .value_kind:     by_value
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 12
    .max_flat_workgroup_size: 256
    .name:           count_loop
    .private_segment_fixed_size: 0
    .sgpr_count:     16
    .symbol:         count_loop.kd
    .vgpr_count:     4
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata

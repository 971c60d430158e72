// The timing model's microbenchmarks (microbench.hpp has their bodies and what each measures)
// as HIP kernels of one code object: (u64* buf, u32 n) each, the names the tests launch.
#include "microbench.hpp"

// Each kernel's builder function with the options of microbench.hpp (`raw`).
namespace hipasm::microbench {
inline constexpr auto valu_fma_fn = with_options<valu_fma, raw>;
inline constexpr auto valu_chain_fn = with_options<valu_chain, raw>;
inline constexpr auto valu_chain_prio_fn = with_options<valu_chain_prio, raw>;
inline constexpr auto trans_exp_fn = with_options<trans_exp, raw>;
inline constexpr auto mfma_dep_32x32x8_bf16_fn = with_options<mfma_bench<mfma_shape::bf16_32x32x8, 1>, raw>;
inline constexpr auto mfma_tput_32x32x8_bf16_fn = with_options<mfma_bench<mfma_shape::bf16_32x32x8, 4>, raw>;
inline constexpr auto mfma_loop_fn = with_options<mfma_loop, raw>;
inline constexpr auto mfma_dep_16x16x16_bf16_fn = with_options<mfma_bench<mfma_shape::bf16_16x16x16, 1>, raw>;
inline constexpr auto mfma_tput_16x16x16_bf16_fn = with_options<mfma_bench<mfma_shape::bf16_16x16x16, 4>, raw>;
inline constexpr auto mfma_dep_4x4x4_16b_f16_fn = with_options<mfma_bench<mfma_shape::f16_4x4x4, 1>, raw>;
inline constexpr auto mfma_tput_4x4x4_16b_f16_fn = with_options<mfma_bench<mfma_shape::f16_4x4x4, 4>, raw>;
inline constexpr auto mfma_dep_32x32x16_fp8_fn = with_options<mfma_bench<mfma_shape::fp8_32x32x16, 1>, raw>;
inline constexpr auto mfma_tput_32x32x16_fp8_fn = with_options<mfma_bench<mfma_shape::fp8_32x32x16, 4>, raw>;
inline constexpr auto mfma_dep_16x16x32_fp8_fn = with_options<mfma_bench<mfma_shape::fp8_16x16x32, 1>, raw>;
inline constexpr auto mfma_tput_16x16x32_fp8_fn = with_options<mfma_bench<mfma_shape::fp8_16x16x32, 4>, raw>;
inline constexpr auto mfma_dep_16x16x32_i8_fn = with_options<mfma_bench<mfma_shape::i8_16x16x32, 1>, raw>;
inline constexpr auto mfma_tput_16x16x32_i8_fn = with_options<mfma_bench<mfma_shape::i8_16x16x32, 4>, raw>;
inline constexpr auto mfma_dep_32x32x2_f32_fn = with_options<mfma_bench<mfma_shape::f32_32x32x2, 1>, raw>;
inline constexpr auto mfma_tput_32x32x2_f32_fn = with_options<mfma_bench<mfma_shape::f32_32x32x2, 4>, raw>;
inline constexpr auto mfma_dep_16x16x4_f32_fn = with_options<mfma_bench<mfma_shape::f32_16x16x4, 1>, raw>;
inline constexpr auto mfma_tput_16x16x4_f32_fn = with_options<mfma_bench<mfma_shape::f32_16x16x4, 4>, raw>;
inline constexpr auto mfma_dep_16x16x4_f64_fn = with_options<mfma_bench<mfma_shape::f64_16x16x4, 1>, raw>;
inline constexpr auto mfma_tput_16x16x4_f64_fn = with_options<mfma_bench<mfma_shape::f64_16x16x4, 4>, raw>;
inline constexpr auto coexec_mfma_3valu_mfma_exp_fn = with_options<coexec_bench<coexec::mfma_3valu_mfma_exp>, raw>;
inline constexpr auto coexec_mfma_mfma_3valu_exp_fn = with_options<coexec_bench<coexec::mfma_mfma_3valu_exp>, raw>;
inline constexpr auto coexec_mfma_exp_fn = with_options<coexec_bench<coexec::mfma_exp>, raw>;
inline constexpr auto coexec_mfma_4valu_fn = with_options<coexec_bench<coexec::mfma_4valu>, raw>;
inline constexpr auto lds_b32_stride1_fn = with_options<lds_read_bench<1, 1>, raw>;
inline constexpr auto lds_b32_stride2_fn = with_options<lds_read_bench<1, 2>, raw>;
inline constexpr auto lds_b32_stride4_fn = with_options<lds_read_bench<1, 4>, raw>;
inline constexpr auto lds_b32_stride8_fn = with_options<lds_read_bench<1, 8>, raw>;
inline constexpr auto lds_b32_stride16_fn = with_options<lds_read_bench<1, 16>, raw>;
inline constexpr auto lds_b32_stride32_fn = with_options<lds_read_bench<1, 32>, raw>;
inline constexpr auto lds_b64_stride2_fn = with_options<lds_read_bench<2, 2>, raw>;
inline constexpr auto lds_b64_stride4_fn = with_options<lds_read_bench<2, 4>, raw>;
inline constexpr auto lds_b64_stride32_fn = with_options<lds_read_bench<2, 32>, raw>;
inline constexpr auto lds_b128_stride4_fn = with_options<lds_read_bench<4, 4>, raw>;
inline constexpr auto lds_b128_stride8_fn = with_options<lds_read_bench<4, 8>, raw>;
inline constexpr auto lds_b128_stride32_fn = with_options<lds_read_bench<4, 32>, raw>;
inline constexpr auto lds_latency_b32_fn = with_options<lds_latency_bench<1>, raw>;
inline constexpr auto lds_latency_b128_fn = with_options<lds_latency_bench<4>, raw>;
inline constexpr auto lds_write_b32_fn = with_options<lds_write_bench<1>, raw>;
inline constexpr auto lds_write_b128_fn = with_options<lds_write_bench<4>, raw>;
inline constexpr auto chase_fn = with_options<chase_bench<false>, raw>;
inline constexpr auto chase_nt_fn = with_options<chase_bench<true>, raw>;
inline constexpr auto chase_scalar_fn = with_options<chase_scalar, raw>;
inline constexpr auto stream_read_fn = with_options<stream_bench<false>, raw>;
inline constexpr auto stream_mfma_fn = with_options<stream_mfma, raw>;
inline constexpr auto vmem_lds_dword_fn = with_options<vmem_lds_dword, raw>;
inline constexpr auto lds_dma_beside_reads_fn = with_options<lds_dma_beside_reads, raw>;
inline constexpr auto vmem_range_soffset_fn = with_options<vmem_range_soffset, raw>;
inline constexpr auto vmem_cache_controls_fn = with_options<vmem_cache_controls, raw>;
inline constexpr auto poll_counter_fn = with_options<poll_counter, raw>;
inline constexpr auto last_arrival_fn = with_options<last_arrival, raw>;
inline constexpr auto stream_copy_fn = with_options<stream_bench<true>, raw>;
inline constexpr auto l2_one_channel_fn = with_options<l2_one_channel, raw>;
inline constexpr auto l2_stride_2k_fn = with_options<l2_stride_2k, raw>;
inline constexpr auto stores_beside_load_fn = with_options<stores_beside_load, raw>;
inline constexpr auto mall_reread_fn = with_options<mall_reread, raw>;
inline constexpr auto lds_atomic_one_hot_fn = with_options<atomic_bench<hist::one_hot, false, false>, raw>;
inline constexpr auto lds_atomic_rtn_one_hot_fn = with_options<atomic_bench<hist::one_hot, false, true>, raw>;
inline constexpr auto global_atomic_one_hot_fn = with_options<atomic_bench<hist::one_hot, true, false>, raw>;
inline constexpr auto global_atomic_rtn_one_hot_fn = with_options<atomic_bench<hist::one_hot, true, true>, raw>;
inline constexpr auto lds_atomic_uniform16_fn = with_options<atomic_bench<hist::uniform16, false, false>, raw>;
inline constexpr auto lds_atomic_rtn_uniform16_fn = with_options<atomic_bench<hist::uniform16, false, true>, raw>;
inline constexpr auto global_atomic_uniform16_fn = with_options<atomic_bench<hist::uniform16, true, false>, raw>;
inline constexpr auto global_atomic_rtn_uniform16_fn = with_options<atomic_bench<hist::uniform16, true, true>, raw>;
inline constexpr auto lds_atomic_distinct_fn = with_options<atomic_bench<hist::distinct, false, false>, raw>;
inline constexpr auto lds_atomic_rtn_distinct_fn = with_options<atomic_bench<hist::distinct, false, true>, raw>;
inline constexpr auto global_atomic_distinct_fn = with_options<atomic_bench<hist::distinct, true, false>, raw>;
inline constexpr auto global_atomic_rtn_distinct_fn = with_options<atomic_bench<hist::distinct, true, true>, raw>;
inline constexpr auto global_atomic_pk_bf16_distinct_fn = with_options<atomic_bench<hist::distinct, true, false, true>, raw>;
inline constexpr auto global_atomic_pk_bf16_one_hot_fn = with_options<atomic_bench<hist::one_hot, true, false, true>, raw>;
inline constexpr auto lds_atomic_random256_fn = with_options<atomic_bench<hist::random256, false, false>, raw>;
inline constexpr auto lds_atomic_rtn_random256_fn = with_options<atomic_bench<hist::random256, false, true>, raw>;
inline constexpr auto global_atomic_random256_fn = with_options<atomic_bench<hist::random256, true, false>, raw>;
inline constexpr auto global_atomic_rtn_random256_fn = with_options<atomic_bench<hist::random256, true, true>, raw>;
}  // namespace hipasm::microbench

using namespace hipasm::microbench;  // (the kernels' names are the builder functions' own)
extern "C" __global__ void valu_fma(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(valu_fma_fn, buf, n); }
extern "C" __global__ void valu_chain(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(valu_chain_fn, buf, n); }
extern "C" __global__ void valu_chain_prio(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(valu_chain_prio_fn, buf, n); }
extern "C" __global__ void trans_exp(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(trans_exp_fn, buf, n); }
extern "C" __global__ void mfma_dep_32x32x8_bf16(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(mfma_dep_32x32x8_bf16_fn, buf, n); }
extern "C" __global__ void mfma_tput_32x32x8_bf16(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(mfma_tput_32x32x8_bf16_fn, buf, n); }
extern "C" __global__ void mfma_loop(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(mfma_loop_fn, buf, n); }
extern "C" __global__ void stream_mfma(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(stream_mfma_fn, buf, n); }
extern "C" __global__ void mfma_dep_16x16x16_bf16(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(mfma_dep_16x16x16_bf16_fn, buf, n); }
extern "C" __global__ void mfma_tput_16x16x16_bf16(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(mfma_tput_16x16x16_bf16_fn, buf, n); }
extern "C" __global__ void mfma_dep_4x4x4_16b_f16(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(mfma_dep_4x4x4_16b_f16_fn, buf, n); }
extern "C" __global__ void mfma_tput_4x4x4_16b_f16(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(mfma_tput_4x4x4_16b_f16_fn, buf, n); }
extern "C" __global__ void mfma_dep_32x32x16_fp8(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(mfma_dep_32x32x16_fp8_fn, buf, n); }
extern "C" __global__ void mfma_tput_32x32x16_fp8(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(mfma_tput_32x32x16_fp8_fn, buf, n); }
extern "C" __global__ void mfma_dep_16x16x32_fp8(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(mfma_dep_16x16x32_fp8_fn, buf, n); }
extern "C" __global__ void mfma_tput_16x16x32_fp8(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(mfma_tput_16x16x32_fp8_fn, buf, n); }
extern "C" __global__ void mfma_dep_16x16x32_i8(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(mfma_dep_16x16x32_i8_fn, buf, n); }
extern "C" __global__ void mfma_tput_16x16x32_i8(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(mfma_tput_16x16x32_i8_fn, buf, n); }
extern "C" __global__ void mfma_dep_32x32x2_f32(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(mfma_dep_32x32x2_f32_fn, buf, n); }
extern "C" __global__ void mfma_tput_32x32x2_f32(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(mfma_tput_32x32x2_f32_fn, buf, n); }
extern "C" __global__ void mfma_dep_16x16x4_f32(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(mfma_dep_16x16x4_f32_fn, buf, n); }
extern "C" __global__ void mfma_tput_16x16x4_f32(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(mfma_tput_16x16x4_f32_fn, buf, n); }
extern "C" __global__ void mfma_dep_16x16x4_f64(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(mfma_dep_16x16x4_f64_fn, buf, n); }
extern "C" __global__ void mfma_tput_16x16x4_f64(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(mfma_tput_16x16x4_f64_fn, buf, n); }
extern "C" __global__ void coexec_mfma_3valu_mfma_exp(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(coexec_mfma_3valu_mfma_exp_fn, buf, n); }
extern "C" __global__ void coexec_mfma_mfma_3valu_exp(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(coexec_mfma_mfma_3valu_exp_fn, buf, n); }
extern "C" __global__ void coexec_mfma_exp(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(coexec_mfma_exp_fn, buf, n); }
extern "C" __global__ void coexec_mfma_4valu(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(coexec_mfma_4valu_fn, buf, n); }
extern "C" __global__ void vmem_range_soffset(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(vmem_range_soffset_fn, buf, n); }
extern "C" __global__ void vmem_cache_controls(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(vmem_cache_controls_fn, buf, n); }
extern "C" __global__ void poll_counter(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(poll_counter_fn, buf, n); }
extern "C" __global__ void last_arrival(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(last_arrival_fn, buf, n); }
extern "C" __global__ void lds_b32_stride1(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_b32_stride1_fn, buf, n); }
extern "C" __global__ void lds_b32_stride2(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_b32_stride2_fn, buf, n); }
extern "C" __global__ void lds_b32_stride4(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_b32_stride4_fn, buf, n); }
extern "C" __global__ void lds_b32_stride8(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_b32_stride8_fn, buf, n); }
extern "C" __global__ void lds_b32_stride16(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_b32_stride16_fn, buf, n); }
extern "C" __global__ void lds_b32_stride32(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_b32_stride32_fn, buf, n); }
extern "C" __global__ void lds_b64_stride2(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_b64_stride2_fn, buf, n); }
extern "C" __global__ void lds_b64_stride4(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_b64_stride4_fn, buf, n); }
extern "C" __global__ void lds_b64_stride32(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_b64_stride32_fn, buf, n); }
extern "C" __global__ void lds_b128_stride4(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_b128_stride4_fn, buf, n); }
extern "C" __global__ void lds_b128_stride8(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_b128_stride8_fn, buf, n); }
extern "C" __global__ void lds_b128_stride32(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_b128_stride32_fn, buf, n); }
extern "C" __global__ void lds_latency_b32(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_latency_b32_fn, buf, n); }
extern "C" __global__ void lds_latency_b128(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_latency_b128_fn, buf, n); }
extern "C" __global__ void lds_write_b32(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_write_b32_fn, buf, n); }
extern "C" __global__ void lds_write_b128(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_write_b128_fn, buf, n); }
extern "C" __global__ void chase(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(chase_fn, buf, n); }
extern "C" __global__ void chase_nt(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(chase_nt_fn, buf, n); }
extern "C" __global__ void chase_scalar(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(chase_scalar_fn, buf, n); }
extern "C" __global__ void stream_read(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(stream_read_fn, buf, n); }
extern "C" __global__ void vmem_lds_dword(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(vmem_lds_dword_fn, buf, n); }
extern "C" __global__ void lds_dma_beside_reads(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_dma_beside_reads_fn, buf, n); }
extern "C" __global__ void stream_copy(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(stream_copy_fn, buf, n); }
extern "C" __global__ void l2_one_channel(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(l2_one_channel_fn, buf, n); }
extern "C" __global__ void l2_stride_2k(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(l2_stride_2k_fn, buf, n); }
extern "C" __global__ void stores_beside_load(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(stores_beside_load_fn, buf, n); }
extern "C" __global__ void mall_reread(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(mall_reread_fn, buf, n); }
extern "C" __global__ void lds_atomic_one_hot(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_atomic_one_hot_fn, buf, n); }
extern "C" __global__ void lds_atomic_rtn_one_hot(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_atomic_rtn_one_hot_fn, buf, n); }
extern "C" __global__ void global_atomic_one_hot(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(global_atomic_one_hot_fn, buf, n); }
extern "C" __global__ void global_atomic_rtn_one_hot(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(global_atomic_rtn_one_hot_fn, buf, n); }
extern "C" __global__ void lds_atomic_uniform16(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_atomic_uniform16_fn, buf, n); }
extern "C" __global__ void lds_atomic_rtn_uniform16(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_atomic_rtn_uniform16_fn, buf, n); }
extern "C" __global__ void global_atomic_uniform16(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(global_atomic_uniform16_fn, buf, n); }
extern "C" __global__ void global_atomic_rtn_uniform16(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(global_atomic_rtn_uniform16_fn, buf, n); }
extern "C" __global__ void lds_atomic_distinct(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_atomic_distinct_fn, buf, n); }
extern "C" __global__ void lds_atomic_rtn_distinct(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_atomic_rtn_distinct_fn, buf, n); }
extern "C" __global__ void global_atomic_distinct(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(global_atomic_distinct_fn, buf, n); }
extern "C" __global__ void global_atomic_rtn_distinct(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(global_atomic_rtn_distinct_fn, buf, n); }
extern "C" __global__ void lds_atomic_random256(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_atomic_random256_fn, buf, n); }
extern "C" __global__ void lds_atomic_rtn_random256(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(lds_atomic_rtn_random256_fn, buf, n); }
extern "C" __global__ void global_atomic_random256(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(global_atomic_random256_fn, buf, n); }
extern "C" __global__ void global_atomic_rtn_random256(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(global_atomic_rtn_random256_fn, buf, n); }
extern "C" __global__ void global_atomic_pk_bf16_distinct(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(global_atomic_pk_bf16_distinct_fn, buf, n); }
extern "C" __global__ void global_atomic_pk_bf16_one_hot(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(global_atomic_pk_bf16_one_hot_fn, buf, n); }

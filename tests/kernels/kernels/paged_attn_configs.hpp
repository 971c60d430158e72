// Configurations of the paged-attention decode kernels under test (test_paged_attn_decode.cpp).
#pragma once
#include <hipasm/kernels/paged_attn_decode.hpp>

namespace cfg {
inline constexpr hipasm::kernels::paged_attn_decode_config pa_d128_g8{.head_dim = 128, .block_size = 16, .gqa = 8, .waves = 4};
inline constexpr hipasm::kernels::paged_attn_decode_config pa_d128_g4{.head_dim = 128, .block_size = 16, .gqa = 4, .waves = 4};
inline constexpr hipasm::kernels::paged_attn_decode_config pa_d128_g1{.head_dim = 128, .block_size = 16, .gqa = 1, .waves = 4};
inline constexpr hipasm::kernels::paged_attn_decode_config pa_d128_g8_w8{.head_dim = 128, .block_size = 16, .gqa = 8, .waves = 8};
// two items a lane in the waves' combination: 16 heads of 4 waves' 32 dims, 8 heads of one wave's 64
inline constexpr hipasm::kernels::paged_attn_decode_config pa_d128_g16{.head_dim = 128, .block_size = 16, .gqa = 16, .waves = 4};
inline constexpr hipasm::kernels::paged_attn_decode_config pa_d64_g8_w1{.head_dim = 64, .block_size = 16, .gqa = 8, .waves = 1};
inline constexpr hipasm::kernels::paged_attn_decode_config pa_d64_g8_b32{.head_dim = 64, .block_size = 32, .gqa = 8, .waves = 2};
// fp8 e4m3fnuz caches with per-token scales (aiter's pertokenFp8)
inline constexpr hipasm::kernels::paged_attn_decode_config pa_d128_g8_fp8{
    .head_dim = 128, .block_size = 16, .gqa = 8, .waves = 4, .kv_cache = hipasm::kernels::pa_kv_cache::fp8_per_token};
inline constexpr hipasm::kernels::paged_attn_decode_config pa_d64_g8_b32_fp8{
    .head_dim = 64, .block_size = 32, .gqa = 8, .waves = 2, .kv_cache = hipasm::kernels::pa_kv_cache::fp8_per_token};
// the benchmark's fp8 kernel: 3 blocks in flight (the next block's loads issued inside the tile)
inline constexpr hipasm::kernels::paged_attn_decode_config pa_d128_g8_fp8_p3{
    .head_dim = 128, .block_size = 16, .gqa = 8, .waves = 4, .prefetch = 3, .kv_cache = hipasm::kernels::pa_kv_cache::fp8_per_token};
}  // namespace cfg

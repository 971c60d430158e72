#include <hipasm/kernels/paged_attn_decode.hpp>

// The LLM decode shape of the benchmark: head dim 128, 16-token blocks, 8 query heads per KV
// head, 4 waves a workgroup (bench_paged_attn_decode.cpp); both tuned at 3 waves a SIMD (168 and
// 160 VGPRs of the 168 that allows): a change that needs more registers fails to compile.
HIPASM_PAGED_ATTN_DECODE_KERNEL(pa_d128_g8_w4, (hipasm::kernels::paged_attn_decode_config{
                                                    .head_dim = 128, .block_size = 16, .gqa = 8, .waves = 4,
                                                    .waves_per_simd = 3}))
// The same with an fp8 cache (e4m3fnuz, per-token scales: aiter's pertokenFp8).
HIPASM_PAGED_ATTN_DECODE_KERNEL(pa_d128_g8_w4_fp8, (hipasm::kernels::paged_attn_decode_config{
                                                        .head_dim = 128, .block_size = 16, .gqa = 8, .waves = 4, .prefetch = 3,
                                                        .kv_cache = hipasm::kernels::pa_kv_cache::fp8_per_token,
                                                        .waves_per_simd = 3}))

// HIPASM_KERNARG_PRELOAD
// hipasm.ops.paged_attention_decode's kernels (python/hipasm/ops.py), bf16 KV cache. Names:
//   paged_attn_bf16_d<head_dim>_b<block_size>_g<gqa>_w<waves>_p<prefetch>
// Sequence counts, context lengths and KV head counts are run-time arguments; the head dim,
// block size and GQA ratio (query heads per KV head) are the configuration's.
#include <hipasm/kernels/paged_attn_decode.hpp>

namespace ops_cfg {
using namespace hipasm::kernels;
constexpr paged_attn_decode_config pa_d64_g4{.head_dim = 64, .block_size = 16, .gqa = 4, .waves = 1, .prefetch = 2};
constexpr paged_attn_decode_config pa_d128_g1{.head_dim = 128, .block_size = 16, .gqa = 1, .waves = 4, .prefetch = 2};
constexpr paged_attn_decode_config pa_d128_g4{.head_dim = 128, .block_size = 16, .gqa = 4, .waves = 4, .prefetch = 2};
constexpr paged_attn_decode_config pa_d128_g8{.head_dim = 128, .block_size = 16, .gqa = 8, .waves = 4, .prefetch = 2};
}  // namespace ops_cfg

HIPASM_PAGED_ATTN_DECODE_KERNEL(paged_attn_bf16_d64_b16_g4_w1_p2, ops_cfg::pa_d64_g4)
HIPASM_PAGED_ATTN_DECODE_KERNEL(paged_attn_bf16_d128_b16_g1_w4_p2, ops_cfg::pa_d128_g1)
HIPASM_PAGED_ATTN_DECODE_KERNEL(paged_attn_bf16_d128_b16_g4_w4_p2, ops_cfg::pa_d128_g4)
HIPASM_PAGED_ATTN_DECODE_KERNEL(paged_attn_bf16_d128_b16_g8_w4_p2, ops_cfg::pa_d128_g8)

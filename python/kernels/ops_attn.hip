// HIPASM_KERNARG_PRELOAD
// hipasm.ops' attention kernels (python/hipasm/ops.py), linked into the ops code object with
// ops.hip. The names carry the configuration the Python side needs:
//   paged_attn_bf16_d<head_dim>_b<block_size>_g<gqa>_w<waves>_p<prefetch>   bf16 KV cache
//   attn_fwd_d<head_dim>_w<waves>_n<bn>_c<causal 0/1>
// Sequence counts, context lengths, head counts and token counts are run-time arguments; the
// head dim, block size and GQA ratio are the configuration's.
#include <hipasm/kernels/attn_fwd.hpp>
#include <hipasm/kernels/paged_attn_decode.hpp>

namespace ops_cfg {
using namespace hipasm::kernels;
constexpr paged_attn_decode_config pa_d64_g4{.head_dim = 64, .block_size = 16, .gqa = 4, .waves = 1, .prefetch = 2};
constexpr paged_attn_decode_config pa_d128_g8{.head_dim = 128, .block_size = 16, .gqa = 8, .waves = 4, .prefetch = 2};
constexpr hipasm::attn_fwd_config attn_d64{.head_dim = 64, .causal = false, .waves = 2, .bn = 32};
constexpr hipasm::attn_fwd_config attn_d64_causal{.head_dim = 64, .causal = true, .waves = 2, .bn = 32};
}  // namespace ops_cfg

HIPASM_PAGED_ATTN_DECODE_KERNEL(paged_attn_bf16_d64_b16_g4_w1_p2, ops_cfg::pa_d64_g4)
HIPASM_PAGED_ATTN_DECODE_KERNEL(paged_attn_bf16_d128_b16_g8_w4_p2, ops_cfg::pa_d128_g8)
HIPASM_ATTN_FWD_KERNEL(attn_fwd_d64_w2_n32_c0, ops_cfg::attn_d64)
HIPASM_ATTN_FWD_KERNEL(attn_fwd_d64_w2_n32_c1, ops_cfg::attn_d64_causal)

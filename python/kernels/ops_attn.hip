// HIPASM_KERNARG_PRELOAD
// hipasm.ops.flash_attn_fwd's kernels (python/hipasm/ops.py). Names:
//   attn_fwd_d<head_dim>_w<waves>_n<bn>_c<causal 0/1>
// Batch, sequence lengths and head counts are run-time arguments; the head dim and the mask are
// the configuration's.
#include <hipasm/kernels/attn_fwd.hpp>

namespace ops_cfg {
constexpr hipasm::kernels::attn_fwd_config attn_d64{.head_dim = 64, .causal = false, .waves = 2, .bn = 32};
constexpr hipasm::kernels::attn_fwd_config attn_d64_causal{.head_dim = 64, .causal = true, .waves = 2, .bn = 32};
constexpr hipasm::kernels::attn_fwd_config attn_d128{.head_dim = 128, .causal = false, .waves = 4, .bn = 64};
constexpr hipasm::kernels::attn_fwd_config attn_d128_causal{.head_dim = 128, .causal = true, .waves = 4, .bn = 64};
}  // namespace ops_cfg

HIPASM_ATTN_FWD_KERNEL(attn_fwd_d64_w2_n32_c0, ops_cfg::attn_d64)
HIPASM_ATTN_FWD_KERNEL(attn_fwd_d64_w2_n32_c1, ops_cfg::attn_d64_causal)
HIPASM_ATTN_FWD_KERNEL(attn_fwd_d128_w4_n64_c0, ops_cfg::attn_d128)
HIPASM_ATTN_FWD_KERNEL(attn_fwd_d128_w4_n64_c1, ops_cfg::attn_d128_causal)

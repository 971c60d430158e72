// bench_kernel_attn_bwd's kernels: flash attention backward, head dim 128, 4 waves (128 keys per
// workgroup), causal and not.
#include <hipasm/kernels/attn_bwd.hpp>

HIPASM_ATTN_BWD_KERNELS(attn_bwd_d128, (hipasm::kernels::attn_bwd_config{.head_dim = 128, .causal = false}))
HIPASM_ATTN_BWD_KERNELS(attn_bwd_d128_causal, (hipasm::kernels::attn_bwd_config{.head_dim = 128, .causal = true}))
// dQ by the recompute kernel (no atomics)
HIPASM_ATTN_BWD_KERNELS(attn_bwd_d128_rc, (hipasm::kernels::attn_bwd_config{.head_dim = 128, .causal = false, .dq = hipasm::kernels::attn_bwd_dq::recompute}))
HIPASM_ATTN_BWD_KERNELS(attn_bwd_d128_causal_rc, (hipasm::kernels::attn_bwd_config{.head_dim = 128, .causal = true, .dq = hipasm::kernels::attn_bwd_dq::recompute}))

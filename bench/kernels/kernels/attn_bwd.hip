// bench_kernel_attn_bwd's kernels: flash attention backward, head dim 128, 4 waves (128 keys per
// workgroup), causal and not; bf16 and f16.
#include <hipasm/kernels/attn_bwd.hpp>

// The atomic configurations' kernels (their name_dq would be an empty kernel: the launcher
// runs a dQ kernel only for dq = recompute)
HIPASM_ATTN_BWD_MAIN_KERNELS(attn_bwd_d128, (hipasm::kernels::attn_bwd_config{.head_dim = 128, .causal = false, .keys_per_wave = 48}))
HIPASM_ATTN_BWD_MAIN_KERNELS(attn_bwd_d128_causal, (hipasm::kernels::attn_bwd_config{.head_dim = 128, .causal = true, .keys_per_wave = 48}))
// dQ by the recompute kernel (no atomics); the dQ kernel in an invocation of its own
#define RC_CONFIG(causal_) (hipasm::kernels::attn_bwd_config{.head_dim = 128, .causal = causal_, .dq = hipasm::kernels::attn_bwd_dq::recompute})
HIPASM_ATTN_BWD_MAIN_KERNELS(attn_bwd_d128_rc, RC_CONFIG(false))
HIPASM_ATTN_BWD_DQ_KERNEL(attn_bwd_d128_rc, RC_CONFIG(false))
HIPASM_ATTN_BWD_MAIN_KERNELS(attn_bwd_d128_causal_rc, RC_CONFIG(true))
HIPASM_ATTN_BWD_DQ_KERNEL(attn_bwd_d128_causal_rc, RC_CONFIG(true))
// f16
#define F16_CONFIG(causal_) (hipasm::kernels::attn_bwd_config{.head_dim = 128, .causal = causal_, .dtype = hipasm::kernels::attn_dtype::f16, .keys_per_wave = 48})
#define F16_RC_CONFIG(causal_)                                                                       \
  (hipasm::kernels::attn_bwd_config{.head_dim = 128, .causal = causal_, .dtype = hipasm::kernels::attn_dtype::f16, \
                                    .dq = hipasm::kernels::attn_bwd_dq::recompute})
HIPASM_ATTN_BWD_MAIN_KERNELS(attn_bwd_f16_d128, F16_CONFIG(false))
HIPASM_ATTN_BWD_MAIN_KERNELS(attn_bwd_f16_d128_causal, F16_CONFIG(true))
HIPASM_ATTN_BWD_MAIN_KERNELS(attn_bwd_f16_d128_rc, F16_RC_CONFIG(false))
HIPASM_ATTN_BWD_DQ_KERNEL(attn_bwd_f16_d128_rc, F16_RC_CONFIG(false))
HIPASM_ATTN_BWD_MAIN_KERNELS(attn_bwd_f16_d128_causal_rc, F16_RC_CONFIG(true))
HIPASM_ATTN_BWD_DQ_KERNEL(attn_bwd_f16_d128_causal_rc, F16_RC_CONFIG(true))
// dQ by packed bf16 atomics into dQ (AMD's a16; no dQ kernel, no convert for dQ)
// (48 keys a wave on gfx942; on gfx950 the 32x32 kernel, whose double-K 32x32x16 MFMAs cover the
// dV^T and dK^T products the 16x16 kernel runs at half rate, and a16's atomics bound neither)
#if defined(__gfx950__)
#define A16_KEYS_PER_WAVE 32
#else
#define A16_KEYS_PER_WAVE 48
#endif
#define A16_CONFIG(causal_) (hipasm::kernels::attn_bwd_config{.head_dim = 128, .causal = causal_, .dq = hipasm::kernels::attn_bwd_dq::atomic16, .keys_per_wave = A16_KEYS_PER_WAVE})
HIPASM_ATTN_BWD_MAIN_KERNELS(attn_bwd_d128_a16, A16_CONFIG(false))
HIPASM_ATTN_BWD_MAIN_KERNELS(attn_bwd_d128_causal_a16, A16_CONFIG(true))

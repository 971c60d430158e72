// test_attn_bwd.cpp's kernels: flash attention backward in the configurations the tests run.
#include <hipasm/kernels/attn_bwd.hpp>

HIPASM_ATTN_BWD_KERNELS(bwd_d128, (hipasm::kernels::attn_bwd_config{.head_dim = 128, .causal = false, .waves = 4}))
HIPASM_ATTN_BWD_KERNELS(bwd_d128_causal, (hipasm::kernels::attn_bwd_config{.head_dim = 128, .causal = true, .waves = 4}))
HIPASM_ATTN_BWD_KERNELS(bwd_d64, (hipasm::kernels::attn_bwd_config{.head_dim = 64, .causal = false, .waves = 4}))
HIPASM_ATTN_BWD_KERNELS(bwd_d64_causal, (hipasm::kernels::attn_bwd_config{.head_dim = 64, .causal = true, .waves = 4}))
// causal aligned top-left
HIPASM_ATTN_BWD_KERNELS(bwd_d128_tl, (hipasm::kernels::attn_bwd_config{.head_dim = 128, .causal = true, .top_left = true}))
HIPASM_ATTN_BWD_KERNELS(bwd_d64_tl_rc, (hipasm::kernels::attn_bwd_config{.head_dim = 64, .causal = true, .top_left = true, .dq = hipasm::kernels::attn_bwd_dq::recompute}))
// dQ recomputed by a kernel of its own (no atomics)
HIPASM_ATTN_BWD_KERNELS(bwd_d128_rc, (hipasm::kernels::attn_bwd_config{.head_dim = 128, .causal = false, .dq = hipasm::kernels::attn_bwd_dq::recompute}))
HIPASM_ATTN_BWD_KERNELS(bwd_d128_causal_rc, (hipasm::kernels::attn_bwd_config{.head_dim = 128, .causal = true, .dq = hipasm::kernels::attn_bwd_dq::recompute}))
HIPASM_ATTN_BWD_KERNELS(bwd_d64_rc, (hipasm::kernels::attn_bwd_config{.head_dim = 64, .causal = false, .dq = hipasm::kernels::attn_bwd_dq::recompute}))
HIPASM_ATTN_BWD_KERNELS(bwd_d64_causal_rc, (hipasm::kernels::attn_bwd_config{.head_dim = 64, .causal = true, .dq = hipasm::kernels::attn_bwd_dq::recompute}))
// f16 (every 16-bit tensor f16): both dQ modes, causal and not
#define F16_BWD(...) (hipasm::kernels::attn_bwd_config{__VA_ARGS__, .dtype = hipasm::kernels::attn_dtype::f16})
#define F16_BWD_RC(...) \
  (hipasm::kernels::attn_bwd_config{__VA_ARGS__, .dtype = hipasm::kernels::attn_dtype::f16, .dq = hipasm::kernels::attn_bwd_dq::recompute})
HIPASM_ATTN_BWD_KERNELS(bwd_d128_f16, F16_BWD(.head_dim = 128, .causal = false))
HIPASM_ATTN_BWD_KERNELS(bwd_d128_causal_f16, F16_BWD(.head_dim = 128, .causal = true))
HIPASM_ATTN_BWD_KERNELS(bwd_d128_f16_rc, F16_BWD_RC(.head_dim = 128, .causal = false))
HIPASM_ATTN_BWD_KERNELS(bwd_d64_causal_f16_rc, F16_BWD_RC(.head_dim = 64, .causal = true))
// dQ by packed 16-bit atomics into dQ itself (AMD's a16)
#define A16_BWD(...) (hipasm::kernels::attn_bwd_config{__VA_ARGS__, .dq = hipasm::kernels::attn_bwd_dq::atomic16})
HIPASM_ATTN_BWD_KERNELS(bwd_d128_a16, A16_BWD(.head_dim = 128, .causal = false))
HIPASM_ATTN_BWD_KERNELS(bwd_d128_causal_a16, A16_BWD(.head_dim = 128, .causal = true))
HIPASM_ATTN_BWD_KERNELS(bwd_d64_causal_a16, A16_BWD(.head_dim = 64, .causal = true))
HIPASM_ATTN_BWD_KERNELS(bwd_d128_causal_f16_a16, A16_BWD(.head_dim = 128, .causal = true, .dtype = hipasm::kernels::attn_dtype::f16))
// 48 keys a wave (16x16 MFMAs, query tiles of 16: attn_bwd_m16.hpp)
HIPASM_ATTN_BWD_MAIN_KERNELS(bwd_d128_k48, (hipasm::kernels::attn_bwd_config{.head_dim = 128, .causal = false, .keys_per_wave = 48}))
HIPASM_ATTN_BWD_MAIN_KERNELS(bwd_d128_causal_k48, (hipasm::kernels::attn_bwd_config{.head_dim = 128, .causal = true, .keys_per_wave = 48}))
HIPASM_ATTN_BWD_MAIN_KERNELS(bwd_d128_tl_f16_k48, (hipasm::kernels::attn_bwd_config{.head_dim = 128, .causal = true, .top_left = true, .dtype = hipasm::kernels::attn_dtype::f16, .keys_per_wave = 48}))

// test_attn_fwd.cpp's kernels: flash attention forward in the configurations the tests run.
#include <hipasm/kernels/attn_fwd.hpp>

HIPASM_ATTN_FWD_KERNEL(attn_d128, (hipasm::kernels::attn_fwd_config{.head_dim = 128, .causal = false, .waves = 4, .bn = 64}))
HIPASM_ATTN_FWD_KERNEL(attn_d128_causal, (hipasm::kernels::attn_fwd_config{.head_dim = 128, .causal = true, .waves = 4, .bn = 64}))
HIPASM_ATTN_FWD_KERNEL(attn_d64, (hipasm::kernels::attn_fwd_config{.head_dim = 64, .causal = false, .waves = 2, .bn = 32}))
HIPASM_ATTN_FWD_KERNEL(attn_d64_causal, (hipasm::kernels::attn_fwd_config{.head_dim = 64, .causal = true, .waves = 2, .bn = 32}))
HIPASM_ATTN_FWD_KERNEL(attn_d128_w4b32, (hipasm::kernels::attn_fwd_config{.head_dim = 128, .causal = true, .waves = 4, .bn = 32}))
HIPASM_ATTN_FWD_KERNEL(attn_d128_w8, (hipasm::kernels::attn_fwd_config{.head_dim = 128, .causal = false, .waves = 8, .bn = 64}))
HIPASM_ATTN_FWD_KERNEL(attn_d128_causal_w8, (hipasm::kernels::attn_fwd_config{.head_dim = 128, .causal = true, .waves = 8, .bn = 64}))
HIPASM_ATTN_FWD_KERNEL(attn_d128_cap30, (hipasm::kernels::attn_fwd_config{.head_dim = 128, .causal = false, .waves = 4, .bn = 64, .soft_cap = 30.0f}))
// causal aligned top-left
HIPASM_ATTN_FWD_KERNEL(attn_d128_tl, (hipasm::kernels::attn_fwd_config{.head_dim = 128, .causal = true, .top_left = true, .waves = 4, .bn = 64}))
HIPASM_ATTN_FWD_KERNEL(attn_d64_tl, (hipasm::kernels::attn_fwd_config{.head_dim = 64, .causal = true, .top_left = true, .waves = 2, .bn = 32}))
HIPASM_ATTN_FWD_KERNEL(attn_d64_causal_cap5, (hipasm::kernels::attn_fwd_config{.head_dim = 64, .causal = true, .waves = 2, .bn = 32, .soft_cap = 5.0f}))
// f16 (Q, K, V, O f16): 4 and 8 waves (gfx950: the ping-pong), causal and not, head dim 64
#define F16_FWD(...) (hipasm::kernels::attn_fwd_config{__VA_ARGS__})
HIPASM_ATTN_FWD_KERNEL(attn_d128_f16, F16_FWD(.head_dim = 128, .causal = false, .dtype = hipasm::kernels::attn_dtype::f16, .waves = 4, .bn = 64))
HIPASM_ATTN_FWD_KERNEL(attn_d128_causal_w8_f16, F16_FWD(.head_dim = 128, .causal = true, .dtype = hipasm::kernels::attn_dtype::f16, .waves = 8, .bn = 64))
HIPASM_ATTN_FWD_KERNEL(attn_d64_causal_f16, F16_FWD(.head_dim = 64, .causal = true, .dtype = hipasm::kernels::attn_dtype::f16, .waves = 2, .bn = 32))

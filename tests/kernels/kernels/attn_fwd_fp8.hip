// test_attn_fwd_fp8.cpp's kernels (gfx950): the fp8 flash attention forward in the
// configurations the tests run.
#include <hipasm/kernels/attn_fwd.hpp>

using hipasm::kernels::attn_dtype;
using hipasm::kernels::attn_fwd_config;

// the bench's 8-wave tile (two waves a SIMD, ping-pong)
HIPASM_ATTN_FWD_FP8_KERNEL(attn_fp8_w8, (attn_fwd_config{.head_dim = 128, .causal = false, .dtype = attn_dtype::fp8, .waves = 8, .bn = 64}))
HIPASM_ATTN_FWD_FP8_KERNEL(attn_fp8_causal_w8, (attn_fwd_config{.head_dim = 128, .causal = true, .dtype = attn_dtype::fp8, .waves = 8, .bn = 64}))
// 4 waves (no ping-pong)
HIPASM_ATTN_FWD_FP8_KERNEL(attn_fp8_causal_w4, (attn_fwd_config{.head_dim = 128, .causal = true, .dtype = attn_dtype::fp8, .waves = 4, .bn = 64}))
HIPASM_ATTN_FWD_FP8_KERNEL(attn_fp8_w4, (attn_fwd_config{.head_dim = 128, .causal = false, .dtype = attn_dtype::fp8, .waves = 4, .bn = 64}))
// causal aligned top-left, with logit soft-capping
HIPASM_ATTN_FWD_FP8_KERNEL(attn_fp8_tl_cap, (attn_fwd_config{.head_dim = 128, .causal = true, .top_left = true, .dtype = attn_dtype::fp8, .waves = 4, .bn = 64, .soft_cap = 30.0f}))

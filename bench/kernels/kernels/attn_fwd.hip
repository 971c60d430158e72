// bench_kernel_attn_fwd's kernels: flash attention forward, head dim 128, 8 waves (256 queries
// per workgroup, as aiter's fmha_v3_fwd), 64 keys per tile; causal and not.
#include <hipasm/kernels/attn_fwd.hpp>

HIPASM_ATTN_FWD_KERNEL(attn_fwd_d128, (hipasm::kernels::attn_fwd_config{.head_dim = 128, .causal = false, .waves = 8, .bn = 64}))
HIPASM_ATTN_FWD_KERNEL(attn_fwd_d128_causal, (hipasm::kernels::attn_fwd_config{.head_dim = 128, .causal = true, .waves = 8, .bn = 64}))
// 4 waves, 32 keys per tile: 32 KiB of LDS, two workgroups per CU whose waves share the SIMDs
// without a common barrier (one's softmax overlaps the other's MFMAs)
HIPASM_ATTN_FWD_KERNEL(attn_fwd_d128_w4b32, (hipasm::kernels::attn_fwd_config{.head_dim = 128, .causal = false, .waves = 4, .bn = 32}))
HIPASM_ATTN_FWD_KERNEL(attn_fwd_d128_causal_w4b32, (hipasm::kernels::attn_fwd_config{.head_dim = 128, .causal = true, .waves = 4, .bn = 32}))
// fp8 (OCP e4m3fn) Q/K/V, gfx950 only: 4 waves, 64-key tiles (two workgroups a CU, each on its
// own barriers; fp8's shorter MFMA phases leave the 8-wave ping-pong waiting at its barriers)
#if defined(__gfx950__)
HIPASM_ATTN_FWD_FP8_KERNEL(attn_fwd_fp8_d128, (hipasm::kernels::attn_fwd_config{.head_dim = 128, .causal = false, .dtype = hipasm::kernels::attn_dtype::fp8, .waves = 4, .bn = 64}))
HIPASM_ATTN_FWD_FP8_KERNEL(attn_fwd_fp8_d128_causal, (hipasm::kernels::attn_fwd_config{.head_dim = 128, .causal = true, .dtype = hipasm::kernels::attn_dtype::fp8, .waves = 4, .bn = 64}))
#endif

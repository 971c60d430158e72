// EXPECT: gemm_quant: the LDS buffers of the A and B tiles exceed the target's LDS
// The 256x256x128 fp8 tile with two LDS buffers (128 KiB) built for gfx942 (64 KiB of LDS): a
// compile error naming the problem (gfx950's 160 KiB hold it: tests/kernels gq_fp8_token_256_agpr).
#include <hipasm/kernels/gemm_quant.hpp>

HIPASM_GEMM_QUANT_KERNEL(bad_gemm, (hipasm::kernels::gemm_quant_config{.type = hipasm::kernels::quant_type::fp8, .scale = hipasm::kernels::quant_scale::per_token, .bm = 256, .bn = 256, .wm = 2, .wn = 2, .agpr_acc = true}))

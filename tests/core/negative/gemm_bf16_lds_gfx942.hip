// EXPECT: gemm_bf16: the LDS buffers of the A and B tiles exceed the target's LDS
// The 256x256x64 tile with two LDS buffers (128 KiB) built for gfx942 (64 KiB of LDS): a compile
// error naming the problem (gfx950's 160 KiB hold it: tests/kernels gemm_256x2).
#include <hipasm/kernels/gemm_bf16.hpp>

HIPASM_GEMM_BF16_KERNEL(bad_gemm, (hipasm::kernels::gemm_bf16_config{.bm = 256, .bn = 256, .bk = 64, .wm = 2, .wn = 4, .ahead = 1, .lds_buffers = 2}))

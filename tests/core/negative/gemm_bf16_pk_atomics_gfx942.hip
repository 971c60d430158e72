// EXPECT: gemm_bf16: bf16_atomics needs buffer_atomic_pk_add_bf16 \(gfx950\)
// Split-K adding bf16 pairs built for gfx942 (no buffer_atomic_pk_add_bf16): a compile error
// naming the problem.
#include <hipasm/kernels/gemm_bf16.hpp>

HIPASM_GEMM_BF16_KERNEL(bad_gemm, (hipasm::kernels::gemm_bf16_config{.bm = 64, .bn = 64, .bk = 32, .out_bf16 = true, .split_k = 2, .bf16_atomics = true}))

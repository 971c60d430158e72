// EXPECT: gemm_bf16: b_kn: the B tile \(bk x bn\) must be 1 to 8 whole steps of 8x2 elements a lane
// A bf16 GEMM with B stored K x N whose B tile is too small for the transposing copy (64x32 of
// 256 lanes: half a step): a compile error with the problem (include/hipasm/kernels/gemm_bf16.hpp).
#include <hipasm/kernels/gemm_bf16.hpp>

HIPASM_GEMM_BF16_KERNEL(bad_gemm, (hipasm::kernels::gemm_bf16_config{.bm = 64, .bn = 64, .bk = 32, .b_kn = true}))

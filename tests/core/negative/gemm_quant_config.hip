// EXPECT: gemm_quant: block128 scales are for fp8 \(int8 takes per_tensor or per_token\)
// A quantized GEMM configuration the kernel cannot build (int8 with 128x128 block scales): a
// compile error with the problem (include/hipasm/kernels/gemm_quant.hpp).
#include <hipasm/kernels/gemm_quant.hpp>

HIPASM_GEMM_QUANT_KERNEL(bad_gemm, (hipasm::kernels::gemm_quant_config{.type = hipasm::kernels::quant_type::i8,
                                                               .scale = hipasm::kernels::quant_scale::block128}))

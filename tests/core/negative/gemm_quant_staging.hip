// EXPECT: gemm_quant: more than 18 dwordx4 staging loads per lane
// Two tiles of 128 + 256 rows x 128 bytes in flight through 256 lanes' VGPRs: 24 dwordx4 loads a lane.
#include <hipasm/kernels/gemm_quant.hpp>

HIPASM_GEMM_QUANT_KERNEL(bad_gemm, (hipasm::kernels::gemm_quant_config{.type = hipasm::kernels::quant_type::i8,
                                                               .scale = hipasm::kernels::quant_scale::per_token,
                                                               .bn = 256, .ahead = 2}))

// EXPECT: gemm_quant: ahead, lds_buffers and lds_ahead are for the VGPR copies
// `ahead` on the LDS-DMA pipeline (dma = true), which runs stages - 1 tiles ahead instead.
#include <hipasm/kernels/gemm_quant.hpp>

HIPASM_GEMM_QUANT_KERNEL(bad_gemm, (hipasm::kernels::gemm_quant_config{.type = hipasm::kernels::quant_type::i8,
                                                               .scale = hipasm::kernels::quant_scale::per_token,
                                                               .dma = true, .ahead = 2}))

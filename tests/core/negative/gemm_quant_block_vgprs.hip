// EXPECT: gemm_quant: block128: accumulator, scale, fragment and staging VGPRs exceed 208 per wave
// fp8 with 128x128 block scales on 4 waves of 64x64 and 128-byte K tiles through VGPRs, two
// tiles in flight: the accumulators, the block partial sums (one set: two do not fit), the
// scales and the staging registers do not fit a wave; a compile error naming the problem, not
// a register-allocation failure deep inside.
#include <hipasm/kernels/gemm_quant.hpp>

HIPASM_GEMM_QUANT_KERNEL(bad_gemm, (hipasm::kernels::gemm_quant_config{.type = hipasm::kernels::quant_type::fp8,
                                                               .scale = hipasm::kernels::quant_scale::block128,
                                                               .ahead = 2}))

// EXPECT: gemm_quant: block128: the tile buffers must hold 4 KiB a wave
// fp8 with 128x128 block scales on 4 waves and one LDS buffer of 64x64x64 tiles (8 KiB): the
// epilogue turns each wave's 32x32 blocks around in 4 KiB of the tile LDS, which does not hold
// 4 waves' worth; a compile error naming the problem.
#include <hipasm/kernels/gemm_quant.hpp>

HIPASM_GEMM_QUANT_KERNEL(bad_gemm, (hipasm::kernels::gemm_quant_config{.type = hipasm::kernels::quant_type::fp8,
                                                               .scale = hipasm::kernels::quant_scale::block128,
                                                               .bm = 64, .bn = 64, .bk = 64, .wm = 2, .wn = 2,
                                                               .lds_buffers = 1}))

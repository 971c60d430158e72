// EXPECT: hipasm mxfp4_quant: d must be a positive multiple of 32
// ARCH: gfx950
// A row of MXFP4 is whole blocks of 32 elements (include/hipasm/kernels/mxfp4_quant.hpp): another
// d is a compile error.
#include <hipasm/kernels/mxfp4_quant.hpp>

constexpr hipasm::kernels::mxfp4_quant_config cfg{.d = 4080};
HIPASM_MXFP4_QUANT_KERNEL(bad_mx_d, cfg)

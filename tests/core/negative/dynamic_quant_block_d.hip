// EXPECT: hipasm dynamic_quant: with block = 128, d must be a multiple of 128
// fp8 with a scale per 1x128 block (include/hipasm/kernels/dynamic_quant.hpp) takes rows of whole
// blocks: another d is a compile error.
#include <hipasm/kernels/dynamic_quant.hpp>

constexpr hipasm::kernels::dynamic_quant_config cfg{.d = 1000, .block = 128};
HIPASM_DYNAMIC_QUANT_KERNEL(bad_block, cfg)

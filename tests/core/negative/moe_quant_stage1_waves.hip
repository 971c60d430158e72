// EXPECT: moe_quant stage 1: 4 column waves.*moe_quant_stage1_waves.hip:9
// The quantized MoE's stage 1 re-quantizes h per 1x128 block inside a workgroup: a configuration
// of other than 4 column waves (128 columns of inter) is a compile error at the user's kernel line.
#include <hipasm/kernels/moe_quant.hpp>

constexpr hipasm::kernels::moe_quant_config stage1{.waves = 2, .k_split = 2};

// (the kernel:)
HIPASM_MOE_QUANT_STAGE1_KERNEL(bad_stage1, stage1)

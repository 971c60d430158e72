// EXPECT: moe_quant: fp8 e4m3fnuz \(gfx942\) only.*moe_quant_gfx950.hip:9
// ARCH: gfx950
// The quantized MoE takes gfx942's fp8 (e4m3fnuz, its scales' range): built for gfx950 (OCP
// e4m3fn) it is a compile error naming the target, at the user's kernel line.
#include <hipasm/kernels/moe_quant.hpp>

constexpr hipasm::kernels::moe_quant_config stage2{.waves = 4};

HIPASM_MOE_QUANT_STAGE2_KERNEL(stage2_on_gfx950, stage2)

// EXPECT: moe_fp4_gfx942.hip:9:1: error: static assertion failed.*hipasm moe_fp4: the target has no scaled MFMAs
// ARCH: gfx942
// The MXFP4 MoE (include/hipasm/kernels/moe_fp4.hpp) needs gfx950's scaled MFMAs
// (v_mfma_scale_f32_32x32x64_f8f6f4): built for gfx942 a stage kernel is a compile error on the
// macro's line.
#include <hipasm/kernels/moe_fp4.hpp>

constexpr hipasm::kernels::moe_fp4_config cfg{};
HIPASM_MOE_FP4_STAGE1_KERNEL(bad_moe_fp4, cfg)

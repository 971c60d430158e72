// EXPECT: attn_fwd_fp8_config.hip:9:1: error: static assertion failed.*attn_fwd: fp8 takes bn \(keys per tile\) 64
// ARCH: gfx950
// An fp8 configuration attn_fwd_config_error rejects (include/hipasm/kernels/attn_fwd.hpp: bn 128
// would take more than 256 VGPRs a lane): a compile error naming the kernel's line.
#include <hipasm/kernels/attn_fwd.hpp>

constexpr hipasm::kernels::attn_fwd_config cfg{
    .head_dim = 128, .dtype = hipasm::kernels::attn_dtype::fp8, .waves = 4, .bn = 128};
HIPASM_ATTN_FWD_FP8_KERNEL(bad_fp8_bn, cfg)

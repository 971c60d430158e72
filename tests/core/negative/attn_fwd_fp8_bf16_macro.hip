// EXPECT: error: static assertion failed.*attn_fwd_kernel takes 16-bit Q/K/V: an fp8 configuration is attn_fwd_fp8_kernel
// ARCH: gfx950
// An fp8 configuration given to the bf16 macro (whose kernel's arguments are bf16 pointers): a
// compile error naming the fp8 macro.
#include <hipasm/kernels/attn_fwd.hpp>

constexpr hipasm::kernels::attn_fwd_config cfg{.head_dim = 128, .dtype = hipasm::kernels::attn_dtype::fp8, .waves = 8, .bn = 64};
HIPASM_ATTN_FWD_KERNEL(bf16_macro_fp8_cfg, cfg)

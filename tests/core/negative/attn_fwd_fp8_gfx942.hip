// EXPECT: attn_fwd_fp8_gfx942.hip:9:1: error: static assertion failed.*attn_fwd fp8: the target has no OCP e4m3 MFMA
// ARCH: gfx942
// The fp8 flash attention forward (include/hipasm/kernels/attn_fwd.hpp, dtype fp8) needs gfx950's
// OCP e4m3fn MFMA (v_mfma_f32_32x32x64_f8f6f4; gfx942's fp8 is fnuz): built for gfx942 the kernel
// is a compile error on the macro's line.
#include <hipasm/kernels/attn_fwd.hpp>

constexpr hipasm::kernels::attn_fwd_config cfg{.head_dim = 128, .dtype = hipasm::kernels::attn_dtype::fp8, .waves = 8, .bn = 64};
HIPASM_ATTN_FWD_FP8_KERNEL(bad_fp8, cfg)

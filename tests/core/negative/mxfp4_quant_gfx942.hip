// EXPECT: mxfp4_quant_gfx942.hip:9:1: error: static assertion failed.*hipasm mxfp4_quant: the target has no OCP MX conversions
// ARCH: gfx942
// MXFP4 quantization (include/hipasm/kernels/mxfp4_quant.hpp) needs gfx950's v_cvt_scalef32_*
// conversions: built for gfx942 the kernel is a compile error on the macro's line.
#include <hipasm/kernels/mxfp4_quant.hpp>

constexpr hipasm::kernels::mxfp4_quant_config cfg{.d = 4096};

HIPASM_MXFP4_QUANT_KERNEL(bad_mx, cfg)

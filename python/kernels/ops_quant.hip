// HIPASM_KERNARG_PRELOAD
// hipasm.ops' 8-bit kernels (python/hipasm/ops.py): per-token dynamic quantization of bf16
// rows and the per-token-scaled GEMM on fp8 (e4m3fnuz) or int8. Names:
//   dynamic_quant_<fp8|i8>_d<d>_w<waves>                 bf16 rows of d, one a workgroup
//   gemm_a8w8_<fp8|i8>_m<bm>_n<bn>_k<bk>_w<wm>x<wn>      per-token scales, bf16 C, K % 4 == 0
// Rows, M, N and K are run-time sizes.
#include <hipasm/kernels/dynamic_quant.hpp>
#include <hipasm/kernels/gemm_quant.hpp>

namespace ops_cfg {
using hipasm::kernels::quant_scale;
using hipasm::kernels::quant_type;
using hipasm::kernels::dynamic_quant_config;
constexpr dynamic_quant_config dq_fp8_256{.d = 256, .type = quant_type::fp8, .waves = 1};
constexpr dynamic_quant_config dq_i8_256{.d = 256, .type = quant_type::i8, .waves = 1};
constexpr dynamic_quant_config dq_fp8_4096{.d = 4096, .type = quant_type::fp8, .waves = 4};
constexpr dynamic_quant_config dq_i8_4096{.d = 4096, .type = quant_type::i8, .waves = 4};
constexpr hipasm::kernels::gemm_quant_config gq_fp8{.type = quant_type::fp8, .scale = quant_scale::per_token,
                                           .bm = 64, .bn = 64, .bk = 128, .wm = 2, .wn = 2};
constexpr hipasm::kernels::gemm_quant_config gq_i8{.type = quant_type::i8, .scale = quant_scale::per_token,
                                          .bm = 64, .bn = 64, .bk = 128, .wm = 2, .wn = 2};
}  // namespace ops_cfg

HIPASM_DYNAMIC_QUANT_KERNEL(dynamic_quant_fp8_d256_w1, ops_cfg::dq_fp8_256)
HIPASM_DYNAMIC_QUANT_KERNEL(dynamic_quant_i8_d256_w1, ops_cfg::dq_i8_256)
HIPASM_DYNAMIC_QUANT_KERNEL(dynamic_quant_fp8_d4096_w4, ops_cfg::dq_fp8_4096)
HIPASM_DYNAMIC_QUANT_KERNEL(dynamic_quant_i8_d4096_w4, ops_cfg::dq_i8_4096)
HIPASM_GEMM_QUANT_KERNEL(gemm_a8w8_fp8_m64_n64_k128_w2x2, ops_cfg::gq_fp8)
HIPASM_GEMM_QUANT_KERNEL(gemm_a8w8_i8_m64_n64_k128_w2x2, ops_cfg::gq_i8)

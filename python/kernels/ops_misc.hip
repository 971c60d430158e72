// HIPASM_KERNARG_PRELOAD
// hipasm.ops' row-wise kernels besides ops.hip's (python/hipasm/ops.py); the row length is a
// configuration, the row count a run-time size. Names:
//   rms_norm_bf16_h<hidden>_w<waves>, layernorm_bf16_h<hidden>_w<waves>   one row per workgroup
//   softmax_<bf16|f32>_c<cols>_w<waves>                                   one row per workgroup
//   topk_softmax_e<experts>_k<topk>_w<waves>_l<lanes>                     64 * waves / lanes tokens per workgroup
#include <hipasm/kernels/layernorm.hpp>
#include <hipasm/kernels/rmsnorm.hpp>
#include <hipasm/kernels/softmax.hpp>
#include <hipasm/kernels/topk_softmax.hpp>

namespace ops_cfg {
using namespace hipasm::kernels;
constexpr norm_config norm_1024{.hidden = 1024, .residual = false, .waves = 2};
constexpr norm_config norm_4096{.hidden = 4096, .residual = false, .waves = 4};
constexpr norm_config norm_256{.hidden = 256, .residual = false, .waves = 1};
constexpr softmax_config softmax_bf16_256{.cols = 256, .bf16 = true, .waves = 1};
constexpr softmax_config softmax_bf16_1024{.cols = 1024, .bf16 = true, .waves = 1};
constexpr softmax_config softmax_f32_256{.cols = 256, .bf16 = false, .waves = 1};
constexpr softmax_config softmax_f32_1024{.cols = 1024, .bf16 = false, .waves = 1};
constexpr topk_softmax_config topk_8x2{.experts = 8, .topk = 2, .waves = 1, .lanes = 2};
constexpr topk_softmax_config topk_64x8{.experts = 64, .topk = 8, .waves = 1, .lanes = 8};
constexpr topk_softmax_config topk_128x8{.experts = 128, .topk = 8, .waves = 4, .lanes = 8};
}  // namespace ops_cfg

HIPASM_RMSNORM_KERNEL(rms_norm_bf16_h1024_w2, ops_cfg::norm_1024)
HIPASM_RMSNORM_KERNEL(rms_norm_bf16_h4096_w4, ops_cfg::norm_4096)
HIPASM_LAYERNORM_KERNEL(layernorm_bf16_h256_w1, ops_cfg::norm_256)
HIPASM_LAYERNORM_KERNEL(layernorm_bf16_h1024_w2, ops_cfg::norm_1024)
HIPASM_LAYERNORM_KERNEL(layernorm_bf16_h4096_w4, ops_cfg::norm_4096)
HIPASM_SOFTMAX_KERNEL(softmax_bf16_c256_w1, ops_cfg::softmax_bf16_256)
HIPASM_SOFTMAX_KERNEL(softmax_bf16_c1024_w1, ops_cfg::softmax_bf16_1024)
HIPASM_SOFTMAX_KERNEL(softmax_f32_c256_w1, ops_cfg::softmax_f32_256)
HIPASM_SOFTMAX_KERNEL(softmax_f32_c1024_w1, ops_cfg::softmax_f32_1024)
HIPASM_TOPK_SOFTMAX_KERNEL(topk_softmax_e8_k2_w1_l2, ops_cfg::topk_8x2)
HIPASM_TOPK_SOFTMAX_KERNEL(topk_softmax_e64_k8_w1_l8, ops_cfg::topk_64x8)
HIPASM_TOPK_SOFTMAX_KERNEL(topk_softmax_e128_k8_w4_l8, ops_cfg::topk_128x8)

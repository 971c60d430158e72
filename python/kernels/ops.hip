// HIPASM_KERNARG_PRELOAD
// The library kernels hipasm.ops calls (python/hipasm/ops.py); the other python/kernels/*.hip add
// configurations and kernels, a code object each. The kernel names carry what the Python side
// needs for the launch geometry:
//   rms_norm_bf16_h<hidden>_w<waves>     one row per workgroup of 64*waves lanes
//   silu_and_mul_bf16_d<d>_w<waves>_s<steps>
//   gemv_bf16_r<rows>_w<waves>           y (bf16) = A x, rows*waves rows per workgroup
//   gemm_bf16_m<bm>_n<bn>_w<wm>x<wn>     C (bf16) = A B^T, a bm x bn tile per workgroup of wm*wn waves
//   rotary_neox_hd<head_dim>_rd<rot_dim>_q<heads_q>_k<heads_k>_w<waves>   f32 cos/sin cache
// The Python wrappers parse these names; a configuration added here is usable at once.
#include <hipasm/kernels/act_and_mul.hpp>
#include <hipasm/kernels/gemm_bf16.hpp>
#include <hipasm/kernels/gemv.hpp>
#include <hipasm/kernels/rmsnorm.hpp>
#include <hipasm/kernels/rotary.hpp>

namespace ops_cfg {
using namespace hipasm::kernels;
constexpr norm_config rms_256{.hidden = 256, .residual = false, .waves = 1};
constexpr act_and_mul_config silu_512{.d = 512, .act = activation::silu, .waves = 4, .steps = 2};
constexpr gemv_config gemv_bf16{.y_bf16 = true, .rows = 4, .waves = 2, .unroll = 2};
constexpr hipasm::kernels::gemm_bf16_config gemm_bf16{.bm = 128, .bn = 128, .bk = 32, .wm = 2, .wn = 2, .out_bf16 = true};
constexpr rotary_config rope_64{.head_dim = 64, .rot_dim = 64, .heads_q = 4, .heads_k = 2, .neox = true,
                                .cache_f32 = true, .waves = 1};
}  // namespace ops_cfg

HIPASM_RMSNORM_KERNEL(rms_norm_bf16_h256_w1, ops_cfg::rms_256)
HIPASM_ACT_AND_MUL_KERNEL(silu_and_mul_bf16_d512_w4_s2, ops_cfg::silu_512)
HIPASM_GEMV_KERNEL(gemv_bf16_r4_w2, ops_cfg::gemv_bf16)
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_m128_n128_w2x2, ops_cfg::gemm_bf16)
HIPASM_ROTARY_KERNEL(rotary_neox_hd64_rd64_q4_k2_w1, ops_cfg::rope_64)

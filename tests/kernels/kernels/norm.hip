// HIPASM_KERNARG_PRELOAD (the kernels read their arguments from the preloaded SGPRs, as in the benchmarks)
// The norm kernels' test configurations: tails (hidden not a multiple of a step), one and
// several steps, 1/2/4 waves, with and without the fused residual add.
#include <hipasm/kernels/layernorm.hpp>
#include <hipasm/kernels/rmsnorm.hpp>

#include "norm_configs.hpp"

HIPASM_RMSNORM_KERNEL(rms_1000, cfg::rms_1000)
HIPASM_RMSNORM_KERNEL(rms_res_3000, cfg::rms_res_3000)
HIPASM_RMSNORM_KERNEL(rms_res_4096, cfg::rms_res_4096)
HIPASM_RMSNORM_KERNEL(rms_2, cfg::rms_2)
HIPASM_LAYERNORM_KERNEL(ln_1000, cfg::ln_1000)
HIPASM_LAYERNORM_KERNEL(ln_res_3000, cfg::ln_res_3000)
HIPASM_LAYERNORM_KERNEL(ln_8192, cfg::ln_8192)
HIPASM_RMSNORM_KERNEL(rms_f16_1000, cfg::rms_f16_1000)
HIPASM_RMSNORM_KERNEL(rms_f16_res_3000, cfg::rms_f16_res_3000)
HIPASM_LAYERNORM_KERNEL(ln_f16_1000, cfg::ln_f16_1000)
HIPASM_LAYERNORM_KERNEL(ln_f16_res_8192, cfg::ln_f16_res_8192)

// EXPECT: hipasm rmsnorm_quant: the output is fp8 \(the target.s e4m3: fnuz on gfx942, OCP on gfx950\) or i8
// rmsnorm_quant writes fp8 or int8; bf8 is a compile error, not an int8 output
// (include/hipasm/kernels/rmsnorm.hpp).
#include <hipasm/kernels/rmsnorm.hpp>

constexpr hipasm::kernels::norm_config cfg{.hidden = 4096};
HIPASM_RMSNORM_QUANT_KERNEL(bad_rq, cfg, hipasm::kernels::quant_type::bf8)

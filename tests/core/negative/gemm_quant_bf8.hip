// EXPECT: gemm_quant: operands are fp8 \(the target.s e4m3: fnuz on gfx942, OCP on gfx950\) or i8, not bf8
// bf8 (e5m2fnuz) is dynamic_quant's output only: a GEMM asked for it is a compile error with the
// problem, not an fp8 GEMM (include/hipasm/kernels/gemm_quant.hpp).
#include <hipasm/kernels/gemm_quant.hpp>

HIPASM_GEMM_QUANT_KERNEL(bad_gemm, (hipasm::kernels::gemm_quant_config{.type = hipasm::kernels::quant_type::bf8}))

// bench/lowering's GEMM (pyhip's test_gemm re-expressed) at a size the simulator runs in
// seconds: K = 128, N = 128, one 128x128 workgroup tile (test_gemm_pyhip_sim.cpp).
#include "../../../bench/lowering/gemm_pyhip.hpp"

extern "C" __attribute__((global)) void gemm_pyhip_k128(const unsigned short* a, const unsigned short* b, unsigned short* c,
                                                        int m) {
  HIPASM_KERNEL_BODY((bench_lowering::gemm_kernel<128, 128>), a, b, c, m);
}

#include <hipasm/kernels/topk_softmax.hpp>

#define HIPASM_BENCH_TOPK(E, K) \
  HIPASM_TOPK_SOFTMAX_KERNEL(topk_softmax_##E##x##K, (hipasm::kernels::topk_softmax_config{.experts = E, .topk = K, .waves = 4}))
HIPASM_BENCH_TOPK(8, 2)
HIPASM_BENCH_TOPK(8, 8)
HIPASM_BENCH_TOPK(64, 2)
HIPASM_BENCH_TOPK(64, 8)
HIPASM_BENCH_TOPK(128, 2)
HIPASM_BENCH_TOPK(128, 8)
HIPASM_BENCH_TOPK(256, 2)
HIPASM_BENCH_TOPK(256, 8)

#include "topk_bench_configs.hpp"

#define HIPASM_BENCH_TOPK_ALL(E, K) HIPASM_TOPK_SOFTMAX_KERNEL(topk_softmax_##E##x##K##_l0, (bench_cfg::topk<E, K>)) HIPASM_TOPK_SOFTMAX_KERNEL(topk_softmax_##E##x##K##_lat, (bench_cfg::topk<E, K, bench_cfg::topk_latency>))
HIPASM_BENCH_TOPK_ALL(8, 2)
HIPASM_BENCH_TOPK_ALL(8, 8)
HIPASM_BENCH_TOPK_ALL(64, 2)
HIPASM_BENCH_TOPK_ALL(64, 8)
HIPASM_BENCH_TOPK_ALL(128, 2)
HIPASM_BENCH_TOPK_ALL(128, 8)
HIPASM_BENCH_TOPK_ALL(256, 2)
HIPASM_BENCH_TOPK_ALL(256, 8)

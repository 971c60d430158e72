// bench_kernel_layernorm [AITER_DIR]: see bench_norm.hpp (aiter has no comparable asm kernel).
#include "bench_norm.hpp"
int main() { return bench::norm_main<true>("layernorm"); }

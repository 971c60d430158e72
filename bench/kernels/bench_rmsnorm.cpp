// bench_kernel_rmsnorm [AITER_DIR]: see bench_norm.hpp (aiter has no comparable asm kernel).
#include "bench_norm.hpp"
int main() { return bench::norm_main<false>("rmsnorm"); }

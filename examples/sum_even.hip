// Code object of examples/sum_even.hpp (pyhip's README kernel).
#include <hipasm/kernel.hpp>

#include "sum_even.hpp"

extern "C" __attribute__((global)) void sum_even(int* out, int n) { HIPASM_KERNEL_BODY(examples::sum_even, out, n); }

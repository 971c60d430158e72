// Kernels of test_vcc_compares.cpp (vcc_compares.hpp): the vcc-compares step on and off.
#include "vcc_compares.hpp"

using namespace vcc_compares;

extern "C" __attribute__((global)) void on_literal_if(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(vcc_kernel<literal_if>, out, a, b); }
extern "C" __attribute__((global)) void off_literal_if(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(vcc_kernel_off<literal_if>, out, a, b); }
extern "C" __attribute__((global)) void on_literal_right(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(vcc_kernel<literal_right>, out, a, b); }
extern "C" __attribute__((global)) void off_literal_right(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(vcc_kernel_off<literal_right>, out, a, b); }
extern "C" __attribute__((global)) void on_sgpr_left(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(vcc_kernel<sgpr_left>, out, a, b); }
extern "C" __attribute__((global)) void off_sgpr_left(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(vcc_kernel_off<sgpr_left>, out, a, b); }
extern "C" __attribute__((global)) void on_select_literal(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(vcc_kernel<select_literal>, out, a, b); }
extern "C" __attribute__((global)) void off_select_literal(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(vcc_kernel_off<select_literal>, out, a, b); }
extern "C" __attribute__((global)) void on_if_else(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(vcc_kernel<if_else>, out, a, b); }
extern "C" __attribute__((global)) void off_if_else(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(vcc_kernel_off<if_else>, out, a, b); }
extern "C" __attribute__((global)) void on_f32_literal(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(vcc_kernel<f32_literal>, out, a, b); }
extern "C" __attribute__((global)) void off_f32_literal(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(vcc_kernel_off<f32_literal>, out, a, b); }
extern "C" __attribute__((global)) void on_chained(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(vcc_kernel<chained>, out, a, b); }
extern "C" __attribute__((global)) void off_chained(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(vcc_kernel_off<chained>, out, a, b); }

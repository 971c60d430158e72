// test_toolkit.cpp's kernels (toolkit_kernels.hpp).
#include "toolkit_kernels.hpp"

#define K2(name, fn) extern "C" __attribute__((global)) void name(int* o, int n) { HIPASM_KERNEL_BODY(fn, o, n); }
#define K3(name, fn) extern "C" __attribute__((global)) void name(int* o, const int* i, int n) { HIPASM_KERNEL_BODY(fn, o, i, n); }
K2(unroll_ct_0_4, tk_unroll_ct_0_4)
K2(unroll_ct_3_4, tk_unroll_ct_3_4)
K2(unroll_ct_4_4, tk_unroll_ct_4_4)
K2(unroll_ct_10_4, tk_unroll_ct_10_4)
K2(unroll_ct_9_3, tk_unroll_ct_9_3)
K2(unroll_ct_7_1, tk_unroll_ct_7_1)
K2(unroll_rt_4, tk_unroll_rt_4)
K2(unroll_rt_3, tk_unroll_rt_3)
K3(pipe_ct_0_2_0, tk_pipe_ct_0_2_0)
K3(pipe_ct_1_3_0, tk_pipe_ct_1_3_0)
K3(pipe_ct_2_2_0, tk_pipe_ct_2_2_0)
K3(pipe_ct_5_2_0, tk_pipe_ct_5_2_0)
K3(pipe_ct_8_3_0, tk_pipe_ct_8_3_0)
K3(pipe_ct_9_3_1, tk_pipe_ct_9_3_1)
K3(pipe_ct_7_4_1, tk_pipe_ct_7_4_1)
K3(pipe_rt_2, tk_pipe_rt_2)
K3(pipe_rt_3, tk_pipe_rt_3)
K3(pipe_rt_2_over, tk_pipe_rt_2_over)
K3(pipe_rt_3_over, tk_pipe_rt_3_over)
K3(pipe_rt_4_il_over, tk_pipe_rt_4_il_over)
extern "C" __attribute__((global)) void regs(int* o, const int* i) { HIPASM_KERNEL_BODY(tk::regs_kernel, o, i); }
extern "C" __attribute__((global)) void pin_reuse(int* o) { HIPASM_KERNEL_BODY(tk::pin_reuse, o); }
extern "C" __attribute__((global)) void exec_masks(int* o, const int* i, int n) { HIPASM_KERNEL_BODY(tk::exec_kernel, o, i, n); }
extern "C" __attribute__((global)) void exec_flow(int* o, const int* i, int n) { HIPASM_KERNEL_BODY(tk::exec_flow_kernel, o, i, n); }
extern "C" __attribute__((global)) void jumps(int* o, int n) { HIPASM_KERNEL_BODY(tk::jump_kernel, o, n); }
extern "C" __attribute__((global)) void debug_log_3d(uint32_t* d) { HIPASM_KERNEL_BODY(tk::debug_3d_kernel, d); }
extern "C" __attribute__((global)) void debug_log_kernel(float* o, const float* i, uint32_t* d, int n) {
  HIPASM_KERNEL_BODY(tk::debug_kernel, o, i, d, n);
}

// A whole HIP program (host and device, HIP's headers) built by hipasm_add_hip_executable: a
// hipasm kernel and a HIP C++ kernel that calls AMD's device libraries (blockDim, assert,
// printf). With a device it runs both and checks them; without one (here) it says so, and
// consumer_test.cmake runs the kernels of its code object in hipasm-sim instead.
#include <hip/hip_runtime.h>
#include <cassert>
#include <cstdio>
#include <vector>
#include "kernel_fn.hpp"

extern "C" __global__ void double_it(int* out, const int* in, unsigned n) {
  HIPASM_KERNEL_BODY(double_it_fn, out, in, n);
}

// out[i] = 3 * i + blockDim.x for i < n; printf only for an impossible n.
extern "C" __global__ void index_times_three(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(n > 0);
  if (n > (1 << 30)) printf("index_times_three: n = %d is too large\n", n);
  if (i < n) out[i] = 3 * i + blockDim.x;
}

int main() {
  int devices = 0;
  if (hipGetDeviceCount(&devices) != hipSuccess || devices == 0) {
    std::puts("hip_program: no device");
    return 0;
  }
  constexpr int n = 100;
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = i - 7;
  int *d_in = nullptr, *d_out = nullptr;
  auto fail = [](const char* what) { std::printf("hip_program: %s failed\n", what); return 1; };
  if (hipMalloc(&d_in, n * sizeof(int)) != hipSuccess || hipMalloc(&d_out, n * sizeof(int)) != hipSuccess ||
      hipMemcpy(d_in, in.data(), n * sizeof(int), hipMemcpyHostToDevice) != hipSuccess)
    return fail("setup");
  hipLaunchKernelGGL(double_it, dim3(2), dim3(64), 0, 0, d_out, d_in, unsigned(n));
  if (hipMemcpy(out.data(), d_out, n * sizeof(int), hipMemcpyDeviceToHost) != hipSuccess) return fail("double_it");
  for (int i = 0; i < n; ++i)
    if (out[i] != 2 * in[i]) return fail("double_it's check");
  hipLaunchKernelGGL(index_times_three, dim3(2), dim3(64), 0, 0, d_out, n);
  if (hipMemcpy(out.data(), d_out, n * sizeof(int), hipMemcpyDeviceToHost) != hipSuccess) return fail("index_times_three");
  for (int i = 0; i < n; ++i)
    if (out[i] != 3 * i + 64) return fail("index_times_three's check");
  std::puts("hip_program: OK");
  return 0;
}

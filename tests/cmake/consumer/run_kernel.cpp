// Runs double_it of a code object (argv[1]) through hipasm's launcher: in the simulator by
// default (HIPASM_BACKEND). Checks out[i] = 2 * in[i] for i < n and nothing written past n.
#include <cstdio>
#include <exception>
#include <vector>

#include "hipasm/rt/launcher.hpp"

int main(int argc, char** argv) try {
  if (argc != 2) {
    std::fputs("usage: run_kernel CODE_OBJECT\n", stderr);
    return 2;
  }
  namespace rt = hipasm::rt;
  auto dev = rt::device::open();
  if (!dev) {
    std::puts("run_kernel: no device for this backend");
    return 1;
  }
  auto mod = dev->load_file(argv[1]);
  constexpr unsigned n = 100, total = 128;
  std::vector<int> in(total);
  for (unsigned i = 0; i < total; ++i) in[i] = int(i) * 5 - 40;
  rt::buffer<int> d_in(*dev, in), d_out(*dev, std::vector<int>(total, -1));
  auto report = dev->launch(*mod, "double_it", {2}, {64}, rt::kernel_args().add(d_out.ptr()).add(d_in.ptr()).add(n));
  if (!report.diagnostics.empty()) {
    std::printf("run_kernel: checker: %s\n", report.diagnostics[0].c_str());
    return 1;
  }
  auto out = d_out.download();
  for (unsigned i = 0; i < total; ++i) {
    int want = i < n ? 2 * in[i] : -1;
    if (out[i] != want) {
      std::printf("run_kernel: out[%u] = %d, expected %d\n", i, out[i], want);
      return 1;
    }
  }
  std::puts("run_kernel: OK");
  return 0;
} catch (const std::exception& e) {
  std::printf("run_kernel: %s\n", e.what());
  return 1;
}

// Helpers of sim-core's tests (test_scalar.cpp, test_dispatch.cpp): load a code object with
// the simulator's loader and run one dispatch through run_dispatch directly (no launcher), so
// the dispatcher and the semantics are tested on their own.
#pragma once
#include <cstring>
#include <string>
#include <vector>

#include "dispatch.hpp"
#include "elf.hpp"

namespace core_test {

inline std::string built(const std::string& file) { return std::string(HIPASM_SIM_TEST_DIR) + "/" + file; }

struct Kernel {
  hipasm::sim::CodeObject co;
  const hipasm::sim::KernelInfo* info = nullptr;
  Kernel(const std::string& path, const std::string& name)
      : co(hipasm::sim::load_code_object(hipasm::sim::read_file_bytes(path))), info(&co.kernel(name)) {}
  const hipasm::sim::KernelImage& image() const { return info->image; }
};

// Kernel argument bytes: values appended at their natural alignment (the C ABI the kernels use).
struct Args {
  std::vector<uint8_t> bytes;
  template <class T>
  Args& add(T v) {
    size_t off = (bytes.size() + alignof(T) - 1) / alignof(T) * alignof(T);
    bytes.resize(off + sizeof(T));
    std::memcpy(bytes.data() + off, &v, sizeof(T));
    return *this;
  }
};

template <class T>
uint64_t upload(hipasm::sim::Memory& m, const std::vector<T>& v) {
  uint64_t a = m.alloc(std::max<size_t>(v.size() * sizeof(T), 1));
  if (!v.empty()) m.write(a, v.data(), v.size() * sizeof(T));
  return a;
}
template <class T>
std::vector<T> download(hipasm::sim::Memory& m, uint64_t a, size_t n) {
  std::vector<T> v(n);
  m.read(a, v.data(), n * sizeof(T));
  return v;
}

inline hipasm::sim::DispatchResult run(const Kernel& k, hipasm::sim::Memory& mem, const Args& args,
                                     std::array<uint32_t, 3> grid, std::array<uint32_t, 3> block,
                                     unsigned threads = 1, uint64_t seed = 0, uint64_t budget = 0,
                                     hipasm::sim::Observer* obs = nullptr, std::FILE* trace = nullptr) {
  hipasm::sim::DispatchParams p;
  for (int d = 0; d < 3; ++d) { p.grid[d] = grid[d]; p.block[d] = block[d]; }
  p.kernarg = args.bytes;
  p.threads = threads;
  p.seed = seed;
  p.instruction_budget = budget;
  p.trace = trace != nullptr;
  p.trace_out = trace;
  return hipasm::sim::run_dispatch(k.image(), p, mem, obs);
}

}  // namespace core_test

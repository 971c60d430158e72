// Shared by the tests that run per-lane programs in hipasm-sim against a host reference, each
// kernel with a feature on and off (test_control_flow_fuzz_sim, test_control_flow_skip_sim,
// test_known_bits_sim), and by their random program generators (cf_random_programs.hpp,
// bits_random_programs.hpp).
//  - rng: the generators' xorshift32 stream (constexpr, no library: the kernels' .hip files
//    and the host's reference make the same program from a seed).
//  - (host only) kernels: a test's code object and its asm; count_if_in / count_in:
//    instructions of one kernel's asm that satisfy a predicate / start with a mnemonic;
//    run_lanes: one launch of 64-lane workgroups with (out, in, args...), every lane's out
//    checked against the reference, the checker silent.
#pragma once
#include <cstdint>

namespace lane_programs {

struct rng {
  uint32_t x;
  constexpr explicit rng(uint32_t seed) : x(seed * 2654435761u + 12345u) {}
  constexpr uint32_t next(uint32_t mod) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x % mod;
  }
};

}  // namespace lane_programs

#if !defined(__HIP__)
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace lane_programs {

namespace rt = hipasm::rt;

// core_<test>_<file>.co and .s of the test's kernel directory.
struct kernels {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  std::unique_ptr<rt::module> mod;
  std::string text;
  explicit kernels(const std::string& file) {
    const std::string base = std::string(HIPASM_CORE_KERNEL_DIR) + "/core_" + HIPASM_CORE_TEST_NAME + "_" + file;
    mod = dev->load_file(base + ".co");
    std::ifstream f(base + ".s");
    std::stringstream ss;
    ss << f.rdbuf();
    text = ss.str();
  }
};

// Instructions of kernel `name` in asm `text` (its label to its s_endpgm) for which
// keep(instruction text, without leading blanks) holds.
template <class Keep>
int count_if_in(const std::string& text, const std::string& name, Keep keep) {
  std::istringstream in(text);
  std::string line;
  bool inside = false;
  int n = 0;
  while (std::getline(in, line)) {
    if (!inside) {
      inside = line.rfind(name + ":", 0) == 0;
      continue;
    }
    const std::size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos) continue;
    const std::string_view i = std::string_view(line).substr(b);
    n += keep(i) ? 1 : 0;
    if (i.starts_with("s_endpgm")) break;
  }
  return n;
}
inline int count_in(const std::string& text, const std::string& name, std::string_view mnemonic) {
  return count_if_in(text, name, [&](std::string_view i) { return i.starts_with(mnemonic); });
}

// Kernel (out, in, args...) over in.size() / 64 workgroups of 64 lanes; out[g] must be
// want(g) for every lane g. Returns the wave-instructions executed.
template <class T, class Want>
uint64_t run_lanes(kernels& k, const std::string& kernel, const std::vector<T>& in, const std::vector<uint32_t>& args,
                   Want want) {
  rt::device& d = *k.dev;
  rt::buffer<T> I(d, in), out(d, std::vector<T>(in.size(), static_cast<T>(0xdeadbeefu)));
  rt::kernel_args a;
  a.add(out.ptr()).add(I.ptr());
  for (uint32_t x : args) a.add(x);
  rt::launch_report rep = d.launch(*k.mod, kernel, {static_cast<uint32_t>(in.size() / 64), 1, 1}, {64, 1, 1}, a);
  for (const auto& msg : rep.diagnostics) FAIL_CHECK(kernel << " checker: " << msg);
  auto got = out.download();
  int bad = 0;
  for (size_t g = 0; g < in.size(); ++g) {
    const T w = want(g);
    if (got[g] != w && ++bad <= 4) FAIL_CHECK(kernel << " lane " << g << " v=" << in[g] << ": got " << got[g] << ", want " << w);
  }
  CHECK(bad == 0);
  return rep.instructions;
}

}  // namespace lane_programs
#endif

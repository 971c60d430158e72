// Host side of the reference suite: opening the device, loading the suite's code objects,
// launching with the checker's verdict required empty, and comparison helpers that print
// the first mismatches. Used by tests/sim/test_reference_*.cpp.
#pragma once
#include <catch2/catch.hpp>
#include <hipasm/rt/launcher.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace refsuite {
using namespace hipasm::rt;

// HIPASM_SIMREF_ARCH=gfx950: the gfx950 build of a target-neutral group (arith, wave).
inline std::string code_object_path(const std::string& group) {
  const char* arch = std::getenv("HIPASM_SIMREF_ARCH");
  const std::string suffix = arch && *arch ? std::string("_") + arch : "";
  return std::string(HIPASM_SIM_TEST_DIR) + "/kernels/simref_" + group + suffix + ".co";
}

// One device per test process; nullptr when the selected backend has no device (hip
// without a GPU): the tests then return early with a warning.
inline device* the_device() {
  static std::unique_ptr<device> d = device::open();
  return d.get();
}

inline module& the_module(const std::string& group) {
  static std::map<std::string, std::unique_ptr<module>> cache;
  auto& m = cache[group];
  if (!m) m = the_device()->load_file(code_object_path(group));
  return *m;
}

#define REFSUITE_REQUIRE_DEVICE()                                   \
  do {                                                              \
    if (!::refsuite::the_device()) {                                \
      WARN("no device for the selected HIPASM_BACKEND: skipped");   \
      return;                                                       \
    }                                                               \
  } while (0)

inline std::string join_lines(const std::vector<std::string>& v, size_t max = 20) {
  std::string s;
  for (size_t i = 0; i < v.size() && i < max; ++i) s += v[i] + "\n";
  if (v.size() > max) s += "... (" + std::to_string(v.size() - max) + " more)\n";
  return s;
}

// Launch and require a clean checker verdict: clang's code is correct, so any diagnostic on
// it is a false positive of the checker (or a wrong launch).
inline launch_report run(const std::string& group, const char* kernel, dim3 grid, dim3 block,
                         const kernel_args& args, const launch_options& opts = {}) {
  launch_report rep = the_device()->launch(the_module(group), kernel, grid, block, args, opts);
  INFO("kernel " << kernel << " diagnostics:\n" << join_lines(rep.diagnostics));
  REQUIRE(rep.diagnostics.empty());
  return rep;
}

inline uint32_t blocks_for(size_t n, uint32_t block) { return uint32_t((n + block - 1) / block); }

// The suite's clang-22 assembly of `group` (kernels/simref_<group>.s) changed by `edit`,
// assembled by clang++-22 for `arch` into kernels/<name>.s.co: its path. For instructions no
// builtin emits and for hazard mutations.
template <class Edit>
std::string reassembled(const std::string& group, const std::string& name, const std::string& arch, Edit edit) {
  const std::string dir = std::string(HIPASM_SIM_TEST_DIR) + "/kernels/";
  std::ifstream in(dir + "simref_" + group + ".s");
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  edit(s);
  const std::string sp = dir + name + ".s", co = sp + ".co";
  std::ofstream(sp) << s;
  const std::string cmd = "clang++-22 -target amdgcn-amd-amdhsa -mcpu=" + arch + " \"" + sp + "\" -o \"" + co + "\" 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  return co;
}

// Collects mismatches; the test REQUIREs none and prints the first few.
struct mismatches {
  std::string text;
  size_t count = 0;
  void add(const std::string& s) {
    if (count++ < 16) text += s + "\n";
  }
};
#define REFSUITE_REQUIRE_NONE(m)                          \
  do {                                                    \
    INFO((m).count << " mismatches, first:\n" << (m).text); \
    REQUIRE((m).count == 0);                              \
  } while (0)

inline std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", (unsigned long long)v);
  return b;
}
inline std::string fmt(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.9g (%a)", v, v);
  return b;
}

template <class T>
void expect_exact(mismatches& m, const std::string& what, size_t i, T got, T want) {
  if (got != want)
    m.add(what + "[" + std::to_string(i) + "]: got " + std::to_string(got) + " (" +
          hex((uint64_t)got) + ") want " + std::to_string(want) + " (" + hex((uint64_t)want) + ")");
}

// Same IEEE value bit for bit, except that any NaN matches any NaN (payload and sign of a
// generated NaN differ between x86 and AMDGPU).
inline bool same_float(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) || std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b);
}
inline bool same_double(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
}
inline void expect_float(mismatches& m, const std::string& what, size_t i, float got, float want,
                         const std::string& input = "") {
  if (!same_float(got, want))
    m.add(what + "[" + std::to_string(i) + "]: got " + fmt(got) + " want " + fmt(want) + " " + input);
}
inline void expect_double(mismatches& m, const std::string& what, size_t i, double got, double want,
                          const std::string& input = "") {
  if (!same_double(got, want))
    m.add(what + "[" + std::to_string(i) + "]: got " + fmt(got) + " want " + fmt(want) + " " + input);
}
// Distance in units in the last place between two finite doubles of the same sign.
inline uint64_t ulp_distance(double a, double b) {
  int64_t ia = std::bit_cast<int64_t>(a), ib = std::bit_cast<int64_t>(b);
  if (ia < 0) ia = std::numeric_limits<int64_t>::min() - ia;
  if (ib < 0) ib = std::numeric_limits<int64_t>::min() - ib;
  return ia > ib ? uint64_t(ia - ib) : uint64_t(ib - ia);
}
inline uint32_t ulp_distance_f(float a, float b) {
  int32_t ia = std::bit_cast<int32_t>(a), ib = std::bit_cast<int32_t>(b);
  if (ia < 0) ia = std::numeric_limits<int32_t>::min() - ia;
  if (ib < 0) ib = std::numeric_limits<int32_t>::min() - ib;
  return ia > ib ? uint32_t(ia - ib) : uint32_t(ib - ia);
}

// Integer edge values used across the suite.
inline std::vector<int32_t> edge_i32() {
  return {0, 1, -1, 2, -2, 3, -3, 7, -7, 16, -16, 31, 32, 33, 255, 256, 65535, 65536,
          std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::min() + 1,
          std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::max() - 1,
          0x55555555, (int32_t)0xaaaaaaaau, 0x40000000, (int32_t)0x80000001u, 1000000007, -999999999};
}
inline std::vector<int64_t> edge_i64() {
  return {0, 1, -1, 2, -2, 3, 7, -7, 63, 64, 65, 1000000007, -1000000007, 0xffffffffll,
          0x100000000ll, -0x100000000ll, 0x7fffffffll, std::numeric_limits<int64_t>::min(),
          std::numeric_limits<int64_t>::min() + 1, std::numeric_limits<int64_t>::max(),
          0x5555555555555555ll, (int64_t)0xaaaaaaaaaaaaaaaaull, 0x123456789abcdefll};
}

// bf16 <-> float on the host: round to nearest even, NaN stays a (quiet) NaN.
inline uint16_t float_to_bf16(float f) {
  uint32_t u = std::bit_cast<uint32_t>(f);
  if (std::isnan(f)) return uint16_t((u >> 16) | 0x40);
  uint32_t lsb = (u >> 16) & 1;
  return uint16_t((u + 0x7fff + lsb) >> 16);
}
inline float bf16_to_float(uint16_t b) { return std::bit_cast<float>(uint32_t(b) << 16); }
inline uint16_t float_to_half_bits(float f) { return std::bit_cast<uint16_t>((_Float16)f); }
inline float half_bits_to_float(uint16_t h) { return (float)std::bit_cast<_Float16>(h); }

}  // namespace refsuite

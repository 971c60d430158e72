// HIPASM_TEST_KERNELS: vcc_compares.hip
// The vcc-compares step (passes/vcc_compares.hpp): per-lane comparisons write VCC in the e32
// form where VCC is free, a literal goes into src0 (operands swapped with the reversed
// predicate when it was on the right) without a v_mov. Every kernel runs in hipasm-sim with
// the step on and off over edge values against plain C++; the asm is checked for the form.
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <random>
#include <regex>
#include <string>
#include <vector>

#include "kernels/vcc_compares.hpp"

using namespace vcc_compares;
namespace rt = hipasm::rt;

namespace {
const char* names[] = {"literal_if", "literal_right", "sgpr_left", "select_literal", "if_else", "f32_literal", "chained"};
static_assert(sizeof(names) / sizeof(names[0]) == count);

std::vector<uint32_t> edges() {
  std::vector<uint32_t> v = {0, 1, 999, 1000, 1001, 77777, 77778, 99999, 100000, 100001, 0x7777777, 0x7777778,
                             0x12345678, 0x12345679, 0x7fffffff, 0x80000000, 0x80000001, 0xffffffff,
                             0x406ccccc, 0x406ccccd, 0x406cccce, 0xc0000000, 0x7fc00000, 0x3f800000};
  std::mt19937 rng(5);
  while (v.size() < 32) v.push_back(rng());
  return v;
}
int matches(const std::string& text, const std::string& re) {
  std::regex r(re);
  return static_cast<int>(std::distance(std::sregex_iterator(text.begin(), text.end(), r), std::sregex_iterator()));
}
template <int K>
std::string asm_of(bool on) {
  return on ? hipasm::asm_text<vcc_kernel<K>>(names[K], hipasm::emit_options{false})
            : hipasm::asm_text<vcc_kernel_off<K>>(names[K], hipasm::emit_options{false});
}
template <int... K>
std::vector<std::pair<std::string, std::string>> all_asm(std::integer_sequence<int, K...>) {
  return {{asm_of<K>(true), asm_of<K>(false)}...};
}
}  // namespace

TEST_CASE("comparisons into VCC compute what C++ computes", "[vcc]") {
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = dev->load_file(std::string(HIPASM_CORE_KERNEL_DIR) + "/core_" HIPASM_CORE_TEST_NAME "_vcc_compares.co");
  const std::vector<uint32_t> e = edges();
  std::vector<uint32_t> a, b;
  for (uint32_t x : e)
    for (uint32_t y : e) {
      a.push_back(x);
      b.push_back(y);
    }
  const uint32_t groups = static_cast<uint32_t>(b.size() / 64);
  for (int k = 0; k < count; ++k)
    for (const char* prefix : {"on_", "off_"}) {
      rt::buffer<uint32_t> A(*dev, a), B(*dev, b), out(*dev, b.size());
      rt::kernel_args args;
      args.add(out.ptr()).add(A.ptr()).add(B.ptr());
      const std::string name = std::string(prefix) + names[k];
      rt::launch_report rep = dev->launch(*mod, name, {groups, 1, 1}, {64, 1, 1}, args);
      INFO(name);
      for (const auto& d : rep.diagnostics) FAIL_CHECK("checker: " << d);
      const std::vector<uint32_t> got = out.download();
      int bad = 0;
      for (std::size_t p = 0; p < b.size() && bad < 5; ++p) {
        const uint32_t want = reference(k, a[p], b[p], a[p / 64]);
        if (got[p] != want) {
          ++bad;
          FAIL_CHECK("lane " << p << " x=" << a[p] << " y=" << b[p] << ": got " << got[p] << ", want " << want);
        }
      }
    }
}

TEST_CASE("comparisons write VCC in the e32 form where it is free, literals in src0", "[vcc]") {
  const auto texts = all_asm(std::make_integer_sequence<int, count>{});
  const std::string vcc_cmp = "\tv_cmp_[a-z0-9_]+ vcc, ";
  for (int k = 0; k < count; ++k) {
    const std::string& on = texts[k].first;
    const std::string& off = texts[k].second;
    INFO(names[k] << " (on):\n" << on << "\n(off):\n" << off);
    CHECK(matches(off, vcc_cmp) == 0);
    if (k == if_else) {
      CHECK(matches(on, vcc_cmp) == 0);  // the Else reads the mask after the then-block
      continue;
    }
    CHECK(matches(on, vcc_cmp) == (k == chained ? 2 : 1));
    // src1 a VGPR (the e32 form), and the literal v_mov gone where there was one
    CHECK(matches(on, vcc_cmp + "[^\n]*, v[0-9]+\n") == matches(on, vcc_cmp));
  }
  CHECK(matches(texts[literal_if].first, "0x186a0, v[0-9]+\n") == 1);
  CHECK(matches(texts[literal_if].second, "v_mov_b32 v[0-9]+, 0x186a0") == 1);
  CHECK(matches(texts[literal_right].first, "v_cmp_le_u32 vcc, 0x80000000, v") == 1);  // x >= 2^31 as 2^31 <= x
  CHECK(matches(texts[select_literal].first, "v_cndmask_b32 v[0-9]+, v[0-9]+, v[0-9]+, vcc") == 1);
  for (int k = 0; k < count; ++k) {
    const auto vmovs = [](const std::string& t) { return matches(t, "\tv_mov_b32 "); };
    if (k == if_else || k == sgpr_left) CHECK(vmovs(texts[k].first) == vmovs(texts[k].second));
    else CHECK(vmovs(texts[k].first) < vmovs(texts[k].second));
  }
}

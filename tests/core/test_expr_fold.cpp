// HIPASM_TEST_KERNELS: expr_fold.hip
// Constant folding and fused instructions of the expression lowering (kernel_options::fold):
// every kernel of kernels/expr_fold.hpp runs in hipasm-sim with fold on and off over edge
// values (wrap-around, sign bits, the u24 boundaries 2^24-1 / 2^24) against plain C++; the
// asm of each is checked for the instruction the lowering should choose.
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <random>
#include <regex>
#include <string>
#include <vector>

#include "kernels/expr_fold.hpp"

using namespace expr_fold;
namespace rt = hipasm::rt;

namespace {
const char* names[] = {"lshl_add", "add3", "lshl_or", "and_or", "add_zero_fresh", "mul_zero", "two_shifts",
                       "identity_chain", "shared_shift", "retarget_identity", "salu_identity", "shr_zero",
                       "zero_shl", "i32_lshl_add", "literal_add", "xor_zero_named", "add64_shift", "add64_signed",
                       "add64_pair", "add64_masked_shift", "mul_pow2_plus1", "mul_u24_tid", "mul_u24_max",
                       "mul_u24_over", "mul_u24_shr", "mad_u24", "accumulate", "named_zero"};
static_assert(sizeof(names) / sizeof(names[0]) == count);

std::vector<uint32_t> edges() {
  std::vector<uint32_t> v = {0, 1, 2, 3, 7, 8, 31, 32, 0xff, 0x100, 0xffff, 0x10000, 0xffffff, 0x1000000, 0x1000001,
                             0x7ffffffe, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff, 0xdeadbeef};
  std::mt19937 rng(11);
  while (v.size() < 32) v.push_back(rng());
  return v;
}

int instructions(const std::string& text, const std::string& mnemonic) {
  std::regex r("\t" + mnemonic + "[ \n]");
  return static_cast<int>(std::distance(std::sregex_iterator(text.begin(), text.end(), r), std::sregex_iterator()));
}
int total(const std::string& text) {
  std::regex r("(^|\n)\t[a-z]");
  return static_cast<int>(std::distance(std::sregex_iterator(text.begin(), text.end(), r), std::sregex_iterator()));
}

template <int K>
std::string asm_of(bool fold) {
  return fold ? hipasm::asm_text<fold_kernel_counted<K>>(names[K])
              : hipasm::asm_text<fold_kernel_off_counted<K>>(names[K]);
}
template <int... K>
std::vector<std::pair<std::string, std::string>> all_asm(std::integer_sequence<int, K...>) {
  return {{asm_of<K>(true), asm_of<K>(false)}...};
}
}  // namespace

TEST_CASE("folded and fused expressions compute what C++ computes", "[fold]") {
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = dev->load_file(std::string(HIPASM_CORE_KERNEL_DIR) + "/core_" HIPASM_CORE_TEST_NAME "_expr_fold.co");
  const std::vector<uint32_t> e = edges();
  std::vector<uint32_t> a, b;
  for (uint32_t x : e)
    for (uint32_t y : e) {
      a.push_back(x);
      b.push_back(y);
    }
  a.push_back(0);  // one more: s2 of the last workgroup reads a[64 * groups]
  const uint32_t groups = static_cast<uint32_t>(b.size() / 64);
  for (int k = 0; k < count; ++k)
    for (const char* prefix : {"fold_", "nofold_"}) {
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
        const uint32_t w = static_cast<uint32_t>(p / 64);
        const uint32_t want = k == mul_u24_tid ? static_cast<uint32_t>(p % 64) * 1000u + b[p]
                                               : reference(k, a[p], b[p], a[w], a[w + 1]);
        if (got[p] != want) {
          ++bad;
          FAIL_CHECK("p=" << p << " x=" << a[p] << " y=" << b[p] << " got " << got[p] << " want " << want);
        }
      }
    }
}

TEST_CASE("the lowering chooses the fused instruction", "[fold]") {
  const auto texts = all_asm(std::make_integer_sequence<int, count>{});
  auto on = [&](int k) { return texts[k].first; };
  auto off = [&](int k) { return texts[k].second; };
  for (int k = 0; k < count; ++k) {
    INFO(names[k] << "\n" << on(k) << "---- fold off\n" << off(k));
    CHECK(total(on(k)) <= total(off(k)));  // never more instructions
  }
  CHECK(instructions(on(lshl_add), "v_lshl_add_u32") == 1);
  CHECK(instructions(off(lshl_add), "v_lshl_add_u32") == 0);
  CHECK(instructions(on(add3), "v_add3_u32") == 1);
  CHECK(instructions(on(lshl_or), "v_lshl_or_b32") == 1);
  CHECK(instructions(on(and_or), "v_and_or_b32") == 1);
  CHECK(instructions(on(two_shifts), "v_lshl_add_u32") == 1);
  CHECK(instructions(on(shared_shift), "v_lshl_add_u32") == 2);
  CHECK(instructions(on(i32_lshl_add), "v_lshl_add_u32") == 1);
  // a literal cannot go into the VOP3 form: two VOP2 adds
  CHECK(instructions(on(literal_add), "v_add3_u32") == 0);
  // identities: no instruction for + 0, * 1, | 0, & -1, >> 0, << 0 on an expression's own result
  // (what every kernel saves around its expression, in its addresses: lshl_add's saving
  // less the one instruction its expression saves)
  const int around = total(off(lshl_add)) - total(on(lshl_add)) - 1;
  auto saved = [&](int k) { return total(off(k)) - total(on(k)) - around; };
  CHECK(saved(identity_chain) == 4);
  CHECK(saved(add_zero_fresh) == 1);
  CHECK(saved(retarget_identity) == 1);
  CHECK(instructions(on(mul_zero), "v_mul_lo_u32") == 0);
  CHECK(saved(salu_identity) == 2);
  // + 0 / - 0 of named registers: a copy (s_mov_b32 / v_mov_b32), not an add or subtract of 0
  // (hipasm has no register coalescing yet: the copy itself stays)
  const std::regex add_zero("\\t(s_add_u32|s_sub_u32|v_add_u32|v_sub_u32|v_subrev_u32) [^\\n]*, 0[ ,\\n]");
  CHECK_FALSE(std::regex_search(on(named_zero), add_zero));
  CHECK(std::regex_search(off(named_zero), add_zero));
  CHECK(std::regex_search(on(named_zero), std::regex("\\ts_mov_b32 s[0-9]+, s[0-9]+ ; [^\\n]*base")));
  CHECK(instructions(on(zero_shl), "v_lshlrev_b32") == instructions(off(zero_shl), "v_lshlrev_b32") - 1);
  // multiplies by constants: 2^j + 1 as v_lshl_add_u32; below 2^24 (both) as v_mul_u32_u24
  CHECK(instructions(on(mul_pow2_plus1), "v_lshl_add_u32") == 2);
  CHECK(instructions(on(mul_pow2_plus1), "v_mul_lo_u32") == 0);
  CHECK(instructions(off(mul_pow2_plus1), "v_mul_lo_u32") == 2);
  for (int k : {mul_u24_tid, mul_u24_max, mul_u24_shr}) {
    INFO(names[k] << "\n" << on(k));
    CHECK(instructions(on(k), "v_mul_lo_u32") == 0);
    CHECK(instructions(on(k), "v_mul_u32_u24") + instructions(on(k), "v_mad_u32_u24") == 1);
  }
  CHECK(instructions(on(mul_u24_over), "v_mul_lo_u32") == 1);
  CHECK(instructions(on(mul_u24_over), "v_mul_u32_u24") == 0);
  CHECK(instructions(on(mad_u24), "v_mad_u32_u24") == 1);
  // 64-bit vector adds: v_lshl_add_u64, no carry pair (every kernel's store address too)
  for (int k = 0; k < count; ++k) {
    INFO(names[k] << "\n" << on(k));
    CHECK(instructions(on(k), "v_addc_co_u32") == 0);
    CHECK(instructions(on(k), "v_lshl_add_u64") >= 1);
    CHECK(instructions(off(k), "v_lshl_add_u64") == 0);
  }
  // a shift that may drop bits stays a 32-bit shift; one that cannot moves into the add
  CHECK(std::regex_search(on(add64_shift), std::regex("v_lshlrev_b32 v[0-9]+, 3,")));
  CHECK(std::regex_search(on(add64_masked_shift), std::regex("v_lshl_add_u64 v\\[[0-9:]+\\], v\\[[0-9:]+\\], 4,")));
  CHECK_FALSE(std::regex_search(on(add64_masked_shift), std::regex("v_lshlrev_b32 v[0-9]+, 4,")));
  // the store addresses: out + (p << 2) with p = workgroup * 64 + thread id is not known to
  // fit, so its shift stays; a thread-id offset's shift moves in
  CHECK(instructions(on(add64_pair), "v_lshl_add_u64") == 4);
}

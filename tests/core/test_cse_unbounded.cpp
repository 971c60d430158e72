// CSE finds every earlier identical computation of a block (no 16-instruction window: a
// hash of opcode and sources) and merges SALU instructions whose SCC result is dead, not
// those whose SCC a later instruction reads (asm of DSL kernels; the simulator tests and the
// difftest execute the pass everywhere else).
#include <catch2/catch.hpp>

#include <regex>
#include <string>

#include "hipasm/kernel.hpp"

using namespace hipasm;

namespace {
int instructions(const std::string& text, const std::string& mnemonic) {
  std::regex r("\t" + mnemonic + "[ \n]");
  return static_cast<int>(std::distance(std::sregex_iterator(text.begin(), text.end(), r), std::sregex_iterator()));
}

// x * 13 twice, 40 instructions apart (the old window held 16 candidates).
constexpr void far_apart(builder J, arg<unsigned*> out, arg<unsigned> n) {
  auto x = J.vgpr<u32>();
  x = J.thread_id_x() ^ n;
  auto a = J.vgpr<u32>();
  a = x * 13u;
  auto acc = J.vgpr<u32>();
  acc = x;
  for (unsigned i = 0; i < 40; ++i) acc = (acc ^ (x + i)) + 0x1000u;  // distinct computations
  auto b = J.vgpr<u32>();
  b = x * 13u;
  auto p = J.vgpr<u64>();
  p = out + (J.thread_id_x() << 2);
  J.global_store_dword(p, a + b + acc, off);
}

// s + n twice with SCC dead after the second (the next SALU instruction writes SCC first).
constexpr void scc_dead(builder J, arg<unsigned*> out, arg<unsigned> n, arg<unsigned> m) {
  auto s = J.sgpr<u32>(), t1 = J.sgpr<u32>(), t2 = J.sgpr<u32>(), t3 = J.sgpr<u32>();
  s = m;
  t1 = s + n;
  auto v = J.vgpr<u32>();
  v = J.thread_id_x() + 5u;
  t2 = s + n;
  t3 = t1 ^ t2;
  auto p = J.vgpr<u64>();
  p = out + (J.thread_id_x() << 2);
  J.global_store_dword(p, v + t3, off);
}

// Two identical 64-bit SGPR adds: each s_addc_u32 reads the SCC of its s_add_u32, so the
// second s_add_u32 stays (merging it would hand the second s_addc the first s_addc's carry).
constexpr void scc_read(builder J, arg<unsigned*> out, arg<unsigned> n) {
  auto q = J.sgpr<u64>(), r1 = J.sgpr<u64>(), r2 = J.sgpr<u64>();
  q = out;
  r1 = q + n;
  r2 = q + n;
  auto p = J.vgpr<u64>();
  p = r1 + (J.thread_id_x() << 2);
  auto p2 = J.vgpr<u64>();
  p2 = r2 + (J.thread_id_x() << 2);
  auto v = J.vgpr<u32>();
  v = J.thread_id_x();
  J.global_store_dword(p, v, off);
  J.global_store_dword(p2, v, off);
}
}  // namespace

TEST_CASE("cse merges an identical computation however far back in the block", "[cse]") {
  const std::string on = asm_text<far_apart>("k");
  const std::string off_ = asm_text<with_options<far_apart, kernel_options{.cse = false}>>("k");
  INFO(on);
  CHECK(instructions(off_, "v_mul_lo_u32") == 2);
  CHECK(instructions(on, "v_mul_lo_u32") == 1);
}

TEST_CASE("cse merges SCC-writing SALU only where SCC is dead", "[cse]") {
  const std::string dead = asm_text<scc_dead>("k");
  INFO(dead);
  CHECK(instructions(dead, "s_add_u32") == 1);
  const std::string read = asm_text<scc_read>("k");
  INFO(read);
  CHECK(instructions(read, "s_add_u32") == 2);
  CHECK(instructions(read, "s_addc_u32") == 2);
}

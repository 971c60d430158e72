// HIPASM_TEST_KERNELS: bitop3.hip
// HIPASM_TEST_ARCHS: gfx950
// v_bitop3_b32 with the bitop3 modifier (gfx950) in hipasm-sim, against a host reference
// written from the truth-table definition (CDNA4 ISA; LLVM's lowering agrees): bit i of the
// result is bit (a_i * 4 + b_i * 2 + c_i) of the table, a the first source. The tables are
// xor3 (0x96), majority (0xE8), and3 (0x80), select a ? b : c (0xCA), the constants and two
// more; all read the same sources, so a CSE that ignored the table would give wrong results.
#include "sim_code_object.hpp"
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

namespace rt = hipasm::rt;
namespace ht = hipasm::test;

namespace {

uint32_t ref(uint8_t table, uint32_t a, uint32_t b, uint32_t c) {
  uint32_t r = 0;
  for (int i = 0; i < 32; ++i) {
    const unsigned idx = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1);
    r |= uint32_t((table >> idx) & 1) << i;
  }
  return r;
}

}  // namespace

TEST_CASE("ref: the truth tables are the named functions", "[helpers][bitop3]") {
  const uint32_t a = 0x0f0f1234, b = 0x00ff5678, c = 0x3333abcd;
  CHECK(ref(0x96, a, b, c) == (a ^ b ^ c));
  CHECK(ref(0xE8, a, b, c) == ((a & b) | (a & c) | (b & c)));
  CHECK(ref(0x80, a, b, c) == (a & b & c));
  CHECK(ref(0xCA, a, b, c) == ((a & b) | (~a & c)));
}

TEST_CASE("v_bitop3_b32 in hipasm-sim: every table against the reference", "[helpers][bitop3][gfx950]") {
  const uint8_t tables[] = {0x96, 0xE8, 0x80, 0xCA, 0x00, 0xFF, 0x01, 0x7E};
  constexpr int n = 8, per = n + 2;
  const uint32_t s = 0x5a5aa5a5;
  std::mt19937 rng(3);
  std::vector<uint32_t> in(64 * 3);
  for (auto& v : in) v = uint32_t(rng());
  // lane 0: bit j of each byte is input combination j (a the 4s bit), so each result byte is the table
  in[0] = 0xf0f0f0f0u, in[1] = 0xccccccccu, in[2] = 0xaaaaaaaau;
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  rt::device& d = *dev;
  std::unique_ptr<rt::module> m = d.load_file(ht::code_object("bitop3"));
  rt::buffer<uint32_t> In(d, in), Out(d, std::vector<uint32_t>(64 * per, 0xdeadbeefu));
  rt::kernel_args args;
  args.add(Out.ptr());
  args.add(In.ptr());
  args.add(s);
  auto rep = d.launch(*m, "bitop3_k", {1, 1, 1}, {64, 1, 1}, args);
  for (const auto& diag : rep.diagnostics) FAIL_CHECK("checker: " << diag);
  const auto out = Out.download();
  for (int t = 0; t < n; ++t) CHECK(out[t] == tables[t] * 0x01010101u);
  for (int l = 0; l < 64; ++l) {
    const uint32_t a = in[3 * l], b = in[3 * l + 1], c = in[3 * l + 2];
    INFO("lane " << l);
    for (int t = 0; t < n; ++t) {
      INFO("table " << int(tables[t]));
      CHECK(out[size_t(l) * per + t] == ref(tables[t], a, b, c));
    }
    CHECK(out[size_t(l) * per + n] == ref(0xCA, a, b, s));
    CHECK(out[size_t(l) * per + n + 1] == ref(0x96, a, 7u, c));
  }
}

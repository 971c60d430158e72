// Scalar semantics (exec_scalar.cpp) on real code objects.
// 1. scalar_uniform (clang-22 -O3): ~60 integer expressions on uniform kernel arguments, which
//    clang lowers to SALU (add/sub with carry, compares + s_cselect, min/max, bit ops, shifts,
//    bcnt/flbit/ff1/brev, bfe, mul_hi, 64-bit chains, magic-number division). Oracle: the same
//    C++ expressions evaluated on the host (core_kernels/scalar_exprs.h), over edge values.
// 2. salu_ops (hand-written asm): SALU instructions clang seldom emits (bfe/bfm, bitcmp,
//    quadmask, wqm, flbit_i32, ff0, bcnt0, absdiff, lshlN_add, pack, bitset, nand/nor/xnor,
//    SOPK with sign/zero extension, saveexec variants, 64-bit bfe/ashr/bitreplicate, movrel,
//    getreg/setreg MODE, s_call/s_setpc). Oracle: plain C++ of the ISA's definitions below.
#include <catch2/catch.hpp>

#include <bit>
#include <climits>
#include <random>

#include "decode.hpp"
#include "scalar_exprs.h"
#include "test_core_util.hpp"

using namespace core_test;
using hipasm::sim::Memory;

namespace {

struct Inputs {
  uint32_t a, b;
  int32_t c, d;
  uint64_t e, f;
};

std::vector<Inputs> edge_inputs() {
  std::vector<Inputs> v = {
      {0, 0, 0, 0, 0, 0},
      {1, 2, -1, 1, 1, 2},
      {0xffffffffu, 1, INT_MIN, -1, ~0ull, 1},
      {0x80000000u, 0x7fffffffu, INT_MAX, INT_MIN, 0x8000000000000000ull, 0x7fffffffffffffffull},
      {0x7fffffffu, 31, INT_MAX, 2, 0x00000000ffffffffull, 0x0000000100000000ull},
      {0x12345678u, 0x9abcdef0u, -123456, 789, 0x0123456789abcdefull, 0xfedcba9876543210ull},
      {1024, 4096, 4096, -4096, 1ull << 40, 1ull << 20},
      {5, 33, 6, -7, 12345, 63},
  };
  std::mt19937_64 rng(42);
  for (int i = 0; i < 24; ++i)
    v.push_back({uint32_t(rng()), uint32_t(rng()), int32_t(rng()), int32_t(rng()) >> (i % 20), rng(), rng() >> (i % 40)});
  return v;
}

}  // namespace

TEST_CASE("clang-compiled uniform integer math matches C++", "[scalar]") {
  Kernel k(built("sim_core_scalar.co"), "scalar_uniform");
  Memory mem;
  uint64_t out = mem.alloc(kScalarResults * 4);
  for (const Inputs& in : edge_inputs()) {
    std::vector<uint32_t> zero(kScalarResults, 0xdeadbeef);
    mem.write(out, zero.data(), zero.size() * 4);
    Args args;
    args.add(out).add(in.a).add(in.b).add(in.c).add(in.d).add(in.e).add(in.f);
    run(k, mem, args, {1, 1, 1}, {64, 1, 1});
    auto got = download<uint32_t>(mem, out, kScalarResults);
    unsigned want[kScalarResults];
    scalar_exprs(want, in.a, in.b, in.c, in.d, in.e, in.f);
    for (int i = 0; i < kScalarResults; ++i) {
      INFO("expression " << i << " a=" << in.a << " b=" << in.b << " c=" << in.c << " d=" << in.d
                         << " e=" << in.e << " f=" << in.f);
      CHECK(got[i] == want[i]);
    }
  }
}

namespace {

uint32_t sext(uint32_t v, unsigned bits) { return uint32_t(int32_t(v << (32 - bits)) >> (32 - bits)); }
uint32_t quad32(uint32_t v) {
  uint32_t r = 0;
  for (int i = 0; i < 8; ++i) r |= ((v >> (4 * i)) & 15 ? 1u : 0u) << i;
  return r;
}
uint32_t wqm32(uint32_t v) {
  uint32_t r = 0;
  for (int i = 0; i < 8; ++i) r |= ((v >> (4 * i)) & 15 ? 15u : 0u) << (4 * i);
  return r;
}
uint32_t rev32(uint32_t v) {
  uint32_t r = 0;
  for (int i = 0; i < 32; ++i) r = (r << 1) | ((v >> i) & 1);
  return r;
}

// Expected s4..s75 of salu_ops (see core_kernels/asm_kernels.s), per the gfx9 ISA.
std::vector<uint32_t> salu_expected(uint32_t a, uint32_t b, uint64_t ret_addr) {
  std::vector<uint32_t> s(128, 0);
  int32_t sa = int32_t(a), sb = int32_t(b);
  uint64_t x = uint64_t(b) << 32 | a;
  s[4] = (a >> 4) & 0xff;
  s[5] = sext((a >> 3) & 31, 5);
  s[6] = 0x1fu << 7;
  s[7] = (a >> 3) & 1;
  s[8] = quad32(a);
  s[9] = wqm32(a);
  s[10] = (a == 0 || a == ~0u) ? ~0u : uint32_t(std::countl_zero(sa < 0 ? ~a : a));
  s[11] = ~a == 0 ? ~0u : uint32_t(std::countr_zero(~a));
  s[12] = 32 - std::popcount(a);
  s[13] = uint32_t(std::llabs(int64_t(sa) - int64_t(sb)));
  s[14] = (a << 3) + b;
  s[15] = ((uint64_t(a) << 3) + b) >> 32 ? 1 : 0;
  s[16] = (a & 0xffff) | (b & 0xffff0000u);
  s[17] = (a >> 16) | (b & 0xffff0000u);
  s[18] = a | (1u << (b & 31));
  s[19] = a & ~4u;
  s[20] = uint32_t(uint64_t(int64_t(sa) * int64_t(sb)) >> 32);
  s[21] = ~a;
  s[22] = ~(a ^ b);
  s[23] = ~(a & b);
  s[24] = ~(a | b);
  s[25] = rev32(b);
  s[26] = a + b;
  s[27] = (int64_t(sa) + sb > INT_MAX || int64_t(sa) + sb < INT_MIN) ? 1 : 0;
  s[28] = a - b;
  s[29] = b > a ? 1 : 0;
  s[30] = 0xffff8001u;
  s[31] = a + 0x7fff;
  s[32] = (int64_t(sa) + 0x7fff > INT_MAX) ? 1 : 0;
  s[33] = uint32_t(int64_t(sa) * -3);
  s[34] = a < 0x8000u ? 1 : 0;
  s[35] = sa < -32768 ? 1 : 0;
  s[36] = s[37] = ~0u;                 // EXEC of a full wave
  s[38] = a;
  s[39] = b;
  s[40] = s[41] = ~0u;                 // andn2_saveexec: old EXEC
  s[42] = 0;                           // new EXEC = x & ~old = 0 -> SCC 0
  s[44] = s[45] = 0;                   // EXEC after it
  s[46] = s[47] = 0;                   // orn2_saveexec saves EXEC = 0
  s[48] = s[49] = ~0u;                 // x | ~0
  int64_t sx = int64_t(x);
  s[50] = (x == 0 || x == ~0ull) ? ~0u : uint32_t(std::countl_zero(sx < 0 ? ~x : x));
  s[51] = x == 0 ? ~0u : uint32_t(std::countr_zero(x));
  uint64_t rep = 0;
  for (int i = 0; i < 32; ++i) rep |= uint64_t((a >> i) & 1) * 3 << (2 * i);
  s[52] = uint32_t(rep);
  s[53] = uint32_t(rep >> 32);
  uint64_t q = 0;
  for (int i = 0; i < 16; ++i) q |= uint64_t((x >> (4 * i)) & 15 ? 1 : 0) << i;
  s[54] = uint32_t(q);
  s[55] = 0;
  uint64_t bu = (x >> 16) & ((1ull << 20) - 1);
  s[56] = uint32_t(bu);
  s[57] = uint32_t(bu >> 32);
  uint64_t bi = uint64_t(int64_t((x >> 24) << 56) >> 56);
  s[58] = uint32_t(bi);
  s[59] = uint32_t(bi >> 32);
  uint64_t sh = uint64_t(sx >> 5);
  s[60] = uint32_t(sh);
  s[61] = uint32_t(sh >> 32);
  s[62] = s[7];                        // s_movrels_b32 s62, s4 with M0 = 3 reads s7
  s[64] = b;                           // s_movreld_b32 s61, s3 with M0 = 3 writes s64
  s[65] = 0xf0;                        // MODE[7:0]: fp32 and fp16/64 denormals enabled (3, 3)
  s[66] = 0xa;                         // after s_setreg_imm32_b32 MODE[3:0] = 0xa
  s[68] = uint32_t(ret_addr);
  s[69] = uint32_t(ret_addr >> 32);
  s[70] = 77;
  s[71] = 78;
  s[72] = s[73] = ~0u;                 // xor_saveexec with 0 saves EXEC, EXEC stays
  s[74] = 1;
  s[75] = (b << 4) + a;
  return std::vector<uint32_t>(s.begin() + 4, s.begin() + 76);
}

}  // namespace

TEST_CASE("hand-written SALU kernel matches the ISA's definitions", "[scalar]") {
  Kernel k(built("sim_core_asm.co"), "salu_ops");
  // The return address of s_call_b64: the instruction after it (device address).
  auto prog = hipasm::sim::decode_program(k.image().code, k.image().code_vaddr);
  uint64_t ret = 0;
  for (auto& in : prog.insts)
    if (in.mnemonic == "s_call_b64" && in.pc >= k.image().entry) { ret = in.pc + in.size; break; }
  REQUIRE(ret != 0);
  Memory mem;
  uint64_t out = mem.alloc(72 * 4);
  std::vector<std::pair<uint32_t, uint32_t>> inputs = {
      {0, 0}, {1, 2}, {0xffffffffu, 1}, {0x80000000u, 0x7fffffffu}, {0x7fffffffu, 1},
      {0x12345678u, 0x9abcdef0u}, {0x8000u, 0xffff8000u}, {5, 33}, {0xdeadbeefu, 0xcafebabeu},
      {0x7fff8001u, 0x00010000u}, {0xffff7fffu, 0xffffffffu}};
  std::mt19937 rng(7);
  for (int i = 0; i < 20; ++i) inputs.push_back({rng(), rng()});
  for (auto [a, b] : inputs) {
    Args args;
    args.add(out).add(a).add(b);
    run(k, mem, args, {1, 1, 1}, {64, 1, 1});
    auto got = download<uint32_t>(mem, out, 72);
    auto want = salu_expected(a, b, k.image().code_base + ret);
    for (int i = 0; i < 72; ++i) {
      INFO("s" << (i + 4) << " a=0x" << std::hex << a << " b=0x" << b);
      CHECK(got[i] == want[i]);
    }
  }
}

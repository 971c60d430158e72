// HIPASM_TEST_KERNELS: mfma_scale.hip
// HIPASM_TEST_ARCHS: gfx950
// gfx950's scaled MFMAs through the builder's mnemonics (v_mfma_scale_f32_16x16x128_f8f6f4,
// v_mfma_scale_f32_32x32x64_f8f6f4) in hipasm-sim, against a C++ matmul:
// D[i][j] = C[i][j] + sum_k A[i][k] 2^(sa[i][k/32] - 127) * B[k][j] 2^(sb[j][k/32] - 127).
// The layouts are the CDNA4 ISA guide's (7.1.5.1, 7.2.1), written out here: lane l holds A row
// (B column) l % M; an FP6/FP4 operand the 32 k of block l / M, an FP8/BF8 one k = 16 (l / M) +
// (0..15) in bytes 0-15 and the same plus K / 2 in bytes 16-31; element e at bits e * width of
// its registers. One E8M0 scale per lane, of row (column) l % M and k block l / M whichever
// lanes hold that block's elements (the MX block scale), in the byte of the scale VGPR that
// op_sel (low bit) and op_sel_hi (high bit) select, the other bytes noise. The FP8 x FP4 cases
// (mixed formats, scales varying along k) tell the FP8 layout from 32 consecutive k a lane.
// D: 16x16 row i in register
// i % 4 of lane (i / 4) * 16 + j; 32x32 in register (i / 8) * 4 + i % 4 of lane
// ((i / 4) % 2) * 32 + j. Elements and scales are chosen so that every sum is exact in f32.
// gfx942 has no such instructions: tests/core/negative/mfma_scale_gfx942.hip.
#include "narrow_float_ref.hpp"
#include "sim_code_object.hpp"
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace rt = hipasm::rt;
namespace ht = hipasm::test;

namespace {

struct sim {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  std::unique_ptr<rt::module> m = dev->load_file(hipasm::test::code_object("mfma_scale"));
};
sim& S() {
  static sim s;
  return s;
}

// The OCP MX element formats by f8f6f4 code (0 e4m3, 1 e5m2, 2 e2m3, 3 e3m2, 4 e2m1).
const ht::minifloat* const kF[5] = {&ht::e4m3fn, &ht::e5m2, &ht::e2m3, &ht::e3m2, &ht::e2m1};
int bits(int f) { return kF[f]->bits(); }
// The code of an exactly representable value (+0 for zero)
uint32_t code(int f, double v) {
  const uint32_t c = ht::encode(*kF[f], v, true);
  REQUIRE(ht::decode(*kF[f], c) == v);
  return c;
}
int dwords(int f) { return bits(f); }  // 32 elements a lane

void put(std::vector<uint32_t>& w, int lane, int bit, int n, uint32_t v) {
  for (int i = 0; i < n; ++i, ++bit)
    if ((v >> i) & 1) w[size_t(bit / 32) * 64 + lane] |= 1u << (bit % 32);
}

struct Case {
  int M, fa, fb, sel_a, sel_b;
};

void check(const Case& t, std::mt19937& rng) {
  const int M = t.M, N = t.M, K = 64 * 32 / M, KB = K / 32;
  INFO("M " << M << " cbsz " << t.fa << " blgp " << t.fb << " scale bytes " << t.sel_a << " " << t.sel_b);
  static constexpr double vals[] = {0, 0.5, -0.5, 1, -1, 1.5, -1.5, 2, -2, 3, -3};
  std::uniform_int_distribution<int> pick(0, 10), ci(-8, 8), se(123, 131);
  std::vector<double> A(size_t(M) * K), B(size_t(K) * N), C(size_t(M) * N);
  std::vector<int> sa(size_t(M) * KB), sb(size_t(N) * KB);
  for (double& v : A) v = vals[pick(rng)];
  for (double& v : B) v = vals[pick(rng)];
  for (double& v : C) v = ci(rng);
  int not127 = 0;
  for (int& s : sa) not127 += (s = se(rng)) != 127;
  for (int& s : sb) not127 += (s = se(rng)) != 127;
  REQUIRE(not127 > M);
  const int R = M * N / 64;
  std::vector<uint32_t> wa(size_t(dwords(t.fa)) * 64), wb(size_t(dwords(t.fb)) * 64), wc(size_t(R) * 64), ws(128);
  for (int l = 0; l < 64; ++l) {
    const int row = l % M, kb = l / M;
    auto k_of = [&](int f, int e) { return f <= 1 ? (e / 16) * (K / 2) + 16 * kb + e % 16 : kb * 32 + e; };
    for (int e = 0; e < 32; ++e) {
      put(wa, l, e * bits(t.fa), bits(t.fa), code(t.fa, A[size_t(row) * K + k_of(t.fa, e)]));
      put(wb, l, e * bits(t.fb), bits(t.fb), code(t.fb, B[size_t(k_of(t.fb, e)) * N + row]));
    }
    const uint32_t noise_a = uint32_t(rng()), noise_b = uint32_t(rng());
    ws[size_t(l)] = (noise_a & ~(0xffu << 8 * t.sel_a)) | uint32_t(sa[size_t(row) * KB + kb]) << 8 * t.sel_a;
    ws[64 + size_t(l)] = (noise_b & ~(0xffu << 8 * t.sel_b)) | uint32_t(sb[size_t(row) * KB + kb]) << 8 * t.sel_b;
  }
  auto at = [&](int i, int j) -> std::pair<int, int> {  // (register, lane) of D[i][j]
    if (M == 16) return {i % 4, (i / 4) * 16 + j};
    return {(i / 8) * 4 + i % 4, ((i / 4) % 2) * 32 + j};
  };
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      auto [r, l] = at(i, j);
      wc[size_t(r) * 64 + l] = std::bit_cast<uint32_t>(float(C[size_t(i) * N + j]));
    }
  rt::device& d = *S().dev;
  rt::buffer<uint32_t> dA(d, wa), dB(d, wb), dC(d, wc), dS(d, ws), dD(d, std::vector<uint32_t>(wc.size(), 0xdeadbeefu));
  rt::kernel_args args;
  args.add(dD.ptr());
  args.add(dA.ptr());
  args.add(dB.ptr());
  args.add(dC.ptr());
  args.add(dS.ptr());
  const std::string name = "scale_" + std::to_string(M) + "_" + std::to_string(t.fa) + "_" + std::to_string(t.fb) + "_" +
                           std::to_string(t.sel_a) + std::to_string(t.sel_b);
  auto rep = d.launch(*S().m, name, {1, 1, 1}, {64, 1, 1}, args);
  for (const auto& diag : rep.diagnostics) FAIL_CHECK("checker: " << diag);
  const std::vector<uint32_t> wd = dD.download();
  int bad = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double want = C[size_t(i) * N + j];
      for (int k = 0; k < K; ++k)
        want += std::ldexp(A[size_t(i) * K + k] * B[size_t(k) * N + j], sa[size_t(i) * KB + k / 32] - 127 + sb[size_t(j) * KB + k / 32] - 127);
      auto [r, l] = at(i, j);
      const double got = std::bit_cast<float>(wd[size_t(r) * 64 + l]);
      if (got != want && bad++ < 4) FAIL_CHECK("D[" << i << "][" << j << "] got " << got << " want " << want);
    }
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("mfma_scale: scaled f8f6f4 MFMAs with E8M0 scales and byte selects match a C++ matmul", "[mfma_scale][sim]") {
  std::mt19937 rng(41);
  for (const Case& t : {Case{16, 0, 0, 0, 0}, Case{16, 0, 1, 1, 2}, Case{16, 2, 4, 3, 0}, Case{16, 4, 4, 2, 3},
                        Case{16, 3, 0, 0, 1}, Case{32, 0, 0, 0, 0}, Case{32, 1, 3, 3, 1}, Case{32, 4, 2, 1, 2},
                        Case{32, 2, 2, 2, 2}, Case{16, 0, 4, 1, 0}, Case{32, 0, 4, 0, 3}, Case{32, 4, 1, 2, 0}})
    check(t, rng);
}

TEST_CASE("mfma_load: f8f6f4 A fragments from a global tile, per the CDNA4 ISA layout", "[helpers][mfma][gfx950]") {
  // A row-major M x K tile of random bytes (K * bits / 8 a row). Lane l holds row l % M; an
  // FP6 / FP4 operand the 32 k from 32 (l / M): the bytes from 32 (l / M) bits / 8 on; an FP8
  // one k 16 (l / M) + (0..15), then K / 2 more (CDNA4 ISA guide, 7.1.5.1). Register r is bytes
  // 4r..4r+3 of what the lane holds, in k order.
  for (const auto& [M, F] : {std::pair{16, 0}, {16, 2}, {16, 4}, {32, 1}, {32, 3}, {32, 4}}) {
    INFO("M " << M << " format " << F);
    const int K = M == 16 ? 128 : 64, row_bytes = K * bits(F) / 8, regs = dwords(F);
    std::mt19937 rng(uint32_t(100 * M + F));
    std::vector<uint8_t> tile(size_t(M) * row_bytes);
    for (auto& b : tile) b = uint8_t(rng());
    rt::device& d = *S().dev;
    rt::buffer<uint8_t> t(d, tile);
    rt::buffer<uint32_t> out(d, size_t(64) * regs);
    rt::kernel_args args;
    args.add(out.addr()).add(t.addr());
    auto rep = d.launch(*S().m, "load_" + std::to_string(M) + "_" + std::to_string(F), {1, 1, 1}, {64, 1, 1}, args);
    for (const auto& msg : rep.diagnostics) FAIL_CHECK("checker: " << msg);
    const auto got = out.download();
    int bad = 0;
    for (int l = 0; l < 64; ++l) {
      const int i = l % M, g = l / M;
      std::vector<uint8_t> held;  // the lane's bytes in register order
      if (F <= 1) {
        for (int k = 16 * g; k < 16 * g + 16; ++k) held.push_back(tile[size_t(i) * row_bytes + k]);
        for (int k = K / 2 + 16 * g; k < K / 2 + 16 * g + 16; ++k) held.push_back(tile[size_t(i) * row_bytes + k]);
      } else {
        for (int b = 0; b < 4 * regs; ++b) held.push_back(tile[size_t(i) * row_bytes + 32 * g * bits(F) / 8 + b]);
      }
      for (int r = 0; r < regs; ++r) {
        const uint32_t want = uint32_t(held[4 * r]) | uint32_t(held[4 * r + 1]) << 8 | uint32_t(held[4 * r + 2]) << 16 |
                              uint32_t(held[4 * r + 3]) << 24;
        if (got[size_t(r) * 64 + l] != want && bad++ < 8)
          FAIL_CHECK("lane " << l << " register " << r << ": got " << got[size_t(r) * 64 + l] << " want " << want);
      }
    }
    CHECK(bad == 0);
  }
}

// MFMA and SMFMAC semantics, element by element, for every gfx942 matrix instruction.
//
// The expected register layout is written here from AMD's documented mapping (the CDNA3
// ISA guide's MAI chapter, as the AMD Matrix Instruction Calculator prints it): inputs as
// "element (block b, row i, k) lives in lane b*M + (k / E)*M*Blocks + i, slot k % E of the
// lane's registers" (E = elements per lane), outputs in the calculator's closed forms per
// shape family. The simulator implements the opposite direction (lane -> element), so the
// two cross-check each other. Values are small multiples of 0.5 so that every product and
// every partial sum is exact in f32: the comparison is exact regardless of the order the
// hardware adds in. A separate case uses random reals with a tolerance.
#include <catch2/catch.hpp>

#include <bit>
#include <chrono>
#include <cstdio>
#include <sstream>

#include "valu/mfma_layout.hpp"
#include "valu/valu_rig.hpp"

using namespace valu_test;
using namespace mfma_ref;

namespace {

const char* tname(Ty t) {
  switch (t) {
    case Ty::FP8: return "fp8";
    case Ty::BF8: return "bf8";
    default: return "";
  }
}

std::vector<Spec> all_specs() {
  std::vector<Spec> s = {
      {"v_mfma_f32_32x32x1_2b_f32", 32, 32, 1, 2, Ty::F32, Ty::F32, false},
      {"v_mfma_f32_16x16x1_4b_f32", 16, 16, 1, 4, Ty::F32, Ty::F32, false},
      {"v_mfma_f32_4x4x1_16b_f32", 4, 4, 1, 16, Ty::F32, Ty::F32, false},
      {"v_mfma_f32_32x32x2_f32", 32, 32, 2, 1, Ty::F32, Ty::F32, false},
      {"v_mfma_f32_16x16x4_f32", 16, 16, 4, 1, Ty::F32, Ty::F32, false},
      {"v_mfma_f32_16x16x8_xf32", 16, 16, 8, 1, Ty::XF32, Ty::XF32, false},
      {"v_mfma_f32_32x32x4_xf32", 32, 32, 4, 1, Ty::XF32, Ty::XF32, false},
      {"v_mfma_i32_32x32x4_2b_i8", 32, 32, 4, 2, Ty::I8, Ty::I8, false},
      {"v_mfma_i32_16x16x4_4b_i8", 16, 16, 4, 4, Ty::I8, Ty::I8, false},
      {"v_mfma_i32_4x4x4_16b_i8", 4, 4, 4, 16, Ty::I8, Ty::I8, false},
      {"v_mfma_i32_32x32x16_i8", 32, 32, 16, 1, Ty::I8, Ty::I8, false},
      {"v_mfma_i32_16x16x32_i8", 16, 16, 32, 1, Ty::I8, Ty::I8, false},
      {"v_mfma_f64_16x16x4_f64", 16, 16, 4, 1, Ty::F64, Ty::F64, false},
      {"v_mfma_f64_4x4x4_4b_f64", 4, 4, 4, 4, Ty::F64, Ty::F64, false},
      {"v_smfmac_i32_16x16x64_i8", 16, 16, 64, 1, Ty::I8, Ty::I8, true},
      {"v_smfmac_i32_32x32x32_i8", 32, 32, 32, 1, Ty::I8, Ty::I8, true},
  };
  for (Ty t : {Ty::F16, Ty::BF16}) {
    std::string n = t == Ty::F16 ? "f16" : "bf16";
    s.push_back({"v_mfma_f32_32x32x4_2b_" + n, 32, 32, 4, 2, t, t, false});
    s.push_back({"v_mfma_f32_16x16x4_4b_" + n, 16, 16, 4, 4, t, t, false});
    s.push_back({"v_mfma_f32_4x4x4_16b_" + n, 4, 4, 4, 16, t, t, false});
    s.push_back({"v_mfma_f32_32x32x8_" + n, 32, 32, 8, 1, t, t, false});
    s.push_back({"v_mfma_f32_16x16x16_" + n, 16, 16, 16, 1, t, t, false});
    s.push_back({"v_smfmac_f32_16x16x32_" + n, 16, 16, 32, 1, t, t, true});
    s.push_back({"v_smfmac_f32_32x32x16_" + n, 32, 32, 16, 1, t, t, true});
  }
  for (Ty a : {Ty::BF8, Ty::FP8})
    for (Ty b : {Ty::BF8, Ty::FP8}) {
      std::string suf = std::string(tname(a)) + "_" + tname(b);
      s.push_back({"v_mfma_f32_16x16x32_" + suf, 16, 16, 32, 1, a, b, false});
      s.push_back({"v_mfma_f32_32x32x16_" + suf, 32, 32, 16, 1, a, b, false});
      s.push_back({"v_smfmac_f32_16x16x64_" + suf, 16, 16, 64, 1, a, b, true});
      s.push_back({"v_smfmac_f32_32x32x32_" + suf, 32, 32, 32, 1, a, b, true});
    }
  return s;
}

struct Regs {
  int first, count;
};

void put_bits(Rig& r, int base, const Place& p, int bits, uint64_t v) {
  if (bits == 64) {
    r.v(base + p.reg)[p.lane] = uint32_t(v);
    r.v(base + p.reg + 1)[p.lane] = uint32_t(v >> 32);
    return;
  }
  uint32_t& word = r.v(base + p.reg)[p.lane];
  const uint32_t mask = (bits == 32 ? 0xffffffffu : ((1u << bits) - 1)) << p.bit;
  word = (word & ~mask) | ((uint32_t(v) << p.bit) & mask);
}

std::string range(char c, int first, int count) {
  std::ostringstream o;
  if (count == 1) o << c << first;
  else o << c << "[" << first << ":" << first + count - 1 << "]";
  return o.str();
}

// Fills registers for `s`, runs it, and checks every output element; `cbsz/abid/blgp` are applied to the expectation as documented.
void run_case(const Spec& s, uint32_t seed, int cbsz = 0, int abid = 0, int blgp = 0, bool c_const = false,
              bool acc = false) {
  Rig r;
  std::mt19937 rng(seed);
  const int M = s.M, N = s.N, K = s.K, Bk = s.B;
  const int ka = s.sparse ? K / 2 : K;
  const int abits = bits_of(s.a), bbits = bits_of(s.b);
  const int a_regs = std::max(1, ka * M * Bk / 64 * abits / 32);
  const int b_regs = std::max(1, K * N * Bk / 64 * bbits / 32);
  const int out_bits = s.a == Ty::F64 ? 64 : 32;
  const int d_regs = M * N * Bk / 64 * out_bits / 32;
  const Regs ra{10, a_regs}, rb{20, b_regs}, rc{40, d_regs}, rd{100, d_regs};
  const int idx_reg = 30;
  auto val = [&](Ty t) -> double {
    if (t == Ty::I8) return double(int(rng() % 256) - 128);
    return 0.5 * (int(rng() % 17) - 8);
  };
  std::vector<double> A(size_t(Bk) * M * K, 0.0), Bm(size_t(Bk) * K * N), C(size_t(Bk) * M * N);
  // A
  for (int b = 0; b < Bk; ++b)
    for (int i = 0; i < M; ++i) {
      if (!s.sparse) {
        for (int k = 0; k < K; ++k) {
          double v = val(s.a);
          A[(size_t(b) * M + i) * K + k] = v;
          put_bits(r, ra.first, place_input(M, K, Bk, abits, b, i, k), abits, encode(s.a, v));
        }
      } else {
        for (int q = 0; q < K / 4; ++q) {
          int i0 = int(rng() % 4), i1 = int(rng() % 3);
          if (i1 >= i0) ++i1;
          if (i1 < i0) std::swap(i0, i1);
          int pos[2] = {i0, i1};
          for (int h = 0; h < 2; ++h) {
            double v = val(s.a);
            A[(size_t(b) * M + i) * K + 4 * q + pos[h]] = v;
            const int kc = 2 * q + h;
            Place p = place_input(M, ka, Bk, abits, b, i, kc);
            put_bits(r, ra.first, p, abits, encode(s.a, v));
            // 2-bit index of compressed element `slot` within the lane: bits [2e+1:2e] of the
            // set selected by abid (sets are 2*E bits wide)
            const int epl = ka * M * Bk / 64;
            const int e = kc % epl;
            const int set = abid;
            uint32_t& w = r.v(idx_reg)[p.lane];
            const int sh = set * 2 * epl + 2 * e;
            w = (w & ~(3u << sh)) | (uint32_t(pos[h]) << sh);
          }
        }
      }
    }
  // B (placed at its lane; with BLGP the data a lane reads comes from lane blgp(lane), so
  // the effective matrix is read back from where the swizzle points)
  std::vector<uint64_t> Braw(size_t(Bk) * K * N);
  for (int l = 0; l < kLanes; ++l)
    for (int reg = 0; reg < b_regs; ++reg) r.v(rb.first + reg)[l] = uint32_t(rng());
  for (int b = 0; b < Bk; ++b)
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < N; ++j) {
        double v = val(s.b);
        Bm[(size_t(b) * K + k) * N + j] = v;
        put_bits(r, rb.first, place_input(N, K, Bk, bbits, b, j, k), bbits, encode(s.b, v));
      }
  if (blgp && s.a != Ty::F64) {
    auto swz = [&](int l) {
      switch (blgp) {
        case 1: return l % 32;
        case 2: return l < 32 ? l + 32 : l;
        case 3: return (l + 16) % 64;
        case 4: return l % 16;
        case 5: return 16 + l % 16;
        case 6: return 32 + l % 16;
        default: return 48 + l % 16;
      }
    };
    // effective B(b,k,j) = the element stored at lane swz(lane(b,k,j)), same slot
    std::vector<double> eff(Bm.size());
    for (int b = 0; b < Bk; ++b)
      for (int k = 0; k < K; ++k)
        for (int j = 0; j < N; ++j) {
          Place p = place_input(N, K, Bk, bbits, b, j, k);
          const int src_lane = swz(p.lane);
          // which element lives at (src_lane, same slot)?
          const int epl = K * N * Bk / 64;
          const int g = src_lane / N;
          const int sb = g % Bk, sj = src_lane % N, sk = epl * (g / Bk) + (k % epl);
          eff[(size_t(b) * K + k) * N + j] = Bm[(size_t(sb) * K + sk) * N + sj];
        }
    Bm = eff;
  }
  // C
  for (int reg = 0; reg < d_regs * 32 / out_bits; ++reg)
    for (int l = 0; l < kLanes; ++l) {
      auto [b, i, j] = output_element(s, reg, l);
      double v = c_const ? 1.0 : (s.a == Ty::I8 ? double(int(rng() % 2001) - 1000) : 0.5 * (int(rng() % 41) - 20));
      C[(size_t(b) * M + i) * N + j] = v;
      uint64_t bitsv = s.a == Ty::F64 ? dbits(v) : s.a == Ty::I8 ? uint32_t(int32_t(v)) : fbits(float(v));
      const int base = s.sparse ? rd.first : rc.first;
      if (out_bits == 64) {
        r.v(base + 2 * reg)[l] = uint32_t(bitsv);
        r.v(base + 2 * reg + 1)[l] = uint32_t(bitsv >> 32);
      } else {
        r.v(base + reg)[l] = uint32_t(bitsv);
      }
    }
  // CBSZ/ABID on A: block b uses block (b / 2^cbsz) * 2^cbsz + abid
  std::vector<double> Aeff = A;
  if (cbsz && !s.sparse) {
    const int g = 1 << cbsz;
    for (int b = 0; b < Bk; ++b)
      std::copy_n(A.begin() + size_t((b / g) * g + abid) * M * K, size_t(M) * K, Aeff.begin() + size_t(b) * M * K);
  }
  // f64 neg:[a,b,c] in the blgp field
  const bool f64 = s.a == Ty::F64;
  const double na = f64 && (blgp & 1) ? -1 : 1, nb = f64 && (blgp & 2) ? -1 : 1, nc = f64 && (blgp & 4) ? -1 : 1;
  // Move accumulator registers to AGPRs when testing acc_cd.
  std::string dtext, ctext;
  if (acc) {
    for (int reg = 0; reg < d_regs; ++reg) std::memcpy(r.a(reg), r.v(rc.first + reg), sizeof(uint32_t) * kLanes);
    dtext = range('a', 0, d_regs);
    ctext = range('a', 0, d_regs);
  } else {
    dtext = range('v', s.sparse ? rd.first : rd.first, d_regs);
    ctext = range('v', rc.first, d_regs);
  }
  std::string text = s.name + " " + dtext + ", " + range('v', ra.first, a_regs) + ", " + range('v', rb.first, b_regs) + ", ";
  if (s.sparse) text += range('v', idx_reg, 1);
  else text += c_const ? (s.a == Ty::I8 ? "1" : "1.0") : ctext;  // 1.0 would be 0x3f800000 to an integer op
  if (cbsz) text += " cbsz:" + std::to_string(cbsz);
  if (abid) text += " abid:" + std::to_string(abid);
  if (blgp) text += f64 ? " neg:[" + std::to_string(blgp & 1) + "," + std::to_string(blgp >> 1 & 1) + "," +
                              std::to_string(blgp >> 2 & 1) + "]"
                        : " blgp:" + std::to_string(blgp);
  if (s.sparse && acc) {
    for (int reg = 0; reg < d_regs; ++reg) std::memcpy(r.a(reg), r.v(rd.first + reg), sizeof(uint32_t) * kLanes);
  }
  r.run(text);
  // check
  for (int reg = 0; reg < d_regs * 32 / out_bits; ++reg)
    for (int l = 0; l < kLanes; ++l) {
      auto [b, i, j] = output_element(s, reg, l);
      double want = nc * C[(size_t(b) * M + i) * N + j];
      for (int k = 0; k < K; ++k)
        want += na * Aeff[(size_t(b) * M + i) * K + k] * nb * Bm[(size_t(b) * K + k) * N + j];
      INFO(text << " reg " << reg << " lane " << l << " -> D[" << b << "][" << i << "][" << j << "]");
      if (out_bits == 64) {
        const uint32_t* lo = acc ? r.a(2 * reg) : r.v(rd.first + 2 * reg);
        const uint32_t* hi = acc ? r.a(2 * reg + 1) : r.v(rd.first + 2 * reg + 1);
        REQUIRE(bitsd(lo[l] | (uint64_t(hi[l]) << 32)) == want);
      } else {
        const uint32_t got = acc ? r.a(reg)[l] : r.v(rd.first + reg)[l];
        if (s.a == Ty::I8) REQUIRE(int32_t(got) == int32_t(int64_t(want)));
        else REQUIRE(bitsf(got) == float(want));
      }
    }
}

}  // namespace

TEST_CASE("every MFMA and SMFMAC matches a plain matrix multiply in its documented layout", "[mfma]") {
  auto specs = all_specs();
  REQUIRE(specs.size() == 46);
  for (const Spec& s : specs) {
    INFO(s.name);
    run_case(s, 1234);
  }
}

TEST_CASE("MFMA accumulators in AGPRs and an inline-constant C", "[mfma]") {
  for (const Spec& s : all_specs()) {
    if (s.sparse) {
      run_case(s, 77, 0, 0, 0, false, true);
      continue;
    }
    run_case(s, 55, 0, 0, 0, true, false);
    run_case(s, 66, 0, 0, 0, false, true);
  }
}

TEST_CASE("CBSZ/ABID broadcast A blocks, BLGP swizzles B lanes, f64 neg", "[mfma]") {
  auto specs = all_specs();
  auto find = [&](const std::string& n) {
    for (auto& s : specs)
      if (s.name == n) return s;
    throw std::runtime_error(n);
  };
  run_case(find("v_mfma_f32_16x16x4_4b_f16"), 5, 2, 1);
  run_case(find("v_mfma_f32_4x4x4_16b_bf16"), 6, 4, 9);
  run_case(find("v_mfma_f32_32x32x1_2b_f32"), 7, 1, 1);
  run_case(find("v_mfma_i32_4x4x4_16b_i8"), 8, 3, 5);
  for (int blgp = 1; blgp < 8; ++blgp) {
    run_case(find("v_mfma_f32_32x32x8_f16"), 10 + blgp, 0, 0, blgp);
    run_case(find("v_mfma_f32_16x16x16_bf16"), 20 + blgp, 0, 0, blgp);
    run_case(find("v_mfma_f32_16x16x1_4b_f32"), 30 + blgp, 0, 0, blgp);
  }
  for (int neg = 1; neg < 8; ++neg) {
    run_case(find("v_mfma_f64_16x16x4_f64"), 40 + neg, 0, 0, neg);
    run_case(find("v_mfma_f64_4x4x4_4b_f64"), 50 + neg, 0, 0, neg);
  }
  // SMFMAC index sets chosen by ABID (CBSZ = 0)
  for (int abid = 1; abid < 4; ++abid) run_case(find("v_smfmac_f32_16x16x32_f16"), 60 + abid, 0, abid);
  run_case(find("v_smfmac_i32_32x32x32_i8"), 70, 0, 1);
}

TEST_CASE("MFMA with random reals agrees with a double-precision reference", "[mfma]") {
  // Products of f16 inputs are exact in f32; the only error is rounding the running f32
  // sum: |error| <= K * 2^-24 * (|C| + sum |a_k b_k|), the bound used below.
  Rig r;
  std::mt19937 rng(99);
  std::uniform_real_distribution<float> d(-2.0f, 2.0f);
  std::vector<_Float16> a(64 * 4), b(64 * 4);
  for (int l = 0; l < kLanes; ++l)
    for (int e = 0; e < 4; ++e) {
      a[l * 4 + e] = _Float16(d(rng));
      b[l * 4 + e] = _Float16(d(rng));
    }
  for (int l = 0; l < kLanes; ++l)
    for (int reg = 0; reg < 2; ++reg) {
      r.v(2 + reg)[l] = std::bit_cast<uint16_t>(a[l * 4 + 2 * reg]) | (uint32_t(std::bit_cast<uint16_t>(a[l * 4 + 2 * reg + 1])) << 16);
      r.v(4 + reg)[l] = std::bit_cast<uint16_t>(b[l * 4 + 2 * reg]) | (uint32_t(std::bit_cast<uint16_t>(b[l * 4 + 2 * reg + 1])) << 16);
    }
  for (int reg = 0; reg < 16; ++reg)
    for (int l = 0; l < kLanes; ++l) r.v(8 + reg)[l] = fbits(d(rng));
  std::vector<std::vector<uint32_t>> c(16);
  for (int reg = 0; reg < 16; ++reg) c[reg].assign(r.v(8 + reg), r.v(8 + reg) + kLanes);
  r.run("v_mfma_f32_32x32x8_f16 v[32:47], v[2:3], v[4:5], v[8:23]");
  // A[i][k]: lane i + 32*(k/4), element k%4; B[k][j]: lane j + 32*(k/4)
  for (int reg = 0; reg < 16; ++reg)
    for (int l = 0; l < kLanes; ++l) {
      int i = (8 * (reg / 4)) % 32 + 4 * (l / 32) + reg % 4, j = l % 32;
      double want = bitsf(c[reg][l]), mag = std::fabs(want);
      for (int k = 0; k < 8; ++k) {
        double p = double(a[(i + 32 * (k / 4)) * 4 + k % 4]) * double(b[(j + 32 * (k / 4)) * 4 + k % 4]);
        want += p;
        mag += std::fabs(p);
      }
      REQUIRE(std::fabs(double(bitsf(r.v(32 + reg)[l])) - want) <= 8 * 0x1p-24 * mag);
    }
}

// Throughput of the emulation (not a pass/fail test; hidden from the default run):
//   sim_test_mfma "[perf]"
TEST_CASE("MFMA emulation throughput", "[.][perf]") {
  Rig r;
  std::mt19937 rng(1);
  for (size_t i = 0; i < size_t(200) * kLanes; ++i) r.w.vgpr[i] = rng() & 0x3f7f3f7fu;
  struct Item {
    const char* text;
    double flops;
  };
  const Item items[] = {
      {"v_mfma_f32_32x32x8_bf16 a[0:15], v[2:3], v[4:5], a[0:15]", 2.0 * 32 * 32 * 8},
      {"v_mfma_f32_16x16x16_f16 v[100:103], v[2:3], v[4:5], v[100:103]", 2.0 * 16 * 16 * 16},
      {"v_mfma_f32_32x32x2_f32 v[100:115], v2, v4, v[100:115]", 2.0 * 32 * 32 * 2},
      {"v_mfma_f32_32x32x16_fp8_fp8 v[100:115], v[2:3], v[4:5], v[100:115]", 2.0 * 32 * 32 * 16},
      {"v_mfma_i32_32x32x16_i8 v[100:115], v[2:3], v[4:5], v[100:115]", 2.0 * 32 * 32 * 16},
      {"v_mfma_f64_16x16x4_f64 v[100:107], v[2:3], v[4:5], v[100:107]", 2.0 * 16 * 16 * 4},
      {"v_add_u32_e32 v1, v2, v3", 64},
      {"v_fma_f32 v1, v2, v3, v4", 64},
  };
  for (const Item& it : items) {
    std::vector<uint8_t> b = assemble(it.text);
    b.resize(16, 0);
    Inst in = decode_one(b, 0);
    in.exec = Registry::get().find(in.mnemonic);
    REQUIRE(in.exec);
    const int n = it.flops > 1000 ? 20000 : 1000000;
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) in.exec(r.w, in);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%-70s %9.1f ns  %6.2f G%s/s\n", it.text, s / n * 1e9, it.flops * n / s / 1e9,
                it.flops > 1000 ? "FLOP" : "lane-op");
  }
}

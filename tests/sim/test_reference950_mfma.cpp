// gfx950 reference suite, MFMA: clang-22's gfx950 code for the new MFMA shapes and formats
// (kernels/ref950_mfma.hip) run in the simulator against a host matrix multiply in double.
// The host places each matrix element in the lane and register the CDNA4 MAI layout
// documents (single block: lane l holds row/column l % M and the E = K*M/64 consecutive k
// from E*(l / M), packed from bit 0 of its first register, except an FP8/BF8 operand of the
// f8f6f4 MFMAs: bytes 0-15 hold k = 16*(l / M) + (0..15), bytes 16-31 the same plus K/2 (the
// ISA guide's 7.1.5.1 FP8 tables); the scale of row/column i and k block b is in lane
// i + M*b (7.2.1); 16x16 results D[4*(l/16) + r][l%16], 32x32 results D[8*(r/4) + 4*(l/32) +
// r%4][l%32]) and decodes the small float
// formats from their definitions (OCP 8-bit FP and MX v1.0 specifications), written here
// apart from the simulator's. The checker must report nothing.
#include "kernels/ref_host.hpp"

#include <array>

#pragma clang fp contract(off)

using namespace refsuite;
namespace {
const std::string G = "950_mfma";

// ---- the formats, from their definitions: value = (-1)^s * 2^(e - bias) * (1 + m / 2^mb),
// subnormal (e = 0): 2^(1 - bias) * m / 2^mb. cbsz/blgp codes: 0 e4m3fn, 1 e5m2, 2 e2m3,
// 3 e3m2, 4 e2m1.
struct Fmt {
  int eb, mb, bias;
  int bits() const { return 1 + eb + mb; }
};
const Fmt kFmts[5] = {{4, 3, 7}, {5, 2, 15}, {2, 3, 1}, {3, 2, 3}, {2, 1, 1}};
double decode(int f, uint32_t code) {
  const Fmt F = kFmts[f];
  const bool neg = code >> (F.bits() - 1) & 1;
  const int e = int(code >> F.mb) & ((1 << F.eb) - 1), m = int(code) & ((1 << F.mb) - 1);
  const double v = e == 0 ? std::ldexp(double(m) / (1 << F.mb), 1 - F.bias)
                          : std::ldexp(1.0 + double(m) / (1 << F.mb), e - F.bias);
  return neg ? -v : v;
}
// Codes that are finite numbers (e4m3fn: S.1111.111 is NaN; e5m2: exponent 31 is inf/NaN).
bool finite_code(int f, uint32_t code) {
  if (f == 0) return (code & 0x7f) != 0x7f;
  if (f == 1) return ((code >> 2) & 31) != 31;
  return true;
}

TEST_CASE("gfx950 formats: the largest finite values per the specifications", "[reference][gfx950]") {
  CHECK(decode(0, 0x7e) == 448.0);
  CHECK(decode(1, 0x7b) == 57344.0);
  CHECK(decode(2, 0x1f) == 7.5);
  CHECK(decode(3, 0x1f) == 28.0);
  CHECK(decode(4, 0x7) == 6.0);
  CHECK(decode(4, 0x1) == 0.5);  // fp4 subnormal
  CHECK(decode(0, 0x01) == std::ldexp(1.0, -9));
}

struct Shape {
  int M, N, K;
  int acc_regs() const { return M * N / 64; }
  int epl() const { return K * M / 64; }  // elements per lane (M == N here)
};
// Lane and register of D[i][j] (documented accumulator layout, 4-row groups).
std::pair<int, int> out_at(const Shape& s, int i, int j) {
  if (s.M == 16) return {i % 4, (i / 4) * 16 + j};
  return {(i / 8) * 4 + i % 4, ((i / 4) % 2) * 32 + j};
}

// Packs element codes (nb bits each) of every lane into `regs` dwords per lane.
std::vector<uint32_t> pack(const std::vector<uint32_t>& codes_by_lane, int epl, int nb, int regs) {
  std::vector<uint32_t> out(64 * size_t(regs), 0);
  for (int l = 0; l < 64; ++l)
    for (int e = 0; e < epl; ++e) {
      const uint64_t c = codes_by_lane[size_t(l) * epl + e];
      const int bit = e * nb;
      uint32_t* r = &out[size_t(l) * regs];
      r[bit / 32] |= uint32_t(c << (bit % 32));
      if (bit % 32 + nb > 32) r[bit / 32 + 1] |= uint32_t(c >> (32 - bit % 32));
    }
  return out;
}

// One MFMA: A (MxK) and B (KxN) as element codes `ca`/`cb` with values va/vb, optional
// per-(row or column, k block of 32) scale exponents; C random; D compared with tolerance
// (K products accumulated in fp32).
struct Case {
  Shape s;
  int nb_a, nb_b;              // element bits
  int regs_in;                 // input dwords per lane the kernel reads (4 or 8)
  std::vector<uint32_t> ca, cb;  // codes, row-major A[i][k], B[k][j]
  std::vector<double> va, vb;    // values
  bool integer = false;        // i32 accumulate (exact)
  std::vector<int> sa, sb;     // scale exponents [i][k/32], [j][k/32] (empty: unscaled)
  int sel_a = 0, sel_b = 0;
  bool f8_a = false, f8_b = false;  // an f8f6f4 operand in FP8/BF8 (its two-run layout)
};

// k of element e of lane l (operand of M rows or columns): E consecutive k from E*(l / M), or
// an f8f6f4 FP8/BF8 operand's two runs of 16 (K/2 apart).
int k_of(const Shape& s, int l, int e, bool f8) {
  const int g = l / s.M;
  return f8 ? (e / 16) * (s.K / 2) + 16 * g + e % 16 : s.epl() * g + e;
}

void run_case(const char* kernel, const Case& c, std::mt19937& rng) {
  const Shape& s = c.s;
  const int E = s.epl();
  std::vector<uint32_t> la(64 * size_t(E)), lb(64 * size_t(E));
  for (int l = 0; l < 64; ++l)
    for (int e = 0; e < E; ++e) {
      const int row = l % s.M;
      la[size_t(l) * E + e] = c.ca[size_t(row) * s.K + k_of(s, l, e, c.f8_a)];
      lb[size_t(l) * E + e] = c.cb[size_t(k_of(s, l, e, c.f8_b)) * s.N + row];
    }
  std::vector<uint32_t> A = pack(la, E, c.nb_a, c.regs_in), B = pack(lb, E, c.nb_b, c.regs_in);
  const int R = s.acc_regs();
  std::vector<uint32_t> C(64 * size_t(R));
  std::vector<double> c0(size_t(s.M) * s.N);
  for (int i = 0; i < s.M; ++i)
    for (int j = 0; j < s.N; ++j) {
      const int v = int(rng() % 41) - 20;
      c0[size_t(i) * s.N + j] = v;
      auto [r, l] = out_at(s, i, j);
      C[size_t(l) * R + r] = c.integer ? uint32_t(v) : std::bit_cast<uint32_t>(float(v));
    }
  // Scale dwords: the selected byte holds the exponent, the other bytes are noise.
  std::vector<uint32_t> Sa(64), Sb(64);
  if (!c.sa.empty())
    for (int l = 0; l < 64; ++l) {
      const int row = l % s.M, kb = l / s.M;
      Sa[size_t(l)] = (rng() & ~(0xffu << (8 * c.sel_a))) | uint32_t(c.sa[size_t(row) * (s.K / 32) + kb]) << (8 * c.sel_a);
      Sb[size_t(l)] = (rng() & ~(0xffu << (8 * c.sel_b))) | uint32_t(c.sb[size_t(row) * (s.K / 32) + kb]) << (8 * c.sel_b);
    }
  device& dev = *the_device();
  buffer<uint32_t> dA(dev, A), dB(dev, B), dC(dev, C), dSa(dev, Sa), dSb(dev, Sb), dD(dev, C.size());
  kernel_args args;
  args.add(dA.addr()).add(dB.addr()).add(dC.addr());
  if (!c.sa.empty()) args.add(dSa.addr()).add(dSb.addr());
  args.add(dD.addr());
  run(G, kernel, {1}, {64}, args);
  std::vector<uint32_t> D = dD.download();
  mismatches m;
  for (int i = 0; i < s.M; ++i)
    for (int j = 0; j < s.N; ++j) {
      double want = c0[size_t(i) * s.N + j], absum = std::fabs(want);
      for (int k = 0; k < s.K; ++k) {
        double p = c.va[size_t(i) * s.K + k] * c.vb[size_t(k) * s.N + j];
        if (!c.sa.empty())
          p = std::ldexp(p, c.sa[size_t(i) * (s.K / 32) + k / 32] - 127 + c.sb[size_t(j) * (s.K / 32) + k / 32] - 127);
        want += p, absum += std::fabs(p);
      }
      auto [r, l] = out_at(s, i, j);
      const uint32_t got = D[size_t(l) * R + r];
      const size_t idx = size_t(i) * s.N + j;
      if (c.integer) {
        expect_exact(m, "D", idx, int32_t(got), int32_t(int64_t(want)));
      } else {
        const float g = std::bit_cast<float>(got);
        const double tol = absum * (s.K + 1) * 0x1p-24 + 1e-30;
        if (!(std::fabs(g - want) <= tol)) m.add("D[" + std::to_string(i) + "][" + std::to_string(j) + "]: got " + fmt(g) + " want " + fmt(want));
      }
    }
  INFO(kernel);
  REFSUITE_REQUIRE_NONE(m);
}

// Random finite codes of format f for an R x C matrix.
void random_codes(int f, size_t n, std::mt19937& rng, std::vector<uint32_t>& codes, std::vector<double>& vals) {
  codes.resize(n), vals.resize(n);
  for (size_t i = 0; i < n; ++i) {
    uint32_t c;
    do c = rng() & ((1u << kFmts[f].bits()) - 1); while (!finite_code(f, c));
    codes[i] = c, vals[i] = decode(f, c);
  }
}
}  // namespace

TEST_CASE("gfx950 reference: double-K bf16 / f16 / i8 MFMAs", "[reference][gfx950]") {
  REFSUITE_REQUIRE_DEVICE();
  std::mt19937 rng(950);
  struct K16 { const char* kernel; Shape s; int kind; };  // kind 0 bf16, 1 f16, 2 i8
  const K16 ks[] = {{"mfma_16x16x32_bf16", {16, 16, 32}, 0}, {"mfma_32x32x16_bf16", {32, 32, 16}, 0},
                    {"mfma_16x16x32_f16", {16, 16, 32}, 1},  {"mfma_32x32x16_f16", {32, 32, 16}, 1},
                    {"mfma_16x16x64_i8", {16, 16, 64}, 2},   {"mfma_32x32x32_i8", {32, 32, 32}, 2}};
  for (const K16& k : ks) {
    Case c;
    c.s = k.s;
    c.regs_in = 4;
    c.nb_a = c.nb_b = k.kind == 2 ? 8 : 16;
    c.integer = k.kind == 2;
    std::uniform_real_distribution<float> u(-2.0f, 2.0f);
    auto gen = [&](size_t n, std::vector<uint32_t>& codes, std::vector<double>& vals) {
      codes.resize(n), vals.resize(n);
      for (size_t i = 0; i < n; ++i) {
        if (k.kind == 0) codes[i] = float_to_bf16(u(rng)), vals[i] = bf16_to_float(uint16_t(codes[i]));
        else if (k.kind == 1) codes[i] = float_to_half_bits(u(rng)), vals[i] = half_bits_to_float(uint16_t(codes[i]));
        else { const int v = int(rng() % 256) - 128; codes[i] = uint32_t(v) & 0xff, vals[i] = v; }
      }
    };
    gen(size_t(k.s.M) * k.s.K, c.ca, c.va);
    gen(size_t(k.s.K) * k.s.N, c.cb, c.vb);
    run_case(k.kernel, c, rng);
  }
}

TEST_CASE("gfx950 reference: f8f6f4 MFMAs, every format, with E8M0 scales and byte selects", "[reference][gfx950]") {
  REFSUITE_REQUIRE_DEVICE();
  std::mt19937 rng(4950);
  struct Variant { int fa, fb, sel_a, sel_b; };
  const Variant vs[] = {{0, 0, 0, 0}, {1, 1, 1, 2}, {0, 1, 3, 0}, {2, 2, 0, 1}, {3, 3, 2, 3},
                        {4, 4, 1, 1}, {2, 4, 0, 0}, {4, 0, 3, 3}, {3, 1, 0, 0}};
  for (const Shape s : {Shape{16, 16, 128}, Shape{32, 32, 64}}) {
    const std::string shape = s.M == 16 ? "16x16x128" : "32x32x64";
    for (const Variant& v : vs) {
      Case c;
      c.s = s;
      c.regs_in = 8;
      c.nb_a = kFmts[v.fa].bits(), c.nb_b = kFmts[v.fb].bits();
      c.f8_a = v.fa <= 1, c.f8_b = v.fb <= 1;
      random_codes(v.fa, size_t(s.M) * s.K, rng, c.ca, c.va);
      random_codes(v.fb, size_t(s.K) * s.N, rng, c.cb, c.vb);
      c.sa.resize(size_t(s.M) * (s.K / 32)), c.sb.resize(size_t(s.N) * (s.K / 32));
      for (auto& x : c.sa) x = 120 + int(rng() % 15);
      for (auto& x : c.sb) x = 120 + int(rng() % 15);
      c.sel_a = v.sel_a, c.sel_b = v.sel_b;
      const std::string k = "mfma_scale_" + shape + "_" + std::to_string(v.fa) + "_" + std::to_string(v.fb) + "_" +
                            std::to_string(v.sel_a) + std::to_string(v.sel_b);
      run_case(k.c_str(), c, rng);
    }
  }
  // Unscaled (the plain encoding clang emits for zero scales).
  for (auto [kernel, s, fa, fb] : {std::tuple{"mfma_plain_16x16x128_0_1", Shape{16, 16, 128}, 0, 1},
                                   std::tuple{"mfma_plain_32x32x64_4_2", Shape{32, 32, 64}, 4, 2}}) {
    Case c;
    c.s = s;
    c.regs_in = 8;
    c.nb_a = kFmts[fa].bits(), c.nb_b = kFmts[fb].bits();
    c.f8_a = fa <= 1, c.f8_b = fb <= 1;
    random_codes(fa, size_t(s.M) * s.K, rng, c.ca, c.va);
    random_codes(fb, size_t(s.K) * s.N, rng, c.cb, c.vb);
    run_case(kernel, c, rng);
  }
}

TEST_CASE("gfx950 reference: a CDNA3 fp8 MFMA reads OCP e4m3fn / e5m2", "[reference][gfx950]") {
  REFSUITE_REQUIRE_DEVICE();
  std::mt19937 rng(9502);
  Case c;
  c.s = {16, 16, 32};
  c.regs_in = 2;
  c.nb_a = c.nb_b = 8;
  random_codes(0, 16 * 32, rng, c.ca, c.va);
  random_codes(1, 32 * 16, rng, c.cb, c.vb);
  run_case("mfma_16x16x32_fp8_bf8", c, rng);
}

// gfx950 SMFMAC: A is 4:2 sparse. The CDNA3 rule taken to the doubled K: lane l (row l % M,
// k group g = l / M) holds E = K*M/128 kept values, value e being kept value (e % 2) of the
// group of four k at 4 * ((E*g + e) / 2); 2 bits per value in the lane's index dword give its
// position in that group. B and D as the dense shapes.
TEST_CASE("gfx950 reference: SMFMAC 16x16x128 fp8 and 32x32x32 bf16", "[reference][gfx950]") {
  REFSUITE_REQUIRE_DEVICE();
  std::mt19937 rng(7950);
  for (int which : {0, 1}) {
    const Shape s = which == 0 ? Shape{16, 16, 128} : Shape{32, 32, 32};
    const int bits = which == 0 ? 8 : 16;
    auto value = [&](uint32_t& code) -> double {
      if (which == 0) {
        do code = rng() & 0xff; while (!finite_code(0, code));
        return decode(0, code);
      }
      code = float_to_bf16(float(int(rng() % 17) - 8) * 0.25f);
      return bf16_to_float(uint16_t(code));
    };
    const int Ea = s.K * s.M / 128, Eb = s.K * s.N / 64;
    std::vector<double> Ad(size_t(s.M) * s.K, 0.0), Bd(size_t(s.K) * s.N);
    std::vector<uint32_t> la(64 * size_t(Ea)), lb(64 * size_t(Eb)), Idx(64, 0);
    // positions kept in each (row, group of 4)
    std::vector<std::array<int, 2>> keep(size_t(s.M) * (s.K / 4));
    for (auto& p : keep) {
      int a = int(rng() % 4), b = int(rng() % 3);
      if (b >= a) ++b;
      p = {std::min(a, b), std::max(a, b)};
    }
    for (int l = 0; l < 64; ++l) {
      const int row = l % s.M, g = l / s.M;
      for (int e = 0; e < Ea; ++e) {
        const int kc = Ea * g + e, grp = kc / 2, pos = keep[size_t(row) * (s.K / 4) + grp][size_t(kc % 2)];
        uint32_t code;
        Ad[size_t(row) * s.K + 4 * grp + pos] = value(code);
        la[size_t(l) * Ea + e] = code;
        Idx[size_t(l)] |= uint32_t(pos) << (2 * e);
      }
      for (int e = 0; e < Eb; ++e) {
        const int k = Eb * g + e;
        uint32_t code;
        Bd[size_t(k) * s.N + row] = value(code);
        lb[size_t(l) * Eb + e] = code;
      }
    }
    std::vector<uint32_t> A = pack(la, Ea, bits, 4), B = pack(lb, Eb, bits, 8);
    const int R = s.acc_regs();
    std::vector<uint32_t> C(64 * size_t(R));
    std::vector<double> c0(size_t(s.M) * s.N);
    for (int i = 0; i < s.M; ++i)
      for (int j = 0; j < s.N; ++j) {
        c0[size_t(i) * s.N + j] = int(rng() % 41) - 20;
        auto [r, l] = out_at(s, i, j);
        C[size_t(l) * R + r] = std::bit_cast<uint32_t>(float(c0[size_t(i) * s.N + j]));
      }
    device& dev = *the_device();
    buffer<uint32_t> dA(dev, A), dB(dev, B), dC(dev, C), dI(dev, Idx), dD(dev, C.size());
    kernel_args args;
    args.add(dA.addr()).add(dB.addr()).add(dC.addr()).add(dI.addr()).add(dD.addr());
    const char* kernel = which == 0 ? "smfmac_16x16x128_fp8_fp8" : "smfmac_32x32x32_bf16";
    run(G, kernel, {1}, {64}, args);
    auto D = dD.download();
    mismatches m;
    for (int i = 0; i < s.M; ++i)
      for (int j = 0; j < s.N; ++j) {
        double want = c0[size_t(i) * s.N + j], absum = std::fabs(want);
        for (int k = 0; k < s.K; ++k) {
          const double p = Ad[size_t(i) * s.K + k] * Bd[size_t(k) * s.N + j];
          want += p, absum += std::fabs(p);
        }
        auto [r, l] = out_at(s, i, j);
        const float g = std::bit_cast<float>(D[size_t(l) * R + r]);
        if (!(std::fabs(g - want) <= absum * (s.K + 1) * 0x1p-24 + 1e-30))
          m.add("D[" + std::to_string(i) + "][" + std::to_string(j) + "]: got " + fmt(g) + " want " + fmt(want));
      }
    INFO(kernel);
    REFSUITE_REQUIRE_NONE(m);
  }
}

// The checker's gfx950 MFMA wait states: clang's gfx950 code pads an XDL 4-pass MFMA's result
// read with 8 wait states (s_nop 7); one fewer is enough on gfx942 but not on gfx950, so the
// same .s with s_nop 6, re-assembled with clang++-22 for gfx950, must be reported.
TEST_CASE("gfx950 checker: an XDL result read one wait state early is reported", "[reference][gfx950][checker]") {
  REFSUITE_REQUIRE_DEVICE();
  // the s_nop 7 after the MFMA of hazard_16x16x16_bf16 in the suite's .s, or that with s_nop 6
  auto edit = [](bool mutate) {
    return [mutate](std::string& s) {
      const size_t k = s.find("\nhazard_16x16x16_bf16:");
      REQUIRE(k != std::string::npos);
      const size_t mf = s.find("v_mfma_f32_16x16x16_bf16", k);
      REQUIRE(mf != std::string::npos);
      const size_t nop = s.find("s_nop 7", mf);
      REQUIRE(nop != std::string::npos);
      REQUIRE(nop < s.find("s_endpgm", mf));
      if (mutate) s.replace(nop, 7, "s_nop 6");
    };
  };
  std::mt19937 rng(1);
  std::vector<uint32_t> A(128), B(128), C(256);
  for (auto& v : A) v = float_to_bf16(float(int(rng() % 9) - 4)) * 0x10001u;
  for (auto& v : B) v = float_to_bf16(float(int(rng() % 9) - 4)) * 0x10001u;
  for (auto& v : C) v = std::bit_cast<uint32_t>(float(int(rng() % 9)));
  for (int mutate : {0, 1}) {
    const std::string co = reassembled("950_mfma", "hazard950_" + std::to_string(mutate), "gfx950", edit(mutate != 0));
    device& dev = *the_device();
    auto m = dev.load_file(co);
    buffer<uint32_t> dA(dev, A), dB(dev, B), dC(dev, C), dD(dev, 256);
    kernel_args args;
    args.add(dA.addr()).add(dB.addr()).add(dC.addr()).add(dD.addr());
    launch_report rep = dev.launch(*m, "hazard_16x16x16_bf16", {1}, {64}, args);
    INFO("s_nop " << (mutate ? 6 : 7) << ":\n" << join_lines(rep.diagnostics));
    if (!mutate) {
      CHECK(rep.diagnostics.empty());
    } else {
      // v_pk_add_f32 reads and overwrites the MFMA's result in place: both rules fire.
      REQUIRE(rep.diagnostics.size() == 2);
      CHECK(rep.diagnostics[0].find("[hazard mfma-read]") != std::string::npos);
      CHECK(rep.diagnostics[1].find("[hazard mfma-waw]") != std::string::npos);
      CHECK(rep.diagnostics[0].find("needs 8 wait states, has 7") != std::string::npos);
    }
  }
}

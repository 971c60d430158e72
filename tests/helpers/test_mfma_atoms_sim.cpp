// HIPASM_TEST_KERNELS: mfma_atoms.hip
// The MFMA atoms of both targets (targets/<arch>/mfma_atoms.hpp) against what does not come
// from them: every atom's MFMA executed in hipasm-sim (whose MFMA semantics are written
// independently, sim/src/exec_mfma.cpp) with inputs placed by the atom's layouts, checked
// against a plain C++ matmul; the register counts against the LLVM-generated instruction
// tables' operand widths; the pass counts against reference/gfx942.md and gfx950.md; and the
// fragment helpers (helpers/mfma.hpp: mfma_load / mfma_store from global memory and LDS)
// against the same matmul on tiles with padded strides.
#include <catch2/catch.hpp>

#include <hipasm/mfma_atom.hpp>
#include <hipasm/rt/launcher.hpp>
#include <hipasm/targets/gfx942/mfma_atoms.hpp>
#include <hipasm/targets/gfx942/target.hpp>
#include <hipasm/targets/gfx950/mfma_atoms.hpp>
#include <hipasm/targets/gfx950/target.hpp>
#include "narrow_float_ref.hpp"
#include "sim_code_object.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace rt = hipasm::rt;
using hipasm::mfma_atom;
using hipasm::mfma_type;

namespace {

struct target_case {
  const char* arch;
  std::span<const mfma_atom> atoms;
  const hipasm::target* desc;
  bool ocp;  // fp8/bf8 are OCP e4m3fn/e5m2 (gfx950), else FNUZ (gfx942)
  const char* co;
};
const target_case kTargets[] = {
    {"gfx942", hipasm::targets::gfx942_mfma_atoms, &hipasm::gfx942, false, "mfma_atoms"},
    {"gfx950", hipasm::targets::gfx950_mfma_atoms, &hipasm::gfx950, true, "mfma_atoms"},
};

struct sim {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  std::map<std::string, std::unique_ptr<rt::module>> mods;
  rt::module& mod(const std::string& co) {
    auto& m = mods[co];
    if (!m)
      m = dev->load_file(hipasm::test::code_object(co));
    return *m;
  }
};
sim& S() {
  static sim s;
  return s;
}

// ---- element encodings (small integers only: every format holds -3..3 exactly) ----------
// A minifloat with `eb` exponent and `mb` mantissa bits and bias `bias`: |v| = 2^E (1 + f).
uint32_t mini(int v, int eb, int mb, int bias) {
  if (v == 0) return 0;
  const uint32_t sign = v < 0 ? 1u : 0u;
  int a = v < 0 ? -v : v, E = 0;
  while ((a >> (E + 1)) != 0) ++E;
  const uint32_t frac = static_cast<uint32_t>(a - (1 << E)) << mb >> E;  // exact: a < 2^(mb+1)
  return sign << (eb + mb) | static_cast<uint32_t>(E + bias) << mb | frac;
}
// Bits of value v as type t (f8f6f4: by format code), and the element width.
uint64_t encode(mfma_type t, int v, bool ocp, int format = 0) {
  switch (t) {
    case mfma_type::f32: case mfma_type::xf32: return std::bit_cast<uint32_t>(static_cast<float>(v));
    case mfma_type::f64: return std::bit_cast<uint64_t>(static_cast<double>(v));
    case mfma_type::f16: return mini(v, 5, 10, 15);
    case mfma_type::bf16: return mini(v, 8, 7, 127);
    case mfma_type::i8: return static_cast<uint8_t>(static_cast<int8_t>(v));
    case mfma_type::i32: return static_cast<uint32_t>(v);
    case mfma_type::fp8: return ocp ? mini(v, 4, 3, 7) : mini(v, 4, 3, 8);
    case mfma_type::bf8: return ocp ? mini(v, 5, 2, 15) : mini(v, 5, 2, 16);
    case mfma_type::f8f6f4: {
      constexpr int e[5] = {4, 5, 2, 3, 2}, m[5] = {3, 2, 3, 2, 1}, b[5] = {7, 15, 1, 3, 1};
      return mini(v, e[format], m[format], b[format]);
    }
  }
  return 0;
}
double decode_c(mfma_type t, uint64_t bits) {
  if (t == mfma_type::f64) return std::bit_cast<double>(bits);
  if (t == mfma_type::i32) return static_cast<int32_t>(static_cast<uint32_t>(bits));
  return std::bit_cast<float>(static_cast<uint32_t>(bits));
}

// Lane-major registers: word r * 64 + lane holds register r of the lane.
void put_bits(std::vector<uint32_t>& w, int lane, int bit, int nbits, uint64_t v) {
  for (int i = 0; i < nbits; ++i) {
    const int b = bit + i;
    const size_t idx = static_cast<size_t>(b / 32) * 64 + static_cast<size_t>(lane);
    if ((v >> i) & 1) w[idx] |= 1u << (b % 32);
  }
}
uint64_t get_bits(const std::vector<uint32_t>& w, int lane, int bit, int nbits) {
  uint64_t v = 0;
  for (int i = 0; i < nbits; ++i) {
    const int b = bit + i;
    v |= static_cast<uint64_t>((w[static_cast<size_t>(b / 32) * 64 + static_cast<size_t>(lane)] >> (b % 32)) & 1) << i;
  }
  return v;
}

// Operands of one atom: A[b][i][k], B[b][k][j], C[b][i][j] small integers, and D's reference.
struct problem {
  int M, N, K, BL;
  std::vector<int> A, B, C;
  double ref(int b, int i, int j) const {
    double s = C[(static_cast<size_t>(b) * M + i) * N + j];
    for (int k = 0; k < K; ++k)
      s += static_cast<double>(A[(static_cast<size_t>(b) * M + i) * K + k]) * B[(static_cast<size_t>(b) * K + k) * N + j];
    return s;
  }
};
problem make_problem(const mfma_atom& a, std::mt19937& rng) {
  problem p{a.m, a.n, a.k, a.blocks, {}, {}, {}};
  std::uniform_int_distribution<int> d(-3, 3);
  p.A.resize(static_cast<size_t>(p.BL) * p.M * p.K);
  p.B.resize(static_cast<size_t>(p.BL) * p.K * p.N);
  p.C.resize(static_cast<size_t>(p.BL) * p.M * p.N);
  for (int& x : p.A) x = d(rng);
  for (int& x : p.B) x = d(rng);
  for (int& x : p.C) x = d(rng);
  return p;
}

std::vector<uint32_t> run(const std::string& co, const std::string& kernel, const std::vector<uint32_t>& a,
                          const std::vector<uint32_t>& b, const std::vector<uint32_t>& c, size_t out_words) {
  rt::device& d = *S().dev;
  rt::buffer<uint32_t> A(d, a), B(d, b), C(d, c), D(d, std::vector<uint32_t>(out_words, 0xdeadbeefu));
  rt::kernel_args args;
  args.add(D.ptr());
  args.add(A.ptr());
  args.add(B.ptr());
  args.add(C.ptr());
  rt::launch_report rep = d.launch(S().mod(co), kernel, {1, 1, 1}, {64, 1, 1}, args);
  for (const auto& diag : rep.diagnostics) FAIL_CHECK(kernel << " checker: " << diag);
  return D.download();
}

// The raw kernel of atom `idx`: operands placed by the layouts, D read back by C's.
void check_raw(const target_case& T, int idx, int fa, int fb, std::mt19937& rng) {
  const mfma_atom& x = T.atoms[static_cast<size_t>(idx)];
  INFO(T.arch << " " << x.name << " formats " << fa << "," << fb);
  const problem p = make_problem(x, rng);
  const int ba = x.operand_bits(0, fa), bb = x.operand_bits(1, fb), bc = hipasm::mfma_type_bits(x.c);
  std::vector<uint32_t> wa(static_cast<size_t>(x.a_regs(fa)) * 64), wb(static_cast<size_t>(x.b_regs(fb)) * 64),
      wc(static_cast<size_t>(x.c_regs()) * 64);
  for (int l = 0; l < 64; ++l) {
    for (int e = 0; e < x.a_elems(); ++e) {
      const hipasm::mfma_coord q = x.la.coord(l, e);
      put_bits(wa, l, e * ba, ba, encode(x.a, p.A[(static_cast<size_t>(q.block) * p.M + q.row) * p.K + q.col], T.ocp, fa));
    }
    for (int e = 0; e < x.b_elems(); ++e) {
      const hipasm::mfma_coord q = x.lb.coord(l, e);
      put_bits(wb, l, e * bb, bb, encode(x.b, p.B[(static_cast<size_t>(q.block) * p.K + q.row) * p.N + q.col], T.ocp, fb));
    }
    for (int e = 0; e < x.c_elems(); ++e) {
      const hipasm::mfma_coord q = x.lc.coord(l, e);
      put_bits(wc, l, e * bc, bc, encode(x.c, p.C[(static_cast<size_t>(q.block) * p.M + q.row) * p.N + q.col], T.ocp));
    }
  }
  const std::string k = "atom_" + std::to_string(idx);
  const std::vector<uint32_t> wd = run(T.co, k, wa, wb, wc, wc.size());
  int bad = 0;
  for (int l = 0; l < 64; ++l)
    for (int e = 0; e < x.c_elems(); ++e) {
      const hipasm::mfma_coord q = x.lc.coord(l, e);
      const double got = decode_c(x.c, get_bits(wd, l, e * bc, bc)), want = p.ref(q.block, q.row, q.col);
      if (got != want && bad++ < 4) FAIL_CHECK("lane " << l << " elem " << e << " (" << q.row << "," << q.col << ") got " << got << " want " << want);
    }
  CHECK(bad == 0);
}

// The fragment kernels: tiles in memory (padded strides), D row-major.
void check_frag(const target_case& T, int idx, bool lds, std::mt19937& rng) {
  const mfma_atom& x = T.atoms[static_cast<size_t>(idx)];
  INFO(T.arch << " " << x.name << (lds ? " lds" : " global"));
  const problem p = make_problem(x, rng);
  const int eba = hipasm::mfma_type_bits(x.a) / 8, ebc = hipasm::mfma_type_bits(x.c) / 8;
  const int rows_a = p.M * p.BL, cols_b = p.N * p.BL;
  const int lda = lds ? p.K : p.K + 16 / eba, ldc = p.N + 1;
  std::vector<uint8_t> A(static_cast<size_t>(rows_a) * lda * eba + 64), B, C(static_cast<size_t>(rows_a) * ldc * ebc + 64);
  auto put = [](std::vector<uint8_t>& m, size_t at, uint64_t v, int bytes) { std::memcpy(&m[at], &v, static_cast<size_t>(bytes)); };
  for (int b = 0; b < p.BL; ++b)
    for (int i = 0; i < p.M; ++i) {
      for (int k = 0; k < p.K; ++k)
        put(A, (static_cast<size_t>(b * p.M + i) * lda + k) * eba, encode(x.a, p.A[(static_cast<size_t>(b) * p.M + i) * p.K + k], T.ocp), eba);
      for (int j = 0; j < p.N; ++j)
        put(C, (static_cast<size_t>(b * p.M + i) * ldc + j) * ebc, encode(x.c, p.C[(static_cast<size_t>(b) * p.M + i) * p.N + j], T.ocp), ebc);
    }
  if (lds) {  // K x N row-major, blocks side by side
    B.assign(static_cast<size_t>(p.K) * cols_b * eba + 64, 0);
    for (int b = 0; b < p.BL; ++b)
      for (int k = 0; k < p.K; ++k)
        for (int j = 0; j < p.N; ++j)
          put(B, (static_cast<size_t>(k) * cols_b + b * p.N + j) * eba, encode(x.b, p.B[(static_cast<size_t>(b) * p.K + k) * p.N + j], T.ocp), eba);
  } else {  // N x K (k contiguous), ld K + 32 bytes
    const int ldbt = p.K + 32 / eba;
    B.assign(static_cast<size_t>(cols_b) * ldbt * eba + 64, 0);
    for (int b = 0; b < p.BL; ++b)
      for (int k = 0; k < p.K; ++k)
        for (int j = 0; j < p.N; ++j)
          put(B, (static_cast<size_t>(b * p.N + j) * ldbt + k) * eba, encode(x.b, p.B[(static_cast<size_t>(b) * p.K + k) * p.N + j], T.ocp), eba);
  }
  auto words = [](const std::vector<uint8_t>& m) {
    std::vector<uint32_t> w((m.size() + 3) / 4);
    std::memcpy(w.data(), m.data(), m.size());
    return w;
  };
  const std::vector<uint32_t> wd = run(T.co, (lds ? "frag_lds_" : "frag_") + std::to_string(idx), words(A), words(B), words(C),
                                       (C.size() + 3) / 4);
  int bad = 0;
  for (int b = 0; b < p.BL; ++b)
    for (int i = 0; i < p.M; ++i)
      for (int j = 0; j < p.N; ++j) {
        uint64_t bits = 0;
        std::memcpy(&bits, reinterpret_cast<const uint8_t*>(wd.data()) + (static_cast<size_t>(b * p.M + i) * ldc + j) * ebc,
                    static_cast<size_t>(ebc));
        const double got = decode_c(x.c, bits), want = p.ref(b, i, j);
        if (got != want && bad++ < 4) FAIL_CHECK("(" << b << "," << i << "," << j << ") got " << got << " want " << want);
      }
  CHECK(bad == 0);
}

// ---- OCP MX formats (tests/common/narrow_float_ref.hpp, from the OCP MX v1.0 spec) ---------
// E2M1 (fp4), E2M3 / E3M2 (fp6) and the OCP fp8 E4M3 / E5M2, by their f8f6f4 format code (0 e4m3,
// 1 e5m2, 2 e2m3, 3 e3m2, 4 e2m1); the values used here are finite in all five.
const hipasm::test::minifloat* const kMx[5] = {&hipasm::test::e4m3fn, &hipasm::test::e5m2, &hipasm::test::e2m3,
                                               &hipasm::test::e3m2, &hipasm::test::e2m1};
double mx_decode(uint32_t bits, const hipasm::test::minifloat* f) { return hipasm::test::decode(*f, bits); }
// The code of an exactly representable value (+0 for zero).
uint32_t mx_encode(double v, const hipasm::test::minifloat* f) {
  const uint32_t b = hipasm::test::encode(*f, v == 0 ? 0.0 : v, false);
  if (mx_decode(b, f) != v) FAIL("value " << v << " is not exact in e" << f->exp_bits << "m" << f->man_bits);
  return b;
}

// One f8f6f4 MFMA with A in format fa (cbsz) and B in fb (blgp): elements from {0, +-0.5, +-1,
// +-1.5, +-2, +-3} (0.5 is subnormal in e2m1 and e2m3), packed at element x (format bits) of
// the lane's registers as the atom's layouts for those formats place them (ab_layout); D
// against a C++ matmul.
void check_f8f6f4(const target_case& T, const mfma_atom& x, int fa, int fb, std::mt19937& rng) {
  INFO(T.arch << " " << x.name << " cbsz " << fa << " blgp " << fb);
  static constexpr double vals[] = {0, 0.5, -0.5, 1, -1, 1.5, -1.5, 2, -2, 3, -3};
  std::uniform_int_distribution<int> pick(0, 10), ci(-3, 3);
  const int M = x.m, N = x.n, K = x.k;
  std::vector<double> A(static_cast<size_t>(M) * K), B(static_cast<size_t>(K) * N), C(static_cast<size_t>(M) * N);
  for (double& v : A) v = vals[pick(rng)];
  for (double& v : B) v = vals[pick(rng)];
  for (double& v : C) v = ci(rng);
  const int ba = x.operand_bits(0, fa), bb = x.operand_bits(1, fb);
  REQUIRE(ba == kMx[fa]->bits());
  REQUIRE(bb == kMx[fb]->bits());
  const hipasm::mfma_layout la = x.ab_layout(0, fa), lb = x.ab_layout(1, fb);  // fp8 / fp6 / fp4
  std::vector<uint32_t> wa(static_cast<size_t>(x.a_regs(fa)) * 64), wb(static_cast<size_t>(x.b_regs(fb)) * 64),
      wc(static_cast<size_t>(x.c_regs()) * 64);
  for (int l = 0; l < 64; ++l) {
    for (int e = 0; e < x.a_elems(); ++e) {
      const hipasm::mfma_coord q = la.coord(l, e);
      put_bits(wa, l, e * ba, ba, mx_encode(A[static_cast<size_t>(q.row) * K + q.col], kMx[fa]));
    }
    for (int e = 0; e < x.b_elems(); ++e) {
      const hipasm::mfma_coord q = lb.coord(l, e);
      put_bits(wb, l, e * bb, bb, mx_encode(B[static_cast<size_t>(q.row) * N + q.col], kMx[fb]));
    }
    for (int e = 0; e < x.c_elems(); ++e) {
      const hipasm::mfma_coord q = x.lc.coord(l, e);
      put_bits(wc, l, e * 32, 32, std::bit_cast<uint32_t>(static_cast<float>(C[static_cast<size_t>(q.row) * N + q.col])));
    }
  }
  const std::string k = "f8f6f4_" + std::to_string(M) + "_" + std::to_string(fa) + "_" + std::to_string(fb);
  const std::vector<uint32_t> wd = run(T.co, k, wa, wb, wc, wc.size());
  int bad = 0;
  for (int l = 0; l < 64; ++l)
    for (int e = 0; e < x.c_elems(); ++e) {
      const hipasm::mfma_coord q = x.lc.coord(l, e);
      double want = C[static_cast<size_t>(q.row) * N + q.col];
      for (int kk = 0; kk < K; ++kk) want += A[static_cast<size_t>(q.row) * K + kk] * B[static_cast<size_t>(kk) * N + q.col];
      const double got = std::bit_cast<float>(static_cast<uint32_t>(get_bits(wd, l, e * 32, 32)));
      if (got != want && bad++ < 4) FAIL_CHECK("lane " << l << " elem " << e << " (" << q.row << "," << q.col << ") got " << got << " want " << want);
    }
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("mfma atoms: f8f6f4 in fp6 and fp4 (OCP MX encodings) in hipasm-sim match a C++ matmul", "[mfma_atoms][sim]") {
  std::mt19937 rng(47);
  const target_case& T = kTargets[1];
  int n = 0;
  for (const mfma_atom& x : T.atoms) {
    if (x.a != mfma_type::f8f6f4 || x.scaled) continue;
    if (T.arch == hipasm::test::test_arch())  // gfx950's run: its code objects have these kernels
      for (auto [fa, fb] : {std::pair{2, 2}, {3, 3}, {4, 4}, {2, 4}, {4, 3}, {1, 2}, {0, 4}}) check_f8f6f4(T, x, fa, fb, rng);
    ++n;
  }
  CHECK(n == 2);
  // The spec's extremes and subnormals, decoded: e2m1 max 6, min subnormal 0.5; e2m3 max 7.5,
  // min subnormal 0.125; e3m2 max 28, min subnormal 0.0625.
  CHECK(mx_decode(0x7, kMx[4]) == 6.0);
  CHECK(mx_decode(0x1, kMx[4]) == 0.5);
  CHECK(mx_decode(0x1f, kMx[2]) == 7.5);
  CHECK(mx_decode(0x01, kMx[2]) == 0.125);
  CHECK(mx_decode(0x1f, kMx[3]) == 28.0);
  CHECK(mx_decode(0x01, kMx[3]) == 0.0625);
  CHECK(mx_decode(0x2f, kMx[3]) == -1.75);
}

// The CDNA4 ISA guide's tables (7.1.5.1 "Dense Matrix Layouts: 8-bit and Smaller"), written out:
// the k of the first element of each run of 16 (FP8: v0-v3 and v4-v7) or of 32 (FP6, FP4) by
// lane group (lanes 0-15, 16-31, 32-47, 48-63).
TEST_CASE("mfma atoms: f8f6f4 A/B layouts per format match the CDNA4 ISA tables", "[mfma_atoms]") {
  struct Table { int m; int fmt; int run; int k0[4][2]; };
  const Table tables[] = {
      // FP8 16x16x128: thr 0-15 k=0-15 | k=64-79, thr 16-31 k=16-31 | 80-95, ...
      {16, 0, 16, {{0, 64}, {16, 80}, {32, 96}, {48, 112}}},
      // FP8 32x32x64: thr 0-31 k=0-15 | 32-47, thr 32-63 k=16-31 | 48-63
      {32, 0, 16, {{0, 32}, {0, 32}, {16, 48}, {16, 48}}},
      // FP6 / FP4 16x16x128: 32 consecutive k from 32 x (lane / 16)
      {16, 2, 32, {{0, -1}, {32, -1}, {64, -1}, {96, -1}}},
      {16, 4, 32, {{0, -1}, {32, -1}, {64, -1}, {96, -1}}},
      // FP6 / FP4 32x32x64: from 32 x (lane / 32)
      {32, 3, 32, {{0, -1}, {0, -1}, {32, -1}, {32, -1}}},
      {32, 4, 32, {{0, -1}, {0, -1}, {32, -1}, {32, -1}}},
  };
  int n = 0;
  for (const mfma_atom& x : kTargets[1].atoms) {
    if (x.a != mfma_type::f8f6f4) continue;
    ++n;
    for (const Table& t : tables) {
      if (t.m != x.m) continue;
      for (int which = 0; which < 2; ++which) {
        const hipasm::mfma_layout L = x.ab_layout(which, t.fmt);
        INFO(x.name << " operand " << which << " format " << t.fmt);
        REQUIRE(L.elems() == 32);
        for (int l = 0; l < 64; ++l)
          for (int e = 0; e < 32; ++e) {
            const hipasm::mfma_coord q = L.coord(l, e);
            const int k = t.k0[l / 16][e / t.run] + e % t.run;
            CHECK((which == 0 ? q.row : q.col) == l % x.m);
            CHECK((which == 0 ? q.col : q.row) == k);
            const hipasm::mfma_place p = L.place(q);
            CHECK((p.lane == l && p.elem == e));
          }
      }
    }
  }
  CHECK(n == 4);
  // AMD's hardware probe of 32x32x64 (aiter, aiter/ops/triton/quant/mxfp6_fmha_pack.py
  // _v_direct_kvtab: "FP6 physical contraction index a pairs with FP8 index swap_bits_4_5(a)",
  // physical index = 32 * (lane / 32) + element): the same k in the two layouts.
  for (const mfma_atom& x : kTargets[1].atoms) {
    if (x.a != mfma_type::f8f6f4 || x.m != 32) continue;
    const hipasm::mfma_layout f6 = x.ab_layout(0, 2), f8 = x.ab_layout(0, 0);
    for (int a = 0; a < 64; ++a) {
      const hipasm::mfma_place p6 = f6.place({.row = 0, .col = a}), p8 = f8.place({.row = 0, .col = a});
      const int swapped = (a & 0xf) | ((a & 0x10) << 1) | ((a & 0x20) >> 1);
      CHECK(32 * (p6.lane / 32) + p6.elem == a);
      CHECK(32 * (p8.lane / 32) + p8.elem == swapped);
    }
  }
}

TEST_CASE("mfma atoms: names, register counts and passes match the instruction tables", "[mfma_atoms]") {
  for (const target_case& T : kTargets) {
    for (const mfma_atom& x : T.atoms) {
      INFO(T.arch << " " << x.name);
      const hipasm::isa::instr_desc& d = (*T.desc)[x.op];
      CHECK(d.name == x.name);
      CHECK(d.has(hipasm::isa::f_mfma));
      // vdst, src0 (A), src1 (B), src2 (C): the widths LLVM's tables give the operands.
      CHECK(d.operands[0].dwords == x.c_regs());
      CHECK(d.operands[1].dwords == x.a_regs());
      CHECK(d.operands[2].dwords == x.b_regs());
      CHECK(d.operands[3].dwords == x.c_regs());
      // f8f6f4: the table's A / B widths follow cbsz / blgp as the atom's register counts do.
      using wb = hipasm::isa::operand_width_by;
      CHECK((d.operands[1].width_by == wb::cbsz) == (x.a == mfma_type::f8f6f4));
      CHECK((d.operands[2].width_by == wb::blgp) == (x.b == mfma_type::f8f6f4));
      if (x.a == mfma_type::f8f6f4)
        for (int f = 0; f < 5; ++f) {
          CHECK(hipasm::isa::f8f6f4_dwords(f) == x.a_regs(f));
          CHECK(hipasm::isa::f8f6f4_dwords(f) == x.b_regs(f));
        }
      // Each layout is a bijection of (lane, element) onto the operand's elements.
      const struct {
        const hipasm::mfma_layout& L;
        int rows, cols;
      } ops[] = {{x.la, x.m, x.k}, {x.lb, x.k, x.n}, {x.lc, x.m, x.n}};
      for (const auto& o : ops) {
        std::set<std::tuple<int, int, int>> seen;
        for (int l = 0; l < 64; ++l)
          for (int e = 0; e < o.L.elems(); ++e) {
            const hipasm::mfma_coord q = o.L.coord(l, e);
            CHECK((q.row >= 0 && q.row < o.rows && q.col >= 0 && q.col < o.cols && q.block >= 0 && q.block < x.blocks));
            seen.insert({q.block, q.row, q.col});
            const hipasm::mfma_place pl = o.L.place(q);
            CHECK((pl.lane == l && pl.elem == e));
          }
        CHECK(seen.size() == static_cast<size_t>(o.rows) * o.cols * x.blocks);
        CHECK(static_cast<int>(seen.size()) == 64 * o.L.elems());
      }
    }
  }
  // The dropped and added MFMAs (reference/gfx950.md section 1).
  auto has = [](const target_case& T, std::string_view n) {
    for (const mfma_atom& x : T.atoms)
      if (x.name == n) return true;
    return false;
  };
  CHECK(has(kTargets[0], "v_mfma_f32_32x32x4_xf32"));
  CHECK_FALSE(has(kTargets[1], "v_mfma_f32_32x32x4_xf32"));
  CHECK_FALSE(has(kTargets[0], "v_mfma_f32_16x16x32_bf16"));
  CHECK(has(kTargets[1], "v_mfma_f32_16x16x128_f8f6f4"));
  CHECK(has(kTargets[1], "v_mfma_scale_f32_32x32x64_f8f6f4"));
  for (const target_case& T : kTargets)
    for (const mfma_atom& x : T.atoms) {  // the scaled atoms' table entries have the two scale VGPRs
      const hipasm::isa::instr_desc& d = (*T.desc)[x.op];
      CHECK(x.scaled == (d.num_operands == 6));
      CHECK(x.scaled == x.name.starts_with("v_mfma_scale_"));
      if (x.scaled) CHECK((d.operands[4].dwords == 1 && d.operands[5].dwords == 1));
    }
  // Pass counts: reference/gfx942.md "Passes on gfx940" and gfx950.md section 3.
  const std::map<std::string, std::pair<int, int>> passes = {
      {"v_mfma_f32_4x4x4_16b_f16", {2, 2}},      {"v_mfma_f32_16x16x16_bf16", {4, 4}},
      {"v_mfma_f32_16x16x32_fp8_fp8", {4, 4}},   {"v_mfma_i32_16x16x32_i8", {4, 4}},
      {"v_mfma_f32_32x32x8_f16", {8, 8}},        {"v_mfma_f32_32x32x16_bf8_fp8", {8, 8}},
      {"v_mfma_f32_16x16x4_f32", {8, 8}},        {"v_mfma_f32_32x32x2_f32", {16, 16}},
      {"v_mfma_f32_32x32x1_2b_f32", {16, 16}},   {"v_mfma_f64_4x4x4_4b_f64", {4, 4}},
      {"v_mfma_f64_16x16x4_f64", {8, 16}},       {"v_mfma_f32_16x16x8_xf32", {4, 0}},
      {"v_mfma_f32_32x32x4_xf32", {8, 0}},       {"v_mfma_f32_16x16x32_bf16", {0, 4}},
      {"v_mfma_f32_32x32x16_f16", {0, 8}},       {"v_mfma_i32_16x16x64_i8", {0, 4}},
      {"v_mfma_i32_32x32x32_i8", {0, 8}},        {"v_mfma_f32_16x16x128_f8f6f4", {0, 8}},
      {"v_mfma_f32_32x32x64_f8f6f4", {0, 16}},  {"v_mfma_scale_f32_16x16x128_f8f6f4", {0, 8}},
      {"v_mfma_scale_f32_32x32x64_f8f6f4", {0, 16}},
  };
  for (int t = 0; t < 2; ++t)
    for (const mfma_atom& x : kTargets[t].atoms) {
      auto it = passes.find(std::string(x.name));
      if (it == passes.end()) continue;
      INFO(kTargets[t].arch << " " << x.name);
      CHECK((*kTargets[t].desc)[x.op].mfma_passes == (t ? it->second.second : it->second.first));
    }
}

TEST_CASE("mfma atoms: every atom's MFMA in hipasm-sim matches a C++ matmul", "[mfma_atoms][sim]") {
  std::mt19937 rng(41);
  for (const target_case& T : kTargets)
    if (T.arch == hipasm::test::test_arch())  // this run's code objects are built for one target
      for (size_t i = 0; i < T.atoms.size(); ++i) check_raw(T, static_cast<int>(i), 0, 0, rng);
}

TEST_CASE("mfma fragment helpers: tiles from global memory and LDS through the atoms", "[mfma_atoms][sim]") {
  std::mt19937 rng(43);
  for (const target_case& T : kTargets)
    for (size_t i = 0; T.arch == hipasm::test::test_arch() && i < T.atoms.size(); ++i) {
      check_frag(T, static_cast<int>(i), false, rng);
      check_frag(T, static_cast<int>(i), true, rng);
    }
}

// Reference suite, part 3: the tutorial's GEMV, MFMA lane layouts checked element by
// element against a host matrix multiply, and a bf16 MFMA GEMM with LDS double buffering
// (tests/sim/kernels/ref_mfma.hip). Also: threads=1, all threads and a random wave
// interleaving (nonzero seed) give bit-identical results.
#include "kernels/ref_host.hpp"

#pragma clang fp contract(off)

using namespace refsuite;
namespace {
const std::string G = "mfma";

// Values for exact MFMA checks: small integers, so every product and partial sum is exact
// in fp32 whatever order the hardware accumulates in.
std::vector<uint16_t> small_int_bf16(size_t n, std::mt19937& rng, int range) {
  std::vector<uint16_t> v(n);
  for (auto& x : v) x = float_to_bf16((float)((int)(rng() % (2 * range + 1)) - range));
  return v;
}
std::vector<uint16_t> random_bf16(size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<uint16_t> v(n);
  for (auto& x : v) x = float_to_bf16(u(rng));
  return v;
}

// C[MxN] = A[MxK] * B[KxN] + C0 in double (B given as element accessor).
template <class BAt>
void host_matmul(uint32_t M, uint32_t N, uint32_t K, const std::vector<float>& A, BAt b_at,
                 const std::vector<float>& C0, std::vector<double>& C, std::vector<double>& absum) {
  C.assign(M * N, 0.0), absum.assign(M * N, 0.0);
  for (uint32_t i = 0; i < M; ++i)
    for (uint32_t j = 0; j < N; ++j) {
      double s = C0.empty() ? 0.0 : C0[i * N + j], a = C0.empty() ? 0.0 : std::fabs(C0[i * N + j]);
      for (uint32_t k = 0; k < K; ++k) {
        double p = (double)A[i * K + k] * (double)b_at(k, j);
        s += p, a += std::fabs(p);
      }
      C[i * N + j] = s, absum[i * N + j] = a;
    }
}

// Tolerance for fp32 accumulation of K products of bf16/f16 values (exact products):
// at most K roundings of relative 2^-24 each on partial sums bounded by sum |a*b| + |c|.
void expect_close(mismatches& m, const std::string& what, size_t i, float got, double want, double absum, uint32_t K) {
  double tol = absum * (K + 1) * 0x1p-24 + 1e-30;
  if (!(std::fabs(got - want) <= tol)) m.add(what + "[" + std::to_string(i) + "]: got " + fmt(got) + " want " + fmt(want));
}
}  // namespace

TEST_CASE("reference: the tutorial's GEMV (fp32 and fp16)", "[reference]") {
  REFSUITE_REQUIRE_DEVICE();
  const uint32_t rows = 128, cols = 4;
  std::mt19937 rng(201);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  std::vector<float> mat(rows * cols), vec(cols);
  for (auto& v : mat) v = u(rng);
  for (auto& v : vec) v = u(rng);
  SECTION("kernel_gemv_v0 (float)") {
    buffer<float> dm(*the_device(), mat), dv(*the_device(), vec), dr(*the_device(), rows);
    kernel_args args;
    args.add(dm.addr()).add(dv.addr()).add(dr.addr());
    run(G, "kernel_gemv_v0", {1}, {rows}, args);
    auto res = dr.download();
    mismatches m;
    for (uint32_t r = 0; r < rows; ++r) {
      float sum = 0.0f;
      for (uint32_t c = 0; c < cols; ++c) sum += mat[r * cols + c] * vec[c];
      expect_float(m, "res", r, res[r], sum);
    }
    REFSUITE_REQUIRE_NONE(m);
  }
  SECTION("kernel_gemv_v1 (half)") {
    std::vector<uint16_t> hm(rows * cols), hv(cols);
    for (size_t i = 0; i < hm.size(); ++i) hm[i] = float_to_half_bits(mat[i]);
    for (size_t i = 0; i < hv.size(); ++i) hv[i] = float_to_half_bits(vec[i]);
    buffer<uint16_t> dm(*the_device(), hm), dv(*the_device(), hv), dr(*the_device(), rows);
    kernel_args args;
    args.add(dm.addr()).add(dv.addr()).add(dr.addr());
    run(G, "kernel_gemv_v1", {1}, {rows}, args);
    auto res = dr.download();
    mismatches m;
    for (uint32_t r = 0; r < rows; ++r) {
      float sum = 0.0f;
      for (uint32_t c = 0; c < cols; ++c) sum += half_bits_to_float(hm[r * cols + c]) * half_bits_to_float(hv[c]);
      expect_exact(m, "res", r, (int)res[r], (int)float_to_half_bits(sum));
    }
    REFSUITE_REQUIRE_NONE(m);
  }
}

TEST_CASE("reference: v_mfma_f32_32x32x8_bf16 layout, element by element", "[reference][mfma]") {
  REFSUITE_REQUIRE_DEVICE();
  std::mt19937 rng(202);
  for (int exact : {1, 0}) {
    DYNAMIC_SECTION((exact ? "small integers (exact)" : "random values (tolerance)")) {
      auto A = exact ? small_int_bf16(32 * 8, rng, 4) : random_bf16(32 * 8, rng);
      auto B = exact ? small_int_bf16(8 * 32, rng, 4) : random_bf16(8 * 32, rng);
      std::vector<float> C0(32 * 32);
      for (auto& c : C0) c = exact ? (float)((int)(rng() % 201) - 100) : (float)(rng() % 1000) / 997.0f;
      buffer<uint16_t> dA(*the_device(), A), dB(*the_device(), B);
      buffer<float> dC(*the_device(), C0), dD(*the_device(), 32 * 32);
      kernel_args args;
      args.add(dA.addr()).add(dB.addr()).add(dC.addr()).add(dD.addr());
      run(G, "ref_mfma_32x32x8_bf16", {1}, {64}, args);
      auto D = dD.download();
      std::vector<float> Af(A.size()), Bf(B.size());
      for (size_t i = 0; i < A.size(); ++i) Af[i] = bf16_to_float(A[i]);
      for (size_t i = 0; i < B.size(); ++i) Bf[i] = bf16_to_float(B[i]);
      std::vector<double> want, absum;
      host_matmul(32, 32, 8, Af, [&](uint32_t k, uint32_t j) { return Bf[k * 32 + j]; }, C0, want, absum);
      mismatches m;
      for (uint32_t i = 0; i < 32 * 32; ++i) {
        std::string at = "D(" + std::to_string(i / 32) + "," + std::to_string(i % 32) + ")";
        if (exact) expect_float(m, at, i, D[i], (float)want[i]);
        else expect_close(m, at, i, D[i], want[i], absum[i], 8);
      }
      REFSUITE_REQUIRE_NONE(m);
    }
  }
}

TEST_CASE("reference: v_mfma_f32_16x16x16_f16 layout, element by element", "[reference][mfma]") {
  REFSUITE_REQUIRE_DEVICE();
  std::mt19937 rng(203);
  for (int exact : {1, 0}) {
    DYNAMIC_SECTION((exact ? "small integers (exact)" : "random values (tolerance)")) {
      std::vector<uint16_t> A(16 * 16), B(16 * 16);
      std::uniform_real_distribution<float> u(-1.0f, 1.0f);
      for (auto& x : A) x = float_to_half_bits(exact ? (float)((int)(rng() % 9) - 4) : u(rng));
      for (auto& x : B) x = float_to_half_bits(exact ? (float)((int)(rng() % 9) - 4) : u(rng));
      std::vector<float> C0(16 * 16);
      for (auto& c : C0) c = exact ? (float)((int)(rng() % 201) - 100) : u(rng);
      buffer<uint16_t> dA(*the_device(), A), dB(*the_device(), B);
      buffer<float> dC(*the_device(), C0), dD(*the_device(), 16 * 16);
      kernel_args args;
      args.add(dA.addr()).add(dB.addr()).add(dC.addr()).add(dD.addr());
      run(G, "ref_mfma_16x16x16_f16", {1}, {64}, args);
      auto D = dD.download();
      std::vector<float> Af(A.size()), Bf(B.size());
      for (size_t i = 0; i < A.size(); ++i) Af[i] = half_bits_to_float(A[i]);
      for (size_t i = 0; i < B.size(); ++i) Bf[i] = half_bits_to_float(B[i]);
      std::vector<double> want, absum;
      host_matmul(16, 16, 16, Af, [&](uint32_t k, uint32_t j) { return Bf[k * 16 + j]; }, C0, want, absum);
      mismatches m;
      for (uint32_t i = 0; i < 16 * 16; ++i) {
        std::string at = "D(" + std::to_string(i / 16) + "," + std::to_string(i % 16) + ")";
        if (exact) expect_float(m, at, i, D[i], (float)want[i]);
        else expect_close(m, at, i, D[i], want[i], absum[i], 16);
      }
      REFSUITE_REQUIRE_NONE(m);
    }
  }
}

namespace {
struct gemm_case {
  uint32_t M, N, K;
};
// Runs ref_gemm_bf16 and returns C; A is MxK, Bt is NxK (both row-major bf16 bits).
std::vector<float> run_gemm(const gemm_case& g, const std::vector<uint16_t>& A, const std::vector<uint16_t>& Bt,
                            const launch_options& opts = {}) {
  buffer<uint16_t> dA(*the_device(), A), dB(*the_device(), Bt);
  buffer<float> dC(*the_device(), std::vector<float>(g.M * g.N, -12345.0f));
  kernel_args args;
  args.add(dA.addr()).add(dB.addr()).add(dC.addr()).add(g.M).add(g.N).add(g.K);
  run(G, "ref_gemm_bf16", {g.N / 64, g.M / 64}, {256}, args, opts);
  return dC.download();
}
}  // namespace

TEST_CASE("reference: bf16 MFMA GEMM with LDS double buffering, several workgroups", "[reference][mfma]") {
  REFSUITE_REQUIRE_DEVICE();
  std::mt19937 rng(204);
  for (gemm_case g : {gemm_case{128, 128, 128}, gemm_case{128, 192, 96}}) {
    for (int exact : {1, 0}) {
      DYNAMIC_SECTION(g.M << "x" << g.N << "x" << g.K << (exact ? " small integers (exact)" : " random (tolerance)")) {
        auto A = exact ? small_int_bf16(g.M * g.K, rng, 2) : random_bf16(g.M * g.K, rng);
        auto Bt = exact ? small_int_bf16(g.N * g.K, rng, 2) : random_bf16(g.N * g.K, rng);
        auto C = run_gemm(g, A, Bt);
        std::vector<float> Af(A.size()), Btf(Bt.size());
        for (size_t i = 0; i < A.size(); ++i) Af[i] = bf16_to_float(A[i]);
        for (size_t i = 0; i < Bt.size(); ++i) Btf[i] = bf16_to_float(Bt[i]);
        std::vector<double> want, absum;
        host_matmul(g.M, g.N, g.K, Af, [&](uint32_t k, uint32_t j) { return Btf[j * g.K + k]; }, {}, want, absum);
        mismatches m;
        for (uint32_t i = 0; i < g.M * g.N; ++i) {
          std::string at = "C(" + std::to_string(i / g.N) + "," + std::to_string(i % g.N) + ")";
          if (exact) expect_float(m, at, i, C[i], (float)want[i]);
          else expect_close(m, at, i, C[i], want[i], absum[i], g.K);
        }
        REFSUITE_REQUIRE_NONE(m);
      }
    }
  }
}

TEST_CASE("reference: threads=1, all threads and a nonzero seed give identical results", "[reference][determinism]") {
  REFSUITE_REQUIRE_DEVICE();
  std::mt19937 rng(205);
  gemm_case g{128, 192, 96};  // 6 workgroups
  auto A = random_bf16(g.M * g.K, rng);
  auto Bt = random_bf16(g.N * g.K, rng);
  launch_options one, all, seeded, seeded_one;
  one.threads = 1;
  all.threads = 0;
  seeded.seed = 0x5eed;
  seeded_one.seed = 0x5eed, seeded_one.threads = 1;
  auto c1 = run_gemm(g, A, Bt, one);
  auto call = run_gemm(g, A, Bt, all);
  auto cs = run_gemm(g, A, Bt, seeded);
  auto cs1 = run_gemm(g, A, Bt, seeded_one);
  auto bits = [](const std::vector<float>& v) {
    std::vector<uint32_t> b(v.size());
    for (size_t i = 0; i < v.size(); ++i) b[i] = std::bit_cast<uint32_t>(v[i]);
    return b;
  };
  CHECK(bits(c1) == bits(call));
  CHECK(bits(c1) == bits(cs));
  CHECK(bits(c1) == bits(cs1));
  // The same for the multi-workgroup transpose and the LDS subdword kernel of the other groups.
  const uint32_t width = 77, height = 45;
  std::vector<float> in(width * height);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = (float)(rng() % 100000);
  std::vector<std::vector<float>> outs;
  for (const launch_options& o : {one, all, seeded}) {
    buffer<float> din(*the_device(), in), dout(*the_device(), width * height);
    kernel_args args;
    args.add(din.addr()).add(dout.addr()).add(width).add(height);
    run("wave", "ref_transpose", {blocks_for(width, 32), blocks_for(height, 32)}, {32, 8}, args, o);
    outs.push_back(dout.download());
  }
  CHECK(bits(outs[0]) == bits(outs[1]));
  CHECK(bits(outs[0]) == bits(outs[2]));
}

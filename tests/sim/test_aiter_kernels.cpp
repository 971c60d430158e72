// AMD's production kernels (aiter, gfx942) on shapes with partial tiles, against plain C++
// references: they depend on MUBUF range checking (stride-4 V#s without IDXEN, soffset-advanced
// tiles reading 0 past the tensor) and break four checker rules knowingly (allowed here, so they
// are warnings). Opt-in: HIPASM_AITER_DIR=<aiter>/hsa/gfx942; without it the tests only say so
// (aiter's code objects are never part of this repository).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "hipasm/rt/launcher.hpp"

namespace rt = hipasm::rt;

namespace {

std::string aiter_dir() {
  const char* d = std::getenv("HIPASM_AITER_DIR");
  return d && std::filesystem::is_directory(d) ? d : "";
}

uint16_t to_bf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return uint16_t((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}
float from_bf16(uint16_t h) {
  uint32_t u = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// aiter's argument structs: every field padded to 16 bytes; the metadata lists a pointer field
// as two 8-byte arguments and a 32-bit field as four 4-byte ones. `kinds`: 'p' or 's' per field.
struct packed_args {
  std::string kinds;
  std::vector<uint8_t> blob;
  explicit packed_args(std::string k) : kinds(std::move(k)), blob(kinds.size() * 16) {}
  void ptr(size_t field, uint64_t v) { std::memcpy(&blob[field * 16], &v, 8); }
  void u32(size_t field, uint32_t v) { std::memcpy(&blob[field * 16], &v, 4); }
  void f32(size_t field, float v) { std::memcpy(&blob[field * 16], &v, 4); }
  rt::kernel_args args() const {
    rt::kernel_args a;
    for (size_t f = 0; f < kinds.size(); ++f) {
      if (kinds[f] == 'p') {
        uint64_t v[2];
        std::memcpy(v, &blob[f * 16], 16);
        a.add(v[0]).add(v[1]);
      } else {
        uint32_t v[4];
        std::memcpy(v, &blob[f * 16], 16);
        a.add(v[0]).add(v[1]).add(v[2]).add(v[3]);
      }
    }
    return a;
  }
};

std::vector<std::string> rules_of(const rt::launch_report& r) {
  std::vector<std::string> out;
  for (auto& f : r.findings) out.push_back(f.rule);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

TEST_CASE("aiter: bf16 GEMM with a partial M tile matches a C++ GEMM", "[aiter]") {
  const std::string dir = aiter_dir();
  if (dir.empty()) {
    WARN("HIPASM_AITER_DIR not set: aiter kernels not run");
    return;
  }
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = dev->load_file(dir + "/bf16gemm/bf16gemm_fp32bf16_tn_32x64_pf3_splitk.co");
  struct Shape { uint32_t M, N, K; };
  for (Shape s : {Shape{40, 64, 128}, Shape{70, 128, 256}}) {
    INFO("M " << s.M << " N " << s.N << " K " << s.K);
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> U(-1, 1);
    std::vector<uint16_t> A(size_t(s.M) * s.K), B(size_t(s.N) * s.K);
    for (auto& x : A) x = to_bf16(U(rng));
    for (auto& x : B) x = to_bf16(U(rng));
    // Exactly sized: a read past a tensor that the V# range does not stop faults.
    rt::buffer<uint16_t> dA(*dev, A), dB(*dev, B);
    rt::buffer<float> dD(*dev, std::vector<float>(size_t(s.M) * s.N, NAN));
    // D, C, A, B, alpha, beta, stride D0 D1 C0 C1 A0 A1 B0 B1, M, N, K, splitk, is_out_b16, bias, add_bias
    packed_args p("ppppsssssssssssssssps");
    p.ptr(0, dD.addr());
    p.ptr(2, dA.addr());
    p.ptr(3, dB.addr());
    p.f32(4, 1.0f);
    p.u32(6, s.N * 4);
    p.u32(8, s.N * 4);
    p.u32(10, s.K * 2);
    p.u32(12, s.K * 2);
    p.u32(14, s.M);
    p.u32(15, s.N);
    p.u32(16, s.K);
    p.u32(17, 1);
    rt::launch_options o;
    o.allow = {"salu-m0"};
    rt::launch_report rep = dev->launch(*mod, "_ZN5aiter37bf16gemm_fp32bf16_tn_32x64_pf3_splitkE",
                                        {s.N / 64, (s.M + 31) / 32, 1}, {256, 1, 1}, p.args(), o);
    CHECK(rep.diagnostics.empty());
    CHECK(rules_of(rep) == std::vector<std::string>{"hazard salu-m0"});
    auto D = dD.download();
    size_t bad = 0;
    for (uint32_t m = 0; m < s.M; ++m)
      for (uint32_t n = 0; n < s.N; ++n) {
        double ref = 0;
        for (uint32_t k = 0; k < s.K; ++k)
          ref += double(from_bf16(A[size_t(m) * s.K + k])) * from_bf16(B[size_t(n) * s.K + k]);
        if (!(std::fabs(ref - D[size_t(m) * s.N + n]) <= 1e-3 + 1e-3 * std::fabs(ref))) ++bad;
      }
    CHECK(bad == 0);
  }
}

TEST_CASE("aiter: fmha v3 forward with partial q and kv tiles matches C++ attention", "[aiter]") {
  const std::string dir = aiter_dir();
  if (dir.empty()) {
    WARN("HIPASM_AITER_DIR not set: aiter kernels not run");
    return;
  }
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = dev->load_file(dir + "/fmha_v3_fwd/MI300/fwd_hd128_bf16_rtne.co");
  const uint32_t D = 128, ts_qo = 256;
  struct Shape { uint32_t sq, sk; };
  for (Shape s : {Shape{300, 300}, Shape{77, 45}}) {
    INFO("seqlen_q " << s.sq << " seqlen_k " << s.sk);
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> U(-1, 1);
    std::vector<uint16_t> Q(size_t(s.sq) * D), K(size_t(s.sk) * D), V(size_t(s.sk) * D);
    for (auto* t : {&Q, &K, &V})
      for (auto& x : *t) x = to_bf16(U(rng));
    rt::buffer<uint16_t> dQ(*dev, Q), dK(*dev, K), dV(*dev, V), dO(*dev, size_t(s.sq) * D);
    // o q k v lse, scalar seq_len Seqs Ts Hs Bs gqa k_Seqs k_Hs k_Bs opt lse kv_seq_len qk_dim v_dim
    // q_heads v_Seqs v_Hs v_Bs o_Seqs o_Hs o_Bs, qseq kseq, lse_Hs, qseq_padding kseq_padding
    packed_args p("pppppssssssssssssssssssssssppspp");
    const float scale = 1.0f / std::sqrt(float(D));
    p.ptr(0, dO.addr());
    p.ptr(1, dQ.addr());
    p.ptr(2, dK.addr());
    p.ptr(3, dV.addr());
    p.f32(5, scale);
    const uint32_t row = D * 2;  // one head, bshd: a row is D bf16
    uint32_t vals[] = {s.sq, row, ts_qo * row, row, s.sq * row, 1, row, row, s.sk * row, 5, 0, s.sk, D, D, 1,
                       row, row, s.sk * row, row, row, s.sq * row};
    for (size_t i = 0; i < std::size(vals); ++i) p.u32(6 + i, vals[i]);
    rt::launch_options o;
    o.allow = {"valu-sgpr-valu", "salu-m0", "mfma-read", "mfma-waw"};
    rt::launch_report rep = dev->launch(*mod, "_ZN5aiter24fmha_fwd_hd128_bf16_rtneE", {(s.sq + ts_qo - 1) / ts_qo, 1, 1},
                                        {512, 1, 1}, p.args(), o);
    CHECK(rep.diagnostics.empty());
    // The four rules AMD's kernels break (the issue "Correctness from outside", item 11).
    CHECK(rules_of(rep) == std::vector<std::string>{"hazard mfma-read", "hazard mfma-waw", "hazard salu-m0",
                                                     "hazard valu-sgpr-valu"});
    auto O = dO.download();
    size_t bad = 0;
    for (uint32_t i = 0; i < s.sq; ++i) {
      std::vector<double> w(s.sk);
      double mx = -1e300, sum = 0;
      for (uint32_t j = 0; j < s.sk; ++j) {
        double d = 0;
        for (uint32_t k = 0; k < D; ++k) d += double(from_bf16(Q[i * D + k])) * from_bf16(K[j * D + k]);
        w[j] = d * scale;
        mx = std::max(mx, w[j]);
      }
      for (auto& x : w) sum += (x = std::exp(x - mx));
      for (uint32_t k = 0; k < D; ++k) {
        double ref = 0;
        for (uint32_t j = 0; j < s.sk; ++j) ref += w[j] * from_bf16(V[j * D + k]);
        if (!(std::fabs(ref / sum - from_bf16(O[i * D + k])) <= 2e-2)) ++bad;  // bf16 output
      }
    }
    CHECK(bad == 0);
  }
}

TEST_CASE("aiter: top-k softmax with a partial token tile matches C++", "[aiter]") {
  const std::string dir = aiter_dir();
  if (dir.empty()) {
    WARN("HIPASM_AITER_DIR not set: aiter kernels not run");
    return;
  }
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = dev->load_file(dir + "/topksoftmax/topksoftmax_4x128x4.co");
  const uint32_t T = 10, E = 128, K = 4, subm = 4;
  std::mt19937 rng(7);
  std::normal_distribution<float> N01(0, 2);
  std::vector<float> A(size_t(T) * E);
  for (auto& x : A) x = N01(rng);
  rt::buffer<float> dA(*dev, A), dW(*dev, size_t(T) * K);
  rt::buffer<int32_t> dI(*dev, size_t(T) * K);
  packed_args p("pppsssss");  // indices, weights, gating, batch, experts, topk, renormalize, out_stride
  p.ptr(0, dI.addr());
  p.ptr(1, dW.addr());
  p.ptr(2, dA.addr());
  p.u32(3, T);
  p.u32(4, E);
  p.u32(5, K);
  p.u32(6, 1);
  p.u32(7, K * 4);
  rt::launch_options o;
  o.allow = {"valu-sgpr-valu"};
  rt::launch_report rep =
      dev->launch(*mod, "_ZN5aiter19topksoftmax_4x128x4E", {(T + subm - 1) / subm, 1, 1}, {256, 1, 1}, p.args(), o);
  CHECK(rep.diagnostics.empty());
  CHECK(rules_of(rep) == std::vector<std::string>{"hazard valu-sgpr-valu"});
  auto W = dW.download();
  auto I = dI.download();
  for (uint32_t t = 0; t < T; ++t) {
    const float* a = &A[size_t(t) * E];
    std::vector<int> idx(E);
    std::iota(idx.begin(), idx.end(), 0);
    std::partial_sort(idx.begin(), idx.begin() + K, idx.end(), [&](int x, int y) { return a[x] > a[y]; });
    double top = 0;
    for (uint32_t k = 0; k < K; ++k) top += std::exp(double(a[idx[k]]) - a[idx[0]]);
    for (uint32_t k = 0; k < K; ++k) {
      INFO("token " << t << " k " << k);
      CHECK(I[t * K + k] == idx[k]);
      CHECK(std::fabs(std::exp(double(a[idx[k]]) - a[idx[0]]) / top - W[t * K + k]) < 1e-5);
    }
  }
}

// The attention forward tests' reference check (test_attn_fwd.cpp, test_attn_fwd_fp8.cpp): each
// output row of a run against softmax(scale Q K^T) V in double, from the element values the
// caller decodes (bf16, f16, or fp8 times its descale), with the configuration's mask and
// soft-cap. O within o_tol(reference value); LSE within 1e-3 (|LSE| + 1), -inf where no key is
// visible. Returns the failures (the first few reported).
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <hipasm/kernels/attn_fwd.hpp>

namespace hipasm::test {

// A test problem: the sequences' lengths, the heads, and how Q and K are drawn.
struct attn_fwd_problem {
  std::vector<int> seqlens_q, seqlens_k;
  uint32_t hq = 2, hkv = 2;
  float value_range = 1.0f;  // Q and K uniform in [-r, r] (large r: large scores)
  float key_ramp = 0.0f;     // key j of a sequence scaled by 1 + key_ramp j (row maxima that grow along the keys)
  float qk_offset = 0.0f;    // added to Q, subtracted from K: every score near -head_dim offset^2 scale
};

struct attn_fwd_layout {
  const std::vector<int>& cu_q;  // token offsets [batch + 1]
  const std::vector<int>& cu_k;
  uint32_t hq, hkv, head_dim;
  double scale;  // the softmax scale
};

// q(i), k(i), v(i): the value of element i of the packed [tokens, heads, head_dim] tensors; o(i)
// the kernel's O element i; lse_bits the kernel's LSE [hq, total_q] as f32 bits.
template <class Q, class K, class V, class O, class Tol>
int check_attn_fwd(const kernels::attn_fwd_config& c, const attn_fwd_layout& g, Q q, K k, V v, O o,
                   const std::vector<uint32_t>& lse_bits, Tol o_tol) {
  const uint32_t B = static_cast<uint32_t>(g.cu_q.size() - 1), D = g.head_dim, group = g.hq / g.hkv;
  const size_t tq = size_t(g.cu_q[B]);
  int bad = 0;
  std::vector<double> sc;
  for (uint32_t b = 0; b < B; ++b) {
    const int sq = g.cu_q[b + 1] - g.cu_q[b], sk = g.cu_k[b + 1] - g.cu_k[b];
    for (uint32_t h = 0; h < g.hq; ++h) {
      const uint32_t hk = h / group;
      for (int i = 0; i < sq; ++i) {
        const size_t qi = (size_t(g.cu_q[b] + i) * g.hq + h) * D;
        // bottom-right causal: key j visible iff j <= i + sk - sq; top-left: iff j <= i
        const int visible = c.causal ? std::clamp(i + (c.top_left ? 0 : sk - sq) + 1, 0, sk) : sk;
        sc.assign(visible, 0.0);
        double mx = -INFINITY;
        for (int j = 0; j < visible; ++j) {
          const size_t kj = (size_t(g.cu_k[b] + j) * g.hkv + hk) * D;
          double dot = 0;
          for (uint32_t e = 0; e < D; ++e) dot += q(qi + e) * k(kj + e);
          sc[j] = dot * g.scale;
          if (c.soft_cap > 0) sc[j] = c.soft_cap * std::tanh(sc[j] / c.soft_cap);
          mx = std::max(mx, sc[j]);
        }
        double sum = 0;
        for (int j = 0; j < visible; ++j) sum += (sc[j] = std::exp(sc[j] - mx));
        const double lse_ref = visible ? mx + std::log(sum) : -INFINITY;
        float lse_got;
        std::memcpy(&lse_got, &lse_bits[size_t(h) * tq + g.cu_q[b] + i], 4);
        const bool lse_ok = visible ? std::fabs(lse_got - lse_ref) <= 1e-3 * (std::fabs(lse_ref) + 1)
                                    : (std::isinf(lse_got) && lse_got < 0);
        if (!lse_ok && ++bad <= 5)
          FAIL_CHECK("LSE seq " << b << " head " << h << " row " << i << " = " << lse_got << ", expected " << lse_ref);
        for (uint32_t e = 0; e < D; ++e) {
          double ref = 0;
          for (int j = 0; j < visible; ++j) ref += sc[j] * v((size_t(g.cu_k[b] + j) * g.hkv + hk) * D + e);
          if (visible) ref /= sum;
          const double got = o(qi + e);
          if (!(std::fabs(got - ref) <= o_tol(ref)) && ++bad <= 5)
            FAIL_CHECK("O seq " << b << " head " << h << " row " << i << " dim " << e << " = " << got
                                << ", expected " << ref);
        }
      }
    }
  }
  return bad;
}

}  // namespace hipasm::test

// HIPASM_TEST_KERNELS: mx_convert.hip
// HIPASM_TEST_ARCHS: gfx950
// The OCP MX conversions of convert.hpp (cvt_fp4x8 / to_f32x8, cvt_fp6x32 / to_f32x32 for fp6
// e2m3 and bf6 e3m2, E8M0 block scales) in hipasm-sim on gfx950, against a host reference written
// from the OCP MX v1.0 formats (tests/common/narrow_float_ref.hpp): element = x / 2^(scale - 127)
// rounded to nearest even and saturated, NaN and infinities the largest magnitude with their sign
// (the formats have neither), and every value with the NaN scale 0xff the largest too (the
// instruction's rule where the spec would give NaN); back: element * 2^(scale - 127), NaN for
// scale 0xff. Each lane has its own scale (a VGPR); the fp4 kernel also uses a kernel argument
// (an SGPR). gfx942 has no such instructions: tests/core/negative/mx_convert_gfx942.hip.
#include "narrow_float_ref.hpp"
#include "sim_code_object.hpp"
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

namespace rt = hipasm::rt;
namespace ht = hipasm::test;

namespace {

struct sim {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  std::unique_ptr<rt::module> m = dev->load_file(ht::code_object("mx_convert"));
};
sim& S() {
  static sim s;
  return s;
}

uint32_t B(float f) { return std::bit_cast<uint32_t>(f); }

// x / 2^(e - 127) in format f (the down-conversion's reference)
uint32_t down(const ht::minifloat& f, float x, uint32_t e) {
  if (e == 0xff) return ht::encode(f, std::signbit(x) ? -INFINITY : INFINITY, true);
  return ht::encode(f, std::isnan(x) ? double(x) : std::ldexp(double(x), 127 - int(e)), true);
}
// code * 2^(e - 127) as f32 bits
uint32_t up(const ht::minifloat& f, uint32_t code, uint32_t e) {
  if (e == 0xff) return B(NAN);
  return B(static_cast<float>(std::ldexp(ht::decode(f, code), int(e) - 127)));
}
bool same_f32(uint32_t got, uint32_t want) {
  return got == want || (std::isnan(std::bit_cast<float>(got)) && std::isnan(std::bit_cast<float>(want)));
}

// Per lane: a scale (edges, then random around 127) and values spread over the format's range
// at that scale, with ties, zeros, NaN and infinities among them.
std::vector<uint32_t> scales() {
  std::vector<uint32_t> s = {127, 126, 128, 0, 1, 254, 255, 100, 150, 127, 127, 127};
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> u(110, 144);
  while (s.size() < 64) s.push_back(uint32_t(u(rng)));
  return s;
}
std::vector<float> values(const std::vector<uint32_t>& sc, int per_lane, const ht::minifloat& f, int seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> mag(-3.0, std::log2(f.max_finite()) + 1.5);
  std::uniform_int_distribution<int> pick(0, 15);
  const float specials[] = {0.0f, -0.0f, NAN, -NAN, INFINITY, -INFINITY};
  std::vector<float> v;
  for (int l = 0; l < 64; ++l) {
    const uint32_t e = sc[l] == 0xff ? 127 : sc[l];
    for (int i = 0; i < per_lane; ++i) {
      double a;
      const int p = pick(rng);
      if (p == 0) {
        v.push_back(specials[size_t(i) % 6]);
        continue;
      }
      if (p <= 3) {  // a tie between two neighbours of the format (or near the largest)
        const uint32_t c = uint32_t(rng()) % ((1u << (f.exp_bits + f.man_bits)) - 1);
        a = (ht::decode(f, c) + ht::decode(f, c + 1)) / 2;
      } else {
        a = std::exp2(mag(rng));
      }
      if (rng() & 1) a = -a;
      v.push_back(static_cast<float>(std::ldexp(a, int(e) - 127)));
    }
  }
  return v;
}

}  // namespace

TEST_CASE("fp4 (e2m1) with E8M0 scales: f32 -> fp4x8 -> f32", "[helpers][convert][mx]") {
  const auto sc = scales();
  const auto in = values(sc, 8, ht::e2m1, 7);
  const uint32_t kscale = 125;
  rt::device& d = *S().dev;
  rt::buffer<float> In(d, in);
  rt::buffer<uint32_t> Sc(d, sc), Out(d, std::vector<uint32_t>(64 * 10, 0xdeadbeefu));
  rt::kernel_args args;
  args.add(Out.ptr());
  args.add(In.ptr());
  args.add(Sc.ptr());
  args.add(kscale);
  auto rep = d.launch(*S().m, "mx_fp4", {1, 1, 1}, {64, 1, 1}, args);
  for (const auto& diag : rep.diagnostics) FAIL_CHECK("checker: " << diag);
  const auto out = Out.download();
  for (int l = 0; l < 64; ++l) {
    INFO("lane " << l << " scale " << sc[l]);
    uint32_t want = 0, want_k = 0;
    for (int i = 0; i < 8; ++i) {
      want |= down(ht::e2m1, in[size_t(l) * 8 + i], sc[l]) << (4 * i);
      want_k |= down(ht::e2m1, in[size_t(l) * 8 + i], kscale) << (4 * i);
    }
    CHECK(out[size_t(l) * 10] == want);
    CHECK(out[size_t(l) * 10 + 1] == want_k);
    for (int i = 0; i < 8; ++i) {
      INFO("element " << i << " x " << in[size_t(l) * 8 + i]);
      CHECK(same_f32(out[size_t(l) * 10 + 2 + i], up(ht::e2m1, (want >> (4 * i)) & 15, sc[l])));
    }
  }
}

TEST_CASE("fp6 (e2m3) and bf6 (e3m2) with E8M0 scales: 32 f32 -> 6 dwords -> 32 f32", "[helpers][convert][mx]") {
  for (const bool bf6 : {false, true}) {
    const ht::minifloat& f = bf6 ? ht::e3m2 : ht::e2m3;
    INFO((bf6 ? "bf6" : "fp6"));
    const auto sc = scales();
    const auto in = values(sc, 32, f, bf6 ? 9 : 8);
    rt::device& d = *S().dev;
    rt::buffer<float> In(d, in);
    rt::buffer<uint32_t> Sc(d, sc), Out(d, std::vector<uint32_t>(64 * 38, 0xdeadbeefu));
    rt::kernel_args args;
    args.add(Out.ptr());
    args.add(In.ptr());
    args.add(Sc.ptr());
    auto rep = d.launch(*S().m, bf6 ? "mx_bf6" : "mx_fp6", {1, 1, 1}, {64, 1, 1}, args);
    for (const auto& diag : rep.diagnostics) FAIL_CHECK("checker: " << diag);
    const auto out = Out.download();
    for (int l = 0; l < 64; ++l) {
      INFO("lane " << l << " scale " << sc[l]);
      // value 2i from in[i], 2i + 1 from in[16 + i]; value i in bits 6i..6i+5 of the 192
      uint32_t codes[32], pack[6] = {};
      for (int i = 0; i < 32; ++i) {
        const float x = in[size_t(l) * 32 + (i % 2 ? 16 : 0) + i / 2];
        codes[i] = down(f, x, sc[l]);
        const int bit = 6 * i;
        pack[bit / 32] |= codes[i] << (bit % 32);
        if (bit % 32 > 26) pack[bit / 32 + 1] |= codes[i] >> (32 - bit % 32);
      }
      for (int k = 0; k < 6; ++k) CHECK(out[size_t(l) * 38 + k] == pack[k]);
      for (int i = 0; i < 32; ++i) {
        INFO("value " << i);
        CHECK(same_f32(out[size_t(l) * 38 + 6 + i], up(f, codes[i], sc[l])));
      }
    }
  }
}

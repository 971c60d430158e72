// HIPASM_TEST_KERNELS: partial_defs.hip
// Defs that keep part of their destination, run in hipasm-sim against plain C++: the value
// they merge into must survive DCE, liveness and allocation (DPP row/bank masks and a missing
// bound_ctrl, SDWA UNUSED_PRESERVE, v_dot4c accumulating, v_fma_mixlo keeping the high half,
// d16_hi loads). Loops under a partial EXEC: temporaries get as few VGPRs as in the same loop
// run uniformly (hipasm::usage), and values that lanes carry across iterations they skip keep
// their lanes. The simulator's checker must stay silent.
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "kernels/partial_defs_fn.hpp"

namespace rt = hipasm::rt;
using namespace hipasm::test::partial;

namespace {

struct sim {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  std::unique_ptr<rt::module> mod = dev->load_file(std::string(HIPASM_CORE_KERNEL_DIR) + "/core_" +
                                                   HIPASM_CORE_TEST_NAME + "_partial_defs.co");
};
sim& S() {
  static sim s;
  return s;
}

void check(const rt::launch_report& rep, const char* kernel) {
  for (const auto& d : rep.diagnostics) FAIL_CHECK(kernel << " checker: " << d);
}

// One wave, out[64] of 32-bit words.
template <class T>
std::vector<T> run_wave(const char* kernel) {
  rt::device& d = *S().dev;
  rt::buffer<T> out(d, std::vector<T>(64, T(0x7eadbeef)));
  rt::kernel_args a;
  a.add(out.ptr());
  check(d.launch(*S().mod, kernel, {1, 1, 1}, {64, 1, 1}, a), kernel);
  return out.download();
}

// (out, in, n) kernels over in.size() lanes.
std::vector<uint32_t> run_loop(const char* kernel, const std::vector<uint32_t>& in, uint32_t n) {
  rt::device& d = *S().dev;
  rt::buffer<uint32_t> I(d, in), out(d, std::vector<uint32_t>(in.size(), 0xdeadbeefu));
  rt::kernel_args a;
  a.add(out.ptr()).add(I.ptr()).add(n);
  check(d.launch(*S().mod, kernel, {static_cast<uint32_t>(in.size() / 64), 1, 1}, {64, 1, 1}, a), kernel);
  return out.download();
}

float as_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// IEEE half bits of a positive normal value exactly representable in f16.
uint32_t half_bits(double v) {
  int e = 0;
  while (v >= 2.0 * (1 << e)) ++e;
  while (v < 1.0 * (1 << e) && e > -14) --e;
  const double m = v / (e >= 0 ? double(1 << e) : 1.0 / double(1 << -e)) - 1.0;
  return static_cast<uint32_t>((e + 15) << 10) | static_cast<uint32_t>(m * 1024.0);
}

// Trip counts 0..5 and a few larger ones, two waves.
std::vector<uint32_t> trip_counts() {
  std::vector<uint32_t> v(128);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint32_t>((i * 7 + i / 5) % 6);
  v[3] = 9;
  v[70] = 11;
  v[127] = 0;
  return v;
}

uint32_t ninety_statements(uint32_t acc, uint32_t k) {
  for (uint32_t s = 0; s < 90; ++s) acc = (acc * 3u + s + 1u) ^ k;
  return acc;
}

}  // namespace

TEST_CASE("DPP row_mask: rows it does not write keep the old value (the issue's reproducer)",
          "[partial_defs][sim]") {
  const auto got = run_wave<uint32_t>("dpp_row_mask");
  int kept = 0;
  for (int l = 0; l < 64; ++l) {
    const float want = (l >= 16 || l == 0) ? 7.0f : float(l - 1) + float(l);
    kept += l >= 16 || l == 0;
    CHECK(as_float(got[l]) == want);
  }
  CHECK(kept == 49);
}

TEST_CASE("DPP bank_mask: banks it does not write keep the old value", "[partial_defs][sim]") {
  const auto got = run_wave<uint32_t>("dpp_bank_mask");
  for (uint32_t l = 0; l < 64; ++l) {
    const uint32_t bank = (l >> 2) & 3, in_row = l & 15;
    const uint32_t want = bank == 0 || bank == 2 ? (in_row == 15 ? 0u : l + 1 + 100) : 5u;
    CHECK(got[l] == want);
  }
}

TEST_CASE("DPP without bound_ctrl: lanes without a source lane keep the old value", "[partial_defs][sim]") {
  const auto got = run_wave<uint32_t>("dpp_no_bound_ctrl");
  for (uint32_t l = 0; l < 64; ++l) CHECK(got[l] == ((l & 15) < 2 ? 9u : (l - 2) * 3));
}

TEST_CASE("DPP without bound_ctrl under a partial EXEC: a disabled source lane leaves the lane unwritten",
          "[partial_defs][sim]") {
  const auto got = run_wave<uint32_t>("dpp_partial_exec");
  for (uint32_t l = 0; l < 64; ++l) CHECK(got[l] == (l & 1 ? l + 1000 : 1u));
}

TEST_CASE("SDWA dst_unused:UNUSED_PRESERVE keeps the other bytes", "[partial_defs][sim]") {
  const auto got = run_wave<uint32_t>("sdwa_preserve");
  for (uint32_t l = 0; l < 64; ++l) CHECK(got[l] == ((0x31234u & ~0xff00u) | (((l + 0x55u) & 0xff) << 8)));
}

TEST_CASE("v_dot4c_i32_i8 accumulates into its destination", "[partial_defs][sim]") {
  const auto got = run_wave<int32_t>("dot4c");
  for (int l = 0; l < 64; ++l) CHECK(got[l] == 1000 + l + l * (1 + 2 + 3 + 4));
}

TEST_CASE("v_fma_mixlo_f16 keeps the high half", "[partial_defs][sim]") {
  const auto got = run_wave<uint32_t>("fma_mixlo");
  for (uint32_t l = 0; l < 64; ++l) CHECK(got[l] == (0xabcd0000u | half_bits(2.0 * l + 0.5)));
}

TEST_CASE("global_load_short_d16_hi keeps the low half", "[partial_defs][sim]") {
  rt::device& d = *S().dev;
  std::vector<uint16_t> in(64);
  for (int l = 0; l < 64; ++l) in[l] = static_cast<uint16_t>(0x8000 + l * 3);
  rt::buffer<uint16_t> I(d, in);
  rt::buffer<uint32_t> out(d, std::vector<uint32_t>(64, 0));
  rt::kernel_args a;
  a.add(out.ptr()).add(I.ptr());
  check(d.launch(*S().mod, "d16_hi", {1, 1, 1}, {64, 1, 1}, a), "d16_hi");
  const auto got = out.download();
  for (uint32_t l = 0; l < 64; ++l) CHECK(got[l] == ((uint32_t(in[l]) << 16) | (l + 0x1230)));
}

TEST_CASE("loops under a partial EXEC: temporaries as tight as in the uniform loop", "[partial_defs][sim]") {
  using hipasm::usage;
  const int uniform = usage<loop_uniform_fn>("loop_uniform").vgprs;
  const int per_lane = usage<loop_per_lane_fn>("loop_per_lane").vgprs;
  const int in_if = usage<loop_in_if_fn>("loop_in_if").vgprs;
  INFO("VGPRs: uniform " << uniform << ", per-lane " << per_lane << ", in a per-lane If " << in_if);
  CHECK(uniform <= 8);
  // the per-lane loop holds its trip count (and the If its lane test) besides the uniform loop's
  CHECK(per_lane <= uniform + 2);
  CHECK(in_if <= uniform + 2);

  const auto in = trip_counts();
  for (uint32_t n : {0u, 1u, 4u}) {
    const auto got = run_loop("loop_uniform", in, n);
    for (size_t i = 0; i < in.size(); ++i) {
      uint32_t acc = static_cast<uint32_t>(i % 64);
      for (uint32_t k = 0; k < n; ++k) acc = ninety_statements(acc, k);
      CHECK(got[i] == acc);
    }
  }
  const auto got = run_loop("loop_per_lane", in, 0);
  for (size_t i = 0; i < in.size(); ++i) {
    uint32_t acc = static_cast<uint32_t>(i % 64);
    for (uint32_t k = 0; k < in[i]; ++k) acc = ninety_statements(acc, k);
    CHECK(got[i] == acc);
  }
  for (uint32_t n : {0u, 3u}) {
    const auto got_if = run_loop("loop_in_if", in, n);
    for (size_t i = 0; i < in.size(); ++i) {
      uint32_t acc = static_cast<uint32_t>(i % 64);
      if (in[i] & 1)
        for (uint32_t k = 0; k < n; ++k) acc = ninety_statements(acc, k);
      CHECK(got_if[i] == acc);
    }
  }
}

TEST_CASE("loops under a partial EXEC: values lanes carry across iterations they skip", "[partial_defs][sim]") {
  const auto in = trip_counts();
  for (uint32_t n : {1u, 2u, 7u, 12u}) {
    const auto got = run_loop("carried_uniform", in, n);
    for (size_t i = 0; i < in.size(); ++i) {
      const uint32_t lane = static_cast<uint32_t>(i % 64);
      uint32_t c = 1000 + lane, sum = 0;
      for (uint32_t s = 0; s < n; ++s) {
        sum += c;
        sum += (lane * 5 + s) ^ s;
        if ((lane + s) % 3 == 0) c = lane * 7 + s;
      }
      CHECK(got[i] == sum);
    }
  }
  const auto got = run_loop("carried_per_lane", in, 0);
  for (size_t i = 0; i < in.size(); ++i) {
    const uint32_t lane = static_cast<uint32_t>(i % 64);
    uint32_t k = 0, sum = 0, c = lane + 500;
    while (k < in[i]) {
      k += 1;
      sum += c * 2;
      sum += k * 3 + lane;
      if ((k + lane) % 4 == 1) continue;
      c = k + lane * 11;
    }
    CHECK(got[i] == sum);
  }
  const auto got_step = run_loop("carried_step", in, 0);
  for (size_t i = 0; i < in.size(); ++i) {
    const uint32_t lane = static_cast<uint32_t>(i % 64);
    uint32_t sum = 0, c = lane + 500;
    for (uint32_t k = 0; k < in[i]; sum += c * 2, k += 1) {
      sum += k * 3 + lane;
      if ((k + lane) % 4 == 1) continue;
      c = k + lane * 11;
    }
    CHECK(got_step[i] == sum);
  }
}

// The body of test_target_features_sim.cpp and test_target_features_sim_gfx950.cpp: the
// helpers that choose by the target's features (kernels/target_features.hip, compiled for the
// test's target) run in hipasm-sim against plain C++, and what they emit on that target (the
// instructions each uses, printed as counts). The checker must stay silent.
#pragma once
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "../core/asm_counts.hpp"
#include "sim_code_object.hpp"
#include "target_features_fns.hpp"

namespace tf_test {
namespace rt = hipasm::rt;

// (a test that builds these kernels from another kernel file names it: TF_CODE_OBJECT)
#ifndef TF_CODE_OBJECT
#define TF_CODE_OBJECT "target_features"
#endif
struct sim {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  std::unique_ptr<rt::module> m = dev->load_file(hipasm::test::code_object(TF_CODE_OBJECT));
};
inline sim& S() {
  static sim s;
  return s;
}
inline bool has_swaps() { return hipasm::active_target::desc.features.has_permlane_swap; }

inline std::vector<uint32_t> launch(const std::string& kernel, const std::vector<uint32_t>& in, size_t out_count,
                                    uint32_t blocks) {
  rt::device& d = *S().dev;
  rt::buffer<uint32_t> A(d, in);
  rt::buffer<uint32_t> out(d, std::vector<uint32_t>(out_count, 0xdeadbeefu));
  rt::kernel_args args;
  args.add(out.ptr()).add(A.ptr());
  rt::launch_report rep = d.launch(*S().m, kernel, {blocks, 1, 1}, {64, 1, 1}, args);
  INFO(kernel);
  for (const auto& diag : rep.diagnostics) FAIL_CHECK(kernel << " checker: " << diag);
  return out.download();
}

// What a kernel's asm uses: lines (instructions), VALU (v_*), LDS (ds_*), and the s_nop states.
struct usage {
  int instructions = 0, valu = 0, ds = 0, nop_states = 0, lds_dma = 0;
  std::string text;
  bool has(const char* s) const { return text.find(s) != std::string::npos; }
};
template <auto Fn>
usage usage_of(const char* name) {
  usage u;
  u.text = hipasm::asm_text<Fn>(name, hipasm::emit_options{false});
  const auto c = hipasm::test::count_asm(u.text);
  u.instructions = c.instructions;
  u.nop_states = c.nop_states;
  size_t at = 0;
  while (at < u.text.size()) {
    size_t e = u.text.find('\n', at);
    if (e == std::string::npos) e = u.text.size();
    size_t b = at;
    while (b < e && (u.text[b] == ' ' || u.text[b] == '\t')) ++b;
    if (u.text.compare(b, 2, "v_") == 0) ++u.valu;
    if (u.text.compare(b, 3, "ds_") == 0) ++u.ds;
    if (u.text.compare(b, 11, "buffer_load") == 0 && u.text.substr(b, e - b).find(" lds") != std::string::npos) ++u.lds_dma;
    at = e + 1;
  }
  std::printf("%s %-24s %4d instructions, %3d VALU, %2d DS, %2d LDS-DMA, %2d s_nop states\n",
              hipasm::active_target::name.data(), name, u.instructions, u.valu, u.ds, u.lds_dma, u.nop_states);
  return u;
}

// ---- lane exchanges and reductions ----------------------------------------------------------
enum class red { sum, fmax, imin };
inline uint32_t combine(red r, uint32_t a, uint32_t b) {
  if (r == red::sum) return a + b;
  if (r == red::fmax) return std::bit_cast<uint32_t>(std::max(std::bit_cast<float>(a), std::bit_cast<float>(b)));
  return static_cast<uint32_t>(std::min(static_cast<int32_t>(a), static_cast<int32_t>(b)));
}
// lane l's value: r over the active lanes l' of its wave with (l' & ~bits) == (l & ~bits)
inline std::vector<uint32_t> xor_ref(const std::vector<uint32_t>& x, red r, uint32_t bits, bool partial) {
  std::vector<uint32_t> y(x.size());
  auto active = [&](uint32_t l) { return !partial || l % 5 != 2; };
  for (size_t i = 0; i < x.size(); ++i) {
    const uint32_t l = i % 64, base = static_cast<uint32_t>(i - l);
    if (!active(l)) {
      y[i] = x[i];
      continue;
    }
    bool any = false;
    uint32_t acc = 0;
    for (uint32_t k = 0; k < 64; ++k)
      if ((k & ~bits) == (l & ~bits) && active(k)) {
        acc = any ? combine(r, acc, x[base + k]) : x[base + k];
        any = true;
      }
    y[i] = acc;
  }
  return y;
}
inline std::vector<uint32_t> lane_inputs(bool floats) {
  std::mt19937 rng(41);
  std::vector<uint32_t> x(128);
  std::uniform_real_distribution<float> u(-1000.0f, 1000.0f);
  for (auto& v : x) v = floats ? std::bit_cast<uint32_t>(u(rng)) : static_cast<uint32_t>(rng());
  return x;
}
inline void check_lanes(const char* kernel, const std::vector<uint32_t>& x, const std::vector<uint32_t>& want) {
  const auto got = launch(kernel, x, x.size(), 2);
  INFO(kernel);
  for (size_t i = 0; i < x.size(); ++i)
    if (got[i] != want[i]) {
      FAIL_CHECK("lane " << i << ": got " << std::hex << got[i] << " expected " << want[i]);
      return;
    }
}

inline void run_lanes() {
  const auto x = lane_inputs(false), f = lane_inputs(true);
  check_lanes("lanes_xor16_sum", x, xor_ref(x, red::sum, 0x10, false));
  check_lanes("lanes_xor32_sum", x, xor_ref(x, red::sum, 0x20, false));
  check_lanes("lanes_xor48_fmax", f, xor_ref(f, red::fmax, 0x30, false));
  check_lanes("lanes_group32_sum", x, xor_ref(x, red::sum, 0x1f, false));
  check_lanes("lanes_xor49_imin_partial", x, xor_ref(x, red::imin, 0x31, true));
  {
    std::vector<uint32_t> x3(x.size());
    for (size_t i = 0; i < x.size(); ++i) x3[i] = x[i] * 3u;
    const auto a = xor_ref(x, red::sum, 0x30, false), b = xor_ref(x3, red::sum, 0x30, false);
    std::vector<uint32_t> want(x.size());
    for (size_t i = 0; i < x.size(); ++i) want[i] = a[i] ^ (b[i] << 1);
    check_lanes("lanes_pair48_sum", x, want);
  }
  auto shuffled = [&](uint32_t m) {
    std::vector<uint32_t> y(x.size());
    for (size_t i = 0; i < x.size(); ++i) y[i] = x[(i & ~size_t{63}) | ((i % 64) ^ m)];
    return y;
  };
  check_lanes("lanes_shuf16", x, shuffled(16));
  check_lanes("lanes_shuf32", x, shuffled(32));
  check_lanes("lanes_shuf32_into_self", x, shuffled(32));
  check_lanes("lanes_shuf16_lds", x, shuffled(16));
}

// ---- load_transposed ------------------------------------------------------------------------
template <uint32_t EB, bool SWZ>
void run_transposed(const char* kernel) {
  constexpr hipasm::lds_layout LY = tf::tr_layout<EB, SWZ>();
  constexpr uint32_t E = 8 / EB, dpr = LY.cols * EB / 4, dwords = LY.rows * dpr;
  std::mt19937 rng(EB * 10 + SWZ);
  std::vector<uint32_t> in(dwords);
  for (auto& v : in) v = static_cast<uint32_t>(rng());
  // element (r, c) of the view: bytes c * EB .. of row r, the rows as in[] holds them
  auto elem = [&](uint32_t r, uint32_t c) {
    const uint32_t byte = c * EB, w = in[r * dpr + byte / 4];
    return (w >> (8 * (byte % 4))) & (EB == 2 ? 0xffffu : 0xffu);
  };
  const auto got = launch(kernel, in, 128, 1);
  INFO(kernel);
  for (uint32_t l = 0; l < 64; ++l) {
    const uint32_t g = l / 16, i = l % 16, row = E * g + E, col = 16 * ((3 * g) % 4);
    uint64_t want = 0;
    for (uint32_t n = 0; n < E; ++n) want |= uint64_t(elem(row + n, col + i)) << (8 * EB * n);
    const uint64_t have = got[2 * l] | uint64_t(got[2 * l + 1]) << 32;
    if (have != want) {
      FAIL_CHECK("lane " << l << ": got " << std::hex << have << " expected " << want);
      return;
    }
  }
}

inline void run_transposes() {
  run_transposed<2, false>("tr_b16");
  run_transposed<2, true>("tr_b16_swz");
  run_transposed<1, false>("tr_b8");
  run_transposed<1, true>("tr_b8_swz");
}

// ---- copy_tile's direct path (test_tile.cpp's reference: the tile's dwords, zeros past the
// tensor) ------------------------------------------------------------------------------------
inline void run_dma(const char* kernel, uint32_t rows, uint32_t cols, uint32_t eb, uint32_t threads) {
  rt::device& d = *S().dev;
  const uint32_t row_bytes = cols * eb, dwords = rows * row_bytes / 4, ld = row_bytes + 64;
  const uint32_t mem_dwords = (ld * (rows + 4)) / 4 + 64;
  std::vector<uint32_t> in(mem_dwords);
  for (uint32_t i = 0; i < mem_dwords; ++i) in[i] = 0x10000000u + i * 2654435761u % 0x0fffffffu;
  rt::buffer<uint32_t> I(d, in);
  const uint32_t cases[][2] = {{0, mem_dwords * 4}, {ld * 2 + 16, mem_dwords * 4}, {64, ld * (rows - 1) + 64 + row_bytes / 2}};
  for (const auto& c : cases) {
    INFO(kernel << " origin " << c[0] << " in_bytes " << c[1]);
    rt::buffer<uint32_t> out(d, std::vector<uint32_t>(dwords, 0xdeadbeefu));
    rt::kernel_args a;
    a.add(out.ptr()).add(I.ptr()).add(c[1]).add(ld).add(c[0]);
    auto rep = d.launch(*S().m, kernel, {1, 1, 1}, {threads, 1, 1}, a);
    for (const auto& diag : rep.diagnostics) FAIL_CHECK("checker: " << diag);
    const auto o = out.download();
    const uint32_t dpr = row_bytes / 4;
    for (uint32_t i = 0; i < dwords; ++i) {
      const uint64_t g = c[0] + uint64_t(i / dpr) * ld + (i % dpr) * 4;
      const uint32_t want = g + 4 <= c[1] ? in[g / 4] : 0u;
      if (o[i] != want) {
        FAIL_CHECK("dword " << i << ": got " << std::hex << o[i] << " expected " << want);
        break;
      }
    }
  }
}
inline void run_dmas() {
  run_dma("dma16_f32_partial", 40, 64, 4, 256);
  run_dma("dma16_bf16_pad", 128, 64, 2, 256);
  run_dma("dma16_bf16_swz", 128, 64, 2, 128);
  run_dma("dma16_wide_swz", 8, 512, 2, 128);
  run_dma("dma16_pad8_fallback", 64, 64, 2, 256);
  run_dma("dma16_caller_waits", 128, 64, 2, 128);
}

}  // namespace tf_test

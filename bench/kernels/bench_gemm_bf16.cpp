// bench_kernel_gemm_bf16 [AITER_DIR]: the library's bf16 GEMM (C = A * B^T, f32 out) on LLM shapes
// of aiter's bf16 tuning table and 4096^3, predicted by the timing model (MI300X), next to
// aiter's bf16 asm GEMM (hsa/gfx942/bf16gemm, the non-preshuffled fp32-out kernels, with their
// split-K as aiter's heuristic picks kernel and split, as ours may split K) on the same shape in
// the same run; stderr names both sides' kernel and split.
// bench_kernel_gemm_bf16_mi355x: the same built for gfx950 (the double-K MFMAs) on the MI355X
// model against hsa/gfx950/bf16gemm, on shapes of aiter's MI355X tuning rows
// (aiter/configs/model_configs/*bf16_tuned_gemm.csv) and 4096^3, 8192^3, both sides writing C in
// bf16 (the rows' output type; aiter's 256x256 kernel writes bf16 only).
// Without AITER_DIR (or without its bf16gemm folder) the aiter columns are `none`.
// Shapes above 2^34 FLOP are profiled on a sampled slice of 16 CUs (profile_options::sample_cus):
// the full grid of such shapes takes minutes on a 2-core machine.
// Environment (as the other kernel benches): HIPASM_BENCH_SHAPE=MxNxK that shape alone (any
// shape), HIPASM_BENCH_REPORT=1 both kernels' model reports, HIPASM_BENCH_TIMELINE=W wave W's
// schedule; and GEMM_BENCH_KERNEL=name our kernel forced, GEMM_BENCH_GAPS=1 the MFMA pipe's gaps.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <hipasm/kernels/gemm_bf16_launch.hpp>

#include "bench_common.hpp"
#include "gemm_bf16_bench_configs.hpp"
#include "elf.hpp"  // (sim/src: the code object's argument metadata)

namespace fs = std::filesystem;
namespace rt = hipasm::rt;

namespace {

constexpr const char* kDevice = bench::target_device;
constexpr uint32_t kCus = bench::target_cus;
constexpr const char* kAiterDir = bench::target_gfx950 ? "hsa/gfx950/bf16gemm" : "hsa/gfx942/bf16gemm";

struct shape {
  uint32_t m, n, k;
};
struct aiter_kernel {
  std::string co, name;
  uint32_t tile_m = 0, tile_n = 0;
  bool split_k = false;  // the kernel takes a K split (grid z, KernelArgs::splitk)
  uint32_t sub_k = 0;    // its K granule
  bool out_bf16 = false; // bf16gemm_bf16_*: C in bf16 (KernelArgs::is_out_b16)
};

// aiter's non-preshuffled bf16 kernels from its csv (knl_name,co_name,tn,tileM,tileN,pf,
// bPreshuffle,splitK,subK,bias), with and without split-K.
std::vector<aiter_kernel> aiter_kernels(const fs::path& dir) {
  std::vector<aiter_kernel> v;
  std::ifstream f(dir / "bf16gemm_fp32bf16.csv");
  std::string line;
  std::getline(f, line);
  while (std::getline(f, line)) {
    std::vector<std::string> c;
    std::stringstream ss(line);
    std::string t;
    while (std::getline(ss, t, ',')) c.push_back(t);
    if (c.size() < 9 || c[6] != "0") continue;
    v.push_back({(dir / c[1]).string(), c[0], uint32_t(std::stoul(c[3])), uint32_t(std::stoul(c[4])), c[7] == "1",
                 uint32_t(std::stoul(c[8])), c[1].rfind("bf16gemm_bf16_", 0) == 0});
  }
  return v;
}

// aiter's heuristic (csrc/py_itfs_cu/asm_gemm_a16w16.cu, get_heuristic_kernel, no bias, no
// preshuffle): per kernel its K split (split-K kernels: max(2, min(CUs / tiles, 16, K / subK))),
// then the fewest rounds of workgroups over the CUs, ties broken by more CUs busy or less M
// overhang, then by the tile's compute/memory ratio.
struct aiter_choice {
  const aiter_kernel* k = nullptr;
  uint32_t split = 1;
};
aiter_choice pick(const std::vector<aiter_kernel>& ks, const shape& s, uint32_t cus) {
  aiter_choice best;
  uint32_t round = ~0u, empty_cu = cus, oob = s.m;  // (aiter's initial values)
  float effi = 1.0f;
  if (s.k % 64 != 0) return best;  // (aiter: K must be a multiple of 64)
  for (const auto& k : ks) {
    if (s.n % k.tile_n != 0) continue;
    const uint32_t tiles = (s.m + k.tile_m - 1) / k.tile_m * (s.n / k.tile_n);
    uint32_t split = 1;
    if (k.split_k && s.k / k.sub_k >= 2)
      split = std::max(2u, std::min({cus / tiles, 16u, s.k / k.sub_k}));
    const uint32_t groups = tiles * split, r = (groups + cus - 1) / cus, empty = r * cus - groups;
    const float e = float(k.tile_m * k.tile_n) / float(k.tile_m + k.tile_n);
    const uint32_t o = s.m % k.tile_m == 0 ? 0 : k.tile_m - s.m % k.tile_m;
    const bool less_oob = s.m % k.tile_m == 0 ? oob > 0 : o < oob;
    if (r < round || (r == round && (empty_cu > empty || less_oob)) ||
        (r == round && empty_cu == empty && oob == o && e > effi)) {
      round = r;
      empty_cu = empty;
      effi = e;
      oob = o;
      best = {&k, split};
    }
  }
  return best;
}

// aiter's KernelArgs (csrc/py_itfs_cu/asm_gemm_a16w16.cu): each field padded to 16 bytes (352
// bytes), passed as the code object's metadata arguments slice it.
rt::kernel_args aiter_args(const hipasm::sim::KernelInfo& k, uint64_t d, uint64_t a, uint64_t b, const shape& s,
                           uint32_t split, uint64_t semaphore, bool out_bf16) {
  std::vector<uint8_t> raw(352, 0);
  auto put64 = [&](size_t off, uint64_t x) { std::memcpy(raw.data() + off, &x, 8); };
  auto put32 = [&](size_t off, uint32_t x) { std::memcpy(raw.data() + off, &x, 4); };
  const float one = 1.0f;
  uint32_t one_bits;
  std::memcpy(&one_bits, &one, 4);
  put64(0, d);                 // ptr_D (ptr_C at 16: null, beta = 0)
  put64(32, a);                // ptr_A
  put64(48, b);                // ptr_B
  put32(64, one_bits);         // alpha
  const uint32_t out_eb = out_bf16 ? 2 : 4;
  put32(96, s.n * out_eb);     // stride_D0 (bytes)
  put32(128, s.n * out_eb);    // stride_C0
  put32(160, s.k * 2);         // stride_A0
  put32(192, s.k * 2);         // stride_B0
  put32(224, s.m), put32(240, s.n), put32(256, s.k);
  put32(272, split);           // splitk (grid z)
  put32(288, out_bf16 ? 1 : 0);  // is_out_b16
  if (split > 1) put64(336, semaphore);  // ptr_semaphore: the split-K kernels' tile counters (4 KiB, zeroed)
  rt::kernel_args x;
  for (const auto& arg : k.args) {
    if (arg.hidden()) continue;
    std::vector<uint8_t> slice(arg.size, 0);
    if (arg.offset + arg.size <= raw.size()) std::memcpy(slice.data(), raw.data() + arg.offset, arg.size);
    switch (arg.size) {
      case 1: { uint8_t v; std::memcpy(&v, slice.data(), 1); x.add(v); break; }
      case 2: { uint16_t v; std::memcpy(&v, slice.data(), 2); x.add(v); break; }
      case 4: { uint32_t v; std::memcpy(&v, slice.data(), 4); x.add(v); break; }
      default: { uint64_t v; std::memcpy(&v, slice.data(), 8); x.add(v); break; }
    }
  }
  return x;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 2) {
    std::fprintf(stderr, "usage: %s [AITER_DIR]\n", argv[0]);
    return 2;
  }
  std::vector<aiter_kernel> aks;
  if (argc == 2) {
    const fs::path dir = fs::path(argv[1]) / kAiterDir;
    if (fs::exists(dir / "bf16gemm_fp32bf16.csv")) aks = aiter_kernels(dir);
    else std::fprintf(stderr, "bench_kernel_gemm_bf16: no %s: aiter skipped\n", dir.c_str());
  }
#if defined(HIPASM_TARGET_GFX950) && HIPASM_TARGET_GFX950
  std::vector<shape> shapes = {{16, 5120, 6400},   {32, 2304, 16384},   {64, 8192, 8192},  {128, 2048, 7168},
                               {256, 2624, 6144}, {1024, 14336, 8192}, {4096, 4096, 4096}, {8192, 8192, 8192}};
#else
  std::vector<shape> shapes = {{128, 2048, 4096}, {1024, 1024, 4096}, {1024, 6144, 3072}, {4096, 4096, 4096}, {8192, 8192, 8192}};
#endif
  if (const char* only = std::getenv("HIPASM_BENCH_SHAPE")) {  // MxNxK: that shape alone (any, not only the table's)
    shape s{};
    if (std::sscanf(only, "%ux%ux%u", &s.m, &s.n, &s.k) == 3) shapes = {s};
  }
  using hipasm::kernels::gemm_bf16_kernel_ref;
  namespace cfg = gemm_bf16_bench;
  const gemm_bf16_kernel_ref t256{cfg::big_name, cfg::big}, t128{"gemm_bf16_default", cfg::mid};
  const gemm_bf16_kernel_ref t64[] = {{"gemm_bf16_64x64", cfg::small}, {"gemm_bf16_64x64_k2", cfg::small_k2},
                                      {"gemm_bf16_64x64_k4", cfg::small_k4}, {"gemm_bf16_64x64_k8", cfg::small_k8}};
  const gemm_bf16_kernel_ref t256x32{"gemm_bf16_256x32", cfg::big_k32}, t256nn{"gemm_bf16_256nn", cfg::big_nn};
  const gemm_bf16_kernel_ref t128x256{"gemm_bf16_128x256", cfg::rest}, t256w4{"gemm_bf16_256w4", cfg::big4},
      t256w8{"gemm_bf16_256w8", cfg::big8};
  // (gfx950's code object only: the bf16-out bench's M <= 32 rows)
  const gemm_bf16_kernel_ref t32[] = {{"gemm_bf16_32x64_k2", cfg::skinny_k2}, {"gemm_bf16_32x64_k3", cfg::skinny_k3},
                                      {"gemm_bf16_32x64_k4", cfg::skinny_k4}, {"gemm_bf16_32x64_k6", cfg::skinny_k6},
                                      {"gemm_bf16_32x64_k8", cfg::skinny_k8}};
  const char* forced = std::getenv("GEMM_BENCH_KERNEL");
  const bool report = [] {
    const char* e = std::getenv("HIPASM_BENCH_REPORT");
    return e && *e == '1';
  }();
  for (const shape& s : shapes) {
    const double flop = 2.0 * s.m * s.n * s.k;
    rt::profile_options po;
    po.device = kDevice;
    if (flop > double(1ull << 34)) po.sample_cus = 16;
    po.keep_events = std::getenv("GEMM_BENCH_GAPS") != nullptr || std::getenv("HIPASM_BENCH_TIMELINE") != nullptr;
    rt::launch_options lo;
    lo.profile = &po;
    lo.check = false;  // (the tests run the checker; here only the time matters)
    // Each kernel in a device of its own (bench::fresh_device), A, B and C allocated first in
    // both: the same addresses for ours and aiter's, whatever else ran.
    struct operands {
      rt::buffer<uint16_t> A, B;
      rt::buffer<float> C;
      operands(rt::device& d, const shape& s) : A(d, size_t(s.m) * s.k), B(d, size_t(s.n) * s.k), C(d, size_t(s.m) * s.n) {}
    };
    auto dev = bench::fresh_device();
    const operands ops(*dev, s);
    auto mod = dev->load_file(HIPASM_BENCH_CO);
    // 256x256 when it keeps most CUs busy (>= 5/8 of them: its efficiency pays for the idle
    // rest), else 128x128 when it fills the device and leaves its busiest CU no more of C than
    // 64x64 tiles would (1024x6144: 2 of 384 tiles = 8 64x64 tiles against 6 of 1536), else
    // 64x64 with the largest K split that keeps the workgroups within one round of the device
    // (each part's f32 partial tile is an atomic add whose L2 cost outweighs a second round of
    // tiles; K split only while each part keeps >= 1024 of K); with bf16 out (MI355X) see below.
    auto groups = [&](const hipasm::kernels::gemm_bf16_config& c) { return c.grid_x(s.n) * c.grid_y(s.m) * c.grid_z(); };
    auto busiest_cu_tiles64 = [&](const hipasm::kernels::gemm_bf16_config& c) {  // in 64x64 tiles of C
      return (groups(c) + kCus - 1) / kCus * (c.bm / 64) * (c.bn / 64);
    };
    hipasm::kernels::gemm_bf16_kernel_ref ours = t64[0];
    if (groups(t256.config) >= kCus * 5 / 8 && s.k % 64 == 0) ours = t256;  // (no K tail: k_tail = false)
    else if (groups(t128.config) >= kCus && busiest_cu_tiles64(t128.config) <= busiest_cu_tiles64(t64[0].config))
      ours = t128;
    else if (!cfg::out16) {
      for (const auto& k : t64)
        if (groups(k.config) <= kCus && s.k / k.config.split_k >= 1024) ours = k;
    } else if (s.m <= 32) {  // 32x64 tiles, the most parts that keep one workgroup a CU
      ours = t32[0];
      for (const auto& k : t32)
        if (groups(k.config) <= kCus) ours = k;
    } else {  // bf16 pairs added (bf16_atomics: half an f32 add's bytes; 64x64 tiles run several
              // a CU): the fewest parts that give two workgroups a CU, else the most
      for (const auto& k : t64) {
        ours = k;
        if (groups(k.config) >= 2 * kCus) break;
      }
    }
    for (const auto& k : {t256, t128, t64[0], t64[1], t64[2], t64[3], t256x32, t256nn, t128x256, t256w4, t256w8, t32[0], t32[1], t32[2], t32[3], t32[4]})
      if (forced && k.name == forced) ours = k;
    if (report) std::fprintf(stderr, "%s\n", ours.name.c_str());
    // an odd K (HIPASM_BENCH_SHAPE only): the odd_k variant of the 128x128 tile
    const gemm_bf16_kernel_ref odd{"gemm_bf16_oddk", cfg::odd};
    // The 256x256 tile's grid in whole rounds of the 304 CUs, the rows left in 128x256 tiles (a
    // second dispatch: launch_gemm_bf16_balanced).
    auto rep = ours.name == t256w4.name || ours.name == t256w8.name  // (t256 is one of them)
                   ? hipasm::kernels::launch_gemm_bf16_balanced(*dev, *mod, ours, t128x256, ops.C.addr(), ops.A.addr(),
                                                                ops.B.addr(), s.m, s.n, s.k, kCus, &odd, lo)
                   : hipasm::kernels::launch_gemm_bf16(*dev, *mod, ours, ops.C.addr(), ops.A.addr(), ops.B.addr(), s.m, s.n, s.k, &odd, 0, lo);
    const rt::profile& p = *rep.profile;
    if (report) std::fprintf(stderr, "%s\n", p.report().c_str());  // hot spots, stalls
    if (const char* w = std::getenv("HIPASM_BENCH_TIMELINE"))  // one wave's schedule (its index)
      std::fprintf(stderr, "%s\n", p.timeline(uint32_t(std::strtoul(w, nullptr, 10))).c_str());
    if (std::getenv("GEMM_BENCH_GAPS")) {
      // The MFMA pipe of SIMD 0 of each CU in the main loop: per workgroup, its MFMAs' busy
      // cycles (8 passes x 4 cycles each) over the span from its first MFMA issue to its last
      // MFMA's end; the gaps attributed to the MFMA that ends them (the stall sources).
      std::map<uint32_t, std::pair<uint64_t, uint64_t>> span;  // workgroup -> first issue, last end
      std::map<uint32_t, uint64_t> last_end;                    // cu -> pipe free
      std::map<std::string, uint64_t> by;
      uint64_t busy = 0, gaps = 0;
      for (const auto& e : p.events) {
        const auto& w = p.waves_info[e.wave];
        if (w.simd != 0 || e.unit != rt::profile_event::mfma) continue;
        auto [it, fresh] = span.try_emplace(w.workgroup, e.issue, e.issue + 32);
        it->second.second = std::max(it->second.second, e.issue + 32);
        uint64_t& le = last_end[w.cu];
        if (!fresh && e.issue > le) {
          by[p.insts[e.inst].text.substr(0, 50) + " w" + std::to_string(w.wave_in_group)] += e.issue - le;
          gaps += e.issue - le;
        }
        le = std::max(le, e.issue + 32);
        busy += 32;
      }
      uint64_t spans = 0, before = 0, after = 0, total = 0;
      for (auto& [g, sp] : span) spans += sp.second - sp.first;
      // per workgroup: its start to its first MFMA (prologue) and its last MFMA's end to its end
      // (epilogue), from wave 0's start / the group's last wave end
      std::map<uint32_t, std::pair<uint64_t, uint64_t>> life;
      for (const auto& w : p.waves_info) {
        auto [it, fresh] = life.try_emplace(w.workgroup, w.start, w.end);
        it->second.first = std::min(it->second.first, w.start);
        it->second.second = std::max(it->second.second, w.end);
        total = std::max(total, w.end);
      }
      for (auto& [g, sp] : span) {
        before += sp.first - life[g].first;
        after += life[g].second - sp.second;
      }
      std::fprintf(stderr, "per workgroup: prologue %.0f, main loop %.0f, epilogue %.0f cycles; schedule %llu cycles\n",
                   double(before) / span.size(), double(spans) / span.size(), double(after) / span.size(),
                   (unsigned long long)total);
      std::fprintf(stderr, "main loop MFMA busy (SIMD 0 of each CU, first to last MFMA of each workgroup): %.1f%% (%llu of %llu cycles)\n",
                   100.0 * busy / spans, (unsigned long long)busy, (unsigned long long)spans);
      for (auto& [k, v] : by)
        if (v > gaps / 50) std::fprintf(stderr, "  gap %8llu before %s\n", (unsigned long long)v, k.c_str());
    }
    double aiter_us = 0;  // none
    if (const aiter_choice ac = pick(aks, s, kCus); ac.k) {
      const aiter_kernel* ak = ac.k;
      std::fprintf(stderr, "bench_kernel_gemm_bf16: %ux%ux%u: hipasm %s (split-K %u), aiter %s (split-K %u)\n", s.m, s.n,
                   s.k, ours.name.c_str(), ours.config.split_k, ak->co.substr(ak->co.rfind('/') + 1).c_str(), ac.split);
      auto adev = bench::fresh_device();
      const operands aops(*adev, s);
      rt::buffer<uint32_t> sem(*adev, std::vector<uint32_t>(1024, 0u));  // (as scripts/aiter-launch-examples)
      const std::vector<uint8_t> bytes = hipasm::sim::read_file_bytes(ak->co);
      const hipasm::sim::CodeObject co = hipasm::sim::load_code_object(bytes);
      auto amod = adev->load(bytes);
      rt::launch_options al = lo;
      al.allow = {"all"};
      al.kernarg_size = 352;
      // (C zeroed for split-K outside the kernel's time, as ours: a fresh device's memory is zero)
      auto ar = adev->launch(*amod, ak->name, {s.n / ak->tile_n, (s.m + ak->tile_m - 1) / ak->tile_m, ac.split}, {256, 1, 1},
                             aiter_args(co.kernel(ak->name), aops.C.addr(), aops.A.addr(), aops.B.addr(), s, ac.split, sem.addr(),
                                        ak->out_bf16 || cfg::out16), al);
      aiter_us = ar.profile->time_us;
      if (report) std::fprintf(stderr, "aiter: %s\n", ar.profile->report().c_str());
    }
    // (the combined profile of both dispatches: time, FLOP rate, MFMA busy, HBM bytes)
    const bench::result h{p.time_us, flop / p.time_us * 1e-6, p.mfma_busy, double(p.hbm_bytes)};
    char shape_name[64];
    std::snprintf(shape_name, sizeof shape_name, "%ux%ux%u", s.m, s.n, s.k);
    bench::print_line("gemm_bf16", shape_name, h, aiter_us,
                      2.0 * (double(s.m) * s.k + double(s.n) * s.k) + (cfg::out16 ? 2.0 : 4.0) * s.m * s.n,
                      false, bench::row_device);
  }
  return 0;
}

// Shared by bench_kernel_gemm_fp8, _fp8_mi355x and bench_kernel_gemm_i8: the library's quantized
// GEMM (kernels/gemm_quant.hpp) on each shape, predicted by the timing model (the bench's target's
// device: bench_common.hpp target_device, MI300X or MI355X), next to
// aiter's asm kernel for the same operation (B preshuffled, as aiter ships them) on the same
// shape in the same run: the kernel (and split-K) aiter's tuning table picked for that shape,
// run through bench/timing/aiter_asm_gemm.hpp (the argument packing hipasm-timing-aiter
// verifies). Without AITER_DIR (or its code objects) the aiter columns are `none`.
// GEMM_QUANT_BENCH_KERNEL=name runs that configuration instead of the picked one; the picked
// tile's split_k variant (`<name>_split`) goes to launch_gemm_quant, which splits K when the tiles
// leave CUs idle (GEMM_QUANT_BENCH_SPLITS=n: n splits). HIPASM_BENCH_SHAPE=MxNxK: that shape only.
// GEMM_QUANT_BENCH_REST=name: C's rows balanced between the row's kernel and that one
// (launch_gemm_quant_balanced), as pick_mi300x does for 8192^3.
// Shapes above 2^32 FLOP are profiled, both kernels alike, on a sampled slice of 16 CUs
// (profile_options::sample_cus; the full grid of such shapes takes many minutes here).
// GEMM_QUANT_BENCH_AITER=symbol[:splits] runs that aiter kernel instead of the row's (to pick a
// row's aiter kernel where aiter's tables have no row for the device).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <hipasm/kernels/gemm_quant_launch.hpp>

#include "aiter_asm_gemm.hpp"
#include "bench_common.hpp"

namespace bench {

struct quant_shape {
  uint32_t m, n, k;
  const char* aiter_kernel;  // aiter's symbol (its tuning table's choice), nullptr: none
  int aiter_splitk;
  // the row's scales; none: the bench's own kind (aiter's family: fp8 block scales, int8 per-token)
  std::optional<hipasm::kernels::quant_scale> scale{};
};

// Our configuration for a shape, among the kernels of the row's scale kind (the tile rules below
// were measured per kind: fp8's 256x128 one-buffer tile is a block-scale kernel, per-token and
// per-tensor rows have their own). Measured on the timing model (bench_kernel_gemm_i8, _fp8;
// MI300X's 304 CUs, target_cus in the rules):
// 1. An 8-wave tile with one LDS buffer (one workgroup a CU) whose grid is one round of at least
//    half of the 304 CUs, the largest such, when K is 16 tiles or more (4096x1536x5120: 192
//    tiles of 256x128; 4096^3: 256 of 256x256; with K 1280 the prologue and epilogue of the big
//    tile lose to 128x160).
//    Else an 8-wave tile of at most 128x128 with two LDS buffers whose grid is such a round
//    (fp8 128x128 on 1024x3072x7168 and 1024x4608x7168: the 4-wave tile's one workgroup a CU
//    leaves its MFMAs waiting on the barriers; int8's larger two-buffer 8-wave tiles lose to
//    128x160 on 1024x5120x1280).
// 2. An 8-wave one-buffer tile whose grid fills the 304 CUs at least once and its last round at
//    least half (fp8 4096^3's 512 tiles gain; 4096x3072x7168's 384 tiles, 1.26 rounds, lose).
//    Else such a grid of the 8-wave two-buffer tile of at most 128x128, K 16 tiles or more
//    (4096x3072x7168: 768 tiles of 128x128 in 64x32 waves, 2.5 rounds, 205.8 us where the
//    4-wave tile's 1.26 rounds of two a CU took 210.6; with K 256, 6144x7168x256, it lost).
// 3. Else, of the tiles of up to 4 waves (the 8-wave ones with two LDS buffers ran slower on every
//    shape tried; GEMM_QUANT_BENCH_KERNEL runs them), the largest whose grid gives at least half
//    of the 304 CUs a workgroup, else the smallest; a tile above 128x128 (int8 128x160) only when
//    its grid fits the CUs one workgroup each (1024x5120x1280: 256 tiles, where 128x128 leaves 16
//    CUs two of its 320).
// (`s.scale` resolved: quant_rows passes the row with its kind)
inline const hipasm::kernels::gemm_quant_kernel_ref& pick_quant(const std::vector<hipasm::kernels::gemm_quant_kernel_ref>& ks,
                                                      const quant_shape& s) {
  const hipasm::kernels::quant_scale scale = s.scale.value_or(hipasm::kernels::quant_scale::per_token);
  auto tiles = [&](const hipasm::kernels::gemm_quant_kernel_ref& k) {
    return uint64_t(k.config.grid_x(s.n)) * k.config.grid_y(s.m);
  };
  auto area = [](const hipasm::kernels::gemm_quant_kernel_ref& k) { return k.config.bm * k.config.bn; };
  auto eight = [&](const hipasm::kernels::gemm_quant_kernel_ref& k) {
    return k.config.scale == scale && k.config.threads() == 512 && k.config.lds_buffers == 1 && !k.config.split_k;
  };
  // rule 1: the largest tile of `kind` whose grid is one round of at least half the CUs, K 16 tiles or more
  auto largest_one_round = [&](auto kind) {
    const hipasm::kernels::gemm_quant_kernel_ref* one = nullptr;
    for (const auto& k : ks)
      if (kind(k) && s.k >= 16 * k.config.bk && tiles(k) >= target_cus / 2 && tiles(k) <= target_cus &&
          (!one || area(k) > area(*one)))
        one = &k;
    return one;
  };
  auto eight_two_buffers = [&](const hipasm::kernels::gemm_quant_kernel_ref& k) {
    return k.config.scale == scale && k.config.threads() == 512 && k.config.lds_buffers == 2 && !k.config.split_k &&
           area(k) <= 128 * 128;
  };
  if (const auto* one = largest_one_round(eight)) return *one;
  if (const auto* one = largest_one_round(eight_two_buffers)) return *one;
  auto full_rounds = [&](const hipasm::kernels::gemm_quant_kernel_ref& k) {
    return tiles(k) >= target_cus && (tiles(k) % target_cus == 0 || tiles(k) % target_cus >= target_cus / 2);
  };
  for (const auto& k : ks)
    if (eight(k) && full_rounds(k)) return k;
  for (const auto& k : ks)
    if (eight_two_buffers(k) && s.k >= 16 * k.config.bk && full_rounds(k)) return k;
  const hipasm::kernels::gemm_quant_kernel_ref *best = nullptr, *smallest = nullptr;
  for (const auto& k : ks) {
    if (k.config.scale != scale || k.config.threads() > 256 || k.config.split_k) continue;
    if (area(k) > 128 * 128 && tiles(k) > target_cus) continue;
    if (!smallest || area(k) < area(*smallest)) smallest = &k;
    if (tiles(k) >= target_cus / 2 && (!best || area(k) > area(*best))) best = &k;
  }
  if (best) return *best;
  if (smallest) return *smallest;
  for (const auto& k : ks)
    if (k.config.scale == scale) return k;
  throw std::runtime_error("bench pick_quant: no kernel of the row's scale kind in the list");
}

// MI355X: the split count of split-K tile `c` on `s` (measured, bench_kernel_gemm_fp8_mi355x with
// GEMM_QUANT_BENCH_SPLITS): enough splits to fill two workgroups a CU where the 160 KiB of LDS hold
// two (at most K / 1024, as gemm_quant_splits), when that fills at least 3/4 of those slots and
// the splits' f32 sums stay within 4.5 MB (128x1536x7168 13.21 -> 9.28 us, 512x512x7168 13.33 ->
// 11.03); else gemm_quant_splits' count for the device's CUs.
inline uint32_t quant_splits_mi355x(const hipasm::kernels::gemm_quant_config& c, const quant_shape& s) {
  const uint64_t tiles = uint64_t(c.grid_x(s.n)) * c.grid_y(s.m);
  const uint64_t slots = uint64_t(target_cus) * (2 * c.lds_bytes() <= 160 * 1024 ? 2 : 1);
  const uint32_t unit = c.scale == hipasm::kernels::quant_scale::block128 ? 128 : c.bk;
  uint64_t n = slots / tiles;
  if (n > (s.k + unit - 1) / unit / 8) n = (s.k + unit - 1) / unit / 8;
  if (c.split_k && n >= 2 && 4 * tiles * n >= 3 * slots && 4.0 * s.m * s.n * n <= 4.5e6) return uint32_t(n);
  return hipasm::kernels::gemm_quant_splits(c, s.m, s.n, s.k, target_cus);
}

// MI355X's pick (gfx950; its list: bench_gemm_fp8.cpp), a kernel and its split count; measured
// on the rows of bench_kernel_gemm_fp8_mi355x (GEMM_QUANT_BENCH_KERNEL, GEMM_QUANT_BENCH_SPLITS):
// 1. A tile with AGPR accumulators (4 waves of 128x128, one a SIMD: the largest) when its grid
//    fills the 256 CUs at least once; its persistent variant (groups) when the grid gives every
//    CU two tiles or more.
// 2. Decode M: the one-wave split-K tile (32x32) when its grid is at most 3/8 of the CUs (96 of
//    256), split into the most parts that each keep 8 K blocks or more (gemm_quant_splits'
//    floor) and divide the blocks evenly: 16x512x7168 7 splits 6.44 us (32x64 6.93), 64x512x7168
//    6.73 (32x64 8 splits 7.31), 128x512x7168 7.14 (32x64 7.47).
//    Else the smallest split-K tile of more waves, split to fill two workgroups a CU (at least 3
//    splits; the slots filled at least 3/4, the f32 sums within 4.5 MB): 256x512x7168 (32x64, 7:
//    8.70 us; 64x64 7: 8.93, 32x128 7: 9.21), 128x1536x7168; where its grid is half the CUs or
//    more, the 4-wave 64x64 tile split to one workgroup a CU (half the A and B loads a workgroup
//    of 32x64's): 512x512x7168 64x64 4 splits 10.42 (32x64 4: 10.55, 64x128 7: 12.78).
// 3. The tiles (a split-K one split to one workgroup a CU, at most K / 1024 splits) whose
//    workgroups fill at least half of one round of the CUs: the 4-wave 64x64 one if it is among
//    them (its four waves share each A and B load; it beats 64x128 and 32x128 at 1024x512,
//    1536x512, 256x1536 and 512x1536 x7168), else the one filling the most, of equals the
//    largest (4096x512x7168 64x128 28.55 us, 128x128 31.54).
// 4. Else the largest tile giving at least half of the CUs a workgroup (8192^3: 128x128 of 8
//    waves, 604.6 us; 64x128 799.3), else the smallest split-K tile, quant_splits_mi355x's split.
struct quant_pick {
  const hipasm::kernels::gemm_quant_kernel_ref* kernel;
  uint32_t splits;
  const hipasm::kernels::gemm_quant_kernel_ref* rest = nullptr;  // launch_gemm_quant_balanced's rows left
};

// MI300X: pick_quant's kernel, or C's rows balanced (launch_gemm_quant_balanced) between the 8-wave
// one-LDS-buffer 256x256 tile and the 128x256 one when K is 16 tiles or more, the scales per token
// or per tensor, and the two dispatches' rounds (each weighed by its tile's area) cost no more than
// the pick's: 8192^3 int8, 1024 tiles of 256x256 (3.4 rounds of 304): 28 tile rows in one
// dispatch, the 1024 rows left in 256 tiles of 128x256 (the pick alone: 128x256, 6.7 rounds, the
// same cost; the 256x256 tile runs its rounds faster).
inline quant_pick pick_mi300x(const std::vector<hipasm::kernels::gemm_quant_kernel_ref>& ks, const quant_shape& s) {
  const hipasm::kernels::gemm_quant_kernel_ref& one = pick_quant(ks, s);
  const hipasm::kernels::quant_scale scale = s.scale.value_or(hipasm::kernels::quant_scale::per_token);
  if (scale == hipasm::kernels::quant_scale::block128) return {&one, 0};
  auto eight = [&](const hipasm::kernels::gemm_quant_kernel_ref& k, uint32_t bm, uint32_t bn) {
    const auto& c = k.config;
    return c.scale == scale && c.threads() == 512 && c.lds_buffers == 1 && !c.split_k && !c.groups && c.bm == bm &&
           c.bn == bn && s.k >= 16 * c.bk;
  };
  const hipasm::kernels::gemm_quant_kernel_ref *big = nullptr, *rest = nullptr;
  for (const auto& k : ks) {
    if (!big && eight(k, 256, 256)) big = &k;
    if (!rest && eight(k, 128, 256)) rest = &k;
  }
  if (!big || !rest) return {&one, 0};
  const hipasm::kernels::gemm_quant_config &bc = big->config, &rc = rest->config;
  const uint32_t rows = hipasm::kernels::detail::gemm_balanced_rows(bc.bm, bc.bn, rc.bm, rc.bn, s.m, s.n, target_cus);
  if (rows >= s.m) return {&one, 0};
  auto cost = [&](const hipasm::kernels::gemm_quant_config& c, uint32_t m) {
    return (uint64_t(c.grid_x(s.n)) * c.grid_y(m) + target_cus - 1) / target_cus * c.bm * c.bn;
  };
  const uint64_t balanced = (rows ? cost(bc, rows) : 0) + cost(rc, s.m - rows);
  if (balanced > cost(one.config, s.m)) return {&one, 0};
  return {big, 0, rest};
}
inline quant_pick pick_mi355x(const std::vector<hipasm::kernels::gemm_quant_kernel_ref>& ks, const quant_shape& s) {
  const hipasm::kernels::quant_scale scale = s.scale.value_or(hipasm::kernels::quant_scale::per_token);
  auto tiles = [&](const hipasm::kernels::gemm_quant_config& c) { return uint64_t(c.grid_x(s.n)) * c.grid_y(s.m); };
  auto area = [](const hipasm::kernels::gemm_quant_config& c) { return c.bm * c.bn; };
  // the 4-wave 64x64 tile: its four waves share each A and B load
  auto quad64 = [](const hipasm::kernels::gemm_quant_config& c) { return c.bm == 64 && c.bn == 64 && c.threads() == 256; };
  auto split_of = [&](const hipasm::kernels::gemm_quant_kernel_ref& k) -> const hipasm::kernels::gemm_quant_kernel_ref* {
    for (const auto& o : ks)
      if (o.name == k.name + "_split") return &o;
    return nullptr;
  };
  for (const auto& k : ks)  // (persistent: two tiles a workgroup or more, the next tile's loads under the last steps)
    if (k.config.scale == scale && k.config.agpr_acc && k.config.groups > 0 && tiles(k.config) >= 2 * uint64_t(target_cus))
      return {&k, 1};
  for (const auto& k : ks)
    if (k.config.scale == scale && k.config.agpr_acc && k.config.groups == 0 && !k.config.split_k &&
        tiles(k.config) >= target_cus)
      return {&k, 1};
  const uint32_t blocks = (s.k + 127) / 128;
  for (const auto& k : ks)
    if (k.config.scale == scale && !k.config.split_k && !k.config.agpr_acc && k.config.threads() == 64 && split_of(k) &&
        8 * tiles(k.config) <= 3 * uint64_t(target_cus)) {
      uint32_t n = blocks / 8;
      while (n > 1 && blocks % n != 0) --n;
      if (n >= 2) return {&k, n};
    }
  const hipasm::kernels::gemm_quant_kernel_ref* smallest = nullptr;
  for (const auto& k : ks)
    if (k.config.scale == scale && !k.config.split_k && !k.config.agpr_acc && k.config.threads() > 64 && split_of(k) &&
        (!smallest || area(k.config) < area(smallest->config)))
      smallest = &k;
  if (smallest) {
    const hipasm::kernels::gemm_quant_config& c = split_of(*smallest)->config;
    const uint64_t t = tiles(c), slots = uint64_t(target_cus) * (2 * c.lds_bytes() <= 160 * 1024 ? 2 : 1);
    uint64_t n = std::min<uint64_t>(slots / t, (s.k + 127) / 128 / 8);
    if (n >= 3 && 4 * t * n >= 3 * slots && 4.0 * s.m * s.n * n <= 4.5e6) {
      // (its grid half the CUs or more: the 4-wave 64x64 tile, one workgroup a CU)
      if (2 * t >= target_cus)
        for (const auto& k : ks)
          if (k.config.scale == scale && !k.config.split_k && !k.config.agpr_acc && quad64(k.config) && split_of(k) &&
              target_cus / tiles(k.config) >= 2)
            return {&k, uint32_t(target_cus / tiles(k.config))};
      return {smallest, uint32_t(n)};
    }
  }
  const hipasm::kernels::gemm_quant_kernel_ref* best = nullptr;
  uint64_t best_w = 0;
  uint32_t best_s = 1;
  for (const auto& k : ks) {
    if (k.config.scale != scale || k.config.split_k || k.config.agpr_acc) continue;
    const uint64_t t = tiles(k.config);
    const uint64_t n = split_of(k) ? std::max<uint64_t>(1, std::min<uint64_t>(target_cus / t, (s.k + 127) / 128 / 8)) : 1;
    const uint64_t w = t * n;
    if (w > target_cus || 2 * w < target_cus) continue;
    if (quad64(k.config)) return {&k, uint32_t(n)};
    if (!best || w > best_w || (w == best_w && area(k.config) > area(best->config))) best = &k, best_w = w, best_s = uint32_t(n);
  }
  if (best) return {best, best_s};
  // (several rounds: the largest tile giving half the CUs a workgroup; else the smallest)
  const hipasm::kernels::gemm_quant_kernel_ref* large = nullptr;
  for (const auto& k : ks) {
    if (k.config.scale != scale || k.config.split_k || k.config.agpr_acc) continue;
    if (2 * tiles(k.config) >= target_cus && (!large || area(k.config) > area(large->config))) large = &k;
  }
  const hipasm::kernels::gemm_quant_kernel_ref* k = large ? large : smallest ? smallest : &pick_quant(ks, s);
  const hipasm::kernels::gemm_quant_kernel_ref* sp = k->config.split_k ? k : split_of(*k);
  return {k, sp ? quant_splits_mi355x(sp->config, s) : 1};
}

// Our kernel `k` (its split-K variant `split`, `splits` splits or 0: launch_gemm_quant's pick)
// on shape `s` in `dev` (the benchmark's: a fresh_device): buffers A, B, SA, SB, C, then the
// code object `co`.
inline rt::launch_report run_quant_ours(rt::device& dev, const char* co, const hipasm::kernels::gemm_quant_kernel_ref& k,
                                        const hipasm::kernels::gemm_quant_kernel_ref* split, uint32_t splits, const quant_shape& s,
                                        const rt::launch_options& lo,
                                        const hipasm::kernels::gemm_quant_kernel_ref* rest = nullptr) {
  rt::buffer<uint8_t> A(dev, size_t(s.m) * s.k), B(dev, size_t(s.n) * s.k);
  rt::buffer<float> SA(dev, hipasm::kernels::gemm_quant_sa_count(k.config, s.m, s.k)),
      SB(dev, hipasm::kernels::gemm_quant_sb_count(k.config, s.n, s.k));
  rt::buffer<uint16_t> C(dev, size_t(s.m) * s.n);
  auto mod = dev.load_file(co);
  if (rest)
    return hipasm::kernels::launch_gemm_quant_balanced(dev, *mod, k, *rest, C.addr(), A.addr(), B.addr(), SA.addr(),
                                                       SB.addr(), s.m, s.n, s.k, target_cus, lo);
  return hipasm::kernels::launch_gemm_quant(dev, *mod, k, C.addr(), A.addr(), B.addr(), SA.addr(), SB.addr(), s.m, s.n, s.k,
                                   nullptr, split, splits, 0, lo);
}

// One row's figures (what the placement test compares across runs).
struct quant_row {
  std::string shape;
  double hipasm_us = 0, aiter_us = 0;  // aiter_us 0: not run
};

// Runs and prints the rows of `shapes` (those HIPASM_BENCH_SHAPE selects): our pick from `ours`
// (code object `co`) and aiter's kernel of the row from the checkout `root` (empty: none).
inline std::vector<quant_row> quant_rows(const char* kernel, aiter_asm::Family family, const char* co,
                                         const std::filesystem::path& root,
                                         const std::vector<hipasm::kernels::gemm_quant_kernel_ref>& ours,
                                         const std::vector<quant_shape>& shapes) {
  std::map<std::string, aiter_asm::Kernel> aks;
  if (!root.empty()) {
    aks = aiter_asm::kernel_list(root, aiter_asm::family(family), target_gfx950 ? "gfx950" : "gfx942");
    if (aks.empty()) std::fprintf(stderr, "%s: no aiter kernel list under %s: aiter skipped\n", kernel, root.c_str());
  }
  std::vector<quant_row> rows;
  for (quant_shape s : shapes) {
    // rows of another scale kind than the bench's own (aiter's family: fp8 block scales, int8
    // per-token) name theirs: gemm_fp8_token, gemm_fp8_tensor
    const hipasm::kernels::quant_scale own =
        family == aiter_asm::Family::fp8bs ? hipasm::kernels::quant_scale::block128 : hipasm::kernels::quant_scale::per_token;
    if (!s.scale) s.scale = own;
    const std::string shape = std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
    if (!selected(shape)) continue;
    const std::string label = std::string(kernel) + (s.scale == own ? ""
                                                     : s.scale == hipasm::kernels::quant_scale::per_token ? "_token"
                                                     : s.scale == hipasm::kernels::quant_scale::per_tensor ? "_tensor"
                                                                                                           : "_block");
    const double flop = 2.0 * s.m * s.n * s.k;
    rt::profile_options po;
    po.device = target_device;
    if (flop > double(1ull << 32)) po.sample_cus = 16;
    const char* tl = std::getenv("HIPASM_BENCH_TIMELINE");
    if (tl) po.keep_events = true;
    rt::launch_options lo;
    lo.profile = &po;
    lo.check = false;  // (the tests run the checker; here only the time matters)
    const quant_pick picked = target_gfx950 ? pick_mi355x(ours, s) : pick_mi300x(ours, s);
    const hipasm::kernels::gemm_quant_kernel_ref* kp = picked.kernel;
    bool forced_kernel = false;
    if (const char* forced = std::getenv("GEMM_QUANT_BENCH_KERNEL"))  // run this configuration instead (rows of its scales)
      for (const auto& o : ours)
        if (o.name == forced && o.config.scale == *s.scale) kp = &o, forced_kernel = true;
    const hipasm::kernels::gemm_quant_kernel_ref& k = *kp;
    const hipasm::kernels::gemm_quant_kernel_ref* split = nullptr;  // k's split-K variant
    for (const auto& o : ours)
      if (o.name == k.name + "_split") split = &o;
    const char* forced_splits = std::getenv("GEMM_QUANT_BENCH_SPLITS");
    const uint32_t splits = forced_splits ? uint32_t(std::atoi(forced_splits)) : 0;
    const hipasm::kernels::gemm_quant_kernel_ref* sk = k.config.split_k ? &k : split;
    const uint32_t used_splits = splits ? splits
                                 : !sk ? 1
                                 : target_gfx950 && !forced_kernel ? picked.splits
                                 : target_gfx950 ? quant_splits_mi355x(sk->config, s)
                                                 : hipasm::kernels::gemm_quant_splits(sk->config, s.m, s.n, s.k, target_cus);
    // (the split the launch picks for the bench's device's CUs)
    // A split-K run's last arrival per tile sums the others' parts: profiled whole (a sample
    // would leave out splits it waits for) and on one thread (the recorded arrival order is then
    // the workgroups' id order; docs/timing-model.md, Workgroups that wait for each other).
    rt::profile_options split_po = po;
    rt::launch_options ours_lo = lo;
    if (sk && used_splits > 1) {
      split_po.sample_cus = 0;
      ours_lo.profile = &split_po;
      ours_lo.threads = 1;
    }
    const hipasm::kernels::gemm_quant_kernel_ref* rest = forced_kernel ? nullptr : picked.rest;
    if (const char* e = std::getenv("GEMM_QUANT_BENCH_REST"))
      for (const auto& o : ours)
        if (o.name == e && o.config.scale == *s.scale) rest = &o;
    const rt::launch_report hrep = run_quant_ours(*fresh_device(), co, k, split, sk ? used_splits : splits, s, ours_lo, rest);
    if (tl && *tl != 'a') std::fprintf(stderr, "%s", hrep.profile->timeline(uint32_t(std::atoi(tl))).c_str());
    const result h = from(hrep);
    double aiter_us = 0;
    std::string forced_aiter;
    if (const char* e = std::getenv("GEMM_QUANT_BENCH_AITER")) {
      forced_aiter = e;
      const size_t colon = forced_aiter.find(':');
      s.aiter_splitk = colon == std::string::npos ? 1 : std::atoi(forced_aiter.c_str() + colon + 1);
      if (colon != std::string::npos) forced_aiter.resize(colon);
      s.aiter_kernel = forced_aiter.c_str();
      if (!aks.empty() && !aks.count(s.aiter_kernel)) {
        std::fprintf(stderr, "%s: GEMM_QUANT_BENCH_AITER: no aiter kernel %s\n", kernel, s.aiter_kernel);
        std::exit(2);
      }
    }
    if (s.aiter_kernel && aks.count(s.aiter_kernel)) {
      aiter_asm::Problem p;
      p.M = int(s.m), p.N = int(s.n), p.K = int(s.k), p.ks = s.aiter_splitk;
      p.ocp = target_gfx950;  // (gfx950's fp8 is OCP e4m3fn)
      const rt::launch_report arep = aiter_asm::run_kernel(*fresh_device(), root, family, s.aiter_kernel,
                                                           aks.at(s.aiter_kernel), p, lo, target_gfx950 ? "gfx950" : "gfx942");
      if (tl && *tl == 'a') std::fprintf(stderr, "%s", arep.profile->timeline(uint32_t(std::atoi(tl + 1))).c_str());
      if (const char* e = std::getenv("HIPASM_BENCH_REPORT"); e && *e == '1')
        std::fprintf(stderr, "aiter %s\n", arep.profile->report().c_str());
      aiter_us = arep.profile->time_us;
    }
    // traffic: A, B once, C in bf16 (the scales are small)
    std::fprintf(stderr, "%s %s: %s%s%s, split %u; aiter split %d\n", label.c_str(), shape.c_str(),
                 used_splits > 1 || k.config.split_k ? sk->name.c_str() : k.name.c_str(), rest ? " + " : "",
                 rest ? rest->name.c_str() : "", used_splits, s.aiter_splitk);
    print_line(label.c_str(), shape, h, aiter_us, double(s.m) * s.k + double(s.n) * s.k + 2.0 * s.m * s.n, false, row_device);
    rows.push_back({shape, h.us, aiter_us});
  }
  return rows;
}

inline int run_quant_bench(int argc, char** argv, const char* kernel, aiter_asm::Family family, const char* co,
                           const std::vector<hipasm::kernels::gemm_quant_kernel_ref>& ours, const std::vector<quant_shape>& shapes) {
  if (argc > 2) {
    std::fprintf(stderr, "usage: %s [AITER_DIR]\n", argv[0]);
    return 2;
  }
  quant_rows(kernel, family, co, argc == 2 ? argv[1] : "", ours, shapes);
  return 0;
}

}  // namespace bench

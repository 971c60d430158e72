// Shared by the bench_kernel_* programs: a profiled launch and the result line.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include <hipasm/rt/profile.hpp>  // the launcher, with the profile's types

namespace bench {
namespace rt = hipasm::rt;

// The device a bench's code objects are timed on: its target's (a bench built for gfx950 with
// HIPASM_TARGET_GFX950: the MI355X model; else MI300X), its CUs and one XCD's; `row_device` is
// print_line's device (null for MI300X, the table's default).
#if defined(HIPASM_TARGET_GFX950) && HIPASM_TARGET_GFX950
inline constexpr bool target_gfx950 = true;
inline constexpr const char* target_device = "mi355x";
inline constexpr const char* row_device = "mi355x";
inline constexpr uint32_t target_cus = 256, target_xcd_cus = 32;
#else
inline constexpr bool target_gfx950 = false;
inline constexpr const char* target_device = "mi300x";
inline constexpr const char* row_device = nullptr;
inline constexpr uint32_t target_cus = 304, target_xcd_cus = 38;
#endif

// Profile options for a grid of `groups` identical workgroups: large grids are sampled on 8
// CUs of one XCD (docs/timing-model.md, Sampling: 0.1% from a full run on a stream kernel).
// `device`: mi300x (gfx942 code objects) or mi355x (gfx950's).
inline rt::profile_options profile_for(uint32_t groups, const char* device = "mi300x") {
  rt::profile_options p;
  p.device = device;
  if (groups > 8 * 304) p.sample_cus = 8;
  return p;
}

// A simulated device of its own for one side of a comparison (ours or aiter's kernel, one row).
// The timing model places lines in the L1/L2/Infinity Cache sets and L2 channels by address, and
// the simulator's allocator never reuses an address, so in a shared device a kernel's buffers
// (and its time: up to 7% for aiter's fp8 4096x3072x7168) moved with everything allocated before
// them: the other kernel's buffers, its code object, earlier rows. The convention: open one per
// run, allocate the run's buffers first (they start at the allocator's fixed base, in the order
// allocated, each 4 KiB-aligned as in every device), then load the code object (its image comes
// after them, so its size moves only the launch's own kernarg and packet, not the buffers).
inline std::unique_ptr<rt::device> fresh_device() { return rt::device::open(rt::backend::sim); }

// HIPASM_BENCH_SHAPE=TEXT: run only the shapes whose name contains TEXT.
inline bool selected(const std::string& shape) {
  const char* e = std::getenv("HIPASM_BENCH_SHAPE");
  return !e || shape.find(e) != std::string::npos;
}

struct result {
  double us = 0, tflops = 0, mfma_busy = 0;
  double hbm_bytes = 0;  // what the model's caches let through to HBM (reads, write-backs)
};
inline result from(const rt::launch_report& rep) {
  if (!rep.diagnostics.empty()) {
    std::fprintf(stderr, "checker: %s\n", rep.diagnostics.front().c_str());
    std::exit(1);
  }
  // HIPASM_BENCH_REPORT=1: the timing model's full report (occupancy, stalls, hot spots) on stderr
  if (const char* e = std::getenv("HIPASM_BENCH_REPORT"); e && *e == '1')
    std::fprintf(stderr, "%s\n", rep.profile->report().c_str());
  return {rep.profile->time_us, rep.profile->tflops, rep.profile->mfma_busy, double(rep.profile->hbm_bytes)};
}

// The timing model's streaming HBM bandwidth on MI300X (sim/src/timing/device.hpp,
// hbm_achievable_gbytes_per_s; the 5.3 TB/s spec sheet figure is not reachable there), and on
// MI355X (its 8 TB/s scaled by the same fraction).
inline constexpr double model_hbm_gbps = 4000;
inline constexpr double model_hbm_gbps_mi355x = 8000.0 * 4000 / 5300;

// One line; `bytes` is the data the operation must move (its algorithmic traffic: gbps, what it
// requests), `aiter_us` <= 0: none. hbm_gbps is what reaches HBM in the model (cache hits are not
// HBM traffic, write-backs are), the figure to hold against the device's bandwidth.
// hbm_pct: hbm_gbps as a percentage of model_hbm_gbps, appended to the line. A row of another
// device than MI300X (`device` mi355x) appends device=NAME and takes that device's bandwidth.
// `extra`: more KEY=VALUE fields appended to the line.
inline void print_line(const char* kernel, const std::string& shape, const result& h, double aiter_us, double bytes,
                       bool hbm_pct = false, const char* device = nullptr, const std::string& extra = {}) {
  char aiter[32] = "none", ratio[32] = "none";
  if (aiter_us > 0) {
    std::snprintf(aiter, sizeof aiter, "%.2f", aiter_us);
    std::snprintf(ratio, sizeof ratio, "%.3f", aiter_us / h.us);
  }
  const double gbps = bytes / (h.us * 1e3), hbm_gbps = h.hbm_bytes / (h.us * 1e3);
  std::printf("kernel=%s shape=%s hipasm_us=%.2f aiter_us=%s ratio=%s tflops=%.3f gbps=%.0f hbm_gbps=%.0f mfma_busy=%.3f",
              kernel, shape.c_str(), h.us, aiter, ratio, h.tflops, gbps, hbm_gbps, h.mfma_busy);
  const bool mi355x = device && std::string(device) == "mi355x";
  if (hbm_pct) std::printf(" hbm_pct=%.1f", 100.0 * hbm_gbps / (mi355x ? model_hbm_gbps_mi355x : model_hbm_gbps));
  if (device) std::printf(" device=%s", device);
  if (!extra.empty()) std::printf(" %s", extra.c_str());
  std::printf("\n");
  std::fflush(stdout);
}
}  // namespace bench

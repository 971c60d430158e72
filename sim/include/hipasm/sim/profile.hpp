// Timing mode of the simulator: a cycle-approximate MI300-class model fed by the same execution
// as a normal launch (docs/timing-model.md). Ask for it with the runtime's
// launch_options::profile (<hipasm/rt/profile.hpp> names these types in hipasm::rt); the
// launch's report then carries a profile with the predicted cycles, rates, occupancy, stall
// breakdown, hot spots and (on request) every wave's schedule. Timing never changes results:
// the kernel's outputs are those of a plain launch.
#pragma once
#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace hipasm::sim {

// Why a wave did not issue its next instruction as soon as its SIMD's turn came round.
enum class stall_reason : uint8_t {
  vmcnt,             // s_waitcnt on vector-memory results
  lgkmcnt,           // s_waitcnt on LDS / scalar-memory results
  expcnt,            // s_waitcnt expcnt (exports/GDS; nothing on compute kernels)
  register_dep,      // a VALU/SALU result not written yet (VALU, transcendental, SALU latency)
  mfma_dep,          // an MFMA result not written yet, or this wave's earlier MFMA in the pipe
  unit_busy,         // this wave's own long VALU op (transcendental, DGEMM) holds the VALU
  barrier,           // s_barrier: waiting for the rest of the workgroup
  nop_sleep,         // s_nop wait states, s_sleep
  issue_conflict,    // ready, but another wave of the SIMD took the issue slot or the unit
  lds_bank_conflict, // the part of an lgkmcnt wait caused by LDS bank-conflict cycles
  count
};
inline constexpr size_t kStallReasons = size_t(stall_reason::count);
const char* stall_reason_name(stall_reason r);  // "vmcnt", "lgkmcnt", ... (the JSON keys)

// The classes of arithmetic a device has a peak for (docs/timing-model.md, Report): MFMAs by
// input type, and the VALU's f32 operations.
enum class peak_dtype : uint8_t { f64, f32, xf32, f16, fp8, fp6_fp4, valu_f32, count };
inline constexpr size_t kPeakDtypes = size_t(peak_dtype::count);
// "f64 matrix", "f32 matrix", "xf32 matrix", "bf16/f16 matrix", "fp8/int8 matrix",
// "fp6/fp4 matrix", "f32 vector"
const char* peak_dtype_name(peak_dtype t);

// What timing mode models (the runtime's launch_options::profile, its profile_options, carries
// the same fields).
struct profile_options {
  std::string device = "mi300x";  // mi300x | mi308x | mi325x (gfx942), mi355x | mi350x (gfx950): profile_devices()
  double clock_mhz = 0;           // 0: estimated from the kernel's MFMA density (timing-model.md)
  bool keep_events = false;       // record every instruction's slice (trace, timeline)
  std::string asm_source;         // optional .s of the kernel: hot spots show its "; file:line"
  // 0: the whole grid. N: run only the workgroups N CUs of one XCD would get (the first
  // ceil(groups * N / CUs)) on an N-CU slice with HBM bandwidth and L2 apportioned, and
  // extrapolate rates to the device (outputs then cover only those workgroups).
  uint32_t sample_cus = 0;
};

// One issued instruction of one wave (kept with keep_events).
struct profile_event {
  uint32_t wave = 0;          // index into profile::waves
  uint32_t inst = 0;          // index into profile::insts
  uint64_t ready = 0;         // when the wave could first have issued it (its SIMD turn)
  uint64_t issue = 0;         // issue cycle; issue - ready cycles stalled for `reason`
  uint64_t done = 0;          // result written / unit released (memory: data returned)
  stall_reason reason = stall_reason::count;  // count = no stall
  uint32_t bytes = 0;         // memory: bytes the lanes moved
  enum unit_kind : uint8_t { other, valu, mfma, lds, vmem, smem } unit = other;
};

struct profile_wave {
  uint32_t workgroup = 0, wave_in_group = 0, xcd = 0, cu = 0, simd = 0, slot = 0;
  uint64_t start = 0, end = 0;  // cycles
  uint64_t instructions = 0;
};

// Per static instruction: the hot-spot table.
struct profile_inst {
  uint64_t pc = 0;
  std::string text;    // LLVM-syntax asm
  std::string source;  // "file.cpp:123" from the kernel's asm comments, when given
  uint64_t issued = 0;
  uint64_t stall_cycles = 0;
  std::array<uint64_t, kStallReasons> stalls{};
};

// One phase of a dispatch for the clock (docs/timing-model.md, Clock and power): a window of the
// schedule, the device-wide activity in it and the clock the power model gives it.
struct clock_phase {
  uint64_t start = 0, end = 0;  // cycles
  double active_cus = 0;        // fraction of the device's CUs holding a workgroup
  double mfma = 0, valu = 0;    // matrix-core / VALU busy fraction of all the device's SIMD-cycles
  double mfma_int = 0;          // the part of mfma spent on integer (i8) MFMAs
  double hbm = 0;               // fraction of the achievable HBM bandwidth used
  double power = 0;             // power at the peak clock relative to the device's limit
  double clock_mhz = 0;
};

struct profile {
  std::string device, kernel;
  uint32_t cus = 0, xcds = 0;
  double clock_mhz = 0, peak_clock_mhz = 0, sustained_clock_mhz = 0;
  bool clock_estimated = false;  // clock_mhz estimated from MFMA density (no clock given)
  uint64_t cycles = 0;           // at clock_mhz (HBM bytes per cycle depend on the clock)
  uint64_t cycles_at_peak = 0, cycles_at_sustained = 0;  // the same with HBM at those clocks
  double time_us = 0, time_us_peak = 0, time_us_sustained = 0;  // schedule + dispatch overhead
  double dispatch_overhead_us = 0;  // the device's fixed launch/teardown time included in time_us*
  double flops = 0, tflops = 0;  // MFMA + VALU floating-point / integer-matrix operations
  std::array<double, kPeakDtypes> flops_by_dtype{};  // the same, by peak class
  // The kernel's dtype (the class with the most operations), the device's peak for it at the
  // peak clock (TFLOP/s, or TOP/s for int8) and tflops as a share of it; peak 0: no operations,
  // or a class the device has no peak for.
  peak_dtype dtype = peak_dtype::count;
  double peak_tflops = 0, peak_share = 0;
  // What bounds the kernel, from the counters below: "matrix cores", "VALU", "issue", "LDS
  // bandwidth", "L1 (vector memory) bandwidth", "L2 bandwidth", "Infinity Cache bandwidth",
  // "HBM bandwidth" (the busiest, when at least half busy), else "latency: <what the waves
  // waited for most>", or "dispatch overhead" when that is most of the time.
  std::string bound;
  double bound_utilization = 0;  // the bounding unit's busy fraction (latency: the busiest unit's)
  double issue_fraction = 0;     // wave-instructions x issue interval / SIMD-cycles of the CUs in use
  double l2_bw_fraction = 0;     // L2 line lookups x line bytes / the channels' bytes in the time
  double mall_bw_fraction = 0;   // Infinity Cache hits x line bytes / its bandwidth in the time
  double hbm_bw_fraction = 0;    // HBM bytes / the achievable HBM rate (what the model streams at)
  double hbm_achievable_gbps = 0;  // that rate (the device's; the data sheet's peak is higher)
  uint64_t hbm_bytes = 0;
  double hbm_gbps = 0;
  uint32_t waves_per_simd = 0;   // occupancy the resources allow
  std::string occupancy_limiter; // "wave slots", "VGPR+AGPR", "SGPR", "LDS", "workgroup size"
  uint32_t workgroups = 0, waves = 0;
  uint32_t sample_cus = 0;          // sampled: CUs of the modelled slice (0: the whole device)
  uint64_t sampled_workgroups = 0;  // sampled: workgroups executed and scheduled
  double mfma_busy = 0, valu_busy = 0;  // fraction of (SIMDs x cycles) of the CUs in use
  uint32_t cus_used = 0;
  uint64_t lds_bytes = 0, vmem_bytes = 0;
  double lds_bw_fraction = 0, vmem_bw_fraction = 0;  // of the CUs-in-use peak
  uint64_t l1_hits = 0, l1_misses = 0, l2_hits = 0, l2_misses = 0;
  uint64_t mall_hits = 0, mall_misses = 0;  // Infinity Cache lookups of L2 read misses
  uint64_t wave_instructions = 0;
  // Cross-workgroup waits (docs/timing-model.md, Workgroups that wait for each other) the model's
  // order could not meet and dropped: nonzero, the recording's order differs (run on one thread).
  uint64_t sync_waits_waived = 0;
  std::array<uint64_t, kStallReasons> stalls{};  // wave-cycles by reason
  std::vector<profile_inst> insts;      // in address order
  std::vector<profile_wave> waves_info;
  std::vector<profile_event> events;    // keep_events only, in issue order
  // The clock over time (estimated clock: one phase per window of the schedule; a given clock:
  // one phase). time_us = the phases' cycles at their clocks + the dispatch overhead.
  std::vector<clock_phase> clock_phases;
  double us_at_cycle(uint64_t cycle) const;  // time from the start of the schedule (no overhead)

  std::string report() const;             // the human-readable report
  std::string json() const;               // one JSON object
  void write_trace(std::FILE* out) const; // Chrome trace-event JSON (Perfetto); needs events
  std::string timeline(uint32_t wave) const;  // one wave's schedule as text; needs events
};

std::vector<std::string> profile_devices();

}  // namespace hipasm::sim

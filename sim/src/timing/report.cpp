// A profile's outputs: the text report, JSON, the Chrome trace-event file (Perfetto) and a
// wave's timeline; plus the asm-listing reader that gives hot spots their "file:line".
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <fstream>
#include <map>
#include <numeric>

#include "timing.hpp"

namespace hipasm::sim {

const char* stall_reason_name(stall_reason r) {
  static constexpr const char* kNames[] = {"vmcnt",   "lgkmcnt",   "expcnt",    "register_dependency",
                                           "mfma_dependency", "unit_busy", "barrier", "nop_sleep",
                                           "issue_conflict", "lds_bank_conflict"};
  return size_t(r) < kStallReasons ? kNames[size_t(r)] : "none";
}

const char* peak_dtype_name(peak_dtype t) {
  static constexpr const char* kNames[] = {"f64 matrix",      "f32 matrix",      "xf32 matrix", "bf16/f16 matrix",
                                           "fp8/int8 matrix", "fp6/fp4 matrix", "f32 vector"};
  return size_t(t) < kPeakDtypes ? kNames[size_t(t)] : "none";
}

std::vector<std::string> profile_devices() {
  std::vector<std::string> v;
  for (const auto& d : sim::timing::kDevices) v.emplace_back(d.name);
  return v;
}

namespace {

std::string fmt(const char* f, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

std::string json_string(std::string_view s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') { o += '\\'; o += c; }
    else if (static_cast<unsigned char>(c) < 0x20) o += fmt("\\u%04x", c);
    else o += c;
  }
  return o + "\"";
}

std::string num(double v) {
  if (!std::isfinite(v)) return "0";
  return fmt("%.6g", v);
}

std::string mnemonic_of(const std::string& text) { return text.substr(0, text.find(' ')); }

}  // namespace

}  // namespace hipasm::sim

namespace hipasm::sim::timing {

void summarize_bound(sim::profile& p, const DeviceSpec& dev) {
  // The kernel's dtype: the class with the most operations.
  p.dtype = sim::peak_dtype::count;
  double most = 0;
  for (size_t i = 0; i < sim::kPeakDtypes; ++i)
    if (p.flops_by_dtype[i] > most) most = p.flops_by_dtype[i], p.dtype = sim::peak_dtype(i);
  const double per_clk = p.dtype == sim::peak_dtype::count ? 0 : dev.peak_ops_per_clk_cu[size_t(p.dtype)];
  p.peak_tflops = per_clk * double(dev.cus()) * dev.peak_mhz * 1e6 / 1e12;
  p.peak_share = p.peak_tflops > 0 ? p.tflops / p.peak_tflops : 0;
  p.hbm_achievable_gbps = dev.hbm_achievable_gbytes_per_s;
  // The busiest unit or level, from the schedule's counters (docs/timing-model.md, Report).
  const std::pair<const char*, double> units[] = {
      {"matrix cores", p.mfma_busy},
      {"VALU", p.valu_busy},
      {"issue", p.issue_fraction},
      {"LDS bandwidth", p.lds_bw_fraction},
      {"L1 (vector memory) bandwidth", p.vmem_bw_fraction},
      {"L2 bandwidth", p.l2_bw_fraction},
      {"Infinity Cache bandwidth", p.mall_bw_fraction},
      {"HBM bandwidth", p.hbm_bw_fraction},
  };
  const auto* top = &units[0];
  for (const auto& u : units)
    if (u.second > top->second) top = &u;
  p.bound_utilization = top->second;
  if (p.time_us > 0 && p.dispatch_overhead_us >= 0.5 * p.time_us) {
    p.bound = "dispatch overhead";
  } else if (top->second >= 0.5) {
    p.bound = top->first;
  } else {
    // No unit at least half busy: the waves mostly wait. Name what they waited for most.
    size_t r = 0;
    for (size_t i = 1; i < sim::kStallReasons; ++i)
      if (p.stalls[i] > p.stalls[r]) r = i;
    static constexpr const char* kWhat[] = {
        "vector memory (vmcnt)",   "LDS / scalar memory (lgkmcnt)", "expcnt",
        "VALU / SALU results",      "MFMA results",                  "the wave's own long VALU ops",
        "barriers",                 "s_nop / s_sleep",               "issue slots taken by other waves",
        "LDS bank conflicts"};
    p.bound = p.stalls[r] ? std::string("latency: waits on ") + kWhat[r] : "latency";
  }
}

}  // namespace hipasm::sim::timing

namespace hipasm::sim {

std::string profile::report() const {
  std::string o;
  o += fmt("hipasm-sim profile: %s on %s (%u CUs in %u XCDs)\n", kernel.c_str(), device.c_str(), cus, xcds);
  o += fmt("  cycles       %" PRIu64 " at %.0f MHz on average (%s)\n", cycles, clock_mhz,
           clock_estimated ? "clock per phase from the device's power" : "clock given");
  o += fmt("  time         %.3f us at %.0f MHz; %.3f us at the %.0f MHz peak clock, %.3f us at the %.0f MHz "
           "sustained GEMM clock (%" PRIu64 " and %" PRIu64 " cycles)\n",
           time_us, clock_mhz, time_us_peak, peak_clock_mhz, time_us_sustained, sustained_clock_mhz, cycles_at_peak,
           cycles_at_sustained);
  if (dispatch_overhead_us > 0)
    o += fmt("               (times include the device's %.2f us dispatch overhead)\n", dispatch_overhead_us);
  if (clock_estimated && !clock_phases.empty()) {
    // The clock over time and what set it: the phases at the lowest clock and their activity.
    double lo = clock_phases.front().clock_mhz, hi = lo;
    for (const auto& ph : clock_phases) lo = std::min(lo, ph.clock_mhz), hi = std::max(hi, ph.clock_mhz);
    std::vector<clock_phase> at_lo;
    for (const auto& ph : clock_phases)
      if (ph.clock_mhz == lo) at_lo.push_back(ph);
    const clock_phase m = hipasm::sim::timing::merged_phase(at_lo);
    o += fmt("  clock        %zu phases, %.0f-%.0f MHz; at %.0f MHz: CUs active %.0f%%, MFMA %.0f%%, VALU %.0f%%, "
             "HBM %.0f%% -> power %.2f x the limit at the peak clock\n",
             clock_phases.size(), lo, hi, lo, 100 * m.active_cus, 100 * m.mfma, 100 * m.valu, 100 * m.hbm, m.power);
  }
  o += fmt("  throughput   %.1f TFLOP/s, HBM %.1f GB/s (%" PRIu64 " bytes)\n", tflops, hbm_gbps, hbm_bytes);
  if (peak_tflops > 0)
    o += fmt("  of peak      %.1f%% of the %s peak of %s (%.1f TFLOP/s at %.0f MHz on %u CUs)\n", 100 * peak_share,
             peak_dtype_name(dtype), device.c_str(), peak_tflops, peak_clock_mhz, cus);
  const std::string why = bound == "dispatch overhead" ? fmt("%.2f of the %.2f us", dispatch_overhead_us, time_us)
                          : bound.rfind("latency", 0) == 0 ? fmt("the busiest unit %.0f%% busy", 100 * bound_utilization)
                                                           : fmt("%.0f%% busy", 100 * bound_utilization);
  o += fmt("  bound        %s (%s); matrix %.0f%%, VALU %.0f%%, issue %.0f%%, LDS %.0f%%, L1 %.0f%%, "
           "L2 %.0f%%, Infinity Cache %.0f%%, HBM %.0f%% of the achievable %.0f GB/s\n",
           bound.c_str(), why.c_str(), 100 * mfma_busy, 100 * valu_busy, 100 * issue_fraction,
           100 * lds_bw_fraction, 100 * vmem_bw_fraction, 100 * l2_bw_fraction, 100 * mall_bw_fraction,
           100 * hbm_bw_fraction, hbm_achievable_gbps);
  if (sample_cus)
    o += fmt("  sampled      %" PRIu64 " of %u workgroups on a %u-CU slice (HBM and L2 apportioned); rates extrapolated\n",
             sampled_workgroups, workgroups, sample_cus);
  if (sync_waits_waived)
    o += fmt("  note         %" PRIu64 " waits for other workgroups' atomics could not be met in the model's order and "
             "were dropped (run the kernel on one thread)\n", sync_waits_waived);
  o += fmt("  occupancy    %u waves per SIMD (limited by %s); %u workgroups, %u waves, on %u CUs\n",
           waves_per_simd, occupancy_limiter.c_str(), workgroups, waves, cus_used);
  o += fmt("  busy         MFMA %.1f%%, VALU %.1f%% of the SIMD-cycles of the CUs in use\n", 100 * mfma_busy,
           100 * valu_busy);
  o += fmt("  bandwidth    LDS %" PRIu64 " bytes = %.1f%% of peak; VMEM %" PRIu64 " bytes = %.1f%% of peak\n",
           lds_bytes, 100 * lds_bw_fraction, vmem_bytes, 100 * vmem_bw_fraction);
  auto rate = [](uint64_t h, uint64_t m) { return h + m ? 100.0 * double(h) / double(h + m) : 0.0; };
  o += fmt("  caches       L1 hits %.1f%% (%" PRIu64 " of %" PRIu64 " lines), L2 hits %.1f%% (%" PRIu64 " of %" PRIu64
           "), Infinity Cache hits %.1f%% (%" PRIu64 " of %" PRIu64 ")\n",
           rate(l1_hits, l1_misses), l1_hits, l1_hits + l1_misses, rate(l2_hits, l2_misses), l2_hits,
           l2_hits + l2_misses, rate(mall_hits, mall_misses), mall_hits, mall_hits + mall_misses);
  const uint64_t total = std::accumulate(stalls.begin(), stalls.end(), uint64_t{0});
  o += fmt("  stalls       %" PRIu64 " wave-cycles over %" PRIu64 " wave-instructions\n", total, wave_instructions);
  for (size_t i = 0; i < kStallReasons; ++i)
    if (stalls[i])
      o += fmt("    %-20s %12" PRIu64 "  %5.1f%%\n", stall_reason_name(stall_reason(i)), stalls[i],
               100.0 * double(stalls[i]) / double(std::max<uint64_t>(total, 1)));
  std::vector<size_t> order;
  for (size_t i = 0; i < insts.size(); ++i)
    if (insts[i].issued) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return insts[a].stall_cycles + insts[a].issued * 4 > insts[b].stall_cycles + insts[b].issued * 4;
  });
  if (order.size() > 20) order.resize(20);
  o += "  hot spots (stalled wave-cycles; issued)\n";
  for (size_t i : order) {
    const profile_inst& h = insts[i];
    size_t top = 0;
    for (size_t r = 1; r < kStallReasons; ++r)
      if (h.stalls[r] > h.stalls[top]) top = r;
    o += fmt("    0x%06" PRIx64 " %10" PRIu64 " %8" PRIu64 "  %-18s %s", h.pc, h.stall_cycles, h.issued,
             h.stall_cycles ? stall_reason_name(stall_reason(top)) : "-", h.text.c_str());
    if (!h.source.empty()) o += "  ; " + h.source;
    o += "\n";
  }
  return o;
}

std::string profile::json() const {
  std::string o = "{";
  auto kv = [&](const char* k, const std::string& v) {
    if (o.size() > 1) o += ",";
    o += json_string(k) + ":" + v;
  };
  kv("kernel", json_string(kernel));
  kv("device", json_string(device));
  kv("cus", std::to_string(cus));
  kv("cycles", std::to_string(cycles));
  kv("clock_mhz", num(clock_mhz));
  kv("time_us", num(time_us));
  kv("peak_clock_mhz", num(peak_clock_mhz));
  kv("sustained_clock_mhz", num(sustained_clock_mhz));
  kv("cycles_at_peak", std::to_string(cycles_at_peak));
  kv("time_us_peak", num(time_us_peak));
  kv("cycles_at_sustained", std::to_string(cycles_at_sustained));
  kv("time_us_sustained", num(time_us_sustained));
  kv("clock_estimated", clock_estimated ? "true" : "false");
  kv("dispatch_overhead_us", num(dispatch_overhead_us));
  {
    std::string ph = "[";
    for (const clock_phase& c : clock_phases)
      ph += fmt("%s{\"start\":%" PRIu64 ",\"end\":%" PRIu64 ",\"clock_mhz\":%s,\"power\":%s,\"active_cus\":%s,"
                "\"mfma\":%s,\"valu\":%s,\"hbm\":%s}",
                ph.size() > 1 ? "," : "", c.start, c.end, num(c.clock_mhz).c_str(), num(c.power).c_str(),
                num(c.active_cus).c_str(), num(c.mfma).c_str(), num(c.valu).c_str(), num(c.hbm).c_str());
    kv("clock_phases", ph + "]");
  }
  kv("flops", num(flops));
  kv("tflops", num(tflops));
  kv("hbm_bytes", std::to_string(hbm_bytes));
  kv("hbm_gbps", num(hbm_gbps));
  kv("dtype", json_string(dtype == peak_dtype::count ? "none" : peak_dtype_name(dtype)));
  kv("peak_tflops", num(peak_tflops));
  kv("peak_share", num(peak_share));
  kv("bound", json_string(bound));
  kv("bound_utilization", num(bound_utilization));
  kv("issue_fraction", num(issue_fraction));
  kv("l2_bw_fraction", num(l2_bw_fraction));
  kv("mall_bw_fraction", num(mall_bw_fraction));
  kv("hbm_bw_fraction", num(hbm_bw_fraction));
  kv("waves_per_simd", std::to_string(waves_per_simd));
  kv("occupancy_limiter", json_string(occupancy_limiter));
  kv("workgroups", std::to_string(workgroups));
  kv("sample_cus", std::to_string(sample_cus));
  kv("sampled_workgroups", std::to_string(sampled_workgroups));
  kv("waves", std::to_string(waves));
  kv("sync_waits_waived", std::to_string(sync_waits_waived));
  kv("cus_used", std::to_string(cus_used));
  kv("mfma_busy", num(mfma_busy));
  kv("valu_busy", num(valu_busy));
  kv("lds_bytes", std::to_string(lds_bytes));
  kv("lds_bw_fraction", num(lds_bw_fraction));
  kv("vmem_bytes", std::to_string(vmem_bytes));
  kv("vmem_bw_fraction", num(vmem_bw_fraction));
  kv("l1_hits", std::to_string(l1_hits));
  kv("l1_misses", std::to_string(l1_misses));
  kv("l2_hits", std::to_string(l2_hits));
  kv("l2_misses", std::to_string(l2_misses));
  kv("mall_hits", std::to_string(mall_hits));
  kv("mall_misses", std::to_string(mall_misses));
  kv("wave_instructions", std::to_string(wave_instructions));
  std::string st = "{";
  for (size_t i = 0; i < kStallReasons; ++i)
    st += (i ? "," : "") + json_string(stall_reason_name(stall_reason(i))) + ":" + std::to_string(stalls[i]);
  kv("stalls", st + "}");
  std::string hs = "[";
  bool first = true;
  for (const profile_inst& h : insts) {
    if (!h.issued) continue;
    hs += first ? "" : ",";
    first = false;
    hs += fmt("{\"pc\":%" PRIu64 ",\"issued\":%" PRIu64 ",\"stall_cycles\":%" PRIu64 ",\"text\":", h.pc, h.issued,
              h.stall_cycles) +
          json_string(h.text);
    if (!h.source.empty()) hs += ",\"source\":" + json_string(h.source);
    hs += "}";
  }
  kv("instructions", hs + "]");
  return o + "}";
}

namespace {
// The time (us) at cycle c of consecutive phases from cycle 0, `start_us` their start times
// (one more entry than phases: the end).
double time_at(const std::vector<clock_phase>& phases, const std::vector<double>& start_us, uint64_t c) {
  const auto it = std::upper_bound(phases.begin(), phases.end(), c, [](uint64_t x, const clock_phase& ph) { return x < ph.end; });
  const size_t n = size_t(it - phases.begin());
  if (n == phases.size()) return start_us.back() + double(c - phases.back().end) / phases.back().clock_mhz;
  return start_us[n] + double(c - std::min(c, phases[n].start)) / phases[n].clock_mhz;
}
std::vector<double> phase_starts(const std::vector<clock_phase>& phases) {
  std::vector<double> s{0.0};
  for (const auto& ph : phases) s.push_back(s.back() + double(ph.end - ph.start) / ph.clock_mhz);
  return s;
}
}  // namespace

double profile::us_at_cycle(uint64_t c) const {
  if (clock_phases.empty()) return double(c) / clock_mhz;
  return time_at(clock_phases, phase_starts(clock_phases), c);
}

void profile::write_trace(std::FILE* out) const {
  // Microseconds with 0.1 ns resolution: a cycle is ~0.5 ns at 2.1 GHz. The clock varies over
  // the phases: a cycle's time is that of the phases before it at their clocks.
  const std::vector<double> starts = phase_starts(clock_phases);
  auto at = [&](uint64_t c) { return clock_phases.empty() ? double(c) / clock_mhz : time_at(clock_phases, starts, c); };
  auto ts = [&](uint64_t c) { return fmt("%.4f", at(c)); };
  auto dur = [&](uint64_t from, uint64_t n) { return fmt("%.4f", at(from + n) - at(from)); };
  std::fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{", out);
  std::fprintf(out, "\"kernel\":%s,\"device\":%s,\"clock_mhz\":%s,\"cycles\":%" PRIu64 "},\"traceEvents\":[\n",
               json_string(kernel).c_str(), json_string(device).c_str(), num(clock_mhz).c_str(), cycles);
  bool first = true;
  auto emit = [&](const std::string& e) {
    std::fputs(first ? "" : ",\n", out);
    first = false;
    std::fputs(e.c_str(), out);
  };
  // Tracks: a process per CU, a thread per wave, sorted by SIMD then slot.
  std::map<uint32_t, bool> cu_seen;
  for (size_t i = 0; i < waves_info.size(); ++i) {
    const profile_wave& w = waves_info[i];
    const uint32_t pid = w.xcd * 1000 + w.cu + 1;
    if (!cu_seen[pid]) {
      cu_seen[pid] = true;
      emit(fmt("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"args\":{\"name\":\"XCD %u CU %u\"}}", pid, w.xcd,
               w.cu));
      emit(fmt("{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%u,\"args\":{\"sort_index\":%u}}", pid, pid));
    }
    emit(fmt("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%zu,\"args\":{\"name\":\"SIMD %u slot %u: "
             "wave %zu (workgroup %u wave %u)\"}}",
             pid, i + 1, w.simd, w.slot, i, w.workgroup, w.wave_in_group));
    emit(fmt("{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%u,\"tid\":%zu,\"args\":{\"sort_index\":%u}}", pid,
             i + 1, w.simd * 100 + w.slot));
  }
  // Counter deltas per CU: SIMDs with a busy matrix core, vector-memory bytes in flight.
  std::map<uint32_t, std::vector<std::pair<uint64_t, int64_t>>> mfma, bytes;
  for (const profile_event& e : events) {
    const profile_wave& w = waves_info[e.wave];
    const uint32_t pid = w.xcd * 1000 + w.cu + 1;
    if (e.issue > e.ready)
      emit(fmt("{\"ph\":\"X\",\"cat\":\"stall\",\"name\":\"stall: %s\",\"pid\":%u,\"tid\":%u,\"ts\":%s,\"dur\":%s}",
               stall_reason_name(e.reason), pid, e.wave + 1, ts(e.ready).c_str(), dur(e.ready, e.issue - e.ready).c_str()));
    const profile_inst& in = insts[e.inst];
    emit(fmt("{\"ph\":\"X\",\"cat\":\"issue\",\"name\":%s,\"pid\":%u,\"tid\":%u,\"ts\":%s,\"dur\":%s,\"args\":{\"pc\":\"0x%" PRIx64
             "\",\"asm\":%s,\"cycle\":%" PRIu64 ",\"done_cycle\":%" PRIu64 ",\"latency\":%" PRIu64 "%s}}",
             json_string(mnemonic_of(in.text)).c_str(), pid, e.wave + 1, ts(e.issue).c_str(), dur(e.issue, 4).c_str(), in.pc,
             json_string(in.text).c_str(), e.issue, e.done, e.done - e.issue,
             in.source.empty() ? "" : (",\"source\":" + json_string(in.source)).c_str()));
    if (e.unit == profile_event::mfma) {
      mfma[pid].push_back({e.issue, 1});
      mfma[pid].push_back({e.done, -1});
    } else if (e.unit == profile_event::vmem) {
      bytes[pid].push_back({e.issue, int64_t(e.bytes)});
      bytes[pid].push_back({e.done, -int64_t(e.bytes)});
    }
  }
  auto counters = [&](auto& m, const char* name, const char* key) {
    for (auto& [pid, v] : m) {
      std::sort(v.begin(), v.end());
      int64_t level = 0;
      for (size_t i = 0; i < v.size(); ++i) {
        level += v[i].second;
        if (i + 1 < v.size() && v[i + 1].first == v[i].first) continue;
        emit(fmt("{\"ph\":\"C\",\"name\":\"%s\",\"pid\":%u,\"ts\":%s,\"args\":{\"%s\":%" PRId64 "}}", name, pid,
                 ts(v[i].first).c_str(), key, level));
      }
    }
  };
  counters(mfma, "MFMA busy", "simds");
  counters(bytes, "VMEM bytes in flight", "bytes");
  // The device's clock over time and the activity that set it (Clock and power): counter tracks
  // of a "device" process.
  constexpr uint32_t kDevicePid = 0;
  emit(fmt("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"args\":{\"name\":\"device (clock and power)\"}}",
           kDevicePid));
  for (const clock_phase& ph : clock_phases) {
    emit(fmt("{\"ph\":\"C\",\"name\":\"clock MHz\",\"pid\":%u,\"ts\":%s,\"args\":{\"MHz\":%.0f}}", kDevicePid,
             ts(ph.start).c_str(), ph.clock_mhz));
    emit(fmt("{\"ph\":\"C\",\"name\":\"power vs limit at peak clock\",\"pid\":%u,\"ts\":%s,\"args\":{\"power\":%.3f}}",
             kDevicePid, ts(ph.start).c_str(), ph.power));
    emit(fmt("{\"ph\":\"C\",\"name\":\"device activity %%\",\"pid\":%u,\"ts\":%s,\"args\":{\"CUs active\":%.1f,"
             "\"MFMA busy\":%.1f,\"VALU busy\":%.1f,\"HBM\":%.1f}}",
             kDevicePid, ts(ph.start).c_str(), 100 * ph.active_cus, 100 * ph.mfma, 100 * ph.valu, 100 * ph.hbm));
  }
  std::fputs("\n]}\n", out);
}

std::string profile::timeline(uint32_t wave) const {
  if (wave >= waves_info.size())
    throw error("timeline: wave " + std::to_string(wave) + " does not exist (the dispatch has " +
                std::to_string(waves_info.size()) + " waves)");
  const profile_wave& w = waves_info[wave];
  std::string o = fmt("wave %u (workgroup %u wave %u) on XCD %u CU %u SIMD %u slot %u: cycles %" PRIu64 "..%" PRIu64
                      ", %" PRIu64 " instructions\n",
                      wave, w.workgroup, w.wave_in_group, w.xcd, w.cu, w.simd, w.slot, w.start, w.end, w.instructions);
  o += "   issue   stall reason               done  instruction\n";
  for (const profile_event& e : events) {
    if (e.wave != wave) continue;
    const profile_inst& in = insts[e.inst];
    o += fmt("%8" PRIu64 " %7" PRIu64 " %-18s %8" PRIu64 "  %s", e.issue, e.issue - e.ready,
             e.issue > e.ready ? stall_reason_name(e.reason) : "", e.done, in.text.c_str());
    if (!in.source.empty()) o += "  ; " + in.source;
    o += "\n";
  }
  return o;
}

}  // namespace hipasm::sim


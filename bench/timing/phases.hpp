// --phases FILE of the hipasm-timing-* tools: one JSON line per row with what the model measured
// and the schedule's phases ([cycles, active CUs, MFMA busy, VALU busy, HBM, integer-MFMA busy] as device-wide
// fractions, docs/timing-model.md "Clock and power"), so that the power model's open parameters
// can be fitted on named calibration rows (scripts/fit-power-model) without re-running them.
#pragma once
#include <cstdio>
#include <string>

#include "hipasm/rt/profile.hpp"

namespace timing_phases {

// `row` is the row's JSON fields without braces ("\"family\":\"fwd\",..."); `fixed_us` the time
// the row's prediction adds beyond the schedule (dispatch overhead, streaming kernels).
inline void append(const std::string& file, const std::string& row, double measured_us, double fixed_us,
                   const hipasm::rt::profile& pr) {
  if (file.empty()) return;
  std::FILE* f = std::fopen(file.c_str(), "a");
  if (!f) return;
  std::fprintf(f, "{%s,\"measured_us\":%.4f,\"fixed_us\":%.4f,\"phases\":[", row.c_str(), measured_us, fixed_us);
  for (size_t i = 0; i < pr.clock_phases.size(); ++i) {
    const hipasm::rt::clock_phase& c = pr.clock_phases[i];
    std::fprintf(f, "%s[%llu,%.4f,%.4f,%.4f,%.4f,%.4f]", i ? "," : "", (unsigned long long)(c.end - c.start),
                 c.active_cus, c.mfma, c.valu, c.hbm, c.mfma_int);
  }
  std::fprintf(f, "]}\n");
  std::fclose(f);
}

}  // namespace timing_phases

// launch_report helpers that need the profile's definition (the launcher's header only
// declares it).
#include <memory>

#include "hipasm/rt/launcher.hpp"
#include "hipasm/rt/profile.hpp"

namespace hipasm::rt {

void append_report(launch_report& rep, const launch_report& more, bool work) {
  rep.diagnostics.insert(rep.diagnostics.end(), more.diagnostics.begin(), more.diagnostics.end());
  rep.warnings.insert(rep.warnings.end(), more.warnings.begin(), more.warnings.end());
  rep.findings.insert(rep.findings.end(), more.findings.begin(), more.findings.end());
  rep.instructions += more.instructions;
  rep.lane_operations += more.lane_operations;
  if (!rep.profile || !more.profile) return;
  auto p = std::make_shared<profile>(*rep.profile);
  const profile& q = *more.profile;
  const double t0 = p->time_us;
  p->time_us += q.time_us;
  p->time_us_peak += q.time_us_peak;
  p->time_us_sustained += q.time_us_sustained;
  if (work) {
    if (p->time_us > 0) {
      p->mfma_busy = (p->mfma_busy * t0 + q.mfma_busy * q.time_us) / p->time_us;
      p->valu_busy = (p->valu_busy * t0 + q.valu_busy * q.time_us) / p->time_us;
    }
    p->flops += q.flops;
    p->hbm_bytes += q.hbm_bytes;
    p->tflops = p->time_us > 0 ? p->flops / p->time_us * 1e-6 : 0;
    p->hbm_gbps = p->time_us > 0 ? double(p->hbm_bytes) / p->time_us * 1e-3 : 0;
  }
  rep.profile = std::move(p);
}

}  // namespace hipasm::rt

// A profiled launch: the dispatch runs as usual (checker included) with the timing Recorder in
// the observer chain, then the recorded streams are scheduled on the chosen device.
#include "launch.hpp"

#include "../checker.hpp"
#include "../dispatch.hpp"

namespace hipasm::sim::timing {

rt::launch_report run_profiled(const KernelInfo& k, const DispatchParams& p, Memory& memory, bool check,
                               const rt::profile_options& opts) {
  const DeviceSpec* dev = find_device(opts.device);
  if (!dev) {
    std::string names;
    for (const auto& d : kDevices) names += (names.empty() ? "" : ", ") + std::string(d.name);
    throw rt::error("profile: unknown device '" + opts.device + "' (" + names + ")");
  }
  if (opts.clock_mhz < 0 || opts.clock_mhz > 10000)
    throw rt::error("profile: clock " + std::to_string(opts.clock_mhz) + " MHz is out of range");
  const KernelImage& image = k.image;
  std::shared_ptr<const Program> prog = decoded_program(image.code, image.code_vaddr, image.entry);
  KernelShape shape;
  shape.name = k.name;
  shape.vgprs = k.kd.allocated_vgprs();
  shape.sgprs = k.kd.allocated_sgprs();
  shape.lds_bytes = uint32_t(image.group_segment_fixed_size + p.dynamic_lds);
  const uint64_t threads = uint64_t(p.block[0]) * p.block[1] * p.block[2];
  shape.waves_per_group = uint32_t((threads + kLanes - 1) / kLanes);
  shape.groups = uint64_t(p.grid[0]) * p.grid[1] * p.grid[2];
  shape.accum_offset = image.accum_offset ? image.accum_offset : 256;
  shape.entry = image.entry;

  Checker checker;
  Recorder rec(check ? &checker : nullptr, prog, shape.groups, shape.waves_per_group, *dev);
  rt::launch_report report = run_dispatch(image, p, memory, &rec);
  if (check) report.diagnostics = checker.diagnostics();
  report.profile = simulate(rec, shape, *dev, opts);
  return report;
}

}  // namespace hipasm::sim::timing

// A profiled launch: the dispatch runs as usual (checker included) with the timing Recorder in
// the observer chain, then the recorded streams are scheduled on the chosen device.
#include "launch.hpp"

#include "../checker.hpp"
#include "../dispatch.hpp"

#include <algorithm>

namespace hipasm::sim::timing {

rt::launch_report run_profiled(const KernelInfo& k, const DispatchParams& p, Memory& memory, Checker* checker,
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
  KernelShape shape;  // (groups: those executed)
  shape.name = k.name;
  shape.vgprs = k.kd.allocated_vgprs();
  shape.sgprs = k.kd.allocated_sgprs();
  shape.lds_bytes = uint32_t(image.group_segment_fixed_size + p.dynamic_lds);
  const uint64_t threads = uint64_t(p.block[0]) * p.block[1] * p.block[2];
  shape.waves_per_group = uint32_t((threads + kLanes - 1) / kLanes);
  shape.groups = uint64_t(p.grid[0]) * p.grid[1] * p.grid[2];
  shape.accum_offset = image.accum_offset ? image.accum_offset : 256;
  shape.entry = image.entry;

  // Sampling: an N-CU slice of one XCD gets its share of the workgroups, of HBM and of the L2.
  DeviceSpec slice = *dev;
  DispatchParams sampled = p;
  const uint64_t all_groups = shape.groups;
  const uint32_t all_cus = dev->xcds * dev->cus_per_xcd;
  if (opts.sample_cus) {
    if (opts.sample_cus > dev->cus_per_xcd)
      throw rt::error("profile: --sample " + std::to_string(opts.sample_cus) + " CUs: at most the " +
                      std::to_string(dev->cus_per_xcd) + " CUs of one XCD of " + opts.device);
    // XCD 0's workgroups (every xcds-th, T1 round-robin), as many as N of its CUs would run.
    shape.groups = std::max<uint64_t>(1, (all_groups * opts.sample_cus + all_cus - 1) / all_cus);
    sampled.group_limit = shape.groups;
    sampled.group_stride = dev->xcds;
    shape.group_stride = dev->xcds;
    slice.xcds = 1;
    slice.cus_per_xcd = opts.sample_cus;
    // Shares of the CUs the whole grid keeps busy (a grid smaller than the device leaves CUs idle).
    const uint64_t active = std::min<uint64_t>(all_cus, all_groups);
    const uint64_t active_per_xcd = std::min<uint64_t>(dev->cus_per_xcd, (active + dev->xcds - 1) / dev->xcds);
    const double share = std::min(1.0, double(opts.sample_cus) / double(active));
    slice.hbm_achievable_gbytes_per_s = dev->hbm_achievable_gbytes_per_s * share;
    slice.mall_gbytes_per_s = dev->mall_gbytes_per_s * share;  // the device-wide MALL too
    slice.mall_bytes = uint64_t(double(dev->mall_bytes) * share);
    slice.l2_bytes_per_xcd = std::max<uint32_t>(
        slice.line_bytes * slice.l2_ways,
        uint32_t(uint64_t(dev->l2_bytes_per_xcd) * std::min<uint64_t>(opts.sample_cus, active_per_xcd) / active_per_xcd));
    // The XCD's L2 channels serve all its busy CUs: the slice's CUs get their share of them too
    // (a tile's rows at a power-of-two stride can load one channel from every CU of the XCD).
    slice.l2_channel_share = double(std::min<uint64_t>(opts.sample_cus, active_per_xcd)) / double(active_per_xcd);
  }
  Recorder rec(checker, prog, shape.groups, shape.waves_per_group, slice, shape.group_stride);
  rt::launch_report report = run_dispatch(image, sampled, memory, &rec);
  auto prof = simulate(rec, shape, slice, opts, p.threads);
  if (opts.sample_cus) {  // rates of the whole device: the slice did groups/all_groups of the work
    const double scale = double(all_groups) / double(shape.groups);
    prof->sample_cus = opts.sample_cus;
    prof->sampled_workgroups = shape.groups;
    prof->cus = all_cus;
    prof->xcds = dev->xcds;
    prof->workgroups = uint32_t(all_groups);
    prof->flops *= scale;
    prof->hbm_bytes = uint64_t(double(prof->hbm_bytes) * scale);
    prof->lds_bytes = uint64_t(double(prof->lds_bytes) * scale);
    prof->vmem_bytes = uint64_t(double(prof->vmem_bytes) * scale);
    const double secs = prof->time_us * 1e-6;
    prof->tflops = secs > 0 ? prof->flops / secs / 1e12 : 0;
    prof->hbm_gbps = secs > 0 ? double(prof->hbm_bytes) / secs / 1e9 : 0;
  }
  report.profile = std::move(prof);
  return report;
}

}  // namespace hipasm::sim::timing

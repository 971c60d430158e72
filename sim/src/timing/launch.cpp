// A profiled launch: the dispatch runs as usual (checker included) with the timing Recorder in
// the observer chain, then the recorded streams are scheduled on the chosen device.
#include "launch.hpp"

#include "../checker.hpp"
#include "../dispatch.hpp"

#include <algorithm>

namespace hipasm::sim::timing {

DispatchResult run_profiled(const KernelInfo& k, const DispatchParams& p, Memory& memory, Checker* checker,
                            const sim::profile_options& opts) {
  const DeviceSpec* dev = find_device(opts.device);
  if (!dev) {
    std::string names;
    for (const auto& d : kDevices) names += (names.empty() ? "" : ", ") + std::string(d.name);
    throw sim::error("profile: unknown device '" + opts.device + "' (" + names + ")");
  }
  if (opts.clock_mhz < 0 || opts.clock_mhz > 10000)
    throw sim::error("profile: clock " + std::to_string(opts.clock_mhz) + " MHz is out of range");
  const KernelImage& image = k.image;
  // A device runs the code objects of its own ISA only (the MFMA costs and hazards are the
  // target's): a gfx942 object on mi355x, or a gfx950 one on mi300x, is refused.
  if (dev->target != image.target->name) throw sim::error("profile: " + wrong_target_message(image.target->name, *dev));
  std::shared_ptr<const Program> prog = decoded_program(image);
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
  shape.listing_entry = image.listing_entry;

  // Sampling: an N-CU slice of one XCD gets its share of the workgroups, of HBM and of the L2.
  DeviceSpec slice = *dev;
  DispatchParams sampled = p;
  const uint64_t all_groups = shape.groups;
  const uint32_t all_cus = dev->cus();
  if (opts.sample_cus) {
    if (opts.sample_cus > dev->cus_per_xcd)
      throw sim::error("profile: --sample " + std::to_string(opts.sample_cus) + " CUs: at most the " +
                      std::to_string(dev->cus_per_xcd) + " CUs of one XCD of " + opts.device);
    // XCD 0's workgroups (every xcds-th, T1 round-robin), as many as N of its CUs would run.
    shape.groups = std::max<uint64_t>(1, (all_groups * opts.sample_cus + all_cus - 1) / all_cus);
    sampled.group_limit = shape.groups;
    sampled.group_stride = dev->xcds;
    shape.group_stride = dev->xcds;
    slice.xcds = 1;
    slice.cus_per_xcd = opts.sample_cus;
    // The slice does shape.groups / all_groups of the work in the same time as the device, so it
    // gets that share of the HBM and Infinity Cache bandwidth (and of the MALL's capacity), and
    // the share of XCD 0's L2 (capacity and channels) its groups are of XCD 0's. (Shares of CUs
    // instead overrate the slice when the grid is smaller than the device: 48 groups leave 2 on
    // an 8-CU slice, 2/48 of the work, not 8/48.) The channels matter because a tile's rows at a
    // power-of-two stride can load one channel from every CU of the XCD.
    const uint64_t xcd0_groups = (all_groups + dev->xcds - 1) / dev->xcds;
    const double device_share = std::min(1.0, double(shape.groups) / double(all_groups));
    const double xcd_share = std::min(1.0, double(shape.groups) / double(xcd0_groups));
    slice.hbm_achievable_gbytes_per_s = dev->hbm_achievable_gbytes_per_s * device_share;
    slice.mall_gbytes_per_s = dev->mall_gbytes_per_s * device_share;
    slice.mall_bytes = uint64_t(double(dev->mall_bytes) * device_share);
    slice.l2_bytes_per_xcd = std::max<uint32_t>(slice.line_bytes * slice.l2_ways,
                                                uint32_t(double(dev->l2_bytes_per_xcd) * xcd_share));
    slice.l2_channel_share = xcd_share;
  }
  Recorder rec(checker, prog, shape.groups, shape.waves_per_group, slice, shape.group_stride);
  DispatchResult report = run_dispatch(image, sampled, memory, &rec);
  auto prof = simulate(rec, shape, slice, opts, p.threads);
  if (opts.sample_cus) {  // rates of the whole device: the slice did groups/all_groups of the work
    const double scale = double(all_groups) / double(shape.groups);
    prof->sample_cus = opts.sample_cus;
    prof->sampled_workgroups = shape.groups;
    prof->cus = all_cus;
    prof->xcds = dev->xcds;
    prof->workgroups = uint32_t(all_groups);
    prof->flops *= scale;
    for (double& f : prof->flops_by_dtype) f *= scale;
    prof->hbm_bytes = uint64_t(double(prof->hbm_bytes) * scale);
    prof->lds_bytes = uint64_t(double(prof->lds_bytes) * scale);
    prof->vmem_bytes = uint64_t(double(prof->vmem_bytes) * scale);
  }
  // The dispatch's fixed launch/teardown time, outside the waves' schedule (device.hpp).
  prof->dispatch_overhead_us = dev->dispatch_overhead_us;
  prof->time_us += dev->dispatch_overhead_us;
  prof->time_us_peak += dev->dispatch_overhead_us;
  prof->time_us_sustained += dev->dispatch_overhead_us;
  const double secs = prof->time_us * 1e-6;
  prof->tflops = secs > 0 ? prof->flops / secs / 1e12 : 0;
  prof->hbm_gbps = secs > 0 ? double(prof->hbm_bytes) / secs / 1e9 : 0;
  summarize_bound(*prof, *dev);
  report.profile = std::move(prof);
  return report;
}

}  // namespace hipasm::sim::timing

// Atomics to one address from many lanes, as the timing model predicts them: histograms whose
// 64 lanes add to one bin (one_hot), 16 bins (uniform16), 256 bins by a hash of the lane
// (random256) or 64 bins (distinct), through the LDS (ds_add_u32, ds_add_rtn_u32) and the L2
// (global_atomic_add, returning or not; global_atomic_pk_add_bf16); 32 atomics per wave (bench/timing/microbench.hpp). Prints predicted cycles per atomic instruction of one wave
// (the interval between completions) and the kernel's cycles for one wave and for one wave on
// every CU of the MI300X. docs/timing-model.md (LDS, Vector memory) has the figures behind them.
//   hipasm-timing-atomics
#include <cstdio>
#include <string>
#include <vector>

#include "hipasm/rt/profile.hpp"  // the launcher, with the profile's types

using namespace hipasm;

int main() {
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = dev->load_file(HIPASM_TIMING_MICROBENCH);
  rt::buffer<uint8_t> buf(*dev, 4096);
  auto run = [&](const std::string& kernel, uint32_t groups, const char* prefix, double* per_op) {
    buf.upload(std::vector<uint8_t>(4096, 0));
    rt::kernel_args args;
    args.add(buf.addr()).add(uint32_t(0));
    rt::profile_options po;
    po.keep_events = groups == 1;
    rt::launch_options lo;
    lo.profile = &po;
    auto r = dev->launch(*mod, kernel, {groups, 1, 1}, {64, 1, 1}, args, lo);
    if (per_op) {
      std::vector<uint64_t> done;
      for (const auto& e : r.profile->events)
        if (r.profile->insts[e.inst].text.rfind(prefix, 0) == 0) done.push_back(e.done);
      *per_op = done.size() > 1 ? double(done.back() - done.front()) / double(done.size() - 1) : 0;
    }
    return r.profile->cycles;
  };
  std::printf("%-18s %-10s %14s %14s %18s\n", "atomic", "histogram", "cycles/instr", "cycles 1 wave",
              "cycles 304 waves");
  struct Unit {
    const char* kernel;
    const char* name;
    const char* prefix;
    std::vector<const char*> hists;
  };
  const std::vector<const char*> all = {"one_hot", "uniform16", "random256", "distinct"};
  const Unit units[] = {{"lds_atomic_", "ds_add_u32", "ds_add_u32", all},
                        {"lds_atomic_rtn_", "ds_add_rtn_u32", "ds_add_rtn_u32", all},
                        {"global_atomic_", "global_atomic_add", "global_atomic_add", all},
                        {"global_atomic_rtn_", "(returning)", "global_atomic_add", all},
                        {"global_atomic_pk_bf16_", "..._pk_add_bf16", "global_atomic_pk_add_bf16",
                         {"one_hot", "distinct"}}};
  for (const Unit& u : units)
    for (const char* h : u.hists) {
      const std::string k = std::string(u.kernel) + h;
      double per_op = 0;
      const uint64_t one = run(k, 1, u.prefix, &per_op);
      const uint64_t all = run(k, 304, u.prefix, nullptr);
      std::printf("%-18s %-10s %14.1f %14llu %18llu\n", u.name, h, per_op, (unsigned long long)one,
                  (unsigned long long)all);
    }
  return 0;
}

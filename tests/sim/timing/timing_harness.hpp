// Launching the microbenchmark kernels (bench/timing/microbench.hpp, hipasm) in timing mode.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "hipasm/rt/launcher.hpp"
#include "hipasm/rt/profile.hpp"

namespace timingtest {

struct bench {
  std::unique_ptr<hipasm::rt::device> dev = hipasm::rt::device::open(hipasm::rt::backend::sim);
  std::unique_ptr<hipasm::rt::module> mod = dev->load_file(HIPASM_TIMING_MICROBENCH);

  // Profiles KERNEL(buf, n) with `block` work-items per workgroup; buf is `buf_bytes` of zeros
  // unless `init` is given.
  hipasm::rt::launch_report profile(const std::string& kernel, uint32_t grid, uint32_t block,
                                    hipasm::rt::profile_options po = {}, size_t buf_bytes = 256,
                                    const std::vector<uint64_t>* init = nullptr, uint32_t n = 0) {
    hipasm::rt::buffer<uint64_t> buf(*dev, std::max<size_t>(buf_bytes / 8, 1));
    if (init) buf.upload(*init);
    else buf.upload(std::vector<uint64_t>(buf.size(), 0));
    hipasm::rt::kernel_args args;
    args.add(buf.addr()).add(n);
    hipasm::rt::launch_options lo;
    lo.profile = &po;
    auto r = dev->launch(*mod, kernel, {grid, 1, 1}, {block, 1, 1}, args, lo);
    REQUIRE(r.profile);
    CHECK(r.diagnostics.empty());
    return r;
  }
  uint64_t cycles(const std::string& kernel, uint32_t block = 64) { return profile(kernel, 1, block).profile->cycles; }
};

// Issue cycles of one wave's instructions whose text starts with `prefix`.
inline std::vector<uint64_t> issues(const hipasm::rt::profile& p, const std::string& prefix, uint32_t wave = 0) {
  std::vector<uint64_t> v;
  for (const auto& e : p.events)
    if (e.wave == wave && p.insts[e.inst].text.rfind(prefix, 0) == 0) v.push_back(e.issue);
  return v;
}

inline std::string shell_output(const std::string& cmd, int* status = nullptr) {
  std::string out;
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  const int st = pclose(f);
  if (status) *status = st;
  return out;
}

}  // namespace timingtest

// Timing-mode speed: wave-instructions per second of a plain run and of a profiled run (the same
// execution plus recording and the schedules) on microbenchmark kernels filling the MI300X.
//   hipasm-timing-speed [THREADS]
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "hipasm/rt/launcher.hpp"

using namespace hipasm;

namespace {
// CPU seconds of the process (all threads): a rate that does not depend on other load.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}
}  // namespace

int main(int argc, char** argv) {
  const unsigned threads = argc > 1 ? unsigned(std::stoul(argv[1])) : 1;
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = dev->load_file(HIPASM_TIMING_MICROBENCH);
  struct Case {
    const char* kernel;
    uint32_t groups;
    size_t bytes;
  };
  const Case cases[] = {{"mfma_tput_16x16x16_bf16", 1216, 256}, {"stream_read", 2128, size_t(2128) * 32768},
                        {"lds_b128_stride4", 1216, 256}, {"valu_fma", 2432, 256}};
  std::printf("%-26s %8s %12s %14s %14s %8s %16s %16s\n", "kernel", "groups", "wave-instrs", "run instr/s",
              "profile instr/s", "ratio", "run instr/cpu-s", "prof instr/cpu-s");
  for (const Case& c : cases) {
    rt::buffer<uint8_t> buf(*dev, c.bytes);
    buf.upload(std::vector<uint8_t>(c.bytes, 0));
    rt::kernel_args args;
    args.add(buf.addr()).add(uint32_t(0));
    rt::profile_options po;
    double secs[2], cpu[2];
    uint64_t instrs = 0;
    for (int profiled = 0; profiled < 2; ++profiled) {
      rt::launch_options lo;
      lo.threads = threads;
      lo.check = true;
      if (profiled) lo.profile = &po;
      const auto t0 = std::chrono::steady_clock::now();
      const double c0 = cpu_seconds();
      auto r = dev->launch(*mod, c.kernel, {c.groups, 1, 1}, {256, 1, 1}, args, lo);
      secs[profiled] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      cpu[profiled] = cpu_seconds() - c0;
      instrs = r.instructions;
    }
    std::printf("%-26s %8u %12llu %14.3g %14.3g %8.2f %16.3g %16.3g\n", c.kernel, c.groups, (unsigned long long)instrs,
                double(instrs) / secs[0], double(instrs) / secs[1], secs[1] / secs[0], double(instrs) / cpu[0],
                double(instrs) / cpu[1]);
  }
  return 0;
}

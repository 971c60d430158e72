// Speed of hipasm-sim on clang-22 kernels (bench_kernels.hip): VALU lane-operations/s per
// core (threads=1), MFMA GFLOP/s per core, a 1024x1024x1024 bf16 MFMA GEMM end to end (all
// threads, a sample of outputs verified against the host), 1 thread vs all threads.
// After the Google Benchmark table it prints the goals of the issue next to the figures.
#include <benchmark/benchmark.h>
#include <hipasm/rt/launcher.hpp>

#include <bit>
#include <ctime>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace hipasm::rt;

namespace {

device& sim() {
  static std::unique_ptr<device> d = device::open(backend::sim);
  return *d;
}
module& kernels() {
  static std::unique_ptr<module> m = sim().load_file(HIPASM_SIM_BENCH_CODE_OBJECT);
  return *m;
}
uint16_t to_bf16(float f) {
  uint32_t u = std::bit_cast<uint32_t>(f);
  return uint16_t((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}
float from_bf16(uint16_t b) { return std::bit_cast<float>(uint32_t(b) << 16); }

// CPU seconds of the whole process (all simulator threads): a per-core rate that does not
// depend on how busy the machine is (real time does; the 2 cores here are shared).
double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void check_clean(benchmark::State& st, const launch_report& rep) {
  if (!rep.diagnostics.empty()) st.SkipWithError(("checker reported: " + rep.diagnostics[0]).c_str());
}

// VALU: 8 workgroups x 256 lanes x `iters` loop trips.
void BM_valu(benchmark::State& st) {
  const unsigned threads = (unsigned)st.range(0);
  const uint32_t groups = 8, block = 256, iters = 1500;
  buffer<uint32_t> out(sim(), groups * block);
  kernel_args args;
  args.add(out.addr()).add(iters).add(7u);
  launch_options o;
  o.threads = threads;
  o.check = st.range(1) != 0;
  uint64_t lane_ops = 0, insts = 0;
  const double cpu0 = process_cpu_seconds();
  for (auto _ : st) {
    auto rep = sim().launch(kernels(), "bench_valu", {groups}, {block}, args, o);
    check_clean(st, rep);
    lane_ops += rep.lane_operations, insts += rep.instructions;
  }
  st.counters["lane_ops/cpu_s"] = (double)lane_ops / (process_cpu_seconds() - cpu0);
  st.counters["lane_ops/s"] = benchmark::Counter((double)lane_ops, benchmark::Counter::kIsRate);
  st.counters["wave_insts/s"] = benchmark::Counter((double)insts, benchmark::Counter::kIsRate);
}

// MFMA: 2 workgroups x 4 waves x iters x 4 v_mfma_f32_32x32x8_bf16 (16384 flop each).
void BM_mfma(benchmark::State& st) {
  const unsigned threads = (unsigned)st.range(0);
  const uint32_t groups = 2, block = 256, iters = 400;
  buffer<float> out(sim(), groups * block);
  kernel_args args;
  args.add(out.addr()).add(iters);
  launch_options o;
  o.threads = threads;
  o.check = st.range(1) != 0;
  double flop = 0;
  const double cpu0 = process_cpu_seconds();
  for (auto _ : st) {
    auto rep = sim().launch(kernels(), "bench_mfma", {groups}, {block}, args, o);
    check_clean(st, rep);
    flop += (double)groups * (block / 64) * iters * 4 * (2.0 * 32 * 32 * 8);
  }
  st.counters["FLOP/cpu_s"] = flop / (process_cpu_seconds() - cpu0);
  st.counters["FLOP/s"] = benchmark::Counter(flop, benchmark::Counter::kIsRate);
}

// The reference suite's LDS double-buffered bf16 GEMM at 1024^3, end to end (all threads);
// profile:1 runs it in timing mode (launch_options::profile, full MI300X model).
void BM_gemm_1024(benchmark::State& st) {
  const uint32_t M = 1024, N = 1024, K = 1024;
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<uint16_t> A(M * K), Bt(N * K);
  for (auto& x : A) x = to_bf16(u(rng));
  for (auto& x : Bt) x = to_bf16(u(rng));
  buffer<uint16_t> dA(sim(), A), dB(sim(), Bt);
  buffer<float> dC(sim(), M * N);
  kernel_args args;
  args.add(dA.addr()).add(dB.addr()).add(dC.addr()).add(M).add(N).add(K);
  launch_options o;
  o.threads = (unsigned)st.range(0);
  profile_options po;
  if (st.range(1)) o.profile = &po;
  const double cpu0 = process_cpu_seconds();
  uint64_t insts = 0;
  for (auto _ : st) {
    auto rep = sim().launch(kernels(), "ref_gemm_bf16", {N / 64, M / 64}, {256}, args, o);
    check_clean(st, rep);
    insts += rep.instructions;
  }
  st.counters["cpu_s"] = process_cpu_seconds() - cpu0;
  st.counters["wave_instrs/cpu_s"] = double(insts) / st.counters["cpu_s"];
  // Verify a sample of 512 outputs against a double-precision host product.
  auto C = dC.download();
  int bad = 0;
  for (int s = 0; s < 512; ++s) {
    uint32_t i = rng() % M, j = rng() % N;
    double want = 0, mag = 0;
    for (uint32_t k = 0; k < K; ++k) {
      double p = (double)from_bf16(A[i * K + k]) * from_bf16(Bt[j * K + k]);
      want += p, mag += std::fabs(p);
    }
    if (!(std::fabs(C[i * N + j] - want) <= mag * (K + 1) * 0x1p-24 + 1e-6)) ++bad;
  }
  if (bad) st.SkipWithError(("GEMM output mismatches in sample: " + std::to_string(bad)).c_str());
  st.counters["FLOP/s"] = benchmark::Counter(2.0 * M * N * K * (double)st.iterations(), benchmark::Counter::kIsRate);
  st.counters["verified"] = 512 - bad;
}

// threads: 1 = one core, 0 = all cores; check: the checker on (default) or off (raw speed)
BENCHMARK(BM_valu)->ArgsProduct({{1, 0}, {1, 0}})->ArgNames({"threads", "check"})->Unit(benchmark::kMillisecond)
    ->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_mfma)->ArgsProduct({{1, 0}, {1, 0}})->ArgNames({"threads", "check"})->Unit(benchmark::kMillisecond)
    ->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_gemm_1024)->ArgsProduct({{0}, {0, 1}})->ArgNames({"threads", "profile"})->Unit(benchmark::kSecond)
    ->UseRealTime()->Iterations(1);

// Collects each run's rate counters and real time for the goal table.
class goal_reporter : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, double> rate, seconds;
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const auto& r : runs) {
      if (r.error_occurred) continue;
      std::string n = r.benchmark_name();
      for (const auto& [k, c] : r.counters) rate[n + ":" + k] = c.value;
      seconds[n] = r.GetAdjustedRealTime() * (r.time_unit == benchmark::kSecond ? 1.0 : r.time_unit == benchmark::kMillisecond ? 1e-3 : 1e-9);
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  goal_reporter rep;
  benchmark::RunSpecifiedBenchmarks(&rep);
  benchmark::Shutdown();
  // run names look like "BM_valu/threads:1/check:1/min_time:1.000/real_time"
  auto get = [&](const std::map<std::string, double>& m, const std::string& prefix, const std::string& counter) {
    for (const auto& [k, v] : m)
      if (k.rfind(prefix, 0) == 0 && (counter.empty() || k.size() >= counter.size() && k.compare(k.size() - counter.size(), counter.size(), counter) == 0))
        return v;
    return -1.0;
  };
  double valu1 = get(rep.rate, "BM_valu/threads:1/check:1/", ":lane_ops/s");
  double valuN = get(rep.rate, "BM_valu/threads:0/check:1/", ":lane_ops/s");
  double valu1_raw = get(rep.rate, "BM_valu/threads:1/check:0/", ":lane_ops/s");
  double valuN_raw = get(rep.rate, "BM_valu/threads:0/check:0/", ":lane_ops/s");
  double mfma1 = get(rep.rate, "BM_mfma/threads:1/check:1/", ":FLOP/s");
  double mfmaN = get(rep.rate, "BM_mfma/threads:0/check:1/", ":FLOP/s");
  double mfma1_raw = get(rep.rate, "BM_mfma/threads:1/check:0/", ":FLOP/s");
  double gemm_s = get(rep.seconds, "BM_gemm_1024/threads:0/profile:0/", "");
  double gemm_cpu = get(rep.rate, "BM_gemm_1024/threads:0/profile:0/", ":cpu_s");
  double gemm_rate = get(rep.rate, "BM_gemm_1024/threads:0/profile:0/", ":wave_instrs/cpu_s");
  double prof_s = get(rep.seconds, "BM_gemm_1024/threads:0/profile:1/", "");
  double prof_cpu = get(rep.rate, "BM_gemm_1024/threads:0/profile:1/", ":cpu_s");
  double prof_rate = get(rep.rate, "BM_gemm_1024/threads:0/profile:1/", ":wave_instrs/cpu_s");
  double valu1_cpu = get(rep.rate, "BM_valu/threads:1/check:1/", ":lane_ops/cpu_s");
  double valu1_raw_cpu = get(rep.rate, "BM_valu/threads:1/check:0/", ":lane_ops/cpu_s");
  double mfma1_cpu = get(rep.rate, "BM_mfma/threads:1/check:1/", ":FLOP/cpu_s");
  double mfma1_raw_cpu = get(rep.rate, "BM_mfma/threads:1/check:0/", ":FLOP/cpu_s");
  double load[3] = {0, 0, 0};
  if (FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3) load[0] = -1;
    std::fclose(f);
  }
  unsigned cores = std::thread::hardware_concurrency();
  std::printf("\nhipasm-sim speed on this machine (%u hardware threads, load average %.1f)\n", cores, load[0]);
  std::printf("Per-core figures are given per second of real time and per CPU-second of the process\n"
              "(the second does not depend on other load on the machine).\n");
  std::printf("| figure | measured | goal |\n| --- | --- | --- |\n");
  std::printf("| VALU lane-ops per CPU-second (threads=1, checker on / off) | %.1f M / %.1f M | >= 200 M |\n",
              valu1_cpu / 1e6, valu1_raw_cpu / 1e6);
  std::printf("| MFMA GFLOP per CPU-second (threads=1, checker on / off) | %.2f / %.2f | >= 2 |\n", mfma1_cpu / 1e9,
              mfma1_raw_cpu / 1e9);
  std::printf("| VALU lane-ops/s per core (threads=1, checker on) | %.1f M | >= 200 M |\n", valu1 / 1e6);
  std::printf("| VALU lane-ops/s per core (threads=1, checker off) | %.1f M | |\n", valu1_raw / 1e6);
  std::printf("| VALU lane-ops/s all threads (checker on / off) | %.1f M (x%.2f) / %.1f M | |\n", valuN / 1e6,
              valu1 > 0 ? valuN / valu1 : 0.0, valuN_raw / 1e6);
  std::printf("| MFMA GFLOP/s per core (threads=1, checker on / off) | %.2f / %.2f | >= 2 |\n", mfma1 / 1e9, mfma1_raw / 1e9);
  std::printf("| MFMA GFLOP/s all threads (checker on) | %.2f (x%.2f) | |\n", mfmaN / 1e9, mfma1 > 0 ? mfmaN / mfma1 : 0.0);
  std::printf("| 1024^3 bf16 MFMA GEMM end to end (all threads) | %.2f s (%.2f CPU-s) | <= 10 s |\n", gemm_s, gemm_cpu);
  std::printf("| same, profiled on the full MI300X model (timing mode) | %.2f s (%.2f CPU-s) | |\n", prof_s, prof_cpu);
  std::printf("| GEMM wave-instructions per CPU-second, functional / timing | %.3g / %.3g (x%.2f) | |\n", gemm_rate,
              prof_rate, prof_rate > 0 ? gemm_rate / prof_rate : 0.0);
  return 0;
}

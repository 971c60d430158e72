// The timing model on small kernels whose cycle counts are computed by hand from the figures of
// timing.md (never from the model's output), the profile-vs-run identity, and the formats.
// Kernels: bench/timing/microbench.hpp (hipasm kernels; microbench.hip builds them into one code object).
#include <cmath>
#include <cstring>
#include <fstream>

#include "timing/timing.hpp"
#include "timing_harness.hpp"

using namespace timingtest;

// Timing facts used below (timing.md): T2 one SIMD per cycle round-robin, so a SIMD issues every
// 4 cycles, at most one VALU per SIMD per turn; T3 a wave64 VALU op takes 4 cycles; T4 MFMA
// cycles = 4 x passes (32x32x8 bf16: 8 passes = 32 cycles, an accumulate chain needs no extra
// wait); T5 LDS: a port moves 64 B/clk (b32 no conflict 4 cycles/instr, 4-way 16, full 64),
// ds_read_b32 latency 52 cycles. s_endpgm issues on the next turn and the wave ends 4 cycles later.

TEST_CASE("timing: a chain of 64 dependent VALU ops issues one per 4 cycles", "[timing]") {
  bench b;
  // 64 x v_add_u32 v1, v1, v0 at cycles 0, 4, ..., 252 (each result ready 4 cycles later,
  // exactly the next turn), s_endpgm at 256, the wave is gone at 260.
  CHECK(b.cycles("valu_chain") == 4 * (64 + 1));
}

TEST_CASE("timing: two waves on one SIMD share its VALU issue slot", "[timing]") {
  bench b;
  // 8 waves = 2 per SIMD (waves i and i+4 share SIMD i % 4). One VALU per SIMD per turn: on
  // SIMD 0 the older wave issues its 64 VALU ops at 0..252, the younger at 256..508 (s_endpgm
  // issues with no unit, alongside), its s_endpgm at 512, gone at 516. SIMD s has its turns on
  // cycles s mod 4 (T2: one SIMD per cycle, round-robin), so SIMD 3 finishes last, at 516 + 3.
  auto r = b.profile("valu_chain", 1, 512);
  CHECK(r.profile->cycles == 4 * (2 * 64 + 1) + 3);
  // Each younger wave waited 64 turns for the slot: 4 SIMDs x 256 wave-cycles of issue conflict.
  CHECK(r.profile->stalls[size_t(hipasm::rt::stall_reason::issue_conflict)] == 4 * 256);
  CHECK(r.profile->waves_info[4].simd == r.profile->waves_info[0].simd);
}

TEST_CASE("timing: an MFMA accumulate chain runs at 4 cycles per pass", "[timing]") {
  bench b;
  // 32 x v_mfma_f32_32x32x8_bf16 on the same accumulator: 8 passes = 32 cycles each, no extra
  // wait for the accumulate chain (T4: SrcC from the same-size MFMA needs 0 wait states); the
  // last result is written at 32 x 32.
  CHECK(b.cycles("mfma_dep_32x32x8_bf16") == 32 * 32);
  // 16x16x16 bf16: 4 passes = 16 cycles.
  CHECK(b.cycles("mfma_dep_16x16x16_bf16") == 32 * 16);
}

TEST_CASE("timing: bank-conflicted ds_read_b32", "[timing]") {
  bench b;
  // v_mul_u32_u24 at 0 (address ready at 4); 32 ds_read_b32 issued from 4 on, serialised on the
  // port at c cycles each; the last returns at 4 + 32c + 48 (52-cycle latency = 48 + the 4
  // transfer cycles of a conflict-free read); s_waitcnt issues then, s_endpgm 4 later, gone 4
  // later: 60 + 32c. c = 4 (stride 1 dword: no conflict), 16 (stride 4: 4-way), 64 (stride 32:
  // every lane on one bank, one dword per cycle).
  CHECK(b.cycles("lds_b32_stride1") == 60 + 32 * 4);
  CHECK(b.cycles("lds_b32_stride4") == 60 + 32 * 16);
  CHECK(b.cycles("lds_b32_stride32") == 60 + 32 * 64);
  auto r = b.profile("lds_b32_stride32", 1, 64);
  // The wait for the conflicted reads is attributed to bank conflicts: 32 x (64 - 4) cycles.
  CHECK(r.profile->stalls[size_t(hipasm::rt::stall_reason::lds_bank_conflict)] == 32 * 60);
}

TEST_CASE("timing: buffer traffic follows the functional range check (soffset, each dword)", "[timing]") {
  bench b;
  // microbench.hpp vmem_range_soffset: 256 + 0 (out of range by soffset alone) + 256 + 248 bytes
  // (before: soffset ignored and a partly in-range dwordx4 dropped whole, 1008).
  auto r = b.profile("vmem_range_soffset", 1, 64);
  CHECK(r.profile->vmem_bytes == 760);
}

TEST_CASE("timing: buffer_wbl2 / buffer_inv (no V#) are profiled as VMEM that moves no data", "[timing]") {
  bench b;
  // microbench.hpp vmem_cache_controls: a 256-byte store, buffer_wbl2 sc1, the load back,
  // buffer_inv sc1 (before: the profile stopped with "operand kind cannot be read as a scalar",
  // reading a V# these instructions do not have).
  auto r = b.profile("vmem_cache_controls", 1, 64);
  REQUIRE(r.profile);
  CHECK(r.profile->vmem_bytes == 512);
  CHECK(r.diagnostics.empty());
}

// Profiles KERNEL(buf, groups) over `groups` one-wave workgroups on one host thread (the
// functional run then takes them in id order: workgroup 0 first), buf 32 zero u64.
static hipasm::rt::launch_report groups_one_thread(bench& b, const char* kernel, hipasm::rt::buffer<uint64_t>& buf,
                                                   uint32_t groups = 2) {
  hipasm::rt::kernel_args args;
  args.add(buf.addr()).add(groups);
  hipasm::rt::profile_options po;
  hipasm::rt::launch_options lo;
  lo.profile = &po;
  lo.threads = 1;
  return b.dev->launch(*b.mod, kernel, {groups, 1, 1}, {64, 1, 1}, args, lo);
}

TEST_CASE("timing: a load that read another workgroup's atomic issues after that atomic completes", "[timing]") {
  // microbench.hpp poll_counter: workgroup 1 polls a counter that workgroup 0 sets after 4 x
  // 6400 cycles of s_sleep. On one thread, in order, workgroup 1's single recorded poll read the
  // final value: replayed as recorded, it issued at once and workgroup 1 ended ~25000 cycles
  // before workgroup 0 (before: 1340 against 26280). Now the poll waits for the atomic: workgroup
  // 1 ends a load's round trip after it, later than workgroup 0, and the wait counts as vmcnt.
  bench b;
  hipasm::rt::buffer<uint64_t> buf(*b.dev, std::vector<uint64_t>(32, 0));
  auto r = groups_one_thread(b, "poll_counter", buf);
  REQUIRE(r.profile);
  CHECK(r.diagnostics.empty());
  CHECK(buf.download()[0] == 64);  // every lane of workgroup 0 added 1
  const auto& w = r.profile->waves_info;
  REQUIRE(w.size() == 2);
  INFO("workgroup 0 ends at " << w[0].end << ", workgroup 1 at " << w[1].end);
  CHECK(w[0].end >= 4 * 6400);
  CHECK(w[1].end > w[0].end);
  CHECK(r.profile->stalls[size_t(hipasm::rt::stall_reason::vmcnt)] >= 4 * 6400);
}

TEST_CASE("timing: the last arrival's returning atomic is performed after the others' additions; only it waits", "[timing]") {
  // microbench.hpp last_arrival of 3 workgroups: workgroup 0 counts in after 4 x 6400 cycles of
  // s_sleep, workgroups 1 and 2 at once. On one thread, in id order, workgroup 2's atomic
  // returned 2 (it saw the others' additions): it is the last arrival and runs the combine.
  // Replayed as recorded, its atomic issued at once and the combine ended ~25000 cycles before
  // the part it combines existed (a split-K reduction timed before its partial sums); now it is
  // performed after workgroup 0's, and the wait counts as vmcnt. Workgroup 1's returned 1 but is
  // not last: holding it too would end it after workgroup 0 (a fused MoE's stage-2 groups, which
  // count in at one counter, took 2.5x their time so).
  bench b;
  hipasm::rt::buffer<uint64_t> buf(*b.dev, std::vector<uint64_t>(32, 0));
  auto r = groups_one_thread(b, "last_arrival", buf, 3);
  REQUIRE(r.profile);
  CHECK(r.diagnostics.empty());
  const auto out = buf.download();
  CHECK(out[0] == 0);  // the last arrival zeroed the counter
  CHECK(out[1] == 1);  // and wrote its mark once
  const auto& w = r.profile->waves_info;
  REQUIRE(w.size() == 3);
  INFO("ends: " << w[0].end << ", " << w[1].end << ", " << w[2].end);
  CHECK(w[0].end >= 4 * 6400);
  CHECK(w[1].end < 4 * 6400);
  CHECK(w[2].end > w[0].end);
  CHECK(r.profile->stalls[size_t(hipasm::rt::stall_reason::vmcnt)] >= 4 * 6400);
}

TEST_CASE("timing: a profile's outputs are bit-identical to a plain run's", "[timing]") {
  bench b;
  // stream_copy: 8 workgroups x 4 waves each read 8 KiB of buf and write it to buf + n.
  const uint32_t groups = 8, half = groups * 4 * 8 * 1024;
  std::vector<uint64_t> init(2 * half / 8);
  for (size_t i = 0; i < init.size(); ++i) init[i] = i * 0x9E3779B97F4A7C15ull;
  auto launch = [&](bool profiled) {
    hipasm::rt::buffer<uint64_t> buf(*b.dev, init);
    hipasm::rt::kernel_args args;
    args.add(buf.addr()).add(half);
    hipasm::rt::profile_options po;
    hipasm::rt::launch_options lo;
    if (profiled) lo.profile = &po;
    auto r = b.dev->launch(*b.mod, "stream_copy", {groups, 1, 1}, {256, 1, 1}, args, lo);
    CHECK(bool(r.profile) == profiled);
    return std::make_pair(buf.download(), r);
  };
  auto [plain, rp] = launch(false);
  auto [timed, rt] = launch(true);
  CHECK(plain == timed);
  CHECK(std::equal(plain.begin(), plain.begin() + half / 8, plain.begin() + half / 8));  // the copy happened
  CHECK(rp.instructions == rt.instructions);
  CHECK(rp.lane_operations == rt.lane_operations);
  CHECK(rp.diagnostics == rt.diagnostics);
}

TEST_CASE("timing: the checker still runs in timing mode", "[timing]") {
  // pending_read__bad (tests/sim/checker) uses a load's result without s_waitcnt: the checker
  // reports it in both modes, the same finding.
  auto dev = hipasm::rt::device::open(hipasm::rt::backend::sim);
  auto mod = dev->load_file(HIPASM_TIMING_CHECKER_KERNELS);
  hipasm::rt::buffer<uint32_t> buf(*dev, 65536 / 4);
  buf.upload(std::vector<uint32_t>(65536 / 4, 0));
  hipasm::rt::kernel_args args;
  args.add(buf.addr());
  hipasm::rt::profile_options po;
  hipasm::rt::launch_options lo;
  auto plain = dev->launch(*mod, "pending_read__bad", {1, 1, 1}, {64, 1, 1}, args, lo);
  lo.profile = &po;
  auto timed = dev->launch(*mod, "pending_read__bad", {1, 1, 1}, {64, 1, 1}, args, lo);
  REQUIRE(!plain.diagnostics.empty());
  CHECK(plain.diagnostics == timed.diagnostics);
  REQUIRE(timed.profile);
  CHECK(timed.profile->cycles > 0);
}

TEST_CASE("timing: JSON report and Perfetto trace are well-formed", "[timing]") {
  const std::string dir = HIPASM_TIMING_TMP;
  const std::string trace = dir + "/timing_trace.json", json = dir + "/timing_report.json";
  std::remove(trace.c_str());
  int st = -1;
  const std::string cmd = std::string(HIPASM_SIM_CLI) + " profile " + HIPASM_TIMING_MICROBENCH +
                          " coexec_mfma_3valu_mfma_exp --grid 2 --block 256 --arg out=/dev/null:64 --arg u32=0 "
                          "--json --trace-out " + trace + " > " + json;
  shell_output(cmd, &st);
  REQUIRE(st == 0);
  // Python's json module is the oracle for well-formedness; the keys are issue 10's.
  const std::string check = shell_output(
      "python3 -c \"import json,sys\n"
      "r=json.load(open('" + json + "'))\n"
      "need=['cycles','clock_mhz','time_us','tflops','hbm_gbps','mfma_busy','valu_busy','waves_per_simd','stalls',"
      "'time_us_peak','time_us_sustained','clock_estimated','occupancy_limiter','instructions']\n"
      "miss=[k for k in need if k not in r]\n"
      "t=json.load(open('" + trace + "'))\n"
      "ev=t['traceEvents']\n"
      "x=[e for e in ev if e['ph']=='X']\n"
      "ok=all(isinstance(e['ts'],(int,float)) and e['dur']>=0 and 'pid' in e and 'tid' in e for e in x)\n"
      "names=set(e['name'] for e in ev if e['ph']=='M')\n"
      "cnt=set(e['name'] for e in ev if e['ph']=='C')\n"
      "stall=[e for e in x if e['name'].startswith('stall: ')]\n"
      "print(len(miss), ok, 'thread_name' in names and 'process_name' in names, 'MFMA busy' in cnt, len(stall)>0,"
      " r['cycles']>0, sorted(r['stalls'].keys())==sorted(['vmcnt','lgkmcnt','expcnt','register_dependency',"
      "'mfma_dependency','unit_busy','barrier','nop_sleep','issue_conflict','lds_bank_conflict']))\"");
  CHECK(check == "0 True True True True True True\n");
  // A kernel with vector-memory traffic also gets the "VMEM bytes in flight" counter (issue 10).
  const std::string trace2 = dir + "/timing_trace_vmem.json";
  std::remove(trace2.c_str());
  shell_output(std::string(HIPASM_SIM_CLI) + " profile " + HIPASM_TIMING_MICROBENCH +
                   " stream_read --grid 1 --block 256 --arg out=/dev/null:32768 --arg u32=0 --trace-out " + trace2 +
                   " > /dev/null",
               &st);
  REQUIRE(st == 0);
  const std::string check2 = shell_output(
      "python3 -c \"import json\n"
      "ev=json.load(open('" + trace2 + "'))['traceEvents']\n"
      "c=[e['args']['bytes'] for e in ev if e['ph']=='C' and e['name']=='VMEM bytes in flight']\n"
      "print(len(c)>0, max(c)>0, c[-1]==0)\"");
  CHECK(check2 == "True True True\n");
}

TEST_CASE("timing: the text report, timeline and bad options", "[timing]") {
  int st = -1;
  const std::string base = std::string(HIPASM_SIM_CLI) + " profile " + HIPASM_TIMING_MICROBENCH +
                           " mfma_dep_32x32x8_bf16 --grid 1 --block 64 --arg out=/dev/null:64 --arg u32=0";
  std::string out = shell_output(base + " --timeline 0 --asm " + HIPASM_TIMING_MICROBENCH_ASM, &st);
  CHECK(st == 0);
  CHECK(out.find("cycles       1024") != std::string::npos);
  CHECK(out.find("occupancy") != std::string::npos);
  CHECK(out.find("hot spots") != std::string::npos);
  CHECK(out.find("v_mfma_f32_32x32x8_bf16 a[0:15]") != std::string::npos);
  CHECK(out.find("wave 0 (workgroup 0 wave 0)") != std::string::npos);
  shell_output(base + " --device mi999x 2>&1", &st);
  CHECK(WEXITSTATUS(st) == 2);
  out = shell_output(base + " --timeline 5 2>&1", &st);
  CHECK(WEXITSTATUS(st) == 1);
  CHECK(out.find("wave 5 does not exist") != std::string::npos);
  out = shell_output(base + " --clock 0 2>&1", &st);
  CHECK(WEXITSTATUS(st) == 2);
  out = shell_output(base + " --sample 0 2>&1", &st);
  CHECK(WEXITSTATUS(st) == 2);
  out = shell_output(base + " --sample 39 2>&1", &st);  // more than one XCD's 38 CUs
  CHECK(WEXITSTATUS(st) == 1);
  CHECK(out.find("at most the 38 CUs of one XCD") != std::string::npos);
}

TEST_CASE("timing: device tables differ only in their numbers", "[timing]") {
  bench b;
  hipasm::rt::profile_options po;
  po.device = "mi308x";
  auto r = b.profile("valu_chain", 1, 64, po);
  CHECK(r.profile->cus == 80);
  CHECK(r.profile->xcds == 4);  // T1: rocprofiler-compute's mi_gpu_spec.yaml (mi308x, SPX: 4 XCDs)
  CHECK(r.profile->cycles == 4 * (64 + 1));
  po.device = "nope";
  CHECK_THROWS_WITH(b.profile("valu_chain", 1, 64, po), Catch::Contains("unknown device 'nope'"));
}

TEST_CASE("timing: an asm listing's locations carry to the lines that print none", "[timing]") {
  // hipasm prints "; file:line" where it changes and after each label (emit.hpp): a line
  // without one is the line before's, up to a label or an inline-asm boundary.
  const std::string path = std::string(HIPASM_TIMING_TMP) + "/carry.s";
  {
    std::ofstream f(path);
    f << "\t.text\nk:\n\ts_load_dword s2, s[0:1], 0x0\n\t;;#ASMSTART\n"
         "\tv_add_u32 v1, v2, v3 ; k.hpp:10 x\n"
         "\tv_add_u32_e32 v1, v2, v3 ; x\n"
         "\ts_nop 0\n"
         ".Lk_0_bb1:\n"
         "\ts_waitcnt vmcnt(0)\n"
         "\tv_mov_b32 v0, 0 ; k.hpp:12\n"
         "\ts_cbranch_scc0 .Lk_0_bb1\n"
         "\t;;#ASMEND\n\ts_endpgm\n.Lfunc_end0:\n";
  }
  const auto lines = hipasm::sim::asm_source_lines(path, "k");
  REQUIRE(lines.size() == 8);
  const char* want[8][2] = {{"s_load_dword", ""},    {"v_add_u32", "k.hpp:10"}, {"v_add_u32", "k.hpp:10"},
                            {"s_nop", "k.hpp:10"},   {"s_waitcnt", ""},         {"v_mov_b32", "k.hpp:12"},
                            {"s_cbranch_scc0", "k.hpp:12"}, {"s_endpgm", ""}};
  for (size_t i = 0; i < 8; ++i) {
    INFO("line " << i);
    CHECK(lines[i].mnemonic == want[i][0]);
    CHECK(lines[i].source == want[i][1]);
  }
}

#ifdef HIPASM_TIMING_VECTOR_ADD
TEST_CASE("timing: hot spots of a hipasm kernel name the user's source lines", "[timing]") {
  // examples/vector_add: hipasm prints "; vector_add.hpp:N" after each instruction of its asm.
  auto dev = hipasm::rt::device::open(hipasm::rt::backend::sim);
  auto mod = dev->load_file(HIPASM_TIMING_VECTOR_ADD ".co");
  const uint32_t n = 4096;
  hipasm::rt::buffer<float> a(*dev, std::vector<float>(n, 1.0f)), bb(*dev, std::vector<float>(n, 2.0f)),
      c(*dev, std::vector<float>(n, 0.0f));
  hipasm::rt::kernel_args args;
  args.add(c.ptr()).add(a.ptr()).add(bb.ptr()).add(n);
  hipasm::rt::profile_options po;
  po.asm_source = HIPASM_TIMING_VECTOR_ADD ".s";
  hipasm::rt::launch_options lo;
  lo.profile = &po;
  auto r = dev->launch(*mod, "vector_add", {n / 256, 1, 1}, {256, 1, 1}, args, lo);
  REQUIRE(r.profile);
  CHECK(c.download() == std::vector<float>(n, 3.0f));
  size_t with_source = 0, issued = 0;
  for (const auto& in : r.profile->insts) {
    if (!in.issued) continue;
    ++issued;
    with_source += in.source.rfind("vector_add.hpp:", 0) == 0;
  }
  CHECK(issued > 5);
  // Every instruction hipasm emitted has its line, and clang emits none of its own before the
  // inline asm (unused entry-state operands are immediates, the LDS operand folds into s[0:1]).
  CHECK(with_source == issued);
  CHECK(r.profile->report().find("; vector_add.hpp:") != std::string::npos);
  // A listing of another kernel does not match the code: a clear error, not wrong lines.
  po.asm_source = HIPASM_TIMING_MICROBENCH_ASM;
  CHECK_THROWS_WITH(dev->launch(*mod, "vector_add", {n / 256, 1, 1}, {256, 1, 1}, args, lo),
                    Catch::Contains("asm listing"));
}
#endif

TEST_CASE("timing: the estimated clock is the clock its schedule runs at", "[timing]") {
  // A streaming kernel beside the matrix cores on every CU: at a lower clock HBM gives more
  // bytes per cycle, the MFMA share per cycle and the power rise, and the clock falls again. The
  // reported schedule must be the one at the reported clock: the same dispatch at that clock,
  // given, takes the same cycles (a schedule run at the first estimate differs by ~1%).
  bench b;
  const uint32_t groups = 608, trips = 8;
  const size_t bytes = size_t(groups) * trips * 16384;
  auto est = b.profile("stream_mfma", groups, 256, {}, bytes, nullptr, trips);
  REQUIRE(est.profile->clock_estimated);
  CHECK(est.profile->clock_mhz < 1900);  // power-limited
  hipasm::rt::profile_options given;
  given.clock_mhz = std::round(est.profile->clock_mhz);
  auto fixed = b.profile("stream_mfma", groups, 256, given, bytes, nullptr, trips);
  CHECK(double(est.profile->cycles) == Approx(double(fixed.profile->cycles)).epsilon(0.003));
}

TEST_CASE("timing: the clock follows the device's power (T7)", "[timing]") {
  bench b;
  // No MFMA: the peak clock (T7: VALU/EXP/HBM-load kernels stay near the maximum).
  auto v = b.profile("valu_chain", 1, 64);
  CHECK(v.profile->clock_estimated);
  CHECK(v.profile->clock_mhz == Approx(2100));
  // MI308X: its maximum is ~1.84 GHz (T7: pure VALU 1837-1850 MHz, unthrottled), not 2100.
  hipasm::rt::profile_options m8;
  m8.device = "mi308x";
  auto v8 = b.profile("valu_chain", 1, 64, m8);
  CHECK(v8.profile->clock_mhz == Approx(1840));
  // MI308X with every CU busy (T7, pyhip's steady clocks): back-to-back MFMAs 1014 MHz (within
  // 3%, the matrix cores ~95% busy), a VALU chain unthrottled (its VALU power fitted within T7's
  // bound: pure VALU 1837 MHz).
  hipasm::rt::profile_options m8all;
  m8all.device = "mi308x";
  m8all.sample_cus = 1;
  CHECK(b.profile("mfma_tput_32x32x8_bf16", 80, 256, m8all).profile->clock_mhz == Approx(1014).epsilon(0.03));
  CHECK(b.profile("valu_chain", 80 * 8, 256, m8all).profile->clock_mhz == Approx(1840));
  // Back-to-back MFMAs on one CU of an idle device draw 1/304 of a busy device's power: the peak
  // clock (the clock is the device's, set by the device's power, not one CU's).
  auto one = b.profile("mfma_tput_32x32x8_bf16", 1, 256);
  CHECK(one.profile->mfma_busy > 0.94);
  CHECK(one.profile->clock_mhz == Approx(2100));
  // The same on every CU (a one-CU slice of a grid of one workgroup per CU): T7's BF16 GEMM, 94%
  // of the matrix-core peak on every CU, ran at a median 1207 MHz (MAF blog); within 3%.
  hipasm::rt::profile_options all;
  all.sample_cus = 1;
  auto m = b.profile("mfma_tput_32x32x8_bf16", 304, 256, all);
  CHECK(m.profile->mfma_busy > 0.94);
  CHECK(m.profile->clock_mhz == Approx(1207).epsilon(0.03));
  // The phases carry the activity that set the clock: every CU holds its workgroup from the
  // start until its waves end (the dispatch's last cycles after that are the end-of-kernel
  // drain), matrix cores > 90% busy.
  REQUIRE(m.profile->clock_phases.size() == 1);  // shorter than one phase
  uint64_t last_end = 0;
  for (const auto& w : m.profile->waves_info) last_end = std::max(last_end, w.end);
  CHECK(m.profile->clock_phases.front().active_cus == Approx(double(last_end) / double(m.profile->cycles)));
  CHECK(m.profile->clock_phases.front().active_cus > 0.95);
  CHECK(m.profile->clock_phases.front().mfma > 0.9);
  CHECK(m.profile->clock_phases.front().power > 1);
  // A given clock is used as is.
  hipasm::rt::profile_options po;
  po.clock_mhz = 1500;
  auto g = b.profile("mfma_tput_32x32x8_bf16", 1, 256, po);
  CHECK(!g.profile->clock_estimated);
  CHECK(g.profile->clock_mhz == 1500);
  // The time is the schedule's cycles at the clock plus the device's dispatch overhead
  // (device.hpp), also in the peak and sustained times.
  CHECK(g.profile->dispatch_overhead_us > 0);
  CHECK(g.profile->time_us == Approx(g.profile->cycles / 1500.0 + g.profile->dispatch_overhead_us));
  CHECK(g.profile->time_us_peak == Approx(g.profile->cycles_at_peak / 2100.0 + g.profile->dispatch_overhead_us));
  CHECK(g.profile->time_us_sustained ==
        Approx(g.profile->cycles_at_sustained / 1207.0 + g.profile->dispatch_overhead_us));
}

TEST_CASE("timing: a dispatch's idle tail keeps its busy phases' clock", "[timing]") {
  namespace tm = hipasm::sim::timing;
  // Three phases with every CU active and the matrix cores 94% busy, then a tail on half the
  // CUs without MFMA. MI300X power: static + cu x 1 + 0.634 x 0.94 = 1.172 + 0.596 = 1.768 ->
  // 2100 / 1.768 = 1188 MHz; the tail alone static + cu x 0.5 = 0.54 + 0.632 x 0.5 = 0.856, under
  // the limit (2100 MHz). The controller does not raise the clock within the dispatch
  // (device.hpp): the tail runs at 1188 MHz too.
  tm::DeviceSpec dev = *tm::find_device("mi300x");
  REQUIRE(dev.clock_average_phases == 3);
  REQUIRE(dev.power_static + dev.power_cu == Approx(1.172));
  auto phases = [](std::initializer_list<bool> busy, double light_cus) {
    std::vector<hipasm::rt::clock_phase> ph;
    for (bool b : busy) {
      hipasm::rt::clock_phase p;
      p.start = ph.size() * 8192, p.end = p.start + 8192;
      p.active_cus = b ? 1 : light_cus, p.mfma = b ? 0.94 : 0;
      ph.push_back(p);
    }
    return ph;
  };
  auto ph = phases({true, true, true, false}, 0.5);
  tm::set_phase_clocks(dev, ph);
  for (const auto& p : ph) CHECK(p.clock_mhz == 1188);
  CHECK(ph[3].power == Approx(0.856));  // each phase keeps its own power
  CHECK(tm::phases_us(ph) == Approx(4 * 8192.0 / 1188));
  // One busy phase between idle ones (no CU active: the static power alone, 0.54): averaged over
  // 3 phases, (1.768 + 2 x 0.54) / 3 = 0.949, under the limit: the burst alone does not lower the
  // clock. Between phases on half the CUs, (1.768 + 2 x 0.856) / 3 = 1.160: 2100 / 1.160 = 1810.
  auto burst = phases({false, true, false}, 0);
  tm::set_phase_clocks(dev, burst);
  for (const auto& p : burst) CHECK(p.clock_mhz == 2100);
  auto half = phases({false, true, false}, 0.5);
  tm::set_phase_clocks(dev, half);
  for (const auto& p : half) CHECK(p.clock_mhz == 1810);
  // A controller that followed each phase would run the tail at the peak clock.
  dev.clock_holds_lowest = false;
  tm::set_phase_clocks(dev, ph);
  CHECK(ph[0].clock_mhz == 1188);
  CHECK(ph[3].clock_mhz == 2100);
}

TEST_CASE("timing: workgroups of one wave spread over the CU's SIMDs", "[timing]") {
  bench b;
  // 4 one-wave workgroups on one CU (sample_cus = 1 runs the share of one CU of XCD 0: 1216 groups
  // over 8 x 38 CUs). LLVM's occupancy model (AMDGPUBaseInfo getMaxWorkGroupsPerCU) lets single-wave
  // workgroups fill all 32 wave slots of a CU, so they cannot all sit on SIMD 0: each new wave goes
  // to the SIMD with the fewest resident waves. Then each wave has a SIMD of its own: 64 VALU ops at
  // one per turn, s_endpgm, gone 4 later (4 x 65), SIMD 3's turns 3 cycles after SIMD 0's. With all 4
  // on SIMD 0 (the model before) they took 4 x (4 x 64 + 1).
  hipasm::rt::profile_options po;
  po.sample_cus = 1;
  auto r = b.profile("valu_chain", 8 * 38 * 4, 64, po);
  REQUIRE(r.profile->waves_info.size() >= 4);
  std::vector<uint32_t> simds;
  for (const auto& w : r.profile->waves_info)
    if (w.xcd == 0 && w.cu == 0) simds.push_back(w.simd);
  std::sort(simds.begin(), simds.end());
  CHECK(simds == std::vector<uint32_t>{0, 1, 2, 3});
  CHECK(r.profile->cycles == 4 * (64 + 1) + 3);
  CHECK(r.profile->stalls[size_t(hipasm::rt::stall_reason::issue_conflict)] == 0);
}

TEST_CASE("timing: s_setprio orders issue before age", "[timing]") {
  bench b;
  // 8 waves: waves 0 and 4 share SIMD 0 (T1). Waves 4-7 run s_setprio 3 before their chain of 64
  // dependent VALU ops; the ISA's S_SETPRIO makes the priority {user priority, age}, so once wave 4
  // has raised it, it wins the VALU slot at every turn: its chain finishes before wave 0's. Without
  // priority (valu_chain) the older wave 0 issues all of its 64 first.
  hipasm::rt::profile_options po;
  po.keep_events = true;
  auto plain = b.profile("valu_chain", 1, 512, po);
  const auto old0 = issues(*plain.profile, "v_add_u32", 0), young0 = issues(*plain.profile, "v_add_u32", 4);
  REQUIRE(old0.size() == 64);
  REQUIRE(young0.size() == 64);
  CHECK(old0.back() < young0.front());
  auto prio = b.profile("valu_chain_prio", 1, 512, po);
  const auto old1 = issues(*prio.profile, "v_add_u32", 0), young1 = issues(*prio.profile, "v_add_u32", 4);
  REQUIRE(old1.size() == 64);
  REQUIRE(young1.size() == 64);
  // wave 0 gets the slot only on the few turns before wave 4 reaches its chain.
  const auto before = std::count_if(old1.begin(), old1.end(), [&](uint64_t c) { return c < young1.back(); });
  CHECK(before <= 4);
  CHECK(young1.back() < old1.back());
}

TEST_CASE("report: MFMA peak classes and the devices' peaks", "[timing][report]") {
  using hipasm::rt::peak_dtype;
  namespace tm = hipasm::sim::timing;
  // The class by the instruction's inputs (f8f6f4: by cbsz / blgp, 0-1 fp8/bf8, 2-3 fp6, 4 fp4).
  CHECK(tm::mfma_dtype("v_mfma_f32_32x32x8_bf16", 0, 0) == peak_dtype::f16);
  CHECK(tm::mfma_dtype("v_mfma_f32_4x4x4_16b_f16", 0, 0) == peak_dtype::f16);
  CHECK(tm::mfma_dtype("v_mfma_i32_16x16x32_i8", 0, 0) == peak_dtype::fp8);
  CHECK(tm::mfma_dtype("v_mfma_f32_16x16x32_bf8_fp8", 0, 0) == peak_dtype::fp8);
  CHECK(tm::mfma_dtype("v_mfma_f32_16x16x8_xf32", 0, 0) == peak_dtype::xf32);
  CHECK(tm::mfma_dtype("v_mfma_f32_32x32x2_f32", 0, 0) == peak_dtype::f32);
  CHECK(tm::mfma_dtype("v_mfma_f64_16x16x4_f64", 0, 0) == peak_dtype::f64);
  CHECK(tm::mfma_dtype("v_mfma_scale_f32_16x16x128_f8f6f4", 4, 4) == peak_dtype::fp6_fp4);
  CHECK(tm::mfma_dtype("v_mfma_f32_32x32x64_f8f6f4", 2, 4) == peak_dtype::fp6_fp4);
  CHECK(tm::mfma_dtype("v_mfma_f32_32x32x64_f8f6f4", 4, 1) == peak_dtype::fp8);  // an fp8 input: fp8's rate
  // The peaks against the data sheets (T7: MI300X 1307.4 bf16, 2614.9 fp8, 163.4 fp64 matrix
  // TFLOP/s; G5: MI355X 2.5 PF bf16, 5.0 fp8, 10.1 fp6/fp4, 78.6 TF fp64 matrix).
  const std::tuple<const char*, peak_dtype, double> peaks[] = {
      {"mi300x", peak_dtype::f16, 1307.4},   {"mi300x", peak_dtype::fp8, 2614.9}, {"mi300x", peak_dtype::f64, 163.4},
      {"mi355x", peak_dtype::f16, 2516.6},   {"mi355x", peak_dtype::fp8, 5033.2}, {"mi355x", peak_dtype::fp6_fp4, 10066.3},
      {"mi355x", peak_dtype::f64, 78.6}};
  for (auto [dev, t, want] : peaks) {
    INFO(dev << " " << hipasm::rt::peak_dtype_name(t));
    hipasm::rt::profile p;
    p.flops_by_dtype[size_t(t)] = 1e12;
    p.tflops = want / 2;
    tm::summarize_bound(p, *tm::find_device(dev));
    CHECK(p.dtype == t);
    CHECK(std::abs(p.peak_tflops - want) < 0.05);
    CHECK(std::abs(p.peak_share - 0.5) < 1e-3);
  }
  // No fp6/fp4 MFMA on gfx942: no peak, no share.
  hipasm::rt::profile p;
  p.flops_by_dtype[size_t(peak_dtype::fp6_fp4)] = 1;
  tm::summarize_bound(p, *tm::find_device("mi300x"));
  CHECK(p.peak_tflops == 0);
  CHECK(p.peak_share == 0);
}

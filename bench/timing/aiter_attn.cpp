// Predicted vs measured for attention: runs AMD aiter's hand-written flash-attention code objects
// (fmha_v3_fwd, fmha_v3_bwd; hd128 bf16, batch mode) in timing mode on the rows of the table AMD
// published in op_tests/cpp/mha/README.md, and prints the model's time next to the time the
// table's MI300X (--arch gfx942) or MI355X (--arch gfx950) TFLOP/s give.
//
//   hipasm-timing-attn AITER_DIR [--arch gfx942|gfx950] [--family fwd|a16|a32]... [--rows all|cal|test]
//                      [--max-gflop G] [--sample CUS] [--batch B] [--seqlen S] [--heads H]
//                      [--causal 0|1] [--clock MHZ] [--layout bshd|bhsd] [--report] [--trace FILE]
//                      [--phases FILE] [--max-error E] [--budget N]
//
// --budget N: wave-instructions a row may run (the simulator's default otherwise; a slice of
// several CUs of the largest rows needs more; each costs 16 bytes of the recorded stream).
// --max-error E: exit 1 when a row's |predicted / measured - 1| exceeds E, or a row fails.
// AITER_DIR for gfx942: aiter at the table's commit (a83421bee6): its code objects and argument
// structs (later bwd code objects take a longer struct). For gfx950 (fwd only): a newer aiter
// with hsa/gfx950/fmha_v3_fwd (fwd_hd128_bf16[_causal].co, bf16_cvt 0, ts_qo 256, the same grid
// and 512 threads; fmha_fwd_v3_args with the fp8 descale fields appended, zero here; the
// README's table of that aiter has the MI300X and MI355X columns only). Nothing of aiter is part
// of this project; without the folder the program says so and exits 0.
//
// Families (the table's MI300X columns):
//   fwd  FWD: fmha_v3_fwd/MI300/fwd_hd128_bf16[_causal]_rtna.co (benchmark_mha_fwd's default
//        v3_bf16_cvt 1 = RTNA), fmha_fwd_v3_args (csrc/include/mha_fwd.h), the grid of
//        hsa/gfx942/fmha_v3_fwd/codegen.py launch_kernel: (ceil(ceil(s / 256) / (causal ? 2 : 1)),
//        h, b) x 512 threads; s_opt 5, 3 for causal rows with h % 8 != 0 or s > 16384.
//   a16  BWD-a16: dot_do_o, then fmha_v3_bwd/bwd_hd128_bf16[_causal]_a16_rtz.co (the README's
//        command: -v3_atomic_fp32=0 -v3_bf16_cvt=2), dq accumulated with bf16 atomics into dq.
//   a32  BWD-a32: dot_do_o, bwd_hd128_bf16[_causal]_a32_rtz.co (dq accumulated in f32 into
//        dq_acc, BHSD), then convert_dq. Both bwd: fmha_bwd_v3_args (csrc/include/mha_bwd.h),
//        filled as hsa/gfx942/fmha_v3_bwd/codegen.py fmha_bwd_v3_ does, grid (ceil(s / 192)
//        [halved, rounded up, for causal], h, b) x 256 threads.
// The bwd timings of the table are of aiter::mha_bwd, which launches dot_do_o (D = rowsum(dO * O))
// before, and for a32 convert_dq after, the asm kernel; both are composable-kernel templates (no
// code object to run), so they are predicted as what they are, streaming kernels: their bytes at
// the model's streaming HBM rate plus the model's dispatch overhead each ("stream" column).
// Measured time = FLOPs / TFLOP/s with the table's FLOPs: fwd 4 s^2 d per head, bwd 10 s^2 d
// (benchmark_mha_*.cpp), both halved for causal rows (as the table does).
// Roles: the batch-4 rows are calibration rows (cal), every other row a test row.
// Data: zeros (timing does not depend on values).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "aiter_asm_gemm.hpp"  // metadata_args
#include "elf.hpp"
#include "hipasm/sim/launcher.hpp"
#include "phases.hpp"
#include "timing/device.hpp"

namespace fs = std::filesystem;
namespace rt = hipasm::rt;
namespace sim = hipasm::sim;

namespace {

struct Row {
  uint32_t b, h, hk, s;
  bool causal;
  double fwd, a16, a32;  // MI300X TFLOP/s
  double fwd355, a16_355, a32_355;  // MI355X TFLOP/s
};

// The README's performance table: | batch | q_nheads | kv_nheads | seqlen_q | seqlen_kv | hdim |
// casual | FWD MI308 | MI300X | MI355 | BWD-a16 MI308 | MI300 | MI355 | BWD-a32 MI308 | MI300 | MI355 |
// (at a83421), or the same without the MI308 columns (13 cells, later aiter).
std::vector<Row> read_table(const fs::path& readme) {
  std::ifstream in(readme);
  std::vector<Row> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] != '|') continue;
    std::vector<std::string> cells;
    std::stringstream ss(line.substr(1));
    std::string c;
    while (std::getline(ss, c, '|')) cells.push_back(c);
    if (cells.size() < 13) continue;
    std::vector<double> v;
    for (size_t i = 0; i < cells.size() && i < 16; ++i) {
      char* end = nullptr;
      const double x = std::strtod(cells[i].c_str(), &end);
      if (end == cells[i].c_str()) break;
      v.push_back(x);
    }
    if ((v.size() != 16 && v.size() != 13) || v[5] != 128 || v[3] != v[4]) continue;
    const bool mi308 = v.size() == 16;  // per family: [MI308,] MI300X, MI355X
    const int f = 7, step = mi308 ? 3 : 2, o = mi308 ? 1 : 0;
    rows.push_back({uint32_t(v[0]), uint32_t(v[1]), uint32_t(v[2]), uint32_t(v[3]), v[6] != 0, v[f + o],
                    v[f + step + o], v[f + 2 * step + o], v[f + o + 1], v[f + step + o + 1], v[f + 2 * step + o + 1]});
  }
  return rows;
}

// A struct whose every field is padded to 16 bytes (aiter's p2/p3 padding); metadata_args
// slices it into the code object's arguments.
struct Padded {
  std::vector<uint8_t> raw;
  void put64(uint64_t x) { put(&x, 8); }
  void put32(uint32_t x) { put(&x, 4); }
  void putf(float x) { put(&x, 4); }
  void put(const void* p, size_t n) {
    const size_t at = raw.size();
    raw.resize(at + 16, 0);
    std::memcpy(raw.data() + at, p, n);
  }
};

std::string mangled(const std::string& name) { return "_ZN5aiter" + std::to_string(name.size()) + name + "E"; }

double median(std::vector<double> e) {
  std::sort(e.begin(), e.end());
  return e.size() % 2 ? e[e.size() / 2] : (e[e.size() / 2 - 1] + e[e.size() / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: %s AITER_DIR [--arch gfx942|gfx950] [--family fwd|a16|a32]... [--rows all|cal|test] [--max-gflop G]\n"
                 "       [--sample CUS] [--batch B] [--seqlen S] [--heads H] [--causal 0|1] [--clock MHZ]\n"
                 "       [--layout bshd|bhsd] [--report] [--trace FILE] [--phases FILE] [--max-error E]\n"
                 "       [--budget N]\n",
                 argv[0]);
    return 2;
  }
  const fs::path root = argv[1];
  std::set<std::string> families;
  std::string roles = "all", layout = "bshd", trace, phases_file, arch = "gfx942";
  double max_gflop = 1e9, clock = 0;
  unsigned sample = 0;
  uint64_t budget = 0;
  long only_b = -1, only_s = -1, only_h = -1, only_causal = -1;
  bool report = false;
  double max_error = -1;
  int over = 0;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has = i + 1 < argc;
    if (a == "--family" && has) {
      const std::string f = argv[++i];
      if (f != "fwd" && f != "a16" && f != "a32") {
        std::fprintf(stderr, "unknown family %s (fwd, a16, a32)\n", f.c_str());
        return 2;
      }
      families.insert(f);
    } else if (a == "--rows" && has) roles = argv[++i];
    else if (a == "--arch" && has) arch = argv[++i];
    else if (a == "--max-gflop" && has) max_gflop = std::atof(argv[++i]);
    else if (a == "--sample" && has) sample = unsigned(std::atoi(argv[++i]));
    else if (a == "--batch" && has) only_b = std::atol(argv[++i]);
    else if (a == "--seqlen" && has) only_s = std::atol(argv[++i]);
    else if (a == "--heads" && has) only_h = std::atol(argv[++i]);
    else if (a == "--causal" && has) only_causal = std::atol(argv[++i]);
    else if (a == "--clock" && has) clock = std::atof(argv[++i]);
    else if (a == "--layout" && has) layout = argv[++i];
    else if (a == "--trace" && has) trace = argv[++i];
    else if (a == "--phases" && has) phases_file = argv[++i];
    else if (a == "--report") report = true;
    else if (a == "--max-error" && has) max_error = std::atof(argv[++i]);
    else if (a == "--budget" && has) {
      char* end = nullptr;
      budget = std::strtoull(argv[++i], &end, 10);
      if (!*argv[i] || *argv[i] == '-' || *end || budget == 0) {
        std::fprintf(stderr, "--budget %s: a positive number of wave-instructions\n", argv[i]);
        return 2;
      }
    } else {
      std::fprintf(stderr, "unknown option %s\n", a.c_str());
      return 2;
    }
  }
  if ((roles != "all" && roles != "cal" && roles != "test") || (layout != "bshd" && layout != "bhsd") ||
      (arch != "gfx942" && arch != "gfx950")) {
    std::fprintf(stderr, "bad --rows, --layout or --arch\n");
    return 2;
  }
  const bool cdna4 = arch == "gfx950";
  if (cdna4 && (families.count("a16") || families.count("a32"))) {
    std::fprintf(stderr, "--arch gfx950: fwd only (the bwd code objects of later aiter take other arguments)\n");
    return 2;
  }
  if (families.empty()) families = cdna4 ? std::set<std::string>{"fwd"} : std::set<std::string>{"fwd", "a16", "a32"};
  const char* device = cdna4 ? "mi355x" : "mi300x";
  const fs::path readme = root / "op_tests/cpp/mha/README.md";
  const fs::path fwd_dir = cdna4 ? root / "hsa/gfx950/fmha_v3_fwd" : root / "hsa/gfx942/fmha_v3_fwd/MI300",
                 bwd_dir = root / "hsa/gfx942/fmha_v3_bwd";
  if (!fs::exists(readme) || !fs::exists(fwd_dir) || (!cdna4 && !fs::exists(bwd_dir))) {
    std::printf("aiter folder %s has no op_tests/cpp/mha/README.md or hsa/%s/fmha_v3_*: skipped\n", root.c_str(),
                arch.c_str());
    return 0;
  }
  const std::vector<Row> rows = read_table(readme);
  if (rows.empty()) {
    std::fprintf(stderr, "no hd128 rows in %s\n", readme.c_str());
    return 1;
  }
  constexpr uint32_t D = 128;
  const double kStreamGbps = hipasm::sim::timing::find_device(device)->hbm_achievable_gbytes_per_s;
  const double kOverheadUs = hipasm::sim::timing::find_device(device)->dispatch_overhead_us;
  std::map<std::string, std::vector<double>> errs;
  std::printf("%-4s %-4s %2s %3s %2s %6s %1s %9s %10s %10s %7s %7s %6s %5s %5s %6s %6s\n", "fam", "role", "b", "h", "hk",
              "s", "c", "GFLOP", "measured", "predicted", "error", "stream", "clock", "mfma", "cus", "groups", "wall");
  for (const std::string fam : {"fwd", "a16", "a32"}) {
    if (!families.count(fam)) continue;
    for (const Row& r : rows) {
      if ((only_b >= 0 && r.b != only_b) || (only_s >= 0 && r.s != only_s) || (only_h >= 0 && r.h != only_h) ||
          (only_causal >= 0 && r.causal != (only_causal != 0)))
        continue;
      const bool cal = r.b == 4;
      if ((roles == "cal" && !cal) || (roles == "test" && cal)) continue;
      const double tflops = cdna4 ? (fam == "fwd" ? r.fwd355 : fam == "a16" ? r.a16_355 : r.a32_355)
                                  : (fam == "fwd" ? r.fwd : fam == "a16" ? r.a16 : r.a32);
      const double per_head = double(r.s) * r.s * D * (fam == "fwd" ? 4.0 : 10.0);
      const double flop = per_head * r.b * r.h * (r.causal ? 0.5 : 1.0);
      if (flop / 1e9 > max_gflop) continue;
      const double measured_us = flop / (tflops * 1e6);
      // Layouts: [b, s, h, d] (bshd) or [b, h, s, d]; element strides of a tensor with `heads` heads.
      const bool bshd = layout == "bshd";
      auto stride = [&](uint32_t heads) { return bshd ? heads * D : D; };
      auto hstride = [&](uint32_t heads) { return bshd ? D : r.s * D; };
      auto bstride = [&](uint32_t heads) { return heads * r.s * D; };
      const uint64_t nq = uint64_t(r.b) * r.h * r.s * D, nk = uint64_t(r.b) * r.hk * r.s * D;
      const float scale = 1.0f / std::sqrt(float(D));
      auto dev = rt::device::open(rt::backend::sim);
      rt::launch_options lo;
      lo.check = false;
      lo.allow = {"all"};
      lo.instruction_budget = budget;
      rt::profile_options po;
      po.device = device;
      po.clock_mhz = clock;
      po.sample_cus = sample;
      po.keep_events = !trace.empty();
      lo.profile = &po;
      // Buffers live until the launch returns (a buffer frees its memory when destroyed).
      std::vector<std::unique_ptr<rt::buffer<uint8_t>>> bufs;
      auto alloc = [&](uint64_t bytes) {
        bufs.push_back(std::make_unique<rt::buffer<uint8_t>>(*dev, bytes));
        return bufs.back()->addr();
      };
      std::string co, kname;
      uint32_t gx, threads;
      Padded p;
      double stream_bytes = 0;
      int stream_kernels = 0;
      if (fam == "fwd") {
        const uint64_t Q = alloc(nq * 2), K = alloc(nk * 2), V = alloc(nk * 2), O = alloc(nq * 2),
                       L = alloc(uint64_t(r.b) * r.h * r.s * 4);
        const char* cvt = cdna4 ? "" : "_rtna";  // gfx950: fmha_fwd.csv bf16_cvt 0
        co = std::string("fwd_hd128_bf16") + (r.causal ? "_causal" : "") + cvt + ".co";
        kname = std::string("fmha_fwd_hd128_bf16") + (r.causal ? "_causal" : "") + cvt;
        p.put64(O), p.put64(Q), p.put64(K), p.put64(V), p.put64(L);
        p.putf(scale);
        p.put32(r.s);                          // s_seq_len
        p.put32(stride(r.h) * 2);              // s_Seqs
        p.put32(256 * stride(r.h) * 2);        // s_Ts = ts_qo * stride_q * 2
        p.put32(hstride(r.h) * 2);             // s_Hs
        p.put32(bstride(r.h) * 2);             // s_Bs
        p.put32(r.h / r.hk);                   // s_gqa
        p.put32(stride(r.hk) * 2), p.put32(hstride(r.hk) * 2), p.put32(bstride(r.hk) * 2);  // s_k_*
        p.put32(r.causal && (r.h % 8 != 0 || r.s > 16384) ? 3 : 5);                        // s_opt
        p.put32(1);                            // s_lse (benchmark -lse=1)
        p.put32(r.s);                          // s_kv_seq_len
        p.put32(D), p.put32(D), p.put32(r.h);  // s_qk_head_dim, s_v_head_dim, s_q_head_num
        p.put32(stride(r.hk) * 2), p.put32(hstride(r.hk) * 2), p.put32(bstride(r.hk) * 2);  // s_v_*
        p.put32(stride(r.h) * 2), p.put32(hstride(r.h) * 2), p.put32(bstride(r.h) * 2);     // s_o_*
        p.put64(0), p.put64(0);                // ptr_qseq, ptr_kseq (batch mode)
        p.put32(r.s * 4);                      // s_lse_Hs = nhead_stride_lse * 4
        p.put64(0), p.put64(0);                // ptr_qseq_padding, ptr_kseq_padding
        if (cdna4)                             // ptr_{q,k,v}_descale, s_descale_{q,k,v}_{Bs,Hs}: bf16, none
          for (int z = 0; z < 9; ++z) p.put32(0);
        gx = ((r.s + 255) / 256 + (r.causal ? 1 : 0)) / (r.causal ? 2 : 1);
        threads = 512;
      } else {
        const bool a32 = fam == "a32";
        const uint64_t Q = alloc(nq * 2), K = alloc(nk * 2), V = alloc(nk * 2), dO = alloc(nq * 2), dK = alloc(nq * 2),
                       dV = alloc(nq * 2), dQ = alloc(nq * (a32 ? 4 : 2)), L = alloc(uint64_t(r.b) * r.h * r.s * 4),
                       Dd = alloc(uint64_t(r.b) * r.h * r.s * 4);
        co = std::string("bwd_hd128_bf16") + (r.causal ? "_causal" : "") + (a32 ? "_a32" : "_a16") + "_rtz.co";
        kname = std::string("fmha_bwd_hd128_bf16") + (r.causal ? "_causal" : "") + (a32 ? "_a32" : "_a16") + "_rtz";
        p.put64(dQ), p.put64(dK), p.put64(dV), p.put64(Q), p.put64(K);
        p.put64(V), p.put64(dO), p.put64(L), p.put64(Dd);
        p.putf(scale);
        p.putf(1.4426950408889634f);             // log2e
        p.put32(r.s);                            // seq_len
        p.put32(192 * stride(r.hk) * 2);         // Ts = ts_kv * stride_k * 2
        p.put32(hstride(r.h) * 2);               // Hs
        p.put32(bstride(r.h) * 2);               // BAs
        p.put32(stride(r.h) * 2);                // Seqs
        p.put32(r.h / r.hk);                     // ratio
        p.put32(hstride(r.hk) * 2), p.put32(bstride(r.hk) * 2), p.put32(stride(r.hk) * 2);  // Hs_kv, BAs_kv, Seqs_kv
        p.put32(stride(r.h) * 2);                // Seqs_dkv = stride_dk * 2 (dk has h heads)
        const uint32_t tiles = (r.s + 191) / 192;
        gx = r.causal ? (tiles + 1) / 2 : tiles;
        threads = 256;
        // dot_do_o reads O and dO, writes D; convert_dq reads dq_acc (f32), writes dq (bf16)
        stream_bytes = double(nq) * 2 * 2 + double(r.b) * r.h * r.s * 4;
        stream_kernels = 1;
        if (a32) stream_bytes += double(nq) * (4 + 2), stream_kernels = 2;
      }
      const fs::path file = (fam == "fwd" ? fwd_dir : bwd_dir) / co;
      if (!fs::exists(file)) {
        std::printf("%s: no %s: skipped\n", fam.c_str(), file.c_str());
        continue;
      }
      const std::vector<uint8_t> bytes = sim::read_file_bytes(file.string());
      const sim::CodeObject obj = sim::load_code_object(bytes);
      auto mod = dev->load(bytes);
      const std::string sym = mangled(kname);
      lo.kernarg_size = uint32_t(p.raw.size());
      const auto t0 = std::chrono::steady_clock::now();
      rt::launch_report rep;
      try {
        rep = dev->launch(*mod, sym, {gx, r.h, r.b}, {threads, 1, 1}, aiter_asm::metadata_args(obj.kernel(sym), p.raw), lo);
      } catch (const std::exception& e) {
        std::printf("%-4s %-4s %2u %3u %2u %6u %d  error: %s\n", fam.c_str(), cal ? "cal" : "test", r.b, r.h, r.hk, r.s,
                    int(r.causal), e.what());
        ++over;
        continue;
      }
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const rt::profile& pr = *rep.profile;
      const double stream_us = stream_bytes / (kStreamGbps * 1e3) + stream_kernels * kOverheadUs;
      const double predicted = pr.time_us + (stream_kernels ? stream_us : 0);
      const double e = predicted / measured_us - 1;
      over += max_error >= 0 && std::abs(e) > max_error;
      errs[fam].push_back(std::abs(e));
      errs[fam + (cal ? "/cal" : "/test")].push_back(std::abs(e));
      std::printf("%-4s %-4s %2u %3u %2u %6u %d %9.1f %10.2f %10.2f %+6.1f%% %7.2f %6.0f %5.2f %5u %6u %6.1f\n",
                  fam.c_str(), cal ? "cal" : "test", r.b, r.h, r.hk, r.s, int(r.causal), flop / 1e9, measured_us,
                  predicted, 100 * e, stream_kernels ? stream_us : 0.0, pr.clock_mhz, pr.mfma_busy, pr.cus_used,
                  pr.workgroups, wall);
      if (report) std::fputs(pr.report().c_str(), stdout);
      char row[160];
      std::snprintf(row, sizeof row, "\"family\":\"%s\",\"role\":\"%s\",\"b\":%u,\"h\":%u,\"hk\":%u,\"s\":%u,\"causal\":%d",
                    fam.c_str(), cal ? "cal" : "test", r.b, r.h, r.hk, r.s, int(r.causal));
      timing_phases::append(phases_file, row, measured_us, pr.dispatch_overhead_us + (stream_kernels ? stream_us : 0.0), pr);
      if (!trace.empty()) {
        if (std::FILE* f = std::fopen(trace.c_str(), "w")) {
          pr.write_trace(f);
          std::fclose(f);
        }
      }
      std::fflush(stdout);
    }
  }
  for (const auto& [f, e] : errs)
    std::printf("%-9s %3zu rows: median |predicted/measured - 1| = %.1f%%, worst %.1f%%\n", f.c_str(), e.size(),
                100 * median(e), 100 * *std::max_element(e.begin(), e.end()));
  if (max_error >= 0 && over) {
    std::printf("%d rows failed or off by more than %.0f%%\n", over, 100 * max_error);
    return 1;
  }
  return 0;
}

// Predicted vs measured: runs AMD aiter's hand-written GEMM code objects (asm) in timing mode on
// the shapes of aiter's tuning tables and prints the model's time next to the time aiter measured
// (rows of the chosen --arch with libtype asm, or an asm kernel name where the table has no
// libtype; gfx942: cu_num 304 = MI300X, 80 = MI308X; gfx950: cu_num 256 = MI355X; profiled on
// that device, or on --device).
//
//   hipasm-timing-aiter AITER_DIR [--arch gfx942|gfx950] [--device D] [--family i8|bf16|fp8bs|f4]...
//                       [--max-flop GFLOP] [--clock MHZ] [--report] [--full-tiles] [--m M]
//                       [--sample CUS|xcd] [--verify] [--table SUBSTRING] [--skip-table SUBSTRING]...
//                       [--rows all|cal|test] [--every N] [--limit N] [--max-error E] [--phases FILE]
//                       [--cu-num N]
//
// Families (kernel list in hsa/<arch>/<dir>/<list>.csv; argument struct from aiter's host wrapper):
//   i8     int8 GEMM, B preshuffled, per-token scales: i8gemm, a8w8_bpreshuffle_tuned_gemm.csv
//          (csrc/py_itfs_cu/asm_gemm_a8w8.cu KernelArgs)
//   bf16   bf16 GEMM, split-K: bf16gemm, model_configs/*bf16_tuned_gemm.csv
//          (csrc/py_itfs_cu/asm_gemm_a16w16.cu KernelArgs)
//   fp8bs  fp8 GEMM with 1x128 (A) and 128x128 (B) block scales, B preshuffled: fp8gemm_blockscale,
//          a8w8_blockscale_bpreshuffle_tuned_gemm*.csv (csrc/py_itfs_cu/asm_a8w8_blockscale_bpreshuffle.cu)
//   f4     (gfx950) mxfp4 GEMM, B preshuffled, E8M0 scales per 32: f4gemm,
//          *a4w4_blockscale_tuned_gemm.csv (csrc/py_itfs_cu/asm_gemm_a4w4.cu; no --verify reference)
// --cu-num N keeps the rows of one device (the tables' cu_num: 304 MI300X, 80 MI308X, 256 MI355X).
// --every N keeps every N-th row of a family that passes the filters (a spread sample for short
// runs; with N prime to 3 a third of them are calibration rows), --limit N at most N per family.
// --max-error E: exit 1 when a row's |predicted / measured - 1| exceeds E, or a row fails.
// Every field of those structs is padded to 16 bytes. Timed runs use zero data (timing does not
// depend on values) and unit scales. --verify instead runs each kernel the tables use on a small
// shape with random data and compares the output with a C++ reference (exit 1 on a mismatch), so
// the argument layout, the B preshuffle and the scale layouts are known to be right.
//
// AITER_DIR is an unpacked ROCm/aiter (hsa/<arch>, aiter/configs). Nothing of aiter is part of
// this project; without the folder the program says so and exits 0.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "aiter_asm_gemm.hpp"
#include "phases.hpp"
#include "timing/device.hpp"

using namespace aiter_asm;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: %s AITER_DIR [--arch gfx942|gfx950] [--device D] [--family i8|bf16|fp8bs|f4]...\n"
                 "       [--max-flop GFLOP] [--clock MHZ] [--report] [--full-tiles] [--m M] [--sample CUS|xcd]\n"
                 "       [--verify] [--table SUBSTRING] [--timeline WAVE] [--skip-table SUBSTRING]...\n"
                 "       [--rows all|cal|test] [--every N] [--limit N] [--max-error E] [--phases FILE] [--cu-num N]\n",
                 argv[0]);
    return 2;
  }
  const fs::path root = argv[1];
  double max_gflop = 200, clock = 0;
  bool report = false, tails = true, verify = false;
  int only_m = 0;
  long timeline_wave = -1;  // --timeline W: print wave W's schedule after the report line
  unsigned sample = 0;
  bool sample_xcd = false;  // --sample xcd: one whole XCD of the row's device (faithful for GEMMs)
  std::set<std::string> want;
  std::string table_filter;  // only tuning tables whose file name contains this
  std::vector<std::string> table_skip;  // and none of these
  // Every third row of a family (the 1st, 4th, ... that pass the filters) calibrated what
  // timing.md leaves open (docs/timing-model.md, Validation); the others are the test.
  std::string rows = "all";  // all | cal | test
  std::string phases_file;   // --phases FILE: each row's phases (phases.hpp)
  std::string arch = "gfx942", device_override;
  int every = 1, limit = 0, only_cu_num = 0;
  double max_error = -1;  // --max-error: the exit status checks every row against it
  int over = 0;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--report") report = true;
    else if (a == "--full-tiles") tails = false;  // only rows whose M is a multiple of the tile
    else if (a == "--verify") verify = true;
    else if (a == "--family" && i + 1 < argc) want.insert(argv[++i]);
    else if (a == "--table" && i + 1 < argc) table_filter = argv[++i];
    else if (a == "--skip-table" && i + 1 < argc) table_skip.push_back(argv[++i]);
    else if (a == "--rows" && i + 1 < argc && (std::string(argv[i + 1]) == "all" || std::string(argv[i + 1]) == "cal" ||
                                               std::string(argv[i + 1]) == "test")) rows = argv[++i];
    else if (a == "--max-flop" && i + 1 < argc) max_gflop = std::stod(argv[++i]);
    else if (a == "--clock" && i + 1 < argc) clock = std::stod(argv[++i]);
    else if (a == "--m" && i + 1 < argc) only_m = std::stoi(argv[++i]);  // only rows with this M
    else if (a == "--phases" && i + 1 < argc) phases_file = argv[++i];
    else if (a == "--arch" && i + 1 < argc && (std::string(argv[i + 1]) == "gfx942" || std::string(argv[i + 1]) == "gfx950"))
      arch = argv[++i];
    else if (a == "--device" && i + 1 < argc) device_override = argv[++i];
    else if (a == "--cu-num" && i + 1 < argc) {
      char* end = nullptr;
      only_cu_num = int(std::strtol(argv[++i], &end, 10));
      if (*end || only_cu_num <= 0) {
        std::fprintf(stderr, "--cu-num %s: a positive CU count (304, 80, 256)\n", argv[i]);
        return 2;
      }
    } else if (a == "--every" && i + 1 < argc) every = std::max(1, std::atoi(argv[++i]));
    else if (a == "--limit" && i + 1 < argc) limit = std::max(0, std::atoi(argv[++i]));
    else if (a == "--max-error" && i + 1 < argc) max_error = std::stod(argv[++i]);
    else if (a == "--timeline" && i + 1 < argc) timeline_wave = std::stol(argv[++i]);
    else if (a == "--sample" && i + 1 < argc && std::string(argv[i + 1]) == "xcd") sample_xcd = true, ++i;
    else if (a == "--sample" && i + 1 < argc) sample = unsigned(std::stoul(argv[++i]));  // CUs
    else {
      std::fprintf(stderr, "unknown option %s\n", a.c_str());
      return 2;
    }
  }
  for (const auto& w : want)
    if (std::none_of(families().begin(), families().end(), [&](const FamilyInfo& f) { return w == f.name; })) {
      std::fprintf(stderr, "unknown family %s (i8, bf16, fp8bs, f4)\n", w.c_str());
      return 2;
    }
  if (!device_override.empty() && !hipasm::sim::timing::find_device(device_override)) {
    std::fprintf(stderr, "unknown device %s\n", device_override.c_str());
    return 2;
  }
  if (!fs::exists(root / "hsa" / arch) || !fs::exists(root / "aiter/configs")) {
    std::printf("aiter folder %s has no hsa/%s or aiter/configs: skipped\n", root.c_str(), arch.c_str());
    return 0;
  }
  auto dev = rt::device::open(rt::backend::sim);
  std::map<std::string, std::vector<double>> errs;  // family, family/cal, family/test -> |ratio - 1|
  int failures = 0;
  if (!verify)
    std::printf("%-6s %-4s %-7s %-43s %6s %6s %6s %3s %10s %10s %7s %7s %6s %5s %6s %3s\n", "family", "role", "device", "kernel", "M",
                "N", "K", "ks", "measured", "model_us", "ratio", "wall_s", "MHz", "mfma", "HBM_GB", "wps");
  for (const FamilyInfo& fam : families()) {
    if (!want.empty() && !want.count(fam.name)) continue;
    const fs::path cos = root / "hsa" / arch / fam.dir;
    const std::map<std::string, Kernel> kernels = kernel_list(root, fam, arch);
    if (kernels.empty()) {
      std::printf("%s: no kernel list %s: skipped\n", fam.name, (cos / fam.list).c_str());
      continue;
    }
    // Tuning tables: the named file and, for "*pattern", every model_configs file matching it.
    std::vector<fs::path> tables;
    for (const auto& t : fam.tables) {
      if (t[0] != '*') {
        if (fs::exists(root / "aiter/configs" / t)) tables.push_back(root / "aiter/configs" / t);
        continue;
      }
      std::vector<std::string> parts = split(t.substr(1), '*');  // contains parts[0], ends with parts.back()
      std::vector<fs::path> found;
      if (fs::exists(root / "aiter/configs/model_configs"))
        for (const auto& e : fs::directory_iterator(root / "aiter/configs/model_configs")) {
          const std::string n = e.path().filename().string();
          if (n.find("untuned") != std::string::npos) continue;
          if (parts.size() == 1 ? n.size() >= parts[0].size() && n.ends_with(parts[0])
                                : n.find(parts[0]) != std::string::npos && n.ends_with(parts[1]))
            found.push_back(e.path());
        }
      std::sort(found.begin(), found.end());
      tables.insert(tables.end(), found.begin(), found.end());
    }
    std::set<std::tuple<std::string, int, int, int, int, int>> seen;  // duplicate rows across tables
    std::set<std::string> verified;
    int row_index = 0;  // rows of this family that pass the filters
    for (const fs::path& tp : tables) {
      const std::string tn = tp.filename().string();
      if (tn.find(table_filter) == std::string::npos ||
          std::any_of(table_skip.begin(), table_skip.end(), [&](const std::string& x) { return tn.find(x) != std::string::npos; }))
        continue;
      const Table tab = read_csv(tp);
      const int cg = tab.col("gfx"), cc = tab.col("cu_num"), cm = tab.col("M"), cnn = tab.col("N"), ck = tab.col("K"),
                cl = tab.col("libtype"), cs = tab.col("splitK"), cu = tab.col("us"), cname = tab.col("kernelName");
      // (a4w4 tables have no libtype: their asm rows are those naming a kernel of the list)
      if (std::min({cg, cc, cm, cnn, ck, cs, cu, cname}) < 0) continue;
      for (const auto& r : tab.rows) {
        if (int(r.size()) <= std::max({cg, cc, cm, cnn, ck, cl, cs, cu, cname})) continue;
        if (r[cg] != arch || (cl >= 0 && r[cl] != "asm")) continue;
        const int cu_num = std::stoi(r[cc]);
        if (only_cu_num && cu_num != only_cu_num) continue;
        const char* device = row_device(r[cg], cu_num);
        if (!device) continue;
        if (!device_override.empty()) device = device_override.c_str();
        const std::string& name = r[cname];
        auto it = kernels.find(name);
        if (it == kernels.end()) continue;
        const Kernel& t = it->second;
        Problem p;
        p.M = std::stoi(r[cm]), p.N = std::stoi(r[cnn]), p.K = std::stoi(r[ck]), p.ks = std::max(1, std::stoi(r[cs]));
        if (!seen.insert({name, cu_num, p.M, p.N, p.K, p.ks}).second) continue;
        const double us = std::stod(r[cu]);
        const double gflop = 2.0 * p.M * p.N * p.K / 1e9;
        const std::vector<uint8_t> bytes = sim::read_file_bytes((cos / t.co).string());
        const sim::CodeObject co = sim::load_code_object(bytes);
        const sim::KernelInfo& k = co.kernel(name);
        auto mod = dev->load(bytes);
        rt::launch_options lo;
        lo.check = false;
        if (verify && fam.id == Family::f4) continue;  // (no C++ reference for mxfp4 here)
        if (verify) {  // once per kernel (and split-K or not): a small random problem against C++
          const std::string key = name + (p.ks > 1 ? " split-K" : "");
          if (!verified.insert(key).second) continue;
          Problem v;
          v.random = true;
          v.M = t.tile_m * 2, v.N = t.tile_n * 2;
          v.K = fam.id == Family::fp8bs ? 384 : 256;
          v.ks = p.ks > 1 ? 2 : 1;
          v.ocp = arch == "gfx950";
          Launch l = make_launch(*dev, fam.id, t, v);
          lo.kernarg_size = uint32_t(l.raw.size());
          std::string msg;
          bool ok = false;
          try {
            dev->launch(*mod, name, l.grid, {256, 1, 1}, metadata_args(k, l.raw), lo);
            ok = l.check(*l.out, msg);
          } catch (const std::exception& e) {
            msg = e.what();
          }
          failures += !ok;
          std::printf("%s %-6s %-44s M=%d N=%d K=%d ks=%d: %s\n", ok ? "OK  " : "FAIL", fam.name,
                      short_name(name).c_str(), v.M, v.N, v.K, v.ks, msg.c_str());
          std::fflush(stdout);
          continue;
        }
        if ((only_m && p.M != only_m) || gflop > max_gflop || (p.M % t.tile_m && !tails)) continue;
        if (p.N % t.tile_n && fam.id != Family::f4) continue;  // (a4w4's host code rounds N up)
        const int index = row_index++;
        if (index % every) continue;
        if (limit && index / every >= limit) continue;
        const bool cal = index % 3 == 0;  // (the role does not depend on --every/--limit)
        if ((rows == "cal" && !cal) || (rows == "test" && cal)) continue;
        Launch l = make_launch(*dev, fam.id, t, p);
        rt::profile_options po;
        po.device = device;
        po.clock_mhz = clock;
        po.keep_events = timeline_wave >= 0;
        // A slice smaller than an XCD loses the L2 sharing of the XCD's GEMM tiles
        // (timing-model.md, Sampling): --sample xcd takes the whole XCD (MI300X 38, MI308X 10 CUs).
        po.sample_cus = sample_xcd ? hipasm::sim::timing::find_device(device)->cus_per_xcd : sample;
        // bf16 split-K: the splits of a tile wait on a semaphore that split 0 sets, which a
        // sample (every xcds-th workgroup) may not run: those rows run whole. And on one host
        // thread: the model replays SMEM polls as the functional run recorded them, and with
        // several threads a split can spin (and record) thousands of polls while split 0 runs
        // on another; in id order each poll finds the semaphore set (timing-model.md,
        // "Workgroups that wait for each other").
        if (fam.id == Family::bf16 && p.ks > 1) po.sample_cus = 0, lo.threads = 1;
        lo.profile = &po;
        lo.kernarg_size = uint32_t(l.raw.size());
        const auto t0 = std::chrono::steady_clock::now();
        rt::launch_report rep;
        try {
          rep = dev->launch(*mod, name, l.grid, {256, 1, 1}, metadata_args(k, l.raw), lo);
        } catch (const std::exception& e) {
          std::printf("%-6s %-4s %-7s %-43s %6d %6d %6d %3d  error: %s\n", fam.name, cal ? "cal" : "test", device, short_name(name).c_str(), p.M,
                      p.N, p.K, p.ks, e.what());
          ++over;
          continue;
        }
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const rt::profile& pr = *rep.profile;
        const double ratio = pr.time_us / us;
        over += max_error >= 0 && std::abs(ratio - 1) > max_error;
        errs[fam.name].push_back(std::abs(ratio - 1));
        errs[std::string(fam.name) + (cal ? "/cal" : "/test")].push_back(std::abs(ratio - 1));
        std::printf("%-6s %-4s %-7s %-43s %6d %6d %6d %3d %10.2f %10.2f %7.3f %7.1f %6.0f %5.2f %6.0f %3u\n", fam.name,
                    cal ? "cal" : "test", device,
                    short_name(name).c_str(), p.M, p.N, p.K, p.ks, us, pr.time_us, ratio, wall,
                    pr.clock_mhz, pr.mfma_busy, pr.hbm_gbps, pr.waves_per_simd);
        if (report) std::fputs(pr.report().c_str(), stdout);
        char row[200];
        std::snprintf(row, sizeof row, "\"family\":\"%s\",\"role\":\"%s\",\"device\":\"%s\",\"M\":%d,\"N\":%d,\"K\":%d",
                      fam.name, cal ? "cal" : "test", device, p.M, p.N, p.K);
        timing_phases::append(phases_file, row, us, pr.dispatch_overhead_us, pr);
        if (timeline_wave >= 0) std::fputs(pr.timeline(uint32_t(timeline_wave)).c_str(), stdout);
        std::fflush(stdout);
      }
    }
  }
  if (verify) return failures ? 1 : 0;
  std::vector<double> all;
  auto summary = [](const char* what, std::vector<double> e) {
    std::sort(e.begin(), e.end());
    std::printf("%-10s %3zu rows: median |predicted/measured - 1| = %.1f%%, worst %.1f%%\n", what, e.size(),
                100 * (e.size() % 2 ? e[e.size() / 2] : (e[e.size() / 2 - 1] + e[e.size() / 2]) / 2), 100 * e.back());
  };
  std::vector<double> all_test;
  for (const auto& [f, e] : errs) {
    summary(f.c_str(), e);
    if (f.find('/') == std::string::npos) all.insert(all.end(), e.begin(), e.end());
    if (f.ends_with("/test")) all_test.insert(all_test.end(), e.begin(), e.end());
  }
  if (!all_test.empty()) summary("all/test", all_test);
  if (!all.empty()) summary("all", all);
  if (max_error >= 0 && over) {
    std::printf("%d rows failed or off by more than %.0f%%\n", over, 100 * max_error);
    return 1;
  }
  return 0;
}

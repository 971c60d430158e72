// Predicted vs measured: runs AMD aiter's hand-written int8 GEMM code objects (asm, gfx942) in
// timing mode on the shapes of aiter's tuning table and prints the model's time next to the time
// aiter measured on an MI300X (rows with libtype asm and cu_num 304).
//
//   hipasm-timing-aiter AITER_DIR [--max-flop GFLOP] [--clock MHZ] [--report] [--full-tiles] [--m M] [--sample CUS]
//
// AITER_DIR is a checkout of ROCm/aiter with hsa/gfx942/i8gemm/*.co and
// aiter/configs/a8w8_bpreshuffle_tuned_gemm.csv. Nothing of aiter is part of this project; without
// the folder the program says so and exits 0. The argument layout is aiter's KernelArgs of
// csrc/py_itfs_cu/asm_gemm_a8w8.cu (each field padded to 16 bytes); data and bias are zero
// (timing does not depend on values), scales are 1.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "elf.hpp"
#include "hipasm/sim/launcher.hpp"

namespace fs = std::filesystem;
using namespace hipasm;

namespace {

std::vector<std::string> split(const std::string& s, char c) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  std::string t;
  while (std::getline(ss, t, c)) v.push_back(t);
  return v;
}

struct Tile {
  std::string co;
  int m = 0, n = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s AITER_DIR [--max-flop GFLOP] [--clock MHZ]\n", argv[0]);
    return 2;
  }
  const fs::path root = argv[1];
  double max_gflop = 200, clock = 0;
  bool report = false, tails = true;
  int only_m = 0;
  unsigned sample = 0;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--report") report = true;
    else if (a == "--full-tiles") tails = false;  // only rows whose M is a multiple of the tile
    else if (a == "--max-flop" && i + 1 < argc) max_gflop = std::stod(argv[++i]);
    else if (a == "--clock" && i + 1 < argc) clock = std::stod(argv[++i]);
    else if (a == "--m" && i + 1 < argc) only_m = std::stoi(argv[++i]);  // only rows with this M
    else if (a == "--sample" && i + 1 < argc) sample = unsigned(std::stoul(argv[++i]));  // CUs
    else {
      std::fprintf(stderr, "unknown option %s\n", a.c_str());
      return 2;
    }
  }
  const fs::path cos = root / "hsa/gfx942/i8gemm", table = root / "aiter/configs/a8w8_bpreshuffle_tuned_gemm.csv";
  if (!fs::exists(cos / "i8gemm_bf16_perTokenI8.csv") || !fs::exists(table)) {
    std::printf("aiter folder %s has no hsa/gfx942/i8gemm or tuning table: skipped\n", root.c_str());
    return 0;
  }
  std::map<std::string, Tile> tiles;  // kernel name -> code object, tile
  {
    std::ifstream f(cos / "i8gemm_bf16_perTokenI8.csv");
    std::string line;
    std::getline(f, line);
    while (std::getline(f, line)) {
      auto v = split(line, ',');
      if (v.size() >= 6) tiles[v[4]] = {v[5], std::stoi(v[0]), std::stoi(v[1])};
    }
  }
  auto dev = rt::device::open(rt::backend::sim);
  std::printf("%-48s %6s %6s %6s %3s %10s %10s %7s %8s %6s\n", "kernel", "M", "N", "K", "ks", "measured_us",
              "model_us", "ratio", "wall_s", "cycles");
  std::ifstream f(table);
  std::string line;
  std::getline(f, line);
  std::vector<double> errs;
  while (std::getline(f, line)) {
    auto v = split(line, ',');
    // gfx,cu_num,M,N,K,q_dtype_w,libtype,kernelId,splitK,us,kernelName,...
    if (v.size() < 11 || v[0] != "gfx942" || v[1] != "304" || v[6] != "asm") continue;
    const int M = std::stoi(v[2]), N = std::stoi(v[3]), K = std::stoi(v[4]), ks = std::max(1, std::stoi(v[8]));
    const double us = std::stod(v[9]);
    std::string name = v[10];
    auto it = tiles.find(name);
    if (it == tiles.end()) continue;
    const Tile& t = it->second;
    const double gflop = 2.0 * M * N * K / 1e9;
    if ((only_m && M != only_m) || gflop > max_gflop || N % t.n || (M % t.m && !tails)) continue;  // --full-tiles: whole tiles only
    const std::vector<uint8_t> bytes = sim::read_file_bytes((cos / t.co).string());
    const sim::CodeObject co = sim::load_code_object(bytes);
    const sim::KernelInfo& k = co.kernel(name);
    auto mod = dev->load(bytes);
    // Buffers hold whole tiles: a tail tile's loads past row M stay inside them (on hardware the
    // buffer resource's range check zeroes them; the traffic is the same).
    const size_t Mp = size_t((M + t.m - 1) / t.m) * t.m;
    rt::buffer<int8_t> A(*dev, Mp * K), B(*dev, size_t(N) * K);
    rt::buffer<float> sa(*dev, Mp), sb(*dev, size_t(N));
    rt::buffer<uint16_t> C(*dev, Mp * N);
    rt::buffer<float> bias(*dev, size_t(N));  // the kernels read it through a buffer resource
    bias.upload(std::vector<float>(bias.size(), 0.0f));
    A.upload(std::vector<int8_t>(A.size(), 0));
    B.upload(std::vector<int8_t>(B.size(), 0));
    sa.upload(std::vector<float>(sa.size(), 1.0f));
    sb.upload(std::vector<float>(sb.size(), 1.0f));
    C.upload(std::vector<uint16_t>(C.size(), 0));
    // aiter's KernelArgs: pointers and u32 fields each padded to 16 bytes.
    std::vector<uint8_t> raw(208, 0);
    auto put64 = [&](size_t off, uint64_t x) { std::memcpy(raw.data() + off, &x, 8); };
    auto put32 = [&](size_t off, uint32_t x) { std::memcpy(raw.data() + off, &x, 4); };
    put64(0, C.addr());
    put64(16, A.addr());
    put64(32, B.addr());
    put64(48, sa.addr());
    put64(64, sb.addr());
    put64(80, bias.addr());
    put32(96, M);
    put32(112, N);
    put32(128, K);
    put32(144, K);      // lda (elements = bytes)
    put32(160, K);      // ldb
    put32(176, N * 2);  // ldc in bytes
    put32(192, ks);
    rt::kernel_args args;
    for (const auto& a : k.args) {
      if (a.hidden()) continue;
      std::vector<uint8_t> slice(a.size, 0);
      if (a.offset + a.size <= raw.size()) std::memcpy(slice.data(), raw.data() + a.offset, a.size);
      switch (a.size) {
        case 1: { uint8_t x; std::memcpy(&x, slice.data(), 1); args.add(x); break; }
        case 2: { uint16_t x; std::memcpy(&x, slice.data(), 2); args.add(x); break; }
        case 4: { uint32_t x; std::memcpy(&x, slice.data(), 4); args.add(x); break; }
        default: { uint64_t x; std::memcpy(&x, slice.data(), 8); args.add(x); break; }
      }
    }
    rt::profile_options po;
    po.clock_mhz = clock;
    po.sample_cus = sample;
    rt::launch_options lo;
    lo.profile = &po;
    lo.check = false;
    const auto t0 = std::chrono::steady_clock::now();
    rt::launch_report r;
    try {
      r = dev->launch(*mod, name, {uint32_t(N / t.n * ks), uint32_t((M + t.m - 1) / t.m), 1}, {256, 1, 1}, args, lo);
    } catch (const std::exception& e) {
      std::printf("%-48s %6d %6d %6d %3d  error: %s\n", name.c_str(), M, N, K, ks, e.what());
      continue;
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double ratio = r.profile->time_us / us;
    errs.push_back(std::abs(ratio - 1));
    std::printf("%-48s %6d %6d %6d %3d %10.2f %10.2f %7.3f %8.1f %6llu\n", name.substr(0, 48).c_str(), M, N, K, ks, us,
                r.profile->time_us, ratio, wall, (unsigned long long)r.profile->cycles);
    if (report) std::fputs(r.profile->report().c_str(), stdout);
    std::fflush(stdout);
  }
  if (!errs.empty()) {
    std::sort(errs.begin(), errs.end());
    std::printf("%zu rows: median |predicted/measured - 1| = %.1f%%, worst %.1f%%\n", errs.size(),
                100 * errs[errs.size() / 2], 100 * errs.back());
  }
  return 0;
}

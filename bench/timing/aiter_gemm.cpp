// Predicted vs measured: runs AMD aiter's hand-written GEMM code objects (asm, gfx942) in timing
// mode on the shapes of aiter's tuning tables and prints the model's time next to the time aiter
// measured (rows with libtype asm; cu_num 304 = MI300X, 80 = MI308X, profiled on that device).
//
//   hipasm-timing-aiter AITER_DIR [--family i8|bf16|fp8bs]... [--max-flop GFLOP] [--clock MHZ]
//                       [--report] [--full-tiles] [--m M] [--sample CUS|xcd] [--verify]
//                       [--table SUBSTRING] [--skip-table SUBSTRING]... [--rows all|cal|test]
//
// Families (kernel list in hsa/gfx942/<dir>/<list>.csv; argument struct from aiter's host wrapper):
//   i8     int8 GEMM, B preshuffled, per-token scales: i8gemm, a8w8_bpreshuffle_tuned_gemm.csv
//          (csrc/py_itfs_cu/asm_gemm_a8w8.cu KernelArgs)
//   bf16   bf16 GEMM, split-K: bf16gemm, model_configs/*bf16_tuned_gemm.csv
//          (csrc/py_itfs_cu/asm_gemm_a16w16.cu KernelArgs)
//   fp8bs  fp8 GEMM with 1x128 (A) and 128x128 (B) block scales, B preshuffled: fp8gemm_blockscale,
//          a8w8_blockscale_bpreshuffle_tuned_gemm*.csv (csrc/py_itfs_cu/asm_a8w8_blockscale_bpreshuffle.cu)
// Every field of those structs is padded to 16 bytes. Timed runs use zero data (timing does not
// depend on values) and unit scales. --verify instead runs each kernel the tables use on a small
// shape with random data and compares the output with a C++ reference (exit 1 on a mismatch), so
// the argument layout, the B preshuffle and the scale layouts are known to be right.
//
// AITER_DIR is an unpacked ROCm/aiter (hsa/gfx942, aiter/configs). Nothing of aiter is part of
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

// A CSV read by column name.
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  int col(const std::string& name) const {
    auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? -1 : int(it - header.begin());
  }
};

Table read_csv(const fs::path& p) {
  Table t;
  std::ifstream f(p);
  std::string line;
  if (!std::getline(f, line)) return t;
  t.header = split(line, ',');
  while (std::getline(f, line))
    if (!line.empty()) t.rows.push_back(split(line, ','));
  return t;
}

struct Kernel {
  std::string co;
  int tile_m = 0, tile_n = 0;
};

enum class Family { i8, bf16, fp8bs };

struct FamilyInfo {
  Family id;
  const char* name;
  const char* dir;         // under hsa/gfx942
  const char* list;        // kernel list csv in dir
  const char* m_col;       // kernel list column names of the tile
  const char* n_col;
  std::vector<std::string> tables;  // tuning tables (relative to aiter/configs); "*" globs a model_configs suffix
};

const std::vector<FamilyInfo>& families() {
  static const std::vector<FamilyInfo> f = {
      {Family::i8, "i8", "i8gemm", "i8gemm_bf16_perTokenI8.csv", "tile_m", "tile_n",
       {"a8w8_bpreshuffle_tuned_gemm.csv"}},
      {Family::bf16, "bf16", "bf16gemm", "bf16gemm_fp32bf16.csv", "tileM", "tileN",
       {"bf16_tuned_gemm.csv", "*bf16_tuned_gemm.csv"}},
      {Family::fp8bs, "fp8bs", "fp8gemm_blockscale", "fp8gemm_bf16_blockscale.csv", "tile_m", "tile_n",
       {"a8w8_blockscale_bpreshuffle_tuned_gemm.csv", "*a8w8_blockscale_bpreshuffle_tuned_gemm*.csv"}},
  };
  return f;
}

// gfx942's fp8 (e4m3 "fnuz": exponent bias 8, no infinities, 0x80 = NaN) for the values the
// verification uses (0 and normal numbers that are exact in 3 mantissa bits).
uint8_t fp8_fnuz(float v) {
  if (v == 0) return 0;
  int e;
  const float m = std::frexp(std::fabs(v), &e);  // v = m * 2^e, m in [0.5, 1)
  const int exp = e - 1 + 8, mant = int(std::lround((m * 2 - 1) * 8));
  return uint8_t((v < 0 ? 0x80 : 0) | (exp << 3) | mant);
}

uint16_t bf16_bits(float v) {  // exact for the values used here
  uint32_t u;
  std::memcpy(&u, &v, 4);
  return uint16_t(u >> 16);
}

float bf16_value(uint16_t b) {
  uint32_t u = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// aiter's shuffle_weight with layout (16, 16): B[N][K] of `elem`-byte elements regrouped as
// [N/16][K/(32/elem... )] blocks of 16 rows x 16 bytes.
template <class T>
std::vector<T> preshuffle(const std::vector<T>& B, int N, int K) {
  const int kb = 16 / int(sizeof(T));  // elements per 16-byte row piece
  std::vector<T> out;
  out.reserve(B.size());
  for (int n0 = 0; n0 < N / 16; ++n0)
    for (int k0 = 0; k0 < K / (2 * kb); ++k0)
      for (int k1 = 0; k1 < 2; ++k1)
        for (int n1 = 0; n1 < 16; ++n1)
          for (int k2 = 0; k2 < kb; ++k2) out.push_back(B[size_t(n0 * 16 + n1) * K + k0 * 2 * kb + k1 * kb + k2]);
  return out;
}

// One launch's inputs: host data (empty = zeros) and the argument struct.
struct Problem {
  int M = 0, N = 0, K = 0, ks = 1;
  bool random = false;  // random values (verification) instead of zeros
  uint32_t seed = 1;
};

struct Launch {
  std::vector<std::unique_ptr<rt::buffer<uint8_t>>> bufs;
  std::vector<uint8_t> raw;  // the KernelArgs struct
  rt::dim3 grid;
  uint64_t out_addr = 0;
  std::function<bool(rt::buffer<uint8_t>&, std::string&)> check;  // verification of the output
  rt::buffer<uint8_t>* out = nullptr;
};

uint64_t add_buffer(rt::device& dev, Launch& l, const std::vector<uint8_t>& bytes) {
  l.bufs.push_back(std::make_unique<rt::buffer<uint8_t>>(dev, std::max<size_t>(bytes.size(), 16)));
  std::vector<uint8_t> b = bytes;
  b.resize(l.bufs.back()->size(), 0);
  l.bufs.back()->upload(b);
  return l.bufs.back()->addr();
}

template <class T>
std::vector<uint8_t> as_bytes(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

void put64(std::vector<uint8_t>& raw, size_t off, uint64_t x) { std::memcpy(raw.data() + off, &x, 8); }
void put32(std::vector<uint8_t>& raw, size_t off, uint32_t x) { std::memcpy(raw.data() + off, &x, 4); }
void putf(std::vector<uint8_t>& raw, size_t off, float x) { std::memcpy(raw.data() + off, &x, 4); }

// Small-integer data (exact in bf16, fp8 and int8 products) and power-of-two scales.
std::vector<float> values(std::mt19937& g, size_t n, int lo, int hi, float step) {
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = float(d(g)) * step;
  return v;
}
std::vector<float> scales(std::mt19937& g, size_t n) {
  static const float s[] = {0.25f, 0.5f, 1.0f, 2.0f};
  std::uniform_int_distribution<int> d(0, 3);
  std::vector<float> v(n);
  for (auto& x : v) x = s[d(g)];
  return v;
}

// Compares bf16 output rows [0, M) with the reference: within 1% (bf16 rounding of the sum) and,
// with split-K, the rounding of each of the ks partial sums and of each bf16 atomic add, each at
// most 2^-9 of the sum of |products| (`mag`).
bool compare_bf16(const std::vector<uint8_t>& out, const std::vector<double>& ref, const std::vector<double>& mag,
                  int ks, int M, int N, std::string& msg) {
  size_t good = 0;
  for (int i = 0; i < M * N; ++i) {
    uint16_t b;
    std::memcpy(&b, out.data() + size_t(i) * 2, 2);
    const double tol = 0.01 * std::max(1.0, std::fabs(ref[i])) + (ks > 1 ? 2.0 * ks * mag[i] / 512 : 0.0);
    good += std::fabs(bf16_value(b) - ref[i]) <= tol;
  }
  msg = std::to_string(good) + "/" + std::to_string(M * N) + " outputs match";
  return good == size_t(M) * N;
}

Launch make_launch(rt::device& dev, Family fam, const Kernel& t, const Problem& p) {
  Launch l;
  std::mt19937 g(p.seed);
  const int M = p.M, N = p.N, K = p.K;
  // Buffers hold whole tiles: a tail tile's loads past row M stay inside them (on hardware the
  // buffer resource's range check zeroes them; the traffic is the same).
  const size_t Mp = size_t((M + t.tile_m - 1) / t.tile_m) * t.tile_m;
  switch (fam) {
    case Family::i8: {  // asm_gemm_a8w8.cu: C, A, B, sa, sb, bias, M, N, K, lda, ldb, ldc (bytes), ks
      std::vector<float> A(Mp * K, 0), B(size_t(N) * K, 0), sa(Mp, 1), sb(N, 1);
      if (p.random) {
        A = values(g, Mp * K, -20, 20, 1), B = values(g, size_t(N) * K, -20, 20, 1);
        sa = scales(g, Mp), sb = scales(g, N);
      }
      std::vector<int8_t> a8(A.begin(), A.end()), b8(B.begin(), B.end());
      l.raw.assign(208, 0);
      put64(l.raw, 16, add_buffer(dev, l, as_bytes(a8)));
      put64(l.raw, 32, add_buffer(dev, l, as_bytes(preshuffle(b8, N, K))));
      put64(l.raw, 48, add_buffer(dev, l, as_bytes(sa)));
      put64(l.raw, 64, add_buffer(dev, l, as_bytes(sb)));
      put64(l.raw, 80, add_buffer(dev, l, std::vector<uint8_t>(size_t(N) * 4, 0)));  // bias (read via buffer resource)
      put64(l.raw, 0, add_buffer(dev, l, std::vector<uint8_t>(Mp * N * 2, 0)));
      l.out = l.bufs.back().get();
      put32(l.raw, 96, M), put32(l.raw, 112, N), put32(l.raw, 128, K);
      put32(l.raw, 144, K), put32(l.raw, 160, K), put32(l.raw, 176, N * 2), put32(l.raw, 192, p.ks);
      l.grid = {uint32_t(N / t.tile_n * p.ks), uint32_t(Mp / t.tile_m), 1};
      l.check = [=](rt::buffer<uint8_t>& o, std::string& msg) {
        std::vector<double> ref(size_t(M) * N), mag(ref.size());
        for (int i = 0; i < M; ++i)
          for (int j = 0; j < N; ++j) {
            double s = 0, a = 0;
            for (int k = 0; k < K; ++k) {
              const double x = double(A[size_t(i) * K + k]) * B[size_t(j) * K + k];
              s += x, a += std::fabs(x);
            }
            ref[size_t(i) * N + j] = s * sa[i] * sb[j], mag[size_t(i) * N + j] = a * sa[i] * sb[j];
          }
        return compare_bf16(o.download(), ref, mag, p.ks, M, N, msg);
      };
      break;
    }
    case Family::bf16: {  // asm_gemm_a16w16.cu: D, C, A, B, alpha, beta, strides (bytes), M, N, K, splitk, is_out_b16, bias, add_bias, semaphore
      std::vector<float> A(Mp * K, 0), B(size_t(N) * K, 0);
      if (p.random) A = values(g, Mp * K, -8, 8, 0.125f), B = values(g, size_t(N) * K, -8, 8, 0.125f);
      std::vector<uint16_t> a16(A.size()), b16(B.size());
      std::transform(A.begin(), A.end(), a16.begin(), bf16_bits);
      std::transform(B.begin(), B.end(), b16.begin(), bf16_bits);
      const bool shuffled = t.co.find("bshuffle") != std::string::npos;
      l.raw.assign(352, 0);
      put64(l.raw, 32, add_buffer(dev, l, as_bytes(a16)));
      put64(l.raw, 48, add_buffer(dev, l, as_bytes(shuffled ? preshuffle(b16, N, K) : b16)));
      if (p.ks > 1) put64(l.raw, 336, add_buffer(dev, l, std::vector<uint8_t>(4096, 0)));  // semaphore: <= 1024 tiles
      put64(l.raw, 0, add_buffer(dev, l, std::vector<uint8_t>(Mp * N * 2, 0)));
      l.out = l.bufs.back().get();
      putf(l.raw, 64, 1.0f), putf(l.raw, 80, 0.0f);
      put32(l.raw, 96, N * 2), put32(l.raw, 128, N * 2), put32(l.raw, 160, K * 2), put32(l.raw, 192, K * 2);
      put32(l.raw, 224, M), put32(l.raw, 240, N), put32(l.raw, 256, K), put32(l.raw, 272, p.ks), put32(l.raw, 288, 1);
      l.grid = {uint32_t((N + t.tile_n - 1) / t.tile_n), uint32_t(Mp / t.tile_m), uint32_t(p.ks)};
      l.check = [=](rt::buffer<uint8_t>& o, std::string& msg) {
        std::vector<double> ref(size_t(M) * N), mag(ref.size());
        for (int i = 0; i < M; ++i)
          for (int j = 0; j < N; ++j) {
            double s = 0, a = 0;
            for (int k = 0; k < K; ++k) {
              const double x = double(A[size_t(i) * K + k]) * B[size_t(j) * K + k];
              s += x, a += std::fabs(x);
            }
            ref[size_t(i) * N + j] = s, mag[size_t(i) * N + j] = a;
          }
        return compare_bf16(o.download(), ref, mag, p.ks, M, N, msg);
      };
      break;
    }
    case Family::fp8bs: {  // asm_a8w8_blockscale_bpreshuffle.cu: C, A, B, a_scale, b_scale, bias, m, n, k, lda, ldb, ldc, ks, scale_m/n/k
      const int sk = (K + 127) / 128, sn = (N + 127) / 128;
      std::vector<float> A(Mp * K, 0), B(size_t(N) * K, 0), sa(size_t(sk) * Mp, 1), sb(size_t(sn) * sk, 1);
      if (p.random) {
        A = values(g, Mp * K, -4, 4, 0.5f), B = values(g, size_t(N) * K, -4, 4, 0.5f);
        sa = scales(g, sa.size()), sb = scales(g, sb.size());
      }
      std::vector<uint8_t> a8(A.size()), b8(B.size());
      std::transform(A.begin(), A.end(), a8.begin(), fp8_fnuz);
      std::transform(B.begin(), B.end(), b8.begin(), fp8_fnuz);
      l.raw.assign(256, 0);
      put64(l.raw, 16, add_buffer(dev, l, a8));
      put64(l.raw, 32, add_buffer(dev, l, preshuffle(b8, N, K)));
      put64(l.raw, 48, add_buffer(dev, l, as_bytes(sa)));  // [K/128][M] (aiter passes x_scale transposed)
      put64(l.raw, 64, add_buffer(dev, l, as_bytes(sb)));  // [N/128][K/128]
      put64(l.raw, 80, add_buffer(dev, l, std::vector<uint8_t>(size_t(N) * 4, 0)));  // zero bias buffer
      put64(l.raw, 0, add_buffer(dev, l, std::vector<uint8_t>(Mp * N * 2, 0)));
      l.out = l.bufs.back().get();
      put32(l.raw, 96, M), put32(l.raw, 112, N), put32(l.raw, 128, K);
      put32(l.raw, 144, K), put32(l.raw, 160, K), put32(l.raw, 176, N * 2), put32(l.raw, 192, p.ks);
      put32(l.raw, 208, M), put32(l.raw, 224, sn), put32(l.raw, 240, sk);
      l.grid = {uint32_t(N / t.tile_n * p.ks), uint32_t(Mp / t.tile_m), 1};
      l.check = [=](rt::buffer<uint8_t>& o, std::string& msg) {
        std::vector<double> ref(size_t(M) * N), mag(ref.size());
        for (int i = 0; i < M; ++i)
          for (int j = 0; j < N; ++j) {
            double s = 0, a = 0;
            for (int kb = 0; kb < sk; ++kb) {
              double part = 0, abs_part = 0;
              for (int k = kb * 128; k < std::min(K, kb * 128 + 128); ++k) {
                const double x = double(A[size_t(i) * K + k]) * B[size_t(j) * K + k];
                part += x, abs_part += std::fabs(x);
              }
              const double scale = sa[size_t(kb) * Mp + i] * sb[size_t(j / 128) * sk + kb];
              s += part * scale, a += abs_part * scale;
            }
            ref[size_t(i) * N + j] = s, mag[size_t(i) * N + j] = a;
          }
        return compare_bf16(o.download(), ref, mag, p.ks, M, N, msg);
      };
      break;
    }
  }
  return l;
}

rt::kernel_args metadata_args(const sim::KernelInfo& k, const std::vector<uint8_t>& raw) {
  rt::kernel_args args;
  for (const auto& a : k.args) {
    if (a.hidden()) continue;
    std::vector<uint8_t> slice(8, 0);
    if (a.offset + a.size <= raw.size()) std::memcpy(slice.data(), raw.data() + a.offset, std::min<size_t>(a.size, 8));
    switch (a.size) {
      case 1: { uint8_t x; std::memcpy(&x, slice.data(), 1); args.add(x); break; }
      case 2: { uint16_t x; std::memcpy(&x, slice.data(), 2); args.add(x); break; }
      case 4: { uint32_t x; std::memcpy(&x, slice.data(), 4); args.add(x); break; }
      default: { uint64_t x; std::memcpy(&x, slice.data(), 8); args.add(x); break; }
    }
  }
  return args;
}

std::string short_name(std::string n) {  // _ZN5aiter42fp8gemm_..._32x128E -> fp8gemm_..._32x128
  if (n.rfind("_ZN5aiter", 0) == 0) {
    size_t i = 9;
    while (i < n.size() && std::isdigit(static_cast<unsigned char>(n[i]))) ++i;
    n = n.substr(i);
    if (!n.empty() && n.back() == 'E') n.pop_back();
  }
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: %s AITER_DIR [--family i8|bf16|fp8bs]... [--max-flop GFLOP] [--clock MHZ] [--report]\n"
                 "       [--full-tiles] [--m M] [--sample CUS|xcd] [--verify] [--table SUBSTRING] [--timeline WAVE]\n"
                 "       [--skip-table SUBSTRING]... [--rows all|cal|test]\n",
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
      std::fprintf(stderr, "unknown family %s (i8, bf16, fp8bs)\n", w.c_str());
      return 2;
    }
  if (!fs::exists(root / "hsa/gfx942") || !fs::exists(root / "aiter/configs")) {
    std::printf("aiter folder %s has no hsa/gfx942 or aiter/configs: skipped\n", root.c_str());
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
    const fs::path cos = root / "hsa/gfx942" / fam.dir;
    const Table list = read_csv(cos / fam.list);
    const int kn = list.col("knl_name"), kc = list.col("co_name"), km = list.col(fam.m_col), kt = list.col(fam.n_col);
    if (kn < 0 || kc < 0 || km < 0 || kt < 0) {
      std::printf("%s: no kernel list %s: skipped\n", fam.name, (cos / fam.list).c_str());
      continue;
    }
    std::map<std::string, Kernel> kernels;
    for (const auto& r : list.rows)
      if (int(r.size()) > std::max({kn, kc, km, kt})) kernels[r[kn]] = {r[kc], std::stoi(r[km]), std::stoi(r[kt])};
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
      if (std::min({cg, cc, cm, cnn, ck, cl, cs, cu, cname}) < 0) continue;
      for (const auto& r : tab.rows) {
        if (int(r.size()) <= std::max({cg, cc, cm, cnn, ck, cl, cs, cu, cname})) continue;
        if (r[cg] != "gfx942" || r[cl] != "asm") continue;
        const int cu_num = std::stoi(r[cc]);
        const char* device = cu_num == 304 ? "mi300x" : cu_num == 80 ? "mi308x" : nullptr;
        if (!device) continue;
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
        if (verify) {  // once per kernel (and split-K or not): a small random problem against C++
          const std::string key = name + (p.ks > 1 ? " split-K" : "");
          if (!verified.insert(key).second) continue;
          Problem v;
          v.random = true;
          v.M = t.tile_m * 2, v.N = t.tile_n * 2;
          v.K = fam.id == Family::fp8bs ? 384 : 256;
          v.ks = p.ks > 1 ? 2 : 1;
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
        if ((only_m && p.M != only_m) || gflop > max_gflop || p.N % t.tile_n || (p.M % t.tile_m && !tails)) continue;
        const bool cal = row_index++ % 3 == 0;
        if ((rows == "cal" && !cal) || (rows == "test" && cal)) continue;
        Launch l = make_launch(*dev, fam.id, t, p);
        rt::profile_options po;
        po.device = device;
        po.clock_mhz = clock;
        po.keep_events = timeline_wave >= 0;
        // A slice smaller than an XCD loses the L2 sharing of the XCD's GEMM tiles
        // (timing-model.md, Sampling): --sample xcd takes the whole XCD (MI300X 38, MI308X 10 CUs).
        po.sample_cus = sample_xcd ? (cu_num == 80 ? 10u : 38u) : sample;
        lo.profile = &po;
        lo.kernarg_size = uint32_t(l.raw.size());
        const auto t0 = std::chrono::steady_clock::now();
        rt::launch_report rep;
        try {
          rep = dev->launch(*mod, name, l.grid, {256, 1, 1}, metadata_args(k, l.raw), lo);
        } catch (const std::exception& e) {
          std::printf("%-6s %-4s %-7s %-43s %6d %6d %6d %3d  error: %s\n", fam.name, cal ? "cal" : "test", device, short_name(name).c_str(), p.M,
                      p.N, p.K, p.ks, e.what());
          continue;
        }
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const rt::profile& pr = *rep.profile;
        const double ratio = pr.time_us / us;
        errs[fam.name].push_back(std::abs(ratio - 1));
        errs[std::string(fam.name) + (cal ? "/cal" : "/test")].push_back(std::abs(ratio - 1));
        std::printf("%-6s %-4s %-7s %-43s %6d %6d %6d %3d %10.2f %10.2f %7.3f %7.1f %6.0f %5.2f %6.0f %3u\n", fam.name,
                    cal ? "cal" : "test", device,
                    short_name(name).c_str(), p.M, p.N, p.K, p.ks, us, pr.time_us, ratio, wall,
                    pr.clock_mhz, pr.mfma_busy, pr.hbm_gbps, pr.waves_per_simd);
        if (report) std::fputs(pr.report().c_str(), stdout);
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
  return 0;
}

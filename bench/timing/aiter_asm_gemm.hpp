// AMD aiter's hand-written GEMM code objects (asm, gfx942 and gfx950) run through hipasm::rt: the
// kernel lists, the argument structs of aiter's host wrappers (each field padded to 16 bytes), the
// B preshuffle, and C++ references for a verification run. Shared by hipasm-timing-aiter
// (aiter_gemm.cpp: predicted vs measured) and the kernel library's benchmarks
// (bench/kernels/bench_gemm_i8.cpp, bench_gemm_fp8.cpp: aiter's kernel on the same shape).
// Nothing of aiter is part of this project: the code objects come from the folder the caller
// passes (an unpacked ROCm/aiter).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "elf.hpp"
#include "hipasm/rt/launcher.hpp"

namespace aiter_asm {
namespace fs = std::filesystem;
namespace rt = hipasm::rt;
namespace sim = hipasm::sim;

inline std::vector<std::string> split(const std::string& s, char c) {
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

inline Table read_csv(const fs::path& p) {
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

enum class Family { i8, bf16, fp8bs, f4 };

struct FamilyInfo {
  Family id;
  const char* name;
  const char* dir;         // under hsa/<arch>
  const char* list;        // kernel list csv in dir
  const char* m_col;       // kernel list column names of the tile
  const char* n_col;
  std::vector<std::string> tables;  // tuning tables (relative to aiter/configs); "*" globs a model_configs suffix
};

inline const std::vector<FamilyInfo>& families() {
  static const std::vector<FamilyInfo> f = {
      {Family::i8, "i8", "i8gemm", "i8gemm_bf16_perTokenI8.csv", "tile_m", "tile_n",
       {"a8w8_bpreshuffle_tuned_gemm.csv"}},
      {Family::bf16, "bf16", "bf16gemm", "bf16gemm_fp32bf16.csv", "tileM", "tileN",
       {"bf16_tuned_gemm.csv", "*bf16_tuned_gemm.csv"}},
      {Family::fp8bs, "fp8bs", "fp8gemm_blockscale", "fp8gemm_bf16_blockscale.csv", "tile_m", "tile_n",
       {"a8w8_blockscale_bpreshuffle_tuned_gemm.csv", "*a8w8_blockscale_bpreshuffle_tuned_gemm*.csv"}},
      // gfx950 only: mxfp4 (e2m1 with an E8M0 scale per 32), B preshuffled (csrc/py_itfs_cu/asm_gemm_a4w4.cu)
      {Family::f4, "f4", "f4gemm", "f4gemm_bf16_per1x32Fp4.csv", "tile_M", "tile_N",
       {"a4w4_blockscale_tuned_gemm.csv", "*a4w4_blockscale_tuned_gemm.csv"}},
  };
  return f;
}

// The device of a tuning-table row: its gfx and cu_num (MI300X 304 CUs, MI308X 80, MI355X 256).
inline const char* row_device(const std::string& gfx, int cu_num) {
  if (gfx == "gfx942") return cu_num == 304 ? "mi300x" : cu_num == 80 ? "mi308x" : nullptr;
  if (gfx == "gfx950") return cu_num == 256 ? "mi355x" : nullptr;
  return nullptr;
}

// gfx942's fp8 (e4m3 "fnuz": exponent bias 8, no infinities, 0x80 = NaN) for the values the
// verification uses (0 and normal numbers that are exact in 3 mantissa bits).
inline uint8_t fp8_fnuz(float v) {
  if (v == 0) return 0;
  int e;
  const float m = std::frexp(std::fabs(v), &e);  // v = m * 2^e, m in [0.5, 1)
  const int exp = e - 1 + 8, mant = int(std::lround((m * 2 - 1) * 8));
  return uint8_t((v < 0 ? 0x80 : 0) | (exp << 3) | mant);
}

// gfx950's fp8 (OCP e4m3fn: bias 7) for the same values.
inline uint8_t fp8_ocp(float v) {
  if (v == 0) return 0;
  int e;
  const float m = std::frexp(std::fabs(v), &e);
  const int exp = e - 1 + 7, mant = int(std::lround((m * 2 - 1) * 8));
  return uint8_t((v < 0 ? 0x80 : 0) | (exp << 3) | mant);
}

inline uint16_t bf16_bits(float v) {  // exact for the values used here
  uint32_t u;
  std::memcpy(&u, &v, 4);
  return uint16_t(u >> 16);
}

inline float bf16_value(uint16_t b) {
  uint32_t u = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// aiter's shuffle_weight with layout (16, 16): B[N][K] of `elem`-byte elements regrouped as
// [N/16][K/(32/elem... )] blocks of 16 rows x 16 bytes.
template <class T>
inline std::vector<T> preshuffle(const std::vector<T>& B, int N, int K) {
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
  bool ocp = false;     // fp8 inputs in gfx950's OCP encoding (FNUZ on gfx942)
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

inline uint64_t add_buffer(rt::device& dev, Launch& l, const std::vector<uint8_t>& bytes) {
  l.bufs.push_back(std::make_unique<rt::buffer<uint8_t>>(dev, std::max<size_t>(bytes.size(), 16)));
  std::vector<uint8_t> b = bytes;
  b.resize(l.bufs.back()->size(), 0);
  l.bufs.back()->upload(b);
  return l.bufs.back()->addr();
}

template <class T>
inline std::vector<uint8_t> as_bytes(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

inline void put64(std::vector<uint8_t>& raw, size_t off, uint64_t x) { std::memcpy(raw.data() + off, &x, 8); }
inline void put32(std::vector<uint8_t>& raw, size_t off, uint32_t x) { std::memcpy(raw.data() + off, &x, 4); }
inline void putf(std::vector<uint8_t>& raw, size_t off, float x) { std::memcpy(raw.data() + off, &x, 4); }

// Small-integer data (exact in bf16, fp8 and int8 products) and power-of-two scales.
inline std::vector<float> values(std::mt19937& g, size_t n, int lo, int hi, float step) {
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = float(d(g)) * step;
  return v;
}
inline std::vector<float> scales(std::mt19937& g, size_t n) {
  static const float s[] = {0.25f, 0.5f, 1.0f, 2.0f};
  std::uniform_int_distribution<int> d(0, 3);
  std::vector<float> v(n);
  for (auto& x : v) x = s[d(g)];
  return v;
}

// Compares bf16 output rows [0, M) with the reference: within 1% (bf16 rounding of the sum) and,
// with split-K, the rounding of each of the ks partial sums and of each bf16 atomic add, each at
// most 2^-9 of the sum of |products| (`mag`).
inline bool compare_bf16(const std::vector<uint8_t>& out, const std::vector<double>& ref, const std::vector<double>& mag,
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

inline Launch make_launch(rt::device& dev, Family fam, const Kernel& t, const Problem& p) {
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
      std::transform(A.begin(), A.end(), a8.begin(), p.ocp ? fp8_ocp : fp8_fnuz);
      std::transform(B.begin(), B.end(), b8.begin(), p.ocp ? fp8_ocp : fp8_fnuz);
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
    case Family::f4: {  // asm_gemm_a4w4.cu: D, C, A, B, alpha, beta, strides (elements), M, N, K,
                        // scale A, scale B, their strides, log2_k_split. Timing only (zeros).
      const int Np = (N + t.tile_n - 1) / t.tile_n * t.tile_n, ks32 = (K + 31) / 32;
      l.raw.assign(372, 0);
      put64(l.raw, 32, add_buffer(dev, l, std::vector<uint8_t>(Mp * K / 2, 0)));
      put64(l.raw, 48, add_buffer(dev, l, std::vector<uint8_t>(size_t(Np) * K / 2, 0)));
      put64(l.raw, 272, add_buffer(dev, l, std::vector<uint8_t>(Mp * ks32, 0)));
      put64(l.raw, 288, add_buffer(dev, l, std::vector<uint8_t>(size_t(Np) * ks32, 0)));
      put64(l.raw, 0, add_buffer(dev, l, std::vector<uint8_t>(Mp * Np * 2, 0)));
      l.out = l.bufs.back().get();
      putf(l.raw, 64, 1.0f), putf(l.raw, 80, 0.0f);
      put32(l.raw, 128, N), put32(l.raw, 160, K), put32(l.raw, 192, K);  // stride_C0, stride_A0, stride_B0
      put32(l.raw, 224, M), put32(l.raw, 240, N), put32(l.raw, 256, K);
      put32(l.raw, 304, ks32), put32(l.raw, 336, ks32);  // stride_ScaleA0, stride_ScaleB0
      put32(l.raw, 368, 0);                               // log2_k_split (the last field, unpadded)
      l.grid = {uint32_t(Np / t.tile_n), uint32_t(Mp / t.tile_m), 1};
      l.check = [](rt::buffer<uint8_t>&, std::string& msg) {
        msg = "no reference for f4";
        return false;
      };
      break;
    }
  }
  return l;
}

inline rt::kernel_args metadata_args(const sim::KernelInfo& k, const std::vector<uint8_t>& raw) {
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

inline std::string short_name(std::string n) {  // _ZN5aiter42fp8gemm_..._32x128E -> fp8gemm_..._32x128
  if (n.rfind("_ZN5aiter", 0) == 0) {
    size_t i = 9;
    while (i < n.size() && std::isdigit(static_cast<unsigned char>(n[i]))) ++i;
    n = n.substr(i);
    if (!n.empty() && n.back() == 'E') n.pop_back();
  }
  return n;
}


// The kernels of a family's list (hsa/<arch>/<dir>/<list>.csv) by symbol name; empty when the
// folder has no such list.
inline std::map<std::string, Kernel> kernel_list(const fs::path& root, const FamilyInfo& fam,
                                                 const std::string& arch = "gfx942") {
  std::map<std::string, Kernel> kernels;
  const Table list = read_csv(root / "hsa" / arch / fam.dir / fam.list);
  const int kn = list.col("knl_name"), kc = list.col("co_name"), km = list.col(fam.m_col), kt = list.col(fam.n_col);
  if (kn < 0 || kc < 0 || km < 0 || kt < 0) return kernels;
  for (const auto& r : list.rows)
    if (int(r.size()) > std::max({kn, kc, km, kt})) kernels[r[kn]] = {r[kc], std::stoi(r[km]), std::stoi(r[kt])};
  return kernels;
}

inline const FamilyInfo& family(Family id) {
  for (const auto& f : families())
    if (f.id == id) return f;
  return families().front();
}

// Runs aiter's kernel `name` of family `fam` (zero data, unit scales) on problem `p` with the
// options `lo` (profile them to time it); the code object from root's hsa/<arch>/<dir>. The
// buffers are allocated before the code object is loaded: in a fresh device (the kernel
// benchmarks') they start at the allocator's base whatever the code object's size.
inline rt::launch_report run_kernel(rt::device& dev, const fs::path& root, Family fam, const std::string& name,
                                    const Kernel& t, const Problem& p, rt::launch_options lo,
                                    const std::string& arch = "gfx942") {
  const std::vector<uint8_t> bytes = sim::read_file_bytes((root / "hsa" / arch / family(fam).dir / t.co).string());
  const sim::CodeObject co = sim::load_code_object(bytes);
  Launch l = make_launch(dev, fam, t, p);
  auto mod = dev.load(bytes);
  lo.kernarg_size = uint32_t(l.raw.size());
  lo.allow = {"all"};  // (aiter's kernels break some rules knowingly: README, hipasm-sim --allow)
  return dev.launch(*mod, name, l.grid, {256, 1, 1}, metadata_args(co.kernel(name), l.raw), lo);
}

}  // namespace aiter_asm

// Predicted vs measured for attention: runs AMD aiter's hand-written flash-attention code objects
// (fmha_v3_fwd, fmha_v3_bwd; hd128 bf16, batch mode) in timing mode on the rows of the table AMD
// published in op_tests/cpp/mha/README.md, and prints the model's time next to the time the
// table's MI300X or MI308X (--arch gfx942 --device mi300x|mi308x) or MI355X (--arch gfx950)
// TFLOP/s give.
//
//   hipasm-timing-attn AITER_DIR [--arch gfx942|gfx950] [--device mi300x|mi308x|mi355x]
//                      [--family fwd|a16|a32]... [--rows all|cal|test] [--max-gflop G] [--sample CUS]
//                      [--batch B] [--seqlen S] [--heads H] [--causal 0|1] [--clock MHZ]
//                      [--layout bshd|bhsd] [--report] [--trace FILE] [--phases FILE]
//                      [--max-error E] [--budget N] [--verify]
//
// --budget N: wave-instructions a launch may run (the simulator's default otherwise; a slice of
// several CUs of the largest rows needs more; each costs 16 bytes of the recorded stream).
// --max-error E: exit 1 when a row's |predicted / measured - 1| exceeds E, or a row fails.
// --verify: instead of the table's rows, runs every kernel a family launches on a small problem
// (b 2, h 2, hk 1: GQA ratio 2; s 768, or --batch/--heads/--seqlen) with random bf16 data and
// compares O and LSE (fwd), or dQ, dK, dV and, where a code object computes it, D (bwd) with a
// plain C++ attention (double accumulation) within bf16 tolerance: exit 1 on a mismatch. That
// checks the argument structs, grids and buffer layouts the timing runs use.
//
// AITER_DIR for gfx942: aiter at the table's commit (a83421bee6): its code objects and argument
// structs (later gfx942 bwd code objects take a longer struct); its README's table has the MI308,
// MI300X and MI355X columns. For gfx950: a newer aiter (its hsa/gfx950/fmha_v3_bwd has the odo and
// dq_convert / dq_shuffle helper kernels as code objects; a83421 has not); its README's table is
// the same without the MI308 columns. Nothing of aiter is part of this project; without the folder
// the program says so and exits 0.
//
// Families, gfx942 (--device mi300x: the table's MI300X columns; mi308x: MI308):
//   fwd  FWD: fmha_v3_fwd/MI300 (mi300x) or MI308 (mi308x: the launcher of
//        hsa/gfx942/fmha_v3_fwd/codegen.py loads MI308/ when the device has 80 or 64 CUs)
//        /fwd_hd128_bf16[_causal]_rtna.co (benchmark_mha_fwd's default v3_bf16_cvt 1 = RTNA),
//        fmha_fwd_v3_args (csrc/include/mha_fwd.h), the grid of codegen.py launch_kernel:
//        (ceil(ceil(s / 256) / (causal ? 2 : 1)), h, b) x 512 threads; s_opt 5, 3 for causal rows
//        with h % 8 != 0 or s > 16384.
//   a16  BWD-a16: dot_do_o, then fmha_v3_bwd/bwd_hd128_bf16[_causal]_a16_rtz.co (the README's
//        command: -v3_atomic_fp32=0 -v3_bf16_cvt=2), dq accumulated with bf16 atomics into dq.
//   a32  BWD-a32: dot_do_o, bwd_hd128_bf16[_causal]_a32_rtz.co (dq accumulated in f32 into
//        dq_acc, BHSD), then convert_dq. Both bwd: fmha_bwd_v3_args (csrc/include/mha_bwd.h),
//        filled as hsa/gfx942/fmha_v3_bwd/codegen.py fmha_bwd_v3_ does, grid (ceil(s / 192)
//        [halved, rounded up, for causal], h, b) x 256 threads; the same code objects on both
//        devices (that launcher has no per-device folder).
//   dot_do_o and convert_dq are composable-kernel templates there (no code object to run), so
//   they are predicted as what they are, streaming kernels: their bytes at the model's streaming
//   HBM rate plus the model's dispatch overhead each ("stream" column).
// Families, gfx950 (MI355X columns):
//   fwd  fmha_v3_fwd/fwd_hd128_bf16[_causal].co (fmha_fwd.csv bf16_cvt 0, ts_qo 256, the same
//        grid and 512 threads; fmha_fwd_v3_args with the fp8 descale fields appended, zero here).
//   a16, a32: what aiter::mha_bwd (csrc/cpp_itfs/mha_bwd.cu fmha_v3_bwd) launches for the README's
//        bwd commands (-mask=1: top-left causal, the table's "casual" column; -v3_bf16_cvt=2,
//        which every hd128 bf16 row of hsa/gfx950/fmha_v3_bwd/*.csv accepts: bf16_cvt 3), all
//        three code objects simulated, 256 threads each:
//        1. bwd_hd128_odo_bf16.co (D = rowsum(dO * O); fmha_bwd_odo.csv ts 128): grid
//           (ceil(s / 128), h, b), fmha_bwd_odo_logical_args;
//        2. bwd_hd128_bf16[_causal]_a16|a32_psskddv.co (fmha_bwd_dqdkdv.csv: the only hd128 bf16
//           rows, ts 256): grid (ceil(s / 256) [halved, rounded up, for causal], h, b),
//           fmha_bwd_dqdkdv_args; dq accumulated into dq_acc: a32 f32 [b, h, s, 128], a16 bf16
//           [b, h, ceil16(s), 128] (batch stride 0 when b = 1, as aiter sets it);
//        3. a32: bwd_hd128_dq_convert_bf16.co, a16: bwd_hd128_dq_shuffle.co (gfx950 hd128
//           always post-processes; ts 64): grid (ceil(s / 64), h, b), fmha_bwd_post_kernel_args.
//        The "stream" column then holds the predicted time of kernels 1 and 3.
// Measured time = FLOPs / TFLOP/s with the table's FLOPs: fwd 4 s^2 d per head, bwd 10 s^2 d
// (benchmark_mha_*.cpp), both halved for causal rows (as the table does). The predicted time sums
// every kernel's time (each with the model's dispatch overhead).
// Roles: the batch-4 rows are calibration rows (cal), every other row a test row.
// Data: zeros (timing does not depend on values). --phases FILE: one JSON line per row (phases.hpp)
// of the attention kernel's schedule; the helper kernels' time counts in its fixed_us.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "aiter_asm_gemm.hpp"  // metadata_args
#include "aiter_attn_plan.hpp"
#include "elf.hpp"
#include "hipasm/rt/launcher.hpp"
#include "phases.hpp"
#include "timing/device.hpp"

namespace fs = std::filesystem;
namespace rt = hipasm::rt;
namespace sim = hipasm::sim;

namespace {

using namespace aiter_attn;
enum Dev { MI308 = 0, MI300 = 1, MI355 = 2 };

struct Row {
  uint32_t b, h, hk, s;
  bool causal;
  double tflops[3][3];  // [device][fwd, a16, a32]; 0: the table has no such column
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
    const int step = mi308 ? 3 : 2;
    Row r{uint32_t(v[0]), uint32_t(v[1]), uint32_t(v[2]), uint32_t(v[3]), v[6] != 0, {}};
    for (int f = 0; f < 3; ++f) {
      const int at = 7 + f * step;
      r.tflops[MI308][f] = mi308 ? v[at] : 0;
      r.tflops[MI300][f] = v[at + (mi308 ? 1 : 0)];
      r.tflops[MI355][f] = v[at + (mi308 ? 2 : 1)];
    }
    rows.push_back(r);
  }
  return rows;
}

double median(std::vector<double> e) {
  std::sort(e.begin(), e.end());
  return e.size() % 2 ? e[e.size() / 2] : (e[e.size() / 2 - 1] + e[e.size() / 2]) / 2;
}

// --- verification: a plain C++ attention (double accumulation) -------------------------------

uint16_t bf16_rne(float v) {
  uint32_t u;
  std::memcpy(&u, &v, 4);
  return uint16_t((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}
float bf16f(uint16_t b) { return aiter_asm::bf16_value(b); }

// Largest |got - ref| over the largest |ref|; a NaN counts as a mismatch.
struct Cmp {
  double err = 0, mag = 0;
  bool nan = false;
  void add(double got, double ref) {
    if (!std::isfinite(got)) nan = true;
    err = std::max(err, std::fabs(got - ref)), mag = std::max(mag, std::fabs(ref));
  }
  double rel() const { return mag > 0 ? err / mag : err; }
};

// One family on one small shape with random data: returns false on a mismatch (message printed).
bool verify(const std::string& fam, const Shape& r, bool cdna4, const Layout& lay, const fs::path& dir) {
  auto dev = rt::device::open(rt::backend::sim);
  std::vector<std::unique_ptr<rt::buffer<uint8_t>>> bufs;
  auto alloc = [&](uint64_t bytes) {
    bufs.push_back(std::make_unique<rt::buffer<uint8_t>>(*dev, bytes));
    return bufs.back()->addr();
  };
  auto buf = [&](uint64_t addr) -> rt::buffer<uint8_t>& {
    for (auto& b : bufs)
      if (b->addr() == addr) return *b;
    throw std::logic_error("no buffer");
  };
  Tensors t;
  const Plan pl = plan(fam, r, cdna4, lay, t, alloc);
  const uint64_t nq = uint64_t(r.b) * r.h * r.s * D, nk = uint64_t(r.b) * r.hk * r.s * D,
                 nl = uint64_t(r.b) * r.h * r.s;
  std::mt19937 g(7);
  std::uniform_real_distribution<float> u(-1, 1);
  auto rnd = [&](uint64_t n) {
    std::vector<uint16_t> v(n);
    for (auto& x : v) x = bf16_rne(u(g));
    return v;
  };
  const std::vector<uint16_t> q = rnd(nq), k = rnd(nk), v = rnd(nk), dout = rnd(nq);
  // Reference, per (batch, q head): S = scale Q K^T (top-left causal: key j > query i masked),
  // lse = log sum exp S, P = exp(S - lse), O = P V, D = rowsum(bf16(O) dO), dP = dO V^T,
  // dS = P (dP - D), dQ = scale dS K, dK = scale dS^T Q, dV = P^T dO (dK, dV per q head).
  const double scale = double(1.0f / std::sqrt(float(D)));  // the kernels' scalar argument
  std::vector<double> O(nq), L(nl), Dr(nl), dQ(nq), dK(nq), dV(nq);
  std::vector<uint16_t> ob(nq);
  const uint32_t S = r.s;
  std::vector<double> P(size_t(S) * S), dS(size_t(S) * S);
  for (uint32_t b = 0; b < r.b; ++b)
    for (uint32_t h = 0; h < r.h; ++h) {
      const uint32_t kh = h / (r.h / r.hk);
      auto Q = [&](uint32_t i, uint32_t d) { return double(bf16f(q[lay.at(r.h, b, h, i, d)])); };
      auto K = [&](uint32_t j, uint32_t d) { return double(bf16f(k[lay.at(r.hk, b, kh, j, d)])); };
      auto V = [&](uint32_t j, uint32_t d) { return double(bf16f(v[lay.at(r.hk, b, kh, j, d)])); };
      auto dO = [&](uint32_t i, uint32_t d) { return double(bf16f(dout[lay.at(r.h, b, h, i, d)])); };
      const size_t lrow = (size_t(b) * r.h + h) * S;
      for (uint32_t i = 0; i < S; ++i) {
        const uint32_t n = r.causal ? i + 1 : S;
        double m = -INFINITY;
        for (uint32_t j = 0; j < n; ++j) {
          double s = 0;
          for (uint32_t d = 0; d < D; ++d) s += Q(i, d) * K(j, d);
          P[size_t(i) * S + j] = s * scale;
          m = std::max(m, s * scale);
        }
        double sum = 0;
        for (uint32_t j = 0; j < n; ++j) sum += std::exp(P[size_t(i) * S + j] - m);
        const double lse = m + std::log(sum);
        L[lrow + i] = lse;
        for (uint32_t j = 0; j < S; ++j) P[size_t(i) * S + j] = j < n ? std::exp(P[size_t(i) * S + j] - lse) : 0;
        double dd = 0;
        for (uint32_t d = 0; d < D; ++d) {
          double o = 0;
          for (uint32_t j = 0; j < n; ++j) o += P[size_t(i) * S + j] * V(j, d);
          const size_t at = lay.at(r.h, b, h, i, d);
          O[at] = o, ob[at] = bf16_rne(float(o));
          dd += double(bf16f(ob[at])) * dO(i, d);
        }
        Dr[lrow + i] = dd;
        for (uint32_t j = 0; j < n; ++j) {
          double dp = 0;
          for (uint32_t d = 0; d < D; ++d) dp += dO(i, d) * V(j, d);
          dS[size_t(i) * S + j] = P[size_t(i) * S + j] * (dp - dd);
        }
        for (uint32_t j = n; j < S; ++j) dS[size_t(i) * S + j] = 0;
      }
      for (uint32_t i = 0; i < S; ++i)
        for (uint32_t d = 0; d < D; ++d) {
          double a = 0;
          for (uint32_t j = 0; j < S; ++j) a += dS[size_t(i) * S + j] * K(j, d);
          dQ[lay.at(r.h, b, h, i, d)] = scale * a;
        }
      for (uint32_t j = 0; j < S; ++j)
        for (uint32_t d = 0; d < D; ++d) {
          double a = 0, c = 0;
          for (uint32_t i = 0; i < S; ++i) a += dS[size_t(i) * S + j] * Q(i, d), c += P[size_t(i) * S + j] * dO(i, d);
          dK[lay.at(r.h, b, h, j, d)] = scale * a, dV[lay.at(r.h, b, h, j, d)] = c;
        }
    }
  auto up16 = [&](uint64_t addr, const std::vector<uint16_t>& x) {
    std::vector<uint8_t> raw(x.size() * 2);
    std::memcpy(raw.data(), x.data(), raw.size());
    buf(addr).upload(raw);
  };
  auto upf = [&](uint64_t addr, const std::vector<double>& x) {
    std::vector<float> f(x.begin(), x.end());
    std::vector<uint8_t> raw(f.size() * 4);
    std::memcpy(raw.data(), f.data(), raw.size());
    buf(addr).upload(raw);
  };
  up16(t.Q, q), up16(t.K, k), up16(t.V, v);
  if (fam != "fwd") {
    up16(t.dO, dout), upf(t.L, L);
    if (cdna4) up16(t.O, ob);
    else upf(t.Dd, Dr);  // gfx942: dot_do_o is a composable-kernel template, not run here
  }
  rt::launch_options lo;
  lo.check = false;
  lo.allow = {"all"};
  char what[160];
  std::snprintf(what, sizeof what, "%s %s b%u h%u hk%u s%u causal %d", fam.c_str(), cdna4 ? "gfx950" : "gfx942", r.b,
                r.h, r.hk, r.s, int(r.causal));
  try {
    run(*dev, dir, pl, lo);
  } catch (const std::exception& e) {
    std::printf("FAIL %s: %s\n", what, e.what());
    return false;
  }
  // A buffer's first n elements (bf16 or f32) as doubles.
  auto get = [&](uint64_t addr, uint64_t n, bool bf16) {
    const std::vector<uint8_t> raw = buf(addr).download();
    std::vector<double> x(n);
    for (uint64_t i = 0; i < n; ++i) {
      if (bf16) {
        uint16_t h;
        std::memcpy(&h, raw.data() + i * 2, 2);
        x[i] = bf16f(h);
      } else {
        float f;
        std::memcpy(&f, raw.data() + i * 4, 4);
        x[i] = f;
      }
    }
    return x;
  };
  auto get16 = [&](uint64_t addr, uint64_t n) { return get(addr, n, true); };
  auto getf = [&](uint64_t addr, uint64_t n) { return get(addr, n, false); };
  std::vector<std::pair<std::string, Cmp>> cmps;
  auto cmp = [&](const char* name, const std::vector<double>& got, const std::vector<double>& ref) {
    Cmp c;
    for (size_t i = 0; i < ref.size(); ++i) c.add(got[i], ref[i]);
    cmps.emplace_back(name, c);
  };
  if (fam == "fwd") {
    cmp("O", get16(t.O, nq), O);
    cmp("LSE", getf(t.L, nl), L);
  } else {
    if (cdna4) cmp("D", getf(t.Dd, nl), Dr);
    if (!cdna4 && fam == "a32") {  // dq_acc: f32 [b, h, s, d] (convert_dq is a composable-kernel template)
      const std::vector<double> acc = getf(t.dQ, nq);
      std::vector<double> got(nq);
      for (uint32_t b = 0; b < r.b; ++b)
        for (uint32_t h = 0; h < r.h; ++h)
          for (uint32_t i = 0; i < r.s; ++i)
            for (uint32_t d = 0; d < D; ++d)
              got[lay.at(r.h, b, h, i, d)] = acc[((size_t(b) * r.h + h) * r.s + i) * D + d];
      cmp("dQ", got, dQ);
    } else {
      cmp("dQ", get16(t.dQ, nq), dQ);
    }
    cmp("dK", get16(t.dK, nq), dK);
    cmp("dV", get16(t.dV, nq), dV);
  }
  // bf16 outputs of sums of a few hundred rounded products: within 2% of the tensor's largest value
  // (wrong strides, heads or masks give errors of the order of the values themselves)
  bool ok = true;
  std::string msg;
  for (const auto& [n, c] : cmps) {
    const bool good = !c.nan && c.rel() <= 0.02;
    ok = ok && good;
    char part[96];
    std::snprintf(part, sizeof part, "%s%s max |err| %.2g of %.3g (%.2f%%)%s", msg.empty() ? "" : ", ", n.c_str(),
                  c.err, c.mag, 100 * c.rel(), c.nan ? " NaN" : "");
    msg += part;
  }
  std::printf("%s %s: %s\n", ok ? "OK  " : "FAIL", what, msg.c_str());
  std::fflush(stdout);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const char* usage =
      "usage: %s AITER_DIR [--arch gfx942|gfx950] [--device mi300x|mi308x|mi355x] [--family fwd|a16|a32]...\n"
      "       [--rows all|cal|test] [--max-gflop G] [--sample CUS] [--batch B] [--seqlen S] [--heads H]\n"
      "       [--causal 0|1] [--clock MHZ] [--layout bshd|bhsd] [--report] [--trace FILE] [--phases FILE]\n"
      "       [--max-error E] [--budget N] [--verify]\n";
  if (argc < 2) {
    std::fprintf(stderr, usage, argv[0]);
    return 2;
  }
  const fs::path root = argv[1];
  std::set<std::string> families;
  std::string roles = "all", layout = "bshd", trace, phases_file, arch = "gfx942", device;
  double max_gflop = 1e9, clock = 0;
  unsigned sample = 0;
  uint64_t budget = 0;
  long only_b = -1, only_s = -1, only_h = -1, only_causal = -1;
  bool report = false, verify_only = false;
  double max_error = -1;
  int over = 0;
  // A number option's value: a non-negative number (the whole argument), else a one-line error.
  auto number = [&](const char* opt, const char* s, double& out) {
    char* end = nullptr;
    out = std::strtod(s, &end);
    if (!*s || *end || !(out >= 0)) {
      std::fprintf(stderr, "%s %s: a non-negative number\n", opt, s);
      return false;
    }
    return true;
  };
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has = i + 1 < argc;
    double x = 0;
    if (a == "--family" && has) {
      const std::string f = argv[++i];
      if (f != "fwd" && f != "a16" && f != "a32") {
        std::fprintf(stderr, "--family %s: fwd, a16 or a32\n", f.c_str());
        return 2;
      }
      families.insert(f);
    } else if (a == "--rows" && has) roles = argv[++i];
    else if (a == "--arch" && has) arch = argv[++i];
    else if (a == "--device" && has) device = argv[++i];
    else if (a == "--layout" && has) layout = argv[++i];
    else if (a == "--trace" && has) trace = argv[++i];
    else if (a == "--phases" && has) phases_file = argv[++i];
    else if (a == "--report") report = true;
    else if (a == "--verify") verify_only = true;
    else if ((a == "--max-gflop" || a == "--sample" || a == "--batch" || a == "--seqlen" || a == "--heads" ||
              a == "--causal" || a == "--clock" || a == "--max-error") && has) {
      if (!number(a.c_str(), argv[++i], x)) return 2;
      if (x != std::floor(x) && (a == "--sample" || a == "--batch" || a == "--seqlen" || a == "--heads")) {
        std::fprintf(stderr, "%s %s: a whole number\n", a.c_str(), argv[i]);
        return 2;
      }
      if (a == "--max-gflop") max_gflop = x;
      else if (a == "--sample") sample = unsigned(x);
      else if (a == "--batch") only_b = long(x);
      else if (a == "--seqlen") only_s = long(x);
      else if (a == "--heads") only_h = long(x);
      else if (a == "--clock") clock = x;
      else if (a == "--max-error") max_error = x;
      else if (x != 0 && x != 1) {
        std::fprintf(stderr, "--causal %s: 0 or 1\n", argv[i]);
        return 2;
      } else only_causal = long(x);
    } else if (a == "--budget" && has) {
      char* end = nullptr;
      budget = std::strtoull(argv[++i], &end, 10);
      if (!*argv[i] || *argv[i] == '-' || *end || budget == 0) {
        std::fprintf(stderr, "--budget %s: a positive number of wave-instructions\n", argv[i]);
        return 2;
      }
    } else {
      std::fprintf(stderr, "unknown option %s (or no value after it)\n", a.c_str());
      return 2;
    }
  }
  if (roles != "all" && roles != "cal" && roles != "test") {
    std::fprintf(stderr, "--rows %s: all, cal or test\n", roles.c_str());
    return 2;
  }
  if (layout != "bshd" && layout != "bhsd") {
    std::fprintf(stderr, "--layout %s: bshd or bhsd\n", layout.c_str());
    return 2;
  }
  if (arch != "gfx942" && arch != "gfx950") {
    std::fprintf(stderr, "--arch %s: gfx942 or gfx950\n", arch.c_str());
    return 2;
  }
  const bool cdna4 = arch == "gfx950";
  if (device.empty()) device = cdna4 ? "mi355x" : "mi300x";
  if (cdna4 ? device != "mi355x" : device != "mi300x" && device != "mi308x") {
    std::fprintf(stderr, "--device %s: %s\n", device.c_str(), cdna4 ? "mi355x for gfx950" : "mi300x or mi308x for gfx942");
    return 2;
  }
  const Dev col = cdna4 ? MI355 : device == "mi308x" ? MI308 : MI300;
  if (families.empty()) families = {"fwd", "a16", "a32"};
  const fs::path readme = root / "op_tests/cpp/mha/README.md";
  // fmha_v3_fwd of gfx942: MI300/ or MI308/ by the device's CU count (codegen.py fmha_fwd_v3_kernel)
  const fs::path fwd_dir = cdna4 ? root / "hsa/gfx950/fmha_v3_fwd"
                                 : root / "hsa/gfx942/fmha_v3_fwd" / (col == MI308 ? "MI308" : "MI300"),
                 bwd_dir = root / "hsa" / arch / "fmha_v3_bwd";
  if (!fs::exists(readme) || !fs::exists(fwd_dir) || !fs::exists(bwd_dir)) {
    std::printf("aiter folder %s has no op_tests/cpp/mha/README.md, %s or %s: skipped\n", root.c_str(),
                fwd_dir.lexically_relative(root).c_str(), bwd_dir.lexically_relative(root).c_str());
    return 0;
  }
  const Layout any_layout{layout == "bshd", 0};
  if (verify_only) {
    int failures = 0;
    const Shape base{uint32_t(only_b > 0 ? only_b : 2), uint32_t(only_h > 0 ? only_h : 2), 1,
                     uint32_t(only_s > 0 ? only_s : 768), false};
    for (const std::string fam : {"fwd", "a16", "a32"}) {
      if (!families.count(fam)) continue;
      for (int c = 0; c < 2; ++c) {
        if (only_causal >= 0 && c != only_causal) continue;
        Shape r = base;
        r.causal = c;
        Layout lay = any_layout;
        lay.s = r.s;
        failures += !verify(fam, r, cdna4, lay, fam == "fwd" ? fwd_dir : bwd_dir);
      }
    }
    return failures ? 1 : 0;
  }
  const std::vector<Row> rows = read_table(readme);
  if (rows.empty()) {
    std::fprintf(stderr, "no hd128 rows in %s\n", readme.c_str());
    return 1;
  }
  if (std::none_of(rows.begin(), rows.end(), [&](const Row& r) { return r.tflops[col][0] > 0; })) {
    std::fprintf(stderr, "--device %s: %s has no %s columns (aiter a83421's README has)\n", device.c_str(),
                 readme.c_str(), col == MI308 ? "MI308" : "MI300X");
    return 2;
  }
  const double kStreamGbps = hipasm::sim::timing::find_device(device.c_str())->hbm_achievable_gbytes_per_s;
  const double kOverheadUs = hipasm::sim::timing::find_device(device.c_str())->dispatch_overhead_us;
  std::map<std::string, std::vector<double>> errs;
  std::printf("device %s (%s): fwd %s, bwd %s\n", device.c_str(), arch.c_str(), fwd_dir.lexically_relative(root).c_str(),
              bwd_dir.lexically_relative(root).c_str());
  std::printf("%-4s %-4s %2s %3s %2s %6s %1s %9s %10s %10s %7s %7s %6s %5s %5s %6s %6s\n", "fam", "role", "b", "h", "hk",
              "s", "c", "GFLOP", "measured", "predicted", "error", "stream", "clock", "mfma", "cus", "groups", "wall");
  for (const std::string fam : {"fwd", "a16", "a32"}) {
    if (!families.count(fam)) continue;
    const int fi = fam == "fwd" ? 0 : fam == "a16" ? 1 : 2;
    for (const Row& r : rows) {
      if ((only_b >= 0 && r.b != only_b) || (only_s >= 0 && r.s != only_s) || (only_h >= 0 && r.h != only_h) ||
          (only_causal >= 0 && r.causal != (only_causal != 0)))
        continue;
      const bool cal = r.b == 4;
      if ((roles == "cal" && !cal) || (roles == "test" && cal)) continue;
      const double tflops = r.tflops[col][fi];
      if (!(tflops > 0)) continue;
      const double per_head = double(r.s) * r.s * D * (fam == "fwd" ? 4.0 : 10.0);
      const double flop = per_head * r.b * r.h * (r.causal ? 0.5 : 1.0);
      if (flop / 1e9 > max_gflop) continue;
      const double measured_us = flop / (tflops * 1e6);
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
      // Buffers live until the launches return (a buffer frees its memory when destroyed).
      std::vector<std::unique_ptr<rt::buffer<uint8_t>>> bufs;
      auto alloc = [&](uint64_t bytes) {
        bufs.push_back(std::make_unique<rt::buffer<uint8_t>>(*dev, bytes));
        return bufs.back()->addr();
      };
      Tensors t;
      Layout lay = any_layout;
      lay.s = r.s;
      const Plan pl = plan(fam, {r.b, r.h, r.hk, r.s, r.causal}, cdna4, lay, t, alloc);
      const auto t0 = std::chrono::steady_clock::now();
      std::vector<rt::launch_report> reps;
      try {
        reps = run(*dev, fam == "fwd" ? fwd_dir : bwd_dir, pl, lo);
      } catch (const std::exception& e) {
        std::printf("%-4s %-4s %2u %3u %2u %6u %d  error: %s\n", fam.c_str(), cal ? "cal" : "test", r.b, r.h, r.hk, r.s,
                    int(r.causal), e.what());
        ++over;
        continue;
      }
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const rt::profile& pr = *reps[pl.main].profile;
      // helpers: the simulated ones' time (gfx950) or the streaming estimate (gfx942)
      double helper_us = pl.stream_kernels ? pl.stream_bytes / (kStreamGbps * 1e3) + pl.stream_kernels * kOverheadUs : 0;
      for (size_t i = 0; i < reps.size(); ++i)
        if (i != pl.main) helper_us += reps[i].profile->time_us;
      const double predicted = pr.time_us + helper_us;
      const double e = predicted / measured_us - 1;
      over += max_error >= 0 && std::abs(e) > max_error;
      errs[fam].push_back(std::abs(e));
      errs[fam + (cal ? "/cal" : "/test")].push_back(std::abs(e));
      std::printf("%-4s %-4s %2u %3u %2u %6u %d %9.1f %10.2f %10.2f %+6.1f%% %7.2f %6.0f %5.2f %5u %6u %6.1f\n",
                  fam.c_str(), cal ? "cal" : "test", r.b, r.h, r.hk, r.s, int(r.causal), flop / 1e9, measured_us,
                  predicted, 100 * e, helper_us, pr.clock_mhz, pr.mfma_busy, pr.cus_used, pr.workgroups, wall);
      if (report)
        for (const rt::launch_report& rep : reps) std::fputs(rep.profile->report().c_str(), stdout);
      char row[200];
      std::snprintf(row, sizeof row,
                    "\"device\":\"%s\",\"family\":\"%s\",\"role\":\"%s\",\"b\":%u,\"h\":%u,\"hk\":%u,\"s\":%u,\"causal\":%d",
                    device.c_str(), fam.c_str(), cal ? "cal" : "test", r.b, r.h, r.hk, r.s, int(r.causal));
      timing_phases::append(phases_file, row, measured_us, pr.dispatch_overhead_us + helper_us, pr);
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

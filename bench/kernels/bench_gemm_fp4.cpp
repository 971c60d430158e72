// bench_kernel_gemm_fp4 [AITER_DIR]: the library's MXFP4 GEMM (kernels/gemm_fp4.hpp: fp4 e2m1 A
// and B, E8M0 scales per 1x32 block, bf16 C) on the MI355X model, against aiter's gfx950 f4gemm
// asm kernels (hsa/gfx950/f4gemm, B and scales preshuffled: csrc/py_itfs_cu/asm_gemm_a4w4.cu;
// launched by bench/timing/aiter_asm_gemm.hpp, zeros) on the same shape in the same run. Shapes:
// AMD's 2026 MI355X GEMM challenge and 8192^3. aiter's kernel of a row: its tuning table's
// (aiter/configs/a4w4_blockscale_tuned_gemm.csv) for the shapes it lists, else the tile that
// table picks for its neighbours (32x128 for M <= 128, no split K).
// Each challenge shape has a second row, shape=MxNxK_flow: the whole flow the challenge times
// (gpu-mode/reference-kernels problems/amd_202602/mxfp4-mm/task.yml): A in bf16 quantized to MXFP4
// per 1x32 block (the library's mxfp4_quant, aiter's scale rule), then the GEMM; hipasm_us is the
// sum of the two launches. B comes quantized and preshuffled in that task (not timed). AMD's flow
// quantizes A with aiter's Triton kernel (aiter.get_triton_quant(QuantType.per_1x32)), for which
// aiter ships no asm code object: aiter_us=none; amd_us is AMD's measured time of its flow on an
// MI355X (task.yml), amd_ratio amd_us / hipasm_us.
// GEMM_FP4_BENCH_KERNEL=name runs that configuration instead of the picked one;
// HIPASM_BENCH_SHAPE=MxNxK that shape only. Shapes above 2^34 FLOP are profiled, both kernels
// alike, on a sampled slice of 16 CUs (profile_options::sample_cus).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <hipasm/kernels/gemm_fp4_launch.hpp>
#include <hipasm/kernels/mxfp4_quant.hpp>

#include "aiter_asm_gemm.hpp"
#include "bench_common.hpp"
#include "gemm_fp4_bench_configs.hpp"

namespace {
namespace hk = hipasm::kernels;
using namespace bench;

struct shape {
  uint32_t m, n, k;
  const char* aiter_kernel;
  double amd_us = 0;  // AMD's measured time of the whole flow (the challenge's task.yml), 0: none
};

const std::vector<hk::gemm_fp4_kernel_ref>& ours() {
  static const std::vector<hk::gemm_fp4_kernel_ref> k = {
      {"gemm_fp4_32x64", f4_bench::f4_32x64},
      {"gemm_fp4_32x32_k4", f4_bench::f4_32x32_k4},
      {"gemm_fp4_64x128", f4_bench::f4_64x128},
      {"gemm_fp4_32x64_bs", f4_bench::f4_32x64_bs},
      {"gemm_fp4_32x128_bs", f4_bench::f4_32x128_bs},
      {"gemm_fp4_32x256_bs", f4_bench::f4_32x256_bs},
      {"gemm_fp4_32x128_bs_k2", f4_bench::f4_32x128_bs_k2},
      {"gemm_fp4_32x64_bs_k4", f4_bench::f4_32x64_bs_k4},
      {"gemm_fp4_64x128_bs", f4_bench::f4_64x128_bs},
      {"gemm_fp4_128x128_bs", f4_bench::f4_128x128_bs},
      {"gemm_fp4_32x64_al_bs", f4_bench::f4_32x64_al_bs},
      {"gemm_fp4_32x128_al_bs", f4_bench::f4_32x128_al_bs},
      {"gemm_fp4_32x64_al_bs_k4", f4_bench::f4_32x64_al_bs_k4},
      {"gemm_fp4_64x128_al_bs", f4_bench::f4_64x128_al_bs},
      {"gemm_fp4_128x128_al_bs", f4_bench::f4_128x128_al_bs},
      {"gemm_fp4_32x64_al_nw", f4_bench::f4_32x64_al_nw},
      {"gemm_fp4_32x128_al_nw", f4_bench::f4_32x128_al_nw},
      {"gemm_fp4_32x64_al_nw_k4", f4_bench::f4_32x64_al_nw_k4},
      {"gemm_fp4_64x128_w4_al_bs", f4_bench::f4_64x128_w4_al_bs},
      {"gemm_fp4_256x256_ab", f4_bench::f4_256x256_ab},
      {"gemm_fp4_128x128_ab", f4_bench::f4_128x128_ab},
      {"gemm_fp4_256x256_ab_p", f4_bench::f4_256x256_ab_p}};
  return k;
}

// Our configuration for a shape (GEMM_FP4_BENCH_KERNEL compares the others): B preshuffled, A
// through LDS; a 32x64 tile while its grid leaves CUs idle (at most 256 tiles), its K split over
// 4 wave groups for K >= 2048 (more loads in flight a CU); 32x128, or 64x128 for K >= 2048 (one
// row of 4 waves: each B fragment loaded once; 256x7168x2048 8.00 us, 2 x 2 waves 9.24), up to
// 1024 rows; above, 256x256 with A and B through LDS (ab_lds: each line loaded once a workgroup),
// on 256 persistent workgroups where K is a multiple of 2048 (the next tile's first loads during
// a tile's last steps and C stores: 8192^3 217.6 us one tile a workgroup, 202.4 persistent). A's scales by LDS windows where a wave group walks 7 steps of K or
// more; with fewer (2 a group at K = 2048 over 4 groups, 6 at K = 1536) the first window's load
// costs more than the scale loads the windows save (measured: GEMM_FP4_BENCH_KERNEL).
const hk::gemm_fp4_kernel_ref& pick(const shape& s) {
  const uint32_t tiles = ((s.m + 31) / 32) * ((s.n + 63) / 64), steps = s.k / 256;
  const char* name = s.m > 1024    ? (s.k % 2048 == 0 ? "gemm_fp4_256x256_ab_p" : "gemm_fp4_256x256_ab")
                     : tiles > 256 ? (steps >= 7 && s.k >= 2048 ? "gemm_fp4_64x128_w4_al_bs" : "gemm_fp4_32x128_al_nw")
                     : s.k >= 2048 ? (steps / 4 >= 7 ? "gemm_fp4_32x64_al_bs_k4" : "gemm_fp4_32x64_al_nw_k4")
                                   : "gemm_fp4_32x64_al_nw";
  if (const char* forced = std::getenv("GEMM_FP4_BENCH_KERNEL")) name = forced;
  for (const auto& k : ours())
    if (k.name == name) return k;
  std::fprintf(stderr, "gemm_fp4: no configuration %s\n", name);
  std::exit(2);
}

// The flow's quantization kernels of A (gemm_fp4.hip: quant_mxfp4_<K>)
using quant_fn = rt::launch_report (*)(rt::device&, rt::module&, std::string_view, const hk::mxfp4_quant_args&,
                                       const rt::launch_options&);
const std::map<uint32_t, quant_fn>& quants() {
  static const std::map<uint32_t, quant_fn> q = {{512, &hk::launch_mxfp4_quant<f4_bench::q512>},
                                                 {1536, &hk::launch_mxfp4_quant<f4_bench::q1536>},
                                                 {2048, &hk::launch_mxfp4_quant<f4_bench::q2048>},
                                                 {7168, &hk::launch_mxfp4_quant<f4_bench::q7168>}};
  return q;
}

// A's quantization for the flow of shape s, the launch's report
rt::launch_report run_quant(const shape& s, const rt::launch_options& lo) {
  if (!quants().count(s.k)) {
    std::fprintf(stderr, "gemm_fp4: no quantization kernel for K = %u\n", s.k);
    std::exit(2);
  }
  auto dp = fresh_device();
  rt::device& d = *dp;
  rt::buffer<uint16_t> X(d, std::vector<uint16_t>(size_t(s.m) * s.k, 0x3f80));  // (values do not change the time)
  rt::buffer<uint8_t> Q(d, size_t(s.m) * s.k / 2), Sc(d, size_t(s.m) * s.k / 32);
  auto mod = d.load_file(HIPASM_BENCH_CO);
  return quants().at(s.k)(d, *mod, "quant_mxfp4_" + std::to_string(s.k),
                          {.q = Q.addr(), .scales = Sc.addr(), .in = X.addr(), .rows = s.m}, lo);
}

rt::launch_report run_ours(const hk::gemm_fp4_kernel_ref& k, const shape& s, const rt::launch_options& lo) {
  auto dp = fresh_device();  // (bench_common.hpp: a device per run, buffers first)
  rt::device& d = *dp;
  const size_t nb = k.config.b_shuffled ? (s.n + 31) / 32 * 32 : s.n;  // (preshuffled: rows padded to 32)
  rt::buffer<uint8_t> A(d, size_t(s.m) * s.k / 2), B(d, nb * s.k / 2), SA(d, size_t(s.m) * s.k / 32), SB(d, nb * s.k / 32);
  rt::buffer<uint16_t> C(d, size_t(s.m) * s.n);
  auto mod = d.load_file(HIPASM_BENCH_CO);
  return hk::launch_gemm_fp4(d, *mod, k, C.addr(), A.addr(), B.addr(), SA.addr(), SB.addr(), s.m, s.n, s.k, lo);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc > 2) {
    std::fprintf(stderr, "usage: %s [AITER_DIR]\n", argv[0]);
    return 2;
  }
  const std::filesystem::path root = argc == 2 ? argv[1] : "";
  const char* k32 = "_ZN5aiter41f4gemm_bf16_per1x32Fp4_BpreShuffle_32x128E";
  const char* k64 = "_ZN5aiter41f4gemm_bf16_per1x32Fp4_BpreShuffle_64x128E";
  const char* k256 = "_ZN5aiter42f4gemm_bf16_per1x32Fp4_BpreShuffle_256x256E";
  const std::vector<shape> shapes = {{4, 2880, 512, k32, 8.198},    {16, 2112, 7168, k32, 20.873},
                                     {32, 4096, 512, k32, 9.462},    {64, 7168, 2048, k32, 12.738},
                                     {64, 2880, 512, k32, 9.873},    {128, 2112, 7168, k32, 27.284},
                                     {256, 3072, 1536, k32, 12.219}, {256, 7168, 2048, k64, 13.506},
                                     {8192, 8192, 8192, k256}};
  const aiter_asm::FamilyInfo& fam = aiter_asm::family(aiter_asm::Family::f4);
  std::map<std::string, aiter_asm::Kernel> aks;
  if (!root.empty()) {
    aks = aiter_asm::kernel_list(root, fam, "gfx950");
    if (aks.empty()) std::fprintf(stderr, "gemm_fp4: no aiter f4gemm list under %s: aiter skipped\n", root.c_str());
  }
  for (const shape& s : shapes) {
    const std::string name = std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
    if (!selected(name)) continue;
    const double flop = 2.0 * s.m * s.n * s.k;
    rt::profile_options po;
    po.device = "mi355x";
    if (flop > double(1ull << 34)) po.sample_cus = 16;
    rt::launch_options lo;
    lo.profile = &po;
    lo.check = false;  // (the tests run the checker; here only the time matters)
    const hk::gemm_fp4_kernel_ref& k = pick(s);
    const result h = from(run_ours(k, s, lo));
    double aiter_us = 0;
    if (aks.count(s.aiter_kernel)) {
      aiter_asm::Problem p;
      p.M = int(s.m), p.N = int(s.n), p.K = int(s.k), p.ks = 1;
      const rt::launch_report arep = aiter_asm::run_kernel(*fresh_device(), root, aiter_asm::Family::f4, s.aiter_kernel,
                                                           aks.at(s.aiter_kernel), p, lo, "gfx950");
      if (const char* e = std::getenv("HIPASM_BENCH_REPORT"); e && *e == '1')
        std::fprintf(stderr, "aiter %s\n", arep.profile->report().c_str());
      aiter_us = arep.profile->time_us;
    }
    std::fprintf(stderr, "gemm_fp4 %s: %s; aiter %s\n", name.c_str(), k.name.c_str(),
                 aiter_asm::short_name(s.aiter_kernel).c_str());
    // traffic: A and B (half a byte an element), their scales, C in bf16
    print_line("gemm_fp4", name, h, aiter_us,
               (double(s.m) + s.n) * s.k * (0.5 + 1.0 / 32) + 2.0 * s.m * s.n, false, "mi355x");
    if (s.amd_us <= 0) continue;
    // the flow: A's quantization, then the GEMM
    const result q = from(run_quant(s, lo));
    result f;
    f.us = q.us + h.us;
    f.tflops = flop / (f.us * 1e6);
    f.mfma_busy = (h.mfma_busy * h.us + q.mfma_busy * q.us) / f.us;
    f.hbm_bytes = q.hbm_bytes + h.hbm_bytes;
    char amd[64];
    std::snprintf(amd, sizeof amd, "amd_us=%.3f amd_ratio=%.3f", s.amd_us, s.amd_us / f.us);
    std::fprintf(stderr, "gemm_fp4 %s_flow: quant_mxfp4_%u %.2f us + %s %.2f us\n", name.c_str(), s.k, q.us,
                 k.name.c_str(), h.us);
    // traffic: bf16 A read, its fp4 and scales written and read, B, B's scales, C
    print_line("gemm_fp4", name + "_flow", f, 0,
               2.0 * s.m * s.k + (2.0 * s.m + s.n) * s.k * (0.5 + 1.0 / 32) + 2.0 * s.m * s.n, false, "mi355x", amd);
  }
  return 0;
}

// bench_kernel_attn_bwd [AITER_DIR]: the library's flash attention backward (attn_bwd.hpp: head dim
// 128, bf16, dQ through an f32 workspace; its kernels dot_do_o, the main kernel and convert_dq
// (with GQA also the dK, dV sums), each simulated) on rows of AMD's measured BWD table (aiter op_tests/cpp/mha/README.md
// at a83421bee6: batch, query heads, kv heads, seqlen, causal), predicted by the timing model
// (MI300X), next to aiter's fmha_v3_bwd a32 (hsa/gfx942/fmha_v3_bwd/bwd_hd128_bf16[_causal]_a32_rtz.co,
// dQ accumulated in f32) on the same shape in the same run. aiter's launch is hipasm-timing-attn's
// (bench/timing/aiter_attn_plan.hpp: its argument struct, grid, buffers); its dot_do_o and
// convert_dq are composable-kernel templates with no code object, predicted as streams of their
// bytes at the model's streaming HBM rate plus the dispatch overhead each, as that tool does.
// aiter's dK and dV have num_q_heads heads (its GQA sum is outside the kernel); ours are summed
// over the query heads of a kv head in the kernel. Without AITER_DIR the aiter columns are `none`.
// aiter's time is its op as its torch entry runs it (csrc/py_itfs_cu/asm_mha_bwd.cu fmha_v3_bwd):
// besides the kernels above, dq_acc is zeroed before them (torch::zeros there; mha_bwd.cu's
// workspace_alloc(dq_acc_bytes, zero_init=true) in the newer aiter) and, with GQA, dK and dV are
// summed over each kv head's query heads after them (two at::sum_out). Those three are predicted as
// streams of their bytes, as dot_do_o is on gfx942. AMD's C++ benchmark (op_tests/cpp/mha) times the
// kernels alone: that is what the timing model's validation compares; HIPASM_BENCH_VERBOSE=1 prints
// both parts. Ours zeroes dq_acc in dot_do_o and sums in convert_dq (or in the kernel), all timed.
//
// tflops counts the table's FLOPs: 10 s^2 d per head (4 products of 2 s^2 d, and the recomputed
// QK^T: benchmark_mha_bwd), halved for causal rows. Rows of both dQ modes, next to the same
// aiter time: atomic (dot_do_o, main, convert_dq) and recompute (dot_do_o, main, dq, with GQA
// convert_dq's sums); kernel attn_bwd_a32 for the mode launch_attn_bwd picks on the device
// (attn_bwd_dq_for), attn_bwd_a32_atomic or attn_bwd_a32_recompute for the other; shape
// bB_hH_kK_sS_d128_full|causal; HIPASM_BENCH_SHAPE=TEXT runs the rows whose shape contains TEXT,
// HIPASM_ATTN_BWD_DQ=atomic|recompute only that mode's rows.
// f16 rows (config dtype f16; kernel attn_bwd_f16_a32[_atomic|_recompute]) on the first four
// shapes, next to aiter's fp16 kernels of the same launch (gfx942 bwd_hd128_fp16[_causal]_a32,
// gfx950 bwd_hd128_odo_fp16, bwd_hd128_fp16[_causal]_a32_psskddv, bwd_hd128_dq_convert_fp16);
// HIPASM_ATTN_BWD_DTYPE=bf16|f16 only that type's rows.
// The table's causal rows are top-left aligned (-mask=1); with seqlen_q = seqlen_k that is the
// same mask as ours (bottom-right).
// a16 rows (kernel attn_bwd_a16: config dq = atomic16, dQ added by packed bf16 atomics straight
// into dQ: dot_do_o (zeroing dQ), the main kernel, convert_dq only with GQA for the dK, dV sums)
// on every shape, next to aiter's a16 in the same run: gfx942 dot_do_o (a stream) and
// bwd_hd128_bf16[_causal]_a16_rtz.co (the README's command's rounding, and the a32 rows'; ours
// rounds to nearest even: HIPASM_ATTN_BWD_AITER_A16=rtne picks aiter's _rtne, the same
// rounding, whose kernels are slower), the torch entry's zeroing of its bf16 dq
// accumulator (rows padded to 16) and GQA sums as streams; gfx950 its odo,
// bwd_hd128_bf16[_causal]_a16_psskddv (into a bf16 dq_acc) and dq_shuffle kernels, simulated.
// HIPASM_ATTN_BWD_DQ=atomic16 runs only these rows.
// bench_kernel_attn_bwd_mi355x: the same built for gfx950 on the MI355X model, next to aiter's
// gfx950 fmha_v3_bwd a32 (hsa/gfx950/fmha_v3_bwd: its odo, bwd_hd128_bf16[_causal]_a32_psskddv
// and dq_convert kernels, launched as csrc/cpp_itfs/mha_bwd.cu does: aiter_attn_plan.hpp), every
// one of them simulated. Its AITER_DIR is a newer aiter than the table's commit (a83421 has no
// gfx950 odo / dq_convert code objects), as hipasm-timing-attn's for gfx950.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <hipasm/kernels/attn_bwd_launch.hpp>

#include "aiter_attn_plan.hpp"
#include "bench_common.hpp"
#include "timing/device.hpp"

namespace fs = std::filesystem;
namespace rt = hipasm::rt;

namespace {

constexpr const char* kDevice = bench::target_device;
constexpr bool kGfx950 = bench::target_gfx950;
constexpr const char* kAiterDir = kGfx950 ? "hsa/gfx950/fmha_v3_bwd" : "hsa/gfx942/fmha_v3_bwd";
constexpr const char* kAiterMain = kGfx950 ? "bwd_hd128_bf16_a32_psskddv.co" : "bwd_hd128_bf16_a32_rtz.co";
constexpr uint32_t kXcdCus = bench::target_xcd_cus;
constexpr uint64_t kBudget = 2'000'000'000;  // wave-instructions a launch may run
constexpr uint32_t kHeadDim = 128;

struct shape {
  uint32_t batch, heads, kv_heads, seqlen;
  bool causal;
};

// The model's time of aiter's a32 (fam "a32") or a16 ("a16", "a16_rtne") backward on `s`: the
// main kernel simulated (sampled as ours); gfx942: the composable-kernel helpers as streams
// (aiter_attn.cpp's estimate), gfx950: its helper kernels simulated.
double aiter_bwd_us(const std::string& fam, const fs::path& bwd_dir, const shape& s, bool fp16,
                    const rt::profile_options& po) {
  auto dev = bench::fresh_device();
  std::vector<std::unique_ptr<rt::buffer<uint8_t>>> bufs;
  auto alloc = [&](uint64_t bytes) {
    bufs.push_back(std::make_unique<rt::buffer<uint8_t>>(*dev, bytes));
    return bufs.back()->addr();
  };
  aiter_attn::Tensors t;
  const aiter_attn::Layout lay{true, s.seqlen};
  const aiter_attn::Plan pl =
      aiter_attn::plan(fam, {s.batch, s.heads, s.kv_heads, s.seqlen, s.causal, fp16}, kGfx950, lay, t, alloc);
  rt::profile_options apo = po;
  rt::launch_options lo;
  lo.check = false;
  lo.allow = {"all"};
  lo.profile = &apo;
  lo.instruction_budget = kBudget;
  const std::vector<rt::launch_report> reps = aiter_attn::run(*dev, bwd_dir, pl, lo);
  if (const char* e = std::getenv("HIPASM_BENCH_REPORT"); e && *e == '1')
    std::fprintf(stderr, "aiter:\n%s\n", reps[pl.main].profile->report().c_str());
  const auto* d = hipasm::sim::timing::find_device(kDevice);
  double us = pl.stream_bytes / (d->hbm_achievable_gbytes_per_s * 1e3) + pl.stream_kernels * d->dispatch_overhead_us;
  for (const rt::launch_report& r : reps) us += r.profile->time_us;
  // the torch entry's own launches: dq_acc (a32: f32, every query head's rows; a16: bf16, rows
  // padded to 16) zeroed, and with GQA the two sums (each reads the query heads' partials,
  // writes the kv heads')
  const double nq = double(s.batch) * s.heads * s.seqlen * kHeadDim,
               nk = double(s.batch) * s.kv_heads * s.seqlen * kHeadDim;
  const bool gqa = s.heads != s.kv_heads;
  const double acc_bytes =
      fam == "a32" ? nq * 4 : double(s.batch) * s.heads * ((s.seqlen + 15) / 16 * 16) * kHeadDim * 2;
  const double torch_bytes = acc_bytes + (gqa ? 2 * (nq * 2 + nk * 2) : 0.0);
  const double torch_us =
      torch_bytes / (d->hbm_achievable_gbytes_per_s * 1e3) + (gqa ? 3 : 1) * d->dispatch_overhead_us;
  if (std::getenv("HIPASM_BENCH_VERBOSE"))
    std::fprintf(stderr, "aiter %s b%u h%u k%u s%u %s: kernels %.2f us, torch entry's zeroing%s %.2f us\n", fam.c_str(), s.batch,
                 s.heads, s.kv_heads, s.seqlen, s.causal ? "causal" : "full", us, gqa ? " and GQA sums" : "",
                 torch_us);
  return us + torch_us;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 2) {
    std::fprintf(stderr, "usage: %s [AITER_DIR]\n", argv[0]);
    return 2;
  }
  fs::path bwd_dir;
  if (argc == 2) {
    bwd_dir = fs::path(argv[1]) / kAiterDir;
    for (const char* f : {kAiterMain, kGfx950 ? "bwd_hd128_odo_bf16.co" : kAiterMain})
      if (!bwd_dir.empty() && !fs::exists(bwd_dir / f)) {
        std::fprintf(stderr, "%s: no %s/%s: aiter skipped\n", argv[0], bwd_dir.c_str(), f);
        bwd_dir.clear();
      }
  }
  // rows of the table (hd 128, seqlen_q = seqlen_k)
  const std::vector<shape> shapes = {{1, 32, 8, 1024, false}, {1, 32, 8, 1024, true}, {4, 32, 8, 2048, false},
                                     {4, 32, 8, 2048, true},  {1, 64, 8, 4096, false}, {1, 64, 8, 4096, true},
                                     {8, 64, 4, 1024, false}, {1, 32, 8, 8192, true}};
  constexpr uint32_t D = kHeadDim;
  // HIPASM_ATTN_BENCH_CO=FILE: another build's code object of the same kernels (before / after runs)
  const char* co_file = std::getenv("HIPASM_ATTN_BENCH_CO");
  constexpr auto RC = hipasm::kernels::attn_bwd_dq::recompute;
  const hipasm::kernels::attn_bwd_kernel_ref plain{"attn_bwd_d128", {.head_dim = D, .causal = false, .keys_per_wave = 48}};
  const hipasm::kernels::attn_bwd_kernel_ref causal{"attn_bwd_d128_causal", {.head_dim = D, .causal = true, .keys_per_wave = 48}};
  const hipasm::kernels::attn_bwd_kernel_ref plain_rc{"attn_bwd_d128_rc", {.head_dim = D, .causal = false, .dq = RC}};
  const hipasm::kernels::attn_bwd_kernel_ref causal_rc{"attn_bwd_d128_causal_rc", {.head_dim = D, .causal = true, .dq = RC}};
  constexpr auto A16 = hipasm::kernels::attn_bwd_dq::atomic16;
  constexpr uint32_t kA16KeysPerWave = kGfx950 ? 32 : 48;  // (kernels/attn_bwd.hip's A16_KEYS_PER_WAVE)
  const hipasm::kernels::attn_bwd_kernel_ref plain_a16{"attn_bwd_d128_a16", {.head_dim = D, .causal = false, .dq = A16, .keys_per_wave = kA16KeysPerWave}};
  const hipasm::kernels::attn_bwd_kernel_ref causal_a16{"attn_bwd_d128_causal_a16", {.head_dim = D, .causal = true, .dq = A16, .keys_per_wave = kA16KeysPerWave}};
  const char* a16_cvt = std::getenv("HIPASM_ATTN_BWD_AITER_A16");
  const std::string aiter_a16 = a16_cvt && std::strcmp(a16_cvt, "rtne") == 0 ? "a16_rtne" : "a16";
  constexpr auto F16 = hipasm::kernels::attn_dtype::f16;
  const hipasm::kernels::attn_bwd_kernel_ref h_plain{"attn_bwd_f16_d128", {.head_dim = D, .causal = false, .dtype = F16, .keys_per_wave = 48}};
  const hipasm::kernels::attn_bwd_kernel_ref h_causal{"attn_bwd_f16_d128_causal", {.head_dim = D, .causal = true, .dtype = F16, .keys_per_wave = 48}};
  const hipasm::kernels::attn_bwd_kernel_ref h_plain_rc{"attn_bwd_f16_d128_rc",
                                                        {.head_dim = D, .causal = false, .dtype = F16, .dq = RC}};
  const hipasm::kernels::attn_bwd_kernel_ref h_causal_rc{"attn_bwd_f16_d128_causal_rc",
                                                         {.head_dim = D, .causal = true, .dtype = F16, .dq = RC}};
  constexpr size_t kF16Shapes = 4;  // f16 rows: the first shapes
  const char* only = std::getenv("HIPASM_ATTN_BWD_DQ");
  const char* only_type = std::getenv("HIPASM_ATTN_BWD_DTYPE");
  for (size_t si = 0; si < shapes.size(); ++si) {
    const shape& s = shapes[si];
    char name[96];
    std::snprintf(name, sizeof name, "b%u_h%u_k%u_s%u_d%u_%s", s.batch, s.heads, s.kv_heads, s.seqlen, D,
                  s.causal ? "causal" : "full");
    if (!bench::selected(name)) continue;
    const uint64_t tokens = uint64_t(s.batch) * s.seqlen;
    const size_t nq = tokens * s.heads * D, nk = tokens * s.kv_heads * D, nl = tokens * s.heads;
    std::vector<int> cu(s.batch + 1);
    for (uint32_t b = 0; b <= s.batch; ++b) cu[b] = int(b * s.seqlen);
    auto dev = bench::fresh_device();
    rt::buffer<uint16_t> Q(*dev, nq), K(*dev, nk), V(*dev, nk), O(*dev, nq), dO(*dev, nq), dQ(*dev, nq), dK(*dev, nk),
        dV(*dev, nk);
    rt::buffer<float> L(*dev, nl), delta(*dev, nl), acc(*dev, nq);
    rt::buffer<uint16_t> dKp(*dev, nq), dVp(*dev, nq);  // (GQA: per query head partial sums)
    rt::buffer<int> CU(*dev, cu);
    auto mod = dev->load_file(co_file ? co_file : HIPASM_BENCH_CO);
    // The main kernel sampled on XCD 0's CUs (docs/timing-model.md, Sampling), the streams as
    // bench::profile_for samples them.
    const uint32_t groups = plain.config.grid_x(s.seqlen) * s.kv_heads * s.batch;
    rt::profile_options po = bench::profile_for(groups, kDevice);
    po.sample_cus = kXcdCus;
    rt::launch_options lo;
    lo.profile = &po;
    lo.check = false;  // (the tests run the checker; here only the time matters)
    // (the sampled XCD of the s4096 / s8192 rows runs over 10^8 wave-instructions, the default)
    lo.instruction_budget = kBudget;
    const hipasm::kernels::attn_bwd_args a{
        .dq = dQ.addr(), .dk = dK.addr(), .dv = dV.addr(), .q = Q.addr(), .k = K.addr(), .v = V.addr(),
        .o = O.addr(), .d_o = dO.addr(), .lse = L.addr(), .dq_acc = acc.addr(), .delta = delta.addr(),
        .dk_part = dKp.addr(), .dv_part = dVp.addr(), .cu_seqlens_q = CU.addr(), .cu_seqlens_k = CU.addr(), .batch = s.batch, .max_seqlen_q = s.seqlen,
        .max_seqlen_k = s.seqlen, .num_q_heads = s.heads, .num_kv_heads = s.kv_heads,
        .softmax_scale = 1.0f / std::sqrt(float(D))};
    for (const bool f16 : {false, true}) {
    if (f16 && si >= kF16Shapes) continue;
    if (only_type && std::strcmp(only_type, f16 ? "f16" : "bf16") != 0) continue;
    const bool a32_rows = !only || std::strcmp(only, "atomic") == 0 || std::strcmp(only, "recompute") == 0;
    const double aiter_us = bwd_dir.empty() || !a32_rows ? 0 : aiter_bwd_us("a32", bwd_dir, s, f16, po);
    for (const int m : {0, 1, 2}) {
      const bool rc = m == 1, a16 = m == 2;
      const char* mode = a16 ? "atomic16" : rc ? "recompute" : "atomic";
      if (only && std::strcmp(only, mode) != 0) continue;
      if (a16 && f16) continue;  // (bf16 only)
      const auto& k = a16 ? (s.causal ? causal_a16 : plain_a16)
                      : f16 ? (s.causal ? (rc ? h_causal_rc : h_causal) : (rc ? h_plain_rc : h_plain))
                            : (s.causal ? (rc ? causal_rc : causal) : (rc ? plain_rc : plain));
      // HIPASM_BENCH_TIMELINE=W: wave W's schedule (every instruction's issue, stall and reason) on stderr
      const char* tl = std::getenv("HIPASM_BENCH_TIMELINE");
      if (tl) po.keep_events = true;
      const hipasm::kernels::attn_bwd_report rep = hipasm::kernels::launch_attn_bwd(*dev, *mod, k, a, lo);
      if (tl) std::fprintf(stderr, "%s", rep.main.profile->timeline(uint32_t(std::atoi(tl))).c_str());
      bench::result h = bench::from(rep.main);
      const double dq_us = rep.dq.profile ? rep.dq.profile->time_us : 0.0;
      const double cvt_us = rep.convert_dq.profile ? rep.convert_dq.profile->time_us : 0.0;
      const double stream_us = rep.dot_do_o.profile->time_us + cvt_us;
      if (std::getenv("HIPASM_BENCH_VERBOSE"))
        std::fprintf(stderr, "%s %s: main %.2f us (mfma_busy %.3f), dot_do_o %.2f us, convert_dq %.2f us, dq %.2f us (mfma_busy %.3f)\n",
                     name, mode, h.us, h.mfma_busy, rep.dot_do_o.profile->time_us, cvt_us, dq_us,
                     rep.dq.profile ? bench::from(rep.dq).mfma_busy : 0.0);
      if (rep.dq.profile) {
        // (mfma_busy: the main and dq kernels', weighed by their times)
        const bench::result q = bench::from(rep.dq);
        h.mfma_busy = (h.mfma_busy * h.us + q.mfma_busy * q.us) / (h.us + q.us);
        h.us += q.us;
        h.hbm_bytes += q.hbm_bytes;
      }
      h.us += stream_us;
      h.hbm_bytes += double(rep.dot_do_o.profile->hbm_bytes);
      if (rep.convert_dq.profile) h.hbm_bytes += double(rep.convert_dq.profile->hbm_bytes);
      const double flop = 10.0 * s.batch * s.heads * double(s.seqlen) * s.seqlen * D * (s.causal ? 0.5 : 1.0);
      h.tflops = flop / (h.us * 1e6);
      // algorithmic bytes: Q, K, V, O, dO, LSE read; dQ, dK, dV written
      const double bytes = 2.0 * (4 * nq + 4 * nk) + 4.0 * nl;
      const bool picked = (hipasm::kernels::attn_bwd_dq_for(mod->target(), a, s.causal) ==
                           hipasm::kernels::attn_bwd_dq::recompute) == rc;
      const std::string base = f16 ? "attn_bwd_f16_a32" : "attn_bwd_a32";
      const std::string label = a16 ? "attn_bwd_a16" : picked ? base : base + "_" + mode;
      const double row_aiter_us = !a16 ? aiter_us : bwd_dir.empty() ? 0 : aiter_bwd_us(aiter_a16, bwd_dir, s, false, po);
      bench::print_line(label.c_str(), name, h, row_aiter_us, bytes, false, bench::row_device);
    }
    }
  }
  return 0;
}

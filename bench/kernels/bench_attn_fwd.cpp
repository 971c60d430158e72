// bench_kernel_attn_fwd [AITER_DIR]: the library's flash attention forward (head dim 128, bf16,
// LSE out; 8 waves x 64-key tiles, or 4 waves x 32-key tiles for grids smaller than the device,
// on gfx950 causal ones only)
// on prefill shapes (MHA, and GQA with 4 kv heads at AMD's best measured MI355X row's shape),
// predicted by the timing model (MI300X), next to aiter's asm
// kernel fmha_v3_fwd (hsa/gfx942/fmha_v3_fwd/MI300/fwd_hd128_bf16[_causal]_rtne.co, batch mode)
// on the same shape in the same run. The two read the same memory: a batch of equal-length
// sequences packed along the token axis is aiter's [batch, seqlen, heads, dim] layout.
// Without AITER_DIR (or without that folder) the aiter columns are `none`.
//
// aiter's argument block is fmha_fwd_v3_args (csrc/include/mha_fwd.h: every field padded to 16
// bytes, 656 bytes), filled as csrc/cpp_itfs/mha_fwd.cu's init_fmha_fwd_v3_args does, launched
// with its get_grid_dim: (ceil(ceil(seqlen_q / 256) / (causal ? 2 : 1)), heads, batch) x 512
// threads. tflops counts the useful FLOPs (4 s_q s_k d per head, halved for causal).
// bench_kernel_attn_fwd_mi355x: the same built for gfx950 (the double-K MFMAs) on the MI355X
// model, next to hsa/gfx950/fmha_v3_fwd/fwd_hd128_bf16[_causal].co (fmha_fwd.csv's bf16_cvt 0;
// the same argument block with the fp8 descale fields after it, zero here; the same grid).
// On gfx950 also the fp8 forward (rows attn_fwd_fp8: OCP e4m3fn Q/K/V, per-tensor descales,
// bf16 O) next to aiter's hsa/gfx950/fmha_v3_fwd/fwd_hd128_fp8[_causal].co (its descale pointers
// set, per-tensor), on shapes of its own, each with our bf16 row (attn_fwd) beside it.
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

#include <hipasm/kernels/attn_fwd_launch.hpp>

#include "bench_common.hpp"
#include "elf.hpp"  // (sim/src: the code object's argument metadata)

namespace fs = std::filesystem;
namespace rt = hipasm::rt;

namespace {

constexpr const char* kDevice = bench::target_device;
constexpr uint32_t kCus = bench::target_cus, kXcdCus = bench::target_xcd_cus;
constexpr const char* kAiterDir = bench::target_gfx950 ? "hsa/gfx950/fmha_v3_fwd" : "hsa/gfx942/fmha_v3_fwd/MI300";
constexpr const char* kAiterCvt = bench::target_gfx950 ? "" : "_rtne";  // (gfx950: fmha_fwd.csv's bf16_cvt 0)

struct shape {
  uint32_t batch, heads, seqlen;
  bool causal;
  uint32_t kv_heads = 0;  // 0: heads (MHA); fewer: GQA, query head h reads kv head h / (heads / kv_heads)
  bool fp8 = false;       // fp8 Q/K/V (gfx950)
  uint32_t kv() const { return kv_heads ? kv_heads : heads; }
  uint32_t eb() const { return fp8 ? 1 : 2; }  // bytes of a Q/K/V element
};

// aiter's fmha_fwd_v3_args for batch mode, sliced as the code object's metadata describes it.
rt::kernel_args aiter_args(const hipasm::sim::KernelInfo& k, uint64_t o, uint64_t q, uint64_t kk, uint64_t v,
                           uint64_t lse, const shape& s, float scale, uint64_t descale) {
  constexpr uint32_t D = 128, ts_qo = 256;
  const uint32_t in_bpe = s.eb();
  std::vector<uint8_t> raw(41 * 16, 0);
  int field = 0;
  auto put64 = [&](uint64_t x) { std::memcpy(raw.data() + 16 * field++, &x, 8); };
  auto put32 = [&](uint32_t x) { std::memcpy(raw.data() + 16 * field++, &x, 4); };
  const uint32_t stride = s.heads * D, nhead_stride = D, batch_stride = s.seqlen * s.heads * D;
  const uint32_t kv_stride = s.kv() * D, kv_batch_stride = s.seqlen * s.kv() * D;
  put64(o), put64(q), put64(kk), put64(v), put64(lse);
  uint32_t scale_bits;
  std::memcpy(&scale_bits, &scale, 4);
  put32(scale_bits);
  put32(s.seqlen);                      // s_seq_len
  put32(stride * in_bpe);               // s_Seqs
  put32(ts_qo * stride * in_bpe);       // s_Ts
  put32(nhead_stride * in_bpe);         // s_Hs
  put32(batch_stride * in_bpe);         // s_Bs
  put32(s.heads / s.kv());              // s_gqa
  put32(kv_stride * in_bpe), put32(nhead_stride * in_bpe), put32(kv_batch_stride * in_bpe);  // k
  put32(s.causal && (s.heads % 8 != 0 || s.seqlen > 16384) ? 3 : 5);                   // s_opt
  put32(1);                             // s_lse
  put32(s.seqlen);                      // s_kv_seq_len
  put32(D), put32(D), put32(s.heads);   // qk / v head dim, q heads
  put32(kv_stride * in_bpe), put32(nhead_stride * in_bpe), put32(kv_batch_stride * in_bpe);  // v
  put32(stride * 2), put32(nhead_stride * 2), put32(batch_stride * 2);                  // o
  put64(0), put64(0);                   // ptr_qseq, ptr_kseq (batch mode)
  put32(s.seqlen * 4);                  // s_lse_Hs
  put64(0), put64(0);                   // ptr_qseq_padding, ptr_kseq_padding
  if (s.fp8) put64(descale), put64(descale), put64(descale);  // ptr_{q,k,v}_descale: one f32 each
  // (the descale strides stay 0: per-tensor)
  rt::kernel_args x;
  for (const auto& arg : k.args) {
    if (arg.hidden()) continue;
    uint8_t b[8] = {};
    if (arg.offset + arg.size <= raw.size()) std::memcpy(b, raw.data() + arg.offset, arg.size);
    switch (arg.size) {
      case 4: { uint32_t w; std::memcpy(&w, b, 4); x.add(w); break; }
      case 8: { uint64_t w; std::memcpy(&w, b, 8); x.add(w); break; }
      default: std::fprintf(stderr, "bench_kernel_attn_fwd: aiter argument of %u bytes\n", unsigned(arg.size)); std::exit(1);
    }
  }
  return x;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 2) {
    std::fprintf(stderr, "usage: %s [AITER_DIR]\n", argv[0]);
    return 2;
  }
  fs::path aiter_dir;
  if (argc == 2) {
    aiter_dir = fs::path(argv[1]) / kAiterDir;
    if (!fs::exists(aiter_dir / (std::string("fwd_hd128_bf16") + kAiterCvt + ".co"))) {
      std::fprintf(stderr, "bench_kernel_attn_fwd: no %s/fwd_hd128_bf16%s.co: aiter skipped\n", aiter_dir.c_str(), kAiterCvt);
      aiter_dir.clear();
    }
  }
  const std::vector<shape> shapes = {{1, 32, 1024, false}, {1, 32, 1024, true}, {4, 32, 2048, false},
                                     {4, 32, 2048, true},  {1, 64, 4096, false}, {1, 64, 4096, true},
                                     {16, 32, 1024, false}, {2, 32, 8192, true},
                                     // AMD's measured best MI355X forward row (aiter op_tests/cpp/mha/README.md)
                                     {1, 64, 10240, false, 4}};
  std::vector<shape> all = shapes;
  // gfx950: fp8 rows, each shape's bf16 row beside its fp8 one
  if (bench::target_gfx950)
    for (const shape& f : std::vector<shape>{{4, 32, 1024, false}, {4, 32, 1024, true}, {8, 32, 1024, false},
                                             {8, 32, 1024, true}, {4, 64, 1024, false, 8}, {4, 64, 1024, true, 8},
                                             {1, 64, 4096, false, 8}, {1, 64, 4096, true, 8}})
      for (bool fp8 : {false, true}) {
        shape x = f;
        x.fp8 = fp8;
        all.push_back(x);
      }
  // HIPASM_ATTN_BENCH_CO=FILE: another build's code object of the same kernels (before / after runs)
  const char* co_file = std::getenv("HIPASM_ATTN_BENCH_CO");
  constexpr uint32_t D = 128;
  const hipasm::kernels::attn_fwd_kernel_ref plain{"attn_fwd_d128", {.head_dim = D, .causal = false, .waves = 8, .bn = 64}};
  const hipasm::kernels::attn_fwd_kernel_ref causal{"attn_fwd_d128_causal", {.head_dim = D, .causal = true, .waves = 8, .bn = 64}};
  for (const shape& s : all) {
    char name[96], kvs[16] = "";
    if (s.kv() != s.heads) std::snprintf(kvs, sizeof kvs, "_k%u", s.kv());
    std::snprintf(name, sizeof name, "b%u_h%u%s_s%u_d%u_%s", s.batch, s.heads, kvs, s.seqlen, D, s.causal ? "causal" : "full");
    const uint64_t tokens = uint64_t(s.batch) * s.seqlen;
    std::vector<int> cu(s.batch + 1);
    for (uint32_t b = 0; b <= s.batch; ++b) cu[b] = int(b * s.seqlen);
    // HIPASM_ATTN_BENCH_VERIFY=1: random inputs, and aiter's output compared with ours where
    // both wrote (a sampled run writes only its workgroups' rows; the rest stays 0xffff, NaN):
    // evidence that aiter's arguments are right, so its time is that of the same work
    const bool verify = std::getenv("HIPASM_ATTN_BENCH_VERIFY") != nullptr;
    const size_t n_el = tokens * s.heads * D, n_kv = tokens * s.kv() * D;
    const std::string row_kernel = s.fp8 ? "attn_fwd_fp8" : "attn_fwd";
    // (HIPASM_BENCH_SHAPE also matches the kernel: "attn_fwd_fp8" selects the fp8 rows)
    if (!bench::selected(name) && !bench::selected(row_kernel + " " + name)) continue;
    // Each kernel in a device of its own (bench::fresh_device), its operands allocated first:
    // the same addresses for ours and aiter's, whatever else ran.
    // Q/K/V as bytes (bf16: 2 an element, fp8: 1); fp8 runs also get a descale f32 (1.0)
    struct operands {
      rt::buffer<uint8_t> Q, K, V;
      rt::buffer<uint16_t> O;
      rt::buffer<float> L;
      rt::buffer<int> CU;
      std::unique_ptr<rt::buffer<float>> DS;
      operands(rt::device& d, size_t n_el, size_t n_kv, size_t rows, const std::vector<int>& cu, bool verify, bool fp8)
          : Q(d, n_el * (fp8 ? 1 : 2)), K(d, n_kv * (fp8 ? 1 : 2)), V(d, n_kv * (fp8 ? 1 : 2)), O(d, n_el), L(d, rows),
            CU(d, cu) {
        if (fp8) DS = std::make_unique<rt::buffer<float>>(d, std::vector<float>{1.0f});
        if (!verify) return;
        uint32_t x = 12345;
        for (auto* B : {&Q, &K, &V}) {
          std::vector<uint8_t> r((B == &Q ? n_el : n_kv) * (fp8 ? 1 : 2));
          for (size_t i = 0; i < r.size(); i += fp8 ? 1 : 2) {
            x = x * 1664525u + 1013904223u;
            if (fp8) {
              r[i] = static_cast<uint8_t>(0x38u + ((x >> 16) & 0x7u) + ((x >> 31) << 7));  // e4m3fn +-[1, 2)
            } else {
              const auto e = static_cast<uint16_t>(0x3c00u + ((x >> 16) & 0x7fu) + ((x >> 31) << 15));  // +-[2^-7, 2^-6)
              std::memcpy(&r[i], &e, 2);
            }
          }
          B->upload(r);
        }
        O.upload(std::vector<uint16_t>(n_el, 0xffffu));
      }
    };
    auto dev = bench::fresh_device();
    const operands ops(*dev, n_el, n_kv, tokens * s.heads, cu, verify, s.fp8);
    auto mod = dev->load_file(co_file ? co_file : HIPASM_BENCH_CO);
    const float scale = 1.0f / std::sqrt(float(D));
    const hipasm::kernels::attn_fwd_kernel_ref plain4{"attn_fwd_d128_w4b32", {.head_dim = D, .causal = false, .waves = 4, .bn = 32}};
    const hipasm::kernels::attn_fwd_kernel_ref causal4{"attn_fwd_d128_causal_w4b32", {.head_dim = D, .causal = true, .waves = 4, .bn = 32}};
    // The 8-wave tile, but for a grid that leaves CUs without a workgroup the 4-wave, 32-key
    // one (twice the workgroups, two per CU: idle CUs cost more than the smaller tile);
    // HIPASM_ATTN_BENCH_CONFIG=w8b64 or w4b32 forces one, to compare them on a shape. gfx950
    // without a mask keeps 8 waves (their ping-pong beats twice the workgroups: b1_h32_s1024
    // 27.7 against 28.8 us; causal, 28.9 against 26.4).
    const char* cfg = std::getenv("HIPASM_ATTN_BENCH_CONFIG");
    bool w4 = (s.causal ? causal : plain).config.grid_y(s.seqlen) * s.heads * s.batch < kCus &&
              (s.causal || !bench::target_gfx950);
    if (cfg) w4 = std::string(cfg) == "w4b32";
    // fp8: 4 waves, 64-key tiles (attn_fwd.hip)
    const hipasm::kernels::attn_fwd_kernel_ref plain8{"attn_fwd_fp8_d128", {.head_dim = D, .causal = false, .dtype = hipasm::kernels::attn_dtype::fp8, .waves = 4, .bn = 64}};
    const hipasm::kernels::attn_fwd_kernel_ref causal8{"attn_fwd_fp8_d128_causal", {.head_dim = D, .causal = true, .dtype = hipasm::kernels::attn_dtype::fp8, .waves = 4, .bn = 64}};
    if (s.fp8) w4 = false;  // (the bf16 choice)
    const auto& k = s.fp8 ? (s.causal ? causal8 : plain8) : s.causal ? (w4 ? causal4 : causal) : (w4 ? plain4 : plain);
    const uint32_t groups = k.config.grid_y(s.seqlen) * s.heads * s.batch;
    // Sampled on XCD 0's 38 CUs (docs/timing-model.md, Sampling): all of that XCD's workgroups
    // (ours in causal grids differ in work: one query tile each, longest first; aiter's pair
    // tile i with tile n - 1 - i). Grids without a mask past profile_for's size keep its
    // smaller sample (equal workgroups; b1_h64_k4_s10240's XCD would run 1.4e8 wave-instructions).
    rt::profile_options po = bench::profile_for(groups, kDevice);
    if (s.causal || po.sample_cus == 0) po.sample_cus = kXcdCus;
    rt::launch_options lo;
    lo.profile = &po;
    lo.instruction_budget = 2'000'000'000;  // (the longest rows' sampled CUs run more than the default)
    lo.check = false;  // (the tests run the checker; here only the time matters)
    const hipasm::kernels::attn_fwd_args a{.o = ops.O.addr(), .lse = ops.L.addr(), .q = ops.Q.addr(), .k = ops.K.addr(),
                                  .v = ops.V.addr(), .cu_seqlens_q = ops.CU.addr(), .cu_seqlens_k = ops.CU.addr(), .batch = s.batch,
                                  .max_seqlen_q = s.seqlen, .num_q_heads = s.heads, .num_kv_heads = s.kv(),
                                  .softmax_scale = scale};
    // HIPASM_BENCH_TIMELINE=W: wave W's schedule (every instruction's issue, stall and reason) on stderr
    const char* tl = std::getenv("HIPASM_BENCH_TIMELINE");
    if (tl) po.keep_events = true;
    const rt::launch_report hrep = hipasm::kernels::launch_attn_fwd(*dev, *mod, k, a, lo);
    if (tl) std::fprintf(stderr, "%s", hrep.profile->timeline(uint32_t(std::atoi(tl))).c_str());
    const bench::result h = bench::from(hrep);
    std::vector<uint16_t> ours;
    if (verify) ours = ops.O.download();
    double aiter_us = 0;
    if (!aiter_dir.empty()) {
      const std::string base = std::string(s.causal ? "fmha_fwd_hd128_bf16_causal" : "fmha_fwd_hd128_bf16") + kAiterCvt;
      std::string co = base.substr(5) + ".co";  // (fwd_hd128_...)
      std::string sym = "_ZN5aiter" + std::to_string(base.size()) + base + "E";
      if (s.fp8) {  // (aiter's fp8 symbols as its code objects spell them: the length prefix is not the name's)
        co = s.causal ? "fwd_hd128_fp8_causal.co" : "fwd_hd128_fp8.co";
        sym = s.causal ? "_ZN5aiter31fmha_fwd_hd128_fp8_causal_gfx950E" : "_ZN5aiter24fmha_fwd_hd128_fp8_gfx950E";
      }
      auto adev = bench::fresh_device();
      const operands aops(*adev, n_el, n_kv, tokens * s.heads, cu, verify, s.fp8);
      const std::vector<uint8_t> bytes = hipasm::sim::read_file_bytes((aiter_dir / co).string());
      const hipasm::sim::CodeObject obj = hipasm::sim::load_code_object(bytes);
      auto amod = adev->load(bytes);
      const uint32_t gx = ((s.seqlen + 255) / 256 + (s.causal ? 1 : 0)) / (s.causal ? 2 : 1);
      rt::profile_options apo = po;
      rt::launch_options al = lo;
      al.profile = &apo;
      al.allow = {"all"};
      al.kernarg_size = 41 * 16;
      auto ar = adev->launch(*amod, sym, {gx, s.heads, s.batch}, {512, 1, 1},
                             aiter_args(obj.kernel(sym), aops.O.addr(), aops.Q.addr(), aops.K.addr(), aops.V.addr(),
                                        aops.L.addr(), s, scale, s.fp8 ? aops.DS->addr() : 0),
                             al);
      aiter_us = ar.profile->time_us;
      if (const char* e = std::getenv("HIPASM_BENCH_REPORT"); e && *e == '1')  // (ours: bench::from)
        std::fprintf(stderr, "aiter %s:\n%s\n", name, ar.profile->report().c_str());
      if (verify) {
        const auto theirs = aops.O.download();
        size_t both = 0;
        double maxdiff = 0;
        auto f = [](uint16_t b) {
          uint32_t u = uint32_t{b} << 16;
          float v;
          std::memcpy(&v, &u, 4);
          return v;
        };
        for (size_t i = 0; i < n_el; ++i)
          if (ours[i] != 0xffffu && theirs[i] != 0xffffu) {
            ++both;
            maxdiff = std::max(maxdiff, double(std::fabs(f(ours[i]) - f(theirs[i]))));
          }
        std::fprintf(stderr, "verify %s: %zu outputs written by both, max |ours - aiter| = %g\n", name, both, maxdiff);
      }
    }
    const double flop = 4.0 * s.batch * s.heads * double(s.seqlen) * s.seqlen * D * (s.causal ? 0.5 : 1.0);
    bench::result hr = h;
    hr.tflops = flop / (h.us * 1e6);
    bench::print_line(row_kernel.c_str(), name, hr, aiter_us,
                      double(s.eb()) * 2 * tokens * s.kv() * D + (s.eb() + 2.0) * tokens * s.heads * D + 4.0 * tokens * s.heads, false,
                      bench::row_device);
  }
  return 0;
}

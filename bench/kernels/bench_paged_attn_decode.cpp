// bench_kernel_paged_attn_decode [AITER_DIR]: paged-attention decode on LLM decode shapes
// (batch 1-128, context 512-32768, 8 KV heads x 8 query heads each, head dim 128, 16-token
// blocks, bf16 Q/KV/out), GB/s of the bytes it must move (K and V of every context token, Q,
// out). Every sequence has the same context; its blocks are spread over the cache by a
// shuffled table, each read once (cold caches in each profiled launch). A split context is
// combined in the same kernel (one launch). Then the same shapes with an fp8 cache
// (kernel=paged_attn_decode_fp8, shapes ..._fp8: e4m3fnuz K and V with per-token f32 scales,
// pa_kv_cache::fp8_per_token; the bytes count the scales).
//
// With AITER_DIR (aiter's checkout or its hsa/gfx942 folder) aiter's asm kernel runs on the same
// shape and the same cache in the same run: pa/pa_bf16_noquant_gqa8_1tg_4w.co, the kernel
// pa_fwd_asm (csrc/py_itfs_cu/asm_pa.cu) dispatches for bf16 Q and KV, gqa 8, block 16 (its
// pa_asm.csv row); its cache layouts (K [blocks][kv heads][D/8][16][8], V [blocks][kv heads]
// [16/8][D][8]) are the ones hipasm's kernel reads, its argument struct is asm_pa.cu's
// KernelArgs (each field padded to 16 bytes), grid (kv heads, batch), 256 threads. Without
// sampling (small grids) its output is compared with hipasm's (none differ).
// The fp8 rows run pa/pa_bf16_pertokenFp8_gqa8_2tg_4w.co, what pa_fwd_asm's heuristic picks for
// bf16 Q, an fp8 cache with scales, gqa 8, block 16, max_qlen 1 and high_precision 0 (its
// pa_asm.csv row; there is no pertokenFp8 gqa8 1tg kernel without mtp), the same KernelArgs with
// KQ / VQ the scales ([blocks][kv heads][16] f32, test_pa.py's pertoken_quant_kvcache_symm),
// Bs / KVs in fp8 bytes; its K layout [blocks][kv heads][D/16][16][16], V [blocks][kv heads]
// [16/16][D][16]. It quantizes Q and the probabilities to fp8 for fp8 MFMAs (hipasm widens K and
// V to bf16: bf16 products), so the outputs are compared at fp8's precision.
// Not used: the older pa_a16w16_b16.co (kernel pa_kernel_func): no host code in aiter's csrc
// launches it any more; with asm_pa.cu's KernelArgs up to KVs (its metadata's 14 fields) and
// the same grid, 7/8 of its outputs are wrong and it reads 1/8 of the cache, so its interface
// is not established.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <hipasm/kernels/paged_attn_decode.hpp>

#include "bench_common.hpp"

namespace fs = std::filesystem;
namespace hk = hipasm::kernels;
namespace {
using namespace bench;
// 4 waves a workgroup on every row (8 was no faster on any row measured, long contexts
// included): a smaller combination of the waves at the end, two workgroups a CU.
constexpr hk::paged_attn_decode_config C4{.head_dim = 128, .block_size = 16, .gqa = 8, .waves = 4};
constexpr hk::paged_attn_decode_config C4_fp8{
    .head_dim = 128, .block_size = 16, .gqa = 8, .waves = 4, .prefetch = 3, .kv_cache = hk::pa_kv_cache::fp8_per_token};
constexpr uint32_t KVH = 8, H = KVH * C4.gqa, D = C4.head_dim, BS = C4.block_size;

struct tensors {
  uint64_t out, q, k, v, bt, cl, k_scales, v_scales;  // (scales: 0 with a bf16 cache)
  uint32_t bt_stride, seqs, ctx, elem_bytes;
};

// aiter's asm kernel on the same tensors; returns its time (0: not run) and leaves its output in out.
double aiter_pa(rt::device& d, const fs::path& co, const std::string& name, bool qtp, const tensors& t, bool& sampled) {
  if (co.empty() || !fs::exists(co)) return 0;
  auto m = d.load_file(co.string());
  rt::kernel_args a;
  const uint64_t zero = 0;
  // every field padded to 16 bytes: the metadata lists the pads as arguments (one 8-byte, or three 4-byte)
  auto ptr = [&](uint64_t p) { a.add(p).add(zero); };
  auto u32 = [&](uint32_t v) { a.add(v).add(uint32_t{0}).add(uint32_t{0}).add(uint32_t{0}); };
  ptr(t.out); ptr(t.q); ptr(t.k); ptr(t.v); ptr(t.bt); ptr(t.cl); ptr(t.k_scales); ptr(t.v_scales);  // KQ, VQ
  const float sclg2e = static_cast<float>(1.44269504088896340736 / std::sqrt(double(D)));
  a.add(sclg2e).add(uint32_t{0}).add(uint32_t{0}).add(uint32_t{0});
  u32(t.bt_stride);                  // mblk: block_tables.stride(0)
  u32(KVH);                          // kv_nheads
  u32(H * D * 2);                    // Qs: bytes per sequence of Q
  u32(KVH * BS * D * t.elem_bytes);  // Bs: bytes per cache block
  u32(BS * D * t.elem_bytes);        // KVs: bytes per KV head of a block
  u32(0);                            // mtp: max_qlen - 1
  u32(C4.gqa);                        // GQA
  if (qtp) ptr(0);                   // qo_indptr
  rt::profile_options p = profile_for(KVH * t.seqs);
  sampled = p.sample_cus != 0;
  rt::launch_options o;
  o.profile = &p;
  o.allow = {"all"};  // AMD's code: checker findings are warnings
  {  // NaN everywhere first: an output the kernel does not write cannot pass the comparison
    std::vector<uint16_t> nan(size_t(t.seqs) * H * D, 0x7fc0);
    d.copy_to_device(t.out, nan.data(), nan.size() * 2);
  }
  auto rep = d.launch(*m, name, {KVH, t.seqs, 1}, {256, 1, 1}, a, o);
  return rep.profile->time_us;
}

// aiter's kernel for each cache type (pa_fwd_asm's pick, above)
struct aiter_kernel {
  const char* co;
  const char* symbol;
  bool qtp;  // its metadata lists KernelArgs' last field, ptr_QTP (the fp8 kernel's ends before it)
};
constexpr aiter_kernel aiter_bf16{"pa_bf16_noquant_gqa8_1tg_4w.co", "_ZN5aiter27pa_bf16_noquant_gqa8_1tg_4wE", true};
constexpr aiter_kernel aiter_fp8{"pa_bf16_pertokenFp8_gqa8_2tg_4w.co", "_ZN5aiter31pa_bf16_pertokenFp8_gqa8_2tg_4wE", false};

template <hk::paged_attn_decode_config C>
void row(const char* kernel, const fs::path& aiter_dir, uint32_t seqs, uint32_t ctx) {
  constexpr bool F8 = C.kv_cache == hk::pa_kv_cache::fp8_per_token;
  constexpr uint32_t EB = hk::pa_kv_elem_bytes(C);
  using elem = std::conditional_t<F8, uint8_t, uint16_t>;
  const std::string shape = "b" + std::to_string(seqs) + "_ctx" + std::to_string(ctx) + "_kv8x8_d128" + (F8 ? "_fp8" : "");
  if (!selected(shape)) return;
  const uint32_t blocks_per_seq = (ctx + BS - 1) / BS, num_blocks = seqs * blocks_per_seq;
  std::mt19937 rng(seqs * 131 + ctx);
  std::vector<uint32_t> perm(num_blocks);
  std::iota(perm.begin(), perm.end(), 0u);
  std::shuffle(perm.begin(), perm.end(), rng);
  const std::vector<int> bt(perm.begin(), perm.end());
  const size_t cache_elems = size_t(num_blocks) * KVH * BS * D, out_elems = size_t(seqs) * H * D;
  const size_t scale_elems = F8 ? size_t(num_blocks) * KVH * BS : 0;
  // Each kernel in a device of its own (bench::fresh_device), these allocated first in both: the
  // same addresses for ours and aiter's, whatever else ran. (One device at a time: the caches
  // are up to 512 MiB each.)
  struct tensors_in {
    rt::buffer<elem> K, V;
    rt::buffer<uint16_t> Q, O;
    rt::buffer<int> BT, CL;
    rt::buffer<float> KS, VS;  // (fp8; one element with bf16)
    tensors_in(rt::device& d, size_t cache_elems, size_t out_elems, size_t scale_elems, const std::vector<int>& bt,
               uint32_t seqs, uint32_t ctx)
        : K(d, cache_elems), V(d, cache_elems), Q(d, out_elems), O(d, out_elems), BT(d, bt),
          CL(d, std::vector<int>(seqs, static_cast<int>(ctx))), KS(d, F8 ? scale_elems : 1), VS(d, F8 ? scale_elems : 1) {
      // values from a cheap generator: bf16 +-[2^-7, 2^-6); fp8 bytes of +-[0.5, 2) (exponents 7
      // and 8) and scales 2^-8 .. 2^-7 (the same +-[2^-9, 2^-6) after scaling)
      auto next = [](uint32_t& x) { return x = x * 1664525u + 1013904223u; };
      auto fill = [&]<class T>(rt::buffer<T>& b, uint32_t seed) {
        std::vector<T> v(b.size());
        uint32_t x = seed;
        for (auto& e : v) {
          next(x);
          if constexpr (sizeof(T) == 2) e = static_cast<uint16_t>(0x3c00 + ((x >> 16) & 0x7f) + ((x >> 31) << 15));
          else e = static_cast<uint8_t>(0x38 + ((x >> 16) & 0x0f) + ((x >> 31) << 7));
        }
        b.upload(v);
      };
      auto fill_scales = [&](rt::buffer<float>& b, uint32_t seed) {
        std::vector<float> v(b.size());
        uint32_t x = seed;
        for (auto& e : v) e = std::ldexp(1.0f + float(next(x) >> 24) / 256.0f, -8);
        b.upload(v);
      };
      fill(K, 1);
      fill(V, 2);
      fill(Q, 3);
      if constexpr (F8) {
        fill_scales(KS, 4);
        fill_scales(VS, 5);
      }
    }
    tensors view(uint32_t bt_stride, uint32_t seqs, uint32_t ctx) const {
      return {O.addr(), Q.addr(), K.addr(), V.addr(), BT.addr(), CL.addr(), F8 ? KS.addr() : 0, F8 ? VS.addr() : 0,
              bt_stride, seqs, ctx, EB};
    }
  };
  result h;
  bool ours_sampled = false;
  std::vector<uint16_t> ours;
  {
    auto dp = fresh_device();
    rt::device& d = *dp;
    const tensors_in in(d, cache_elems, out_elems, scale_elems, bt, seqs, ctx);
    // HIPASM_PA_PARTITION_BLOCKS=N: N blocks per partition instead of the launch's estimate
    uint32_t pb = hk::paged_attn_partition_blocks<C>(seqs, KVH, ctx);
    if (const char* e = std::getenv("HIPASM_PA_PARTITION_BLOCKS"); e && std::atoi(e) > 0) pb = static_cast<uint32_t>(std::atoi(e));
    const uint32_t parts = hk::paged_attn_partitions(ctx, BS, pb);
    std::fprintf(stderr, "bench_kernel_paged_attn_decode: %s: %u blocks a partition, %u partitions\n", shape.c_str(), pb, parts);
    const auto ws = hk::paged_attn_workspace_for<C>(seqs, KVH, parts);
    rt::buffer<float> PO(d, parts > 1 ? ws.part_out_bytes / 4 : 1), PM(d, parts > 1 ? ws.part_ml_bytes / 4 : 1);
    rt::buffer<uint32_t> CNT(d, std::vector<uint32_t>(parts > 1 ? ws.counter_bytes / 4 : 1, 0u));
    const auto m = d.load_file(HIPASM_BENCH_CO);
    rt::profile_options p = profile_for(KVH * seqs * parts);
    if (parts > 1) p.sample_cus = 0;  // (a sampled grid would leave out partitions the combination waits for)
    // HIPASM_BENCH_TIMELINE=W: our wave W's schedule (every instruction's issue, stall and reason) on stderr
    const char* tl = std::getenv("HIPASM_BENCH_TIMELINE");
    p.keep_events = tl != nullptr;
    rt::launch_options o;
    o.profile = &p;
    if (parts > 1) o.threads = 1;  // (the last arrival per sequence in id order: recorded deterministically)
    hk::paged_attn_decode_args args{.out = in.O.addr(), .q = in.Q.addr(), .k_cache = in.K.addr(), .v_cache = in.V.addr(),
                                    .block_tables = in.BT.addr(), .context_lens = in.CL.addr(),
                                    .k_scales = F8 ? in.KS.addr() : 0, .v_scales = F8 ? in.VS.addr() : 0, .part_out = PO.addr(),
                                    .part_ml = PM.addr(), .counters = CNT.addr(), .seqs = seqs, .num_kv_heads = KVH,
                                    .bt_stride = blocks_per_seq, .max_context = ctx,
                                    .scale = static_cast<float>(1.0 / std::sqrt(double(D))), .partition_blocks = pb};
    auto rep = hk::launch_paged_attn_decode<C>(d, *m, kernel, args, o);
    if (tl) std::fprintf(stderr, "%s", rep.attn.profile->timeline(uint32_t(std::atoi(tl))).c_str());
    h = from(rep.attn);
    ours_sampled = p.sample_cus != 0;
    ours = in.O.download();
  }
  double a = 0;
  bool a_sampled = false;
  // bf16: both round P and the output to bf16; fp8: aiter's Q and P in fp8 (3 mantissa bits)
  const float tol = F8 ? 0x1p-4f : 0x1p-7f;
  auto compare = [&](const char* which, const std::vector<uint16_t>& theirs) {
    size_t bad = 0;
    for (size_t i = 0; i < ours.size(); ++i) {
      const float x = std::bit_cast<float>(uint32_t(ours[i]) << 16), y = std::bit_cast<float>(uint32_t(theirs[i]) << 16);
      bad += !(std::fabs(x - y) <= tol * (std::fabs(x) + 0x1p-6f));
    }
    if (bad) std::fprintf(stderr, "bench_kernel_paged_attn_decode: %s: %s: %zu of %zu outputs differ from hipasm's\n",
                          shape.c_str(), which, bad, ours.size());
  };
  const aiter_kernel& ak = F8 ? aiter_fp8 : aiter_bf16;
  const fs::path aiter_co = aiter_dir / "pa" / ak.co;
  if (!aiter_dir.empty() && fs::exists(aiter_co)) {
    auto ad = fresh_device();
    const tensors_in in(*ad, cache_elems, out_elems, scale_elems, bt, seqs, ctx);
    a = aiter_pa(*ad, aiter_co, ak.symbol, ak.qtp, in.view(blocks_per_seq, seqs, ctx), a_sampled);
    if (a > 0 && !a_sampled && !ours_sampled) compare(ak.co, in.O.download());
  }
  // K and V of each token (fp8: and its two scales), Q and out
  const double bytes = double(seqs) * ctx * KVH * (D * 2 * EB + (F8 ? 8 : 0)) + double(seqs) * H * D * 2 * 2;
  print_line(F8 ? "paged_attn_decode_fp8" : "paged_attn_decode", shape, h, a, bytes);
}
}  // namespace

int main(int argc, char** argv) {
  fs::path aiter;
  if (argc > 1) {
    const fs::path root = argv[1];
    for (const fs::path& c : {root / "hsa" / "gfx942", root})
      if (fs::exists(c / "pa" / "pa_bf16_noquant_gqa8_1tg_4w.co")) aiter = c;
    if (aiter.empty()) std::fprintf(stderr, "bench_kernel_paged_attn_decode: no pa/pa_bf16_noquant_gqa8_1tg_4w.co under %s; aiter skipped\n", argv[1]);
  }
  const std::pair<uint32_t, uint32_t> shapes[] = {{1, 512},   {1, 8192},  {1, 32768}, {8, 512},   {8, 2048},
                                                  {8, 8192},  {32, 512},  {32, 2048}, {32, 4096}, {64, 1024},
                                                  {64, 2048}, {128, 512}, {128, 1024}};
  for (auto [b, c] : shapes) row<C4>("pa_d128_g8_w4", aiter, b, c);
  for (auto [b, c] : shapes) row<C4_fp8>("pa_d128_g8_w4_fp8", aiter, b, c);
  return 0;
}

// bench_kernel_paged_attn_decode [AITER_DIR]: paged-attention decode on LLM decode shapes
// (batch 1-128, context 512-32768, 8 KV heads x 8 query heads each, head dim 128, 16-token
// blocks, bf16 Q/KV/out), GB/s of the bytes it must move (K and V of every context token, Q,
// out). Every sequence has the same context; its blocks are spread over the cache by a
// shuffled table, each read once (cold caches in each profiled launch). A split context is
// combined in the same kernel (one launch).
//
// With AITER_DIR (aiter's checkout or its hsa/gfx942 folder) aiter's asm kernel runs on the same
// shape and the same cache in the same run: pa/pa_bf16_noquant_gqa8_1tg_4w.co, the kernel
// pa_fwd_asm (csrc/py_itfs_cu/asm_pa.cu) dispatches for bf16 Q and KV, gqa 8, block 16 (its
// pa_asm.csv row); its cache layouts (K [blocks][kv heads][D/8][16][8], V [blocks][kv heads]
// [16/8][D][8]) are the ones hipasm's kernel reads, its argument struct is asm_pa.cu's
// KernelArgs (each field padded to 16 bytes), grid (kv heads, batch), 256 threads. Without
// sampling (small grids) its output is compared with hipasm's (none differ).
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
#include <vector>

#include <hipasm/kernels/paged_attn_decode.hpp>

#include "bench_common.hpp"

namespace fs = std::filesystem;
namespace hk = hipasm::kernels;
namespace {
using namespace bench;
// 4 waves a workgroup on every row: against 8 (the configuration before session 12 for contexts
// above 1024), equal or faster on each row measured (b1 ctx8192 15.98 -> 14.51 us, b8 ctx2048
// 21.92 -> 21.51, b32 ctx2048 72.34 -> 71.93, b64 ctx2048 140.87 -> 139.20; b8 ctx8192 72.47 /
// 72.55): a smaller combination of the waves at the end, two workgroups a CU.
constexpr hk::paged_attn_decode_config C4{.head_dim = 128, .block_size = 16, .gqa = 8, .waves = 4};
constexpr uint32_t KVH = 8, H = KVH * C4.gqa, D = C4.head_dim, BS = C4.block_size;

struct tensors {
  uint64_t out, q, k, v, bt, cl;
  uint32_t bt_stride, seqs, ctx;
};

// aiter's asm kernel on the same tensors; returns its time (0: not run) and leaves its output in out.
double aiter_pa(rt::device& d, const fs::path& co, const std::string& name, const tensors& t, bool& sampled) {
  if (co.empty() || !fs::exists(co)) return 0;
  auto m = d.load_file(co.string());
  rt::kernel_args a;
  const uint64_t zero = 0;
  // every field padded to 16 bytes: the metadata lists the pads as arguments (one 8-byte, or three 4-byte)
  auto ptr = [&](uint64_t p) { a.add(p).add(zero); };
  auto u32 = [&](uint32_t v) { a.add(v).add(uint32_t{0}).add(uint32_t{0}).add(uint32_t{0}); };
  ptr(t.out); ptr(t.q); ptr(t.k); ptr(t.v); ptr(t.bt); ptr(t.cl); ptr(0); ptr(0);  // KQ, VQ: no quantization
  const float sclg2e = static_cast<float>(1.44269504088896340736 / std::sqrt(double(D)));
  a.add(sclg2e).add(uint32_t{0}).add(uint32_t{0}).add(uint32_t{0});
  u32(t.bt_stride);                  // mblk: block_tables.stride(0)
  u32(KVH);                          // kv_nheads
  u32(H * D * 2);                    // Qs: bytes per sequence of Q
  u32(KVH * BS * D * 2);             // Bs: bytes per cache block
  u32(BS * D * 2);                   // KVs: bytes per KV head of a block
  u32(0);                            // mtp: max_qlen - 1
  u32(C4.gqa);                        // GQA
  ptr(0);                            // qo_indptr
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

template <hk::paged_attn_decode_config C>
void row(const char* kernel, const fs::path& aiter_dir, uint32_t seqs, uint32_t ctx) {
  const std::string shape = "b" + std::to_string(seqs) + "_ctx" + std::to_string(ctx) + "_kv8x8_d128";
  if (!selected(shape)) return;
  const uint32_t blocks_per_seq = (ctx + BS - 1) / BS, num_blocks = seqs * blocks_per_seq;
  std::mt19937 rng(seqs * 131 + ctx);
  std::vector<uint32_t> perm(num_blocks);
  std::iota(perm.begin(), perm.end(), 0u);
  std::shuffle(perm.begin(), perm.end(), rng);
  const std::vector<int> bt(perm.begin(), perm.end());
  const size_t cache_elems = size_t(num_blocks) * KVH * BS * D, out_elems = size_t(seqs) * H * D;
  // Each kernel in a device of its own (bench::fresh_device), these allocated first in both: the
  // same addresses for ours and aiter's, whatever else ran. (One device at a time: the caches
  // are up to 512 MiB each.)
  struct tensors_in {
    rt::buffer<uint16_t> K, V, Q, O;
    rt::buffer<int> BT, CL;
    tensors_in(rt::device& d, size_t cache_elems, size_t out_elems, const std::vector<int>& bt, uint32_t seqs, uint32_t ctx)
        : K(d, cache_elems), V(d, cache_elems), Q(d, out_elems), O(d, out_elems), BT(d, bt),
          CL(d, std::vector<int>(seqs, static_cast<int>(ctx))) {
      // bf16 values in [-1, 1) from a cheap generator
      auto fill = [](rt::buffer<uint16_t>& b, uint32_t seed) {
        std::vector<uint16_t> v(b.size());
        uint32_t x = seed;
        for (auto& e : v) {
          x = x * 1664525u + 1013904223u;
          e = static_cast<uint16_t>(0x3c00 + ((x >> 16) & 0x7f) + ((x >> 31) << 15));  // +-[2^-7, 2^-6)..
        }
        b.upload(v);
      };
      fill(K, 1);
      fill(V, 2);
      fill(Q, 3);
    }
    tensors view(uint32_t bt_stride, uint32_t seqs, uint32_t ctx) const {
      return {O.addr(), Q.addr(), K.addr(), V.addr(), BT.addr(), CL.addr(), bt_stride, seqs, ctx};
    }
  };
  result h;
  bool ours_sampled = false;
  std::vector<uint16_t> ours;
  {
    auto dp = fresh_device();
    rt::device& d = *dp;
    const tensors_in in(d, cache_elems, out_elems, bt, seqs, ctx);
    // HIPASM_PA_PARTITION_BLOCKS=N: N blocks per partition instead of the launch's estimate
    uint32_t pb = hk::paged_attn_partition_blocks<C>(seqs, KVH, ctx);
    if (const char* e = std::getenv("HIPASM_PA_PARTITION_BLOCKS")) pb = static_cast<uint32_t>(std::atoi(e));
    const uint32_t parts = hk::paged_attn_partitions(ctx, BS, pb);
    const auto ws = hk::paged_attn_workspace_for<C>(seqs, KVH, parts);
    rt::buffer<float> PO(d, parts > 1 ? ws.part_out_bytes / 4 : 1), PM(d, parts > 1 ? ws.part_ml_bytes / 4 : 1);
    rt::buffer<uint32_t> CNT(d, std::vector<uint32_t>(parts > 1 ? ws.counter_bytes / 4 : 1, 0u));
    const auto m = d.load_file(HIPASM_BENCH_CO);
    rt::profile_options p = profile_for(KVH * seqs * parts);
    if (parts > 1) p.sample_cus = 0;  // (a sampled grid would leave out partitions the combination waits for)
    rt::launch_options o;
    o.profile = &p;
    hk::paged_attn_decode_args args{.out = in.O.addr(), .q = in.Q.addr(), .k_cache = in.K.addr(), .v_cache = in.V.addr(),
                                    .block_tables = in.BT.addr(), .context_lens = in.CL.addr(), .part_out = PO.addr(),
                                    .part_ml = PM.addr(), .counters = CNT.addr(), .seqs = seqs, .num_kv_heads = KVH,
                                    .bt_stride = blocks_per_seq, .max_context = ctx,
                                    .scale = static_cast<float>(1.0 / std::sqrt(double(D))), .partition_blocks = pb};
    auto rep = hk::launch_paged_attn_decode<C>(d, *m, kernel, args, o);
    h = from(rep.attn);
    ours_sampled = p.sample_cus != 0;
    ours = in.O.download();
  }
  double a = 0;
  bool a_sampled = false;
  auto compare = [&](const char* which, const std::vector<uint16_t>& theirs) {
    size_t bad = 0;
    for (size_t i = 0; i < ours.size(); ++i) {
      const float x = std::bit_cast<float>(uint32_t(ours[i]) << 16), y = std::bit_cast<float>(uint32_t(theirs[i]) << 16);
      bad += !(std::fabs(x - y) <= 0x1p-7 * (std::fabs(x) + 0x1p-6));
    }
    if (bad) std::fprintf(stderr, "bench_kernel_paged_attn_decode: %s: %s: %zu of %zu outputs differ from hipasm's\n",
                          shape.c_str(), which, bad, ours.size());
  };
  const fs::path aiter_co = aiter_dir / "pa" / "pa_bf16_noquant_gqa8_1tg_4w.co";
  if (!aiter_dir.empty() && fs::exists(aiter_co)) {
    auto ad = fresh_device();
    const tensors_in in(*ad, cache_elems, out_elems, bt, seqs, ctx);
    a = aiter_pa(*ad, aiter_co, "_ZN5aiter27pa_bf16_noquant_gqa8_1tg_4wE", in.view(blocks_per_seq, seqs, ctx), a_sampled);
    if (a > 0 && !a_sampled && !ours_sampled) compare("pa_bf16_noquant_gqa8_1tg_4w", in.O.download());
  }
  const double bytes = double(seqs) * ctx * KVH * D * 2 * 2 + double(seqs) * H * D * 2 * 2;
  print_line("paged_attn_decode", shape, h, a, bytes);
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
  return 0;
}

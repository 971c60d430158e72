// bench_kernel_mla_decode [AITER_DIR]: MLA decode (DeepSeek's absorbed query against the
// 576-element latent KV rows, values their first 512) on the timing model, GB/s of the bytes it
// must move (every KV row of every sequence once, Q, out; split runs also write and read the
// f32 partials, not counted). The time is both launches' (the attention and, with KV splits,
// the combination). Page size 1, each sequence's rows contiguous (kv_indices = 0, 1, ...: the
// challenge's layout); every sequence has the same KV length.
//   MI300X (this bench, gfx942): DeepSeek V3 decode, 128 heads, 1 query token, bf16 KV, batch
//     1-128, KV 1k-8k; and AMD's 2026 MLA challenge shapes with bf16 KV.
//   MI355X (bench_kernel_mla_decode_mi355x, gfx950): AMD's 2026 MLA challenge
//     (gpu-mode reference-kernels problems/amd_202602/mixed-mla: 16 heads, 1 query token, batch
//     4-256, KV 1k / 8k, fp8 KV with a per-tensor scale; amd_us= the a8w8 reference's latency
//     its README gives for MI355X, a host-measured time of aiter's fp8-Q kernel, not comparable
//     to a kernel's time on the model), plus 4 query tokens and 32 heads.
// aiter: its MLA asm kernels are not launched (their non-persistent stage 1 writes split
// partials that a Triton kernel reduces; the fp8 ones run in persistent mode on metadata from
// get_mla_metadata_v1): aiter_us=none.
// The number of KV splits: enough workgroups for every CU (two a CU where the LDS holds them),
// at least 8 blocks of 16 rows a split; HIPASM_MLA_SPLITS=N forces N.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <hipasm/kernels/mla_decode_launch.hpp>

#include "bench_common.hpp"

namespace hk = hipasm::kernels;
namespace {
using namespace bench;

struct shape {
  uint32_t batch, qlen, kvlen, heads;
  bool fp8;
  double amd_us = 0;  // the challenge README's reference latency (a8w8), 0: none
};

uint32_t pick_splits(uint32_t batch, uint32_t groups, uint32_t kvlen, uint32_t rows, uint32_t lds_bytes) {
  if (const char* e = std::getenv("HIPASM_MLA_SPLITS"); e && std::atoi(e) > 0) return uint32_t(std::atoi(e));
  const uint32_t wgs = batch * groups, blocks = (kvlen + 15) / 16;
  // workgroups a CU holds by LDS (64 KiB on MI300X, 160 KiB on MI355X), at most 2
  const uint32_t per_cu = std::clamp((target_gfx950 ? 160u * 1024 : 64u * 1024) / lds_bytes, 1u, 2u);
  uint32_t s = (target_cus * per_cu + wgs - 1) / wgs;
  // at least 8 blocks of 16 rows a split (a split's f32 partials, rows x 2 KiB, are written and
  // read back: with 128 heads as many bytes as 14 blocks, but a CU computes a block of 128 rows
  // for about as long as the device streams it: the CUs matter more)
  s = std::min(s, std::max(1u, blocks / 8));
  return std::max(1u, s);
}

void row(const shape& s) {
  const bool f8 = s.fp8;
  const uint32_t rows = s.heads * s.qlen;
  // 16 rows: four waves splitting the dims (one wave, 16 rows, was slower on every row)
  const bool sd = rows <= 16;
  const char* name = sd ? (f8 ? "mla_sd4_fp8" : "mla_sd4")
                     : rows <= 64 ? (f8 ? "mla_r64_fp8" : "mla_r64")
                                  : (f8 ? "mla_r128_fp8" : "mla_r128");
  const uint32_t waves = sd ? 4 : rows <= 64 ? 4 : 8;
  const uint32_t pf = f8 && sd && target_gfx950 ? 3u : f8 == sd ? 2u : 1u;  // (kernels/mla_decode.hip)
  const hk::mla_decode_config cfg{.waves = waves, .split_dims = sd, .prefetch = pf,
                                  .kv_cache = f8 ? hk::mla_kv_cache::fp8 : hk::mla_kv_cache::bf16};
  const std::string shp = "b" + std::to_string(s.batch) + "_q" + std::to_string(s.qlen) + "_kv" + std::to_string(s.kvlen) +
                          "_h" + std::to_string(s.heads) + (f8 ? "_fp8" : "_bf16");
  if (!selected(shp)) return;
  const uint32_t B = s.batch, tq = B * s.qlen, groups = (rows + cfg.rows() - 1) / cfg.rows();
  const uint32_t splits = pick_splits(B, groups, s.kvlen, rows, cfg.lds_bytes());
  const uint64_t kv_rows = uint64_t(B) * s.kvlen, eb = f8 ? 1 : 2;
  std::vector<int> qo(B + 1), kvp(B + 1), idx(kv_rows), last(B, 1);
  for (uint32_t b = 0; b <= B; ++b) qo[b] = int(b * s.qlen), kvp[b] = int(b * s.kvlen);
  for (uint64_t i = 0; i < kv_rows; ++i) idx[i] = int(i);
  auto dev = fresh_device();
  rt::buffer<uint8_t> KV(*dev, kv_rows * 576 * eb);
  rt::buffer<uint16_t> Q(*dev, size_t(tq) * s.heads * 576), O(*dev, size_t(tq) * s.heads * 512);
  rt::buffer<float> L(*dev, size_t(tq) * s.heads);
  const auto ws = hk::mla_decode_workspace_for(tq, s.heads, splits);
  rt::buffer<float> PO(*dev, splits > 1 ? ws.part_o_bytes / 4 : 1), PL(*dev, splits > 1 ? ws.part_lse_bytes / 4 : 1);
  rt::buffer<int> QO(*dev, qo), KP(*dev, kvp), KI(*dev, idx), KL(*dev, last);
  {  // values: bf16 +-[2^-7, 2^-6), fp8 bytes of small exponents (finite in both formats)
    uint32_t x = 7;
    auto next = [&] { return x = x * 1664525u + 1013904223u; };
    std::vector<uint16_t> q(Q.size());
    for (auto& e : q) e = static_cast<uint16_t>(0x3c00u + ((next() >> 16) & 0x7fu) + ((x >> 31) << 15));
    Q.upload(q);
    std::vector<uint8_t> k(KV.size());
    if (f8)
      for (auto& e : k) e = static_cast<uint8_t>(0x38 + ((next() >> 16) & 0x0f) + ((x >> 31) << 7));
    else
      for (size_t i = 0; i < k.size(); i += 2) {
        const uint16_t h = static_cast<uint16_t>(0x3c00u + ((next() >> 16) & 0x7fu) + ((x >> 31) << 15));
        k[i] = uint8_t(h), k[i + 1] = uint8_t(h >> 8);
      }
    KV.upload(k);
  }
  auto mod = dev->load_file(HIPASM_BENCH_CO);
  rt::profile_options po = profile_for(B * groups * splits, target_device);
  rt::launch_options lo;
  lo.profile = &po;
  lo.check = false;  // (the tests run the checker)
  const char* tl = std::getenv("HIPASM_BENCH_TIMELINE");
  if (tl) po.keep_events = true;
  const hk::mla_decode_args a{.o = O.addr(), .lse = L.addr(), .q = Q.addr(), .kv = KV.addr(), .qo_indptr = QO.addr(),
                              .kv_indptr = KP.addr(), .kv_indices = KI.addr(), .kv_last_page_lens = KL.addr(),
                              .batch = B, .max_seqlen_q = s.qlen, .num_heads = s.heads, .total_q = tq,
                              .kv_bytes = kv_rows * 576 * eb, .num_indices = static_cast<uint32_t>(kv_rows),
                              .softmax_scale = static_cast<float>(1.0 / std::sqrt(576.0)), .num_kv_splits = splits,
                              .part_o = PO.addr(), .part_lse = PL.addr(), .kv_scale = f8 ? 0.01f : 1.0f};
  const auto rep = hk::launch_mla_decode(*dev, *mod, {name, cfg, "mla_combine"}, a, lo);
  if (tl) std::fprintf(stderr, "%s", rep.attn.profile->timeline(uint32_t(std::atoi(tl))).c_str());
  result h = from(rep.attn);
  if (splits > 1) {
    const result c = from(rep.combine);
    h.us += c.us;
    h.hbm_bytes += c.hbm_bytes;
  }
  std::fprintf(stderr, "bench_kernel_mla_decode: %s: %s, %u splits, attention %.2f us\n", shp.c_str(), name, splits,
               rep.attn.profile->time_us);
  const double bytes = double(kv_rows) * 576 * eb + double(tq) * s.heads * (576 + 512) * 2;
  char extra[64] = "";
  if (s.amd_us > 0) std::snprintf(extra, sizeof extra, "amd_us=%.0f splits=%u", s.amd_us, splits);
  else std::snprintf(extra, sizeof extra, "splits=%u", splits);
  print_line(f8 ? "mla_decode_fp8" : "mla_decode", shp, h, 0, bytes, true, row_device, extra);
}
}  // namespace

int main(int argc, char**) {
  if (argc > 1) std::fprintf(stderr, "bench_kernel_mla_decode: aiter's MLA kernels are not launched (see the header)\n");
  std::vector<shape> shapes;
  if constexpr (target_gfx950) {
    // the challenge's benchmark list (fp8 KV), its README's a8w8 latencies where given
    const double amd[][3] = {{4, 1024, 118}, {4, 8192, 113}, {64, 8192, 171}, {256, 8192, 349}};
    for (uint32_t b : {4u, 32u, 64u, 256u})
      for (uint32_t kv : {1024u, 8192u}) {
        double a = 0;
        for (const auto& r : amd)
          if (r[0] == b && r[1] == kv) a = r[2];
        shapes.push_back({b, 1, kv, 16, true, a});
      }
    for (uint32_t kv : {1024u, 8192u}) shapes.push_back({32, 4, kv, 16, true});
    shapes.push_back({32, 4, 8192, 32, true});
    shapes.push_back({32, 1, 8192, 16, false});
  } else {
    for (auto [b, kv] : std::vector<std::pair<uint32_t, uint32_t>>{{1, 8192}, {8, 1024}, {8, 8192}, {32, 2048}, {64, 1024}, {128, 1024}})
      shapes.push_back({b, 1, kv, 128, false});
    for (auto [b, kv] : std::vector<std::pair<uint32_t, uint32_t>>{{4, 1024}, {4, 8192}, {32, 1024}, {32, 8192}})
      shapes.push_back({b, 1, kv, 16, false});
    shapes.push_back({32, 4, 8192, 16, false});
  }
  for (const auto& s : shapes) row(s);
  return 0;
}

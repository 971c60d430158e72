// Host launch of MLA decode (mla_decode.hpp) through hipasm::rt: the same call drives
// hipasm-sim and a real MI300 / MI355 (rt::device::open's backend).
//
//   auto mod = dev->load_file("mla.co");   // HIPASM_MLA_DECODE_KERNEL(mla_h16, cfg) and
//                                          // HIPASM_MLA_DECODE_COMBINE_KERNEL(mla_combine)
//   launch_mla_decode(*dev, *mod, {"mla_h16", cfg, "mla_combine"},
//                     {.o = O.addr(), .lse = L.addr(), .q = Q.addr(), .kv = KV.addr(), .qo_indptr = qo.addr(),
//                      .kv_indptr = kvp.addr(), .kv_indices = idx.addr(), .kv_last_page_lens = last.addr(),
//                      .batch = 4, .max_seqlen_q = 1, .num_heads = 16, .total_q = 4, .kv_bytes = KV.bytes(),
//                      .num_indices = n, .softmax_scale = 1 / sqrt(576.f), .num_kv_splits = 8,
//                      .part_o = PO.addr(), .part_lse = PL.addr()});
//
// The arguments are aiter's mla_decode_fwd's (aiter/mla.py): qo_indptr, kv_indptr (in pages),
// kv_indices, kv_last_page_lens device arrays; max_seqlen_q a host bound of the query lengths
// (it sizes the grid). num_kv_splits > 1 needs the workspace part_o [total_q][splits][H][512]
// f32 (bf16 with part_bf16, and a combination kernel of HIPASM_MLA_DECODE_COMBINE_BF16_KERNEL) and part_lse [total_q][splits][H] f32 (mla_decode_workspace) and runs the combination
// as a second launch.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>

#include "mla_decode.hpp"
#include <hipasm/rt/launcher.hpp>

namespace hipasm::kernels {

struct mla_decode_kernel_ref {
  std::string name;            // the kernel's symbol in the module
  mla_decode_config config;    // the configuration it was compiled with
  std::string combine = "";    // the combination kernel's symbol (needed when num_kv_splits > 1)
};

struct mla_decode_args {
  uint64_t o = 0, lse = 0;      // [total_q, H, 512] bf16, [total_q, H] f32
  uint64_t q = 0, kv = 0;       // [total_q, H, 576] bf16; [pages, page_size, 576] bf16 or fp8
  uint64_t qo_indptr = 0, kv_indptr = 0, kv_indices = 0, kv_last_page_lens = 0;  // int32
  uint32_t batch = 0, max_seqlen_q = 0, num_heads = 0;
  uint32_t total_q = 0;         // qo_indptr[batch] (q's first dimension): the combination's grid
  uint64_t kv_bytes = 0;        // the KV buffer's bytes (its loads are range checked against it)
  uint32_t num_indices = 0;     // kv_indices' entries
  float softmax_scale = 0;      // usually 1 / sqrt(576)
  uint32_t num_kv_splits = 1;
  uint64_t part_o = 0, part_lse = 0;  // the split workspace (num_kv_splits > 1)
  float kv_scale = 1.0f;        // fp8 KV: the per-tensor scale (value = fp8 * kv_scale)
  // q_fp8 configurations: q is [total_q, H, 576] fp8 (OCP e4m3fn) and value = fp8 * q_scale
  float q_scale = 1.0f;
  // num_kv_splits > 1 with counters (split_dims configurations): the combination in the
  // attention kernel (no second launch): the last split to finish 16 rows combines them. u32 [total_q * num_heads / 16]
  // (mla_decode_counters_for), zero before the first launch; each launch leaves them zero.
  uint64_t counters = 0;
};

// the fused combination's counters (u32s): one a token's 16 heads
constexpr uint64_t mla_decode_counters_for(uint32_t total_q, uint32_t num_heads) { return uint64_t(total_q) * (num_heads / 16); }

// Whether the bench fuses the combination (mla_decode_args::counters): split_dims (16 rows a
// workgroup, whose waves combine 4 rows each) up to 4 splits; the last workgroup of 16 rows
// reads all their splits' partials alone (splits x 32 KiB) after every split ends (equal
// lengths: all at once), which the second launch spreads over every CU.
constexpr bool mla_decode_fuse_combine(const mla_decode_config& cfg, uint32_t splits) {
  return cfg.split_dims && splits > 1 && splits <= 4;
}

struct mla_decode_workspace {
  uint64_t part_o_bytes = 0, part_lse_bytes = 0;
};
// (part_bf16: the configuration's mla_decode_config::part_bf16, bf16 part_o)
constexpr mla_decode_workspace mla_decode_workspace_for(uint32_t total_q, uint32_t num_heads, uint32_t splits,
                                                        bool part_bf16 = false) {
  const uint64_t rows = uint64_t(total_q) * splits * num_heads;
  return {rows * 512 * (part_bf16 ? 2 : 4), rows * 4};
}

// The default number of KV splits (the bench's pick; the launch takes num_kv_splits as given):
// as many workgroups as the device's CUs hold at once (lds_per_cu / the kernel's lds_bytes(), at
// most 2), rounded down, with at least 8 blocks of 16 KV rows a split; two workgroups a CU only
// when each split keeps at least 16 blocks (a split's f32 partials, rows x 2 KiB written and read
// back, cost a short split more than the second workgroup gains). Sequences of 16 query rows
// (rows: heads x query tokens) on a grid short of a workgroup a CU: down to 2 blocks a split, up
// to a workgroup a CU. groups: the workgroups a sequence's rows take (rows / cfg.rows(), rounded up).
// q_fp8 on 4 or more waves of 16 rows each (fp8 MFMAs: a block's compute is short next to its partials' share):
// one workgroup a CU and at least 16 blocks a split.
constexpr uint32_t mla_decode_default_splits(uint32_t compute_units, uint32_t lds_per_cu, const mla_decode_config& cfg,
                                             uint32_t batch, uint32_t groups, uint32_t kv_len, uint32_t rows) {
  const uint32_t wgs = batch * groups, blocks = (kv_len + 15) / 16;
  auto clamp = [](uint32_t v, uint32_t lo, uint32_t hi) { return v < lo ? lo : v > hi ? hi : v; };
  auto max1 = [](uint32_t a, uint32_t b) { return a > b ? a : b; };
  auto min1 = [](uint32_t a, uint32_t b) { return a < b ? a : b; };
  const bool f8q = cfg.pv_pairs() && cfg.waves >= 4;
  const uint32_t cap = max1(1u, blocks / (f8q ? 16 : 8));  // (at least 8 blocks a split, 16 for f8q)
  const uint32_t per_cu = f8q ? 1u : clamp(lds_per_cu / cfg.lds_bytes(), 1u, 2u);
  // (rounded down: a grid just past the device's slots runs a second, nearly empty round)
  uint32_t s = min1(max1(1u, compute_units * per_cu / max1(wgs, 1u)), cap);
  if (per_cu == 2 && s * 16 > blocks) s = min1(max1(1u, compute_units / max1(wgs, 1u)), cap);
  if (rows <= 16 && wgs * s < compute_units) s = max1(s, min1(compute_units / max1(wgs, 1u), blocks / 2));
  return max1(1u, s);
}

struct mla_decode_report {
  rt::launch_report attn, combine;  // (combine: not run with one split)
};

inline mla_decode_report launch_mla_decode(rt::device& dev, rt::module& mod, const mla_decode_kernel_ref& k,
                                           const mla_decode_args& a, const rt::launch_options& opts = {}) {
  auto fail = [](const std::string& s) { throw rt::error("mla_decode: " + s); };
  if (a.batch == 0) fail("batch must be at least 1");
  if (a.num_heads < 16 || a.num_heads > 128 || a.num_heads % 16 != 0)
    fail("num_heads (" + std::to_string(a.num_heads) + ") must be 16 to 128, a multiple of 16");
  if (a.max_seqlen_q < 1 || a.max_seqlen_q > 4) fail("max_seqlen_q must be 1 to 4");
  if (a.num_kv_splits < 1 || a.num_kv_splits > 1024) fail("num_kv_splits must be 1 to 1024");
  if (!a.o || !a.lse || !a.q || !a.kv || !a.qo_indptr || !a.kv_indptr || !a.kv_indices || !a.kv_last_page_lens)
    fail("a tensor address is null");
  if (a.counters && !k.config.split_dims) fail("counters (the fused combination) needs a split_dims configuration");
  if (a.num_kv_splits > 1 && (!a.part_o || !a.part_lse || (k.combine.empty() && !a.counters)))
    fail("num_kv_splits > 1 needs part_o, part_lse (mla_decode_workspace_for) and the combination kernel or counters");
  if (!(a.softmax_scale > 0) || !std::isfinite(a.softmax_scale)) fail("softmax_scale must be positive and finite");
  if (!(a.kv_scale > 0) || !std::isfinite(a.kv_scale)) fail("kv_scale must be positive and finite");
  if (!(a.q_scale > 0) || !std::isfinite(a.q_scale)) fail("q_scale must be positive and finite");
  if (a.q_scale != 1.0f && !k.config.q_fp8) fail("q_scale takes a q_fp8 configuration (bf16 Q has none)");
  if (a.kv_bytes == 0 || a.kv_bytes > 0xffffe000ull) fail("kv_bytes must be 1 to 4 GiB - 8 KiB (32-bit offsets)");
  if (uint64_t(a.num_heads) * a.max_seqlen_q * 576 * 2 >= (1ull << 31)) fail("a sequence's query rows exceed 2 GiB");
  // (fp8 Q: its scale folded into the scores' scale, as the KV scale is in the kernel)
  const float scale_log2 = static_cast<float>(a.softmax_scale * 1.4426950408889634 * (k.config.q_fp8 ? a.q_scale : 1.0f));
  rt::kernel_args args;
  args.add(a.o).add(a.lse).add(a.part_o).add(a.part_lse).add(a.q).add(a.kv).add(a.qo_indptr).add(a.kv_indptr)
      .add(a.kv_indices).add(a.kv_last_page_lens).add(a.num_heads).add(a.num_kv_splits).add(scale_log2)
      .add(a.kv_scale).add(static_cast<uint32_t>(a.kv_bytes)).add(a.num_indices).add(a.counters)
      .add(static_cast<uint32_t>(a.counters != 0 ? 1 : 0));
  const uint32_t rows = a.num_heads * a.max_seqlen_q, groups = (rows + k.config.rows() - 1) / k.config.rows();
  mla_decode_report r;
  r.attn = dev.launch(mod, k.name, {a.num_kv_splits, a.batch, groups}, {k.config.threads(), 1, 1}, args, opts);
  if (a.num_kv_splits > 1 && a.counters == 0) {
    if (a.total_q > 0) {
      rt::kernel_args c;
      c.add(a.o).add(a.lse).add(a.part_o).add(a.part_lse).add(a.num_heads).add(a.num_kv_splits);
      r.combine = dev.launch(mod, k.combine, {mla_decode_combine_groups(a.num_heads, a.num_kv_splits, k.config.part_bf16), a.total_q, 1}, {256, 1, 1},
                             c, opts);
    }
  }
  return r;
}

}  // namespace hipasm::kernels

// Host launch of flash attention backward (attn_bwd.hpp) through hipasm::rt: the same call
// drives hipasm-sim and a real MI300 (rt::device::open's backend). Runs the kernels of
// HIPASM_ATTN_BWD_KERNELS(name, cfg) in order: config dq = atomic: name_dot_do_o, name,
// name_convert_dq (dQ, and with GQA/MQA, num_q_heads != num_kv_heads, the sums of the dK, dV
// partials); dq = recompute: name_dot_do_o, name, name_dq, and name_convert_dq only with GQA/MQA;
// dq = atomic16: name_dot_do_o (zeroes dQ), name (adds into dQ), and name_convert_dq only with
// GQA/MQA (dq_acc not used).
//
//   auto mod = dev->load_file("attn_bwd.co");
//   launch_attn_bwd(*dev, *mod, {"bwd_causal", cfg}, {.dq = dQ.addr(), .dk = dK.addr(), .dv = dV.addr(),
//                   .q = Q.addr(), .k = K.addr(), .v = V.addr(), .o = O.addr(), .d_o = dO.addr(),
//                   .lse = L.addr(), .dq_acc = acc.addr(), .delta = dl.addr(), .cu_seqlens_q = cq.addr(),
//                   .cu_seqlens_k = ck.addr(), .batch = 4, .max_seqlen_q = 1024, .max_seqlen_k = 1024,
//                   .num_q_heads = 32, .num_kv_heads = 8, .softmax_scale = 0.088f});
//
// Tensors as attn_fwd_launch.hpp (the LSE its forward wrote); dk and dv have num_kv_heads heads.
// Workspaces (device memory the caller provides; written before they are read, no clearing
// needed): dq_acc f32 [total_q, num_q_heads, head_dim] (dq = atomic only; else may be 0), delta
// f32 [num_q_heads, total_q]; with
// GQA/MQA also dk_part and dv_part, of the config's dtype [total_k, num_q_heads, head_dim] (unused, may be 0, when
// num_q_heads == num_kv_heads).
// max_seqlen_q / _k: host bounds of the sequence lengths (they size the grids).
#pragma once
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "attn_bwd.hpp"
#include <hipasm/rt/launcher.hpp>

namespace hipasm::kernels {

struct attn_bwd_kernel_ref {
  std::string name;         // the main kernel's symbol (name_dot_do_o and name_convert_dq beside it)
  attn_bwd_config config;   // the configuration it was compiled with
};

struct attn_bwd_args {
  uint64_t dq = 0, dk = 0, dv = 0;              // outputs, the config's dtype (bf16 or f16)
  uint64_t q = 0, k = 0, v = 0, o = 0, d_o = 0;  // inputs, the config's dtype
  uint64_t lse = 0;                             // f32 [Hq, total_q] (attn_fwd's)
  uint64_t dq_acc = 0, delta = 0;               // f32 workspaces
  uint64_t dk_part = 0, dv_part = 0;            // workspaces of the dtype (GQA/MQA)
  uint64_t cu_seqlens_q = 0, cu_seqlens_k = 0;  // int32[batch + 1]
  uint32_t batch = 0, max_seqlen_q = 0, max_seqlen_k = 0;
  uint32_t num_q_heads = 0, num_kv_heads = 0;
  float softmax_scale = 0;
};

// The launches' reports (dq: the recompute kernel's; convert_dq: none with recompute and MHA).
struct attn_bwd_report {
  rt::launch_report dot_do_o, main, convert_dq, dq;
};

inline attn_bwd_report launch_attn_bwd(rt::device& dev, rt::module& mod, const attn_bwd_kernel_ref& k,
                                       const attn_bwd_args& a, const rt::launch_options& opts = {}) {
  if (a.batch == 0 || a.num_q_heads == 0 || a.num_kv_heads == 0)
    throw rt::error("attn_bwd: batch and the head counts must be at least 1");
  if (a.num_q_heads % a.num_kv_heads != 0)
    throw rt::error("attn_bwd: num_kv_heads (" + std::to_string(a.num_kv_heads) + ") must divide num_q_heads (" +
                    std::to_string(a.num_q_heads) + ")");
  const bool rc = k.config.dq == attn_bwd_dq::recompute, a16 = k.config.dq == attn_bwd_dq::atomic16;
  // (atomic16: the kernels' dq_acc argument is dQ itself)
  const uint64_t dq_acc = a16 ? a.dq : a.dq_acc;
  if (!a.dq || !a.dk || !a.dv || !a.q || !a.k || !a.v || !a.o || !a.d_o || !a.lse || (!rc && !dq_acc) || !a.delta ||
      !a.cu_seqlens_q || !a.cu_seqlens_k)
    throw rt::error("attn_bwd: a tensor address is null");
  const bool gqa = a.num_q_heads != a.num_kv_heads;
  if (gqa && (!a.dk_part || !a.dv_part))
    throw rt::error("attn_bwd: GQA/MQA (num_q_heads != num_kv_heads) needs the dk_part and dv_part workspaces");
  if (!(a.softmax_scale > 0) || !std::isfinite(a.softmax_scale))
    throw rt::error("attn_bwd: softmax_scale must be positive and finite");
  const uint32_t D = k.config.head_dim;
  // (dq_acc: f32 rows of all heads; the dot_do_o / convert_dq grids index all tokens' rows)
  if (uint64_t(a.num_q_heads) * D * 4 * (uint64_t(a.max_seqlen_q) + 1) >= (1ull << 31) ||
      uint64_t(a.num_q_heads) * D * 4 * uint64_t(a.max_seqlen_q) * a.batch >= (1ull << 32) ||
      uint64_t(a.num_q_heads) * D * 2 * uint64_t(a.max_seqlen_k) * a.batch >= (1ull << 32))
    throw rt::error(
        "attn_bwd: the dq_acc and dk/dv_part workspaces must span below 4 GiB and a sequence below 2 GiB (32-bit offsets)");
  const uint64_t rows = uint64_t(a.batch) * a.max_seqlen_q * a.num_q_heads;  // bound of total_q x heads
  const uint32_t rpw = k.config.stream_rows();
  const uint32_t stream_groups = rows == 0 ? 1 : static_cast<uint32_t>((rows + rpw - 1) / rpw);
  attn_bwd_report rep;
  {
    rt::kernel_args x;
    x.add(a.delta).add(dq_acc).add(a.o).add(a.d_o).add(a.cu_seqlens_q).add(a.num_q_heads).add(a.batch);
    rep.dot_do_o = dev.launch(mod, k.name + "_dot_do_o", {stream_groups, 1, 1}, {k.config.stream_threads, 1, 1}, x, opts);
  }
  {
    const float scale_log2 = static_cast<float>(a.softmax_scale * 1.4426950408889634);
    rt::kernel_args x;
    x.add(dq_acc).add(gqa ? a.dk_part : a.dk).add(gqa ? a.dv_part : a.dv).add(a.q).add(a.k).add(a.v).add(a.d_o).add(a.lse).add(a.delta);
    x.add(a.cu_seqlens_q).add(a.cu_seqlens_k).add(a.num_q_heads).add(a.num_kv_heads).add(a.batch);
    x.add(k.config.grid_x(a.max_seqlen_k)).add(scale_log2);
    rep.main = dev.launch(mod, k.name, {k.config.grid_x(a.max_seqlen_k), a.num_q_heads, a.batch},
                          {k.config.threads(), 1, 1}, x, opts);
    if (rc) {
      rt::kernel_args y;
      y.add(a.dq).add(a.q).add(a.k).add(a.v).add(a.d_o).add(a.lse).add(a.delta).add(a.cu_seqlens_q);
      y.add(a.cu_seqlens_k).add(a.num_q_heads).add(a.num_kv_heads).add(a.batch);
      y.add(k.config.dq_grid_x(a.max_seqlen_q)).add(scale_log2);
      rep.dq = dev.launch(mod, k.name + "_dq", {k.config.dq_grid_x(a.max_seqlen_q), a.num_q_heads, a.batch},
                          {k.config.dq_threads(), 1, 1}, y, opts);
    }
  }
  if ((!rc && !a16) || gqa) {
    // dQ's workgroups, then (GQA/MQA) red_groups of dK's sums and as many of dV's
    uint32_t red_groups = 0;
    if (gqa) {
      const uint64_t elems = uint64_t(a.batch) * a.max_seqlen_k * a.num_kv_heads * D;  // bound of the outputs'
      red_groups = static_cast<uint32_t>((elems / 8 + k.config.stream_threads - 1) / k.config.stream_threads);
    }
    rt::kernel_args x;
    x.add(a.dq).add(a.dq_acc).add(a.dk).add(a.dv).add(a.dk_part).add(a.dv_part).add(a.cu_seqlens_q);
    const uint32_t dq_groups = rc || a16 ? 0 : stream_groups;
    x.add(a.cu_seqlens_k).add(a.num_q_heads).add(a.num_kv_heads).add(a.batch).add(dq_groups).add(red_groups);
    x.add(a.softmax_scale);
    rep.convert_dq = dev.launch(mod, k.name + "_convert_dq", {dq_groups + 2 * red_groups, 1, 1},
                                {k.config.stream_threads, 1, 1}, x, opts);
  }
  return rep;
}

// The dQ mode that runs faster on `target` ("gfx942", "gfx950") for the shape of `a` (the
// benchmark rows of both modes, bench_kernel_attn_bwd[_mi355x], on the timing model): one
// place for the launcher below and the bench.
// gfx950's double-rate MFMAs make the recompute's extra S and dP products cheaper than the
// atomics, but for short causal sequences (few atomics: the main kernel's query loops are
// short); on gfx942 the atomics cost less.
inline attn_bwd_dq attn_bwd_dq_for(std::string_view target, const attn_bwd_args& a, bool causal) {
  if (target != "gfx950" || (causal && a.max_seqlen_k <= 1024)) return attn_bwd_dq::atomic;
  return attn_bwd_dq::recompute;
}

// Runs the kernels of `atomic_k` or of `recompute_k` (HIPASM_ATTN_BWD_KERNELS of the same head
// dim, mask and dtype, dq = atomic and recompute) as attn_bwd_dq_for picks for the code object's target
// and the shape.
inline attn_bwd_report launch_attn_bwd(rt::device& dev, rt::module& mod, const attn_bwd_kernel_ref& atomic_k,
                                       const attn_bwd_kernel_ref& recompute_k, const attn_bwd_args& a,
                                       const rt::launch_options& opts = {}) {
  if (atomic_k.config.dq != attn_bwd_dq::atomic || recompute_k.config.dq != attn_bwd_dq::recompute ||
      atomic_k.config.head_dim != recompute_k.config.head_dim || atomic_k.config.causal != recompute_k.config.causal ||
      atomic_k.config.top_left != recompute_k.config.top_left || atomic_k.config.dtype != recompute_k.config.dtype)
    throw rt::error(
        "attn_bwd: atomic_k and recompute_k must be the atomic and recompute dQ kernels of one head_dim, mask and dtype");
  const bool rc = attn_bwd_dq_for(mod.target(), a, atomic_k.config.causal) == attn_bwd_dq::recompute;
  return launch_attn_bwd(dev, mod, rc ? recompute_k : atomic_k, a, opts);
}

}  // namespace hipasm::kernels

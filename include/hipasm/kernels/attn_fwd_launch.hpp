// Host launch of flash attention forward (attn_fwd.hpp) through hipasm::rt: the same call
// drives hipasm-sim and a real MI300 (rt::device::open's backend).
//
//   auto mod = dev->load_file("attn.co");   // built from HIPASM_ATTN_FWD_KERNEL(...)
//   launch_attn_fwd(*dev, *mod, {"attn_causal", cfg}, {.o = O.addr(), .lse = L.addr(), .q = Q.addr(),
//                   .k = K.addr(), .v = V.addr(), .cu_seqlens_q = cq.addr(), .cu_seqlens_k = ck.addr(),
//                   .batch = 4, .max_seqlen_q = 1024, .num_q_heads = 32, .num_kv_heads = 8,
//                   .softmax_scale = 0.088f});
//
// As flash-attention's varlen API: cu_seqlens_* are device arrays of batch + 1 int32 token
// offsets (0 first, non-decreasing), max_seqlen_q a host bound of the query lengths (it sizes
// the grid; a larger one only launches workgroups that exit).
#pragma once
#include <cmath>
#include <cstdint>
#include <string>

#include "attn_fwd.hpp"
#include <hipasm/rt/launcher.hpp>

namespace hipasm::kernels {

struct attn_fwd_kernel_ref {
  std::string name;         // the kernel's symbol in the module
  attn_fwd_config config;   // the configuration it was compiled with
};

struct attn_fwd_args {
  uint64_t o = 0, lse = 0;                  // [total_q, Hq, D] of the dtype (bf16, f16; fp8: bf16), [Hq, total_q] f32
  uint64_t q = 0, k = 0, v = 0;             // [total_q, Hq, D], [total_k, Hkv, D] of the dtype (bf16, f16 or fp8)
  uint64_t cu_seqlens_q = 0, cu_seqlens_k = 0;  // int32[batch + 1]
  uint32_t batch = 0, max_seqlen_q = 0;
  uint32_t num_q_heads = 0, num_kv_heads = 0;
  float softmax_scale = 0;                  // usually 1 / sqrt(head_dim)
  // fp8 configurations (q, k, v fp8 e4m3fn): the per-tensor dequantization factors, real Q =
  // q_descale x q (the same for K, V)
  float q_descale = 1, k_descale = 1, v_descale = 1;
};

inline rt::launch_report launch_attn_fwd(rt::device& dev, rt::module& mod, const attn_fwd_kernel_ref& k,
                                         const attn_fwd_args& a, const rt::launch_options& opts = {}) {
  if (a.batch == 0 || a.num_q_heads == 0 || a.num_kv_heads == 0)
    throw rt::error("attn_fwd: batch and the head counts must be at least 1");
  if (a.num_q_heads % a.num_kv_heads != 0)
    throw rt::error("attn_fwd: num_kv_heads (" + std::to_string(a.num_kv_heads) + ") must divide num_q_heads (" +
                    std::to_string(a.num_q_heads) + ")");
  if (!a.o || !a.lse || !a.q || !a.k || !a.v || !a.cu_seqlens_q || !a.cu_seqlens_k)
    throw rt::error("attn_fwd: a tensor address is null");
  if (!(a.softmax_scale > 0) || !std::isfinite(a.softmax_scale))
    throw rt::error("attn_fwd: softmax_scale must be positive and finite");
  if (uint64_t(a.num_q_heads) * k.config.head_dim * 2 * (uint64_t(a.max_seqlen_q) + 1) >= (1ull << 31))
    throw rt::error("attn_fwd: a sequence's rows must span below 2 GiB (32-bit buffer offsets)");
  const bool fp8 = k.config.dtype == attn_dtype::fp8;
  for (float d : {a.q_descale, a.k_descale, a.v_descale})
    if (!(d > 0) || !std::isfinite(d)) throw rt::error("attn_fwd: q_descale, k_descale and v_descale must be positive and finite");
  if (!fp8 && (a.q_descale != 1 || a.k_descale != 1 || a.v_descale != 1))
    throw rt::error("attn_fwd: q_descale, k_descale and v_descale apply to fp8 kernels (this one's dtype is not fp8)");
  // (the q and k descales scale every score: folded into the softmax scale)
  const double scale = double(a.softmax_scale) * a.q_descale * a.k_descale;
  // (soft-capped: the kernel takes scale / cap here and scales the tanh by cap log2 e itself)
  const float scale_log2 = k.config.soft_cap > 0 ? static_cast<float>(scale / k.config.soft_cap)
                                                 : static_cast<float>(scale * 1.4426950408889634);
  rt::kernel_args args;
  args.add(a.o).add(a.lse).add(a.q).add(a.k).add(a.v).add(a.cu_seqlens_q).add(a.cu_seqlens_k);
  const uint32_t tiles = k.config.q_tiles(a.max_seqlen_q) > 0 ? k.config.q_tiles(a.max_seqlen_q) : 1;
  args.add(a.num_q_heads).add(a.num_kv_heads).add(a.batch).add(tiles).add(scale_log2);
  if (fp8) args.add(a.v_descale);
  return dev.launch(mod, k.name, {a.num_q_heads, k.config.grid_y(a.max_seqlen_q), a.batch}, {k.config.threads(), 1, 1},
                    args, opts);
}

}  // namespace hipasm::kernels

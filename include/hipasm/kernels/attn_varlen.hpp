// The varlen (packed sequences) prologue the attention kernels share: a workgroup's sequence
// from the cu_seqlens offsets (attn_fwd.hpp's layout); their element type (bf16 or f16) and its
// conversions.
#pragma once
#include <array>

#include "../helpers/mfma.hpp"
#include "../hipasm.hpp"

namespace hipasm::kernels {

// The attention kernels' element type: of Q, K, V, O, dO, dQ, dK, dV (and the GQA partial sums
// of attn_bwd); LSE and the workspaces stay f32. fp8 (OCP e4m3fn; gfx950): attn_fwd's Q, K, V
// only (its O is bf16).
enum class attn_dtype : uint8_t { bf16, f16, fp8 };

}  // namespace hipasm::kernels

namespace hipasm::kernels::detail {

// Sequence `bidx` of the batch: its query and key token ranges (the cu_seqlens pairs qse, kse),
// the total query count (the LSE rows' stride) and the two lengths.
template <class CuSeqlens, class Batch, class Index>
constexpr auto varlen_sequence(builder& J, CuSeqlens cu_q, CuSeqlens cu_k, Batch batch, Index bidx) {
  using dtype::i32;
  using dtype::u32;
  auto boff = J.sgpr<u32>();
  boff = bidx << 2;
  auto qse = J.sgpr<u32>(2).aligned(2), kse = J.sgpr<u32>(2).aligned(2), totq = J.sgpr<u32>(), toff = J.sgpr<u32>();
  J.s_load_dwordx2(qse, cu_q, boff);
  J.s_load_dwordx2(kse, cu_k, boff);
  toff = batch << 2;
  J.s_load_dword(totq, cu_q, toff);
  J.s_waitcnt(lgkmcnt(0));
  auto sq = J.sgpr<i32>(), sk = J.sgpr<i32>();
  sq = (qse[1] - qse[0]).as<i32>();
  sk = (kse[1] - kse[0]).as<i32>();
  struct sequence {
    decltype(qse) qse, kse;
    decltype(totq) totq;
    decltype(sq) sq, sk;
  };
  return sequence{qse, kse, totq, sq, sk};
}

// dst = (a, b) as two elements of type T, a in bits 0-15, rounded to nearest even: bf16 without
// the NaN check (cvt_bf16x2's nearest_even_finite; gfx950 v_cvt_pk_bf16_f32); f16 written in
// place by v_cvt_pk_f16_f32 where the target has it (gfx950), else by v_cvt_f16_f32 and its
// SDWA high-half form (cvt_f16x2's; not v_cvt_pkrtz_f16_f32, which rounds toward zero).
// f16 overflow gives +-inf.
// (bf16: round = half_away, ties away from zero, for an MFMA operand whose ties do not matter: one
// instruction less a value where the target has no v_cvt_pk_bf16_f32)
template <attn_dtype T>
constexpr void attn_pack2(builder& J, auto dst, const auto& a, const auto& b,
                          bf16_round round = bf16_round::nearest_even_finite) {
  using dtype::f32;
  if constexpr (T == attn_dtype::bf16) {
    dst = cvt_bf16x2(a, b, round).template as<dtype::u32>();
  } else {
    auto reg = [&](const auto& x) {  // (an f32 expression into a register first)
      if constexpr (requires { x.to_operand(); }) {
        return x;
      } else {
        auto r = J.vgpr<f32>();
        r = x;
        return r;
      }
    };
    const auto ra = reg(a), rb = reg(b);
    if constexpr (isa::find_instr("v_cvt_pk_f16_f32") >= 0) {
      J.v_cvt_pk_f16_f32(dst, ra, rb);
    } else {
      J.v_cvt_f16_f32(dst, ra);
      J.v_cvt_f16_f32(dst, rb, sdwa().dst_sel(sdwa_sel::word1).dst_unused(sdwa_unused::preserve));
    }
  }
}

// The MFMAs of T: the 32x32x8 one (v_mfma_f32_32x32x8_bf16 / _f16, the same lane layout), and
// gfx950's double-K atom (v_mfma_f32_32x32x16_bf16 / _f16; nullptr on a target without it).
template <attn_dtype T>
constexpr void attn_mfma_x8(builder& J, const auto& d, const auto& a, const auto& b, const auto& c,
                            std::source_location loc = std::source_location::current()) {
  if constexpr (T == attn_dtype::f16) J.v_mfma_f32_32x32x8_f16(d, a, b, c, no_modifiers, loc);
  else J.v_mfma_f32_32x32x8_bf16(d, a, b, c, no_modifiers, loc);
}
template <attn_dtype T>
constexpr const mfma_atom* attn_dk_atom() {
  return find_mfma_atom(T == attn_dtype::f16 ? "v_mfma_f32_32x32x16_f16" : "v_mfma_f32_32x32x16_bf16");
}

// Query head `head`'s kv head (GQA/MQA: num_q_heads / num_kv_heads query heads a kv head) and
// the bytes between tokens of the packed [tokens, heads, head_dim] tensors (ElemBytes an element).
template <uint32_t HeadDim, uint32_t ElemBytes = 2, class Head, class Heads>
constexpr auto varlen_heads(builder& J, Head head, Heads num_q_heads, Heads num_kv_heads) {
  using dtype::u32;
  auto kv_head = J.sgpr<u32>();
  kv_head = head / (num_q_heads / num_kv_heads);
  auto q_stride = J.sgpr<u32>(), kv_stride = J.sgpr<u32>();
  q_stride = num_q_heads * (HeadDim * ElemBytes);
  kv_stride = num_kv_heads * (HeadDim * ElemBytes);
  struct heads {
    decltype(kv_head) kv_head, q_stride, kv_stride;
  };
  return heads{kv_head, q_stride, kv_stride};
}

// Buffers over the sequence's rows of packed tensors, sized to the sequence (rows past it read
// zeros, their stores are dropped): the kv head's rows of K-like tensors (kv_stride bytes a
// token), and a query head's rows of per-token f32 tensors ([heads, total_q]: LSE and the like).
template <uint32_t HeadDim, uint32_t ElemBytes = 2, class Len, class Start, class Stride, class Head, class... Ptrs>
constexpr std::array<buffer, sizeof...(Ptrs)> varlen_kv_buffers(builder& J, const Len& sk, const Start& k_start,
                                                               const Stride& kv_stride, const Head& kv_head,
                                                               Ptrs... ptrs) {
  using dtype::u32;
  auto nrec = J.sgpr<u32>(), shift = J.sgpr<u32>();
  nrec = sk.template as<u32>() * kv_stride;
  std::array<buffer, sizeof...(Ptrs)> b{make_buffer(J, ptrs, nrec)...};
  shift = k_start * kv_stride + kv_head * (HeadDim * ElemBytes);
  for (auto& x : b) x.shift_base(shift);
  return b;
}
template <class Len, class Head, class Total, class Start, class... Ptrs>
constexpr std::array<buffer, sizeof...(Ptrs)> varlen_row_buffers(builder& J, const Len& sq, const Head& head,
                                                                const Total& total_q, const Start& q_start,
                                                                Ptrs... ptrs) {
  using dtype::u32;
  auto nrec = J.sgpr<u32>(), shift = J.sgpr<u32>();
  nrec = sq.template as<u32>() << 2;
  std::array<buffer, sizeof...(Ptrs)> b{make_buffer(J, ptrs, nrec)...};
  shift = (head * total_q + q_start) << 2;
  for (auto& x : b) x.shift_base(shift);
  return b;
}

}  // namespace hipasm::kernels::detail

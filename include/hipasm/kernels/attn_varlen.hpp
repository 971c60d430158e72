// The varlen (packed sequences) prologue the attention kernels share: a workgroup's sequence
// from the cu_seqlens offsets (attn_fwd.hpp's layout).
#pragma once
#include <array>

#include "../hipasm.hpp"

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

// Kernels of test_exec_masks_sim.cpp: code that depends on which lanes EXEC holds where the
// wave may be partial (the last wave of a workgroup whose size is not a multiple of 64 starts
// with only its own lanes on) and masks handed out as values (lane_mask of negated and
// combined conditions, under If, nested If, at the top level).
#pragma once
#include "hipasm/hipasm.hpp"

namespace hipasm::test::exec_masks {
using namespace hipasm;

// v = lane + 1000 in every lane, then v = lane through a DPP control whose source lanes all
// exist in a full wave (Ctrl). Without bound_ctrl a lane whose source lies past the wave's
// end keeps lane + 1000; with it, it reads 0. out[thread] = v. Workgroup: the kernel's
// builder::workgroup_size (0: none declared).
template <uint16_t Ctrl, bool Bound, unsigned Workgroup = 0>
constexpr void dpp_entry_fn(builder J, arg<unsigned*> out) {
  if constexpr (Workgroup != 0) J.workgroup_size(Workgroup);
  auto lane = lane_id(J);
  auto v = J.vgpr<u32>().named("v");
  v = lane + 1000u;
  J.v_mov_b32(v, lane, dpp::detail::make(Ctrl).bound_ctrl(Bound));
  auto o = J.vgpr<u32>();
  o = J.thread_id_x() << 2u;
  J.global_store_dword(o, v, out);
}

// The mask cases: each stores a 64-bit value per lane (out[2 * thread], out[2 * thread + 1])
// from the lanes that are on at the store. The lane_mask cases set EXEC to the mask and store
// the mask itself: the lanes that store are the mask's, and each stores the whole mask.
enum mask_case : int {
  neg_and_in_if,     // If (lane < 10): lane_mask(!(lane < 5 && lane > 1))
  neg_or_in_if,      // If (lane < 10): lane_mask(!(lane < 3 || lane > 7))
  outer_in_if,       // c = lane < 5 || lane > 60 combined outside; If (lane < 10): lane_mask(c)
  uniform_or_in_if,  // If (lane < 10): lane_mask(lane < 3 || n > 3), n > 3 uniform
  uniform_neg_in_if, // If (lane < 10): lane_mask(!(lane < 3 && n > 3))
  nested,            // If (lane < 32) If (lane >= 8): lane_mask(!(lane < 12 && lane > 9))
  top_level,         // lane_mask(!(lane < 5 && lane > 1)) at the top level
  if_neg,            // If (lane < 10) If (!(lane < 5 && lane > 1)): store EXEC
  else_neg,          // If (lane < 10) If (!(lane < 5 && lane > 1)) {} Else: store EXEC
  select_neg,        // every lane: select(!(lane < 5 && lane > 1), 1, 2) under If (lane < 10)
  while_neg,         // c = 0; while (!(c >= lane % 4 && c >= 1)) c += 1; store c
  mask_case_count
};

constexpr void store_u64(builder J, arg<unsigned*> out, const gpr<u64>& m) {
  auto mv = J.vgpr<u64>();
  mv = m;
  auto o = J.vgpr<u32>();
  o = J.thread_id_x() << 3u;
  J.global_store_dwordx2(o, mv, out);
}
constexpr void store_u32(builder J, arg<unsigned*> out, const gpr<u32>& v) {
  auto o = J.vgpr<u32>();
  o = J.thread_id_x() << 3u;
  J.global_store_dword(o, v, out);
}
constexpr void set_and_store(builder J, arg<unsigned*> out, const gpr<u64>& m) {
  set_exec(J, m);
  store_u64(J, out, m);
}

template <int K>
constexpr void mask_fn(builder J, arg<unsigned*> out, arg<unsigned> n) {
  auto lane = lane_id(J);
  if constexpr (K == neg_and_in_if) {
    J.If(lane < 10u, [&] { set_and_store(J, out, lane_mask(J, !(lane < 5u && lane > 1u))); });
  } else if constexpr (K == neg_or_in_if) {
    J.If(lane < 10u, [&] { set_and_store(J, out, lane_mask(J, !(lane < 3u || lane > 7u))); });
  } else if constexpr (K == outer_in_if) {
    cond c = lane < 5u || lane > 60u;
    J.If(lane < 10u, [&] { set_and_store(J, out, lane_mask(J, c)); });
  } else if constexpr (K == uniform_or_in_if) {
    J.If(lane < 10u, [&] { set_and_store(J, out, lane_mask(J, lane < 3u || n > 3u)); });
  } else if constexpr (K == uniform_neg_in_if) {
    J.If(lane < 10u, [&] { set_and_store(J, out, lane_mask(J, !(lane < 3u && n > 3u))); });
  } else if constexpr (K == nested) {
    J.If(lane < 32u, [&] {
      J.If(lane >= 8u, [&] { set_and_store(J, out, lane_mask(J, !(lane < 12u && lane > 9u))); });
    });
  } else if constexpr (K == top_level) {
    set_and_store(J, out, lane_mask(J, !(lane < 5u && lane > 1u)));
  } else if constexpr (K == if_neg) {
    J.If(lane < 10u, [&] { J.If(!(lane < 5u && lane > 1u), [&] { store_u64(J, out, exec_mask(J)); }); });
  } else if constexpr (K == else_neg) {
    J.If(lane < 10u, [&] {
      J.If(!(lane < 5u && lane > 1u), [&] {}).Else([&] { store_u64(J, out, exec_mask(J)); });
    });
  } else if constexpr (K == select_neg) {
    J.If(lane < 10u, [&] {
      auto one = J.vgpr<u32>(), two = J.vgpr<u32>();
      one = 1u;
      two = 2u;
      auto r = J.vgpr<u32>();
      r = select(!(lane < 5u && lane > 1u), one, two);
      store_u32(J, out, r);
    });
  } else if constexpr (K == while_neg) {
    auto c = J.vgpr<u32>(), q = J.vgpr<u32>();
    c = 0u;
    q = lane & 3u;
    J.While([&] { return !(c >= q && c >= 1u); }, [&] { c = c + 1u; });
    store_u32(J, out, c);
  }
}

}  // namespace hipasm::test::exec_masks

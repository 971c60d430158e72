// Cross-lane and register-file moves: v_readlane/v_readfirstlane/v_writelane, v_swap,
// v_accvgpr_read/write/mov. (DPP lives in exec_valu_common.cpp; ds_bpermute is memory.)
#include "exec_valu_common.hpp"

namespace hipasm::sim::detail {
namespace {

// Reads one lane of a vector operand, or the value of a scalar/constant one.
inline uint32_t lane_value(const Wave& w, const Operand& op, int lane) {
  return read_u32(w, op, lane);
}

void copy_lanes(Wave& w, const Inst& in) {
  // dst = src0 for the lanes in EXEC (accvgpr moves: no modifiers, no DPP).
  const Operand& d = in.dst[0];
  const Operand& s = in.src[0];
  if (!d.is_vector()) fail(in, "destination is not a vector register");
  uint32_t* out = vec_ptr(w, d);
  if (s.is_vector()) {
    const uint32_t* src = vec_ptr(w, s);
    for_lanes(w.exec, [&](int l) { out[l] = src[l]; });
  } else {
    const uint32_t v = read_scalar(w, s);
    for_lanes(w.exec, [&](int l) { out[l] = v; });
  }
  w.lane_ops += std::popcount(w.exec);
}

#define H(...) [](Wave& w, const Inst& in) { __VA_ARGS__; }

const Registrar reg_lane({
    {"v_readlane_b32", H({
       const int lane = int(read_scalar(w, in.src[1]) & 63);
       write_scalar(w, in.dst[0], lane_value(w, in.src[0], lane));
     })},
    {"v_readfirstlane_b32", H({
       // The lowest active lane; with EXEC = 0 the hardware reads lane 0.
       const int lane = w.exec ? std::countr_zero(w.exec) : 0;
       write_scalar(w, in.dst[0], lane_value(w, in.src[0], lane));
     })},
    {"v_writelane_b32", H({
       // Writes one lane regardless of EXEC.
       const int lane = int(read_scalar(w, in.src[1]) & 63);
       if (!in.dst[0].is_vector()) fail(in, "destination is not a vector register");
       vec_ptr(w, in.dst[0])[lane] = read_scalar(w, in.src[0]);
     })},
    {"v_swap_b32", H({
       if (!in.dst[0].is_vector() || !in.src[0].is_vector()) fail(in, "v_swap_b32 needs two VGPRs");
       uint32_t* a = vec_ptr(w, in.dst[0]);
       uint32_t* b = vec_ptr(w, in.src[0]);
       for_lanes(w.exec, [&](int l) { std::swap(a[l], b[l]); });
     })},
    {"v_accvgpr_read_b32", H(copy_lanes(w, in))},
    {"v_accvgpr_write_b32", H(copy_lanes(w, in))},
    {"v_accvgpr_mov_b32", H(copy_lanes(w, in))},
});

#undef H

}  // namespace
}  // namespace hipasm::sim::detail

// VOPC: v_cmp_<cond>_<type> and v_cmpx_<cond>_<type> for every gfx942 type and condition,
// and v_cmp(x)_class_<f16|f32|f64>. The result mask goes to dst[0] (VCC for the e32 form,
// any SGPR pair for e64/SDWA); lanes outside EXEC get 0. v_cmpx also writes EXEC (gfx9
// writes both the destination and EXEC).
#include <string>

#include "exec_valu_common.hpp"

namespace hipasm::sim::detail {
namespace {

enum class T { F16, F32, F64, I16, U16, I32, U32, I64, U64 };

// Float conditions in encoding order; integer conditions use their own order.
enum FCond { F_F, F_LT, F_EQ, F_LE, F_GT, F_LG, F_GE, F_O, F_U, F_NGE, F_NLG, F_NGT, F_NLE, F_NEQ, F_NLT, F_TRU };
enum ICond { I_F, I_LT, I_EQ, I_LE, I_GT, I_NE, I_GE, I_T };

template <int C>
inline bool fcmp(double a, double b) {
  const bool un = std::isnan(a) || std::isnan(b);
  switch (C) {
    case F_F: return false;
    case F_LT: return a < b;
    case F_EQ: return a == b;
    case F_LE: return a <= b;
    case F_GT: return a > b;
    case F_LG: return a < b || a > b;
    case F_GE: return a >= b;
    case F_O: return !un;
    case F_U: return un;
    case F_NGE: return !(a >= b);
    case F_NLG: return !(a < b || a > b);
    case F_NGT: return !(a > b);
    case F_NLE: return !(a <= b);
    case F_NEQ: return !(a == b);
    case F_NLT: return !(a < b);
    default: return true;
  }
}
template <int C, class V>
inline bool icmp(V a, V b) {
  switch (C) {
    case I_F: return false;
    case I_LT: return a < b;
    case I_EQ: return a == b;
    case I_LE: return a <= b;
    case I_GT: return a > b;
    case I_NE: return a != b;
    case I_GE: return a >= b;
    default: return true;
  }
}

constexpr SrcType src_type(T t) {
  switch (t) {
    case T::F16: return SrcType::F16;
    case T::F32: return SrcType::F32;
    case T::F64: return SrcType::F64;
    case T::I16: case T::U16: return SrcType::B16;
    case T::I64: case T::U64: return SrcType::B64;
    default: return SrcType::B32;
  }
}

inline void finish(Wave& w, const Inst& in, uint64_t result, bool cmpx) {
  write_mask_dst(w, mask_dst(in, 0), result);
  if (cmpx) w.exec = result;
}

template <T Ty, int C, bool X>
void cmp_handler(Wave& w, const Inst& in) {
  Sources s;
  const SrcType st[2] = {src_type(Ty), src_type(Ty)};
  gather(w, in, 2, st, s);
  uint64_t r = 0;
  auto lo = [&](int i, int l) { return s.p[i][0][l]; };
  auto q = [&](int i, int l) { return uint64_t(s.p[i][0][l]) | (uint64_t(s.p[i][1][l]) << 32); };
  for_lanes(s.mask, [&](int l) {
    bool b;
    if constexpr (Ty == T::F16) b = fcmp<C>(fp::f16_to_f32(uint16_t(lo(0, l))), fp::f16_to_f32(uint16_t(lo(1, l))));
    else if constexpr (Ty == T::F32) b = fcmp<C>(f32(lo(0, l)), f32(lo(1, l)));
    else if constexpr (Ty == T::F64) b = fcmp<C>(f64(q(0, l)), f64(q(1, l)));
    else if constexpr (Ty == T::I16) b = icmp<C>(int16_t(lo(0, l)), int16_t(lo(1, l)));
    else if constexpr (Ty == T::U16) b = icmp<C>(uint16_t(lo(0, l)), uint16_t(lo(1, l)));
    else if constexpr (Ty == T::I32) b = icmp<C>(int32_t(lo(0, l)), int32_t(lo(1, l)));
    else if constexpr (Ty == T::U32) b = icmp<C>(lo(0, l), lo(1, l));
    else if constexpr (Ty == T::I64) b = icmp<C>(int64_t(q(0, l)), int64_t(q(1, l)));
    else b = icmp<C>(q(0, l), q(1, l));
    r |= uint64_t(b) << l;
  });
  finish(w, in, r, X);
  w.lane_ops += std::popcount(s.mask);
}

template <T Ty, bool X>
void class_handler(Wave& w, const Inst& in) {
  Sources s;
  const SrcType st[2] = {src_type(Ty), SrcType::B32};
  gather(w, in, 2, st, s);
  uint64_t r = 0;
  for_lanes(s.mask, [&](int l) {
    uint32_t c;
    if constexpr (Ty == T::F16) c = class_bit_f16(uint16_t(s.p[0][0][l]));
    else if constexpr (Ty == T::F32) c = class_bit_f32(s.p[0][0][l]);
    else c = class_bit_f64(uint64_t(s.p[0][0][l]) | (uint64_t(s.p[0][1][l]) << 32));
    r |= uint64_t((c & s.p[1][0][l]) != 0) << l;
  });
  finish(w, in, r, X);
  w.lane_ops += std::popcount(s.mask);
}

const char* const kFloatConds[16] = {"f", "lt", "eq", "le", "gt", "lg", "ge", "o",
                                     "u", "nge", "nlg", "ngt", "nle", "neq", "nlt", "tru"};
const char* const kIntConds[8] = {"f", "lt", "eq", "le", "gt", "ne", "ge", "t"};

template <T Ty, bool X, int... C>
void add_float(const char* type, std::integer_sequence<int, C...>) {
  (Registry::get().add(std::string(X ? "v_cmpx_" : "v_cmp_") + kFloatConds[C] + "_" + type,
                       &cmp_handler<Ty, C, X>), ...);
}
template <T Ty, bool X, int... C>
void add_int(const char* type, std::integer_sequence<int, C...>) {
  (Registry::get().add(std::string(X ? "v_cmpx_" : "v_cmp_") + kIntConds[C] + "_" + type,
                       &cmp_handler<Ty, C, X>), ...);
}

template <bool X>
void add_all() {
  add_float<T::F16, X>("f16", std::make_integer_sequence<int, 16>{});
  add_float<T::F32, X>("f32", std::make_integer_sequence<int, 16>{});
  add_float<T::F64, X>("f64", std::make_integer_sequence<int, 16>{});
  add_int<T::I16, X>("i16", std::make_integer_sequence<int, 8>{});
  add_int<T::U16, X>("u16", std::make_integer_sequence<int, 8>{});
  add_int<T::I32, X>("i32", std::make_integer_sequence<int, 8>{});
  add_int<T::U32, X>("u32", std::make_integer_sequence<int, 8>{});
  add_int<T::I64, X>("i64", std::make_integer_sequence<int, 8>{});
  add_int<T::U64, X>("u64", std::make_integer_sequence<int, 8>{});
  Registry::get().add(X ? "v_cmpx_class_f16" : "v_cmp_class_f16", &class_handler<T::F16, X>);
  Registry::get().add(X ? "v_cmpx_class_f32" : "v_cmp_class_f32", &class_handler<T::F32, X>);
  Registry::get().add(X ? "v_cmpx_class_f64" : "v_cmp_class_f64", &class_handler<T::F64, X>);
}

const bool registered = [] {
  add_all<false>();
  add_all<true>();
  return true;
}();

}  // namespace
}  // namespace hipasm::sim::detail

// What an instruction operand may be when a kernel calls a mnemonic:
//   J.v_add_f32(d, -a, abs(b));            registers (any handle, slice, element), with
//                                          the neg/abs source modifiers on floats
//   J.s_mov_b32(s, 42); J.v_mov_b32(v, 1.5f);   immediates
//   J.s_mov_b64(exec, s); J.s_cbranch_scc1(L);  special registers and labels
//   J.s_waitcnt(vmcnt(0) | lgkmcnt(0));    s_waitcnt fields
#pragma once
#include <bit>
#include <concepts>
#include <cstdint>
#include <source_location>
#include <string_view>
#include <type_traits>

#include "ir.hpp"
#include "targets/waitcnt.hpp"

namespace hipasm {

// Named hardware registers usable as operands.
struct special_operand {
  special_reg reg;
  uint16_t dwords;
  constexpr operand to_operand() const {
    operand o;
    o.k = operand::kind::special;
    o.sp = reg;
    o.cls = reg_class::sgpr;
    o.dwords = dwords;
    return o;
  }
};
inline constexpr special_operand vcc{special_reg::vcc, 2}, vcc_lo{special_reg::vcc_lo, 1},
    vcc_hi{special_reg::vcc_hi, 1}, exec{special_reg::exec, 2}, exec_lo{special_reg::exec_lo, 1},
    exec_hi{special_reg::exec_hi, 1}, m0{special_reg::m0, 1}, scc{special_reg::scc, 1},
    vccz{special_reg::vccz, 1}, execz{special_reg::execz, 1};

// `off`: the absent address operand of global/scratch instructions (global_load_dword v, v[2:3], off).
struct off_operand {
  constexpr operand to_operand() const { return operand{}; }
};
inline constexpr off_operand off{};

// A branch target made by builder::label(); placed with builder::place().
struct label {
  uint32_t id = 0xffffffffu;
  constexpr operand to_operand() const {
    operand o;
    o.k = operand::kind::label;
    o.value = id;
    return o;
  }
};

// s_waitcnt fields (targets/waitcnt.hpp: the encoding); fields left out do not wait.
struct waitcnt {
  uint8_t vm = waitcnt_encoding::vm_max, exp = waitcnt_encoding::exp_max, lgkm = waitcnt_encoding::lgkm_max;
  constexpr uint16_t simm16() const { return waitcnt_encoding::encode(vm, exp, lgkm); }
  constexpr waitcnt operator|(const waitcnt& o) const {
    return waitcnt{vm < o.vm ? vm : o.vm, exp < o.exp ? exp : o.exp, lgkm < o.lgkm ? lgkm : o.lgkm};
  }
  constexpr operand to_operand() const {
    operand o;
    o.k = operand::kind::imm;
    o.value = simm16();
    return o;
  }
};
constexpr waitcnt vmcnt(unsigned n) {
  constexpr unsigned m = waitcnt_encoding::vm_max;
  return waitcnt{static_cast<uint8_t>(n > m ? m : n), waitcnt_encoding::exp_max, waitcnt_encoding::lgkm_max};
}
constexpr waitcnt expcnt(unsigned n) {
  constexpr unsigned m = waitcnt_encoding::exp_max;
  return waitcnt{waitcnt_encoding::vm_max, static_cast<uint8_t>(n > m ? m : n), waitcnt_encoding::lgkm_max};
}
constexpr waitcnt lgkmcnt(unsigned n) {
  constexpr unsigned m = waitcnt_encoding::lgkm_max;
  return waitcnt{waitcnt_encoding::vm_max, waitcnt_encoding::exp_max, static_cast<uint8_t>(n > m ? m : n)};
}

template <class R>
concept operand_like = requires(const R& r) {
  { r.to_operand() } -> std::same_as<operand>;
};

// An operand and the caller's line: the first parameter of a variadic call that has no
// room for a trailing std::source_location (builder::wait_for).
struct operand_at {
  operand op{};
  src_loc loc{};
  template <operand_like R>
  constexpr operand_at(const R& r, std::source_location l = std::source_location::current())  // NOLINT: implicit
      : op(r.to_operand()), loc{l.file_name(), static_cast<uint32_t>(l.line())} {}
};

// One operand of an instruction call. Integers are stored sign-extended to 64 bits,
// floats as their IEEE bits (f32; a double is narrowed to f32 unless it is passed where a
// 64-bit operand is expected, which the builder handles).
struct operand_arg {
  operand op{};
  // A typed register's dtype (registers.hpp's enum as an int), -1 for anything else: the
  // builder checks it against what the instruction takes (builder::check_operand_dtypes).
  int8_t dtype = -1;

  constexpr operand_arg() = default;
  template <operand_like R>
  constexpr operand_arg(const R& r) : op(r.to_operand()) {
    if constexpr (requires { static_cast<int>(R::type); }) dtype = static_cast<int8_t>(R::type);
  }
  template <class I>
    requires(std::is_integral_v<I> && !std::is_same_v<I, bool>)
  constexpr operand_arg(I v) {
    op.k = operand::kind::imm;
    op.value = std::is_signed_v<I> ? static_cast<uint64_t>(static_cast<int64_t>(v)) : static_cast<uint64_t>(v);
  }
  constexpr operand_arg(float f) {
    op.k = operand::kind::imm;
    op.value = std::bit_cast<uint32_t>(f);
  }
  constexpr operand_arg(double d) : operand_arg(static_cast<float>(d)) {}
};

}  // namespace hipasm

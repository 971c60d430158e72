// DPP and SDWA controls by name, for the instruction methods (one uniform way: a named control
// converts to `modifiers`, and to `dpp_mods` / `sdwa_mods` for a designated initialiser):
//
//   J.v_add_f32(r, x, r, dpp::row_shr(1));                          // v_add_f32_dpp ... row_shr:1
//   J.v_max_f32(r, r, r, dpp::row_shr(4).bank_mask(0xe));
//   J.v_mov_b32(t, x, dpp::quad_perm(1, 0, 3, 2).bound_ctrl());
//   J.v_add_f32(r, x, r, {.dpp = dpp::row_bcast15().row_mask(0xa)});
//   J.v_mov_b32(t, s, sdwa().dst_sel(sdwa_sel::byte1).dst_unused(sdwa_unused::preserve));
//   J.v_cvt_f32_fp8(f, packed, sdwa().src0_sel(sdwa_sel::byte2));
//
// and in expressions: dpp_value(x, dpp::row_mirror()) is x read through the DPP control (one
// v_mov_b32_dpp into a new register; the helpers in lanes.hpp put the control on the ALU op
// itself instead).
//
// A control out of range (row_shr(0), row_shr(16), quad_perm(4, ...), a wave shift other than 1)
// is a compile error whose note names the call (the named constructors have no builder to
// report to, so they stop the constant evaluation: "non-constexpr function
// 'dpp_control_out_of_range_see_the_call_below'", then "in call to 'row_shr(16)'" at your line).
#pragma once
#include <cstdint>

#include "../builder.hpp"

namespace hipasm {

// A DPP control with its masks; builds the encoding llvm-mc prints back as the name.
struct dpp_ctrl {
  dpp_mods m{};
  // Rows (16 lanes) / banks (4 lanes of each row) whose lanes are written; 0xf: all.
  constexpr dpp_ctrl row_mask(unsigned rows) const {
    dpp_ctrl c = *this;
    c.m.row_mask = static_cast<uint8_t>(rows);
    return c;
  }
  constexpr dpp_ctrl bank_mask(unsigned banks) const {
    dpp_ctrl c = *this;
    c.m.bank_mask = static_cast<uint8_t>(banks);
    return c;
  }
  // bound_ctrl (llvm-mc's bound_ctrl:1, which it also reads as bound_ctrl:0): a lane whose
  // source lane is out of range or disabled reads 0; without it that lane is not written.
  constexpr dpp_ctrl bound_ctrl(bool on = true) const {
    dpp_ctrl c = *this;
    c.m.bound_ctrl = on;
    return c;
  }
  constexpr operator dpp_mods() const { return m; }  // NOLINT: {.dpp = dpp::row_shr(1)}
  constexpr operator modifiers() const {             // NOLINT: J.v_add_f32(d, a, b, dpp::...)
    modifiers x;
    x.dpp = m;
    return x;
  }
  constexpr uint16_t encoding() const { return m.ctrl; }
};

namespace dpp {
namespace detail {
// A control given out of range stops the kernel's constant evaluation here: clang reports this
// function's name as the reason and the user's call (dpp::row_shr(16)) in the note below it.
inline uint16_t dpp_control_out_of_range_see_the_call_below() { return 0x200; }
inline constexpr uint16_t invalid = 0x200;
constexpr dpp_ctrl make(uint16_t ctrl) {
  dpp_ctrl c;
  c.m.ctrl = ctrl == invalid ? dpp_control_out_of_range_see_the_call_below() : ctrl;
  return c;
}
constexpr dpp_ctrl shift(uint16_t base, int n) { return make(n >= 1 && n <= 15 ? static_cast<uint16_t>(base + n) : invalid); }
}  // namespace detail

// Lane i of each group of 4 reads lane (group + sel_i).
constexpr dpp_ctrl quad_perm(int s0, int s1, int s2, int s3) {
  bool ok = s0 >= 0 && s0 < 4 && s1 >= 0 && s1 < 4 && s2 >= 0 && s2 < 4 && s3 >= 0 && s3 < 4;
  return detail::make(ok ? static_cast<uint16_t>(s0 | s1 << 2 | s2 << 4 | s3 << 6) : detail::invalid);
}
// Within each row of 16: lane i reads lane i+n (shl), i-n (shr), (i-n) mod 16 (ror); n in 1..15.
constexpr dpp_ctrl row_shl(int n) { return detail::shift(0x100, n); }
constexpr dpp_ctrl row_shr(int n) { return detail::shift(0x110, n); }
constexpr dpp_ctrl row_ror(int n) { return detail::shift(0x120, n); }
// Whole wave by one lane: lane i reads i+1 (shl), i-1 (shr), rotating (rol/ror).
constexpr dpp_ctrl wave_shl(int n = 1) { return detail::make(n == 1 ? 0x130 : detail::invalid); }
constexpr dpp_ctrl wave_rol(int n = 1) { return detail::make(n == 1 ? 0x134 : detail::invalid); }
constexpr dpp_ctrl wave_shr(int n = 1) { return detail::make(n == 1 ? 0x138 : detail::invalid); }
constexpr dpp_ctrl wave_ror(int n = 1) { return detail::make(n == 1 ? 0x13c : detail::invalid); }
// Lane i of a row reads 15-i; of each half row (8 lanes) 7-i.
constexpr dpp_ctrl row_mirror() { return detail::make(0x140); }
constexpr dpp_ctrl row_half_mirror() { return detail::make(0x141); }
// Lane 15 of each row to every lane of the next row; lane 31 to rows 2 and 3 (use row_mask).
constexpr dpp_ctrl row_bcast15() { return detail::make(0x142); }
constexpr dpp_ctrl row_bcast31() { return detail::make(0x143); }
}  // namespace dpp

// SDWA operand selects (llvm-mc's BYTE_0..WORD_1, DWORD) and the unused destination bits.
enum class sdwa_sel : uint8_t { byte0, byte1, byte2, byte3, word0, word1, dword };
enum class sdwa_unused : uint8_t { pad, sext, preserve };

struct sdwa_ctrl {
  sdwa_mods m{.on = true};
  constexpr sdwa_ctrl dst_sel(sdwa_sel s) const {
    sdwa_ctrl c = *this;
    c.m.dst_sel = static_cast<uint8_t>(s);
    return c;
  }
  constexpr sdwa_ctrl dst_unused(sdwa_unused u) const {
    sdwa_ctrl c = *this;
    c.m.dst_unused = static_cast<uint8_t>(u);
    return c;
  }
  constexpr sdwa_ctrl src0_sel(sdwa_sel s) const {
    sdwa_ctrl c = *this;
    c.m.src0_sel = static_cast<uint8_t>(s);
    return c;
  }
  constexpr sdwa_ctrl src1_sel(sdwa_sel s) const {
    sdwa_ctrl c = *this;
    c.m.src1_sel = static_cast<uint8_t>(s);
    return c;
  }
  constexpr operator sdwa_mods() const { return m; }  // NOLINT
  constexpr operator modifiers() const {              // NOLINT
    modifiers x;
    x.sdwa = m;
    return x;
  }
};
// The SDWA form with every select at DWORD; chain the selects that differ.
constexpr sdwa_ctrl sdwa() { return sdwa_ctrl{}; }

// x read through a DPP control, as a new register: one v_mov_b32_dpp with bound_ctrl (a lane
// whose source lane is out of range or disabled reads 0), whatever the control says.
template <dtype T>
constexpr gpr<T> dpp_value(const gpr<T>& x, dpp_ctrl c, std::source_location l = std::source_location::current()) {
  HIPASM_DTYPE_ASSERT(dwords_of(T) == 1, T, "dpp_value takes a 32-bit register");
  builder& b = *x.b;
  src_loc sl = to_src_loc(l);
  detail::reg_ref d = b.new_reg(reg_class::vgpr, 1, 1, sl);
  const uint32_t block = b.cur_block(), first = b.cur_index();
  modifiers m = c.bound_ctrl();
  operand_arg args[2] = {gpr<T>(d), x};
  b.emit_ops(target_op::v_mov_b32, args, 2, m, sl);
  b.last_expr_ = {d.id, block, first, b.cur_index()};
  return gpr<T>(d);
}

}  // namespace hipasm

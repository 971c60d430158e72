// Buffer resources (V#) and typed buffer loads and stores.
//
//   auto A = make_buffer(J, a_ptr, n * 4);           // raw buffer: base, size in bytes
//   A.load(v4, voff + 64);                           // buffer_load_dwordx4 .. offen offset:64
//   A.load(h, voff, {.width = narrow::u16});         // buffer_load_ushort
//   A.store(v4, voff + 8192);                        // offset:0 and 8192 in soffset
//   A.load_lds(lds_dst, voff);                       // buffer_load_dword .. lds (M0 set up)
//   A.load_lds_x4(lds_dst, voff);                    // buffer_load_dwordx4 .. lds (has_lds_dma_x4)
//   A.advance(s_bytes);                              // base += bytes, num_records -= bytes
//   A.shift_base(s_bytes);                           // base += bytes (a same-sized view further on)
//   std::array<buffer, 3> Bs{};  Bs[i] = make_buffer(J, p[i], n); // `=` rebinds the handle
//
// A V# is four SGPRs: base[47:0] and stride[61:48] in dwords 0-1, num_records in dword 2,
// dword 3 the format/flags word. The default dword 3, 0x00020000 (DATA_FORMAT 32, what AMD's
// gfx942 asm kernels use), is right for raw (offset) and structured (index) access; a
// DATA_FORMAT of 0 would make every access out of range.
//
// TAIL TILES: out-of-range accesses are defined. A raw buffer checks each dword of an access
// on its own: offset + 4k + 4 <= num_records, where offset = voffset + soffset + offset: (a
// sub-dword access: the whole element); a structured one (stride and an index) checks
// index < num_records. A load out of range returns 0, a store out of range writes nothing.
// So a kernel whose tiles overhang the end of a tensor loads and stores whole tiles with no
// branch: give the V# the tensor's exact size and the overhanging lanes read zeros and their
// stores are dropped (tests/helpers: buffer tail tile). hipasm-sim implements this check.
//
// Offsets are mem_offsets (mem_offset.hpp): VGPR terms go to voffset (offen), SGPR terms to
// soffset, and the constant to offset: when it fits its 12 bits; a larger constant keeps its
// low 12 bits there and puts the rest in soffset (one s_mov/s_add, wave-uniform), a negative
// one is added to the VGPR term (else the SGPR term). The hardware sums voffset, soffset and
// offset: exactly (no 32-bit wrap: docs/design.md "Memory offsets"), so the constant of an
// expression `x + c` is taken out of its add only when x + c provably does not wrap
// (mem_offset.hpp WRAPPING); `w + 8196` with w = lane * 4 - 8192 keeps its add.
#pragma once
#include <cstdint>
#include <source_location>

#include "../builder.hpp"
#include "emit_ctx.hpp"
#include "mem_offset.hpp"

namespace hipasm {

// Sub-dword accesses (buffer and LDS): the mnemonic's width and extension.
//   u8/i8/u16/i16: zero/sign-extended into a dword (stores: the low byte/short);
//   *_d16: into the low 16 bits, keeping the high half; *_d16_hi: into the high 16 bits,
//   keeping the low half (stores of *_d16_hi: from the high half).
enum class narrow : uint8_t { none, u8, i8, u16, i16, u8_d16, i8_d16, u16_d16, u8_d16_hi, i8_d16_hi, u16_d16_hi };

struct buffer_options {
  uint32_t stride = 0;          // bytes per record (structured access with an index); < 16384
  uint32_t dword3 = 0x00020000u;
};

// Per-access options.
struct mem_opts {
  narrow width = narrow::none;  // none: 1-4 dwords, from the register's width
  bool sc0 = false, sc1 = false, nt = false;
};

namespace detail {
constexpr O buffer_load_op(narrow w, uint16_t dwords, bool lds) {
  using enum narrow;
  if (lds) {
    switch (w) {
      case u8: return O::buffer_load_ubyte_lds;
      case i8: return O::buffer_load_sbyte_lds;
      case u16: return O::buffer_load_ushort_lds;
      case i16: return O::buffer_load_sshort_lds;
      case none: return dwords == 1 ? O::buffer_load_dword_lds : O{};
      default: return O{};
    }
  }
  switch (w) {
    case u8: return O::buffer_load_ubyte;
    case i8: return O::buffer_load_sbyte;
    case u16: return O::buffer_load_ushort;
    case i16: return O::buffer_load_sshort;
    case u8_d16: return O::buffer_load_ubyte_d16;
    case i8_d16: return O::buffer_load_sbyte_d16;
    case u16_d16: return O::buffer_load_short_d16;
    case u8_d16_hi: return O::buffer_load_ubyte_d16_hi;
    case i8_d16_hi: return O::buffer_load_sbyte_d16_hi;
    case u16_d16_hi: return O::buffer_load_short_d16_hi;
    case none: break;
  }
  switch (dwords) {
    case 1: return O::buffer_load_dword;
    case 2: return O::buffer_load_dwordx2;
    case 3: return O::buffer_load_dwordx3;
    case 4: return O::buffer_load_dwordx4;
    default: return O{};
  }
}
constexpr O buffer_store_op(narrow w, uint16_t dwords) {
  using enum narrow;
  switch (w) {
    case u8: case i8: case u8_d16: case i8_d16: return O::buffer_store_byte;
    case u16: case i16: case u16_d16: return O::buffer_store_short;
    case u8_d16_hi: case i8_d16_hi: return O::buffer_store_byte_d16_hi;
    case u16_d16_hi: return O::buffer_store_short_d16_hi;
    case none: break;
  }
  switch (dwords) {
    case 1: return O::buffer_store_dword;
    case 2: return O::buffer_store_dwordx2;
    case 3: return O::buffer_store_dwordx3;
    case 4: return O::buffer_store_dwordx4;
    default: return O{};
  }
}
constexpr bool fits_inline(int64_t v) { return v >= -16 && v <= 64; }
}  // namespace detail

// A buffer resource: the V# in four SGPRs, and how it was made (for advance()).
struct buffer {
  using O = target_op;
  gpr<dtype::u32> desc;   // 4 SGPRs, 4-aligned
  uint32_t stride = 0;

  constexpr builder& J() const { return *desc.b; }

  // A buffer is a handle to a V# (as a gpr is to registers): assignment makes this one name the
  // other's descriptor, with no instruction, also when this one was default-constructed (an
  // array element: std::array<buffer, N> B{}; B[i] = make_buffer(...)). gpr's `=` would copy
  // the descriptor's values instead, and into nothing for a default-constructed one (it did).
  // To copy the values into this V#'s registers: A.desc = B.desc.
  constexpr buffer& operator=(const buffer& o) {
    desc.rebind(o.desc);
    stride = o.stride;
    return *this;
  }

  // ---- loads and stores ----------------------------------------------------------------
  // dst: 1-4 dwords (any dtype) or one dword with a sub-dword width.
  template <dtype T>
  constexpr emitted load(const gpr<T>& dst, mem_offset off, mem_opts o = {},
                         std::source_location l = std::source_location::current()) const {
    return access(false, false, dst.to_operand(), off, mem_offset{}, nullptr, o, l);
  }
  template <dtype T>
  constexpr emitted load(const gpr<T>& dst, mem_offset off, mem_offset off2, mem_opts o = {},
                         std::source_location l = std::source_location::current()) const {
    return access(false, false, dst.to_operand(), off, off2, nullptr, o, l);
  }
  template <dtype T>
  constexpr emitted store(const gpr<T>& src, mem_offset off, mem_opts o = {},
                          std::source_location l = std::source_location::current()) const {
    return access(true, false, src.to_operand(), off, mem_offset{}, nullptr, o, l);
  }
  template <dtype T>
  constexpr emitted store(const gpr<T>& src, mem_offset off, mem_offset off2, mem_opts o = {},
                          std::source_location l = std::source_location::current()) const {
    return access(true, false, src.to_operand(), off, off2, nullptr, o, l);
  }
  // f32 atomic add of one dword (buffer_atomic_add_f32, no return): out of range is dropped
  // like a store. (A split-K GEMM's partial sums into a zeroed C.)
  constexpr emitted atomic_add_f32(const gpr<dtype::f32>& src, mem_offset off, mem_opts o = {},
                                   std::source_location l = std::source_location::current()) const {
    if (src.dwords() != 1 || o.width != narrow::none) {
      J().fail(to_src_loc(l), "buffer atomic_add_f32: one f32 dword");
      return {};
    }
    return access(true, false, src.to_operand(), off, mem_offset{}, nullptr, o, l, O::buffer_atomic_add_f32);
  }
  // Packed bf16 atomic add of one dword (buffer_atomic_pk_add_bf16, no return; gfx950): two
  // adjacent bf16 elements, out of range dropped like a store.
  constexpr emitted atomic_pk_add_bf16(const gpr<dtype::bf16x2>& src, mem_offset off, mem_opts o = {},
                                       std::source_location l = std::source_location::current()) const {
    if (o.width != narrow::none) {
      J().fail(to_src_loc(l), "buffer atomic_pk_add_bf16: one bf16x2 dword");
      return {};
    }
    constexpr int op = isa::find_instr("buffer_atomic_pk_add_bf16");
    if (op < 0) {
      J().fail(to_src_loc(l), "buffer atomic_pk_add_bf16: the target has no buffer_atomic_pk_add_bf16");
      return {};
    }
    return access(true, false, src.to_operand(), off, mem_offset{}, nullptr, o, l, static_cast<O>(op));
  }
  // Structured access: record `index` (a VGPR, idxen), plus a byte offset inside it.
  template <dtype T>
  constexpr emitted load_index(const gpr<T>& dst, const gpr<dtype::u32>& index, mem_offset off = 0,
                               mem_opts o = {}, std::source_location l = std::source_location::current()) const {
    operand ix = index.to_operand();
    return access(false, false, dst.to_operand(), off, mem_offset{}, &ix, o, l);
  }
  template <dtype T>
  constexpr emitted store_index(const gpr<T>& src, const gpr<dtype::u32>& index, mem_offset off = 0,
                                mem_opts o = {}, std::source_location l = std::source_location::current()) const {
    operand ix = index.to_operand();
    return access(true, false, src.to_operand(), off, mem_offset{}, &ix, o, l);
  }
  // Direct to LDS (LDS-DMA): each active lane's dword (or zero-/sign-extended byte/short)
  // goes to LDS byte address lds + 4 * lane. `lds` is wave-uniform: a constant (an
  // lds_ref's offset plus bytes) and/or an SGPR. M0 is set here (the hardware adds the
  // instruction's offset: to the LDS address too; M0 is set to compensate). Counts on
  // vmcnt; wait for it (vmcnt) before reading the LDS, then a barrier for other waves.
  constexpr emitted load_lds(mem_offset lds, mem_offset off, mem_opts o = {},
                             std::source_location l = std::source_location::current()) const {
    return access_lds(lds, off, mem_offset{}, o, l);
  }
  constexpr emitted load_lds(mem_offset lds, mem_offset off, mem_offset off2, mem_opts o = {},
                             std::source_location l = std::source_location::current()) const {
    return access_lds(lds, off, off2, o, l);
  }
  // 16 bytes a lane (buffer_load_dwordx4 ... lds, where the target has it: features().
  // has_lds_dma_x4): lane l's bytes go to LDS byte address lds + 16 * lane.
  constexpr emitted load_lds_x4(mem_offset lds, mem_offset off, mem_opts o = {},
                                std::source_location l = std::source_location::current()) const {
    return access_lds(lds, off, mem_offset{}, o, l, 4);
  }

  // ---- pointer arithmetic on the V# -------------------------------------------------------
  // base += bytes, num_records -= bytes (clamped at 0): the same memory, addressed from
  // `bytes` further on. `bytes` is wave-uniform (SGPR or constant), >= 0. On a strided
  // (structured) V# num_records counts records: `bytes` must be a constant multiple of the stride.
  constexpr void advance(const val<dtype::u32>& bytes, std::source_location l = std::source_location::current()) const {
    builder& b = J();
    src_loc sl = to_src_loc(l);
    if (bytes.x.is_reg(reg_class::vgpr) || bytes.x.is_reg(reg_class::agpr)) {
      b.fail(sl, "buffer advance(): the byte count must be wave-uniform (an SGPR or a constant)");
      return;
    }
    operand n = bytes.x.op;
    operand recs = n;
    if (stride) {
      if (!bytes.x.is_imm() || (n.value & 0xffffffffu) % stride) {
        b.fail(sl, "buffer advance() on a strided V#: the byte count must be a constant multiple of the stride (",
               static_cast<long long>(stride), ")");
        return;
      }
      recs = detail::imm_op((n.value & 0xffffffffu) / stride);
    }
    b.s_add_u32(desc[0], desc[0], detail::as_arg(n), no_modifiers, l);
    b.s_addc_u32(desc[1], desc[1], 0, no_modifiers, l);
    b.s_sub_u32(desc[2], desc[2], detail::as_arg(recs), no_modifiers, l);  // SCC: borrow
    b.s_cselect_b32(desc[2], 0, desc[2], no_modifiers, l);
  }
  // base += bytes, num_records unchanged: the same-sized view `bytes` further on (a row of a
  // tensor: make_buffer(J, ptr, row_bytes) then shift_base(row * row_bytes)).
  constexpr void shift_base(const val<dtype::u32>& bytes, std::source_location l = std::source_location::current()) const {
    builder& b = J();
    if (bytes.x.is_reg(reg_class::vgpr) || bytes.x.is_reg(reg_class::agpr)) {
      b.fail(to_src_loc(l), "buffer shift_base(): the byte count must be wave-uniform (an SGPR or a constant)");
      return;
    }
    b.s_add_u32(desc[0], desc[0], detail::as_arg(bytes.x.op), no_modifiers, l);
    b.s_addc_u32(desc[1], desc[1], 0, no_modifiers, l);
  }
  // A new base and size, same stride and flags.
  constexpr void rebase(const gpr<dtype::u64>& base, const val<dtype::u32>& num_records,
                        std::source_location l = std::source_location::current()) const {
    set_base(base, l);
    set_records(num_records, l);
  }
  constexpr void set_base(const gpr<dtype::u64>& base, std::source_location l = std::source_location::current()) const {
    builder& b = J();
    if (base.cls != reg_class::sgpr) {
      b.fail(to_src_loc(l), "a buffer's base address must be wave-uniform (an SGPR pair, e.g. a pointer argument)");
      return;
    }
    b.s_mov_b32(desc[0], base.lo(), no_modifiers, l);
    if (stride) b.s_or_b32(desc[1], base.hi(), static_cast<int64_t>(stride) << 16, no_modifiers, l);
    else b.s_mov_b32(desc[1], base.hi(), no_modifiers, l);
  }
  constexpr void set_records(const val<dtype::u32>& num_records, std::source_location l = std::source_location::current()) const {
    builder& b = J();
    if (num_records.x.is_reg(reg_class::vgpr) || num_records.x.is_reg(reg_class::agpr)) {
      b.fail(to_src_loc(l), "a buffer's size must be wave-uniform (an SGPR or a constant)");
      return;
    }
    b.s_mov_b32(desc[2], detail::as_arg(num_records.x.op), no_modifiers, l);
  }

  // ---- internals ----------------------------------------------------------------------------
  // The register operands and the offset: field for a mem_offset (+ a second one).
  struct placed {
    operand voff{}, soff{};
    int32_t imm = 0;
    bool ok = false;
  };
  constexpr placed place(mem_offset off, const mem_offset& off2, uint32_t max_imm, src_loc sl) const {
    builder& b = J();
    off += off2;
    placed p;
    detail::lower L{b, sl};
    operand v = off.vgpr_sum(b, sl);
    operand s = off.sgpr_sum(b, sl);
    int64_t c = off.c;
    if (c > 0xffffffffLL || c < -0x80000000LL) {
      b.fail(sl, "memory offset constant out of 32-bit range: ", static_cast<long long>(c));
      return p;
    }
    if (c < 0) {
      // Below the registers' value: added to the VGPR term (as the user's expression would),
      // else to the SGPR term.
      if (v.k != operand::kind::none) {
        detail::reg_ref t = L.tmp(reg_class::vgpr);
        L.valu2(O::v_add_u32, O::v_add_u32, true, detail::reg_op(t), detail::imm_op(static_cast<uint32_t>(c)), v);
        v = detail::reg_op(t);
      } else if (s.k != operand::kind::none) {
        detail::reg_ref t = L.tmp(reg_class::sgpr);
        L.e(O::s_add_u32, {detail::reg_op(t), s, detail::imm_op(static_cast<uint32_t>(c))});
        s = detail::reg_op(t);
      } else {
        b.fail(sl, "negative memory offset (", static_cast<long long>(c), ") with no register part");
        return p;
      }
      c = 0;
    }
    if (c > static_cast<int64_t>(max_imm)) {
      int64_t hi = c & ~static_cast<int64_t>(max_imm), lo = c & max_imm;  // max_imm: 2^k - 1
      if (s.k == operand::kind::none) {
        if (detail::fits_inline(hi)) {
          s = detail::imm_op(static_cast<uint32_t>(hi));
        } else {
          detail::reg_ref t = L.tmp(reg_class::sgpr);
          L.e(O::s_mov_b32, {detail::reg_op(t), detail::imm_op(static_cast<uint32_t>(hi))});
          s = detail::reg_op(t);
        }
      } else {
        detail::reg_ref t = L.tmp(reg_class::sgpr);
        L.e(O::s_add_u32, {detail::reg_op(t), s, detail::imm_op(static_cast<uint32_t>(hi))});
        s = detail::reg_op(t);
      }
      c = lo;
    }
    if (s.k == operand::kind::none) s = detail::imm_op(0);
    p.voff = v;
    p.soff = s;
    p.imm = static_cast<int32_t>(c);
    p.ok = true;
    return p;
  }

  constexpr emitted access(bool store, bool lds, operand data, const mem_offset& off, const mem_offset& off2,
                           const operand* index, const mem_opts& o, std::source_location l, O forced = O{}) const {
    builder& b = J();
    src_loc sl = to_src_loc(l);
    b.note_loc(sl);
    if (b.err.failed) return {};
    if (data.k != operand::kind::vreg || data.cls == reg_class::sgpr) {
      b.fail(sl, "buffer ", store ? "store" : "load", ": the data must be VGPRs or AGPRs");
      return {};
    }
    O op = forced != O{} ? forced
           : store       ? detail::buffer_store_op(o.width, data.dwords)
                         : detail::buffer_load_op(o.width, data.dwords, lds);
    if (op == O{} || (o.width != narrow::none && data.dwords != 1)) {
      b.fail(sl, "buffer ", store ? "store" : "load", " of ", static_cast<long long>(data.dwords),
             " dwords: 1 to 4 dwords, or one dword with a sub-dword width");
      return {};
    }
    placed p = place(off, off2, 4095, sl);
    if (!p.ok) return {};
    modifiers m;
    m.offset = p.imm;
    m.sc0 = o.sc0;
    m.sc1 = o.sc1;
    m.nt = o.nt;
    operand vaddr = p.voff;
    if (index) {
      if (index->k != operand::kind::vreg || index->cls != reg_class::vgpr) {
        b.fail(sl, "a buffer record index must be a VGPR");
        return {};
      }
      m.idxen = true;
      if (vaddr.k != operand::kind::none) {
        // idxen + offen: vaddr is the pair (index, offset)
        detail::lower L{b, sl};
        detail::reg_ref pair = L.tmp(reg_class::vgpr, 2);
        operand lo = detail::reg_op(pair), hi = detail::reg_op(pair);
        lo.dwords = hi.dwords = 1;
        hi.offset = 1;
        L.e(O::v_mov_b32, {lo, *index});
        L.e(O::v_mov_b32, {hi, vaddr});
        m.offen = true;
        vaddr = detail::reg_op(pair);
      } else {
        vaddr = *index;
      }
    } else {
      m.offen = vaddr.k != operand::kind::none;
    }
    return b.emit(op, {detail::as_arg(data), detail::as_arg(vaddr), desc, detail::as_arg(p.soff)}, m, l);
  }

  constexpr emitted access_lds(mem_offset lds, const mem_offset& off, const mem_offset& off2, const mem_opts& o,
                               std::source_location l, int dwords = 1) const {
    builder& b = J();
    src_loc sl = to_src_loc(l);
    b.note_loc(sl);
    if (b.err.failed) return {};
    O op = detail::buffer_load_op(o.width, 1, true);
    if (dwords == 4) {
      if (!detail::features().has_lds_dma_x4 || o.width != narrow::none) {
        b.fail(sl, "buffer load_lds_x4: 16-byte LDS-DMA needs a target that has it (", active_target::name,
               " has not) and no sub-dword width");
        return {};
      }
      op = detail::feature_op("buffer_load_dwordx4", isa::f_lds_dma);
    }
    if (op == O{}) {
      b.fail(sl, "buffer load_lds: one dword, or u8/i8/u16/i16 (no wider or d16 LDS-DMA here)");
      return {};
    }
    if (lds.has_vgpr()) {
      b.fail(sl, "buffer load_lds: the LDS address is wave-uniform (a constant and/or an SGPR), not a VGPR");
      return {};
    }
    // The instruction's offset: is added to both addresses: the constant it takes is
    // subtracted from M0. M0 must stay >= 0: the LDS address is M0[17:0] + offset: + 4 * lane
    // (CDNA3 ISA "Memory Buffer Load to LDS"), so a negative M0 is a far address, not a wrap.
    // A constant larger than the LDS address can be (its constant plus the least its SGPR
    // terms hold, value_range) goes to soffset instead.
    mem_offset g = off;
    g += off2;
    lds.fold_wrapping();  // the LDS address's own sums are exact modulo 2^32
    int64_t lds_lo = lds.c;
    for (const operand& t : lds.sterm)
      if (t.k != operand::kind::none)
        lds_lo += static_cast<int64_t>(detail::value_range{b}.of(t, b.cur_block(), b.cur_index(), 6).lo);
    uint32_t max_imm = 4095;
    if (g.c > 0 && (g.c & 4095) > lds_lo) max_imm = 0;
    placed p = place(g, mem_offset{}, max_imm, sl);
    if (!p.ok) return {};
    int64_t m0v = lds.c - p.imm;
    operand ls = lds.sgpr_sum(b, sl);
    operand M0 = m0.to_operand();
    detail::lower L{b, sl};
    if (ls.k != operand::kind::none) L.e(O::s_add_u32, {M0, ls, detail::imm_op(static_cast<uint32_t>(m0v))});
    else L.e(O::s_mov_b32, {M0, detail::imm_op(static_cast<uint32_t>(m0v))});
    modifiers m;
    m.offset = p.imm;
    m.offen = p.voff.k != operand::kind::none;
    m.sc0 = o.sc0;
    m.sc1 = o.sc1;
    m.nt = o.nt;
    m.lds = true;
    return b.emit(op, {detail::as_arg(p.voff), desc, detail::as_arg(p.soff)}, m, l);
  }
};

// A V# for `num_records` bytes at `base` (a pointer argument or any SGPR pair; the upper 16
// bits of a gfx942 address are 0). With a stride (structured access through load_index /
// store_index), num_records counts records: pass the record count.
constexpr buffer make_buffer(builder J, const gpr<dtype::u64>& base, const val<dtype::u32>& num_records,
                             buffer_options o = {}, std::source_location l = std::source_location::current()) {
  buffer r{J.sgpr<dtype::u32>(4, l).named("vdesc"), o.stride};
  if (o.stride >= (1u << 14)) {
    J.self()->fail(to_src_loc(l), "buffer stride must be below 16384 bytes (14 bits), got ", static_cast<long long>(o.stride));
    return r;
  }
  r.set_base(base, l);
  r.set_records(num_records, l);
  J.s_mov_b32(r.desc[3], static_cast<int64_t>(o.dword3), no_modifiers, l);
  return r;
}

}  // namespace hipasm

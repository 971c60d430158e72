// Breaks register arrays into the pieces really used: dwords that no operand touches are
// dropped, and dwords never accessed together become separate virtual registers, so the
// allocator places (and frees) each piece on its own. A piece keeps the array's name;
// its alignment is the strictest its accesses need (SGPR pairs even, SGPR quads at a
// multiple of 4, VGPR/AGPR tuples even). Entry-state registers are left whole.
#pragma once
#include "../vec.hpp"

#include "common.hpp"
#include "regalloc.hpp"

namespace hipasm {

constexpr bool split_registers(function& fn_, pass_error& err_) {
  function& fn = fn_;  // local aliases: see compute_liveness
  pass_error& err = err_;
  using namespace detail;
  const dword_map dm(fn);
  const uint32_t nd = dm.vreg_dwords;
  vec<uint8_t> used(nd, 0), joined(nd, 0);  // joined[d]: d and d+1 in one access
  // Raw pointers in the per-operand loops: a vec's operator[] is an interpreted call.
  const uint32_t* const dbase = dm.base.data();
  uint8_t* const used_p = used.data();
  uint8_t* const joined_p = joined.data();
  bool any_split_candidate = false;
  for (const vreg_info& v : fn.vregs)
    if (v.dwords > 1 && v.fixed < 0) any_split_candidate = true;
  if (!any_split_candidate) return true;
  for (const block& b : fn.blocks)
    for (const instr& in : b.instrs)
      for (int i = 0; i < in.num_operands; ++i) {
        const operand& o = in.ops[i];
        if (o.k != operand::kind::vreg) continue;
        const uint32_t f = dbase[o.value] + o.offset;
        for (uint32_t j = 0; j < o.dwords; ++j) {
          used_p[f + j] = 1;
          if (j + 1 < o.dwords) joined_p[f + j] = 1;
        }
      }
  // piece_of[d]: new vreg id of dword d; piece_off[d]: its offset inside that piece.
  vec<uint32_t> piece_of_(nd, ~0u);
  vec<uint16_t> piece_off_(nd, 0);
  uint32_t* const piece_of = piece_of_.data();
  uint16_t* const piece_off = piece_off_.data();
  const std::size_t old_count = fn.vregs.size();
  for (std::size_t v = 0; v < old_count; ++v) {
    const vreg_info vi = fn.vregs.data()[v];  // a copy: push_back below may move the array
    const uint32_t base = dbase[v];
    if (vi.dwords <= 1 || vi.fixed >= 0) {
      for (uint32_t j = 0; j < vi.dwords; ++j) {
        piece_of[base + j] = static_cast<uint32_t>(v);
        piece_off[base + j] = static_cast<uint16_t>(j);
      }
      continue;
    }
    bool first_piece = true;
    for (uint32_t j = 0; j < vi.dwords;) {
      if (!used_p[base + j]) {
        ++j;
        continue;
      }
      uint32_t e = j;
      while (e + 1 < vi.dwords && joined_p[base + e]) ++e;
      const uint16_t len = static_cast<uint16_t>(e - j + 1);
      uint32_t id;
      if (first_piece && j == 0 && len == vi.dwords) {
        id = static_cast<uint32_t>(v);  // used whole: unchanged
      } else {
        vreg_info p = vi;
        p.dwords = len;
        p.array_off = static_cast<uint16_t>(vi.array_off + j);  // (messages: acc[4..7])
        if (!vi.array_dwords) p.array_dwords = vi.dwords;
        p.align = (j % (vi.align ? vi.align : 1) == 0 && len == vi.dwords) ? vi.align : 1;
        if (vi.pinned >= 0) p.pinned = static_cast<int16_t>(vi.pinned + j);  // (gpr::pin: the piece's own register)
        if (vi.user_align > 1) {  // (gpr::aligned: what the piece's offset in the array implies)
          uint32_t a = vi.user_align;
          while (j % a) a >>= 1;
          p.user_align = static_cast<uint8_t>(a);
          if (p.align < a) p.align = static_cast<uint16_t>(a);
        }
        p.phys = -1;
        id = static_cast<uint32_t>(fn.vregs.size());
        fn.vregs.push_back(p);
      }
      first_piece = false;
      for (uint32_t k = j; k <= e; ++k) {
        piece_of[base + k] = id;
        piece_off[base + k] = static_cast<uint16_t>(k - j);
      }
      j = e + 1;
    }
  }
  vreg_info* const vregs = fn.vregs.data();  // (no vregs are added below)
  for (block& b : fn.blocks)
    for (instr& in : b.instrs)
      for (int i = 0; i < in.num_operands; ++i) {
        operand& o = in.ops[i];
        if (o.k != operand::kind::vreg) continue;
        const uint32_t f = dbase[o.value] + o.offset;
        const uint32_t id = piece_of[f];
        const uint16_t off = piece_off[f];
        vreg_info& p = vregs[id];
        const uint16_t need = class_alignment(p.cls, o.dwords);
        if (off % need != 0) {
          if (err.begin(in.loc))
            err.add("register slice of ").add_reg(p).add(" at dword ").add(static_cast<long long>(o.offset))
                .add(" (").add(static_cast<long long>(o.dwords)).add(" dwords) is not aligned to ")
                .add(static_cast<long long>(need)).add(" registers as ").add(class_name(p.cls))
                .add(" tuples must be");
          return false;
        }
        if (need > p.align) p.align = need;
        o.value = id;
        o.offset = off;
      }
  return true;
}

}  // namespace hipasm

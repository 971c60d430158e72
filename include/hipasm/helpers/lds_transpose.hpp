// Transposed MFMA operands from LDS: a tile stored with the MFMA's M (or N) index along the
// view's columns and K along its rows (a K-major operand copied as it is) read so that each
// lane holds consecutive K of one column, the layout the MFMA's A and B operands take.
//
//   auto a = J.vgpr<u32>(2);                        // 4 bf16 (or 8 fp8) of one column
//   load_transposed(J, Bt, a, k0, multiple_of(n0, 4));
//
// Each 16-lane group of the wave reads one block of 8 / elem_bytes rows x 16 columns whose
// top-left element is (row, col) (the same for the 16 lanes of a group; groups may differ):
// lane i of the group gets the elements (row + n, col + i), n = 0 .. 8 / elem_bytes - 1, packed
// from the low bits of dst (2 VGPRs). elem_bytes is 2 (f16/bf16) or 1 (fp8/i8); col must be a
// multiple of 8 / elem_bytes (multiple_of() for a register column). For the 16x16x16 bf16
// MFMA's A operand (lane l: row l % 16 of A, K 4 * (l / 16) .. + 3) from a [K][M] view:
// row = 4 * (lane / 16), col = m0.
//
// Emits, where the target has the transposing reads (features().has_ds_read_tr): one
// ds_read_b64_tr_b16 / ds_read_b64_tr_b8, lane s of a group addressing row + s / (16 / E),
// columns col + E * (s % (16 / E)) (E = 8 / elem_bytes elements: one 8-byte row piece); else
// one narrow read per element (ds_read_u16 / ds_read_u8, the rows' displacements in offset:),
// joined by v_lshl_or_b32 (one a dword for 16-bit elements, three for 8-bit). Either way the lane's position in its group is computed here (v_mbcnt, 2-3 VALU).
#pragma once
#include <cstdint>
#include <source_location>

#include "../builder.hpp"
#include "emit_ctx.hpp"
#include "lanes.hpp"
#include "lds.hpp"

namespace hipasm {

template <dtype T>
constexpr void load_transposed(builder J, const lds_view& V, const gpr<T>& dst, mem_offset row, mem_offset col,
                               std::source_location l = std::source_location::current()) {
  builder& b = *J.self();
  const src_loc sl = to_src_loc(l);
  b.note_loc(sl);
  if (b.err.failed) return;
  const uint32_t eb = V.L.elem_bytes;
  if (dst.cls == reg_class::sgpr || dst.dwords() != 2) {
    b.fail(sl, "load_transposed: the destination is 2 VGPRs (8 bytes a lane)");
    return;
  }
  if (eb != 1 && eb != 2) {
    b.fail(sl, "load_transposed: the view's elements must be 1 or 2 bytes, not ", static_cast<long long>(eb));
    return;
  }
  const uint32_t E = 8 / eb;  // elements a lane gets (rows of the block)
  if (col.c % E != 0 || (!col.constant() && col.mult % E != 0)) {
    b.fail(sl, "load_transposed: the column must be a multiple of ", static_cast<long long>(E),
           " (promise a register's with multiple_of(col, ", static_cast<long long>(E), "))");
    return;
  }
  const operand data = dst.to_operand();
  gpr<dtype::u32> lane16 = b.vgpr<dtype::u32>(l);
  lane16 = lane_id(J, l) & 15u;
  if (detail::features().has_ds_read_tr) {
    // source lane s: row + s / (16 / E), columns col + E * (s % (16 / E))
    const uint32_t per_row = 16 / E;
    gpr<dtype::u32> rr = b.vgpr<dtype::u32>(l), cc = b.vgpr<dtype::u32>(l);
    rr = lane16 >> static_cast<uint32_t>(detail::log2u(per_row));
    cc = (lane16 & (per_row - 1)) * E;
    const lds_addr a = V.addr(row + at(rr), col + multiple_of(cc, E), l);
    if (b.err.failed) return;
    operand reg{};
    int64_t k = 0;
    if (lds_view::address_operands(b, a, reg, k, sl) < 8) {
      b.fail(sl, "load_transposed: the 8-byte row pieces are not known to be 8-byte aligned (the view's base, "
                 "row stride and swizzle chunk must keep them so)");
      return;
    }
    const lds_view::ds_emit E8{&b, false, reg, k, l};
    E8.one(detail::feature_op(eb == 2 ? "ds_read_b64_tr_b16" : "ds_read_b64_tr_b8"), data, 0);
    return;
  }
  // lane i: (row + n, col + i) for every n, one narrow read each
  const lds_view Vl = V;  // (the lambda captures locals, never reference parameters)
  const lds_addr a = Vl.addr(row, col + at(lane16), l);
  if (b.err.failed) return;
  auto read = [&](const operand& part, uint32_t n, narrow w) {
    const mem_opts o{.width = w};
    Vl.access(b, false, part, Vl.displaced(b, a, static_cast<int32_t>(n), 0, eb, sl), o, l);
  };
  // (each element into its own register, joined after the wait: a d16 read merging into a
  // register with a load still pending is refused by the pipeline's wait check)
  using D = lds_view::ds_emit;
  gpr<dtype::u32> el = b.vgpr<dtype::u32>(static_cast<int>(E), l);
  const operand e = el.to_operand();
  for (uint32_t n = 0; n < E; ++n) read(D::dword(e, static_cast<uint16_t>(n), 1), n, eb == 2 ? narrow::u16 : narrow::u8);
  const operand all[1] = {e};
  b.wait_for_operands(all, 1, sl);
  detail::lower L{b, sl};
  auto join = [&](const operand& d, const operand& hi, uint32_t shift, const operand& lo) {
    L.e(detail::O::v_lshl_or_b32, {d, hi, detail::imm_op(shift), lo});
  };
  const uint32_t per_dword = 4 / eb;
  for (uint16_t d = 0; d < 2; ++d) {
    auto E_ = [&](uint32_t k) { return D::dword(e, static_cast<uint16_t>(d * per_dword + k), 1); };
    if (eb == 2) {
      join(D::dword(data, d, 1), E_(1), 16, E_(0));
    } else {  // (bytes 1 and 3 first onto 0 and 2, then the halves)
      const operand h = b.vgpr<dtype::u32>(2, l).to_operand();
      join(D::dword(h, 0, 1), E_(1), 8, E_(0));
      join(D::dword(h, 1, 1), E_(3), 8, E_(2));
      join(D::dword(data, d, 1), D::dword(h, 1, 1), 16, D::dword(h, 0, 1));
    }
  }
}

}  // namespace hipasm

// MFMA atoms as data (in the manner of CuTe's MMA traits): for each MFMA a target has, its
// shape M x N x K (x blocks), operand types, register counts and the lane layout of A, B and
// C/D, i.e. which lane and which element of the lane's registers holds which matrix element.
// The per-target lists are targets/<arch>/mfma_atoms.hpp; helpers/mfma.hpp looks atoms up in
// the active target and loads / stores fragments through them.
//
// A layout is two lists of modes, CuTe's thread-value layout written out: a lane index is
// split mixed-radix over the lane modes (first mode fastest), an element index over the
// element modes; each mode adds (its index) x stride to one coordinate. For A the
// coordinates are (row i, col k), for B (row k, col j), for C/D (row i, col j); `block` is
// the block of the multi-block shapes. An element's bits are at e x (element bits) of the
// lane's registers, packed from bit 0 of the first register up (4 bf16 in 2 VGPRs).
#pragma once
#include <cstdint>
#include <string_view>

namespace hipasm {

enum class mfma_type : uint8_t { f32, xf32, f16, bf16, i8, fp8, bf8, f8f6f4, f64, i32 };

constexpr std::string_view mfma_type_name(mfma_type t) {
  constexpr std::string_view n[] = {"f32", "xf32", "f16", "bf16", "i8", "fp8", "bf8", "f8f6f4", "f64", "i32"};
  return n[static_cast<int>(t)];
}
// Bits of one element in the registers; f8f6f4's is its widest format (fp8; fp6 packs 6 and
// fp4 4 bits: mfma_atom::operand_bits).
constexpr int mfma_type_bits(mfma_type t) {
  switch (t) {
    case mfma_type::f32: case mfma_type::xf32: case mfma_type::i32: return 32;
    case mfma_type::f16: case mfma_type::bf16: return 16;
    case mfma_type::f64: return 64;
    default: return 8;
  }
}

enum class mfma_dim : uint8_t { row, col, block };

struct mfma_mode {
  uint8_t size = 1;
  mfma_dim dim = mfma_dim::row;
  uint8_t stride = 0;
};

struct mfma_coord {
  int row = 0, col = 0, block = 0;
  constexpr bool operator==(const mfma_coord&) const = default;
};
struct mfma_place {
  int lane = -1, elem = -1;  // -1: no lane holds the coordinate
};

// A lane mode as bit arithmetic on the lane index (mode sizes are powers of two): the mode's
// index is (lane >> shift) & mask, and it adds index x stride to its coordinate. What kernels
// write for a layout (`lane & f.mask`, `(lane >> f.shift) * f.stride`): plain integers, so the
// expressions and their instructions are the ones a kernel spelling out `lane & 31` gets.
struct mfma_lane_field {
  uint32_t mask = 0, shift = 0, stride = 0;
  constexpr uint32_t size() const { return mask + 1; }  // the mode's lane groups along it
};

struct mfma_layout {
  mfma_mode lane[3]{};
  mfma_mode elem[3]{};

  // The first lane mode along `d` (a zero field when no lane mode moves along d).
  constexpr mfma_lane_field lane_field(mfma_dim d) const {
    uint32_t shift = 0;
    for (const mfma_mode& m : lane) {
      if (m.size > 1 && m.dim == d) return {m.size - 1u, shift, m.stride};
      for (uint32_t s = m.size; s > 1; s >>= 1) ++shift;
    }
    return {};
  }

  static constexpr void add(mfma_coord& c, const mfma_mode& m, int idx) {
    const int v = idx * m.stride;
    if (m.dim == mfma_dim::row) c.row += v;
    else if (m.dim == mfma_dim::col) c.col += v;
    else c.block += v;
  }
  static constexpr int part(const mfma_coord& c, const mfma_mode& m) {
    const int v = m.dim == mfma_dim::row ? c.row : m.dim == mfma_dim::col ? c.col : c.block;
    return (v / (m.stride ? m.stride : 1)) % m.size;
  }
  // Elements a lane holds (its registers' worth of the operand).
  constexpr int elems() const { return elem[0].size * elem[1].size * elem[2].size; }
  // (lane, element) -> the coordinate it holds.
  constexpr mfma_coord coord(int l, int e) const {
    mfma_coord c;
    for (const mfma_mode& m : lane) {
      add(c, m, l % m.size);
      l /= m.size;
    }
    for (const mfma_mode& m : elem) {
      add(c, m, e % m.size);
      e /= m.size;
    }
    return c;
  }
  // The inverse: which lane and element hold (row, col, block).
  constexpr mfma_place place(mfma_coord c) const {
    int l = 0, e = 0, lm = 1, em = 1;
    for (const mfma_mode& m : lane) {
      l += part(c, m) * lm;
      lm *= m.size;
    }
    for (const mfma_mode& m : elem) {
      e += part(c, m) * em;
      em *= m.size;
    }
    if (l >= 64 || !(coord(l, e) == c)) return {};
    return {l, e};
  }
};

// A / B of an M (or N) x K operand over `blocks` blocks: lane l holds row (col) l % MN of block
// (l / MN) % blocks, and `per_lane` consecutive k from per_lane x (l / (MN x blocks)) (AMD's
// MAI register mapping, CDNA3/CDNA4 ISA guides; the matrix instruction calculator's).
constexpr mfma_layout mfma_ab_layout(bool is_a, int mn, int k, int blocks) {
  const int per_lane = k * mn * blocks / 64;
  const mfma_dim own = is_a ? mfma_dim::row : mfma_dim::col, kd = is_a ? mfma_dim::col : mfma_dim::row;
  mfma_layout L;
  L.lane[0] = {static_cast<uint8_t>(mn), own, 1};
  L.lane[1] = {static_cast<uint8_t>(blocks), mfma_dim::block, 1};
  L.lane[2] = {static_cast<uint8_t>(64 / (mn * blocks)), kd, static_cast<uint8_t>(per_lane)};
  L.elem[0] = {static_cast<uint8_t>(per_lane), kd, 1};
  return L;
}

// gfx950's f8f6f4 MFMAs with an FP8 / BF8 operand (cbsz / blgp 0 or 1): the 32 bytes of a lane
// are two runs of 16 consecutive k, the lane group g = l / MN holding k = 16 g + (0..15) in its
// first 16 bytes and K / 2 + 16 g + (0..15) in the next 16 (CDNA4 ISA guide, 7.1.5.1 "Dense
// Matrix Layouts: 8-bit and Smaller", FP8 tables). FP6 and FP4 operands are mfma_ab_layout's:
// 32 consecutive k a lane. (Each 32-k scale block is so spread over every lane group; its scale
// is still the lane of its row and k block: mfma_atom::scaled.)
constexpr mfma_layout mfma_ab_layout_f8(bool is_a, int mn, int k) {
  const mfma_dim own = is_a ? mfma_dim::row : mfma_dim::col, kd = is_a ? mfma_dim::col : mfma_dim::row;
  mfma_layout L;
  L.lane[0] = {static_cast<uint8_t>(mn), own, 1};
  L.lane[1] = {static_cast<uint8_t>(64 / mn), kd, 16};
  L.elem[0] = {16, kd, 1};
  L.elem[1] = {2, kd, static_cast<uint8_t>(k / 2)};
  return L;
}

// C/D layouts, written out per shape (32-bit results: 4-row groups of N lanes; 64-bit: rows).
namespace mfma_c {
using D = mfma_dim;
// 32x32 (and 32x32 x2 blocks): lane -> col + 32 x (4-row group parity); element -> row % 4,
// then the group of 8 rows, then the block.
inline constexpr mfma_layout c32x32{{{32, D::col, 1}, {2, D::row, 4}, {}}, {{4, D::row, 1}, {4, D::row, 8}, {}}};
inline constexpr mfma_layout c32x32_2b{{{32, D::col, 1}, {2, D::row, 4}, {}},
                                       {{4, D::row, 1}, {4, D::row, 8}, {2, D::block, 1}}};
inline constexpr mfma_layout c16x16{{{16, D::col, 1}, {4, D::row, 4}, {}}, {{4, D::row, 1}, {}, {}}};
inline constexpr mfma_layout c16x16_4b{{{16, D::col, 1}, {4, D::row, 4}, {}}, {{4, D::row, 1}, {4, D::block, 1}, {}}};
inline constexpr mfma_layout c4x4_16b{{{4, D::col, 1}, {16, D::block, 1}, {}}, {{4, D::row, 1}, {}, {}}};
// f64 results, one row a lane group: 16x16 (4 rows of 16 lanes, 4 elements stepping 4 rows) and
// 4x4 x4 blocks (one element a lane).
inline constexpr mfma_layout c16x16_f64{{{16, D::col, 1}, {4, D::row, 1}, {}}, {{4, D::row, 4}, {}, {}}};
inline constexpr mfma_layout c4x4_4b_f64{{{4, D::col, 1}, {4, D::block, 1}, {4, D::row, 1}}, {}};
}  // namespace mfma_c

struct mfma_atom {
  std::string_view name;  // the mnemonic
  uint16_t op;            // the active target's op enumerator (target_op)
  uint8_t m, n, k, blocks;
  mfma_type a, b, c;      // c: the accumulator and result type
  mfma_layout la, lb, lc;
  // v_mfma_scale_*: two more sources, E8M0 scales; lane l's scale byte scales the A (B)
  // elements of row (column) l % M and k block l / M (32 k: the MX block scale), wherever the
  // layout puts them (CDNA4 ISA guide, 7.2.1).
  bool scaled = false;

  // Bits of one A (which = 0) or B (1) element: f8f6f4 by format code (cbsz for A, blgp for
  // B: 0,1 fp8/bf8, 2,3 fp6, 4 fp4).
  constexpr int operand_bits(int which, int format = 0) const {
    const mfma_type t = which == 0 ? a : b;
    if (t != mfma_type::f8f6f4) return mfma_type_bits(t);
    return format <= 1 ? 8 : format <= 3 ? 6 : 4;
  }
  // The A (which = 0) or B layout for an f8f6f4 format code: la / lb are fp8's (format 0, 1),
  // fp6 and fp4 (2..4) hold 32 consecutive k a lane. Other atoms: la / lb.
  constexpr mfma_layout ab_layout(int which, int format = 0) const {
    const bool f8f6f4 = (which == 0 ? a : b) == mfma_type::f8f6f4;
    if (f8f6f4 && format >= 2) return mfma_ab_layout(which == 0, which == 0 ? m : n, k, blocks);
    return which == 0 ? la : lb;
  }
  constexpr int a_elems() const { return la.elems(); }
  constexpr int b_elems() const { return lb.elems(); }
  constexpr int c_elems() const { return lc.elems(); }
  // Registers (dwords) of each operand a lane holds.
  constexpr int a_regs(int format = 0) const { return (a_elems() * operand_bits(0, format) + 31) / 32; }
  constexpr int b_regs(int format = 0) const { return (b_elems() * operand_bits(1, format) + 31) / 32; }
  constexpr int c_regs() const { return c_elems() * mfma_type_bits(c) / 32; }
  // The lane fields of the layouts (mfma_lane_field): A's row i and k group, B's column j and
  // k group, C/D's row group and column.
  constexpr mfma_lane_field a_row() const { return la.lane_field(mfma_dim::row); }
  constexpr mfma_lane_field a_k(int format = 0) const { return ab_layout(0, format).lane_field(mfma_dim::col); }
  constexpr mfma_lane_field b_col() const { return lb.lane_field(mfma_dim::col); }
  constexpr mfma_lane_field b_k(int format = 0) const { return ab_layout(1, format).lane_field(mfma_dim::row); }
  constexpr mfma_lane_field c_row() const { return lc.lane_field(mfma_dim::row); }
  constexpr mfma_lane_field c_col() const { return lc.lane_field(mfma_dim::col); }
};

}  // namespace hipasm

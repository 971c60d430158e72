// VALU integer and bit semantics (VOP1/VOP2/VOP3 forms share a handler; the decoder gives
// the same mnemonic without _e32/_e64/_dpp/_sdwa). Shifts "rev" take the amount in src0.
#include <climits>

#include "exec_valu_common.hpp"

namespace hipasm::sim::detail {
namespace {

constexpr SrcType B32 = SrcType::B32, B16 = SrcType::B16, B64 = SrcType::B64, F32s = SrcType::F32;

template <class F> void op1(Wave& w, const Inst& in, F f) { valu32<1>(w, in, {B32}, DstType::B32, f); }
template <class F> void op2(Wave& w, const Inst& in, F f) { valu32<2>(w, in, {B32, B32}, DstType::B32, f); }
template <class F> void op3(Wave& w, const Inst& in, F f) {
  valu32<3>(w, in, {B32, B32, B32}, DstType::B32, f);
}
// 16-bit ops: sources are the low (or op_sel-selected) halves.
template <class F> void op2_16(Wave& w, const Inst& in, DstType dt, F f) {
  valu32<2>(w, in, {B16, B16}, dt, [&](uint32_t a, uint32_t b) { return f(uint16_t(a), uint16_t(b)); });
}
template <class F> void op3_16(Wave& w, const Inst& in, DstType dt, F f) {
  valu32<3>(w, in, {B16, B16, B16}, dt,
            [&](uint32_t a, uint32_t b, uint32_t c) { return f(uint16_t(a), uint16_t(b), uint16_t(c)); });
}

// Carry-producing ops: f(a, b, carry_in) -> {result, carry_out}. Carry-in (if any) is the
// last source (VCC or an SGPR pair); carry-out goes to dst[1].
template <int N, class F>
void carry_op(Wave& w, const Inst& in, F f) {
  Sources s;
  static constexpr SrcType t[3] = {SrcType::B32, SrcType::B32, SrcType::B32};
  gather(w, in, 2, t, s);
  const uint64_t cin = N == 3 ? read_scalar64(w, in.src[2]) : 0;
  alignas(64) uint32_t res[kLanes];
  uint64_t cout = 0;
  const uint32_t *a = s.p[0][0], *b = s.p[1][0];
  for_lanes(s.mask, [&](int l) {
    auto [r, c] = f(a[l], b[l], uint32_t((cin >> l) & 1));
    res[l] = r;
    cout |= uint64_t(c) << l;
  });
  write_dst32(w, in, s.mask, DstType::B32, res);
  write_mask_dst(w, mask_dst(in, 1), cout);
  w.lane_ops += std::popcount(s.mask);
}

struct RC {
  uint32_t r;
  bool c;
};

inline uint32_t sat_u32(uint64_t v) { return v > 0xffffffffull ? 0xffffffffu : uint32_t(v); }
inline uint32_t sat_i32(int64_t v) {
  return uint32_t(int32_t(v > INT32_MAX ? INT32_MAX : (v < INT32_MIN ? INT32_MIN : v)));
}
inline int32_t sext24(uint32_t v) { return int32_t(v << 8) >> 8; }

inline uint32_t bfe_u(uint32_t v, uint32_t off, uint32_t width) {
  off &= 31;
  width &= 31;
  if (width == 0) return 0;
  return (v >> off) & ((1u << width) - 1);
}
inline uint32_t bfe_i(uint32_t v, uint32_t off, uint32_t width) {
  off &= 31;
  width &= 31;
  if (width == 0) return 0;
  uint32_t f = uint32_t(int32_t(v) >> off) & ((1u << width) - 1);
  return uint32_t(int32_t(f << (32 - width)) >> (32 - width));
}
inline uint32_t perm_b32(uint32_t s0, uint32_t s1, uint32_t sel) {
  uint64_t in = (uint64_t(s0) << 32) | s1;
  uint32_t r = 0;
  for (int i = 0; i < 4; ++i) {
    uint32_t k = (sel >> (8 * i)) & 0xff, byte;
    if (k <= 7) byte = uint32_t(in >> (8 * k)) & 0xff;
    else if (k <= 11) byte = ((in >> (16 * (k - 8) + 15)) & 1) ? 0xff : 0x00;
    else if (k == 12) byte = 0;
    else byte = 0xff;
    r |= byte << (8 * i);
  }
  return r;
}
template <class T> T med3(T a, T b, T c) { return std::max(std::min(a, b), std::min(std::max(a, b), c)); }

inline uint32_t msad_u8(uint32_t a, uint32_t b) {  // bytes of the reference (b) equal to 0 skipped
  uint32_t s = 0;
  for (int i = 0; i < 4; ++i) {
    int x = (a >> (8 * i)) & 0xff, y = (b >> (8 * i)) & 0xff;
    if (y) s += uint32_t(x > y ? x - y : y - x);
  }
  return s;
}
// v_qsad_pk_u16_u8 / v_mqsad_pk_u16_u8 / v_mqsad_u32_u8: the SAD of S1 against the four
// byte-offset windows of the 64-bit S0, each added to its slot of S2.
template <bool Masked, int Width>
void quad_sad(Wave& w, const Inst& in) {
  Sources s;
  static constexpr SrcType t[2] = {SrcType::B64, SrcType::B32};
  gather(w, in, 2, t, s);
  const int nd = Width == 16 ? 2 : 4;  // destination / S2 dwords
  const Operand& c = in.src[2];
  if (!in.dst[0].is_vector()) fail(in, "destination is not a vector register tuple");
  alignas(64) uint32_t res[4][kLanes];
  for_lanes(s.mask, [&](int l) {
    uint64_t a = s.p[0][0][l] | (uint64_t(s.p[0][1][l]) << 32);
    uint32_t b = s.p[1][0][l];
    uint32_t acc[4];
    for (int d = 0; d < nd; ++d) acc[d] = read_u32(w, c, l, d);
    for (int q = 0; q < 4; ++q) {
      uint32_t window = uint32_t(a >> (8 * q));
      uint32_t sad = Masked ? msad_u8(window, b) : [&] {
        uint32_t x = 0;
        for (int i = 0; i < 4; ++i) {
          int p = (window >> (8 * i)) & 0xff, r = (b >> (8 * i)) & 0xff;
          x += uint32_t(p > r ? p - r : r - p);
        }
        return x;
      }();
      if (Width == 16) {
        uint32_t prev = (acc[q / 2] >> (16 * (q % 2))) & 0xffffu;
        uint32_t v = (prev + sad) & 0xffffu;
        res[q / 2][l] = (q % 2 ? res[q / 2][l] : 0u) | (v << (16 * (q % 2)));
      } else {
        res[q][l] = acc[q] + sad;
      }
    }
  });
  for (int d = 0; d < nd; ++d) {
    uint32_t* out = vec_ptr(w, in.dst[0], d);
    for_lanes(s.mask, [&](int l) { out[l] = res[d][l]; });
  }
  w.lane_ops += std::popcount(s.mask);
}

inline uint32_t sad_u8(uint32_t a, uint32_t b) {
  uint32_t s = 0;
  for (int i = 0; i < 4; ++i) {
    int x = (a >> (8 * i)) & 0xff, y = (b >> (8 * i)) & 0xff;
    s += uint32_t(x > y ? x - y : y - x);
  }
  return s;
}

// v_screen_partition_4se_b32: D = TABLE[S0[7:0]], the 256-entry table of the Vega ISA guide
// (VOP1 opcode 55): the 4-bit mask of shader engines a rectangle covers, indexed by
// {x_min[6:5], y_min[6:5], x_max[6:5], y_max[6:5]} of its 32-pixel tiles.
constexpr uint8_t kScreenPartition4se[256] = {
    0x1, 0x3, 0x7, 0xf, 0x5, 0xf, 0xf, 0xf, 0x7, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0x2, 0x6, 0xe, 0xf, 0xa, 0xf, 0xf, 0xf, 0xb, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf,
    0xd, 0xf, 0x4, 0xc, 0xf, 0xf, 0x5, 0xf, 0xf, 0xf, 0xd, 0xf, 0xf, 0xf, 0xf, 0xf, 0x9, 0xb, 0xf, 0x8, 0xf, 0xf, 0xf, 0xa, 0xf, 0xf, 0xf, 0xe, 0xf, 0xf, 0xf, 0xf,
    0xf, 0xf, 0xf, 0xf, 0x4, 0xc, 0xd, 0xf, 0x6, 0xf, 0xf, 0xf, 0xe, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0x8, 0x9, 0xb, 0xf, 0x9, 0x9, 0xf, 0xf, 0xd, 0xf, 0xf,
    0xf, 0xf, 0xf, 0xf, 0x7, 0xf, 0x1, 0x3, 0xf, 0xf, 0x9, 0xf, 0xf, 0xf, 0xb, 0xf, 0xf, 0xf, 0xf, 0xf, 0x6, 0xe, 0xf, 0x2, 0x6, 0xf, 0xf, 0x6, 0xf, 0xf, 0xf, 0x7,
    0xb, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0x2, 0x3, 0xb, 0xf, 0xa, 0xf, 0xf, 0xf, 0xf, 0x7, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0x1, 0x9, 0xd, 0xf, 0x5, 0xf, 0xf,
    0xf, 0xf, 0xe, 0xf, 0xf, 0xf, 0xf, 0xf, 0xe, 0xf, 0x8, 0xc, 0xf, 0xf, 0xa, 0xf, 0xf, 0xf, 0xf, 0xd, 0xf, 0xf, 0xf, 0xf, 0x6, 0x7, 0xf, 0x4, 0xf, 0xf, 0xf, 0x5,
    0x9, 0xf, 0xf, 0xf, 0xd, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0x8, 0xc, 0xe, 0xf, 0xf, 0x6, 0x6, 0xf, 0xf, 0xe, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0x4, 0x6, 0x7,
    0xf, 0xf, 0x6, 0xf, 0xf, 0xf, 0x7, 0xf, 0xf, 0xf, 0xf, 0xf, 0xb, 0xf, 0x2, 0x3, 0x9, 0xf, 0xf, 0x9, 0xf, 0xf, 0xf, 0xb, 0xf, 0xf, 0xf, 0xf, 0x9, 0xd, 0xf, 0x1,
};

#define H(...) [](Wave& w, const Inst& in) { __VA_ARGS__; }

const Registrar reg_int({
    {"v_nop", H((void)w; (void)in)},
    {"v_mov_b32", H(valu32<1>(w, in, {F32s}, DstType::B32, [](uint32_t a) { return a; }))},
    {"v_mov_b64", H(valu64<1>(w, in, {B64}, DstType::B64, [](uint64_t a) { return a; }))},
    {"v_cndmask_b32", H({
       // src2 (or the implicit vcc) selects src1 where set. Float modifiers allowed in VOP3.
       const uint64_t sel = in.num_src > 2 ? read_scalar64(w, in.src[2]) : w.vcc;
       Sources s;
       static constexpr SrcType t[2] = {SrcType::F32, SrcType::F32};
       gather(w, in, 2, t, s);
       alignas(64) uint32_t res[kLanes];
       for_lanes(s.mask, [&](int l) { res[l] = ((sel >> l) & 1) ? s.p[1][0][l] : s.p[0][0][l]; });
       write_dst32(w, in, s.mask, DstType::B32, res);
       w.lane_ops += std::popcount(s.mask);
     })},
    // ---- add/sub
    {"v_add_u32", H(op2(w, in, [&](uint32_t a, uint32_t b) {
       return in.mod.clamp ? sat_u32(uint64_t(a) + b) : a + b; }))},
    {"v_sub_u32", H(op2(w, in, [&](uint32_t a, uint32_t b) {
       return in.mod.clamp ? (a < b ? 0u : a - b) : a - b; }))},
    {"v_subrev_u32", H(op2(w, in, [&](uint32_t a, uint32_t b) {
       return in.mod.clamp ? (b < a ? 0u : b - a) : b - a; }))},
    {"v_add_i32", H(op2(w, in, [&](uint32_t a, uint32_t b) {
       return in.mod.clamp ? sat_i32(int64_t(int32_t(a)) + int32_t(b)) : a + b; }))},
    {"v_sub_i32", H(op2(w, in, [&](uint32_t a, uint32_t b) {
       return in.mod.clamp ? sat_i32(int64_t(int32_t(a)) - int32_t(b)) : a - b; }))},
    {"v_add_co_u32", H(carry_op<2>(w, in, [&](uint32_t a, uint32_t b, uint32_t) {
       uint64_t r = uint64_t(a) + b;
       return RC{in.mod.clamp ? sat_u32(r) : uint32_t(r), r > 0xffffffffull}; }))},
    {"v_sub_co_u32", H(carry_op<2>(w, in, [&](uint32_t a, uint32_t b, uint32_t) {
       return RC{in.mod.clamp && b > a ? 0u : a - b, b > a}; }))},
    {"v_subrev_co_u32", H(carry_op<2>(w, in, [&](uint32_t a, uint32_t b, uint32_t) {
       return RC{in.mod.clamp && a > b ? 0u : b - a, a > b}; }))},
    {"v_addc_co_u32", H(carry_op<3>(w, in, [&](uint32_t a, uint32_t b, uint32_t c) {
       uint64_t r = uint64_t(a) + b + c;
       return RC{in.mod.clamp ? sat_u32(r) : uint32_t(r), r > 0xffffffffull}; }))},
    {"v_subb_co_u32", H(carry_op<3>(w, in, [&](uint32_t a, uint32_t b, uint32_t c) {
       uint64_t sub = uint64_t(b) + c;
       return RC{in.mod.clamp && sub > a ? 0u : uint32_t(a - sub), sub > a}; }))},
    {"v_subbrev_co_u32", H(carry_op<3>(w, in, [&](uint32_t a, uint32_t b, uint32_t c) {
       uint64_t sub = uint64_t(a) + c;
       return RC{in.mod.clamp && sub > b ? 0u : uint32_t(b - sub), sub > b}; }))},
    {"v_add3_u32", H(op3(w, in, [](uint32_t a, uint32_t b, uint32_t c) { return a + b + c; }))},
    {"v_xad_u32", H(op3(w, in, [](uint32_t a, uint32_t b, uint32_t c) { return (a ^ b) + c; }))},
    {"v_lshl_add_u32", H(op3(w, in, [](uint32_t a, uint32_t b, uint32_t c) { return (a << (b & 31)) + c; }))},
    {"v_add_lshl_u32", H(op3(w, in, [](uint32_t a, uint32_t b, uint32_t c) { return (a + b) << (c & 31); }))},
    {"v_lshl_or_b32", H(op3(w, in, [](uint32_t a, uint32_t b, uint32_t c) { return (a << (b & 31)) | c; }))},
    {"v_and_or_b32", H(op3(w, in, [](uint32_t a, uint32_t b, uint32_t c) { return (a & b) | c; }))},
    {"v_or3_b32", H(op3(w, in, [](uint32_t a, uint32_t b, uint32_t c) { return a | b | c; }))},
    // ---- 16-bit add/sub/mul/shift/min/max
    {"v_add_u16", H(op2_16(w, in, DstType::B16Zero, [&](uint16_t a, uint16_t b) -> uint32_t {
       uint32_t r = uint32_t(a) + b; return in.mod.clamp && r > 0xffff ? 0xffffu : r & 0xffffu; }))},
    {"v_sub_u16", H(op2_16(w, in, DstType::B16Zero, [&](uint16_t a, uint16_t b) -> uint32_t {
       return in.mod.clamp && b > a ? 0u : uint32_t(uint16_t(a - b)); }))},
    {"v_subrev_u16", H(op2_16(w, in, DstType::B16Zero, [&](uint16_t a, uint16_t b) -> uint32_t {
       return in.mod.clamp && a > b ? 0u : uint32_t(uint16_t(b - a)); }))},
    {"v_add_i16", H(op2_16(w, in, DstType::B16Keep, [&](uint16_t a, uint16_t b) -> uint32_t {
       int32_t r = int16_t(a) + int16_t(b);
       if (in.mod.clamp) r = std::clamp(r, -32768, 32767);
       return uint16_t(r); }))},
    {"v_sub_i16", H(op2_16(w, in, DstType::B16Keep, [&](uint16_t a, uint16_t b) -> uint32_t {
       int32_t r = int16_t(a) - int16_t(b);
       if (in.mod.clamp) r = std::clamp(r, -32768, 32767);
       return uint16_t(r); }))},
    {"v_mul_lo_u16", H(op2_16(w, in, DstType::B16Zero, [](uint16_t a, uint16_t b) -> uint32_t {
       return uint16_t(uint32_t(a) * b); }))},
    {"v_lshlrev_b16", H(op2_16(w, in, DstType::B16Zero, [](uint16_t a, uint16_t b) -> uint32_t {
       return uint16_t(b << (a & 15)); }))},
    {"v_lshrrev_b16", H(op2_16(w, in, DstType::B16Zero, [](uint16_t a, uint16_t b) -> uint32_t {
       return uint16_t(b >> (a & 15)); }))},
    {"v_ashrrev_i16", H(op2_16(w, in, DstType::B16Zero, [](uint16_t a, uint16_t b) -> uint32_t {
       return uint16_t(int16_t(b) >> (a & 15)); }))},
    {"v_max_u16", H(op2_16(w, in, DstType::B16Zero, [](uint16_t a, uint16_t b) -> uint32_t { return std::max(a, b); }))},
    {"v_min_u16", H(op2_16(w, in, DstType::B16Zero, [](uint16_t a, uint16_t b) -> uint32_t { return std::min(a, b); }))},
    {"v_max_i16", H(op2_16(w, in, DstType::B16Zero, [](uint16_t a, uint16_t b) -> uint32_t {
       return uint16_t(std::max(int16_t(a), int16_t(b))); }))},
    {"v_min_i16", H(op2_16(w, in, DstType::B16Zero, [](uint16_t a, uint16_t b) -> uint32_t {
       return uint16_t(std::min(int16_t(a), int16_t(b))); }))},
    {"v_min3_u16", H(op3_16(w, in, DstType::B16Keep, [](uint16_t a, uint16_t b, uint16_t c) -> uint32_t {
       return std::min({a, b, c}); }))},
    {"v_max3_u16", H(op3_16(w, in, DstType::B16Keep, [](uint16_t a, uint16_t b, uint16_t c) -> uint32_t {
       return std::max({a, b, c}); }))},
    {"v_med3_u16", H(op3_16(w, in, DstType::B16Keep, [](uint16_t a, uint16_t b, uint16_t c) -> uint32_t {
       return med3(a, b, c); }))},
    {"v_min3_i16", H(op3_16(w, in, DstType::B16Keep, [](uint16_t a, uint16_t b, uint16_t c) -> uint32_t {
       return uint16_t(std::min({int16_t(a), int16_t(b), int16_t(c)})); }))},
    {"v_max3_i16", H(op3_16(w, in, DstType::B16Keep, [](uint16_t a, uint16_t b, uint16_t c) -> uint32_t {
       return uint16_t(std::max({int16_t(a), int16_t(b), int16_t(c)})); }))},
    {"v_med3_i16", H(op3_16(w, in, DstType::B16Keep, [](uint16_t a, uint16_t b, uint16_t c) -> uint32_t {
       return uint16_t(med3(int16_t(a), int16_t(b), int16_t(c))); }))},
    {"v_mad_u16", H(op3_16(w, in, DstType::B16Zero, [&](uint16_t a, uint16_t b, uint16_t c) -> uint32_t {
       uint32_t r = uint32_t(a) * b + c; return in.mod.clamp && r > 0xffff ? 0xffffu : r & 0xffffu; }))},
    {"v_mad_legacy_u16", H(op3_16(w, in, DstType::B16Zero, [&](uint16_t a, uint16_t b, uint16_t c) -> uint32_t {
       uint32_t r = uint32_t(a) * b + c; return in.mod.clamp && r > 0xffff ? 0xffffu : r & 0xffffu; }))},
    {"v_mad_i16", H(op3_16(w, in, DstType::B16Zero, [&](uint16_t a, uint16_t b, uint16_t c) -> uint32_t {
       int32_t r = int16_t(a) * int16_t(b) + int16_t(c);
       if (in.mod.clamp) r = std::clamp(r, -32768, 32767);
       return uint16_t(r); }))},
    {"v_mad_legacy_i16", H(op3_16(w, in, DstType::B16Zero, [&](uint16_t a, uint16_t b, uint16_t c) -> uint32_t {
       int32_t r = int16_t(a) * int16_t(b) + int16_t(c);
       if (in.mod.clamp) r = std::clamp(r, -32768, 32767);
       return uint16_t(r); }))},
    {"v_mad_u32_u16", H(valu32<3>(w, in, {B16, B16, B32}, DstType::B32, [](uint32_t a, uint32_t b, uint32_t c) {
       return (a & 0xffffu) * (b & 0xffffu) + c; }))},
    {"v_mad_i32_i16", H(valu32<3>(w, in, {B16, B16, B32}, DstType::B32, [](uint32_t a, uint32_t b, uint32_t c) {
       return uint32_t(int32_t(int16_t(a)) * int32_t(int16_t(b))) + c; }))},
    // ---- multiply
    {"v_mul_lo_u32", H(op2(w, in, [](uint32_t a, uint32_t b) { return a * b; }))},
    {"v_mul_hi_u32", H(op2(w, in, [](uint32_t a, uint32_t b) { return uint32_t((uint64_t(a) * b) >> 32); }))},
    {"v_mul_hi_i32", H(op2(w, in, [](uint32_t a, uint32_t b) {
       return uint32_t(uint64_t(int64_t(int32_t(a)) * int32_t(b)) >> 32); }))},
    {"v_mul_i32_i24", H(op2(w, in, [&](uint32_t a, uint32_t b) {
       int64_t p = int64_t(sext24(a)) * sext24(b);
       return in.mod.clamp ? sat_i32(p) : uint32_t(p); }))},
    {"v_mul_hi_i32_i24", H(op2(w, in, [](uint32_t a, uint32_t b) {
       return uint32_t(uint64_t(int64_t(sext24(a)) * sext24(b)) >> 32); }))},
    {"v_mul_u32_u24", H(op2(w, in, [&](uint32_t a, uint32_t b) {
       uint64_t p = uint64_t(a & 0xffffff) * (b & 0xffffff);
       return in.mod.clamp ? sat_u32(p) : uint32_t(p); }))},
    {"v_mul_hi_u32_u24", H(op2(w, in, [](uint32_t a, uint32_t b) {
       return uint32_t((uint64_t(a & 0xffffff) * (b & 0xffffff)) >> 32); }))},
    {"v_mad_i32_i24", H(op3(w, in, [&](uint32_t a, uint32_t b, uint32_t c) {
       int64_t r = int64_t(sext24(a)) * sext24(b) + int32_t(c);
       return in.mod.clamp ? sat_i32(r) : uint32_t(r); }))},
    {"v_mad_u32_u24", H(op3(w, in, [&](uint32_t a, uint32_t b, uint32_t c) {
       uint64_t r = uint64_t(a & 0xffffff) * (b & 0xffffff) + c;
       return in.mod.clamp ? sat_u32(r) : uint32_t(r); }))},
    {"v_mad_u64_u32", H({
       Sources s;
       static constexpr SrcType t[3] = {SrcType::B32, SrcType::B32, SrcType::B64};
       gather(w, in, 3, t, s);
       alignas(64) uint64_t res[kLanes];
       uint64_t cout = 0;
       for_lanes(s.mask, [&](int l) {
         unsigned __int128 r = (unsigned __int128)(uint64_t(s.p[0][0][l]) * s.p[1][0][l]) +
                               (uint64_t(s.p[2][0][l]) | (uint64_t(s.p[2][1][l]) << 32));
         res[l] = uint64_t(r);
         cout |= uint64_t(r >> 64 ? 1 : 0) << l;
       });
       write_dst64(w, in, s.mask, DstType::B64, res);
       write_mask_dst(w, mask_dst(in, 1), cout);
       w.lane_ops += std::popcount(s.mask);
     })},
    {"v_mad_i64_i32", H({
       Sources s;
       static constexpr SrcType t[3] = {SrcType::B32, SrcType::B32, SrcType::B64};
       gather(w, in, 3, t, s);
       alignas(64) uint64_t res[kLanes];
       uint64_t cout = 0;
       for_lanes(s.mask, [&](int l) {
         __int128 r = (__int128)(int64_t(int32_t(s.p[0][0][l])) * int32_t(s.p[1][0][l])) +
                      int64_t(uint64_t(s.p[2][0][l]) | (uint64_t(s.p[2][1][l]) << 32));
         res[l] = uint64_t(r);
         cout |= uint64_t(r != (__int128)int64_t(r) ? 1 : 0) << l;
       });
       write_dst64(w, in, s.mask, DstType::B64, res);
       write_mask_dst(w, mask_dst(in, 1), cout);
       w.lane_ops += std::popcount(s.mask);
     })},
    // ---- min/max/med3
    {"v_min_i32", H(op2(w, in, [](uint32_t a, uint32_t b) { return uint32_t(std::min(int32_t(a), int32_t(b))); }))},
    {"v_max_i32", H(op2(w, in, [](uint32_t a, uint32_t b) { return uint32_t(std::max(int32_t(a), int32_t(b))); }))},
    {"v_min_u32", H(op2(w, in, [](uint32_t a, uint32_t b) { return std::min(a, b); }))},
    {"v_max_u32", H(op2(w, in, [](uint32_t a, uint32_t b) { return std::max(a, b); }))},
    {"v_min3_i32", H(op3(w, in, [](uint32_t a, uint32_t b, uint32_t c) {
       return uint32_t(std::min({int32_t(a), int32_t(b), int32_t(c)})); }))},
    {"v_max3_i32", H(op3(w, in, [](uint32_t a, uint32_t b, uint32_t c) {
       return uint32_t(std::max({int32_t(a), int32_t(b), int32_t(c)})); }))},
    {"v_med3_i32", H(op3(w, in, [](uint32_t a, uint32_t b, uint32_t c) {
       return uint32_t(med3(int32_t(a), int32_t(b), int32_t(c))); }))},
    {"v_min3_u32", H(op3(w, in, [](uint32_t a, uint32_t b, uint32_t c) { return std::min({a, b, c}); }))},
    {"v_max3_u32", H(op3(w, in, [](uint32_t a, uint32_t b, uint32_t c) { return std::max({a, b, c}); }))},
    {"v_med3_u32", H(op3(w, in, [](uint32_t a, uint32_t b, uint32_t c) { return med3(a, b, c); }))},
    // ---- logic and shifts
    {"v_and_b32", H(op2(w, in, [](uint32_t a, uint32_t b) { return a & b; }))},
    {"v_or_b32", H(op2(w, in, [](uint32_t a, uint32_t b) { return a | b; }))},
    {"v_xor_b32", H(op2(w, in, [](uint32_t a, uint32_t b) { return a ^ b; }))},
    {"v_xnor_b32", H(op2(w, in, [](uint32_t a, uint32_t b) { return ~(a ^ b); }))},
    {"v_not_b32", H(op1(w, in, [](uint32_t a) { return ~a; }))},
    {"v_screen_partition_4se_b32", H(op1(w, in, [](uint32_t a) { return uint32_t(kScreenPartition4se[a & 0xff]); }))},
    {"v_bfrev_b32", H(op1(w, in, [](uint32_t a) {
       uint32_t r = 0;
       for (int i = 0; i < 32; ++i) r |= ((a >> i) & 1u) << (31 - i);
       return r; }))},
    {"v_lshlrev_b32", H(op2(w, in, [](uint32_t a, uint32_t b) { return b << (a & 31); }))},
    {"v_lshrrev_b32", H(op2(w, in, [](uint32_t a, uint32_t b) { return b >> (a & 31); }))},
    {"v_ashrrev_i32", H(op2(w, in, [](uint32_t a, uint32_t b) { return uint32_t(int32_t(b) >> (a & 31)); }))},
    {"v_lshlrev_b64", H(valu64<2>(w, in, {B32, B64}, DstType::B64, [](uint64_t a, uint64_t b) { return b << (a & 63); }))},
    {"v_lshrrev_b64", H(valu64<2>(w, in, {B32, B64}, DstType::B64, [](uint64_t a, uint64_t b) { return b >> (a & 63); }))},
    {"v_ashrrev_i64", H(valu64<2>(w, in, {B32, B64}, DstType::B64, [](uint64_t a, uint64_t b) {
       return uint64_t(int64_t(b) >> (a & 63)); }))},
    {"v_lshl_add_u64", H(valu64<3>(w, in, {B64, B32, B64}, DstType::B64, [](uint64_t a, uint64_t b, uint64_t c) {
       return (a << (b & 63)) + c; }))},
    // ---- bit fields and counting
    {"v_bfe_u32", H(op3(w, in, [](uint32_t a, uint32_t b, uint32_t c) { return bfe_u(a, b, c); }))},
    {"v_bfe_i32", H(op3(w, in, [](uint32_t a, uint32_t b, uint32_t c) { return bfe_i(a, b, c); }))},
    {"v_bfi_b32", H(op3(w, in, [](uint32_t a, uint32_t b, uint32_t c) { return (a & b) | (~a & c); }))},
    {"v_bfm_b32", H(op2(w, in, [](uint32_t a, uint32_t b) { return ((1u << (a & 31)) - 1) << (b & 31); }))},
    {"v_alignbit_b32", H(op3(w, in, [](uint32_t a, uint32_t b, uint32_t c) {
       return uint32_t(((uint64_t(a) << 32) | b) >> (c & 31)); }))},
    {"v_alignbyte_b32", H(op3(w, in, [](uint32_t a, uint32_t b, uint32_t c) {
       return uint32_t(((uint64_t(a) << 32) | b) >> (8 * (c & 3))); }))},
    {"v_perm_b32", H(op3(w, in, [](uint32_t a, uint32_t b, uint32_t c) { return perm_b32(a, b, c); }))},
    {"v_bcnt_u32_b32", H(op2(w, in, [](uint32_t a, uint32_t b) { return uint32_t(std::popcount(a)) + b; }))},
    {"v_ffbh_u32", H(op1(w, in, [](uint32_t a) { return a ? uint32_t(std::countl_zero(a)) : ~0u; }))},
    {"v_ffbl_b32", H(op1(w, in, [](uint32_t a) { return a ? uint32_t(std::countr_zero(a)) : ~0u; }))},
    {"v_ffbh_i32", H(op1(w, in, [](uint32_t a) {
       uint32_t x = a ^ uint32_t(int32_t(a) >> 31);
       return x ? uint32_t(std::countl_zero(x)) : ~0u; }))},
    {"v_mbcnt_lo_u32_b32", H({
       Sources s;
       static constexpr SrcType t[2] = {SrcType::B32, SrcType::B32};
       gather(w, in, 2, t, s);
       alignas(64) uint32_t res[kLanes];
       for_lanes(s.mask, [&](int l) {
         uint32_t m = l >= 32 ? ~0u : ((1u << l) - 1);
         res[l] = uint32_t(std::popcount(s.p[0][0][l] & m)) + s.p[1][0][l];
       });
       write_dst32(w, in, s.mask, DstType::B32, res);
       w.lane_ops += std::popcount(s.mask);
     })},
    {"v_mbcnt_hi_u32_b32", H({
       Sources s;
       static constexpr SrcType t[2] = {SrcType::B32, SrcType::B32};
       gather(w, in, 2, t, s);
       alignas(64) uint32_t res[kLanes];
       for_lanes(s.mask, [&](int l) {
         uint32_t m = l < 32 ? 0u : ((1u << (l - 32)) - 1);
         res[l] = uint32_t(std::popcount(s.p[0][0][l] & m)) + s.p[1][0][l];
       });
       write_dst32(w, in, s.mask, DstType::B32, res);
       w.lane_ops += std::popcount(s.mask);
     })},
    // ---- sums of absolute differences, byte interpolation
    {"v_sad_u8", H(op3(w, in, [&](uint32_t a, uint32_t b, uint32_t c) {
       uint64_t r = uint64_t(sad_u8(a, b)) + c; return in.mod.clamp ? sat_u32(r) : uint32_t(r); }))},
    {"v_sad_hi_u8", H(op3(w, in, [&](uint32_t a, uint32_t b, uint32_t c) {
       uint64_t r = (uint64_t(sad_u8(a, b)) << 16) + c; return in.mod.clamp ? sat_u32(r) : uint32_t(r); }))},
    {"v_sad_u16", H(op3(w, in, [&](uint32_t a, uint32_t b, uint32_t c) {
       uint64_t r = c;
       for (int i = 0; i < 2; ++i) {
         int x = (a >> (16 * i)) & 0xffff, y = (b >> (16 * i)) & 0xffff;
         r += uint32_t(x > y ? x - y : y - x);
       }
       return in.mod.clamp ? sat_u32(r) : uint32_t(r); }))},
    {"v_sad_u32", H(op3(w, in, [&](uint32_t a, uint32_t b, uint32_t c) {
       uint64_t r = uint64_t(a > b ? a - b : b - a) + c; return in.mod.clamp ? sat_u32(r) : uint32_t(r); }))},
    {"v_msad_u8", H(op3(w, in, [&](uint32_t a, uint32_t b, uint32_t c) {
       // masked SAD: reference bytes (src1) equal to zero are skipped
       uint64_t r = c;
       for (int i = 0; i < 4; ++i) {
         int x = (a >> (8 * i)) & 0xff, y = (b >> (8 * i)) & 0xff;
         if (y) r += uint32_t(x > y ? x - y : y - x);
       }
       return in.mod.clamp ? sat_u32(r) : uint32_t(r); }))},
    {"v_lerp_u8", H(op3(w, in, [](uint32_t a, uint32_t b, uint32_t c) {
       uint32_t r = 0;
       for (int i = 0; i < 4; ++i) {
         uint32_t x = (a >> (8 * i)) & 0xff, y = (b >> (8 * i)) & 0xff, rb = (c >> (8 * i)) & 1;
         r |= (((x + y + rb) >> 1) & 0xff) << (8 * i);
       }
       return r; }))},
    {"v_qsad_pk_u16_u8", H(quad_sad<false, 16>(w, in))},
    {"v_mqsad_pk_u16_u8", H(quad_sad<true, 16>(w, in))},
    {"v_mqsad_u32_u8", H(quad_sad<true, 32>(w, in))},
    // ---- packing
    {"v_cvt_pk_u16_u32", H(op2(w, in, [](uint32_t a, uint32_t b) {
       return std::min(a, 0xffffu) | (std::min(b, 0xffffu) << 16); }))},
    {"v_cvt_pk_i16_i32", H(op2(w, in, [](uint32_t a, uint32_t b) {
       auto s = [](uint32_t v) { return uint32_t(uint16_t(std::clamp(int32_t(v), -32768, 32767))); };
       return s(a) | (s(b) << 16); }))},
    {"v_sat_pk_u8_i16", H(op1(w, in, [](uint32_t a) {
       auto s = [](uint32_t v) { return uint32_t(std::clamp(int32_t(int16_t(v)), 0, 255)); };
       return s(a) | (s(a >> 16) << 8); }))},
});

#undef H

}  // namespace
}  // namespace hipasm::sim::detail

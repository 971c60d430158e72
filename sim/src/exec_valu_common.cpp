// Source gathering (DPP, SDWA, op_sel, neg/abs) and destination writing (SDWA dst_sel,
// 16-bit halves, omod/clamp) shared by every VALU handler. See exec_valu_common.hpp.
#include "exec_valu_common.hpp"

#include <string>

namespace hipasm::sim::detail {

namespace {
__attribute__((target("fma"))) float fma32_hw(float a, float b, float c) { return __builtin_elementwise_fma(a, b, c); }
__attribute__((target("fma"))) double fma64_hw(double a, double b, double c) { return __builtin_elementwise_fma(a, b, c); }
float fma32_sw(float a, float b, float c) { return std::fma(a, b, c); }
double fma64_sw(double a, double b, double c) { return std::fma(a, b, c); }
const bool kHostFma = __builtin_cpu_supports("fma");
}  // namespace

bool host_has_fma() { return kHostFma; }

__attribute__((target("fma"))) void fma32_lanes_hw(uint64_t mask, const uint32_t* a, const uint32_t* b,
                                                   const uint32_t* c, uint32_t* r) {
  // plain loops: a lambda would not inherit the target attribute
  if (mask == ~0ull) {
    for (int l = 0; l < kLanes; ++l)
      r[l] = std::bit_cast<uint32_t>(__builtin_elementwise_fma(std::bit_cast<float>(a[l]), std::bit_cast<float>(b[l]),
                                                               std::bit_cast<float>(c[l])));
    return;
  }
  while (mask) {
    const int l = std::countr_zero(mask);
    mask &= mask - 1;
    r[l] = std::bit_cast<uint32_t>(__builtin_elementwise_fma(std::bit_cast<float>(a[l]), std::bit_cast<float>(b[l]),
                                                             std::bit_cast<float>(c[l])));
  }
}

float fma32(float a, float b, float c) { return kHostFma ? fma32_hw(a, b, c) : fma32_sw(a, b, c); }
double fma64(double a, double b, double c) { return kHostFma ? fma64_hw(a, b, c) : fma64_sw(a, b, c); }

int dpp_source_lane(uint16_t ctrl, int l) {
  const int row_base = l & ~15, in_row = l & 15;
  if (ctrl <= 0xff) return (l & ~3) | ((ctrl >> (2 * (l & 3))) & 3);  // quad_perm
  if (ctrl >= 0x101 && ctrl <= 0x10f) {                                 // row_shl:n
    int n = ctrl & 0xf;
    return in_row + n > 15 ? -1 : l + n;
  }
  if (ctrl >= 0x111 && ctrl <= 0x11f) {  // row_shr:n
    int n = ctrl & 0xf;
    return in_row < n ? -1 : l - n;
  }
  if (ctrl >= 0x121 && ctrl <= 0x12f) return row_base | ((in_row - (ctrl & 0xf)) & 15);  // row_ror
  switch (ctrl) {
    case 0x130: return l == 63 ? -1 : l + 1;  // wave_shl:1
    case 0x134: return (l + 1) & 63;          // wave_rol:1
    case 0x138: return l == 0 ? -1 : l - 1;   // wave_shr:1
    case 0x13c: return (l - 1) & 63;          // wave_ror:1
    case 0x140: return row_base | (15 - in_row);             // row_mirror
    case 0x141: return (l & ~7) | (7 - (l & 7));             // row_half_mirror
    case 0x142: return l < 16 ? -1 : row_base - 1;           // row_bcast:15
    case 0x143: return l < 32 ? -1 : 31;                     // row_bcast:31
    default: break;
  }
  if (ctrl >= 0x150 && ctrl <= 0x15f) return row_base | (ctrl & 0xf);  // row_newbcast:n
  return -2;
}

uint64_t dpp_apply(const Modifiers& m, uint64_t exec, const uint32_t* lanes, uint32_t* out) {
  uint64_t enabled = 0;
  for (int l = 0; l < kLanes; ++l) {
    if (!((m.row_mask >> (l >> 4)) & 1) || !((m.bank_mask >> ((l >> 2) & 3)) & 1)) continue;
    int src = dpp_source_lane(m.dpp_ctrl, l);
    if (src < 0 || !((exec >> src) & 1)) {
      // Out of range or an inactive source lane: bound_ctrl reads 0, else no write.
      if (m.bound_ctrl) {
        out[l] = 0;
        enabled |= 1ull << l;
      }
      continue;
    }
    out[l] = lanes[src];
    enabled |= 1ull << l;
  }
  return enabled;
}

namespace {
// Makes s.p[i][d] point at the private buffer (copying the current values) so it can be
// modified in place.
inline uint32_t* own(Sources& s, int i, int d) {
  uint32_t* b = s.buf[i][d];
  if (s.p[i][d] != b) {
    std::memcpy(b, s.p[i][d], sizeof(uint32_t) * kLanes);
    s.p[i][d] = b;
  }
  return b;
}
}  // namespace

void gather(const Wave& w, const Inst& in, int n, const SrcType* types, Sources& s) {
  const Modifiers& m = in.mod;
  s.mask = w.exec;
  for (int i = 0; i < n; ++i) {
    const Operand& op = in.src[i];
    const SrcType t = types[i];
    const int nd = is64(t) ? 2 : 1;
    for (int d = 0; d < nd; ++d) {
      if (op.is_vector()) {
        s.p[i][d] = vec_ptr(w, op, d);
      } else {
        uint32_t v = read_scalar(w, op, d);
        uint32_t* b = s.buf[i][d];
        for (int l = 0; l < kLanes; ++l) b[l] = v;
        s.p[i][d] = b;
      }
    }
    if (m.dpp && i == 0) {
      uint64_t en = ~0ull;
      for (int d = 0; d < nd; ++d) {
        alignas(64) uint32_t tmp[kLanes];
        std::memcpy(tmp, s.p[0][d], sizeof tmp);
        uint32_t* b = s.buf[0][d];
        std::memcpy(b, tmp, sizeof tmp);  // lanes that are not written keep something defined
        if (m.dpp_ctrl > 0xff && dpp_source_lane(m.dpp_ctrl, 0) == -2)
          fail(in, "unsupported DPP control 0x" + std::to_string(m.dpp_ctrl));
        en = dpp_apply(m, w.exec, tmp, b);
        s.p[0][d] = b;
      }
      s.mask &= en;
    }
    if (m.sdwa && i < 2 && nd == 1) {
      uint8_t sel = i == 0 ? m.src0_sel : m.src1_sel;
      bool sext = i == 0 ? m.sdwa_sext0 : m.sdwa_sext1;
      if (sel != 6 || sext) {
        uint32_t* b = own(s, i, 0);
        for (int l = 0; l < kLanes; ++l) b[l] = sdwa_select(b[l], sel, sext);
      }
    }
    if ((t == SrcType::B16 || t == SrcType::F16) && ((m.op_sel >> i) & 1) &&
        (in.format == Format::VOP3 || in.format == Format::VOP3P)) {
      uint32_t* b = own(s, i, 0);
      for (int l = 0; l < kLanes; ++l) b[l] >>= 16;
    }
    if ((op.abs || op.neg) && (t == SrcType::F32 || t == SrcType::F16 || t == SrcType::F64)) {
      const int d = t == SrcType::F64 ? 1 : 0;
      const uint32_t sign = t == SrcType::F16 ? 0x8000u : 0x80000000u;
      uint32_t* b = own(s, i, d);
      const uint32_t andm = op.abs ? ~sign : ~0u, xorm = op.neg ? sign : 0u;
      for (int l = 0; l < kLanes; ++l) b[l] = (b[l] & andm) ^ xorm;
    }
  }
}

void write_dst32(Wave& w, const Inst& in, uint64_t mask, DstType t, const uint32_t* res) {
  const Modifiers& m = in.mod;
  const Operand& d = in.dst[0];
  if (!d.is_vector()) fail(in, "VALU destination is not a vector register");
  uint32_t* out = vec_ptr(w, d);
  const bool is16 = t == DstType::B16Zero || t == DstType::F16Zero || t == DstType::B16Keep ||
                    t == DstType::F16Keep;
  const bool fl = t == DstType::F32 || t == DstType::F16Zero || t == DstType::F16Keep;
  alignas(64) uint32_t tmp[kLanes];
  if (fl && (m.omod || m.clamp)) {
    const bool dx10 = (w.mode >> 8) & 1;
    for_lanes(mask, [&](int l) {
      if (t == DstType::F32) {
        tmp[l] = bits(apply_omod_clamp(f32(res[l]), m, dx10));
      } else {
        float r = apply_omod_clamp(fp::f16_to_f32(uint16_t(res[l])), m, dx10);
        tmp[l] = fp::f32_to_f16(r);
      }
    });
    res = tmp;
  }
  if (m.sdwa && (in.format == Format::VOP1 || in.format == Format::VOP2)) {
    const uint8_t sel = m.dst_sel, unused = m.dst_unused;
    if (sel == 6) {
      for_lanes(mask, [&](int l) { out[l] = is16 ? (res[l] & 0xffffu) : res[l]; });
      return;
    }
    const int width = sel <= 3 ? 8 : 16;
    const int shift = sel <= 3 ? 8 * sel : 16 * (sel - 4);
    const uint32_t fmask = (width == 8 ? 0xffu : 0xffffu) << shift;
    for_lanes(mask, [&](int l) {
      uint32_t field = (res[l] << shift) & fmask;
      uint32_t v;
      if (unused == 2) {
        v = (out[l] & ~fmask) | field;
      } else if (unused == 1) {
        bool sign = (field >> (shift + width - 1)) & 1;
        uint32_t above = shift + width >= 32 ? 0u : (~0u << (shift + width));
        v = field | (sign ? above : 0u);
      } else {
        v = field;
      }
      out[l] = v;
    });
    return;
  }
  if (is16) {
    const bool hi = (in.format == Format::VOP3 || in.format == Format::VOP3P) && ((m.op_sel >> 3) & 1);
    const bool keep = t == DstType::B16Keep || t == DstType::F16Keep;
    if (hi) {
      for_lanes(mask, [&](int l) { out[l] = (out[l] & 0xffffu) | (res[l] << 16); });
    } else if (keep) {
      for_lanes(mask, [&](int l) { out[l] = (out[l] & 0xffff0000u) | (res[l] & 0xffffu); });
    } else {
      for_lanes(mask, [&](int l) { out[l] = res[l] & 0xffffu; });
    }
    return;
  }
  for_lanes(mask, [&](int l) { out[l] = res[l]; });
}

void write_dst64(Wave& w, const Inst& in, uint64_t mask, DstType t, const uint64_t* res) {
  const Modifiers& m = in.mod;
  const Operand& d = in.dst[0];
  if (!d.is_vector()) fail(in, "VALU destination is not a vector register");
  uint32_t* lo = vec_ptr(w, d, 0);
  uint32_t* hi = vec_ptr(w, d, 1);
  if (t == DstType::F64 && (m.omod || m.clamp)) {
    const bool dx10 = (w.mode >> 8) & 1;
    for_lanes(mask, [&](int l) {
      uint64_t r = bits(apply_omod_clamp(f64(res[l]), m, dx10));
      lo[l] = uint32_t(r);
      hi[l] = uint32_t(r >> 32);
    });
    return;
  }
  for_lanes(mask, [&](int l) {
    lo[l] = uint32_t(res[l]);
    hi[l] = uint32_t(res[l] >> 32);
  });
}

}  // namespace hipasm::sim::detail

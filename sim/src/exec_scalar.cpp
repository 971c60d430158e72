// Scalar ALU and program-control semantics (SOP1, SOP2, SOPK, SOPC, SOPP, and the SMEM
// counters s_memtime/s_memrealtime), as the gfx9 (CDNA3) ISA defines them, SCC included.
//
// Legacy and mode-changing control, per the Vega ISA guide (the CDNA3 guide keeps them):
// - VGPR index mode: s_set_gpr_idx_on/off/idx/mode set MODE.gpr_idx_en and M0[7:0] (index),
//   M0[15:12] (src0, src1, src2, dst enables); the dispatcher applies the index to VALU
//   operands (dispatch.cpp, gpr_indexed).
// - s_setvskip sets MODE.vskip = S0[S1[4:0]]; while set the dispatcher skips vector
//   instructions (VALU, MUBUF, DS, FLAT/GLOBAL/SCRATCH): they are not issued at all.
// - Fork/join (s_cbranch_g_fork, s_cbranch_i_fork, s_cbranch_join): the guide's pseudocode.
//   CSP is MODE[31:29]; stack entry k is the 128-bit {PC, EXEC} at SGPR[4k] (absolute SGPRs
//   s[4k:4k+3]: EXEC in s[4k:4k+1], the PC as a byte address in s[4k+2:4k+3]). Pushing with
//   CSP = 7 (the 3-bit pointer would wrap) and joining with CSP = 0 when the saved CSP differs
//   are errors.
// - s_rfe_b64 / s_rfe_restore_b64: PC = S0 (a byte address, like s_setpc); PRIV is not
//   modelled; the restore form's second operand is ignored, as the guide says.
//
// Hardware registers (s_getreg/s_setreg): MODE (read/write), TRAPSTS (read/write), STATUS
// (SCC, EXECZ, VCCZ, IN_TG, VALID), HW_ID (wave id in the group, a CU id derived from the
// workgroup), GPR_ALLOC/LDS_ALLOC (this kernel's sizes), IB_STS and XCC_ID (0). Other
// registers, and writes to read-only ones, are an error.
#include <bit>
#include <cstdint>
#include <cstdlib>

#include "core.hpp"
#include "dispatch.hpp"

namespace hipasm::sim {
namespace {

using u32 = uint32_t;
using u64 = uint64_t;
using i32 = int32_t;
using i64 = int64_t;

inline u32 S0(const Wave& w, const Inst& in) { return read_scalar(w, in.src[0]); }
inline u32 S1(const Wave& w, const Inst& in) { return read_scalar(w, in.src[1]); }
inline u64 S0_64(const Wave& w, const Inst& in) { return read_scalar64(w, in.src[0]); }
inline u64 S1_64(const Wave& w, const Inst& in) { return read_scalar64(w, in.src[1]); }
inline void D(Wave& w, const Inst& in, u32 v) { write_scalar(w, in.dst[0], v); }
inline void D64(Wave& w, const Inst& in, u64 v) { write_scalar64(w, in.dst[0], v); }

// ---------------------------------------------------------------- SOP2
void s_add_u32(Wave& w, const Inst& in) {
  u64 r = u64(S0(w, in)) + S1(w, in);
  D(w, in, u32(r));
  w.scc = r >> 32;
}
void s_sub_u32(Wave& w, const Inst& in) {
  u32 a = S0(w, in), b = S1(w, in);
  D(w, in, a - b);
  w.scc = b > a;
}
void s_add_i32(Wave& w, const Inst& in) {
  i32 a = i32(S0(w, in)), b = i32(S1(w, in));
  i64 r = i64(a) + b;
  D(w, in, u32(r));
  w.scc = r != i64(i32(r));
}
void s_sub_i32(Wave& w, const Inst& in) {
  i32 a = i32(S0(w, in)), b = i32(S1(w, in));
  i64 r = i64(a) - b;
  D(w, in, u32(r));
  w.scc = r != i64(i32(r));
}
void s_addc_u32(Wave& w, const Inst& in) {
  u64 r = u64(S0(w, in)) + S1(w, in) + (w.scc ? 1 : 0);
  D(w, in, u32(r));
  w.scc = r >> 32;
}
void s_subb_u32(Wave& w, const Inst& in) {
  u64 a = S0(w, in), b = u64(S1(w, in)) + (w.scc ? 1 : 0);
  D(w, in, u32(a - b));
  w.scc = b > a;
}
template <bool Signed, bool Min>
void s_minmax(Wave& w, const Inst& in) {
  u32 a = S0(w, in), b = S1(w, in);
  bool pick_a = Signed ? (Min ? i32(a) < i32(b) : i32(a) > i32(b)) : (Min ? a < b : a > b);
  D(w, in, pick_a ? a : b);
  w.scc = pick_a;
}
void s_cselect_b32(Wave& w, const Inst& in) { D(w, in, w.scc ? S0(w, in) : S1(w, in)); }
void s_cselect_b64(Wave& w, const Inst& in) { D64(w, in, w.scc ? S0_64(w, in) : S1_64(w, in)); }

enum class Bit { And, Or, Xor, Andn2, Orn2, Nand, Nor, Xnor };
template <Bit op, class T>
T bitop(T a, T b) {
  switch (op) {
    case Bit::And: return a & b;
    case Bit::Or: return a | b;
    case Bit::Xor: return a ^ b;
    case Bit::Andn2: return a & ~b;
    case Bit::Orn2: return a | ~b;
    case Bit::Nand: return ~(a & b);
    case Bit::Nor: return ~(a | b);
    case Bit::Xnor: return ~(a ^ b);
  }
  return 0;
}
template <Bit op>
void s_bit32(Wave& w, const Inst& in) {
  u32 r = bitop<op, u32>(S0(w, in), S1(w, in));
  D(w, in, r);
  w.scc = r != 0;
}
template <Bit op>
void s_bit64(Wave& w, const Inst& in) {
  u64 r = bitop<op, u64>(S0_64(w, in), S1_64(w, in));
  D64(w, in, r);
  w.scc = r != 0;
}
void s_lshl_b32(Wave& w, const Inst& in) { u32 r = S0(w, in) << (S1(w, in) & 31); D(w, in, r); w.scc = r != 0; }
void s_lshr_b32(Wave& w, const Inst& in) { u32 r = S0(w, in) >> (S1(w, in) & 31); D(w, in, r); w.scc = r != 0; }
void s_ashr_i32(Wave& w, const Inst& in) { u32 r = u32(i32(S0(w, in)) >> (S1(w, in) & 31)); D(w, in, r); w.scc = r != 0; }
void s_lshl_b64(Wave& w, const Inst& in) { u64 r = S0_64(w, in) << (S1(w, in) & 63); D64(w, in, r); w.scc = r != 0; }
void s_lshr_b64(Wave& w, const Inst& in) { u64 r = S0_64(w, in) >> (S1(w, in) & 63); D64(w, in, r); w.scc = r != 0; }
void s_ashr_i64(Wave& w, const Inst& in) { u64 r = u64(i64(S0_64(w, in)) >> (S1(w, in) & 63)); D64(w, in, r); w.scc = r != 0; }
void s_bfm_b32(Wave& w, const Inst& in) {
  u32 width = S0(w, in) & 31, off = S1(w, in) & 31;
  D(w, in, ((1u << width) - 1) << off);
}
void s_bfm_b64(Wave& w, const Inst& in) {
  u32 width = S0(w, in) & 63, off = S1(w, in) & 63;
  D64(w, in, ((u64(1) << width) - 1) << off);
}
void s_mul_i32(Wave& w, const Inst& in) { D(w, in, S0(w, in) * S1(w, in)); }
void s_mul_hi_u32(Wave& w, const Inst& in) { D(w, in, u32((u64(S0(w, in)) * S1(w, in)) >> 32)); }
void s_mul_hi_i32(Wave& w, const Inst& in) {
  D(w, in, u32(u64(i64(i32(S0(w, in))) * i64(i32(S1(w, in)))) >> 32));
}
// BFE: offset S1[4:0] (S1[5:0] for 64-bit), width S1[22:16].
template <bool Signed>
void s_bfe32(Wave& w, const Inst& in) {
  u32 s = S0(w, in), c = S1(w, in);
  u32 off = c & 31, width = (c >> 16) & 0x7f;
  u32 r;
  if (width == 0) r = 0;
  else {
    u64 v = u64(s) >> off;
    if (width < 32) v &= (u64(1) << width) - 1;
    r = u32(v);
    if (Signed && width < 32 && (r >> (width - 1) & 1)) r |= ~((1u << width) - 1);
  }
  D(w, in, r);
  w.scc = r != 0;
}
template <bool Signed>
void s_bfe64(Wave& w, const Inst& in) {
  u64 s = S0_64(w, in);
  u32 c = S1(w, in);
  u32 off = c & 63, width = (c >> 16) & 0x7f;
  u64 r;
  if (width == 0) r = 0;
  else {
    r = s >> off;
    if (width < 64) r &= (u64(1) << width) - 1;
    if (Signed && width < 64 && (r >> (width - 1) & 1)) r |= ~((u64(1) << width) - 1);
  }
  D64(w, in, r);
  w.scc = r != 0;
}
void s_absdiff_i32(Wave& w, const Inst& in) {
  i64 d = i64(i32(S0(w, in))) - i64(i32(S1(w, in)));
  u32 r = u32(d < 0 ? -d : d);
  D(w, in, r);
  w.scc = r != 0;
}
template <int N>
void s_lshl_add_u32(Wave& w, const Inst& in) {
  u64 r = (u64(S0(w, in)) << N) + S1(w, in);
  D(w, in, u32(r));
  w.scc = (r >> 32) != 0;
}
void s_pack_ll(Wave& w, const Inst& in) { D(w, in, (S0(w, in) & 0xffff) | (S1(w, in) << 16)); }
void s_pack_lh(Wave& w, const Inst& in) { D(w, in, (S0(w, in) & 0xffff) | (S1(w, in) & 0xffff0000u)); }
void s_pack_hh(Wave& w, const Inst& in) { D(w, in, (S0(w, in) >> 16) | (S1(w, in) & 0xffff0000u)); }

// ---------------------------------------------------------------- SOPK
inline i32 simm(const Inst& in) { return i32(int16_t(in.mod.simm16)); }
void s_movk_i32(Wave& w, const Inst& in) { D(w, in, u32(simm(in))); }
void s_cmovk_i32(Wave& w, const Inst& in) { if (w.scc) D(w, in, u32(simm(in))); }
template <int Cmp, bool Signed>
void s_cmpk(Wave& w, const Inst& in) {
  u32 a = S0(w, in);
  if (Signed) {
    i32 x = i32(a), y = simm(in);
    w.scc = Cmp == 0 ? x == y : Cmp == 1 ? x != y : Cmp == 2 ? x > y : Cmp == 3 ? x >= y : Cmp == 4 ? x < y : x <= y;
  } else {
    u32 x = a, y = in.mod.simm16;
    w.scc = Cmp == 0 ? x == y : Cmp == 1 ? x != y : Cmp == 2 ? x > y : Cmp == 3 ? x >= y : Cmp == 4 ? x < y : x <= y;
  }
}
void s_addk_i32(Wave& w, const Inst& in) {
  i64 r = i64(i32(S0(w, in))) + simm(in);
  D(w, in, u32(r));
  w.scc = r != i64(i32(r));
}
void s_mulk_i32(Wave& w, const Inst& in) { D(w, in, u32(i32(S0(w, in)) * simm(in))); }

// Hardware registers.
enum : unsigned { HW_MODE = 1, HW_STATUS = 2, HW_TRAPSTS = 3, HW_HW_ID = 4, HW_GPR_ALLOC = 5,
                  HW_LDS_ALLOC = 6, HW_IB_STS = 7, HW_XCC_ID = 20 };
u32 hwreg_value(const Wave& w, const Inst& in, unsigned id) {
  switch (id) {
    case HW_MODE: return w.mode;
    case HW_TRAPSTS: return w.trapsts;
    case HW_STATUS: {
      u32 waves = w.group ? w.group->num_waves : 1;
      return u32(w.scc) | u32(w.exec == 0) << 9 | u32(w.vcc == 0) << 10 | u32(waves > 1) << 11 |
             1u << 16;
    }
    case HW_HW_ID:
      return (w.wave_in_group & 15) | ((w.wave_in_group >> 4) & 3) << 4 |
             (w.workgroup_linear & 15) << 8;
    case HW_GPR_ALLOC: {
      const KernelImage* k = w.dispatch ? w.dispatch->image : nullptr;
      u32 v = k ? (k->next_free_vgpr + 7) / 8 : 0, s = k ? (k->next_free_sgpr + 15) / 16 : 0;
      return (v ? v - 1 : 0) << 8 | (s ? s - 1 : 0) << 24;
    }
    case HW_LDS_ALLOC: return ((w.lds_size + 255) / 256) << 12;  // LDS_SIZE in 64-dword blocks
    case HW_IB_STS: case HW_XCC_ID: return 0;
    default: fail(in, "hardware register " + std::to_string(id) + " is not simulated");
  }
}
void s_getreg_b32(Wave& w, const Inst& in) {
  unsigned id = in.mod.simm16 & 63, off = (in.mod.simm16 >> 6) & 31, size = ((in.mod.simm16 >> 11) & 31) + 1;
  u64 mask = (u64(1) << size) - 1;
  D(w, in, u32((u64(hwreg_value(w, in, id)) >> off) & mask));
}
void setreg(Wave& w, const Inst& in, u32 value) {
  unsigned id = in.mod.simm16 & 63, off = (in.mod.simm16 >> 6) & 31, size = ((in.mod.simm16 >> 11) & 31) + 1;
  u32 mask = u32(((u64(1) << size) - 1) << off);
  u32 shifted = u32(u64(value) << off) & mask;
  if (id == HW_MODE) w.mode = (w.mode & ~mask) | shifted;
  else if (id == HW_TRAPSTS) w.trapsts = (w.trapsts & ~mask) | shifted;
  else fail(in, "s_setreg of hardware register " + std::to_string(id) + " is not simulated");
}
void s_setreg_b32(Wave& w, const Inst& in) { setreg(w, in, S0(w, in)); }
void s_setreg_imm32_b32(Wave& w, const Inst& in) { setreg(w, in, u32(in.src[0].imm)); }
void s_call_b64(Wave& w, const Inst& in) {
  D64(w, in, w.dispatch->code_base + in.pc + in.size);
  w.pc = in.src[0].imm;
}

// ---------------------------------------------------------------- SOP1
void s_mov_b32(Wave& w, const Inst& in) { D(w, in, S0(w, in)); }
void s_mov_b64(Wave& w, const Inst& in) { D64(w, in, S0_64(w, in)); }
void s_cmov_b32(Wave& w, const Inst& in) { if (w.scc) D(w, in, S0(w, in)); }
void s_cmov_b64(Wave& w, const Inst& in) { if (w.scc) D64(w, in, S0_64(w, in)); }
void s_not_b32(Wave& w, const Inst& in) { u32 r = ~S0(w, in); D(w, in, r); w.scc = r != 0; }
void s_not_b64(Wave& w, const Inst& in) { u64 r = ~S0_64(w, in); D64(w, in, r); w.scc = r != 0; }
template <class T>
T wqm(T v) {
  T r = 0;
  for (unsigned i = 0; i < sizeof(T) * 8; i += 4)
    if ((v >> i) & 15) r |= T(15) << i;
  return r;
}
void s_wqm_b32(Wave& w, const Inst& in) { u32 r = wqm(S0(w, in)); D(w, in, r); w.scc = r != 0; }
void s_wqm_b64(Wave& w, const Inst& in) { u64 r = wqm(S0_64(w, in)); D64(w, in, r); w.scc = r != 0; }
u32 brev32(u32 v) {
  u32 r = 0;
  for (int i = 0; i < 32; ++i) r |= ((v >> i) & 1) << (31 - i);
  return r;
}
void s_brev_b32(Wave& w, const Inst& in) { D(w, in, brev32(S0(w, in))); }
void s_brev_b64(Wave& w, const Inst& in) {
  u64 v = S0_64(w, in);
  D64(w, in, (u64(brev32(u32(v))) << 32) | brev32(u32(v >> 32)));
}
void s_bcnt0_b32(Wave& w, const Inst& in) { u32 r = 32 - std::popcount(S0(w, in)); D(w, in, r); w.scc = r != 0; }
void s_bcnt0_b64(Wave& w, const Inst& in) { u32 r = 64 - std::popcount(S0_64(w, in)); D(w, in, r); w.scc = r != 0; }
void s_bcnt1_b32(Wave& w, const Inst& in) { u32 r = std::popcount(S0(w, in)); D(w, in, r); w.scc = r != 0; }
void s_bcnt1_b64(Wave& w, const Inst& in) { u32 r = std::popcount(S0_64(w, in)); D(w, in, r); w.scc = r != 0; }
// ff0/ff1: index of the first 0/1 bit from the LSB, -1 if none.
void s_ff0_b32(Wave& w, const Inst& in) { u32 v = ~S0(w, in); D(w, in, v ? u32(std::countr_zero(v)) : ~0u); }
void s_ff0_b64(Wave& w, const Inst& in) { u64 v = ~S0_64(w, in); D(w, in, v ? u32(std::countr_zero(v)) : ~0u); }
void s_ff1_b32(Wave& w, const Inst& in) { u32 v = S0(w, in); D(w, in, v ? u32(std::countr_zero(v)) : ~0u); }
void s_ff1_b64(Wave& w, const Inst& in) { u64 v = S0_64(w, in); D(w, in, v ? u32(std::countr_zero(v)) : ~0u); }
// flbit: leading zeros from the MSB, -1 if none; the signed forms count sign bits.
void s_flbit_b32(Wave& w, const Inst& in) { u32 v = S0(w, in); D(w, in, v ? u32(std::countl_zero(v)) : ~0u); }
void s_flbit_b64(Wave& w, const Inst& in) { u64 v = S0_64(w, in); D(w, in, v ? u32(std::countl_zero(v)) : ~0u); }
void s_flbit_i32(Wave& w, const Inst& in) {
  u32 v = S0(w, in);
  if (v == 0 || v == ~0u) return D(w, in, ~0u);
  D(w, in, u32(std::countl_zero(i32(v) < 0 ? ~v : v)));
}
void s_flbit_i64(Wave& w, const Inst& in) {
  u64 v = S0_64(w, in);
  if (v == 0 || v == ~0ull) return D(w, in, ~0u);
  D(w, in, u32(std::countl_zero(i64(v) < 0 ? ~v : v)));
}
void s_sext_i8(Wave& w, const Inst& in) { D(w, in, u32(i32(int8_t(S0(w, in))))); }
void s_sext_i16(Wave& w, const Inst& in) { D(w, in, u32(i32(int16_t(S0(w, in))))); }
void s_bitset0_b32(Wave& w, const Inst& in) { D(w, in, read_scalar(w, in.dst[0]) & ~(1u << (S0(w, in) & 31))); }
void s_bitset1_b32(Wave& w, const Inst& in) { D(w, in, read_scalar(w, in.dst[0]) | (1u << (S0(w, in) & 31))); }
void s_bitset0_b64(Wave& w, const Inst& in) { D64(w, in, read_scalar64(w, in.dst[0]) & ~(u64(1) << (S0(w, in) & 63))); }
void s_bitset1_b64(Wave& w, const Inst& in) { D64(w, in, read_scalar64(w, in.dst[0]) | (u64(1) << (S0(w, in) & 63))); }
void s_getpc_b64(Wave& w, const Inst& in) { D64(w, in, w.dispatch->code_base + in.pc + in.size); }
void jump_to(Wave& w, u64 addr) { w.pc = addr - w.dispatch->code_base; }
void s_setpc_b64(Wave& w, const Inst& in) { jump_to(w, S0_64(w, in)); }
void s_swappc_b64(Wave& w, const Inst& in) {
  u64 target = S0_64(w, in);
  D64(w, in, w.dispatch->code_base + in.pc + in.size);
  jump_to(w, target);
}
// saveexec family: D = old EXEC; EXEC = f(S0, old EXEC); SCC = EXEC != 0.
enum class Sx { And, Or, Xor, Andn2, Orn2, Nand, Nor, Xnor, Andn1, Orn1 };
template <Sx op>
void s_saveexec(Wave& w, const Inst& in) {
  u64 s = S0_64(w, in), e = w.exec, r = 0;
  switch (op) {
    case Sx::And: r = s & e; break;
    case Sx::Or: r = s | e; break;
    case Sx::Xor: r = s ^ e; break;
    case Sx::Andn2: r = s & ~e; break;
    case Sx::Orn2: r = s | ~e; break;
    case Sx::Nand: r = ~(s & e); break;
    case Sx::Nor: r = ~(s | e); break;
    case Sx::Xnor: r = ~(s ^ e); break;
    case Sx::Andn1: r = ~s & e; break;
    case Sx::Orn1: r = ~s | e; break;
  }
  D64(w, in, e);
  w.exec = r;
  w.scc = r != 0;
}
// wrexec: EXEC = f(S0, EXEC); D = the new EXEC.
void s_andn1_wrexec_b64(Wave& w, const Inst& in) {
  u64 r = ~S0_64(w, in) & w.exec;
  w.exec = r;
  D64(w, in, r);
  w.scc = r != 0;
}
void s_andn2_wrexec_b64(Wave& w, const Inst& in) {
  u64 r = S0_64(w, in) & ~w.exec;
  w.exec = r;
  D64(w, in, r);
  w.scc = r != 0;
}
template <class T>
T quadmask(T v) {
  T r = 0;
  for (unsigned i = 0; i < sizeof(T) * 2; ++i)
    if ((v >> (4 * i)) & 15) r |= T(1) << i;
  return r;
}
void s_quadmask_b32(Wave& w, const Inst& in) { u32 r = quadmask(S0(w, in)); D(w, in, r); w.scc = r != 0; }
void s_quadmask_b64(Wave& w, const Inst& in) { u64 r = quadmask(S0_64(w, in)); D64(w, in, r); w.scc = r != 0; }
// movrel: SGPR index relative to M0.
unsigned rel_index(const Wave& w, const Inst& in, const Operand& o, unsigned dwords) {
  if (o.kind != Operand::Sgpr) fail(in, "s_movrel needs an SGPR base operand");
  unsigned idx = o.reg + w.m0;
  if (idx + dwords > unsigned(kNumSgprs)) fail(in, "s_movrel: SGPR index s" + std::to_string(idx) + " (base + M0) is out of range");
  return idx;
}
void s_movrels_b32(Wave& w, const Inst& in) { D(w, in, w.sgpr[rel_index(w, in, in.src[0], 1)]); }
void s_movrels_b64(Wave& w, const Inst& in) {
  unsigned i = rel_index(w, in, in.src[0], 2);
  D64(w, in, w.sgpr[i] | u64(w.sgpr[i + 1]) << 32);
}
void s_movreld_b32(Wave& w, const Inst& in) { w.sgpr[rel_index(w, in, in.dst[0], 1)] = S0(w, in); }
void s_movreld_b64(Wave& w, const Inst& in) {
  unsigned i = rel_index(w, in, in.dst[0], 2);
  u64 v = S0_64(w, in);
  w.sgpr[i] = u32(v);
  w.sgpr[i + 1] = u32(v >> 32);
}
void s_abs_i32(Wave& w, const Inst& in) {
  i32 v = i32(S0(w, in));
  u32 r = v < 0 ? u32(0) - u32(v) : u32(v);
  D(w, in, r);
  w.scc = r != 0;
}
void s_bitreplicate_b64_b32(Wave& w, const Inst& in) {
  u32 v = S0(w, in);
  u64 r = 0;
  for (int i = 0; i < 32; ++i)
    if (v >> i & 1) r |= u64(3) << (2 * i);
  D64(w, in, r);
}

// ---------------------------------------------------------------- VGPR index mode, VSKIP
// M0[7:0] = index, M0[15:12] = enables (src0, src1, src2, dst); other M0 bits are kept.
void set_gpr_idx(Wave& w, u32 index, u32 enables) {
  w.m0 = (w.m0 & ~0xf0ffu) | (index & 0xff) | (enables & 15) << 12;
}
void s_set_gpr_idx_on(Wave& w, const Inst& in) {
  // SIMM4: the raw S1 field (SOPC bits [11:8]).
  set_gpr_idx(w, S0(w, in), (in.mod.simm16 >> 8) & 15);
  w.mode |= kModeGprIdxEn;
}
void s_set_gpr_idx_off(Wave& w, const Inst&) { w.mode &= ~kModeGprIdxEn; }
void s_set_gpr_idx_idx(Wave& w, const Inst& in) { set_gpr_idx(w, S0(w, in), w.m0 >> 12); }
void s_set_gpr_idx_mode(Wave& w, const Inst& in) { set_gpr_idx(w, w.m0, in.mod.simm16); }
void s_setvskip(Wave& w, const Inst& in) {
  bool on = (S0(w, in) >> (S1(w, in) & 31)) & 1;
  w.mode = on ? (w.mode | kModeVskip) : (w.mode & ~kModeVskip);
}

// ---------------------------------------------------------------- fork/join
u32 csp(const Wave& w) { return w.mode >> kModeCspShift & 7; }
void set_csp(Wave& w, u32 v) {
  w.mode = (w.mode & ~(7u << kModeCspShift)) | (v & 7) << kModeCspShift;
}
// Pushes {pc (device byte address), mask} at SGPR[CSP * 4]; CSP += 1.
void fork_push(Wave& w, const Inst& in, u64 pc, u64 mask) {
  u32 k = csp(w);
  if (k >= 7) fail(in, "fork/join branch stack overflow (CSP = 7; the 3-bit CSP would wrap)");
  w.sgpr[4 * k] = u32(mask);
  w.sgpr[4 * k + 1] = u32(mask >> 32);
  w.sgpr[4 * k + 2] = u32(pc);
  w.sgpr[4 * k + 3] = u32(pc >> 32);
  set_csp(w, k + 1);
}
// S0 = compare mask; `target` = the branch target's device byte address.
void fork(Wave& w, const Inst& in, u64 mask, u64 target) {
  const u64 next = w.dispatch->code_base + in.pc + in.size;
  const u64 pass = mask & w.exec, failm = ~mask & w.exec;
  if (pass == w.exec) {
    jump_to(w, target);
  } else if (failm == w.exec) {
    // PC += 4: fall through
  } else if (std::popcount(failm) < std::popcount(pass)) {
    w.exec = failm;
    fork_push(w, in, target, pass);
  } else {
    w.exec = pass;
    fork_push(w, in, next, failm);
    jump_to(w, target);
  }
}
void s_cbranch_g_fork(Wave& w, const Inst& in) { fork(w, in, S0_64(w, in), S1_64(w, in)); }
void s_cbranch_i_fork(Wave& w, const Inst& in) {
  // The decoder gives the mask as src0 and the target (pc + 4 + SIMM16 * 4) as a label.
  fork(w, in, S0_64(w, in), w.dispatch->code_base + in.src[1].imm);
}
void s_cbranch_join(Wave& w, const Inst& in) {
  u32 k = csp(w);
  if (k == S0(w, in)) return;  // second time at the join: continue
  if (k == 0) fail(in, "fork/join branch stack underflow (CSP = 0 but the saved CSP is " +
                           std::to_string(S0(w, in)) + ")");
  --k;
  set_csp(w, k);
  w.exec = w.sgpr[4 * k] | u64(w.sgpr[4 * k + 1]) << 32;
  jump_to(w, w.sgpr[4 * k + 2] | u64(w.sgpr[4 * k + 3]) << 32);
}
// Return from a trap handler: PC = S0 (PRIV is not modelled; restore's S1 is ignored).
void s_rfe_b64(Wave& w, const Inst& in) { jump_to(w, S0_64(w, in)); }

// ---------------------------------------------------------------- SOPC
template <int Cmp, bool Signed>
void s_cmp32(Wave& w, const Inst& in) {
  u32 a = S0(w, in), b = S1(w, in);
  if (Signed) {
    i32 x = i32(a), y = i32(b);
    w.scc = Cmp == 0 ? x == y : Cmp == 1 ? x != y : Cmp == 2 ? x > y : Cmp == 3 ? x >= y : Cmp == 4 ? x < y : x <= y;
  } else {
    w.scc = Cmp == 0 ? a == b : Cmp == 1 ? a != b : Cmp == 2 ? a > b : Cmp == 3 ? a >= b : Cmp == 4 ? a < b : a <= b;
  }
}
void s_cmp_eq_u64(Wave& w, const Inst& in) { w.scc = S0_64(w, in) == S1_64(w, in); }
void s_cmp_lg_u64(Wave& w, const Inst& in) { w.scc = S0_64(w, in) != S1_64(w, in); }
void s_bitcmp0_b32(Wave& w, const Inst& in) { w.scc = ((S0(w, in) >> (S1(w, in) & 31)) & 1) == 0; }
void s_bitcmp1_b32(Wave& w, const Inst& in) { w.scc = ((S0(w, in) >> (S1(w, in) & 31)) & 1) == 1; }
void s_bitcmp0_b64(Wave& w, const Inst& in) { w.scc = ((S0_64(w, in) >> (S1(w, in) & 63)) & 1) == 0; }
void s_bitcmp1_b64(Wave& w, const Inst& in) { w.scc = ((S0_64(w, in) >> (S1(w, in) & 63)) & 1) == 1; }

// ---------------------------------------------------------------- SOPP
void s_nop(Wave&, const Inst&) {}
void s_endpgm(Wave& w, const Inst&) { w.done = true; }
void s_branch(Wave& w, const Inst& in) { w.pc = in.src[0].imm; }
void s_cbranch_scc0(Wave& w, const Inst& in) { if (!w.scc) w.pc = in.src[0].imm; }
void s_cbranch_scc1(Wave& w, const Inst& in) { if (w.scc) w.pc = in.src[0].imm; }
void s_cbranch_vccz(Wave& w, const Inst& in) { if (w.vcc == 0) w.pc = in.src[0].imm; }
void s_cbranch_vccnz(Wave& w, const Inst& in) { if (w.vcc != 0) w.pc = in.src[0].imm; }
void s_cbranch_execz(Wave& w, const Inst& in) { if (w.exec == 0) w.pc = in.src[0].imm; }
void s_cbranch_execnz(Wave& w, const Inst& in) { if (w.exec != 0) w.pc = in.src[0].imm; }
// Debugger-conditional branches: no debugger is attached, the conditions are false.
void s_cbranch_cdbg(Wave&, const Inst&) {}
void s_waitcnt(Wave& w, const Inst& in) {
  if (w.dispatch && w.dispatch->observer) w.dispatch->observer->on_waitcnt(w, in);
}
void s_barrier(Wave& w, const Inst&) {
  // The dispatcher releases the group once every unfinished wave waits here.
  w.at_barrier = true;
}
void s_noop_control(Wave&, const Inst&) {}  // s_sleep, s_setprio, perf levels, s_icache_inv ...
void s_sethalt(Wave&, const Inst& in) {
  if (in.mod.simm16 & 1) fail(in, "the wave halts itself (s_sethalt); a halted wave never finishes");
}
void s_trap(Wave&, const Inst& in) {
  fail(in, "trap " + std::to_string(in.mod.simm16 & 0xff) +
               " (s_trap: the kernel aborted, e.g. __builtin_trap or a failed assert)");
}
void s_sendmsg(Wave&, const Inst& in) {
  unsigned id = in.mod.simm16 & 15;
  // MSG_INTERRUPT (1), MSG_SAVEWAVE (4), MSG_STALL_WAVE_GEN (5), MSG_HALT_WAVES (6),
  // MSG_ORDERED_PS_DONE (7), MSG_EARLY_PRIM_DEALLOC (8), MSG_GS_ALLOC_REQ (9),
  // MSG_GET_DOORBELL (10), MSG_SYSMSG (15) have no effect on a compute wave's results.
  if (id == 2 || id == 3) fail(in, "geometry-shader messages (MSG_GS, MSG_GS_DONE) are not valid in a compute kernel");
}
void s_sendmsghalt(Wave&, const Inst& in) { fail(in, "s_sendmsghalt halts the wave"); }
void s_endpgm_saved(Wave& w, const Inst&) { w.done = true; }

// ---------------------------------------------------------------- SMEM counters
// s_memtime: the wave's instruction count stands in for the shader clock (deterministic).
void s_memtime(Wave& w, const Inst& in) { D64(w, in, w.issued * 4); }
// s_memrealtime: a 100 MHz "real time" derived from the same count (4 instructions per tick).
void s_memrealtime(Wave& w, const Inst& in) { D64(w, in, w.issued / 4); }

const Registrar scalar_handlers{
    // SOP2
    {"s_add_u32", s_add_u32}, {"s_sub_u32", s_sub_u32}, {"s_add_i32", s_add_i32},
    {"s_sub_i32", s_sub_i32}, {"s_addc_u32", s_addc_u32}, {"s_subb_u32", s_subb_u32},
    {"s_min_i32", s_minmax<true, true>}, {"s_min_u32", s_minmax<false, true>},
    {"s_max_i32", s_minmax<true, false>}, {"s_max_u32", s_minmax<false, false>},
    {"s_cselect_b32", s_cselect_b32}, {"s_cselect_b64", s_cselect_b64},
    {"s_and_b32", s_bit32<Bit::And>}, {"s_and_b64", s_bit64<Bit::And>},
    {"s_or_b32", s_bit32<Bit::Or>}, {"s_or_b64", s_bit64<Bit::Or>},
    {"s_xor_b32", s_bit32<Bit::Xor>}, {"s_xor_b64", s_bit64<Bit::Xor>},
    {"s_andn2_b32", s_bit32<Bit::Andn2>}, {"s_andn2_b64", s_bit64<Bit::Andn2>},
    {"s_orn2_b32", s_bit32<Bit::Orn2>}, {"s_orn2_b64", s_bit64<Bit::Orn2>},
    {"s_nand_b32", s_bit32<Bit::Nand>}, {"s_nand_b64", s_bit64<Bit::Nand>},
    {"s_nor_b32", s_bit32<Bit::Nor>}, {"s_nor_b64", s_bit64<Bit::Nor>},
    {"s_xnor_b32", s_bit32<Bit::Xnor>}, {"s_xnor_b64", s_bit64<Bit::Xnor>},
    {"s_lshl_b32", s_lshl_b32}, {"s_lshl_b64", s_lshl_b64}, {"s_lshr_b32", s_lshr_b32},
    {"s_lshr_b64", s_lshr_b64}, {"s_ashr_i32", s_ashr_i32}, {"s_ashr_i64", s_ashr_i64},
    {"s_bfm_b32", s_bfm_b32}, {"s_bfm_b64", s_bfm_b64}, {"s_mul_i32", s_mul_i32},
    {"s_bfe_u32", s_bfe32<false>}, {"s_bfe_i32", s_bfe32<true>},
    {"s_bfe_u64", s_bfe64<false>}, {"s_bfe_i64", s_bfe64<true>},
    {"s_absdiff_i32", s_absdiff_i32}, {"s_mul_hi_u32", s_mul_hi_u32},
    {"s_mul_hi_i32", s_mul_hi_i32}, {"s_lshl1_add_u32", s_lshl_add_u32<1>},
    {"s_lshl2_add_u32", s_lshl_add_u32<2>}, {"s_lshl3_add_u32", s_lshl_add_u32<3>},
    {"s_lshl4_add_u32", s_lshl_add_u32<4>}, {"s_pack_ll_b32_b16", s_pack_ll},
    {"s_pack_lh_b32_b16", s_pack_lh}, {"s_pack_hh_b32_b16", s_pack_hh},
    // SOPK
    {"s_movk_i32", s_movk_i32}, {"s_cmovk_i32", s_cmovk_i32},
    {"s_cmpk_eq_i32", s_cmpk<0, true>}, {"s_cmpk_lg_i32", s_cmpk<1, true>},
    {"s_cmpk_gt_i32", s_cmpk<2, true>}, {"s_cmpk_ge_i32", s_cmpk<3, true>},
    {"s_cmpk_lt_i32", s_cmpk<4, true>}, {"s_cmpk_le_i32", s_cmpk<5, true>},
    {"s_cmpk_eq_u32", s_cmpk<0, false>}, {"s_cmpk_lg_u32", s_cmpk<1, false>},
    {"s_cmpk_gt_u32", s_cmpk<2, false>}, {"s_cmpk_ge_u32", s_cmpk<3, false>},
    {"s_cmpk_lt_u32", s_cmpk<4, false>}, {"s_cmpk_le_u32", s_cmpk<5, false>},
    {"s_addk_i32", s_addk_i32}, {"s_mulk_i32", s_mulk_i32}, {"s_getreg_b32", s_getreg_b32},
    {"s_setreg_b32", s_setreg_b32}, {"s_setreg_imm32_b32", s_setreg_imm32_b32},
    {"s_call_b64", s_call_b64},
    // SOP1
    {"s_mov_b32", s_mov_b32}, {"s_mov_b64", s_mov_b64}, {"s_cmov_b32", s_cmov_b32},
    {"s_cmov_b64", s_cmov_b64}, {"s_not_b32", s_not_b32}, {"s_not_b64", s_not_b64},
    {"s_wqm_b32", s_wqm_b32}, {"s_wqm_b64", s_wqm_b64}, {"s_brev_b32", s_brev_b32},
    {"s_brev_b64", s_brev_b64}, {"s_bcnt0_i32_b32", s_bcnt0_b32},
    {"s_bcnt0_i32_b64", s_bcnt0_b64}, {"s_bcnt1_i32_b32", s_bcnt1_b32},
    {"s_bcnt1_i32_b64", s_bcnt1_b64}, {"s_ff0_i32_b32", s_ff0_b32}, {"s_ff0_i32_b64", s_ff0_b64},
    {"s_ff1_i32_b32", s_ff1_b32}, {"s_ff1_i32_b64", s_ff1_b64},
    {"s_flbit_i32_b32", s_flbit_b32}, {"s_flbit_i32_b64", s_flbit_b64},
    {"s_flbit_i32", s_flbit_i32}, {"s_flbit_i32_i64", s_flbit_i64},
    {"s_sext_i32_i8", s_sext_i8}, {"s_sext_i32_i16", s_sext_i16},
    {"s_bitset0_b32", s_bitset0_b32}, {"s_bitset0_b64", s_bitset0_b64},
    {"s_bitset1_b32", s_bitset1_b32}, {"s_bitset1_b64", s_bitset1_b64},
    {"s_getpc_b64", s_getpc_b64}, {"s_setpc_b64", s_setpc_b64}, {"s_swappc_b64", s_swappc_b64},
    {"s_and_saveexec_b64", s_saveexec<Sx::And>}, {"s_or_saveexec_b64", s_saveexec<Sx::Or>},
    {"s_xor_saveexec_b64", s_saveexec<Sx::Xor>}, {"s_andn2_saveexec_b64", s_saveexec<Sx::Andn2>},
    {"s_orn2_saveexec_b64", s_saveexec<Sx::Orn2>}, {"s_nand_saveexec_b64", s_saveexec<Sx::Nand>},
    {"s_nor_saveexec_b64", s_saveexec<Sx::Nor>}, {"s_xnor_saveexec_b64", s_saveexec<Sx::Xnor>},
    {"s_andn1_saveexec_b64", s_saveexec<Sx::Andn1>}, {"s_orn1_saveexec_b64", s_saveexec<Sx::Orn1>},
    {"s_andn1_wrexec_b64", s_andn1_wrexec_b64}, {"s_andn2_wrexec_b64", s_andn2_wrexec_b64},
    {"s_quadmask_b32", s_quadmask_b32}, {"s_quadmask_b64", s_quadmask_b64},
    {"s_movrels_b32", s_movrels_b32}, {"s_movrels_b64", s_movrels_b64},
    {"s_movreld_b32", s_movreld_b32}, {"s_movreld_b64", s_movreld_b64},
    {"s_abs_i32", s_abs_i32}, {"s_bitreplicate_b64_b32", s_bitreplicate_b64_b32},
    // SOPC
    {"s_cmp_eq_i32", s_cmp32<0, true>}, {"s_cmp_lg_i32", s_cmp32<1, true>},
    {"s_cmp_gt_i32", s_cmp32<2, true>}, {"s_cmp_ge_i32", s_cmp32<3, true>},
    {"s_cmp_lt_i32", s_cmp32<4, true>}, {"s_cmp_le_i32", s_cmp32<5, true>},
    {"s_cmp_eq_u32", s_cmp32<0, false>}, {"s_cmp_lg_u32", s_cmp32<1, false>},
    {"s_cmp_gt_u32", s_cmp32<2, false>}, {"s_cmp_ge_u32", s_cmp32<3, false>},
    {"s_cmp_lt_u32", s_cmp32<4, false>}, {"s_cmp_le_u32", s_cmp32<5, false>},
    {"s_cmp_eq_u64", s_cmp_eq_u64}, {"s_cmp_lg_u64", s_cmp_lg_u64},
    {"s_bitcmp0_b32", s_bitcmp0_b32}, {"s_bitcmp1_b32", s_bitcmp1_b32},
    {"s_bitcmp0_b64", s_bitcmp0_b64}, {"s_bitcmp1_b64", s_bitcmp1_b64},
    // SOPP
    {"s_nop", s_nop}, {"s_endpgm", s_endpgm}, {"s_branch", s_branch},
    {"s_cbranch_scc0", s_cbranch_scc0}, {"s_cbranch_scc1", s_cbranch_scc1},
    {"s_cbranch_vccz", s_cbranch_vccz}, {"s_cbranch_vccnz", s_cbranch_vccnz},
    {"s_cbranch_execz", s_cbranch_execz}, {"s_cbranch_execnz", s_cbranch_execnz},
    {"s_cbranch_cdbgsys", s_cbranch_cdbg}, {"s_cbranch_cdbguser", s_cbranch_cdbg},
    {"s_cbranch_cdbgsys_or_user", s_cbranch_cdbg}, {"s_cbranch_cdbgsys_and_user", s_cbranch_cdbg},
    {"s_waitcnt", s_waitcnt}, {"s_barrier", s_barrier}, {"s_sleep", s_noop_control},
    {"s_setprio", s_noop_control}, {"s_incperflevel", s_noop_control},
    {"s_decperflevel", s_noop_control}, {"s_icache_inv", s_noop_control},
    {"s_ttracedata", s_noop_control}, {"s_wakeup", s_noop_control}, {"s_setkill", s_noop_control},
    {"s_sethalt", s_sethalt}, {"s_trap", s_trap}, {"s_sendmsg", s_sendmsg},
    {"s_sendmsghalt", s_sendmsghalt}, {"s_endpgm_saved", s_endpgm_saved},
    {"s_endpgm_ordered_ps_done", s_endpgm_saved},
    // VGPR index mode, VSKIP, fork/join, trap return
    {"s_set_gpr_idx_on", s_set_gpr_idx_on}, {"s_set_gpr_idx_off", s_set_gpr_idx_off},
    {"s_set_gpr_idx_idx", s_set_gpr_idx_idx}, {"s_set_gpr_idx_mode", s_set_gpr_idx_mode},
    {"s_setvskip", s_setvskip}, {"s_cbranch_g_fork", s_cbranch_g_fork},
    {"s_cbranch_i_fork", s_cbranch_i_fork}, {"s_cbranch_join", s_cbranch_join},
    {"s_rfe_b64", s_rfe_b64}, {"s_rfe_restore_b64", s_rfe_b64},
    // SMEM counters
    {"s_memtime", s_memtime}, {"s_memrealtime", s_memrealtime},
};

}  // namespace
}  // namespace hipasm::sim

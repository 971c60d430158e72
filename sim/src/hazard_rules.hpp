// The simulator's OWN table of gfx942 and gfx950 wait-state hazards, written from
// ../shared/reference/gfx942.md and gfx950.md and checked row by row against LLVM's
// GCNHazardRecognizer.cpp (gfx940 and IsGFX950 paths). A row names the targets it holds on;
// the MFMA terms that differ are one MfmaWaits row per target. It is deliberately NOT shared with the hipasm
// library's hazard pass: a test cross-checks the two tables, so one bug cannot hide in both.
//
// A rule: a producer predicate, a consumer predicate, a register relation and a number of
// wait states (fixed, or a function of the producer's MFMA passes / kind). The checker looks,
// for each rule the consumer matches and each register the relation names, for the NEAREST
// earlier instruction of the wave that matches producer and relation (as LLVM's
// getWaitStatesSinceDef does) and reports when fewer wait states separate them than required.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core.hpp"

namespace hipasm::sim::hz {

// Properties of one instruction, from its mnemonic, format and operands.
enum Flag : uint64_t {
  VALU = 1ull << 0,        // any vector ALU op, MFMA, v_readlane/v_accvgpr_* and (as LLVM) LDS-DMA included
  MFMA = 1ull << 1,        // v_mfma_* and v_smfmac_*
  XDL = 1ull << 2,         // MFMA on the XDL pipe (all but f32-input and f64)
  DGEMM = 1ull << 3,       // v_mfma_f64_*
  DOT = 1ull << 4,         // v_dot*
  TRANS = 1ull << 5,       // transcendental (exp, log, rcp, rsq, sqrt, sin, cos)
  SALU = 1ull << 6,        // SOP1/SOP2/SOPK/SOPC/SOPP
  SMEM = 1ull << 7,
  VMEM = 1ull << 8,        // MUBUF, GLOBAL, SCRATCH
  FLAT = 1ull << 9,        // FLAT segment instructions
  DS = 1ull << 10,
  DPP = 1ull << 11,
  DST_PARTIAL = 1ull << 12,  // SDWA dst_sel != DWORD, or VOP3 op_sel dst-high
  CMPX = 1ull << 13,
  READLANE = 1ull << 14,   // v_readlane_b32
  READFIRSTLANE = 1ull << 15,
  WRITELANE = 1ull << 16,
  PERMLANE = 1ull << 17,   // v_permlane* (none on gfx942; kept for the table's row)
  DIV_FMAS = 1ull << 18,
  FMA64 = 1ull << 19,      // v_fma_f64, v_fmac_f64
  SETREG = 1ull << 20,
  GETREG = 1ull << 21,
  M0_READER = 1ull << 22,  // s_sendmsg*, s_ttracedata, GDS, ds_*_addtid, s_movrel*, LDS-DMA
  BIG_STORE = 1ull << 23,  // stores/atomics with > 64-bit data (see classify)
  WRITES_EXEC = 1ull << 24,
  WRITES_VCC = 1ull << 25,
  WRITES_M0 = 1ull << 26,
  READS_VCCZ = 1ull << 27,
  READS_EXECZ = 1ull << 28,
  READS_EXEC = 1ull << 29,  // EXEC as an explicit source operand
  NOP = 1ull << 30,         // s_nop
  RFE = 1ull << 31,         // s_rfe_b64 (reads hardware register TRAPSTS)
  MAY_STORE = 1ull << 32,   // SMEM/VMEM/FLAT store, atomic or LDS-DMA (LLVM's mayStore; not cache controls)
  CVT_FWD = 1ull << 33,     // gfx950 scaled convert whose result is not forwarded (see classify)
};

// LLVM's soft-clause rule (checkSoftClauseHazards, XNACK on: target id gfx942 is XNACK
// "any"), which is not a producer/consumer pair and so not a row of rules(): an SMEM joining
// a run of SMEM, or a VMEM/FLAT joining a run of VMEM/FLAT, when the run already writes a
// register, must not be a store, and the run's writes (its own included) must not meet the
// run's reads. One wait state (any other instruction) ends the run. The checker's tag.
inline constexpr std::string_view kSoftClauseTag = "hazard soft-clause";

enum File : uint8_t { FS, FV /* v0..v255, a0..a255 at 256.. */, FVCC, FEXEC, FM0 };
struct Range {
  File file;
  uint16_t lo, hi;  // [lo, hi)
  bool overlaps(const Range& o) const { return file == o.file && lo < o.hi && o.lo < hi; }
  bool operator==(const Range& o) const = default;
};

struct InstInfo {
  uint64_t flags = 0;
  uint8_t passes = 0;      // MFMA passes (gfx942's; gfx950's f8f6f4 with an FP8 input: twice)
  int16_t hwreg = -1;      // s_setreg/s_getreg hardware register id
  uint8_t wait_states = 1; // this instruction's own wait states (s_nop N: N+1)
  std::vector<Range> defs, uses;  // explicit operands + the implicit VCC/EXEC/M0 ones
  bool has_src0 = false, has_src1 = false, has_srcA = false, has_srcB = false, has_srcC = false;
  Range src0{}, src1{}, srcA{}, srcB{}, srcC{}, mfma_dst{};
  bool has_mfma_dst = false;
  bool has_store_data = false;
  Range store_data{};
  std::string_view mnemonic;
  bool is_waitcnt = false, is_barrier = false;
  std::vector<uint8_t> consumer_rules;  // indexes into rules() whose consumer predicate matches
};

InstInfo classify(const Inst& in);

// How producer and consumer registers must relate for a rule to apply.
enum class Rel : uint8_t {
  SgprDefUse,     // producer writes an SGPR/VCC/EXEC/M0 the consumer reads (EXEC: every VMEM)
  VccDef,         // producer writes VCC (consumer reads it implicitly)
  LaneSelect,     // producer writes the SGPR/M0/VCC the consumer uses as lane select (src1)
  SameHwReg,      // s_setreg of the hardware register the consumer reads/writes
  M0Def,          // producer writes M0
  VgprDefUse,     // producer writes a VGPR/AGPR the consumer reads
  ExecDef,        // producer writes EXEC
  StoreDataDef,   // consumer writes a VGPR of the producer's store data
  VccExecDefZ,    // producer writes VCC (consumer reads vccz) or EXEC (consumer reads execz)
  SgprVccDefUse,  // producer writes an SGPR/VCC/EXEC/M0 the consumer reads explicitly (VCC: or implicitly)
  VgprDefSrc0,    // producer writes the VGPR the consumer reads as src0
  None,           // no register relation (cmpx -> explicit EXEC read, DGEMM -> fma64)
  MfmaSrcC,       // producer's MFMA dst overlaps the consumer MFMA's SrcC
  MfmaSrcAB,      // producer's MFMA dst overlaps the consumer MFMA's SrcA/SrcB
  MfmaDefUse,     // producer's MFMA dst overlaps a register the consumer reads
  MfmaDefDef,     // producer's MFMA dst overlaps a register the consumer writes
  SrcCDef,        // producer MFMA's SrcC overlaps a register the consumer writes (WAR)
  DotDefSrcAB,    // same v_dot opcode reads the producer's dst as srcA/srcB
  DotDefUseOther, // a different opcode reads the producer's v_dot dst
  DotDefDefOther, // a different VALU writes the producer's v_dot dst
  VgprDefUseDef,  // producer writes a VGPR the consumer reads or writes
};

// How many wait states a rule needs.
enum class Wait : uint8_t {
  Fixed,          // Rule::n
  SrcC,           // MFMA -> MFMA SrcC (same or overlapping)
  SrcAB,          // MFMA -> MFMA SrcA/B: XDL NP+3, non-XDL NP+2, DGEMM 16x16 11 / 4x4 6
  ReadAfterMfma,  // VALU/mem read of an MFMA result: XDL NP+3, non-XDL NP+2, DGEMM per kind
  WawAfterMfma,   // VALU/mem write: XDL NP+3, non-XDL NP+2, DGEMM 16x16 11 / 4x4 6
  WarSrcC,        // XDL SrcC read -> write: 2/4/8/16 passes -> 1/3/7/15
};

struct Rule {
  const char* id;          // short stable name, for tests and the cross-check
  uint64_t prod_all, prod_any, prod_none;  // producer: all of, at least one of (if any), none of
  uint64_t cons_all, cons_any, cons_none;  // consumer: same
  Rel rel;
  Wait wait;
  int8_t n;                // for Wait::Fixed
  int8_t max_window;       // largest wait states the rule can need (scan limit)
  const char* text;        // the rule as the diagnostic prints it
  uint8_t targets = 0xff;  // bit Target::index: the targets the rule holds on
};

// Target bits of Rule::targets.
inline constexpr uint8_t kGfx942Only = 1u << 0, kGfx950Only = 1u << 1;
inline bool rule_applies(const Rule& r, const Target& t) { return (r.targets >> t.index) & 1; }

std::span<const Rule> rules();

// The MFMA wait states that differ between targets, one row per target (hazard_rules.cpp):
// gfx950 adds to gfx942's XDL and f64 16x16 terms (../shared/reference/gfx950.md section 4,
// GCNHazardRecognizer.cpp's IsGFX950 terms).
struct MfmaWaits {
  int8_t xdl_srcc_extra;      // XDL -> overlapped SrcC: NP + this
  int8_t xdl2_srcc_nonxdl;    // ... a 2-pass XDL feeding a non-XDL MFMA's SrcC
  int8_t xdl_read_extra;      // XDL -> SrcA/B, VALU/memory read, VALU write: NP + this
  int8_t xdl2_read;           // ... for a 2-pass XDL
  int8_t dgemm16_read;        // f64 16x16x4 -> SrcA/B, VALU read
  int8_t dgemm16_srcc;        // f64 16x16x4 -> overlapped SrcC of a non-XDL MFMA
};
const MfmaWaits& mfma_waits(const Target& t);

// Wait states rule `r` needs between producer `p` and consumer `c`; `same` tells whether the
// related registers are exactly the same range (MFMA SrcC rule); `t`: the target's MFMA terms.
int required_wait_states(const Rule& r, const InstInfo& p, const InstInfo& c, bool same,
                         const MfmaWaits& t = mfma_waits(target_gfx942()));

inline bool matches(uint64_t flags, uint64_t all, uint64_t any, uint64_t none) {
  return (flags & all) == all && (any == 0 || (flags & any) != 0) && (flags & none) == 0;
}

// MFMA passes on gfx942 from the mnemonic (0 if not an MFMA).
int mfma_passes(std::string_view mnemonic);

// A flag every producer of rule `r` has (the rarest one), for a cheap "no producer of this
// kind in the window" test; 0 when the rule takes any producer.
uint64_t producer_key_flag(const Rule& r);

}  // namespace hipasm::sim::hz

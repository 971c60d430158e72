// The IR every pass works on: virtual registers, instructions with operands and
// modifiers, basic blocks with a CFG. Built by builder.hpp at compile time (constexpr),
// rewritten by the passes in passes/, printed by emit.hpp.
//
// Kept small and flat on purpose: constant evaluation cost grows with every object
// copied, so an instruction is a fixed-size POD and blocks hold vectors of them.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>
#include "vec.hpp"

#include "isa/instr_desc.hpp"

namespace hipasm {

enum class reg_class : uint8_t { sgpr, vgpr, agpr };

// Where a value was made: the user's line, for every diagnostic.
struct src_loc {
  const char* file = "";
  uint32_t line = 0;
};

// A virtual register: an array of `dwords` consecutive 32-bit registers of one class.
// After allocation `phys` is the first physical register (s/v/a index).
struct vreg_info {
  reg_class cls = reg_class::vgpr;
  uint16_t dwords = 1;
  uint16_t align = 1;        // in dwords: tuples start at a multiple of this
  int16_t fixed = -1;        // entry-state register (v0, s[0:1], s2...) or -1
  int16_t phys = -1;         // assigned by the allocator
  std::string_view name{};   // user name for asm comments (may be empty)
  src_loc loc{};             // where it was allocated
};

// Named hardware registers that are not allocated.
enum class special_reg : uint8_t {
  none, vcc, vcc_lo, vcc_hi, exec, exec_lo, exec_hi, m0, scc, vccz, execz,
  flat_scratch, src_shared_base, src_private_base,
};

struct operand {
  enum class kind : uint8_t { none, vreg, phys, special, imm, label };
  kind k = kind::none;
  reg_class cls = reg_class::vgpr;  // for vreg and phys
  special_reg sp = special_reg::none;
  bool neg = false, abs = false;    // VOP3 source modifiers
  uint16_t offset = 0;              // first dword inside the vreg (slicing)
  uint16_t dwords = 1;              // width of this use/def
  uint64_t value = 0;               // vreg id, physical index, immediate bits, or block id

  constexpr bool is_reg() const { return k == kind::vreg || k == kind::phys; }
};

// DPP / SDWA controls, printed as llvm-mc spells them.
struct dpp_mods {
  uint16_t ctrl = 0xffff;  // 0xffff: no DPP; else the 9-bit dpp_ctrl encoding
  uint8_t row_mask = 0xf, bank_mask = 0xf;
  bool bound_ctrl = false;
};
struct sdwa_mods {
  bool on = false;
  uint8_t dst_sel = 6, dst_unused = 0, src0_sel = 6, src1_sel = 6;  // 6 = DWORD
};

// Every modifier an instruction may carry; which ones are legal comes from the table.
struct modifiers {
  int32_t offset = 0;                  // offset:, or offset0 for ds 2-address forms
  int32_t offset1 = 0;
  bool glc = false, slc = false, nt = false, sc0 = false, sc1 = false;
  bool lds = false, idxen = false, offen = false, gds = false;
  bool clamp = false;
  uint8_t omod = 0;                    // 0 none, 1 mul:2, 2 mul:4, 3 div:2
  uint8_t op_sel = 0, op_sel_hi = 0xff, neg_lo = 0, neg_hi = 0;  // 0xff: default
  uint8_t cbsz = 0, abid = 0, blgp = 0;
  dpp_mods dpp{};
  sdwa_mods sdwa{};
};

// The modifiers of an instruction that has none: default arguments bind to it, so a call
// without modifiers constructs no modifiers object and the builder copies none.
inline constexpr modifiers no_modifiers{};

struct instr {
  uint16_t op = 0;                     // index into the target's instruction table
  uint8_t num_operands = 0;
  operand ops[isa::max_operands]{};    // a C array: std::array::operator[] is an interpreted call
  modifiers mods{};
  src_loc loc{};
  std::string_view comment{};          // extra asm comment (e.g. the hazard rule of an s_nop)
};

struct block {
  vec<instr> instrs;
  vec<uint32_t> succs;         // successor block ids (fall-through first)
  std::string_view label{};            // optional user label name
};

// A kernel under construction or after passes.
struct function {
  std::string_view name{};
  vec<vreg_info> vregs;
  vec<block> blocks;           // block 0 is the entry
  uint32_t lds_static_bytes = 0;
  bool lds_dynamic = false;
  // Entry state the kernel reads; the wrapper forces these on in the descriptor.
  bool uses_workgroup_id[3] = {false, false, false};
  bool uses_workitem_id[3] = {false, false, false};
  bool uses_kernarg_ptr = false;
};

}  // namespace hipasm

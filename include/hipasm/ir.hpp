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

namespace detail {
// A string literal as a string_view, its length from the array type. The string_view(const
// char*) constructor scans for the terminator through libstdc++'s constant-evaluation
// char_traits::length, one interpreted call per character (~1 us each in clang-22's bytecode
// interpreter): the printer's tokens were a third of its time.
// (A char array that is not a literal, such as a name buffer, ends at its last non-NUL.)
template <std::size_t N>
constexpr std::string_view lit(const char (&s)[N]) {
  std::size_t n = N;
  while (n > 0 && s[n - 1] == '\0') --n;
  return std::string_view(s, n);
}
}  // namespace detail

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
  int16_t pinned = -1;       // physical register the user pinned it to (gpr::pin), or -1
  int16_t phys = -1;         // assigned by the allocator
  std::string_view name{};   // user name for asm comments (may be empty)
  src_loc loc{};             // where it was allocated
  // For messages: the array shape the user allocated (dwords per element, inner dimensions)
  // and, for a piece split_registers cut out of an array, where it sits in it (dwords).
  uint8_t elem_dwords = 1, rank = 0;
  uint16_t dim1 = 1, dim2 = 1;
  uint16_t array_off = 0, array_dwords = 0;  // array_dwords 0: not a piece
  uint8_t user_align = 1;    // alignment the user asked for (gpr::aligned): kept by the pieces
  uint8_t lane_depth = 0;    // per-lane If/loop nesting where it was declared (builder checks)
  bool allow_undefined = false;  // may be read before any write (gpr::allow_undefined): kept by the pieces
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
  uint16_t bitop3 = 0;                 // gfx950 v_bitop3_*: the truth table (wider than its 8 bits
                                       // so that an out-of-range value reaches the checker)
  dpp_mods dpp{};
  sdwa_mods sdwa{};
};

// The modifiers of an instruction that has none: default arguments bind to it, so a call
// without modifiers constructs no modifiers object and the builder copies none.
inline constexpr modifiers no_modifiers{};

// The modifiers as an instruction stores them: the bytes and flags of `modifiers` in
// three words, each XOR'ed with its default so that all zero means "no modifiers", and
// the two offsets as they are. Every pass that rewrites a block copies its instructions
// and the bytecode interpreter copies a struct field by field: 5 fields instead of 31
// (and two nested records) make every instruction copy ~40% cheaper. Lossless: the
// checker sees the values the user gave, out of range ones included.
struct packed_modifiers {
  int32_t offset = 0;   // offset:, or offset0 for ds 2-address forms
  int32_t offset1 = 0;
  uint64_t bytes = 0;   // omod op_sel op_sel_hi^0xff neg_lo neg_hi cbsz abid blgp
  uint64_t more = 0;    // row_mask^0xf bank_mask^0xf dst_sel^6 dst_unused src0_sel^6 src1_sel^6, dpp ctrl^0xffff << 48
  uint64_t flags = 0;   // glc slc nt sc0 sc1 lds idxen offen gds clamp bound_ctrl sdwa.on (bits 0..11), bitop3 << 16

  constexpr packed_modifiers() = default;
  constexpr packed_modifiers(const modifiers& m)  // NOLINT: implicit, `in.mods = modifiers{...}`
      : offset(m.offset),
        offset1(m.offset1),
        bytes(uint64_t(m.omod) | uint64_t(m.op_sel) << 8 | uint64_t(m.op_sel_hi ^ 0xff) << 16 |
              uint64_t(m.neg_lo) << 24 | uint64_t(m.neg_hi) << 32 | uint64_t(m.cbsz) << 40 |
              uint64_t(m.abid) << 48 | uint64_t(m.blgp) << 56),
        more(uint64_t(m.dpp.row_mask ^ 0xf) | uint64_t(m.dpp.bank_mask ^ 0xf) << 8 |
             uint64_t(m.sdwa.dst_sel ^ 6) << 16 | uint64_t(m.sdwa.dst_unused) << 24 |
             uint64_t(m.sdwa.src0_sel ^ 6) << 32 | uint64_t(m.sdwa.src1_sel ^ 6) << 40 |
             uint64_t(m.dpp.ctrl ^ 0xffff) << 48),
        flags(uint64_t(m.glc) | uint64_t(m.slc) << 1 | uint64_t(m.nt) << 2 | uint64_t(m.sc0) << 3 |
              uint64_t(m.sc1) << 4 | uint64_t(m.lds) << 5 | uint64_t(m.idxen) << 6 | uint64_t(m.offen) << 7 |
              uint64_t(m.gds) << 8 | uint64_t(m.clamp) << 9 | uint64_t(m.dpp.bound_ctrl) << 10 |
              uint64_t(m.sdwa.on) << 11 | uint64_t(m.bitop3) << 16) {}

  static constexpr uint64_t glc_or_sc0 = 1u | 1u << 3;  // flags: a returning atomic
  constexpr bool none() const { return (bytes | more | flags) == 0 && offset == 0 && offset1 == 0; }
  constexpr modifiers unpack() const {
    modifiers m;
    m.offset = offset;
    m.offset1 = offset1;
    m.omod = byte(bytes, 0);
    m.op_sel = byte(bytes, 8);
    m.op_sel_hi = byte(bytes, 16) ^ 0xff;
    m.neg_lo = byte(bytes, 24);
    m.neg_hi = byte(bytes, 32);
    m.cbsz = byte(bytes, 40);
    m.abid = byte(bytes, 48);
    m.blgp = byte(bytes, 56);
    m.dpp.row_mask = byte(more, 0) ^ 0xf;
    m.dpp.bank_mask = byte(more, 8) ^ 0xf;
    m.sdwa.dst_sel = byte(more, 16) ^ 6;
    m.sdwa.dst_unused = byte(more, 24);
    m.sdwa.src0_sel = byte(more, 32) ^ 6;
    m.sdwa.src1_sel = byte(more, 40) ^ 6;
    m.dpp.ctrl = dpp_ctrl();
    m.glc = flag(0), m.slc = flag(1), m.nt = flag(2), m.sc0 = flag(3), m.sc1 = flag(4), m.lds = flag(5);
    m.idxen = flag(6), m.offen = flag(7), m.gds = flag(8), m.clamp = flag(9);
    m.dpp.bound_ctrl = flag(10);
    m.sdwa.on = flag(11);
    m.bitop3 = static_cast<uint16_t>(flags >> 16);
    return m;
  }
  // What the passes read per instruction, without unpacking.
  constexpr uint16_t dpp_ctrl() const { return static_cast<uint16_t>((more >> 48) ^ 0xffff); }
  constexpr bool dpp_on() const { return (more >> 48) != 0; }  // ctrl != 0xffff
  constexpr bool sdwa_on() const { return flag(11); }
  constexpr uint8_t sdwa_dst_sel() const { return byte(more, 16) ^ 6; }
  constexpr uint8_t sdwa_dst_unused() const { return byte(more, 24); }
  constexpr uint8_t dpp_row_mask() const { return byte(more, 0) ^ 0xf; }
  constexpr uint8_t dpp_bank_mask() const { return byte(more, 8) ^ 0xf; }
  constexpr bool dpp_bound_ctrl() const { return flag(10); }
  constexpr uint8_t op_sel() const { return byte(bytes, 8); }
  constexpr uint8_t omod() const { return byte(bytes, 0); }
  constexpr uint8_t cbsz() const { return byte(bytes, 40); }
  constexpr uint8_t blgp() const { return byte(bytes, 56); }
  constexpr bool clamp() const { return flag(9); }
  constexpr bool gds() const { return flag(8); }
  constexpr bool idxen() const { return flag(6); }
  constexpr bool offen() const { return flag(7); }
  constexpr bool operator==(const packed_modifiers&) const = default;

 private:
  static constexpr uint8_t byte(uint64_t w, int at) { return static_cast<uint8_t>(w >> at); }
  constexpr bool flag(int bit) const { return (flags >> bit) & 1; }
};

struct instr {
  uint16_t op = 0;                     // index into the target's instruction table
  uint8_t num_operands = 0;
  operand ops[isa::max_operands]{};    // a C array: std::array::operator[] is an interpreted call
  packed_modifiers mods{};
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
  std::string_view name{};          // the kernel's name, in messages
  std::string_view label_uid{};  // printed as is after the name in asm labels: unique in a translation unit
  vec<vreg_info> vregs;
  vec<block> blocks;           // block 0 is the entry
  uint32_t lds_static_bytes = 0;
  bool lds_dynamic = false;
  // Entry state the kernel reads; the wrapper forces these on in the descriptor.
  bool uses_workgroup_id[3] = {false, false, false};
  bool uses_workitem_id[3] = {false, false, false};
  bool uses_kernarg_ptr = false;
  bool uses_hidden_args = false;  // reads hidden kernel arguments (builder::hidden_args_offset)
  // Kernarg preloading (kernel_options::kernarg_preload): the kernarg dwords 0..n-1 sit in
  // s2..s(n+1) at entry (clang's layout for the kernel's signature; 0: none), and argument i
  // (i < 16) is read from s[preload_sgpr[i]] (-1: not from its preloaded SGPRs).
  uint8_t kernarg_preload_dwords = 0;
  int8_t preload_sgpr[16] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
  uint16_t preload_pairs = 0;  // bit i: argument i is 8 bytes (an SGPR pair)
  bool has_sched_barriers = false;  // J.sched_barrier() markers to remove (passes/hazards.hpp)
  // builder::require_waves_per_simd: at least this many waves a SIMD by registers (0: no
  // requirement), asked at min_waves_loc.
  uint8_t min_waves_per_simd = 0;
  src_loc min_waves_loc{};
  // builder::workgroup_size of a multiple of 64: every wave starts with all 64 lanes on.
  bool full_waves = false;
};

namespace detail {
// A `J.wait_for(regs...)` placeholder (passes/waitcnt_resolve.hpp): an s_waitcnt whose
// immediate has this bit (its low 16 bits wait for nothing) and whose other operands are
// the registers to wait for.
inline constexpr uint64_t wait_placeholder_bit = uint64_t{1} << 32;
inline constexpr uint64_t wait_placeholder_imm = wait_placeholder_bit | 0xcf7f;  // vmcnt(63) expcnt(7) lgkmcnt(15)
// A `J.sched_barrier()` marker: an s_nop whose immediate has this bit. The hazard pass
// removes it before anything is printed; nothing is moved across it.
inline constexpr uint64_t sched_barrier_bit = uint64_t{1} << 33;
}  // namespace detail

// Changes an instruction's modifiers through their unpacked form (tests, hand-made IR).
template <class F>
constexpr void edit_modifiers(instr& in, F&& f) {
  modifiers m = in.mods.unpack();
  f(m);
  in.mods = m;
}

}  // namespace hipasm

// Internal contract of the simulator: a decoded instruction, a wave's state, the
// handler registry that binds mnemonics to semantics, and the observer interface the
// checker uses. Decoder (decode.cpp), semantics (exec_*.cpp), memory (memory.cpp),
// checker (checker.cpp) and dispatcher (dispatch.cpp) meet only here.
//
// OWNER: sim-core. Others may add fields/helpers compatibly; never rename silently.
//
// Conventions every handler relies on:
// - Before a handler runs, the dispatcher has already set `w.pc` to the address of the
//   next instruction (in.pc + in.size). Branch handlers overwrite `w.pc`; nothing else does.
// - Handlers report fatal problems by throwing sim::error; use `fail(w, in, "why")` which
//   prefixes the address and the instruction text ("0x1a4: v_add_u32 v1, v2, v3: why").
// - `Inst::pc` and `Wave::pc` are addresses as llvm-objdump-22 prints them (the code
//   object's virtual addresses); the device address of code is `dispatch->code_base + pc`.
// - Operand values: `read_*` never apply neg/abs/DPP/SDWA/op_sel; VALU semantics do that.
// - MODE state the dispatcher applies before issue (handlers never see it): with
//   MODE.vskip set, vector instructions are not issued at all (no handler, no observer call);
//   in VGPR index mode a VALU handler (and the observer) get a copy of the Inst whose selected
//   VGPR operands are already offset by M0[7:0] (dispatch.cpp, gpr_indexed).
#pragma once
#include <array>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "error.hpp"

namespace hipasm::sim {

inline constexpr int kLanes = 64;
inline constexpr int kNumSgprs = 102;
inline constexpr int kMaxVgprs = 512;  // unified file: v0..v255 then AGPRs at accum_offset
// What a register or LDS dword holds before anything wrote it (hardware leaves them as the last
// wave left them): an f32/f16/bf16 NaN and a wild address, so a test that reads one fails.
inline constexpr uint32_t kPoison = 0x7fbadbadu;

// Flat-address apertures (gfx9: src_shared_base/src_private_base return the high 32 bits).
// A FLAT address whose high half equals one of these selects LDS / scratch; device
// allocations (Memory) never overlap them.
inline constexpr uint32_t kSharedApertureHi = 0x00010000u;   // LDS: 0x0001'0000'xxxx'xxxx
inline constexpr uint32_t kPrivateApertureHi = 0x00020000u;  // scratch: 0x0002'0000'xxxx'xxxx

// MODE register fields the dispatcher and the scalar semantics interpret (hardware layout).
inline constexpr uint32_t kModeGprIdxEn = 1u << 27;  // VGPR index mode on (s_set_gpr_idx_on)
inline constexpr uint32_t kModeVskip = 1u << 28;     // vector instructions are skipped (s_setvskip)
inline constexpr int kModeCspShift = 29;             // fork/join branch-stack pointer [31:29]

enum class Format : uint8_t {
  SOP1, SOP2, SOPK, SOPC, SOPP, SMEM,
  VOP1, VOP2, VOPC, VOP3, VOP3P, MFMA, DS, FLAT, GLOBAL, SCRATCH, MUBUF,
};
const char* format_name(Format f);

// ---- Targets (target.cpp). What differs between the GPUs the simulator runs is data here,
// one row per target, never a branch on the target's name in the semantics.
struct OpcodeRow {  // a row of gen/<target>_opcodes.inc (tools/gen_sim_decode.py)
  Format fmt;
  uint16_t op;
  const char* printed;
  const char* sig;
};
// What the 8-bit float encodings mean: CDNA3's FNUZ (bias 8/16, 0x80 the only NaN) or
// OCP's e4m3fn/e5m2 (CDNA4).
enum class Fp8Kind : uint8_t { Fnuz, Ocp };
// The cost of one MFMA/SMFMAC of a target, by its mnemonic: `passes` (4 cycles each), or
// `passes_fp8` when an f8f6f4 input format (cbsz or blgp) is FP8/BF8. Every MFMA of a target's
// opcode table has a row (tests/sim/test_timing_devices.cpp checks it against llvm-mca-22).
struct MfmaCost {
  const char* mnemonic;
  uint8_t passes, passes_fp8;
};
struct Target {
  int index;                   // position in all_targets()
  const char* name;            // "gfx942"
  uint32_t elf_mach;           // EF_AMDGPU_MACH_AMDGCN_* in e_flags[7:0]
  uint32_t lds_bytes;          // LDS one workgroup may allocate
  Fp8Kind fp8;
  uint8_t lds_dma_dwords;      // bit n: buffer_load_dword{,xN} ... lds of n dwords exists
  std::span<const OpcodeRow> opcodes;
  std::span<const MfmaCost> mfma_costs;
};
const Target& target_gfx942();
const Target& target_gfx950();
std::span<const Target* const> all_targets();
const Target* find_target_by_mach(uint32_t mach);       // nullptr: not simulated
const Target* find_target_by_name(std::string_view name);  // "gfx950" or a target ID containing it
const MfmaCost* find_mfma_cost(const Target& t, std::string_view mnemonic);  // nullptr: no row

// One decoded operand.
struct Operand {
  enum Kind : uint8_t {
    None, Sgpr, Vgpr, Agpr, Vcc, Exec, M0, Scc, Const /* inline constant */, Literal,
    Label /* branch target pc in imm */, Special /* flat_scratch, src_shared_base, ... */,
  };
  Kind kind = None;
  // Sgpr: s-index (0..101). Vgpr/Agpr: v-/a-index (0..255; AGPR storage adds accum_offset).
  // Vcc/Exec: 0 = whole pair or _lo, 1 = _hi (with dwords == 1). Special: the 9-bit
  // source encoding (102 flat_scratch_lo .. 123 ttmp15, 235 src_shared_base, 237
  // src_private_base, 251 src_vccz, 252 src_execz, 253 src_scc, 254 src_lds_direct).
  uint16_t reg = 0;
  uint8_t dwords = 1;   // register count (1, 2, 3, 4, 8, 16); for constants 1 or 2
  uint8_t bits = 32;    // element type width of the operand (16, 32 or 64) from the mnemonic
  bool neg = false, abs = false;
  // Const/Literal: the value as the operand type sees it, already expanded: integer inline
  // constants sign-extended to 64 bits; float inline constants as f16 (zero-extended),
  // f32 or f64 bits per `bits`; a 32-bit literal for a 64-bit float operand is the high
  // dword (low dword zero), for a 64-bit integer operand it is zero-extended. Label: target pc.
  uint64_t imm = 0;

  bool is_reg() const { return kind == Sgpr || kind == Vgpr || kind == Agpr; }
  bool is_vector() const { return kind == Vgpr || kind == Agpr; }
  bool is_const() const { return kind == Const || kind == Literal; }
};

struct Modifiers {
  int32_t offset = 0, offset1 = 0;  // SMEM/DS/FLAT/MUBUF offsets (DS 2-address: offset0/offset1)
  bool glc = false, slc = false, nt = false, sc0 = false, sc1 = false;
  bool lds = false, idxen = false, offen = false, gds = false, clamp = false;
  uint8_t omod = 0, op_sel = 0, op_sel_hi = 0, neg_lo = 0, neg_hi = 0;
  uint8_t cbsz = 0, abid = 0, blgp = 0;
  bool dpp = false;  uint16_t dpp_ctrl = 0; uint8_t row_mask = 0xf, bank_mask = 0xf; bool bound_ctrl = false;
  bool sdwa = false; uint8_t dst_sel = 6, dst_unused = 0, src0_sel = 6, src1_sel = 6;
  bool sdwa_sext0 = false, sdwa_sext1 = false;  // SDWA src sext bits
  uint16_t simm16 = 0;  // SOPP/SOPK immediate (waitcnt fields, branch offset, nop count)
  bool acc = false;     // DS/FLAT/MUBUF data or vdst is an AGPR; MFMA: acc (srcA/B AGPR)
  bool acc_cd = false;  // MFMA: vdst and srcC are AGPRs
  bool soffset_off = false;  // SMEM with imm offset only; FLAT/GLOBAL/SCRATCH saddr "off"
  bool fi = false;      // gfx950 v_permlane*_swap e64: fetch inactive lanes (bound_ctrl above)
  uint8_t bitop3 = 0;   // gfx950 v_bitop3_*: the truth table (bit s0*4+s1*2+s2 of the result)
};

// s_waitcnt's counts from its simm16 (gfx9: vmcnt bits [3:0] and [15:14], lgkmcnt [11:8]).
inline uint32_t waitcnt_vmcnt(uint16_t simm16) { return (simm16 & 0xfu) | (((simm16 >> 14) & 3u) << 4); }
inline uint32_t waitcnt_lgkmcnt(uint16_t simm16) { return (simm16 >> 8) & 0xfu; }

struct Wave;
struct Inst;
using Handler = void (*)(Wave&, const Inst&);

// Coarse class of an instruction, for the checker and the counters. C_LOAD: reads memory
// (device, scratch or LDS); C_STORE: writes memory (LDS-DMA loads write LDS too); C_ATOMIC:
// read-modify-write (neither flag then). These agree with LLVM's mayLoad/mayStore (test_decode).
// C_READS_*/C_WRITES_* name explicit operands and the implicit ones an encoding adds (VOPC e32
// and carry ops: VCC; v_cmpx and saveexec: EXEC; s_movrel/s_sendmsg/LDS-DMA/addtid: M0); the
// EXEC mask every vector instruction obeys is not flagged.
enum InstClass : uint32_t {
  C_SALU = 1u << 0, C_VALU = 1u << 1, C_SMEM = 1u << 2, C_VMEM = 1u << 3, C_DS = 1u << 4,
  C_FLAT = 1u << 5, C_MFMA = 1u << 6, C_XDL = 1u << 7, C_DGEMM = 1u << 8, C_TRANS = 1u << 9,
  C_LOAD = 1u << 10, C_STORE = 1u << 11, C_ATOMIC = 1u << 12, C_BRANCH = 1u << 13,
  C_DPP = 1u << 14, C_SDWA = 1u << 15, C_CMPX = 1u << 16, C_READLANE = 1u << 17,
  C_PERMLANE = 1u << 18, C_WRITES_EXEC = 1u << 19, C_WRITES_VCC = 1u << 20,
  C_READS_VCC = 1u << 21, C_READS_EXEC = 1u << 22, C_WRITES_M0 = 1u << 23,
  C_READS_M0 = 1u << 24, C_BARRIER = 1u << 25, C_WAITCNT = 1u << 26, C_LDS_DMA = 1u << 27,
  C_WRITES_SCC = 1u << 28, C_READS_SCC = 1u << 29, C_NOP = 1u << 30, C_ENDPGM = 1u << 31,
};

struct Inst {
  uint64_t pc = 0;         // address as llvm-objdump-22 prints it
  uint8_t size = 4;        // 4, 8 or 12 (with literal)
  Format format{};
  uint16_t opcode = 0;     // opcode field of its encoding
  std::string mnemonic;    // base name without encoding suffix: "v_add_u32" (text: "v_add_u32_e32")
  std::string text;        // full LLVM-syntax text, e.g. "v_add_u32_e32 v1, v2, v3"
  uint8_t num_dst = 0, num_src = 0;
  // defs in assembler order: vdst (or sdst), then a VOP3b carry-out sdst / VOPC e64 sdst.
  // VOPC e32 writes vcc: dst[0] = Vcc. Memory loads: dst[0] = vdst/sdata.
  std::array<Operand, 3> dst{};
  // uses in assembler order: VALU/SALU src0, src1, src2; VOP2 carry-in vcc last.
  // SMEM: src[0] sbase, src[1] soffset (or None), data to store is src[2].
  // DS: src[0] addr, src[1] data0, src[2] data1.  FLAT/GLOBAL/SCRATCH: src[0] vaddr
  // (None for scratch "off"), src[1] vdata, src[2] saddr (None for "off").
  // MUBUF: src[0] vaddr (None if neither offen nor idxen), src[1] vdata (stores/atomics),
  // src[2] srsrc, src[3] soffset. MFMA: src[0] A, src[1] B, src[2] C.
  std::array<Operand, 5> src{};
  Modifiers mod{};
  uint32_t cls = 0;        // InstClass mask
  uint8_t mfma_passes = 0;
  Handler exec = nullptr;  // bound at load time from the registry by mnemonic
};

struct Dispatch;
struct Workgroup;

// Registers of one wave. VGPR storage: vgpr[reg * kLanes + lane]; AGPR aN lives at
// unified index accum_offset + N (the kernel descriptor's split).
struct Wave {
  std::array<uint32_t, 128> sgpr{};   // s0..s101; 102.. hold flat_scratch, xnack_mask, ttmp
                                      // at their encoding index; vcc/exec/m0 are fields below
  std::vector<uint32_t> vgpr;         // kMaxVgprs * kLanes
  uint64_t exec = ~0ull, vcc = 0;
  uint32_t m0 = 0;
  bool scc = false;
  uint64_t pc = 0;
  uint32_t accum_offset = 256;
  // s0..s(entry_sgprs-1) are what the hardware initialised at dispatch (user SGPRs, workgroup
  // ids, private segment offset); the rest start as kPoison (the checker tracks definedness).
  uint32_t entry_sgprs = 0;
  bool done = false, at_barrier = false;
  // Blocked at this ds_gws_barrier / ds_gws_sema_p until the resource releases it (exec_gws.cpp);
  // the dispatcher does not issue for a blocked wave. nullptr = not blocked.
  const Inst* gws_wait = nullptr;
  uint32_t mode = 0;                   // MODE hwreg: round [3:0], denorm [7:4], dx10_clamp [8], ieee [9],
                                       // gpr_idx_en [27], vskip [28], csp [31:29] (see kMode*)
  uint32_t trapsts = 0;
  uint32_t wave_id = 0, workgroup_linear = 0, wave_in_group = 0;
  uint32_t workgroup_id[3] = {0, 0, 0};
  Dispatch* dispatch = nullptr;        // memory, checker, trace sink (shared by all waves)
  Workgroup* group = nullptr;          // this wave's workgroup (LDS)
  uint8_t* lds = nullptr;              // the workgroup's LDS (== group->lds)
  uint32_t lds_size = 0;               // bytes allocated (static + dynamic)
  uint64_t scratch_base = 0;           // device address of lane 0's private segment
  uint32_t scratch_lane_stride = 0;    // bytes per lane (private_segment_fixed_size, aligned)
  const Inst* cur = nullptr;
  mutable void* checker_state = nullptr;  // owned by the checker (checker.cpp); null = fresh
  mutable void* peer_state = nullptr;     // owned by the peer-visibility checker; null = fresh
  uint64_t issued = 0;                 // instructions issued by this wave (the checker's clock)
  uint64_t lane_ops = 0;

  uint32_t* v(unsigned reg) { return &vgpr[size_t(reg) * kLanes]; }
  const uint32_t* v(unsigned reg) const { return &vgpr[size_t(reg) * kLanes]; }
  uint32_t* a(unsigned reg) { return &vgpr[size_t(accum_offset + reg) * kLanes]; }
  const uint32_t* a(unsigned reg) const { return &vgpr[size_t(accum_offset + reg) * kLanes]; }
};

// Mnemonic -> semantics. Each exec_*.cpp registers its handlers with a static
// Registrar; load fails with "unsupported instruction at 0x..: TEXT" for a mnemonic
// that has none. The key is Inst::mnemonic (no _e32/_e64/_dpp/_sdwa suffix).
struct Registry {
  static Registry& get();
  void add(std::string_view mnemonic, Handler h);
  Handler find(std::string_view mnemonic) const;
  std::vector<std::string> mnemonics() const;  // sorted, for diagnostics and coverage tests
};
struct Registrar {
  Registrar(std::initializer_list<std::pair<std::string_view, Handler>> list);
};

// The checker sees every issue and every retirement; it never changes execution.
// Threading: workgroups run on several worker threads; all calls for one workgroup come
// from one thread, in program order per wave; calls for different workgroups may be
// concurrent. `cycle` is the wave's issue counter (Wave::issued before this instruction).
struct Observer {
  virtual ~Observer() = default;
  virtual void on_issue(const Wave& w, const Inst& in, uint64_t cycle) = 0;
  virtual void on_waitcnt(const Wave& w, const Inst& in) = 0;
  virtual void on_barrier(uint32_t workgroup) = 0;  // all waves of the group released
  // A wave ended (s_endpgm) / a workgroup finished. Defaults do nothing.
  virtual void on_wave_end(const Wave&) {}
  virtual void on_workgroup_end(uint32_t /*workgroup*/) {}
};

// ---- Errors.
// "0x1a4: v_add_u32_e32 v1, v2, v3: why" as sim::error.
[[noreturn]] void fail(const Inst& in, std::string_view why);
// What fail() throws: a sim::error that keeps the instruction's pc, so that the runtime's launcher can add
// the source line of the module's asm listing, as it does for the checker's findings.
struct inst_error : sim::error {
  inst_error(const std::string& what, uint64_t at) : sim::error(what), pc(at) {}
  uint64_t pc;
};
[[noreturn]] inline void fail(const Wave&, const Inst& in, std::string_view why) { fail(in, why); }

// ---- Operand access. Register operands index by lane; SGPR, constant and literal
// operands broadcast. Modifiers (neg/abs, DPP, SDWA) are NOT applied here.
uint32_t read_special(const Wave& w, const Operand& op, int dword);   // slow path (core.cpp)
void write_special(Wave& w, const Operand& op, uint32_t v, int dword);

inline uint32_t read_scalar(const Wave& w, const Operand& op, int dword = 0) {
  switch (op.kind) {
    case Operand::Sgpr: return w.sgpr[op.reg + dword];
    case Operand::Const:
    case Operand::Literal: return uint32_t(op.imm >> (32 * (dword & 1)));
    case Operand::Vcc: return uint32_t(w.vcc >> (32 * ((op.reg + dword) & 1)));
    case Operand::Exec: return uint32_t(w.exec >> (32 * ((op.reg + dword) & 1)));
    case Operand::M0: return w.m0;
    case Operand::Scc: return w.scc ? 1u : 0u;
    default: return read_special(w, op, dword);
  }
}
inline void write_scalar(Wave& w, const Operand& op, uint32_t v, int dword = 0) {
  switch (op.kind) {
    case Operand::Sgpr: w.sgpr[op.reg + dword] = v; return;
    case Operand::Vcc: {
      int hi = (op.reg + dword) & 1;
      w.vcc = (w.vcc & ~(0xffffffffull << (32 * hi))) | (uint64_t(v) << (32 * hi));
      return;
    }
    case Operand::Exec: {
      int hi = (op.reg + dword) & 1;
      w.exec = (w.exec & ~(0xffffffffull << (32 * hi))) | (uint64_t(v) << (32 * hi));
      return;
    }
    case Operand::M0: w.m0 = v; return;
    case Operand::Scc: w.scc = v != 0; return;
    default: write_special(w, op, v, dword); return;
  }
}
inline uint64_t read_scalar64(const Wave& w, const Operand& op) {
  switch (op.kind) {
    case Operand::Sgpr: return w.sgpr[op.reg] | (uint64_t(w.sgpr[op.reg + 1]) << 32);
    case Operand::Const:
    case Operand::Literal: return op.imm;
    case Operand::Vcc: return w.vcc;
    case Operand::Exec: return w.exec;
    default: return read_scalar(w, op, 0) | (uint64_t(read_scalar(w, op, 1)) << 32);
  }
}
inline void write_scalar64(Wave& w, const Operand& op, uint64_t v) {
  switch (op.kind) {
    case Operand::Vcc: w.vcc = v; return;
    case Operand::Exec: w.exec = v; return;
    default:
      write_scalar(w, op, uint32_t(v), 0);
      write_scalar(w, op, uint32_t(v >> 32), 1);
  }
}

inline uint32_t read_u32(const Wave& w, const Operand& op, int lane, int dword = 0) {
  if (op.kind == Operand::Vgpr) return w.vgpr[size_t(op.reg + dword) * kLanes + lane];
  if (op.kind == Operand::Agpr)
    return w.vgpr[size_t(w.accum_offset + op.reg + dword) * kLanes + lane];
  return read_scalar(w, op, dword);
}
inline uint64_t read_u64(const Wave& w, const Operand& op, int lane) {  // 64-bit operand (pair)
  if (op.kind == Operand::Vgpr || op.kind == Operand::Agpr)
    return read_u32(w, op, lane, 0) | (uint64_t(read_u32(w, op, lane, 1)) << 32);
  return read_scalar64(w, op);
}
inline void write_u32(Wave& w, const Operand& op, int lane, uint32_t v, int dword = 0) {
  if (op.kind == Operand::Vgpr) { w.vgpr[size_t(op.reg + dword) * kLanes + lane] = v; return; }
  if (op.kind == Operand::Agpr) {
    w.vgpr[size_t(w.accum_offset + op.reg + dword) * kLanes + lane] = v;
    return;
  }
  write_scalar(w, op, v, dword);
}
inline void write_u64(Wave& w, const Operand& op, int lane, uint64_t v) {
  if (op.kind == Operand::Vgpr || op.kind == Operand::Agpr) {
    write_u32(w, op, lane, uint32_t(v), 0);
    write_u32(w, op, lane, uint32_t(v >> 32), 1);
    return;
  }
  write_scalar64(w, op, v);
}
// Pointer to the lane array of a vector operand's dword (Vgpr/Agpr only), for fast loops.
inline uint32_t* vec_ptr(Wave& w, const Operand& op, int dword = 0) {
  return op.kind == Operand::Agpr ? w.a(op.reg + dword) : w.v(op.reg + dword);
}
inline const uint32_t* vec_ptr(const Wave& w, const Operand& op, int dword = 0) {
  return op.kind == Operand::Agpr ? w.a(op.reg + dword) : w.v(op.reg + dword);
}

// ---- Device memory and LDS (memory.cpp, owner sim-mem-check). Every access is checked:
// outside any allocation / outside the LDS allocation / misaligned where the hardware
// faults -> throws sim::error with the instruction's address and text.
struct Backing;  // memory.hpp
inline constexpr unsigned kMaxDevices = 8;  // devices of a multi-device run (a node's GPUs)
class Memory {
 public:
  // `device`: which device of a multi-device run (0..7) the memory is; its addresses are that
  // device's range (memory.hpp).
  explicit Memory(unsigned device = 0);
  ~Memory();
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;
  uint64_t alloc(size_t bytes, size_t align = 256);  // real, non-overlapping addresses
  void free(uint64_t addr);
  void read(uint64_t addr, void* dst, size_t n) const;    // host copies (throw if outside)
  void write(uint64_t addr, const void* src, size_t n);
  uint8_t* translate(uint64_t addr, size_t n);            // nullptr if not inside one allocation
  unsigned device() const;
  // Maps the allocation of `owner` (another device) starting at `addr` into this device's
  // addresses: the model of hipIpcOpenMemHandle (a new address aliasing the peer's bytes).
  // Kernels on this device reach the peer's bytes through the returned address. free() of
  // the returned address unmaps it.
  uint64_t map_peer(Memory& owner, uint64_t addr);
  // Implementation details private to memory.cpp (memory.hpp has the kernel-access helpers);
  // thread-safe for concurrent workgroups.
  struct Impl;
  Impl& impl() const { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

// ---- One dispatch (dispatch.cpp, owner sim-core).
struct KernelImage {            // filled by the loader (elf.cpp) from the code object
  std::string name;
  const Target* target = &target_gfx942();  // the GPU the code object was built for
  std::vector<uint8_t> code;    // the whole .text section
  uint64_t code_vaddr = 0;      // vaddr of code[0]
  uint64_t entry = 0;           // vaddr of the kernel's first instruction (with kernarg
                                // preloading, 256 bytes past the descriptor's entry)
  uint64_t listing_entry = 0;   // vaddr of the descriptor's entry: where the kernel's asm listing
                                // starts (with kernarg preloading, at the prologue for firmware
                                // that does not preload)
  std::vector<std::pair<uint64_t, std::string>> code_symbols;  // (vaddr, name) in the code, sorted:
                                // --trace names branch targets with them as llvm-objdump-22 does
  uint64_t code_base = 0;       // device address where vaddr 0 of the code object is mapped
                                // (s_getpc returns code_base + pc); 0 if not mapped
  // kernel descriptor
  uint32_t group_segment_fixed_size = 0, private_segment_fixed_size = 0, kernarg_size = 0;
  uint32_t next_free_vgpr = 0, next_free_sgpr = 0, accum_offset = 256;
  uint32_t user_sgpr_count = 0;
  // gfx940+ kernarg preload: the kernarg_preload_length user SGPRs after the enabled ones
  // hold kernarg dwords starting at dword kernarg_preload_offset
  // (.amdhsa_user_sgpr_kernarg_preload_length / _offset).
  uint32_t kernarg_preload_length = 0, kernarg_preload_offset = 0;
  bool sgpr_private_segment_buffer = false, sgpr_dispatch_ptr = false, sgpr_queue_ptr = false,
       sgpr_kernarg_segment_ptr = false, sgpr_dispatch_id = false, sgpr_flat_scratch_init = false,
       sgpr_private_segment_size = false;
  bool sgpr_workgroup_id[3] = {false, false, false};
  bool sgpr_workgroup_info = false, sgpr_private_segment_wavefront_offset = false;
  uint32_t vgpr_workitem_id = 0;  // 0: x only, 1: x,y, 2: x,y,z (packed in v0 on gfx942)
  uint32_t float_round_mode_32 = 0, float_round_mode_16_64 = 0, float_denorm_mode_32 = 0,
           float_denorm_mode_16_64 = 3;
  bool ieee_mode = true, dx10_clamp = true;
};

struct DispatchParams {
  uint32_t grid[3] = {1, 1, 1};   // in workgroups
  uint32_t block[3] = {1, 1, 1};  // work-items per workgroup
  uint32_t dynamic_lds = 0;
  std::vector<uint8_t> kernarg;   // explicit + hidden arguments, laid out by the loader
  uint64_t seed = 0;
  bool trace = false;
  uint64_t instruction_budget = 0;
  // Timing --sample: only group_limit workgroups run (0: all), linear ids 0, stride, 2*stride, ...
  uint64_t group_limit = 0, group_stride = 1;
  unsigned threads = 0;
  std::FILE* trace_out = nullptr;  // --trace sink; nullptr = stdout
};

// Global wave sync (ds_gws_*, exec_gws.cpp): 64 resources shared by all waves of a dispatch,
// every counter 0 at the start. A dispatch whose code uses them runs all its workgroups on one
// thread (dispatch.cpp), so no locking.
struct GwsResource {
  int64_t counter = 0;          // barrier: arrivals still missing before release; semaphore: value
  uint32_t waves = 0;           // barrier: waves one round releases (armed value + 1)
  std::vector<Wave*> waiting;   // blocked waves in arrival order (their Wave::gws_wait is set)
};
struct Gws {
  static constexpr uint32_t kResources = 64;
  std::array<GwsResource, kResources> res;
};

// The peer-visibility checker of a multi-device run (peer.hpp): sees the instructions that
// order memory across devices and every access to bytes a peer mapped.
struct PeerObserver {
  virtual ~PeerObserver() = default;
  virtual void on_issue(const Wave& w, const Inst& in) = 0;  // before the handler runs
  // One lane's access of n bytes at `offset` into `b` (a write: store or atomic).
  virtual void on_access(const Wave& w, const Inst& in, Backing& b, uint64_t offset, size_t n, int lane,
                         bool write) = 0;
  virtual void on_barrier(std::span<Wave* const> waves) = 0;  // a workgroup's s_barrier released
};

// Shared by all waves of one dispatch (read-only during execution except Memory).
struct Dispatch {
  const KernelImage* image = nullptr;
  const DispatchParams* params = nullptr;
  Memory* memory = nullptr;
  Observer* observer = nullptr;    // may be nullptr
  uint64_t code_base = 0;          // see KernelImage::code_base
  uint64_t kernarg_addr = 0;       // device address of the kernarg segment copy
  uint64_t dispatch_packet_addr = 0;
  uint64_t scratch_addr = 0;       // device allocation of all private segments (0 if none)
  uint64_t queue_addr = 0;         // a zeroed hsa_queue_t stand-in (queue pointer SGPRs)
  bool trace = false;
  Gws* gws = nullptr;              // the GWS resources when the code uses ds_gws_* (else nullptr)
  unsigned device = 0;             // which device of a multi-device run
  PeerObserver* peer = nullptr;    // multi-device run with the checker (else nullptr)
};

// The target a wave runs on (gfx942 for a wave that has no dispatch, as unit tests make).
inline const Target& target_of(const Wave& w) {
  return w.dispatch && w.dispatch->image ? *w.dispatch->image->target : target_gfx942();
}

// One workgroup in flight (owned by the worker thread that runs it).
struct Workgroup {
  uint32_t id[3] = {0, 0, 0};
  uint32_t linear = 0;
  std::vector<uint8_t> lds;        // static + dynamic LDS, filled with kPoison
  uint32_t num_waves = 0;
};

}  // namespace hipasm::sim

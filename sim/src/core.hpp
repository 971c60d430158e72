// Internal contract of the simulator: a decoded instruction, a wave's state, the
// handler registry that binds mnemonics to semantics, and the observer interface the
// checker uses. Decoder (decode.cpp), semantics (exec_*.cpp), memory (memory.cpp),
// checker (checker.cpp) and dispatcher (dispatch.cpp) meet only here.
//
// OWNER: sim-core. Others may add fields/helpers compatibly; never rename silently.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace hipasm::sim {

inline constexpr int kLanes = 64;
inline constexpr int kNumSgprs = 102;
inline constexpr int kMaxVgprs = 512;  // unified file: v0..v255 then AGPRs at accum_offset

enum class Format : uint8_t {
  SOP1, SOP2, SOPK, SOPC, SOPP, SMEM,
  VOP1, VOP2, VOPC, VOP3, VOP3P, MFMA, DS, FLAT, GLOBAL, SCRATCH, MUBUF,
};

// One decoded operand.
struct Operand {
  enum Kind : uint8_t {
    None, Sgpr, Vgpr, Agpr, Vcc, Exec, M0, Scc, Const /* inline constant */, Literal,
    Label /* branch target pc in imm */, Special /* flat_scratch, src_shared_base, ... */,
  };
  Kind kind = None;
  uint16_t reg = 0;     // first register index for Sgpr/Vgpr/Agpr
  uint8_t dwords = 1;
  bool neg = false, abs = false;
  uint64_t imm = 0;     // Const/Literal raw bits (32-bit literal, or the inline value's bits
                        // already expanded to the operand's type width), Label target
};

struct Modifiers {
  int32_t offset = 0, offset1 = 0;
  bool glc = false, slc = false, nt = false, sc0 = false, sc1 = false;
  bool lds = false, idxen = false, offen = false, gds = false, clamp = false;
  uint8_t omod = 0, op_sel = 0, op_sel_hi = 0, neg_lo = 0, neg_hi = 0;
  uint8_t cbsz = 0, abid = 0, blgp = 0;
  bool dpp = false;  uint16_t dpp_ctrl = 0; uint8_t row_mask = 0xf, bank_mask = 0xf; bool bound_ctrl = false;
  bool sdwa = false; uint8_t dst_sel = 6, dst_unused = 0, src0_sel = 6, src1_sel = 6;
  uint16_t simm16 = 0;  // SOPP/SOPK immediate (waitcnt fields, branch offset, nop count)
};

struct Wave;
struct Inst;
using Handler = void (*)(Wave&, const Inst&);

// Coarse class of an instruction, for the checker and the counters.
enum InstClass : uint32_t {
  C_SALU = 1u << 0, C_VALU = 1u << 1, C_SMEM = 1u << 2, C_VMEM = 1u << 3, C_DS = 1u << 4,
  C_FLAT = 1u << 5, C_MFMA = 1u << 6, C_XDL = 1u << 7, C_DGEMM = 1u << 8, C_TRANS = 1u << 9,
  C_LOAD = 1u << 10, C_STORE = 1u << 11, C_ATOMIC = 1u << 12, C_BRANCH = 1u << 13,
  C_DPP = 1u << 14, C_SDWA = 1u << 15, C_CMPX = 1u << 16, C_READLANE = 1u << 17,
  C_PERMLANE = 1u << 18, C_WRITES_EXEC = 1u << 19, C_WRITES_VCC = 1u << 20,
  C_READS_VCC = 1u << 21, C_READS_EXEC = 1u << 22, C_WRITES_M0 = 1u << 23,
  C_READS_M0 = 1u << 24, C_BARRIER = 1u << 25, C_WAITCNT = 1u << 26, C_LDS_DMA = 1u << 27,
};

struct Inst {
  uint64_t pc = 0;         // byte offset in the code object's .text
  uint8_t size = 4;        // 4, 8 or 12 (with literal)
  Format format{};
  uint16_t opcode = 0;     // opcode field of its encoding
  std::string mnemonic;    // as llvm-objdump-22 prints it, e.g. "v_add_u32_e32"? no: "v_add_u32"
  std::string text;        // full LLVM-syntax text, e.g. "v_add_u32_e32 v1, v2, v3"
  uint8_t num_dst = 0, num_src = 0;
  std::array<Operand, 3> dst{};  // defs in assembler order (vdst, sdst/vcc carry-out)
  std::array<Operand, 5> src{};  // uses in assembler order (src0.., or addr/data/srsrc/soffset)
  Modifiers mod{};
  uint32_t cls = 0;        // InstClass mask
  uint8_t mfma_passes = 0;
  Handler exec = nullptr;  // bound at load time from the registry by mnemonic
};

// Registers of one wave. VGPR storage: vgpr[reg * kLanes + lane]; AGPR aN lives at
// unified index accum_offset + N (the kernel descriptor's split).
struct Wave {
  std::array<uint32_t, 128> sgpr{};   // s0..s101; vcc/exec/m0 are separate fields
  std::vector<uint32_t> vgpr;         // kMaxVgprs * kLanes
  uint64_t exec = ~0ull, vcc = 0;
  uint32_t m0 = 0;
  bool scc = false;
  uint64_t pc = 0;
  uint32_t accum_offset = 256;
  bool done = false, at_barrier = false;
  uint32_t mode = 0;                   // float mode register (round/denorm)
  uint32_t wave_id = 0, workgroup_linear = 0, wave_in_group = 0;
  struct Dispatch* dispatch = nullptr; // memory, LDS, checker, trace sink
  const Inst* cur = nullptr;
};

// Mnemonic -> semantics. Each exec_*.cpp registers its handlers with a static
// Registrar; load fails with "unsupported instruction at 0x..: TEXT" for a mnemonic
// that has none.
struct Registry {
  static Registry& get();
  void add(std::string_view mnemonic, Handler h);
  Handler find(std::string_view mnemonic) const;
};
struct Registrar {
  Registrar(std::initializer_list<std::pair<std::string_view, Handler>> list);
};

// The checker sees every issue and every retirement; it never changes execution.
struct Observer {
  virtual ~Observer() = default;
  virtual void on_issue(const Wave& w, const Inst& in, uint64_t cycle) = 0;
  virtual void on_waitcnt(const Wave& w, const Inst& in) = 0;
  virtual void on_barrier(uint32_t workgroup) = 0;
};

// ---- Operand access (core.cpp). Register operands index by lane; SGPR, constant and
// literal operands broadcast. Modifiers (neg/abs, DPP, SDWA) are NOT applied here.
uint32_t read_u32(const Wave& w, const Operand& op, int lane, int dword = 0);
uint64_t read_u64(const Wave& w, const Operand& op, int lane);  // 64-bit operand (pair)
void write_u32(Wave& w, const Operand& op, int lane, uint32_t v, int dword = 0);
void write_u64(Wave& w, const Operand& op, int lane, uint64_t v);
uint32_t read_scalar(const Wave& w, const Operand& op, int dword = 0);  // SGPR/special/const
void write_scalar(Wave& w, const Operand& op, uint32_t v, int dword = 0);

// ---- Device memory and LDS (memory.cpp, owner sim-mem-check). Every access is checked:
// outside any allocation / outside the LDS allocation / misaligned where the hardware
// faults -> throws rt::error with the instruction's address and text.
class Memory {
 public:
  uint64_t alloc(size_t bytes, size_t align = 256);  // real, non-overlapping addresses
  void free(uint64_t addr);
  void read(uint64_t addr, void* dst, size_t n) const;    // host copies (throw if outside)
  void write(uint64_t addr, const void* src, size_t n);
  uint8_t* translate(uint64_t addr, size_t n);            // nullptr if not inside one allocation
  // (implementation details private to memory.cpp; thread-safe for concurrent workgroups)
};

// ---- One dispatch (dispatch.cpp, owner sim-core).
struct KernelImage {            // filled by the loader (elf.cpp) from the code object
  std::string name;
  std::vector<uint8_t> code;    // the whole .text section
  uint64_t code_vaddr = 0;      // vaddr of code[0]
  uint64_t entry = 0;           // vaddr of the kernel's first instruction
  // kernel descriptor
  uint32_t group_segment_fixed_size = 0, private_segment_fixed_size = 0, kernarg_size = 0;
  uint32_t next_free_vgpr = 0, next_free_sgpr = 0, accum_offset = 256;
  uint32_t user_sgpr_count = 0;
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
  unsigned threads = 0;
};

}  // namespace hipasm::sim

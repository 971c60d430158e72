// The kernel builder: a kernel is a constexpr function that receives `hipasm::builder J` (a
// handle, taken by value: see the constructor for why not `builder&`) and its runtime
// arguments, and builds the IR by calling J's methods:
//
//   constexpr void saxpy(hipasm::builder J, hipasm::arg<float*> y, hipasm::arg<const float*> x,
//                        hipasm::arg<float> a, hipasm::arg<int> n) {
//     using namespace hipasm;
//     auto i = J.vgpr<u32>().named("i");
//     i = J.workgroup_id_x() * 256 + J.thread_id_x();
//     J.If(i.as<i32>() < n, [&] { ... J.global_load_dword(v, addr, off) ... });
//   }
//
// - Registers: J.sgpr<T>(shape...), J.vgpr<T>(...), J.agpr<T>(...) (registers.hpp).
// - Every mnemonic of the target is a method (targets/<arch>/mnemonics.hpp, generated), checked against
//   the instruction table when called; J.op("name", {operands}, mods) does the same by name.
// - Labels: auto L = J.make_label("x"); J.place(L); J.Jump(L) / J.s_cbranch_scc1(L).
// - Entry state: J.workgroup_id_x(), J.thread_id_x() ...; only what is read is enabled.
// - LDS: J.lds<T>(count, align), J.lds_dynamic(align).
// - Structured control flow: J.If / Else / While / For / Break / Continue / Return
//   (control_flow.hpp).
//
// build_kernel<fn>("name") runs the kernel function and returns the IR (`function`) and the
// first error. It works in constant evaluation (both clang interpreters) and at run time.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <source_location>
#include <string_view>
#include <type_traits>
#include <utility>
#include "vec.hpp"

#include "diagnostics.hpp"
#include "ir.hpp"
#include "isa/check.hpp"
#include "targets/select.hpp"
#include "operand.hpp"
#include "options.hpp"
#include "registers.hpp"

namespace hipasm {

// What a conditional Jump tests (s_cbranch_<name>).
enum class branch_if : uint8_t { scc0, scc1, vccz, vccnz, execz, execnz };

// Where an instruction landed (block, index): returned by every emit.
struct emitted {
  uint32_t block = 0, index = 0;
};

// A static LDS allocation: its byte offset is an immediate operand (e.g. ds_read offset or
// an address computation).
struct lds_ref {
  uint32_t offset = 0, bytes = 0;
  constexpr operand to_operand() const {
    operand o;
    o.k = operand::kind::imm;
    o.value = offset;
    return o;
  }
};

struct build_result {
  function fn;
  error_info error;
};

template <class T>
struct arg;

namespace detail {
constexpr const isa::instr_desc& op_desc(target_op op) { return active_target::table[static_cast<uint32_t>(op)]; }

// Control-flow bookkeeping (control_flow.hpp).
struct divergent_ctx {
  reg_ref save;         // EXEC before the If
  reg_ref mask;         // lanes taking the then-branch
  uint32_t join = 0;    // label id of the join point
  bool lanes_left = false;      // a Break/Continue/Return removed lanes from `save`
  int32_t skip_block = -1;      // a nested If's join that may branch to this join (skip_idle_code)
};
struct loop_ctx {
  bool vector = false;          // per-lane condition
  uint32_t head = 0, cont = 0, exit = 0;  // label ids
  reg_ref save{};               // EXEC at loop entry less returned lanes (vector loops; scalar
                                // loops from their first per-lane Break/Continue/Return on)
  reg_ref cont_mask{};          // lanes that executed a per-lane Continue this iteration
  uint32_t div_depth = 0;       // divergent If depth at loop entry
  uint32_t body_block = 0;      // first block of the body (cont_mask init goes there)
  bool lane_exit = false;       // scalar loop: EXEC may empty (per-lane Break/Continue/Return)
  bool parks = false;           // scalar loop: a per-lane Break/Continue parks lanes in it
  uint32_t entry_block = 0;     // block that falls into the head (scalar save goes there)
  uint32_t region = 0;          // its lane_region
  int32_t skip_block = -1;      // an If's join in the body that may branch to `cont` (skip_idle_code)
};
// A stretch of structured code whose EXEC may be a strict subset of the wave's live lanes
// with the others parked in a mask it restores (per_lane): a per-lane If's then or else body,
// a per-lane loop, a uniform loop with per-lane Break/Continue (known at its end). Regions
// without per_lane (uniform loops) only matter as parents. Hand-written flow must not cross a
// per_lane region's boundary (its EXEC save/restore would be skipped).
struct lane_region {
  uint32_t parent = 0;
  bool per_lane = false;
  // Per-lane nesting known at entry (per-lane If/Else bodies, loops with a per-lane condition;
  // a uniform loop with per-lane exits does not count): SGPR writes and s_barrier are checked
  // against it (builder::check_wave_scope).
  uint32_t lane_depth = 0;
  enum class kind : uint8_t { top, then_body, else_body, loop, masked } what = kind::top;  // masked: with_exec_mask
  src_loc loc{};
};
// A hand-written instruction that leaves the code around it (s_endpgm, s_setpc_b64, a branch
// to a label), checked at finish() against the regions it leaves.
struct flow_check {
  uint32_t region = 0;
  int32_t label = -1;           // branch target; -1: ends the wave / jumps to a register
  uint16_t op = 0;
  src_loc loc{};
};
// Builder bookkeeping (see builder_state).
struct label_info {
  int32_t block = -1;
  std::string_view name{};
  src_loc loc{};
  uint32_t region = 0;  // lane_region where it was placed
};

struct if_state {
  bool vector = false;
  uint32_t then_end_block = 0;   // last block of the then-branch
  uint32_t join_block = 0;       // block that starts at the join label
  uint32_t join_label = 0;
  uint32_t instrs_at_join = 0;   // instruction count of the join block right after the If
  uint32_t blocks_at_join = 0;
  reg_ref save{}, mask{};
  bool has_else = false;
  bool lanes_left = false;       // the then-branch removed lanes (Break/Continue/Return)
  int32_t skip_block = -1;       // the join's block when it is a skip candidate (skip_idle_code)
  bool exec_may_be_empty_before = false;  // builder_state::exec_may_be_empty at the If
  bool exec_may_be_empty_then = false;    // ... at the end of a scalar If's then-branch
};

struct expr_record {
  uint32_t id = 0xffffffffu, block = 0, first = 0, end = 0;
};
struct arg_slot {
  uint32_t vreg = 0, offset = 0, bytes = 0;  // offset/bytes: the dwords that hold it
  uint32_t begin = 0, end = 0;               // its bytes (C ABI layout)
  bool aggregate = false;                    // a struct (clang passes it byref: never preloaded)
  bool whole_dwords = false;                 // 4 or 8 bytes, not a struct: preloadable into SGPRs
};
// Kernarg preloading on gfx942 (AMDGPUUsage "Preloaded Kernel Arguments"): 16 user SGPRs less
// the kernarg segment pointer's 2 hold at most 14 dwords; hipasm_add_code_object's
// KERNARG_PRELOAD passes -amdgpu-kernarg-preload-count=16 (clang preloads at most that many).
inline constexpr uint32_t kernarg_preload_max_dwords = 14;
inline constexpr uint32_t kernarg_preload_max_args = 16;
}  // namespace detail

namespace detail {
// The lowering's recent scalar constants (s_mov_b32 tmp, imm): a constant the current block
// already holds in an SGPR is read from there instead of moved again. An entry is used only
// while its s_mov is still where it was emitted, in the current block, before the current
// point (instructions cut out by a recorded stream, moved, or retargeted by an assignment fail
// that test), so the register holds the value wherever it is reused: the same code CSE made of
// the duplicates afterwards, without building them (attn_d128_cap30: 184 of 3216 built
// instructions were such copies).
struct scalar_constants {
  struct entry {
    uint32_t value = 0, block = 0xffffffffu, index = 0, reg = 0xffffffffu;
  };
  entry e[8]{};
  uint32_t next = 0;
};
// Values a helper computed in VGPRs, handed out again instead of built again (lds_view's
// address terms): what CSE would merge, never built for it to merge. An entry is the result's
// defining instruction (block, index, opcode) and what it read; it stands while that
// instruction is still there and no source, EXEC or physical register was written since
// (CSE's conditions, block-local: a new block, recorded or moved instructions, EXEC or
// physical writes bump `epoch`). Writes are counted only while an entry exists (`live`): a
// source written before an entry was made is older than it either way.
struct value_memo {
  struct entry {
    uint64_t key = 0, a = 0, c = 0;  // what was computed and its sources (packed_source)
    uint32_t res = 0xffffffffu, block = 0xffffffffu, index = 0, first = 0, last = 0, epoch = 0;
    uint16_t op = 0;
  };
  static constexpr uint32_t slots = 64;
  entry e[slots]{};
  bool live = false;
  uint32_t seq = 0;       // instructions emitted while live
  uint32_t rec_first = 0; // inside a recorded stream (interleave.hpp): seq of its first instruction
  uint32_t epoch = 0;
  vec<uint32_t> def_seq;  // per vreg: seq of its last write (0: before any entry)
};
}  // namespace detail

// Everything a kernel build accumulates. build_kernel owns it; `builder` is a handle to it, so
// a kernel function may take its builder by value (see builder).
struct builder_state {
  function fn;
  error_info err;
  vec<detail::label_info> labels;
  detail::expr_record last_expr;          // the most recent expression result (retargeting)
  vec<detail::divergent_ctx> div_stack;
  vec<detail::loop_ctx> loops;
  vec<detail::if_state> ifs;
  vec<detail::lane_region> regions;       // [0]: the kernel's top level
  vec<detail::flow_check> flow_checks;
  uint32_t cur_region = 0;
  uint32_t lane_depth = 0;                // regions[cur_region].lane_depth
  uint32_t wave_uniform = 0;              // J.wave_uniform scopes (and the flow's own writes) open
  int32_t end_label = -1;                 // label of the final s_endpgm (per-lane Return)
  // EXEC may be empty here: after the join of a per-lane If whose lanes left (Break/Continue/
  // Return), until lanes come back. Scalar code still runs there (a uniform loop's counter counts
  // every iteration), so what the lowering computes through a VGPR for an SGPR must not depend
  // on a lane being active (see lower::udivrem).
  bool exec_may_be_empty = false;
  uint32_t returns = 0;                   // per-lane Returns emitted so far
  vec<detail::arg_slot> args;     // one virtual SGPR register per kernel argument
  uint32_t kernarg_bytes = 0;
  uint32_t cur = 1;
  bool block_has_label = false;
  src_loc last_loc{};
  int32_t wg_id[3] = {-1, -1, -1};
  int32_t tid[3] = {-1, -1, -1};
  int32_t kernarg_vreg = -1;
  builder* primary = nullptr;             // the builder handles point to (stable address)
  kernel_options options{};               // the kernel's options (options.hpp)
  detail::scalar_constants sconsts;       // the lowering's constants in SGPRs (lower::smov)
  detail::value_memo memo;                // helpers' VGPR results handed out again (lds.hpp)
};

class builder : public active_target::mnemonics<builder> {
 public:
  using operand_arg = hipasm::operand_arg;
  using O = target_op;

  // The first error, formatted "file:line: error: kernel 'name': <parts>". Defined first in
  // the class: clang instantiates a constexpr member template at once only if its body has
  // been parsed, and in-class bodies are parsed in order (a later definition would be
  // instantiated at the end of the file, too late for the kernel's constant evaluation).
  static constexpr void put(detail::text& t, std::string_view s) { t << s; }
  static constexpr void put(detail::text& t, const char* s) { t << s; }
  static constexpr void put(detail::text& t, long long v) { t.num(v); }
  static constexpr void put(detail::text& t, int v) { t.num(v); }
  static constexpr void put(detail::text& t, unsigned v) { t.num(v); }
  static constexpr void put(detail::text& t, const src_loc& l) { t.loc(l); }
  template <class... P>
  constexpr void fail(src_loc l, const P&... parts) {
    if (err.failed) return;
    err.failed = true;
    err.loc = l;
    err.message.reserve(160);
    detail::text t{&err.message};
    t.loc(l) << ": error: kernel '" << fn.name << "': ";
    (put(t, parts), ...);
  }
  // A builder is a handle to a builder_state: copies share the state, so a kernel may take
  // `hipasm::builder J` by value. (clang-22's bytecode constant interpreter,
  // -fexperimental-new-constant-interpreter, cannot read a reference PARAMETER captured by a
  // lambda, so `builder& J` parameters fail there once a [&] lambda uses J; by value works
  // under both interpreters.)
  constexpr builder(builder_state& st, std::string_view kernel_name)
      : fn(st.fn), err(st.err), labels_(st.labels), last_expr_(st.last_expr), div_stack_(st.div_stack),
        loops_(st.loops), ifs_(st.ifs), regions_(st.regions), flow_checks_(st.flow_checks),
        cur_region_(st.cur_region), lane_depth_(st.lane_depth), wave_uniform_(st.wave_uniform),
        end_label_(st.end_label), exec_may_be_empty_(st.exec_may_be_empty), returns_(st.returns), args_(st.args), kernarg_bytes_(st.kernarg_bytes), sconsts_(st.sconsts), memo_(st.memo), cur_(st.cur),
        block_has_label_(st.block_has_label), last_loc_(st.last_loc), wg_id_(st.wg_id), tid_(st.tid),
        kernarg_vreg_(st.kernarg_vreg), primary_(st.primary), options_(st.options) {
    if (!primary_) primary_ = this;
    fn.name = kernel_name;
    fn.vregs.reserve(256);
    fn.blocks.reserve(64);
    fn.blocks.emplace_back();  // block 0: prologue (kernel argument loads, id unpacking)
    fn.blocks.emplace_back();  // block 1: the kernel body starts here
    fn.blocks[1].instrs.reserve(256);
    cur_ = 1;
    if (regions_.empty()) regions_.emplace_back();
  }
  constexpr builder(const builder&) = default;
  constexpr builder& operator=(const builder&) = delete;
  // The builder every register handle points to.
  constexpr builder* self() const { return primary_; }

  // A handle to an existing virtual register (entry state).
  template <dtype T>
  constexpr gpr<T> entry_handle(int32_t id, reg_class c) {
    gpr<T> g;
    g.b = self();
    g.id = static_cast<uint32_t>(id);
    g.cls = c;
    return g;
  }

  // ---- registers -------------------------------------------------------------------------
#define HIPASM_ALLOC(fname, klass)                                                               \
  template <dtype T>                                                                           \
  constexpr gpr<T> fname(std::source_location l = std::source_location::current()) {           \
    return alloc<T>(klass, 0, 1, 1, 1, l);                                                     \
  }                                                                                            \
  template <dtype T>                                                                           \
  constexpr gpr<T> fname(int n0, std::source_location l = std::source_location::current()) {   \
    return alloc<T>(klass, 1, n0, 1, 1, l);                                                    \
  }                                                                                            \
  template <dtype T>                                                                           \
  constexpr gpr<T> fname(int n0, int n1, std::source_location l = std::source_location::current()) { \
    return alloc<T>(klass, 2, n0, n1, 1, l);                                                   \
  }                                                                                            \
  template <dtype T>                                                                           \
  constexpr gpr<T> fname(int n0, int n1, int n2,                                               \
                         std::source_location l = std::source_location::current()) {           \
    return alloc<T>(klass, 3, n0, n1, n2, l);                                                  \
  }
  HIPASM_ALLOC(sgpr, reg_class::sgpr)
  HIPASM_ALLOC(vgpr, reg_class::vgpr)
  HIPASM_ALLOC(agpr, reg_class::agpr)
#undef HIPASM_ALLOC

  // Any class chosen at run time (pyhip's J.gpr(shape, "s|v|a" + dtype)).
  template <dtype T>
  constexpr gpr<T> alloc(reg_class c, int rank, int n0, int n1, int n2,
                         std::source_location l = std::source_location::current()) {
    gpr<T> g;
    src_loc sl = to_src_loc(l);
    note_loc(sl);
    long long n = static_cast<long long>(n0) * n1 * n2;
    long long limit = c == reg_class::sgpr ? 102 : 256;
    if (n0 <= 0 || n1 <= 0 || n2 <= 0 || n * dwords_of(T) > limit) {
      fail(sl, "register array shape out of range (", reg_class_name(c), " arrays hold at most ", limit, " dwords)");
      n0 = n1 = n2 = 1;
      rank = 0;
      n = 1;
    }
    uint16_t dw = static_cast<uint16_t>(n * dwords_of(T));
    detail::reg_ref r = new_reg(c, dw, natural_align(c, dw), sl);
    vreg_info& v = fn.vregs[r.id];  // the shape, for messages that name an element
    v.elem_dwords = static_cast<uint8_t>(dwords_of(T));
    v.rank = static_cast<uint8_t>(rank);
    v.dim1 = static_cast<uint16_t>(n1);
    v.dim2 = static_cast<uint16_t>(n2);
    g.b = self();
    g.id = r.id;
    g.cls = c;
    g.rank = static_cast<uint8_t>(rank);
    g.dim[0] = static_cast<uint16_t>(n0);
    g.dim[1] = static_cast<uint16_t>(n1);
    g.dim[2] = static_cast<uint16_t>(n2);
    if (rank == 1 && n0 == 1) g.rank = 0;
    return g;
  }

  // ---- instructions ----------------------------------------------------------------------
  constexpr emitted emit(target_op op, std::initializer_list<operand_arg> args, const modifiers& m = no_modifiers,
                         std::source_location l = std::source_location::current()) {
    return emit_ops(op, args.begin(), static_cast<uint32_t>(args.size()), m, to_src_loc(l));
  }
  // By name: J.op("v_add_u32", {d, a, b}); an unknown name is an error naming the line.
  constexpr emitted op(std::string_view name, std::initializer_list<operand_arg> args,
                       const modifiers& m = no_modifiers, std::source_location l = std::source_location::current()) {
    src_loc sl = to_src_loc(l);
    int idx = isa::find_instr(name);
    if (idx < 0) {
      fail(sl, "unknown instruction '", name, "' (not a ", active_target::name, " mnemonic)");
      return {};
    }
    return emit_ops(static_cast<target_op>(idx), args.begin(), static_cast<uint32_t>(args.size()), m, sl);
  }
  // A mnemonic of another target (the generated surface's stubs): the build fails on the line.
  constexpr emitted missing_instr(std::string_view name, std::string_view needs, std::source_location l) {
    fail(to_src_loc(l), name, " needs ", needs, "; this kernel is being compiled for ", active_target::name);
    return {};
  }
  // s_waitcnt with fields: J.wait(vmcnt(0) | lgkmcnt(0)).
  constexpr emitted wait(waitcnt w, std::source_location l = std::source_location::current()) {
    return emit(target_op::s_waitcnt, {w}, {}, l);
  }
  // The weakest s_waitcnt after which the pending memory results in `regs` are ready:
  // J.wait_for(a, b[2], c.slice(0, 4)). The count is computed in the pipeline after the
  // passes that remove instructions (passes/waitcnt_resolve.hpp), path-sensitively at joins
  // and loop back-edges; nothing is emitted when no path leaves one pending. Only registers
  // (an operand that is none is an error naming the line).
  template <operand_like... R>
  constexpr void wait_for(const operand_at& first, const R&... rest) {
    const operand ops[] = {first.op, rest.to_operand()...};
    wait_for_operands(ops, 1 + sizeof...(R), first.loc);
  }
  constexpr void wait_for_operands(const operand* ops, std::size_t n, src_loc l) {
    if (err.failed) return;
    for (std::size_t k = 0; k < n; ++k)
      if (ops[k].k != operand::kind::vreg) {
        fail(l, "wait_for: argument ", static_cast<int>(k + 1),
             " is not a register handle (wait_for waits for registers a load writes)");
        return;
      }
    // Placeholders of up to max_operands - 1 registers each (consecutive ones are resolved
    // into one wait: waitcnt_resolve merges adjacent computed waits).
    for (std::size_t k = 0; k < n;) {
      instr& in = fn.blocks[cur_].instrs.emplace_back();
      in.op = static_cast<uint16_t>(target_op::s_waitcnt);
      in.ops[0].k = operand::kind::imm;
      in.ops[0].value = detail::wait_placeholder_imm;
      in.num_operands = 1;
      for (; k < n && in.num_operands < isa::max_operands; ++k) in.ops[in.num_operands++] = ops[k];
      in.loc = l;
    }
  }
  // Occupancy as a property of the kernel: at least n waves of it fit on a SIMD by their
  // registers. Register allocation keeps VGPRs + AGPRs within the unified file's share (gfx942:
  // 512 a lane / n in granules of 8: 2 waves 256, 3 168, 4 128, 5 96, 6 80, 7 72, 8 64) and
  // SGPRs within the SGPR file's (800 / n in granules of 16, less VCC, FLAT_SCRATCH and
  // XNACK_MASK: only 8 waves limit them, to 90); past that the kernel does not compile, and the message lists what is
  // live where it ran out. LDS and the workgroup size are not counted. The last call counts.
  constexpr void require_waves_per_simd(unsigned n, std::source_location l = std::source_location::current()) {
    if (err.failed) return;
    if (n < 1 || n > 255) return fail(to_src_loc(l), "require_waves_per_simd(", n, "): a SIMD holds 1 to 8 waves");
    fn.min_waves_per_simd = static_cast<uint8_t>(n);
    fn.min_waves_loc = to_src_loc(l);
  }
  // The kernel is launched only with workgroups of `threads` work-items (x * y * z; the
  // launcher's promise, as HIP's reqd_work_group_size). A multiple of 64 means every wave
  // starts with all 64 lanes on; otherwise (and without this call) the last wave of a
  // workgroup starts partial, and a DPP read without bound_ctrl of a lane past its end writes
  // nothing: liveness then keeps the destination's old value (passes/liveness.hpp).
  constexpr void workgroup_size(unsigned threads, std::source_location l = std::source_location::current()) {
    if (err.failed) return;
    if (threads < 1 || threads > 1024)
      return fail(to_src_loc(l), "workgroup_size(", threads, "): a workgroup holds 1 to 1024 work-items");
    fn.full_waves = threads % 64 == 0;
  }
  // A scheduling fence: hipasm's reordering (kernel_options::schedule) moves nothing across
  // it. Emits no instruction. (For the hardware's own scheduling hints use J.s_setprio(n).)
  constexpr void sched_barrier(std::source_location l = std::source_location::current()) {
    if (err.failed) return;
    instr& in = fn.blocks[cur_].instrs.emplace_back();
    in.op = static_cast<uint16_t>(target_op::s_nop);
    in.num_operands = 1;
    in.ops[0].k = operand::kind::imm;
    in.ops[0].value = detail::sched_barrier_bit;
    in.loc = to_src_loc(l);
    fn.has_sched_barriers = true;
  }
  constexpr emitted wait_vmcnt(unsigned n, std::source_location l = std::source_location::current()) {
    return wait(vmcnt(n), l);
  }
  constexpr emitted wait_lgkmcnt(unsigned n, std::source_location l = std::source_location::current()) {
    return wait(lgkmcnt(n), l);
  }

  // ---- labels ----------------------------------------------------------------------------
  constexpr label make_label(std::string_view name = {},
                             std::source_location l = std::source_location::current()) {
    labels_.push_back({-1, name, to_src_loc(l)});
    return label{static_cast<uint32_t>(labels_.size() - 1)};
  }
  // Binds L to the current position (starts a new block unless the current one is empty).
  constexpr void place(label L, std::source_location l = std::source_location::current()) {
    if (L.id >= labels_.size()) {
      fail(to_src_loc(l), "place() of a label that this builder did not make");
      return;
    }
    if (labels_[L.id].block >= 0) {
      fail(to_src_loc(l), "label '", labels_[L.id].name, "' placed twice");
      return;
    }
    if (!fn.blocks[cur_].instrs.empty() || block_has_label_) start_block();
    labels_[L.id].block = static_cast<int32_t>(cur_);
    labels_[L.id].region = cur_region_;
    if (!labels_[L.id].name.empty()) fn.blocks[cur_].label = labels_[L.id].name;
    block_has_label_ = true;
  }
  // pyhip's J.Label("name"): make and place at once (for backward jumps).
  constexpr label Label(std::string_view name = {}, std::source_location l = std::source_location::current()) {
    label L = make_label(name, l);
    place(L, l);
    return L;
  }
  constexpr void Jump(label L, std::source_location l = std::source_location::current()) {
    emit(target_op::s_branch, {L}, {}, l);
  }
  // A conditional branch on the state the hardware tests (pyhip's Jump(label, cond)):
  // J.Jump(L, branch_if::scc1), ... vccz, vccnz, execz, execnz.
  constexpr void Jump(label L, branch_if c, std::source_location l = std::source_location::current()) {
    constexpr target_op ops[] = {target_op::s_cbranch_scc0,  target_op::s_cbranch_scc1,  target_op::s_cbranch_vccz,
                                 target_op::s_cbranch_vccnz, target_op::s_cbranch_execz, target_op::s_cbranch_execnz};
    emit(ops[static_cast<int>(c)], {L}, {}, l);
  }
  // Branches when a wave-uniform comparison holds: J.Jump(L, i < n) (s_cmp + s_cbranch_scc).
  constexpr void Jump(label L, const cond& c, std::source_location l = std::source_location::current());

  // ---- entry state -----------------------------------------------------------------------
  // Workgroup (block) ids: SGPRs set up by the hardware after the user SGPRs.
  constexpr gpr<dtype::u32> workgroup_id(int dim, std::source_location l = std::source_location::current()) {
    if (dim < 0 || dim > 2) {
      fail(to_src_loc(l), "workgroup_id dimension must be 0, 1 or 2");
      dim = 0;
    }
    if (wg_id_[dim] < 0) {
      wg_id_[dim] = static_cast<int32_t>(new_reg(reg_class::sgpr, 1, 1, to_src_loc(l)).id);
      fn.vregs[static_cast<uint32_t>(wg_id_[dim])].lane_depth = 0;  // (entry state: the kernel's top level)
    }
    fn.uses_workgroup_id[dim] = true;
    return entry_handle<dtype::u32>(wg_id_[dim], reg_class::sgpr);
  }
  // Work-item (thread) ids: unpacked from v0 (x = v0[9:0], y = v0[19:10], z = v0[29:20]).
  constexpr gpr<dtype::u32> thread_id(int dim, std::source_location l = std::source_location::current()) {
    if (dim < 0 || dim > 2) {
      fail(to_src_loc(l), "thread_id dimension must be 0, 1 or 2");
      dim = 0;
    }
    if (tid_[dim] < 0)
      tid_[dim] = static_cast<int32_t>(new_reg(reg_class::vgpr, 1, 1, to_src_loc(l)).id);
    fn.uses_workitem_id[dim] = true;
    return entry_handle<dtype::u32>(tid_[dim], reg_class::vgpr);
  }
  constexpr gpr<dtype::u32> workgroup_id_x(std::source_location l = std::source_location::current()) { return workgroup_id(0, l); }
  constexpr gpr<dtype::u32> workgroup_id_y(std::source_location l = std::source_location::current()) { return workgroup_id(1, l); }
  constexpr gpr<dtype::u32> workgroup_id_z(std::source_location l = std::source_location::current()) { return workgroup_id(2, l); }
  constexpr gpr<dtype::u32> thread_id_x(std::source_location l = std::source_location::current()) { return thread_id(0, l); }
  constexpr gpr<dtype::u32> thread_id_y(std::source_location l = std::source_location::current()) { return thread_id(1, l); }
  constexpr gpr<dtype::u32> thread_id_z(std::source_location l = std::source_location::current()) { return thread_id(2, l); }
  // The kernarg segment pointer s[0:1] (for loads of hidden arguments by hand).
  constexpr gpr<dtype::u64> kernarg_ptr(std::source_location l = std::source_location::current()) {
    (void)l;
    return entry_handle<dtype::u64>(static_cast<int32_t>(kernarg_vreg()), reg_class::sgpr);
  }
  // The byte offset of the hidden (implicit) kernel arguments in the kernarg segment: after the
  // explicit ones at an 8-byte boundary (code object v5+, AMDGPUUsage "Hidden kernel
  // arguments": hidden_block_count_x/y/z u32 at +0/+4/+8, hidden_group_size_x/y/z u16 at
  // +12/+14/+16). Asking for it makes the wrapper have clang declare them in the metadata (so
  // the runtime fills them); call it after the kernel's arguments exist (in the body).
  constexpr uint32_t hidden_args_offset() {
    fn.uses_hidden_args = true;
    return (kernarg_bytes_ + 7) & ~7u;
  }

  // ---- LDS -------------------------------------------------------------------------------
  // Static LDS: `count` elements of T at an offset aligned to `align` bytes.
  template <class T>
  constexpr lds_ref lds(uint32_t count, uint32_t align = alignof(T),
                        std::source_location l = std::source_location::current()) {
    return lds_bytes(count * static_cast<uint32_t>(sizeof(T)), align, l);
  }
  constexpr lds_ref lds_bytes(uint32_t bytes, uint32_t align = 4,
                              std::source_location l = std::source_location::current()) {
    src_loc sl = to_src_loc(l);
    if (align == 0 || (align & (align - 1)) != 0) {
      fail(sl, "LDS alignment must be a power of two, got ", static_cast<long long>(align));
      return {};
    }
    if (fn.lds_dynamic) {
      fail(sl, "static LDS allocated after lds_dynamic(): allocate dynamic LDS last");
      return {};
    }
    uint32_t off = (fn.lds_static_bytes + align - 1) & ~(align - 1);
    if (static_cast<uint64_t>(off) + bytes > active_target::desc.lds_bytes) {
      fail(sl, "LDS allocation exceeds ", static_cast<long long>(active_target::desc.lds_bytes / 1024), " KiB (",
           static_cast<long long>(off + bytes), " bytes)");
      return {};
    }
    fn.lds_static_bytes = off + bytes;
    return {off, bytes};
  }
  // Dynamic LDS (size given at launch) starts at the returned offset, after all static LDS.
  constexpr lds_ref lds_dynamic(uint32_t align = 16, std::source_location l = std::source_location::current()) {
    if (align == 0 || (align & (align - 1)) != 0) {
      fail(to_src_loc(l), "LDS alignment must be a power of two");
      return {};
    }
    fn.lds_dynamic = true;
    return {(fn.lds_static_bytes + align - 1) & ~(align - 1), 0};
  }

  // ---- structured control flow (control_flow.hpp) ----------------------------------------
  struct if_result {
    builder* b;
    uint32_t id;  // index into ifs_
    template <class F>
    constexpr void Else(F&& body, std::source_location l = std::source_location::current());
  };
  template <class F>
  constexpr if_result If(const cond& c, F&& then_body, std::source_location l = std::source_location::current());
  template <class F, class G>
  constexpr void If(const cond& c, F&& then_body, G&& else_body,
                    std::source_location l = std::source_location::current());
  template <class C, class F>
  constexpr void While(C&& condition, F&& body, std::source_location l = std::source_location::current());
  template <class I, class C, class S, class F>
    requires std::is_invocable_v<I&> && std::is_invocable_v<C&> && std::is_invocable_v<S&>
  constexpr void For(I&& init, C&& condition, S&& step, F&& body,
                     std::source_location l = std::source_location::current());
  // for (i = begin; i < end; i += step) body  (signed compare if i is i32)
  template <dtype T, class F>
  constexpr void For(gpr<T> i, const std::type_identity_t<val<T>>& begin, const std::type_identity_t<val<T>>& end,
                     F&& body, int step = 1,
                     std::source_location l = std::source_location::current());
  // Code meant for the whole wave inside per-lane control flow: in a per-lane If or a loop
  // with a per-lane condition, an instruction that writes an SGPR declared outside it, or an
  // s_barrier, is an error at its line (scalar instructions run for the whole wave whatever
  // EXEC holds: the lanes that skipped the branch see the write too; a barrier that some
  // waves skip hangs or pairs with another one). Inside J.wave_uniform([&] { ... }) they are
  // not checked: the author says every lane is meant to see the write (a per-wave counter)
  // or every wave reaches the barrier.
  template <class F>
  constexpr void wave_uniform(F&& body) {
    ++wave_uniform_;
    body();
    --wave_uniform_;
  }
  constexpr void Break(std::source_location l = std::source_location::current());
  constexpr void Continue(std::source_location l = std::source_location::current());
  // The lanes executing it stop for the rest of the kernel; the wave ends when none is left.
  constexpr void Return(std::source_location l = std::source_location::current());

  // ---- results ---------------------------------------------------------------------------
  // Finishes the IR (prologue, s_endpgm, labels, CFG). Called by build_kernel.
  constexpr void finish();

  constexpr const function& ir() const { return fn; }
  constexpr const kernel_options& options() const { return options_; }
  // The target this kernel is being compiled for (targets/select.hpp), for compile-time
  // choices: `if constexpr (J.target().lds_bytes > 65536)`, `J.target().name == "gfx950"`.
  static constexpr const hipasm::target& target() { return active_target::desc; }
  // The virtual register of a work-item id once read (-1 before): its values are below 1024.
  constexpr int32_t thread_id_vreg(int dim) const { return tid_[dim]; }
  constexpr const error_info& error() const { return err; }
  constexpr bool failed() const { return err.failed; }

  // ---- internals used by the expression and control-flow lowering ------------------------
  using label_info = detail::label_info;
  using if_state = detail::if_state;
  using arg_slot = detail::arg_slot;
  // References into the shared builder_state (same names as the state's roles).
  function& fn;
  error_info& err;
  vec<label_info>& labels_;
  detail::expr_record& last_expr_;
  vec<detail::divergent_ctx>& div_stack_;
  vec<detail::loop_ctx>& loops_;
  vec<if_state>& ifs_;
  vec<detail::lane_region>& regions_;
  vec<detail::flow_check>& flow_checks_;
  uint32_t& cur_region_;
  uint32_t& lane_depth_;
  uint32_t& wave_uniform_;
  int32_t& end_label_;
  bool& exec_may_be_empty_;
  uint32_t& returns_;
  vec<arg_slot>& args_;
  uint32_t& kernarg_bytes_;
  detail::scalar_constants& sconsts_;
  detail::value_memo& memo_;

  constexpr void note_loc(src_loc l) {
    if (l.line) last_loc_ = l;
  }
  constexpr src_loc cur_loc() const { return last_loc_; }

  constexpr detail::reg_ref new_reg(reg_class c, uint16_t dwords, uint16_t align, src_loc l) {
    vreg_info& v = fn.vregs.emplace_back();  // (built in place: no copy of it)
    v.cls = c;
    v.dwords = dwords;
    v.align = align;
    v.loc = l;
    v.lane_depth = static_cast<uint8_t>(lane_depth_ < 255 ? lane_depth_ : 255);
    return {self(), static_cast<uint32_t>(fn.vregs.size() - 1), c, 0, dwords};
  }
  static constexpr uint16_t natural_align(reg_class c, uint16_t dwords) {
    if (dwords < 2) return 1;
    if (c == reg_class::sgpr) return dwords >= 4 ? 4 : 2;
    return 2;
  }

  constexpr emitted emit_ops(target_op op, const operand_arg* args, uint32_t n, const modifiers& m, src_loc l);
  constexpr bool check_operand_dtypes(const isa::instr_desc& d, const instr& in, const operand_arg* args, src_loc l);
  // Raw emission of already-checked operands (lowering code); no table check.
  constexpr emitted emit_raw(target_op op, std::initializer_list<operand> ops, src_loc l,
                           const modifiers& m = no_modifiers);

  constexpr uint32_t cur_block() const { return cur_; }
  constexpr uint32_t cur_index() const { return static_cast<uint32_t>(fn.blocks[cur_].instrs.size()); }
  // What value_memo must know of an instruction just added to the current block.
  constexpr void memo_note(const isa::instr_desc& d, const instr& in) {
    detail::value_memo& m = memo_;
    ++m.seq;
    if (d.flags & (isa::f_writes_exec | isa::f_cmpx)) ++m.epoch;
    const int nd = d.num_operands;
    for (int i = 0; i < in.num_operands; ++i) {
      const operand& o = in.ops[i];
      if (o.k == operand::kind::imm || o.k == operand::kind::none) continue;
      if (i >= nd || d.operands[i].role == isa::operand_role::use) continue;
      if (o.k == operand::kind::vreg) memo_note_def(o.value);
      else if (o.k == operand::kind::phys ||
               (o.k == operand::kind::special &&
                (o.sp == special_reg::exec || o.sp == special_reg::exec_lo || o.sp == special_reg::exec_hi)))
        ++m.epoch;
    }
  }
  constexpr void memo_note_def(uint32_t id) {
    detail::value_memo& m = memo_;
    if (id >= m.def_seq.size()) {
      const std::size_t want = (fn.vregs.size() > id ? fn.vregs.size() : id + 1) + 256;  // (grown in steps)
      m.def_seq.resize(want, 0u);
    }
    m.def_seq.data()[id] = m.seq;
  }
  // value_memo's entries all dropped: after an edit that memo_note does not see.
  constexpr void forget_memo() { ++memo_.epoch; }
  // A block's instructions, for an edit that bypasses emission (lowering code placing a branch
  // or an EXEC save in another block, removing an instruction): the memo is dropped first.
  constexpr vec<instr>& edit_instrs(uint32_t block) {
    forget_memo();
    return fn.blocks[block].instrs;
  }
  constexpr void start_block() {
    forget_memo();
    fn.blocks.emplace_back();
    cur_ = static_cast<uint32_t>(fn.blocks.size() - 1);
    block_has_label_ = false;
  }




  template <class T>
  constexpr arg<T> make_arg(std::source_location l = std::source_location::current());

  // Control-flow internals (control_flow.hpp).
  constexpr uint32_t enter_region(bool per_lane, detail::lane_region::kind what, src_loc l) {
    lane_depth_ += per_lane;
    regions_.push_back({cur_region_, per_lane, lane_depth_, what, l});
    cur_region_ = static_cast<uint32_t>(regions_.size() - 1);
    return cur_region_;
  }
  constexpr void leave_region() {
    cur_region_ = regions_[cur_region_].parent;
    lane_depth_ = regions_[cur_region_].lane_depth;
  }
  // A loop whose condition turned out per-lane (known once the condition is built).
  constexpr void region_is_per_lane(uint32_t r) {
    regions_[r].lane_depth += 1;
    if (r == cur_region_) lane_depth_ = regions_[r].lane_depth;
  }
  constexpr void check_wave_scope(const instr& in, src_loc l);
  constexpr const detail::lane_region& lane_region_below(uint32_t depth) const;
  constexpr void wave_write_error(uint32_t id, std::string_view what, src_loc l);
  constexpr bool in_per_lane_region(uint32_t r) const {
    for (;; r = regions_[r].parent) {
      if (regions_[r].per_lane) return true;
      if (r == 0) return false;
    }
  }
  constexpr void note_user_flow(target_op op, const instr& in, src_loc l);
  constexpr void check_user_flow(const detail::flow_check& c);
  constexpr void loop_lane_save(detail::loop_ctx& lp, src_loc l);
  constexpr uint32_t lane_exit_target() const;
  constexpr int32_t* skip_owner();
  constexpr void offer_skip(if_state& st);
  constexpr void resolve_skip(int32_t& slot, uint32_t target, src_loc l);
  constexpr uint32_t end_label();

  constexpr uint32_t kernarg_vreg() {
    if (kernarg_vreg_ < 0) {
      kernarg_vreg_ = static_cast<int32_t>(new_reg(reg_class::sgpr, 2, 2, last_loc_).id);
      fn.vregs[static_cast<uint32_t>(kernarg_vreg_)].lane_depth = 0;
    }
    return static_cast<uint32_t>(kernarg_vreg_);
  }

 private:
  uint32_t& cur_;
  bool& block_has_label_;
  src_loc& last_loc_;
  int32_t (&wg_id_)[3];
  int32_t (&tid_)[3];
  int32_t& kernarg_vreg_;
  builder*& primary_;
  const kernel_options& options_;


  constexpr void build_prologue();
  constexpr void resolve_cfg();
};

// ---- detail functions declared in registers.hpp ------------------------------------------
namespace detail {
constexpr reg_ref new_reg(builder& b, reg_class c, uint16_t dwords, uint16_t align, src_loc loc) {
  return b.new_reg(c, dwords, align, loc);
}
constexpr void set_reg_name(builder& b, uint32_t id, std::string_view name) {
  if (id < b.fn.vregs.size()) b.fn.vregs[id].name = name;
}
constexpr void pin_reg(builder& b, uint32_t id, reg_class c, int first, src_loc loc) {
  if (id >= b.fn.vregs.size()) return;
  vreg_info& v = b.fn.vregs[id];
  const int limit = c == reg_class::sgpr ? 102 : 256;
  if (v.fixed >= 0) {
    b.fail(loc, "pin: an entry-state register (kernel argument pointer, workgroup or work-item id) has its own register");
  } else if (first < 0 || first + v.dwords > limit) {
    b.fail(loc, "pin: ", reg_class_name(c), " ", static_cast<long long>(first), "..",
           static_cast<long long>(first + v.dwords - 1), " is outside ", reg_class_name(c), "s 0..",
           static_cast<long long>(limit - 1));
  } else if (v.pinned >= 0 && v.pinned != first) {
    b.fail(loc, "pin: the register is already pinned to ", static_cast<long long>(v.pinned));
  } else {
    v.pinned = static_cast<int16_t>(first);
    v.loc = loc;  // (conflicts are reported at the pin)
  }
}
constexpr void align_reg(builder& b, uint32_t id, int align, src_loc loc) {
  if (id >= b.fn.vregs.size()) return;
  if (align < 1 || align > 64 || (align & (align - 1)) != 0) {
    b.fail(loc, "aligned: the alignment must be a power of two from 1 to 64, got ", static_cast<long long>(align));
    return;
  }
  vreg_info& v = b.fn.vregs[id];
  if (v.align < align) v.align = static_cast<uint16_t>(align);
  if (v.user_align < align) v.user_align = static_cast<uint8_t>(align);
}
constexpr void allow_undefined_reg(builder& b, uint32_t id) {
  if (id < b.fn.vregs.size()) b.fn.vregs[id].allow_undefined = true;
}
constexpr void report(builder& b, src_loc loc, std::string_view what, std::string_view det, long long num,
                      bool with_num) {
  if (with_num)
    b.fail(loc.line ? loc : b.cur_loc(), what, " (", det, " ", num, ")");
  else
    b.fail(loc.line ? loc : b.cur_loc(), what);
}
constexpr src_loc last_loc(const builder& b) { return b.cur_loc(); }
constexpr void note_loc(builder& b, src_loc loc) { b.note_loc(loc); }

constexpr operand reg_op(const reg_ref& r) {
  operand o;
  o.k = operand::kind::vreg;
  o.cls = r.cls;
  o.offset = r.off;
  o.dwords = r.dwords;
  o.value = r.id;
  return o;
}
constexpr operand imm_op(uint64_t v, uint16_t dwords = 1) {
  operand o;
  o.k = operand::kind::imm;
  o.cls = reg_class::sgpr;
  o.value = v;
  o.dwords = dwords;
  return o;
}
constexpr operand special_op(special_reg r, uint16_t dwords) {
  operand o;
  o.k = operand::kind::special;
  o.cls = reg_class::sgpr;
  o.sp = r;
  o.dwords = dwords;
  return o;
}
constexpr operand label_op(uint32_t id) {
  operand o;
  o.k = operand::kind::label;
  o.value = id;
  return o;
}
using O = target_op;

// Lowering context: the builder and the user's line for every emitted instruction.
struct lower {
  builder& b;
  src_loc l;

  constexpr reg_ref tmp(reg_class c, uint16_t dwords = 1) {
    return b.new_reg(c, dwords, builder::natural_align(c, dwords), l);
  }
  constexpr void e(O op, std::initializer_list<operand> ops) {
    if (b.err.failed) return;
#if defined(HIPASM_CHECK_LOWERING) && HIPASM_CHECK_LOWERING
    // hipasm's own test build (HIPASM_CHECK_LOWERING=1) proves every lowered instruction
    // legal with the table check user instructions get. Without it (users' builds) that
    // proof would be ~3% of a kernel's compile time spent on hipasm's own tested code; the
    // assembler still rejects an illegal instruction, on its line with the user's file:line.
    emitted x = b.emit_raw(op, ops, l);
    const instr& in = b.fn.blocks[x.block].instrs[x.index];
    isa::form chosen = isa::form::plain;
    if (!isa::detail::quick_check(op_desc(op), in, isa::reg_limits{}, chosen))
      b.fail(l, "internal lowering error: ", isa::check(op_desc(op), in).message.view());
#else
    b.emit_raw(op, ops, l);
#endif
  }
  static constexpr bool is_vgpr(const operand& o) { return o.k == operand::kind::vreg && o.cls == reg_class::vgpr; }
  static constexpr bool is_sgpr(const operand& o) {
    return (o.k == operand::kind::vreg && o.cls == reg_class::sgpr) || o.k == operand::kind::special;
  }
  static constexpr bool is_imm(const operand& o) { return o.k == operand::kind::imm; }
  // Inline constants of VOP3 (no literal there on gfx9).
  static constexpr bool inline_const(const operand& o, bool f32) {
    if (!is_imm(o)) return true;
    int64_t v = static_cast<int64_t>(o.value);
    uint32_t lo = static_cast<uint32_t>(o.value);
    if (v >= -16 && v <= 64) return true;
    if (static_cast<int64_t>(static_cast<int32_t>(lo)) >= -16 && static_cast<int32_t>(lo) <= 64 &&
        (o.value >> 32) == 0)
      return true;
    if (f32) {
      constexpr uint32_t f[] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                                0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};
      for (uint32_t x : f)
        if (lo == x && (o.value >> 32) == 0) return true;
    }
    return false;
  }
  constexpr operand vmov(const operand& src) {
    reg_ref t = tmp(reg_class::vgpr);
    e(O::v_mov_b32, {reg_op(t), src});
    return reg_op(t);
  }
  constexpr operand smov(const operand& src) {
    const bool k32 = is_imm(src) && (src.value >> 32) == 0;
    detail::scalar_constants& c = b.sconsts_;
    if (k32) {
      const vec<instr>& list = b.fn.blocks[b.cur_block()].instrs;
      for (const auto& x : c.e) {
        if (x.block != b.cur_block() || x.value != static_cast<uint32_t>(src.value) || x.index >= list.size()) continue;
        const instr& in = list[x.index];
        if (in.op == static_cast<uint16_t>(O::s_mov_b32) && in.ops[0].k == operand::kind::vreg &&
            in.ops[0].value == x.reg && in.ops[0].offset == 0 && in.ops[1].k == operand::kind::imm &&
            in.ops[1].value == src.value)
          return in.ops[0];
      }
    }
    reg_ref t = tmp(reg_class::sgpr);
    e(O::s_mov_b32, {reg_op(t), src});
    if (k32 && !b.err.failed) {
      c.e[c.next] = {static_cast<uint32_t>(src.value), b.cur_block(), b.cur_index() - 1, t.id};
      c.next = (c.next + 1) % 8;
    }
    return reg_op(t);
  }
  static constexpr bool same_reg(const operand& a, const operand& c) {
    return a.k == c.k && a.value == c.value && a.offset == c.offset && a.sp == c.sp;
  }

  // VOP2 op (VOP3 when src1 is not a VGPR): dst = a op c. `rev` is the reversed-operand
  // opcode (or the same op when commutative); O{} none.
  constexpr void valu2(O op, O rev, bool has_rev, const operand& d, operand a, operand c) {
    if (!is_vgpr(c)) {
      if (is_vgpr(a) && has_rev) {
        operand t = a;
        a = c;
        c = t;
        op = rev;
      } else if (is_vgpr(a) && !inline_const(c, true)) {
        c = vmov(c);  // VOP3 form cannot take the literal
      } else if (!is_vgpr(a)) {
        c = vmov(c);
      }
    }
    // src0 may be an SGPR or literal (one constant-bus read); src1 is a VGPR now, or an
    // inline constant / SGPR in the VOP3 form with src0 a VGPR.
    if (!is_vgpr(c) && !is_vgpr(a)) a = vmov(a);
    e(op, {d, a, c});
  }
  // VOP3-only op: at most one SGPR (constant bus), no literals.
  constexpr void legal3(operand* srcs, int n, bool f32) {
    bool bus = false;
    operand bus_op{};
    for (int i = 0; i < n; ++i) {
      operand& s = srcs[i];
      if (is_imm(s) && !inline_const(s, f32)) {
        s = vmov(s);
      } else if (is_sgpr(s)) {
        if (!bus) {
          bus = true;
          bus_op = s;
        } else if (!same_reg(bus_op, s)) {
          s = vmov(s);
        }
      }
    }
  }
  constexpr void valu3(O op, const operand& d, operand a, operand c, bool f32 = false) {
    operand s[2] = {a, c};
    legal3(s, 2, f32);
    e(op, {d, s[0], s[1]});
  }
  constexpr void valu3(O op, const operand& d, operand a, operand c, operand x, bool f32 = false) {
    operand s[3] = {a, c, x};
    legal3(s, 3, f32);
    e(op, {d, s[0], s[1], s[2]});
  }
  // SOP2 with at most one literal.
  constexpr void salu2(O op, const operand& d, operand a, operand c) {
    if (is_imm(a) && is_imm(c) && !inline_const(a, false) && !inline_const(c, false)) a = smov(a);
    e(op, {d, a, c});
  }
};

}  // namespace detail

// ---- emission ---------------------------------------------------------------------------
constexpr emitted builder::emit_ops(target_op op, const operand_arg* args, uint32_t n, const modifiers& m,
                                    src_loc l) {
  note_loc(l);
  if (err.failed) return {};
  const isa::instr_desc& d = detail::op_desc(op);
  if (n != d.num_operands) {
    fail(l, d.name, " takes ", static_cast<long long>(d.num_operands), " operands, got ",
         static_cast<long long>(n));
    return {};
  }
  // Built in place in the block (each copy of an instr is ~80 interpreted field copies);
  // taken back out if the checks below fail.
  vec<instr>& list = fn.blocks[cur_].instrs;
  instr& in = list.emplace_back();
  in.op = static_cast<uint16_t>(op);
  in.num_operands = static_cast<uint8_t>(n);
  if (&m != &no_modifiers) in.mods = packed_modifiers(m);
  in.loc = l;
  vreg_info* const vregs = fn.vregs.data();  // (raw: vec calls are interpreted calls)
  const std::size_t num_vregs = fn.vregs.size();
  for (uint32_t i = 0; i < n; ++i) {
    const operand& o = args[i].op;
    if (o.k == operand::kind::vreg) {
      if (o.value >= num_vregs) {
        list.pop_back();
        fail(l, d.name, " operand ", static_cast<long long>(i), ": register handle from another builder or uninitialised");
        return {};
      }
      // Tuples must start at an aligned register: check the slice, raise the vreg's alignment.
      uint16_t need = natural_align(o.cls, o.dwords);
      if (need > 1) {
        if (o.offset % need != 0) {
          list.pop_back();
          fail(l, d.name, " operand ", static_cast<long long>(i), ": a ", static_cast<long long>(o.dwords),
               "-dword ", reg_class_name(o.cls), " tuple must start at a multiple of ", static_cast<long long>(need),
               " inside its register array (offset ", static_cast<long long>(o.offset), ")");
          return {};
        }
        vreg_info& v = vregs[o.value];
        if (v.align < need) v.align = need;
      }
    }
    if (o.k == operand::kind::label && o.value >= labels_.size()) {
      list.pop_back();
      fail(l, d.name, " operand ", static_cast<long long>(i), ": label from another builder");
      return {};
    }
    in.ops[i] = o;
  }
  // Operand classes, widths, literals, constant bus, modifiers: the ISA table's checker.
  // (the quick verdict first: the explained check builds a message, only on failure)
  isa::form chosen = isa::form::plain;
  if (!isa::detail::quick_check(d, in, isa::reg_limits{}, chosen)) {
    isa::check_result cr = isa::check(d, in);
    list.pop_back();
    fail(l, cr.message.view());
    return {};
  }
  if ((d.flags & isa::f_mfma) && !check_operand_dtypes(d, list.back(), args, l)) {
    list.pop_back();
    return {};
  }
  if (lane_depth_ != 0 && wave_uniform_ == 0) check_wave_scope(list.back(), l);
  if (memo_.live) memo_note(d, list.back());
  emitted e{cur_, static_cast<uint32_t>(list.size() - 1)};
  if (d.flags & (isa::f_branch | isa::f_terminator)) {
    note_user_flow(op, list.back(), l);
    start_block();
  }
  return e;
}

namespace detail {
// The dtype an MFMA operand's registers hold, from the mnemonic (LLVM's naming:
// v_mfma[_scale]_<D>_<MxNxK>[_<blocks>b]_<A>[_<B>], v_smfmac_<D>_<MxNxK>_<A>[_<B>]): D and C
// (operands 0 and 3) the result type, A and B (1, 2) the source types (f16 and bf16 packed in
// pairs, fp8 / bf8 in fours; the f8f6f4 ones by the cbsz / blgp format code). -1: not
// checked (SMFMAC's index, the scale operands, i8 sources checked as i32).
struct mfma_types {
  int8_t d = -1, a = -1, b = -1;
  bool smfmac = false;
};
constexpr int8_t mfma_source_dtype(std::string_view t, unsigned format_code) {
  if (t == "f16") return static_cast<int8_t>(dtype::f16x2);
  if (t == "bf16") return static_cast<int8_t>(dtype::bf16x2);
  if (t == "f32" || t == "xf32") return static_cast<int8_t>(dtype::f32);
  if (t == "f64") return static_cast<int8_t>(dtype::f64);
  if (t == "i8" || t == "i32") return static_cast<int8_t>(dtype::i32);
  if (t == "fp8") return static_cast<int8_t>(dtype::fp8x4);
  if (t == "bf8") return static_cast<int8_t>(dtype::bf8x4);
  if (t == "f8f6f4") {
    constexpr dtype by_code[] = {dtype::fp8x4, dtype::bf8x4, dtype::fp6, dtype::bf6, dtype::fp4x8};
    return format_code < 5 ? static_cast<int8_t>(by_code[format_code]) : int8_t{-1};
  }
  return -1;
}
constexpr mfma_types mfma_types_of(std::string_view name, const instr& in) {
  mfma_types r;
  std::string_view rest;
  if (name.starts_with("v_mfma_scale_")) rest = name.substr(13);
  else if (name.starts_with("v_mfma_")) rest = name.substr(7);
  else if (name.starts_with("v_smfmac_")) rest = name.substr(9), r.smfmac = true;
  else return r;
  // Tokens: result type, shape, [blocks], A type, [B type].
  std::string_view tok[6];
  int n = 0;
  while (!rest.empty() && n < 6) {
    const std::size_t u = rest.find('_');
    tok[n++] = rest.substr(0, u);
    rest = u == std::string_view::npos ? std::string_view{} : rest.substr(u + 1);
  }
  if (n < 3) return r;
  int k = 2;
  if (k < n && tok[k].size() >= 2 && tok[k].back() == 'b' && tok[k][0] >= '0' && tok[k][0] <= '9') ++k;
  if (k >= n) return r;
  r.d = mfma_source_dtype(tok[0], 0);
  r.a = mfma_source_dtype(tok[k], in.mods.cbsz());
  r.b = mfma_source_dtype(k + 1 < n ? tok[k + 1] : tok[k], in.mods.blgp());
  return r;
}
// A register of dtype `got` where `want` is expected: the same, or raw bits (u32 or u64, of
// any dtype: loads and packing fill u32 registers; the table checks the width).
constexpr bool operand_dtype_fits(int8_t want, int8_t got) {
  if (want < 0 || got < 0 || want == got) return true;
  const dtype g = static_cast<dtype>(got);
  return g == dtype::u32 || g == dtype::u64;
}
}  // namespace detail

// An MFMA's register operands against the dtypes its mnemonic names (detail::mfma_types_of):
// an f32 register as an f16 MFMA's A, a bf16x2 accumulator, ... is an error at the call
// unless the register is reinterpreted (.as<T>()).
constexpr bool builder::check_operand_dtypes(const isa::instr_desc& d, const instr& in, const operand_arg* args,
                                             src_loc l) {
  const detail::mfma_types t = detail::mfma_types_of(d.name, in);
  const int8_t want[4] = {t.d, t.a, t.b, t.smfmac ? int8_t{-1} : t.d};
  constexpr std::string_view role[4] = {"the result (D)", "A", "B", "the accumulator (C)"};
  for (uint32_t i = 0; i < 4 && i < in.num_operands; ++i) {
    if (args[i].op.k != operand::kind::vreg || detail::operand_dtype_fits(want[i], args[i].dtype)) continue;
    const dtype w = static_cast<dtype>(want[i]), g = static_cast<dtype>(args[i].dtype);
    fail(l, d.name, " operand ", static_cast<long long>(i), " (", role[i], "): a register of dtype ", dtype_name(g),
         " where the instruction takes ", dtype_name(w), ": reinterpret the register with .as<", dtype_name(w),
         ">() if its bits are ", dtype_name(w), ", else convert the values");
    return false;
  }
  return true;
}

constexpr emitted builder::emit_raw(target_op op, std::initializer_list<operand> ops, src_loc l,
                                    const modifiers& m) {
  if (err.failed) return {};
  // built in place: one fewer copy of a ~250-byte instr per instruction in constant evaluation
  vec<instr>& list = fn.blocks[cur_].instrs;
  instr& in = list.emplace_back();
  in.op = static_cast<uint16_t>(op);
  in.num_operands = static_cast<uint8_t>(ops.size());
  if (&m != &no_modifiers) in.mods = packed_modifiers(m);
  in.loc = l.line ? l : last_loc_;
  uint32_t i = 0;
  for (const operand& o : ops) in.ops[i++] = o;
  if (lane_depth_ != 0 && wave_uniform_ == 0) check_wave_scope(in, in.loc);
  if (memo_.live) memo_note(detail::op_desc(op), in);
  emitted e{cur_, static_cast<uint32_t>(list.size() - 1)};
  if (detail::op_desc(op).flags & (isa::f_branch | isa::f_terminator)) start_block();
  return e;
}

}  // namespace hipasm

// The rest of the language (expressions, control flow, kernel arguments, build_kernel).
#include "expr.hpp"
#include "control_flow.hpp"
#include "kernel_args.hpp"

// Kernel arguments and build_kernel.
//
// A kernel's runtime arguments are the parameters after `builder&`, typed by their C++ type:
//   constexpr void k(hipasm::builder J, hipasm::arg<const float*> x, hipasm::arg<int> n,
//                    hipasm::arg<float> alpha, hipasm::arg<my_struct> s);
// Each sits at its C ABI offset in the kernarg segment (as the HIP __global__ wrapper with
// the same parameter types lays it out). An arg<T> is an SGPR handle (registers.hpp) of the
// matching dtype: pointers and 64-bit integers are u64/i64 pairs, int -> i32, unsigned -> u32,
// float -> f32, double -> f64, _Float16 -> f16x2, __bf16 -> bf16x2 (the dword that holds the
// value; `shift` says at which bit it starts), a struct -> a u32 array of its dwords
// (`field<U>(byte_offset)` views one member). Pointer arithmetic is in BYTES.
//
// Only arguments that some instruction reads are loaded: at the end of the build the
// prologue loads them with as few s_load_dwordxN as the layout allows (contiguous used
// dwords share one load), followed by one s_waitcnt lgkmcnt(0).
#pragma once
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "builder.hpp"
#include "passes/waitcnt_resolve.hpp"

namespace hipasm {

namespace detail {
template <class T>
constexpr dtype dtype_for() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_pointer_v<U>) return dtype::u64;
  else if constexpr (std::is_same_v<U, float>) return dtype::f32;
  else if constexpr (std::is_same_v<U, double>) return dtype::f64;
#if defined(__clang__)
  else if constexpr (std::is_same_v<U, _Float16>) return dtype::f16x2;
  else if constexpr (std::is_same_v<U, __bf16>) return dtype::bf16x2;
#endif
  else if constexpr (std::is_integral_v<U> && sizeof(U) == 8) return std::is_signed_v<U> ? dtype::i64 : dtype::u64;
  else if constexpr (std::is_integral_v<U> || std::is_enum_v<U>) return std::is_signed_v<U> ? dtype::i32 : dtype::u32;
  else return dtype::u32;
}
template <class T>
inline constexpr bool is_struct_arg = std::is_class_v<std::remove_cv_t<T>>;
}  // namespace detail

template <class T>
struct arg : gpr<detail::dtype_for<T>()> {
  static_assert(std::is_trivially_copyable_v<T>, "kernel arguments must be trivially copyable");
  static_assert(sizeof(T) <= 64, "kernel arguments larger than 64 bytes are not supported: pass a pointer");
  using base = gpr<detail::dtype_for<T>()>;
  uint32_t offset = 0;  // byte offset in the kernarg segment
  uint8_t shift = 0;    // for sub-dword types: bit position of the value in its dword

  constexpr arg() = default;
  constexpr arg(const base& g, uint32_t off, uint8_t sh) : base(g), offset(off), shift(sh) {}
  using base::operator=;

  // A member of a struct argument at `byte_offset` (must be dword aligned).
  template <class U>
  constexpr gpr<detail::dtype_for<U>()> field(uint32_t byte_offset,
                                              std::source_location l = std::source_location::current()) const {
    gpr<detail::dtype_for<U>()> r;
    r.b = this->b;
    r.id = this->id;
    r.cls = this->cls;
    r.off = static_cast<uint16_t>(this->off + byte_offset / 4);
    constexpr uint16_t w = dwords_of(detail::dtype_for<U>());
    if ((byte_offset % 4) != 0 || byte_offset / 4 + w > this->dwords()) {
      if (this->b) detail::report(*this->b, to_src_loc(l), "struct field not dword aligned or out of range", "byte offset", byte_offset, true);
      r.off = this->off;
    }
    return r;
  }
};

template <class T>
constexpr arg<T> builder::make_arg(std::source_location l) {
  constexpr uint32_t size = sizeof(T), align = alignof(T);
  uint32_t off = (kernarg_bytes_ + align - 1) & ~(align - 1);
  kernarg_bytes_ = off + size;
  uint16_t dw = static_cast<uint16_t>((size + 3) / 4);
  if (size >= 4 && off % 4 != 0) {
    fail(to_src_loc(l), "kernel argument at byte offset ", static_cast<long long>(off),
         " is not dword aligned (give the struct 4-byte alignment)");
  }
  src_loc sl = to_src_loc(l);
  detail::reg_ref r = new_reg(reg_class::sgpr, dw, natural_align(reg_class::sgpr, dw), sl);
  args_.push_back({r.id, off & ~3u, dw * 4u, off, off + size, detail::is_struct_arg<T>,
                   !detail::is_struct_arg<T> && (size == 4 || size == 8) && off % 4 == 0});
  gpr<detail::dtype_for<T>()> g;
  g.b = self();
  g.id = r.id;
  g.cls = reg_class::sgpr;
  uint16_t n = static_cast<uint16_t>(dw / dwords_of(detail::dtype_for<T>()));
  g.dim[0] = n;
  g.rank = n > 1 ? 1 : 0;
  return arg<T>(g, off, static_cast<uint8_t>((off % 4) * 8));
}

// ---- finishing the IR -----------------------------------------------------------------------
constexpr void builder::build_prologue() {
  using detail::reg_op;
  // Which argument registers does any instruction read or write?
  vec<int32_t> arg_of_(fn.vregs.size(), -1);
  int32_t* const arg_of = arg_of_.data();  // raw: the loop below visits every operand
  const std::size_t num_vregs = arg_of_.size();
  for (uint32_t i = 0; i < args_.size(); ++i) arg_of[args_[i].vreg] = static_cast<int32_t>(i);
  vec<uint8_t> used(args_.size(), 0);
  vec<src_loc> first_read(args_.size(), src_loc{});  // (kernarg_preload = all: its error's line)
  for (const block& bl : fn.blocks)
    for (const instr& in : bl.instrs)
      for (uint32_t j = 0; j < in.num_operands; ++j) {
        const operand& o = in.ops[j];
        if (o.k == operand::kind::vreg && o.value < num_vregs && arg_of[o.value] >= 0) {
          const int32_t a = arg_of[o.value];
          if (!used[a]) first_read[a] = in.loc;
          used[a] = 1;
        }
      }
  // Kernarg preloading: clang's layout for this signature (AMDGPUPreloadKernelArguments: the
  // leading arguments up to the first struct, each ending within the 14 free user SGPRs, at
  // most the preload count, sub-dword ones included) in s2.. at entry. The 4- and 8-byte
  // ones the kernel reads stay in their entry SGPRs (fixed, like the workgroup ids) instead
  // of being loaded; the wrapper pins them there (kernel.hpp).
  uint32_t preload_dw = 0;
  if (options_.kernarg_preload != arg_preload::off) {
    uint32_t n = 0;  // arguments clang preloads
    while (n < args_.size() && n < detail::kernarg_preload_max_args && !args_[n].aggregate &&
           args_[n].end <= detail::kernarg_preload_max_dwords * 4) {
      preload_dw = (args_[n].end + 3) / 4;
      ++n;
    }
    for (uint32_t i = 0; i < args_.size(); ++i) {
      if (!used[i]) continue;
      const detail::arg_slot& a = args_[i];
      if (i < n && a.whole_dwords) {
        fn.vregs[a.vreg].fixed = static_cast<int16_t>(2 + a.offset / 4);
        fn.preload_sgpr[i] = static_cast<int8_t>(2 + a.offset / 4);
        if (a.bytes == 8) fn.preload_pairs = static_cast<uint16_t>(fn.preload_pairs | (1u << i));
        arg_of[a.vreg] = -1;  // (neither loaded nor rewritten below)
        continue;
      }
      if (options_.kernarg_preload != arg_preload::all) continue;
      const char* why = i < n                                     ? "it is smaller than a dword and shares one"
                        : n >= detail::kernarg_preload_max_args   ? "clang preloads at most 16 arguments"
                        : args_[n].aggregate                      ? "clang preloads no struct argument nor any after one"
                                                                  : "the 14 preloadable dwords (s2..s15) end before it";
      fail(first_read[i], "kernarg_preload = arg_preload::all: kernel argument ", static_cast<long long>(i),
           " (bytes ", static_cast<long long>(a.begin), "..", static_cast<long long>(a.end - 1),
           " of the kernarg segment), read here, cannot be preloaded: ", why,
           " (arg_preload::fitting loads it from the kernarg segment)");
      return;
    }
    fn.kernarg_preload_dwords = static_cast<uint8_t>(preload_dw);
  }
  bool any = false;  // an argument to load
  for (uint32_t i = 0; i < args_.size(); ++i)
    if (used[i] && arg_of[args_[i].vreg] >= 0) any = true;
  block& pro = fn.blocks[0];
  // The prologue carries the kernel's first line (the first instruction of the body).
  src_loc ploc{};
  for (uint32_t b = 1; b < fn.blocks.size() && !ploc.line; ++b)
    if (!fn.blocks[b].instrs.empty()) ploc = fn.blocks[b].instrs[0].loc;
  // Used dwords of the kernarg segment, and which argument owns each.
  uint32_t total_dw = (kernarg_bytes_ + 3) / 4;
  vec<uint8_t> need(total_dw + 1, 0);
  for (uint32_t i = 0; i < args_.size(); ++i)
    if (used[i] && arg_of[args_[i].vreg] >= 0)
      for (uint32_t k = 0; k < args_[i].bytes / 4; ++k) need[args_[i].offset / 4 + k] = 1;
  // chunk_of[dword] = (vreg, offset inside it)
  vec<uint32_t> chunk_id(total_dw + 1, 0), chunk_off(total_dw + 1, 0);
  if (any) {
    fn.uses_kernarg_ptr = true;
    uint32_t kp = kernarg_vreg();
    uint32_t d = 0;
    while (d < total_dw) {
      if (!need[d]) {
        ++d;
        continue;
      }
      // The run of used dwords starting at d; an argument never straddles two loads.
      uint32_t end = d;
      while (end < total_dw && need[end]) ++end;
      uint32_t n = 16;
      while (n > 1) {
        if (d + n <= end) {
          bool splits = false;
          for (uint32_t i = 0; i < args_.size(); ++i) {
            if (!used[i] || arg_of[args_[i].vreg] < 0) continue;
            uint32_t a0 = args_[i].offset / 4, a1 = a0 + args_[i].bytes / 4;
            if (a0 < d + n && d + n < a1) splits = true;
          }
          if (!splits) break;
        }
        n /= 2;
      }
      if (n == 1) {
        // a wide argument at d that no power of two fits: load it whole, rounded up
        for (uint32_t i = 0; i < args_.size(); ++i)
          if (used[i] && arg_of[args_[i].vreg] >= 0 && args_[i].offset / 4 == d) {
            uint32_t w = args_[i].bytes / 4;
            while (n < w) n *= 2;
          }
      }
      detail::reg_ref c = new_reg(reg_class::sgpr, static_cast<uint16_t>(n), natural_align(reg_class::sgpr, static_cast<uint16_t>(n)), ploc);
      O op = n == 1 ? O::s_load_dword : n == 2 ? O::s_load_dwordx2 : n == 4 ? O::s_load_dwordx4
             : n == 8 ? O::s_load_dwordx8 : O::s_load_dwordx16;
      instr in;
      in.op = static_cast<uint16_t>(op);
      in.num_operands = 3;
      in.ops[0] = reg_op(c);
      in.ops[1] = reg_op(detail::reg_ref{self(), kp, reg_class::sgpr, 0, 2});
      in.ops[2] = detail::imm_op(d * 4);
      in.loc = ploc;
      pro.instrs.push_back(in);
      for (uint32_t k = 0; k < n && d + k < total_dw + 1; ++k) {
        chunk_id[d + k] = c.id;
        chunk_off[d + k] = k;
      }
      d += n;
    }
    // Rewrite every use of an argument register into its chunk.
    for (block& bl : fn.blocks)
      for (instr& in : bl.instrs)
        for (uint32_t j = 0; j < in.num_operands; ++j) {
          operand& o = in.ops[j];
          if (o.k == operand::kind::vreg && o.value < num_vregs && arg_of[o.value] >= 0) {
            uint32_t dw0 = args_[arg_of[o.value]].offset / 4 + o.offset;
            o.value = chunk_id[dw0];
            o.offset = static_cast<uint16_t>(chunk_off[dw0]);
          }
        }
  }
  // Entry registers: kernarg pointer s[0:1] (always enabled, see kernel.hpp), the preloaded
  // kernarg dwords, then the workgroup ids: x always enabled (clang's descriptor enables it
  // whether read or not), y and z when read; v0 holds the packed work-item ids.
  fn.uses_kernarg_ptr = true;
  if (kernarg_vreg_ >= 0) fn.vregs[kernarg_vreg_].fixed = 0;
  const int16_t wg_x = static_cast<int16_t>(2 + preload_dw);
  if (wg_id_[0] >= 0) fn.vregs[wg_id_[0]].fixed = wg_x;
  if (wg_id_[1] >= 0) fn.vregs[wg_id_[1]].fixed = static_cast<int16_t>(wg_x + 1);
  if (wg_id_[2] >= 0) fn.vregs[wg_id_[2]].fixed = static_cast<int16_t>(wg_x + 1 + (wg_id_[1] >= 0 ? 1 : 0));
  // With only x used, the descriptor enables only x and v0 holds it alone (the hardware packs
  // y and z only when enabled; clang reads threadIdx.x from v0 unmasked then): no v_and_b32.
  if (tid_[0] >= 0 && tid_[1] < 0 && tid_[2] < 0) {
    fn.vregs[tid_[0]].fixed = 0;
  } else if (tid_[0] >= 0 || tid_[1] >= 0 || tid_[2] >= 0) {
    detail::reg_ref v0 = new_reg(reg_class::vgpr, 1, 1, ploc);
    fn.vregs[v0.id].fixed = 0;
    fn.vregs[v0.id].name = "v0_workitem_ids";
    for (int d = 0; d < 3; ++d) {
      if (tid_[d] < 0) continue;
      instr in;
      in.loc = fn.vregs[tid_[d]].loc;
      in.ops[0] = reg_op(detail::reg_ref{self(), static_cast<uint32_t>(tid_[d]), reg_class::vgpr, 0, 1});
      if (d == 0) {
        in.op = static_cast<uint16_t>(O::v_and_b32);
        in.num_operands = 3;
        in.ops[1] = detail::imm_op(0x3ff);
        in.ops[2] = reg_op(v0);
      } else {
        in.op = static_cast<uint16_t>(O::v_bfe_u32);
        in.num_operands = 4;
        in.ops[1] = reg_op(v0);
        in.ops[2] = detail::imm_op(d == 1 ? 10 : 20);
        in.ops[3] = detail::imm_op(10);
      }
      pro.instrs.push_back(in);
    }
  }
  // (With scheduling on, the pipeline puts the wait before the first read: waitcnt_resolve.hpp.)
  if (any && !options_.schedule) {
    instr w;
    w.op = static_cast<uint16_t>(O::s_waitcnt);
    w.num_operands = 1;
    w.ops[0] = lgkmcnt(0).to_operand();
    w.loc = ploc;
    pro.instrs.push_back(w);
  }
}

constexpr void builder::resolve_cfg() {
  // Labels -> block ids.
  for (block& bl : fn.blocks)
    for (instr& in : bl.instrs)
      for (uint32_t j = 0; j < in.num_operands; ++j) {
        operand& o = in.ops[j];
        if (o.k != operand::kind::label) continue;
        const label_info& li = labels_[o.value];
        if (li.block < 0) {
          fail(in.loc, "label '", li.name.empty() ? std::string_view("<unnamed>") : li.name,
               "' (made at ", li.loc, ") is jumped to but never placed");
          return;
        }
        o.value = static_cast<uint64_t>(li.block);
      }
  // Successors: fall-through first, then the branch target.
  const uint32_t nb = static_cast<uint32_t>(fn.blocks.size());
  for (uint32_t i = 0; i < nb; ++i) {
    block& bl = fn.blocks[i];
    bl.succs.clear();
    bool falls = true;
    int64_t target = -1;
    if (!bl.instrs.empty()) {
      const instr& last = bl.instrs.back();
      O op = static_cast<O>(last.op);
      if (op == O::s_endpgm) falls = false;
      if (op == O::s_branch) falls = false;
      for (uint32_t j = 0; j < last.num_operands; ++j)
        if (last.ops[j].k == operand::kind::label) target = static_cast<int64_t>(last.ops[j].value);
      if (op == O::s_setpc_b64) falls = false;
    }
    if (falls && i + 1 < nb) bl.succs.push_back(i + 1);
    if (target >= 0 && !(falls && static_cast<uint32_t>(target) == i + 1)) bl.succs.push_back(static_cast<uint32_t>(target));
  }
}

constexpr void builder::finish() {
  if (err.failed) return;
  // Hand-written s_endpgm/branches in uniform loops that turned out per-lane, branch targets.
  for (const detail::flow_check& c : flow_checks_) check_user_flow(c);
  if (err.failed) return;
  // End of program (unless the kernel's last instruction already ends it); a per-lane
  // Return's wave end branches to it.
  if (end_label_ >= 0) place(label{static_cast<uint32_t>(end_label_)});
  {
    bool ended = false;
    if (fn.blocks[cur_].instrs.empty() && !block_has_label_ && cur_ > 0) {
      const auto& prev = fn.blocks[cur_ - 1].instrs;
      if (!prev.empty() && (static_cast<O>(prev.back().op) == O::s_endpgm || static_cast<O>(prev.back().op) == O::s_branch))
        ended = true;
    }
    if (!ended) emit_raw(O::s_endpgm, {}, last_loc_);
    // drop trailing empty blocks nothing jumps to
    while (fn.blocks.size() > 2 && fn.blocks.back().instrs.empty()) {
      uint32_t last = static_cast<uint32_t>(fn.blocks.size() - 1);
      bool targeted = false;
      for (const label_info& li : labels_)
        if (li.block == static_cast<int32_t>(last)) targeted = true;
      if (targeted) break;
      fn.blocks.pop_back();
    }
    cur_ = static_cast<uint32_t>(fn.blocks.size() - 1);
  }
  build_prologue();
  if (err.failed) return;
  resolve_cfg();
  // With scheduling on, the kernel-argument wait goes before their first read now (the
  // prologue emitted none), so that the passes see it in place: placing it in the pipeline
  // would make dce's liveness, which the allocator reuses, stale.
  if (options_.schedule && !err.failed) {
    pass_error pe;
    if (!resolve_waitcnts(fn, isa_view{active_target::table.data(), static_cast<uint32_t>(active_target::table.size())},
                          false, true, pe, nullptr, true))
      fail(src_loc{}, pe.view());
  }
}

// ---- build_kernel ---------------------------------------------------------------------------
namespace detail {
template <class T>
struct arg_type;
template <class T>
struct arg_type<arg<T>> {
  using type = T;
};
template <class F>
struct kernel_sig;
template <class... A>
struct kernel_sig<void (*)(builder&, A...)> {
  using args = std::tuple<typename arg_type<std::remove_cvref_t<A>>::type...>;
};
template <class... A>
struct kernel_sig<void (*)(builder, A...)> {
  using args = std::tuple<typename arg_type<std::remove_cvref_t<A>>::type...>;
};

// The builder function called with its arguments: a constructor called by braced
// initialisation evaluates them left to right (offsets are assigned in parameter order), with
// no std::tuple (instantiating one of a kernel's ~17 argument types was ~60 ms a compile).
template <auto KernelFn, class... T>
struct kernel_call {
  constexpr kernel_call(builder& J, arg<T>... a) { KernelFn(J, a...); }
};
template <auto KernelFn, class... T>
constexpr void run_kernel(builder& J, std::tuple<T...>*) {
  kernel_call<KernelFn, T...>{J, J.make_arg<T>()...};
}
}  // namespace detail

template <auto KernelFn>
constexpr build_result build_kernel(std::string_view name, kernel_options options = {}) {
  using sig = detail::kernel_sig<decltype(+KernelFn)>;
  builder_state st;
  st.options = options;
  builder J(st, name);
  detail::run_kernel<KernelFn>(J, static_cast<typename sig::args*>(nullptr));
  J.finish();
  return build_result{static_cast<function&&>(st.fn), static_cast<error_info&&>(st.err)};
}

}  // namespace hipasm

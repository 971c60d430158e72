// Per-kernel options: one structural struct, given to a kernel by wrapping its builder
// function (a template argument, so it travels through HIPASM_KERNEL_BODY unchanged):
//
//   constexpr void my_kernel(builder J, arg<int*> out) { ... }
//   constexpr auto my_kernel_plain = hipasm::with_options<my_kernel, hipasm::kernel_options{.cse = false}>;
//   extern "C" __global__ void k(int* out) { HIPASM_KERNEL_BODY(my_kernel_plain, out); }
//
// and hipasm::asm_text<my_kernel_plain>("k"), hipasm::pass_dump<my_kernel_plain>("k") alike.
// The optional passes can be turned off (pyhip's no_pass); the passes that make the code
// correct (remove-unreachable, a2v, split-registers, waitcnt-check, regalloc, hazards) cannot.
//
// Adding an option: a member with its default here (every member public, of a structural
// type: bool, integers, enums), read where it acts (the pipeline's steps see it as
// `pipeline_state::options.kernel`, the builder as `builder::options()`).
#pragma once
#include <type_traits>

namespace hipasm {

// Kernel arguments in user SGPRs at dispatch (gfx942 kernarg preloading), see
// kernel_options::kernarg_preload.
enum class arg_preload : unsigned char {
  off,      // every argument is s_load'ed from the kernarg segment (the default)
  fitting,  // the arguments clang preloads are read from their SGPRs, the rest are loaded
  all,      // as fitting, and an argument the kernel reads that cannot be preloaded is an error
};

struct kernel_options {
  // Optimisation passes of the pipeline (pipeline.hpp), each on by default.
  bool cse = true;                 // merge identical computations
  bool dse = true;                 // drop register writes overwritten before any read
  bool dce = true;                 // drop results nobody reads (and loads nobody reads)
  bool coalesce = true;            // register allocation puts a copy's source and destination in one place
  bool vcc_compares = true;        // per-lane comparisons write VCC (e32 form, literal in src0) where VCC is free
  bool known_bits = true;          // masks skip terms whose masked bits are known zero; x - ((x >> k) << k) is x & (2^k-1)
  // Expression lowering (expr.hpp): constant folding, strength reduction and fused
  // instructions (v_lshl_add_u32, v_add3_u32, v_lshl_add_u64, ...). Off: one instruction per
  // operator, as written.
  bool fold = true;
  // Control flow (control_flow.hpp): at the join of a per-lane If whose branch did Break/
  // Continue/Return, s_cbranch_execz past the rest of the body (to where lanes come back)
  // when that code does nothing without lanes (VALU and memory only, no scalar effects).
  bool skip_idle_code = true;
  // Waits and scheduling (passes/waitcnt_resolve.hpp, passes/hazards.hpp).
  // Automatic s_waitcnt: the weakest sufficient wait before every read or overwrite of a
  // memory result, path-sensitively; hand-written waits still count and are still checked.
  bool auto_waitcnt = false;
  // Scheduling: the kernel arguments' wait goes before their first read (not right after
  // their loads), and independent instructions fill hazard gaps and the slots before an
  // s_waitcnt instead of s_nop (after register allocation, in the hazard pass: only where
  // the allocator left them independent). Off: the instructions stay in the order written.
  bool schedule = true;
  // Scheduling also before register allocation, on virtual registers, where the allocator's
  // reuse of registers cannot get in the way (fills most gaps; costs one more hazard
  // analysis: ~20% of a kernel's compile time). Needs `schedule`.
  bool schedule_virtual = false;
  // Kernarg preloading: the hardware copies the first dwords of the kernarg segment into the
  // user SGPRs after the kernarg pointer (s2..s15) before the kernel starts, so the kernel
  // reads its arguments without an s_load and its wait. clang-22 decides it per translation
  // unit (-mllvm -amdgpu-kernarg-preload-count=16: hipasm_add_code_object(... KERNARG_PRELOAD));
  // this option makes the hipasm code take those arguments from their SGPRs, and the wrapper
  // pins them there (one asm input each: no instruction when clang preloaded them, clang's
  // own load when it did not). Preloaded are the leading arguments up to the first struct,
  // while they end within 14 dwords (16 user SGPRs less the kernarg pointer), at most 16
  // arguments; of those, the 4- and 8-byte ones (int, unsigned, float, pointers, 64-bit
  // integers, double) are read from SGPRs; sub-dword ones (char, short, _Float16, __bf16,
  // which share a dword) and the rest are loaded as before (`fitting`) or rejected with the
  // line of their first read (`all`). The workgroup ids then follow the preloaded dwords.
  arg_preload kernarg_preload = arg_preload::off;
};

// A builder function with its options; use it wherever a kernel function goes.
template <auto KernelFn, kernel_options Options>
struct kernel_with_options {
  static constexpr auto fn = KernelFn;
  static constexpr kernel_options options = Options;
};
namespace detail {
template <class T>
struct options_wrapper : std::false_type {};
template <auto F, kernel_options O>
struct options_wrapper<kernel_with_options<F, O>> : std::true_type {};
// The builder function and the options of a kernel function or a wrapped one.
template <auto K>
constexpr auto kernel_fn_of() {
  if constexpr (options_wrapper<std::remove_cvref_t<decltype(K)>>::value) return std::remove_cvref_t<decltype(K)>::fn;
  else return K;
}
template <auto K>
constexpr kernel_options kernel_options_of() {
  if constexpr (options_wrapper<std::remove_cvref_t<decltype(K)>>::value) return std::remove_cvref_t<decltype(K)>::options;
  else return kernel_options{};
}
}  // namespace detail

// An already wrapped kernel is rewrapped: the options given here are its options (they replace
// the inner ones, as a kernel_options value cannot say which fields were set).
template <auto KernelFn, kernel_options Options>
inline constexpr kernel_with_options<detail::kernel_fn_of<KernelFn>(), Options> with_options{};

}  // namespace hipasm

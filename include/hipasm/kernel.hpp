// The HIP kernel wrapper and host access to a kernel's asm.
//
// A kernel is a plain HIP __global__ whose body is one macro:
//
//   extern "C" __global__ void vector_add(const float* a, const float* b, float* c, unsigned n) {
//     HIPASM_KERNEL_BODY(vector_add_fn, a, b, c, n);
//   }
//
// In the device pass only (HIP compiles every TU twice) the macro:
//  1. checks the kernel's parameter types against the builder function's arg<T> list;
//  2. runs the builder alone for a bound on the text's size (kernel_capacity; or takes the
//     fixed HIPASM_TEXT_CAPACITY, cheaper with the default constant interpreter), then builder +
//     pipeline + printing ONCE into one constexpr object: the summary (registers, entry
//     state, LDS, the diagnostic) and the text in a buffer of that capacity with its size
//     (the asm statement takes any constant with data() and size()); static_asserts success
//     with the diagnostic as the message;
//  3. only if the text did not fit the bound, runs them again to print it into an array of
//     exactly its size;
//  4. forces on the entry registers the asm reads: one empty asm taking the kernarg
//     pointer and the used workgroup ids as "s" inputs (these sit in their entry SGPRs,
//     nothing is computed), the used work-item ids y/z pinned to the highest VGPRs the
//     kernel clobbers anyway (so computing them never reuses v0), and the LDS variables
//     (so the descriptor's group segment size is right);
//  5. emits `asm volatile(text ::: vN, aN, sN, vcc, exec, scc, m0, memory)`, clobbering
//     the highest register used per class so the compiler's descriptor counts and
//     accum_offset are right (toolchain.md). Nothing runs after the asm but s_endpgm.
//
// Host code gets the same text at run time: hipasm::asm_text<fn>("name") (host code that
// clang compiles: the pipeline runs there too; any other host compiler reads the build's
// <target>.s listing instead, as examples/listing.hpp does).
#pragma once
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "builder.hpp"
#include "emit.hpp"
#include "pipeline.hpp"

#if !defined(__HIP_DEVICE_COMPILE__) || !__HIP_DEVICE_COMPILE__
#include <fstream>
#include <stdexcept>
#include <string>
#endif

// Without the HIP headers (device-only builds with -nogpuinc, as hipasm_add_code_object
// does), HIP's kernel keyword is spelled here so user kernels read the same either way.
#if defined(__HIP__) && !defined(__global__)
#define __global__ __attribute__((global))
#endif

namespace hipasm {

// Register and LDS usage of a compiled kernel.
struct kernel_usage {
  int sgprs = 0, vgprs = 0, agprs = 0;  // highest used + 1, per class
  uint32_t lds_static_bytes = 0;
  bool lds_dynamic = false;
  bool workgroup_id[3] = {false, false, false};
  bool workitem_id[3] = {false, false, false};
  std::size_t instructions = 0;
  // Kernarg preloading (kernel_options::kernarg_preload): the kernarg dwords the kernel's
  // descriptor preloads (clang's layout) and how many arguments the code reads from them.
  int kernarg_preload_dwords = 0;
  int preloaded_args = 0;
  bool hidden_args = false;  // reads hidden kernel arguments (clang declares them)
};

namespace detail {

// A short constexpr string (register names and constraints) with data()/size().
struct short_text {
  char chars[16]{};
  unsigned len = 0;
  constexpr const char* data() const { return chars; }
  constexpr unsigned size() const { return len; }
  constexpr void put(char c) { chars[len++] = c; }
};
constexpr short_text reg_text(char cls, int index, bool braces = false) {
  short_text t;
  if (braces) t.put('{');
  t.put(cls);
  char buf[8]{};
  int n = 0;
  unsigned v = static_cast<unsigned>(index < 0 ? 0 : index);
  do {
    buf[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) t.put(buf[--n]);
  if (braces) t.put('}');
  return t;
}

// "{s[N:N+1]}": an SGPR pair as an asm constraint.
constexpr short_text sgpr_pair_text(int first) {
  short_text t;
  const short_text a = reg_text('s', first), b = reg_text('s', first + 1);
  t.put('{');
  t.put('s');
  t.put('[');
  for (unsigned i = 1; i < a.len; ++i) t.put(a.chars[i]);
  t.put(':');
  for (unsigned i = 1; i < b.len; ++i) t.put(b.chars[i]);
  t.put(']');
  t.put('}');
  return t;
}

// The hardware always enables workgroup id x (clang's descriptor says
// .amdhsa_system_sgpr_workgroup_id_x 1 even when nothing reads it), so the enabled ids sit
// at s2 = x, then y, then z, counting x whether or not the kernel reads it. Hand-made IR
// that numbered only the ids it uses (y at s2 when x is unused) is moved up by one here (the
// builder numbers them so itself, after any preloaded kernarg dwords); the descriptor tests
// check the result against clang's code object.
constexpr void normalize_entry_sgprs(function& fn) {
  if (fn.uses_workgroup_id[0]) return;
  bool dense = false;
  for (const vreg_info& v : fn.vregs)
    if (v.cls == reg_class::sgpr && v.fixed == 2 && v.dwords == 1) dense = true;
  if (!dense) return;
  for (vreg_info& v : fn.vregs)
    if (v.cls == reg_class::sgpr && v.fixed >= 2 && v.dwords == 1) ++v.fixed;
}

// The IR source of a kernel: a builder function (build_kernel), or, for tests and
// hand-made IR, a constexpr callable returning a `function` directly.
// `name` is the kernel's name in messages and asm labels, `label_uid` what follows it in the
// labels (the wrapper's "%=", which makes them unique in the translation unit; ir.hpp).
// A kernel function may carry options (options.hpp: with_options<fn, kernel_options{...}>).
template <auto Kernel>
constexpr build_result build_ir(std::string_view name, std::string_view label_uid = {}) {
  constexpr auto KernelFn = kernel_fn_of<Kernel>();
  build_result br;
  if constexpr (requires { { KernelFn() } -> std::convertible_to<function>; }) {
    br.fn = KernelFn();
    br.fn.name = name;
    normalize_entry_sgprs(br.fn);
  } else {
    br = build_kernel<KernelFn>(name, kernel_options_of<Kernel>());
  }
  br.fn.label_uid = label_uid;
  return br;
}

template <auto Kernel>
constexpr pipeline_state compile_kernel(std::string_view name, std::string_view label_uid = {}) {
  constexpr auto KernelFn = kernel_fn_of<Kernel>();
  pipeline_options opt{};
  opt.kernel = kernel_options_of<Kernel>();
  if constexpr (requires { { KernelFn() } -> std::convertible_to<function>; }) {
    function fn;  // (assigned, not initialised: clang would evaluate a constant initialiser
    fn = KernelFn();  // once more when it instantiates this function)
    fn.name = name;
    fn.label_uid = label_uid;
    normalize_entry_sgprs(fn);
    return compile_function(std::move(fn), active_target::desc, opt);
  } else {
    build_result br = build_kernel<KernelFn>(name, opt.kernel);
    if (br.error.failed) {
      pipeline_state st;
      st.fn.name = name;
      st.error.failed = true;
      st.error.loc = br.error.loc;
      st.error.add(br.error.view());
      return st;
    }
    br.fn.label_uid = label_uid;
    return compile_function(std::move(br.fn), active_target::desc, opt);
  }
}

constexpr kernel_usage usage_of(const pipeline_state& st) {
  kernel_usage u;
  u.sgprs = st.usage.max_sgpr + 1;
  u.vgprs = st.usage.max_vgpr + 1;
  u.agprs = st.usage.max_agpr + 1;
  u.lds_static_bytes = st.fn.lds_static_bytes;
  u.lds_dynamic = st.fn.lds_dynamic;
  for (int d = 0; d < 3; ++d) {
    u.workgroup_id[d] = st.fn.uses_workgroup_id[d];
    u.workitem_id[d] = st.fn.uses_workitem_id[d];
  }
  for (const block& b : st.fn.blocks) u.instructions += b.instrs.size();
  u.kernarg_preload_dwords = st.fn.kernarg_preload_dwords;
  u.hidden_args = st.fn.uses_hidden_args;
  for (int8_t r : st.fn.preload_sgpr) u.preloaded_args += r >= 0;
  return u;
}

// A fixed-size message (a static_assert message: data()/size()).
struct message_text {
  char chars[1024]{};
  unsigned len = 0;
  constexpr const char* data() const { return chars; }
  constexpr unsigned size() const { return len; }
};

// Everything the wrapper needs to know before printing (one constant evaluation). A
// structural type: it travels as a template argument (see kernel_value).
struct kernel_summary {
  bool ok = false;
  message_text message{};       // the error message, or its start when it is longer
  std::size_t message_size = 0;  // the whole message's length (see kernel_message)
  std::size_t text_size = 0;
  kernel_usage usage{};
  short_text clobber_v{}, clobber_a{}, clobber_s{};  // the top VGPR, AGPR (or "memory": none), SGPR
  short_text pin_y{}, pin_z{};  // "{vN}" constraints for the work-item ids y and z
  // The entry asm's inputs (HIPASM_DETAIL_ENTRY_ASM): each entry value the code reads pinned
  // to its register ("{s3}", "{s[2:3]}"), so that clang, which does not know the asm reads
  // them, keeps them there (or puts them there: a preloading layout clang did not make costs
  // its moves and loads, never correctness); "i" for an unused id (a constant: no code), "s"
  // for an unused argument slot (the kernarg pointer again: the register it is in).
  short_text pin_wg[3]{};
  // "s" when the kernel has dynamic LDS (its variables' address: allocates them); static LDS
  // only rides on the kernarg pointer's operand (see HIPASM_DETAIL_ENTRY_ASM)
  short_text pin_lds{{'i'}, 1};
  short_text pin_hidden{{'i'}, 1};  // "s" when it reads hidden arguments (a read of one declares them)
  short_text pin_arg[kernarg_preload_max_dwords]{};  // the preloaded arguments read...
  int8_t slot_arg[kernarg_preload_max_dwords]{};     // ...and their indices (-1: none)
};

// The summary and the text are computed as template arguments of kernel_value: a template
// argument is evaluated once, and outside the kernel's device call graph (HIP checks every
// function a kernel reaches for host-only calls, and libstdc++'s vector internals are
// host-only). `value` is a reference to the template parameter object, not a copy of it
// (copying the text buffer cost a conversion of all of it); the big value (kernel_output,
// the text in an oversized buffer) is also bound by constexpr reference at its use: with the
// bytecode interpreter every read of a local copy converts the whole buffer again.
// (A variable template would be evaluated again at each use from device code.)
template <auto V>
struct kernel_value {
  static constexpr const auto& value = V;
};

// The configuration macros, read where HIPASM_KERNEL_BODY expands and never #defined
// here: with a precompiled header this file is parsed before a source's own #define, which
// must neither be overridden nor warned about as a redefinition. Where a macro is not
// defined, its name in HIPASM_KERNEL_BODY finds the variable of the same name below through
// a using-directive (the macros' names, unexpanded here; not a local class deriving from
// them: clang-22 with a precompiled header rejects a local class's member function in a
// kernel template, "reference to __host__ function '~exception' in __global__ function"):
//   HIPASM_ASM_COMMENTS   source file:line, register names and hazard rules as asm
//                         comments (1, the default) or none (0);
//   HIPASM_TEXT_CAPACITY  the text buffer's fixed capacity in bytes, or 0 (the default):
//                         sized by a build-only run (kernel_capacity);
//   HIPASM_TEXT_PACKED    the text buffer holds 8 characters per word (1) or one per char
//                         (0, the default); see kernel_output.
#pragma push_macro("HIPASM_ASM_COMMENTS")
#pragma push_macro("HIPASM_TEXT_CAPACITY")
#pragma push_macro("HIPASM_TEXT_PACKED")
#undef HIPASM_ASM_COMMENTS
#undef HIPASM_TEXT_CAPACITY
#undef HIPASM_TEXT_PACKED
namespace config_defaults {
inline constexpr int HIPASM_ASM_COMMENTS = 1;
inline constexpr std::size_t HIPASM_TEXT_CAPACITY = 0;
inline constexpr int HIPASM_TEXT_PACKED = 0;
}  // namespace config_defaults
#pragma pop_macro("HIPASM_TEXT_PACKED")
#pragma pop_macro("HIPASM_TEXT_CAPACITY")
#pragma pop_macro("HIPASM_ASM_COMMENTS")

// What precedes a kernel's error message in the static_assert (clang prints it as is).
inline constexpr char error_line_break = '\n';

// Fills the summary from a compiled kernel (or its error).
constexpr void summarize(kernel_summary& s, const pipeline_state& st) {
  if (st.error.failed) {
    // Valid constraints and clobbers even so: only the static_assert should speak.
    // The message starts a line of its own (error_line_break) so that its "file:line: error:"
    // is the first thing on that line: clang's own location for the failed static_assert is
    // the HIPASM_KERNEL_BODY line, and editors read a location only at a line's start.
    s.message.chars[s.message.len++] = error_line_break;
    for (char c : st.error.view())
      if (s.message.len + 1 < sizeof(s.message.chars)) s.message.chars[s.message.len++] = c;
    s.message_size = st.error.size() + 1;
    s.clobber_v = reg_text('v', 2);  // (not chained: the bytecode interpreter reports the
    s.clobber_a = reg_text('v', 2);  // member-to-member copy as an overlapping memcpy)
    s.clobber_s = reg_text('s', 0);
    s.pin_y = reg_text('v', 2, true);
    s.pin_z = reg_text('v', 1, true);
    for (short_text& p : s.pin_wg) p = short_text{{'i'}, 1};
    for (short_text& p : s.pin_arg) p = short_text{{'s'}, 1};
    for (int8_t& a : s.slot_arg) a = -1;
    return;
  }
  s.ok = true;
  s.usage = usage_of(st);
  // The pinned work-item id registers must not be v0 and are clobbered anyway.
  const int top_v = s.usage.vgprs - 1 < 2 ? 2 : s.usage.vgprs - 1;
  s.clobber_v = reg_text('v', top_v);
  // No AGPRs: a second "memory" (a clobber list may repeat it) keeps one asm statement for
  // both cases; two statements under `if constexpr` both evaluate the text in a non-template
  // function, and the text is a tenth of a big kernel's compile.
  s.clobber_a = s.usage.agprs > 0 ? reg_text('a', s.usage.agprs - 1) : short_text{{'m', 'e', 'm', 'o', 'r', 'y'}, 6};
  s.clobber_s = reg_text('s', s.usage.sgprs - 1 < 0 ? 0 : s.usage.sgprs - 1);
  // Unused ids: an immediate (no register, no instruction).
  s.pin_y = s.usage.workitem_id[1] ? reg_text('v', top_v, true) : short_text{{'i'}, 1};
  s.pin_z = s.usage.workitem_id[2] ? reg_text('v', top_v - 1, true) : short_text{{'i'}, 1};
  // The workgroup ids follow the user SGPRs (kernarg pointer, preloaded dwords): x always
  // enabled, y when read, z when read (the builder's numbering, normalize_entry_sgprs').
  const int wg_x = 2 + st.fn.kernarg_preload_dwords;
  const int wg_reg[3] = {wg_x, wg_x + 1, wg_x + 1 + (s.usage.workgroup_id[1] ? 1 : 0)};
  if (s.usage.lds_dynamic) s.pin_lds = short_text{{'s'}, 1};
  if (s.usage.hidden_args) s.pin_hidden = short_text{{'s'}, 1};
  for (int d = 0; d < 3; ++d)
    s.pin_wg[d] = s.usage.workgroup_id[d] ? reg_text('s', wg_reg[d], true) : short_text{{'i'}, 1};
  unsigned k = 0;
  for (int i = 0; i < 16; ++i) {
    const int r = st.fn.preload_sgpr[i];
    if (r < 0 || k >= kernarg_preload_max_dwords) continue;
    s.slot_arg[k] = static_cast<int8_t>(i);
    s.pin_arg[k++] = (st.fn.preload_pairs >> i) & 1 ? sgpr_pair_text(r) : reg_text('s', r, true);
  }
  for (; k < kernarg_preload_max_dwords; ++k) {
    s.slot_arg[k] = -1;
    s.pin_arg[k] = short_text{{'s'}, 1};
  }
}

// An estimate of the printed size from the IR before the passes (which only remove
// instructions, except hazard s_nops): a generous bound per line plus the names and
// comments it may print. Not a guarantee: a text that does not fit is printed again
// into an array of its exact size (kernel_text).
constexpr std::size_t text_capacity(const function& fn, bool comments) {
  std::size_t n = 1024;
  const std::size_t label_size = fn.name.size() + fn.label_uid.size() + 8;  // (the uid's number)
  for (const block& b : fn.blocks) {
    n += 64 + 2 * label_size + b.label.size();
    for (const instr& in : b.instrs) {
      n += 128 + label_size + in.comment.size();
      if (comments && in.loc.line) n += __builtin_strlen(in.loc.file);
      for (int i = 0; i < in.num_operands; ++i)
        if (in.ops[i].k == operand::kind::vreg && in.ops[i].value < fn.vregs.size())
          n += fn.vregs[in.ops[i].value].name.size();
    }
  }
  return n;
}

// The text buffer's capacity: `Fixed` when nonzero (HIPASM_TEXT_CAPACITY), else the bound
// above from a build-only run. Which is cheaper depends on the constant interpreter: the
// default one stores an array's unwritten tail as one filler value, so a big fixed buffer
// costs nothing and saves the build-only run (a fifth to a tenth of the compile;
// hipasm_add_code_object sets HIPASM_TEXT_CAPACITY with that interpreter), while the
// bytecode interpreter converts every byte of the buffer (~0.4 us each), more than the
// run costs. A text longer than the capacity is still printed (exactly, by a second run).
template <auto Kernel, std::size_t Fixed, bool Comments>
consteval std::size_t kernel_capacity(std::string_view name, std::string_view label_uid = {}) {
  constexpr auto KernelFn = kernel_fn_of<Kernel>();
  if constexpr (Fixed != 0) {
    return Fixed;
  } else if constexpr (requires { { KernelFn() } -> std::convertible_to<function>; }) {
    function fn;
    fn = KernelFn();
    fn.label_uid = label_uid;
    return text_capacity(fn, Comments);
  } else {
    build_result br = build_kernel<KernelFn>(name, kernel_options_of<Kernel>());
    br.fn.label_uid = label_uid;
    return br.error.failed ? 1 : text_capacity(br.fn, Comments);
  }
}

// The unit of packing: chunk_chars characters and the words that hold them (bit_cast: one
// builtin per chunk, the same byte order both ways whatever the host's endianness). Each
// chunk costs a few interpreted operations on both sides, so chunks are large.
inline constexpr std::size_t chunk_chars = 512;
struct char_chunk {
  char c[chunk_chars];
};
struct word_chunk {
  uint64_t w[chunk_chars / 8];
};

// The summary and the text of one build + pipeline run: the text in a buffer of a
// capacity fixed before the run (kernel_capacity), `size` the characters it holds. When
// the text does not fit, it goes in without comments (under comments_left_out) if that fits;
// else (fits false, info.text_size its length) the wrapper prints it again into an exact
// array.
//
// Packed (HIPASM_TEXT_PACKED), the buffer holds 8 characters per 64-bit word. The bytecode
// interpreter materialises, copies and converts every element of the buffer (~0.45 us
// each), so a word buffer costs an eighth of a char buffer of the same capacity: a fixed
// capacity generous enough for any realistic kernel then costs less than the build-only
// run that would size it (hipasm_add_code_object uses this with that interpreter). The
// asm statement reads the text from a heap copy unpacked while it evaluates (packed_text).
template <std::size_t Cap, bool Packed>
struct kernel_output {
  kernel_summary info{};
  bool fits = false;
  std::size_t len = 0;
  char chars[Cap + 1]{};  // public: a structural type (usable as a template argument)
  constexpr const char* data() const { return chars; }
  constexpr std::size_t size() const { return len; }
};
template <std::size_t Cap>
struct kernel_output<Cap, true> {
  // Whole chunks (packing_sink's unit).
  static constexpr std::size_t num_words = (Cap + chunk_chars - 1) / chunk_chars * (chunk_chars / 8);
  kernel_summary info{};
  bool fits = false;
  std::size_t len = 0;
  uint64_t words[num_words]{};
};

// A sink that counts everything and stores what fits.
struct bounded_sink {
  char* p = nullptr;
  std::size_t cap = 0;
  std::size_t n = 0;
  constexpr void put(char c) {
    if (n < cap) p[n] = c;
    ++n;
  }
  constexpr void put(std::string_view s) {
    if (!s.empty() && n + s.size() <= cap) __builtin_memcpy(p + n, s.data(), s.size());
    n += s.size();
  }
};

// A sink that counts everything and packs what fits into words, a chunk at a time: tokens
// are copied into the chunk (one memcpy each), a full chunk becomes chunk_chars / 8 words.
struct packing_sink {
  uint64_t* words = nullptr;
  std::size_t cap = 0;   // characters: a multiple of chunk_chars
  std::size_t n = 0;     // characters put
  std::size_t base = 0;  // where the chunk starts
  char_chunk chunk{};
  constexpr void flush() {
    if (base + chunk_chars <= cap) {
      const word_chunk w = __builtin_bit_cast(word_chunk, chunk);
      __builtin_memcpy(words + base / 8, w.w, sizeof w.w);
    }
    base += chunk_chars;
  }
  constexpr void put(char c) {
    chunk.c[n - base] = c;
    if (++n - base == chunk_chars) flush();
  }
  constexpr void put(std::string_view s) {
    const char* p = s.data();
    std::size_t left = s.size();
    while (left) {
      const std::size_t room = chunk_chars - (n - base);
      const std::size_t k = left < room ? left : room;
      __builtin_memcpy(chunk.c + (n - base), p, k);
      n += k;
      p += k;
      left -= k;
      if (n - base == chunk_chars) flush();
    }
  }
  // The last partial chunk, zero-padded.
  constexpr void finish() {
    if (n == base) return;
    for (std::size_t i = n - base; i < chunk_chars; ++i) chunk.c[i] = 0;
    flush();
  }
};

// The first line of a text printed without its comments (compile_kernel_output).
inline constexpr std::string_view comments_left_out =
    "; hipasm: the asm comments are left out: with them the text is longer than HIPASM_TEXT_CAPACITY\n";

// Prints the kernel into the buffer through a sink from make_sink() (a packing_sink or
// bounded_sink over it), comments first; when that is over the capacity, the text without
// them under comments_left_out. Returns the size of the text in the buffer, or of the text
// with comments (the second run's) when neither fits.
template <bool Comments, class MakeSink>
constexpr std::size_t print_into_buffer(bool& fits, MakeSink&& make_sink, const pipeline_state& st, std::size_t cap) {
  auto out = make_sink();
  print_function(out, st.fn, st.isa, emit_options{Comments});
  if constexpr (requires { out.finish(); }) out.finish();
  fits = out.n <= cap;
  if (fits || !Comments) return out.n;
  // (a text this long is ~10000 instructions; printing it again costs a fraction of the
  // pipeline run that the exact second run would repeat)
  auto bare = make_sink();
  bare.put(comments_left_out);
  print_function(bare, st.fn, st.isa, emit_options{false});
  if constexpr (requires { bare.finish(); }) bare.finish();
  if (bare.n > cap) return out.n;
  fits = true;
  return bare.n;
}

template <auto KernelFn, std::size_t Cap, bool Packed, bool Comments>
consteval kernel_output<Cap, Packed> compile_kernel_output(std::string_view name, std::string_view label_uid = {}) {
  kernel_output<Cap, Packed> o;
  const pipeline_state st = compile_kernel<KernelFn>(name, label_uid);
  summarize(o.info, st);
  if (!o.info.ok) return o;
  std::size_t n = 0;
  if constexpr (Packed) {
    uint64_t* const words = o.words;
    const std::size_t cap = o.num_words * 8;
    n = print_into_buffer<Comments>(o.fits, [&] { return packing_sink{words, cap}; }, st, cap);
  } else {
    char* const chars = o.chars;
    n = print_into_buffer<Comments>(o.fits, [&] { return bounded_sink{chars, Cap}; }, st, Cap);
  }
  o.info.text_size = n;
  o.len = o.fits ? n : 0;
  return o;
}

// The text printed into an array of exactly N characters (a second pipeline run); with
// Run false an empty text without running anything.
template <auto KernelFn, std::size_t N, bool Run, bool Comments>
consteval fixed_text<N> kernel_text(std::string_view name, std::string_view label_uid = {}) {
  fixed_text<N> t;
  if constexpr (Run) {
    const pipeline_state st = compile_kernel<KernelFn>(name, label_uid);
    array_sink out{t.chars.data()};
    print_function(out, st.fn, st.isa, emit_options{Comments});
  }
  return t;
}

// A view of a text, for the asm statement (data()/size()).
struct text_ref {
  const char* p = nullptr;
  std::size_t n = 0;
  constexpr const char* data() const { return p; }
  constexpr std::size_t size() const { return n; }
};

// The length of the whole error message when the summary holds only its start (else 0).
constexpr std::size_t long_message_size(const kernel_summary& s) {
  return s.message_size > s.message.len ? s.message_size : 0;
}
// The whole error message in an array of exactly N characters (a second build and pipeline
// run, only for a failed kernel whose message the summary cut; N = 0: nothing runs).
template <auto Kernel, std::size_t N>
consteval fixed_text<N> kernel_message(std::string_view name, std::string_view label_uid = {}) {
  fixed_text<N> t;
  if constexpr (N != 0) {
    const pipeline_state st = compile_kernel<Kernel>(name, label_uid);
    const std::string_view m = st.error.view();
    t.chars[0] = error_line_break;  // (summarize's)
    __builtin_memcpy(t.chars.data() + 1, m.data(), m.size() < N - 1 ? m.size() : N - 1);
  }
  return t;
}
// The static_assert's message: the summary's, or the whole one when that was cut.
template <std::size_t N>
constexpr text_ref message_of(const kernel_summary& s, const fixed_text<N>& whole) {
  if constexpr (N != 0) return text_ref{whole.data(), whole.size()};
  return text_ref{s.message.data(), s.message.size()};
}

// A packed text unpacked into a heap array that lives while the asm statement's string is
// evaluated (clang accepts a temporary with data()/size() there; it is freed with it).
struct packed_text {
  char* p = nullptr;
  std::size_t n = 0;
  constexpr packed_text(std::size_t len) : p(new char[len + 1]), n(len) {}
  constexpr packed_text(packed_text&& o) : p(o.p), n(o.n) { o.p = nullptr; }
  packed_text(const packed_text&) = delete;
  packed_text& operator=(const packed_text&) = delete;
  constexpr ~packed_text() { delete[] p; }
  constexpr const char* data() const { return p; }
  constexpr std::size_t size() const { return n; }
};

// The text for the asm statement: the output's own buffer when the text fit in it, else
// the exact second run's array.
template <std::size_t Cap, std::size_t N>
constexpr text_ref asm_text_of(const kernel_output<Cap, false>& out, const fixed_text<N>& exact) {
  return out.fits ? text_ref{out.data(), out.size()} : text_ref{exact.data(), exact.size()};
}
template <std::size_t Cap, std::size_t N>
constexpr packed_text asm_text_of(const kernel_output<Cap, true>& out, const fixed_text<N>& exact) {
  if (!out.fits) {
    packed_text t(exact.size());
    if (exact.size()) __builtin_memcpy(t.p, exact.data(), exact.size());
    t.p[exact.size()] = 0;
    return t;
  }
  packed_text t(out.len);
  const uint64_t* w = out.words;
  // Whole chunks: the last one is zero-padded in the buffer (packing_sink::finish).
  for (std::size_t i = 0; i < out.len; i += chunk_chars) {
    word_chunk ws;
    __builtin_memcpy(ws.w, w + i / 8, sizeof ws.w);
    const char_chunk c = __builtin_bit_cast(char_chunk, ws);
    __builtin_memcpy(t.p + i, c.c, out.len - i < chunk_chars ? out.len - i : chunk_chars);
  }
  t.p[out.len] = 0;
  return t;
}

// Kernel parameter types against the builder function's arg<T> parameters.
template <class... T>
struct type_list {
  static constexpr std::size_t size = sizeof...(T);
};
template <class P>
struct runtime_arg_of {
  using type = P;
};
template <class T>
struct runtime_arg_of<arg<T>> {
  using type = T;
};
template <class F>
struct kernel_fn_args {
  using type = void;  // not a builder function: no check
};
template <class B, class... P>
struct kernel_fn_args<void (*)(B&, P...)> {
  using type = type_list<std::remove_cvref_t<typename runtime_arg_of<std::remove_cvref_t<P>>::type>...>;
};
template <class... P>
struct kernel_fn_args<void (*)(builder, P...)> {  // the builder is a handle, taken by value
  using type = type_list<std::remove_cvref_t<typename runtime_arg_of<std::remove_cvref_t<P>>::type>...>;
};

template <std::size_t Index, class Expected, class Got>
constexpr void check_one_arg() {
  static_assert(std::is_same_v<Expected, Got>,
                "hipasm: a HIP kernel parameter's type differs from the builder function's arg<T> at the "
                "same position (see the template arguments: Index, Expected, Got)");
}
template <class Expected, class Got, std::size_t... I>
constexpr void check_args_each(std::index_sequence<I...>) {
  (check_one_arg<I, std::tuple_element_t<I, Expected>, std::tuple_element_t<I, Got>>(), ...);
}

// An argument of the HIP kernel for the entry asm's slot (kernel_summary::slot_arg): the
// Index-th of `a`, or for an unused slot (Index < 0) the kernarg pointer `kp`. (Not through
// std::forward_as_tuple: its tuple of ~17 references was ~40 ms of a kernel's compile.)
template <int Index, class First, class... Rest>
constexpr const auto& nth_arg(const First& first, const Rest&... rest) {
  if constexpr (Index == 0) return first;
  else return nth_arg<Index - 1>(rest...);
}
template <int Index, class P, class... A>
constexpr auto entry_arg(P kp, const A&... a) {
  if constexpr (Index < 0) return kp;
  else return nth_arg<Index>(a...);
}

template <auto Kernel, class... A>
constexpr void check_kernel_args(const A&...) {
  using expected = typename kernel_fn_args<decltype(kernel_fn_of<Kernel>())>::type;
  if constexpr (!std::is_void_v<expected>) {
    static_assert(expected::size == sizeof...(A),
                  "hipasm: the HIP kernel passes a different number of arguments to HIPASM_KERNEL_BODY than "
                  "the builder function has arg<T> parameters");
    if constexpr (expected::size == sizeof...(A)) {
      [&]<class... E>(type_list<E...>*) {
        check_args_each<std::tuple<E...>, std::tuple<std::remove_cvref_t<A>...>>(
            std::index_sequence_for<A...>{});
      }(static_cast<expected*>(nullptr));
    }
  }
}

}  // namespace detail

#if !defined(__HIP_DEVICE_COMPILE__) || !__HIP_DEVICE_COMPILE__
// Host access: the kernel's asm text (run time, same pipeline), its usage, a .s dump.
template <auto KernelFn>
std::string asm_text(std::string_view name, emit_options opt = {}) {
  const pipeline_state st = detail::compile_kernel<KernelFn>(name);
  if (st.error.failed) throw std::runtime_error(std::string(st.error.view()));
  size_sink sz;
  print_function(sz, st.fn, st.isa, opt);
  std::string text(sz.n, '\0');
  array_sink out{text.data()};
  print_function(out, st.fn, st.isa, opt);
  return text;
}
template <auto KernelFn>
kernel_usage usage(std::string_view name) {
  const pipeline_state st = detail::compile_kernel<KernelFn>(name);
  if (st.error.failed) throw std::runtime_error(std::string(st.error.view()));
  return detail::usage_of(st);
}
// The IR after the builder and after each pipeline step, one section per step (asmjit's
// listing of its allocation steps), for reading what each pass did:
//   ;; ==== built: 3 blocks, 41 instructions
//   <the instructions, virtual registers as %v12 / %s3[0:1] until regalloc assigns them>
//   ;; ==== after cse: 3 blocks, 38 instructions (-3)
// A step the kernel's options turn off is listed as "off"; a failing step ends the text
// with its message.
template <auto Kernel>
std::string pass_dump(std::string_view name, emit_options opt = {}) {
  std::string text;
  auto section = [&](std::string_view what, const pipeline_state& st, std::size_t before) {
    std::size_t blocks = st.fn.blocks.size(), instrs = 0;
    for (const block& b : st.fn.blocks) instrs += b.instrs.size();
    text += ";; ==== ";
    text += what;
    text += ": " + std::to_string(blocks) + " blocks, " + std::to_string(instrs) + " instructions";
    if (before != static_cast<std::size_t>(-1) && before != instrs) {
      const long long d = static_cast<long long>(instrs) - static_cast<long long>(before);
      text += " (" + std::string(d > 0 ? "+" : "") + std::to_string(d) + ")";
    }
    text += "\n";
    size_sink sz;
    print_function(sz, st.fn, st.isa, opt);
    std::string body(sz.n, '\0');
    array_sink out{body.data()};
    print_function(out, st.fn, st.isa, opt);
    text += body;
    return instrs;
  };
  build_result br = detail::build_ir<Kernel>(name);
  if (br.error.failed) return text + ";; ==== build failed: " + std::string(br.error.view()) + "\n";
  pipeline_options po{};
  po.kernel = detail::kernel_options_of<Kernel>();
  po.limits = register_limits{active_target::desc.regs.sgprs, active_target::desc.regs.vgprs, active_target::desc.regs.agprs};
  po.occupancy = occupancy_of(active_target::desc);
  pipeline_state st{std::move(br.fn), isa_of(active_target::desc), active_target::desc.hazard_rules, po};
  std::size_t n = section("built", st, static_cast<std::size_t>(-1));
  for (const pipeline_step& step : pipeline_steps) {
    const std::string name_of(step.name);
    if (step_disabled(st, step)) {
      text += ";; ==== " + name_of + ": off (kernel_options)\n";
      continue;
    }
    if (!run_step(st, step)) return text + ";; ==== " + name_of + " failed: " + std::string(st.error.view()) + "\n";
    n = section("after " + name_of, st, n);
  }
  return text;
}

template <auto KernelFn>
void write_asm(std::string_view name, const std::string& path, emit_options opt = {}) {
  std::ofstream f(path);
  if (!f) throw std::runtime_error("hipasm: cannot write " + path);
  f << asm_text<KernelFn>(name, opt);
}
#endif

}  // namespace hipasm

#if defined(__HIP_DEVICE_COMPILE__) && __HIP_DEVICE_COMPILE__
// The kernel's name in messages and asm labels is the HIP kernel's own (__func__); "%=" in its
// labels (clang's number of the asm statement, unique in the translation unit) keeps two
// kernels' labels apart, also when they share a __func__ (templates, namespaces, overloads).
#define HIPASM_DETAIL_NAME(FN) ::std::string_view(__func__), "%="

// The asm text: printed once into hipasm_out_'s buffer, or (when it did not fit) again
// into hipasm_exact_.
#define HIPASM_DETAIL_TEXT ::hipasm::detail::asm_text_of(hipasm_out_, hipasm_exact_)

// The entry-state asm: every entry value the code reads, pinned to its register (see
// kernel_summary::pin_wg); unused ids are immediates ("i": no register, no instruction), unused
// argument slots the kernarg pointer again ("s": the register it is in). The LDS variables are
// kept (allocated, in the descriptor's LDS size) by an operand that uses their address: with
// static LDS only, the kernarg pointer plus that address (0), which clang folds to s[0:1] with
// no instruction (an operand of its own cost an s_mov_b32 at the kernel's start); with dynamic
// LDS (at a non-zero address after the static) an SGPR operand of its own.
#define HIPASM_DETAIL_KP __builtin_amdgcn_kernarg_segment_ptr()
#define HIPASM_DETAIL_ARG_PIN(INFO, K, ...)                                                                  \
  (INFO.pin_arg[K])(::hipasm::detail::entry_arg<INFO.slot_arg[K]>(HIPASM_DETAIL_KP __VA_OPT__(, ) __VA_ARGS__))
#define HIPASM_DETAIL_ENTRY_ASM(INFO, LDS_EXPR, ...)                                                         \
  asm volatile(                                                                                             \
      "" ::"{s[0:1]}"(static_cast<const char*>(HIPASM_DETAIL_KP) + (INFO.usage.lds_dynamic ? 0u : (LDS_EXPR))), \
      (INFO.pin_wg[0])(INFO.usage.workgroup_id[0] ? __builtin_amdgcn_workgroup_id_x() : 0u),               \
      (INFO.pin_wg[1])(INFO.usage.workgroup_id[1] ? __builtin_amdgcn_workgroup_id_y() : 0u),               \
      (INFO.pin_wg[2])(INFO.usage.workgroup_id[2] ? __builtin_amdgcn_workgroup_id_z() : 0u),               \
      (INFO.pin_y)(INFO.usage.workitem_id[1] ? __builtin_amdgcn_workitem_id_y() : 0u),                     \
      (INFO.pin_z)(INFO.usage.workitem_id[2] ? __builtin_amdgcn_workitem_id_z() : 0u), (INFO.pin_lds)(INFO.usage.lds_dynamic ? (LDS_EXPR) : 0u), \
      (INFO.pin_hidden)(INFO.usage.hidden_args ? unsigned(__builtin_amdgcn_workgroup_size_x()) : 0u),       \
      HIPASM_DETAIL_ARG_PIN(INFO, 0, __VA_ARGS__), HIPASM_DETAIL_ARG_PIN(INFO, 1, __VA_ARGS__),               \
      HIPASM_DETAIL_ARG_PIN(INFO, 2, __VA_ARGS__), HIPASM_DETAIL_ARG_PIN(INFO, 3, __VA_ARGS__),               \
      HIPASM_DETAIL_ARG_PIN(INFO, 4, __VA_ARGS__), HIPASM_DETAIL_ARG_PIN(INFO, 5, __VA_ARGS__),               \
      HIPASM_DETAIL_ARG_PIN(INFO, 6, __VA_ARGS__), HIPASM_DETAIL_ARG_PIN(INFO, 7, __VA_ARGS__),               \
      HIPASM_DETAIL_ARG_PIN(INFO, 8, __VA_ARGS__), HIPASM_DETAIL_ARG_PIN(INFO, 9, __VA_ARGS__),               \
      HIPASM_DETAIL_ARG_PIN(INFO, 10, __VA_ARGS__), HIPASM_DETAIL_ARG_PIN(INFO, 11, __VA_ARGS__),             \
      HIPASM_DETAIL_ARG_PIN(INFO, 12, __VA_ARGS__), HIPASM_DETAIL_ARG_PIN(INFO, 13, __VA_ARGS__))

#define HIPASM_KERNEL_BODY(FN, ...)                                                                          \
  _Pragma("clang diagnostic push") _Pragma("clang diagnostic ignored \"-Wc++26-extensions\"")                \
      _Pragma("clang diagnostic ignored \"-Winline-asm\"") do {                                              \
    ::hipasm::detail::check_kernel_args<FN>(__VA_ARGS__);                                                    \
    using namespace ::hipasm::detail::config_defaults;                                                       \
    constexpr bool hipasm_comments_ = (HIPASM_ASM_COMMENTS) != 0;                                            \
    constexpr std::size_t hipasm_capacity_ = (HIPASM_TEXT_CAPACITY);                                         \
    constexpr bool hipasm_packed_ = (HIPASM_TEXT_PACKED) != 0;                                               \
    constexpr auto& hipasm_out_ = ::hipasm::detail::kernel_value<::hipasm::detail::compile_kernel_output<    \
        FN,                                                                                                  \
        ::hipasm::detail::kernel_value<::hipasm::detail::kernel_capacity<FN, hipasm_capacity_,               \
                                                                        hipasm_comments_>(                   \
            HIPASM_DETAIL_NAME(FN))>::value,                                                                 \
        hipasm_packed_, hipasm_comments_>(HIPASM_DETAIL_NAME(FN))>::value;                                   \
    constexpr auto hipasm_info_ = hipasm_out_.info;                                                          \
    static_assert(hipasm_info_.ok,                                                                           \
                  ::hipasm::detail::message_of(                                                              \
                      hipasm_out_.info,                                                                      \
                      ::hipasm::detail::kernel_value<::hipasm::detail::kernel_message<                       \
                          FN, ::hipasm::detail::long_message_size(hipasm_info_)>(HIPASM_DETAIL_NAME(FN))>::value)); \
    constexpr auto hipasm_exact_ = ::hipasm::detail::kernel_value<::hipasm::detail::kernel_text<             \
        FN, hipasm_out_.fits ? 0 : hipasm_info_.text_size, !hipasm_out_.fits && hipasm_info_.ok,             \
        hipasm_comments_>(HIPASM_DETAIL_NAME(FN))>::value;                                                   \
    static __attribute__((shared)) __attribute__((aligned(16)))                                              \
    char hipasm_lds_[hipasm_info_.usage.lds_static_bytes ? hipasm_info_.usage.lds_static_bytes : 1];         \
    extern __attribute__((shared)) __attribute__((aligned(16))) char hipasm_dynamic_lds_[];                  \
    HIPASM_DETAIL_ENTRY_ASM(hipasm_info_,                                                                    \
                            (hipasm_info_.usage.lds_static_bytes                                             \
                                 ? static_cast<unsigned>(reinterpret_cast<__UINTPTR_TYPE__>(hipasm_lds_))    \
                                 : 0u) +                                                                     \
                                (hipasm_info_.usage.lds_dynamic                                              \
                                     ? static_cast<unsigned>(                                                \
                                           reinterpret_cast<__UINTPTR_TYPE__>(hipasm_dynamic_lds_))          \
                                     : 0u),                                                                  \
                            __VA_ARGS__);                                                                    \
    asm volatile((HIPASM_DETAIL_TEXT)::: (hipasm_info_.clobber_v), (hipasm_info_.clobber_a),                 \
                 (hipasm_info_.clobber_s), "vcc", "exec", "scc", "m0", "memory");                            \
  }                                                                                                          \
  while (0)                                                                                                  \
  _Pragma("clang diagnostic pop")
#else
// Host pass: nothing to compile (the kernel body only exists on the device).
#define HIPASM_KERNEL_BODY(FN, ...)                                 \
  do {                                                              \
    [](const auto&...) {}(__VA_ARGS__);                             \
  } while (0)
#endif

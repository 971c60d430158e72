// Typed register handles: SGPR/VGPR/AGPR values of a dtype, arrays with a shape, slices.
//
// A handle names (a part of) one virtual register of the IR; copying a handle aliases the
// same register (like a reference), ASSIGNING to a handle emits the move/compute into it:
//
//   auto acc = J.vgpr<f32>(4, 4).named("acc").fill(0.0f);   // 16 VGPRs, all 0.0f
//   auto row = acc[1];               // handle to elements [4, 8): no instruction
//   acc[1][2] = x * y;               // v_mul_f32 into element (1, 2)
//   auto t = x + y;                  // t names the new temporary register holding x + y
//
// The dtype is part of the type (gpr<f32>, gpr<i32>, ...): mixing dtypes in an expression or
// an assignment is one compile error, "static assertion failed: hipasm: mixed dtypes in an
// expression: f32 + i32 (...)", whose next line is the user's expression (detail::other_dtype);
// `.as<u32>()` reinterprets. The class (SGPR, VGPR,
// AGPR) is a run-time property so that expressions pick scalar or vector code from their
// operands (SGPR op SGPR -> SALU into a new SGPR, anything with a VGPR -> VALU).
// Slicing is `a.slice(first, count)` (pyhip's inclusive a[first:last] is slice(first,
// last - first + 1)); `a[i]` indexes the first dimension.
#pragma once
#include <bit>
#include <cstdint>
#include <initializer_list>
#include <source_location>
#include <string_view>
#include <type_traits>

#include "diagnostics.hpp"
#include "dtype.hpp"
#include "ir.hpp"

// The mixed-dtype static_asserts below take a constant message object (C++26, an extension
// clang-22 accepts in C++20; the warning is about the extension, at these lines).
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc++26-extensions"

// static_assert(cond) for a helper's dtype T, with the message naming T (see dtype_message).
#define HIPASM_DTYPE_ASSERT(cond, T, what)                                                        \
  _Pragma("clang diagnostic push") _Pragma("clang diagnostic ignored \"-Wc++26-extensions\"") \
  if constexpr (!(cond)) static_assert(false, ::hipasm::detail::dtype_message<T>(what));       \
  _Pragma("clang diagnostic pop")

namespace hipasm {

class builder;

constexpr std::string_view reg_class_name(reg_class c) {
  return c == reg_class::sgpr ? "SGPR" : c == reg_class::vgpr ? "VGPR" : "AGPR";
}

template <dtype T>
struct gpr;
template <dtype T>
struct val;
template <dtype T>
struct unary;
struct cond;

namespace detail {

enum class binop : uint8_t { add, sub, mul, div, rem, shl, shr, band, bor, bxor, min, max };
enum class cmpop : uint8_t { lt, le, gt, ge, eq, ne };

// A typed expression operand with its builder: one register element or an immediate.
struct xval {
  builder* b = nullptr;
  operand op{};      // kind vreg (cls, offset, dwords, value = vreg id) or imm
  dtype t = dtype::u32;
  src_loc loc{};
  // An expression's result handed over as an rvalue (`(a + b) + 0`, `std::move(t) + 0`): its
  // register belongs to this expression alone, so the lowering may return it as the result.
  bool fresh = false;
  constexpr bool is_imm() const { return op.k == operand::kind::imm; }
  constexpr bool is_reg(reg_class c) const { return op.k == operand::kind::vreg && op.cls == c; }
};

// A register view as the lowering code sees it (no dtype).
struct reg_ref {
  builder* b = nullptr;
  uint32_t id = 0xffffffffu;
  reg_class cls = reg_class::vgpr;
  uint16_t off = 0;
  uint16_t dwords = 1;
};

// Implemented in builder.hpp / expr.hpp (declared here so handles can call them).
constexpr reg_ref new_reg(builder& b, reg_class c, uint16_t dwords, uint16_t align, src_loc loc);
constexpr void set_reg_name(builder& b, uint32_t id, std::string_view name);
constexpr void pin_reg(builder& b, uint32_t id, reg_class c, int first, src_loc loc);
constexpr void align_reg(builder& b, uint32_t id, int align, src_loc loc);
constexpr void allow_undefined_reg(builder& b, uint32_t id);
constexpr void report(builder& b, src_loc loc, std::string_view what, std::string_view detail = {},
                      long long num = 0, bool with_num = false);
constexpr src_loc last_loc(const builder& b);
constexpr void note_loc(builder& b, src_loc loc);
constexpr reg_ref lower_binary(binop o, const xval& a, const xval& c);
constexpr reg_ref lower_add64(const xval& a, const xval& off, bool off_signed, bool subtract);
constexpr reg_ref lower_unary(const xval& a, bool neg, bool abs, bool bnot, const reg_ref* dst);
constexpr void assign(const reg_ref& dst, dtype t, const xval& src);
constexpr void assign_temp(const reg_ref& dst, dtype t, const reg_ref& tmp);
constexpr xval materialize_unary(const xval& a, bool neg, bool abs, bool bnot);
constexpr cond make_cond(cmpop o, const xval& a, const xval& c);

template <class I>
constexpr uint64_t imm_bits(dtype t, I v) {
  if (t == dtype::f32) return std::bit_cast<uint32_t>(static_cast<float>(v));
  if (t == dtype::f64) return std::bit_cast<uint64_t>(static_cast<double>(v));
  if constexpr (std::is_floating_point_v<I>) {
    return static_cast<uint64_t>(static_cast<int64_t>(v));
  } else if (t == dtype::u32) {
    return static_cast<uint32_t>(v);
  } else {
    return static_cast<uint64_t>(static_cast<int64_t>(v));
  }
}

template <class I, dtype T>
concept imm_for = (std::is_integral_v<I> && !std::is_same_v<I, bool>) ||
                  (std::is_floating_point_v<I> && (T == dtype::f32 || T == dtype::f64));

}  // namespace detail

// A per-lane/wave-uniform condition, evaluated where it is used (If, While).
struct cond {
  detail::cmpop op = detail::cmpop::eq;
  bool negate = false;  // !(a op b): for floats this is the unordered complement
  detail::xval a{}, c{};
  src_loc loc{};
  // a.op is a per-lane mask (SGPR pair, dtype u64) already computed: per-lane conditions
  // combined with && / || (helpers/select.hpp); op and c are unused.
  bool lane_mask = false;
  constexpr cond operator!() const {
    cond r = *this;
    r.negate = !negate;
    return r;
  }
  // Wave-uniform: both sides SGPRs or immediates, integer dtype (SALU has no f32 compare).
  constexpr bool scalar() const {
    return is_int32(a.t) && !a.is_reg(reg_class::vgpr) && !c.is_reg(reg_class::vgpr) &&
           !a.is_reg(reg_class::agpr) && !c.is_reg(reg_class::agpr);
  }
};

namespace detail {

// ---- mixed dtypes: one readable error at the user's expression ----------------------------
// gpr<A> op gpr<B> (or -x / abs(x) of one) with A != B would otherwise be "invalid operands"
// with notes that print dtypes as numbers, and a second error where the kernel is evaluated.
// A constrained overload for exactly that case is chosen instead: its static_assert(false,
// message) is the only error, names both dtypes, and clang's next line ("in instantiation of
// ... requested here") is the user's expression. Valid code never instantiates these.
template <dtype U>
std::integral_constant<dtype, U> reg_dtype(const gpr<U>*);  // (also for arg<T>, a gpr)
template <dtype U>
std::integral_constant<dtype, U> reg_dtype(const unary<U>*);
template <class X>
concept reg_operand = requires { detail::reg_dtype(static_cast<const X*>(nullptr)); };
template <class X>
inline constexpr dtype reg_dtype_v = decltype(detail::reg_dtype(static_cast<const X*>(nullptr)))::value;
// What a mixed-dtype operator returns: a placeholder that any register accepts without a
// second error (the first one has been reported), and that any operator combines into
// another placeholder (a condition on immediates for comparisons), so that nothing reaches
// the lowering.
struct mixed_tag;
template <class X>
inline constexpr bool is_mixed = std::is_base_of_v<mixed_tag, X>;
struct mixed_tag {
#define HIPASM_POISON(sym)                                                         \
  template <class X, class Y>                                                     \
    requires(is_mixed<X> || is_mixed<Y>)                                          \
  friend constexpr auto operator sym(const X&, const Y&) {                        \
    if constexpr (is_mixed<X>) return X{};                                        \
    else return Y{};                                                              \
  }
  HIPASM_POISON(+)
  HIPASM_POISON(-)
  HIPASM_POISON(*)
  HIPASM_POISON(/)
  HIPASM_POISON(%)
  HIPASM_POISON(<<)
  HIPASM_POISON(>>)
  HIPASM_POISON(&)
  HIPASM_POISON(|)
  HIPASM_POISON(^)
#undef HIPASM_POISON
#define HIPASM_POISON_CMP(sym)                                                     \
  template <class X, class Y>                                                     \
    requires(is_mixed<X> || is_mixed<Y>)                                          \
  friend constexpr cond operator sym(const X&, const Y&) {                        \
    return mixed_cond();                                                          \
  }
  HIPASM_POISON_CMP(<)
  HIPASM_POISON_CMP(<=)
  HIPASM_POISON_CMP(>)
  HIPASM_POISON_CMP(>=)
  HIPASM_POISON_CMP(==)
  HIPASM_POISON_CMP(!=)
#undef HIPASM_POISON_CMP
  // 0 == 0 on immediates: a valid compare, whatever If or While does with it.
  static constexpr cond mixed_cond() {
    cond c;
    c.a.op = c.c.op = operand{operand::kind::imm, reg_class::sgpr, special_reg::none, false, false, 0, 1, 0};
    return c;
  }
};
template <dtype T>
struct mixed_result : gpr<T>, mixed_tag {};
// A register operand of another dtype than T.
template <class X, dtype T>
concept other_dtype = reg_operand<X> && reg_dtype_v<X> != T && !is_mixed<X>;
// The same for + and -, where u64/i64 plus or minus a 32- or 64-bit integer register is
// address arithmetic (off64), not a mix.
template <class X, dtype T>
concept other_dtype_offset =
    other_dtype<X, T> && !(is_int64(T) && (is_int32(reg_dtype_v<X>) || is_int64(reg_dtype_v<X>)));

// A static_assert message built in constant evaluation (data()/size()).
struct assert_text {
  char chars[384]{};
  unsigned len = 0;
  constexpr const char* data() const { return chars; }
  constexpr unsigned size() const { return len; }
  constexpr assert_text& operator<<(std::string_view s) {
    for (char c : s)
      if (len < sizeof chars) chars[len++] = c;
    return *this;
  }
};
constexpr void how_to_convert(assert_text& m, dtype to, dtype from) {
  m << " (registers never convert implicitly: reinterpret the " << dtype_name(from)
    << " register's bits with .as<" << dtype_name(to) << ">(), or convert its value with an instruction such as v_cvt_*)";
}
// "a OP b" of dtypes A and B.
template <dtype A, dtype B>
constexpr assert_text mixed_dtypes_message(std::string_view op) {
  assert_text m;
  m << "hipasm: mixed dtypes in an expression: ";
  if (op == "min" || op == "max" || op == "select") m << op << "(" << dtype_name(A) << ", " << dtype_name(B) << ")";
  else m << dtype_name(A) << " " << op << " " << dtype_name(B);
  how_to_convert(m, A, B);
  return m;
}
// A helper's dtype requirement: "hipasm: <what>, got <T>". (In a failed static_assert's
// condition clang prints a dtype as "(hipasm::dtype)3"; HIPASM_DTYPE_ASSERT keeps the condition
// out of the diagnostic and names the dtype in the message.)
template <dtype T>
constexpr assert_text dtype_message(std::string_view what) {
  assert_text m;
  m << "hipasm: " << what << ", got " << dtype_name(T);
  return m;
}
// "dst = src" of dtypes Dst and Src.
template <dtype Dst, dtype Src>
constexpr assert_text mixed_assign_message(std::string_view op) {
  assert_text m;
  m << "hipasm: mixed dtypes in an assignment: " << dtype_name(Dst) << " register " << op << " "
    << dtype_name(Src) << " value";
  how_to_convert(m, Dst, Src);
  return m;
}

// Hidden-friend operators, found by argument-dependent lookup from gpr<T> and unary<T>
// (both derive from this); their parameters are val<T>, so each operand converts implicitly
// and records the user's line through val's std::source_location default argument.
template <dtype T>
struct arith_base {
  static constexpr bool i32like = is_int32(T);
  static constexpr bool arith32 = is_int32(T) || T == dtype::f32;

#define HIPASM_BINOP(sym, kind, cond_)                                               \
  friend constexpr gpr<T> operator sym(const val<T>& a, const val<T>& c)              \
    requires(cond_)                                                                   \
  {                                                                                   \
    return gpr<T>(lower_binary(binop::kind, a.x, c.x));                               \
  }
  HIPASM_BINOP(+, add, arith32)
  HIPASM_BINOP(-, sub, arith32)
  HIPASM_BINOP(*, mul, arith32)
  HIPASM_BINOP(/, div, i32like)
  HIPASM_BINOP(%, rem, i32like)
  HIPASM_BINOP(<<, shl, i32like)
  HIPASM_BINOP(>>, shr, i32like)
  HIPASM_BINOP(&, band, i32like)
  HIPASM_BINOP(|, bor, i32like)
  HIPASM_BINOP(^, bxor, i32like)
#undef HIPASM_BINOP
  friend constexpr gpr<T> min(const val<T>& a, const val<T>& c)
    requires(arith32)
  {
    return gpr<T>(lower_binary(binop::min, a.x, c.x));
  }
  friend constexpr gpr<T> max(const val<T>& a, const val<T>& c)
    requires(arith32)
  {
    return gpr<T>(lower_binary(binop::max, a.x, c.x));
  }
  // The same for two operands of exactly one handle type, as exact non-template matches: in
  // a HIP translation unit the global `template <class U> U max(U, U)` (clang's
  // __clang_hip_math.h, HIP's amd_math_functions.h) is an exact match for max(gpr<f32>,
  // gpr<f32>) and beats the overloads above (a conversion to val<T> each), failing inside that
  // template; a non-template exact match wins over it. (Rvalues keep val's `fresh`.)
#define HIPASM_MINMAX_EXACT(A, B)                                                                  \
  friend constexpr gpr<T> min(A a, B c, std::source_location l = std::source_location::current())   \
    requires(arith32)                                                                               \
  {                                                                                                 \
    return gpr<T>(lower_binary(binop::min, val<T>(static_cast<A>(a), l).x, val<T>(static_cast<B>(c), l).x)); \
  }                                                                                                 \
  friend constexpr gpr<T> max(A a, B c, std::source_location l = std::source_location::current())   \
    requires(arith32)                                                                               \
  {                                                                                                 \
    return gpr<T>(lower_binary(binop::max, val<T>(static_cast<A>(a), l).x, val<T>(static_cast<B>(c), l).x)); \
  }
  HIPASM_MINMAX_EXACT(const gpr<T>&, const gpr<T>&)
  HIPASM_MINMAX_EXACT(gpr<T>&&, const gpr<T>&)
  HIPASM_MINMAX_EXACT(const gpr<T>&, gpr<T>&&)
  HIPASM_MINMAX_EXACT(gpr<T>&&, gpr<T>&&)
  HIPASM_MINMAX_EXACT(const unary<T>&, const unary<T>&)
#undef HIPASM_MINMAX_EXACT
  // 64-bit address arithmetic: u64/i64 plus or minus a 32-bit (zero- or sign-extended) or
  // 64-bit register, or an immediate.
  struct off64 {
    xval x;
    bool sign = false;
    constexpr off64(const gpr<dtype::u64>& g, std::source_location l = std::source_location::current());
    constexpr off64(const gpr<dtype::i64>& g, std::source_location l = std::source_location::current());
    constexpr off64(const gpr<dtype::u32>& g, std::source_location l = std::source_location::current());
    constexpr off64(const gpr<dtype::i32>& g, std::source_location l = std::source_location::current());
    template <class I>
      requires std::is_integral_v<I>
    constexpr off64(I v, std::source_location l = std::source_location::current())
        : x{nullptr, operand{operand::kind::imm, reg_class::sgpr, special_reg::none, false, false, 0, 2,
                             static_cast<uint64_t>(static_cast<int64_t>(v))},
            dtype::i64, to_src_loc(l)},
          sign(true) {}
  };
  friend constexpr gpr<T> operator+(const val<T>& a, const off64& o)
    requires(is_int64(T))
  {
    return gpr<T>(lower_add64(a.x, o.x, o.sign, false));
  }
  friend constexpr gpr<T> operator-(const val<T>& a, const off64& o)
    requires(is_int64(T))
  {
    return gpr<T>(lower_add64(a.x, o.x, o.sign, true));
  }

  // Comparisons make a condition for If/While (lowered there: SCC or an EXEC mask).
#define HIPASM_CMP(sym, kind)                                                      \
  friend constexpr cond operator sym(const val<T>& a, const val<T>& c)             \
    requires(arith32)                                                             \
  {                                                                               \
    return make_cond(cmpop::kind, a.x, c.x);                                      \
  }
  HIPASM_CMP(<, lt)
  HIPASM_CMP(<=, le)
  HIPASM_CMP(>, gt)
  HIPASM_CMP(>=, ge)
  HIPASM_CMP(==, eq)
  HIPASM_CMP(!=, ne)
#undef HIPASM_CMP

  // Mixed dtypes (see other_dtype): the only error is the static_assert.
  // (They return placeholders, a condition that emits nothing, so that nothing else fails.)
#define HIPASM_MIXED(sym, allowed)                                                 \
  template <class X>                                                              \
    requires allowed<X, T>                                                        \
  friend constexpr mixed_result<T> operator sym(const val<T>&, const X&) {        \
    static_assert(false, mixed_dtypes_message<T, reg_dtype_v<X>>(#sym));          \
    return {};                                                                    \
  }
  HIPASM_MIXED(+, other_dtype_offset)
  HIPASM_MIXED(-, other_dtype_offset)
  HIPASM_MIXED(*, other_dtype)
  HIPASM_MIXED(/, other_dtype)
  HIPASM_MIXED(%, other_dtype)
  HIPASM_MIXED(<<, other_dtype)
  HIPASM_MIXED(>>, other_dtype)
  HIPASM_MIXED(&, other_dtype)
  HIPASM_MIXED(|, other_dtype)
  HIPASM_MIXED(^, other_dtype)
#undef HIPASM_MIXED
#define HIPASM_MIXED_CMP(sym)                                                      \
  template <class X>                                                              \
    requires other_dtype<X, T>                                                    \
  friend constexpr cond operator sym(const val<T>& a, const X&) {                 \
    static_assert(false, mixed_dtypes_message<T, reg_dtype_v<X>>(#sym));          \
    return make_cond(cmpop::eq, a.x, a.x);                                        \
  }
  HIPASM_MIXED_CMP(<)
  HIPASM_MIXED_CMP(<=)
  HIPASM_MIXED_CMP(>)
  HIPASM_MIXED_CMP(>=)
  HIPASM_MIXED_CMP(==)
  HIPASM_MIXED_CMP(!=)
#undef HIPASM_MIXED_CMP
  template <class X>
    requires other_dtype<X, T>
  friend constexpr mixed_result<T> min(const val<T>&, const X&) {
    static_assert(false, mixed_dtypes_message<T, reg_dtype_v<X>>("min"));
    return {};
  }
  template <class X>
    requires other_dtype<X, T>
  friend constexpr mixed_result<T> max(const val<T>&, const X&) {
    static_assert(false, mixed_dtypes_message<T, reg_dtype_v<X>>("max"));
    return {};
  }
};

}  // namespace detail

namespace detail {
// An index with the line that wrote it: operator[] takes one parameter, so the caller's line
// comes from this conversion's default argument (evaluated where `a[i]` is written).
struct index_at {
  int i;
  std::source_location loc;
  constexpr index_at(int v, std::source_location l = std::source_location::current()) : i(v), loc(l) {}
};
}  // namespace detail

template <dtype T>
struct gpr : detail::arith_base<T> {
  static constexpr dtype type = T;
  static constexpr uint16_t elem_dwords = dwords_of(T);

  builder* b = nullptr;
  uint32_t id = 0xffffffffu;
  reg_class cls = reg_class::vgpr;
  uint16_t off = 0;              // first dword inside the virtual register
  uint16_t dim[3] = {1, 1, 1};   // shape; rank 0 = a single element
  uint8_t rank = 0;
  // The object an operator returned holds its own address here; every copy and every view
  // (as, at, [], element, slice, flat, lo/hi, named) holds another one or none. Only such a
  // result is a temporary that `x = expr` may retarget (compute straight into x): a view or
  // a copy of `auto t = a + 5` names t's register, which must then be written. (An operator
  // result constructs its object in place, also when bound by `auto t = ...`; handing that t
  // over with `x = std::move(t)` leaves t unwritten, as a moved-from object.)
  const gpr* result_self = nullptr;

  constexpr gpr() = default;
  constexpr gpr(const gpr&) = default;
  constexpr gpr(gpr&&) = default;
  constexpr explicit gpr(const detail::reg_ref& r)
      : b(r.b), id(r.id), cls(r.cls), off(r.off), dim{static_cast<uint16_t>(r.dwords / elem_dwords), 1, 1},
        rank(r.dwords / elem_dwords == 1 ? 0 : 1), result_self(this) {}
  // An expression's result, not yet a copy or a view of it (see result_self).
  constexpr bool is_result() const { return result_self == this; }

  constexpr uint32_t size() const {
    uint32_t n = 1;
    for (int i = 0; i < rank; ++i) n *= dim[i];
    return n;
  }
  constexpr uint16_t dwords() const { return static_cast<uint16_t>(size() * elem_dwords); }
  constexpr bool valid() const { return b != nullptr && id != 0xffffffffu; }
  constexpr detail::reg_ref ref() const { return {b, id, cls, off, dwords()}; }
  constexpr operand to_operand() const {
    operand o;
    o.k = operand::kind::vreg;
    o.cls = cls;
    o.offset = off;
    o.dwords = dwords();
    o.value = id;
    return o;
  }

  // A view is made on the line of the statement that uses it: noting that line makes an
  // assignment from (or to) it, which has no std::source_location of its own (operator= takes
  // exactly one parameter), report its errors there rather than at an earlier statement.
  // (operator[] takes the caller's line through its index's conversion: detail::index_at.)
  constexpr void note_line(const std::source_location& l) const {
    if (b) detail::note_loc(*b, to_src_loc(l));
  }
  // Element (rank 1) or row (rank >= 2) i. Out of range: a builder error naming the line.
  constexpr gpr operator[](detail::index_at i) const {
    note_line(i.loc);
    return index(i.i, i.loc);
  }
  constexpr gpr at(int i, std::source_location l = std::source_location::current()) const {
    note_line(l);
    return index(i, l);
  }
  // `count` consecutive entries of the first dimension starting at `first`.
  constexpr gpr slice(int first, int count, std::source_location l = std::source_location::current()) const {
    note_line(l);
    gpr r = *this;
    uint32_t n = rank == 0 ? 1 : dim[0];
    if (first < 0 || count <= 0 || static_cast<uint32_t>(first + count) > n) {
      if (b) detail::report(*b, to_src_loc(l), "slice out of range", "first+count exceeds", n, true);
      return r;
    }
    uint32_t inner = size() / n;
    r.off = static_cast<uint16_t>(off + first * inner * elem_dwords);
    if (rank == 0) r.rank = 1;
    r.dim[0] = static_cast<uint16_t>(count);
    if (r.rank == 1 && count == 1) r.rank = 0;
    return r;
  }
  // The same registers as a flat 1-D array.
  constexpr gpr flat(std::source_location l = std::source_location::current()) const {
    note_line(l);
    gpr r = *this;
    r.dim[0] = static_cast<uint16_t>(size());
    r.dim[1] = r.dim[2] = 1;
    r.rank = size() == 1 ? 0 : 1;
    return r;
  }
  // Reinterpret the same dwords as another dtype (a flat array).
  template <dtype U>
  constexpr gpr<U> as(std::source_location l = std::source_location::current()) const {
    note_line(l);
    gpr<U> r;
    r.b = b;
    r.id = id;
    r.cls = cls;
    r.off = off;
    uint32_t n = dwords() / dwords_of(U);
    if (dwords() % dwords_of(U) != 0 && b)
      detail::report(*b, to_src_loc(l), "cannot reinterpret: dword count not a multiple of the new dtype's width");
    r.dim[0] = static_cast<uint16_t>(n);
    r.rank = n == 1 ? 0 : 1;
    return r;
  }
  // Low/high dword of a 64-bit value.
  constexpr gpr<dtype::u32> lo(std::source_location l = std::source_location::current()) const {
    return as<dtype::u32>(l).at(0, l);
  }
  constexpr gpr<dtype::u32> hi(std::source_location l = std::source_location::current()) const {
    return as<dtype::u32>(l).at(1, l);
  }

  // Name for the asm comments (applies to the whole virtual register).
  constexpr gpr named(std::string_view name) const {
    if (b) detail::set_reg_name(*b, id, name);
    return *this;
  }
  template <std::size_t N>  // a literal: its length without a scan (detail::lit)
  constexpr gpr named(const char (&name)[N]) const {
    return named(detail::lit(name));
  }
  // Pins the whole virtual register to physical registers: this handle's first dword lands
  // on register `reg` of its class (acc.pin(64): v64..). The allocator places it there and
  // keeps other values out while it is live; two pinned values or an entry register live at
  // once in one register are an error at this line. (The register is held from the kernel
  // start to the value's last use.)
  constexpr gpr pin(int reg, std::source_location l = std::source_location::current()) const {
    if (b) detail::pin_reg(*b, id, cls, reg - off, to_src_loc(l));
    return *this;
  }
  // Aligns the whole virtual register's first dword to a multiple of `n` registers (a power of
  // two up to 64); pieces the allocator splits off keep the alignment their offset implies.
  constexpr gpr aligned(int n, std::source_location l = std::source_location::current()) const {
    if (b) detail::align_reg(*b, id, n, to_src_loc(l));
    return *this;
  }
  // Marks the whole virtual register as one the kernel may read before writing it (a value
  // that does not matter, such as the lanes a select discards): reading a register that no
  // write reaches on some path is otherwise a compile error (passes/undefined_reads.hpp).
  constexpr gpr allow_undefined() const {
    if (b) detail::allow_undefined_reg(*b, id);
    return *this;
  }
  // The same registers with another shape (row-major; the element count must match).
  constexpr gpr reshape(int n0, int n1 = 1, int n2 = 1, std::source_location l = std::source_location::current()) const {
    gpr r = *this;
    r.result_self = nullptr;
    const long long n = static_cast<long long>(n0) * n1 * n2;
    if (n0 <= 0 || n1 <= 0 || n2 <= 0 || n != size()) {
      if (b) detail::report(*b, to_src_loc(l), "reshape: the new shape's element count differs", "size", size(), true);
      return r;
    }
    r.dim[0] = static_cast<uint16_t>(n0);
    r.dim[1] = static_cast<uint16_t>(n1);
    r.dim[2] = static_cast<uint16_t>(n2);
    r.rank = n2 > 1 ? 3 : n1 > 1 ? 2 : n0 > 1 ? 1 : 0;
    return r;
  }
  // Makes this handle name `other`'s registers (no instruction; `=` would copy the values).
  // A C++ loop rotates buffers this way: tmp.rebind(a); a.rebind(b); b.rebind(tmp).
  constexpr gpr& rebind(const gpr& other) {
    b = other.b;
    id = other.id;
    cls = other.cls;
    off = other.off;
    for (int i = 0; i < 3; ++i) dim[i] = other.dim[i];
    rank = other.rank;
    result_self = nullptr;
    return *this;
  }
  // Broadcast initialiser: every element = v.
  constexpr gpr fill(const val<T>& v) const {
    for (uint32_t i = 0; i < size(); ++i) element(i) = v;
    return *this;
  }
  // Per-element initialiser, in row-major order; the count must match.
  constexpr gpr init(std::initializer_list<val<T>> vs,
                     std::source_location l = std::source_location::current()) const {
    if (vs.size() != size()) {
      if (b) detail::report(*b, to_src_loc(l), "initialiser count does not match the register array size", "size", size(), true);
      return *this;
    }
    uint32_t i = 0;
    for (const val<T>& v : vs) element(i++) = v;
    return *this;
  }
  // Element i of the flattened array.
  constexpr gpr element(uint32_t i, std::source_location l = std::source_location::current()) const {
    note_line(l);
    gpr r = *this;
    r.off = static_cast<uint16_t>(off + i * elem_dwords);
    r.rank = 0;
    r.dim[0] = r.dim[1] = r.dim[2] = 1;
    return r;
  }

  // Assignment computes into the registers this handle names (also on a temporary view
  // such as a[2] or x.lo()).
  constexpr gpr& operator=(const gpr& src) {
    if (b && src.b) detail::assign(ref(), T, detail::xval{src.b, src.to_operand(), T, detail::last_loc(*b)});
    else unbound_assignment(src);
    return *this;
  }
  // `x = y` with a default-constructed handle on either side did nothing: an error.
  constexpr void unbound_assignment(const gpr& src) const {
    builder* any = b ? b : src.b;
    if (any)
      detail::report(*any, detail::last_loc(*any),
                     b ? "assignment from a register handle that names no register (default-constructed: "
                         "allocate it with J.vgpr/J.sgpr or rebind it)"
                       : "assignment to a register handle that names no register (default-constructed: "
                         "allocate it with J.vgpr/J.sgpr, or rebind(x) to make it name x's registers)");
  }
  // From an expression result (a temporary): the expression is retargeted into this
  // register when that is safe, otherwise moved. A view or copy of a register (an rvalue
  // too) is moved like an lvalue: its register stays written.
  constexpr gpr& operator=(gpr&& src) {
    if (b && src.b) {
      if (src.is_result()) detail::assign_temp(ref(), T, src.ref());
      else detail::assign(ref(), T, detail::xval{src.b, src.to_operand(), T, detail::last_loc(*b)});
    } else {
      unbound_assignment(src);
    }
    return *this;
  }
  constexpr gpr& operator=(const val<T>& v) {
    if (b) detail::assign(ref(), T, v.x);
    return *this;
  }
  constexpr gpr& operator=(const unary<T>& u);
  // A register of another dtype (see detail::other_dtype): the only error is the static_assert.
  template <class X>
    requires detail::other_dtype<X, T>
  constexpr gpr& operator=(const X&) {
    static_assert(false, detail::mixed_assign_message<T, detail::reg_dtype_v<X>>("="));
    return *this;
  }
  // The placeholder result of a mixed-dtype expression: its error is already reported.
  template <class X>
    requires detail::is_mixed<X>
  constexpr gpr& operator=(const X&) {
    return *this;
  }

#define HIPASM_COMPOUND(sym, op)                                                   \
  constexpr gpr& operator sym(const val<T>& v) {                                    \
    return *this = (*this op v);                                                  \
  }
  HIPASM_COMPOUND(+=, +)
  HIPASM_COMPOUND(-=, -)
  HIPASM_COMPOUND(*=, *)
  HIPASM_COMPOUND(/=, /)
  HIPASM_COMPOUND(%=, %)
  HIPASM_COMPOUND(<<=, <<)
  HIPASM_COMPOUND(>>=, >>)
  HIPASM_COMPOUND(&=, &)
  HIPASM_COMPOUND(|=, |)
  HIPASM_COMPOUND(^=, ^)
#undef HIPASM_COMPOUND
#define HIPASM_COMPOUND_MIXED(sym, allowed)                                                  \
  template <class X>                                                                        \
    requires detail::allowed<X, T>                                                          \
  constexpr gpr& operator sym(const X&) {                                                   \
    static_assert(false, detail::mixed_assign_message<T, detail::reg_dtype_v<X>>(#sym));    \
    return *this;                                                                           \
  }                                                                                         \
  template <class X>                                                                        \
    requires detail::is_mixed<X>                                                            \
  constexpr gpr& operator sym(const X&) {                                                   \
    return *this;                                                                           \
  }
  HIPASM_COMPOUND_MIXED(+=, other_dtype_offset)
  HIPASM_COMPOUND_MIXED(-=, other_dtype_offset)
  HIPASM_COMPOUND_MIXED(*=, other_dtype)
  HIPASM_COMPOUND_MIXED(/=, other_dtype)
  HIPASM_COMPOUND_MIXED(%=, other_dtype)
  HIPASM_COMPOUND_MIXED(<<=, other_dtype)
  HIPASM_COMPOUND_MIXED(>>=, other_dtype)
  HIPASM_COMPOUND_MIXED(&=, other_dtype)
  HIPASM_COMPOUND_MIXED(|=, other_dtype)
  HIPASM_COMPOUND_MIXED(^=, other_dtype)
#undef HIPASM_COMPOUND_MIXED

  // Unary minus, ~ and abs() are lazy: as an instruction operand they become the neg/abs
  // source modifiers (floats); in an expression or an assignment they compute.
  constexpr unary<T> operator-() const;
  constexpr unary<T> operator~() const;
  friend constexpr unary<T> abs(const gpr& g) { return unary<T>{g, false, true, false}; }

 private:
  constexpr gpr index(int i, std::source_location l) const {
    uint32_t n = rank == 0 ? 1 : dim[0];
    if (i < 0 || static_cast<uint32_t>(i) >= n) {
      if (b) detail::report(*b, to_src_loc(l), "register index out of range", "size", n, true);
      return *this;
    }
    gpr r = *this;
    uint32_t inner = size() / n;
    r.off = static_cast<uint16_t>(off + i * inner * elem_dwords);
    if (rank <= 1) {
      r.rank = 0;
      r.dim[0] = 1;
    } else {
      r.rank = static_cast<uint8_t>(rank - 1);
      r.dim[0] = dim[1];
      r.dim[1] = dim[2];
      r.dim[2] = 1;
    }
    return r;
  }
};

// Exchanges what two handles name (no instruction): ping-pong buffers in a C++ loop.
template <dtype T>
constexpr void swap_handles(gpr<T>& a, gpr<T>& c) {
  gpr<T> t;
  t.rebind(a);
  a.rebind(c);
  c.rebind(t);
}

// -x, abs(x), ~x on a register, not yet evaluated.
template <dtype T>
struct unary : detail::arith_base<T> {
  static constexpr dtype type = T;  // (an instruction operand's dtype: operand_arg)
  gpr<T> g;
  bool neg = false, absolute = false, bnot = false;

  constexpr unary(const gpr<T>& r, bool n, bool a, bool x) : g(r), neg(n), absolute(a), bnot(x) {}
  constexpr unary operator-() const {
    if (bnot) return unary{value(), true, false, false};
    return unary{g, !neg, absolute, false};
  }
  constexpr unary operator~() const { return unary{value(), false, false, true}; }
  friend constexpr unary abs(const unary& u) {
    if (u.bnot) return unary{u.value(), false, true, false};
    return unary{u.g, false, true, false};
  }
  // Evaluates into a new temporary.
  constexpr gpr<T> value() const {
    return gpr<T>(detail::lower_unary(xv(detail::last_loc(*g.b)), neg, absolute, bnot, nullptr));
  }
  constexpr detail::xval xv(src_loc l) const { return detail::xval{g.b, g.to_operand(), T, l}; }
  // As an instruction operand: float neg/abs become source modifiers; everything else is
  // computed first (integer VOP3 ops have no negate modifier).
  constexpr operand to_operand() const {
    if (!bnot && (T == dtype::f32 || T == dtype::f64 || T == dtype::f16x2 || T == dtype::bf16x2)) {
      operand o = g.to_operand();
      o.neg = neg;
      o.abs = absolute;
      return o;
    }
    return value().to_operand();
  }
};

template <dtype T>
constexpr unary<T> gpr<T>::operator-() const { return unary<T>{*this, true, false, false}; }
template <dtype T>
constexpr unary<T> gpr<T>::operator~() const { return unary<T>{*this, false, false, true}; }
template <dtype T>
constexpr gpr<T>& gpr<T>::operator=(const unary<T>& u) {
  if (b && u.g.b) {
    detail::reg_ref d = ref();
    detail::lower_unary(u.xv(detail::last_loc(*b)), u.neg, u.absolute, u.bnot, &d);
  }
  return *this;
}

// An expression operand: a register element, an immediate, or an evaluated unary.
template <dtype T>
struct val {
  detail::xval x;
  constexpr val(const gpr<T>& g, std::source_location l = std::source_location::current())
      : x{g.b, g.to_operand(), T, to_src_loc(l)} {
    if (g.b) {
      detail::note_loc(*g.b, x.loc);
      if (g.size() != 1)
        detail::report(*g.b, x.loc, "an expression operand must be one register element", "size",
                       g.size(), true);
    }
  }
  // An rvalue: an expression's own result is `fresh` (see xval); a view or copy is not.
  constexpr val(gpr<T>&& g, std::source_location l = std::source_location::current())
      : val(static_cast<const gpr<T>&>(g), l) {
    x.fresh = g.is_result() && g.dwords() == 1 && g.off == 0;
  }
  template <class I>
    requires detail::imm_for<I, T>
  constexpr val(I v, std::source_location l = std::source_location::current())
      : x{nullptr, operand{operand::kind::imm, reg_class::sgpr, special_reg::none, false, false, 0,
                           dwords_of(T), detail::imm_bits(T, v)},
          T, to_src_loc(l)} {}
  constexpr val(const unary<T>& u, std::source_location l = std::source_location::current())
      : x{u.g.b, {}, T, to_src_loc(l)} {
    if (u.g.b) {
      detail::note_loc(*u.g.b, x.loc);
      x = detail::materialize_unary(u.xv(x.loc), u.neg, u.absolute, u.bnot);
    }
  }
};

namespace detail {
template <dtype T>
constexpr arith_base<T>::off64::off64(const gpr<dtype::u64>& g, std::source_location l)
    : x{g.b, g.to_operand(), dtype::u64, to_src_loc(l)}, sign(false) {}
template <dtype T>
constexpr arith_base<T>::off64::off64(const gpr<dtype::i64>& g, std::source_location l)
    : x{g.b, g.to_operand(), dtype::i64, to_src_loc(l)}, sign(true) {}
template <dtype T>
constexpr arith_base<T>::off64::off64(const gpr<dtype::u32>& g, std::source_location l)
    : x{g.b, g.to_operand(), dtype::u32, to_src_loc(l)}, sign(false) {}
template <dtype T>
constexpr arith_base<T>::off64::off64(const gpr<dtype::i32>& g, std::source_location l)
    : x{g.b, g.to_operand(), dtype::i32, to_src_loc(l)}, sign(true) {}

}  // namespace detail


}  // namespace hipasm

#pragma clang diagnostic pop

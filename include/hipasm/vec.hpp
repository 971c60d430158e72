// hipasm::vec<T>: the growable array of the compile-time pipeline (IR, passes, builder).
//
// Why not std::vector: the pipeline runs in the constant interpreters, where each
// std::vector::push_back is three interpreted calls (allocator_traits::construct,
// std::construct_at, placement new) on top of the member call, and construction of n
// elements is n such calls: a push_back here costs a quarter to a half of std::vector's with
// either interpreter (docs/design.md's cost model). The whole pipeline is mostly such pushes.
//
// Storage is `new T[capacity]()`: T must be default-constructible and copy/move
// assignable. Slots past size() always hold T() (truncation resets them), so
// emplace_back() without arguments hands out a slot without writing it: building a big
// element in place costs no copy of it.
//
// Raw storage (HIPASM_VEC_RAW_STORAGE=1, set with clang's bytecode interpreter): for a
// trivially copyable class T the array comes from std::allocator and is never constructed
// as a whole; slots are written when they become elements (assignment or memcpy into
// allocated storage: clang-22's bytecode interpreter accepts both for class types, not
// for scalars; the default interpreter for neither).
// Constructing the unused capacity of every regrowth was a quarter of what the builder
// paid per instruction. Slots past size() then hold nothing.
//
// The surface is the subset of std::vector the library uses, with the same meaning;
// iterators are raw pointers (range-for, begin() + k).
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#if defined(HIPASM_VEC_RAW_STORAGE) && HIPASM_VEC_RAW_STORAGE
#if __has_include(<bits/allocator.h>)
#include <bits/allocator.h>  // std::allocator alone (libstdc++): all of <memory> grows the PCH by half
#else
#include <memory>
#endif
#endif
#include <type_traits>
#include <utility>

namespace hipasm {

namespace detail {
// T(), as the source of the memcpy that makes a raw slot an element.
template <class T>
inline constexpr T vec_default_value{};
}  // namespace detail

template <class T>
class vec {
#if defined(HIPASM_VEC_RAW_STORAGE) && HIPASM_VEC_RAW_STORAGE
  static constexpr bool raw = std::is_trivially_copyable_v<T> && std::is_class_v<T>;
#else
  static constexpr bool raw = false;
#endif

 public:
  using value_type = T;
  using size_type = std::size_t;
  using iterator = T*;
  using const_iterator = const T*;

  constexpr vec() = default;
  constexpr explicit vec(size_type n) : p_(n ? allocate(n) : nullptr), n_(n), cap_(n) {
    if constexpr (raw) fill_default(p_, n);
  }
  constexpr vec(size_type n, const T& v) : p_(n ? allocate(n) : nullptr), n_(n), cap_(n) { fill(p_, n, v); }
  constexpr vec(std::initializer_list<T> il) : vec(il.size()) {
    size_type i = 0;
    for (const T& v : il) p_[i++] = v;
  }
  template <class It>
    requires(!std::is_integral_v<It>)
  constexpr vec(It first, It last) {
    for (; first != last; ++first) push_back(*first);
  }
  constexpr vec(const vec& o) : p_(o.n_ ? allocate(o.n_) : nullptr), n_(o.n_), cap_(o.n_) { copy_into(p_, o.p_, n_); }
  constexpr vec(vec&& o) noexcept : p_(o.p_), n_(o.n_), cap_(o.cap_) {
    o.p_ = nullptr;
    o.n_ = o.cap_ = 0;
  }
  constexpr vec& operator=(const vec& o) {
    if (this == &o) return *this;
    if (o.n_ > cap_) {
      release(p_, cap_);
      p_ = allocate(o.n_);
      cap_ = o.n_;
    }
    copy_into(p_, o.p_, o.n_);
    if constexpr (raw) n_ = o.n_;
    else truncate(o.n_);
    return *this;
  }
  constexpr vec& operator=(vec&& o) noexcept {
    if (this == &o) return *this;
    release(p_, cap_);
    p_ = o.p_;
    n_ = o.n_;
    cap_ = o.cap_;
    o.p_ = nullptr;
    o.n_ = o.cap_ = 0;
    return *this;
  }
  constexpr ~vec() { release(p_, cap_); }

  constexpr size_type size() const { return n_; }
  constexpr bool empty() const { return n_ == 0; }
  constexpr size_type capacity() const { return cap_; }
  constexpr T* data() { return p_; }
  constexpr const T* data() const { return p_; }
  constexpr T* begin() { return p_; }
  constexpr T* end() { return p_ + n_; }
  constexpr const T* begin() const { return p_; }
  constexpr const T* end() const { return p_ + n_; }
  constexpr T& operator[](size_type i) { return p_[i]; }
  constexpr const T& operator[](size_type i) const { return p_[i]; }
  constexpr T& front() { return p_[0]; }
  constexpr const T& front() const { return p_[0]; }
  constexpr T& back() { return p_[n_ - 1]; }
  constexpr const T& back() const { return p_[n_ - 1]; }

  constexpr void reserve(size_type c) {
    if (c > cap_) regrow(c);
  }
  constexpr void push_back(const T& v) {
    if (n_ == cap_) {
      T copy = v;  // v may be an element of this vec (push_back(back())): regrow frees it
      regrow(next_capacity());
      p_[n_++] = std::move(copy);
      return;
    }
    p_[n_++] = v;
  }
  constexpr void push_back(T&& v) {
    if (n_ == cap_) regrow(next_capacity());
    p_[n_++] = std::move(v);
  }
  template <class... A>
  constexpr T& emplace_back(A&&... a) {
    if (n_ == cap_) regrow(next_capacity());
    if constexpr (sizeof...(A) != 0) p_[n_] = T(std::forward<A>(a)...);
    else if constexpr (raw) fill_default(p_ + n_, 1);  // (else: already T())
    return p_[n_++];
  }
  constexpr void pop_back() { truncate(n_ - 1); }
  constexpr void clear() { truncate(0); }
  constexpr void resize(size_type n) {
    if (n <= n_) return truncate(n);
    reserve(n);
    if constexpr (raw) fill_default(p_ + n_, n - n_);
    n_ = n;  // (else the slots past size() already hold T())
  }
  // Appends n elements copied from src (not an element of this vec). Trivially copyable
  // elements are copied by one __builtin_memcpy (both interpreters copy natively, ~5x
  // cheaper than an interpreted assignment per element for an instr).
  constexpr void append(const T* src, size_type n) {
    if (n == 0) return;
    if (n_ + n > cap_) regrow(n_ + n > 2 * cap_ ? n_ + n : 2 * cap_);
    copy_into(p_ + n_, src, n);
    n_ += n;
  }
  constexpr void resize(size_type n, const T& v) {
    if (n <= n_) return truncate(n);
    const T copy = v;  // (v may be an element of this vec)
    reserve(n);
    fill(p_ + n_, n - n_, copy);
    n_ = n;
  }
  constexpr void assign(size_type n, const T& v_) {
    const T v = v_;  // (v_ may be an element of this vec)
    if (n > cap_) {
      release(p_, cap_);
      p_ = allocate(n);
      cap_ = n;
    }
    fill(p_, n, v);
    truncate(n);
  }
  constexpr T* insert(const T* pos, const T& v) {
    const size_type k = static_cast<size_type>(pos - p_);
    T copy = v;  // v may live in this vec
    if (n_ == cap_) regrow(next_capacity());
    move_range(k + 1, k, n_ - k);
    p_[k] = std::move(copy);
    ++n_;
    return p_ + k;
  }
  template <class It>
  constexpr T* insert(const T* pos, It first, It last) {
    const size_type k = static_cast<size_type>(pos - p_);
    vec tail;
    for (; first != last; ++first) tail.push_back(*first);
    const size_type m = tail.n_;
    if (m == 0) return p_ + k;
    if (n_ + m > cap_) reserve(n_ + m > 2 * cap_ ? n_ + m : 2 * cap_);
    move_range(k + m, k, n_ - k);
    for (size_type i = 0; i < m; ++i) p_[k + i] = std::move(tail.p_[i]);
    n_ += m;
    return p_ + k;
  }
  constexpr T* erase(const T* pos) { return erase(pos, pos + 1); }
  constexpr T* erase(const T* first, const T* last) {
    const size_type k = static_cast<size_type>(first - p_), m = static_cast<size_type>(last - first);
    if (m == 0) return p_ + k;
    move_range(k, k + m, n_ - k - m);
    truncate(n_ - m);
    return p_ + k;
  }
  // Keeps the elements whose flag in keep[0, size()) is nonzero, in order, in place: each
  // run of kept elements moves down with one move_range (no new array: constructing one
  // costs more than the move in both constant interpreters).
  constexpr void retain(const uint8_t* keep) {
    size_type w = 0;
    for (size_type i = 0; i < n_;) {
      if (!keep[i]) {
        ++i;
        continue;
      }
      size_type j = i + 1;
      while (j < n_ && keep[j]) ++j;
      if (w != i) move_range(w, i, j - i);
      w += j - i;
      i = j;
    }
    truncate(w);
  }
  constexpr void swap(vec& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    std::swap(cap_, o.cap_);
  }

  friend constexpr bool operator==(const vec& a, const vec& b) {
    if (a.n_ != b.n_) return false;
    for (size_type i = 0; i < a.n_; ++i)
      if (!(a.p_[i] == b.p_[i])) return false;
    return true;
  }

 private:
  T* p_ = nullptr;
  size_type n_ = 0, cap_ = 0;

  // p_[to] = p_[from] through a local: clang-22's bytecode interpreter rejects a direct
  // copy between two elements of one array when T has an array member (it checks the
  // memcpy of the trivial assignment for overlap by allocation, not by range).
  constexpr void shift(size_type to, size_type from) {
    T t = std::move(p_[from]);
    p_[to] = std::move(t);
  }
  // Slots [to, to + n) = [from, from + n) of this array (the ranges may overlap; slots
  // past size() may be written): one __builtin_memmove for trivially copyable elements,
  // else shift() per element in the direction that reads each before it is overwritten.
  constexpr void move_range(size_type to, size_type from, size_type n) {
    if (n == 0 || to == from) return;
    if constexpr (std::is_trivially_copyable_v<T>) {
      __builtin_memmove(p_ + to, p_ + from, n * sizeof(T));
    } else if (to < from) {
      for (size_type i = 0; i < n; ++i) shift(to + i, from + i);
    } else {
      for (size_type i = n; i-- > 0;) shift(to + i, from + i);
    }
  }
  constexpr size_type next_capacity() const { return cap_ ? 2 * cap_ : 4; }
  // dst[0, n) = src[0, n) (different allocations): one native memcpy for trivially
  // copyable elements, an interpreted assignment each otherwise.
  static constexpr void copy_into(T* dst, const T* src, size_type n) {
    if constexpr (std::is_trivially_copyable_v<T>) {
      if (n) __builtin_memcpy(dst, src, n * sizeof(T));
    } else {
      for (size_type i = 0; i < n; ++i) dst[i] = src[i];
    }
  }
  static constexpr T* allocate(size_type c) {
    if constexpr (raw) return std::allocator<T>{}.allocate(c);
    else return new T[c]();
  }
  static constexpr void release(T* p, size_type c) {
    if constexpr (raw) {
      if (p) std::allocator<T>{}.deallocate(p, c);
    } else {
      delete[] p;
    }
  }
  // Slots [p, p + n) become copies of v (not an element of them): for a trivially copyable
  // T one element is written and then copied by doubling memmoves (log n builtins instead of
  // n interpreted assignments: a bitset of a few thousand slots is ~60 words, and passes
  // make one per block).
  static constexpr void fill(T* p, size_type n, const T& v) {
    if (n == 0) return;
    if constexpr (std::is_trivially_copyable_v<T>) {
      if constexpr (raw) __builtin_memcpy(p, &v, sizeof(T));
      else p[0] = v;
      for (size_type done = 1; done < n;) {
        const size_type k = done < n - done ? done : n - done;
        __builtin_memmove(p + done, p, k * sizeof(T));  // (memcpy within one allocation is refused)
        done += k;
      }
    } else {
      for (size_type i = 0; i < n; ++i) p[i] = v;
    }
  }
  // Raw storage: slots [p, p + n) become T() (one element copied in, then doubling copies).
  static constexpr void fill_default(T* p, size_type n) {
    if (n == 0) return;
    __builtin_memcpy(p, &detail::vec_default_value<T>, sizeof(T));
    for (size_type done = 1; done < n;) {
      const size_type k = done < n - done ? done : n - done;
      __builtin_memmove(p + done, p, k * sizeof(T));  // (memcpy within one allocation is refused)
      done += k;
    }
  }
  constexpr void regrow(size_type c) {
    T* q = allocate(c);
    if constexpr (std::is_trivially_copyable_v<T>) copy_into(q, p_, n_);
    else for (size_type i = 0; i < n_; ++i) q[i] = std::move(p_[i]);
    release(p_, cap_);
    p_ = q;
    cap_ = c;
  }
  // Drops the elements past n: reset to T() (the invariant emplace_back relies on; a vec
  // of owning values, vec<vec<..>>, also frees what they held now, as std::vector would).
  // Raw storage keeps no invariant there.
  constexpr void truncate(size_type n) {
    if constexpr (!raw)
      for (size_type i = n; i < n_; ++i) p_[i] = T();
    n_ = n;
  }
};

}  // namespace hipasm

// hipasm::vec against std::vector: the same sequence of operations (seeded pseudo-random,
// every member the library uses) must leave the same contents. Run at run time, and at
// compile time (static_assert) under the default constant interpreter here and the
// bytecode one in test_vec_newinterp.cpp, with an element type that has an array member
// (like instr: the case clang-22's bytecode interpreter is fussy about) and an owning one.
// Under the bytecode interpreter std::vector itself cannot erase such elements (its
// element-to-element move trips the interpreter's overlap check), so there the mirror
// runs with a flat element type and the array-member case is checked against contents
// written out by hand.
#include <catch2/catch.hpp>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "hipasm/vec.hpp"

namespace {

struct item {
  uint32_t key = 7;
  uint16_t parts[3] = {1, 2, 3};
  constexpr bool operator==(const item& o) const {
    return key == o.key && parts[0] == o.parts[0] && parts[1] == o.parts[1] && parts[2] == o.parts[2];
  }
};
constexpr item make_item(uint32_t k) {
  item it;
  it.key = k;
  it.parts[1] = static_cast<uint16_t>(k * 3);
  return it;
}

// Same contents, element by element (vec has no conversion to std::vector on purpose).
template <class T>
constexpr bool same(const hipasm::vec<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size() || a.empty() != b.empty()) return false;
  for (std::size_t i = 0; i < b.size(); ++i)
    if (!(a[i] == b[i])) return false;
  return true;
}

struct flat_item {
  uint32_t key = 7;
  uint16_t part = 1;
  constexpr bool operator==(const flat_item&) const = default;
};

template <class T>
constexpr T make(uint32_t k) {
  if constexpr (std::is_same_v<T, item>) {
    return make_item(k);
  } else {
    return T{k, static_cast<uint16_t>(k * 3)};
  }
}

// Applies `steps` random operations to both containers; false at the first difference.
template <class T = item>
constexpr bool mirror_items(uint32_t seed, int steps) {
  using item = T;
  constexpr auto make_item = make<T>;
  hipasm::vec<item> a;
  std::vector<item> b;
  uint32_t x = seed;
  auto next = [&x] {
    x = x * 1664525u + 1013904223u;
    return x >> 8;
  };
  for (int s = 0; s < steps; ++s) {
    const uint32_t r = next(), k = next();
    const std::size_t pos = b.empty() ? 0 : k % (b.size() + 1);
    switch (r % 13) {
      case 0: case 1: case 2: a.push_back(make_item(k)); b.push_back(make_item(k)); break;
      case 3: a.emplace_back(make_item(k)); b.emplace_back(make_item(k)); break;
      case 4: a.insert(a.begin() + pos, make_item(k)); b.insert(b.begin() + static_cast<std::ptrdiff_t>(pos), make_item(k)); break;
      case 5:
        if (pos < b.size()) {
          a.erase(a.begin() + pos);
          b.erase(b.begin() + static_cast<std::ptrdiff_t>(pos));
        }
        break;
      case 6: {
        const std::size_t end = pos + (k % 3) > b.size() ? b.size() : pos + (k % 3);
        a.erase(a.begin() + pos, a.begin() + end);
        b.erase(b.begin() + static_cast<std::ptrdiff_t>(pos), b.begin() + static_cast<std::ptrdiff_t>(end));
        break;
      }
      case 7:
        if (!b.empty()) {
          a.pop_back();
          b.pop_back();
        }
        break;
      case 8: a.resize(k % 9); b.resize(k % 9); break;
      case 9: a.resize(k % 9, make_item(k)); b.resize(k % 9, make_item(k)); break;
      case 10: {
        // range insert from a copy of itself (the source may alias on a real vector)
        const hipasm::vec<item> ca = a;
        const std::vector<item> cb = b;
        const std::size_t n = ca.size() < 3 ? ca.size() : 3;
        a.insert(a.begin() + pos, ca.begin(), ca.begin() + n);
        b.insert(b.begin() + static_cast<std::ptrdiff_t>(pos), cb.begin(), cb.begin() + static_cast<std::ptrdiff_t>(n));
        break;
      }
      case 12: {
        // append (memcpy for trivially copyable elements) from a copy of itself
        const hipasm::vec<item> ca = a;
        const std::vector<item> cb = b;
        const std::size_t n = ca.size() < 4 ? ca.size() : 4;
        a.append(ca.data() + (ca.size() - n), n);
        b.insert(b.end(), cb.end() - static_cast<std::ptrdiff_t>(n), cb.end());
        break;
      }
      case 11:
        if (k % 4 == 0) {
          a.clear();
          b.clear();
        } else {
          a.assign(k % 5, make_item(k));
          b.assign(k % 5, make_item(k));
        }
        break;
    }
    if (!same(a, b)) return false;
    if (!b.empty() && (!(a.front() == b.front()) || !(a.back() == b.back()))) return false;
  }
  // copies and moves keep contents; the moved-from vec is empty and reusable
  hipasm::vec<item> c = a;
  if (!same(c, b) || !(c == a)) return false;
  hipasm::vec<item> m = std::move(c);
  if (!same(m, b) || !c.empty()) return false;
  c.push_back(make_item(1));
  c = m;
  if (!same(c, b)) return false;
  return true;
}

// retain (in-place compaction: one memmove per kept run for trivially copyable elements)
// against the same filter on a std::vector, with regrowth in between.
template <class T = item>
constexpr bool mirror_retain(uint32_t seed, int rounds) {
  constexpr auto make_item = make<T>;
  hipasm::vec<T> a;
  std::vector<T> b;
  uint32_t x = seed;
  for (int r = 0; r < rounds; ++r) {
    for (int i = 0; i < 7; ++i) {
      x = x * 1664525u + 1013904223u;
      a.push_back(make_item(x >> 8));
      b.push_back(make_item(x >> 8));
    }
    x = x * 1664525u + 1013904223u;
    // (flags in a plain array: libstdc++ 12's vector<uint8_t>(n) is no constant expression)
    uint8_t* const keep = new uint8_t[b.size() + 1]();
    for (std::size_t i = 0; i < b.size(); ++i) keep[i] = r % 5 == 4 ? 0 : (x >> (i % 29)) & 1;
    a.retain(keep);
    std::vector<T> kept;
    for (std::size_t i = 0; i < b.size(); ++i)
      if (keep[i]) kept.push_back(b[i]);
    b = kept;
    delete[] keep;
    if (!same(a, b)) return false;
  }
  return true;
}

// Arguments that are elements of the vec itself, across regrowth (std::vector allows it).
constexpr bool self_arguments() {
  hipasm::vec<uint32_t> v{5};
  for (int i = 0; i < 40; ++i) v.push_back(v.back() + 1);  // 5..45, regrowing on the way
  if (v.size() != 41 || v[40] != 45) return false;
  hipasm::vec<uint32_t> w{7};
  w.resize(33, w[0]);
  w.insert(w.begin(), w[32]);
  w.assign(65, w[1]);
  for (uint32_t x : w)
    if (x != 7) return false;
  return w.size() == 65;
}

// An owning element type (vec of vecs, as the passes keep per-block lists).
constexpr bool nested(int n) {
  hipasm::vec<hipasm::vec<uint32_t>> a(3);
  std::vector<std::vector<uint32_t>> b(3);
  for (int i = 0; i < n; ++i) {
    a[static_cast<std::size_t>(i) % 3].push_back(static_cast<uint32_t>(i));
    b[static_cast<std::size_t>(i) % 3].push_back(static_cast<uint32_t>(i));
  }
  a.erase(a.begin());
  b.erase(b.begin());
  a.emplace_back(2, 9u);
  b.emplace_back(2, 9u);
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < b.size(); ++i)
    if (!same(a[i], b[i])) return false;
  const hipasm::vec<uint32_t> il{4, 5, 6};
  return il.size() == 3 && il[2] == 6 && hipasm::vec<uint32_t>(2, 8u)[1] == 8;
}

// Erase and insert shift elements with an array member (instr has operand ops[6]).
constexpr bool shifts_array_members() {
  hipasm::vec<item> v;
  for (uint32_t k = 0; k < 8; ++k) v.push_back(make_item(k));
  v.erase(v.begin() + 2);                // 0 1 3 4 5 6 7
  v.erase(v.begin() + 3, v.begin() + 5); // 0 1 3 6 7
  v.insert(v.begin() + 1, make_item(9)); // 0 9 1 3 6 7
  const hipasm::vec<item> two{make_item(20), make_item(21)};
  v.insert(v.begin() + 4, two.begin(), two.end());  // 0 9 1 3 20 21 6 7
  const uint32_t want[] = {0, 9, 1, 3, 20, 21, 6, 7};
  if (v.size() != 8) return false;
  for (std::size_t i = 0; i < 8; ++i)
    if (v[i].key != want[i] || v[i].parts[1] != want[i] * 3 || v[i].parts[2] != 3) return false;
  return true;
}

static_assert(mirror_items<flat_item>(1, 300));
static_assert(mirror_retain<flat_item>(5, 40));
static_assert(mirror_retain<item>(9, 40));
#ifdef HIPASM_TEST_NEW_INTERPRETER
// Seed 99 (and 42) make clang-22's bytecode interpreter itself crash (SIGSEGV in
// InitThisField<Ptr>) when the first operation inserts into both empty containers and
// they are copied afterwards; a clang bug, not one of vec's (the default interpreter runs
// those seeds): other seeds here.
static_assert(mirror_items<flat_item>(7, 300));
static_assert(mirror_items<flat_item>(3, 300));
#else
static_assert(mirror_items<flat_item>(99, 300));
static_assert(mirror_items<item>(1, 300));
static_assert(mirror_items<item>(99, 300));
#endif
static_assert(shifts_array_members());
static_assert(self_arguments());
static_assert(nested(20));

}  // namespace

TEST_CASE("vec matches std::vector over random operation sequences", "[vec]") {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    INFO("seed " << seed);
    CHECK(mirror_items<item>(seed, 2000));
    CHECK(mirror_items<flat_item>(seed, 2000));
    CHECK(mirror_retain<item>(seed, 200));
    CHECK(mirror_retain<flat_item>(seed, 200));
  }
  CHECK(nested(1000));
  CHECK(shifts_array_members());
  CHECK(self_arguments());
}

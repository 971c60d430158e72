// HIPASM_TEST_KERNELS: expr_int.hip expr_const.hip expr_misc.hip expr_views.hip
// Every expression lowering executed in hipasm-sim against plain C++ over edge values
// (0, 1, -1, INT_MIN, INT_MAX, powers of two and neighbours, random), for every mix of
// SGPR/VGPR/immediate operands. The kernels are in kernels/expr_*.hip (expr_cases.hpp).
// The simulator's checker must also report nothing (no missing s_nop or s_waitcnt).
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace rt = hipasm::rt;

namespace {

std::string co_path(const char* kernels) {
  return std::string(HIPASM_CORE_KERNEL_DIR) + "/core_" + HIPASM_CORE_TEST_NAME + "_" + kernels + ".co";
}

struct sim {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  std::unique_ptr<rt::module> ints = dev->load_file(co_path("expr_int"));
  std::unique_ptr<rt::module> consts = dev->load_file(co_path("expr_const"));
  std::unique_ptr<rt::module> misc = dev->load_file(co_path("expr_misc"));
  std::unique_ptr<rt::module> views = dev->load_file(co_path("expr_views"));
};
sim& S() {
  static sim s;
  return s;
}

std::vector<uint32_t> edge_values() {
  std::vector<uint32_t> v = {0, 1, 2, 3, 5, 7, 10, 31, 32, 33, 63, 64, 100, 1000, 65535, 65536, 65537,
                             0x7ffffffe, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff,
                             0xfffffff9, 0xffffff9c, 0x12345678, 0xdeadbeef, 123456789};
  for (int k = 0; k < 32; k += 5) v.push_back(1u << k);
  std::mt19937 rng(42);
  for (int i = 0; i < 12; ++i) v.push_back(rng());
  return v;
}

// All pairs of edge values, padded to a multiple of 64 with the first pair.
void pairs(std::vector<uint32_t>& a, std::vector<uint32_t>& b) {
  auto e = edge_values();
  for (uint32_t x : e)
    for (uint32_t y : e) {
      a.push_back(x);
      b.push_back(y);
    }
  while (a.size() % 64) {
    a.push_back(e[0]);
    b.push_back(e[1]);
  }
}

enum class ty { u32, i32 };

// C++ reference; returns false where C++ leaves the result undefined (then not compared).
bool reference(const std::string& op, ty t, uint32_t x, uint32_t y, uint32_t& r) {
  int32_t sx = static_cast<int32_t>(x), sy = static_cast<int32_t>(y);
  bool s = t == ty::i32;
  if (op == "add") r = x + y;
  else if (op == "sub") r = x - y;
  else if (op == "mul") r = x * y;
  else if (op == "div" || op == "rem") {
    if (y == 0) return false;
    if (s && sx == INT_MIN && sy == -1) return false;
    if (op == "div") r = s ? static_cast<uint32_t>(sx / sy) : x / y;
    else r = s ? static_cast<uint32_t>(sx % sy) : x % y;
  } else if (op == "shl") r = x << (y & 31);  // the hardware takes the amount mod 32
  else if (op == "shr") r = s ? static_cast<uint32_t>(sx >> (y & 31)) : x >> (y & 31);
  else if (op == "and") r = x & y;
  else if (op == "or") r = x | y;
  else if (op == "xor") r = x ^ y;
  else if (op == "min") r = s ? static_cast<uint32_t>(std::min(sx, sy)) : std::min(x, y);
  else if (op == "max") r = s ? static_cast<uint32_t>(std::max(sx, sy)) : std::max(x, y);
  else if (op == "lt") r = s ? sx < sy : x < y;
  else if (op == "le") r = s ? sx <= sy : x <= y;
  else if (op == "gt") r = s ? sx > sy : x > y;
  else if (op == "ge") r = s ? sx >= sy : x >= y;
  else if (op == "eq") r = x == y;
  else if (op == "ne") r = x != y;
  else if (op == "nlt") r = !(s ? sx < sy : x < y);
  else if (op == "neg") r = 0u - x;
  else if (op == "abs") r = sx < 0 ? 0u - x : x;
  else if (op == "not") r = ~x;
  else FAIL("no reference for " << op);
  return true;
}

std::vector<uint32_t> run(rt::module& m, const std::string& kernel, const std::vector<uint32_t>& a,
                          const std::vector<uint32_t>& b, bool per_lane) {
  rt::device& d = *S().dev;
  rt::buffer<uint32_t> A(d, a), B(d, b), out(d, a.size());
  rt::kernel_args args;
  args.add(out.ptr()).add(A.ptr()).add(B.ptr());
  uint32_t groups = per_lane ? static_cast<uint32_t>(a.size() / 64) : static_cast<uint32_t>(a.size());
  rt::launch_report rep = d.launch(m, kernel, {groups, 1, 1}, {64, 1, 1}, args);
  INFO(kernel);
  for (const auto& diag : rep.diagnostics) FAIL_CHECK("checker: " << diag);
  return out.download();
}

void check_binop(rt::module& m, const std::string& op, ty t, const std::string& mode) {
  std::vector<uint32_t> a, b;
  pairs(a, b);
  std::string name = op + (t == ty::u32 ? "_u32_" : "_i32_") + mode;
  auto got = run(m, name, a, b, mode == "vv");
  int bad = 0, compared = 0;
  for (size_t i = 0; i < a.size() && bad < 5; ++i) {
    uint32_t want = 0;
    if (!reference(op, t, a[i], b[i], want)) continue;
    ++compared;
    if (got[i] != want) {
      ++bad;
      FAIL_CHECK(name << "(" << a[i] << ", " << b[i] << ") = " << got[i] << ", C++ says " << want);
    }
  }
  CHECK(compared > 2000);  // every edge pair that C++ defines
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("integer operators: every operand-class mix against C++", "[expr][sim]") {
  const char* ops[] = {"add", "sub", "mul", "div", "rem", "shl", "shr", "and", "or", "xor",
                       "min", "max", "lt",  "le",  "gt",  "ge",  "eq",  "ne", "nlt"};
  for (const char* op : ops)
    for (ty t : {ty::u32, ty::i32})
      for (const char* mode : {"vv", "ss", "sv", "vs"}) {
        SECTION(std::string(op) + (t == ty::u32 ? "_u32_" : "_i32_") + mode) { check_binop(*S().ints, op, t, mode); }
      }
}

TEST_CASE("unary -, abs, ~ on SGPRs and VGPRs", "[expr][sim]") {
  for (const char* op : {"neg", "abs", "not"})
    for (ty t : {ty::u32, ty::i32})
      for (const char* mode : {"vv", "ss"}) {
        std::vector<uint32_t> a, b;
        pairs(a, b);
        std::string name = std::string(op) + (t == ty::u32 ? "_u32_" : "_i32_") + mode;
        auto got = run(*S().misc, name, a, b, std::string(mode) == "vv");
        for (size_t i = 0; i < a.size(); ++i) {
          uint32_t want = 0;
          reference(op, t, a[i], 0, want);
          if (got[i] != want) FAIL(name << "(" << a[i] << ") = " << got[i] << ", C++ says " << want);
        }
      }
}

TEST_CASE("division and remainder by constants (magic numbers, powers of two, negatives)", "[expr][sim]") {
  struct cst {
    const char* name;
    int64_t v;
  };
  const cst cs[] = {{"c1", 1},        {"c2", 2},         {"c3", 3},          {"c5", 5},
                    {"c6", 6},        {"c7", 7},         {"c10", 10},        {"c16", 16},
                    {"c25", 25},      {"c64", 64},       {"c100", 100},      {"c127", 127},
                    {"c641", 641},    {"c1000", 1000},   {"c65536", 65536},  {"c65537", 65537},
                    {"c123456789", 123456789},           {"cmax", 2147483647}, {"cm1", -1},
                    {"cm2", -2},      {"cm3", -3},       {"cm7", -7},        {"cm16", -16},
                    {"cm100", -100},  {"cmmax", -2147483647},               {"cmin", -2147483648LL}};
  auto e = edge_values();
  std::vector<uint32_t> a(e.begin(), e.end());
  // more dividends around multiples of the divisors
  std::mt19937 rng(7);
  for (int i = 0; i < 64 * 4; ++i) a.push_back(rng() >> (i % 32));
  while (a.size() % 64) a.push_back(0);
  std::vector<uint32_t> b(a.size(), 0);
  for (const cst& c : cs)
    for (const char* op : {"div", "rem"})
      for (ty t : {ty::u32, ty::i32})
        for (const char* mode : {"vi", "si"}) {
          std::string name = std::string(op) + (t == ty::u32 ? "_u32_" : "_i32_") + mode + "_" + c.name;
          auto got = run(*S().consts, name, a, b, std::string(mode) == "vi");
          uint32_t y = static_cast<uint32_t>(c.v);
          for (size_t i = 0; i < a.size(); ++i) {
            uint32_t want = 0;
            if (!reference(op, t, a[i], y, want)) continue;
            if (got[i] != want) {
              FAIL_CHECK(name << ": " << a[i] << " by " << c.v << " = " << got[i] << ", C++ says " << want);
              break;
            }
          }
        }
  // other operators with an immediate operand
  struct other {
    const char* op;
    ty t;
    const char* mode;
  };
  const other os[] = {{"add", ty::i32, "vi"}, {"sub", ty::i32, "si"}, {"mul", ty::i32, "vi"},
                      {"mul", ty::u32, "si"}, {"shl", ty::u32, "vi"}, {"shr", ty::i32, "vi"},
                      {"shr", ty::u32, "si"}, {"and", ty::u32, "vi"}, {"min", ty::i32, "vi"},
                      {"max", ty::u32, "si"}, {"lt", ty::i32, "vi"},  {"ge", ty::u32, "si"}};
  const cst few[] = {{"c7", 7}, {"c100", 100}, {"cm3", -3}, {"cmin", -2147483648LL}};
  for (const other& o : os)
    for (const cst& c : few) {
      std::string name = std::string(o.op) + (o.t == ty::u32 ? "_u32_" : "_i32_") + o.mode + "_" + c.name;
      auto got = run(*S().consts, name, a, b, std::string(o.mode) == "vi");
      for (size_t i = 0; i < a.size(); ++i) {
        uint32_t want = 0;
        reference(o.op, o.t, a[i], static_cast<uint32_t>(c.v), want);
        if (got[i] != want) {
          FAIL_CHECK(name << ": " << a[i] << " op " << c.v << " = " << got[i] << ", C++ says " << want);
          break;
        }
      }
    }
}

TEST_CASE("f32 arithmetic and comparisons (NaN, infinities, signed zeros)", "[expr][sim]") {
  const float inf = INFINITY, nan = NAN;
  std::vector<float> e = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.0f, 3.25f, -7.5f, 1e30f, -1e30f, 1e-30f,
                          inf, -inf, nan, 123456.789f, -0.1f};
  std::vector<float> a, b;
  for (float x : e)
    for (float y : e) {
      a.push_back(x);
      b.push_back(y);
    }
  while (a.size() % 64) {
    a.push_back(1.0f);
    b.push_back(2.0f);
  }
  rt::device& d = *S().dev;
  const char* ops[] = {"add", "sub", "mul", "min", "max", "neg", "abs", "lt", "le", "gt", "ge", "eq", "ne", "nlt"};
  for (const char* op : ops)
    for (const char* mode : {"vv", "ss"}) {
      rt::buffer<float> A(d, a), B(d, b), out(d, a.size());
      rt::kernel_args args;
      args.add(out.ptr()).add(A.ptr()).add(B.ptr());
      bool vv = std::string(mode) == "vv";
      std::string name = std::string("f32_") + op + "_" + mode;
      auto rep = d.launch(*S().misc, name, {static_cast<uint32_t>(vv ? a.size() / 64 : a.size()), 1, 1}, {64, 1, 1}, args);
      for (const auto& diag : rep.diagnostics) FAIL_CHECK(name << " checker: " << diag);
      auto got = out.download();
      std::string o = op;
      for (size_t i = 0; i < a.size(); ++i) {
        float x = a[i], y = b[i], w = 0;
        if (o == "add") w = x + y;
        else if (o == "sub") w = x - y;
        else if (o == "mul") w = x * y;
        else if (o == "min") w = std::fmin(x, y);
        else if (o == "max") w = std::fmax(x, y);
        else if (o == "neg") w = -x;
        else if (o == "abs") w = std::fabs(x);
        else if (o == "lt") w = x < y;
        else if (o == "le") w = x <= y;
        else if (o == "gt") w = x > y;
        else if (o == "ge") w = x >= y;
        else if (o == "eq") w = x == y;
        else if (o == "ne") w = x != y;
        else if (o == "nlt") w = !(x < y);
        bool same = std::bit_cast<uint32_t>(got[i]) == std::bit_cast<uint32_t>(w) ||
                    (std::isnan(got[i]) && std::isnan(w));
        // v_min/v_max treat -0 and +0 as equal: either zero is a correct min/max of them
        if ((o == "min" || o == "max") && w == 0.0f && got[i] == 0.0f) same = true;
        if (!same) {
          FAIL_CHECK(name << "(" << x << ", " << y << ") = " << got[i] << ", C++ says " << w);
          break;
        }
      }
    }
}

TEST_CASE("64-bit address arithmetic: SGPR and VGPR pairs, zero- and sign-extended offsets", "[expr][sim]") {
  std::vector<uint64_t> a = {0, 1, 0xffffffffull, 0x100000000ull, 0xfffffffffffffff0ull, 0x7fffffff80000000ull,
                             0x0000123480000000ull, 0xdeadbeefcafef00dull};
  std::vector<int32_t> offs = {0, 1, -1, 16, -16, INT_MAX, INT_MIN, 0x12345678};
  std::vector<uint64_t> av;
  std::vector<int32_t> bv;
  for (uint64_t x : a)
    for (int32_t y : offs) {
      av.push_back(x);
      bv.push_back(y);
    }
  rt::device& d = *S().dev;
  for (const char* name : {"add64_u_s", "add64_i_s", "sub64_u_s", "sub64_i_s", "add64_u_v", "add64_i_v",
                           "sub64_u_v", "sub64_i_v"}) {
    std::string n = name;
    bool sub = n[0] == 's', sgn = n[6] == 'i';
    uint32_t count = static_cast<uint32_t>(av.size());
    rt::buffer<uint64_t> A(d, av);
    rt::buffer<int32_t> B(d, bv);
    rt::buffer<uint32_t> out(d, 2 * av.size());
    rt::kernel_args args;
    args.add(out.ptr()).add(A.ptr()).add(B.ptr()).add(count);
    auto rep = d.launch(*S().misc, n, {count, 1, 1}, {64, 1, 1}, args);
    for (const auto& diag : rep.diagnostics) FAIL_CHECK(n << " checker: " << diag);
    auto got = out.download();
    for (size_t i = 0; i < av.size(); ++i) {
      uint64_t ext = sgn ? static_cast<uint64_t>(static_cast<int64_t>(bv[i])) : static_cast<uint64_t>(static_cast<uint32_t>(bv[i]));
      uint64_t want = sub ? av[i] - ext : av[i] + ext;
      uint64_t have = got[i] | (static_cast<uint64_t>(got[count + i]) << 32);
      if (have != want) {
        FAIL_CHECK(n << "(" << av[i] << ", " << bv[i] << ") = " << have << ", C++ says " << want);
        break;
      }
    }
  }
}

// `auto t = x + 5; z = VIEW(t);` must copy: t is a named value read again afterwards (the
// views used to count as temporaries, retargeting the add into z and leaving t unwritten).
// kernels/expr_views.hip says what each output holds.
TEST_CASE("views and copies of a named expression result leave it written", "[expr][sim]") {
  std::vector<int32_t> x;
  for (uint32_t v : edge_values()) x.push_back(static_cast<int32_t>(v));
  while (x.size() % 64) x.push_back(static_cast<int32_t>(x.size()) * 977);
  std::vector<uint64_t> w;
  std::mt19937_64 rng(7);
  for (size_t i = 0; i < x.size(); ++i) w.push_back(i % 3 == 0 ? 0xffffffffull * i : rng());
  rt::device& d = *S().dev;
  for (const char* view : {"as", "at", "index", "element", "slice", "flat", "copy", "lo"})
    for (bool vec : {true, false}) {
      std::string name = std::string("view_") + view + (vec ? "_v" : "_s");
      // SGPR kernels: one element per workgroup (wave-uniform), the first 16 elements
      size_t n = vec ? x.size() : 16;
      std::vector<int32_t> xs(x.begin(), x.begin() + static_cast<long>(n));
      std::vector<uint64_t> ws(w.begin(), w.begin() + static_cast<long>(n));
      rt::buffer<int32_t> X(d, xs);
      rt::buffer<uint64_t> W(d, ws);
      rt::buffer<uint32_t> out(d, std::vector<uint32_t>(8 * n, 0xdeadbeefu));
      rt::kernel_args args;
      args.add(out.ptr()).add(X.ptr()).add(W.ptr());
      uint32_t groups = vec ? static_cast<uint32_t>(n / 64) : static_cast<uint32_t>(n);
      auto rep = d.launch(*S().views, name, {groups, 1, 1}, {64, 1, 1}, args);
      for (const auto& diag : rep.diagnostics) FAIL_CHECK(name << " checker: " << diag);
      auto got = out.download();
      int bad = 0;
      for (size_t i = 0; i < n && bad < 3; ++i) {
        const uint32_t t = static_cast<uint32_t>(xs[i]) + 5u;
        const uint64_t t64 = ws[i] + static_cast<uint64_t>(static_cast<int64_t>(xs[i]));
        const uint64_t z64 = std::string(view) == "lo" ? static_cast<uint32_t>(t64) + 1u : t64 + 1;
        const uint32_t* o = &got[8 * i];
        const uint64_t have_t64 = o[2] | (static_cast<uint64_t>(o[3]) << 32);
        const uint64_t have_z64 =
            std::string(view) == "lo" ? o[4] : (o[4] | (static_cast<uint64_t>(o[5]) << 32));
        if (o[0] != t || o[1] != t * 3u || have_t64 != t64 || have_z64 != z64 ||
            o[6] != static_cast<uint32_t>(xs[i]) + 7u) {
          ++bad;
          FAIL_CHECK(name << " x=" << xs[i] << " w=" << ws[i] << ": t " << o[0] << " (C++ " << t << "), z "
                          << o[1] << " (" << t * 3u << "), t64 " << have_t64 << " (" << t64 << "), z64 "
                          << have_z64 << " (" << z64 << "), r " << o[6] << " ("
                          << static_cast<uint32_t>(xs[i]) + 7u << ")");
        }
      }
      CHECK(bad == 0);
    }
}

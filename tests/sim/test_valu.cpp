// VALU semantics, one instruction at a time: llvm-mc-22 encodes the text, the simulator's
// decoder and handler run it on 64 lanes of edge and random values, and plain C++ (with the
// host's _Float16/__bf16 for the narrow float formats) says what each lane must hold.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <climits>
#include <functional>

#include "valu/valu_rig.hpp"

using namespace valu_test;

namespace {

using U2 = std::function<uint32_t(uint32_t, uint32_t)>;
using U3 = std::function<uint32_t(uint32_t, uint32_t, uint32_t)>;

// v1 = op(v2, v3) for every lane, compared with `ref`.
void check_u2(const std::string& text, const U2& ref, uint32_t seed = 1) {
  Rig r;
  auto a = edge_u32(seed), b = edge_u32(seed + 100);
  for (int l = 0; l < kLanes; ++l) r.v(2)[l] = a[l], r.v(3)[l] = b[l];
  r.run(text);
  for (int l = 0; l < kLanes; ++l) {
    INFO(text << " lane " << l << " a=" << std::hex << a[l] << " b=" << b[l]);
    REQUIRE(r.v(1)[l] == ref(a[l], b[l]));
  }
}
void check_u3(const std::string& text, const U3& ref, uint32_t seed = 1) {
  Rig r;
  auto a = edge_u32(seed), b = edge_u32(seed + 100), c = edge_u32(seed + 200);
  for (int l = 0; l < kLanes; ++l) r.v(2)[l] = a[l], r.v(3)[l] = b[l], r.v(4)[l] = c[l];
  r.run(text);
  for (int l = 0; l < kLanes; ++l) {
    INFO(text << " lane " << l << " a=" << std::hex << a[l] << " b=" << b[l] << " c=" << c[l]);
    REQUIRE(r.v(1)[l] == ref(a[l], b[l], c[l]));
  }
}

using F2 = std::function<float(float, float)>;
// Float binary ops: exact agreement with the host's IEEE arithmetic (NaN == NaN).
void check_f2(const std::string& text, const F2& ref, uint32_t seed = 3) {
  Rig r;
  auto a = edge_f32(seed), b = edge_f32(seed + 7);
  for (int l = 0; l < kLanes; ++l) r.v(2)[l] = fbits(a[l]), r.v(3)[l] = fbits(b[l]);
  r.run(text);
  for (int l = 0; l < kLanes; ++l) {
    INFO(text << " lane " << l << " a=" << a[l] << " b=" << b[l] << " got " << bitsf(r.v(1)[l]));
    REQUIRE(same_f32(r.v(1)[l], fbits(ref(a[l], b[l]))));
  }
}

}  // namespace

TEST_CASE("integer ALU ops match C++ on edge and random values", "[valu][int]") {
  check_u2("v_add_u32_e32 v1, v2, v3", [](uint32_t a, uint32_t b) { return a + b; });
  check_u2("v_add_u32_e64 v1, v2, v3 clamp", [](uint32_t a, uint32_t b) {
    uint64_t s = uint64_t(a) + b; return s > 0xffffffffu ? 0xffffffffu : uint32_t(s); });
  check_u2("v_sub_u32_e32 v1, v2, v3", [](uint32_t a, uint32_t b) { return a - b; });
  check_u2("v_subrev_u32_e32 v1, v2, v3", [](uint32_t a, uint32_t b) { return b - a; });
  check_u2("v_sub_u32_e64 v1, v2, v3 clamp", [](uint32_t a, uint32_t b) { return a < b ? 0u : a - b; });
  check_u2("v_add_i32 v1, v2, v3 clamp", [](uint32_t a, uint32_t b) {
    int64_t s = int64_t(int32_t(a)) + int32_t(b);
    return uint32_t(int32_t(std::clamp<int64_t>(s, INT32_MIN, INT32_MAX))); });
  check_u2("v_mul_lo_u32 v1, v2, v3", [](uint32_t a, uint32_t b) { return a * b; });
  check_u2("v_mul_hi_u32 v1, v2, v3", [](uint32_t a, uint32_t b) { return uint32_t((uint64_t(a) * b) >> 32); });
  check_u2("v_mul_hi_i32 v1, v2, v3", [](uint32_t a, uint32_t b) {
    return uint32_t(uint64_t(int64_t(int32_t(a)) * int32_t(b)) >> 32); });
  check_u2("v_mul_u32_u24_e32 v1, v2, v3", [](uint32_t a, uint32_t b) { return (a & 0xffffff) * (b & 0xffffff); });
  check_u2("v_mul_hi_u32_u24_e32 v1, v2, v3", [](uint32_t a, uint32_t b) {
    return uint32_t((uint64_t(a & 0xffffff) * (b & 0xffffff)) >> 32); });
  check_u2("v_mul_i32_i24_e32 v1, v2, v3", [](uint32_t a, uint32_t b) {
    int64_t x = int32_t(a << 8) >> 8, y = int32_t(b << 8) >> 8; return uint32_t(x * y); });
  check_u2("v_mul_hi_i32_i24_e32 v1, v2, v3", [](uint32_t a, uint32_t b) {
    int64_t x = int32_t(a << 8) >> 8, y = int32_t(b << 8) >> 8; return uint32_t(uint64_t(x * y) >> 32); });
  check_u2("v_min_i32_e32 v1, v2, v3", [](uint32_t a, uint32_t b) { return uint32_t(std::min(int32_t(a), int32_t(b))); });
  check_u2("v_max_u32_e32 v1, v2, v3", [](uint32_t a, uint32_t b) { return std::max(a, b); });
  check_u2("v_lshlrev_b32_e32 v1, v2, v3", [](uint32_t a, uint32_t b) { return b << (a & 31); });
  check_u2("v_lshrrev_b32_e32 v1, v2, v3", [](uint32_t a, uint32_t b) { return b >> (a & 31); });
  check_u2("v_ashrrev_i32_e32 v1, v2, v3", [](uint32_t a, uint32_t b) { return uint32_t(int32_t(b) >> (a & 31)); });
  check_u2("v_and_b32_e32 v1, v2, v3", [](uint32_t a, uint32_t b) { return a & b; });
  check_u2("v_or_b32_e32 v1, v2, v3", [](uint32_t a, uint32_t b) { return a | b; });
  check_u2("v_xor_b32_e32 v1, v2, v3", [](uint32_t a, uint32_t b) { return a ^ b; });
  check_u2("v_xnor_b32_e32 v1, v2, v3", [](uint32_t a, uint32_t b) { return ~(a ^ b); });
  check_u2("v_bfm_b32 v1, v2, v3", [](uint32_t a, uint32_t b) { return ((1u << (a & 31)) - 1) << (b & 31); });
  check_u2("v_bcnt_u32_b32 v1, v2, v3", [](uint32_t a, uint32_t b) { return uint32_t(std::popcount(a)) + b; });
  check_u2("v_add_u16_e32 v1, v2, v3", [](uint32_t a, uint32_t b) { return (a + b) & 0xffffu; });
  check_u2("v_mul_lo_u16_e32 v1, v2, v3", [](uint32_t a, uint32_t b) { return (a * b) & 0xffffu; });
  check_u2("v_lshlrev_b16_e32 v1, v2, v3", [](uint32_t a, uint32_t b) { return (b << (a & 15)) & 0xffffu; });
  check_u2("v_ashrrev_i16_e32 v1, v2, v3", [](uint32_t a, uint32_t b) { return uint32_t(uint16_t(int16_t(b) >> (a & 15))); });
  check_u2("v_max_i16_e32 v1, v2, v3", [](uint32_t a, uint32_t b) { return uint32_t(uint16_t(std::max(int16_t(a), int16_t(b)))); });
  check_u2("v_cvt_pk_u16_u32 v1, v2, v3", [](uint32_t a, uint32_t b) {
    return std::min(a, 0xffffu) | (std::min(b, 0xffffu) << 16); });
}

TEST_CASE("three-operand integer ops", "[valu][int]") {
  check_u3("v_add3_u32 v1, v2, v3, v4", [](uint32_t a, uint32_t b, uint32_t c) { return a + b + c; });
  check_u3("v_lshl_add_u32 v1, v2, v3, v4", [](uint32_t a, uint32_t b, uint32_t c) { return (a << (b & 31)) + c; });
  check_u3("v_add_lshl_u32 v1, v2, v3, v4", [](uint32_t a, uint32_t b, uint32_t c) { return (a + b) << (c & 31); });
  check_u3("v_lshl_or_b32 v1, v2, v3, v4", [](uint32_t a, uint32_t b, uint32_t c) { return (a << (b & 31)) | c; });
  check_u3("v_and_or_b32 v1, v2, v3, v4", [](uint32_t a, uint32_t b, uint32_t c) { return (a & b) | c; });
  check_u3("v_or3_b32 v1, v2, v3, v4", [](uint32_t a, uint32_t b, uint32_t c) { return a | b | c; });
  check_u3("v_xad_u32 v1, v2, v3, v4", [](uint32_t a, uint32_t b, uint32_t c) { return (a ^ b) + c; });
  check_u3("v_bfi_b32 v1, v2, v3, v4", [](uint32_t a, uint32_t b, uint32_t c) { return (a & b) | (~a & c); });
  check_u3("v_bfe_u32 v1, v2, v3, v4", [](uint32_t a, uint32_t b, uint32_t c) {
    uint32_t off = b & 31, w = c & 31;
    return w == 0 ? 0u : uint32_t((uint64_t(a) >> off) & ((1ull << w) - 1)); });
  check_u3("v_bfe_i32 v1, v2, v3, v4", [](uint32_t a, uint32_t b, uint32_t c) {
    uint32_t off = b & 31, w = c & 31;
    if (w == 0) return 0u;
    int64_t f = (int64_t(int32_t(a)) >> off) & ((1ll << w) - 1);
    if (f >> (w - 1) & 1) f -= (1ll << w);
    return uint32_t(int32_t(f)); });
  check_u3("v_alignbit_b32 v1, v2, v3, v4", [](uint32_t a, uint32_t b, uint32_t c) {
    return uint32_t((((uint64_t)a << 32) | b) >> (c & 31)); });
  check_u3("v_alignbyte_b32 v1, v2, v3, v4", [](uint32_t a, uint32_t b, uint32_t c) {
    return uint32_t((((uint64_t)a << 32) | b) >> (8 * (c & 3))); });
  check_u3("v_perm_b32 v1, v2, v3, v4", [](uint32_t a, uint32_t b, uint32_t c) {
    uint8_t bytes[8];
    for (int i = 0; i < 4; ++i) bytes[i] = uint8_t(b >> (8 * i)), bytes[4 + i] = uint8_t(a >> (8 * i));
    uint32_t r = 0;
    for (int i = 0; i < 4; ++i) {
      uint32_t s = (c >> (8 * i)) & 0xff, v;
      if (s < 8) v = bytes[s];
      else if (s < 12) v = (bytes[2 * (s - 8) + 1] & 0x80) ? 0xff : 0;
      else if (s == 12) v = 0;
      else v = 0xff;
      r |= v << (8 * i);
    }
    return r; });
  check_u3("v_med3_i32 v1, v2, v3, v4", [](uint32_t a, uint32_t b, uint32_t c) {
    int32_t x[3] = {int32_t(a), int32_t(b), int32_t(c)};
    std::sort(x, x + 3);
    return uint32_t(x[1]); });
  check_u3("v_max3_u32 v1, v2, v3, v4", [](uint32_t a, uint32_t b, uint32_t c) { return std::max({a, b, c}); });
  check_u3("v_mad_u32_u24 v1, v2, v3, v4", [](uint32_t a, uint32_t b, uint32_t c) { return (a & 0xffffff) * (b & 0xffffff) + c; });
  check_u3("v_mad_i32_i24 v1, v2, v3, v4", [](uint32_t a, uint32_t b, uint32_t c) {
    int64_t x = int32_t(a << 8) >> 8, y = int32_t(b << 8) >> 8; return uint32_t(x * y) + c; });
  check_u3("v_sad_u8 v1, v2, v3, v4", [](uint32_t a, uint32_t b, uint32_t c) {
    uint32_t s = c;
    for (int i = 0; i < 4; ++i) s += uint32_t(std::abs(int((a >> 8 * i) & 255) - int((b >> 8 * i) & 255)));
    return s; });
}

TEST_CASE("unary bit ops", "[valu][int]") {
  Rig r;
  auto a = edge_u32(9);
  for (int l = 0; l < kLanes; ++l) r.v(2)[l] = a[l];
  auto check = [&](const std::string& text, std::function<uint32_t(uint32_t)> ref) {
    r.run(text);
    for (int l = 0; l < kLanes; ++l) {
      INFO(text << " lane " << l << " a=" << std::hex << a[l]);
      REQUIRE(r.v(1)[l] == ref(a[l]));
    }
  };
  check("v_not_b32_e32 v1, v2", [](uint32_t x) { return ~x; });
  check("v_bfrev_b32_e32 v1, v2", [](uint32_t x) {
    uint32_t y = 0;
    for (int i = 0; i < 32; ++i) if (x >> i & 1) y |= 1u << (31 - i);
    return y; });
  check("v_ffbh_u32_e32 v1, v2", [](uint32_t x) { return x ? uint32_t(std::countl_zero(x)) : 0xffffffffu; });
  check("v_ffbl_b32_e32 v1, v2", [](uint32_t x) { return x ? uint32_t(std::countr_zero(x)) : 0xffffffffu; });
  check("v_ffbh_i32_e32 v1, v2", [](uint32_t x) {
    // first bit (from the MSB) that differs from the sign bit; -1 for 0 and -1
    if (x == 0 || x == 0xffffffffu) return 0xffffffffu;
    bool s = x >> 31;
    for (int i = 1; i < 32; ++i) if (((x >> (31 - i)) & 1) != s) return uint32_t(i);
    return 0xffffffffu; });
  check("v_mov_b32_e32 v1, v2", [](uint32_t x) { return x; });
  check("v_cvt_f32_ubyte2_e32 v1, v2", [](uint32_t x) { return fbits(float((x >> 16) & 255)); });
}

TEST_CASE("carry chains through VCC and SGPR pairs", "[valu][int]") {
  Rig r;
  auto a = edge_u32(11), b = edge_u32(12);
  for (int l = 0; l < kLanes; ++l) r.v(2)[l] = a[l], r.v(3)[l] = b[l];
  r.w.vcc = 0x123456789abcdef0ull;
  r.run("v_add_co_u32_e32 v1, vcc, v2, v3");
  uint64_t carry = 0;
  for (int l = 0; l < kLanes; ++l) {
    REQUIRE(r.v(1)[l] == a[l] + b[l]);
    carry |= uint64_t(uint64_t(a[l]) + b[l] > 0xffffffffu) << l;
  }
  REQUIRE(r.w.vcc == carry);
  // carry-in from s[4:5], carry-out to s[6:7]
  r.w.sgpr[4] = 0xdeadbeef, r.w.sgpr[5] = 0x0f0f0f0f;
  const uint64_t cin = 0x0f0f0f0fdeadbeefull;
  r.run("v_addc_co_u32_e64 v1, s[6:7], v2, v3, s[4:5]");
  uint64_t cout = 0;
  for (int l = 0; l < kLanes; ++l) {
    uint64_t s = uint64_t(a[l]) + b[l] + ((cin >> l) & 1);
    REQUIRE(r.v(1)[l] == uint32_t(s));
    cout |= uint64_t(s >> 32) << l;
  }
  REQUIRE((r.w.sgpr[6] | (uint64_t(r.w.sgpr[7]) << 32)) == cout);
  r.w.vcc = cin;
  r.run("v_subb_co_u32_e32 v1, vcc, v2, v3, vcc");
  uint64_t bout = 0;
  for (int l = 0; l < kLanes; ++l) {
    uint64_t sub = uint64_t(b[l]) + ((cin >> l) & 1);
    REQUIRE(r.v(1)[l] == uint32_t(a[l] - sub));
    bout |= uint64_t(sub > a[l]) << l;
  }
  REQUIRE(r.w.vcc == bout);
  // 64-bit multiply-add with carry-out
  auto c = edge_u32(13), d = edge_u32(14);
  for (int l = 0; l < kLanes; ++l) r.v(8)[l] = c[l], r.v(9)[l] = d[l];
  r.run("v_mad_u64_u32 v[10:11], s[0:1], v2, v3, v[8:9]");
  for (int l = 0; l < kLanes; ++l) {
    unsigned __int128 p = (unsigned __int128)a[l] * b[l] + (uint64_t(c[l]) | (uint64_t(d[l]) << 32));
    REQUIRE(r.v(10)[l] == uint32_t(p));
    REQUIRE(r.v(11)[l] == uint32_t(uint64_t(p) >> 32));
    REQUIRE(((r.w.sgpr[l / 32] >> (l % 32)) & 1) == uint32_t(p >> 64));
  }
  r.run("v_mad_i64_i32 v[10:11], s[0:1], v2, v3, v[8:9]");
  for (int l = 0; l < kLanes; ++l) {
    int64_t p = int64_t(int32_t(a[l])) * int32_t(b[l]) + int64_t(uint64_t(c[l]) | (uint64_t(d[l]) << 32));
    REQUIRE((r.v(10)[l] | (uint64_t(r.v(11)[l]) << 32)) == uint64_t(p));
  }
}

TEST_CASE("64-bit shifts and moves", "[valu][int]") {
  Rig r;
  auto a = edge_u32(21), b = edge_u32(22), s = edge_u32(23);
  for (int l = 0; l < kLanes; ++l) r.v(2)[l] = a[l], r.v(3)[l] = b[l], r.v(4)[l] = s[l];
  auto x = [&](int l) { return uint64_t(a[l]) | (uint64_t(b[l]) << 32); };
  r.run("v_lshlrev_b64 v[6:7], v4, v[2:3]");
  for (int l = 0; l < kLanes; ++l) REQUIRE((r.v(6)[l] | (uint64_t(r.v(7)[l]) << 32)) == x(l) << (s[l] & 63));
  r.run("v_ashrrev_i64 v[6:7], v4, v[2:3]");
  for (int l = 0; l < kLanes; ++l)
    REQUIRE((r.v(6)[l] | (uint64_t(r.v(7)[l]) << 32)) == uint64_t(int64_t(x(l)) >> (s[l] & 63)));
  r.run("v_lshl_add_u64 v[6:7], v[2:3], 3, v[2:3]");
  for (int l = 0; l < kLanes; ++l) REQUIRE((r.v(6)[l] | (uint64_t(r.v(7)[l]) << 32)) == (x(l) << 3) + x(l));
  r.run("v_mov_b64_e32 v[8:9], v[2:3]");
  for (int l = 0; l < kLanes; ++l) REQUIRE((r.v(8)[l] | (uint64_t(r.v(9)[l]) << 32)) == x(l));
}

TEST_CASE("EXEC masks lanes; inactive lanes keep their values", "[valu][exec]") {
  Rig r;
  for (int l = 0; l < kLanes; ++l) r.v(1)[l] = 0xaaaa0000u + l, r.v(2)[l] = l, r.v(3)[l] = 1000;
  r.w.exec = 0x00ff00ff00ff00ffull;
  r.run("v_add_u32_e32 v1, v2, v3");
  for (int l = 0; l < kLanes; ++l)
    REQUIRE(r.v(1)[l] == (((r.w.exec >> l) & 1) ? uint32_t(l + 1000) : 0xaaaa0000u + l));
  // VOPC writes 0 for inactive lanes
  r.run("v_cmp_eq_u32_e32 vcc, v2, v2");
  REQUIRE(r.w.vcc == r.w.exec);
  // carry-out also 0 for inactive lanes
  r.v(3)[0] = 0xffffffffu;
  r.run("v_add_co_u32_e32 v1, vcc, v2, v3");
  REQUIRE(r.w.vcc == 0);  // lane 0: 0 + 0xffffffff no carry; lane 1 inactive
}

TEST_CASE("v_cmp/v_cmpx for integer and float types", "[valu][cmp]") {
  Rig r;
  auto a = edge_u32(31), b = edge_u32(32);
  for (int l = 0; l < 8; ++l) b[l] = a[l];  // some equal lanes
  for (int l = 0; l < kLanes; ++l) r.v(2)[l] = a[l], r.v(3)[l] = b[l];
  auto mask = [&](auto pred) {
    uint64_t m = 0;
    for (int l = 0; l < kLanes; ++l) m |= uint64_t(pred(a[l], b[l])) << l;
    return m;
  };
  r.run("v_cmp_lt_i32_e32 vcc, v2, v3");
  REQUIRE(r.w.vcc == mask([](uint32_t x, uint32_t y) { return int32_t(x) < int32_t(y); }));
  r.run("v_cmp_ge_u32_e64 s[10:11], v2, v3");
  REQUIRE((r.w.sgpr[10] | (uint64_t(r.w.sgpr[11]) << 32)) == mask([](uint32_t x, uint32_t y) { return x >= y; }));
  r.run("v_cmp_ne_u16_e32 vcc, v2, v3");
  REQUIRE(r.w.vcc == mask([](uint32_t x, uint32_t y) { return uint16_t(x) != uint16_t(y); }));
  r.run("v_cmp_lt_f32_e32 vcc, v2, v3");
  REQUIRE(r.w.vcc == mask([](uint32_t x, uint32_t y) { return bitsf(x) < bitsf(y); }));
  r.run("v_cmp_neq_f32_e32 vcc, v2, v3");
  REQUIRE(r.w.vcc == mask([](uint32_t x, uint32_t y) { return !(bitsf(x) == bitsf(y)); }));
  r.run("v_cmp_lg_f32_e32 vcc, v2, v3");
  REQUIRE(r.w.vcc == mask([](uint32_t x, uint32_t y) { return bitsf(x) < bitsf(y) || bitsf(x) > bitsf(y); }));
  r.run("v_cmp_u_f32_e32 vcc, v2, v3");
  REQUIRE(r.w.vcc == mask([](uint32_t x, uint32_t y) { return std::isnan(bitsf(x)) || std::isnan(bitsf(y)); }));
  r.run("v_cmp_nlt_f32_e64 s[2:3], v2, v3");
  REQUIRE((r.w.sgpr[2] | (uint64_t(r.w.sgpr[3]) << 32)) == mask([](uint32_t x, uint32_t y) { return !(bitsf(x) < bitsf(y)); }));
  r.run("v_cmp_gt_i64_e32 vcc, v[2:3], v[2:3]");
  REQUIRE(r.w.vcc == 0);
  // compare against an inline constant and an SGPR
  r.w.sgpr[20] = 5;
  r.run("v_cmp_gt_u32_e32 vcc, s20, v2");
  REQUIRE(r.w.vcc == mask([](uint32_t x, uint32_t) { return 5u > x; }));
  r.run("v_cmp_class_f32_e64 s[4:5], v2, 0x3");  // signalling or quiet NaN
  REQUIRE((r.w.sgpr[4] | (uint64_t(r.w.sgpr[5]) << 32)) == mask([](uint32_t x, uint32_t) { return std::isnan(bitsf(x)); }));
  r.w.sgpr[30] = 0x60;  // +0 and +denormal... 0x20 = -0, 0x40 = +0
  r.run("v_cmp_class_f32_e64 s[4:5], v2, s30");
  REQUIRE((r.w.sgpr[4] | (uint64_t(r.w.sgpr[5]) << 32)) ==
          mask([](uint32_t x, uint32_t) { return (x & 0x7fffffffu) == 0; }));
  // v_cmpx writes EXEC and the destination
  const uint64_t expect = mask([](uint32_t x, uint32_t y) { return x < y; });
  r.run("v_cmpx_lt_u32_e32 vcc, v2, v3");
  REQUIRE(r.w.exec == expect);
  REQUIRE(r.w.vcc == expect);
  r.w.exec = ~0ull;
  r.run("v_cmpx_eq_u32_e64 s[8:9], v2, v3");
  REQUIRE(r.w.exec == mask([](uint32_t x, uint32_t y) { return x == y; }));
}

TEST_CASE("f32 arithmetic is IEEE with denormals kept", "[valu][f32]") {
  check_f2("v_add_f32_e32 v1, v2, v3", [](float a, float b) { return a + b; });
  check_f2("v_sub_f32_e32 v1, v2, v3", [](float a, float b) { return a - b; });
  check_f2("v_subrev_f32_e32 v1, v2, v3", [](float a, float b) { return b - a; });
  check_f2("v_mul_f32_e32 v1, v2, v3", [](float a, float b) { return a * b; });
  check_f2("v_max_f32_e32 v1, v2, v3", [](float a, float b) {
    if (a == 0 && b == 0) return std::signbit(a) ? b : a;
    return std::fmax(a, b); });
  check_f2("v_min_f32_e32 v1, v2, v3", [](float a, float b) {
    if (a == 0 && b == 0) return std::signbit(a) ? a : b;
    return std::fmin(a, b); });
  check_f2("v_add_f32_e64 v1, -v2, |v3|", [](float a, float b) { return -a + std::fabs(b); });
  check_f2("v_mul_f32_e64 v1, v2, v3 mul:2", [](float a, float b) { return (a * b) * 2.0f; });
  check_f2("v_add_f32_e64 v1, v2, v3 clamp", [](float a, float b) {
    float s = a + b;
    return std::isnan(s) ? 0.0f : std::clamp(s, 0.0f, 1.0f); });
  // ldexp with small integer exponents
  Rig r;
  auto a = edge_f32(40);
  for (int l = 0; l < kLanes; ++l) r.v(2)[l] = fbits(a[l]), r.v(3)[l] = uint32_t(l - 32);
  r.run("v_ldexp_f32 v1, v2, v3");
  for (int l = 0; l < kLanes; ++l) REQUIRE(same_f32(r.v(1)[l], fbits(std::ldexp(a[l], l - 32))));
  // fma, three sources, and the VOP2 accumulate form
  auto b = edge_f32(41), c = edge_f32(42);
  for (int l = 0; l < kLanes; ++l) r.v(3)[l] = fbits(b[l]), r.v(4)[l] = fbits(c[l]), r.v(5)[l] = fbits(c[l]);
  r.run("v_fma_f32 v1, v2, v3, v4");
  for (int l = 0; l < kLanes; ++l) REQUIRE(same_f32(r.v(1)[l], fbits(std::fma(a[l], b[l], c[l]))));
  r.run("v_fmac_f32_e32 v5, v2, v3");
  for (int l = 0; l < kLanes; ++l) REQUIRE(same_f32(r.v(5)[l], fbits(std::fma(a[l], b[l], c[l]))));
  r.run("v_fmaak_f32 v1, v2, v3, 0x40490fdb");
  for (int l = 0; l < kLanes; ++l) REQUIRE(same_f32(r.v(1)[l], fbits(std::fma(a[l], b[l], 3.14159274f))));
  r.run("v_fmamk_f32 v1, v2, 0x40490fdb, v4");
  for (int l = 0; l < kLanes; ++l) REQUIRE(same_f32(r.v(1)[l], fbits(std::fma(a[l], 3.14159274f, c[l]))));
  r.run("v_med3_f32 v1, v2, v3, v4");
  for (int l = 0; l < kLanes; ++l) {
    float x = a[l], y = b[l], z = c[l];
    if (std::isnan(x) || std::isnan(y) || std::isnan(z)) continue;  // NaN rules tested elsewhere
    float m = std::max(std::min(x, y), std::min(std::max(x, y), z));
    REQUIRE(bitsf(r.v(1)[l]) == m);
  }
}

TEST_CASE("f32 rounding and unary ops", "[valu][f32]") {
  Rig r;
  auto a = edge_f32(50);
  for (int l = 0; l < kLanes; ++l) r.v(2)[l] = fbits(a[l]);
  auto check = [&](const std::string& text, std::function<float(float)> ref) {
    r.run(text);
    for (int l = 0; l < kLanes; ++l) {
      INFO(text << " lane " << l << " a=" << a[l] << " got " << bitsf(r.v(1)[l]));
      REQUIRE(same_f32(r.v(1)[l], fbits(ref(a[l]))));
    }
  };
  check("v_trunc_f32_e32 v1, v2", [](float x) { return std::trunc(x); });
  check("v_floor_f32_e32 v1, v2", [](float x) { return std::floor(x); });
  check("v_ceil_f32_e32 v1, v2", [](float x) { return std::ceil(x); });
  check("v_rndne_f32_e32 v1, v2", [](float x) { return std::nearbyint(x); });
  check("v_fract_f32_e32 v1, v2", [](float x) {
    if (std::isinf(x)) return NAN;
    return std::min(x - std::floor(x), 0x1.fffffep-1f); });
  check("v_frexp_mant_f32_e32 v1, v2", [](float x) {
    if (std::isinf(x) || std::isnan(x)) return x;
    int e;
    return std::frexp(x, &e); });
  r.run("v_frexp_exp_i32_f32_e32 v1, v2");
  for (int l = 0; l < kLanes; ++l) {
    int e = 0;
    if (std::isfinite(a[l])) std::frexp(a[l], &e);
    REQUIRE(int32_t(r.v(1)[l]) == e);
  }
}

TEST_CASE("transcendentals are within the documented 1 ulp", "[valu][trans]") {
  Rig r;
  std::mt19937 rng(7);
  std::vector<float> a(kLanes);
  std::uniform_real_distribution<float> d(-20.0f, 20.0f);
  for (auto& x : a) x = d(rng);
  a[0] = 0.0f, a[1] = 1.0f, a[2] = 0.25f, a[3] = -0.5f, a[4] = 10.0f;
  auto run = [&](const std::string& text, std::function<double(double)> ref, bool positive_only, int ulps) {
    for (int l = 0; l < kLanes; ++l) r.v(2)[l] = fbits(positive_only ? std::fabs(a[l]) + 1e-3f : a[l]);
    r.run(text);
    for (int l = 0; l < kLanes; ++l) {
      float x = bitsf(r.v(2)[l]);
      float want = float(ref(x)), got = bitsf(r.v(1)[l]);
      INFO(text << " x=" << x << " want " << want << " got " << got);
      if (std::fabs(want) < 1e-6f) REQUIRE(std::fabs(got - want) < 1e-6f);  // near zeros of sin/cos
      else REQUIRE(ulp_diff(got, want) <= ulps);
    }
  };
  run("v_exp_f32_e32 v1, v2", [](double x) { return std::exp2(x); }, false, 1);
  run("v_log_f32_e32 v1, v2", [](double x) { return std::log2(x); }, true, 1);
  run("v_rcp_f32_e32 v1, v2", [](double x) { return 1.0 / x; }, false, 1);
  run("v_rsq_f32_e32 v1, v2", [](double x) { return 1.0 / std::sqrt(x); }, true, 1);
  run("v_sqrt_f32_e32 v1, v2", [](double x) { return std::sqrt(x); }, true, 1);
  run("v_sin_f32_e32 v1, v2", [](double x) { return std::sin(2 * M_PI * x); }, false, 2);
  run("v_cos_f32_e32 v1, v2", [](double x) { return std::cos(2 * M_PI * x); }, false, 2);
  // special values
  r.v(2)[0] = fbits(0.0f), r.v(2)[1] = fbits(-INFINITY), r.v(2)[2] = fbits(INFINITY);
  r.run("v_exp_f32_e32 v1, v2");
  REQUIRE(bitsf(r.v(1)[0]) == 1.0f);
  REQUIRE(bitsf(r.v(1)[1]) == 0.0f);
  REQUIRE(std::isinf(bitsf(r.v(1)[2])));
  r.run("v_rcp_f32_e32 v1, v2");
  REQUIRE(std::isinf(bitsf(r.v(1)[0])));
  r.run("v_log_f32_e32 v1, v2");
  REQUIRE(bitsf(r.v(1)[0]) == -INFINITY);
}

TEST_CASE("f64 arithmetic", "[valu][f64]") {
  Rig r;
  std::mt19937_64 rng(5);
  std::vector<double> a(kLanes), b(kLanes), c(kLanes);
  std::uniform_real_distribution<double> d(-1e6, 1e6);
  for (int l = 0; l < kLanes; ++l) a[l] = d(rng), b[l] = d(rng), c[l] = d(rng);
  a[0] = 0.0, b[0] = -0.0, a[1] = INFINITY, a[2] = NAN, b[3] = 4.9e-324;
  auto put = [&](int reg, const std::vector<double>& v) {
    for (int l = 0; l < kLanes; ++l) r.v(reg)[l] = uint32_t(dbits(v[l])), r.v(reg + 1)[l] = uint32_t(dbits(v[l]) >> 32);
  };
  auto get = [&](int reg, int l) { return bitsd(r.v(reg)[l] | (uint64_t(r.v(reg + 1)[l]) << 32)); };
  auto same = [](double x, double y) { return (std::isnan(x) && std::isnan(y)) || dbits(x) == dbits(y); };
  put(2, a), put(4, b), put(6, c);
  r.run("v_add_f64 v[8:9], v[2:3], v[4:5]");
  for (int l = 0; l < kLanes; ++l) REQUIRE(same(get(8, l), a[l] + b[l]));
  r.run("v_mul_f64 v[8:9], v[2:3], -v[4:5]");
  for (int l = 0; l < kLanes; ++l) REQUIRE(same(get(8, l), a[l] * -b[l]));
  r.run("v_fma_f64 v[8:9], v[2:3], v[4:5], v[6:7]");
  for (int l = 0; l < kLanes; ++l) REQUIRE(same(get(8, l), std::fma(a[l], b[l], c[l])));
  r.run("v_mul_f64 v[8:9], v[2:3], 0.5");
  for (int l = 0; l < kLanes; ++l) REQUIRE(same(get(8, l), a[l] * 0.5));
  r.run("v_add_f64 v[8:9], v[2:3], 1.0");
  for (int l = 0; l < kLanes; ++l) REQUIRE(same(get(8, l), a[l] + 1.0));
  r.run("v_floor_f64_e32 v[8:9], v[2:3]");
  for (int l = 0; l < kLanes; ++l) REQUIRE(same(get(8, l), std::floor(a[l])));
  r.run("v_sqrt_f64_e64 v[8:9], |v[2:3]|");
  for (int l = 0; l < kLanes; ++l) REQUIRE(same(get(8, l), std::sqrt(std::fabs(a[l]))));
  r.run("v_cvt_i32_f64_e32 v8, v[2:3]");
  for (int l = 0; l < kLanes; ++l) {
    double x = a[l];
    int32_t want = std::isnan(x) ? 0 : x >= 2147483647.0 ? INT32_MAX : x <= -2147483648.0 ? INT32_MIN : int32_t(x);
    REQUIRE(int32_t(r.v(8)[l]) == want);
  }
  r.run("v_cvt_f32_f64_e32 v8, v[2:3]");
  for (int l = 0; l < kLanes; ++l) REQUIRE(same_f32(r.v(8)[l], fbits(float(a[l]))));
  r.run("v_cvt_f64_f32_e32 v[8:9], v2");
  for (int l = 0; l < kLanes; ++l) REQUIRE(same(get(8, l), double(bitsf(r.v(2)[l]))));
}

TEST_CASE("f32 <-> integer conversions saturate and map NaN to 0", "[valu][cvt]") {
  Rig r;
  auto a = edge_f32(60);
  for (int l = 0; l < kLanes; ++l) r.v(2)[l] = fbits(a[l]);
  r.run("v_cvt_i32_f32_e32 v1, v2");
  for (int l = 0; l < kLanes; ++l) {
    float x = a[l];
    int32_t want = std::isnan(x) ? 0 : x >= 2147483648.0f ? INT32_MAX : x < -2147483648.0f ? INT32_MIN : int32_t(x);
    INFO("x=" << x);
    REQUIRE(int32_t(r.v(1)[l]) == want);
  }
  r.run("v_cvt_u32_f32_e32 v1, v2");
  for (int l = 0; l < kLanes; ++l) {
    float x = a[l];
    uint32_t want = std::isnan(x) || x <= 0 ? 0u : x >= 4294967296.0f ? 0xffffffffu : uint32_t(x);
    REQUIRE(r.v(1)[l] == want);
  }
  r.run("v_cvt_flr_i32_f32_e32 v1, v2");
  for (int l = 0; l < kLanes; ++l) {
    float x = a[l];
    if (std::isnan(x) || std::fabs(x) > 2e9f) continue;
    REQUIRE(int32_t(r.v(1)[l]) == int32_t(std::floor(x)));
  }
  auto ints = edge_u32(61);
  for (int l = 0; l < kLanes; ++l) r.v(3)[l] = ints[l];
  r.run("v_cvt_f32_i32_e32 v1, v3");
  for (int l = 0; l < kLanes; ++l) REQUIRE(bitsf(r.v(1)[l]) == float(int32_t(ints[l])));
  r.run("v_cvt_f32_u32_e32 v1, v3");
  for (int l = 0; l < kLanes; ++l) REQUIRE(bitsf(r.v(1)[l]) == float(ints[l]));
  r.run("v_cvt_off_f32_i4_e32 v1, v3");
  for (int l = 0; l < kLanes; ++l) {
    int v = int(ints[l] & 15);
    REQUIRE(bitsf(r.v(1)[l]) == float(v >= 8 ? v - 16 : v) / 16.0f);
  }
}

TEST_CASE("f16 and bf16 match the host's _Float16 and __bf16", "[valu][f16]") {
  Rig r;
  auto a = edge_f32(70), b = edge_f32(71);
  std::vector<_Float16> ha(kLanes), hb(kLanes);
  for (int l = 0; l < kLanes; ++l) {
    ha[l] = _Float16(a[l] / 1024.0f);
    hb[l] = _Float16(b[l] / 1024.0f);
    r.v(2)[l] = fbits(a[l]);
    r.v(3)[l] = 0xdead0000u | std::bit_cast<uint16_t>(ha[l]);
    r.v(4)[l] = 0xbeef0000u | std::bit_cast<uint16_t>(hb[l]);
    r.v(5)[l] = (uint32_t(std::bit_cast<uint16_t>(hb[l])) << 16) | std::bit_cast<uint16_t>(ha[l]);
  }
  auto h = [](uint32_t v) { return std::bit_cast<_Float16>(uint16_t(v)); };
  auto same16 = [&](uint32_t got, _Float16 want) {
    if (std::isnan(float(want))) return std::isnan(float(h(got)));
    return uint16_t(got) == std::bit_cast<uint16_t>(want);
  };
  r.run("v_cvt_f16_f32_e32 v1, v2");
  for (int l = 0; l < kLanes; ++l) {
    INFO("x=" << a[l]);
    REQUIRE(same16(r.v(1)[l], _Float16(a[l])));
    REQUIRE((r.v(1)[l] >> 16) == 0u);  // gfx9 zeroes the high half
  }
  r.run("v_cvt_f32_f16_e32 v1, v3");
  for (int l = 0; l < kLanes; ++l) REQUIRE(same_f32(r.v(1)[l], fbits(float(ha[l]))));
  r.run("v_add_f16_e32 v1, v3, v4");
  for (int l = 0; l < kLanes; ++l) REQUIRE(same16(r.v(1)[l], _Float16(ha[l] + hb[l])));
  r.run("v_mul_f16_e32 v1, v3, v4");
  for (int l = 0; l < kLanes; ++l) REQUIRE(same16(r.v(1)[l], _Float16(ha[l] * hb[l])));
  r.run("v_fma_f16 v1, v3, v4, v3");
  for (int l = 0; l < kLanes; ++l)
    REQUIRE(same16(r.v(1)[l], _Float16(std::fma(double(ha[l]), double(hb[l]), double(ha[l])))));
  // op_sel: take the high half of v5 (= hb) and write the high half of v1
  for (int l = 0; l < kLanes; ++l) r.v(1)[l] = 0x12345678u;
  r.run("v_fma_f16 v1, v5, v4, v4 op_sel:[1,0,0,1]");
  for (int l = 0; l < kLanes; ++l) {
    REQUIRE(same16(r.v(1)[l] >> 16, _Float16(std::fma(double(hb[l]), double(hb[l]), double(hb[l])))));
    REQUIRE((r.v(1)[l] & 0xffffu) == 0x5678u);
  }
  // min3/max3/med3 f16 preserve the high half when writing the low one
  std::vector<uint32_t> before(r.v(1), r.v(1) + kLanes);
  r.run("v_max3_f16 v1, v3, v4, v3");
  for (int l = 0; l < kLanes; ++l) {
    REQUIRE((r.v(1)[l] >> 16) == (before[l] >> 16));
    if (std::isnan(float(ha[l])) || std::isnan(float(hb[l])) || float(ha[l]) == float(hb[l])) continue;
    REQUIRE(same16(r.v(1)[l], ha[l] > hb[l] ? ha[l] : hb[l]));
  }
  r.run("v_cvt_pkrtz_f16_f32 v1, v2, v2");
  for (int l = 0; l < kLanes; ++l) {
    // round toward zero: never larger in magnitude than the value
    float x = a[l];
    float got = float(h(r.v(1)[l]));
    if (std::isnan(x)) { REQUIRE(std::isnan(got)); continue; }
    REQUIRE(std::fabs(got) <= std::fabs(x));
    REQUIRE((r.v(1)[l] >> 16) == (r.v(1)[l] & 0xffffu));
    if (std::fabs(x) < 65504.0f && std::fabs(x) > 1e-3f) REQUIRE(std::fabs(got - x) <= std::fabs(x) * 0x1p-10f);
  }
  r.run("v_pack_b32_f16 v1, v3, v4");
  for (int l = 0; l < kLanes; ++l) REQUIRE(r.v(1)[l] == ((r.v(4)[l] << 16) | (r.v(3)[l] & 0xffffu)));
  // packed f16
  r.run("v_pk_add_f16 v1, v5, v5");
  for (int l = 0; l < kLanes; ++l) {
    REQUIRE(same16(r.v(1)[l], _Float16(ha[l] + ha[l])));
    REQUIRE(same16(r.v(1)[l] >> 16, _Float16(hb[l] + hb[l])));
  }
  r.run("v_pk_mul_f16 v1, v5, v5 op_sel:[1,0] op_sel_hi:[0,1] neg_lo:[0,1]");
  for (int l = 0; l < kLanes; ++l) {
    REQUIRE(same16(r.v(1)[l], _Float16(hb[l] * -ha[l])));
    REQUIRE(same16(r.v(1)[l] >> 16, _Float16(ha[l] * hb[l])));
  }
  r.run("v_pk_fma_f16 v1, v5, v5, v5");
  for (int l = 0; l < kLanes; ++l) {
    REQUIRE(same16(r.v(1)[l], _Float16(std::fma(double(ha[l]), double(ha[l]), double(ha[l])))));
    REQUIRE(same16(r.v(1)[l] >> 16, _Float16(std::fma(double(hb[l]), double(hb[l]), double(hb[l])))));
  }
  r.run("v_dot2_f32_f16 v1, v5, v5, v2");
  for (int l = 0; l < kLanes; ++l) {
    double want = double(ha[l]) * double(ha[l]) + double(hb[l]) * double(hb[l]) + double(a[l]);
    REQUIRE(same_f32(r.v(1)[l], fbits(float(want))));
  }
}

TEST_CASE("fp8 and bf8 conversions (CDNA3 FNUZ formats)", "[valu][fp8]") {
  Rig r;
  // Every fp8/bf8 byte decodes to the value its fields describe.
  for (int l = 0; l < kLanes; ++l) r.v(2)[l] = uint32_t(l * 4) | (uint32_t(l * 4 + 1) << 8) | (uint32_t(l * 4 + 2) << 16) | (uint32_t(l * 4 + 3) << 24);
  auto fp8_value = [](int v, int mbits, int bias) -> float {
    if (v == 0x80) return NAN;
    int e = (v >> mbits) & ((1 << (7 - mbits)) - 1), m = v & ((1 << mbits) - 1);
    float mag = e == 0 ? std::ldexp(float(m), 1 - bias - mbits) : std::ldexp(1.0f + float(m) / float(1 << mbits), e - bias);
    return (v & 0x80) ? -mag : mag;
  };
  for (int byte = 0; byte < 4; ++byte) {
    r.run("v_cvt_f32_fp8_sdwa v1, v2 src0_sel:BYTE_" + std::to_string(byte));
    for (int l = 0; l < kLanes; ++l) REQUIRE(same_f32(r.v(1)[l], fbits(fp8_value(l * 4 + byte, 3, 8))));
    r.run("v_cvt_f32_bf8_sdwa v1, v2 src0_sel:BYTE_" + std::to_string(byte));
    for (int l = 0; l < kLanes; ++l) REQUIRE(same_f32(r.v(1)[l], fbits(fp8_value(l * 4 + byte, 2, 16))));
  }
  r.run("v_cvt_pk_f32_fp8_sdwa v[4:5], v2 src0_sel:WORD_1");
  for (int l = 0; l < kLanes; ++l) {
    REQUIRE(same_f32(r.v(4)[l], fbits(fp8_value(l * 4 + 2, 3, 8))));
    REQUIRE(same_f32(r.v(5)[l], fbits(fp8_value(l * 4 + 3, 3, 8))));
  }
  // Round trip: converting each representable fp8 value back gives the same byte (0x80 is
  // NaN; -0 does not exist, so 0 maps to 0).
  for (int l = 0; l < kLanes; ++l) {
    r.v(3)[l] = fbits(fp8_value(l * 2 == 0x80 ? 0 : l * 2, 3, 8));
    r.v(4)[l] = fbits(fp8_value(l * 2 + 1, 3, 8));
    r.v(1)[l] = 0xaabbccddu;
  }
  r.run("v_cvt_pk_fp8_f32 v1, v3, v4 op_sel:[0,0,1]");
  for (int l = 0; l < kLanes; ++l) {
    REQUIRE((r.v(1)[l] & 0xffffu) == 0xccddu);  // low word kept
    REQUIRE(((r.v(1)[l] >> 16) & 0xff) == uint32_t(l * 2 == 0x80 ? 0 : l * 2));
    REQUIRE((r.v(1)[l] >> 24) == uint32_t(l * 2 + 1));
  }
  // Nearest-even between neighbours, overflow to NaN, tiny to +0.
  for (int l = 0; l < kLanes; ++l) r.v(3)[l] = fbits(1.0f + 0.0625f), r.v(4)[l] = fbits(1.0f + 3 * 0.0625f);
  r.v(3)[1] = fbits(300.0f), r.v(3)[2] = fbits(-1e-9f), r.v(3)[3] = fbits(INFINITY);
  r.run("v_cvt_pk_fp8_f32 v1, v3, v4");
  REQUIRE((r.v(1)[0] & 0xff) == 0x40);  // 1.0625 halfway between 1.0 (0x40) and 1.125 (0x41) -> even
  REQUIRE(((r.v(1)[0] >> 8) & 0xff) == 0x42);  // 1.1875 between 1.125 (0x41) and 1.25 (0x42) -> even
  REQUIRE((r.v(1)[1] & 0xff) == 0x80);
  REQUIRE((r.v(1)[2] & 0xff) == 0x00);
  REQUIRE((r.v(1)[3] & 0xff) == 0x80);
  // Stochastic rounding: random 0 truncates, all-ones rounds any remainder up.
  for (int l = 0; l < kLanes; ++l) r.v(3)[l] = fbits(1.0f + 0.01f), r.v(4)[l] = l < 32 ? 0u : 0xffffffffu;
  r.run("v_cvt_sr_fp8_f32 v1, v3, v4 op_sel:[0,0,1,1]");
  for (int l = 0; l < kLanes; ++l) REQUIRE((r.v(1)[l] >> 24) == (l < 32 ? 0x40u : 0x41u));
  r.run("v_cvt_sr_bf8_f32 v1, v3, v4");
  for (int l = 0; l < kLanes; ++l) REQUIRE((r.v(1)[l] & 0xff) == (l < 32 ? 0x40u : 0x41u));
}

TEST_CASE("DPP permutations follow the documented lane patterns", "[valu][dpp]") {
  Rig r;
  for (int l = 0; l < kLanes; ++l) r.v(2)[l] = 100 + l;
  struct Case {
    std::string ctrl;
    std::function<int(int)> src;  // source lane or -1
  };
  std::vector<Case> cases = {
      {"quad_perm:[1,0,3,2]", [](int l) { return (l & ~3) | ((l & 3) ^ 1); }},
      {"quad_perm:[3,3,0,1]", [](int l) { int p[4] = {3, 3, 0, 1}; return (l & ~3) | p[l & 3]; }},
      {"row_shl:1", [](int l) { return (l & 15) + 1 > 15 ? -1 : l + 1; }},
      {"row_shl:15", [](int l) { return (l & 15) + 15 > 15 ? -1 : l + 15; }},
      {"row_shr:3", [](int l) { return (l & 15) < 3 ? -1 : l - 3; }},
      {"row_ror:5", [](int l) { return (l & ~15) | (((l & 15) + 16 - 5) & 15); }},
      {"wave_shl:1", [](int l) { return l == 63 ? -1 : l + 1; }},
      {"wave_shr:1", [](int l) { return l == 0 ? -1 : l - 1; }},
      {"wave_rol:1", [](int l) { return (l + 1) % 64; }},
      {"wave_ror:1", [](int l) { return (l + 63) % 64; }},
      {"row_mirror", [](int l) { return (l & ~15) | (15 - (l & 15)); }},
      {"row_half_mirror", [](int l) { return (l & ~7) | (7 - (l & 7)); }},
      {"row_bcast:15", [](int l) { return l < 16 ? -1 : (l & ~15) - 1; }},
      {"row_bcast:31", [](int l) { return l < 32 ? -1 : 31; }},
  };
  for (auto& c : cases) {
    for (bool bc : {false, true}) {
      for (int l = 0; l < kLanes; ++l) r.v(1)[l] = 7;
      std::string text = "v_mov_b32_dpp v1, v2 " + c.ctrl + " row_mask:0xf bank_mask:0xf" + (bc ? " bound_ctrl:1" : "");
      r.run(text);
      for (int l = 0; l < kLanes; ++l) {
        int s = c.src(l);
        uint32_t want = s < 0 ? (bc ? 0u : 7u) : uint32_t(100 + s);
        INFO(text << " lane " << l);
        REQUIRE(r.v(1)[l] == want);
      }
    }
  }
  // row_mask / bank_mask disable writes; inactive source lanes read as out of range
  for (int l = 0; l < kLanes; ++l) r.v(1)[l] = 7;
  r.run("v_mov_b32_dpp v1, v2 quad_perm:[0,1,2,3] row_mask:0x5 bank_mask:0x3");
  for (int l = 0; l < kLanes; ++l) {
    bool on = ((0x5 >> (l / 16)) & 1) && ((0x3 >> ((l / 4) & 3)) & 1);
    REQUIRE(r.v(1)[l] == (on ? uint32_t(100 + l) : 7u));
  }
  r.w.exec = ~0ull & ~(1ull << 5);
  for (int l = 0; l < kLanes; ++l) r.v(1)[l] = 7;
  r.run("v_mov_b32_dpp v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf");
  REQUIRE(r.v(1)[6] == 7u);   // its source lane 5 is inactive
  REQUIRE(r.v(1)[5] == 7u);   // itself inactive
  REQUIRE(r.v(1)[7] == 106u);
  r.w.exec = ~0ull;
  // DPP on src0 of a VOP2 op with modifiers
  for (int l = 0; l < kLanes; ++l) r.v(3)[l] = fbits(float(l)), r.v(4)[l] = fbits(1.5f);
  r.run("v_add_f32_dpp v1, -v3, v4 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1");
  for (int l = 0; l < kLanes; ++l) {
    float src = (l & 15) == 0 ? 0.0f : float(l - 1);
    REQUIRE(bitsf(r.v(1)[l]) == -src + 1.5f);
  }
  // 64-bit DPP (gfx90a+: row_newbcast)
  for (int l = 0; l < kLanes; ++l) r.v(6)[l] = l, r.v(7)[l] = 1000 + l;
  r.run("v_mov_b64_dpp v[8:9], v[6:7] row_newbcast:3 row_mask:0xf bank_mask:0xf");
  for (int l = 0; l < kLanes; ++l) {
    REQUIRE(r.v(8)[l] == uint32_t((l & ~15) + 3));
    REQUIRE(r.v(9)[l] == uint32_t(1000 + (l & ~15) + 3));
  }
}

TEST_CASE("SDWA selects sources and places results", "[valu][sdwa]") {
  Rig r;
  auto a = edge_u32(80), b = edge_u32(81);
  for (int l = 0; l < kLanes; ++l) r.v(2)[l] = a[l], r.v(3)[l] = b[l], r.v(1)[l] = 0x11223344u;
  r.run("v_add_u32_sdwa v1, v2, v3 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0 src1_sel:WORD_1");
  for (int l = 0; l < kLanes; ++l) {
    uint32_t s = (a[l] & 0xff) + (b[l] >> 16);
    REQUIRE(r.v(1)[l] == ((s & 0xffffu) << 16 | 0x3344u));
  }
  r.run("v_mov_b32_sdwa v1, sext(v2) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1");
  for (int l = 0; l < kLanes; ++l) REQUIRE(r.v(1)[l] == uint32_t(int32_t(int8_t(a[l] >> 8))));
  r.run("v_mov_b32_sdwa v1, v2 dst_sel:BYTE_2 dst_unused:UNUSED_SEXT src0_sel:BYTE_3");
  for (int l = 0; l < kLanes; ++l) {
    uint32_t byte = a[l] >> 24;
    REQUIRE(r.v(1)[l] == ((byte << 16) | ((byte & 0x80) ? 0xff000000u : 0u)));
  }
  r.run("v_mov_b32_sdwa v1, v2 dst_sel:WORD_0 dst_unused:UNUSED_PAD src0_sel:WORD_1");
  for (int l = 0; l < kLanes; ++l) REQUIRE(r.v(1)[l] == (a[l] >> 16));
  // VOPC with SDWA into an SGPR pair
  r.run("v_cmp_eq_u32_sdwa s[2:3], v2, v3 src0_sel:WORD_1 src1_sel:WORD_1");
  uint64_t m = 0;
  for (int l = 0; l < kLanes; ++l) m |= uint64_t((a[l] >> 16) == (b[l] >> 16)) << l;
  REQUIRE((r.w.sgpr[2] | (uint64_t(r.w.sgpr[3]) << 32)) == m);
}

TEST_CASE("lane ops: readlane, readfirstlane, writelane", "[valu][lane]") {
  Rig r;
  for (int l = 0; l < kLanes; ++l) r.v(2)[l] = 500 + l, r.v(3)[l] = 0;
  r.w.sgpr[4] = 37;
  r.run("v_readlane_b32 s1, v2, s4");
  REQUIRE(r.w.sgpr[1] == 537u);
  r.run("v_readlane_b32 s1, v2, 63");
  REQUIRE(r.w.sgpr[1] == 563u);
  r.w.exec = 0xfff0000000000000ull;
  r.run("v_readfirstlane_b32 s1, v2");
  REQUIRE(r.w.sgpr[1] == 552u);
  r.w.sgpr[6] = 0x777;
  r.run("v_writelane_b32 v3, s6, 4");  // ignores EXEC
  REQUIRE(r.v(3)[4] == 0x777u);
  REQUIRE(r.v(3)[5] == 0u);
}

TEST_CASE("lane ops: mbcnt, accvgpr moves, cndmask", "[valu][lane]") {
  Rig r;
  for (int l = 0; l < kLanes; ++l) r.v(2)[l] = 500 + l, r.v(3)[l] = 0;
  r.w.sgpr[4] = 37;
  r.w.exec = 0xf0f0f0f0f0f0f0f0ull;
  r.run("v_mbcnt_lo_u32_b32 v5, exec_lo, 0");
  r.run("v_mbcnt_hi_u32_b32 v5, exec_hi, v5");
  for (int l = 0; l < kLanes; ++l)
    if ((r.w.exec >> l) & 1) REQUIRE(r.v(5)[l] == uint32_t(std::popcount(r.w.exec & ((1ull << l) - 1))));
  r.w.exec = ~0ull;
  r.run("v_accvgpr_write_b32 a7, v2");
  for (int l = 0; l < kLanes; ++l) REQUIRE(r.a(7)[l] == uint32_t(500 + l));
  r.run("v_accvgpr_mov_b32 a8, a7");
  r.run("v_accvgpr_read_b32 v9, a8");
  for (int l = 0; l < kLanes; ++l) REQUIRE(r.v(9)[l] == uint32_t(500 + l));
  r.run("v_accvgpr_write_b32 a8, 5");
  REQUIRE(r.a(8)[17] == 5u);
  r.run("v_cndmask_b32_e64 v10, v2, 1.0, s[4:5]");  // s4 = 37 selects lanes 0, 2, 5
  for (int l = 0; l < kLanes; ++l) {
    bool sel = l < 32 ? ((37u >> l) & 1) : ((r.w.sgpr[5] >> (l - 32)) & 1);
    REQUIRE(r.v(10)[l] == (sel ? fbits(1.0f) : uint32_t(500 + l)));
  }
}

TEST_CASE("integer dot products and packed integer ops", "[valu][packed]") {
  Rig r;
  auto a = edge_u32(90), b = edge_u32(91), c = edge_u32(92);
  for (int l = 0; l < kLanes; ++l) r.v(2)[l] = a[l], r.v(3)[l] = b[l], r.v(4)[l] = c[l];
  r.run("v_dot4_i32_i8 v1, v2, v3, v4");
  for (int l = 0; l < kLanes; ++l) {
    int32_t s = int32_t(c[l]);
    for (int i = 0; i < 4; ++i) s += int32_t(int8_t(a[l] >> (8 * i))) * int8_t(b[l] >> (8 * i));
    REQUIRE(int32_t(r.v(1)[l]) == s);
  }
  r.run("v_dot8_u32_u4 v1, v2, v3, v4");
  for (int l = 0; l < kLanes; ++l) {
    uint32_t s = c[l];
    for (int i = 0; i < 8; ++i) s += ((a[l] >> (4 * i)) & 15) * ((b[l] >> (4 * i)) & 15);
    REQUIRE(r.v(1)[l] == s);
  }
  r.run("v_pk_add_u16 v1, v2, v3");
  for (int l = 0; l < kLanes; ++l)
    REQUIRE(r.v(1)[l] == (((a[l] + b[l]) & 0xffffu) | (((a[l] >> 16) + (b[l] >> 16)) << 16)));
  r.run("v_pk_mad_u16 v1, v2, v3, v4");
  for (int l = 0; l < kLanes; ++l) {
    uint32_t lo = ((a[l] & 0xffff) * (b[l] & 0xffff) + (c[l] & 0xffff)) & 0xffff;
    uint32_t hi = ((a[l] >> 16) * (b[l] >> 16) + (c[l] >> 16)) & 0xffff;
    REQUIRE(r.v(1)[l] == (lo | hi << 16));
  }
  r.run("v_pk_lshlrev_b16 v1, v2, v3");
  for (int l = 0; l < kLanes; ++l) {
    uint32_t lo = ((b[l] & 0xffff) << (a[l] & 15)) & 0xffff, hi = ((b[l] >> 16) << ((a[l] >> 16) & 15)) & 0xffff;
    REQUIRE(r.v(1)[l] == (lo | hi << 16));
  }
  // f32 pairs
  for (int l = 0; l < kLanes; ++l)
    r.v(6)[l] = fbits(float(l)), r.v(7)[l] = fbits(float(2 * l)), r.v(8)[l] = fbits(0.5f), r.v(9)[l] = fbits(-3.0f);
  r.run("v_pk_fma_f32 v[10:11], v[6:7], v[8:9], v[6:7]");
  for (int l = 0; l < kLanes; ++l) {
    REQUIRE(bitsf(r.v(10)[l]) == std::fma(float(l), 0.5f, float(l)));
    REQUIRE(bitsf(r.v(11)[l]) == std::fma(float(2 * l), -3.0f, float(2 * l)));
  }
  r.run("v_pk_mul_f32 v[10:11], v[6:7], v[8:9] op_sel:[1,0] op_sel_hi:[0,1] neg_hi:[0,1]");
  for (int l = 0; l < kLanes; ++l) {
    REQUIRE(bitsf(r.v(10)[l]) == float(2 * l) * 0.5f);
    REQUIRE(bitsf(r.v(11)[l]) == float(l) * 3.0f);
  }
  r.run("v_pk_mov_b32 v[10:11], v[6:7], v[8:9] op_sel:[1,0]");
  for (int l = 0; l < kLanes; ++l) {
    REQUIRE(r.v(10)[l] == r.v(7)[l]);
    REQUIRE(r.v(11)[l] == r.v(8)[l]);
  }
  // fma_mix: f16 source (op_sel_hi) times f32
  for (int l = 0; l < kLanes; ++l) r.v(12)[l] = uint32_t(std::bit_cast<uint16_t>(_Float16(float(l) * 0.25f))) << 16;
  r.run("v_fma_mix_f32 v1, v12, v6, v8 op_sel:[1,0,0] op_sel_hi:[1,0,0]");
  for (int l = 0; l < kLanes; ++l) REQUIRE(bitsf(r.v(1)[l]) == std::fma(float(l) * 0.25f, float(l), 0.5f));
}

TEST_CASE("float division helpers reproduce IEEE division in clang's sequence", "[valu][div]") {
  // The sequence clang-22 emits for a / b (f32, denormals on): every step is a single VALU
  // instruction run here; the result must equal the host's correctly rounded a / b.
  // Every pair of edge values (overflowing, underflowing into denormals, inf, NaN, zero),
  // then random lanes.
  std::vector<float> e = {0.0f, -0.0f, 1.0f, -3.0f, 0.1f, 1e30f, -1e30f, 3.4e38f, 1.17549435e-38f,
                          1e-40f, -7e-45f, 1e-30f, INFINITY, -INFINITY, NAN, 7.0f, 1e20f, 2e-20f,
                          123.456f, 1.5e-39f, 8.5e37f, 6e-8f,
                          0x1.8p-148f, 6.0f};  // 3*2^-149 / 6 = 2^-150: a tie that rounds to 0
  std::vector<float> xs, ys;
  for (float x : e)
    for (float y : e) xs.push_back(x), ys.push_back(y);
  auto ra = edge_f32(100), rb = edge_f32(101);
  xs.insert(xs.end(), ra.begin(), ra.end());
  ys.insert(ys.end(), rb.begin(), rb.end());
  while (xs.size() % kLanes) xs.push_back(1.0f), ys.push_back(3.0f);
  for (size_t base = 0; base < xs.size(); base += kLanes) {
  Rig r;
  std::vector<float> a(xs.begin() + base, xs.begin() + base + kLanes), b(ys.begin() + base, ys.begin() + base + kLanes);
  for (int l = 0; l < kLanes; ++l) r.v(0)[l] = fbits(a[l]), r.v(1)[l] = fbits(b[l]);
  const char* seq[] = {
      "v_div_scale_f32 v2, s[0:1], v1, v1, v0",
      "v_div_scale_f32 v3, vcc, v0, v1, v0",
      "v_rcp_f32_e32 v4, v2",
      "v_fma_f32 v5, -v2, v4, 1.0",
      "v_fmac_f32_e32 v4, v5, v4",
      "v_mul_f32_e32 v5, v3, v4",
      "v_fma_f32 v6, -v2, v5, v3",
      "v_fmac_f32_e32 v5, v6, v4",
      "v_fma_f32 v2, -v2, v5, v3",
      "v_div_fmas_f32 v2, v2, v4, v5",
      "v_div_fixup_f32 v7, v2, v1, v0",
  };
  for (const char* s : seq) r.run(s);
  for (int l = 0; l < kLanes; ++l) {
    INFO("a=" << a[l] << " b=" << b[l] << " got " << bitsf(r.v(7)[l]));
    REQUIRE(same_f32(r.v(7)[l], fbits(a[l] / b[l])));
  }
  }
}

TEST_CASE("f64 division helpers reproduce IEEE division in clang's sequence", "[valu][div]") {
  // clang-22's f64 a / b for gfx942 (from its -O3 output): num in v[6:7], den in v[8:9].
  std::vector<double> e = {0.0, -0.0, 1.0, -3.0, 0.1, 1e300, -1e300, 1.7976931348623157e308,
                           2.2250738585072014e-308, 4.9e-324, -1e-310, 1e-300, INFINITY, -INFINITY, NAN,
                           7.0, 1e150, 2e-150, 123.456, 8.9e307, 6e-17,
                           0x1.8p-1073, 6.0};  // 3*2^-1074 / 6 = 2^-1075: a tie that rounds to 0
  std::vector<double> xs, ys;
  for (double x : e)
    for (double y : e) xs.push_back(x), ys.push_back(y);
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> ex(-1000.0, 1000.0), sg(-1.0, 1.0);
  while (xs.size() % kLanes || xs.size() < 1024)
    xs.push_back(std::copysign(std::exp2(ex(rng)), sg(rng))), ys.push_back(std::copysign(std::exp2(ex(rng)), sg(rng)));
  const char* seq[] = {
      "v_div_scale_f64 v[4:5], s[2:3], v[8:9], v[8:9], v[6:7]",
      "v_rcp_f64_e32 v[16:17], v[4:5]",
      "v_fma_f64 v[14:15], -v[4:5], v[16:17], 1.0",
      "v_fmac_f64_e32 v[16:17], v[16:17], v[14:15]",
      "v_fma_f64 v[22:23], -v[4:5], v[16:17], 1.0",
      "v_div_scale_f64 v[12:13], vcc, v[6:7], v[8:9], v[6:7]",
      "v_fmac_f64_e32 v[16:17], v[16:17], v[22:23]",
      "v_mul_f64 v[22:23], v[12:13], v[16:17]",
      "v_fma_f64 v[4:5], -v[4:5], v[22:23], v[12:13]",
      "v_div_fmas_f64 v[4:5], v[4:5], v[16:17], v[22:23]",
      "v_div_fixup_f64 v[4:5], v[4:5], v[8:9], v[6:7]",
  };
  for (size_t base = 0; base < xs.size(); base += kLanes) {
    Rig r;
    for (int l = 0; l < kLanes; ++l) {
      uint64_t x = dbits(xs[base + l]), y = dbits(ys[base + l]);
      r.v(6)[l] = uint32_t(x), r.v(7)[l] = uint32_t(x >> 32), r.v(8)[l] = uint32_t(y), r.v(9)[l] = uint32_t(y >> 32);
    }
    for (const char* s : seq) r.run(s);
    for (int l = 0; l < kLanes; ++l) {
      double got = bitsd(r.v(4)[l] | (uint64_t(r.v(5)[l]) << 32)), want = xs[base + l] / ys[base + l];
      INFO("a=" << xs[base + l] << " b=" << ys[base + l] << " got " << got);
      REQUIRE(((std::isnan(got) && std::isnan(want)) || dbits(got) == dbits(want)));
    }
  }
}

TEST_CASE("MODE: f32 denormals flushed when FP_DENORM says so; omod and clamp", "[valu][mode]") {
  Rig r;
  r.w.mode = (1u << 8) | (1u << 9) | (3u << 6);  // f32 denormals flushed, f16/f64 kept
  const float tiny = 1e-40f, small = 1e-20f;
  for (int l = 0; l < kLanes; ++l) r.v(2)[l] = fbits(l % 2 ? tiny : -tiny), r.v(3)[l] = fbits(small);
  r.run("v_add_f32_e32 v1, v2, v3");  // a denormal input counts as a signed zero
  for (int l = 0; l < kLanes; ++l) REQUIRE(bitsf(r.v(1)[l]) == small);
  r.run("v_mul_f32_e32 v1, v3, v3");  // 1e-40: a denormal result is flushed to +0
  for (int l = 0; l < kLanes; ++l) REQUIRE(r.v(1)[l] == 0u);
  r.run("v_add_f32_e32 v1, v2, v2");  // -0 + -0 = -0 for the negative lanes
  for (int l = 0; l < kLanes; ++l) REQUIRE(r.v(1)[l] == (l % 2 ? 0u : 0x80000000u));
  // f64 keeps denormals in this mode
  for (int l = 0; l < kLanes; ++l) r.v(4)[l] = 1, r.v(5)[l] = 0;  // smallest f64 denormal
  r.run("v_add_f64 v[6:7], v[4:5], v[4:5]");
  for (int l = 0; l < kLanes; ++l) REQUIRE((r.v(6)[l] | (uint64_t(r.v(7)[l]) << 32)) == 2u);
  // output modifiers
  r.w.mode = 0xf0u | (1u << 8) | (1u << 9);
  for (int l = 0; l < kLanes; ++l) r.v(2)[l] = fbits(float(l) - 10.5f), r.v(3)[l] = fbits(0.25f);
  r.run("v_mul_f32_e64 v1, v2, v3 div:2");
  for (int l = 0; l < kLanes; ++l) REQUIRE(bitsf(r.v(1)[l]) == (float(l) - 10.5f) * 0.25f * 0.5f);
  r.run("v_mul_f32_e64 v1, v2, v3 clamp mul:4");
  for (int l = 0; l < kLanes; ++l) REQUIRE(bitsf(r.v(1)[l]) == std::clamp((float(l) - 10.5f), 0.0f, 1.0f));
  for (int l = 0; l < kLanes; ++l) r.v(2)[l] = std::bit_cast<uint16_t>(_Float16(float(l) / 16.0f - 1.0f));
  r.run("v_add_f16_e64 v1, v2, v2 clamp");
  for (int l = 0; l < kLanes; ++l)
    REQUIRE(r.v(1)[l] == std::bit_cast<uint16_t>(_Float16(std::clamp(2.0f * (float(l) / 16.0f - 1.0f), 0.0f, 1.0f))));
}

TEST_CASE("64-bit integer compares and f16/f64 class", "[valu][cmp]") {
  Rig r;
  std::mt19937_64 rng(44);
  std::vector<uint64_t> a(kLanes), b(kLanes);
  for (int l = 0; l < kLanes; ++l) {
    a[l] = rng() >> (rng() % 64);
    b[l] = l % 5 == 0 ? a[l] : (rng() >> (rng() % 64)) * ((rng() & 1) ? 1 : uint64_t(-1));
    r.v(2)[l] = uint32_t(a[l]), r.v(3)[l] = uint32_t(a[l] >> 32), r.v(4)[l] = uint32_t(b[l]), r.v(5)[l] = uint32_t(b[l] >> 32);
  }
  auto mask = [&](auto pred) {
    uint64_t m = 0;
    for (int l = 0; l < kLanes; ++l) m |= uint64_t(pred(a[l], b[l])) << l;
    return m;
  };
  r.run("v_cmp_lt_i64_e32 vcc, v[2:3], v[4:5]");
  REQUIRE(r.w.vcc == mask([](uint64_t x, uint64_t y) { return int64_t(x) < int64_t(y); }));
  r.run("v_cmp_ge_u64_e64 s[6:7], v[2:3], v[4:5]");
  REQUIRE((r.w.sgpr[6] | (uint64_t(r.w.sgpr[7]) << 32)) == mask([](uint64_t x, uint64_t y) { return x >= y; }));
  r.run("v_cmp_eq_u64_e32 vcc, v[2:3], v[4:5]");
  REQUIRE(r.w.vcc == mask([](uint64_t x, uint64_t y) { return x == y; }));
  // class: bit 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal,
  // 8 +normal, 9 +inf
  const double dv[10] = {std::bit_cast<double>(0x7ff0000000000001ull), NAN, -INFINITY, -1.5, -4.9e-324,
                         -0.0, 0.0, 4.9e-324, 2.0, INFINITY};
  const uint16_t hv[10] = {0x7c01, 0x7e00, 0xfc00, 0xbc00, 0x8001, 0x8000, 0x0000, 0x0001, 0x4000, 0x7c00};
  for (int l = 0; l < kLanes; ++l) {
    uint64_t d = std::bit_cast<uint64_t>(dv[l % 10]);
    r.v(2)[l] = uint32_t(d), r.v(3)[l] = uint32_t(d >> 32), r.v(8)[l] = hv[l % 10];
    r.v(9)[l] = 1u << (l / 10 % 10);
  }
  uint64_t want = 0;
  for (int l = 0; l < kLanes; ++l) want |= uint64_t(l % 10 == l / 10 % 10) << l;
  r.run("v_cmp_class_f64_e32 vcc, v[2:3], v9");
  REQUIRE(r.w.vcc == want);
  r.run("v_cmp_class_f16_e32 vcc, v8, v9");
  REQUIRE(r.w.vcc == want);
}

TEST_CASE("less common integer ops follow the ISA pseudocode", "[valu][int]") {
  auto absd = [](uint32_t x, uint32_t y) { return x > y ? x - y : y - x; };
  check_u3("v_sad_hi_u8 v1, v2, v3, v4", [&](uint32_t a, uint32_t b, uint32_t c) {
    uint32_t s = 0;
    for (int i = 0; i < 4; ++i) s += absd((a >> 8 * i) & 255, (b >> 8 * i) & 255);
    return (s << 16) + c; });
  check_u3("v_sad_u16 v1, v2, v3, v4", [&](uint32_t a, uint32_t b, uint32_t c) {
    return c + absd(a & 0xffff, b & 0xffff) + absd(a >> 16, b >> 16); });
  check_u3("v_sad_u32 v1, v2, v3, v4", [&](uint32_t a, uint32_t b, uint32_t c) { return absd(a, b) + c; });
  check_u3("v_msad_u8 v1, v2, v3, v4", [&](uint32_t a, uint32_t b, uint32_t c) {
    uint32_t s = c;
    for (int i = 0; i < 4; ++i)
      if ((b >> 8 * i) & 255) s += absd((a >> 8 * i) & 255, (b >> 8 * i) & 255);
    return s; });
  check_u3("v_lerp_u8 v1, v2, v3, v4", [](uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r = 0;
    for (int i = 0; i < 4; ++i)
      r |= ((((a >> 8 * i) & 255) + ((b >> 8 * i) & 255) + ((c >> 8 * i) & 1)) >> 1) << 8 * i;
    return r; });
  check_u3("v_mad_u32_u16 v1, v2, v3, v4", [](uint32_t a, uint32_t b, uint32_t c) { return (a & 0xffff) * (b & 0xffff) + c; });
  check_u3("v_mad_u32_u16 v1, v2, v3, v4 op_sel:[1,1,0,0]", [](uint32_t a, uint32_t b, uint32_t c) { return (a >> 16) * (b >> 16) + c; });
  check_u3("v_mad_i32_i16 v1, v2, v3, v4", [](uint32_t a, uint32_t b, uint32_t c) {
    return uint32_t(int32_t(int16_t(a)) * int16_t(b)) + c; });
  check_u2("v_cvt_pk_i16_i32 v1, v2, v3", [](uint32_t a, uint32_t b) {
    auto s = [](uint32_t v) { return uint32_t(uint16_t(std::clamp(int32_t(v), -32768, 32767))); };
    return s(a) | s(b) << 16; });
  check_u3("v_med3_u16 v1, v2, v3, v4", [](uint32_t a, uint32_t b, uint32_t c) {
    uint16_t x[3] = {uint16_t(a), uint16_t(b), uint16_t(c)};
    std::sort(x, x + 3);
    return x[1] | 0u; });  // v1 starts at 0: the kept high half is 0
  check_u3("v_dot2_u32_u16 v1, v2, v3, v4", [](uint32_t a, uint32_t b, uint32_t c) {
    return c + (a & 0xffff) * (b & 0xffff) + (a >> 16) * (b >> 16); });
  check_u3("v_dot8_i32_i4 v1, v2, v3, v4", [](uint32_t a, uint32_t b, uint32_t c) {
    int32_t s = int32_t(c);
    for (int i = 0; i < 8; ++i) s += (int32_t(a << (28 - 4 * i)) >> 28) * (int32_t(b << (28 - 4 * i)) >> 28);
    return uint32_t(s); });
  check_u2("v_pk_max_i16 v1, v2, v3", [](uint32_t a, uint32_t b) {
    return uint32_t(uint16_t(std::max(int16_t(a), int16_t(b)))) | uint32_t(uint16_t(std::max(int16_t(a >> 16), int16_t(b >> 16)))) << 16; });
  check_u2("v_pk_sub_i16 v1, v2, v3 clamp", [](uint32_t a, uint32_t b) {
    auto s = [](int v) { return uint32_t(uint16_t(std::clamp(v, -32768, 32767))); };
    return s(int16_t(a) - int16_t(b)) | s(int16_t(a >> 16) - int16_t(b >> 16)) << 16; });
  check_u2("v_pk_ashrrev_i16 v1, v2, v3", [](uint32_t a, uint32_t b) {
    return uint32_t(uint16_t(int16_t(b) >> (a & 15))) | uint32_t(uint16_t(int16_t(b >> 16) >> ((a >> 16) & 15))) << 16; });
  // 64-bit windows: v_qsad_pk_u16_u8
  Rig r;
  auto a = edge_u32(120), b = edge_u32(121), c = edge_u32(122), d = edge_u32(123), s = edge_u32(124);
  for (int l = 0; l < kLanes; ++l) r.v(2)[l] = a[l], r.v(3)[l] = b[l], r.v(4)[l] = s[l], r.v(6)[l] = c[l], r.v(7)[l] = d[l];
  r.run("v_qsad_pk_u16_u8 v[8:9], v[2:3], v4, v[6:7]");
  for (int l = 0; l < kLanes; ++l) {
    uint64_t src = a[l] | (uint64_t(b[l]) << 32), acc = c[l] | (uint64_t(d[l]) << 32), want = 0;
    for (int q = 0; q < 4; ++q) {
      uint32_t win = uint32_t(src >> (8 * q)), sum = uint32_t(acc >> (16 * q)) & 0xffff;
      for (int i = 0; i < 4; ++i) sum += absd((win >> 8 * i) & 255, (s[l] >> 8 * i) & 255);
      want |= uint64_t(sum & 0xffff) << (16 * q);
    }
    REQUIRE((r.v(8)[l] | (uint64_t(r.v(9)[l]) << 32)) == want);
  }
}

TEST_CASE("less common float ops follow the ISA pseudocode", "[valu][f32]") {
  Rig r;
  std::mt19937 rng(130);
  std::uniform_real_distribution<float> d(-4.0f, 4.0f);
  std::vector<float> x(kLanes), y(kLanes), z(kLanes);
  for (int l = 0; l < kLanes; ++l) {
    x[l] = d(rng), y[l] = d(rng), z[l] = d(rng);
    r.v(2)[l] = fbits(x[l]), r.v(3)[l] = fbits(y[l]), r.v(4)[l] = fbits(z[l]);
  }
  // cube map: face 4/5 when |z| is the major axis, 2/3 for y, 0/1 for x
  r.run("v_cubeid_f32 v1, v2, v3, v4");
  for (int l = 0; l < kLanes; ++l) {
    float ax = std::fabs(x[l]), ay = std::fabs(y[l]), az = std::fabs(z[l]);
    float want = (az >= ax && az >= ay) ? (z[l] < 0 ? 5.0f : 4.0f) : (ay >= ax ? (y[l] < 0 ? 3.0f : 2.0f) : (x[l] < 0 ? 1.0f : 0.0f));
    REQUIRE(bitsf(r.v(1)[l]) == want);
  }
  r.run("v_cubema_f32 v1, v2, v3, v4");
  for (int l = 0; l < kLanes; ++l) {
    float ax = std::fabs(x[l]), ay = std::fabs(y[l]), az = std::fabs(z[l]);
    float want = 2.0f * ((az >= ax && az >= ay) ? z[l] : (ay >= ax ? y[l] : x[l]));
    REQUIRE(bitsf(r.v(1)[l]) == want);
  }
  // snorm/unorm packing: clamp to [-1,1] / [0,1], scale, round to nearest
  r.run("v_cvt_pknorm_i16_f32 v1, v2, v3");
  for (int l = 0; l < kLanes; ++l) {
    // the exact product rounded to nearest
    auto sn = [](float v) { return uint32_t(uint16_t(int16_t(std::nearbyint(std::clamp(double(v), -1.0, 1.0) * 32767.0)))); };
    REQUIRE(r.v(1)[l] == (sn(x[l]) | sn(y[l]) << 16));
  }
  r.run("v_cvt_pknorm_u16_f32 v1, v2, v3");
  for (int l = 0; l < kLanes; ++l) {
    auto un = [](float v) { return uint32_t(std::nearbyint(std::clamp(double(v), 0.0, 1.0) * 65535.0)); };
    REQUIRE(r.v(1)[l] == (un(x[l]) | un(y[l]) << 16));
  }
  // fma_mix with f16 outputs into either half
  for (int l = 0; l < kLanes; ++l) r.v(1)[l] = 0xabcd1234u;
  r.run("v_fma_mixhi_f16 v1, v2, v3, v4");
  for (int l = 0; l < kLanes; ++l) {
    REQUIRE((r.v(1)[l] & 0xffffu) == 0x1234u);
    REQUIRE((r.v(1)[l] >> 16) == std::bit_cast<uint16_t>(_Float16(std::fma(double(x[l]), double(y[l]), double(z[l])))));
  }
  // f64 helpers
  for (int l = 0; l < kLanes; ++l) {
    double v = double(x[l]) * 1e10;
    r.v(6)[l] = uint32_t(dbits(v)), r.v(7)[l] = uint32_t(dbits(v) >> 32), r.v(10)[l] = uint32_t(l - 32);
  }
  r.run("v_ldexp_f64 v[8:9], v[6:7], v10");
  for (int l = 0; l < kLanes; ++l)
    REQUIRE(bitsd(r.v(8)[l] | (uint64_t(r.v(9)[l]) << 32)) == std::ldexp(double(x[l]) * 1e10, l - 32));
  r.run("v_frexp_exp_i32_f64_e32 v8, v[6:7]");
  for (int l = 0; l < kLanes; ++l) {
    int e;
    std::frexp(double(x[l]) * 1e10, &e);
    REQUIRE(int32_t(r.v(8)[l]) == e);
  }
  r.run("v_fract_f64_e32 v[8:9], v[6:7]");
  for (int l = 0; l < kLanes; ++l) {
    double v = double(x[l]) * 1e10;
    REQUIRE(bitsd(r.v(8)[l] | (uint64_t(r.v(9)[l]) << 32)) == v - std::floor(v));
  }
  // v_trig_preop_f64: segment 0 for a small input is 2/pi truncated to 53 bits
  for (int l = 0; l < kLanes; ++l) r.v(6)[l] = 0, r.v(7)[l] = 0x3ff00000u, r.v(10)[l] = 0;
  r.run("v_trig_preop_f64 v[8:9], v[6:7], v10");
  const long double two_over_pi = 0.636619772367581343075535053490057448L;
  const double seg0 = std::ldexp(std::floor(std::ldexp((long double)two_over_pi, 53)), -53);
  REQUIRE(bitsd(r.v(8)[0] | (uint64_t(r.v(9)[0]) << 32)) == seg0);
}

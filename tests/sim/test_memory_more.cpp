// Memory instructions that had no semantics before: typed buffer loads/stores (format from
// the V#, including the scaled number formats and the packed 10/11-bit data formats),
// ds_append/ds_consume, ds_condxchg32_rtn_b64, ds_wrap_rtn_b32, s_atc_probe* (no-ops);
// s_scratch_* are in test_legacy.cpp. Instructions are encoded by llvm-mc-22 and decoded by the
// simulator's decoder (so the operand layout is the loader's); results are checked against
// plain C++ references; the checker must see their pending results.
#include <catch2/catch.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <regex>
#include <sstream>

#include "decode.hpp"
#include "assemble_one.hpp"
#include "memory/harness.hpp"

using namespace simtest;
using hipasm::sim::error;

namespace {

void set_lanes(Wave& w, int reg, auto f) {
  for (int l = 0; l < kLanes; ++l) w.v(reg)[l] = uint32_t(f(l));
}

// V# in s[4:7]: raw (stride 0) or structured, DATA_FORMAT / NUM_FORMAT in word 3.
enum { UNORM = 0, SNORM = 1, USCALED = 2, SSCALED = 3, UINT = 4, SINT = 5, FLOAT = 7 };
void set_vsharp(Wave& w, uint64_t base, uint32_t stride, uint32_t num_records, uint32_t dfmt, uint32_t nfmt) {
  w.sgpr[4] = uint32_t(base);
  w.sgpr[5] = (uint32_t(base >> 32) & 0xffff) | (stride << 16);
  w.sgpr[6] = num_records;
  w.sgpr[7] = (dfmt << 15) | (nfmt << 12);
}

float f32(uint32_t b) { return std::bit_cast<float>(b); }
uint32_t b32(float f) { return std::bit_cast<uint32_t>(f); }
uint16_t h16(float f) { return std::bit_cast<uint16_t>(_Float16(f)); }
float from_h16(uint32_t h) { return float(std::bit_cast<_Float16>(uint16_t(h))); }

}  // namespace

TEST_CASE("memory more: buffer_load_format 32-bit formats pass the bits through", "[memory]") {
  Group g(1, 0, false);
  Wave& w = g.w();
  uint64_t buf = g.mem.alloc(64 * 16);
  std::vector<uint32_t> data(64 * 4);
  for (size_t i = 0; i < data.size(); ++i) data[i] = uint32_t(0x9e3779b9u * (i + 1));
  g.mem.write(buf, data.data(), data.size() * 4);
  set_lanes(w, 1, [](int l) { return l; });
  for (int nf : {UINT, SINT, FLOAT}) {
    INFO("nfmt " << nf);
    // 32_32_32_32 structured (stride 16), 40 records: lanes >= 40 read 0.
    set_vsharp(w, buf, 16, 40, 14, uint32_t(nf));
    g.issue(0, assemble("buffer_load_format_xyzw v[2:5], v1, s[4:7], 0 idxen"));
    for (int l = 0; l < kLanes; ++l)
      for (int k = 0; k < 4; ++k) CHECK(w.v(2 + k)[l] == (l < 40 ? data[size_t(l) * 4 + k] : 0u));
    // 32 (one component) loaded as xyz: y, z default to 0; xyzw: w defaults to 1.
    set_vsharp(w, buf, 16, 64, 4, uint32_t(nf));
    g.issue(0, assemble("buffer_load_format_xyzw v[2:5], v1, s[4:7], 0 idxen offset:4"));
    uint32_t one = nf == FLOAT ? b32(1.0f) : 1u;
    for (int l = 0; l < kLanes; ++l) {
      CHECK(w.v(2)[l] == data[size_t(l) * 4 + 1]);
      CHECK(w.v(3)[l] == 0u);
      CHECK(w.v(4)[l] == 0u);
      CHECK(w.v(5)[l] == one);
    }
  }
  // Raw buffer, offen + soffset, 32_32 as xy; the range check covers the whole element.
  set_vsharp(w, buf, 0, 100, 11, FLOAT);
  set_lanes(w, 1, [](int l) { return l * 8; });
  w.sgpr[3] = 4;
  g.issue(0, assemble("buffer_load_format_xy v[2:3], v1, s[4:7], s3 offen offset:4"));
  for (int l = 0; l < kLanes; ++l) {
    bool in = 4 + uint32_t(l) * 8 + 4 + 8 <= 100;  // soffset + voffset + offset + element
    CHECK(w.v(2)[l] == (in ? data[size_t(l) * 2 + 2] : 0u));
    CHECK(w.v(3)[l] == (in ? data[size_t(l) * 2 + 3] : 0u));
  }
}

TEST_CASE("memory more: buffer_load_format 8/16-bit formats convert like the reference", "[memory]") {
  Group g(1, 0, false);
  Wave& w = g.w();
  uint64_t buf = g.mem.alloc(64 * 8);
  std::vector<uint8_t> bytes(64 * 8);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(i * 37 + 11);
  bytes[1] = 0x80;  // SNORM -128 -> -1.0 (clamped)
  bytes[2] = 0xff;
  g.mem.write(buf, bytes.data(), bytes.size());
  set_lanes(w, 1, [](int l) { return l; });
  auto u8 = [&](int l, int k) { return uint32_t(bytes[size_t(l) * 8 + k]); };
  auto u16 = [&](int l, int k) { return uint32_t(bytes[size_t(l) * 8 + 2 * k] | (bytes[size_t(l) * 8 + 2 * k + 1] << 8)); };
  // 8_8_8_8 UNORM / SNORM / UINT / SINT, stride 8
  set_vsharp(w, buf, 8, 64, 10, UNORM);
  g.issue(0, assemble("buffer_load_format_xyzw v[2:5], v1, s[4:7], 0 idxen"));
  for (int l = 0; l < kLanes; ++l)
    for (int k = 0; k < 4; ++k) CHECK(f32(w.v(2 + k)[l]) == float(u8(l, k)) / 255.0f);
  set_vsharp(w, buf, 8, 64, 10, SNORM);
  g.issue(0, assemble("buffer_load_format_xyzw v[2:5], v1, s[4:7], 0 idxen"));
  for (int l = 0; l < kLanes; ++l)
    for (int k = 0; k < 4; ++k)
      CHECK(f32(w.v(2 + k)[l]) == std::max(float(int8_t(u8(l, k))) / 127.0f, -1.0f));
  set_vsharp(w, buf, 8, 64, 10, SINT);
  g.issue(0, assemble("buffer_load_format_xyz v[2:4], v1, s[4:7], 0 idxen"));
  for (int l = 0; l < kLanes; ++l)
    for (int k = 0; k < 3; ++k) CHECK(w.v(2 + k)[l] == uint32_t(int32_t(int8_t(u8(l, k)))));
  // 8_8 UINT as xyzw: z = 0, w = 1
  set_vsharp(w, buf, 8, 64, 3, UINT);
  g.issue(0, assemble("buffer_load_format_xyzw v[2:5], v1, s[4:7], 0 idxen"));
  for (int l = 0; l < kLanes; ++l) {
    CHECK(w.v(2)[l] == u8(l, 0));
    CHECK(w.v(3)[l] == u8(l, 1));
    CHECK(w.v(4)[l] == 0u);
    CHECK(w.v(5)[l] == 1u);
  }
  // 16_16_16_16 FLOAT, UNORM; 16 SINT
  set_vsharp(w, buf, 8, 64, 12, FLOAT);
  g.issue(0, assemble("buffer_load_format_xyzw v[2:5], v1, s[4:7], 0 idxen"));
  for (int l = 0; l < kLanes; ++l)
    for (int k = 0; k < 4; ++k) {
      float want = from_h16(u16(l, k));
      if (std::isnan(want)) CHECK(std::isnan(f32(w.v(2 + k)[l])));
      else CHECK(f32(w.v(2 + k)[l]) == want);
    }
  set_vsharp(w, buf, 8, 64, 12, UNORM);
  g.issue(0, assemble("buffer_load_format_xy v[2:3], v1, s[4:7], 0 idxen"));
  for (int l = 0; l < kLanes; ++l)
    for (int k = 0; k < 2; ++k) CHECK(f32(w.v(2 + k)[l]) == float(u16(l, k)) / 65535.0f);
  set_vsharp(w, buf, 8, 64, 2, SINT);
  g.issue(0, assemble("buffer_load_format_x v2, v1, s[4:7], 0 idxen offset:2"));
  for (int l = 0; l < kLanes; ++l) CHECK(w.v(2)[l] == uint32_t(int32_t(int16_t(u16(l, 1)))));
}

TEST_CASE("memory more: buffer_load_format_d16 packs halves", "[memory]") {
  Group g(1, 0, false);
  Wave& w = g.w();
  uint64_t buf = g.mem.alloc(64 * 16);
  std::vector<float> vals(64 * 4);
  for (size_t i = 0; i < vals.size(); ++i) vals[i] = float(int(i) - 100) * 0.37f;
  g.mem.write(buf, vals.data(), vals.size() * 4);
  set_lanes(w, 1, [](int l) { return l; });
  // 32_32_32_32 FLOAT -> f16 halves: xyz packs x|y<<16 in v2, z in v3's low half (high kept).
  set_vsharp(w, buf, 16, 64, 14, FLOAT);
  set_lanes(w, 3, [](int l) { return 0xabcd0000u | uint32_t(l); });
  g.issue(0, assemble("buffer_load_format_d16_xyz v[2:3], v1, s[4:7], 0 idxen"));
  for (int l = 0; l < kLanes; ++l) {
    const float* e = &vals[size_t(l) * 4];
    CHECK(w.v(2)[l] == (uint32_t(h16(e[0])) | (uint32_t(h16(e[1])) << 16)));
    CHECK(w.v(3)[l] == (0xabcd0000u | h16(e[2])));
  }
  // d16_hi_x writes the high half, keeps the low half.
  set_lanes(w, 6, [](int l) { return 0x1234u + uint32_t(l); });
  g.issue(0, assemble("buffer_load_format_d16_hi_x v6, v1, s[4:7], 0 idxen offset:12"));
  for (int l = 0; l < kLanes; ++l) CHECK(w.v(6)[l] == ((uint32_t(h16(vals[size_t(l) * 4 + 3])) << 16) | (0x1234u + l)));
  // 8_8 UINT d16_xyzw: (x | y << 16), (0 | 1 << 16)
  std::vector<uint8_t> b(128);
  for (size_t i = 0; i < b.size(); ++i) b[i] = uint8_t(200 + i);
  g.mem.write(buf, b.data(), b.size());
  set_vsharp(w, buf, 2, 64, 3, UINT);
  g.issue(0, assemble("buffer_load_format_d16_xyzw v[2:3], v1, s[4:7], 0 idxen"));
  for (int l = 0; l < kLanes; ++l) {
    CHECK(w.v(2)[l] == (uint32_t(b[size_t(l) * 2]) | (uint32_t(b[size_t(l) * 2 + 1]) << 16)));
    CHECK(w.v(3)[l] == 0x00010000u);
  }
}

TEST_CASE("memory more: buffer_store_format converts and respects the range", "[memory]") {
  Group g(1, 0, false);
  Wave& w = g.w();
  uint64_t buf = g.mem.alloc(64 * 16);
  set_lanes(w, 1, [](int l) { return l; });
  // 32_32_32_32 UINT, 50 records: lanes >= 50 store nothing.
  std::vector<uint32_t> zero(64 * 4, 0);
  g.mem.write(buf, zero.data(), zero.size() * 4);
  set_vsharp(w, buf, 16, 50, 14, UINT);
  for (int k = 0; k < 4; ++k) set_lanes(w, 2 + k, [k](int l) { return 0x1000u * k + l; });
  g.issue(0, assemble("buffer_store_format_xyzw v[2:5], v1, s[4:7], 0 idxen"));
  std::vector<uint32_t> out(64 * 4);
  g.mem.read(buf, out.data(), out.size() * 4);
  for (int l = 0; l < kLanes; ++l)
    for (int k = 0; k < 4; ++k) CHECK(out[size_t(l) * 4 + k] == (l < 50 ? 0x1000u * k + l : 0u));
  // 8_8_8_8 UNORM: clamp to [0, 1], scale by 255, round to nearest even.
  auto unorm8 = [](float f) -> uint8_t {
    if (std::isnan(f)) return 0;
    f = std::min(std::max(f, 0.0f), 1.0f);
    return uint8_t(std::nearbyint(f * 255.0f));
  };
  auto snorm16 = [](float f) -> uint16_t {
    f = std::min(std::max(f, -1.0f), 1.0f);
    return uint16_t(int16_t(std::nearbyint(f * 32767.0f)));
  };
  auto fval = [](int l, int k) { return float((l * 7 + k * 13) % 40 - 10) / 25.0f; };
  for (int k = 0; k < 4; ++k) set_lanes(w, 2 + k, [&](int l) { return b32(fval(l, k)); });
  set_vsharp(w, buf, 4, 64, 10, UNORM);
  g.issue(0, assemble("buffer_store_format_xyzw v[2:5], v1, s[4:7], 0 idxen"));
  std::vector<uint8_t> ob(256);
  g.mem.read(buf, ob.data(), ob.size());
  for (int l = 0; l < kLanes; ++l)
    for (int k = 0; k < 4; ++k) CHECK(ob[size_t(l) * 4 + k] == unorm8(fval(l, k)));
  // 16_16 SNORM from d16 halves (f16 inputs)
  set_lanes(w, 2, [&](int l) { return uint32_t(h16(fval(l, 0))) | (uint32_t(h16(fval(l, 1))) << 16); });
  set_vsharp(w, buf, 4, 64, 5, SNORM);
  g.issue(0, assemble("buffer_store_format_d16_xy v2, v1, s[4:7], 0 idxen"));
  std::vector<uint16_t> oh(128);
  g.mem.read(buf, oh.data(), 256);
  for (int l = 0; l < kLanes; ++l)
    for (int k = 0; k < 2; ++k) CHECK(oh[size_t(l) * 2 + k] == snorm16(float(_Float16(fval(l, k)))));
  // 16 FLOAT from f32 (x) and d16_hi_x (high half, raw f16)
  set_lanes(w, 2, [&](int l) { return b32(fval(l, 2) * 1000.0f); });
  set_vsharp(w, buf, 4, 64, 2, FLOAT);
  g.issue(0, assemble("buffer_store_format_x v2, v1, s[4:7], 0 idxen"));
  set_lanes(w, 3, [&](int l) { return uint32_t(h16(fval(l, 3))) << 16 | 0x7777u; });
  g.issue(0, assemble("buffer_store_format_d16_hi_x v3, v1, s[4:7], 0 idxen offset:2"));
  g.mem.read(buf, oh.data(), 256);
  for (int l = 0; l < kLanes; ++l) {
    CHECK(oh[size_t(l) * 2] == h16(fval(l, 2) * 1000.0f));
    CHECK(oh[size_t(l) * 2 + 1] == h16(fval(l, 3)));
  }
  // 8 SINT keeps the low bits.
  set_lanes(w, 2, [](int l) { return uint32_t(-l * 9); });
  set_vsharp(w, buf, 1, 64, 1, SINT);
  g.issue(0, assemble("buffer_store_format_x v2, v1, s[4:7], 0 idxen"));
  g.mem.read(buf, ob.data(), 64);
  for (int l = 0; l < kLanes; ++l) CHECK(ob[size_t(l)] == uint8_t(-l * 9));
}

TEST_CASE("memory more: unsupported buffer formats are errors naming the format", "[memory]") {
  Group g(1, 0, false);
  Wave& w = g.w();
  uint64_t buf = g.mem.alloc(1024);
  set_lanes(w, 1, [](int l) { return l; });
  set_vsharp(w, buf, 4, 64, 8, FLOAT);  // 10_10_10_2 has no float interpretation
  CHECK_THROWS_WITH(g.issue(0, assemble("buffer_load_format_xyzw v[2:5], v1, s[4:7], 0 idxen")),
                    Catch::Contains("buffer_load_format_xyzw") && Catch::Contains("DATA_FORMAT=10_10_10_2") &&
                        Catch::Contains("NUM_FORMAT=FLOAT"));
  set_vsharp(w, buf, 4, 64, 4, USCALED);  // 32-bit scaled: the rounding is not modelled
  CHECK_THROWS_WITH(g.issue(0, assemble("buffer_store_format_x v2, v1, s[4:7], 0 idxen")),
                    Catch::Contains("buffer_store_format_x") && Catch::Contains("NUM_FORMAT=USCALED"));
  set_vsharp(w, buf, 4, 64, 10, 6);  // NUM_FORMAT 6 is reserved
  CHECK_THROWS_WITH(g.issue(0, assemble("buffer_load_format_x v2, v1, s[4:7], 0 idxen")),
                    Catch::Contains("NUM_FORMAT=RESERVED_6"));
  set_vsharp(w, buf, 4, 64, 15, UINT);
  CHECK_THROWS_WITH(g.issue(0, assemble("buffer_load_format_x v2, v1, s[4:7], 0 idxen")),
                    Catch::Contains("DATA_FORMAT=RESERVED_15"));
  set_vsharp(w, buf, 4, 64, 9, UNORM);  // storing xyz into 2_10_10_10 (4 components)
  CHECK_THROWS_WITH(g.issue(0, assemble("buffer_store_format_xyz v[2:4], v1, s[4:7], 0 idxen")),
                    Catch::Contains("2_10_10_10"));
  set_vsharp(w, buf, 4, 64, 4, UNORM);  // 32-bit UNORM
  CHECK_THROWS_WITH(g.issue(0, assemble("buffer_load_format_x v2, v1, s[4:7], 0 idxen")),
                    Catch::Contains("DATA_FORMAT=32 NUM_FORMAT=UNORM"));
  set_vsharp(w, buf, 4, 64, 4, UINT);  // 32-bit UINT into 16 bits
  CHECK_THROWS_WITH(g.issue(0, assemble("buffer_load_format_d16_x v2, v1, s[4:7], 0 idxen")),
                    Catch::Contains("(d16)"));
  set_vsharp(w, buf, 4, 64, 10, UINT);  // storing x only into 8_8_8_8
  CHECK_THROWS_WITH(g.issue(0, assemble("buffer_store_format_x v2, v1, s[4:7], 0 idxen")),
                    Catch::Contains("buffer_store_format_x") && Catch::Contains("8_8_8_8"));
}

TEST_CASE("memory more: ds_append/ds_consume, ds_condxchg32, ds_wrap", "[memory]") {
  Group g(1, 1024, false);
  Wave& w = g.w();
  auto lds32 = [&](uint32_t a) { uint32_t v; std::memcpy(&v, g.wg.lds.data() + a, 4); return v; };
  auto set32 = [&](uint32_t a, uint32_t v) { std::memcpy(g.wg.lds.data() + a, &v, 4); };
  set32(72, 10);
  w.m0 = 64;
  w.exec = 0x0000'00ff'0000'f00full;  // 16 lanes
  set_lanes(w, 1, [](int) { return 0xdeadu; });
  g.issue(0, assemble("ds_append v1 offset:8"));
  CHECK(lds32(72) == 26u);
  for (int l = 0; l < kLanes; ++l) CHECK(w.v(1)[l] == (((w.exec >> l) & 1) ? 10u : 0xdeadu));
  w.exec = 0x7;
  g.issue(0, assemble("ds_consume v2 offset:8"));
  CHECK(lds32(72) == 23u);
  for (int l = 0; l < 3; ++l) CHECK(w.v(2)[l] == 26u);
  w.exec = 0;
  g.issue(0, assemble("ds_append v1 offset:8"));  // no lanes: nothing changes
  CHECK(lds32(72) == 23u);
  w.exec = 1;
  w.m0 = 1022;
  CHECK_THROWS_WITH(g.issue(0, assemble("ds_append v1")), Catch::Contains("ds_append"));

  // condxchg32: per dword, bit 31 of the data half decides; bit 31 is cleared in what is stored.
  w.exec = ~0ull;
  for (int l = 0; l < kLanes; ++l) { set32(8u * l, 1000u + l); set32(8u * l + 4, 2000u + l); }
  set_lanes(w, 1, [](int l) { return 8 * l; });
  set_lanes(w, 4, [](int l) { return (l & 1 ? 0x80000000u : 0u) | uint32_t(300 + l); });
  set_lanes(w, 5, [](int l) { return (l & 2 ? 0x80000000u : 0u) | uint32_t(400 + l); });
  g.issue(0, assemble("ds_condxchg32_rtn_b64 v[2:3], v1, v[4:5]"));
  for (int l = 0; l < kLanes; ++l) {
    CHECK(w.v(2)[l] == 1000u + l);
    CHECK(w.v(3)[l] == 2000u + l);
    CHECK(lds32(8u * l) == (l & 1 ? 300u + l : 1000u + l));
    CHECK(lds32(8u * l + 4) == (l & 2 ? 400u + l : 2000u + l));
  }
  // wrap: mem >= d0 ? mem - d0 : mem + d1, lane order on one word.
  set32(600, 5);
  w.exec = 0xf;
  set_lanes(w, 1, [](int) { return 600 - 16; });
  set_lanes(w, 3, [](int l) { return 3 + l; });
  set_lanes(w, 4, [](int l) { return 100 * (l + 1); });
  g.issue(0, assemble("ds_wrap_rtn_b32 v2, v1, v3, v4 offset:16"));
  uint32_t mem = 5;
  for (int l = 0; l < 4; ++l) {
    uint32_t d0 = 3 + l, d1 = 100 * (l + 1);
    CHECK(w.v(2)[l] == mem);
    mem = mem >= d0 ? mem - d0 : mem + d1;
  }
  CHECK(lds32(600) == mem);
}

TEST_CASE("memory more: s_atc_probe* are no-ops", "[memory]") {
  Group g(1, 0, false);
  Wave& w = g.w();
  w.sgpr[1] = 77;
  auto before = w.sgpr;
  CHECK_NOTHROW(g.issue(0, assemble("s_atc_probe 7, s[2:3], 0x10")));
  CHECK_NOTHROW(g.issue(0, assemble("s_atc_probe_buffer 7, s[4:7], 0x10")));
  CHECK(w.sgpr == before);
}

TEST_CASE("memory more: the checker sees pending results of the new instructions", "[memory][checker]") {
  auto findings = [](std::vector<std::string> prog_waits) {
    Group g(1, 1024, true);
    Wave& w = g.w();
    uint64_t buf = g.mem.alloc(1024);
    set_vsharp(w, buf, 4, 64, 4, FLOAT);
    set_lanes(w, 1, [](int l) { return l; });
    w.m0 = 0;
    for (auto& t : prog_waits) {
      if (t == "wait_vm") g.issue(0, s_waitcnt(0, 15));
      else if (t == "wait_lgkm") g.issue(0, s_waitcnt(63, 0));
      else if (t == "wait_vm1") g.issue(0, s_waitcnt(1, 15));
      else if (t == "wait_lgkm1") g.issue(0, s_waitcnt(63, 1));
      else g.issue(0, assemble(t));
    }
    return g.diagnostics();
  };
  auto has = [](const std::vector<std::string>& d, const std::string& s) {
    for (auto& x : d)
      if (x.find(s) != std::string::npos) return true;
    return false;
  };
  auto d1 = findings({"buffer_load_format_x v2, v1, s[4:7], 0 idxen", "v_mov_b32 v3, v2"});
  CHECK(has(d1, "pending-read"));
  auto d2 = findings({"buffer_load_format_x v2, v1, s[4:7], 0 idxen", "wait_vm", "v_mov_b32 v3, v2"});
  CHECK(d2.empty());
  auto d3 = findings({"ds_append v2", "v_mov_b32 v3, v2"});
  CHECK(has(d3, "pending-read"));
  auto d4 = findings({"ds_append v2", "wait_lgkm", "v_mov_b32 v3, v2"});
  CHECK(d4.empty());
  auto d5 = findings({"ds_wrap_rtn_b32 v2, v7, v1, v1", "v_mov_b32 v3, v2"});
  CHECK(has(d5, "pending-read"));
  // Stores and ds_append occupy their counter in order: vmcnt(1) / lgkmcnt(1) after them
  // retires only the older load (without the newer instruction it would not). The s_nop keeps
  // the store out of the load's soft clause (with XNACK a store joining loads needs one wait).
  CHECK(has(findings({"buffer_load_dword v2, v1, s[4:7], 0 idxen", "wait_vm1", "v_mov_b32 v3, v2"}), "pending-read"));
  CHECK(findings({"buffer_load_dword v2, v1, s[4:7], 0 idxen", "s_nop 0",
                  "buffer_store_format_x v4, v1, s[4:7], 0 idxen",
                  "wait_vm1", "v_mov_b32 v3, v2"}).empty());
  CHECK(findings({"buffer_load_dword v2, v1, s[4:7], 0 idxen", "s_nop 0",
                  "buffer_store_format_x v4, v1, s[4:7], 0 idxen",
                  "wait_vm1", "v_mov_b32 v3, v4"}).empty());  // store data: read at issue
  CHECK(has(findings({"ds_read_b32 v2, v7", "wait_lgkm1", "v_mov_b32 v3, v2"}), "pending-read"));
  CHECK(findings({"ds_read_b32 v2, v7", "ds_append v4", "wait_lgkm1", "v_mov_b32 v3, v2"}).empty());
  CHECK(has(findings({"ds_read_b32 v2, v7", "ds_append v4", "wait_lgkm1", "v_mov_b32 v3, v4"}), "pending-read"));
}

namespace {

// Unsigned small floats as the formats define them: 5-bit exponent (bias 15), `mb` mantissa
// bits (6 for the 11-bit, 5 for the 10-bit components), denormals at exponent 0, infinity and
// NaN at exponent 31.
double small_float(uint32_t raw, int mb) {
  uint32_t e = raw >> mb, m = raw & ((1u << mb) - 1);
  if (e == 31) return m ? NAN : INFINITY;
  if (e == 0) return double(m) / double(1u << mb) * std::pow(2.0, -14);
  return (1.0 + double(m) / double(1u << mb)) * std::pow(2.0, int(e) - 15);
}
// The encoding a store must produce (EXT_packed_float's rules, nearest-even rounding), found by
// searching every finite encoding for the nearest value.
uint32_t small_float_encode(double x, int mb) {
  const uint32_t max_finite = (30u << mb) | ((1u << mb) - 1);
  if (std::isnan(x)) return ~0u;  // any NaN: checked separately
  if (!(x > 0)) return 0;
  if (std::isinf(x)) return 31u << mb;
  if (x >= small_float(max_finite, mb)) return max_finite;
  uint32_t best = 0;
  double best_d = INFINITY;
  for (uint32_t r = 0; r <= max_finite; ++r) {
    double d = std::fabs(small_float(r, mb) - x);
    if (d < best_d || (d == best_d && (r & 1) == 0)) { best = r; best_d = d; }
  }
  return best;
}

}  // namespace

TEST_CASE("memory more: USCALED/SSCALED convert the integer to float without normalizing", "[memory]") {
  Group g(1, 0, false);
  Wave& w = g.w();
  uint64_t buf = g.mem.alloc(64 * 8);
  std::vector<uint8_t> bytes(64 * 8);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(i * 89 + 5);
  bytes[0] = 0x80; bytes[1] = 0xff; bytes[2] = 0x7f; bytes[3] = 0x00;
  g.mem.write(buf, bytes.data(), bytes.size());
  set_lanes(w, 1, [](int l) { return l; });
  auto u8 = [&](int l, int k) { return uint32_t(bytes[size_t(l) * 8 + k]); };
  auto u16 = [&](int l, int k) { return uint32_t(bytes[size_t(l) * 8 + 2 * k] | (bytes[size_t(l) * 8 + 2 * k + 1] << 8)); };
  set_vsharp(w, buf, 8, 64, 10, USCALED);  // 8_8_8_8
  g.issue(0, assemble("buffer_load_format_xyzw v[2:5], v1, s[4:7], 0 idxen"));
  for (int l = 0; l < kLanes; ++l)
    for (int k = 0; k < 4; ++k) CHECK(f32(w.v(2 + k)[l]) == float(u8(l, k)));
  set_vsharp(w, buf, 8, 64, 10, SSCALED);
  g.issue(0, assemble("buffer_load_format_xyzw v[2:5], v1, s[4:7], 0 idxen"));
  for (int l = 0; l < kLanes; ++l)
    for (int k = 0; k < 4; ++k) CHECK(f32(w.v(2 + k)[l]) == float(int8_t(u8(l, k))));
  set_vsharp(w, buf, 8, 64, 5, SSCALED);  // 16_16 as xyzw: z, w default (w = 1.0)
  g.issue(0, assemble("buffer_load_format_xyzw v[2:5], v1, s[4:7], 0 idxen"));
  for (int l = 0; l < kLanes; ++l) {
    CHECK(f32(w.v(2)[l]) == float(int16_t(u16(l, 0))));
    CHECK(f32(w.v(3)[l]) == float(int16_t(u16(l, 1))));
    CHECK(w.v(4)[l] == 0u);
    CHECK(f32(w.v(5)[l]) == 1.0f);
  }
  // d16: the integer as f16 (16-bit values above 2048 round to nearest even in f16).
  set_vsharp(w, buf, 8, 64, 12, USCALED);
  g.issue(0, assemble("buffer_load_format_d16_xy v2, v1, s[4:7], 0 idxen"));
  for (int l = 0; l < kLanes; ++l)
    CHECK(w.v(2)[l] == (uint32_t(h16(float(u16(l, 0)))) | uint32_t(h16(float(u16(l, 1)))) << 16));
  // Stores: round to nearest even, clamp to the component's range, NaN -> 0.
  const float in[8] = {-3.5f, 2.5f, 3.5f, 300.0f, -200.0f, 127.4f, NAN, -0.5f};
  for (int k = 0; k < 4; ++k) set_lanes(w, 2 + k, [&](int l) { return b32(in[(l + k) % 8] * (l % 3 == 0 ? 1.0f : 0.5f)); });
  auto val = [&](int l, int k) { return in[(l + k) % 8] * (l % 3 == 0 ? 1.0f : 0.5f); };
  auto conv = [](float x, float lo, float hi) { return std::isnan(x) ? 0.0f : std::min(std::max(std::nearbyint(x), lo), hi); };
  set_vsharp(w, buf, 4, 64, 10, USCALED);
  g.issue(0, assemble("buffer_store_format_xyzw v[2:5], v1, s[4:7], 0 idxen"));
  std::vector<uint8_t> ob(256);
  g.mem.read(buf, ob.data(), ob.size());
  for (int l = 0; l < kLanes; ++l)
    for (int k = 0; k < 4; ++k) CHECK(ob[size_t(l) * 4 + k] == uint8_t(conv(val(l, k), 0, 255)));
  set_vsharp(w, buf, 4, 64, 10, SSCALED);
  g.issue(0, assemble("buffer_store_format_xyzw v[2:5], v1, s[4:7], 0 idxen"));
  g.mem.read(buf, ob.data(), ob.size());
  for (int l = 0; l < kLanes; ++l)
    for (int k = 0; k < 4; ++k) CHECK(int8_t(ob[size_t(l) * 4 + k]) == int8_t(conv(val(l, k), -128, 127)));
}

TEST_CASE("memory more: packed 10/11-bit and 2_10_10_10 formats split one dword", "[memory]") {
  Group g(1, 0, false);
  Wave& w = g.w();
  uint64_t buf = g.mem.alloc(64 * 4);
  std::vector<uint32_t> words(64);
  for (int l = 0; l < 64; ++l) words[size_t(l)] = 0x9e3779b9u * uint32_t(l + 1) ^ uint32_t(l) << 7;
  words[0] = 0;
  words[1] = 0xffffffffu;
  g.mem.write(buf, words.data(), words.size() * 4);
  set_lanes(w, 1, [](int l) { return l; });
  auto field = [&](int l, int lo, int bits) { return (words[size_t(l)] >> lo) & ((1u << bits) - 1); };
  struct Layout { int dfmt, comps; int lo[4], bits[4]; };
  // Components from the low bits up: the format names list them from the high bits down.
  const Layout layouts[] = {{6, 3, {0, 11, 22}, {11, 11, 10}},
                            {7, 3, {0, 10, 21}, {10, 11, 11}},
                            {8, 4, {0, 2, 12, 22}, {2, 10, 10, 10}},
                            {9, 4, {0, 10, 20, 30}, {10, 10, 10, 2}}};
  for (const Layout& L : layouts) {
    for (int nf : {UNORM, SNORM, USCALED, SSCALED, UINT, SINT, FLOAT}) {
      if (nf == FLOAT && L.dfmt >= 8) continue;
      INFO("dfmt " << L.dfmt << " nfmt " << nf);
      set_vsharp(w, buf, 4, 64, uint32_t(L.dfmt), uint32_t(nf));
      g.issue(0, assemble("buffer_load_format_xyzw v[2:5], v1, s[4:7], 0 idxen"));
      for (int l = 0; l < kLanes; ++l)
        for (int k = 0; k < 4; ++k) {
          uint32_t got = w.v(2 + k)[l];
          if (k >= L.comps) {  // a missing w is 1
            CHECK(got == (nf == UINT || nf == SINT ? 1u : b32(1.0f)));
            continue;
          }
          int b = L.bits[k];
          uint32_t raw = field(l, L.lo[k], b);
          int32_t sx = int32_t(raw << (32 - b)) >> (32 - b);
          switch (nf) {
            case UNORM: CHECK(f32(got) == float(raw) / float((1u << b) - 1)); break;
            case SNORM: CHECK(f32(got) == std::max(float(sx) / float((1u << (b - 1)) - 1), -1.0f)); break;
            case USCALED: CHECK(f32(got) == float(raw)); break;
            case SSCALED: CHECK(f32(got) == float(sx)); break;
            case UINT: CHECK(got == raw); break;
            case SINT: CHECK(got == uint32_t(sx)); break;
            default: {
              double want = small_float(raw, b - 5);
              if (std::isnan(want)) CHECK(std::isnan(f32(got)));
              else CHECK(double(f32(got)) == want);
            }
          }
        }
    }
  }
  // Stores assemble the dword: 2_10_10_10 UINT keeps each component's low bits, 10_10_10_2
  // SNORM clamps and rounds per component.
  for (int k = 0; k < 4; ++k) set_lanes(w, 2 + k, [k](int l) { return uint32_t(l * 37 + k * 1000 + 5); });
  set_vsharp(w, buf, 4, 64, 9, UINT);
  g.issue(0, assemble("buffer_store_format_xyzw v[2:5], v1, s[4:7], 0 idxen"));
  std::vector<uint32_t> out(64);
  g.mem.read(buf, out.data(), 256);
  for (int l = 0; l < kLanes; ++l) {
    auto c = [&](int k, int b) { return uint32_t(l * 37 + k * 1000 + 5) & ((1u << b) - 1); };
    CHECK(out[size_t(l)] == (c(0, 10) | c(1, 10) << 10 | c(2, 10) << 20 | c(3, 2) << 30));
  }
  auto fv = [](int l, int k) { return float((l * 13 + k * 7) % 41 - 20) / 16.0f; };
  for (int k = 0; k < 4; ++k) set_lanes(w, 2 + k, [&](int l) { return b32(fv(l, k)); });
  set_vsharp(w, buf, 4, 64, 8, SNORM);
  g.issue(0, assemble("buffer_store_format_xyzw v[2:5], v1, s[4:7], 0 idxen"));
  g.mem.read(buf, out.data(), 256);
  for (int l = 0; l < kLanes; ++l) {
    auto c = [&](int k, int b) {
      float m = float((1 << (b - 1)) - 1);
      return uint32_t(int32_t(std::nearbyint(std::min(std::max(fv(l, k), -1.0f), 1.0f) * m))) & ((1u << b) - 1);
    };
    CHECK(out[size_t(l)] == (c(0, 2) | c(1, 10) << 2 | c(2, 10) << 12 | c(3, 10) << 22));
  }
}

TEST_CASE("memory more: unsigned 11/10-bit floats load exactly and store rounded and clamped", "[memory]") {
  Group g(1, 0, false);
  Wave& w = g.w();
  uint64_t buf = g.mem.alloc(64 * 4);
  set_lanes(w, 1, [](int l) { return l; });
  // Every 11-bit value in x/y of 10_11_11 and every 10-bit value in x of 11_11_10, f32 and d16.
  for (uint32_t first = 0; first < 2048; first += 64) {
    std::vector<uint32_t> words(64);
    for (uint32_t l = 0; l < 64; ++l) {
      uint32_t r11 = first + l, r10 = (first + l) & 1023;
      words[l] = r11 | (2047 - r11) << 11 | r10 << 22;
    }
    g.mem.write(buf, words.data(), 256);
    set_vsharp(w, buf, 4, 64, 6, FLOAT);
    g.issue(0, assemble("buffer_load_format_xyz v[2:4], v1, s[4:7], 0 idxen"));
    g.issue(0, assemble("buffer_load_format_d16_xyz v[6:7], v1, s[4:7], 0 idxen"));
    for (uint32_t l = 0; l < 64; ++l) {
      uint32_t r11 = first + l, r10 = r11 & 1023;
      const double want[3] = {small_float(r11, 6), small_float(2047 - r11, 6), small_float(r10, 5)};
      const uint32_t halves[3] = {w.v(6)[l] & 0xffff, w.v(6)[l] >> 16, w.v(7)[l] & 0xffff};
      for (int k = 0; k < 3; ++k) {
        INFO("raw " << r11 << " component " << k);
        if (std::isnan(want[k])) {
          CHECK(std::isnan(f32(w.v(2 + k)[l])));
          CHECK(std::isnan(from_h16(halves[k])));
        } else {
          CHECK(double(f32(w.v(2 + k)[l])) == want[k]);
          CHECK(double(from_h16(halves[k])) == want[k]);
        }
      }
    }
  }
  // Stores: values between grid points (midpoints exactly, for ties to even), denormals,
  // negatives, overflow, infinities, NaN.
  std::vector<float> xs = {0.0f, -0.0f, -1.0f, -INFINITY, INFINITY, NAN, 1.0f, 65024.0f, 65536.0f,
                           1e30f, 64512.0f, 64600.0f, 0x1p-20f, 0x1p-21f, 0x3p-22f, 0x1p-15f,
                           0x1.fcp-15f, 0x1.fep-15f, 3.0e-7f, 0.1f, 0.3333f, 1000.5f};
  for (uint32_t r = 0; r < 0x7c0; r += 37) {  // midpoints of consecutive 11-bit values
    xs.push_back(float((small_float(r, 6) + small_float(r + 1, 6)) / 2));
    xs.push_back(std::nextafter(xs.back(), INFINITY));
  }
  for (uint32_t r = 0; r < 0x3e0; r += 29) xs.push_back(float((small_float(r, 5) + small_float(r + 1, 5)) / 2));
  for (size_t start = 0; start < xs.size(); start += 64) {
    auto x = [&](int l) { return xs[(start + size_t(l)) % xs.size()]; };
    set_lanes(w, 2, [&](int l) { return b32(x(l)); });
    set_lanes(w, 3, [&](int l) { return b32(x(l) * 0.5f); });
    set_lanes(w, 4, [&](int l) { return b32(x(l)); });
    set_vsharp(w, buf, 4, 64, 6, FLOAT);  // x, y: 11 bits, z: 10 bits
    g.issue(0, assemble("buffer_store_format_xyz v[2:4], v1, s[4:7], 0 idxen"));
    std::vector<uint32_t> out(64);
    g.mem.read(buf, out.data(), 256);
    for (int l = 0; l < kLanes; ++l) {
      const float in[3] = {x(l), x(l) * 0.5f, x(l)};
      const uint32_t got[3] = {out[size_t(l)] & 2047, out[size_t(l)] >> 11 & 2047, out[size_t(l)] >> 22};
      for (int k = 0; k < 3; ++k) {
        int mb = k == 2 ? 5 : 6;
        INFO("x " << in[k] << " component " << k);
        if (std::isnan(in[k])) CHECK((got[k] >> mb == 31 && (got[k] & ((1u << mb) - 1)) != 0));
        else CHECK(got[k] == small_float_encode(in[k], mb));
      }
    }
  }
  // d16 stores take f16 inputs.
  set_lanes(w, 2, [](int l) { return uint32_t(h16(float(l) * 3.3f)) | uint32_t(h16(-float(l))) << 16; });
  set_lanes(w, 3, [](int l) { return uint32_t(h16(float(l) / 64.0f)); });
  g.issue(0, assemble("buffer_store_format_d16_xyz v[2:3], v1, s[4:7], 0 idxen"));
  std::vector<uint32_t> out(64);
  g.mem.read(buf, out.data(), 256);
  for (int l = 0; l < kLanes; ++l) {
    CHECK((out[size_t(l)] & 2047) == small_float_encode(from_h16(h16(float(l) * 3.3f)), 6));
    CHECK((out[size_t(l)] >> 11 & 2047) == 0u);
    CHECK(out[size_t(l)] >> 22 == small_float_encode(from_h16(h16(float(l) / 64.0f)), 5));
  }
}

// Memory instructions that had no semantics before: typed buffer loads/stores (format from
// the V#), ds_append/ds_consume, ds_condxchg32_rtn_b64, ds_wrap_rtn_b32, s_scratch_* (a clear
// error), s_atc_probe* (no-ops). Instructions are encoded by llvm-mc-22 and decoded by the
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
#include "memory/harness.hpp"

using namespace simtest;
using hipasm::rt::error;

namespace {

std::string run(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  pclose(p);
  return out;
}

// Assembles one gfx942 instruction with llvm-mc-22 and decodes it with the simulator.
Inst assemble(const std::string& text) {
  std::string out = run("echo '" + text + "' | llvm-mc-22 -arch=amdgcn -mcpu=gfx942 -show-encoding 2>&1");
  std::smatch m;
  std::regex re(R"(encoding: \[([^\]]*)\])");
  if (!std::regex_search(out, m, re)) FAIL("llvm-mc-22 did not encode '" << text << "': " << out);
  std::vector<uint8_t> bytes;
  std::stringstream hs(m[1].str());
  std::string tok;
  while (std::getline(hs, tok, ',')) bytes.push_back(uint8_t(std::stoul(tok, nullptr, 16)));
  while (bytes.size() < 12) bytes.push_back(0);
  Inst in = decode_one(bytes, 0);
  REQUIRE(!in.mnemonic.empty());
  in.exec = Registry::get().find(in.mnemonic);
  REQUIRE(in.exec != nullptr);
  return in;
}

void set_lanes(Wave& w, int reg, auto f) {
  for (int l = 0; l < kLanes; ++l) w.v(reg)[l] = uint32_t(f(l));
}

// V# in s[4:7]: raw (stride 0) or structured, DATA_FORMAT / NUM_FORMAT in word 3.
enum { UNORM = 0, SNORM = 1, USCALED = 2, UINT = 4, SINT = 5, FLOAT = 7 };
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
    bool in = uint32_t(l) * 8 + 4 + 8 <= 100;
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
  set_vsharp(w, buf, 4, 64, 8, UNORM);  // 10_10_10_2
  CHECK_THROWS_WITH(g.issue(0, assemble("buffer_load_format_xyzw v[2:5], v1, s[4:7], 0 idxen")),
                    Catch::Contains("buffer_load_format_xyzw") && Catch::Contains("DATA_FORMAT=10_10_10_2") &&
                        Catch::Contains("NUM_FORMAT=UNORM"));
  set_vsharp(w, buf, 4, 64, 4, USCALED);
  CHECK_THROWS_WITH(g.issue(0, assemble("buffer_store_format_x v2, v1, s[4:7], 0 idxen")),
                    Catch::Contains("buffer_store_format_x") && Catch::Contains("NUM_FORMAT=USCALED"));
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

TEST_CASE("memory more: s_scratch_* is a clear error, s_atc_probe* are no-ops", "[memory]") {
  Group g(1, 0, false);
  Wave& w = g.w();
  w.sgpr[1] = 77;
  CHECK_THROWS_WITH(g.issue(0, assemble("s_scratch_load_dword s1, s[2:3], 0x10")),
                    Catch::Contains("s_scratch_load_dword") && Catch::Contains("scalar scratch"));
  CHECK_THROWS_WITH(g.issue(0, assemble("s_scratch_store_dwordx2 s[4:5], s[2:3], 0x10")),
                    Catch::Contains("not supported by the simulator"));
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
  // retires only the older load (without the newer instruction it would not).
  CHECK(has(findings({"buffer_load_dword v2, v1, s[4:7], 0 idxen", "wait_vm1", "v_mov_b32 v3, v2"}), "pending-read"));
  CHECK(findings({"buffer_load_dword v2, v1, s[4:7], 0 idxen", "buffer_store_format_x v4, v1, s[4:7], 0 idxen",
                  "wait_vm1", "v_mov_b32 v3, v2"}).empty());
  CHECK(findings({"buffer_load_dword v2, v1, s[4:7], 0 idxen", "buffer_store_format_x v4, v1, s[4:7], 0 idxen",
                  "wait_vm1", "v_mov_b32 v3, v4"}).empty());  // store data: read at issue
  CHECK(has(findings({"ds_read_b32 v2, v7", "wait_lgkm1", "v_mov_b32 v3, v2"}), "pending-read"));
  CHECK(findings({"ds_read_b32 v2, v7", "ds_append v4", "wait_lgkm1", "v_mov_b32 v3, v2"}).empty());
  CHECK(has(findings({"ds_read_b32 v2, v7", "ds_append v4", "wait_lgkm1", "v_mov_b32 v3, v4"}), "pending-read"));
}

// Device memory, LDS and the memory-instruction semantics (exec_mem.cpp), driven directly
// through the handlers with hand-built instructions. References are plain C++ (sign/zero
// extension, atomic arithmetic) and LLVM's documented meaning of the ds_swizzle macros (the
// offsets below are what llvm-mc-22 -mcpu=gfx942 encodes for them).
#include <catch2/catch.hpp>

#include <bit>
#include <cstring>
#include <numeric>
#include <random>
#include <set>
#include <thread>

#include "memory/harness.hpp"

using namespace simtest;
using hipasm::sim::error;

namespace {

void set_lanes(Wave& w, int reg, auto f) {
  for (int l = 0; l < kLanes; ++l) w.v(reg)[l] = uint32_t(f(l));
}
void set_addr64(Wave& w, int reg, auto f) {
  for (int l = 0; l < kLanes; ++l) {
    uint64_t a = f(l);
    w.v(reg)[l] = uint32_t(a);
    w.v(reg + 1)[l] = uint32_t(a >> 32);
  }
}
void set_s64(Wave& w, int reg, uint64_t v) {
  w.sgpr[reg] = uint32_t(v);
  w.sgpr[reg + 1] = uint32_t(v >> 32);
}
Inst global(std::string m, std::vector<Operand> dst, std::vector<Operand> src, int32_t offset = 0) {
  return make(Format::GLOBAL, std::move(m), std::move(dst), std::move(src), off(offset));
}

}  // namespace

TEST_CASE("memory: allocations are real, disjoint, guarded and checked", "[memory]") {
  Memory m;
  std::vector<uint64_t> addrs;
  for (size_t n : {1u, 100u, 4096u, 0u, 65536u}) addrs.push_back(m.alloc(n));
  for (size_t i = 0; i < addrs.size(); ++i) {
    CHECK(addrs[i] >= kDeviceBase);
    CHECK(addrs[i] % 256 == 0);
    if (i) CHECK(addrs[i] >= addrs[i - 1] + kGuardBytes);  // sizes < guard here, so this is the gap
  }
  uint32_t v = 0xdeadbeef, r = 0;
  m.write(addrs[1] + 96, &v, 4);
  m.read(addrs[1] + 96, &r, 4);
  CHECK(r == v);
  CHECK_THROWS_WITH(m.read(addrs[1] + 98, &r, 4), Catch::Contains("runs 2 bytes past the end of the 100-byte allocation"));
  CHECK_THROWS_WITH(m.read(addrs[0] - 16, &r, 4), Catch::Contains("bytes before the"));
  CHECK_THROWS_AS(m.read(0x1000, &r, 4), error);
  CHECK(m.translate(addrs[2], 4096) != nullptr);
  CHECK(m.translate(addrs[2] + 1, 4096) == nullptr);
  CHECK(m.translate(addrs[3], 1) == nullptr);  // zero-size allocation: no byte is accessible
  m.free(addrs[1]);
  CHECK_THROWS_AS(m.read(addrs[1], &r, 4), error);  // use after free faults
  CHECK_THROWS_WITH(m.free(addrs[1]), Catch::Contains("not the start of a live allocation"));
  uint64_t again = m.alloc(100);
  CHECK(again > addrs.back());  // addresses are never reused
  CHECK_THROWS_AS(m.alloc(16, 3), error);
}

TEST_CASE("memory: global sub-dword loads extend like the hardware", "[memory]") {
  Group g(1, 0, false);
  Wave& w = g.w();
  uint64_t buf = g.mem.alloc(256);
  std::vector<uint8_t> bytes(256);
  std::mt19937 rng(5);
  for (auto& b : bytes) b = uint8_t(rng());
  bytes[3] = 0x80;
  bytes[4] = 0x7f;
  bytes[6] = 0xff;
  g.mem.write(buf, bytes.data(), bytes.size());
  set_addr64(w, 2, [&](int l) { return buf + uint64_t(l) * 2; });
  set_lanes(w, 10, [](int l) { return 0xa5a50000u + uint32_t(l); });  // d16 targets keep the other half
  set_lanes(w, 11, [](int l) { return 0x0000c3c3u + (uint32_t(l) << 16); });
  g.issue(0, global("global_load_ubyte", {V(4)}, {V(2, 2), None(), None()}));
  g.issue(0, global("global_load_sbyte", {V(5)}, {V(2, 2), None(), None()}, 1));
  g.issue(0, global("global_load_ushort", {V(6)}, {V(2, 2), None(), None()}));
  g.issue(0, global("global_load_sshort", {V(7)}, {V(2, 2), None(), None()}));
  g.issue(0, global("global_load_sbyte_d16_hi", {V(10)}, {V(2, 2), None(), None()}));
  g.issue(0, global("global_load_short_d16", {V(11)}, {V(2, 2), None(), None()}));
  for (int l = 0; l < kLanes; ++l) {
    size_t o = size_t(l) * 2;
    uint16_t half = uint16_t(bytes[o] | (bytes[o + 1] << 8));
    CHECK(w.v(4)[l] == bytes[o]);
    CHECK(w.v(5)[l] == uint32_t(int32_t(int8_t(bytes[o + 1]))));
    CHECK(w.v(6)[l] == half);
    CHECK(w.v(7)[l] == uint32_t(int32_t(int16_t(half))));
    CHECK(w.v(10)[l] == ((uint32_t(uint16_t(int16_t(int8_t(bytes[o])))) << 16) | uint32_t(l)));
    CHECK(w.v(11)[l] == ((uint32_t(l) << 16) | half));
  }
}

TEST_CASE("memory: global stores, saddr form, inactive lanes, x4", "[memory]") {
  Group g(1, 0, false);
  Wave& w = g.w();
  uint64_t buf = g.mem.alloc(64 * 16);
  set_s64(w, 20, buf);
  set_lanes(w, 1, [](int l) { return l * 16; });  // 32-bit offsets for the saddr form
  for (int k = 0; k < 4; ++k) set_lanes(w, 4 + k, [k](int l) { return 0x1000 * k + l; });
  w.exec = 0x5555'5555'5555'5555ull;  // even lanes only
  g.issue(0, global("global_store_dwordx4", {}, {V(1), V(4, 4), S(20, 2)}));
  w.exec = ~0ull;
  set_lanes(w, 8, [](int l) { return 0xabcd0000u | uint32_t(0x11 * (l & 7)); });
  g.issue(0, global("global_store_byte_d16_hi", {}, {V(1), V(8), S(20, 2)}, 15));
  std::vector<uint32_t> out(64 * 4);
  g.mem.read(buf, out.data(), out.size() * 4);
  for (int l = 0; l < kLanes; ++l) {
    uint32_t last = (l % 2 == 0) ? uint32_t(0x3000 + l) : 0u;
    CHECK(out[l * 4 + 0] == ((l % 2 == 0) ? uint32_t(l) : 0u));
    CHECK(out[l * 4 + 2] == ((l % 2 == 0) ? uint32_t(0x2000 + l) : 0u));
    // byte 15 of each record: the byte_d16_hi store wrote bits [23:16] of v8 = 0xcd
    CHECK(out[l * 4 + 3] == ((last & 0x00ffffffu) | 0xcd000000u));
  }
}

TEST_CASE("memory: global atomics return the old value and are atomic", "[memory]") {
  Group g(1, 0, false);
  Wave& w = g.w();
  uint64_t buf = g.mem.alloc(256);
  std::vector<uint32_t> init(64, 0);
  init[0] = 100;       // add target
  init[1] = 7;         // cmpswap target
  init[2] = 3;         // inc target (wraps at 5)
  init[3] = 0;         // dec target
  init[4] = 0x80000000u;  // smin target
  init[5] = std::bit_cast<uint32_t>(1.5f);  // add_f32
  init[6] = (uint32_t(std::bit_cast<uint16_t>(_Float16(2.0f))) << 16) | std::bit_cast<uint16_t>(_Float16(-1.0f));
  g.mem.write(buf, init.data(), 256);
  set_addr64(w, 2, [&](int) { return buf; });
  set_lanes(w, 4, [](int l) { return l + 1; });
  Inst add = global("global_atomic_add", {V(10)}, {V(2, 2), V(4), None()});
  add.mod.sc0 = true;
  g.issue(0, add);
  uint32_t total = 0;
  g.mem.read(buf, &total, 4);
  CHECK(total == 100u + 64u * 65u / 2u);
  std::set<uint32_t> olds(w.v(10), w.v(10) + 64);
  uint32_t expect = 100;
  for (int l = 0; l < kLanes; ++l) {  // lanes apply in order: old values are the prefix sums
    CHECK(w.v(10)[l] == expect);
    expect += uint32_t(l + 1);
  }

  // cmpswap: data = {new, compare}; only lane 0 sees 7, the rest see its new value.
  w.exec = 0xf;
  set_addr64(w, 2, [&](int) { return buf + 4; });
  set_lanes(w, 6, [](int l) { return 50 + l; });
  set_lanes(w, 7, [](int) { return 7; });
  Inst cas = global("global_atomic_cmpswap", {V(11)}, {V(2, 2), V(6, 2), None()});
  g.issue(0, cas);
  uint32_t cv = 0;
  g.mem.read(buf + 4, &cv, 4);
  CHECK(cv == 50);
  CHECK(w.v(11)[0] == 7);
  CHECK(w.v(11)[1] == 50);

  // inc wraps to 0 when old >= data; dec wraps to data when old == 0 or old > data.
  w.exec = 0x7;  // three lanes
  set_addr64(w, 2, [&](int) { return buf + 8; });
  set_lanes(w, 4, [](int) { return 4; });
  g.issue(0, global("global_atomic_inc", {V(12)}, {V(2, 2), V(4), None()}));
  CHECK(w.v(12)[0] == 3);
  CHECK(w.v(12)[1] == 4);
  CHECK(w.v(12)[2] == 0);
  set_addr64(w, 2, [&](int) { return buf + 12; });
  set_lanes(w, 4, [](int) { return 2; });
  g.issue(0, global("global_atomic_dec", {V(13)}, {V(2, 2), V(4), None()}));
  CHECK(w.v(13)[0] == 0);
  CHECK(w.v(13)[1] == 2);
  CHECK(w.v(13)[2] == 1);

  // smin is signed; add_f32 and pk_add_f16 are float adds; no return without sc0 (no vdst).
  w.exec = 0x3;
  set_addr64(w, 2, [&](int) { return buf + 16; });
  set_lanes(w, 4, [](int l) { return l == 0 ? 5u : uint32_t(-3); });
  g.issue(0, global("global_atomic_smin", {}, {V(2, 2), V(4), None()}));
  set_addr64(w, 2, [&](int) { return buf + 20; });
  set_lanes(w, 4, [](int l) { return std::bit_cast<uint32_t>(l == 0 ? 0.25f : 2.0f); });
  g.issue(0, global("global_atomic_add_f32", {}, {V(2, 2), V(4), None()}));
  set_addr64(w, 2, [&](int) { return buf + 24; });
  uint32_t pk = (uint32_t(std::bit_cast<uint16_t>(_Float16(0.5f))) << 16) | std::bit_cast<uint16_t>(_Float16(3.0f));
  set_lanes(w, 4, [&](int) { return pk; });
  g.issue(0, global("global_atomic_pk_add_f16", {}, {V(2, 2), V(4), None()}));
  std::vector<uint32_t> after(8);
  g.mem.read(buf, after.data(), 32);
  CHECK(after[4] == 0x80000000u);  // INT_MIN stays the minimum
  CHECK(std::bit_cast<float>(after[5]) == 1.5f + 0.25f + 2.0f);
  CHECK(std::bit_cast<_Float16>(uint16_t(after[6])) == _Float16(-1.0f + 3.0f + 3.0f));
  CHECK(std::bit_cast<_Float16>(uint16_t(after[6] >> 16)) == _Float16(2.0f + 0.5f + 0.5f));

  // 64-bit cmpswap: data = v[6:7] new, v[8:9] compare.
  w.exec = 0x1;
  uint64_t q = 0x1122334455667788ull;
  g.mem.write(buf + 32, &q, 8);
  set_addr64(w, 2, [&](int) { return buf + 32; });
  set_addr64(w, 6, [](int) { return 0xcafef00d12345678ull; });
  set_addr64(w, 8, [&](int) { return q; });
  g.issue(0, global("global_atomic_cmpswap_x2", {V(14, 2)}, {V(2, 2), V(6, 4), None()}));
  uint64_t q2 = 0;
  g.mem.read(buf + 32, &q2, 8);
  CHECK(q2 == 0xcafef00d12345678ull);
  CHECK((w.v(14)[0] | (uint64_t(w.v(15)[0]) << 32)) == q);
}

TEST_CASE("memory: buffer out-of-range loads read 0 and stores are dropped", "[memory]") {
  Group g(1, 0, false);
  Wave& w = g.w();
  uint64_t buf = g.mem.alloc(64);
  std::vector<uint32_t> init(16);
  std::iota(init.begin(), init.end(), 1u);
  g.mem.write(buf, init.data(), 64);
  // Raw buffer of 16 bytes (num_records = 16), data_format 4 as compute kernels set it.
  w.sgpr[8] = uint32_t(buf);
  w.sgpr[9] = uint32_t(buf >> 32) & 0xffff;
  w.sgpr[10] = 16;
  w.sgpr[11] = 0x00020000;
  w.sgpr[12] = 4;  // soffset: part of the range-checked offset (CDNA3; see test_mubuf_range.cpp)
  set_lanes(w, 1, [](int l) { return l * 4; });
  Modifiers m = off(0);
  m.offen = true;
  Inst ld = make(Format::MUBUF, "buffer_load_dwordx4", {V(4, 4)}, {V(1), None(), S(8, 4), S(12)}, m);
  g.issue(0, ld);
  for (int l = 0; l < kLanes; ++l)
    for (int k = 0; k < 4; ++k) {
      uint32_t o = 4 + uint32_t(l) * 4 + 4u * k;  // range-checked offset: soffset + voffset + 4k
      uint32_t want = o + 4 <= 16 ? init[o / 4] : 0u;
      CHECK(w.v(4 + k)[l] == want);
    }
  // Stores past num_records do nothing (even though the allocation is larger).
  set_lanes(w, 6, [](int) { return 0xeeeeeeeeu; });
  Inst st = make(Format::MUBUF, "buffer_store_dword", {}, {V(1), V(6), S(8, 4), K(0)}, m);
  g.issue(0, st);
  std::vector<uint32_t> out(16);
  g.mem.read(buf, out.data(), 64);
  for (int i = 0; i < 16; ++i) CHECK(out[i] == (i < 4 ? 0xeeeeeeeeu : init[i]));
  // Structured: stride 8, 3 records, idxen: index >= 3 reads 0.
  w.sgpr[9] = (uint32_t(buf >> 32) & 0xffff) | (8u << 16);
  w.sgpr[10] = 3;
  Modifiers mi = off(4);
  mi.idxen = true;
  set_lanes(w, 1, [](int l) { return l; });
  g.issue(0, make(Format::MUBUF, "buffer_load_dword", {V(7)}, {V(1), None(), S(8, 4), K(0)}, mi));
  CHECK(w.v(7)[0] == out[1]);  // the store above rewrote dwords 0..3
  CHECK(w.v(7)[2] == out[5]);
  CHECK(w.v(7)[3] == 0u);
  CHECK(w.v(7)[63] == 0u);
  // In range of num_records but outside the allocation: that is a fault, not a silent 0.
  w.sgpr[9] = uint32_t(buf >> 32) & 0xffff;
  w.sgpr[10] = 1 << 20;
  set_lanes(w, 1, [](int l) { return 4096 + l * 4; });
  CHECK_THROWS_WITH(g.issue(0, ld), Catch::Contains("buffer_load_dwordx4") && Catch::Contains("device read"));
}

TEST_CASE("memory: DS widths, read2/write2, atomics", "[memory]") {
  Group g(1, 2048, false);
  Wave& w = g.w();
  set_lanes(w, 1, [](int l) { return l * 4; });
  set_lanes(w, 2, [](int l) { return 0x80 + l * 0x01010101u; });
  g.issue(0, make(Format::DS, "ds_write_b32", {}, {V(1), V(2)}, off(0)));
  g.issue(0, make(Format::DS, "ds_read_i8", {V(3)}, {V(1)}, off(0)));
  g.issue(0, make(Format::DS, "ds_read_u16", {V(4)}, {V(1)}, off(2)));
  g.issue(0, make(Format::DS, "ds_read_i16", {V(5)}, {V(1)}, off(0)));
  for (int l = 0; l < kLanes; ++l) {
    uint32_t v = 0x80 + uint32_t(l) * 0x01010101u;
    CHECK(w.v(3)[l] == uint32_t(int32_t(int8_t(v))));
    CHECK(w.v(4)[l] == (v >> 16));
    CHECK(w.v(5)[l] == uint32_t(int32_t(int16_t(v))));
  }
  // write2st64_b32: elements at offset0*256 and offset1*256 bytes.
  set_lanes(w, 1, [](int l) { return l * 4; });
  set_lanes(w, 6, [](int l) { return 1000 + l; });
  set_lanes(w, 7, [](int l) { return 2000 + l; });
  g.issue(0, make(Format::DS, "ds_write2st64_b32", {}, {V(1), V(6), V(7)}, off(1, 3)));
  g.issue(0, make(Format::DS, "ds_read2_b32", {V(8, 2)}, {V(1)}, off(64, 192)));
  for (int l = 0; l < kLanes; ++l) {
    CHECK(w.v(8)[l] == uint32_t(1000 + l));
    CHECK(w.v(9)[l] == uint32_t(2000 + l));
  }
  // Atomics on one word from all lanes, in lane order.
  std::memset(g.wg.lds.data(), 0, 16);
  set_lanes(w, 1, [](int) { return 0; });
  set_lanes(w, 2, [](int l) { return l; });
  g.issue(0, make(Format::DS, "ds_add_rtn_u32", {V(10)}, {V(1), V(2)}, off(0)));
  uint32_t sum = 0;
  for (int l = 0; l < kLanes; ++l) {
    CHECK(w.v(10)[l] == sum);
    sum += uint32_t(l);
  }
  // ds_cmpst_b32: data0 is the compare value, data1 the new one (opposite of cmpswap).
  w.exec = 1;
  uint32_t word = 5;
  std::memcpy(g.wg.lds.data() + 4, &word, 4);
  set_lanes(w, 1, [](int) { return 4; });
  set_lanes(w, 2, [](int) { return 5; });
  set_lanes(w, 3, [](int) { return 77; });
  g.issue(0, make(Format::DS, "ds_cmpst_rtn_b32", {V(11)}, {V(1), V(2), V(3)}, off(0)));
  std::memcpy(&word, g.wg.lds.data() + 4, 4);
  CHECK(word == 77);
  CHECK(w.v(11)[0] == 5);
  // mskor: (old & ~mask) | src
  set_lanes(w, 2, [](int) { return 0xff; });
  set_lanes(w, 3, [](int) { return 0x12; });
  g.issue(0, make(Format::DS, "ds_mskor_b32", {}, {V(1), V(2), V(3)}, off(0)));
  std::memcpy(&word, g.wg.lds.data() + 4, 4);
  CHECK(word == ((77u & ~0xffu) | 0x12u));
  // 64-bit max (signed) and rsub
  w.exec = 0x3;
  int64_t big = -5;
  std::memcpy(g.wg.lds.data() + 8, &big, 8);
  set_lanes(w, 1, [](int) { return 8; });
  set_addr64(w, 12, [](int l) { return uint64_t(l == 0 ? -7 : 3); });
  g.issue(0, make(Format::DS, "ds_max_rtn_i64", {V(14, 2)}, {V(1), V(12, 2)}, off(0)));
  std::memcpy(&big, g.wg.lds.data() + 8, 8);
  CHECK(big == 3);
  CHECK(int64_t(w.v(14)[1] | (uint64_t(w.v(15)[1]) << 32)) == -5);
}

TEST_CASE("memory: ds_swizzle, ds_bpermute and ds_permute lane patterns", "[memory]") {
  Group g(1, 0, false);
  Wave& w = g.w();
  set_lanes(w, 2, [](int l) { return 100 + l; });
  struct Case {
    uint16_t offset;  // llvm-mc-22 encoding of the macro
    const char* macro;
    int (*src)(int);
  } cases[] = {
      {0x401f, "swizzle(SWAP,16)", [](int i) { return i ^ 16; }},
      {0x1c1f, "swizzle(REVERSE,8)", [](int i) { return i ^ 7; }},
      {0x003c, "swizzle(BROADCAST,4,1)", [](int i) { return (i & ~3) | 1; }},
      {0x801b, "swizzle(QUAD_PERM,3,2,1,0)", [](int i) { return (i & ~3) | (3 - (i & 3)); }},
      {0x0907, "swizzle(BITMASK_PERM,\"01pip\")",
       [](int i) { return (i & 0x20) | 0x8 | (i & 4) | (~i & 2) | (i & 1); }},
  };
  for (auto& c : cases) {
    INFO(c.macro);
    g.issue(0, make(Format::DS, "ds_swizzle_b32", {V(3)}, {V(2)}, off(c.offset)));
    for (int l = 0; l < kLanes; ++l) CHECK(w.v(3)[l] == uint32_t(100 + c.src(l)));
  }
  // Inactive source lanes read 0.
  w.exec = 0x0000'ffff'ffff'ffffull;
  g.issue(0, make(Format::DS, "ds_swizzle_b32", {V(3)}, {V(2)}, off(0x401f)));
  CHECK(w.v(3)[0] == 116u);
  CHECK(w.v(3)[47] == 0u);  // lane 63 is off
  w.exec = ~0ull;
  // bpermute: lane i reads lane (addr[i] / 4) % 64 (a rotation by 5 here), offset added first.
  set_lanes(w, 1, [](int l) { return ((l + 5) % 64) * 4 - 8; });
  g.issue(0, make(Format::DS, "ds_bpermute_b32", {V(4)}, {V(1), V(2)}, off(8)));
  for (int l = 0; l < kLanes; ++l) CHECK(w.v(4)[l] == uint32_t(100 + (l + 5) % 64));
  // permute: lane i writes its value to lane addr[i] / 4.
  set_lanes(w, 1, [](int l) { return ((l + 5) % 64) * 4; });
  g.issue(0, make(Format::DS, "ds_permute_b32", {V(5)}, {V(1), V(2)}, off(0)));
  for (int l = 0; l < kLanes; ++l) CHECK(w.v(5)[(l + 5) % 64] == uint32_t(100 + l));
}

TEST_CASE("memory: scratch, FLAT apertures, SMEM and LDS-DMA", "[memory]") {
  Group g(1, 1024, false);
  Wave& w = g.w();
  const uint32_t stride = 64;
  w.scratch_base = g.mem.alloc(stride * kLanes);
  w.scratch_lane_stride = stride;
  set_lanes(w, 1, [](int l) { return 1000 + l; });
  set_lanes(w, 2, [](int) { return 8; });
  g.issue(0, make(Format::SCRATCH, "scratch_store_dword", {}, {V(2), V(1), None()}, off(4)));
  g.issue(0, make(Format::SCRATCH, "scratch_load_dword", {V(3)}, {V(2), None(), None()}, off(4)));
  for (int l = 0; l < kLanes; ++l) CHECK(w.v(3)[l] == uint32_t(1000 + l));
  uint32_t lane5 = 0;
  g.mem.read(w.scratch_base + 5 * stride + 12, &lane5, 4);
  CHECK(lane5 == 1005u);
  CHECK_THROWS_WITH(g.issue(0, make(Format::SCRATCH, "scratch_load_dword", {V(3)}, {V(2), None(), None()}, off(60))),
                    Catch::Contains("outside the lane's 64-byte private segment"));
  // FLAT through the shared aperture reaches LDS; through the private one, scratch.
  set_addr64(w, 4, [](int l) { return (uint64_t(kSharedApertureHi) << 32) | uint64_t(l * 4); });
  g.issue(0, make(Format::FLAT, "flat_store_dword", {}, {V(4, 2), V(1), None()}, off(0)));
  uint32_t lds7 = 0;
  std::memcpy(&lds7, g.wg.lds.data() + 28, 4);
  CHECK(lds7 == 1007u);
  set_addr64(w, 4, [](int) { return (uint64_t(kPrivateApertureHi) << 32) | 12u; });
  g.issue(0, make(Format::FLAT, "flat_load_dword", {V(6)}, {V(4, 2), None(), None()}, off(0)));
  CHECK(w.v(6)[9] == 1009u);
  // SMEM: s_load_dwordx2 from a kernarg-like buffer; s_buffer_load past num_records reads 0.
  uint64_t kb = g.mem.alloc(64);
  uint32_t vals[4] = {11, 22, 33, 44};
  g.mem.write(kb, vals, 16);
  set_s64(w, 0, kb);
  g.issue(0, make(Format::SMEM, "s_load_dwordx2", {S(4, 2)}, {S(0, 2), None()}, off(8)));
  CHECK(w.sgpr[4] == 33u);
  CHECK(w.sgpr[5] == 44u);
  w.sgpr[8] = uint32_t(kb);
  w.sgpr[9] = uint32_t(kb >> 32);
  w.sgpr[10] = 12;
  w.sgpr[11] = 0x00020000;
  g.issue(0, make(Format::SMEM, "s_buffer_load_dwordx4", {S(12, 4)}, {S(8, 4), None()}, off(0)));
  CHECK(w.sgpr[12] == 11u);
  CHECK(w.sgpr[14] == 33u);
  CHECK(w.sgpr[15] == 0u);
  CHECK_THROWS_WITH(g.issue(0, make(Format::SMEM, "s_load_dword", {S(4)}, {S(0, 2), None()}, off(2))),
                    Catch::Contains("misaligned"));
  // LDS-DMA: each lane's dword lands at M0 + offset + 4 * lane.
  set_addr64(w, 4, [&](int l) { return kb + uint64_t(l % 4) * 4; });
  w.m0 = 256;
  g.issue(0, make(Format::GLOBAL, "global_load_lds_dword", {}, {V(4, 2), None(), None()}, off(0)));
  for (int l = 0; l < kLanes; ++l) {
    uint32_t got = 0;
    std::memcpy(&got, g.wg.lds.data() + 256 + 4 * l, 4);
    CHECK(got == vals[l % 4]);
  }
}

TEST_CASE("memory: faults name the instruction, lane and address", "[memory]") {
  Group g(1, 256, false);
  Wave& w = g.w();
  uint64_t buf = g.mem.alloc(64);
  set_addr64(w, 2, [&](int l) { return buf + uint64_t(l) * 4; });  // lanes 16.. run off the end
  Inst ld = global("global_load_dword", {V(4)}, {V(2, 2), None(), None()});
  try {
    g.issue(0, ld);
    FAIL("no fault");
  } catch (const error& e) {
    std::string msg = e.what();
    CHECK_THAT(msg, Catch::StartsWith("0x"));
    CHECK_THAT(msg, Catch::Contains("global_load_dword v4, v[2:3]"));
    CHECK_THAT(msg, Catch::Contains(": device read of 4 bytes at 0x7f0000000040"));
    CHECK_THAT(msg, Catch::Contains("(lane 16)"));
    CHECK_THAT(msg, Catch::Contains("starts right at the end of the 64-byte allocation"));
  }
  set_lanes(w, 1, [](int l) { return l * 4; });
  CHECK_THROWS_WITH(g.issue(0, make(Format::DS, "ds_read_b32", {V(4)}, {V(1)}, off(8))),
                    Catch::Contains("LDS access of 4 bytes at 0x100 (lane 62)") &&
                        Catch::Contains("outside the workgroup's 256-byte LDS allocation"));
  set_lanes(w, 1, [](int l) { return l * 4 + 2; });
  CHECK_THROWS_WITH(g.issue(0, make(Format::DS, "ds_write_b32", {}, {V(1), V(4)}, off(0))),
                    Catch::Contains("misaligned (needs 4-byte alignment)"));
  set_addr64(w, 2, [&](int) { return buf + 2; });
  CHECK_THROWS_WITH(g.issue(0, global("global_atomic_add", {}, {V(2, 2), V(4), None()})),
                    Catch::Contains("atomic of 4 bytes") && Catch::Contains("misaligned"));
  // Unaligned plain global accesses are fine (unaligned mode).
  CHECK_NOTHROW(g.issue(0, global("global_load_dword", {V(4)}, {V(2, 2), None(), None()})));
  Inst gds = make(Format::DS, "ds_write_b32", {}, {V(1), V(4)}, off(0));
  gds.mod.gds = true;
  CHECK_THROWS_WITH(g.issue(0, gds), Catch::Contains("GDS"));
}

TEST_CASE("memory: scalar atomics and ds_wrxchg2", "[memory]") {
  Group g(1, 1024, false);
  Wave& w = g.w();
  uint64_t buf = g.mem.alloc(64);
  uint32_t init[4] = {10, 20, 30, 40};
  g.mem.write(buf, init, 16);
  set_s64(w, 0, buf);
  w.sgpr[5] = 7;
  Inst add = make(Format::SMEM, "s_atomic_add", {S(5)}, {S(0, 2), None(), S(5)}, off(4));  // glc: returns
  g.issue(0, add);
  CHECK(w.sgpr[5] == 20u);
  uint64_t q = 0;
  g.mem.read(buf + 8, &q, 8);
  // cmpswap_x2 data = {new (s[8:9]), compare (s[10:11])}
  set_s64(w, 8, 0x1234);
  set_s64(w, 10, q);
  g.issue(0, make(Format::SMEM, "s_atomic_cmpswap_x2", {}, {S(0, 2), None(), S(8, 4)}, off(8)));
  uint32_t after[4];
  g.mem.read(buf, after, 16);
  CHECK(after[1] == 27u);
  CHECK(after[2] == 0x1234u);
  CHECK(after[3] == 0u);
  // ds_wrxchg2_rtn_b32: two exchanges, old values in v[0:1]
  set_lanes(w, 2, [](int l) { return l * 4; });
  set_lanes(w, 3, [](int l) { return 100 + l; });
  set_lanes(w, 4, [](int l) { return 200 + l; });
  g.issue(0, make(Format::DS, "ds_write2_b32", {}, {V(2), V(3), V(4)}, off(0, 64)));
  set_lanes(w, 3, [](int l) { return 300 + l; });
  set_lanes(w, 4, [](int l) { return 400 + l; });
  g.issue(0, make(Format::DS, "ds_wrxchg2_rtn_b32", {V(6, 2)}, {V(2), V(3), V(4)}, off(0, 64)));
  g.issue(0, make(Format::DS, "ds_read2_b32", {V(8, 2)}, {V(2)}, off(0, 64)));
  for (int l = 0; l < kLanes; ++l) {
    CHECK(w.v(6)[l] == uint32_t(100 + l));
    CHECK(w.v(7)[l] == uint32_t(200 + l));
    CHECK(w.v(8)[l] == uint32_t(300 + l));
    CHECK(w.v(9)[l] == uint32_t(400 + l));
  }
}

TEST_CASE("memory: device atomics are atomic across worker threads", "[memory]") {
  Memory mem;
  uint64_t counter = mem.alloc(16);
  constexpr int kRounds = 2000;
  auto worker = [&](int id) {
    Group g(1, 0, false, &mem);
    Wave& w = g.w();
    set_addr64(w, 2, [&](int l) { return counter + (l % 2) * 8; });  // 32-bit word and 64-bit word
    set_lanes(w, 4, [id](int) { return id + 1; });
    set_addr64(w, 6, [](int) { return 3; });
    Inst add32 = global("global_atomic_add", {}, {V(2, 2), V(4), None()});
    Inst add64 = global("global_atomic_add_x2", {}, {V(2, 2), V(6, 2), None()});
    for (int r = 0; r < kRounds; ++r) {
      w.exec = 0x5555'5555'5555'5555ull;  // even lanes: the 32-bit word
      g.issue(0, add32);
      w.exec = 0xaaaa'aaaa'aaaa'aaaaull;  // odd lanes: the 64-bit word
      g.issue(0, add64);
    }
  };
  std::thread a(worker, 0), b(worker, 1);
  a.join();
  b.join();
  uint32_t w32 = 0;
  uint64_t w64 = 0;
  mem.read(counter, &w32, 4);
  mem.read(counter + 8, &w64, 8);
  CHECK(w32 == uint32_t(kRounds * 32 * (1 + 2)));
  CHECK(w64 == uint64_t(kRounds) * 32 * 3 * 2);
}

TEST_CASE("memory: ds_read/write_addtid address by lane id, M0 and offset", "[memory]") {
  Group g(1, 1024, false);
  Wave& w = g.w();
  w.m0 = 0xffff0040;  // only M0[15:0] = 64 takes part
  set_lanes(w, 1, [](int l) { return 7000 + l; });
  g.issue(0, make(Format::DS, "ds_write_addtid_b32", {}, {None(), V(1)}, off(16)));
  for (int l = 0; l < kLanes; ++l) {
    uint32_t got = 0;
    std::memcpy(&got, g.wg.lds.data() + 80 + 4 * l, 4);
    CHECK(got == uint32_t(7000 + l));
  }
  g.issue(0, make(Format::DS, "ds_read_addtid_b32", {V(2)}, {}, off(16)));
  for (int l = 0; l < kLanes; ++l) CHECK(w.v(2)[l] == uint32_t(7000 + l));
}

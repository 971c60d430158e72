// Legacy and mode-changing instructions the compilers do not emit, per the Vega / CDNA3 ISA
// guides: VGPR index mode (s_set_gpr_idx_*), VSKIP (s_setvskip), fork/join
// (s_cbranch_{g,i}_fork, s_cbranch_join), trap return (s_rfe_b64, s_rfe_restore_b64), scalar
// scratch (s_scratch_*), v_screen_partition_4se_b32.
// 1. Hand-written kernels (core_kernels/legacy_kernels.s) run through the dispatcher, which
//    applies index mode and VSKIP. Oracle: plain C++ of the guide's definitions below.
// 2. Single instructions encoded by llvm-mc-22, decoded by the simulator and run on the memory
//    harness (s_scratch_* wave/lane mapping, faults, the checker's pending results;
//    v_screen_partition_4se_b32 against the guide's geometric description of its table).
// 3. Coverage: every mnemonic of hipasm's gfx942 instruction table has semantics.
#include <catch2/catch.hpp>

#include <array>
#include <bit>
#include <cstdio>
#include <cstring>
#include <regex>
#include <sstream>

#include "checker.hpp"
#include "decode.hpp"
#include "hipasm/targets/select.hpp"
#include "assemble_one.hpp"
#include "memory/harness.hpp"
#include "test_core_util.hpp"

using namespace core_test;

namespace {

Args args3(uint64_t out, uint32_t a, uint32_t b) {
  Args x;
  x.add(out).add(a).add(b);
  return x;
}

std::vector<uint32_t> run_legacy(const std::string& kernel, uint32_t a, uint32_t b, size_t words,
                                 hipasm::sim::Observer* obs = nullptr) {
  Kernel k(built("sim_legacy_asm.co"), kernel);
  hipasm::sim::Memory mem;
  uint64_t out = upload(mem, std::vector<uint32_t>(words, 0));
  run(k, mem, args3(out, a, b), {1, 1, 1}, {64, 1, 1}, 1, 0, 0, obs);
  return download<uint32_t>(mem, out, words);
}

}  // namespace

TEST_CASE("legacy: VGPR index mode offsets the selected VALU operands by M0[7:0]", "[legacy]") {
  const uint32_t a = 0x1234567;
  hipasm::sim::Checker checker;
  auto out = run_legacy("legacy_vgpr_index", a, 0, 64 * 8, &checker);
  for (uint32_t l = 0; l < 64; ++l) {
    auto v = [&](uint32_t k) { return 16 * l + k; };  // v1..v8 as the kernel sets them
    INFO("lane " << l);
    CHECK(out[8 * l + 0] == v(4));                       // index 3, src0: v1 -> v4
    CHECK(out[8 * l + 1] == a);                          // SGPR source: not indexed
    CHECK(out[8 * l + 2] == v(3) * v(4) + v(5));         // index 2, src0..2
    CHECK(out[8 * l + 3] == v(3) + v(4));
    CHECK(out[8 * l + 4] == v(1));                       // dst only: v10 -> v13, src v1
    CHECK(out[8 * l + 5] == v(1));                       // after s_set_gpr_idx_off
    CHECK(out[8 * l + 6] == 0xabcd1003u);                // M0 after s_set_gpr_idx_on 0x103, SRC0
    CHECK(out[8 * l + 7] == 0xabcd7002u);                // after mode DST, idx 2, mode SRC0..2
  }
  CHECK(checker.diagnostics().empty());
  CHECK_THROWS_WITH(run_legacy("legacy_vgpr_index", a, 1, 64 * 8),
                    Catch::Contains("v_mov_b32") && Catch::Contains("VGPR index mode") &&
                        Catch::Contains("beyond the wave's 32 VGPRs"));
}

TEST_CASE("legacy: s_setvskip skips vector instructions, not scalar ones", "[legacy]") {
  auto out = run_legacy("legacy_vskip", 0, 0, 512);
  for (uint32_t l = 0; l < 64; ++l) {
    INFO("lane " << l);
    CHECK(out[4 * l + 0] == 1u);   // the v_mov_b32 under VSKIP did not run
    CHECK(out[4 * l + 1] == 5u);   // the s_add_u32 did
    CHECK(out[4 * l + 2] == 1u);   // MODE.vskip read while set
    CHECK(out[4 * l + 3] == 0u);   // s_setvskip s26, 3 with a[3] = 0 cleared it
    CHECK(out[256 + 4 * l] == 0u); // the skipped store wrote nothing
  }
  // a[3] = 1: VSKIP stays on, so the final stores are skipped too.
  auto on = run_legacy("legacy_vskip", 8, 0, 512);
  CHECK(on == std::vector<uint32_t>(512, 0));
}

TEST_CASE("legacy: fork/join run both sides of a divergent branch as the guide's pseudocode", "[legacy]") {
  for (uint32_t form : {0u, 2u}) {       // s_cbranch_i_fork, s_cbranch_g_fork
    for (uint32_t a : {0u, 1u, 10u, 32u, 40u, 63u, 64u}) {
      INFO((form == 0 ? "i_fork" : "g_fork") << " a=" << a);
      auto out = run_legacy("legacy_fork", a, form, 128);
      // mask_pass = lanes below a; the side with fewer lanes runs first (the pass side on a tie).
      uint32_t pass = a, fail = 64 - a, order;
      if (pass == 64) order = 0x2;
      else if (fail == 64) order = 0x1;
      else if (fail < pass) order = 0x12;
      else order = 0x21;
      for (uint32_t l = 0; l < 64; ++l) {
        CHECK(out[2 * l] == (l < a ? 200u : 100u));
        CHECK(out[2 * l + 1] == order);  // CSP (bits 18:16) back at 0
      }
    }
  }
  CHECK_THROWS_WITH(run_legacy("legacy_fork", 0, 1, 128),
                    Catch::Contains("s_cbranch_join s21") && Catch::Contains("underflow"));
}

TEST_CASE("legacy: s_rfe_b64 and s_rfe_restore_b64 jump to S0", "[legacy]") {
  auto out = run_legacy("legacy_rfe", 0, 0, 64);
  CHECK(out == std::vector<uint32_t>(64, 0xau));
}

namespace {
// The hardware's swizzled private memory (element 4 bytes, index stride 64): wave-view byte W
// belongs to lane (W / 4) % 64, which sees it at its private byte (W / 256) * 4 + W % 4.
uint32_t wave_lane(uint64_t w) { return uint32_t((w / 4) % 64); }
uint32_t wave_lane_off(uint64_t w) { return uint32_t((w / 256) * 4 + w % 4); }
}  // namespace

TEST_CASE("legacy: s_scratch_* address the wave view of the lanes' private segments", "[legacy]") {
  auto out = run_legacy("legacy_sscratch", 0, 0, 128);
  // Lane L's private dword k is 100 * L + k (vector scratch stores); the scalar view of wave
  // byte W is lane_of(W)'s dword lane_off(W) / 4.
  auto wave_dword = [](uint64_t w) { return 100 * wave_lane(w) + wave_lane_off(w) / 4; };
  for (uint32_t l = 0; l < 64; ++l) {
    uint32_t want = 100 * l + 2;
    // s_scratch_store_dwordx2 at wave bytes 0x208 and 0x20c: lanes 2 and 3, dword 2.
    if (l == wave_lane(0x208)) want = 0x5eed;
    if (l == wave_lane(0x20c)) want = 0xfeed;
    INFO("lane " << l);
    CHECK(wave_lane_off(0x208) == 8);
    CHECK(out[l] == want);
  }
  for (int i = 0; i < 4; ++i) CHECK(out[64 + i] == wave_dword(0x104 + 4 * i));
  CHECK(out[68] == wave_dword(3 * 64));            // SGPR offset in 64-byte units
  CHECK(out[69] == wave_dword(2 * 64 + 0x7c));     // M0 offset + immediate
  CHECK(out[70] == wave_dword(2 * 64 + 0x80));
  // 64 lanes * 64 bytes: a * 64 must stay below 4096.
  CHECK_NOTHROW(run_legacy("legacy_sscratch", 63, 1, 128));
  CHECK_THROWS_WITH(run_legacy("legacy_sscratch", 64, 1, 128),
                    Catch::Contains("s_scratch_load_dword s42") &&
                        Catch::Contains("outside the wave's 4096-byte private segment"));
}

namespace {

using namespace simtest;

// A wave with a 64 * `stride`-byte private segment; s[2:3] = its base (FLAT_SCRATCH).
uint64_t give_scratch(Group& g, uint32_t stride) {
  Wave& w = g.w();
  uint64_t base = g.mem.alloc(size_t(stride) * 64);
  w.scratch_base = base;
  w.scratch_lane_stride = stride;
  w.sgpr[102] = w.sgpr[2] = uint32_t(base);
  w.sgpr[103] = w.sgpr[3] = uint32_t(base >> 32);
  return base;
}

}  // namespace

TEST_CASE("legacy: s_scratch_* on the harness: mapping, offsets, faults", "[legacy]") {
  Group g(1, 0, false);
  Wave& w = g.w();
  const uint32_t stride = 32;
  uint64_t base = give_scratch(g, stride);
  // Lane-major bytes as the simulator keeps them: lane L's private byte o at base + L * 32 + o.
  std::vector<uint8_t> mem(64 * stride);
  for (size_t i = 0; i < mem.size(); ++i) mem[i] = uint8_t(i * 7 + 3);
  g.mem.write(base, mem.data(), mem.size());
  auto wave_u32 = [&](uint64_t wv) {  // 4 wave-view bytes, each through the swizzle
    uint32_t v = 0;
    for (int b = 0; b < 4; ++b) v |= uint32_t(mem[wave_lane(wv + b) * stride + wave_lane_off(wv + b)]) << (8 * b);
    return v;
  };
  g.issue(0, assemble("s_scratch_load_dwordx4 s[8:11], s[2:3], 0x1fc"));
  for (int k = 0; k < 4; ++k) CHECK(w.sgpr[8 + k] == wave_u32(0x1fc + 4 * k));
  w.sgpr[5] = 5;
  g.issue(0, assemble("s_scratch_load_dwordx2 s[12:13], s[2:3], s5 offset:-0x40"));  // 5 * 64 - 64
  CHECK(w.sgpr[12] == wave_u32(4 * 64));
  CHECK(w.sgpr[13] == wave_u32(4 * 64 + 4));
  // Stores land at the lane-major location of each dword.
  w.sgpr[16] = 0x11111111u; w.sgpr[17] = 0x22222222u; w.sgpr[18] = 0x33333333u; w.sgpr[19] = 0x44444444u;
  w.m0 = 7;
  g.issue(0, assemble("s_scratch_store_dwordx4 s[16:19], s[2:3], m0 offset:0xf8"));  // 7 * 64 + 0xf8
  std::vector<uint8_t> after(mem.size());
  g.mem.read(base, after.data(), after.size());
  for (int k = 0; k < 4; ++k) {
    uint64_t wv = 7 * 64 + 0xf8 + 4 * k;
    uint32_t got;
    std::memcpy(&got, &after[wave_lane(wv) * stride + wave_lane_off(wv)], 4);
    CHECK(got == 0x11111111u * uint32_t(k + 1));
  }
  size_t changed = 0;
  for (size_t i = 0; i < mem.size(); ++i) changed += mem[i] != after[i];
  CHECK(changed == 16);
  // The last dword of the wave's 2048 bytes is in range, one past it is not; below the base,
  // misaligned: errors.
  CHECK_NOTHROW(g.issue(0, assemble("s_scratch_load_dword s20, s[2:3], 0x7fc")));
  CHECK(w.sgpr[20] == wave_u32(0x7fc));
  CHECK_THROWS_WITH(g.issue(0, assemble("s_scratch_load_dwordx2 s[20:21], s[2:3], 0x7fc")),
                    Catch::Contains("s_scratch_load_dwordx2") && Catch::Contains("2048-byte private segment"));
  CHECK_THROWS_WITH(g.issue(0, assemble("s_scratch_store_dword s20, s[2:3], -4")),
                    Catch::Contains("scalar scratch store") && Catch::Contains("private segment"));
  CHECK_THROWS_WITH(g.issue(0, assemble("s_scratch_load_dword s20, s[2:3], 0x2")),
                    Catch::Contains("misaligned"));
}

TEST_CASE("legacy: the checker sees s_scratch_* results pending on lgkmcnt like s_load", "[legacy][checker]") {
  auto findings = [](std::vector<std::string> prog) {
    Group g(1, 0, true);
    give_scratch(g, 16);
    for (auto& t : prog) {
      if (t == "wait_lgkm") g.issue(0, s_waitcnt(63, 0));
      else if (t == "wait_vm") g.issue(0, s_waitcnt(0, 15));
      else g.issue(0, assemble(t));
    }
    return g.diagnostics();
  };
  auto has = [](const std::vector<std::string>& d, const std::string& s) {
    for (auto& x : d)
      if (x.find(s) != std::string::npos) return true;
    return false;
  };
  for (const char* load : {"s_scratch_load_dword s8, s[2:3], 0x10", "s_load_dword s8, s[2:3], 0x10"}) {
    INFO(load);
    // (s_load of the same bytes is the model: both are SMEM results on lgkmcnt.)
    auto d = findings({load, "s_mov_b32 s9, s8"});
    CHECK(has(d, "pending-read"));
    CHECK(findings({load, "wait_vm", "s_mov_b32 s9, s8"}).size() == d.size());  // vmcnt does not help
    CHECK(findings({load, "wait_lgkm", "s_mov_b32 s9, s8"}).empty());
  }
  CHECK(findings({"s_scratch_store_dword s8, s[2:3], 0x10", "s_mov_b32 s8, 0"}).empty());
}

TEST_CASE("legacy: v_screen_partition_4se_b32 is the guide's shader-engine coverage table", "[legacy]") {
  // The guide: with 32-pixel tiles the SE of (x, y) is {x[5] ^ y[6], y[5] ^ x[6]}; the select is
  // {x_min[6:5], y_min[6:5], x_max[6:5], y_max[6:5]} of a rectangle spanning fewer than 3
  // tiles per axis (modulo 4); the result has bit SE set for every SE a covered tile maps to.
  auto coverage = [](uint32_t sel) {
    uint32_t xmin = sel >> 6 & 3, ymin = sel >> 4 & 3, xmax = sel >> 2 & 3, ymax = sel & 3, mask = 0;
    for (uint32_t i = 0; i <= ((xmax - xmin) & 3); ++i)
      for (uint32_t j = 0; j <= ((ymax - ymin) & 3); ++j) {
        uint32_t x = (xmin + i) & 3, y = (ymin + j) & 3;  // x[6:5], y[6:5]
        uint32_t se = ((x & 1) ^ (y >> 1)) << 1 | ((y & 1) ^ (x >> 1));
        mask |= 1u << se;
      }
    return mask;
  };
  Group g(1, 0, false);
  Wave& w = g.w();
  for (uint32_t base = 0; base < 256; base += 64) {
    for (int l = 0; l < kLanes; ++l) w.v(1)[l] = (base + uint32_t(l)) | 0xabcd0000u;  // S0[7:0] only
    g.issue(0, assemble("v_screen_partition_4se_b32 v2, v1"));
    for (int l = 0; l < kLanes; ++l) {
      INFO("select " << base + l);
      CHECK(w.v(2)[l] == coverage(base + uint32_t(l)));
    }
  }
  w.sgpr[4] = 0x1ff;
  w.exec = 0x5;
  for (int l = 0; l < kLanes; ++l) w.v(3)[l] = 77;
  g.issue(0, assemble("v_screen_partition_4se_b32_e64 v3, s4"));
  for (int l = 0; l < kLanes; ++l) CHECK(w.v(3)[l] == ((0x5ull >> l) & 1 ? coverage(0xff) : 77u));
}

TEST_CASE("legacy: every instruction hipasm's gfx942 table can emit has simulator semantics", "[legacy]") {
  std::string missing;
  for (const hipasm::isa::instr_desc& d : hipasm::isa::gfx942_instrs)
    if (!Registry::get().find(d.name)) missing += " " + std::string(d.name);
  INFO("no semantics:" << missing);
  CHECK(missing.empty());
}

// The dispatcher (dispatch.cpp) on real code objects: entry state (work-item ids packed in v0,
// workgroup ids, the dispatch packet), partial waves, LDS with barriers across 4 waves,
// divergent loops, schedule independence (1 vs 2 threads, seeded interleavings), the
// instruction budget, errors for unknown instructions and bad dispatches, --trace.
// Oracles: plain C++ (ids, sums, Collatz step counts).
#include <catch2/catch.hpp>

#include <cstdio>
#include <random>
#include <set>

#include "test_core_util.hpp"

using namespace core_test;
using hipasm::sim::Memory;

TEST_CASE("entry state: work-item ids, workgroup ids, dispatch packet, partial waves", "[dispatch]") {
  Kernel k(built("sim_core_dispatch.co"), "entry_ids");
  struct Shape { std::array<uint32_t, 3> grid, block; };
  std::vector<Shape> shapes = {
      {{1, 1, 1}, {64, 1, 1}},  {{3, 2, 2}, {5, 3, 2}},   {{2, 1, 1}, {100, 1, 1}},
      {{1, 2, 1}, {16, 16, 4}}, {{4, 3, 1}, {7, 9, 1}},   {{1, 1, 3}, {1, 1, 3}}};
  for (auto& s : shapes) {
    uint32_t nx = s.grid[0] * s.block[0], ny = s.grid[1] * s.block[1], nz = s.grid[2] * s.block[2];
    size_t n = size_t(nx) * ny * nz;
    Memory mem;
    uint64_t out = upload(mem, std::vector<uint32_t>(n * 8, 0xdeadbeef));
    Args args;
    args.add(out);
    for (unsigned threads : {1u, 2u}) {
      auto rep = run(k, mem, args, s.grid, s.block, threads);
      auto got = download<uint32_t>(mem, out, n * 8);
      uint32_t waves_per_group = (s.block[0] * s.block[1] * s.block[2] + 63) / 64;
      CHECK(rep.instructions > 0);
      CHECK(rep.instructions % (uint64_t(waves_per_group) * s.grid[0] * s.grid[1] * s.grid[2]) == 0);
      size_t bad = 0;
      for (uint32_t z = 0; z < nz; ++z)
        for (uint32_t y = 0; y < ny; ++y)
          for (uint32_t x = 0; x < nx; ++x) {
            const uint32_t* o = &got[((size_t(z) * ny + y) * nx + x) * 8];
            uint32_t want[8] = {x % s.block[0], y % s.block[1], z % s.block[2],
                                x / s.block[0], y / s.block[1], z / s.block[2],
                                s.block[0] | s.block[1] << 10 | s.block[2] << 20, 1};
            for (int i = 0; i < 8; ++i)
              if (o[i] != want[i] && bad++ < 5)
                FAIL_CHECK("item (" << x << "," << y << "," << z << ") field " << i << ": " << o[i]
                                    << " != " << want[i] << " (block " << s.block[0] << "x"
                                    << s.block[1] << "x" << s.block[2] << ")");
          }
      CHECK(bad == 0);
    }
  }
}

TEST_CASE("LDS tree sum with barriers across 4 waves, any schedule", "[dispatch]") {
  Kernel k(built("sim_core_dispatch.co"), "lds_tree_sum");
  const uint32_t groups = 6;
  std::vector<int32_t> in(groups * 256);
  std::mt19937 rng(3);
  for (auto& v : in) v = int32_t(rng() % 2001) - 1000;
  std::vector<int32_t> want(groups, 0);
  for (uint32_t g = 0; g < groups; ++g)
    for (int i = 0; i < 256; ++i) want[g] += in[g * 256 + i];
  uint64_t instructions = 0;
  for (auto [threads, seed] : std::vector<std::pair<unsigned, uint64_t>>{{1, 0}, {2, 0}, {1, 1}, {2, 99}, {1, 12345}}) {
    Memory mem;
    uint64_t din = upload(mem, in), dout = upload(mem, std::vector<int32_t>(groups, 0));
    Args args;
    args.add(din).add(dout);
    auto rep = run(k, mem, args, {groups, 1, 1}, {256, 1, 1}, threads, seed);
    INFO("threads " << threads << " seed " << seed);
    CHECK(download<int32_t>(mem, dout, groups) == want);
    if (!instructions) instructions = rep.instructions;
    CHECK(rep.instructions == instructions);  // same work whatever the interleaving
    CHECK(rep.lane_operations > 0);
  }
}

TEST_CASE("divergent loops give the same results on 1 and 2 threads and under seeds", "[dispatch]") {
  Kernel k(built("sim_core_dispatch.co"), "collatz_steps");
  const uint32_t groups = 8, n = groups * 64;
  std::vector<uint32_t> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = i + 1;
  std::vector<uint32_t> want(n);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t v = in[i], c = 0;
    while (v != 1 && c < 1000) { v = (v & 1) ? 3 * v + 1 : v / 2; ++c; }
    want[i] = c;
  }
  for (auto [threads, seed] : std::vector<std::pair<unsigned, uint64_t>>{{1, 0}, {2, 0}, {2, 7}}) {
    Memory mem;
    uint64_t din = upload(mem, in), dout = upload(mem, std::vector<uint32_t>(n, 0));
    Args args;
    args.add(din).add(dout);
    run(k, mem, args, {groups, 1, 1}, {64, 1, 1}, threads, seed);
    CHECK(download<uint32_t>(mem, dout, n) == want);
  }
}

TEST_CASE("a kernel that never ends exceeds the instruction budget", "[dispatch]") {
  Kernel k(built("sim_core_dispatch.co"), "spin");
  Memory mem;
  uint64_t flag = upload(mem, std::vector<int32_t>{0}), out = upload(mem, std::vector<int32_t>{0});
  Args args;
  args.add(flag).add(out);
  CHECK_THROWS_WITH(run(k, mem, args, {4, 1, 1}, {64, 1, 1}, 2, 0, 200000),
                    Catch::Contains("instruction budget of 200000"));
  // With the flag set it finishes.
  int32_t one = 1;
  mem.write(flag, &one, 4);
  CHECK_NOTHROW(run(k, mem, args, {4, 1, 1}, {64, 1, 1}, 2, 0, 200000));
}

TEST_CASE("unknown instructions are errors at launch with address and text", "[dispatch]") {
  Kernel badenc(built("sim_core_asm.co"), "bad_encoding");
  Memory mem;
  Args args;
  args.add(uint64_t(0)).add(0u).add(0u);
  char addr[32];
  std::snprintf(addr, sizeof addr, "0x%llx:", (unsigned long long)(badenc.image().entry + 4));
  CHECK_THROWS_WITH(run(badenc, mem, args, {1, 1, 1}, {64, 1, 1}),
                    Catch::Contains(addr) && Catch::Contains("unknown instruction encoding"));
  // Every instruction the decoder knows has semantics (test_legacy checks the table), so a
  // mnemonic without a handler can only be made by hand: binding reports it before any wave runs.
  hipasm::sim::Program prog;
  prog.base = 0x1000;
  hipasm::sim::Inst fake;
  fake.pc = 0x1000;
  fake.mnemonic = "v_not_simulated_b32";
  fake.text = "v_not_simulated_b32 v1, v2";
  prog.insts.push_back(fake);
  prog.index = {0};
  CHECK_THROWS_WITH(hipasm::sim::bind_handlers(prog, 0x1000),
                    Catch::Contains("0x1000:") && Catch::Contains("v_not_simulated_b32 v1, v2") &&
                        Catch::Contains("no simulator semantics"));
}

TEST_CASE("bad dispatch shapes are one-line errors", "[dispatch]") {
  Kernel k(built("sim_core_dispatch.co"), "collatz_steps");
  Memory mem;
  Args args;
  args.add(uint64_t(0)).add(uint64_t(0));
  CHECK_THROWS_WITH(run(k, mem, args, {1, 1, 1}, {0, 1, 1}), Catch::Contains("at least 1"));
  CHECK_THROWS_WITH(run(k, mem, args, {1, 1, 1}, {64, 32, 1}), Catch::Contains("2048 work-items"));
  hipasm::sim::DispatchParams p;
  p.block[0] = 64;
  p.dynamic_lds = 70000;
  CHECK_THROWS_WITH(hipasm::sim::run_dispatch(k.image(), p, mem, nullptr), Catch::Contains("LDS"));
}

TEST_CASE("--trace prints every executed instruction and what it wrote", "[dispatch]") {
  Kernel k(built("sim_core_dispatch.co"), "collatz_steps");
  Memory mem;
  std::vector<uint32_t> in(64);
  for (uint32_t i = 0; i < 64; ++i) in[i] = i + 1;
  uint64_t din = upload(mem, in), dout = upload(mem, std::vector<uint32_t>(64, 0));
  Args args;
  args.add(din).add(dout);
  std::FILE* f = std::tmpfile();
  REQUIRE(f);
  auto rep = run(k, mem, args, {1, 1, 1}, {64, 1, 1}, 2, 0, 0, nullptr, f);
  std::rewind(f);
  std::string text;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  std::fclose(f);
  size_t lines = std::count(text.begin(), text.end(), '\n');
  CHECK(lines == rep.instructions);
  CHECK(text.find("s_endpgm") != std::string::npos);
  CHECK(text.find("s_load_dwordx4") != std::string::npos);
  CHECK(text.find("exec=0x") != std::string::npos);   // the loop masks lanes off
  CHECK(text.find("  ->  v") != std::string::npos);   // VGPR results are shown
}

TEST_CASE("seeded interleavings change the order of waves (exposing a missing barrier)", "[dispatch]") {
  Kernel k(built("sim_core_dispatch.co"), "racy_handoff");
  std::set<std::vector<int32_t>> outcomes;
  std::vector<int32_t> first_seed_run;
  for (uint64_t seed = 0; seed < 16; ++seed) {
    Memory mem;
    uint64_t out = upload(mem, std::vector<int32_t>(64, 0));
    Args args;
    args.add(out);
    run(k, mem, args, {1, 1, 1}, {128, 1, 1}, 1, seed);
    auto got = download<int32_t>(mem, out, 64);
    outcomes.insert(got);
    if (seed == 5) first_seed_run = got;
  }
  CHECK(outcomes.size() >= 2);
  // A given seed is reproducible.
  Memory mem;
  uint64_t out = upload(mem, std::vector<int32_t>(64, 0));
  Args args;
  args.add(out);
  run(k, mem, args, {1, 1, 1}, {128, 1, 1}, 2, 5);
  CHECK(download<int32_t>(mem, out, 64) == first_seed_run);
}

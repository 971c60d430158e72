// Global wave sync (ds_gws_*) across workgroups, per the Vega / CDNA3 ISA guides: a grid
// barrier (init, barrier, re-armed barrier; resource = M0[21:16] + offset), semaphores
// (sema_v/sema_p as a FIFO, sema_br, sema_release_all), and the deadlocks the dispatcher must
// report instead of hanging. Kernels: core_kernels/gws_kernels.s; expected values in plain C++.
#include <catch2/catch.hpp>

#include <array>
#include <string>
#include <vector>

#include "checker.hpp"
#include "test_core_util.hpp"

using namespace core_test;

namespace {

struct GridResult {
  std::vector<uint32_t> words;
  uint64_t instructions = 0;
};

// T work-items per group, G groups, barrier value bar (waves - 1 for a working barrier).
GridResult run_grid(uint32_t T, uint32_t G, uint32_t bar, unsigned threads, uint64_t seed,
                    hipasm::sim::Observer* obs = nullptr) {
  Kernel k(built("sim_gws_asm.co"), "gws_grid_barrier");
  hipasm::sim::Memory mem;
  const size_t total = size_t(T) * G;
  uint64_t buf = upload(mem, std::vector<uint32_t>(3 * total, 0));
  Args a;
  a.add(buf).add(T).add(G).add(bar);
  GridResult r;
  r.instructions = run(k, mem, a, {G, 1, 1}, {T, 1, 1}, threads, seed, 0, obs).instructions;
  r.words = download<uint32_t>(mem, buf, 3 * total);
  return r;
}

std::vector<uint32_t> expected_grid(uint32_t T, uint32_t G) {
  const uint32_t total = T * G;
  std::vector<uint32_t> e(3 * size_t(total));
  for (uint32_t t = 0; t < total; ++t) {
    e[t] = 3 * t + 1;
    e[total + t] = 3 * ((t + T) % total) + 1;
  }
  for (uint32_t t = 0; t < total; ++t) e[2 * total + t] = e[total + (t + total - T) % total];
  return e;
}

std::vector<uint32_t> run_sema(uint32_t C, uint32_t n, uint32_t groups, unsigned threads, uint64_t seed,
                               hipasm::sim::Observer* obs = nullptr) {
  Kernel k(built("sim_gws_asm.co"), "gws_sema");
  hipasm::sim::Memory mem;
  const size_t words = 2 * size_t(n) + C + 2;
  uint64_t buf = upload(mem, std::vector<uint32_t>(words, 0));
  Args a;
  a.add(buf).add(C).add(n);
  run(k, mem, a, {groups, 1, 1}, {64, 1, 1}, threads, seed, 0, obs);
  return download<uint32_t>(mem, buf, words);
}

}  // namespace

TEST_CASE("gws: a grid barrier orders every wave's writes before every wave's reads", "[gws]") {
  const uint32_t T = 128, G = 5;  // 2 waves per group, 10 waves
  const auto expect = expected_grid(T, G);
  hipasm::sim::Checker checker;
  GridResult base = run_grid(T, G, T / 64 * G - 1, 1, 0, &checker);
  CHECK(base.words == expect);
  for (auto& d : checker.diagnostics()) UNSCOPED_INFO(d);
  CHECK(checker.diagnostics().empty());
  // Any thread count and interleaving: the same results (GWS dispatches run on one thread).
  for (unsigned threads : {1u, 2u, 4u}) {
    for (uint64_t seed : {0ull, 7ull, 12345ull}) {
      INFO("threads " << threads << " seed " << seed);
      GridResult r = run_grid(T, G, T / 64 * G - 1, threads, seed);
      CHECK(r.words == expect);
      if (seed == 0) CHECK(r.instructions == base.instructions);
    }
  }
  // One wave per group, more groups.
  CHECK(run_grid(64, 12, 11, 3, 99).words == expected_grid(64, 12));
}

TEST_CASE("gws: a barrier waiting for more waves than the grid has is a deadlock error", "[gws]") {
  // 2 groups x 2 waves; ds_gws_init 8 = a barrier of 9 waves.
  for (unsigned threads : {1u, 4u}) {
    INFO("threads " << threads);
    CHECK_THROWS_WITH(run_grid(128, 2, 8, threads, 0),
                      Catch::Contains("ds_gws_barrier v10 offset:1 gds") &&
                          Catch::Contains("GWS barrier never completes: 4 of 9 waves arrived"));
    CHECK_THROWS_WITH(run_grid(128, 2, 8, threads, 5),
                      Catch::Contains("GWS barrier never completes: 4 of 9 waves arrived"));
  }
}

TEST_CASE("gws: semaphores hand items from a producer to consumers", "[gws]") {
  const uint32_t C = 3, n = 6;
  std::vector<uint32_t> expect(2 * size_t(n) + C + 2, 0);
  for (uint32_t i = 0; i < n; ++i) {
    expect[i] = 7 * i + 5;
    expect[n + i] = 2 * (7 * i + 5);
  }
  for (uint32_t g = 0; g < C; ++g) expect[2 * n + g] = 0xabc0 + g;
  expect[2 * n + C] = C;      // done: every consumer passed the release_all semaphore
  expect[2 * n + C + 1] = 0xabc0;
  hipasm::sim::Checker checker;
  CHECK(run_sema(C, n, C + 1, 1, 0, &checker) == expect);
  for (auto& d : checker.diagnostics()) UNSCOPED_INFO(d);
  CHECK(checker.diagnostics().empty());
  for (unsigned threads : {1u, 4u})
    for (uint64_t seed : {0ull, 3ull, 77ull}) {
      INFO("threads " << threads << " seed " << seed);
      CHECK(run_sema(C, n, C + 1, threads, seed) == expect);
    }
}

TEST_CASE("gws: waves waiting at a semaphore nobody signals are a deadlock error", "[gws]") {
  // No producer group: consumer 0 waits at resource 0, the others at resource 1.
  CHECK_THROWS_WITH(run_sema(3, 4, 3, 2, 0),
                    Catch::Contains("ds_gws_sema_p gds") &&
                        Catch::Contains("GWS semaphore never released: 1 waves wait"));
}

// The kernel benchmarks' comparisons are stable: a kernel's predicted time does not depend on
// what ran before it in the same program (the other kernel of a comparison, earlier rows), since
// each run has a device of its own with its buffers first (bench_common.hpp, fresh_device). The
// timing model hashes addresses (cache sets, L2 channels), so in one shared device it did: the
// control case below shows that on this shape (aiter's fp8 4096x3072x7168 moved by several
// percent between builds whose only change was our kernel). With HIPASM_AITER_DIR (aiter's
// hsa/gfx942 folder, or its checkout) aiter's side is checked too.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include "bench_gemm_quant.hpp"
#include "gemm_quant_bench_configs.hpp"

namespace {
namespace fs = std::filesystem;
namespace rt = hipasm::rt;
const char* const k128 = "_ZN5aiter43fp8gemm_bf16_blockscale_BpreShuffle_128x128E";

// aiter's checkout from HIPASM_AITER_DIR (its hsa/gfx942 folder, as the aiter tests take it, or
// the checkout itself); empty when unset.
fs::path aiter_root() {
  const char* d = std::getenv("HIPASM_AITER_DIR");
  if (!d) return {};
  for (fs::path p : {fs::path(d), fs::path(d).parent_path().parent_path()})
    if (fs::exists(p / "hsa/gfx942/fp8gemm_blockscale")) return p;
  return {};
}

const std::vector<hipasm::kernels::gemm_quant_kernel_ref> ours = {{"gemm_fp8_block_128x128", gq_bench::fp8_block_128x128},
                                                         {"gemm_fp8_block_64x128", gq_bench::fp8_block_64x128}};

std::vector<bench::quant_row> rows(const std::vector<bench::quant_shape>& shapes, const char* forced = nullptr) {
  if (forced) setenv("GEMM_QUANT_BENCH_KERNEL", forced, 1);
  else unsetenv("GEMM_QUANT_BENCH_KERNEL");
  auto r = bench::quant_rows("gemm_fp8", aiter_asm::Family::fp8bs, HIPASM_BENCH_CO, aiter_root(), ours, shapes);
  unsetenv("GEMM_QUANT_BENCH_KERNEL");
  return r;
}

// The row checked, and another (other sizes: other buffers) run before it.
const bench::quant_shape row_shape{512, 3072, 1536, k128, 1}, other_shape{256, 1024, 1024, k128, 1};
}  // namespace

TEST_CASE("bench placement: a kernel's time does not depend on the row run before it", "[bench]") {
  if (aiter_root().empty()) WARN("HIPASM_AITER_DIR not set: aiter's side not checked");
  const auto alone = rows({row_shape});
  const auto after_other = rows({other_shape, row_shape});
  REQUIRE(alone.size() == 1);
  REQUIRE(after_other.size() == 2);
  CHECK(after_other[1].hipasm_us == alone[0].hipasm_us);
  CHECK(after_other[1].aiter_us == alone[0].aiter_us);
  CHECK(alone[0].hipasm_us > 0);
}

TEST_CASE("bench placement: aiter's time does not depend on our kernel", "[bench]") {
  if (aiter_root().empty()) {
    WARN("HIPASM_AITER_DIR not set: not run");
    return;
  }
  // another of our kernels: another code object image and another time
  const auto a = rows({row_shape}, "gemm_fp8_block_128x128"), b = rows({row_shape}, "gemm_fp8_block_64x128");
  REQUIRE(a.size() == 1);
  REQUIRE(b.size() == 1);
  CHECK(a[0].hipasm_us != b[0].hipasm_us);
  CHECK(a[0].aiter_us > 0);
  CHECK(a[0].aiter_us == b[0].aiter_us);
}

// The control: the same launch in one shared device, after allocations of several sizes (the
// buffers then sit at other addresses: other L2 channels and cache sets), does not predict one
// time for all (so the cases above would fail if the benchmarks shared a device; on this shape
// one of the seven placements moves it by a few cycles).
TEST_CASE("bench placement: in a shared device the time moves with earlier allocations", "[bench]") {
  const size_t sizes[] = {4096, 2 * 4096, 3 * 4096, 5 * 4096, 7 * 4096, 11 * 4096, 3 * 65536 + 4096};
  std::vector<uint64_t> cycles;
  for (size_t size : sizes) {
    auto dev = bench::fresh_device();
    rt::buffer<uint8_t> earlier(*dev, size);
    rt::profile_options po;
    po.device = "mi300x";
    rt::launch_options lo;
    lo.profile = &po;
    cycles.push_back(bench::run_quant_ours(*dev, HIPASM_BENCH_CO, ours[0], nullptr, 0, row_shape, lo).profile->cycles);
    INFO("after " << size << " bytes: " << cycles.back() << " cycles");
  }
  std::string all;
  for (size_t i = 0; i < cycles.size(); ++i) all += std::to_string(sizes[i]) + ": " + std::to_string(cycles[i]) + "  ";
  INFO(all);
  CHECK(std::count(cycles.begin(), cycles.end(), cycles[0]) < std::ptrdiff_t(cycles.size()));
}

// The case that showed the problem (hidden: minutes of simulation; run it with
// `test_bench_placement "[known]"` and HIPASM_AITER_DIR): aiter's fp8 4096x3072x7168 in one
// shared device after our code object and buffers, whose sizes change from build to build (here
// an allocation of 0 to 64 KiB more stands for a larger code object), against aiter's in a
// device of its own.
TEST_CASE("bench placement: aiter fp8 4096x3072x7168 after our allocations", "[.known]") {
  const fs::path root = aiter_root();
  if (root.empty()) {
    WARN("HIPASM_AITER_DIR not set: not run");
    return;
  }
  const bench::quant_shape s{4096, 3072, 7168, k128, 1};
  const auto ks = aiter_asm::kernel_list(root, aiter_asm::family(aiter_asm::Family::fp8bs));
  REQUIRE(ks.count(k128));
  rt::profile_options po;
  po.device = "mi300x";
  po.sample_cus = 16;  // (as the benchmark)
  rt::launch_options lo;
  lo.profile = &po;
  aiter_asm::Problem p;
  p.M = int(s.m), p.N = int(s.n), p.K = int(s.k);
  auto aiter_us = [&](rt::device& dev) {
    return aiter_asm::run_kernel(dev, root, aiter_asm::Family::fp8bs, k128, ks.at(k128), p, lo).profile->time_us;
  };
  const double alone = aiter_us(*bench::fresh_device());
  for (size_t extra : {size_t(0), size_t(4096), size_t(16384), size_t(65536)}) {
    auto dev = bench::fresh_device();
    rt::buffer<uint8_t> code_object(*dev, 1 << 20 | extra);
    rt::buffer<uint8_t> A(*dev, size_t(s.m) * s.k), B(*dev, size_t(s.n) * s.k), C(*dev, size_t(s.m) * s.n * 2);
    const double shared = aiter_us(*dev);
    std::printf("aiter fp8 4096x3072x7168: %.2f us after our 1 MiB + %zu bytes and buffers; %.2f us in its own device\n",
                shared, extra, alone);
  }
  CHECK(aiter_us(*bench::fresh_device()) == alone);  // (and again after all that: the same)
}

// The benchmarks' tile pick looks only at kernels of the row's scale kind: fp8's 8-wave 256x128
// one-buffer tile is a block-scale kernel, so a per-token row of a grid it would fit takes the
// per-token kernels' pick, and the block row takes it (no simulation: the pick only).
TEST_CASE("bench pick_quant: only kernels of the row's scale kind", "[bench]") {
  using hipasm::kernels::quant_scale;
  const std::vector<hipasm::kernels::gemm_quant_kernel_ref> ks = {
      {"gemm_fp8_block_256x128_1", gq_bench::fp8_block_256x128_1},
      {"gemm_fp8_block_128x128", gq_bench::fp8_block_128x128},
      {"gemm_fp8_token_128x128", gq_bench::fp8_token_128x128},
      {"gemm_fp8_token_256x128_1", gq_bench::fp8_token_256x128_1}};
  const bench::quant_shape block{8192, 8192, 8192, k128, 1, quant_scale::block128};
  const bench::quant_shape token{8192, 8192, 8192, nullptr, 1, quant_scale::per_token};
  const bench::quant_shape tensor{8192, 8192, 8192, nullptr, 1, quant_scale::per_tensor};
  CHECK(bench::pick_quant(ks, block).name == "gemm_fp8_block_256x128_1");
  CHECK(bench::pick_quant(ks, token).name == "gemm_fp8_token_256x128_1");
  // one round of 192 tiles with K of 40 tiles: the one-round rule, the per-token kernel
  CHECK(bench::pick_quant(ks, {4096, 1536, 5120, nullptr, 1, quant_scale::per_token}).name == "gemm_fp8_token_256x128_1");
  // K of 10 tiles: not the one-round rule; a 4-wave tile of the kind
  CHECK(bench::pick_quant(ks, {4096, 1536, 1280, nullptr, 1, quant_scale::per_token}).name == "gemm_fp8_token_128x128");
  // no kernel of the kind: an error, not another kind's kernel
  CHECK_THROWS_WITH(bench::pick_quant(ks, tensor), Catch::Contains("no kernel of the row's scale kind"));
}

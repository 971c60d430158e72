// HIPASM_TEST_KERNELS: gemm_pyhip.hip
// bench/lowering's GEMM (pyhip's test_gemm kernel re-expressed in hipasm, the instruction
// count benchmark of the expression lowering) computes C = A * B^T in hipasm-sim: bf16
// inputs (small integers, so every product and sum is exact in f32), bf16 output rounded to
// nearest even, against plain C++; the checker reports nothing.
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace rt = hipasm::rt;

namespace {
uint16_t to_bf16(float f) {  // round to nearest even (no NaN here)
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(u >> 16);
}
}  // namespace

TEST_CASE("pyhip's test_gemm kernel in hipasm computes A * B^T", "[gemm]") {
  constexpr int M = 128, N = 128, K = 128;
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> d(-4, 4);
  std::vector<float> a(M * K), b(N * K);
  std::vector<uint16_t> ab(M * K), bb(N * K);
  for (int i = 0; i < M * K; ++i) ab[i] = to_bf16(a[i] = static_cast<float>(d(rng)));
  for (int i = 0; i < N * K; ++i) bb[i] = to_bf16(b[i] = static_cast<float>(d(rng)));
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = dev->load_file(std::string(HIPASM_CORE_KERNEL_DIR) + "/core_" HIPASM_CORE_TEST_NAME "_gemm_pyhip.co");
  rt::buffer<uint16_t> A(*dev, ab), B(*dev, bb), C(*dev, static_cast<std::size_t>(M * N));
  rt::kernel_args args;
  args.add(A.ptr()).add(B.ptr()).add(C.ptr()).add(M);
  rt::launch_report rep = dev->launch(*mod, "gemm_pyhip_k128", {1, 1, 1}, {256, 1, 1}, args);
  for (const auto& diag : rep.diagnostics) FAIL_CHECK("checker: " << diag);
  const std::vector<uint16_t> got = C.download();
  int bad = 0;
  for (int i = 0; i < M && bad < 8; ++i)
    for (int j = 0; j < N && bad < 8; ++j) {
      float s = 0;
      for (int k = 0; k < K; ++k) s += a[i * K + k] * b[j * K + k];
      if (got[i * N + j] != to_bf16(s)) {
        ++bad;
        FAIL_CHECK("C[" << i << "][" << j << "] = 0x" << std::hex << got[i * N + j] << " want 0x" << to_bf16(s));
      }
    }
  CHECK(bad == 0);
  int nonzero = 0;
  for (uint16_t v : got) nonzero += v != 0;
  CHECK(nonzero > M * N / 2);  // (not an all-zero output matching all-zero sums)
}

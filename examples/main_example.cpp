// The main example: prints each example kernel's asm (with source lines and register names)
// and its register/LDS usage as the build made them (the code objects' asm listings,
// listing.hpp); when hipasm-sim is built it also runs every kernel in the simulator and checks
// the results against plain C++. Both for the code objects of the target HIPASM_TEST_ARCH names
// (gfx942 by default). Exit status 0 only if all match.
//
// Host code only: no kernel headers (the device compiler builds those, examples/*.hip), so
// any C++20 compiler builds it (ctest cmake_gxx_host builds and runs it with g++).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "listing.hpp"
#include "sim_code_object.hpp"
#include "sizes.hpp"

#if HIPASM_EXAMPLES_HAVE_SIM
#include <hipasm/helpers/debug_log_host.hpp>
#include <hipasm/rt/launcher.hpp>
#endif

namespace {

// The example's code object for the target this run is for (HIPASM_TEST_ARCH, else the default).
std::string co(const char* ex) { return hipasm::test::code_object(ex); }

// Kernel `name` of example `ex`: its asm and usage, from the listing beside the code object.
void show(const char* ex, const char* name) {
  std::string listing = co(ex);
  listing.replace(listing.size() - 3, 3, ".s");
  const examples::kernel_listing k = examples::read_listing(listing, name);
  std::printf("==== %s ====\n%s", name, k.body.c_str());
  std::printf("---- %s: %zu instructions, %ld SGPRs (%ld with VCC, FLAT_SCRATCH and XNACK_MASK), %ld VGPRs, %ld AGPRs, "
              "LDS %ld bytes\n\n", name, k.instructions, k.sgprs, k.sgpr_count, k.vgprs, k.agprs, k.lds_bytes);
}

#if HIPASM_EXAMPLES_HAVE_SIM
namespace rt = hipasm::rt;

bool report(const char* name, bool ok, const rt::launch_report& rep) {
  for (const auto& d : rep.diagnostics) std::printf("  checker: %s\n", d.c_str());
  ok = ok && rep.diagnostics.empty();
  std::printf("sim %-10s %s (%llu wave instructions)\n", name, ok ? "OK" : "MISMATCH",
              static_cast<unsigned long long>(rep.instructions));
  return ok;
}

bool run_all() {
  auto dev = rt::device::open(rt::backend::sim);
  std::printf("running them in hipasm-sim\n");
  bool all = true;
  {  // sum_even
    auto m = dev->load_file(co("sum_even"));
    rt::buffer<int> out(*dev, 1);
    int n = 32;
    rt::kernel_args a;
    a.add(out.ptr()).add(n);
    auto rep = dev->launch(*m, "sum_even", {1, 1, 1}, {64, 1, 1}, a);
    int want = 0;
    for (int i = 0; i < n; ++i)
      if ((i & 1) == 0) want += i;
    all &= report("sum_even", out.download()[0] == want, rep);
  }
  {  // vector_add, a length that is not a multiple of the block
    const char* ex = "vector_add";
    const unsigned n = 1000;
    std::vector<float> x(n), y(n);
    for (unsigned i = 0; i < n; ++i) {
      x[i] = 0.5f * i;
      y[i] = 1000.0f - i;
    }
    auto m = dev->load_file(co(ex));
    rt::buffer<float> A(*dev, x), B(*dev, y), C(*dev, std::vector<float>(n + 64, -1.0f));
    rt::kernel_args a;
    a.add(C.ptr()).add(A.ptr()).add(B.ptr()).add(n);
    auto rep = dev->launch(*m, "vector_add", {(n + examples::vector_add_block - 1) / examples::vector_add_block, 1, 1},
                           {examples::vector_add_block, 1, 1}, a);
    auto c = C.download();
    bool ok = true;
    for (unsigned i = 0; i < n; ++i) ok &= c[i] == x[i] + y[i];
    for (unsigned i = n; i < n + 64; ++i) ok &= c[i] == -1.0f;  // nothing written past n
    all &= report(ex, ok, rep);
  }
  {  // gemv_f16
    const unsigned rows = 37, K = 512;
    std::vector<_Float16> A(rows * K), x(K);
    for (unsigned r = 0; r < rows; ++r)
      for (unsigned k = 0; k < K; ++k) A[r * K + k] = static_cast<_Float16>(((r * 7 + k * 3) % 17) * 0.125f - 1.0f);
    for (unsigned k = 0; k < K; ++k) x[k] = static_cast<_Float16>((k % 11) * 0.25f - 1.25f);
    auto m = dev->load_file(co("gemv_f16"));
    rt::buffer<_Float16> dA(*dev, A), dx(*dev, x);
    rt::buffer<float> dy(*dev, std::vector<float>(rows, 0.0f));
    rt::kernel_args a;
    a.add(dy.ptr()).add(dA.ptr()).add(dx.ptr()).add(rows).add(K);
    unsigned groups = (rows + examples::gemv_waves_per_group - 1) / examples::gemv_waves_per_group;
    auto rep = dev->launch(*m, "gemv_f16", {groups, 1, 1}, {64 * examples::gemv_waves_per_group, 1, 1}, a);
    auto y = dy.download();
    bool ok = true;
    for (unsigned r = 0; r < rows; ++r) {
      double want = 0;
      for (unsigned k = 0; k < K; ++k) want += static_cast<double>(A[r * K + k]) * static_cast<double>(x[k]);
      ok &= std::fabs(y[r] - want) <= 1e-3 * (1 + std::fabs(want));
    }
    all &= report("gemv_f16", ok, rep);
  }
  {  // kernel_2d
    const unsigned rows = 23, cols = 37;
    std::vector<float> A(rows * cols), B(rows * cols);
    for (unsigned i = 0; i < rows * cols; ++i) {
      A[i] = static_cast<float>(i);
      B[i] = static_cast<float>(i % 7) - 3.0f;
    }
    float alpha = 0.5f;
    auto m = dev->load_file(co("kernel_2d"));
    rt::buffer<float> dA(*dev, A), dB(*dev, B), dC(*dev, std::vector<float>(rows * cols, 0.0f));
    rt::kernel_args a;
    a.add(dC.ptr()).add(dA.ptr()).add(dB.ptr()).add(alpha).add(rows).add(cols);
    rt::dim3 grid{(cols + examples::k2d_bx - 1) / examples::k2d_bx, (rows + examples::k2d_by - 1) / examples::k2d_by, 1};
    auto rep = dev->launch(*m, "kernel_2d", grid, {examples::k2d_bx, examples::k2d_by, 1}, a);
    auto c = dC.download();
    bool ok = true;
    for (unsigned i = 0; i < rows * cols; ++i) ok &= c[i] == A[i] + B[i] * alpha;
    all &= report("kernel_2d", ok, rep);
  }
  {  // log_squares: the log printed, then each record checked against the work-item it names
    const unsigned n = 70, groups = (n + examples::log_squares_block - 1) / examples::log_squares_block;
    auto m = dev->load_file(co("log_squares"));
    rt::buffer<int> dout(*dev, std::vector<int>(n, -1));
    rt::buffer<uint32_t> dlog(*dev, hipasm::debug_log_buffer(256));
    rt::kernel_args a;
    a.add(dout.ptr()).add(dlog.ptr()).add(n);
    auto rep = dev->launch(*m, "log_squares", {groups, 1, 1}, {examples::log_squares_block, 1, 1}, a);
    const std::vector<uint32_t> log = dlog.download();
    hipasm::print_debug_log(log);
    uint32_t dropped = 0;
    const auto recs = hipasm::decode_debug_log(log, &dropped);
    const auto out = dout.download();
    bool ok = dropped == 0 && recs.size() == n + groups;  // a square a work-item, n once a wave
    for (unsigned i = 0; i < n; ++i) ok &= out[i] == static_cast<int>(i * i);
    unsigned squares = 0;
    for (const auto& r : recs) {
      const unsigned i = r.workgroup * examples::log_squares_block + r.wave * 64 + r.lane;
      if (r.tag == 1) ok &= !r.scalar && i < n && r.bits == i * i && ++squares;
      else ok &= r.tag == 2 && r.scalar && r.bits == n;
    }
    all &= report("log_squares", ok && squares == n, rep);
  }
  // stencil_ring / stencil_open: 11 rows (3 workgroups, the last one part empty), 5 steps,
  // against the same operations in C++ (both neighbours' products, a fused multiply-add, an
  // add: bit-exact)
  for (const bool periodic : {true, false}) {
    const char* name = periodic ? "stencil_ring" : "stencil_open";
    const unsigned rows = 11, steps = 5, groups = (rows * 64 + examples::stencil_ring_block - 1) / examples::stencil_ring_block;
    const float c0 = 0.25f, c1 = 0.5f, c2 = 0.125f;  // (c0 != c2: a left/right mix-up shows)
    std::vector<float> x(rows * 64);
    for (unsigned i = 0; i < rows * 64; ++i) x[i] = static_cast<float>((i * 37) % 101) - 50.0f;
    auto m = dev->load_file(co("stencil_ring"));
    rt::buffer<float> din(*dev, x), dout(*dev, std::vector<float>(groups * examples::stencil_ring_block, -7.0f));
    rt::kernel_args a;
    a.add(dout.ptr()).add(din.ptr()).add(rows).add(steps).add(c0).add(c1).add(c2);
    auto rep = dev->launch(*m, name, {groups, 1, 1}, {examples::stencil_ring_block, 1, 1}, a);
    for (unsigned s = 0; s < steps; ++s) {
      std::vector<float> y(x.size());
      for (unsigned r = 0; r < rows; ++r)
        for (unsigned i = 0; i < 64; ++i) {
          const float* row = &x[r * 64];
          const float l = i > 0 ? row[i - 1] : periodic ? row[63] : 0.0f;
          const float rt_ = i < 63 ? row[i + 1] : periodic ? row[0] : 0.0f;
          y[r * 64 + i] = std::fma(c1, row[i], l * c0) + rt_ * c2;
        }
      x = y;
    }
    const auto got = dout.download();
    bool ok = true;
    for (unsigned i = 0; i < rows * 64; ++i) ok &= got[i] == x[i];
    for (unsigned i = rows * 64; i < got.size(); ++i) ok &= got[i] == -7.0f;  // rows past the last: not stored
    all &= report(name, ok, rep);
  }
  return all;
}
#endif

}  // namespace

int main() {
  try {
    std::printf("the %s code objects\n\n", hipasm::test::test_arch().c_str());
    show("sum_even", "sum_even");
    show("vector_add", "vector_add");
    show("gemv_f16", "gemv_f16");
    show("kernel_2d", "kernel_2d");
    show("log_squares", "log_squares");
    show("stencil_ring", "stencil_ring");
    show("stencil_ring", "stencil_open");
#if HIPASM_EXAMPLES_HAVE_SIM
    if (!run_all()) {
      std::printf("main_example: a kernel's result differs from C++\n");
      return 1;
    }
    std::printf("main_example: all kernels match C++ in hipasm-sim\n");
#else
    std::printf("main_example: hipasm-sim is not built here; kernels printed only\n");
#endif
  } catch (const std::exception& e) {
    std::printf("main_example: %s\n", e.what());
    return 1;
  }
  return 0;
}

// HIPASM_TEST_KERNELS: dead_loads.hip
// dce removes a load whose results nobody reads only when nothing else can observe it
// (passes/dce.hpp): no cache-policy bit, and no s_waitcnt whose count depends on it. Each
// kernel runs in hipasm-sim against C++ (the checker reports nothing) and its asm is checked.
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <regex>
#include <string>
#include <vector>

#include "asm_counts.hpp"
#include "kernels/dead_loads.hpp"

using namespace dead_loads;
namespace rt = hipasm::rt;

namespace {
const char* names[] = {"vm_zero_wait", "vm_partial_wait", "vm_glc",   "smem_zero_wait", "ds_zero_wait",
                       "no_wait_in_block", "branch_follows", "baseline", "end_vm", "end_buffer", "end_smem",
                       "end_in_if", "end_lds_dma", "end_atomic", "loop_dead", "loop_dead_wait", "loop_next",
                       "loop_epilogue", "loop_partial"};
static_assert(sizeof(names) / sizeof(names[0]) == count);
int matches(const std::string& text, const char* re) {
  std::regex r(re);
  return static_cast<int>(std::distance(std::sregex_iterator(text.begin(), text.end(), r), std::sregex_iterator()));
}
int loads(const std::string& text) { return matches(text, "\t(global_load|buffer_load|s_load_dword |ds_read)"); }
template <int K>
std::string text() {
  return hipasm::asm_text<dl_kernel<K>>(names[K]);
}
template <int K>
std::pair<int, int> counts() {
  return {loads(hipasm::asm_text<dl_kernel<K>>(names[K])), loads(hipasm::asm_text<dl_kernel_no_dce<K>>(names[K]))};
}
}  // namespace

TEST_CASE("dead loads go only when nothing can observe them", "[dce]") {
  // (with dce off every load stays: the counts compare the same kernel)
  auto [zero, zero_all] = counts<vm_zero_wait>();
  CHECK(zero == zero_all - 1);
  auto [partial, partial_all] = counts<vm_partial_wait>();
  CHECK(partial == partial_all);
  auto [glc, glc_all] = counts<vm_glc>();
  CHECK(glc == glc_all);
  auto [smem, smem_all] = counts<smem_zero_wait>();
  CHECK(smem == smem_all - 1);
  auto [ds, ds_all] = counts<ds_zero_wait>();
  CHECK(ds == ds_all - 1);
  // (no wait follows in its block nor after: the end of the kernel waits for it)
  auto [nowait, nowait_all] = counts<no_wait_in_block>();
  CHECK(nowait == nowait_all - 1);
  // the zero wait comes after a branch, on both of its paths: the load goes
  auto [branch, branch_all] = counts<branch_follows>();
  CHECK(branch == branch_all - 1);
}

TEST_CASE("a dead load at the end of the kernel goes with its address arithmetic", "[dce]") {
  // s_endpgm waits for everything: no wait follows the load, none depends on it. The kernel
  // is then instruction for instruction the one without the load (its address arithmetic,
  // the buffer's V#, the s_load's address all gone).
  using hipasm::test::count_asm;
  const int base = count_asm(text<baseline>()).instructions;
  for (const std::string& t : {text<end_vm>(), text<end_buffer>(), text<end_smem>()}) {
    INFO(t);
    CHECK(count_asm(t).instructions == base);
    CHECK(loads(t) == loads(text<baseline>()));
  }
  // in a per-lane If that ends the kernel (its join falls to s_endpgm): the load and the
  // address arithmetic inside go, the If's own instructions stay
  const std::string in_if = text<end_in_if>();
  INFO(in_if);
  CHECK(loads(in_if) == loads(text<baseline>()));
  const std::size_t body = in_if.find('\n', in_if.find("s_cbranch_execz"));
  REQUIRE(body != std::string::npos);
  CHECK(count_asm(in_if.substr(body, in_if.find(":\n", body) - body)).instructions == 0);
  // a load to LDS writes LDS, a returning atomic writes memory: both stay
  auto [lds, lds_all] = counts<end_lds_dma>();
  CHECK(lds == lds_all);
  CHECK(matches(text<end_lds_dma>(), "\tbuffer_load_dword .* lds") == 1);
  CHECK(matches(text<end_atomic>(), "\tglobal_atomic_add ") == 1);
}

TEST_CASE("a dead load in a loop goes; one a later iteration or the code after reads stays", "[dce]") {
  for (const std::string& t : {text<loop_dead>(), text<loop_dead_wait>()}) {
    INFO(t);
    CHECK(loads(t) == loads(text<baseline>()));
    // its address arithmetic too: the pointer it steps (64-bit adds) and its start
    CHECK(matches(t, "\tv_(lshl_add_u64|add_co_u32|addc_co_u32|add_co_ci_u32|mad_u32_u24)") ==
          matches(text<baseline>(), "\tv_(lshl_add_u64|add_co_u32|addc_co_u32|add_co_ci_u32|mad_u32_u24)"));
  }
  for (auto [kept, all] : {counts<loop_next>(), counts<loop_epilogue>(), counts<loop_partial>()}) CHECK(kept == all);
}

TEST_CASE("kernels with dead loads compute what C++ computes", "[dce]") {
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = dev->load_file(std::string(HIPASM_CORE_KERNEL_DIR) + "/core_" HIPASM_CORE_TEST_NAME "_dead_loads.co");
  std::vector<uint32_t> in(128);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = 0xfffffff0u + i * 7919u;
  for (int k = 0; k < count; ++k) {
    rt::buffer<uint32_t> I(*dev, in), O(*dev, 64);
    rt::kernel_args args;
    args.add(O.ptr()).add(I.ptr());
    rt::launch_report rep = dev->launch(*mod, std::string("dl_") + names[k], {1, 1, 1}, {64, 1, 1}, args);
    INFO(names[k]);
    for (const auto& d : rep.diagnostics) FAIL_CHECK("checker: " << d);
    const std::vector<uint32_t> got = O.download();
    for (uint32_t i = 0; i < 64; ++i) CHECK(got[i] == in[i] + 1u);
  }
}

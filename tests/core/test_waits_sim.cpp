// HIPASM_TEST_KERNELS: waits.hip
// Computed waits (J.wait_for, kernel_options::auto_waitcnt) and the late kernel-argument
// wait: the exact s_waitcnt of each kernel's asm against counts worked out by hand
// (waits_fn.hpp says why each is what it is), and every kernel run in hipasm-sim against
// plain C++ with the simulator's checker silent (it reports a read before a sufficient
// wait even when the simulated value is already there).
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/waits_fn.hpp"

namespace rt = hipasm::rt;
using namespace hipasm;
using namespace hipasm::test::waits;

namespace {

struct sim {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  std::unique_ptr<rt::module> mod =
      dev->load_file(std::string(HIPASM_CORE_KERNEL_DIR) + "/core_" + HIPASM_CORE_TEST_NAME + "_waits.co");
};
sim& S() {
  static sim s;
  return s;
}

// The asm's lines without comments and indentation.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t e = text.find('\n', at);
    if (e == std::string::npos) e = text.size();
    std::string l = text.substr(at, e - at);
    at = e + 1;
    const std::size_t c = l.find(';');
    if (c != std::string::npos) l = l.substr(0, c);
    while (!l.empty() && (l.back() == ' ' || l.back() == '\t')) l.pop_back();
    std::size_t b = 0;
    while (b < l.size() && (l[b] == ' ' || l[b] == '\t')) ++b;
    if (b < l.size()) out.push_back(l.substr(b));
  }
  return out;
}
// The operands of every s_waitcnt, in order ("vmcnt(2)", "lgkmcnt(0)", ...).
std::vector<std::string> waits_of(const std::string& text) {
  std::vector<std::string> w;
  for (const std::string& l : lines_of(text))
    if (l.rfind("s_waitcnt ", 0) == 0) w.push_back(l.substr(10));
  return w;
}
// Index of the first line starting with `prefix` at or after `from`, or -1.
int find_line(const std::vector<std::string>& ls, const std::string& prefix, int from = 0) {
  for (int i = from; i < static_cast<int>(ls.size()); ++i)
    if (ls[i].rfind(prefix, 0) == 0) return i;
  return -1;
}

using strings = std::vector<std::string>;

void check(const rt::launch_report& rep, const char* kernel) {
  for (const auto& d : rep.diagnostics) FAIL_CHECK(kernel << " checker: " << d);
}

std::vector<uint32_t> input(std::size_t n) {
  std::vector<uint32_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<uint32_t>(i * 2654435761u >> 7) + 11u;
  return v;
}

std::vector<uint32_t> run(const char* kernel, const std::vector<uint32_t>& in, const uint32_t* n) {
  rt::device& d = *S().dev;
  rt::buffer<uint32_t> I(d, in), out(d, std::vector<uint32_t>(64, 0xdeadbeefu));
  rt::kernel_args a;
  a.add(out.ptr()).add(I.ptr());
  if (n) a.add(*n);
  check(d.launch(*S().mod, kernel, {1, 1, 1}, {64, 1, 1}, a), kernel);
  return out.download();
}

}  // namespace

TEST_CASE("wait_for: straight line, vmcnt counts younger loads", "[waits]") {
  CHECK(waits_of(asm_text<wf_straight_fn>("wf_straight")) == strings{"lgkmcnt(0)", "vmcnt(2)", "vmcnt(0)"});
  const auto in = input(192);
  const auto out = run("wf_straight", in, nullptr);
  for (uint32_t l = 0; l < 64; ++l) CHECK(out[l] == 3u * in[l] + in[64 + l] + in[128 + l]);
}

TEST_CASE("wait_for: LDS in order, SMEM out of order on lgkmcnt", "[waits]") {
  // The kernel-argument wait before the first LDS instruction, lgkmcnt(1) for the older
  // ds_read (the younger s_load does not count), lgkmcnt(0) for the s_load.
  CHECK(waits_of(asm_text<wf_lds_smem_fn>("wf_lds_smem")) == strings{"lgkmcnt(0)", "lgkmcnt(1)", "lgkmcnt(0)"});
  const auto in = input(64);
  const auto out = run("wf_lds_smem", in, nullptr);
  for (uint32_t l = 0; l < 64; ++l) CHECK(out[l] == (l + 1) + 2 * l + in[0]);
}

TEST_CASE("wait_for: the weakest count sufficient on every path into a join", "[waits]") {
  CHECK(waits_of(asm_text<wf_join_fn>("wf_join")) == strings{"lgkmcnt(0)", "vmcnt(1)", "vmcnt(0)"});
  CHECK(waits_of(asm_text<wf_join_uneven_fn>("wf_join_uneven")) == strings{"lgkmcnt(0)", "vmcnt(0)"});
  const auto in = input(192);
  for (uint32_t n : {0u, 1u}) {
    const auto out = run("wf_join", in, &n);
    const auto out2 = run("wf_join_uneven", in, &n);
    for (uint32_t l = 0; l < 64; ++l) {
      CHECK(out[l] == in[l] + (n > 0 ? in[64 + l] : in[128 + l]));
      CHECK(out2[l] == in[l] + (n > 0 ? in[64 + l] : 5u));
    }
  }
}

TEST_CASE("wait_for and the automatic mode over a loop back-edge (two loads in flight)", "[waits]") {
  const strings expected{"lgkmcnt(0)", "vmcnt(1)", "vmcnt(1)", "vmcnt(0)"};
  CHECK(waits_of(asm_text<wf_loop_fn>("wf_loop")) == expected);
  CHECK(waits_of(asm_text<auto_loop_fn>("auto_loop")) == expected);
  for (uint32_t n : {0u, 1u, 3u}) {
    const auto in = input((2 * n + 1) * 64);
    for (const char* k : {"wf_loop", "auto_loop"}) {
      const auto out = run(k, in, &n);
      for (uint32_t l = 0; l < 64; ++l) {
        uint32_t ref = 0;
        for (uint32_t row = 0; row <= 2 * n; ++row) ref += in[row * 64 + l];
        CHECK(out[l] == ref);
      }
    }
  }
}

TEST_CASE("automatic waits: LDS, SMEM and a lane-masked load before a store", "[waits]") {
  CHECK(waits_of(asm_text<auto_mixed_fn>("auto_mixed")) ==
        strings{"lgkmcnt(0)", "lgkmcnt(1)", "lgkmcnt(0)", "vmcnt(0)"});
  const auto in = input(128);
  const auto out = run("auto_mixed", in, nullptr);
  for (uint32_t l = 0; l < 64; ++l) CHECK(out[l] == (l < 32 ? in[64 + l] : (l + 1) + 2 * l + in[0]));
}

TEST_CASE("kernel arguments: loads first, their wait before the first read", "[waits]") {
  const strings late = lines_of(asm_text<karg_late_fn>("karg_late"));
  const strings early = lines_of(asm_text<karg_early_fn>("karg_early"));
  // Scheduling on: both multiplies (thread id only) before the wait; off: the wait right
  // after the prologue, before them.
  const int w_late = find_line(late, "s_waitcnt"), m_late = find_line(late, "v_mul_lo_u32");
  const int w_early = find_line(early, "s_waitcnt"), m_early = find_line(early, "v_mul_lo_u32");
  REQUIRE(w_late >= 0);
  REQUIRE(m_late >= 0);
  CHECK(find_line(late, "v_mul_lo_u32", m_late + 1) < w_late);
  CHECK(find_line(late, "s_load", w_late) < 0);
  CHECK(w_early < m_early);
  CHECK(waits_of(asm_text<karg_late_fn>("karg_late")) == strings{"lgkmcnt(0)"});
  rt::device& d = *S().dev;
  for (const char* k : {"karg_late", "karg_early"}) {
    rt::buffer<uint32_t> out(d, std::vector<uint32_t>(64, 0));
    rt::kernel_args a;
    a.add(out.ptr()).add(uint32_t{1000});
    check(d.launch(*S().mod, k, {1, 1, 1}, {64, 1, 1}, a), k);
    const auto o = out.download();
    for (uint32_t l = 0; l < 64; ++l) CHECK(o[l] == (l * 7 + 3) * (l * 7 + 3) + 1000);
  }
}

TEST_CASE("kernel arguments first read in a loop: one wait, before the loop", "[waits]") {
  const strings ls = lines_of(asm_text<karg_loop_fn>("karg_loop"));
  CHECK(waits_of(asm_text<karg_loop_fn>("karg_loop")) == strings{"lgkmcnt(0)"});
  const int w = find_line(ls, "s_waitcnt");
  int label = -1;
  for (int i = 0; i < static_cast<int>(ls.size()) && label < 0; ++i)
    if (ls[i].back() == ':') label = i;
  CHECK(w >= 0);
  CHECK(w < label);
  rt::device& d = *S().dev;
  for (uint32_t n : {0u, 5u}) {
    rt::buffer<uint32_t> out(d, std::vector<uint32_t>(64, 0));
    rt::kernel_args a;
    a.add(out.ptr()).add(uint32_t{9}).add(n);
    check(d.launch(*S().mod, "karg_loop", {1, 1, 1}, {64, 1, 1}, a), "karg_loop");
    const auto o = out.download();
    for (uint32_t l = 0; l < 64; ++l) CHECK(o[l] == l + 9 * n);
  }
}

namespace {
// wait_for(x) does not cover y: reading y is still an error (the checker checks computed
// and hand-written waits alike).
constexpr void wf_missing_fn(builder J, arg<unsigned*> out, arg<const unsigned*> in) {
  auto o = lane_byte_offset(J);
  auto x = J.vgpr<u32>().named("x");
  auto y = J.vgpr<u32>().named("y");
  J.global_load_dword(x, o, in);
  J.global_load_dword(y, o, in, {.offset = 256});
  J.wait_for(x);
  auto r = J.vgpr<u32>().named("r");
  r = x + y;
  J.global_store_dword(o, r, out);
}
constexpr void wf_not_register_fn(builder J, arg<unsigned*> out) {
  auto o = lane_byte_offset(J);
  J.wait_for(o, vcc);
  J.global_store_dword(o, o, out);
}
}  // namespace

TEST_CASE("wait_for: reads it does not cover are still errors; registers only", "[waits]") {
  const pipeline_state st = detail::compile_kernel<wf_missing_fn>("wf_missing");
  REQUIRE(st.error.failed);
  const std::string msg(st.error.view());
  CHECK(msg.find("reads 'y'") != std::string::npos);
  CHECK(msg.find("needs vmcnt(0)") != std::string::npos);
  const pipeline_state st2 = detail::compile_kernel<wf_not_register_fn>("wf_not_register");
  REQUIRE(st2.error.failed);
  const std::string msg2(st2.error.view());
  CHECK(msg2.find("test_waits_sim.cpp:") != std::string::npos);
  CHECK(msg2.find("wait_for: argument 2 is not a register") != std::string::npos);
}

TEST_CASE("automatic waits: an SMEM load may not overwrite a pending SMEM result", "[waits]") {
  CHECK(waits_of(asm_text<auto_smem_waw_fn>("auto_smem_waw")) == strings{"lgkmcnt(0)", "lgkmcnt(0)", "lgkmcnt(0)"});
  const auto in = input(64);
  const auto out = run("auto_smem_waw", in, nullptr);
  for (uint32_t l = 0; l < 64; ++l) CHECK(out[l] == in[1]);
}

namespace {
// The same two loads with one wait after both: an error (SMEM returns out of order). Two
// VMEM loads into one register are fine (in order on vmcnt).
constexpr void smem_waw_fn(builder J, arg<unsigned*> out, arg<const unsigned*> in) {
  auto s = J.sgpr<u32>().named("s");
  J.s_load_dword(s, in, 0);
  J.s_load_dword(s, in, 4);
  J.s_waitcnt(lgkmcnt(0));
  auto r = J.vgpr<u32>().named("r");
  r = s + 0u;
  J.global_store_dword(lane_byte_offset(J), r, out);
}
constexpr void vmem_waw_fn(builder J, arg<unsigned*> out, arg<const unsigned*> in) {
  auto o = lane_byte_offset(J);
  auto v = J.vgpr<u32>().named("v");
  J.global_load_dword(v, o, in);
  J.global_load_dword(v, o, in, {.offset = 256});
  J.s_waitcnt(vmcnt(0));
  J.global_store_dword(o, v, out);
}
}  // namespace

TEST_CASE("waitcnt check: overwriting a pending SMEM result by a load is an error", "[waits]") {
  // (dce off: the first load's result is never read, so dce would remove that load)
  const pipeline_state st =
      detail::compile_kernel<with_options<smem_waw_fn, kernel_options{.dce = false}>>("smem_waw");
  REQUIRE(st.error.failed);
  const std::string msg(st.error.view());
  CHECK(msg.find("'s_load_dword' overwrites 's'") != std::string::npos);
  CHECK(msg.find("needs lgkmcnt(0)") != std::string::npos);
  CHECK_FALSE(detail::compile_kernel<vmem_waw_fn>("vmem_waw").error.failed);
}

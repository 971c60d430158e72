// HIPASM_TEST_KERNELS: toolkit.hip
// The loop helpers (unroll, software_pipeline), the register features (pin, aligned, reshape,
// rebind/swap_handles, ring), EXEC masks as values, Jump(label, condition) and the device debug
// log, each executed in hipasm-sim against plain C++ (kernels/toolkit_kernels.hpp); pin
// conflicts as errors at the user's line (the pipeline run on the host).
#include "sim_code_object.hpp"
#include <catch2/catch.hpp>

#include <hipasm/helpers/debug_log_host.hpp>
#include <hipasm/rt/launcher.hpp>

#include "toolkit_kernels.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace rt = hipasm::rt;

namespace {

struct sim {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  std::unique_ptr<rt::module> mod = dev->load_file(hipasm::test::code_object("toolkit"));
};
sim& S() {
  static sim s;
  return s;
}

void check(const rt::launch_report& rep, const std::string& kernel) {
  for (const auto& m : rep.diagnostics) FAIL_CHECK(kernel << " checker: " << m);
}

// Runs a one-wave kernel (out, [in,] n); returns out (slots of 64 ints).
std::vector<int32_t> run(const std::string& kernel, int n, const std::vector<int32_t>* in = nullptr, int slots = 2) {
  rt::device& d = *S().dev;
  rt::buffer<int32_t> O(d, std::vector<int32_t>(64 * slots, -12345));
  std::unique_ptr<rt::buffer<int32_t>> I;
  rt::kernel_args a;
  a.add(O.ptr());
  if (in) {
    I = std::make_unique<rt::buffer<int32_t>>(d, *in);
    a.add(I->ptr());
  }
  a.add(n);
  check(d.launch(*S().mod, kernel, {1, 1, 1}, {64, 1, 1}, a), kernel);
  return O.download();
}

int32_t unroll_ref(int n, int lane) {
  uint32_t acc = 0;
  for (int i = 0; i < n; ++i) acc = acc * 3u + static_cast<uint32_t>(i + lane);
  return static_cast<int32_t>(acc);
}

}  // namespace

TEST_CASE("unroll: compile-time trip counts with remainders", "[loops][sim]") {
  for (auto [n, f] : std::vector<std::pair<int, int>>{{0, 4}, {3, 4}, {4, 4}, {10, 4}, {9, 3}, {7, 1}}) {
    auto out = run("unroll_ct_" + std::to_string(n) + "_" + std::to_string(f), 0);
    for (int l = 0; l < 64; ++l) CHECK(out[l] == unroll_ref(n, l));
  }
}

TEST_CASE("unroll: run-time trip counts with remainders", "[loops][sim]") {
  for (int f : {3, 4})
    for (int n : {0, 1, 2, 3, 4, 5, 7, 8, 9, 13}) {
      INFO("factor " << f << " n " << n);
      auto out = run("unroll_rt_" + std::to_string(f), n);
      for (int l = 0; l < 64; ++l) CHECK(out[l] == unroll_ref(n, l));
    }
}

namespace {
std::vector<int32_t> pipe_input() {
  std::mt19937 rng(3);
  std::vector<int32_t> in(64 * 16);
  for (auto& v : in) v = static_cast<int32_t>(rng() % 1000) - 500;
  return in;
}
void check_pipe(const std::string& kernel, int trips, int n_arg) {
  INFO(kernel << " trips " << trips);
  auto in = pipe_input();
  auto out = run(kernel, n_arg, &in);
  for (int l = 0; l < 64; ++l) {
    uint32_t acc = 0;
    for (int it = 0; it < trips; ++it) acc = acc * 3u + static_cast<uint32_t>(in[it * 64 + l] + it);
    CHECK(out[l] == static_cast<int32_t>(acc));
    CHECK(out[64 + l] == trips);
  }
}
}  // namespace

TEST_CASE("software_pipeline: compile-time trip counts, depths 2-4, with and without interleave", "[loops][sim]") {
  check_pipe("pipe_ct_0_2_0", 0, 0);
  check_pipe("pipe_ct_1_3_0", 1, 0);
  check_pipe("pipe_ct_2_2_0", 2, 0);
  check_pipe("pipe_ct_5_2_0", 5, 0);
  check_pipe("pipe_ct_8_3_0", 8, 0);
  check_pipe("pipe_ct_9_3_1", 9, 0);
  check_pipe("pipe_ct_7_4_1", 7, 0);
}

TEST_CASE("software_pipeline: run-time trip counts, also below the depth", "[loops][sim]") {
  for (int t : {0, 1, 2, 3, 4, 5, 7, 10}) {
    check_pipe("pipe_rt_2", t, t);
    check_pipe("pipe_rt_3", t, t);
  }
}

TEST_CASE("software_pipeline: run-time trip counts with loads past the count (overrun)", "[loops][sim]") {
  // every copy of the loop may leave; the loads run depth - 1 rows ahead (within in[]'s 16)
  for (int t : {0, 1, 2, 3, 4, 5, 6, 7, 8, 10}) {
    check_pipe("pipe_rt_2_over", t, t);
    check_pipe("pipe_rt_3_over", t, t);
    check_pipe("pipe_rt_4_il_over", t, t);
  }
}

TEST_CASE("software_pipeline: the waits it emits are the weakest that cover the computed buffer", "[loops]") {
  // depth 3, one load per iteration: each steady step issues its load first, so vmcnt(2) (the
  // loads of the next two iterations in flight), then 1 and 0 in the epilogue.
  auto br = hipasm::build_kernel<tk_pipe_ct_8_3_0>("p");
  REQUIRE(!br.error.failed);
  std::vector<unsigned> vm;
  for (const auto& b : br.fn.blocks)
    for (const auto& in : b.instrs)
      if (in.op == static_cast<uint16_t>(hipasm::target_op::s_waitcnt)) vm.push_back(static_cast<unsigned>((in.ops[0].value & 0xf) | ((in.ops[0].value >> 14) & 3) << 4));
  // (the kernel argument wait first, the per-lane stores have none)
  REQUIRE(vm.size() >= 4);
  CHECK(vm[vm.size() - 1] == 0);
  CHECK(vm[vm.size() - 2] == 1);
  for (size_t i = 1; i + 2 < vm.size(); ++i) CHECK(vm[i] == 2);
}

namespace {
std::vector<int32_t> lane_inputs() {
  std::vector<int32_t> v(64);
  for (int l = 0; l < 64; ++l) v[l] = (l * 37) % 23 - 5;  // -5..17
  return v;
}
std::vector<int32_t> run_in(const std::string& kernel, const std::vector<int32_t>& in, int slots, bool with_n, int n = 0) {
  rt::device& d = *S().dev;
  rt::buffer<int32_t> O(d, std::vector<int32_t>(64 * slots, -12345)), I(d, in);
  rt::kernel_args a;
  a.add(O.ptr()).add(I.ptr());
  if (with_n) a.add(n);
  check(d.launch(*S().mod, kernel, {1, 1, 1}, {64, 1, 1}, a), kernel);
  return O.download();
}
}  // namespace

TEST_CASE("registers: pin, aligned, reshape, swap_handles in a C++ loop, two LDS buffers swapped", "[registers][sim]") {
  auto in = lane_inputs();
  auto out = run_in("regs", in, 5, false);
  for (int l = 0; l < 64; ++l) {
    const int32_t x = in[l];
    CHECK(out[l] == 10 * x);
    CHECK(out[64 + l] == x + 1100);
    CHECK(out[128 + l] == (((x * 2) * 2 + 1) * 2 + 2) * 2 + 3);
    CHECK(out[192 + l] == x + 21);
    CHECK(out[256 + l] == 2 * x + 5);
  }
  // Where the allocator put them: the pinned array on v40..v43, the aligned one at a multiple of 4.
  // (fold and cse off: `al[0] = x + 0` stays an instruction of its own, so element 0 is
  // allocated and its alignment can be seen; with folding it is x itself, with cse an earlier
  // x + 0)
  auto st = hipasm::detail::compile_kernel<
      hipasm::with_options<tk::regs_kernel, hipasm::kernel_options{.cse = false, .fold = false}>>("regs");
  REQUIRE(!st.error.failed);
  int pinned_seen = 0, aligned_seen = 0;
  for (const auto& v : st.fn.vregs) {
    if (v.name == "pinned" && v.phys >= 0) {
      CHECK(v.phys == 40 + v.array_off);
      ++pinned_seen;
    }
    if (v.name == "aligned6" && v.phys >= 0 && v.array_off == 0) {
      CHECK(v.phys % 4 == 0);
      ++aligned_seen;
    }
  }
  CHECK(pinned_seen == 4);
  CHECK(aligned_seen == 1);
}

TEST_CASE("registers: pinned values that do not overlap in time share their register", "[registers][sim]") {
  rt::device& d = *S().dev;
  rt::buffer<int32_t> O(d, std::vector<int32_t>(64, 0));
  rt::kernel_args a;
  a.add(O.ptr());
  check(d.launch(*S().mod, "pin_reuse", {1, 1, 1}, {64, 1, 1}, a), "pin_reuse");
  auto o = O.download();
  for (int l = 0; l < 64; ++l) CHECK(o[l] == (5 * l + 1) * 2);
}

TEST_CASE("registers: pin conflicts are errors at the pin's line", "[registers]") {
  // (fold off: with folding, `b = a[0] + a[1]` and `s = a[1] + b` need a[1] no longer once b
  // is written, so the pins no longer overlap in time)
  auto st = hipasm::detail::compile_kernel<hipasm::with_options<tk::pin_conflict, hipasm::kernel_options{.fold = false}>>("pin_conflict");
  REQUIRE(st.error.failed);
  std::string msg(st.error.view());
  INFO(msg);
  CHECK(msg.find("toolkit_kernels.hpp:" + std::to_string(tk::kPinConflictLine) + ": error:") != std::string::npos);
  CHECK(msg.find("is pinned to v11, but v11 holds element [1] of the VGPR array allocated at") != std::string::npos);
  auto st2 = hipasm::detail::compile_kernel<tk::pin_misaligned>("pin_misaligned");
  REQUIRE(st2.error.failed);
  std::string msg2(st2.error.view());
  INFO(msg2);
  CHECK(msg2.find("toolkit_kernels.hpp:" + std::to_string(tk::kPinAlignLine) + ": error:") != std::string::npos);
  CHECK(msg2.find("is pinned to s5, but its use as a 2-dword tuple needs a multiple of 2") != std::string::npos);
}

TEST_CASE("EXEC masks as values: lane_mask, with_exec_mask, exec_mask/set_exec", "[exec_mask][sim]") {
  auto in = lane_inputs();
  for (int n : {2, 7}) {
    auto out = run_in("exec_masks", in, 3, true, n);
    for (int l = 0; l < 64; ++l) {
      CHECK(out[l] == (in[l] < 10 ? in[l] + 100 : in[l]));
      CHECK(out[64 + l] == (l % 2 ? 7 : 0));
      CHECK(out[128 + l] == (n > 3 ? 2 : 1));
    }
  }
}

TEST_CASE("with_exec_mask: Break and Return inside it leave the lanes for good", "[exec_mask][sim]") {
  std::vector<int32_t> in(64);
  for (int l = 0; l < 64; ++l) in[l] = l % 3 == 0 ? -(l % 7) : (l * 5) % 19 - 2;  // negatives, small, >= 10
  auto out = run_in("exec_flow", in, 1, true, 0);
  for (int l = 0; l < 64; ++l) {
    const int x = in[l];
    const bool m = x < 10;
    int cnt = 0, cnt2 = 0;
    bool returned = false;
    for (int k = 0; k < 4; ++k) {
      if (m) {
        if (x * k > 20) break;
        cnt += 1;
      }
      cnt2 += 1;
    }
    if (m && x < 0) returned = true;
    INFO("lane " << l << " x " << x);
    CHECK(out[l] == (returned ? -12345 : cnt * 100 + cnt2));
  }
}

TEST_CASE("Jump(label, condition): a counted loop on SCC and a branch on EXECZ", "[jump][sim]") {
  for (int n : {0, 1, 5, 9}) {
    auto out = run("jumps", n);
    for (int l = 0; l < 64; ++l) {
      CHECK(out[l] == n * (n - 1) / 2);
      CHECK(out[64 + l] == n * (n - 1) / 2);
    }
  }
}

TEST_CASE("debug log: tagged values by tag, workgroup, wave and lane; SGPR values once; overflow counted", "[debug_log][sim]") {
  const int groups = 2;
  std::vector<float> in(64 * groups);
  for (int i = 0; i < 64 * groups; ++i) in[i] = static_cast<float>(i % 7) - 3.0f + 0.5f;
  for (uint32_t cap : {1000u, 100u}) {
    rt::device& d = *S().dev;
    rt::buffer<float> I(d, in), O(d, std::vector<float>(64 * groups, 0));
    rt::buffer<uint32_t> D(d, hipasm::debug_log_buffer(cap));
    rt::kernel_args a;
    a.add(O.ptr()).add(I.ptr()).add(D.ptr()).add(42);
    check(d.launch(*S().mod, "debug_log_kernel", {groups, 1, 1}, {64, 1, 1}, a), "debug_log_kernel");
    auto out = O.download();
    for (int i = 0; i < 64 * groups; ++i) CHECK(out[i] == in[i] + 1.0f);
    auto buf = D.download();
    uint32_t dropped = 0;
    auto recs = hipasm::decode_debug_log(buf, &dropped);
    // What the kernel appends: per workgroup 64 x (tag 1), the lanes with x >= 0 (tag 2), one n (tag 3).
    std::vector<hipasm::debug_record> want;
    for (int g = 0; g < groups; ++g)
      for (int l = 0; l < 64; ++l) {
        hipasm::debug_record r;
        r.tag = 1, r.type = hipasm::dtype::f32, r.line = tk::kDebugLine, r.workgroup = g, r.lane = l;
        std::memcpy(&r.bits, &in[g * 64 + l], 4);
        want.push_back(r);
      }
    for (int g = 0; g < groups; ++g)
      for (int l = 0; l < 64; ++l)
        if (in[g * 64 + l] >= 0) {
          hipasm::debug_record r;
          r.tag = 2, r.type = hipasm::dtype::i32, r.line = tk::kDebugLine + 4, r.workgroup = g, r.lane = l;
          r.bits = static_cast<uint32_t>(l * 2);
          want.push_back(r);
        }
    for (int g = 0; g < groups; ++g) {
      hipasm::debug_record r;
      r.tag = 3, r.type = hipasm::dtype::i32, r.scalar = true, r.line = tk::kDebugLine + 6, r.workgroup = g, r.lane = 0;
      r.bits = 42;
      want.push_back(r);
    }
    CHECK(buf[0] == want.size());
    if (cap >= want.size()) {
      CHECK(dropped == 0);
      REQUIRE(recs.size() == want.size());
      for (size_t i = 0; i < want.size(); ++i) {
        INFO("record " << i);
        CHECK(recs[i].tag == want[i].tag);
        CHECK(recs[i].type == want[i].type);
        CHECK(recs[i].scalar == want[i].scalar);
        CHECK(recs[i].line == want[i].line);
        CHECK(recs[i].workgroup == want[i].workgroup);
        CHECK(recs[i].wave == 0);
        CHECK(recs[i].lane == want[i].lane);
        CHECK(recs[i].bits == want[i].bits);
      }
      std::string text = hipasm::format_debug_log(buf);
      char v5[32];
      std::snprintf(v5, sizeof v5, "%g", static_cast<double>(in[64 + 5]));  // 3.5
      CHECK(text.find("tag 1 line " + std::to_string(tk::kDebugLine) + " wg 1,0,0 wave 0 lane 5 f32 " + v5 + "\n") != std::string::npos);
      CHECK(text.find("tag 3 line " + std::to_string(tk::kDebugLine + 6) + " wg 0,0,0 wave 0 lane - i32 42\n") != std::string::npos);
    } else {
      CHECK(recs.size() == cap);
      CHECK(dropped == want.size() - cap);
      CHECK(hipasm::format_debug_log(buf).find("records did not fit") != std::string::npos);
    }
  }
}

TEST_CASE("debug log: 3-D workgroup ids, and the wave and lane of 3-D workgroups", "[debug_log][sim]") {
  // 5 x 7 x 3 = 105 work-items: two waves, the second partial; the wave and lane of a
  // work-item are its linear id / 64 and % 64 (the hardware forms waves from the linear id).
  const uint32_t bx = 5, by = 7, bz = 3, gx = 2, gy = 3, gz = 2, n = bx * by * bz;
  rt::device& d = *S().dev;
  rt::buffer<uint32_t> D(d, hipasm::debug_log_buffer(gx * gy * gz * n));
  rt::kernel_args a;
  a.add(D.ptr());
  check(d.launch(*S().mod, "debug_log_3d", {gx, gy, gz}, {bx, by, bz}, a), "debug_log_3d");
  const auto buf = D.download();
  uint32_t dropped = 0;
  const auto recs = hipasm::decode_debug_log(buf, &dropped);
  CHECK(dropped == 0);
  REQUIRE(recs.size() == size_t(gx * gy * gz * n));
  size_t i = 0;  // decode's order: tag, workgroup z, y, x, wave, lane
  for (uint32_t wz = 0; wz < gz; ++wz)
    for (uint32_t wy = 0; wy < gy; ++wy)
      for (uint32_t wx = 0; wx < gx; ++wx)
        for (uint32_t t = 0; t < n; ++t, ++i) {
          const auto& r = recs[i];
          INFO("workgroup " << wx << "," << wy << "," << wz << " work-item " << t);
          CHECK(r.tag == 7);
          CHECK(r.workgroup == wx);
          CHECK(r.workgroup_y == wy);
          CHECK(r.workgroup_z == wz);
          CHECK(r.wave == t / 64);
          CHECK(r.lane == t % 64);
          CHECK(r.bits == ((t % bx) | ((t / bx) % by) << 8 | (t / (bx * by)) << 16));
        }
  CHECK(hipasm::format_debug_log(buf).find(" wg 1,2,1 wave 1 lane 40 u32 ") != std::string::npos);
}

namespace tk_err {
using namespace hipasm;
constexpr int kLine = __LINE__ + 3;
constexpr void jump_per_lane(builder J, arg<int*>) {
  auto L = J.make_label();
  J.Jump(L, J.thread_id_x() < 5u);
  J.place(L);
}
constexpr void pin_out_of_range(builder J, arg<int*>) {
  auto a = J.vgpr<i32>(4).pin(253);
  a.fill(0);
}
constexpr void bad_alignment(builder J, arg<int*>) {
  auto a = J.vgpr<i32>(4).aligned(3);
  a.fill(0);
}
constexpr void bad_reshape(builder J, arg<int*>) {
  auto a = J.vgpr<i32>(6);
  auto b = a.reshape(4, 2);
  b.fill(0);
}
constexpr void pin_entry(builder J, arg<int*> out) {
  auto w = J.workgroup_id_x();
  w.pin(3);
  auto z = J.sgpr<u32>();
  z = w + 1u;
  J.s_store_dword(z, out, 0, {.glc = true});
}
}  // namespace tk_err

TEST_CASE("register control: misuse is an error naming the line", "[registers][jump]") {
  auto msg = [](const hipasm::build_result& r) { return std::string(r.error.view()); };
  auto a = hipasm::build_kernel<tk_err::jump_per_lane>("k");
  CHECK(msg(a).find(":" + std::to_string(tk_err::kLine) + ": error:") != std::string::npos);
  CHECK(msg(a).find("needs a wave-uniform condition") != std::string::npos);
  auto b = hipasm::build_kernel<tk_err::pin_out_of_range>("k");
  CHECK(msg(b).find(":" + std::to_string(tk_err::kLine + 4) + ": error:") != std::string::npos);
  CHECK(msg(b).find("pin: VGPR 253..256 is outside VGPRs 0..255") != std::string::npos);
  auto c = hipasm::build_kernel<tk_err::bad_alignment>("k");
  CHECK(msg(c).find(":" + std::to_string(tk_err::kLine + 8) + ": error:") != std::string::npos);
  CHECK(msg(c).find("the alignment must be a power of two from 1 to 64, got 3") != std::string::npos);
  auto d = hipasm::build_kernel<tk_err::bad_reshape>("k");
  CHECK(msg(d).find(":" + std::to_string(tk_err::kLine + 13) + ": error:") != std::string::npos);
  CHECK(msg(d).find("reshape: the new shape's element count differs") != std::string::npos);
  auto e = hipasm::detail::compile_kernel<tk_err::pin_entry>("k");
  std::string me(e.error.view());
  CHECK(me.find(":" + std::to_string(tk_err::kLine + 18) + ": error:") != std::string::npos);
  CHECK(me.find("pin: an entry-state register (kernel argument pointer, workgroup or work-item id) has its own register, s2") != std::string::npos);
}

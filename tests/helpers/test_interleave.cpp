// HIPASM_TEST_KERNELS: interleave.hip
// interleave() (helpers/interleave.hpp): the merged order of an 8-MFMA stream and a load/LDS
// stream, derived by hand from the documented cost model; the merged and the sequential
// kernels both executed in hipasm-sim against plain C++; a pipelined GEMM-like loop
// interleaved and not, checked the same way, and the timing model's MFMA-busy of both.
#include "sim_code_object.hpp"
#include <catch2/catch.hpp>

#include <hipasm/rt/profile.hpp>  // the launcher, with the profile's types

#include "interleave_fuzz.hpp"
#include "interleave_kernels.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace rt = hipasm::rt;

namespace {

struct sim_device {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  std::unique_ptr<rt::module> mod = dev->load_file(hipasm::test::code_object("interleave"));
};
sim_device& S() {
  static sim_device s;
  return s;
}

uint16_t bf16_of(int v) {  // small integers are exact in bf16
  float f = static_cast<float>(v);
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return static_cast<uint16_t>(u >> 16);
}
float f32_of(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// bf16 element e (0..3) of the pair at dwords p[0], p[1].
int elem(const uint32_t* p, int e) {
  uint32_t w = p[e / 2];
  uint16_t h = static_cast<uint16_t>(e % 2 ? w >> 16 : w & 0xffff);
  return static_cast<int>(f32_of(uint32_t{h} << 16));
}

// D += A * B for v_mfma_f32_32x32x8_bf16, the operands as lane data: A[i][k] is element k%4 of
// lane i + 32*(k/4)'s pair, B[k][j] element k%4 of lane j + 32*(k/4)'s pair; D register r of
// lane l is D[8*(r/4) + 4*(l/32) + r%4][l%32] (the matrix instruction calculator's layout).
void mfma_ref(float (&D)[16][64], const uint32_t* const* a_pair, const uint32_t* const* b_pair) {
  for (int r = 0; r < 16; ++r)
    for (int l = 0; l < 64; ++l) {
      int i = 8 * (r / 4) + 4 * (l / 32) + r % 4, j = l % 32;
      float s = 0;
      for (int k = 0; k < 8; ++k) s += static_cast<float>(elem(a_pair[i + 32 * (k / 4)], k % 4) * elem(b_pair[j + 32 * (k / 4)], k % 4));
      D[r][l] += s;
    }
}

std::vector<std::string> body_order(const hipasm::function& fn) {
  std::vector<std::string> names;
  for (const auto& b : fn.blocks)
    for (const auto& in : b.instrs) names.emplace_back(hipasm::isa::gfx942_table[in.op].name);
  // The merged span: the first MFMA to the last MFMA.
  size_t first = names.size(), last = 0;
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i].rfind("v_mfma", 0) == 0) {
      if (first == names.size()) first = i;
      last = i;
    }
  REQUIRE(first < names.size());
  return std::vector<std::string>(names.begin() + first, names.begin() + last + 1);
}

std::vector<uint32_t> order_input() {
  std::mt19937 rng(5);
  std::vector<uint32_t> in(64 * 48);
  for (int l = 0; l < 64; ++l) {
    for (int d = 0; d < 32; ++d)
      in[l * 48 + d] = bf16_of(static_cast<int>(rng() % 9) - 4) | uint32_t{bf16_of(static_cast<int>(rng() % 9) - 4)} << 16;
    for (int d = 32; d < 48; ++d) in[l * 48 + d] = rng();
  }
  return in;
}

void check_order_kernel(const char* kernel) {
  auto in = order_input();
  rt::device& d = *S().dev;
  rt::buffer<uint32_t> I(d, in), O(d, std::vector<uint32_t>(64 * 64, 0));
  rt::kernel_args args;
  args.add(O.ptr()).add(I.ptr());
  auto rep = d.launch(*S().mod, kernel, {1, 1, 1}, {64, 1, 1}, args);
  for (auto& m : rep.diagnostics) FAIL_CHECK(kernel << ": " << m);
  auto out = O.download();
  float acc[2][16][64] = {};
  for (int i = 0; i < 8; ++i) {
    const uint32_t* ap[64];
    const uint32_t* bp[64];
    for (int l = 0; l < 64; ++l) {
      ap[l] = &in[l * 48 + 2 * i];
      bp[l] = &in[l * 48 + 16 + 2 * i];
    }
    mfma_ref(acc[i % 2], ap, bp);
  }
  int bad = 0;
  for (int l = 0; l < 64; ++l) {
    const uint32_t* o = &out[l * 64];
    for (int t = 0; t < 2; ++t)
      for (int r = 0; r < 16; ++r)
        if (f32_of(o[t * 16 + r]) != acc[t][r][l] && ++bad < 5) FAIL_CHECK("acc" << t << "[" << r << "] lane " << l);
    for (int k = 0; k < 8; ++k)
      if (o[32 + k] != in[l * 48 + 32 + k] && ++bad < 5) FAIL_CHECK("x lane " << l);
    for (int k = 0; k < 4; ++k)
      if (o[40 + k] != in[l * 48 + 40 + k] && ++bad < 5) FAIL_CHECK("y lane " << l);
    if (f32_of(o[44]) != acc[0][0][l] + 1.0f && ++bad < 5) FAIL_CHECK("sum lane " << l);
    if ((o[45] != in[l * 48] || o[46] != in[l * 48 + 1]) && ++bad < 5) FAIL_CHECK("lds lane " << l);
  }
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("interleave: 8 MFMAs and a load/LDS stream merge in the hand-derived order", "[interleave]") {
  // One wave; issue turns of 4 cycles; 32x32x8 bf16 = 8 passes (32 cycles of the matrix core);
  // dwordx4 VMEM 32 cycles of the address path, ds_read_b64 8 and ds_write_b64 12 of the port.
  //  t=0   M0 and G0 both ready: MFMA first on a tie         M0 (core busy to 32)
  //  t=4   M1 can issue at 32, G0 now                         G0 (VMEM busy to 36)
  //  t=8   M1 at 32, G1 at 36                                 M1 at 32 (core to 64)
  //  t=36  G1 at 36                                           G1 (VMEM to 68)
  //  t=40  R0 at 40 (port free)                               R0 (port to 48)
  //  t=44  R1 at 48, M2 at 64                                 R1 at 48 (port to 56)
  //  t=52  W0 at 56                                           W0 at 56
  //  t=60  V reads acc[0]: it waits for M6 (the last MFMA into acc[0]); M2..M6 at 64..192
  //  t=196 V at 196, M7 at 224                                V, then M7
  auto br = hipasm::build_kernel<il_order_on>("il_order_on");
  REQUIRE(!br.error.failed);
  std::vector<std::string> want = {"v_mfma_f32_32x32x8_bf16", "global_load_dwordx4", "v_mfma_f32_32x32x8_bf16",
                                   "global_load_dwordx4",     "ds_read_b64",         "ds_read_b64",
                                   "ds_write_b64",            "v_mfma_f32_32x32x8_bf16", "v_mfma_f32_32x32x8_bf16",
                                   "v_mfma_f32_32x32x8_bf16", "v_mfma_f32_32x32x8_bf16", "v_mfma_f32_32x32x8_bf16",
                                   "v_add_f32",               "v_mfma_f32_32x32x8_bf16"};
  CHECK(body_order(br.fn) == want);
  // Without interleave() the streams stay one after the other.
  auto seq = hipasm::build_kernel<il_order_off>("il_order_off");
  REQUIRE(!seq.error.failed);
  CHECK(body_order(seq.fn).size() == 8);
}

TEST_CASE("interleave: an s_waitcnt holds back only what depends on the memory it waits for", "[interleave]") {
  // (it was a fence: every instruction of a later stream followed an earlier stream's last
  // s_waitcnt, so a softmax stream never overlapped an MFMA stream that reads LDS)
  auto br = hipasm::build_kernel<il_wait_order>("il_wait_order");
  REQUIRE(!br.error.failed);
  std::vector<std::string> names;
  for (const auto& b : br.fn.blocks)
    for (const auto& in : b.instrs) names.emplace_back(hipasm::isa::gfx942_table[in.op].name);
  std::vector<size_t> mfma, add;
  size_t wait = names.size(), read = names.size();
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i].rfind("v_mfma", 0) == 0) mfma.push_back(i);
    if (names[i] == "v_add_f32") add.push_back(i);
    if (names[i] == "ds_read_b32") read = i;
    if (names[i] == "s_waitcnt" && read < names.size() && wait == names.size()) wait = i;
  }
  REQUIRE(mfma.size() == 6);
  REQUIRE(add.size() == 4);
  REQUIRE(wait < names.size());
  CHECK(add[0] < mfma[1]);  // the independent adds fill the first MFMAs' shadow
  CHECK(add[2] < mfma[3]);
  CHECK(add[3] > wait);     // the add reading x follows the wait for the ds_read
}

TEST_CASE("interleave: merged and sequential streams compute the same as plain C++ in hipasm-sim", "[interleave][sim]") {
  check_order_kernel("il_order_interleaved");
  check_order_kernel("il_order_sequential");
}

namespace {
// The loop kernels' input: 16 steps of 8 KB, [step][k][lane][4 dwords], k 0-3 A pairs, 4-7 B pairs.
std::vector<uint32_t> loop_input(int steps) {
  std::mt19937 rng(9);
  std::vector<uint32_t> in(static_cast<size_t>(steps) * 2048);
  for (auto& w : in)
    w = bf16_of(static_cast<int>(rng() % 5) - 2) | uint32_t{bf16_of(static_cast<int>(rng() % 5) - 2)} << 16;
  return in;
}
struct loop_result {
  double mfma_busy = 0;
  uint64_t cycles = 0;
};
loop_result run_loop(const char* kernel, int steps, int groups, int waves) {
  auto in = loop_input(steps);
  rt::device& d = *S().dev;
  rt::buffer<uint32_t> I(d, in), O(d, std::vector<uint32_t>(static_cast<size_t>(groups) * waves * 64 * 64, 0));
  rt::kernel_args args;
  args.add(O.ptr()).add(I.ptr());
  rt::profile_options po;
  po.device = hipasm::test::test_device();
  rt::launch_options lo;
  lo.profile = &po;
  // (every wave writes its own 16 KB: the output is indexed by the wave in the group only)
  auto rep = d.launch(*S().mod, kernel, {static_cast<uint32_t>(groups), 1, 1}, {64u * waves, 1, 1}, args, lo);
  for (auto& m : rep.diagnostics) FAIL_CHECK(kernel << ": " << m);
  auto out = O.download();
  float acc[4][16][64] = {};
  for (int s = 0; s < steps; ++s)
    for (int k = 0; k < 4; ++k)
      for (int t = 0; t < 4; ++t) {
        const uint32_t* ap[64];
        const uint32_t* bp[64];
        const int pa = 4 * (t / 2) + k, pb = 4 * (t % 2) + k;  // A pair 4r + k, B pair 4c + k
        for (int l = 0; l < 64; ++l) {
          ap[l] = &in[static_cast<size_t>(s) * 2048 + (pa / 2) * 256 + l * 4 + 2 * (pa % 2)];
          bp[l] = &in[static_cast<size_t>(s) * 2048 + (4 + pb / 2) * 256 + l * 4 + 2 * (pb % 2)];
        }
        mfma_ref(acc[t], ap, bp);
      }
  int bad = 0;
  for (int w = 0; w < waves; ++w)
    for (int r = 0; r < 64; ++r)
      for (int l = 0; l < 64; ++l)
        if (f32_of(out[(w * 64 + r) * 64 + l]) != acc[r / 16][r % 16][l] && ++bad < 5)
          FAIL_CHECK(kernel << " wave " << w << " acc[" << r << "] lane " << l << ": " << f32_of(out[(w * 64 + r) * 64 + l])
                            << " want " << acc[r / 16][r % 16][l]);
  CHECK(bad == 0);
  REQUIRE(rep.profile);
  if (std::getenv("IL_REPORT")) std::printf("%s\n", rep.profile->report().c_str());
  return {rep.profile->mfma_busy, rep.profile->cycles};
}
}  // namespace

TEST_CASE("interleave: a pipelined MFMA loop keeps the matrix core busier interleaved (timing model)", "[interleave][sim][profile]") {
  // One wave per CU (8 workgroups of one wave): the matrix core of one SIMD of four, so 25% is
  // the ceiling of mfma_busy; 8 KB per 512 MFMA cycles stays below the CU's 32 B/clk.
  loop_result on = run_loop("il_loop_interleaved", 16, 8, 1);
  loop_result off = run_loop("il_loop_sequential", 16, 8, 1);
  WARN("mfma_busy interleaved " << on.mfma_busy << " (" << on.cycles << " cycles), sequential " << off.mfma_busy << " ("
                                << off.cycles << " cycles)");
  CHECK(on.mfma_busy > off.mfma_busy);
}

namespace il_err {
using namespace hipasm;
constexpr int kFlowLine = __LINE__ + 4;
constexpr void stream_with_if(builder J, arg<int*> out) {
  auto x = J.vgpr<i32>();
  x = 1;
  auto s = record(J, [&] { J.If(x > 0, [&] { x = 2; }); });
  emit_all(J, s);
  J.global_store_dword(J.thread_id_x(), x, out);
}
constexpr int kLostLine = __LINE__ + 4;
constexpr void stream_never_emitted(builder J, arg<int*> out) {
  auto x = J.vgpr<i32>();
  x = 1;
  auto s = record(J, [&] { x = x + 1; });
  J.global_store_dword(J.thread_id_x(), x, out);
}
// emit_cycles: two 32-cycle MFMAs for 64 cycles, then one dwordx4 load (32), then the rest.
constexpr void manual_emit(builder J, arg<int*> out) {
  auto acc = J.vgpr<f32>(16);
  auto a = J.vgpr<u32>(2), b = J.vgpr<u32>(2), x = J.vgpr<u32>(4), y = J.vgpr<u32>(4);
  acc.fill(0.0f);
  a.fill(0u);
  b.fill(0u);
  auto m = record(J, [&] { for (int i = 0; i < 4; ++i) J.v_mfma_f32_32x32x8_bf16(acc, a, b, acc); });
  auto l = record(J, [&] {
    J.global_load_dwordx4(x, J.thread_id_x(), out);
    J.global_load_dwordx4(y, J.thread_id_x(), out, {.offset = 16});
  });
  emit_cycles(J, m, 64);
  emit_cycles(J, l, 1);
  emit_cycles(J, m, 32);
  emit_all(J, l);
  emit_all(J, m);
  J.s_waitcnt(vmcnt(0));
  J.global_store_dwordx4(J.thread_id_x(), x, out);
  J.global_store_dwordx4(J.thread_id_x(), y, out, {.offset = 16});
  J.global_store_dword(J.thread_id_x(), acc[0], out, {.offset = 32});
}
}  // namespace il_err

TEST_CASE("instruction streams: control flow inside and streams never emitted are errors at the user's line", "[interleave]") {
  auto a = hipasm::build_kernel<il_err::stream_with_if>("k");
  REQUIRE(a.error.failed);
  std::string ma(a.error.view());
  INFO(ma);
  CHECK(ma.find("test_interleave.cpp:" + std::to_string(il_err::kFlowLine) + ": error:") != std::string::npos);
  CHECK(ma.find("must be straight-line code") != std::string::npos);
  auto b = hipasm::build_kernel<il_err::stream_never_emitted>("k");
  REQUIRE(b.error.failed);
  std::string mb(b.error.view());
  INFO(mb);
  CHECK(mb.find("test_interleave.cpp:" + std::to_string(il_err::kLostLine) + ": error:") != std::string::npos);
  CHECK(mb.find("never emitted (1 instructions left)") != std::string::npos);
}

TEST_CASE("emit_cycles: pyhip's emit(generator, cycles) takes a stream's next instructions by cost", "[interleave]") {
  auto br = hipasm::build_kernel<il_err::manual_emit>("k");
  REQUIRE(!br.error.failed);
  std::vector<std::string> got;
  for (const auto& b : br.fn.blocks)
    for (const auto& in : b.instrs) {
      std::string n(hipasm::isa::gfx942_table[in.op].name);
      if (n.rfind("v_mfma", 0) == 0) got.push_back("M");
      if (n == "global_load_dwordx4") got.push_back("L");
    }
  CHECK(got == std::vector<std::string>{"M", "M", "L", "M", "L", "M"});
}

namespace il_share {
using namespace hipasm;
// Four 32x32x8 MFMAs and three dwordx4 loads (32 cycles of the address path each, alone).
template <int Share>
constexpr void k(builder J, arg<int*> out) {
  auto acc = J.vgpr<f32>(16);
  auto a = J.vgpr<u32>(2), b = J.vgpr<u32>(2), x = J.vgpr<u32>(12);
  acc.fill(0.0f);
  a.fill(0u);
  b.fill(0u);
  interleave(J, interleave_options{.vmem_share = Share},
             [&] { for (int i = 0; i < 4; ++i) J.v_mfma_f32_32x32x8_bf16(acc, a, b, acc); },
             [&] { for (int i = 0; i < 3; ++i) J.global_load_dwordx4(x.slice(4 * i, 4), J.thread_id_x(), out, {.offset = 16 * i}); });
  J.s_waitcnt(vmcnt(0));
  J.global_store_dwordx4(J.thread_id_x(), x.slice(0, 4), out);
  J.global_store_dword(J.thread_id_x(), acc[0], out, {.offset = 16});
}
}  // namespace il_share

TEST_CASE("interleave_options: VMEM shared by more waves spaces the loads further", "[interleave]") {
  auto order = [](const hipasm::function& fn) {
    std::string s;
    for (const auto& b : fn.blocks)
      for (const auto& in : b.instrs) {
        std::string n(hipasm::isa::gfx942_table[in.op].name);
        if (n.rfind("v_mfma", 0) == 0) s += 'M';
        if (n == "global_load_dwordx4") s += 'G';
      }
    return s;
  };
  // alone: M0@0 G0@4 (address path to 36) M1@32 G1@36 M2@64 G2@68 M3@96
  auto one = hipasm::build_kernel<il_share::k<1>>("k");
  REQUIRE(!one.error.failed);
  CHECK(order(one.fn) == "MGMGMGM");
  // shared by two: G0@4 holds it to 68: M1@32 M2@64 G1@68 (to 132) M3@96 G2@132
  auto two = hipasm::build_kernel<il_share::k<2>>("k");
  REQUIRE(!two.error.failed);
  CHECK(order(two.fn) == "MGMMGMG");
}

namespace {
// The fuzz programs run one stream after the other, per lane, in plain C++.
std::vector<uint32_t> fuzz_ref(uint32_t seed, int lane) {
  using namespace il_fuzz;
  const program p = generate(seed);
  uint32_t v[kV][64], s[kS];
  uint64_t vcc = 0;
  bool scc = true;
  uint32_t lds[kSlots][64], sink[kSlots][64] = {};
  for (int i = 0; i < kV; ++i)
    for (int l = 0; l < 64; ++l) v[i][l] = static_cast<uint32_t>(l) * (2u * i + 3u) + (seed * (i + 1)) % 1000u;
  for (int i = 0; i < kS; ++i) s[i] = sgpr_init(seed, i);
  for (int k = 0; k < kSlots; ++k)
    for (int l = 0; l < 64; ++l) lds[k][l] = v[k % kV][l];
  for (int t = 0; t < kStreams; ++t)
    for (int i = 0; i < kOps; ++i) {
      const op o = p.ops[t][i];
      switch (o.k) {
        case v_add: for (int l = 0; l < 64; ++l) v[o.d][l] = v[o.a][l] + v[o.b][l]; break;
        case v_mul: for (int l = 0; l < 64; ++l) v[o.d][l] = v[o.a][l] * v[o.b][l]; break;
        case v_xor: for (int l = 0; l < 64; ++l) v[o.d][l] = v[o.a][l] ^ v[o.b][l]; break;
        case v_cmp_gt:
          vcc = 0;
          for (int l = 0; l < 64; ++l) if (v[o.a][l] > v[o.b][l]) vcc |= uint64_t{1} << l;
          break;
        case v_cndmask: for (int l = 0; l < 64; ++l) v[o.d][l] = (vcc >> l) & 1 ? v[o.b][l] : v[o.a][l]; break;
        case s_add: {
          uint64_t r = uint64_t{s[o.a]} + s[o.b];
          s[o.d] = static_cast<uint32_t>(r);
          scc = r >> 32;
          break;
        }
        case s_addc: {
          uint64_t r = uint64_t{s[o.a]} + s[o.b] + (scc ? 1 : 0);
          s[o.d] = static_cast<uint32_t>(r);
          scc = r >> 32;
          break;
        }
        case v_add_s: for (int l = 0; l < 64; ++l) v[o.d][l] = s[o.a] + v[o.b][l]; break;
        case s_cselect: s[o.d] = scc ? s[o.a] : s[o.b]; break;
        case lds_w: for (int l = 0; l < 64; ++l) lds[o.a % kSlots][l] = v[o.b][l]; break;
        case lds_r: for (int l = 0; l < 64; ++l) sink[o.d % kSlots][l] = lds[o.a % kSlots][l]; break;
        default: break;
      }
    }
  std::vector<uint32_t> r;
  for (int i = 0; i < kV; ++i) r.push_back(v[i][lane]);
  for (int i = 0; i < kS; ++i) r.push_back(s[i]);
  r.push_back(scc ? 1 : 0);
  r.push_back(static_cast<uint32_t>((vcc >> lane) & 1));
  for (int k = 0; k < kSlots; ++k) r.push_back(lds[k][lane]);
  for (int k = 0; k < kSlots; ++k) r.push_back(sink[k][lane]);
  return r;
}
}  // namespace

TEST_CASE("interleave: random streams sharing VGPRs, SGPRs, VCC, SCC and LDS mean the streams run in order", "[interleave][sim]") {
  rt::device& d = *S().dev;
  int moved = 0;
  for (uint32_t seed = 1; seed <= 8; ++seed) {
    INFO("seed " << seed);
    rt::buffer<uint32_t> O(d, std::vector<uint32_t>(64 * 32, 0xdeadbeef));
    rt::kernel_args a;
    a.add(O.ptr());
    auto rep = d.launch(*S().mod, "il_fuzz_k" + std::to_string(seed), {1, 1, 1}, {64, 1, 1}, a);
    for (auto& m : rep.diagnostics) FAIL_CHECK(m);
    auto out = O.download();
    for (int l = 0; l < 64; ++l) {
      auto want = fuzz_ref(seed, l);
      for (size_t i = 0; i < want.size(); ++i)
        if (out[l * 32 + i] != want[i]) FAIL_CHECK("lane " << l << " value " << i << ": " << out[l * 32 + i] << " want " << want[i]);
    }
  }
  // The merge does move instructions across streams (else this test would prove nothing).
  auto count_moves = [](const hipasm::function& a, const hipasm::function& b) {
    std::vector<uint16_t> x, y;
    for (const auto& bl : a.blocks) for (const auto& in : bl.instrs) x.push_back(in.op);
    for (const auto& bl : b.blocks) for (const auto& in : bl.instrs) y.push_back(in.op);
    int n = 0;
    for (size_t i = 0; i < x.size() && i < y.size(); ++i) n += x[i] != y[i];
    return n;
  };
  auto il = hipasm::build_kernel<il_fuzz_1>("k");
  auto seq = hipasm::build_kernel<il_fuzz::kernel<1, false>>("k");
  moved = count_moves(il.fn, seq.fn);
  CHECK(moved > 0);
}

namespace il_fence {
using namespace hipasm;
// A cache invalidate in an earlier stream: a later stream's load must stay below it.
constexpr void k(builder J, arg<int*> out) {
  auto acc = J.vgpr<f32>(16);
  auto a = J.vgpr<u32>(2), b = J.vgpr<u32>(2), x = J.vgpr<u32>();
  acc.fill(0.0f);
  a.fill(0u);
  b.fill(0u);
  interleave(J, [&] {
    J.v_mfma_f32_32x32x8_bf16(acc, a, b, acc);
    J.v_mfma_f32_32x32x8_bf16(acc, a, b, acc);
    J.buffer_inv({.sc1 = true});
  }, [&] { J.global_load_dword(x, J.thread_id_x(), out); });
  J.s_waitcnt(vmcnt(0));
  J.global_store_dword(J.thread_id_x(), x, out);
  J.global_store_dword(J.thread_id_x(), acc[0], out, {.offset = 4});
}
}  // namespace il_fence

TEST_CASE("interleave: cache controls (buffer_inv) order against later streams' memory operations", "[interleave]") {
  // (regression: buffer_inv is a VMEM instruction with a side effect but no load or store; it
  // was ordered like a load, so the later stream's load moved above it)
  auto br = hipasm::build_kernel<il_fence::k>("k");
  REQUIRE(!br.error.failed);
  int inv = -1, load = -1, i = 0;
  for (const auto& b : br.fn.blocks)
    for (const auto& in : b.instrs) {
      std::string n(hipasm::isa::gfx942_table[in.op].name);
      if (n == "buffer_inv") inv = i;
      if (n == "global_load_dword" && load < 0) load = i;
      ++i;
    }
  REQUIRE(inv >= 0);
  CHECK(load > inv);
}

TEST_CASE("the lowering's SGPR constants: one s_mov a block, never read across a recorded stream's cut", "[interleave][sim]") {
  // built IR (before CSE): the block's later conversions read the first s_mov; stream A's own
  // are cut out with it (the main code moves them again), stream B reads the main code's; the
  // If's block and the block after it move their own
  const std::string d = hipasm::pass_dump<&il_consts>("il_consts");
  const std::string built = d.substr(0, d.find(";; ==== after"));
  auto count = [&](const char* k) {
    size_t n = 0;
    for (size_t p = built.find(k); p != std::string::npos; p = built.find(k, p + 1)) ++n;
    return n;
  };
  INFO(built);
  CHECK(count("s_mov_b32 %s") >= 8);
  CHECK(count(", 0x7fff ") + count(", 0x7fff\n") == 4);
  CHECK(count(", 0x7060302") == 4);
  // executed: every conversion as plain C++ rounds it (finite values: round to nearest even)
  std::vector<uint32_t> in(128);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(-1000.0f, 1000.0f);
  for (auto& w : in) {
    float f = dist(rng);
    std::memcpy(&w, &f, 4);
  }
  rt::device& dv = *S().dev;
  rt::buffer<uint32_t> I(dv, in), O(dv, std::vector<uint32_t>(64 * 8, 0xdeadbeefu));
  rt::kernel_args a;
  a.add(O.ptr()).add(I.ptr());
  auto rep = dv.launch(*S().mod, "il_consts_k", {1, 1, 1}, {64, 1, 1}, a);
  for (auto& m : rep.diagnostics) FAIL_CHECK("checker: " << m);
  auto out = O.download();
  auto bf = [](float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
  };
  auto pair = [&](float lo, float hi) { return bf(lo) | bf(hi) << 16; };
  for (int l = 0; l < 64; ++l) {
    float x, y;
    std::memcpy(&x, &in[2 * l], 4);
    std::memcpy(&y, &in[2 * l + 1], 4);
    const uint32_t want[8] = {pair(x, y), pair(y, x), pair(x + 1.0f, y), l < 32 ? pair(x, x) : 0u,
                              pair(y, y), pair(2.0f * x, 2.0f * y), 0u, 0u};
    for (int k = 0; k < 8; ++k)
      if (out[l * 8 + k] != want[k]) FAIL_CHECK("lane " << l << " result " << k << ": " << std::hex << out[l * 8 + k] << " want " << want[k]);
  }
}

// The launcher (rt::device, both backends) and the kernarg layout.
//  - Backend selection from HIPASM_BACKEND; the HIP backend reports "no device" as nullptr.
//  - Argument checks against the metadata happen before anything runs.
//  - The kernarg segment: explicit arguments at the offsets llvm-readobj-22 shows, hidden
//    arguments (block counts, group sizes, remainders, grid dims) as the HIP runtime fills them.
//  - End to end on the selected backend (the simulator here): clang-22 kernels that read
//    work-item ids, hidden arguments, the dispatch packet, static and dynamic LDS and
//    scratch, checked against values computed here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "elf.hpp"
#include "hipasm/rt/launcher.hpp"
#include "kernarg.hpp"
#include "test_loader_oracle.hpp"

using namespace hipasm;
using namespace loader_oracle;

namespace {

// The simulator's kernarg builder takes the arguments as byte ranges (the runtime's sim backend
// passes a kernel_args so).
std::vector<sim::ArgBytes> arg_bytes(const rt::kernel_args& args) {
  std::vector<sim::ArgBytes> out;
  for (size_t i = 0; i < args.entries().size(); ++i) out.push_back({args.data(i), args.entries()[i].size});
  return out;
}

const std::string kDir = HIPASM_SIM_TEST_DIR;
const std::string kCodeObject = kDir + "/sim_loader_kernels.co";

// Sets an environment variable for one scope.
struct scoped_env {
  std::string name;
  std::string old;
  bool had;
  scoped_env(const char* n, const char* value) : name(n) {
    const char* o = std::getenv(n);
    had = o != nullptr;
    if (had) old = o;
    if (value) setenv(n, value, 1);
    else unsetenv(n);
  }
  ~scoped_env() {
    if (had) setenv(name.c_str(), old.c_str(), 1);
    else unsetenv(name.c_str());
  }
};

// The device under test: HIPASM_BACKEND's choice; nullptr = no hardware, the test skips.
std::unique_ptr<rt::device> test_device() {
  auto d = rt::device::open();
  if (!d) WARN("HIPASM_BACKEND selects HIP and no device is present: skipped");
  return d;
}

std::map<std::string, const md_arg*> args_by_kind(const md_kernel& k) {
  std::map<std::string, const md_arg*> m;
  for (const auto& a : k.args) m[a.fields.at(".value_kind")] = &a;
  return m;
}

const md_kernel& md_of(const std::vector<md_kernel>& all, const std::string& name) {
  for (const auto& k : all)
    if (k.fields.at(".name") == name) return k;
  FAIL("no metadata for " << name);
  return all.front();
}

template <class T>
T at(const std::vector<uint8_t>& seg, const md_arg* a) {
  REQUIRE(a != nullptr);
  const size_t off = std::stoul(a->fields.at(".offset"));
  REQUIRE(std::stoul(a->fields.at(".size")) == sizeof(T));
  REQUIRE(off + sizeof(T) <= seg.size());
  T v;
  std::memcpy(&v, seg.data() + off, sizeof(T));
  return v;
}

struct pair_arg {
  int32_t a;
  float b;
};

}  // namespace

TEST_CASE("HIPASM_BACKEND selects the backend", "[launcher]") {
  {
    scoped_env e("HIPASM_BACKEND", nullptr);
    CHECK(rt::backend_from_env() == rt::backend::sim);
  }
  {
    scoped_env e("HIPASM_BACKEND", "");
    CHECK(rt::backend_from_env() == rt::backend::sim);
  }
  {
    scoped_env e("HIPASM_BACKEND", "sim");
    CHECK(rt::backend_from_env() == rt::backend::sim);
  }
  {
    scoped_env e("HIPASM_BACKEND", "hip");
    CHECK(rt::backend_from_env() == rt::backend::hip);
  }
  {
    scoped_env e("HIPASM_BACKEND", "cuda");
    CHECK_THROWS_AS(rt::backend_from_env(), rt::error);
    CHECK_THROWS_WITH(rt::device::open(), Catch::Contains("HIPASM_BACKEND='cuda'"));
  }
}

TEST_CASE("the HIP backend opens only with a device", "[launcher][hip]") {
  std::unique_ptr<rt::device> d;
  REQUIRE_NOTHROW(d = rt::device::open(rt::backend::hip));
  if (!std::filesystem::exists("/dev/kfd")) {
    // No AMD kernel driver on this machine: HIP must say "no device", not throw or crash.
    CHECK(d == nullptr);
  }
  if (d) {  // an MI300: a round trip through device memory
    rt::buffer<uint32_t> b(*d, std::vector<uint32_t>{1, 2, 3});
    CHECK(b.download() == std::vector<uint32_t>{1, 2, 3});
  }
}

TEST_CASE("sim device memory round-trips and checks bounds", "[launcher]") {
  auto d = rt::device::open(rt::backend::sim);
  REQUIRE(d);
  std::vector<float> v(1000);
  for (size_t i = 0; i < v.size(); ++i) v[i] = float(i) * 0.5f;
  rt::buffer<float> b(*d, v);
  CHECK(b.addr() != 0);
  CHECK(b.addr() % 256 == 0);
  CHECK(b.download() == v);
  rt::buffer<float> c(*d, 10);
  CHECK((c.addr() + 40 <= b.addr() || b.addr() + 4000 <= c.addr()));  // no overlap
  std::vector<uint8_t> big(5000);
  CHECK_THROWS_AS(d->copy_to_device(b.addr(), big.data(), big.size()), rt::error);
}

TEST_CASE("modules load from bytes and files; bad input is an error", "[launcher]") {
  auto d = rt::device::open(rt::backend::sim);
  auto m = d->load_file(kCodeObject);
  const auto names = m->kernel_names();
  CHECK(names.size() == 11);
  CHECK(std::find(names.begin(), names.end(), "ids_3d") != names.end());
  const auto bytes = read_binary(kCodeObject);
  CHECK(d->load(bytes)->kernel_names() == names);
  CHECK_THROWS_WITH(d->load_file(kDir + "/missing.co"), Catch::Contains("cannot read"));
  std::vector<uint8_t> junk(100, 0x42);
  CHECK_THROWS_WITH(d->load(junk), Catch::Contains("not an ELF"));
}

TEST_CASE("launch checks arguments and shape before running anything", "[launcher]") {
  auto d = rt::device::open(rt::backend::sim);
  auto m = d->load_file(kCodeObject);
  rt::buffer<float> out(*d, 256);
  rt::kernel_args one;
  one.add(out.addr());
  using Catch::Contains;
  CHECK_THROWS_WITH(d->launch(*m, "nope", {1}, {64}, one), Contains("no kernel 'nope'"));
  CHECK_THROWS_WITH(d->launch(*m, "lds_static", {1}, {64}, rt::kernel_args{}),
                    Contains("takes 1 argument, 0 given"));
  rt::kernel_args two = one;
  two.add(1.0f);
  CHECK_THROWS_WITH(d->launch(*m, "lds_static", {1}, {64}, two), Contains("takes 1 argument, 2 given"));
  rt::kernel_args narrow;
  narrow.add(uint32_t(out.addr()));
  CHECK_THROWS_WITH(d->launch(*m, "lds_static", {1}, {64}, narrow),
                    Contains("argument 1") && Contains("is 8 bytes, 4 given"));
  CHECK_THROWS_WITH(d->launch(*m, "lds_static", {0}, {64}, one), Contains("grid 0,1,1 is empty"));
  CHECK_THROWS_WITH(d->launch(*m, "lds_static", {1}, {0, 1, 1}, one), Contains("block 0,1,1 is empty"));
  CHECK_THROWS_WITH(d->launch(*m, "lds_static", {1}, {1025}, one), Contains("exceeds the kernel's maximum"));
  rt::kernel_args small;
  small.add(out.addr()).add(1.0f);
  CHECK_THROWS_WITH(d->launch(*m, "small_block", {1}, {257}, small), Contains("maximum of 256"));
  CHECK_THROWS_WITH(d->launch(*m, "lds_static", {0x10000000}, {1024}, one), Contains("2^32-1"));
  rt::launch_options lds;
  lds.dynamic_lds = 64 * 1024 - 1024;  // + 2048 static bytes > 64 KiB
  CHECK_THROWS_WITH(d->launch(*m, "lds_static", {1}, {64}, one, lds), Contains("exceed 64 KiB"));
  auto other = rt::device::open(rt::backend::sim);
  CHECK_THROWS_WITH(other->launch(*m, "lds_static", {1}, {64}, one), Contains("not loaded by this device"));
}

TEST_CASE("kernarg layout: explicit arguments at the metadata's offsets", "[launcher][kernarg]") {
  const auto co = sim::load_code_object(read_binary(kCodeObject));
  const auto md = parse_readobj_metadata(read_text(kDir + "/sim_loader_kernels.readobj.txt"));
  const auto& k = co.kernel("args_mix");
  const auto& mk = md_of(md, "args_mix");
  rt::kernel_args args;
  const pair_arg p{-11, 4.75f};
  args.add(uint64_t{0x1111222233334444}).add(uint64_t{0x5555666677778888}).add(1.5f).add(int64_t{-3})
      .add(char(-2)).add(int16_t{7}).add(2.5).add(p).add(uint64_t{9});
  const auto seg = sim::build_kernarg(k, {3, 2, 1}, {64, 1, 1}, arg_bytes(args), 0, sim::kernarg_layout::full);
  REQUIRE(seg.size() == std::stoul(mk.fields.at(".kernarg_segment_size")));
  // Explicit arguments in order; offsets from llvm-readobj-22.
  REQUIRE(mk.args.size() >= 9);
  CHECK(at<uint64_t>(seg, &mk.args[0]) == 0x1111222233334444);
  CHECK(at<uint64_t>(seg, &mk.args[1]) == 0x5555666677778888);
  CHECK(at<float>(seg, &mk.args[2]) == 1.5f);
  CHECK(at<int64_t>(seg, &mk.args[3]) == -3);
  CHECK(at<char>(seg, &mk.args[4]) == -2);
  CHECK(at<int16_t>(seg, &mk.args[5]) == 7);
  CHECK(at<double>(seg, &mk.args[6]) == 2.5);
  CHECK(at<uint64_t>(seg, &mk.args[7]) == (uint64_t(std::bit_cast<uint32_t>(4.75f)) << 32 | uint32_t(-11)));
  CHECK(at<uint64_t>(seg, &mk.args[8]) == 9);
  // What hipModuleLaunchKernel gets: the explicit part only.
  const auto packed = sim::build_kernarg(k, {3, 2, 1}, {64, 1, 1}, arg_bytes(args), 0, sim::kernarg_layout::explicit_only);
  CHECK(packed.size() == 64);
  CHECK(std::equal(packed.begin(), packed.end(), seg.begin()));
}

TEST_CASE("kernarg layout: hidden arguments as the HIP runtime fills them", "[launcher][kernarg]") {
  const auto co = sim::load_code_object(read_binary(kCodeObject));
  const auto md = parse_readobj_metadata(read_text(kDir + "/sim_loader_kernels.readobj.txt"));
  const auto& k = co.kernel("grid_query");
  const auto hidden = args_by_kind(md_of(md, "grid_query"));
  rt::kernel_args args;
  args.add(uint64_t{0xabc000});
  const auto seg = sim::build_kernarg(k, {7, 5, 3}, {16, 8, 2}, arg_bytes(args), 4096, sim::kernarg_layout::full);
  CHECK(at<uint32_t>(seg, hidden.at("hidden_block_count_x")) == 7);
  CHECK(at<uint32_t>(seg, hidden.at("hidden_block_count_y")) == 5);
  CHECK(at<uint32_t>(seg, hidden.at("hidden_block_count_z")) == 3);
  CHECK(at<uint16_t>(seg, hidden.at("hidden_group_size_x")) == 16);
  CHECK(at<uint16_t>(seg, hidden.at("hidden_group_size_y")) == 8);
  CHECK(at<uint16_t>(seg, hidden.at("hidden_group_size_z")) == 2);
  // A grid of whole workgroups: no partial last workgroup.
  CHECK(at<uint16_t>(seg, hidden.at("hidden_remainder_x")) == 0);
  CHECK(at<uint16_t>(seg, hidden.at("hidden_remainder_y")) == 0);
  CHECK(at<uint16_t>(seg, hidden.at("hidden_remainder_z")) == 0);
  CHECK(at<uint64_t>(seg, hidden.at("hidden_global_offset_x")) == 0);
  CHECK(at<uint16_t>(seg, hidden.at("hidden_grid_dims")) == 3);
  if (hidden.count("hidden_dynamic_lds_size"))
    CHECK(at<uint32_t>(seg, hidden.at("hidden_dynamic_lds_size")) == 4096);
  CHECK(at<uint64_t>(seg, &md_of(md, "grid_query").args[0]) == 0xabc000);
}

// ---- End to end on the selected backend.

TEST_CASE("kernels see their work-item ids, workgroup ids and hidden arguments", "[launcher][run]") {
  auto d = test_device();
  if (!d) return;
  auto m = d->load_file(kCodeObject);

  SECTION("ids_3d: packed work-item ids x,y,z cover a 4x4x4 block exactly once") {
    std::vector<uint32_t> init(80);
    for (uint32_t i = 0; i < 80; ++i) init[i] = 1000 + i;
    rt::buffer<uint32_t> out(*d, init);
    rt::kernel_args a;
    a.add(out.addr());
    const auto r = d->launch(*m, "ids_3d", {1, 1, 1}, {4, 4, 4}, a);
    CHECK(r.diagnostics.empty());
    const auto got = out.download();
    for (uint32_t i = 0; i < 64; ++i) CHECK(got[i] == 0);          // workgroup 0,0,0
    for (uint32_t i = 64; i < 80; ++i) CHECK(got[i] == 1000 + i);  // untouched
  }
  SECTION("ids_3d: workgroup ids of the last workgroup") {
    // Every workgroup writes the same 64 elements; with one thread the simulator runs them in
    // order, so the last workgroup's ids remain. (On hardware the order is unspecified.)
    if (rt::backend_from_env() != rt::backend::sim) return;
    rt::buffer<uint32_t> out(*d, 64);
    rt::kernel_args a;
    a.add(out.addr());
    rt::launch_options one_thread;
    one_thread.threads = 1;
    d->launch(*m, "ids_3d", {3, 2, 2}, {4, 4, 4}, a, one_thread);
    for (uint32_t v : out.download()) CHECK(v == 2 + 1 * 100 + 1 * 10000);
  }
  SECTION("grid_query: workgroup sizes from the hidden arguments, grid size from the packet") {
    rt::buffer<uint32_t> out(*d, 4);
    rt::kernel_args a;
    a.add(out.addr());
    const auto r = d->launch(*m, "grid_query", {5, 2, 1}, {32, 2, 3}, a);
    CHECK(r.diagnostics.empty());
    CHECK(out.download() == std::vector<uint32_t>{32, 2, 3, 5 * 32});
  }
  SECTION("packet_ptrs: the dispatch packet's workgroup_size_x") {
    rt::buffer<uint64_t> out(*d, 3);
    rt::kernel_args a;
    a.add(out.addr());
    d->launch(*m, "packet_ptrs", {1}, {48}, a);
    CHECK(out.download()[0] == 48);
  }
}

TEST_CASE("kernels get their scalar arguments and buffers", "[launcher][run]") {
  auto d = test_device();
  if (!d) return;
  auto m = d->load_file(kCodeObject);
  std::vector<float> in(64);
  for (int i = 0; i < 64; ++i) in[i] = float(i) * 0.75f - 7.0f;
  rt::buffer<float> din(*d, in);
  rt::buffer<int32_t> dout(*d, 64);
  const pair_arg p{11, 4.75f};
  rt::kernel_args a;
  a.add(dout.ptr()).add(din.ptr()).add(1.5f).add(long(-3)).add(char(-2)).add(short(7)).add(2.5).add(p)
      .add((unsigned long long)9);
  const auto r = d->launch(*m, "args_mix", {1}, {64}, a);
  CHECK(r.diagnostics.empty());
  const auto got = dout.download();
  for (int i = 0; i < 64; ++i) {
    const int want = int(in[i] * 1.5f) + -3 + -2 + 7 + 2 + 11 + 4 + 9;
    CHECK(got[i] == want);
  }
}

TEST_CASE("static and dynamic LDS and scratch memory work", "[launcher][run]") {
  auto d = test_device();
  if (!d) return;
  auto m = d->load_file(kCodeObject);
  SECTION("lds_static: a 512-element reversal through LDS across 8 waves") {
    rt::buffer<float> out(*d, 512);
    rt::kernel_args a;
    a.add(out.addr());
    const auto r = d->launch(*m, "lds_static", {1}, {512}, a);
    CHECK(r.diagnostics.empty());
    const auto got = out.download();
    for (int t = 0; t < 512; ++t) CHECK(got[t] == float(511 - t));
  }
  SECTION("lds_racy: no s_waitcnt before s_barrier is an LDS race in the report") {
    if (rt::backend_from_env() != rt::backend::sim) return;  // hardware has no checker
    rt::buffer<float> out(*d, 512);
    rt::kernel_args a;
    a.add(out.addr());
    const auto r = d->launch(*m, "lds_racy", {1}, {512}, a);
    REQUIRE(r.diagnostics.size() >= 1);
    CHECK_THAT(r.diagnostics[0], Catch::Contains("ds_read_b32") && Catch::Contains("lds-race"));
    rt::launch_options unchecked;
    unchecked.check = false;
    CHECK(d->launch(*m, "lds_racy", {1}, {512}, a, unchecked).diagnostics.empty());
  }
  SECTION("lds_dynamic: dynamic LDS sized by the launch") {
    rt::buffer<float> out(*d, 256);
    rt::kernel_args a;
    a.add(out.addr());
    rt::launch_options o;
    o.dynamic_lds = 256 * 4;
    const auto r = d->launch(*m, "lds_dynamic", {1}, {256}, a, o);
    CHECK(r.diagnostics.empty());
    const auto got = out.download();
    for (int t = 0; t < 256; ++t) CHECK(got[t] == float(t ^ 1));
    // Without the dynamic allocation the same accesses fall outside the workgroup's LDS.
    if (rt::backend_from_env() == rt::backend::sim)
      CHECK_THROWS_AS(d->launch(*m, "lds_dynamic", {1}, {256}, a), rt::error);
  }
  SECTION("scratch_use: a dynamically indexed private array") {
    rt::buffer<int32_t> out(*d, 64);
    rt::kernel_args a;
    a.add(out.addr()).add(int32_t{3}).add(int32_t{70});
    const auto r = d->launch(*m, "scratch_use", {1}, {64}, a);
    CHECK(r.diagnostics.empty());
    for (int32_t v : out.download()) CHECK(v == (70 & 63) * 3);
  }
}

TEST_CASE("pc-relative constant data in .rodata is mapped with the code", "[launcher][run]") {
  auto d = test_device();
  if (!d) return;
  auto m = d->load_file(kCodeObject);
  const int table[32] = {3,   141, 59,  26,  535, 89,  79,  323, 846, 26,  433, 832, 79,  50,  288, 41,
                         97,  169, 399, 375, 105, 820, 974, 944, 592, 307, 816, 406, 286, 208, 998, 628};
  rt::buffer<int32_t> out(*d, 64);
  rt::kernel_args a;
  a.add(out.addr()).add(int32_t{5});
  const auto r = d->launch(*m, "const_table", {1}, {64}, a);
  CHECK(r.diagnostics.empty());
  const auto got = out.download();
  for (uint32_t t = 0; t < 64; ++t) CHECK(got[t] == table[(t * 7 + 5) & 31]);
}

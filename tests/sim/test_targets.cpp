// A device runs code objects of its own target; the asm listing of a kernel built with kernarg
// preloading names its source lines in the profile; a fault names its source line.
//   - A named GPU (device::open(sim, "mi300x")) refuses a plain code object of the other target
//     with one line naming both (it would run with the wrong ISA's formats and limits);
//     device::open() without a name runs it as its target says.
//   - hipasm_add_code_object(... KERNARG_PRELOAD) writes the preload prologue, a .p2align and the
//     kernel into the listing: profile's asm_source takes it (as the launcher's findings do).
//   - A fatal error (a store outside any allocation) ends with the listing's [file:line], as the
//     checker's findings do.
// The kernel: examples/vector_add.hpp (its store is line 24 of that file).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "hipasm/rt/launcher.hpp"
#include "hipasm/rt/profile.hpp"

namespace rt = hipasm::rt;

namespace {

const std::string kDir = HIPASM_SIM_TEST_DIR;
const std::string k950 = kDir + "/sim_targets_vector_add_gfx950.co";
const std::string k942 = kDir + "/sim_fatbin_vector_add.gfx942.co";  // with its listing beside it
const std::string kPreload = kDir + "/sim_targets_vector_add_preload.co";

std::string load_error(rt::device& dev, const std::string& path) {
  try {
    dev.load_file(path);
  } catch (const rt::error& e) {
    return e.what();
  }
  return "(no error)";
}

// vector_add of n elements, c[i] = a[i] + b[i] checked; `c_addr` (when not 0) replaces c's address.
rt::launch_report vector_add(rt::device& dev, rt::module& mod, unsigned n, const rt::launch_options& o = {},
                             uint64_t c_addr = 0) {
  std::vector<float> a(n), b(n), want(n);
  for (unsigned i = 0; i < n; ++i) {
    a[i] = float(i) * 0.5f;
    b[i] = 3.0f - float(i);
    want[i] = a[i] + b[i];
  }
  rt::buffer<float> da(dev, a), db(dev, b), dc(dev, std::vector<float>(n, -1.0f));
  rt::kernel_args args;
  args.add(c_addr ? c_addr : dc.addr()).add(da.ptr()).add(db.ptr()).add(n);
  rt::launch_report r = dev.launch(mod, "vector_add", {(n + 255) / 256}, {256}, args, o);
  CHECK(dc.download() == want);
  return r;
}

}  // namespace

TEST_CASE("a named GPU refuses a code object of the other target, naming both", "[targets]") {
  auto mi300x = rt::device::open(rt::backend::sim, "mi300x");
  auto mi355x = rt::device::open(rt::backend::sim, "mi355x");
  CHECK(load_error(*mi300x, k950) ==
        "gfx950 code object on device mi300x (a gfx942 GPU); gfx950 devices: mi355x, mi350x");
  CHECK(load_error(*mi355x, k942) ==
        "gfx942 code object on device mi355x (a gfx950 GPU); gfx942 devices: mi300x, mi308x, mi325x");
  // Each on its own target's GPU runs.
  auto m950 = mi355x->load_file(k950);
  CHECK(vector_add(*mi355x, *m950, 300).diagnostics.empty());
  auto m942 = mi300x->load_file(k942);
  CHECK(vector_add(*mi300x, *m942, 300).diagnostics.empty());
  // No GPU named: a plain code object runs as its target says.
  auto any = rt::device::open(rt::backend::sim);
  auto m = any->load_file(k950);
  CHECK(vector_add(*any, *m, 300).diagnostics.empty());
}

TEST_CASE("a device reports its GPU's compute units", "[targets]") {
  // AMD's data sheets: MI300X 304 CUs, MI308X 80, MI355X 256. An unnamed device is its target's
  // first GPU (MI300X).
  auto cus = [](const char* gpu) { return rt::device::open(rt::backend::sim, gpu)->compute_units(); };
  CHECK(cus("mi300x") == 304);
  CHECK(cus("mi308x") == 80);
  CHECK(cus("mi355x") == 256);
  CHECK(rt::device::open(rt::backend::sim)->compute_units() == 304);
}

TEST_CASE("profile takes the listing of a kernel built with kernarg preloading", "[targets][timing]") {
  auto dev = rt::device::open(rt::backend::sim, "mi300x");
  auto mod = dev->load_file(kPreload);
  rt::profile_options po;
  po.device = "mi300x";
  po.asm_source = kDir + "/sim_targets_vector_add_preload.s";
  rt::launch_options o;
  o.profile = &po;
  const rt::launch_report r = vector_add(*dev, *mod, 300, o);
  REQUIRE(r.profile);
  std::string store;
  for (const rt::profile_inst& in : r.profile->insts)
    if (in.text.starts_with("global_store_dword")) store = in.source;
  CHECK(store == "vector_add.hpp:24");
}

TEST_CASE("a fault names the source line of the faulting instruction", "[targets]") {
  auto dev = rt::device::open(rt::backend::sim, "mi300x");
  for (const std::string& path : {k942, kPreload}) {
    INFO(path);
    auto mod = dev->load_file(path);
    std::string what = "(no error)";
    try {
      rt::kernel_args args;
      rt::buffer<float> a(*dev, 64), b(*dev, 64);
      args.add(uint64_t{16}).add(a.ptr()).add(b.ptr()).add(64u);  // c: no allocation
      dev->launch(*mod, "vector_add", {1}, {64}, args);
    } catch (const rt::error& e) {
      what = e.what();
    }
    CHECK_THAT(what, Catch::Contains("global_store_dword") && Catch::Contains("outside any allocation") &&
                         Catch::EndsWith(" [vector_add.hpp:24]"));
  }
}

// Fat binaries (clang offload bundles): hipasm_add_code_object(... ARCH gfx942 gfx950) builds
// one of examples/vector_add.hip; the simulated GPU's target picks the code object it runs
// (mi300x: gfx942, mi355x: gfx950), checked against a host computation. The bundle reader
// refuses truncated and inconsistent bundles and a bundle without the device's target, with
// rt::error (one line), never a crash. The hand-made bundles below follow the format as
// clang-offload-bundler writes it: the magic, the entry count, then per entry its offset,
// size, id length and id (little-endian u64s).
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "bundle.hpp"
#include "elf.hpp"
#include "hipasm/rt/launcher.hpp"

using namespace hipasm;

namespace {

const std::string kDir = HIPASM_SIM_TEST_DIR;
const std::string kFat = kDir + "/sim_fatbin_vector_add.co";

void put_u64(std::vector<uint8_t>& b, uint64_t v) {
  for (int i = 0; i < 8; ++i) b.push_back(uint8_t(v >> (8 * i)));
}

struct entry {
  std::string id;
  std::vector<uint8_t> bytes;
};

// A bundle of `entries`, each payload right after the header (no alignment: the reader must
// not assume clang's 4096).
std::vector<uint8_t> make_bundle(const std::vector<entry>& entries) {
  const std::string magic = "__CLANG_OFFLOAD_BUNDLE__";
  uint64_t header = magic.size() + 8;
  for (const auto& e : entries) header += 24 + e.id.size();
  std::vector<uint8_t> b(magic.begin(), magic.end());
  put_u64(b, entries.size());
  uint64_t at = header;
  for (const auto& e : entries) {
    put_u64(b, at);
    put_u64(b, e.bytes.size());
    put_u64(b, e.id.size());
    b.insert(b.end(), e.id.begin(), e.id.end());
    at += e.bytes.size();
  }
  for (const auto& e : entries) b.insert(b.end(), e.bytes.begin(), e.bytes.end());
  return b;
}

std::string error_of(const std::vector<uint8_t>& bytes, const char* target) {
  try {
    sim::select_code_object(bytes, target);
  } catch (const sim::error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("fatbin: vector_add from one fat binary on mi300x (gfx942) and mi355x (gfx950)", "[fatbin]") {
  const std::vector<uint8_t> fat = sim::read_file_bytes(kFat);
  REQUIRE(sim::is_offload_bundle(fat));
  for (const auto& [gpu, arch] : {std::pair{"mi300x", "gfx942"}, std::pair{"mi355x", "gfx950"}}) {
    INFO(gpu);
    // The entry the device takes is the code object hipasm_add_code_object built for its arch.
    const std::vector<uint8_t> own = sim::read_file_bytes(kDir + "/sim_fatbin_vector_add." + arch + ".co");
    const auto picked = sim::select_code_object(fat, arch);
    CHECK(std::vector<uint8_t>(picked.begin(), picked.end()) == own);
    CHECK(std::string(sim::load_code_object(picked).arch->name) == arch);

    auto dev = rt::device::open(rt::backend::sim, gpu);
    CHECK(dev->target() == arch);
    auto mod = dev->load_file(kFat);
    const unsigned n = 1000;
    std::vector<float> a(n), b(n), want(n);
    for (unsigned i = 0; i < n; ++i) {
      a[i] = 0.5f * float(i) - 17.25f;
      b[i] = 3.0f - 0.125f * float(i % 37);
      want[i] = a[i] + b[i];
    }
    rt::buffer<float> da(*dev, a), db(*dev, b), dc(*dev, std::vector<float>(n, -1.0f));
    rt::kernel_args args;
    args.add(dc.ptr()).add(da.ptr()).add(db.ptr()).add(n);
    const rt::launch_report r = dev->launch(*mod, "vector_add", {(n + 255) / 256}, {256}, args);
    CHECK(r.diagnostics.empty());
    CHECK(dc.download() == want);
  }
}

TEST_CASE("fatbin: a bundle without the device's target, and unknown GPUs", "[fatbin]") {
  const std::vector<uint8_t> co942 = sim::read_file_bytes(kDir + "/sim_fatbin_vector_add.gfx942.co");
  const auto only942 =
      make_bundle({{"host-x86_64-unknown-linux-gnu-", {}}, {"hipv4-amdgcn-amd-amdhsa--gfx942", co942}});
  CHECK(error_of(only942, "gfx950") == "the fat binary has no gfx950 code object (it has: gfx942)");
  auto picked = sim::select_code_object(only942, "gfx942");
  CHECK(std::vector<uint8_t>(picked.begin(), picked.end()) == co942);
  // A target ID with features names the processor before them.
  const auto featured = make_bundle({{"hipv4-amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-", co942}});
  picked = sim::select_code_object(featured, "gfx942");
  CHECK(std::vector<uint8_t>(picked.begin(), picked.end()) == co942);
  CHECK(error_of(make_bundle({{"host-x86_64-unknown-linux-gnu-", {}}}), "gfx942") ==
        "the fat binary has no gfx942 code object (it has: none)");

  auto dev = rt::device::open(rt::backend::sim, "mi355x");
  CHECK_THROWS_WITH(dev->load(only942), "the fat binary has no gfx950 code object (it has: gfx942)");
  CHECK_THROWS_WITH(rt::device::open(rt::backend::sim, "mi999x"), Catch::StartsWith("unknown GPU 'mi999x' (mi300x"));
  // A plain code object is not a bundle: a named GPU of another target refuses it (test_targets),
  // a device with no GPU named runs it as its own target says.
  CHECK_THROWS_WITH(dev->load(co942), Catch::StartsWith("gfx942 code object on device mi355x (a gfx950 GPU)"));
  CHECK(rt::device::open(rt::backend::sim)->load(co942)->kernel_names() == std::vector<std::string>{"vector_add"});
}

TEST_CASE("fatbin: truncated and corrupt bundles are refused with one line", "[fatbin]") {
  const std::vector<uint8_t> fat = sim::read_file_bytes(kFat);
  // Every prefix holding the magic: the header or an entry is cut off (clang's entries end the
  // file). (A shorter prefix is no bundle: the ELF loader refuses it.)
  size_t refused = 0, tried = 0;
  for (size_t len = 24; len < fat.size(); len += (len < 256 ? 1 : 61)) {
    const std::vector<uint8_t> cut(fat.begin(), fat.begin() + len);
    for (const char* arch : {"gfx942", "gfx950"}) {
      ++tried;
      const std::string e = error_of(cut, arch);
      if (e.find('\n') == std::string::npos && e != "(no error)") ++refused;
      else FAIL_CHECK("length " << len << " " << arch << ": " << e);
    }
  }
  CHECK(refused == tried);
  CHECK(error_of(std::vector<uint8_t>(fat.begin(), fat.begin() + 100), "gfx942").starts_with("offload bundle: "));

  const std::vector<uint8_t> co = {1, 2, 3, 4};
  auto bundle = make_bundle({{"hipv4-amdgcn-amd-amdhsa--gfx942", co}});
  auto patch = [&](size_t at, uint64_t v) {
    auto b = bundle;
    std::memcpy(b.data() + at, &v, 8);
    return b;
  };
  CHECK(error_of(patch(24, 0), "gfx942") == "offload bundle: entry count 0 does not fit the file's 91 bytes");
  CHECK(error_of(patch(24, ~0ull), "gfx942").starts_with("offload bundle: entry count 18446744073709551615"));
  CHECK(error_of(patch(32, 1000), "gfx942").starts_with("offload bundle: entry 'hipv4-amdgcn-amd-amdhsa--gfx942' "
                                                       "(bytes 1000 + 4) is past the end"));
  CHECK(error_of(patch(32, ~0ull - 1), "gfx942").ends_with("is past the end of the file (91 bytes)"));
  CHECK(error_of(patch(40, ~0ull), "gfx942").ends_with("is past the end of the file (91 bytes)"));
  CHECK(error_of(patch(48, 1u << 20), "gfx942") == "offload bundle: entry 0: id of 1048576 bytes does not fit the file");
  const auto twice = make_bundle({{"hipv4-amdgcn-amd-amdhsa--gfx942", co}, {"hipv4-amdgcn-amd-amdhsa--gfx942", co}});
  CHECK(error_of(twice, "gfx942") == "offload bundle: two entries 'hipv4-amdgcn-amd-amdhsa--gfx942'");
  const auto empty = make_bundle({{"hipv4-amdgcn-amd-amdhsa--gfx942", {}}});
  CHECK(error_of(empty, "gfx942") == "offload bundle: the gfx942 entry is empty");
  std::vector<uint8_t> compressed = {'C', 'C', 'O', 'B', 3, 0, 1, 0};
  CHECK(error_of(compressed, "gfx942").starts_with("offload bundle: compressed"));
  // An entry that is not a code object fails in the ELF loader, one line too.
  auto junk = sim::select_code_object(bundle, "gfx942");
  CHECK_THROWS_AS(sim::load_code_object(junk), sim::error);
}

// The checker's LDS definedness follows the address the data goes to. A DS address is the
// VGPR plus the instruction offset in 32 bits, and clang's code relies on the sum wrapping
// (v0 = 0 - 16 * lane, ds_write_b128 v0, ... offset:1008). Each kernel here is compiled by
// clang++-22 for gfx942 and gfx950 when the test runs, run in hipasm-sim with the checker on,
// and its output compared with plain C++. The gfx950 transposing reads (ds_read_b64_tr_b16)
// define a result half from the rows of the lanes whose elements it receives.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "hipasm/rt/launcher.hpp"

namespace rt = hipasm::rt;

namespace {

const char* const kPrelude = R"HIP(#include "kernels/ref_common.h"
typedef u32 u32x4 __attribute__((ext_vector_type(4)));
typedef u32 u32x2 __attribute__((ext_vector_type(2)));
// An LDS array's byte address (0 here: each kernel has one); taking it keeps the array, which
// only inline asm writes, allocated.
DEVICE u32 lds_offset(const void* p) { return (u32)(__SIZE_TYPE__)(const LDS void*)p; }
)HIP";

// The code object of `source` (HIP, ref_common.h's helpers) for `arch`, built once per name.
std::string build(const std::string& name, const std::string& arch, const std::string& source) {
  const std::string dir = HIPASM_SIM_TEST_DIR, hip = dir + "/lds_wrap_" + name + ".hip",
                    co = dir + "/lds_wrap_" + name + "_" + arch + ".co";
  std::ofstream(hip) << kPrelude << source;
  const std::string cmd = "clang++-22 -x hip --offload-arch=" + arch +
                          " -nogpuinc -nogpulib --cuda-device-only --no-gpu-bundle-output -O3 -I \"" +
                          std::string(HIPASM_SIM_SOURCE_DIR) + "\" \"" + hip + "\" -o \"" + co + "\" 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  return co;
}

// One workgroup of 64 lanes of `kernel` from the code object `co`, the checker's definedness on.
rt::launch_report launch(rt::device& dev, const std::string& co, const std::string& kernel, rt::kernel_args& args) {
  auto mod = dev.load_file(co);
  rt::launch_options opts;
  opts.check_undefined = true;
  return dev.launch(*mod, kernel, {1, 1, 1}, {64, 1, 1}, args, opts);
}

void require_clean(const rt::launch_report& rep) {
  for (const std::string& d : rep.diagnostics) UNSCOPED_INFO(d);
  REQUIRE(rep.diagnostics.empty());
}

// The issue's kernel: a buffer load of 16 bytes a lane, a transposing LDS store whose address
// wraps, a barrier, a plain LDS load, an add, a global store.
const char* const kTranspose = R"HIP(
KERNEL void lds_wrap_transpose(const u32x4* in, u32x4* out) {
  SHARED u32x4 stage[64];
  const u32 l = tid_x();
  __amdgpu_buffer_rsrc_t rsrc = __builtin_amdgcn_make_buffer_rsrc((void*)in, (short)0, 64 * 16, 0x00020000);
  stage[63 - l] = __builtin_bit_cast(u32x4, __builtin_amdgcn_raw_buffer_load_b128(rsrc, l * 16, 0, 0));
  sync_workgroup();
  out[l] = stage[l] + (u32x4){1, 2, 3, 4};
}
)HIP";

// The other DS forms with a base of 0 - 8 * lane and offsets that bring it back into the
// group's 512 bytes: ds_write2_b32 (offset0/offset1 in dwords), a returning and a
// non-returning LDS atomic, ds_read2_b32; then plain reads of every dword.
const char* const kForms = R"HIP(
KERNEL void lds_wrap_forms(u32* out) {
  SHARED u32 lds[128];
  const u32 l = tid_x();
  const u32 base = lds_offset(lds) - 8u * l;  // + 504 / + 508: bytes 504 - 8l and 508 - 8l
  asm volatile("ds_write2_b32 %0, %1, %2 offset0:126 offset1:127\n s_waitcnt lgkmcnt(0)"
               :: "v"(base), "v"(l), "v"(l + 1000u) : "memory");
  u32 old;
  asm volatile("ds_add_rtn_u32 %0, %1, %2 offset:504\n s_waitcnt lgkmcnt(0)"
               : "=v"(old) : "v"(base), "v"(7u) : "memory");
  asm volatile("ds_add_u32 %0, %1 offset:508\n s_waitcnt lgkmcnt(0)" :: "v"(base), "v"(5u) : "memory");
  u32x2 pair;
  asm volatile("ds_read2_b32 %0, %1 offset0:126 offset1:127\n s_waitcnt lgkmcnt(0)"
               : "=v"(pair) : "v"(base) : "memory");
  sync_workgroup();
  out[l] = lds[l];
  out[64 + l] = lds[64 + l];
  out[128 + l] = old;
  out[192 + l] = pair.x;
  out[256 + l] = pair.y;
}
)HIP";

// gfx950: ds_read_b64_tr_b16 from a wrapped address (rows of 8 bytes, all written), and from
// rows only lanes 0-7 wrote: lane l of a 16-lane group receives halfword n from lane 4n + (l/4)%4
// of the group, so its low dword (halfwords 0, 1: lanes 0-7) is defined in lanes 0-15 and its
// high dword (lanes 8-15) nowhere.
const char* const kTransposed = R"HIP(
KERNEL void lds_wrap_read_tr(u32* out) {
  SHARED u32x2 rows[64];
  const u32 l = tid_x();
  rows[l] = (u32x2){l * 0x20002u + 0x10000u, l * 0x20002u + 0x10000u + 0x40004u};
  sync_workgroup();
  const u32 base = lds_offset(rows) - 8u * l;
  u32x2 v;
  asm volatile("ds_read_b64_tr_b16 %0, %1 offset:504\n s_waitcnt lgkmcnt(0)" : "=v"(v) : "v"(base) : "memory");
  out[l] = v.x;
  out[64 + l] = v.y;
}
KERNEL void lds_read_tr_partial(u32* out) {
  SHARED u32x2 rows[64];
  const u32 l = tid_x();
  if (l < 8) rows[l] = (u32x2){l, l};
  sync_workgroup();
  u32x2 v;
  asm volatile("ds_read_b64_tr_b16 %0, %1\n s_waitcnt lgkmcnt(0)" : "=v"(v) : "v"(lds_offset(rows) + 8u * l) : "memory");
  out[l] = v.x;
  out[64 + l] = v.y;
}
)HIP";

}  // namespace

TEST_CASE("checker: LDS definedness follows a wrapped DS address (clang's transposing store)", "[checker][undef]") {
  for (const std::string arch : {"gfx942", "gfx950"}) {
    INFO(arch);
    const std::string co = build("transpose", arch, kTranspose);
    auto dev = rt::device::open(rt::backend::sim);
    std::vector<uint32_t> in(256);
    for (uint32_t i = 0; i < 256; ++i) in[i] = i * 2654435761u;
    rt::buffer<uint32_t> din(*dev, in), dout(*dev, 256);
    rt::kernel_args args;
    args.add(din.addr()).add(dout.addr());
    require_clean(launch(*dev, co, "lds_wrap_transpose", args));
    const auto out = dout.download();
    for (uint32_t l = 0; l < 64; ++l)
      for (uint32_t k = 0; k < 4; ++k) CHECK(out[4 * l + k] == in[4 * (63 - l) + k] + k + 1);
  }
}

TEST_CASE("checker: wrapped addresses of ds_write2 / ds_read2 / LDS atomics", "[checker][undef]") {
  for (const std::string arch : {"gfx942", "gfx950"}) {
    INFO(arch);
    const std::string co = build("forms", arch, kForms);
    auto dev = rt::device::open(rt::backend::sim);
    rt::buffer<uint32_t> dout(*dev, 320);
    rt::kernel_args args;
    args.add(dout.addr());
    require_clean(launch(*dev, co, "lds_wrap_forms", args));
    const auto out = dout.download();
    // dword 126 - 2l holds lane l's l (+ 7), dword 127 - 2l its l + 1000 (+ 5)
    std::vector<uint32_t> lds(128);
    for (uint32_t l = 0; l < 64; ++l) lds[126 - 2 * l] = l + 7, lds[127 - 2 * l] = l + 1005;
    for (uint32_t l = 0; l < 64; ++l) {
      CHECK(out[l] == lds[l]);
      CHECK(out[64 + l] == lds[64 + l]);
      CHECK(out[128 + l] == l);
      CHECK(out[192 + l] == l + 7);
      CHECK(out[256 + l] == l + 1005);
    }
  }
}

TEST_CASE("checker: gfx950 ds_read_b64_tr_b16 from a wrapped address, and its definedness", "[checker][undef][gfx950]") {
  const std::string co = build("read_tr", "gfx950", kTransposed);
  auto dev = rt::device::open(rt::backend::sim);
  rt::buffer<uint32_t> dout(*dev, 128);
  rt::kernel_args args;
  args.add(dout.addr());
  require_clean(launch(*dev, co, "lds_wrap_read_tr", args));
  auto out = dout.download();
  // Lane r reads the row at 504 - 8r: rows[63 - r], whose halfword h the kernel wrote as:
  auto row_half = [](uint32_t j, uint32_t h) {
    const uint32_t d = h < 2 ? j * 0x20002u + 0x10000u : j * 0x20002u + 0x10000u + 0x40004u;
    return (d >> (16 * (h % 2))) & 0xffffu;
  };
  for (uint32_t l = 0; l < 64; ++l) {
    const uint32_t g = l & ~15u;
    uint32_t want[2] = {0, 0};
    for (uint32_t n = 0; n < 4; ++n) {
      const uint32_t src = g + 4 * n + (l >> 2) % 4;  // the lane whose row it reads
      want[n / 2] |= row_half(63 - src, l % 4) << (16 * (n % 2));
    }
    CHECK(out[l] == want[0]);
    CHECK(out[64 + l] == want[1]);
  }
  rt::launch_report rep = launch(*dev, co, "lds_read_tr_partial", args);
  for (const std::string& d : rep.diagnostics) UNSCOPED_INFO(d);
  // (in either order: the stores of the low and the high dword)
  REQUIRE(rep.diagnostics.size() == 2);
  int low = 0, high = 0;
  for (const std::string& d : rep.diagnostics) {
    CHECK(d.find("[undef-store]") != std::string::npos);
    low += d.find("undefined in lanes 16-63") != std::string::npos;
    high += d.find("undefined in lanes 0-63") != std::string::npos;
  }
  CHECK(low == 1);
  CHECK(high == 1);
}

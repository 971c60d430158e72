// Loading and launching code objects the way AMD's production kernels need (tests/sim/launch/):
//  - a descriptor kernarg_size of 0 ("unspecified", AMDGPUUsage) with the segment size from the
//    metadata, as the ROCm runtime takes it;
//  - kernarg preloading: preloaded dwords in the user SGPRs after the enabled ones, execution
//    from entry + 256 (hand-written kernels whose first 256 bytes trap, and clang-22's own
//    preloading output as the outside oracle);
//  - a kernarg segment longer than the metadata's (launch_options::kernarg_size);
//  - clang-22's 4-dword load of a 3-dword kernarg run, 4 bytes past the segment's size;
//  - the target ID from e_flags (clang-22's amdhsa.target strings as the oracle);
//  - --trace shows a branch's target and signed offset (llvm-objdump-22's text as the oracle).
// Results are checked against values computed here.
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "assemble_one.hpp"
#include "dispatch.hpp"
#include "elf.hpp"
#include "hipasm/rt/launcher.hpp"

using namespace hipasm;
namespace sim = hipasm::sim;

namespace {

const std::string kDir = HIPASM_SIM_TEST_DIR;
const std::string kAsm = kDir + "/sim_launch_asm.co";
const std::string kClang = kDir + "/sim_launch_preload.co";

std::vector<int32_t> run_ints(const std::string& co, const std::string& kernel, rt::dim3 grid, rt::dim3 block,
                              size_t n, const std::function<void(rt::kernel_args&, uint64_t)>& add_args,
                              const rt::launch_options& opts = {}) {
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = dev->load_file(co);
  rt::buffer<int32_t> out(*dev, std::vector<int32_t>(n, 0x5a5a5a5a));
  rt::kernel_args args;
  add_args(args, out.addr());
  const auto rep = dev->launch(*mod, kernel, grid, block, args, opts);
  CHECK(rep.diagnostics.empty());
  for (const auto& d : rep.diagnostics) UNSCOPED_INFO(d);
  return out.download();
}

// File offset of the 64-byte descriptor of `kernel` (through the section that holds it).
size_t descriptor_file_offset(const std::vector<uint8_t>& b, const sim::KernelInfo& k) {
  uint64_t shoff;
  uint16_t shnum;
  std::memcpy(&shoff, b.data() + 40, 8);
  std::memcpy(&shnum, b.data() + 60, 2);
  for (uint16_t i = 0; i < shnum; ++i) {
    const uint8_t* h = b.data() + shoff + size_t(i) * 64;
    uint64_t addr, off, size;
    std::memcpy(&addr, h + 16, 8);
    std::memcpy(&off, h + 24, 8);
    std::memcpy(&size, h + 32, 8);
    if (addr && k.descriptor_vaddr >= addr && k.descriptor_vaddr + 64 <= addr + size)
      return size_t(off + (k.descriptor_vaddr - addr));
  }
  FAIL("no section holds the descriptor of " << k.name);
  return 0;
}

std::string load_error(const std::vector<uint8_t>& b) {
  try {
    sim::load_code_object(b);
  } catch (const sim::error& e) {
    return e.what();
  }
  return "(loaded)";
}

}  // namespace

// A workgroup's waves share their SIMDs' VGPR files: 176 VGPRs a wave fit 2 waves a SIMD (512
// work-items), not 4 (1024), which no CU could ever hold: the launch is refused, not run.
TEST_CASE("a workgroup whose waves' VGPRs exceed a SIMD's 512 is refused", "[launch]") {
  const auto got = run_ints(kAsm, "wide_vgprs", {2, 1, 1}, {512, 1, 1}, 1024, [](rt::kernel_args& a, uint64_t out) {
    a.add(out);
  });
  for (int i = 0; i < 1024; ++i) CHECK(got[size_t(i)] == i % 512);
  CHECK_THROWS_WITH(run_ints(kAsm, "wide_vgprs", {1, 1, 1}, {1024, 1, 1}, 1024, [](rt::kernel_args& a, uint64_t out) {
                      a.add(out);
                    }),
                    Catch::Contains("kernel 'wide_vgprs': a workgroup of 1024 work-items puts 4 waves on a SIMD, each "
                                    "with 176 VGPRs+AGPRs, more than a SIMD's 512: it does not fit on a CU"));
}

TEST_CASE("a descriptor kernarg_size of 0 takes the segment size from the metadata", "[launch][loader]") {
  const auto co = sim::load_code_object(sim::read_file_bytes(kAsm));
  const sim::KernelInfo& k = co.kernel("zero_kernarg_size");
  CHECK(k.kd.kernarg_size == 0);  // no .amdhsa_kernarg_size: what llvm-mc writes, as in aiter's objects
  CHECK(k.kernarg_segment_size == 24);
  CHECK(k.image.kernarg_size == 24);
  // c sits at byte 16: a 16-byte segment would fault on it.
  const auto got = run_ints(kAsm, "zero_kernarg_size", {1, 1, 1}, {64, 1, 1}, 64, [](rt::kernel_args& a, uint64_t out) {
    a.add(out).add(int32_t(5)).add(int32_t(-3)).add(int32_t(1000));
  });
  for (int i = 0; i < 64; ++i) CHECK(got[size_t(i)] == 5 - 3 * i + 1000);
}

TEST_CASE("a nonzero descriptor kernarg_size that disagrees with the metadata is refused", "[launch][loader]") {
  auto b = sim::read_file_bytes(kAsm);
  const auto co = sim::load_code_object(b);
  const size_t kd = descriptor_file_offset(b, co.kernel("zero_kernarg_size"));
  const uint32_t wrong = 16;
  std::memcpy(b.data() + kd + 8, &wrong, 4);
  CHECK_THAT(load_error(b), Catch::Contains("descriptor kernarg_size 16 != metadata .kernarg_segment_size 24"));
  const uint32_t right = 24;
  std::memcpy(b.data() + kd + 8, &right, 4);
  CHECK(load_error(b) == "(loaded)");
}

TEST_CASE("preloaded kernel arguments: user SGPRs after the enabled ones, execution from entry + 256", "[launch][preload]") {
  const auto co = sim::load_code_object(sim::read_file_bytes(kAsm));
  const sim::KernelInfo& k = co.kernel("preload_trap");
  CHECK(k.kd.kernarg_preload_length == 4);
  CHECK(k.image.kernarg_preload_length == 4);
  CHECK(k.image.entry == k.descriptor_vaddr + uint64_t(k.kd.kernel_code_entry_byte_offset) + 256);
  // The first 256 bytes start with s_trap 2: running them would abort the dispatch.
  const auto got = run_ints(kAsm, "preload_trap", {1, 1, 1}, {64, 1, 1}, 64, [](rt::kernel_args& a, uint64_t out) {
    a.add(out).add(int32_t(-7)).add(int32_t(9));
  });
  for (int i = 0; i < 64; ++i) CHECK(got[size_t(i)] == -7 + 9 * i);
}

TEST_CASE("kernarg preload from a dword offset, after the dispatch and kernarg pointers", "[launch][preload]") {
  // preload_offset: b and c (dwords 3 and 4) in s4, s5; s[0:1] the dispatch packet, s[2:3] the
  // kernarg segment, s6 the workgroup id.
  const uint32_t groups = 3, block = 48;  // one partial wave per workgroup, 64 slots each
  const auto got = run_ints(kAsm, "preload_offset", {groups, 1, 1}, {block, 1, 1}, groups * 64,
                            [](rt::kernel_args& a, uint64_t out) {
                              a.add(out).add(int32_t(11)).add(int32_t(-4)).add(int32_t(300));
                            });
  for (uint32_t g = 0; g < groups; ++g)
    for (uint32_t t = 0; t < 64; ++t)
      CHECK(got[g * 64 + t] == (t < block ? int32_t(11 - 4 * int32_t(t) + 300 + 1000 * g + 100000 * block)
                                          : 0x5a5a5a5a));
}

TEST_CASE("clang-22's kernarg preloading runs: mixed widths, a hidden argument, the prologue skipped", "[launch][preload]") {
  const auto co = sim::load_code_object(sim::read_file_bytes(kClang));
  const sim::KernelInfo& k = co.kernel("preload_mix");
  // -mllvm -amdgpu-kernarg-preload-count=16 must have preloaded something, or this tests nothing.
  REQUIRE(k.kd.kernarg_preload_length > 0);
  CHECK(k.kd.user_sgpr_count == k.kd.enabled_user_sgprs() + k.kd.kernarg_preload_length);
  const uint32_t groups = 2, block = 128;
  const int32_t a = 17;
  const int16_t s = -3;
  const int8_t c = 5;
  const int64_t l = 1000000;
  const float f = 0.5f;
  const auto got = run_ints(kClang, "preload_mix", {groups, 1, 1}, {block, 1, 1}, groups * block,
                            [&](rt::kernel_args& args, uint64_t out) { args.add(out).add(a).add(s).add(c).add(l).add(f); });
  for (uint32_t g = 0; g < groups; ++g)
    for (uint32_t i = 0; i < block; ++i)
      CHECK(got[g * block + i] == a + s * int32_t(i) + c + int32_t(l) + int32_t(f * float(i)) + int32_t(g * 1000));
  // The prologue (an s_load of every preloaded argument and a branch) is not executed: one
  // wave-instruction count for the body alone, fewer than with the prologue.
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = dev->load_file(kClang);
  rt::buffer<int32_t> out(*dev, 64);
  rt::kernel_args args;
  args.add(out.addr()).add(a).add(s).add(c).add(l).add(f);
  const auto rep = dev->launch(*mod, "preload_mix", {1, 1, 1}, {64, 1, 1}, args);
  const sim::Program prog = sim::decode_program(k.image.code, k.image.code_vaddr);
  uint64_t body = 0;
  for (const auto& in : prog.insts) {
    if (in.pc < k.image.entry) continue;
    ++body;
    if (in.mnemonic == "s_endpgm") break;
  }
  CHECK(rep.instructions == body);
}

TEST_CASE("bad kernarg preload descriptors are refused with a one-line reason", "[launch][preload][robustness]") {
  const auto good = sim::read_file_bytes(kAsm);
  const auto co = sim::load_code_object(good);
  const size_t kd = descriptor_file_offset(good, co.kernel("preload_trap"));
  auto b = good;
  SECTION("preload past the kernarg segment") {
    const uint16_t spec = uint16_t(4 | (2u << 7));  // 4 dwords from dword 2: bytes 8..24 of 16
    std::memcpy(b.data() + kd + 58, &spec, 2);
    CHECK_THAT(load_error(b), Catch::Contains("kernarg preload of 4 dwords at dword offset 2") &&
                                  Catch::Contains("16-byte kernarg segment"));
  }
  SECTION("user_sgpr_count not covering the preloaded dwords") {
    uint32_t rsrc2;
    std::memcpy(&rsrc2, b.data() + kd + 52, 4);
    rsrc2 = (rsrc2 & ~(0x1fu << 1)) | (4u << 1);  // 4 user SGPRs for 2 + 4
    std::memcpy(b.data() + kd + 52, &rsrc2, 4);
    CHECK_THAT(load_error(b), Catch::Contains("user_sgpr_count 4") && Catch::Contains("2 + 4 preloaded"));
  }
}

TEST_CASE("a kernarg segment longer than the metadata's (a host struct past .kernarg_segment_size)", "[launch]") {
  // past_segment reads the dword at byte 16 of a 16-byte segment.
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = dev->load_file(kAsm);
  rt::buffer<int32_t> out(*dev, 64);
  rt::kernel_args args;
  args.add(out.addr()).add(int32_t(42)).add(int32_t(0));
  CHECK_THROWS_WITH(dev->launch(*mod, "past_segment", {1, 1, 1}, {64, 1, 1}, args),
                    Catch::Contains("s_load_dword") && Catch::Contains("16-byte allocation"));
  rt::launch_options longer;
  longer.kernarg_size = 24;  // the extra bytes are zero
  const auto rep = dev->launch(*mod, "past_segment", {1, 1, 1}, {64, 1, 1}, args, longer);
  CHECK(rep.diagnostics.empty());
  for (int32_t v : out.download()) CHECK(v == 42);
  rt::launch_options absurd;
  absurd.kernarg_size = (1u << 20) + 1;
  CHECK_THROWS_WITH(dev->launch(*mod, "past_segment", {1, 1, 1}, {64, 1, 1}, args, absurd),
                    Catch::Contains("kernarg segment of 1048577 bytes"));
}

TEST_CASE("clang-22's widened kernarg load (16 bytes at 40 of a 52-byte segment) is no out-of-bounds read", "[launch]") {
  // kernarg_widened.hip, built without preloading: m, n, k at bytes 40..51 come in by one
  // s_load_dwordx4 (the code object holds it: checked on its disassembly by llvm-objdump-22 when
  // the test was written), so the load reaches byte 55 of the 52-byte segment.
  const std::string co = kDir + "/sim_launch_widened.co";
  CHECK(sim::load_code_object(sim::read_file_bytes(co)).kernel("widened_args").image.kernarg_size == 52);
  const auto got = run_ints(co, "widened_args", {1, 1, 1}, {64, 1, 1}, 64, [](rt::kernel_args& a, uint64_t out) {
    a.add(out).add(uint64_t(0)).add(uint64_t(8)).add(uint64_t(0)).add(uint64_t(8));
    a.add(uint32_t(3)).add(uint32_t(5)).add(uint32_t(7));
  });
  for (int32_t v : got) CHECK(v == 3 + 10 * 5 + 100 * 7 + 2);  // a and c null
}

TEST_CASE("the target ID comes from e_flags when the metadata has no amdhsa.target", "[launch][loader]") {
  const auto co = sim::load_code_object(sim::read_file_bytes(kAsm));
  CHECK(co.target_from_e_flags);
  CHECK(co.target == "amdgcn-amd-amdhsa--gfx942");  // llvm-mc's default: xnack and sramecc "any"
  // clang-22's amdhsa.target for --offload-arch=gfx942, gfx942:xnack+, gfx942:sramecc-:xnack+,
  // gfx942:sramecc+ and the e_flags it wrote with them.
  CHECK(sim::target_id_from_e_flags(0x54c) == "amdgcn-amd-amdhsa--gfx942");
  CHECK(sim::target_id_from_e_flags(0x74c) == "amdgcn-amd-amdhsa--gfx942:xnack+");
  CHECK(sim::target_id_from_e_flags(0xb4c) == "amdgcn-amd-amdhsa--gfx942:sramecc-:xnack+");
  CHECK(sim::target_id_from_e_flags(0xd4c) == "amdgcn-amd-amdhsa--gfx942:sramecc+");
  const auto clang = sim::load_code_object(sim::read_file_bytes(kClang));
  CHECK_FALSE(clang.target_from_e_flags);
  CHECK(clang.target == sim::target_id_from_e_flags(clang.e_flags));
}

TEST_CASE("--trace prints branches as llvm-objdump-22 does, with the target and signed offset", "[launch][trace]") {
  const auto co = sim::load_code_object(sim::read_file_bytes(kAsm));
  const sim::KernelInfo& k = co.kernel("count_loop");
  // llvm-objdump-22's lines of the two branches: "s_cbranch_scc1 count_loop_head" (a symbol at
  // the target) and "s_branch 1 ... <count_loop_head+0x18>" (none: the nearest one before it).
  const std::string dis = simtest::shell_output("llvm-objdump-22 -d --mcpu=gfx942 --disassemble-symbols=count_loop,count_loop_head " + kAsm);
  struct branch {
    std::string text;   // the instruction as objdump prints it, with its <...> annotation if any
    uint64_t pc = 0, target = 0;
  };
  const auto address_of = [&](size_t pos) {  // the "// 000000001720: ..." address of a line
    const size_t c = dis.find("// ", pos);
    return std::stoull(dis.substr(c + 3, dis.find(':', c) - c - 3), nullptr, 16);
  };
  const auto objdump_branch = [&](const std::string& mnemonic, const std::string& target_line) {
    branch b;
    const size_t at = dis.find("\t" + mnemonic + " ");
    REQUIRE(at != std::string::npos);
    const std::string line = dis.substr(at + 1, dis.find('\n', at + 1) - at - 1);
    b.text = line.substr(0, line.find("  "));
    if (const size_t lt = line.find(" <"); lt != std::string::npos) b.text += line.substr(lt);
    b.pc = address_of(at);
    const size_t t = dis.find(target_line);
    REQUIRE(t != std::string::npos);
    b.target = address_of(t);
    return b;
  };
  const branch back = objdump_branch("s_cbranch_scc1", "s_add_u32 s6, s6, 1");
  const branch fwd = objdump_branch("s_branch", "v_mov_b32_e32 v1, s6");
  CHECK(back.text == "s_cbranch_scc1 count_loop_head");
  CHECK(fwd.text.find("s_branch 1 <count_loop_head+0x") == 0);
  sim::Memory mem;
  const uint64_t out = mem.alloc(256);
  sim::DispatchParams p;
  p.block[0] = 64;
  p.kernarg.resize(12);
  std::memcpy(p.kernarg.data(), &out, 8);
  const int32_t n = 40;
  std::memcpy(p.kernarg.data() + 8, &n, 4);
  p.trace = true;
  std::FILE* f = std::tmpfile();
  REQUIRE(f);
  p.trace_out = f;
  sim::run_dispatch(k.image, p, mem, nullptr);
  std::rewind(f);
  std::string text;
  char buf[4096];
  size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, got);
  std::fclose(f);
  INFO(text);
  for (const branch& b : {back, fwd}) {
    char want[200];
    std::snprintf(want, sizeof want, "0x%llx: %s (0x%llx, offset %lld)", (unsigned long long)b.pc, b.text.c_str(),
                  (unsigned long long)b.target, (long long)(int64_t(b.target) - int64_t(b.pc) - 4) / 4);
    CHECK(text.find(want) != std::string::npos);
  }
  int32_t v;
  mem.read(out, &v, 4);
  CHECK(v == n + 3);
}

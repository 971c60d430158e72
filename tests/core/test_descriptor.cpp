// The HIP wrapper's code objects, compiled here with clang++-22 and read back with
// llvm-readobj-22 / llvm-objdump-22: the kernel descriptor clang writes from hipasm's
// clobbers and entry-state asm (register counts, accum_offset, AGPR count, workgroup and
// work-item id enables, LDS size), and no instruction before the asm body writes an entry
// register the body reads.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "hipasm/kernel.hpp"
#include "hipasm/verify.hpp"
#include "kernels/descriptor_dsl_fn.hpp"
#include "kernels/descriptor_ir.hpp"
#include "passes_ir_helpers.hpp"

using namespace hipasm;
using namespace hipasm::test;

namespace {

const std::string here = std::string(__FILE__).substr(0, std::string(__FILE__).rfind('/'));

std::string compile_kernels(const std::string& file = "descriptor_kernels") {
  static std::map<std::string, std::string> done;
  if (done.count(file)) return done[file];
  const std::string co = "/tmp/hipasm_" + file + "_" + std::to_string(::getpid()) + ".co";
  done[file] = co;
  const std::string cmd = "clang++-22 -x hip -std=c++20 --offload-arch=gfx942 --offload-device-only "
                          "--no-gpu-bundle-output -nogpulib -nogpuinc -O3 -fconstexpr-steps=2000000000 "
                          "-Wno-c++26-extensions -fexperimental-new-constant-interpreter -I" +
                          here + "/../../include -c " + here + "/kernels/" + file + ".hip -o " + co + " 2>&1";
  const std::string out = run(cmd);
  INFO(out);
  REQUIRE(out.find("error") == std::string::npos);
  return co;
}

// The 64-byte kernel descriptor of `kernel` from the code object's .rodata.
std::vector<uint8_t> descriptor(const std::string& co, const std::string& kernel) {
  const std::string sym = run("llvm-readobj-22 --symbols " + co + " 2>&1");
  std::smatch m;
  const std::regex re("Name: " + kernel + "\\.kd[^\\n]*\\n\\s*Value: 0x([0-9A-Fa-f]+)");
  REQUIRE(std::regex_search(sym, m, re));
  const uint64_t addr = std::stoull(m[1].str(), nullptr, 16);
  const std::string dump = run("llvm-objdump-22 -s -j .rodata " + co + " 2>&1");
  std::map<uint64_t, uint8_t> bytes;
  std::istringstream in(dump);
  std::string line;
  const std::regex row("^ ([0-9a-f]+) ((?:[0-9a-f]{2,8} ?){1,4})");
  while (std::getline(in, line)) {
    if (!std::regex_search(line, m, row)) continue;
    uint64_t a = std::stoull(m[1].str(), nullptr, 16);
    std::istringstream words(m[2].str());
    std::string w;
    while (words >> w)
      for (std::size_t i = 0; i + 1 < w.size(); i += 2) bytes[a++] = static_cast<uint8_t>(std::stoul(w.substr(i, 2), nullptr, 16));
  }
  std::vector<uint8_t> d(64);
  for (int i = 0; i < 64; ++i) {
    REQUIRE(bytes.count(addr + i));
    d[i] = bytes[addr + i];
  }
  return d;
}
uint32_t desc_u32(const std::vector<uint8_t>& d, int off) {
  return d[off] | d[off + 1] << 8 | d[off + 2] << 16 | static_cast<uint32_t>(d[off + 3]) << 24;
}

// The metadata value `key` of kernel `kernel` (llvm-readobj-22 --notes).
long note_value(const std::string& co, const std::string& kernel, const std::string& key) {
  const std::string notes = run("llvm-readobj-22 --notes " + co + " 2>&1");
  // Each kernel's map starts with its first key (.agpr_count, keys are sorted) and holds
  // its .name somewhere after.
  const auto name_pos = notes.find(".name:           " + kernel + "\n");
  REQUIRE(name_pos != std::string::npos);
  const std::string first_key = "\n  - .agpr_count:";
  const auto start = notes.rfind(first_key, name_pos);
  REQUIRE(start != std::string::npos);
  const auto end = notes.find(first_key, name_pos);
  const std::string block = notes.substr(start, end == std::string::npos ? std::string::npos : end - start);
  std::smatch m;
  REQUIRE(std::regex_search(block, m, std::regex("\\" + key + ":\\s+(\\d+)")));
  return std::stol(m[1].str());
}

// Instructions of `kernel` before its hipasm body (whose first line is `first_line`).
std::vector<std::string> prologue(const std::string& co, const std::string& kernel, const std::string& first) {
  const std::string dis = run("llvm-objdump-22 -d --mcpu=gfx942 --no-show-raw-insn --no-leading-addr " + co + " 2>&1");
  const auto start = dis.find("<" + kernel + ">:");
  REQUIRE(start != std::string::npos);
  std::istringstream in(dis.substr(start));
  std::string line;
  std::getline(in, line);
  std::vector<std::string> out;
  while (std::getline(in, line)) {
    const auto b = line.find_first_not_of(" \t");
    if (b == std::string::npos) continue;
    line = line.substr(b);
    if (line.rfind(first, 0) == 0) return out;
    out.push_back(line);
  }
  FAIL("hipasm body not found in " << kernel);
  return out;
}

// Registers an instruction writes (its first operand), as s<N>/v<N> names.
std::vector<std::string> written(const std::string& ins) {
  std::smatch m;
  std::vector<std::string> regs;
  if (!std::regex_search(ins, m, std::regex("^\\S+\\s+([sv])(\\d+)\\b")) &&
      !std::regex_search(ins, m, std::regex("^\\S+\\s+([sv])\\[(\\d+):")))
    return regs;
  const std::string cls = m[1].str();
  int first = std::stoi(m[2].str()), last = first;
  std::smatch r;
  if (std::regex_search(ins, r, std::regex("^\\S+\\s+[sv]\\[(\\d+):(\\d+)\\]"))) last = std::stoi(r[2].str());
  for (int i = first; i <= last; ++i) regs.push_back(cls + std::to_string(i));
  return regs;
}

std::string first_line(const std::string& text) {
  std::string l = text.substr(0, text.find('\n'));
  l = l.substr(l.find_first_not_of(" \t"));
  return l.substr(0, l.find(' '));
}

}  // namespace

TEST_CASE("descriptor: counts, accum_offset, AGPRs, entry enables and LDS follow the asm") {
  const std::string co = compile_kernels();
  const auto d = descriptor(co, "entry_mix");
  CHECK(desc_u32(d, 0) == 1024);  // group_segment_fixed_size
  const uint32_t rsrc3 = desc_u32(d, 44), rsrc2 = desc_u32(d, 52);
  CHECK(((rsrc3 & 0x3f) + 1) * 4 == 40);  // accum_offset: v0..v37 used, rounded up to 4
  CHECK(((rsrc2 >> 7) & 1) == 1);         // workgroup id x (always on)
  CHECK(((rsrc2 >> 8) & 1) == 1);         // y
  CHECK(((rsrc2 >> 9) & 1) == 1);         // z
  CHECK(((rsrc2 >> 11) & 3) == 1);        // work-item ids up to y
  CHECK(note_value(co, "entry_mix", ".agpr_count") == 16);
  CHECK(note_value(co, "entry_mix", ".vgpr_count") == 40 + 16);
  CHECK(note_value(co, "entry_mix", ".group_segment_fixed_size") == 1024);
  // The allocation really put the workgroup ids where the hardware puts them (s3, s4
  // with x at s2), as the printed asm shows.
  const std::string text = asm_text<entry_mix_ir>("entry_mix");
  CHECK(text.find("v_add_u32 v0, s3,") != std::string::npos);
  CHECK(text.find(", s4, ") != std::string::npos);
}

TEST_CASE("descriptor: a kernel without AGPRs, LDS or y/z ids enables none of them") {
  const std::string co = compile_kernels();
  const auto d = descriptor(co, "plain_loop");
  CHECK(desc_u32(d, 0) == 0);
  const uint32_t rsrc2 = desc_u32(d, 52);
  CHECK(((rsrc2 >> 8) & 3) == 0);   // no y, z
  CHECK(((rsrc2 >> 11) & 3) == 0);  // work-item id x only
  CHECK(note_value(co, "plain_loop", ".agpr_count") == 0);
  const auto u = usage<plain_loop_ir>("plain_loop");
  CHECK(u.agprs == 0);
  const long vgprs = note_value(co, "plain_loop", ".vgpr_count");
  CHECK(vgprs >= u.vgprs);
  CHECK(vgprs <= ((u.vgprs < 3 ? 3 : u.vgprs) + 3) / 4 * 4);  // the clobber, rounded to the granule
}

TEST_CASE("descriptor: nothing before the asm body writes an entry register the body reads") {
  const std::string co = compile_kernels();
  struct k {
    const char* name;
    std::string text;
    std::vector<std::string> entry;
  } kernels[] = {
      {"entry_mix", asm_text<entry_mix_ir>("entry_mix", emit_options{false}), {"s0", "s1", "s3", "s4", "v0"}},
      {"plain_loop", asm_text<plain_loop_ir>("plain_loop", emit_options{false}), {"s0", "s1", "s2", "v0"}},
  };
  for (const auto& kk : kernels) {
    INFO(kk.name);
    const auto pro = prologue(co, kk.name, first_line(kk.text));
    for (const std::string& ins : pro)
      for (const std::string& r : written(ins))
        for (const std::string& e : kk.entry) {
          INFO(ins);
          CHECK(r != e);
        }
  }
}

TEST_CASE("descriptor: a DSL kernel (builder function, kernel arguments, If) through the wrapper") {
  const std::string co = compile_kernels("descriptor_dsl");
  const auto d = descriptor(co, "vector_add");
  CHECK(desc_u32(d, 0) == 0);
  const uint32_t rsrc2 = desc_u32(d, 52);
  CHECK(((rsrc2 >> 7) & 1) == 1);   // workgroup id x
  CHECK(((rsrc2 >> 8) & 3) == 0);   // no y, z
  CHECK(((rsrc2 >> 11) & 3) == 0);  // work-item id x only
  CHECK(note_value(co, "vector_add", ".agpr_count") == 0);
  CHECK(note_value(co, "vector_add", ".kernarg_segment_size") == 28);  // 3 pointers + unsigned
  const auto u = usage<vector_add_fn>("vector_add");
  CHECK(note_value(co, "vector_add", ".vgpr_count") >= u.vgprs);
  CHECK(note_value(co, "vector_add", ".sgpr_count") >= u.sgprs);
  const std::string text = asm_text<vector_add_fn>("vector_add", emit_options{false});
  const auto pro = prologue(co, "vector_add", first_line(text));
  for (const std::string& ins : pro)
    for (const std::string& r : written(ins))
      for (const char* e : {"s0", "s1", "s2", "v0"}) {
        INFO(ins);
        CHECK(r != e);
      }
}

TEST_CASE("verify: the DSL kernel's final program passes the independent checker") {
  const pipeline_state st = detail::compile_kernel<vector_add_fn>("vector_add");
  INFO(st.error.view());
  REQUIRE_FALSE(st.error.failed);
  const auto va = verify_allocation(st.fn, st.isa);
  INFO(va.view());
  CHECK_FALSE(va.failed);
  const auto vh = verify_hazards(st.fn, st.isa, gfx942_hazards);
  INFO(vh.view());
  CHECK_FALSE(vh.failed);
  CHECK(assemble_errors(asm_text<vector_add_fn>("vector_add"), "dsl") == "");
}

// Waves a SIMD the descriptor's register counts allow on gfx942 (the hardware's rule, not
// hipasm's): VGPR blocks of 8 out of 512 a lane, SGPR blocks of 8 (the descriptor's encoding)
// allocated in granules of 16 out of 800, at most 8 waves.
namespace {
unsigned waves_by_registers(const std::vector<uint8_t>& d) {
  const uint32_t rsrc1 = desc_u32(d, 48);
  const unsigned vgprs = ((rsrc1 & 0x3f) + 1) * 8, sgprs = (((rsrc1 >> 6) & 0xf) + 1) * 8;
  const unsigned sgpr_alloc = (sgprs + 15) / 16 * 16;
  return std::min({8u, 512u / vgprs, 800u / sgpr_alloc});
}
}  // namespace

TEST_CASE("descriptor: require_waves_per_simd holds in the counts clang writes") {
  const std::string co = compile_kernels("occupancy_kernels");
  const struct { const char* name; unsigned waves; } asked[] = {
      {"occ_3_vgprs", 3}, {"occ_3_vgprs_agprs", 3}, {"occ_5_vgprs", 5}, {"occ_8_sgprs", 8}};
  for (const auto& k : asked) {
    INFO(k.name);
    const auto d = descriptor(co, k.name);
    CHECK(waves_by_registers(d) >= k.waves);
    // (and the kernels are near their budgets: one granule fewer waves would not be a test)
    CHECK(waves_by_registers(d) < k.waves + 2);
  }
  CHECK(note_value(co, "occ_3_vgprs_agprs", ".agpr_count") == 72);
  CHECK(note_value(co, "occ_8_sgprs", ".sgpr_count") <= 96);
  // The same kernel without the requirement holds 170: 2 waves.
  CHECK(waves_by_registers(descriptor(co, "occ_none_vgprs")) == 2);
}

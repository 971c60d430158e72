// The code-object loader against outside oracles: clang-22's own `.amdhsa_*` directives for
// every kernel-descriptor field, llvm-readobj-22's rendering of the metadata note for every
// argument and kernel property, and its symbol table for entry points. Then the loader's
// refusals: broken ELF headers, tables, notes and descriptors each give their own one-line
// error (rt::error), and the msgpack reader survives hostile input.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "elf.hpp"
#include "msgpack.hpp"
#include "test_loader_oracle.hpp"

using namespace hipasm;
using namespace loader_oracle;

namespace {

const std::string kDir = HIPASM_SIM_TEST_DIR;

struct oracle_object {
  std::string name;
  std::vector<uint8_t> bytes;
  directives asm_kd;
  std::vector<md_kernel> metadata;
  std::map<std::string, uint64_t> symbols;
};

oracle_object load_oracle(const std::string& target) {
  oracle_object o;
  o.name = target;
  o.bytes = read_binary(kDir + "/" + target + ".co");
  o.asm_kd = parse_amdhsa_directives(read_text(kDir + "/" + target + ".s"));
  const std::string readobj = read_text(kDir + "/" + target + ".readobj.txt");
  o.metadata = parse_readobj_metadata(readobj);
  o.symbols = parse_readobj_symbols(readobj);
  return o;
}

uint64_t num(const std::map<std::string, std::string>& m, const std::string& key, uint64_t def = ~0ull) {
  auto it = m.find(key);
  if (it == m.end()) {
    if (def == ~0ull) FAIL("oracle lacks " << key);
    return def;
  }
  return std::stoull(it->second, nullptr, 0);
}
std::string str(const std::map<std::string, std::string>& m, const std::string& key) {
  auto it = m.find(key);
  return it == m.end() ? std::string() : it->second;
}

// gfx942 wave64: VGPR blocks of 8 (arch + AGPRs, i.e. next_free_vgpr which includes AGPRs);
// SGPR blocks of 8 (LLVM's getSGPREncodingGranule) over the metadata's .sgpr_count, which
// includes VCC, flat_scratch and the XNACK mask.
uint64_t vgpr_granule(uint64_t n) { return (std::max<uint64_t>(n, 1) + 7) / 8 - 1; }
uint64_t sgpr_granule(uint64_t n) { return (std::max<uint64_t>(n, 1) + 7) / 8 - 1; }

void check_against_oracles(const oracle_object& o, const std::string& arch = "gfx942") {
  const sim::CodeObject co = sim::load_code_object(o.bytes);
  REQUIRE(co.kernels.size() == o.asm_kd.size());
  REQUIRE(co.kernels.size() == o.metadata.size());
  CHECK(co.target == "amdgcn-amd-amdhsa--" + arch);

  for (const md_kernel& md : o.metadata) {
    const std::string name = str(md.fields, ".name");
    INFO(o.name << " kernel " << name);
    const sim::KernelInfo* k = co.find(name);
    REQUIRE(k != nullptr);
    REQUIRE(o.asm_kd.count(name));
    const auto& d = o.asm_kd.at(name);
    const auto& kd = k->kd;

    // Metadata (llvm-readobj-22 --notes).
    CHECK(k->symbol == str(md.fields, ".symbol"));
    CHECK(k->kernarg_segment_size == num(md.fields, ".kernarg_segment_size"));
    CHECK(k->kernarg_segment_align == num(md.fields, ".kernarg_segment_align"));
    CHECK(k->group_segment_fixed_size == num(md.fields, ".group_segment_fixed_size"));
    CHECK(k->private_segment_fixed_size == num(md.fields, ".private_segment_fixed_size"));
    CHECK(k->sgpr_count == num(md.fields, ".sgpr_count"));
    CHECK(k->vgpr_count == num(md.fields, ".vgpr_count"));
    CHECK(k->agpr_count == num(md.fields, ".agpr_count"));
    CHECK(k->wavefront_size == num(md.fields, ".wavefront_size"));
    CHECK(k->max_flat_workgroup_size == num(md.fields, ".max_flat_workgroup_size"));
    CHECK(k->uses_dynamic_stack == (str(md.fields, ".uses_dynamic_stack") == "true"));
    REQUIRE(k->args.size() == md.args.size());
    for (size_t i = 0; i < md.args.size(); ++i) {
      INFO("argument " << i);
      const auto& a = md.args[i].fields;
      CHECK(k->args[i].offset == num(a, ".offset"));
      CHECK(k->args[i].size == num(a, ".size"));
      CHECK(k->args[i].value_kind == str(a, ".value_kind"));
      CHECK(k->args[i].address_space == str(a, ".address_space"));
      CHECK(k->args[i].name == str(a, ".name"));
      CHECK(k->args[i].type_name == str(a, ".type_name"));
    }

    // Symbols (llvm-readobj-22 --dyn-symbols): the entry is the kernel's function symbol.
    REQUIRE(o.symbols.count(name));
    REQUIRE(o.symbols.count(name + ".kd"));
    CHECK(k->image.entry == o.symbols.at(name));
    CHECK(k->descriptor_vaddr == o.symbols.at(name + ".kd"));
    CHECK(k->image.entry >= k->image.code_vaddr);
    CHECK(k->image.entry < k->image.code_vaddr + k->image.code.size());

    // Descriptor (clang-22 -S .amdhsa_* directives).
    CHECK(kd.group_segment_fixed_size == d.at("group_segment_fixed_size"));
    CHECK(kd.private_segment_fixed_size == d.at("private_segment_fixed_size"));
    CHECK(kd.kernarg_size == d.at("kernarg_size"));
    CHECK(kd.user_sgpr_count == d.at("user_sgpr_count"));
    CHECK(kd.dispatch_ptr == d.at("user_sgpr_dispatch_ptr"));
    CHECK(kd.queue_ptr == d.at("user_sgpr_queue_ptr"));
    CHECK(kd.kernarg_segment_ptr == d.at("user_sgpr_kernarg_segment_ptr"));
    CHECK(kd.dispatch_id == d.at("user_sgpr_dispatch_id"));
    CHECK(kd.private_segment_size == d.at("user_sgpr_private_segment_size"));
    // gfx942 has architected flat scratch: clang prints neither directive, both are 0.
    CHECK(kd.private_segment_buffer == (d.count("user_sgpr_private_segment_buffer") ? d.at("user_sgpr_private_segment_buffer") : 0));
    CHECK(kd.flat_scratch_init == (d.count("user_sgpr_flat_scratch_init") ? d.at("user_sgpr_flat_scratch_init") : 0));
    CHECK(kd.kernarg_preload_length == d.at("user_sgpr_kernarg_preload_length"));
    CHECK(kd.kernarg_preload_offset == d.at("user_sgpr_kernarg_preload_offset"));
    CHECK(kd.uses_dynamic_stack == d.at("uses_dynamic_stack"));
    CHECK(kd.enable_private_segment == d.at("enable_private_segment"));
    CHECK(kd.workgroup_id_x == d.at("system_sgpr_workgroup_id_x"));
    CHECK(kd.workgroup_id_y == d.at("system_sgpr_workgroup_id_y"));
    CHECK(kd.workgroup_id_z == d.at("system_sgpr_workgroup_id_z"));
    CHECK(kd.workgroup_info == d.at("system_sgpr_workgroup_info"));
    CHECK(kd.vgpr_workitem_id == d.at("system_vgpr_workitem_id"));
    CHECK(kd.granulated_workitem_vgpr_count == vgpr_granule(d.at("next_free_vgpr")));
    CHECK(kd.granulated_wavefront_sgpr_count == sgpr_granule(k->sgpr_count));
    CHECK(kd.accum_offset == d.at("accum_offset"));
    CHECK(kd.float_round_mode_32 == d.at("float_round_mode_32"));
    CHECK(kd.float_round_mode_16_64 == d.at("float_round_mode_16_64"));
    CHECK(kd.float_denorm_mode_32 == d.at("float_denorm_mode_32"));
    CHECK(kd.float_denorm_mode_16_64 == d.at("float_denorm_mode_16_64"));
    CHECK(kd.dx10_clamp == d.at("dx10_clamp"));
    CHECK(kd.ieee_mode == d.at("ieee_mode"));
    CHECK(kd.fp16_overflow == d.at("fp16_overflow"));
    CHECK(kd.tg_split == d.at("tg_split"));
    const uint64_t exceptions = d.at("exception_fp_ieee_invalid_op") | d.at("exception_fp_denorm_src") << 1 |
                                d.at("exception_fp_ieee_div_zero") << 2 | d.at("exception_fp_ieee_overflow") << 3 |
                                d.at("exception_fp_ieee_underflow") << 4 | d.at("exception_fp_ieee_inexact") << 5 |
                                d.at("exception_int_div_zero") << 6;
    CHECK((kd.exception_bits & 0x7f) == exceptions);
    CHECK_FALSE(kd.wavefront_size32);

    // The KernelImage the dispatcher sees carries the same facts.
    const auto& im = k->image;
    CHECK(im.name == name);
    CHECK(im.group_segment_fixed_size == d.at("group_segment_fixed_size"));
    CHECK(im.private_segment_fixed_size == d.at("private_segment_fixed_size"));
    CHECK(im.kernarg_size == d.at("kernarg_size"));
    CHECK(im.accum_offset == d.at("accum_offset"));
    CHECK(im.user_sgpr_count == d.at("user_sgpr_count"));
    CHECK(im.sgpr_kernarg_segment_ptr == (d.at("user_sgpr_kernarg_segment_ptr") != 0));
    CHECK(im.sgpr_dispatch_ptr == (d.at("user_sgpr_dispatch_ptr") != 0));
    CHECK(im.sgpr_queue_ptr == (d.at("user_sgpr_queue_ptr") != 0));
    CHECK(im.sgpr_workgroup_id[0] == (d.at("system_sgpr_workgroup_id_x") != 0));
    CHECK(im.sgpr_workgroup_id[1] == (d.at("system_sgpr_workgroup_id_y") != 0));
    CHECK(im.sgpr_workgroup_id[2] == (d.at("system_sgpr_workgroup_id_z") != 0));
    CHECK(im.sgpr_private_segment_wavefront_offset == (d.at("enable_private_segment") != 0));
    CHECK(im.vgpr_workitem_id == d.at("system_vgpr_workitem_id"));
    CHECK(im.next_free_vgpr >= d.at("next_free_vgpr"));
    CHECK(im.next_free_vgpr % 8 == 0);
    CHECK(im.next_free_sgpr >= k->sgpr_count);
    CHECK(im.float_denorm_mode_32 == d.at("float_denorm_mode_32"));
    CHECK(im.float_denorm_mode_16_64 == d.at("float_denorm_mode_16_64"));
    CHECK(im.ieee_mode == (d.at("ieee_mode") != 0));
    CHECK(im.dx10_clamp == (d.at("dx10_clamp") != 0));
  }
}

// Little-endian patching of a copy of a real code object.
template <class T>
void poke(std::vector<uint8_t>& b, size_t off, T v) {
  REQUIRE(off + sizeof(T) <= b.size());
  std::memcpy(b.data() + off, &v, sizeof(T));
}
template <class T>
T peek(const std::vector<uint8_t>& b, size_t off) {
  T v;
  std::memcpy(&v, b.data() + off, sizeof(T));
  return v;
}

// Section header fields of a real object, read with plain offsets (not the loader).
struct raw_section {
  size_t header;  // file offset of the section header
  std::string name;
  uint32_t type;
  uint64_t addr, offset, size;
};
std::vector<raw_section> raw_sections(const std::vector<uint8_t>& b) {
  const uint64_t shoff = peek<uint64_t>(b, 40);
  const uint16_t shnum = peek<uint16_t>(b, 60), shstrndx = peek<uint16_t>(b, 62);
  const uint64_t names = peek<uint64_t>(b, shoff + shstrndx * 64 + 24);
  std::vector<raw_section> out;
  for (uint16_t i = 0; i < shnum; ++i) {
    const size_t h = shoff + i * 64;
    raw_section s;
    s.header = h;
    s.name = reinterpret_cast<const char*>(b.data() + names + peek<uint32_t>(b, h));
    s.type = peek<uint32_t>(b, h + 4);
    s.addr = peek<uint64_t>(b, h + 16);
    s.offset = peek<uint64_t>(b, h + 24);
    s.size = peek<uint64_t>(b, h + 32);
    out.push_back(s);
  }
  return out;
}
const raw_section& find_section(const std::vector<raw_section>& ss, const std::string& name) {
  for (const auto& s : ss)
    if (s.name == name) return s;
  FAIL("no section " << name);
  return ss.front();
}

// File offset of `name`'s kernel descriptor, from llvm-readobj's symbol value.
size_t descriptor_offset(const oracle_object& o, const std::string& name) {
  const auto ss = raw_sections(o.bytes);
  const uint64_t v = o.symbols.at(name + ".kd");
  for (const auto& s : ss)
    if (s.addr && v >= s.addr && v < s.addr + s.size) return s.offset + (v - s.addr);
  FAIL("descriptor not in a section");
  return 0;
}

std::string load_error(const std::vector<uint8_t>& b) {
  try {
    sim::load_code_object(b);
  } catch (const sim::error& e) {
    const std::string msg = e.what();
    CHECK(msg.find('\n') == std::string::npos);
    return msg;
  }
  return "(loaded without error)";
}

}  // namespace

TEST_CASE("loader matches clang-22 and llvm-readobj-22 on every kernel", "[loader]") {
  check_against_oracles(load_oracle("sim_loader_kernels"));
}

TEST_CASE("loader matches the oracles with flushed denormals and IEEE mode off", "[loader]") {
  const oracle_object o = load_oracle("sim_loader_kernels_ftz");
  check_against_oracles(o);
  // The options did reach the descriptor (or this test would prove nothing new).
  const auto co = sim::load_code_object(o.bytes);
  CHECK(co.kernel("args_mix").kd.float_denorm_mode_32 == 0);
  CHECK_FALSE(co.kernel("args_mix").kd.ieee_mode);
}

TEST_CASE("loader matches the oracles on the same kernels built for gfx950", "[loader][gfx950]") {
  const oracle_object o = load_oracle("sim_loader_kernels_gfx950");
  check_against_oracles(o, "gfx950");
  const auto co = sim::load_code_object(o.bytes);
  CHECK(std::string(co.arch->name) == "gfx950");
  CHECK(co.target.find("gfx950") != std::string::npos);
  CHECK(co.kernels.front().image.target == co.arch);
  CHECK(co.arch->lds_bytes == 160 * 1024);  // clang-22: "local memory exceeds limit (163840)"
  // The e_flags of a gfx950 object with gfx942's metadata: the two disagree, an error.
  std::vector<uint8_t> b = read_binary(kDir + "/sim_loader_kernels.co");
  poke<uint32_t>(b, 48, (peek<uint32_t>(b, 48) & ~0xffu) | 0x4f);
  CHECK_THAT(load_error(b), Catch::Contains("is not gfx950"));
}

TEST_CASE("the loader's test kernels exercise the descriptor fields they are meant to", "[loader]") {
  const auto co = sim::load_code_object(read_binary(kDir + "/sim_loader_kernels.co"));
  CHECK(co.kernels.size() == 11);
  CHECK(co.kernel("ids_3d").kd.vgpr_workitem_id == 2);
  CHECK(co.kernel("ids_3d").kd.workgroup_id_z);
  CHECK(co.kernel("lds_static").kd.group_segment_fixed_size == 2048);
  CHECK(co.kernel("mfma_acc").agpr_count > 0);
  CHECK(co.kernel("mfma_acc").kd.accum_offset < co.kernel("mfma_acc").kd.allocated_vgprs());
  CHECK(co.kernel("scratch_use").kd.private_segment_fixed_size > 0);
  CHECK(co.kernel("scratch_use").kd.enable_private_segment);
  CHECK(co.kernel("packet_ptrs").kd.dispatch_ptr);
  CHECK(co.kernel("packet_ptrs").kd.queue_ptr);
  CHECK(co.kernel("small_block").max_flat_workgroup_size == 256);
  CHECK(co.kernel("args_mix").explicit_arg_count() == 9);
  bool hidden_block_count = false;
  for (const auto& a : co.kernel("grid_query").args) hidden_block_count |= a.value_kind == "hidden_block_count_x";
  CHECK(hidden_block_count);
  // Every kernel's code section is the same .text, mapped with the rest of the image.
  CHECK(co.image_size >= co.kernel("args_mix").image.code_vaddr + co.kernel("args_mix").image.code.size());
}

TEST_CASE("the loaded image holds the file's segments and applies relative relocations", "[loader]") {
  const oracle_object o = load_oracle("sim_loader_kernels");
  const auto co = sim::load_code_object(o.bytes);
  const auto image = co.image_at(0x7000'0000);
  const auto ss = raw_sections(o.bytes);
  const auto& text = find_section(ss, ".text");
  REQUIRE(text.addr + text.size <= image.size());
  CHECK(std::memcmp(image.data() + text.addr, o.bytes.data() + text.offset, text.size) == 0);
  const auto& rodata = find_section(ss, ".rodata");  // the kernel descriptors
  CHECK(std::memcmp(image.data() + rodata.addr, o.bytes.data() + rodata.offset, rodata.size) == 0);
  for (const auto& r : co.relocations) {
    uint64_t v;
    std::memcpy(&v, image.data() + r.offset, 8);
    CHECK(v == 0x7000'0000 + uint64_t(r.addend));
  }
}

TEST_CASE("a re-assembled clang .s (the hand-edit workflow) loads to the same kernels", "[loader]") {
  const auto compiled = sim::load_code_object(read_binary(kDir + "/sim_loader_kernels.co"));
  const auto assembled = sim::load_code_object(read_binary(kDir + "/sim_loader_kernels_asm.co"));
  REQUIRE(assembled.kernels.size() == compiled.kernels.size());
  for (const auto& c : compiled.kernels) {
    INFO("kernel " << c.name);
    const sim::KernelInfo* a = assembled.find(c.name);
    REQUIRE(a != nullptr);
    CHECK(a->kd.compute_pgm_rsrc1 == c.kd.compute_pgm_rsrc1);
    CHECK(a->kd.compute_pgm_rsrc2 == c.kd.compute_pgm_rsrc2);
    CHECK(a->kd.compute_pgm_rsrc3 == c.kd.compute_pgm_rsrc3);
    CHECK(a->kd.kernel_code_properties == c.kd.kernel_code_properties);
    CHECK(a->kd.group_segment_fixed_size == c.kd.group_segment_fixed_size);
    CHECK(a->kd.private_segment_fixed_size == c.kd.private_segment_fixed_size);
    CHECK(a->kernarg_segment_size == c.kernarg_segment_size);
    REQUIRE(a->args.size() == c.args.size());
    for (size_t i = 0; i < c.args.size(); ++i) {
      CHECK(a->args[i].offset == c.args[i].offset);
      CHECK(a->args[i].size == c.args[i].size);
      CHECK(a->args[i].value_kind == c.args[i].value_kind);
    }
    // The same instructions at the kernel entry (addresses may differ between the two links).
    const auto code_at = [](const sim::KernelInfo& k) {
      const size_t off = k.image.entry - k.image.code_vaddr;
      return std::vector<uint8_t>(k.image.code.begin() + off, k.image.code.begin() + off + 16);
    };
    CHECK(code_at(*a) == code_at(c));
  }
}

TEST_CASE("unknown kernel names list what the code object has", "[loader]") {
  const auto co = sim::load_code_object(read_binary(kDir + "/sim_loader_kernels.co"));
  CHECK(co.find("nope") == nullptr);
  CHECK_THROWS_WITH(co.kernel("nope"), Catch::Contains("no kernel 'nope'") && Catch::Contains("args_mix") &&
                                           Catch::Contains("grid_query"));
}

TEST_CASE("broken code objects are refused with a one-line reason", "[loader][robustness]") {
  const oracle_object o = load_oracle("sim_loader_kernels");
  const std::vector<uint8_t>& good = o.bytes;
  REQUIRE_NOTHROW(sim::load_code_object(good));
  auto b = good;
  const auto ss = raw_sections(good);

  SECTION("empty and non-ELF input") {
    CHECK_THAT(load_error({}), Catch::Contains("not an ELF"));
    const std::string text = "#!/bin/sh\necho not a code object\n";
    CHECK_THAT(load_error({text.begin(), text.end()}), Catch::Contains("not an ELF"));
  }
  SECTION("truncated inside the ELF header") {
    b.resize(40);
    CHECK_THAT(load_error(b), Catch::Contains("shorter than the ELF header"));
  }
  SECTION("truncated before the section table") {
    b.resize(peek<uint64_t>(good, 40) + 10);
    CHECK_THAT(load_error(b), Catch::Contains("section header table"));
  }
  SECTION("32-bit class") {
    b[4] = 1;
    CHECK_THAT(load_error(b), Catch::Contains("not ELF64"));
  }
  SECTION("big-endian") {
    b[5] = 2;
    CHECK_THAT(load_error(b), Catch::Contains("not little-endian"));
  }
  SECTION("wrong OS/ABI") {
    b[7] = 0;
    CHECK_THAT(load_error(b), Catch::Contains("AMDGPU_HSA"));
  }
  SECTION("wrong machine (x86-64)") {
    poke<uint16_t>(b, 18, 62);
    CHECK_THAT(load_error(b), Catch::Contains("not EM_AMDGPU"));
  }
  SECTION("another GPU (gfx90a)") {
    poke<uint32_t>(b, 48, (peek<uint32_t>(good, 48) & ~0xffu) | 0x3f);
    CHECK_THAT(load_error(b), Catch::Contains("not gfx942 (0x4c) or gfx950 (0x4f)"));
  }
  SECTION("relocatable object") {
    poke<uint16_t>(b, 16, 1);
    CHECK_THAT(load_error(b), Catch::Contains("ET_REL"));
  }
  SECTION("section header table past the end") {
    poke<uint64_t>(b, 40, good.size() - 64);
    CHECK_THAT(load_error(b), Catch::Contains("section header table"));
  }
  SECTION("section name table index out of range") {
    poke<uint16_t>(b, 62, 200);
    CHECK_THAT(load_error(b), Catch::Contains("section name table index"));
  }
  SECTION(".text offset past the end of the file") {
    poke<uint64_t>(b, find_section(ss, ".text").header + 24, good.size() + 16);
    CHECK_THAT(load_error(b), Catch::Contains("past the end of the file"));
  }
  SECTION("huge section size (offset + size wraps)") {
    poke<uint64_t>(b, find_section(ss, ".rodata").header + 32, ~0ull - 8);
    CHECK_THAT(load_error(b), Catch::Contains("past the end of the file"));
  }
  SECTION("string table without its terminating NUL") {
    const auto& s = find_section(ss, ".strtab");
    b[s.offset + s.size - 1] = 'x';
    CHECK_THAT(load_error(b), Catch::Contains("not NUL-terminated"));
  }
  SECTION("symbol name offset outside the string table") {
    const auto& sym = find_section(ss, ".symtab");
    poke<uint32_t>(b, sym.offset + 24, 0x7fffffff);  // symbol #1's st_name
    CHECK_THAT(load_error(b), Catch::Contains("outside the table"));
  }
  SECTION("symbol value outside its section") {
    const auto& sym = find_section(ss, ".symtab");
    // Find the descriptor symbol of args_mix by its value and move it far away.
    bool moved = false;
    for (uint64_t p = sym.offset; p < sym.offset + sym.size; p += 24)
      if (peek<uint64_t>(b, p + 8) == o.symbols.at("args_mix.kd") && peek<uint16_t>(b, p + 6) != 0xfff1) {
        poke<uint64_t>(b, p + 8, 0x100000);
        moved = true;
      }
    REQUIRE(moved);
    CHECK_THAT(load_error(b), Catch::Contains("lies outside its section"));
  }
  SECTION("no metadata note") {
    poke<uint32_t>(b, find_section(ss, ".note").header + 4, 1);  // SHT_NOTE -> PROGBITS
    CHECK_THAT(load_error(b), Catch::Contains("no NT_AMDGPU_METADATA"));
  }
  SECTION("note sizes running past the section") {
    const auto& note = find_section(ss, ".note");
    poke<uint32_t>(b, note.offset + 4, 0x10000000);  // descsz of the first note
    CHECK_THAT(load_error(b), Catch::Contains("runs past its section"));
  }
  SECTION("bad msgpack in the metadata") {
    const auto& note = find_section(ss, ".note");
    // The first note is "AMDGPU" NT_AMDGPU_METADATA: header 12 bytes + name 8 bytes.
    REQUIRE(peek<uint32_t>(b, note.offset + 8) == 32);
    b[note.offset + 20] = 0xc1;  // the never-used type byte
    CHECK_THAT(load_error(b), Catch::Contains("msgpack") && Catch::Contains("0xc1"));
  }
  SECTION("msgpack with a lying container count") {
    const auto& note = find_section(ss, ".note");
    b[note.offset + 20] = 0xdf;  // map32 with a count from the following bytes
    CHECK_THAT(load_error(b), Catch::Contains("msgpack"));
  }
  SECTION("descriptor with reserved bytes set") {
    b[descriptor_offset(o, "args_mix") + 30] = 1;
    CHECK_THAT(load_error(b), Catch::Contains("reserved descriptor bytes"));
  }
  SECTION("descriptor entry offset not 256-byte aligned") {
    const size_t kd = descriptor_offset(o, "args_mix");
    poke<int64_t>(b, kd + 16, peek<int64_t>(good, kd + 16) + 4);
    CHECK_THAT(load_error(b), Catch::Contains("not 256-byte aligned"));
  }
  SECTION("descriptor entry outside the code") {
    const size_t kd = descriptor_offset(o, "args_mix");
    poke<int64_t>(b, kd + 16, peek<int64_t>(good, kd + 16) + 0x100000);  // aligned, past .text
    CHECK_THAT(load_error(b), Catch::Contains("not inside an executable section"));
  }
  SECTION("wave32 descriptor") {
    const size_t kd = descriptor_offset(o, "args_mix");
    poke<uint16_t>(b, kd + 56, peek<uint16_t>(good, kd + 56) | (1u << 10));
    CHECK_THAT(load_error(b), Catch::Contains("wave32"));
  }
  SECTION("kernarg preloading without user SGPRs for the preloaded dwords") {
    poke<uint16_t>(b, descriptor_offset(o, "args_mix") + 58, 2);
    CHECK_THAT(load_error(b), Catch::Contains("2 preloaded kernarg dwords"));
  }
  SECTION("too few user SGPRs for the enabled ones") {
    const size_t kd = descriptor_offset(o, "packet_ptrs");
    poke<uint32_t>(b, kd + 52, peek<uint32_t>(good, kd + 52) & ~(0x1fu << 1));
    CHECK_THAT(load_error(b), Catch::Contains("user_sgpr_count 0"));
  }
  SECTION("descriptor and metadata disagree on the kernarg size") {
    const size_t kd = descriptor_offset(o, "args_mix");
    poke<uint32_t>(b, kd + 8, peek<uint32_t>(good, kd + 8) + 8);
    CHECK_THAT(load_error(b), Catch::Contains("kernarg_size"));
  }
}

TEST_CASE("read_file_bytes reports missing files and directories", "[loader]") {
  CHECK_THROWS_WITH(sim::read_file_bytes(kDir + "/does-not-exist.co"),
                    Catch::Contains("cannot read") && Catch::Contains("No such file"));
  CHECK_THROWS_WITH(sim::read_file_bytes(kDir), Catch::Contains("directory"));
  CHECK_THROWS_WITH(sim::read_file_bytes("/dev/zero"), Catch::Contains("not a regular file"));
}

// ---- msgpack, against byte strings written from the MessagePack specification.
namespace {
sim::msgpack::value mp(std::initializer_list<int> bytes) {
  std::vector<uint8_t> b;
  for (int x : bytes) b.push_back(uint8_t(x));
  return sim::msgpack::parse(b);
}
}  // namespace

TEST_CASE("msgpack reader decodes every format family", "[loader][msgpack]") {
  using kind = sim::msgpack::value::kind;
  CHECK(mp({0x7f}).u == 127);
  CHECK(mp({0xe0}).i == -32);
  CHECK(mp({0xcc, 0xff}).u == 255);
  CHECK(mp({0xcd, 0x12, 0x34}).u == 0x1234);
  CHECK(mp({0xce, 0x12, 0x34, 0x56, 0x78}).u == 0x12345678);
  CHECK(mp({0xcf, 0x80, 0, 0, 0, 0, 0, 0, 1}).u == 0x8000000000000001ull);
  CHECK(mp({0xd0, 0x80}).i == -128);
  CHECK(mp({0xd1, 0xff, 0xfe}).i == -2);
  CHECK(mp({0xd2, 0xff, 0xff, 0xff, 0xff}).i == -1);
  CHECK(mp({0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0}).i == INT64_MIN);
  CHECK(mp({0xd0, 0x05}).u == 5);  // a non-negative int8 reads as unsigned
  CHECK(mp({0xc0}).k == kind::nil);
  CHECK(mp({0xc3}).b);
  CHECK_FALSE(mp({0xc2}).b);
  CHECK(mp({0xca, 0x3f, 0xc0, 0, 0}).f == 1.5);
  CHECK(mp({0xcb, 0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18}).f == 3.141592653589793);
  CHECK(mp({0xa3, 'a', 'b', 'c'}).s == "abc");
  CHECK(mp({0xd9, 2, 'h', 'i'}).s == "hi");
  CHECK(mp({0xda, 0, 1, 'x'}).s == "x");
  CHECK(mp({0xc4, 2, 1, 2}).k == kind::bin);
  CHECK(mp({0xd4, 1, 9}).k == kind::ext);
  const auto arr = mp({0x93, 1, 0xa1, 'z', 0x90});
  REQUIRE(arr.is_array());
  REQUIRE(arr.items.size() == 3);
  CHECK(arr.items[1].s == "z");
  CHECK(mp({0xdc, 0, 2, 1, 2}).items.size() == 2);
  const auto map = mp({0x82, 0xa1, 'a', 1, 0xa1, 'b', 0x91, 2});
  REQUIRE(map.is_map());
  REQUIRE(map.find("a") != nullptr);
  CHECK(map.find("a")->u == 1);
  CHECK(map.find("b")->items.at(0).u == 2);
  CHECK(map.find("c") == nullptr);
  CHECK(mp({0xde, 0, 1, 0xa1, 'k', 0xc0}).find("k") != nullptr);
}

TEST_CASE("msgpack reader rejects malformed input without crashing", "[loader][msgpack][robustness]") {
  using Catch::Contains;
  CHECK_THROWS_WITH(mp({}), Contains("needs 1 bytes"));
  CHECK_THROWS_WITH(mp({0xc1}), Contains("0xc1"));
  CHECK_THROWS_WITH(mp({0xcd, 0x12}), Contains("needs 2 bytes"));
  CHECK_THROWS_WITH(mp({0xa5, 'a'}), Contains("needs 5 bytes"));
  CHECK_THROWS_WITH(mp({0xdb, 0xff, 0xff, 0xff, 0xff}), Contains("needs 4294967295 bytes"));
  CHECK_THROWS_WITH(mp({0xdd, 0xff, 0xff, 0xff, 0xff}), Contains("needs"));  // array count lie
  CHECK_THROWS_WITH(mp({0xdf, 0xff, 0xff, 0xff, 0xff}), Contains("needs"));  // map count lie
  CHECK_THROWS_WITH(mp({0x81, 0xa1, 'k'}), Contains("needs 1 bytes"));       // map without value
  CHECK_THROWS_WITH(mp({0x01, 0x02}), Contains("trailing bytes"));
  std::vector<uint8_t> deep(100000, 0x91);  // [[[[...]]]]: bounded, no stack overflow
  deep.push_back(0);
  CHECK_THROWS_WITH(sim::msgpack::parse(deep), Contains("nesting deeper"));
}

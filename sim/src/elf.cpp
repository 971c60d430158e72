#include "elf.hpp"

#include <cerrno>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <algorithm>
#include <limits>
#include <set>

#include "error.hpp"
#include "msgpack.hpp"

namespace hipasm::sim {
namespace detail {
namespace {  // internal linkage: other simulator files have their own detail helpers

// ELF constants (System V gABI and LLVM's AMDGPU ELF definitions).
constexpr uint8_t kElfClass64 = 2, kElfData2Lsb = 1, kOsAbiAmdgpuHsa = 64;
constexpr uint16_t kEtDyn = 3, kEtRel = 1, kEmAmdgpu = 224;
constexpr uint32_t kEfAmdgpuMachMask = 0xff;
constexpr uint32_t kShtNull = 0, kShtSymtab = 2, kShtStrtab = 3, kShtRela = 4, kShtNote = 7,
                   kShtNobits = 8, kShtDynsym = 11;
constexpr uint32_t kPtLoad = 1;
constexpr uint32_t kRAmdgpuNone = 0, kRAmdgpuRelative64 = 13;
constexpr size_t kRelaSize = 24;
// A bound on the loaded image so a corrupted p_memsz cannot make a device allocate gigabytes.
constexpr uint64_t kMaxImageSize = uint64_t{64} << 20;
constexpr uint64_t kShfAlloc = 0x2, kShfExecinstr = 0x4;
constexpr uint16_t kShnUndef = 0, kShnLoreserve = 0xff00, kShnXindex = 0xffff;
constexpr uint32_t kNtAmdgpuMetadata = 32;
constexpr size_t kEhdrSize = 64, kShdrSize = 64, kPhdrSize = 56, kSymSize = 24;
constexpr size_t kDescriptorSize = 64;
// The hardware takes the kernel's code address in 256-byte units (COMPUTE_PGM_LO/HI).
constexpr uint64_t kEntryAlign = 256;
// Kernarg preloading: CP firmware that preloads starts this far past the descriptor's entry.
constexpr uint64_t kPreloadSkip = 256;

[[noreturn]] void fail(const std::string& what) { throw sim::error("bad code object: " + what); }

// Little-endian field reads from a bounds-checked byte span.
class bytes_view {
 public:
  explicit bytes_view(std::span<const uint8_t> b) : b_(b) {}
  size_t size() const { return b_.size(); }
  bool contains(uint64_t off, uint64_t len) const {
    return off <= b_.size() && len <= b_.size() - off;
  }
  template <class T>
  T get(uint64_t off) const {
    if (!contains(off, sizeof(T))) fail("read of " + std::to_string(sizeof(T)) + " bytes at " +
                                        hex(off) + " is past the end of the file");
    T v;
    std::memcpy(&v, b_.data() + off, sizeof(T));  // hosts are little-endian (x86-64, arm64)
    return v;
  }
  std::span<const uint8_t> sub(uint64_t off, uint64_t len) const {
    if (!contains(off, len)) fail("range " + hex(off) + "+" + hex(len) + " is past the end of the file");
    return b_.subspan(off, len);
  }

 private:
  std::span<const uint8_t> b_;
};

struct section {
  uint32_t name_off, type;
  uint64_t flags, addr, offset, size;
  uint32_t link, info;
  uint64_t align, entsize;
  std::string name;
  bool has_bytes() const { return type != kShtNobits && type != kShtNull; }
};

struct symbol {
  std::string name;
  uint8_t info;
  uint16_t shndx;
  uint64_t value, size;
};

// A string table whose last byte is NUL; lookups are checked.
struct strtab {
  std::span<const uint8_t> bytes;
  std::string what;
  std::string at(uint64_t off) const {
    if (off >= bytes.size())
      fail(what + ": string offset " + hex(off) + " is outside the table (" + std::to_string(bytes.size()) + " bytes)");
    const auto* p = reinterpret_cast<const char*>(bytes.data() + off);
    return std::string(p, strnlen(p, bytes.size() - off));
  }
};

strtab make_strtab(const bytes_view& file, const section& s, const std::string& what) {
  if (s.type != kShtStrtab) fail(what + " is not a string table (type " + std::to_string(s.type) + ")");
  auto b = file.sub(s.offset, s.size);
  if (!b.empty() && b.back() != 0) fail(what + " is not NUL-terminated");
  return {b, what};
}

class elf_reader {
 public:
  explicit elf_reader(std::span<const uint8_t> bytes) : file_(bytes) {}

  void read_headers() {
    if (file_.size() < 4 || std::memcmp(file_.sub(0, 4).data(), "\x7f" "ELF", 4) != 0)
      fail("not an ELF file (no \\x7fELF magic)");
    if (file_.size() < kEhdrSize)
      fail("file is " + std::to_string(file_.size()) + " bytes, shorter than the ELF header");
    const uint8_t cls = file_.get<uint8_t>(4), data = file_.get<uint8_t>(5), ver = file_.get<uint8_t>(6);
    if (cls != kElfClass64) fail("not ELF64 (EI_CLASS " + std::to_string(cls) + ")");
    if (data != kElfData2Lsb) fail("not little-endian (EI_DATA " + std::to_string(data) + ")");
    if (ver != 1) fail("unknown ELF version " + std::to_string(ver));
    const uint8_t osabi = file_.get<uint8_t>(7);
    if (osabi != kOsAbiAmdgpuHsa)
      fail("OS/ABI is " + std::to_string(osabi) + ", not AMDGPU_HSA (64)");
    abi_version_ = file_.get<uint8_t>(8);
    if (abi_version_ < 2 || abi_version_ > 4)
      fail("unsupported AMDHSA ABI version " + std::to_string(abi_version_) +
           " (code object v4..v6 = 2..4)");
    const uint16_t type = file_.get<uint16_t>(16), machine = file_.get<uint16_t>(18);
    if (machine != kEmAmdgpu) fail("machine is " + std::to_string(machine) + ", not EM_AMDGPU (224)");
    if (type == kEtRel) fail("a relocatable object (ET_REL), not a linked code object: link it (clang -c does)");
    if (type != kEtDyn) fail("ELF type " + std::to_string(type) + " is not ET_DYN (a code object)");
    if (file_.get<uint32_t>(20) != 1) fail("e_version is not 1");
    e_flags_ = file_.get<uint32_t>(48);
    const uint32_t mach = e_flags_ & kEfAmdgpuMachMask;
    target_ = find_target_by_mach(mach);
    if (!target_) {
      std::string known;
      for (const Target* t : all_targets())
        known += (known.empty() ? "" : " or ") + std::string(t->name) + " (" + hex(t->elf_mach) + ")";
      fail("built for AMDGPU mach " + hex(mach) + ", not " + known);
    }
    const uint16_t ehsize = file_.get<uint16_t>(52);
    if (ehsize < kEhdrSize) fail("e_ehsize " + std::to_string(ehsize) + " < 64");

    const uint64_t phoff = file_.get<uint64_t>(32), shoff = file_.get<uint64_t>(40);
    const uint16_t phentsize = file_.get<uint16_t>(54), phnum = file_.get<uint16_t>(56);
    const uint16_t shentsize = file_.get<uint16_t>(58), shnum = file_.get<uint16_t>(60);
    const uint16_t shstrndx = file_.get<uint16_t>(62);

    if (phnum > 0) {
      if (phentsize != kPhdrSize) fail("program header size " + std::to_string(phentsize) + " != 56");
      if (!file_.contains(phoff, uint64_t{phnum} * kPhdrSize))
        fail("program header table (" + hex(phoff) + ", " + std::to_string(phnum) + " entries) is past the end of the file");
      for (uint16_t i = 0; i < phnum; ++i) {
        const uint64_t p = phoff + uint64_t{i} * kPhdrSize;
        const uint64_t off = file_.get<uint64_t>(p + 8), filesz = file_.get<uint64_t>(p + 32),
                       memsz = file_.get<uint64_t>(p + 40);
        if (filesz > 0 && !file_.contains(off, filesz))
          fail("segment " + std::to_string(i) + " (" + hex(off) + "+" + hex(filesz) + ") is past the end of the file");
        if (memsz < filesz) fail("segment " + std::to_string(i) + " has memsz < filesz");
        if (file_.get<uint32_t>(p) != kPtLoad) continue;
        const uint64_t vaddr = file_.get<uint64_t>(p + 16);
        if (vaddr > kMaxImageSize || memsz > kMaxImageSize - vaddr)
          fail("segment " + std::to_string(i) + " (" + hex(vaddr) + "+" + hex(memsz) +
               ") exceeds the 64 MiB limit of a loaded code object");
        CodeObject::segment seg;
        seg.vaddr = vaddr;
        seg.memsz = memsz;
        const auto b = file_.sub(off, filesz);
        seg.bytes.assign(b.begin(), b.end());
        image_size_ = std::max(image_size_, vaddr + memsz);
        segments_.push_back(std::move(seg));
      }
    }

    if (shnum == 0) fail(shoff ? "extended section numbering is not supported" : "no section header table");
    if (shentsize != kShdrSize) fail("section header size " + std::to_string(shentsize) + " != 64");
    if (!file_.contains(shoff, uint64_t{shnum} * kShdrSize))
      fail("section header table (" + hex(shoff) + ", " + std::to_string(shnum) + " entries) is past the end of the file");
    if (shstrndx == kShnUndef || shstrndx == kShnXindex || shstrndx >= shnum)
      fail("section name table index " + std::to_string(shstrndx) + " is invalid");

    sections_.resize(shnum);
    for (uint16_t i = 0; i < shnum; ++i) {
      const uint64_t p = shoff + uint64_t{i} * kShdrSize;
      section& s = sections_[i];
      s.name_off = file_.get<uint32_t>(p);
      s.type = file_.get<uint32_t>(p + 4);
      s.flags = file_.get<uint64_t>(p + 8);
      s.addr = file_.get<uint64_t>(p + 16);
      s.offset = file_.get<uint64_t>(p + 24);
      s.size = file_.get<uint64_t>(p + 32);
      s.link = file_.get<uint32_t>(p + 40);
      s.info = file_.get<uint32_t>(p + 44);
      s.align = file_.get<uint64_t>(p + 48);
      s.entsize = file_.get<uint64_t>(p + 56);
      if (s.has_bytes() && !file_.contains(s.offset, s.size))
        fail("section " + std::to_string(i) + " (" + hex(s.offset) + "+" + hex(s.size) + ") is past the end of the file");
      if (s.addr > std::numeric_limits<uint64_t>::max() - s.size)
        fail("section " + std::to_string(i) + " address range wraps around");
    }
    const strtab names = make_strtab(file_, sections_[shstrndx], "section name table");
    for (uint16_t i = 0; i < shnum; ++i) sections_[i].name = names.at(sections_[i].name_off);
  }

  // The symbols of .symtab, else .dynsym (a stripped object keeps only .dynsym).
  void read_symbols() {
    const section* table = nullptr;
    for (const auto& s : sections_) if (s.type == kShtSymtab) { table = &s; break; }
    if (!table)
      for (const auto& s : sections_) if (s.type == kShtDynsym) { table = &s; break; }
    if (!table) fail("no symbol table (.symtab or .dynsym)");
    if (table->entsize != kSymSize) fail(table->name + " entry size " + std::to_string(table->entsize) + " != 24");
    if (table->size % kSymSize) fail(table->name + " size is not a multiple of 24");
    if (table->link == 0 || table->link >= sections_.size())
      fail(table->name + " links to invalid string table " + std::to_string(table->link));
    const strtab str = make_strtab(file_, sections_[table->link], table->name + "'s string table");
    const uint64_t n = table->size / kSymSize;
    symbols_.reserve(n);
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t p = table->offset + i * kSymSize;
      symbol s;
      s.name = str.at(file_.get<uint32_t>(p));
      s.info = file_.get<uint8_t>(p + 4);
      s.shndx = file_.get<uint16_t>(p + 6);
      s.value = file_.get<uint64_t>(p + 8);
      s.size = file_.get<uint64_t>(p + 16);
      if (s.shndx != kShnUndef && s.shndx < kShnLoreserve) {
        if (s.shndx >= sections_.size())
          fail("symbol '" + printable(s.name) + "' is in section " + std::to_string(s.shndx) + ", which does not exist");
        const section& sec = sections_[s.shndx];
        if (s.value < sec.addr || s.value - sec.addr > sec.size || s.size > sec.size - (s.value - sec.addr))
          fail("symbol '" + printable(s.name) + "' (" + hex(s.value) + "+" + hex(s.size) +
               ") lies outside its section " + printable(sec.name));
      }
      symbols_.push_back(std::move(s));
    }
  }

  // The NT_AMDGPU_METADATA note's msgpack payload.
  std::span<const uint8_t> metadata_note() const {
    std::span<const uint8_t> found;
    for (const auto& s : sections_) {
      if (s.type != kShtNote) continue;
      uint64_t pos = 0;
      const auto notes = file_.sub(s.offset, s.size);
      const bytes_view nv(notes);
      while (pos < notes.size()) {
        if (!nv.contains(pos, 12)) fail("truncated note header in " + s.name);
        const uint32_t namesz = nv.get<uint32_t>(pos), descsz = nv.get<uint32_t>(pos + 4),
                       type = nv.get<uint32_t>(pos + 8);
        const uint64_t name_at = pos + 12;
        const uint64_t desc_at = name_at + ((uint64_t{namesz} + 3) & ~uint64_t{3});
        const uint64_t next = desc_at + ((uint64_t{descsz} + 3) & ~uint64_t{3});
        if (!nv.contains(name_at, namesz) || !nv.contains(desc_at, descsz))
          fail("note in " + s.name + " at " + hex(s.offset + pos) + " runs past its section");
        const auto name = nv.sub(name_at, namesz);
        const bool amdgpu = namesz == 7 && std::memcmp(name.data(), "AMDGPU", 7) == 0;
        if (amdgpu && type == kNtAmdgpuMetadata) {
          if (!found.empty()) fail("more than one NT_AMDGPU_METADATA note");
          found = nv.sub(desc_at, descsz);
        }
        pos = std::min<uint64_t>(next, notes.size());
      }
    }
    if (found.empty())
      fail("no NT_AMDGPU_METADATA note (not a code object v4+ with kernels)");
    return found;
  }

  const symbol* find_symbol(std::string_view name) const {
    for (const auto& s : symbols_)
      if (s.name == name && s.shndx != kShnUndef) return &s;
    return nullptr;
  }

  // Named function and label symbols inside [begin, end), sorted by address (what
  // llvm-objdump-22 names branch targets with: AMD's asm kernels keep label_XXXX symbols).
  std::vector<std::pair<uint64_t, std::string>> code_symbols(uint64_t begin, uint64_t end) const {
    constexpr uint8_t kSttNotype = 0, kSttFunc = 2;
    std::vector<std::pair<uint64_t, std::string>> out;
    for (const auto& s : symbols_) {
      const uint8_t type = s.info & 0xf;
      if ((type != kSttNotype && type != kSttFunc) || s.name.empty() || s.shndx == kShnUndef ||
          s.value < begin || s.value >= end)
        continue;
      out.emplace_back(s.value, s.name);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first == b.first; }),
              out.end());
    return out;
  }

  // The loaded section holding [vaddr, vaddr+len), with its file bytes.
  const section* section_at(uint64_t vaddr, uint64_t len) const {
    for (const auto& s : sections_) {
      if (!s.has_bytes() || !(s.flags & kShfAlloc)) continue;
      if (vaddr >= s.addr && vaddr - s.addr <= s.size && len <= s.size - (vaddr - s.addr)) return &s;
    }
    return nullptr;
  }

  std::span<const uint8_t> bytes_at(const section& s, uint64_t vaddr, uint64_t len) const {
    return file_.sub(s.offset + (vaddr - s.addr), len);
  }

  // Dynamic relocations (allocated SHT_RELA sections, i.e. .rela.dyn).
  std::vector<CodeObject::relocation> relocations() const {
    std::vector<CodeObject::relocation> out;
    for (const auto& s : sections_) {
      if (s.type != kShtRela || !(s.flags & kShfAlloc)) continue;
      if (s.entsize != kRelaSize || s.size % kRelaSize)
        fail(printable(s.name) + ": relocation entry size is not 24");
      for (uint64_t p = s.offset; p < s.offset + s.size; p += kRelaSize) {
        const uint64_t r_offset = file_.get<uint64_t>(p), r_info = file_.get<uint64_t>(p + 8);
        const int64_t addend = file_.get<int64_t>(p + 16);
        const uint32_t type = static_cast<uint32_t>(r_info);
        if (type == kRAmdgpuNone) continue;
        if (type != kRAmdgpuRelative64)
          fail(printable(s.name) + ": unsupported dynamic relocation type " + std::to_string(type) +
               " at " + hex(r_offset) + " (only R_AMDGPU_RELATIVE64)");
        if (r_offset > image_size_ || image_size_ - r_offset < 8)
          fail(printable(s.name) + ": relocation at " + hex(r_offset) + " is outside the loaded image");
        out.push_back({r_offset, addend});
      }
    }
    return out;
  }

  uint8_t abi_version_ = 0;
  uint32_t e_flags_ = 0;
  const Target* target_ = &target_gfx942();
  std::vector<CodeObject::segment> segments_;
  uint64_t image_size_ = 0;

 private:
  bytes_view file_;
  std::vector<section> sections_;
  std::vector<symbol> symbols_;
};

// ---- metadata helpers (msgpack value tree -> typed fields)
const msgpack::value& require(const msgpack::value& map, std::string_view key, const std::string& where) {
  const msgpack::value* v = map.find(key);
  if (!v) fail(where + ": metadata has no '" + std::string(key) + "'");
  return *v;
}
uint64_t as_u64(const msgpack::value& v, std::string_view key, const std::string& where) {
  uint64_t u;
  if (!v.get_u64(u)) fail(where + ": '" + std::string(key) + "' is " + v.brief() + ", not an unsigned integer");
  return u;
}
uint64_t opt_u64(const msgpack::value& map, std::string_view key, const std::string& where, uint64_t def = 0) {
  const msgpack::value* v = map.find(key);
  return v ? as_u64(*v, key, where) : def;
}
std::string as_str(const msgpack::value& v, std::string_view key, const std::string& where) {
  if (!v.is_str()) fail(where + ": '" + std::string(key) + "' is " + v.brief() + ", not a string");
  return v.s;
}
std::string opt_str(const msgpack::value& map, std::string_view key, const std::string& where) {
  const msgpack::value* v = map.find(key);
  return v ? as_str(*v, key, where) : std::string();
}
bool opt_bool(const msgpack::value& map, std::string_view key, const std::string& where) {
  const msgpack::value* v = map.find(key);
  if (!v) return false;
  if (v->k != msgpack::value::kind::boolean) fail(where + ": '" + std::string(key) + "' is " + v->brief() + ", not a boolean");
  return v->b;
}

// The size the launcher writes for each hidden argument it fills; a different size in the
// metadata would make it write the wrong bytes, so it is an error.
int hidden_arg_size(std::string_view kind) {
  static const std::pair<std::string_view, int> sizes[] = {
      {"hidden_block_count_x", 4}, {"hidden_block_count_y", 4}, {"hidden_block_count_z", 4},
      {"hidden_group_size_x", 2},  {"hidden_group_size_y", 2},  {"hidden_group_size_z", 2},
      {"hidden_remainder_x", 2},   {"hidden_remainder_y", 2},   {"hidden_remainder_z", 2},
      {"hidden_global_offset_x", 8}, {"hidden_global_offset_y", 8}, {"hidden_global_offset_z", 8},
      {"hidden_grid_dims", 2},     {"hidden_dynamic_lds_size", 4},
      {"hidden_private_base", 4},  {"hidden_shared_base", 4},
      {"hidden_printf_buffer", 8}, {"hidden_hostcall_buffer", 8}, {"hidden_multigrid_sync_arg", 8},
      {"hidden_heap_v1", 8},       {"hidden_default_queue", 8}, {"hidden_completion_action", 8},
      {"hidden_queue_ptr", 8},
  };
  for (const auto& [k, n] : sizes)
    if (k == kind) return n;
  return 0;  // hidden_none and kinds this launcher zero-fills
}

KernelArgInfo read_arg(const msgpack::value& a, const std::string& where) {
  if (!a.is_map()) fail(where + " is " + a.brief() + ", not a map");
  KernelArgInfo arg;
  arg.value_kind = as_str(require(a, ".value_kind", where), ".value_kind", where);
  const uint64_t off = as_u64(require(a, ".offset", where), ".offset", where);
  const uint64_t size = as_u64(require(a, ".size", where), ".size", where);
  if (off > std::numeric_limits<uint32_t>::max() || size > std::numeric_limits<uint32_t>::max())
    fail(where + ": offset/size out of range");
  arg.offset = static_cast<uint32_t>(off);
  arg.size = static_cast<uint32_t>(size);
  arg.name = opt_str(a, ".name", where);
  arg.type_name = opt_str(a, ".type_name", where);
  arg.address_space = opt_str(a, ".address_space", where);
  return arg;
}

void decode_descriptor(std::span<const uint8_t> raw, KernelDescriptor& kd, const std::string& where) {
  const bytes_view b(raw);
  kd.group_segment_fixed_size = b.get<uint32_t>(0);
  kd.private_segment_fixed_size = b.get<uint32_t>(4);
  kd.kernarg_size = b.get<uint32_t>(8);
  kd.kernel_code_entry_byte_offset = b.get<int64_t>(16);
  kd.compute_pgm_rsrc3 = b.get<uint32_t>(44);
  kd.compute_pgm_rsrc1 = b.get<uint32_t>(48);
  kd.compute_pgm_rsrc2 = b.get<uint32_t>(52);
  kd.kernel_code_properties = b.get<uint16_t>(56);
  kd.kernarg_preload = b.get<uint16_t>(58);
  auto zero = [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i)
      if (raw[i] != 0)
        fail(where + ": reserved descriptor bytes " + std::to_string(from) + ".." +
             std::to_string(to - 1) + " are not zero");
  };
  zero(12, 16);
  zero(24, 44);
  zero(60, 64);

  const auto bits = [](uint32_t v, int lo, int n) { return (v >> lo) & ((1u << n) - 1); };
  const uint32_t r1 = kd.compute_pgm_rsrc1, r2 = kd.compute_pgm_rsrc2, r3 = kd.compute_pgm_rsrc3;
  kd.granulated_workitem_vgpr_count = bits(r1, 0, 6);
  kd.granulated_wavefront_sgpr_count = bits(r1, 6, 4);
  kd.priority = bits(r1, 10, 2);
  kd.float_round_mode_32 = bits(r1, 12, 2);
  kd.float_round_mode_16_64 = bits(r1, 14, 2);
  kd.float_denorm_mode_32 = bits(r1, 16, 2);
  kd.float_denorm_mode_16_64 = bits(r1, 18, 2);
  kd.priv = bits(r1, 20, 1);
  kd.dx10_clamp = bits(r1, 21, 1);
  kd.debug_mode = bits(r1, 22, 1);
  kd.ieee_mode = bits(r1, 23, 1);
  kd.bulky = bits(r1, 24, 1);
  kd.cdbg_user = bits(r1, 25, 1);
  kd.fp16_overflow = bits(r1, 26, 1);

  kd.enable_private_segment = bits(r2, 0, 1);
  kd.user_sgpr_count = bits(r2, 1, 5);
  kd.enable_trap_handler = bits(r2, 6, 1);
  kd.workgroup_id_x = bits(r2, 7, 1);
  kd.workgroup_id_y = bits(r2, 8, 1);
  kd.workgroup_id_z = bits(r2, 9, 1);
  kd.workgroup_info = bits(r2, 10, 1);
  kd.vgpr_workitem_id = bits(r2, 11, 2);
  kd.exception_bits = (bits(r2, 13, 2) << 7) | bits(r2, 24, 7);

  kd.accum_offset = (bits(r3, 0, 6) + 1) * 4;
  kd.tg_split = bits(r3, 16, 1);

  const uint32_t p = kd.kernel_code_properties;
  kd.private_segment_buffer = bits(p, 0, 1);
  kd.dispatch_ptr = bits(p, 1, 1);
  kd.queue_ptr = bits(p, 2, 1);
  kd.kernarg_segment_ptr = bits(p, 3, 1);
  kd.dispatch_id = bits(p, 4, 1);
  kd.flat_scratch_init = bits(p, 5, 1);
  kd.private_segment_size = bits(p, 6, 1);
  kd.wavefront_size32 = bits(p, 10, 1);
  kd.uses_dynamic_stack = bits(p, 11, 1);
  kd.kernarg_preload_length = bits(kd.kernarg_preload, 0, 7);
  kd.kernarg_preload_offset = bits(kd.kernarg_preload, 7, 9);
}

void check_descriptor(const KernelDescriptor& kd, const std::string& where) {
  if (kd.wavefront_size32) fail(where + ": wave32 descriptor (gfx942 and gfx950 run wave64 only)");
  if (kd.vgpr_workitem_id > 2) fail(where + ": enable_vgpr_workitem_id 3 is reserved");
  const uint32_t enabled = kd.enabled_user_sgprs();
  // Preloaded kernarg dwords take the user SGPRs right after the enabled ones (AMDGPUUsage,
  // "Preloaded Kernel Arguments"), so user_sgpr_count covers both.
  const uint32_t needed = enabled + kd.kernarg_preload_length;
  if (kd.user_sgpr_count < needed)
    fail(where + ": user_sgpr_count " + std::to_string(kd.user_sgpr_count) +
         " is less than the " + std::to_string(needed) + " user SGPRs its properties enable" +
         (kd.kernarg_preload_length ? " (" + std::to_string(enabled) + " + " +
                                          std::to_string(kd.kernarg_preload_length) + " preloaded kernarg dwords)"
                                    : std::string()));
  if (kd.user_sgpr_count > 16)
    fail(where + ": user_sgpr_count " + std::to_string(kd.user_sgpr_count) + " exceeds gfx9's 16");
}

KernelInfo read_kernel(const msgpack::value& k, size_t index, const elf_reader& elf) {
  std::string where = "kernel #" + std::to_string(index);
  if (!k.is_map()) fail(where + " metadata is " + k.brief() + ", not a map");
  KernelInfo info;
  info.name = as_str(require(k, ".name", where), ".name", where);
  if (info.name.empty()) fail(where + ": empty .name");
  where = "kernel '" + printable(info.name) + "'";
  info.symbol = as_str(require(k, ".symbol", where), ".symbol", where);
  info.kernarg_segment_size = as_u64(require(k, ".kernarg_segment_size", where), ".kernarg_segment_size", where);
  info.kernarg_segment_align = opt_u64(k, ".kernarg_segment_align", where, 8);
  info.group_segment_fixed_size = opt_u64(k, ".group_segment_fixed_size", where);
  info.private_segment_fixed_size = opt_u64(k, ".private_segment_fixed_size", where);
  info.sgpr_count = opt_u64(k, ".sgpr_count", where);
  info.vgpr_count = opt_u64(k, ".vgpr_count", where);
  info.agpr_count = opt_u64(k, ".agpr_count", where);
  info.wavefront_size = opt_u64(k, ".wavefront_size", where, 64);
  info.max_flat_workgroup_size = opt_u64(k, ".max_flat_workgroup_size", where, 1024);
  info.sgpr_spill_count = opt_u64(k, ".sgpr_spill_count", where);
  info.vgpr_spill_count = opt_u64(k, ".vgpr_spill_count", where);
  info.uses_dynamic_stack = opt_bool(k, ".uses_dynamic_stack", where);
  if (info.wavefront_size != 64) fail(where + ": .wavefront_size " + std::to_string(info.wavefront_size) + " (" + elf.target_->name + " is wave64)");
  if (info.kernarg_segment_size > (1u << 20)) fail(where + ": .kernarg_segment_size " + std::to_string(info.kernarg_segment_size) + " is implausibly large");
  if (info.max_flat_workgroup_size == 0 || info.max_flat_workgroup_size > 1024)
    fail(where + ": .max_flat_workgroup_size " + std::to_string(info.max_flat_workgroup_size) + " is outside 1..1024");

  // AMD's hand-written metadata sometimes lists a last by-value field (a pad of the host's
  // argument struct) past .kernarg_segment_size (aiter gfx950 fmoe_bf16_blockscaleBf16_*_ps:
  // a field at 436 of a 436-byte segment); the host passes its whole struct, so the segment is
  // taken to reach the end of the arguments. Other arguments past it are a broken object.
  const uint64_t declared_kernarg_size = info.kernarg_segment_size;
  if (const msgpack::value* args = k.find(".args")) {
    if (!args->is_array()) fail(where + ": .args is " + args->brief() + ", not an array");
    for (size_t i = 0; i < args->items.size(); ++i) {
      KernelArgInfo a = read_arg(args->items[i], where + " argument #" + std::to_string(i));
      const std::string aw = where + " argument #" + std::to_string(i) + " (" + printable(a.value_kind) + ")";
      if (a.size == 0) fail(aw + " has size 0");
      if (uint64_t{a.offset} + a.size > declared_kernarg_size) {
        if (a.value_kind != "by_value" || a.offset > (1u << 20))
          fail(aw + " at offset " + std::to_string(a.offset) + " size " + std::to_string(a.size) +
               " lies outside the " + std::to_string(declared_kernarg_size) + "-byte kernarg segment");
        info.kernarg_segment_size = std::max<uint64_t>(info.kernarg_segment_size, uint64_t{a.offset} + a.size);
      }
      const int want = hidden_arg_size(a.value_kind);
      if (want && static_cast<int>(a.size) != want)
        fail(aw + " has size " + std::to_string(a.size) + ", expected " + std::to_string(want));
      for (const auto& prev : info.args)
        if (a.offset < prev.offset + prev.size && prev.offset < a.offset + a.size)
          fail(aw + " overlaps argument " + printable(prev.value_kind) + " at offset " + std::to_string(prev.offset));
      info.args.push_back(std::move(a));
    }
  }

  // The descriptor, at the `.kd` symbol.
  const symbol* kd_sym = elf.find_symbol(info.symbol);
  if (!kd_sym) fail(where + ": descriptor symbol '" + printable(info.symbol) + "' is not defined");
  const section* kd_sec = elf.section_at(kd_sym->value, kDescriptorSize);
  if (!kd_sec) fail(where + ": descriptor at " + hex(kd_sym->value) + " is not inside a section with 64 bytes of data");
  info.descriptor_vaddr = kd_sym->value;
  decode_descriptor(elf.bytes_at(*kd_sec, kd_sym->value, kDescriptorSize), info.kd, where);
  check_descriptor(info.kd, where);
  const KernelDescriptor& kd = info.kd;
  // The runtime sizes the kernarg segment from the metadata (ROCclr reads .kernarg_segment_size);
  // the descriptor's KERNARG_SIZE is a hint to CP, and 0 means "unspecified" (AMDGPUUsage), as
  // in AMD's hand-written production kernels. A nonzero value that disagrees is a broken object.
  if (kd.kernarg_size != 0 && kd.kernarg_size != declared_kernarg_size)
    fail(where + ": descriptor kernarg_size " + std::to_string(kd.kernarg_size) +
         " != metadata .kernarg_segment_size " + std::to_string(declared_kernarg_size));
  if (kd.kernarg_preload_length) {
    const uint64_t end = (uint64_t{kd.kernarg_preload_offset} + kd.kernarg_preload_length) * 4;
    if (end > (info.kernarg_segment_size + 3) / 4 * 4)
      fail(where + ": kernarg preload of " + std::to_string(kd.kernarg_preload_length) +
           " dwords at dword offset " + std::to_string(kd.kernarg_preload_offset) + " ends at byte " +
           std::to_string(end) + ", past the " + std::to_string(info.kernarg_segment_size) +
           "-byte kernarg segment");
  }
  if (kd.group_segment_fixed_size != info.group_segment_fixed_size)
    fail(where + ": descriptor group_segment_fixed_size " + std::to_string(kd.group_segment_fixed_size) +
         " != metadata " + std::to_string(info.group_segment_fixed_size));
  if (kd.group_segment_fixed_size > elf.target_->lds_bytes)
    fail(where + ": " + std::to_string(kd.group_segment_fixed_size) + " bytes of LDS exceed " +
         elf.target_->name + "'s " + std::to_string(elf.target_->lds_bytes / 1024) + " KiB");

  // The entry point: descriptor address + signed byte offset, inside executable code.
  const int64_t off = kd.kernel_code_entry_byte_offset;
  const uint64_t entry = kd_sym->value + static_cast<uint64_t>(off);
  if ((off >= 0 && entry < kd_sym->value) || (off < 0 && entry > kd_sym->value))
    fail(where + ": kernel_code_entry_byte_offset " + std::to_string(off) + " wraps around");
  if (entry % kEntryAlign)
    fail(where + ": entry " + hex(entry) + " is not 256-byte aligned");
  const section* code = elf.section_at(entry, 4);
  if (!code || !(code->flags & kShfExecinstr))
    fail(where + ": entry " + hex(entry) + " is not inside an executable section");
  // With kernarg preloading, CP firmware that preloads starts 256 bytes past the entry: the
  // first 256 bytes are a prologue for firmware that does not (clang: s_load the preloaded
  // arguments and branch; AMD's asm kernels: s_trap).
  const uint64_t start = kd.kernarg_preload_length ? entry + kPreloadSkip : entry;
  if (start != entry && (start < code->addr || start + 4 > code->addr + code->size))
    fail(where + ": kernarg preloading starts at entry + 256 (" + hex(start) +
         "), which is past the end of its code section");

  KernelImage& im = info.image;
  im.name = info.name;
  im.target = elf.target_;
  const auto text = elf.bytes_at(*code, code->addr, code->size);
  im.code.assign(text.begin(), text.end());
  im.code_vaddr = code->addr;
  im.code_symbols = elf.code_symbols(code->addr, code->addr + code->size);
  im.entry = start;
  im.listing_entry = entry;
  im.group_segment_fixed_size = kd.group_segment_fixed_size;
  im.private_segment_fixed_size = kd.private_segment_fixed_size;
  im.kernarg_size = uint32_t(info.kernarg_segment_size);
  im.kernarg_preload_length = kd.kernarg_preload_length;
  im.kernarg_preload_offset = kd.kernarg_preload_offset;
  im.next_free_vgpr = kd.allocated_vgprs();
  im.next_free_sgpr = kd.allocated_sgprs();
  im.accum_offset = kd.accum_offset;
  im.user_sgpr_count = kd.user_sgpr_count;
  im.sgpr_private_segment_buffer = kd.private_segment_buffer;
  im.sgpr_dispatch_ptr = kd.dispatch_ptr;
  im.sgpr_queue_ptr = kd.queue_ptr;
  im.sgpr_kernarg_segment_ptr = kd.kernarg_segment_ptr;
  im.sgpr_dispatch_id = kd.dispatch_id;
  im.sgpr_flat_scratch_init = kd.flat_scratch_init;
  im.sgpr_private_segment_size = kd.private_segment_size;
  im.sgpr_workgroup_id[0] = kd.workgroup_id_x;
  im.sgpr_workgroup_id[1] = kd.workgroup_id_y;
  im.sgpr_workgroup_id[2] = kd.workgroup_id_z;
  im.sgpr_workgroup_info = kd.workgroup_info;
  im.sgpr_private_segment_wavefront_offset = kd.enable_private_segment;
  im.vgpr_workitem_id = kd.vgpr_workitem_id;
  im.float_round_mode_32 = kd.float_round_mode_32;
  im.float_round_mode_16_64 = kd.float_round_mode_16_64;
  im.float_denorm_mode_32 = kd.float_denorm_mode_32;
  im.float_denorm_mode_16_64 = kd.float_denorm_mode_16_64;
  im.ieee_mode = kd.ieee_mode;
  im.dx10_clamp = kd.dx10_clamp;
  return info;
}

}  // namespace
}  // namespace detail

std::string printable(std::string_view name) {
  std::string s(name.substr(0, 200));
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  if (name.size() > 200) s += "...";
  return s;
}

std::string target_id_from_e_flags(uint32_t e_flags) {
  // EF_AMDGPU_FEATURE_XNACK_V4 (bits 8-9) and EF_AMDGPU_FEATURE_SRAMECC_V4 (bits 10-11):
  // 0 unsupported, 1 any, 2 off, 3 on. Only off/on appear in the target ID, sorted by name.
  const auto feature = [](uint32_t state, const char* name) -> std::string {
    if (state == 2) return std::string(":") + name + "-";
    if (state == 3) return std::string(":") + name + "+";
    return {};
  };
  const Target* t = find_target_by_mach(e_flags & detail::kEfAmdgpuMachMask);
  return std::string("amdgcn-amd-amdhsa--") + (t ? t->name : "gfx942") + feature((e_flags >> 10) & 3, "sramecc") +
         feature((e_flags >> 8) & 3, "xnack");
}

size_t KernelInfo::explicit_arg_count() const {
  size_t n = 0;
  for (const auto& a : args) n += !a.hidden();
  return n;
}

const KernelInfo* CodeObject::find(std::string_view name) const {
  for (const auto& k : kernels)
    if (k.name == name) return &k;
  return nullptr;
}

const KernelInfo& CodeObject::kernel(std::string_view name) const {
  if (const KernelInfo* k = find(name)) return *k;
  std::string have;
  for (const auto& k : kernels) have += (have.empty() ? "" : ", ") + printable(k.name);
  throw sim::error("no kernel '" + printable(name) + "' in the code object (it has: " + have + ")");
}

CodeObject load_code_object(std::span<const uint8_t> bytes) {
  using namespace detail;
  elf_reader elf(bytes);
  elf.read_headers();
  elf.read_symbols();
  const msgpack::value md = msgpack::parse(elf.metadata_note());
  if (!md.is_map()) fail("metadata is " + md.brief() + ", not a map");

  CodeObject co;
  co.segments = std::move(elf.segments_);
  co.image_size = elf.image_size_;
  co.relocations = elf.relocations();
  co.abi_version = elf.abi_version_;
  co.e_flags = elf.e_flags_;
  co.target = opt_str(md, "amdhsa.target", "metadata");
  if (const msgpack::value* v = md.find("amdhsa.version")) {
    if (!v->is_array()) fail("metadata: amdhsa.version is not an array");
    for (const auto& item : v->items) co.metadata_version.push_back(as_u64(item, "amdhsa.version", "metadata"));
  }
  co.arch = elf.target_;
  if (!co.target.empty() && find_target_by_name(co.target) != co.arch)
    fail("metadata target '" + printable(co.target) + "' is not " + co.arch->name + ", which e_flags name");
  if (co.target.empty()) {  // optional in the metadata; the loader (ROCr) reads the ISA from e_flags
    co.target = target_id_from_e_flags(co.e_flags);
    co.target_from_e_flags = true;
  }
  const msgpack::value& kernels = require(md, "amdhsa.kernels", "code object");
  if (!kernels.is_array()) fail("metadata: amdhsa.kernels is " + kernels.brief() + ", not an array");
  std::set<std::string> names;
  for (size_t i = 0; i < kernels.items.size(); ++i) {
    KernelInfo k = read_kernel(kernels.items[i], i, elf);
    if (!names.insert(k.name).second) fail("two kernels named '" + printable(k.name) + "'");
    co.kernels.push_back(std::move(k));
  }
  if (co.kernels.empty()) fail("no kernels in amdhsa.kernels");
  return co;
}

std::vector<uint8_t> CodeObject::image_at(uint64_t base) const {
  std::vector<uint8_t> image(image_size, 0);
  for (const auto& seg : segments)
    if (!seg.bytes.empty()) std::memcpy(image.data() + seg.vaddr, seg.bytes.data(), seg.bytes.size());
  for (const auto& r : relocations) {
    const uint64_t v = base + static_cast<uint64_t>(r.addend);
    std::memcpy(image.data() + r.offset, &v, 8);
  }
  return image;
}

std::vector<uint8_t> read_file_bytes(const std::string& path) {
  // Regular files only: a device such as /dev/zero would never end.
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(st))
    throw sim::error("cannot read " + printable(path) + ": it is a directory");
  if (std::filesystem::exists(st) && !std::filesystem::is_regular_file(st))
    throw sim::error("cannot read " + printable(path) + ": not a regular file");
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw sim::error("cannot read " + printable(path) + ": " + std::strerror(errno));
  std::vector<uint8_t> bytes;
  uint8_t chunk[65536];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof chunk, f)) > 0) bytes.insert(bytes.end(), chunk, chunk + n);
  const bool failed = std::ferror(f);
  std::fclose(f);
  if (failed) throw sim::error("cannot read " + printable(path) + ": read error");
  return bytes;
}

}  // namespace hipasm::sim

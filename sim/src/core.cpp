// Handler registry, operand slow paths and error formatting shared by all of the simulator.
#include "core.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <string>

namespace hipasm::sim {

namespace detail {
struct RegistryData {
  std::mutex mu;
  std::map<std::string, Handler, std::less<>> handlers;
};
RegistryData& registry_data() {
  static RegistryData d;  // function-local: safe from static-initialisation order
  return d;
}
}  // namespace detail

Registry& Registry::get() {
  static Registry r;
  return r;
}

void Registry::add(std::string_view mnemonic, Handler h) {
  auto& d = detail::registry_data();
  std::lock_guard lock(d.mu);
  auto [it, inserted] = d.handlers.emplace(std::string(mnemonic), h);
  if (!inserted && it->second != h) {
    // Two files claim one mnemonic: a build error in spirit; report it loudly at start-up.
    std::fprintf(stderr, "hipasm-sim: duplicate handler for %.*s\n", int(mnemonic.size()),
                 mnemonic.data());
    std::abort();
  }
}

Handler Registry::find(std::string_view mnemonic) const {
  auto& d = detail::registry_data();
  std::lock_guard lock(d.mu);
  auto it = d.handlers.find(mnemonic);
  return it == d.handlers.end() ? nullptr : it->second;
}

std::vector<std::string> Registry::mnemonics() const {
  auto& d = detail::registry_data();
  std::lock_guard lock(d.mu);
  std::vector<std::string> out;
  for (auto& [k, v] : d.handlers) out.push_back(k);
  return out;
}

Registrar::Registrar(std::initializer_list<std::pair<std::string_view, Handler>> list) {
  for (auto& [name, h] : list) Registry::get().add(name, h);
}

const char* format_name(Format f) {
  static const char* const names[] = {"SOP1", "SOP2", "SOPK",  "SOPC",   "SOPP",    "SMEM",
                                      "VOP1", "VOP2", "VOPC",  "VOP3",   "VOP3P",   "MFMA",
                                      "DS",   "FLAT", "GLOBAL", "SCRATCH", "MUBUF"};
  auto i = size_t(f);
  return i < std::size(names) ? names[i] : "?";
}

void fail(const Inst& in, std::string_view why) {
  char addr[32];
  std::snprintf(addr, sizeof addr, "0x%llx: ", static_cast<unsigned long long>(in.pc));
  std::string msg = addr;
  msg += in.text.empty() ? in.mnemonic : in.text;
  msg += ": ";
  msg += why;
  throw inst_error(msg, in.pc);
}

uint32_t read_special(const Wave& w, const Operand& op, int dword) {
  if (op.kind != Operand::Special) {
    if (w.cur) fail(*w.cur, "operand kind cannot be read as a scalar");
    throw sim::error("simulator: operand kind cannot be read as a scalar");
  }
  unsigned r = op.reg + dword;
  if (op.reg == 125) return 0;                 // null
  if (r >= 102 && r <= 123) return w.sgpr[r];  // flat_scratch, xnack_mask, ttmp
  // Apertures: a 64-bit read gives the 64-bit base (limit) address; a 32-bit read gives its
  // high dword (the gfx9 definition, and what older compilers use).
  auto aperture = [&](uint32_t hi, uint32_t lo) { return op.dwords >= 2 ? (dword ? hi : lo) : hi; };
  switch (op.reg) {
    case 235: return aperture(kSharedApertureHi, 0);              // src_shared_base
    case 236: return aperture(kSharedApertureHi, 0xffffffffu);    // src_shared_limit
    case 237: return aperture(kPrivateApertureHi, 0);             // src_private_base
    case 238: return aperture(kPrivateApertureHi, 0xffffffffu);   // src_private_limit
    case 239: return 0;                                           // src_pops_exiting_wave_id
    case 251: return w.vcc == 0 ? 1u : 0u;                        // src_vccz
    case 252: return w.exec == 0 ? 1u : 0u;                       // src_execz
    case 253: return w.scc ? 1u : 0u;                             // src_scc
    default: break;
  }
  if (w.cur) fail(*w.cur, "unsupported special source operand " + std::to_string(op.reg));
  throw sim::error("simulator: unsupported special source operand " + std::to_string(op.reg));
}

void write_special(Wave& w, const Operand& op, uint32_t v, int dword) {
  unsigned r = op.reg + dword;
  if (op.kind == Operand::Special && op.reg == 125) return;  // null: the write is dropped
  if (op.kind == Operand::Special && r >= 102 && r <= 123) {
    w.sgpr[r] = v;
    return;
  }
  if (w.cur) fail(*w.cur, "operand is not writable");
  throw sim::error("simulator: operand is not writable");
}

}  // namespace hipasm::sim

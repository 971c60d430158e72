// One input through everything the loader does with untrusted bytes: parse and validate,
// build the loadable image, check a launch and lay out a kernarg segment for every kernel.
// Returns normally when the input loads or is refused with a sim::error; anything else
// (another exception, a sanitizer report, a crash) is a bug the callers surface.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "bundle.hpp"
#include "elf.hpp"
#include "kernarg.hpp"

namespace loader_fuzz {

// True if the bytes loaded; false if they were refused (with a one-line message). A fat
// binary (offload bundle): its entries are read, and every code object in it goes through all that.
inline bool exercise(std::span<const uint8_t> bytes, std::string* refusal = nullptr) {
  using namespace hipasm;
  if (sim::is_offload_bundle(bytes)) {
    try {
      for (const sim::BundleEntry& e : sim::read_offload_bundle(bytes))
        if (!e.processor().empty() && !exercise(sim::select_code_object(bytes, e.processor()), refusal)) return false;
      return true;
    } catch (const sim::error& e) {
      if (refusal) *refusal = e.what();
      return false;
    }
  }
  try {
    const sim::CodeObject co = sim::load_code_object(bytes);
    (void)co.image_at(0x7fff'0000'0000);
    for (const auto& k : co.kernels) {
      // One argument of each common size (values: any bits will do).
      static const std::array<uint32_t, 4> kBytes{1, 2, 3, 4};
      std::vector<sim::ArgBytes> args;
      for (const auto& a : k.args) {
        if (a.hidden()) continue;
        if (a.size != 16 && a.size != 8 && a.size != 4 && a.size != 2 && a.size != 1)
          return true;  // an odd-sized struct: its layout was validated by the loader
        args.push_back({kBytes.data(), a.size});
      }
      try {
        sim::check_launch(k, {2, 1, 1}, {64, 1, 1}, 0);
        (void)sim::build_kernarg(k, {2, 1, 1}, {64, 1, 1}, args, 0, sim::kernarg_layout::full);
        (void)sim::build_kernarg(k, {2, 1, 1}, {64, 1, 1}, args, 0, sim::kernarg_layout::explicit_only);
      } catch (const sim::error&) {
        // a launch refusal (e.g. a block larger than the kernel allows) is fine
      }
    }
    return true;
  } catch (const sim::error& e) {
    if (refusal) *refusal = e.what();
    return false;
  }
}

}  // namespace loader_fuzz

// One input through everything the loader does with untrusted bytes: parse and validate,
// build the loadable image, check a launch and lay out a kernarg segment for every kernel.
// Returns normally when the input loads or is refused with an rt::error; anything else
// (another exception, a sanitizer report, a crash) is a bug the callers surface.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string>

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
    } catch (const rt::error& e) {
      if (refusal) *refusal = e.what();
      return false;
    }
  }
  try {
    const sim::CodeObject co = sim::load_code_object(bytes);
    (void)co.image_at(0x7fff'0000'0000);
    for (const auto& k : co.kernels) {
      rt::kernel_args args;
      for (const auto& a : k.args) {
        if (a.hidden()) continue;
        // kernel_args takes typed values: one of each common size.
        if (a.size == 16) args.add(std::array<uint32_t, 4>{1, 2, 3, 4});
        else if (a.size == 8) args.add(uint64_t{0x1000});
        else if (a.size == 4) args.add(uint32_t{7});
        else if (a.size == 2) args.add(uint16_t{7});
        else if (a.size == 1) args.add(uint8_t{7});
        else return true;  // an odd-sized struct: its layout was validated by the loader
      }
      try {
        sim::check_launch(k, {2, 1, 1}, {64, 1, 1}, 0);
        (void)sim::build_kernarg(k, {2, 1, 1}, {64, 1, 1}, args, 0, sim::kernarg_layout::full);
        (void)sim::build_kernarg(k, {2, 1, 1}, {64, 1, 1}, args, 0, sim::kernarg_layout::explicit_only);
      } catch (const rt::error&) {
        // a launch refusal (e.g. a block larger than the kernel allows) is fine
      }
    }
    return true;
  } catch (const rt::error& e) {
    if (refusal) *refusal = e.what();
    return false;
  }
}

}  // namespace loader_fuzz

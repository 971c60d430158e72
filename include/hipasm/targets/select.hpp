// The target a compilation is for: a compile-time parameter of the whole compiler. The HIP
// device pass of `--offload-arch=gfx950` defines __gfx950__ (so a fat binary's passes each
// build their own); a host build (tests, tools) picks one with -DHIPASM_TARGET_GFX950=1.
// Everything else reads the target through active_target and target_op.
#pragma once
#include <string_view>
#include <type_traits>

#if defined(__gfx950__) || (defined(HIPASM_TARGET_GFX950) && HIPASM_TARGET_GFX950)
#include "gfx950/target.hpp"
namespace hipasm {
using active_target = targets::gfx950;
}
#elif defined(__amdgcn_processor__) && !defined(__gfx942__)  // (a HIP host pass defines __AMDGCN__ too)
#error "hipasm compiles kernels for gfx942 and gfx950 (--offload-arch)"
#else
#include "gfx942/target.hpp"
namespace hipasm {
using active_target = targets::gfx942;
}
#endif

namespace hipasm {
// The active target's instruction enumeration (indexes its table).
using target_op = active_target::op;
// A HIP device pass (a kernel macro's target checks belong there: a host pass compiles for no
// target, so active_target is only its default).
#if defined(__HIP_DEVICE_COMPILE__)
inline constexpr bool device_pass = true;
#else
inline constexpr bool device_pass = false;
#endif
namespace isa {
using hipasm::target_op;
// Index of the mnemonic in the active target's table, or -1.
constexpr int find_instr(std::string_view name) { return active_target::find_instr(name); }
}  // namespace isa
}  // namespace hipasm

static_assert(std::is_same_v<hipasm::active_target::waitcnt_encoding, hipasm::waitcnt_encoding>,
              "operand.hpp's waitcnt encoding is the active target's");

// Runs one kernel dispatch: decodes the kernel's code once, sets up the gfx942 entry state
// of every wave from the kernel descriptor, and executes workgroups on worker threads.
// Called by the runtime's sim backend (rt/src/launcher.cpp) and by timing mode.
#pragma once
#include "core.hpp"
#include "decode.hpp"
#include "hipasm/sim/profile.hpp"

namespace hipasm::sim {

inline constexpr uint64_t kDefaultInstructionBudget = 100'000'000;  // wave-instructions

// What a dispatch counted; timing mode adds the profile.
struct DispatchResult {
  uint64_t instructions = 0;     // wave-instructions executed
  uint64_t lane_operations = 0;
  std::shared_ptr<profile> profile;
};

// Throws sim::error for: an undecodable instruction or one with no handler (reported before
// any wave runs), a branch outside the code, waves blocked forever at ds_gws_* (a deadlock),
// the instruction budget exceeded, any fault a handler raises. The checker's findings are the Observer's
// business; the report carries only the counters.
DispatchResult run_dispatch(const KernelImage& image, const DispatchParams& params, Memory& memory,
                            Observer* checker);

}  // namespace hipasm::sim

// The launcher's entry to timing mode (the runtime's sim backend, rt/src/launcher.cpp, calls it
// when launch_options::profile is set).
#pragma once
#include "../elf.hpp"
#include "../dispatch.hpp"
#include "timing.hpp"

namespace hipasm::sim {
class Checker;
}

namespace hipasm::sim::timing {

// The checker (null: none) sees the dispatch as in a plain run; the caller reads its findings.
DispatchResult run_profiled(const KernelInfo& k, const DispatchParams& p, Memory& memory, Checker* checker,
                            const sim::profile_options& opts);

}  // namespace hipasm::sim::timing

// The launcher's entry to timing mode (launcher.cpp calls it when launch_options::profile is set).
#pragma once
#include "../elf.hpp"
#include "timing.hpp"

namespace hipasm::sim::timing {

rt::launch_report run_profiled(const KernelInfo& k, const DispatchParams& p, Memory& memory, bool check,
                               const rt::profile_options& opts);

}  // namespace hipasm::sim::timing

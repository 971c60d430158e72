// The sim backend's timing mode, as the runtime offers it: launch_options::profile asks for a
// prediction of the run time on an MI300- or MI350-class device and launch_report::profile
// carries it (cycles, rates, occupancy, stalls, hot spots, on request every wave's schedule).
// The types are the simulator's timing model's (<hipasm/sim/profile.hpp>, docs/timing-model.md);
// this header names them in hipasm::rt, beside the launcher that takes and returns them.
#pragma once
#include "hipasm/rt/launcher.hpp"
#include "hipasm/sim/profile.hpp"

namespace hipasm::rt {

// The report: the timing model's, as the runtime's own type (the launcher's header declares it
// without naming the simulator).
struct profile : sim::profile {};

using stall_reason = sim::stall_reason;
using peak_dtype = sim::peak_dtype;
using profile_event = sim::profile_event;
using profile_wave = sim::profile_wave;
using profile_inst = sim::profile_inst;
using clock_phase = sim::clock_phase;
using sim::kPeakDtypes;
using sim::kStallReasons;
using sim::peak_dtype_name;
using sim::profile_devices;
using sim::stall_reason_name;

}  // namespace hipasm::rt

// Runs one kernel dispatch: decodes the kernel's code once, sets up the gfx942 entry state
// of every wave from the kernel descriptor, and executes workgroups on worker threads.
// Called by the runtime's sim backend (rt/src/launcher.cpp) and by timing mode.
#pragma once
#include <span>
#include <vector>

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

// ---- Several devices in one run (a node of GPUs of one kind): one dispatch per device, each
// on its own Memory (Memory(d): device d's addresses; peers' bytes reached through
// Memory::map_peer), all resident workgroups of all devices interleaved on one thread so
// that flags written by one device and polled by another work.
struct DeviceDispatch {
  const KernelImage* image = nullptr;
  const DispatchParams* params = nullptr;  // seed, trace, budget: per device (threads: ignored)
  Memory* memory = nullptr;                // a different Memory (device) for each launch
  Observer* checker = nullptr;             // this device's checker (may be nullptr)
};
struct NodeParams {
  // 0: every resident workgroup of every device takes one turn after another, device by device;
  // otherwise each step gives a turn to a workgroup drawn at random over all devices (each
  // dispatch's DispatchParams::seed still orders its waves within a workgroup).
  uint64_t seed = 0;
  // Workgroups of one device resident at once (the rest start as these finish); 0: the whole
  // grid. A GWS kernel always has its whole grid resident.
  uint64_t resident_groups = 0;
  PeerObserver* peer = nullptr;  // the peer-visibility checker (peer.hpp), or nullptr
};
// Results in launch order. Errors as run_dispatch, prefixed "device <d>: ".
std::vector<DispatchResult> run_dispatches(std::span<const DeviceDispatch> launches, const NodeParams& node);

}  // namespace hipasm::sim

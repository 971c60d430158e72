// What the simulator throws for every fatal problem it finds (a malformed code object, an
// instruction it cannot decode or has no semantics for, a fault, a deadlock, an exceeded
// instruction budget), with a one-line message. The runtime (rt/) rethrows it as its own error
// type with the same message; the simulator itself knows nothing of the runtime.
#pragma once
#include <stdexcept>

namespace hipasm::sim {

struct error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace hipasm::sim

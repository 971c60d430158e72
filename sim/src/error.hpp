// What the simulator throws for every fatal problem it finds (a malformed code object, an
// instruction it cannot decode or has no semantics for, a fault, a deadlock, an exceeded
// instruction budget), with a one-line message. The runtime (rt/) rethrows it as its own error
// type with the same message; the simulator itself knows nothing of the runtime.
#pragma once
#include <cinttypes>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace hipasm::sim {

struct error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// An address or value as the messages print it: 0x and lowercase hex digits.
inline std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%" PRIx64, v);
  return b;
}

}  // namespace hipasm::sim

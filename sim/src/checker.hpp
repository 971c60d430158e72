// The checker: what the hardware would not catch. An Observer the dispatcher calls for every
// issued instruction (before its handler runs), plus hooks the memory semantics call while
// the handler runs. Findings are strings "0x<pc>: <inst text>: <rule> (<details>)",
// deduplicated by (pc, rule) and sorted, so they do not depend on thread count.
//
// What it checks:
// 1. Pending memory results. Each memory instruction that writes registers, or occupies a
//    counter (stores, atomics without return), leaves a pending record at issue: its
//    destination registers and the counters it occupies. s_waitcnt retires records by the
//    gfx9 rules (vmcnt: VMEM in order; lgkmcnt: DS in order, SMEM out of order so only
//    lgkmcnt(0) proves an SMEM done; FLAT: by where it went - global/scratch like VMEM, LDS
//    like DS, both = out of order on both counters). An instruction that reads, or writes
//    (WAW, except a later memory op of the same in-order queue), a register whose result may
//    still be pending is a finding.
// 2. Hazards: the wait-state table of hazard_rules.cpp, evaluated on each wave's dynamic
//    instruction stream (one instruction = one wait state, s_nop N = N+1).
// 3. LDS races inside a workgroup: a wave reads or overwrites LDS bytes another wave wrote
//    (not atomically on both sides) unless that write was retired by an s_waitcnt before an
//    s_barrier that both waves passed since; a wave overwrites LDS bytes another wave read
//    with no s_barrier in between (write after read); a wave touches LDS bytes its own
//    LDS-DMA (counted on vmcnt) may not have written yet.
// 4. Undefined data (undef.hpp, docs/sim-undefined.md): register bits and LDS bytes nothing
//    defined, used as an address, stored to memory, branched on or put in EXEC.
//
// Rule tags, as "[tag]" right after the instruction text: pending-read, pending-write,
// hazard <id> (ids in hazard_rules.cpp, e.g. "hazard mfma-read"), lds-race (read),
// lds-race-waw, lds-race-war, lds-dma-pending, undef-addr, undef-store, undef-branch,
// undef-exec. A dynamic checker: it sees the paths a launch
// executes, so code a test's inputs never reach is not checked.
//
// Findings never stop a run: each (pc, rule) keeps the number of times a wave broke the rule
// there (one instruction breaking it for several registers counts once) and the message of
// the first occurrence in the smallest (workgroup, wave), so the kept text does not depend on
// the thread count (LDS-race detection itself depends on the wave interleaving).
//
// Threading: state per wave (Wave::checker_state) and per workgroup; all calls of one
// workgroup come from one thread. Only the findings set and the workgroup table lock.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core.hpp"

namespace hipasm::sim {

// One rule broken at one instruction, over a whole launch.
struct Finding {
  uint64_t pc = 0;
  std::string rule;     // tag: "pending-read", "hazard mfma-read", ...
  std::string inst;     // instruction text
  std::string message;  // the diagnostic line of the first occurrence
  uint64_t count = 0;   // occurrences (wave-instructions that broke the rule here)
  uint32_t first_workgroup = 0, first_wave = 0;  // linear workgroup id, wave in the group
};

// Every rule tag the checker can report (the fixed ones, then "hazard <id>" per hazard rule).
std::vector<std::string> checker_rule_tags();

class Checker final : public Observer {
 public:
  // track_undefined: also the definedness rules of undef.hpp (undef-addr, undef-store,
  // undef-branch, undef-exec).
  explicit Checker(bool track_undefined = true);
  ~Checker() override;

  void on_issue(const Wave& w, const Inst& in, uint64_t cycle) override;
  void on_waitcnt(const Wave& w, const Inst& in) override;
  void on_barrier(uint32_t workgroup) override;
  void on_wave_end(const Wave& w) override;
  void on_workgroup_end(uint32_t workgroup) override;

  // Sorted, deduplicated findings so far (the messages of findings()).
  std::vector<std::string> diagnostics() const;
  // The same, sorted by (pc, rule), with counts.
  std::vector<Finding> findings() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// ---- Hooks for exec_mem.cpp (no-ops when the wave has no checker state, i.e. no checker).
enum class LdsAccess : uint8_t { Read, Write, Atomic, DmaWrite /* LDS-DMA, counted on vmcnt */ };
// One lane's LDS access of `n` bytes at `addr` by the instruction being executed.
void checker_lds_access(const Wave& w, uint32_t addr, uint32_t n, LdsAccess kind);
// The same for the active lanes of `lanes`, lane L at addr[L] (one call per instruction).
void checker_lds_access_lanes(const Wave& w, const uint32_t* addr, uint64_t lanes, uint32_t n,
                              LdsAccess kind);
// One lane's access of `n` bytes of device memory at `addr` (a store or load; atomics are
// ignored) by the instruction being executed: the workgroup-scope race check (mem-race).
void checker_mem_access(const Wave& w, uint64_t addr, uint32_t n, bool write);
// Where the FLAT instruction being executed went (any lane): global/scratch memory, LDS.
void checker_flat_target(const Wave& w, bool vmem, bool lds);

}  // namespace hipasm::sim

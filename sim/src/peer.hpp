// The peer-visibility checker of a multi-device run (run_dispatches): a read of data another
// device wrote that the memory model does not make visible to the reader is a finding, as is
// a write that races with another device's access.
//
// The rules are LLVM's AMDGPUUsage, "Memory Model GFX942" (gfx950 uses the same code
// sequences: SIGfx940CacheControl): system scope is sc0=1 sc1=1 on loads and stores and sc1=1
// on atomics (whose sc0 only asks for the old value); a release is buffer_wbl2 sc0 sc1 (write
// the L2 back) completed by s_waitcnt vmcnt(0) before the releasing store or atomic; an acquire
// is the load or atomic (completed) followed by buffer_inv sc0 sc1 (invalidate the L1 and L2)
// before the later reads. The CDNA3 ISA guide's "Memory Scope and Temporal Controls" gives the
// bits' meaning (SC1 SC0 = 3: system scope) and its buffer_wbl2 / buffer_inv entries the
// write-back and the invalidate.
//
// Model: happens-before with a vector clock per wave. A wave's writes carry its epoch; a
// system-scope release (buffer_wbl2 sc0 sc1, then s_waitcnt vmcnt(0)) publishes the wave's
// clock as of the buffer_wbl2 and starts a new epoch; a system-scope store or atomic then
// carries the published clock into the word it writes (an atomic adds it to what the word
// carries); a system-scope load or atomic of such a word takes its clock, which the wave's
// next buffer_inv sc0 sc1 joins into its own. An s_barrier joins the clocks of the
// workgroup's waves (a __syncthreads: the waves of a workgroup share the CU's L1, and an
// acquire invalidates for all of them). A read of a word written by a wave of another device
// needs the write's epoch in the reader's clock; a write needs the other devices' earlier
// reads and writes of the word in its clock. System-scope accesses on both sides never race
// (a flag polled while it is written). Only bytes a peer mapped (Memory::map_peer) are
// tracked, in 4-byte words; accesses within one device are the per-device checker's business
// (not checked here: two workgroups of one device).
//
// Rule tags: peer-visibility (a read), peer-race (a write). Findings per device, keyed by
// (pc, rule) like the checker's.
#pragma once
#include <memory>
#include <span>
#include <vector>

#include "checker.hpp"
#include "core.hpp"

namespace hipasm::sim {

class PeerChecker final : public PeerObserver {
 public:
  PeerChecker();
  ~PeerChecker() override;
  void on_issue(const Wave& w, const Inst& in) override;
  void on_access(const Wave& w, const Inst& in, Backing& b, uint64_t offset, size_t n, int lane,
                 bool write) override;
  void on_barrier(std::span<Wave* const> waves) override;

  // The findings of waves of `device`, sorted by (pc, rule).
  std::vector<Finding> findings(unsigned device) const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// The rule tags PeerChecker reports (for launch_options::allow).
std::vector<std::string> peer_rule_tags();

}  // namespace hipasm::sim

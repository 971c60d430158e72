// The peer-visibility checker of a multi-device run (run_dispatches): a read of data another
// device wrote that the memory model does not make visible to the reader is a finding, as is
// a write that races with another device's access.
//
// The rules are LLVM's AMDGPUUsage, "Memory Model GFX942" (the GFX940 memory model of
// https://reviews.llvm.org/D121242 and D121397; gfx950 uses the same code sequences:
// SIGfx940CacheControl): system scope is sc0=1 sc1=1 on loads and stores and sc1=1 on atomics
// (which "do not use the sc0 bit for coherence and instead use it to indicate if the
// instruction returns the original value"); a release is buffer_wbl2 sc0 sc1 (the L2 written
// back) completed by s_waitcnt vmcnt(0) before the releasing store or atomic; an acquire is the
// load or atomic, s_waitcnt vmcnt(0), then buffer_inv sc0 sc1 (L1 and L2 invalidated) before
// the later reads. (AMD's CDNA3 ISA guide defines BUFFER_WBL2, BUFFER_INV and the SC bits; the
// code sequences and scopes are LLVM's.)
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
// (not checked here: two workgroups of one device). Not judged: scalar memory instructions
// (s_load glc, s_atomic_*: the memory model has no code sequence with them, aiter's
// all_reduce.co uses them for its flags), and data written before the run (host copies,
// earlier launches), which counts as visible.
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

// Timing mode internals. Functional execution runs a workgroup's waves in turn on a worker
// thread, so it cannot give the interleaving of waves on a CU. The Recorder (an Observer that
// forwards to the checker) therefore stores each wave's dynamic instruction stream with what
// timing needs from the registers at issue (active lanes, the 128-byte lines a vector-memory
// access touches, an LDS access's bank-conflict cycles); simulate() then schedules all streams
// on the modelled device in one event-driven pass. Recording reads registers only, so results
// are those of a plain run (tests/sim/timing proves it bit for bit).
#pragma once
#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "../core.hpp"
#include "../asm_listing.hpp"
#include "../decode.hpp"
#include "device.hpp"
#include "hipasm/sim/profile.hpp"

namespace hipasm::sim::timing {

// What the scheduler does with an instruction.
enum class Kind : uint8_t {
  Valu, Trans, PackedF32, Mfma, Dgemm, Salu, Smem, Branch, Ds, Vmem, Flat,
  Waitcnt, Nop, Sleep, Barrier, Endpgm, SetPrio, Internal,
};

// Static facts of one instruction, computed once per Program instruction.
struct InstInfo {
  Kind kind = Kind::Internal;
  uint8_t width = 0;         // bytes per lane of a memory access (per address of read2/write2)
  uint8_t passes = 0;        // MFMA passes
  uint8_t prio = 0;          // s_setprio: the wave's user priority, SIMM16[1:0]
  uint8_t atomic_elements = 1;  // VMEM atomic: the elements a lane adds (2: packed 16-bit)
  bool coexec = true;        // MFMA: plain VALU may run under it
  bool store = false, atomic = false, two_addr = false, bypass_l1 = false, lds_dma = false;
  bool sync_atomic = false;    // an integer VMEM atomic (a counter, flag or lock other workgroups poll)
  bool atomic_returns = false;  // a VMEM atomic that returns the old value (sc0/glc: a destination)
  bool coherent_load = false;  // a VMEM load with sc0/sc1 (an acquire's or a poll's load)
  double flops_per_wave = 0;  // MFMA: 2*M*N*K*blocks; VALU float ops: per active lane
  sim::peak_dtype dtype = sim::peak_dtype::count;  // the peak class of those operations
  bool valu_flops_per_lane = false;
  bool int_matrix = false;  // an integer MFMA/SMFMAC (i8 inputs): its own power (device.hpp)
};
InstInfo classify(const Inst& in);
// Floating-point operations per lane of a VALU mnemonic (docs/timing-model.md, Report).
double valu_flops(std::string_view mnemonic);
// The peak class of an MFMA (its input type; f8f6f4 by its cbsz / blgp formats).
sim::peak_dtype mfma_dtype(std::string_view mnemonic, uint8_t cbsz, uint8_t blgp);
// What bounds the kernel and its share of the device's peak (profile::bound, peak_share), from
// a finished profile's counters.
void summarize_bound(sim::profile& p, const DeviceSpec& dev);

// One dynamic instruction of one wave (16 bytes: a big GEMM records ~1e8 of them).
struct Rec {
  uint32_t inst = 0;     // index into the Program's instructions, or kRewritten + index of a
                         // VGPR index-mode rewrite (Recorder::inst/info_index resolve both)
  uint32_t a = 0;        // VMEM/SMEM: first line in GroupStream::lines; DS: port cycles
  uint32_t b = 0;        // VMEM/SMEM: line count;                      DS: conflict-free cycles
  uint16_t bytes = 0;    // bytes moved by the lanes (memory; at most 64 x 16 x 2)
  uint8_t lanes = 0;     // active lanes
  static constexpr uint32_t kRewritten = 1u << 31;
};
static_assert(sizeof(Rec) == 16);

// Cross-workgroup order (docs/timing-model.md, "Workgroups that wait for each other"): the
// integer VMEM atomics of a wave (record `rec` added `adds` to the dword at `dword`), and its
// coherent loads and returning integer atomics (record `rec` read `dword` after `adds` such
// additions in the functional run, in `polls`): the scheduler issues such a load no earlier than
// the model has completed that many, such an atomic so that it reaches the L2 after them.
struct SyncAccess {
  uint32_t rec = 0, adds = 0;
  uint64_t dword = 0;  // byte address / 4
  bool operator==(const SyncAccess&) const = default;
};
struct WaveStream {
  std::vector<Rec> recs;
  std::vector<SyncAccess> atomics, polls;  // in record order
};
struct GroupStream {
  std::vector<WaveStream> waves;
  std::vector<uint64_t> lines;  // line addresses (address / line size) of VMEM/SMEM records
  // VMEM atomics, per line they touch (index into lines, in index order): the elements its
  // lanes apply (a packed 16-bit lane two) and the most lanes on one of its addresses; the L2
  // channel's atomic unit applies the elements at its rate and the lanes on one address one
  // after another.
  struct AtomicLine {
    uint32_t line = 0;
    uint16_t serial = 1, elements = 1;
  };
  std::vector<AtomicLine> atomic_lines;
  AtomicLine atomic_ops(uint32_t line_index) const {
    const auto it = std::lower_bound(atomic_lines.begin(), atomic_lines.end(), line_index,
                                     [](const AtomicLine& a, uint32_t l) { return a.line < l; });
    return it != atomic_lines.end() && it->line == line_index ? *it : AtomicLine{line_index, 1, 1};
  }
};

class Recorder final : public Observer {
 public:
  // Workgroup linear id g is stream g / group_stride (sampling runs every group_stride-th).
  Recorder(Observer* next, std::shared_ptr<const Program> prog, uint64_t groups,
           uint32_t waves_per_group, const DeviceSpec& dev, uint32_t group_stride = 1);
  void on_issue(const Wave& w, const Inst& in, uint64_t cycle) override;
  void on_waitcnt(const Wave& w, const Inst& in) override {
    if (next_) next_->on_waitcnt(w, in);
  }
  void on_barrier(uint32_t g) override {
    if (next_) next_->on_barrier(g);
  }
  void on_wave_end(const Wave& w) override;
  void on_workgroup_end(uint32_t g) override {
    if (next_) next_->on_workgroup_end(g);
  }

  const Program& program() const { return *prog_; }
  // The instruction and its index into infos() (for a rewrite: its original's).
  const Inst& inst(const Rec& r) const {
    return r.inst < Rec::kRewritten ? prog_->insts[r.inst] : *rewritten_[r.inst - Rec::kRewritten].inst;
  }
  uint32_t info_index(const Rec& r) const {
    return r.inst < Rec::kRewritten ? r.inst : rewritten_[r.inst - Rec::kRewritten].info;
  }
  const std::vector<InstInfo>& infos() const { return infos_; }
  std::vector<std::unique_ptr<GroupStream>> groups;
  uint32_t waves_per_group;
  uint32_t group_stride;

 private:
  Observer* next_;
  std::shared_ptr<const Program> prog_;
  const DeviceSpec& dev_;
  std::vector<InstInfo> infos_;  // parallel to prog_->insts
  struct Rewritten {
    std::unique_ptr<Inst> inst;
    uint32_t info;
  };
  std::atomic<size_t> length_hint_{0};  // longest finished stream: later ones reserve it
  std::mutex extra_mu_;
  std::vector<Rewritten> rewritten_;                 // VGPR index-mode rewrites
  std::map<const Inst*, uint32_t> rewritten_index_;  // the dispatcher's copy -> rewritten_
  // Integer VMEM atomics so far (functional order) per dword (SyncAccess).
  std::mutex sync_mu_;
  std::unordered_map<uint64_t, uint32_t> atomic_adds_;
};

// What the scheduler needs to know about the kernel besides the streams.
struct KernelShape {
  std::string name;
  uint32_t vgprs = 0;       // allocated VGPRs + AGPRs per lane (unified file)
  uint32_t sgprs = 0;       // allocated SGPRs
  uint32_t lds_bytes = 0;   // per workgroup
  uint32_t waves_per_group = 0;
  uint64_t groups = 0;
  uint32_t accum_offset = 256;  // first AGPR in the unified file
  uint64_t entry = 0;           // pc of the kernel's first instruction
  uint64_t listing_entry = 0;   // pc where its asm listing starts (KernelImage::listing_entry)
  uint32_t group_stride = 1;    // sampling: stream i is workgroup i * group_stride
};

// Clock and power (docs/timing-model.md): a phase's power at the peak clock relative to the
// device's limit, and the clock that power allows; the phases' clocks; the phases' time (us).
double phase_power(const DeviceSpec& dev, const sim::clock_phase& ph);
double phase_clock(const DeviceSpec& dev, double power);
void set_phase_clocks(const DeviceSpec& dev, std::vector<sim::clock_phase>& phases);
double phases_us(const std::vector<sim::clock_phase>& phases);
sim::clock_phase merged_phase(const std::vector<sim::clock_phase>& phases);  // length-weighted

// Schedules the recorded streams on `dev` and fills a profile; `threads` (0: all cores) bounds
// how many of the independent schedules (sustained and peak clock) run at once.
std::shared_ptr<sim::profile> simulate(const Recorder& rec, const KernelShape& shape,
                                      const DeviceSpec& dev, const sim::profile_options& opts,
                                      unsigned threads = 0);

}  // namespace hipasm::sim::timing

// The timing pass: schedules the recorded wave streams on the modelled device, event-driven.
// Each SIMD gets an issue turn every 4 cycles (one SIMD per cycle, round-robin, T2); at its turn
// the SIMD's waves, oldest first, issue at most one instruction each and at most one per
// category (VALU incl. MFMA, VMEM, SALU/SMEM, LDS, branch; "internal" ones such as s_nop,
// s_waitcnt, s_barrier take none). A wave's next instruction is ready when its sources are
// written (register scoreboard), its unit is free (VALU, matrix core, T3/T4), its s_waitcnt
// counters have dropped (memory completion times, T5/T6), its s_nop/s_sleep has passed and its
// workgroup has left the barrier. Memory instructions compute their completion at issue from
// shared resources processed in time order: the CU's LDS ports and vector-memory address path,
// the CU's L1, the XCD's L2 channels and the device's HBM. docs/timing-model.md has the details.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <deque>
#include <limits>
#include <queue>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "timing.hpp"

namespace hipasm::sim::timing {
namespace {

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

using sim::stall_reason;

// A set-associative LRU cache of line numbers. Lookups go through a hash table (line -> slot,
// the line stored beside its slot) and each set keeps its ways in a recency list (empty ways at
// the tail), so a hit or a miss costs O(1) whatever the associativity (the 64-way L1 is asked for
// every vector line). A set's ways are allocated when it is first filled and the table grows with
// the lines held, so a 256 MB Infinity Cache costs nothing to a kernel that touches little.
class Cache {
 public:
  Cache() = default;
  Cache(uint64_t bytes, uint32_t line, uint32_t ways) {
    const uint64_t lines = std::max<uint64_t>(1, bytes / line);
    ways_ = uint32_t(std::min<uint64_t>(ways, lines));
    sets_ = uint32_t(std::max<uint64_t>(1, lines / ways_));
    head_.assign(sets_, kNone);
    tail_.assign(sets_, kNone);
    index_.assign(16, Entry{kEmpty, kNone});
    mask_ = 15;
  }
  // True on a hit. On a miss with allocate, inserts (evicting the set's least recently used
  // line); *evicted_dirty tells whether a dirty line left. *slot_out: the line's slot (kNone
  // after a miss without allocate), for ready()/set_ready().
  bool access(uint64_t line, bool allocate, bool make_dirty, bool* evicted_dirty = nullptr,
              uint32_t* slot_out = nullptr) {
    const uint32_t slot = find(line);
    if (slot_out) *slot_out = slot;
    if (slot != kNone) {
      touch(slot);
      if (make_dirty) dirty_[slot] = 1;
      return true;
    }
    if (!allocate) return false;
    const uint32_t set = set_of(line);
    if (tail_[set] == kNone) add_ways(set);
    const uint32_t victim = tail_[set];
    if (evicted_dirty) *evicted_dirty = tags_[victim] != kEmpty && dirty_[victim];
    if (tags_[victim] != kEmpty) erase(tags_[victim]);
    else if (++held_ * 2 > index_.size()) grow();
    tags_[victim] = line;
    dirty_[victim] = make_dirty;
    ready_[victim] = 0;
    insert(line, victim);
    touch(victim);
    if (slot_out) *slot_out = victim;
    return false;
  }
  // When a line's data is there: a line allocated by a miss is in the cache at once (later
  // requests find it) but its data arrives only with the fill; a request that hits it earlier
  // waits for the fill (the miss is merged), it does not get the data before it exists.
  static constexpr uint32_t kNoSlot = ~0u;
  uint64_t ready(uint32_t slot) const { return slot == kNone ? 0 : ready_[slot]; }
  void set_ready(uint32_t slot, uint64_t t) {
    if (slot != kNone) ready_[slot] = t;
  }
  uint64_t dirty_lines() const {
    uint64_t n = 0;
    for (size_t i = 0; i < tags_.size(); ++i) n += tags_[i] != kEmpty && dirty_[i];
    return n;
  }

 private:
  static constexpr uint64_t kEmpty = ~0ull;
  static constexpr uint32_t kNone = ~0u;
  struct Entry {  // the line beside its slot: a lookup touches one host cache line
    uint64_t line;
    uint32_t slot;
  };
  uint32_t set_of(uint64_t line) const {
    // Mix the line number so power-of-two strides spread over the sets.
    uint64_t h = line ^ (line >> 11) ^ (line >> 23);
    return uint32_t(h % sets_);
  }
  // A set's ways, contiguous, linked most recent first.
  void add_ways(uint32_t set) {
    const uint32_t b = uint32_t(tags_.size());
    tags_.resize(b + ways_, kEmpty);
    dirty_.resize(b + ways_, 0);
    ready_.resize(b + ways_, 0);
    prev_.resize(b + ways_);
    next_.resize(b + ways_);
    set_of_block_.push_back(set);
    for (uint32_t i = 0; i < ways_; ++i) {
      prev_[b + i] = i ? b + i - 1 : kNone;
      next_[b + i] = i + 1 < ways_ ? b + i + 1 : kNone;
    }
    head_[set] = b;
    tail_[set] = b + ways_ - 1;
  }
  size_t hash(uint64_t line) const { return size_t((line * 0x9E3779B97F4A7C15ull) >> 20) & mask_; }
  uint32_t find(uint64_t line) const {
    for (size_t i = hash(line);; i = (i + 1) & mask_) {
      if (index_[i].line == line) return index_[i].slot;
      if (index_[i].line == kEmpty) return kNone;
    }
  }
  void insert(uint64_t line, uint32_t slot) {
    size_t i = hash(line);
    while (index_[i].line != kEmpty) i = (i + 1) & mask_;
    index_[i] = {line, slot};
  }
  void grow() {
    index_.assign(index_.size() * 2, Entry{kEmpty, kNone});
    mask_ = index_.size() - 1;
    for (size_t s = 0; s < tags_.size(); ++s)
      if (tags_[s] != kEmpty) insert(tags_[s], uint32_t(s));
  }
  // Linear-probing deletion with backward shift (no tombstones).
  void erase(uint64_t line) {
    size_t i = hash(line);
    while (index_[i].line != line) i = (i + 1) & mask_;
    for (size_t j = (i + 1) & mask_; index_[j].line != kEmpty; j = (j + 1) & mask_) {
      const size_t want = hash(index_[j].line);
      // Move j's entry into the hole at i unless its home lies cyclically in (i, j].
      if ((j > i && (want <= i || want > j)) || (j < i && want <= i && want > j)) {
        index_[i] = index_[j];
        i = j;
      }
    }
    index_[i] = Entry{kEmpty, kNone};
  }
  // Moves a slot to the front of its set's recency list.
  void touch(uint32_t slot) {
    const uint32_t set = set_of_block_[slot / ways_];
    if (head_[set] == slot) return;
    const uint32_t p = prev_[slot], n = next_[slot];
    next_[p] = n;
    if (n != kNone) prev_[n] = p;
    else tail_[set] = p;
    prev_[slot] = kNone;
    next_[slot] = head_[set];
    prev_[head_[set]] = slot;
    head_[set] = slot;
  }
  uint32_t sets_ = 1, ways_ = 1;
  size_t mask_ = 0, held_ = 0;
  std::vector<uint64_t> tags_;
  std::vector<uint8_t> dirty_;
  std::vector<uint64_t> ready_;  // per slot: cycle the line's data arrives (fills in flight)
  std::vector<uint32_t> prev_, next_, head_, tail_, set_of_block_;
  std::vector<Entry> index_;
};

struct Outstanding {
  uint64_t done = 0;
  uint8_t counters = 0;    // 1 = vmcnt, 2 = lgkmcnt
  uint32_t conflict = 0;   // LDS bank-conflict cycles in this access
};

constexpr int kSregs = 130;  // s0..s127 by encoding index (vcc 106/107, m0 124, exec 126/127), scc 128
constexpr int kScc = 128;

struct WaveT {
  // Hot: read by every SIMD turn (kept within the first host cache lines).
  const WaveStream* stream = nullptr;
  size_t pos = 0;
  uint32_t gid = 0, group = 0, simd = 0, cu = 0;
  uint64_t own_ready = 0;          // earliest next issue from its own cadence / s_nop / barrier
  stall_reason own_reason = stall_reason::count;
  uint64_t turn_ready = 0;         // when the next instruction could first issue (no stalls)
  bool at_barrier = false, done = false;
  uint8_t prio = 0;                // s_setprio's user priority: issue arbitration before age
  const InstInfo* next = nullptr;  // the next record's InstInfo (turns need not read the stream)
  // Sim::own_constraints of the next instruction, valid until the wave issues or is released.
  struct Own {
    uint64_t t = 0;
    stall_reason reason = stall_reason::count;
    uint32_t lds_conflict = 0;
  };
  mutable Own own;
  mutable bool own_valid = false;
  uint64_t last_vm_done = 0, last_ds_done = 0;
  size_t atomic_pos = 0, poll_pos = 0;  // the stream's first SyncAccess at or after pos
  size_t sync_waived = SIZE_MAX;         // the record whose cross-workgroup waits are waived
  std::vector<uint64_t> vready;    // per unified VGPR/AGPR
  std::vector<uint8_t> vmfma;      // written by an MFMA
  std::vector<Outstanding> out;
  std::array<uint64_t, kSregs> sready{};
};

struct SimdT {
  std::vector<WaveT*> waves;       // resident, oldest first
  uint32_t prio_waves = 0;         // resident waves with a nonzero s_setprio priority
  uint64_t valu_free = 0, mat_free = 0;
  const WaveT* valu_owner = nullptr;
  const WaveT* mat_owner = nullptr;
  uint64_t next_turn = kNever;
  uint32_t resident = 0;
  uint64_t valu_busy = 0, mfma_busy = 0;
};

// A shared unit's reserved time, as disjoint intervals in start order. Requests are processed
// in the order the waves issue them, but a request can be due well after its issue (behind its
// CU's address path, a busy L2 channel, or a load to LDS whose data arrives later), so a request
// takes the first gap long enough at or after its earliest start: a request processed later
// but due earlier is not held behind a reservation due later (a single "free at" time would
// hold every CU's loads behind one CU's queued stores). Adjacent reservations merge, so a
// saturated unit keeps one interval.
template <class T>
struct Timeline {
  std::vector<std::pair<T, T>> busy;  // [start, end)
  // Reserves `len` from no earlier than `earliest`; returns the start. `now` (the current issue
  // time, non-decreasing over calls, <= earliest) lets reservations that ended be dropped.
  T reserve(T now, T earliest, T len) {
    size_t dead = 0;
    while (dead < busy.size() && busy[dead].second <= now) ++dead;
    if (dead) busy.erase(busy.begin(), busy.begin() + std::ptrdiff_t(dead));
    T st = earliest;
    size_t i = 0;
    for (; i < busy.size(); ++i) {
      if (busy[i].second <= st) continue;
      if (busy[i].first >= st + len) break;  // fits in the gap before this reservation
      st = busy[i].second;
    }
    if (!(len > T(0))) return st;
    const T end = st + len;
    const bool join_prev = i > 0 && busy[i - 1].second == st;
    const bool join_next = i < busy.size() && busy[i].first == end;
    if (join_prev && join_next) {
      busy[i - 1].second = busy[i].second;
      busy.erase(busy.begin() + std::ptrdiff_t(i));
    } else if (join_prev) {
      busy[i - 1].second = end;
    } else if (join_next) {
      busy[i].first = st;
    } else {
      busy.insert(busy.begin() + std::ptrdiff_t(i), {st, end});
    }
    return st;
  }
};

// One LDS port (T5: a SIMD pair's 64 B/clk). DS instructions reserve it from their issue on; a
// load to LDS reserves it when its data arrives.
using LdsPort = Timeline<uint64_t>;

struct CuT {
  std::array<SimdT, 4> simd;
  LdsPort lds_port[2];
  uint64_t ta_free = 0;
  Cache l1;
  uint32_t lds_used = 0;
  bool used = false;
  uint32_t groups = 0;      // resident workgroups
  uint64_t busy_since = 0;  // when `groups` last became nonzero
};

struct GroupT {
  uint32_t cu = 0, live = 0, arrived = 0, first_simd = 0;
  std::vector<WaveT*> waves;
};

struct XcdT {
  Cache l2;
  std::vector<Timeline<double>> channels;
  std::deque<uint32_t> pending;
  uint32_t rr = 0;
};

struct Event {
  uint64_t t;
  uint32_t simd;  // global SIMD index
  bool operator>(const Event& o) const { return t != o.t ? t > o.t : simd > o.simd; }
};

class Sim {
 public:
  Sim(const Recorder& rec, const KernelShape& shape, const DeviceSpec& dev, double clock_mhz, bool keep,
      sim::profile& p)
      : rec_(rec), shape_(shape), dev_(dev), keep_(keep), p_(p), infos_(rec.infos()) {
    hbm_bytes_per_clk_ = dev.hbm_achievable_gbytes_per_s * 1e9 / (clock_mhz * 1e6);
    mall_bytes_per_clk_ = dev.mall_gbytes_per_s * 1e9 / (clock_mhz * 1e6);
    if (dev.mall_bytes) mall_ = Cache(dev.mall_bytes, dev.line_bytes, dev.mall_ways);
    const uint32_t ncu = dev.cus();
    cus_.resize(ncu);
    for (auto& c : cus_) c.l1 = Cache(dev.l1_bytes, dev.line_bytes, dev.l1_ways);
    scalar_.resize((ncu + 1) / 2);
    for (auto& s : scalar_) s = Cache(dev.scalar_cache_bytes, dev.scalar_line_bytes, dev.l1_ways);
    xcds_.resize(dev.xcds);
    for (auto& x : xcds_) {
      x.l2 = Cache(dev.l2_bytes_per_xcd, dev.line_bytes, dev.l2_ways);
      x.channels.assign(dev.l2_channels, {});
    }
    groups_.resize(size_t(shape.groups));
    occupancy();
    // The dwords coherent loads read after atomics (SyncAccess): their additions as they issue.
    for (const auto& gs : rec.groups)
      if (gs)
        for (const WaveStream& ws : gs->waves)
          for (const SyncAccess& a : ws.polls) sync_.try_emplace(a.dword);
    // A returning atomic is held only if it made the run's last addition to its dword (its old
    // value plus its own lanes is every addition: the last arrival, whose work reads the others'
    // parts); the others' old values only order them (a ticket, an arrival that is not last).
    std::unordered_map<uint64_t, uint64_t> total;
    for (const auto& gs : rec.groups)
      if (gs)
        for (const WaveStream& ws : gs->waves)
          for (const SyncAccess& a : ws.atomics) total[a.dword] += a.adds;
    for (const auto& gs : rec.groups)
      if (gs)
        for (const WaveStream& ws : gs->waves) {
          size_t j = 0;  // (both in record order)
          for (const SyncAccess& p : ws.polls) {
            if (!infos_[rec_.info_index(ws.recs[p.rec])].atomic) continue;
            while (j < ws.atomics.size() && ws.atomics[j].rec < p.rec) ++j;
            uint64_t own = 0;
            for (size_t k = j; k < ws.atomics.size() && ws.atomics[k].rec == p.rec; ++k)
              if (ws.atomics[k].dword == p.dword) own += ws.atomics[k].adds;
            if (p.adds + own != total[p.dword]) not_last_.insert(&p);
          }
        }
  }

  void run() {
    for (uint32_t g = 0; g < shape_.groups; ++g) xcds_[g % dev_.xcds].pending.push_back(g);
    for (uint32_t x = 0; x < dev_.xcds; ++x) place(x, 0);
    uint64_t now = 0;
    for (;;) {
      while (!pq_.empty()) {
        Event e = pq_.top();
        pq_.pop();
        SimdT& s = simd_at(e.simd);
        if (s.next_turn != e.t) continue;  // superseded
        s.next_turn = kNever;
        now = e.t;
        now_ = double(now);
        turn(e.simd, e.t);
      }
      if (waiters_.empty()) break;
      // Every wave waits, some for additions the model's order cannot make first (they come
      // from workgroups that are placed only when a waiting one ends: the functional run ordered
      // the workgroups otherwise). Those waits are waived, and counted in the profile.
      for (auto& [dword, waves] : waiters_)
        for (WaveT* o : waves) {
          p_.sync_waits_waived += o->sync_waived != o->pos;
          o->sync_waived = o->pos;
          o->own_valid = false;
          schedule(o->simd, now);
        }
      waiters_.clear();
    }
    for (const auto& g : groups_)
      if (g.live) throw sim::error("timing: internal: a workgroup never finished (deadlock in the model)");
    // The end-of-kernel release writes the dirty L2 lines back: HBM bytes and HBM time.
    uint64_t dirty = 0;
    for (auto& x : xcds_) dirty += x.l2.dirty_lines() * dev_.line_bytes;
    hbm_bytes_ += dirty;
    if (dirty) {
      activity_at(last_done_).hbm += double(dirty);
      const double len = double(dirty) / hbm_bytes_per_clk_;
      const double end = hbm_.reserve(now_, std::max(now_, double(last_done_)), len) + len;
      last_done_ = std::max(last_done_, uint64_t(std::ceil(end)));
    }
  }

  uint64_t end_cycle() const { return std::max(last_end_, last_done_); }

  void finish(uint64_t cycles) {
    p_.hbm_bytes = hbm_bytes_;
    p_.lds_bytes = lds_bytes_;
    p_.vmem_bytes = vmem_bytes_;
    p_.flops = flops_;
    p_.flops_by_dtype = flops_by_dtype_;
    p_.l1_hits = l1_hits_;
    p_.l1_misses = l1_misses_;
    p_.l2_hits = l2_hits_;
    p_.l2_misses = l2_misses_;
    p_.mall_hits = mall_hits_;
    p_.mall_misses = mall_misses_;
    p_.stalls = stalls_;
    p_.wave_instructions = issued_;
    uint32_t used = 0;
    uint64_t valu = 0, mfma = 0;
    for (const auto& c : cus_) {
      used += c.used;
      for (const auto& s : c.simd) {
        valu += s.valu_busy;
        mfma += s.mfma_busy;
      }
    }
    p_.cus_used = used;
    const double simd_cycles = double(used) * dev_.simds_per_cu * double(std::max<uint64_t>(cycles, 1));
    p_.valu_busy = double(valu) / simd_cycles;
    p_.mfma_busy = double(mfma) / simd_cycles;
    const double cu_cycles = double(used) * double(std::max<uint64_t>(cycles, 1));
    p_.lds_bw_fraction = double(lds_bytes_) / (cu_cycles * 2 * dev_.lds_bytes_per_port_clk);
    p_.vmem_bw_fraction = double(vmem_bytes_) / (cu_cycles * double(dev_.line_bytes) / dev_.ta_cycles_per_line);
    // The shared levels' use over the whole schedule (the bound: docs/timing-model.md, Report).
    const double all_cycles = double(std::max<uint64_t>(cycles, 1));
    p_.issue_fraction = double(issued_) * dev_.issue_interval / simd_cycles;
    p_.l2_bw_fraction = double(l2_hits_ + l2_misses_) * dev_.line_bytes /
                        (all_cycles * dev_.xcds * dev_.l2_channels * dev_.l2_bytes_per_channel_clk *
                         dev_.l2_channel_share);
    p_.mall_bw_fraction = double(mall_hits_) * dev_.line_bytes / (all_cycles * mall_bytes_per_clk_);
    p_.hbm_bw_fraction = double(hbm_bytes_) / (all_cycles * hbm_bytes_per_clk_);
  }

 private:
  const Recorder& rec_;
  const KernelShape& shape_;
  const DeviceSpec& dev_;
  const bool keep_;
  sim::profile& p_;
  const std::vector<InstInfo>& infos_;
  double hbm_bytes_per_clk_ = 1;
  Timeline<double> hbm_;  // the device's memory: one queue
  double now_ = 0;        // the issue time being processed (Timeline::reserve's `now`)
  std::vector<CuT> cus_;
  std::vector<Cache> scalar_;
  std::vector<XcdT> xcds_;
  std::vector<GroupT> groups_;
  std::deque<WaveT> wave_pool_;
  std::vector<WaveT*> free_waves_;
  // Cross-workgroup order (SyncAccess): per polled dword, the issued atomics (completion,
  // additions) and the waves waiting for more.
  struct SyncDword {
    std::vector<std::pair<uint64_t, uint32_t>> done;  // sorted by completion
    uint64_t added = 0;
  };
  std::unordered_map<uint64_t, SyncDword> sync_;
  std::unordered_set<const SyncAccess*> not_last_;  // returning atomics' entries not held (above)
  mutable std::unordered_map<uint64_t, std::vector<WaveT*>> waiters_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> pq_;

  // ---- device activity over time (docs/timing-model.md, Clock and power): per window of
  // clock_window_cycles, CU-cycles with a workgroup, MFMA and VALU busy SIMD-cycles, HBM bytes.
  struct Activity {
    double cu = 0, mfma = 0, mfma_int = 0, valu = 0, hbm = 0;
  };
  std::vector<Activity> activity_;
  Activity& activity_at(uint64_t t) {
    const size_t i = size_t(t / dev_.clock_window_cycles);
    if (i >= activity_.size()) activity_.resize(i + 1);
    return activity_[i];
  }
  void cu_busy(uint64_t from, uint64_t to) {
    const uint64_t w = dev_.clock_window_cycles;
    for (uint64_t a = from; a < to;) {
      const uint64_t b = std::min(to, (a / w + 1) * w);
      activity_at(a).cu += double(b - a);
      a = b;
    }
  }

 public:
  // The schedule's phases up to `end` with their activity as device-wide fractions (the clock
  // is set by clock_phases()).
  std::vector<sim::clock_phase> phases(uint64_t end) {
    std::vector<sim::clock_phase> out;
    const uint64_t w = dev_.clock_window_cycles;
    const double cus = double(cus_.size()), simds = cus * dev_.simds_per_cu;
    for (uint64_t a = 0; a < std::max<uint64_t>(end, 1); a += w) {
      const uint64_t b = std::min(std::max<uint64_t>(end, 1), a + w);
      const Activity& x = activity_at(a);
      const double len = double(b - a);
      sim::clock_phase ph;
      ph.start = a;
      ph.end = b;
      ph.active_cus = std::min(1.0, x.cu / (cus * len));
      ph.mfma = std::min(1.0, x.mfma / (simds * len));
      ph.mfma_int = std::min(ph.mfma, x.mfma_int / (simds * len));
      ph.valu = std::min(1.0, x.valu / (simds * len));
      ph.hbm = x.hbm / (hbm_bytes_per_clk_ * len);
      out.push_back(ph);
    }
    return out;
  }

 private:
  uint32_t simd_limit_ = 8;
  uint64_t last_end_ = 0, last_done_ = 0;
  uint64_t hbm_bytes_ = 0, lds_bytes_ = 0, vmem_bytes_ = 0, issued_ = 0;
  uint64_t l1_hits_ = 0, l1_misses_ = 0, l2_hits_ = 0, l2_misses_ = 0, mall_hits_ = 0, mall_misses_ = 0;
  double mall_bytes_per_clk_ = 1;
  Timeline<double> mall_port_;
  Cache mall_;  // device-wide (absent with mall_bytes 0)
  double flops_ = 0;
  std::array<double, sim::kPeakDtypes> flops_by_dtype_{};
  std::array<uint64_t, sim::kStallReasons> stalls_{};

  SimdT& simd_at(uint32_t g) { return cus_[g / 4].simd[g % 4]; }

  // Waves per SIMD the resources allow, and what limits them (T1).
  void occupancy() {
    struct Lim { uint32_t n; const char* what; };
    Lim lims[] = {
        {dev_.wave_slots_per_simd, "wave slots"},
        {shape_.vgprs ? dev_.vgprs_per_simd_lane / shape_.vgprs : dev_.wave_slots_per_simd, "VGPR+AGPR"},
        {shape_.sgprs ? dev_.sgprs_per_simd / shape_.sgprs : dev_.wave_slots_per_simd, "SGPR"},
    };
    Lim best = lims[0];
    for (const Lim& l : lims)
      if (l.n < best.n) best = l;
    simd_limit_ = best.n;
    const uint32_t per_simd = (shape_.waves_per_group + dev_.simds_per_cu - 1) / dev_.simds_per_cu;
    uint32_t groups = per_simd ? best.n / per_simd : 0;
    std::string limiter = best.what;
    if (per_simd && best.n % per_simd && groups * per_simd < best.n && best.n == dev_.wave_slots_per_simd)
      limiter = "workgroup size";
    if (shape_.lds_bytes) {
      const uint32_t by_lds = dev_.lds_bytes_per_cu / shape_.lds_bytes;
      if (by_lds < groups) {
        groups = by_lds;
        limiter = "LDS";
      }
    }
    if (groups == 0)
      throw sim::error("timing: a workgroup of " + std::to_string(shape_.waves_per_group) + " waves with " +
                      std::to_string(shape_.vgprs) + " VGPRs+AGPRs, " + std::to_string(shape_.sgprs) + " SGPRs and " +
                      std::to_string(shape_.lds_bytes) + " bytes of LDS does not fit on one CU of " +
                      std::string(dev_.name));
    p_.waves_per_simd = std::min<uint32_t>(groups * per_simd, best.n);
    p_.occupancy_limiter = limiter;
  }

  // The SIMD a new workgroup's wave 0 goes to: the one with the fewest resident waves (lowest index on a
  // tie); wave i then goes to (first + i) mod 4. On an empty CU this is T1's "waves i and i+4 share a
  // SIMD"; for groups of fewer than 4 waves it spreads the groups over the SIMDs, as LLVM's occupancy
  // model assumes (AMDGPUBaseInfo getMaxWorkGroupsPerCU: single-wave workgroups reach
  // max-waves-per-EU x EUs-per-CU = 32 per CU, which one SIMD's 8 slots could not hold).
  uint32_t first_simd(const CuT& c) const {
    uint32_t best = 0;
    for (uint32_t s = 1; s < dev_.simds_per_cu; ++s)
      if (c.simd[s].resident < c.simd[best].resident) best = s;
    return best;
  }
  uint32_t simd_of(uint32_t first, uint32_t wave) const { return (first + wave) % dev_.simds_per_cu; }

  bool fits(const CuT& c) const {
    if (shape_.lds_bytes && c.lds_used + shape_.lds_bytes > dev_.lds_bytes_per_cu) return false;
    const uint32_t first = first_simd(c);
    for (uint32_t k = 0; k < dev_.simds_per_cu; ++k) {
      const uint32_t need = (shape_.waves_per_group + dev_.simds_per_cu - 1 - k) / dev_.simds_per_cu;
      if (c.simd[simd_of(first, k)].resident + need > simd_limit_) return false;
    }
    return true;
  }

  // Dispatches the XCD's pending workgroups (in order) round-robin over its CUs with room.
  void place(uint32_t x, uint64_t t) {
    XcdT& xc = xcds_[x];
    while (!xc.pending.empty()) {
      uint32_t found = kNeverCu;
      for (uint32_t k = 0; k < dev_.cus_per_xcd; ++k) {
        const uint32_t cu = x * dev_.cus_per_xcd + (xc.rr + k) % dev_.cus_per_xcd;
        if (fits(cus_[cu])) { found = cu; break; }
      }
      if (found == kNeverCu) return;
      xc.rr = (found - x * dev_.cus_per_xcd + 1) % dev_.cus_per_xcd;
      start_group(xc.pending.front(), found, t);
      xc.pending.pop_front();
    }
  }
  static constexpr uint32_t kNeverCu = ~0u;

  void start_group(uint32_t g, uint32_t cu, uint64_t t) {
    CuT& c = cus_[cu];
    c.used = true;
    c.lds_used += shape_.lds_bytes;
    if (c.groups++ == 0) c.busy_since = t;
    GroupT& G = groups_[g];
    G.cu = cu;
    G.arrived = 0;
    const GroupStream* gs = rec_.groups[g].get();
    G.live = 0;
    G.first_simd = first_simd(c);
    for (uint32_t i = 0; i < shape_.waves_per_group; ++i) {
      const WaveStream* ws = gs ? &gs->waves[i] : nullptr;
      const uint32_t s = simd_of(G.first_simd, i);  // T1: waves i and i+4 share a SIMD
      auto& info = p_.waves_info[size_t(g) * shape_.waves_per_group + i];
      info.workgroup = uint32_t(g * shape_.group_stride);
      info.wave_in_group = i;
      info.cu = cu % dev_.cus_per_xcd;
      info.xcd = cu / dev_.cus_per_xcd;
      info.simd = s;
      info.slot = c.simd[s].resident;
      info.start = info.end = t;
      c.simd[s].resident++;
      if (!ws || ws->recs.empty()) {
        c.simd[s].resident--;
        continue;
      }
      WaveT* w = new_wave();
      w->stream = ws;
      w->pos = 0;
      w->next = &infos_[rec_.info_index(ws->recs[0])];
      w->gid = g * shape_.waves_per_group + i;
      w->group = g;
      w->simd = cu * 4 + s;
      w->cu = cu;
      // The wave's first chance is its SIMD's first turn at or after t (T2 round-robin).
      const uint64_t iv = dev_.issue_interval, phase = s;
      w->own_ready = w->turn_ready = t + (phase + iv - t % iv) % iv;
      w->own_reason = stall_reason::count;
      w->at_barrier = w->done = false;
      w->prio = 0;
      w->own_valid = false;
      w->vready.assign(dev_.vgprs_per_simd_lane, 0);
      w->vmfma.assign(dev_.vgprs_per_simd_lane, 0);
      w->sready.fill(0);
      w->out.clear();
      w->last_vm_done = w->last_ds_done = 0;
      w->atomic_pos = w->poll_pos = 0;
      w->sync_waived = SIZE_MAX;
      info.instructions = ws->recs.size();
      c.simd[s].waves.push_back(w);
      G.waves.push_back(w);
      ++G.live;
      schedule(w->simd, t);
    }
    if (G.live == 0) finish_group(g, t);
  }

  WaveT* new_wave() {
    if (!free_waves_.empty()) {
      WaveT* w = free_waves_.back();
      free_waves_.pop_back();
      return w;
    }
    wave_pool_.emplace_back();
    return &wave_pool_.back();
  }

  void finish_group(uint32_t g, uint64_t t) {
    GroupT& G = groups_[g];
    CuT& c = cus_[G.cu];
    c.lds_used -= shape_.lds_bytes;
    if (--c.groups == 0) cu_busy(c.busy_since, t);
    for (uint32_t i = 0; i < shape_.waves_per_group; ++i) {
      const uint32_t s = simd_of(G.first_simd, i);
      const GroupStream* gs = rec_.groups[g].get();
      if (gs && !gs->waves[i].recs.empty()) c.simd[s].resident--;
    }
    for (WaveT* w : G.waves) {
      SimdT& ws = cus_[w->cu].simd[w->simd % 4];
      ws.waves.erase(std::find(ws.waves.begin(), ws.waves.end(), w));
      if (w->prio) --ws.prio_waves;
      free_waves_.push_back(w);
    }
    G.waves.clear();
    place(G.cu / dev_.cus_per_xcd, t);
  }

  void schedule(uint32_t simd, uint64_t t) {
    const uint64_t phase = simd % 4, iv = dev_.issue_interval;
    uint64_t a = t + (phase + iv - t % iv) % iv;  // next cycle of this SIMD's turn
    SimdT& s = simd_at(simd);
    if (a < s.next_turn) {
      s.next_turn = a;
      pq_.push({a, simd});
    }
  }

  // ---- register scoreboard
  int sreg_index(const Operand& o, int d) const {
    switch (o.kind) {
      case Operand::Sgpr: return o.reg + d < 128 ? o.reg + d : -1;
      case Operand::Vcc: return 106 + ((o.reg + d) & 1);
      case Operand::Exec: return 126 + ((o.reg + d) & 1);
      case Operand::M0: return 124;
      case Operand::Scc: return kScc;
      default: return -1;
    }
  }
  int vreg_index(const Operand& o, int d) const {
    int r = o.kind == Operand::Agpr ? int(shape_.accum_offset) + o.reg + d : o.reg + d;
    return r < int(dev_.vgprs_per_simd_lane) ? r : -1;
  }

  // Latest write among the instruction's sources; *mfma when an MFMA wrote the latest.
  uint64_t sources_ready(const WaveT& w, const Inst& in, bool* mfma) const {
    uint64_t t = 0;
    *mfma = false;
    auto use = [&](const Operand& o) {
      const int n = o.kind == Operand::Vgpr || o.kind == Operand::Agpr || o.kind == Operand::Sgpr ? o.dwords
                    : o.kind == Operand::Vcc || o.kind == Operand::Exec ? (o.dwords > 1 ? 2 : 1) : 1;
      for (int d = 0; d < n; ++d) {
        if (o.is_vector()) {
          const int r = vreg_index(o, d);
          if (r >= 0 && w.vready[size_t(r)] > t) {
            t = w.vready[size_t(r)];
            *mfma = w.vmfma[size_t(r)];
          }
        } else {
          const int r = sreg_index(o, d);
          if (r >= 0 && w.sready[size_t(r)] > t) {
            t = w.sready[size_t(r)];
            *mfma = false;
          }
        }
      }
    };
    for (int i = 0; i < in.num_src; ++i) use(in.src[size_t(i)]);
    if (in.num_src == 0)
      for (const Operand& o : in.src)
        if (o.kind != Operand::None) use(o);
    if (in.cls & C_READS_SCC) use(Operand{Operand::Scc});
    if (in.cls & C_READS_VCC) use(Operand{Operand::Vcc, 0, 2});
    if (in.cls & (C_VALU | C_VMEM | C_DS | C_FLAT | C_READS_EXEC)) use(Operand{Operand::Exec, 0, 2});
    if (in.cls & C_READS_M0) use(Operand{Operand::M0});
    return t;
  }

  void write_dsts(WaveT& w, const Inst& in, uint64_t t, bool mfma) {
    for (int i = 0; i < in.num_dst; ++i) {
      const Operand& o = in.dst[size_t(i)];
      const int n = o.is_reg() ? o.dwords : o.kind == Operand::Vcc || o.kind == Operand::Exec ? 2 : 1;
      for (int d = 0; d < n; ++d) {
        if (o.is_vector()) {
          const int r = vreg_index(o, d);
          if (r >= 0) {
            w.vready[size_t(r)] = t;
            w.vmfma[size_t(r)] = mfma;
          }
        } else {
          const int r = sreg_index(o, d);
          if (r >= 0) w.sready[size_t(r)] = t;
        }
      }
    }
    if (in.cls & C_WRITES_SCC) w.sready[kScc] = t;
    if (in.cls & C_WRITES_VCC) w.sready[106] = w.sready[107] = t;
    if (in.cls & C_WRITES_EXEC) w.sready[126] = w.sready[127] = t;
    if (in.cls & C_WRITES_M0) w.sready[124] = t;
  }

  // When the operations on `counter` drop to `limit`: the (n - limit)-th earliest completion.
  static uint64_t counter_time(const WaveT& w, uint8_t counter, unsigned limit, uint32_t* conflict) {
    thread_local std::vector<uint64_t> buf;
    buf.clear();
    for (const Outstanding& o : w.out)
      if (o.counters & counter) buf.push_back(o.done);  // completed ones too: their times are past
    const size_t n = buf.size();
    if (n <= limit) return 0;
    std::nth_element(buf.begin(), buf.begin() + std::ptrdiff_t(n - limit - 1), buf.end());
    const uint64_t t = buf[n - limit - 1];
    if (conflict) {  // bank-conflict cycles of the operations since the last s_waitcnt (which
                     // pruned the older ones): they delayed each other on the port
      uint32_t c = 0;
      for (const Outstanding& o : w.out)
        if ((o.counters & counter) && o.done <= t) c += o.conflict;
      *conflict = c;
    }
    return t;
  }

  using Ready = WaveT::Own;

  // The wave's own constraints (cadence, s_nop, sources, s_waitcnt) change only when it issues
  // or leaves a barrier, so they are computed once per instruction; the SIMD's units are not.
  Ready own_constraints(const WaveT& w) const {
    const Rec& r = w.stream->recs[w.pos];
    const InstInfo& f = infos_[rec_.info_index(r)];
    const Inst& in = rec_.inst(r);
    Ready e{w.own_ready, w.own_reason};
    auto bump = [&](uint64_t x, stall_reason why) {
      if (x > e.t) {
        e.t = x;
        e.reason = why;
      }
    };
    bool mfma_src = false;
    switch (f.kind) {
      case Kind::Waitcnt: {
        const uint16_t imm = in.mod.simm16;
        const unsigned vm = sim::waitcnt_vmcnt(imm), lgkm = sim::waitcnt_lgkmcnt(imm);
        bump(counter_time(w, 1, vm, nullptr), stall_reason::vmcnt);
        uint32_t conflict = 0;
        const uint64_t lt = counter_time(w, 2, lgkm, &conflict);
        if (lt > e.t) {
          e.t = lt;
          e.reason = stall_reason::lgkmcnt;
          e.lds_conflict = conflict;
        }
        break;
      }
      case Kind::Nop: case Kind::Sleep: case Kind::Barrier: case Kind::Endpgm: case Kind::SetPrio:
      case Kind::Internal:
        break;
      default: {
        const uint64_t src = sources_ready(w, in, &mfma_src);
        bump(src, mfma_src ? stall_reason::mfma_dep : stall_reason::register_dep);
        break;
      }
    }
    // A coherent load that read a dword after n atomic additions: not before the model has
    // completed n of them (a wait for memory: counted as vmcnt); fewer issued so far: the wave
    // waits for the next one (issue() wakes it).
    // A returning atomic that saw n additions (and made the last: not_last_): its own reaches
    // the L2 after the n-th was performed there, an L2 round trip (l2_hit_latency) before that
    // one's completion.
    const std::vector<SyncAccess>& polls = w.stream->polls;
    for (size_t i = w.poll_pos; i < polls.size() && polls[i].rec == w.pos && w.sync_waived != w.pos; ++i) {
      if (f.atomic && not_last_.count(&polls[i])) continue;
      uint64_t at = additions_done(polls[i], w);
      if (f.atomic && at != kNever) at = at > dev_.l2_hit_latency ? at - dev_.l2_hit_latency : 0;
      bump(at, stall_reason::vmcnt);
    }
    return e;
  }

  // When the model has completed a.adds additions to a.dword (kNever, and w waits, when fewer
  // have issued).
  uint64_t additions_done(const SyncAccess& a, const WaveT& w) const {
    const SyncDword& st = sync_.at(a.dword);
    if (st.added < a.adds) {
      waiters_[a.dword].push_back(const_cast<WaveT*>(&w));
      return kNever;
    }
    uint64_t n = 0;
    for (const auto& [t, adds] : st.done)
      if ((n += adds) >= a.adds) return t;
    return kNever;  // (unreachable: added >= a.adds)
  }

  Ready earliest(const WaveT& w) const {
    if (w.at_barrier) return {kNever, stall_reason::barrier};
    if (!w.own_valid) {
      w.own = own_constraints(w);
      w.own_valid = true;
    }
    Ready e = w.own;
    const InstInfo& f = *w.next;
    const SimdT& s = cus_[w.cu].simd[w.simd % 4];
    auto bump = [&](uint64_t x, stall_reason why) {
      if (x > e.t) {
        e.t = x;
        e.reason = why;
      }
    };
    auto unit = [&](uint64_t free, const WaveT* owner, stall_reason own) {
      bump(free, owner == &w ? own : stall_reason::issue_conflict);
    };
    switch (f.kind) {
      case Kind::Valu: case Kind::Trans:
        unit(s.valu_free, s.valu_owner, stall_reason::unit_busy);
        break;
      case Kind::PackedF32:  // T4: packed FP32 never co-issues with an MFMA
        unit(s.valu_free, s.valu_owner, stall_reason::unit_busy);
        unit(s.mat_free, s.mat_owner, stall_reason::mfma_dep);
        break;
      case Kind::Mfma: case Kind::Dgemm:
        unit(s.valu_free, s.valu_owner, stall_reason::unit_busy);
        unit(s.mat_free, s.mat_owner, stall_reason::mfma_dep);
        break;
      case Kind::Vmem: case Kind::Flat:
        if (w.out.size() >= dev_.vmcnt_max) {
          unsigned n = 0;
          for (const Outstanding& o : w.out) n += (o.counters & 1) != 0;
          if (n >= dev_.vmcnt_max) bump(counter_time(w, 1, dev_.vmcnt_max - 1, nullptr), stall_reason::vmcnt);
        }
        break;
      default: break;
    }
    return e;
  }

  static unsigned category(Kind k) {
    switch (k) {
      case Kind::Valu: case Kind::Trans: case Kind::PackedF32: case Kind::Mfma: case Kind::Dgemm: return 1;
      case Kind::Vmem: case Kind::Flat: return 2;
      case Kind::Salu: case Kind::Smem: return 4;
      case Kind::Ds: return 8;
      case Kind::Branch: return 16;
      default: return 0;  // internal: no functional unit
    }
  }

  void turn(uint32_t simd_index, uint64_t t) {
    SimdT& s = simd_at(simd_index);
    unsigned used = 0;
    uint64_t next = kNever;
    // Copy: issuing s_endpgm can retire a whole workgroup and edit s.waves.
    WaveT* list[64];
    const size_t n = std::min<size_t>(s.waves.size(), 64);
    std::copy_n(s.waves.begin(), n, list);
    // ISA (S_SETPRIO): a wave's priority is {user priority, age}: higher s_setprio first, the
    // oldest first among equals (s.waves is oldest first; the sort is stable).
    if (s.prio_waves) std::stable_sort(list, list + n, [](const WaveT* a, const WaveT* b) { return a->prio > b->prio; });
    for (size_t i = 0; i < n; ++i) {
      WaveT* w = list[i];
      if (w->done) continue;
      const Ready e = earliest(*w);
      if (e.t > t) {
        next = std::min(next, e.t);
        continue;
      }
      const unsigned cat = category(w->next->kind);
      if (cat & used) {
        next = std::min(next, t + 1);
        continue;
      }
      used |= cat;
      issue(*w, t, e);
      if (!w->done && !w->at_barrier) next = std::min(next, earliest(*w).t);
    }
    if (next != kNever) schedule(simd_index, next);
  }

  void account_stall(WaveT& w, const Rec& r, uint64_t t, const Ready& e, sim::profile_event* ev) {
    const uint64_t ideal = w.turn_ready;
    stall_reason main = stall_reason::count;
    if (t > ideal) {
      auto& hot = p_.insts[rec_.info_index(r)];
      auto add = [&](stall_reason why, uint64_t c) {
        if (!c) return;
        stalls_[size_t(why)] += c;
        hot.stalls[size_t(why)] += c;
        hot.stall_cycles += c;
        if (main == stall_reason::count) main = why;
      };
      const uint64_t until = std::min(std::max(e.t, ideal), t);
      uint64_t own = until - ideal;
      if (e.reason == stall_reason::lgkmcnt && e.lds_conflict) {
        const uint64_t c = std::min<uint64_t>(own, e.lds_conflict);
        add(stall_reason::lds_bank_conflict, c);
        own -= c;
      }
      add(e.reason == stall_reason::count ? stall_reason::issue_conflict : e.reason, own);
      add(stall_reason::issue_conflict, t - until);
    }
    if (ev) {
      ev->ready = ideal;
      ev->reason = main;
    }
  }

  // The L2 channel of a line: the XCD's channels take turns every l2_interleave_bytes of address,
  // and a hash spreads the requests (a power-of-two stride must not pile onto one channel): the
  // low 24 bits of the interleave block's index XOR-folded in groups of log2(channels) bits (the
  // form is assumed; the sources give the interleave and the hash's purpose, not its bits).
  size_t l2_channel(uint64_t line) const {
    const uint64_t a = line * dev_.line_bytes / dev_.l2_interleave_bytes;
    const uint64_t n = dev_.l2_channels;
    if (dev_.l2_channel_hash && n > 1 && (n & (n - 1)) == 0) {
      const unsigned bits = unsigned(std::countr_zero(n));
      uint64_t h = 0;
      for (unsigned s = 0; s < 24; s += bits) h ^= (a >> s) & (n - 1);
      return size_t(h);
    }
    return size_t(a % n);
  }

  // Channel cycles of an atomic request applying `elements` on the line (elements_per_lane each:
  // 2 for a packed 16-bit pair), `serial` lanes on its most-used address: the atomic unit performs
  // l2_atomic_ops_per_clk operations a cycle, a lane one (a packed pair l2_atomic_packed_lane_ops),
  // and the lanes on one address one after another, l2_atomic_cycles each (device.hpp).
  double l2_atomic_busy(uint32_t serial, uint32_t elements, uint32_t elements_per_lane) const {
    const double lanes = double(elements) / elements_per_lane;
    const double ops = elements_per_lane == 2 ? lanes * dev_.l2_atomic_packed_lane_ops : lanes;
    return std::max(double(serial) * dev_.l2_atomic_cycles, ops / dev_.l2_atomic_ops_per_clk);
  }

  uint64_t vector_access(CuT& c, XcdT& x, uint64_t line, uint64_t t, const InstInfo& f, uint64_t* hbm,
                         GroupStream::AtomicLine ops = {}) {
    const bool store = f.store || f.atomic;
    uint32_t slot = Cache::kNoSlot;
    if (!store && !f.bypass_l1) {
      if (c.l1.access(line, false, false, nullptr, &slot)) {
        ++l1_hits_;
        return std::max(t + dev_.l1_hit_latency, c.l1.ready(slot));
      }
      ++l1_misses_;
    }
    const size_t ch = l2_channel(line);
    double busy = std::max(1.0, double(dev_.line_bytes) / dev_.l2_bytes_per_channel_clk);
    // An atomic's lanes: the last one's result is ready that long after the first cycle.
    uint64_t serial_wait = 0;
    if (f.atomic) {
      const double a = l2_atomic_busy(ops.serial, ops.elements, f.atomic_elements);
      busy = std::max(busy, a);
      serial_wait = uint64_t(std::max(0.0, a - 1.0));
    }
    const double cs = x.channels[ch].reserve(now_, double(t), busy / dev_.l2_channel_share);
    bool dirty_out = false;
    uint64_t done;
    uint32_t l2_slot = Cache::kNoSlot;
    const double xfer = dev_.line_bytes / hbm_bytes_per_clk_;  // a line's HBM time (a fill or a write-back)
    if (x.l2.access(line, true, store, &dirty_out, &l2_slot)) {
      ++l2_hits_;
      done = std::max(uint64_t(cs) + dev_.l2_hit_latency, x.l2.ready(l2_slot)) + serial_wait;
    } else {
      ++l2_misses_;
      if (store) {  // full-line write allocate: no read from memory
        done = uint64_t(cs) + dev_.l2_hit_latency + serial_wait;
      } else if (uint32_t ms = Cache::kNoSlot; dev_.mall_bytes && mall_.access(line, true, false, nullptr, &ms)) {
        // Infinity Cache hit: the line streams at the MALL's bandwidth, not HBM's (once there).
        ++mall_hits_;
        const double mx = dev_.line_bytes / mall_bytes_per_clk_;
        const double m = mall_port_.reserve(now_, cs, mx);
        done = std::max(uint64_t(m + mx) + dev_.hbm_latency, mall_.ready(ms));
      } else {
        mall_misses_ += dev_.mall_bytes != 0;  // (and now allocated in the MALL)
        const double h = hbm_.reserve(now_, cs, xfer);
        *hbm += dev_.line_bytes;
        activity_at(uint64_t(h)).hbm += dev_.line_bytes;
        done = uint64_t(h + xfer) + dev_.hbm_latency;
        if (dev_.mall_bytes) mall_.set_ready(ms, done);
      }
      x.l2.set_ready(l2_slot, done);
    }
    if (dirty_out) {  // write-back of the victim takes HBM time
      const double wb = hbm_.reserve(now_, cs, xfer) + xfer;
      *hbm += dev_.line_bytes;
      activity_at(uint64_t(wb)).hbm += dev_.line_bytes;
    }
    if (!store && !f.bypass_l1) {
      c.l1.access(line, true, false, nullptr, &slot);
      c.l1.set_ready(slot, done);
    }
    return done;
  }

  void release_barrier(GroupT& G, uint64_t t) {
    G.arrived = 0;
    for (WaveT* o : G.waves) {
      if (!o->at_barrier) continue;
      o->at_barrier = false;
      o->own_valid = false;
      o->own_ready = std::max(o->own_ready, t + dev_.barrier_release);
      o->own_reason = stall_reason::barrier;
      schedule(o->simd, o->own_ready);
    }
  }

  void issue(WaveT& w, uint64_t t, const Ready& e) {
    const Rec& r = w.stream->recs[w.pos];
    const InstInfo& f = infos_[rec_.info_index(r)];
    const Inst& in = rec_.inst(r);
    SimdT& s = cus_[w.cu].simd[w.simd % 4];
    CuT& c = cus_[w.cu];
    sim::profile_event ev;
    sim::profile_event* evp = keep_ ? &ev : nullptr;
    account_stall(w, r, t, e, evp);
    // A wave that rarely waits still drops the operations that have completed.
    if (w.out.size() > 2 * dev_.vmcnt_max) std::erase_if(w.out, [&](const Outstanding& o) { return o.done <= t; });
    ++p_.insts[rec_.info_index(r)].issued;
    ++issued_;
    w.own_ready = t + dev_.issue_interval;
    w.own_reason = stall_reason::count;
    uint64_t done = t + dev_.issue_interval;
    switch (f.kind) {
      case Kind::Valu: case Kind::PackedF32: case Kind::Trans: {
        const uint64_t busy = f.kind == Kind::Trans ? dev_.trans_cycles : dev_.valu_cycles;
        s.valu_free = t + busy;
        s.valu_owner = &w;
        s.valu_busy += busy;
        activity_at(t).valu += busy;
        done = t + busy;
        write_dsts(w, in, done, false);
        if (f.valu_flops_per_lane) {
          flops_ += f.flops_per_wave * r.lanes;
          flops_by_dtype_[size_t(f.dtype)] += f.flops_per_wave * r.lanes;
        }
        ev.unit = sim::profile_event::valu;
        break;
      }
      case Kind::Mfma: case Kind::Dgemm: {
        const uint64_t pipe = uint64_t(f.passes) * dev_.cycles_per_pass;
        const bool sparse = in.mnemonic.starts_with("v_smfmac");
        const uint64_t vbusy = f.coexec ? (sparse ? dev_.smfmac_coexec_delay : dev_.mfma_coexec_delay) : pipe;
        s.valu_free = t + vbusy;
        s.valu_owner = &w;
        s.mat_free = t + pipe;
        s.mat_owner = &w;
        s.mfma_busy += pipe;
        activity_at(t).mfma += pipe;
        if (f.int_matrix) activity_at(t).mfma_int += pipe;
        if (f.kind == Kind::Dgemm) s.valu_busy += pipe, activity_at(t).valu += pipe;
        done = t + pipe;
        write_dsts(w, in, done, true);
        flops_ += f.flops_per_wave;
        if (f.dtype != sim::peak_dtype::count) flops_by_dtype_[size_t(f.dtype)] += f.flops_per_wave;
        ev.unit = sim::profile_event::mfma;
        break;
      }
      case Kind::Salu: case Kind::Branch:
        done = t + dev_.salu_latency;
        write_dsts(w, in, done, false);
        break;
      case Kind::Smem: {
        uint64_t d = t;
        const GroupStream& gs = *rec_.groups[w.group];
        Cache& sc = scalar_[w.cu / 2];
        for (uint32_t k = 0; k < r.b; ++k) {
          const uint64_t sline = gs.lines[r.a + k];
          uint64_t lt;
          uint32_t slot = Cache::kNoSlot;
          if (sc.access(sline, true, false, nullptr, &slot)) lt = std::max(t + dev_.scalar_hit_latency, sc.ready(slot));
          else {
            const uint64_t line = sline * dev_.scalar_line_bytes / dev_.line_bytes;
            uint64_t dummy = 0;
            InstInfo li;
            li.bypass_l1 = true;
            li.store = f.store;
            lt = vector_access(c, xcds_[w.cu / dev_.cus_per_xcd], line, t, li, &dummy);
            hbm_bytes_ += dummy;
            sc.set_ready(slot, lt);
          }
          d = std::max(d, lt);
        }
        if (r.b == 0) d = t + dev_.scalar_hit_latency;  // s_memtime and friends
        done = d;
        w.out.push_back({done, 2, 0});
        ev.unit = sim::profile_event::smem;
        ev.bytes = r.bytes;
        break;
      }
      case Kind::Ds: {
        const uint64_t st = c.lds_port[(w.simd % 4) / 2].reserve(t, t, r.a);
        done = std::max(st + r.a + dev_.lds_base_latency, w.last_ds_done);  // T5: in order
        w.last_ds_done = done;
        w.out.push_back({done, 2, r.a - r.b});
        lds_bytes_ += r.bytes;
        ev.unit = sim::profile_event::lds;
        ev.bytes = r.bytes;
        break;
      }
      case Kind::Vmem: case Kind::Flat: {
        const uint64_t st = std::max(t, c.ta_free);
        // T6: the CU's address path takes 4 cycles per line; a load to LDS at least lds_dma_cycles.
        c.ta_free = st + std::max<uint64_t>(uint64_t(std::max<uint32_t>(1, r.b)) * dev_.ta_cycles_per_line,
                                            f.lds_dma ? dev_.lds_dma_cycles : 0);
        uint64_t d = st + dev_.l1_hit_latency;
        const GroupStream& gs = *rec_.groups[w.group];
        XcdT& x = xcds_[w.cu / dev_.cus_per_xcd];
        for (uint32_t k = 0; k < r.b; ++k)
          d = std::max(d, vector_access(c, x, gs.lines[r.a + k], st + uint64_t(k) * dev_.ta_cycles_per_line, f,
                                        &hbm_bytes_, f.atomic ? gs.atomic_ops(r.a + k) : GroupStream::AtomicLine{}));
        // A load to LDS writes its data into the LDS when it arrives: 64 lanes x 4 B through one
        // port (the CU's, or the wave's SIMD pair's: lds_dma_one_port), at the cost T5 gives a
        // 64-lane 4-byte store (8 cycles: 50% of the port's 64 B/clk, address and data sharing
        // the input). vmcnt counts the load until the write is done.
        if (f.lds_dma) {
          LdsPort& port = c.lds_port[dev_.lds_dma_one_port ? 0 : (w.simd % 4) / 2];
          d = port.reserve(t, d, dev_.lds_dma_write_cycles) + dev_.lds_dma_write_cycles;
        }
        done = std::max(d, w.last_vm_done);  // vmcnt: returns in order
        w.last_vm_done = done;
        w.out.push_back({done, uint8_t(f.kind == Kind::Flat ? 3 : 1), 0});
        vmem_bytes_ += r.bytes;
        if (f.lds_dma) lds_bytes_ += r.bytes;
        ev.unit = sim::profile_event::vmem;
        ev.bytes = r.bytes;
        break;
      }
      case Kind::Nop: {
        const uint64_t until = t + 1 + (in.mod.simm16 & 0xf);
        if (until > w.own_ready) {
          w.own_ready = until;
          w.own_reason = stall_reason::nop_sleep;
        }
        done = until;
        break;
      }
      case Kind::SetPrio:
        if ((w.prio != 0) != (f.prio != 0)) f.prio ? ++s.prio_waves : --s.prio_waves;
        w.prio = f.prio;
        break;
      case Kind::Sleep: {
        const uint64_t until = t + uint64_t(in.mod.simm16 & 0x7f) * dev_.sleep_cycles_per_unit;
        if (until > w.own_ready) {
          w.own_ready = until;
          w.own_reason = stall_reason::nop_sleep;
        }
        done = until;
        break;
      }
      case Kind::Waitcnt: {
        // Completed operations no longer count.
        std::erase_if(w.out, [&](const Outstanding& o) { return o.done <= t; });
        break;
      }
      default: break;
    }
    last_done_ = std::max(last_done_, done);
    // An atomic on a polled dword: the loads waiting for it may issue (or wait for the next).
    const std::vector<SyncAccess>& atomics = w.stream->atomics;
    for (size_t i = w.atomic_pos; i < atomics.size() && atomics[i].rec == w.pos; ++i) {
      const auto st = sync_.find(atomics[i].dword);
      if (st == sync_.end()) continue;
      auto& d = st->second.done;
      const std::pair<uint64_t, uint32_t> add{done, atomics[i].adds};
      d.insert(std::upper_bound(d.begin(), d.end(), add), add);
      st->second.added += atomics[i].adds;
      const auto wt = waiters_.find(atomics[i].dword);
      if (wt == waiters_.end()) continue;
      for (WaveT* o : wt->second) {
        o->own_valid = false;
        schedule(o->simd, t);
      }
      waiters_.erase(wt);
    }
    if (keep_) {
      ev.wave = w.gid;
      ev.inst = rec_.info_index(r);
      ev.issue = t;
      ev.done = done;
      p_.events.push_back(ev);
    }
    ++w.pos;
    while (w.atomic_pos < atomics.size() && atomics[w.atomic_pos].rec < w.pos) ++w.atomic_pos;
    while (w.poll_pos < w.stream->polls.size() && w.stream->polls[w.poll_pos].rec < w.pos) ++w.poll_pos;
    // The streams of thousands of waves are read in turn: fetch this one's next records early.
    if (w.pos + 8 < w.stream->recs.size()) __builtin_prefetch(&w.stream->recs[w.pos + 8]);
    if (w.pos < w.stream->recs.size()) w.next = &infos_[rec_.info_index(w.stream->recs[w.pos])];
    w.own_valid = false;
    w.turn_ready = w.own_ready;
    GroupT& G = groups_[w.group];
    if (f.kind == Kind::Barrier) {
      w.at_barrier = true;
      if (++G.arrived == G.live) release_barrier(G, t);
    }
    if (f.kind == Kind::Endpgm || w.pos >= w.stream->recs.size()) {
      w.done = true;
      p_.waves_info[w.gid].end = t;
      last_end_ = std::max(last_end_, t + dev_.issue_interval);
      --G.live;
      if (G.live == 0) finish_group(w.group, t);
      else if (G.arrived && G.arrived == G.live) release_barrier(G, t);
    }
  }
};

}  // namespace

// Clock and power (docs/timing-model.md): a phase's power at the peak clock relative to the
// device's limit, from its device-wide activity; the clock scales it as clock^exponent.
double phase_power(const DeviceSpec& dev, const sim::clock_phase& ph) {
  const double mfma = ph.mfma - (1 - dev.power_int_mfma_share) * ph.mfma_int;
  return dev.power_static + dev.power_cu * ph.active_cus + dev.power_mfma * mfma + dev.power_valu * ph.valu +
         dev.power_hbm * ph.hbm;
}
double phase_clock(const DeviceSpec& dev, double power) {
  if (power <= 1) return dev.peak_mhz;
  return std::round(dev.peak_mhz * std::pow(power, -1 / dev.power_exponent));
}
void set_phase_clocks(const DeviceSpec& dev, std::vector<sim::clock_phase>& phases) {
  for (auto& ph : phases) {
    ph.power = phase_power(dev, ph);
    ph.clock_mhz = phase_clock(dev, ph.power);
  }
  if (!dev.clock_holds_lowest || phases.empty()) return;
  // The highest power over any clock_average_phases consecutive phases (cycle-weighted) sets
  // the clock of them all (device.hpp).
  const size_t w = std::clamp<size_t>(dev.clock_average_phases, 1, phases.size());
  double highest = 0;
  for (size_t i = 0; i + w <= phases.size(); ++i) {
    double energy = 0, cycles = 0;
    for (size_t k = i; k < i + w; ++k) {
      const double c = double(phases[k].end - phases[k].start);
      energy += c * phases[k].power;
      cycles += c;
    }
    if (cycles > 0) highest = std::max(highest, energy / cycles);
  }
  const double clock = phase_clock(dev, highest);
  for (auto& ph : phases) ph.clock_mhz = clock;
}
sim::clock_phase merged_phase(const std::vector<sim::clock_phase>& phases) {
  sim::clock_phase m;
  if (phases.empty()) return m;
  m.start = phases.front().start;
  m.end = phases.back().end;
  // Weighted by each phase's length (the phases need not be contiguous).
  uint64_t total = 0;
  for (const auto& ph : phases) total += ph.end - ph.start;
  const double len = double(std::max<uint64_t>(1, total));
  for (const auto& ph : phases) {
    const double f = double(ph.end - ph.start) / len;
    m.active_cus += f * ph.active_cus, m.mfma += f * ph.mfma, m.valu += f * ph.valu, m.hbm += f * ph.hbm;
    m.mfma_int += f * ph.mfma_int;
    m.power += f * ph.power;
  }
  return m;
}
double phases_us(const std::vector<sim::clock_phase>& phases) {
  double us = 0;
  for (const auto& ph : phases) us += double(ph.end - ph.start) / ph.clock_mhz;
  return us;
}

// The reported schedule's clock is taken as settled within this many MHz, after at most this many
// runs beyond the first at the estimated clock.
constexpr double kClockFixedPointMhz = 2;
constexpr int kClockFixedPointRuns = 3;

std::shared_ptr<sim::profile> simulate(const Recorder& rec, const KernelShape& shape, const DeviceSpec& dev,
                                      const sim::profile_options& opts, unsigned threads) {
  auto p = std::make_shared<sim::profile>();
  p->device = std::string(dev.name);
  p->kernel = shape.name;
  p->cus = dev.cus();
  p->xcds = dev.xcds;
  p->peak_clock_mhz = dev.peak_mhz;
  p->sustained_clock_mhz = dev.sustained_mhz;
  p->workgroups = uint32_t(shape.groups);
  p->waves = uint32_t(shape.groups * shape.waves_per_group);
  const Program& prog = rec.program();
  p->insts.resize(prog.insts.size());
  for (size_t i = 0; i < prog.insts.size(); ++i) {
    p->insts[i].pc = prog.insts[i].pc;
    p->insts[i].text = prog.insts[i].text;
  }
  if (!opts.asm_source.empty()) {
    std::vector<std::string> sources;
    std::string mismatch;
    if (!match_asm_listing(prog, shape.listing_entry, asm_source_lines(opts.asm_source, shape.name), sources, mismatch))
      throw sim::error("asm listing " + opts.asm_source + " does not match the code of '" + shape.name + "' at " + mismatch);
    for (size_t i = 0; i < prog.insts.size(); ++i) p->insts[i].source = std::move(sources[i]);
  }
  p->waves_info.resize(p->waves);
  // The schedule at `clock` (HBM bytes per cycle) into `prof`, a copy of the profile so far,
  // with its phases (activity over time).
  auto schedule_at = [&](double clock, sim::profile& prof) {
    Sim sim(rec, shape, dev, clock, opts.keep_events, prof);
    sim.run();
    prof.cycles = sim.end_cycle();
    sim.finish(prof.cycles);
    prof.clock_phases = sim.phases(prof.cycles);
    set_phase_clocks(dev, prof.clock_phases);
  };
  // The schedules at the sustained and the peak clock are independent: with two cores they run
  // side by side. An estimated clock varies over the phases of the dispatch: the reported
  // schedule is then a third one at the phases' average clock (cycles over time; only HBM bytes
  // per cycle depend on it), its phases at their own clocks giving the time.
  const unsigned cores = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  sim::profile at_sustained = *p, at_peak = *p;
  if (cores > 1) {
    std::exception_ptr failed;
    std::thread peak_thread([&] {
      try {
        schedule_at(dev.peak_mhz, at_peak);
      } catch (...) {
        failed = std::current_exception();
      }
    });
    std::exception_ptr failed_here;
    try {
      schedule_at(dev.sustained_mhz, at_sustained);
    } catch (...) {
      failed_here = std::current_exception();
    }
    peak_thread.join();
    if (failed_here) std::rethrow_exception(failed_here);
    if (failed) std::rethrow_exception(failed);
  } else {
    schedule_at(dev.sustained_mhz, at_sustained);
    schedule_at(dev.peak_mhz, at_peak);
  }
  const bool estimated = opts.clock_mhz <= 0;
  double clock = opts.clock_mhz;
  if (estimated) {  // the peak-clock schedule's phases, at their clocks: the average clock
    const double us = phases_us(at_peak.clock_phases);
    clock = us > 0 ? std::round(double(at_peak.cycles) / us) : dev.peak_mhz;
  }
  const uint64_t sustained_cycles = at_sustained.cycles, peak_cycles = at_peak.cycles;
  if (clock == dev.peak_mhz) *p = std::move(at_peak);
  else {
    // An estimated clock: the schedule at a lower clock has more HBM bytes per cycle, so busier
    // phases and a different clock again. Run it again at the clock its phases give until that
    // settles (a few MHz is below the model's resolution), at most kClockFixedPointRuns times.
    const sim::profile base = estimated ? *p : sim::profile{};
    if (clock == dev.sustained_mhz) *p = std::move(at_sustained);
    else schedule_at(clock, *p);
    for (int run = 0; estimated && run < kClockFixedPointRuns; ++run) {
      const double us = phases_us(p->clock_phases);
      const double next = us > 0 ? std::round(double(p->cycles) / us) : clock;
      if (std::abs(next - clock) <= kClockFixedPointMhz) break;
      clock = next;
      *p = base;
      schedule_at(clock, *p);
    }
  }
  if (!estimated) {
    p->clock_phases = {merged_phase(p->clock_phases)};
    p->clock_phases.front().clock_mhz = clock;
  }
  p->cycles_at_sustained = sustained_cycles;
  p->cycles_at_peak = peak_cycles;
  p->clock_estimated = estimated;
  const double sched_us = estimated ? phases_us(p->clock_phases) : double(p->cycles) / clock;
  p->clock_mhz = sched_us > 0 ? double(p->cycles) / sched_us : clock;  // the average
  p->time_us = sched_us;
  p->time_us_peak = double(p->cycles_at_peak) / dev.peak_mhz;
  p->time_us_sustained = double(p->cycles_at_sustained) / dev.sustained_mhz;
  const double secs = p->time_us * 1e-6;
  p->tflops = secs > 0 ? p->flops / secs / 1e12 : 0;
  p->hbm_gbps = secs > 0 ? double(p->hbm_bytes) / secs / 1e9 : 0;
  return p;
}

}  // namespace hipasm::sim::timing

// The checker (see checker.hpp): pending memory results, hazards, LDS races.
#include "checker.hpp"

#include <algorithm>
#include <array>
#include <bitset>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <string_view>
#include <unordered_map>

#include "hazard_rules.hpp"
#include "undef.hpp"

namespace hipasm::sim {

namespace {

using hz::File;
using hz::InstInfo;
using hz::Range;

std::string text_of(const Inst& in) { return in.text.empty() ? in.mnemonic : in.text; }

std::string reg_name(const Range& r) {
  auto span = [&](const char* p, int lo, int hi) {
    return hi - lo == 1 ? p + std::to_string(lo)
                        : std::string(p) + "[" + std::to_string(lo) + ":" + std::to_string(hi - 1) + "]";
  };
  switch (r.file) {
    case hz::FS: return span("s", r.lo, r.hi);
    case hz::FV: return r.lo >= 256 ? span("a", r.lo - 256, r.hi - 256) : span("v", r.lo, r.hi);
    case hz::FVCC: return "vcc";
    case hz::FEXEC: return "exec";
    case hz::FM0: return "m0";
  }
  return "?";
}

constexpr uint8_t kVm = 1, kLgkm = 2;

// Per-instruction checker facts, computed once per decoded instruction: its InstInfo plus,
// for each hazard rule it can be a consumer of, the consumer registers the rule relates.
struct Facts {
  InstInfo info;
  undef::Facts uf;
  struct CRule {
    int8_t key_bit;      // bit of hz::producer_key_flag of the rule (-1 = any producer)
    uint8_t window;      // the rule's max_window
    uint8_t rule;        // index into hz::rules()
    uint8_t key_null;    // the rule has no register key (one nullptr key)
    uint16_t first, nkeys;  // keys[first, first + nkeys)
  };
  std::vector<CRule> crules;
  std::vector<Range> keys;
};

// What a pending record waits for.
enum class Queue : uint8_t {
  Vmem,     // vmcnt, in order (MUBUF/GLOBAL/SCRATCH, FLAT that went to memory, LDS-DMA)
  Ds,       // lgkmcnt, in order (DS, FLAT that went to LDS)
  Smem,     // lgkmcnt, out of order
  FlatBoth, // vmcnt and lgkmcnt, out of order on both (FLAT to both, or not yet known)
};

struct Pending {
  const Inst* inst = nullptr;
  Queue queue = Queue::Vmem;
  uint32_t seq = 0;  // position in its in-order queue (1-based), Vmem/Ds
  uint8_t proven = 0;  // counters proven done (FlatBoth, Smem)
  uint8_t ndst = 0;
  bool flat = false;  // a FLAT instruction: the queue depends on where its lanes went
  std::array<Range, 2> dst{};
};

struct Shadow {  // one LDS byte, packed in words so updates stay in registers
  uint64_t w = 0;  // wseq [31:0] (writer's queue sequence number), wpc [63:32] (low pc bits)
  uint64_t r = 0;  // repoch [31:0] (epoch of rmask), rmask [47:32] (waves that read it),
                   // writer [55:48] (wave + 1; 0 = never written), wflags [63:56]
  uint64_t a = 0;  // an earlier atomic write by another wave that a later atomic displaced:
                   // aseq [31:0], awriter [39:32] (wave + 1), apc [63:40] (low 24 pc bits)
  uint32_t wseq() const { return uint32_t(w); }
  uint32_t wpc() const { return uint32_t(w >> 32); }
  uint32_t repoch() const { return uint32_t(r); }
  uint16_t rmask() const { return uint16_t(r >> 32); }
  uint8_t writer() const { return uint8_t(r >> 48); }
  uint8_t wflags() const { return uint8_t(r >> 56); }
  static uint64_t pack_r(uint32_t repoch, uint16_t rmask, uint8_t writer, uint8_t wflags) {
    return repoch | (uint64_t(rmask) << 32) | (uint64_t(writer) << 48) | (uint64_t(wflags) << 56);
  }
  bool operator==(const Shadow&) const = default;
};
constexpr uint8_t kAtomicWrite = 1, kDmaWrite = 2;

struct Snapshot {
  uint32_t ds = 0, vm = 0;  // in-order sequence numbers proven complete
};

// A device-memory word (4 bytes) a wave of the workgroup stored: which bytes, by whom, its
// place in the writer's vmcnt queue.
struct MemWrite {
  uint32_t seq = 0, pc = 0;
  uint8_t writer = 0;  // wave + 1
  uint8_t mask = 0;    // bytes of the word written
};

struct GroupState {
  uint32_t id = 0;
  std::vector<Shadow> shadow;                  // sized on first LDS access
  std::unordered_map<uint64_t, MemWrite> mem;  // device words (address / 4) the waves stored
  uint64_t mem_lo = UINT64_MAX, mem_hi = 0;    // the bytes they span (reads outside: no lookup)
  std::vector<uint64_t> lds_def;               // LDS bytes holding defined data (bit per byte)
  std::vector<std::vector<Snapshot>> snaps;   // per wave: at its k-th s_barrier (k = 1..)
  std::vector<uint8_t> ended;
};

struct WaveState {
  Checker::Impl* owner = nullptr;
  const hz::MfmaWaits* mfma_waits = nullptr;  // the wave's target's MFMA wait-state terms
  const Target* target = nullptr;             // which rows of hz::rules() hold
  uint32_t wg = 0, wave = 0;
  GroupState* group = nullptr;
  bool ended = false;
  // pending results
  std::vector<Pending> pending;
  std::array<uint16_t, 128> pend_s{};
  std::array<uint16_t, 512> pend_v{};
  std::array<uint16_t, 2> pend_vcc{};
  uint32_t vm_issued = 0, vm_retired = 0, ds_issued = 0, ds_retired = 0;
  int cur_record = -1;  // index in pending of the record of the instruction executing
  const Inst* cur = nullptr;
  uint32_t epoch = 0;   // s_barriers issued
  // hazard history
  struct Hist {
    const Inst* inst;
    const InstInfo* info;  // &Facts::info
    uint64_t ws_before;  // wait states issued before this instruction
  };
  static constexpr size_t kHist = 64;
  std::array<Hist, kHist> hist{};
  uint64_t nhist = 0, ws_total = 0;
  // ws_total after the last instruction carrying each flag bit (+1; 0 = never), so rules whose
  // producer kind did not issue within their window are skipped without a scan.
  std::array<uint64_t, 64> last_flag_end{};
  // the soft clause issuing (hz::kSoftClauseTag): 0 none, SMEM or VMEM; the registers its
  // members write and read (bit: soft_clause_bit)
  uint64_t clause = 0;
  bool clause_defs_any = false;
  std::bitset<648> clause_defs, clause_uses;
  // per-wave Inst -> InstInfo cache (direct mapped)
  std::array<std::pair<const Inst*, const Facts*>, 256> cache{};
  // definedness of the wave's registers (kept allocated across reuse; valid once undef_ready)
  std::unique_ptr<undef::WaveShadow> undef;
  bool undef_ready = false;

  void reset(Checker::Impl* o, uint32_t g, uint32_t wv, GroupState* gs) {
    auto keep = std::move(undef);
    *this = WaveState();
    undef = std::move(keep);
    owner = o;
    wg = g;
    wave = wv;
    group = gs;
  }
};

// "hazard <id>" for every hazard rule, indexed like hz::rules() (built once: the tag is the
// key of a finding and must not be rebuilt on every occurrence).
const std::vector<std::string>& hazard_tags() {
  static const std::vector<std::string> tags = [] {
    std::vector<std::string> t;
    for (const hz::Rule& r : hz::rules()) t.push_back(std::string("hazard ") + r.id);
    return t;
  }();
  return tags;
}

// (pc, rule tag) with lookups by string_view, so a repeated occurrence allocates nothing.
struct FindingKey {
  uint64_t pc;
  std::string rule;
};
struct FindingKeyLess {
  using is_transparent = void;
  template <class A, class B>
  bool operator()(const A& a, const B& b) const {
    if (a.pc != b.pc) return a.pc < b.pc;
    return std::string_view(a.rule) < std::string_view(b.rule);
  }
};
struct FindingProbe {
  uint64_t pc;
  std::string_view rule;
};

struct FindingEntry {
  std::string message;  // of the first occurrence in the smallest (workgroup, wave)
  std::string inst;
  uint64_t count = 0;
  uint32_t first_wg = 0, first_wave = 0;
  // The occurrence counted last: one instruction that breaks a rule for several registers
  // counts once.
  uint32_t last_wg = UINT32_MAX, last_wave = UINT32_MAX;
  uint64_t last_seq = UINT64_MAX;
};

}  // namespace

struct Checker::Impl {
  bool undef_on = true;
  std::mutex find_mu;
  std::map<FindingKey, FindingEntry, FindingKeyLess> findings;

  std::shared_mutex info_mu;
  std::unordered_map<const Inst*, std::unique_ptr<Facts>> infos;

  std::mutex state_mu;
  std::unordered_map<uint32_t, std::unique_ptr<GroupState>> groups;
  std::vector<std::unique_ptr<WaveState>> waves;  // all wave states ever made (owned)
  std::vector<WaveState*> free_waves;

  // One occurrence of `rule` at `in` on wave `s`; `what` builds the details (only called for
  // the occurrence whose message is kept).
  template <class What>
  void report(const WaveState& s, const Inst& in, std::string_view rule, What&& what) {
    std::lock_guard lock(find_mu);
    auto it = findings.find(FindingProbe{in.pc, rule});
    if (it == findings.end())
      it = findings.emplace(FindingKey{in.pc, std::string(rule)}, FindingEntry{}).first;
    FindingEntry& e = it->second;
    const uint64_t seq = s.nhist;
    if (e.last_wg == s.wg && e.last_wave == s.wave && e.last_seq == seq) return;
    e.last_wg = s.wg;
    e.last_wave = s.wave;
    e.last_seq = seq;
    const bool first = e.count++ == 0;
    if (first || std::pair(s.wg, s.wave) < std::pair(e.first_wg, e.first_wave)) {
      e.first_wg = s.wg;
      e.first_wave = s.wave;
      e.inst = text_of(in);
      e.message = hex(in.pc) + ": " + e.inst + ": [" + std::string(rule) + "] " + what();
    }
  }

  static std::unique_ptr<Facts> make_facts(const Inst& in) {
    auto f = std::make_unique<Facts>();
    f->info = hz::classify(in);
    f->uf = undef::classify(in);
    std::vector<const Range*> keys;
    auto all = hz::rules();
    for (uint8_t ri : f->info.consumer_rules) {
      keys_of(all[ri], f->info, keys);
      if (keys.empty()) continue;
      Facts::CRule cr{};
      uint64_t kf = rule_key_flag(ri);
      cr.key_bit = kf ? int8_t(std::countr_zero(kf)) : int8_t(-1);
      cr.window = uint8_t(all[ri].max_window);
      cr.rule = ri;
      cr.first = uint16_t(f->keys.size());
      if (keys.size() == 1 && keys[0] == nullptr) {
        cr.key_null = 1;
        cr.nkeys = 1;
        f->keys.push_back(Range{});
      } else {
        cr.nkeys = uint16_t(keys.size());
        for (const Range* k : keys) f->keys.push_back(*k);
      }
      f->crules.push_back(cr);
    }
    return f;
  }

  const Facts* info_of(WaveState& s, const Inst& in) {
    auto& slot = s.cache[(reinterpret_cast<uintptr_t>(&in) >> 4) & 255];
    if (slot.first == &in) return slot.second;
    const Facts* info = nullptr;
    {
      std::shared_lock lock(info_mu);
      auto it = infos.find(&in);
      if (it != infos.end()) info = it->second.get();
    }
    if (!info) {
      auto made = make_facts(in);
      std::unique_lock lock(info_mu);
      auto [it, inserted] = infos.emplace(&in, std::move(made));
      info = it->second.get();
    }
    slot = {&in, info};
    return info;
  }

  WaveState& state_of(const Wave& w) {
    auto* s = static_cast<WaveState*>(w.checker_state);
    if (s && s->owner == this && s->wg == w.workgroup_linear && s->wave == w.wave_in_group && !s->ended)
      return *s;
    std::lock_guard lock(state_mu);
    auto& g = groups[w.workgroup_linear];
    if (!g) {
      g = std::make_unique<GroupState>();
      g->id = w.workgroup_linear;
    }
    if (g->snaps.size() <= w.wave_in_group) {
      g->snaps.resize(w.wave_in_group + 1);
      g->ended.resize(w.wave_in_group + 1);
    }
    WaveState* ns;
    if (!free_waves.empty()) {
      ns = free_waves.back();
      free_waves.pop_back();
    } else {
      waves.push_back(std::make_unique<WaveState>());
      ns = waves.back().get();
    }
    ns->reset(this, w.workgroup_linear, w.wave_in_group, g.get());
    ns->mfma_waits = &hz::mfma_waits(target_of(w));
    ns->target = &target_of(w);
    w.checker_state = ns;
    return *ns;
  }

  // ---- pending records
  void count(WaveState& s, const Range& r, int delta) {
    for (uint16_t i = r.lo; i < r.hi; ++i) {
      if (r.file == hz::FS && i < s.pend_s.size()) s.pend_s[i] = uint16_t(s.pend_s[i] + delta);
      if (r.file == hz::FV && i < s.pend_v.size()) s.pend_v[i] = uint16_t(s.pend_v[i] + delta);
      if (r.file == hz::FVCC && i < 2) s.pend_vcc[i] = uint16_t(s.pend_vcc[i] + delta);
    }
  }
  bool any_pending(const WaveState& s, const Range& r) const {
    for (uint16_t i = r.lo; i < r.hi; ++i) {
      if (r.file == hz::FS && i < s.pend_s.size() && s.pend_s[i]) return true;
      if (r.file == hz::FV && i < s.pend_v.size() && s.pend_v[i]) return true;
      if (r.file == hz::FVCC && i < 2 && s.pend_vcc[i]) return true;
    }
    return false;
  }
  void remove_record(WaveState& s, size_t idx) {
    for (int k = 0; k < s.pending[idx].ndst; ++k) count(s, s.pending[idx].dst[k], -1);
    s.pending.erase(s.pending.begin() + std::ptrdiff_t(idx));
    if (s.cur_record == int(idx)) s.cur_record = -1;
    else if (s.cur_record > int(idx)) s.cur_record--;
  }
  static const char* counter_of(Queue q) {
    switch (q) {
      case Queue::Vmem: return "vmcnt";
      case Queue::Ds: return "lgkmcnt";
      case Queue::Smem: return "lgkmcnt(0)";
      case Queue::FlatBoth: return "vmcnt(0) and lgkmcnt(0)";
    }
    return "?";
  }

  void check_pending(WaveState& s, const Inst& in, const InstInfo& info) {
    if (s.pending.empty()) return;
    auto check = [&](const Range& r, bool is_def) {
      if (!any_pending(s, r)) return;
      for (size_t i = 0; i < s.pending.size(); ++i) {
        Pending& p = s.pending[i];
        bool hit = false;
        Range which{};
        for (int k = 0; k < p.ndst; ++k)
          if (p.dst[k].overlaps(r)) { hit = true; which = p.dst[k]; }
        if (!hit) continue;
        if (is_def) {
          // A later memory op of the same in-order queue completes after p: no WAW hazard.
          bool same_queue = (p.queue == Queue::Vmem && (info.flags & hz::VMEM)) ||
                            (p.queue == Queue::Ds && (info.flags & hz::DS));
          if (same_queue) continue;
          report(s, in, "pending-write", [&] { return
                 "overwrites " + reg_name(r) + " while the result of " + hex(p.inst->pc) + " (" +
                     text_of(*p.inst) + ") may still be written to " + reg_name(which) + " (needs s_waitcnt " +
                     counter_of(p.queue) + ")"; });
        } else {
          report(s, in, "pending-read", [&] { return
                 "reads " + reg_name(r) + " before the result of " + hex(p.inst->pc) + " (" +
                     text_of(*p.inst) + ") is waited for (needs s_waitcnt " + counter_of(p.queue) + ")"; });
        }
        remove_record(s, i);  // one finding per missing wait
        --i;
      }
    };
    for (const Range& r : info.uses) check(r, false);
    for (const Range& r : info.defs) check(r, true);
  }

  void add_record(WaveState& s, const Inst& in, const InstInfo& info) {
    Pending p;
    p.inst = &in;
    if (info.flags & hz::SMEM) p.queue = Queue::Smem;
    else if (info.flags & hz::DS) p.queue = Queue::Ds;
    else if (info.flags & hz::FLAT) { p.queue = Queue::FlatBoth; p.flat = true; }
    else p.queue = Queue::Vmem;
    if (p.queue == Queue::Vmem) p.seq = ++s.vm_issued;
    if (p.queue == Queue::Ds) p.seq = ++s.ds_issued;
    for (const Range& r : info.defs) {
      if ((r.file == hz::FS || r.file == hz::FV || r.file == hz::FVCC) && p.ndst < p.dst.size()) {
        p.dst[p.ndst++] = r;
        count(s, r, +1);
      }
    }
    s.pending.push_back(p);
    s.cur_record = int(s.pending.size() - 1);
  }

  void retire(WaveState& s, uint16_t simm16) {
    const uint32_t vm = waitcnt_vmcnt(simm16), lgkm = waitcnt_lgkmcnt(simm16);
    if (s.vm_issued >= vm) s.vm_retired = std::max(s.vm_retired, s.vm_issued - vm);
    if (s.ds_issued >= lgkm) s.ds_retired = std::max(s.ds_retired, s.ds_issued - lgkm);
    for (size_t i = 0; i < s.pending.size(); ++i) {
      Pending& p = s.pending[i];
      bool done = false;
      switch (p.queue) {
        case Queue::Vmem: done = p.seq <= s.vm_retired; break;
        case Queue::Ds: done = p.seq <= s.ds_retired; break;
        case Queue::Smem: done = lgkm == 0; break;
        case Queue::FlatBoth:
          if (vm == 0) p.proven |= kVm;
          if (lgkm == 0) p.proven |= kLgkm;
          done = p.proven == (kVm | kLgkm);
          break;
      }
      if (done) {
        remove_record(s, i);
        --i;
      }
    }
  }

  // ---- hazards
  static bool relation(const hz::Rule& r, const InstInfo& p, const InstInfo& c, const Range* key, bool& same) {
    same = false;
    auto defs_overlap = [&](const Range& k) {
      for (const Range& d : p.defs)
        if (d.overlaps(k)) return true;
      return false;
    };
    switch (r.rel) {
      case hz::Rel::SgprDefUse:  // any scalar register: SGPRs, VCC, EXEC, M0 (LLVM's isSGPRReg)
      case hz::Rel::SgprVccDefUse:
      case hz::Rel::LaneSelect: return key->file != hz::FV && defs_overlap(*key);
      case hz::Rel::VccDef: return p.flags & hz::WRITES_VCC;
      case hz::Rel::SameHwReg: return p.hwreg == c.hwreg;
      case hz::Rel::M0Def: return p.flags & hz::WRITES_M0;
      case hz::Rel::VgprDefUse:
      case hz::Rel::VgprDefUseDef:
      case hz::Rel::VgprDefSrc0: return key->file == hz::FV && defs_overlap(*key);
      case hz::Rel::ExecDef: return p.flags & hz::WRITES_EXEC;
      case hz::Rel::StoreDataDef: return key->file == hz::FV && p.has_store_data && p.store_data.overlaps(*key);
      case hz::Rel::VccExecDefZ:
        return ((c.flags & hz::READS_VCCZ) && (p.flags & hz::WRITES_VCC)) ||
               ((c.flags & hz::READS_EXECZ) && (p.flags & hz::WRITES_EXEC));
      case hz::Rel::None: return true;
      case hz::Rel::MfmaSrcC:
        if (p.has_mfma_dst && p.mfma_dst.overlaps(*key)) {
          same = p.mfma_dst == *key;
          return true;
        }
        return false;
      case hz::Rel::MfmaSrcAB:
      case hz::Rel::MfmaDefUse:
      case hz::Rel::MfmaDefDef:
        return p.has_mfma_dst && p.mfma_dst.overlaps(*key);
      case hz::Rel::SrcCDef: return p.has_srcC && p.srcC.overlaps(*key);
      case hz::Rel::DotDefSrcAB:
        return p.mnemonic == c.mnemonic && p.has_mfma_dst && p.mfma_dst.overlaps(*key);
      case hz::Rel::DotDefUseOther:
      case hz::Rel::DotDefDefOther:
        return p.mnemonic != c.mnemonic && p.has_mfma_dst && p.mfma_dst.overlaps(*key);
    }
    return false;
  }

  // The consumer registers a rule relates (nullptr entry = no register key).
  static void keys_of(const hz::Rule& r, const InstInfo& c, std::vector<const Range*>& out) {
    out.clear();
    switch (r.rel) {
      case hz::Rel::SgprDefUse:
      case hz::Rel::SgprVccDefUse:
      case hz::Rel::VgprDefUse:
      case hz::Rel::MfmaDefUse:
      case hz::Rel::DotDefUseOther:
        for (const Range& u : c.uses) out.push_back(&u);
        break;
      case hz::Rel::LaneSelect:
        if (c.has_src1) out.push_back(&c.src1);
        break;
      case hz::Rel::VgprDefSrc0:
        if (c.has_src0) out.push_back(&c.src0);
        break;
      case hz::Rel::StoreDataDef:
      case hz::Rel::MfmaDefDef:
      case hz::Rel::SrcCDef:
      case hz::Rel::DotDefDefOther:
        for (const Range& d : c.defs) out.push_back(&d);
        break;
      case hz::Rel::VgprDefUseDef:
        for (const Range& u : c.uses) out.push_back(&u);
        for (const Range& d : c.defs) out.push_back(&d);
        break;
      case hz::Rel::MfmaSrcC:
        if (c.has_srcC) out.push_back(&c.srcC);
        break;
      case hz::Rel::MfmaSrcAB:
      case hz::Rel::DotDefSrcAB:
        if (c.has_srcA) out.push_back(&c.srcA);
        if (c.has_srcB) out.push_back(&c.srcB);
        break;
      default: out.push_back(nullptr); break;
    }
  }

  [[gnu::cold]] [[gnu::noinline]] void report_hazard(const WaveState& s, const Inst& in, const hz::Rule& r,
                                                     const Range* key, const Inst& prod, int need,
                                                     uint64_t between) {
    report(s, in, hazard_tags()[size_t(&r - hz::rules().data())], [&] {
      std::string what = r.text;
      if (key) what += " (" + reg_name(*key) + ")";
      return what + ": producer " + hex(prod.pc) + " (" + text_of(prod) + "), needs " + std::to_string(need) +
             " wait states, has " + std::to_string(between);
    });
  }

  void check_hazards(WaveState& s, const Inst& in, const Facts& f) {
    if (s.nhist == 0) return;
    const InstInfo& c = f.info;
    auto all = hz::rules();
    const uint64_t back = std::min<uint64_t>(s.nhist, WaveState::kHist);
    for (const Facts::CRule& cr : f.crules) {
      const uint64_t window = cr.window;
      if (cr.key_bit >= 0) {
        uint64_t end = s.last_flag_end[size_t(cr.key_bit)];
        if (end == 0 || s.ws_total - (end - 1) >= window) continue;
      }
      const hz::Rule& r = all[cr.rule];
      if (!hz::rule_applies(r, *s.target)) continue;
      // For each key, the nearest producer that matches the rule and relates decides.
      for (uint32_t k0 = 0; k0 < cr.nkeys; k0 += 64) {
        const uint32_t nk = std::min<uint32_t>(64, cr.nkeys - k0);
        uint64_t open = nk == 64 ? ~0ull : ((1ull << nk) - 1);
        const Range* keys = f.keys.data() + cr.first + k0;
        for (uint64_t i = 0; i < back && open; ++i) {
          const WaveState::Hist& h = s.hist[(s.nhist - 1 - i) % WaveState::kHist];
          // Wait states between the producer and this instruction.
          uint64_t between = s.ws_total - h.ws_before - h.info->wait_states;
          if (between >= window) break;
          if (!hz::matches(h.info->flags, r.prod_all, r.prod_any, r.prod_none)) continue;
          for (uint64_t m = open; m; m &= m - 1) {
            const int kb = std::countr_zero(m);
            const Range* key = cr.key_null ? nullptr : &keys[kb];
            bool same = false;
            if (!relation(r, *h.info, c, key, same)) continue;
            open &= ~(1ull << kb);  // the nearest producer decides (as in LLVM)
            int need = hz::required_wait_states(r, *h.info, c, same, *s.mfma_waits);
            if (between < uint64_t(need)) report_hazard(s, in, r, key, *h.inst, need, between);
          }
        }
      }
    }
  }

  // ---- soft clauses
  // SGPRs at 0..127, VGPRs/AGPRs at 128..639, then VCC, EXEC, M0.
  static void add_clause_bits(std::bitset<648>& set, const Range& r) {
    const uint32_t base = r.file == hz::FS ? 0 : r.file == hz::FV ? 128 : r.file == hz::FVCC ? 640 : r.file == hz::FEXEC ? 642 : 644;
    for (uint32_t b = base + r.lo, e = base + r.hi; b < e && b < set.size(); ++b) set.set(b);
  }
  void check_soft_clause(WaveState& s, const Inst& in, const InstInfo& c) {
    const uint64_t kind = c.flags & hz::SMEM ? hz::SMEM : c.flags & (hz::VMEM | hz::FLAT) ? hz::VMEM : 0;
    if (!kind) {
      s.clause = 0;
      return;
    }
    std::bitset<648> d, u;
    for (const Range& r : c.defs) add_clause_bits(d, r);
    for (const Range& r : c.uses) add_clause_bits(u, r);
    if (s.clause == kind && s.clause_defs_any) {
      const bool store = (c.flags & hz::MAY_STORE) != 0;
      if (store || ((s.clause_defs | d) & (s.clause_uses | u)).any()) {
        report_soft_clause(s, in, store);
        s.clause = 0;  // as if broken here: the run starts again with this instruction
      }
    }
    if (s.clause != kind) {
      s.clause = kind;
      s.clause_defs_any = false;
      s.clause_defs.reset();
      s.clause_uses.reset();
    }
    s.clause_defs |= d;
    s.clause_uses |= u;
    s.clause_defs_any = s.clause_defs_any || !c.defs.empty();
  }
  [[gnu::cold]] [[gnu::noinline]] void report_soft_clause(const WaveState& s, const Inst& in, bool store) {
    report(s, in, hz::kSoftClauseTag, [&] {
      return std::string(store ? "a store joins a soft clause of loads"
                               : "joins a soft clause whose instructions write a register one of them reads") +
             " (XNACK replays clauses): needs 1 wait state (s_nop 0) before it";
    });
  }

  void push_history(WaveState& s, const Inst& in, const InstInfo& info) {
    s.hist[s.nhist % WaveState::kHist] = {&in, &info, s.ws_total};
    s.nhist++;
    s.ws_total += info.wait_states;
    for (uint64_t f = info.flags; f; f &= f - 1) s.last_flag_end[std::countr_zero(f)] = s.ws_total + 1;
  }

  static uint64_t rule_key_flag(size_t i) {
    static const std::vector<uint64_t> keys = [] {
      std::vector<uint64_t> k;
      for (const hz::Rule& r : hz::rules()) k.push_back(hz::producer_key_flag(r));
      return k;
    }();
    return keys[i];
  }

  // ---- definedness (undef.hpp)
  struct UndefSink final : undef::Sink {
    Impl& im;
    const WaveState& s;
    const Inst& in;
    UndefSink(Impl& i, const WaveState& st, const Inst& ins) : im(i), s(st), in(ins) {}
    void found(const char* rule, const std::string& what) override {
      im.report(s, in, rule, [&] { return what; });
    }
  };
  void track_undef(WaveState& s, const Wave& w, const Inst& in, const undef::Facts& uf) {
    if (!s.undef_ready) {
      if (!s.undef) s.undef = std::make_unique<undef::WaveShadow>();
      s.undef->reset(w);
      s.undef_ready = true;
    }
    std::vector<uint64_t>& lds = lds_def_of(*s.group, w);
    UndefSink sink(*this, s, in);
    undef::issue(*s.undef, lds, w, in, uf, sink);
  }
  static std::vector<uint64_t>& lds_def_of(GroupState& g, const Wave& w) {
    if (g.lds_def.size() < (w.lds_size + 63) / 64) g.lds_def.resize((w.lds_size + 63) / 64, 0);
    return g.lds_def;
  }

  // ---- LDS races
  Snapshot snapshot_of(GroupState& g, uint32_t wave, uint32_t epoch, bool& known) {
    known = true;
    if (epoch == 0) return {};
    if (wave < g.snaps.size() && g.snaps[wave].size() >= epoch) return g.snaps[wave][epoch - 1];
    if (wave < g.ended.size() && g.ended[wave]) return {UINT32_MAX, UINT32_MAX};
    known = false;
    return {};
  }

  [[gnu::cold]] void report_raw(const WaveState& s, const Inst& in, bool write, uint32_t b, Shadow sh) {
    report(s, in, write ? "lds-race-waw" : "lds-race", [&] {
      return std::string(write ? "writes" : "reads") + " LDS byte " + hex(b) + " that wave " +
             std::to_string(sh.writer() - 1u) + " of the workgroup wrote at " + hex(sh.wpc()) +
             " with no s_waitcnt " + ((sh.wflags() & kDmaWrite) ? "vmcnt" : "lgkmcnt") +
             " retiring it before an s_barrier both passed since";
    });
  }
  [[gnu::cold]] void report_dma(const WaveState& s, const Inst& in, uint32_t b, Shadow sh) {
    report(s, in, "lds-dma-pending", [&] {
      return "accesses LDS byte " + hex(b) + " that this wave's LDS-DMA at " + hex(sh.wpc()) +
             " may not have written yet (needs s_waitcnt vmcnt)";
    });
  }
  [[gnu::cold]] void report_war(const WaveState& s, const Inst& in, uint32_t b, int other) {
    report(s, in, "lds-race-war", [&] {
      return "writes LDS byte " + hex(b) + " that wave " + std::to_string(other) +
             " of the workgroup read with no s_barrier in between";
    });
  }

  void lds_access(WaveState& s, const Wave& w, uint32_t addr, uint32_t n, LdsAccess kind) {
    GroupState& g = *s.group;
    // LDS-DMA and FLAT write LDS from memory or registers the definedness pass did not see.
    if (undef_on && kind != LdsAccess::Read && (kind == LdsAccess::DmaWrite || (s.cur && (s.cur->cls & C_FLAT))))
      undef::lds_define(lds_def_of(g, w), addr, n);
    if (g.shadow.size() < w.lds_size) g.shadow.resize(w.lds_size);
    const uint32_t me = s.wave, epoch = s.epoch;
    const bool write = kind != LdsAccess::Read;
    const bool atomic = kind == LdsAccess::Atomic;
    const uint16_t my_bit = me < 16 ? uint16_t(1u << me) : 0;
    uint32_t seq = 0;
    if (write && s.cur_record >= 0) seq = s.pending[size_t(s.cur_record)].seq;
    const Inst& in = s.cur ? *s.cur : *w.cur;
    const uint8_t new_flags = uint8_t((atomic ? kAtomicWrite : 0) | (kind == LdsAccess::DmaWrite ? kDmaWrite : 0));
    bool reported_raw = false, reported_war = false, reported_dma = false;
    uint32_t end = std::min<uint64_t>(uint64_t(addr) + n, g.shadow.size());
    for (uint32_t b = addr; b < end;) {
      Shadow* sh = &g.shadow[b];
      // Bytes written together share their state: handle a run of equal bytes as one unit.
      uint32_t unit = 1;
      while (b + unit < end && sh[unit] == sh[0]) ++unit;
      // Two scalar words (not a struct copy whose address escapes to the cold report calls).
      const uint64_t vw = sh->w, vr = sh->r, va = sh->a;
      const Shadow v{vw, vr, va};
      uint8_t writer = v.writer();
      // Several waves' atomics on one byte: the displaced one must be retired too.
      uint8_t awriter = uint8_t(va >> 32);
      if (awriter && awriter - 1u != me && !atomic && !reported_raw) {
        bool known;
        Snapshot snap = snapshot_of(g, awriter - 1u, epoch, known);
        if (!known || snap.ds < uint32_t(va)) {
          reported_raw = true;
          report_raw(s, in, write, b,
                     Shadow{uint32_t(va) | ((va >> 40) << 32), Shadow::pack_r(0, 0, awriter, kAtomicWrite), 0});
        }
      }
      if (writer && writer - 1u != me && !(atomic && (v.wflags() & kAtomicWrite)) && !reported_raw) {
        bool known;
        Snapshot snap = snapshot_of(g, writer - 1u, epoch, known);
        uint32_t retired = (v.wflags() & kDmaWrite) ? snap.vm : snap.ds;
        if (!known || retired < v.wseq()) {
          reported_raw = true;
          report_raw(s, in, write, b, Shadow{vw, vr, va});
        }
      }
      // The wave's own LDS-DMA lands in LDS only when vmcnt retires it.
      if (writer == me + 1 && (v.wflags() & kDmaWrite) && s.vm_retired < v.wseq() && !reported_dma &&
          kind != LdsAccess::DmaWrite) {
        reported_dma = true;
        report_dma(s, in, b, Shadow{vw, vr, va});
      }
      uint16_t rmask = v.repoch() == epoch ? v.rmask() : 0;
      Shadow nv;
      if (write) {
        if ((rmask & ~my_bit) && !reported_war && !atomic) {
          reported_war = true;
          report_war(s, in, b, std::countr_zero(uint32_t(rmask & ~my_bit)));
        }
        nv.w = seq | (uint64_t(uint32_t(in.pc)) << 32);
        nv.r = Shadow::pack_r(epoch, atomic ? uint16_t(rmask | my_bit) : 0, uint8_t(me + 1), new_flags);
        if (!atomic)
          nv.a = 0;
        else if (writer && writer - 1u != me && (v.wflags() & kAtomicWrite))
          nv.a = v.wseq() | (uint64_t(writer) << 32) | (uint64_t(v.wpc() & 0xffffff) << 40);
        else
          nv.a = awriter - 1u == me ? 0 : va;
      } else {
        nv.w = v.w;
        nv.r = Shadow::pack_r(epoch, uint16_t(rmask | my_bit), writer, v.wflags());
        nv.a = va;
      }
      for (uint32_t k = 0; k < unit; ++k) sh[k] = nv;
      b += unit;
    }
  }

  // ---- device memory shared by the waves of a workgroup (CDNA3 ISA, "Data dependency
  // resolution": a VMEM store is complete only when vmcnt counts it; the waves of a workgroup
  // share the CU's L1, so a store retired by s_waitcnt vmcnt before an s_barrier is visible to
  // the waves past it, LLVM's workgroup-scope release/acquire for gfx942). Judged: accesses at
  // wavefront or workgroup scope (sc1 clear). Accesses at agent or system scope (sc1: LLVM's
  // GFX942 memory model) are communication between workgroups or devices (flags polled while
  // they are written, split-K partials) that the memory model orders, not this rule; atomics
  // are performed in order at the L2; accesses of two workgroups are not seen here.
  [[gnu::cold]] void report_mem_raw(const WaveState& s, const Inst& in, uint64_t addr, const MemWrite& m) {
    report(s, in, "mem-race", [&] {
      return "reads device byte " + hex(addr) + " that wave " + std::to_string(m.writer - 1u) +
             " of the workgroup stored at " + hex(m.pc) +
             " with no s_waitcnt vmcnt retiring it before an s_barrier both passed since";
    });
  }
  void mem_access(WaveState& s, const Wave& w, uint64_t addr, uint32_t n, bool write) {
    const Inst& in = s.cur ? *s.cur : *w.cur;
    if ((in.cls & C_ATOMIC) || in.mod.sc1) return;
    GroupState& g = *s.group;
    const uint32_t me = s.wave;
    const uint64_t first = addr >> 2, last = (addr + n - 1) >> 2;
    if (write) {
      uint32_t seq = s.vm_issued + 1;  // a FLAT store's queue is known once its lanes resolve
      if (s.cur_record >= 0 && s.pending[size_t(s.cur_record)].inst == &in && s.pending[size_t(s.cur_record)].seq)
        seq = s.pending[size_t(s.cur_record)].seq;
      for (uint64_t wd = first; wd <= last; ++wd) {
        const uint64_t lo = std::max(addr, wd << 2), hi = std::min(addr + n, (wd << 2) + 4);
        const uint8_t mask = uint8_t(((1u << (hi - lo)) - 1) << (lo & 3));
        MemWrite& m = g.mem[wd];
        if (m.writer != me + 1) m.mask = 0;
        m.writer = uint8_t(me + 1);
        m.mask |= mask;
        m.seq = seq;
        m.pc = uint32_t(in.pc);
      }
      g.mem_lo = std::min(g.mem_lo, addr);
      g.mem_hi = std::max(g.mem_hi, addr + n);
      return;
    }
    if (addr >= g.mem_hi || addr + n <= g.mem_lo) return;
    for (uint64_t wd = first; wd <= last; ++wd) {
      auto it = g.mem.find(wd);
      if (it == g.mem.end()) continue;
      const MemWrite& m = it->second;
      const uint64_t lo = std::max(addr, wd << 2), hi = std::min(addr + n, (wd << 2) + 4);
      const uint8_t mask = uint8_t(((1u << (hi - lo)) - 1) << (lo & 3));
      if (m.writer == 0 || m.writer - 1u == me || !(m.mask & mask)) continue;
      bool known;
      const Snapshot snap = snapshot_of(g, m.writer - 1u, s.epoch, known);
      if (!known || snap.vm < m.seq) {
        report_mem_raw(s, in, (wd << 2) + std::countr_zero(uint32_t(m.mask & mask)), m);
        return;
      }
    }
  }
};

Checker::Checker(bool track_undefined) : impl_(std::make_unique<Impl>()) { impl_->undef_on = track_undefined; }
Checker::~Checker() = default;

void Checker::on_issue(const Wave& w, const Inst& in, uint64_t) {
  Impl& im = *impl_;
  WaveState& s = im.state_of(w);
  const Facts& facts = *im.info_of(s, in);
  const InstInfo& info = facts.info;
  s.cur = &in;
  s.cur_record = -1;
  im.check_pending(s, in, info);
  im.check_hazards(s, in, facts);
  im.check_soft_clause(s, in, info);
  if (im.undef_on) im.track_undef(s, w, in, facts.uf);
  im.push_history(s, in, info);
  if (info.is_waitcnt) im.retire(s, in.mod.simm16);
  if (info.is_barrier) {
    // Snapshot what this wave has proven complete when it arrives at the barrier.
    s.group->snaps[s.wave].push_back({s.ds_retired, s.vm_retired});
    s.epoch++;
  }
  if (info.flags & (hz::SMEM | hz::DS | hz::VMEM | hz::FLAT)) im.add_record(s, in, info);
}

void Checker::on_waitcnt(const Wave& w, const Inst& in) {
  WaveState& s = impl_->state_of(w);
  if (in.mnemonic == "s_waitcnt") impl_->retire(s, in.mod.simm16);
}

void Checker::on_barrier(uint32_t) {}

void Checker::on_wave_end(const Wave& w) {
  auto* s = static_cast<WaveState*>(w.checker_state);
  if (!s || s->owner != impl_.get() || s->ended) return;
  std::lock_guard lock(impl_->state_mu);
  s->ended = true;
  // The group may already be gone (on_workgroup_end first): look it up, never trust s->group.
  auto it = impl_->groups.find(s->wg);
  if (it != impl_->groups.end() && s->wave < it->second->ended.size()) it->second->ended[s->wave] = 1;
  s->group = nullptr;
  impl_->free_waves.push_back(s);
  w.checker_state = nullptr;
}

void Checker::on_workgroup_end(uint32_t workgroup) {
  std::lock_guard lock(impl_->state_mu);
  impl_->groups.erase(workgroup);
}

std::vector<std::string> Checker::diagnostics() const {
  std::lock_guard lock(impl_->find_mu);
  std::vector<std::string> out;
  out.reserve(impl_->findings.size());
  for (auto& [k, v] : impl_->findings) out.push_back(v.message);
  return out;
}

std::vector<Finding> Checker::findings() const {
  std::lock_guard lock(impl_->find_mu);
  std::vector<Finding> out;
  out.reserve(impl_->findings.size());
  for (auto& [k, v] : impl_->findings)
    out.push_back({k.pc, k.rule, v.inst, v.message, v.count, v.first_wg, v.first_wave});
  return out;
}

std::vector<std::string> checker_rule_tags() {
  std::vector<std::string> out = {"pending-read", "pending-write", "lds-race", "lds-race-waw", "lds-race-war",
                                  "lds-dma-pending", "mem-race"};
  for (const char* t : undef::kRules) out.emplace_back(t);
  for (const std::string& t : hazard_tags()) out.push_back(t);
  out.emplace_back(hz::kSoftClauseTag);
  return out;
}

void checker_lds_access(const Wave& w, uint32_t addr, uint32_t n, LdsAccess kind) {
  auto* s = static_cast<WaveState*>(w.checker_state);
  if (!s || s->ended || !s->group) return;
  s->owner->lds_access(*s, w, addr, n, kind);
}

void checker_lds_access_lanes(const Wave& w, const uint32_t* addr, uint64_t lanes, uint32_t n,
                              LdsAccess kind) {
  auto* s = static_cast<WaveState*>(w.checker_state);
  if (!s || s->ended || !s->group) return;
  for (; lanes; lanes &= lanes - 1) s->owner->lds_access(*s, w, addr[std::countr_zero(lanes)], n, kind);
}

void checker_mem_access(const Wave& w, uint64_t addr, uint32_t n, bool write) {
  auto* s = static_cast<WaveState*>(w.checker_state);
  if (!s || s->ended || !s->group || n == 0) return;
  s->owner->mem_access(*s, w, addr, n, write);
}

void checker_flat_target(const Wave& w, bool vmem, bool lds) {
  auto* s = static_cast<WaveState*>(w.checker_state);
  if (!s || s->ended || s->cur_record < 0) return;
  Pending& p = s->pending[size_t(s->cur_record)];
  if (p.inst != s->cur || !p.flat) return;
  // Called as the FLAT instruction's lanes resolve (first LDS lane, then at the end): the
  // record becomes an in-order VMEM or DS op, or out of order on both if it touched both.
  if (vmem && lds) {
    p.queue = Queue::FlatBoth;
  } else if (vmem && p.queue == Queue::FlatBoth && p.seq == 0) {
    p.queue = Queue::Vmem;
    p.seq = ++s->vm_issued;
  } else if (lds && p.queue == Queue::FlatBoth && p.seq == 0) {
    p.queue = Queue::Ds;
    p.seq = ++s->ds_issued;
  }
}

}  // namespace hipasm::sim

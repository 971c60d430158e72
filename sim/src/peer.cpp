// The peer-visibility checker (see peer.hpp). Multi-device runs execute on one thread, so no
// locking.
#include "peer.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <string>
#include <unordered_map>

#include "memory.hpp"

namespace hipasm::sim {

namespace {

std::string text_of(const Inst& in) { return in.text.empty() ? in.mnemonic : in.text; }

using Clock = std::vector<uint32_t>;  // by wave id: the epochs of that wave visible here

void join(Clock& a, const Clock& b) {
  if (a.size() < b.size()) a.resize(b.size(), 0);
  for (size_t i = 0; i < b.size(); ++i) a[i] = std::max(a[i], b[i]);
}
uint32_t at(const Clock& c, uint32_t id) { return id < c.size() ? c[id] : 0; }

struct WaveSt {
  uint32_t id = 0;
  unsigned device = 0;
  uint32_t wg = 0, wave = 0;
  uint32_t epoch = 1;        // the epoch of this wave's writes now
  Clock vc;                  // what is visible to this wave (vc[id] unused)
  bool wbl2_pending = false;  // a buffer_wbl2 sc0 sc1 not yet completed by s_waitcnt vmcnt(0)
  Clock pending_release, released;  // published at the buffer_wbl2 / once it completed
  Clock acquiring;           // from system-scope loads since the last buffer_inv sc0 sc1
  const Inst* last_wbl2 = nullptr;
  uint64_t issued = 0;       // the wave's instruction count at the access (one occurrence each)
  const Inst* cur = nullptr;  // the instruction accessing memory and its interned index
  uint32_t cur_index = 0;
};

// Instructions are interned (Inst* -> index) so that a word's shadow stays small: a word of a
// mapped buffer keeps its last write and the last read of each device.
struct Word {
  uint32_t writer = 0;  // wave id + 1 (0: no kernel of this run wrote it)
  uint32_t wepoch = 0;  // epoch [30:0], bit 31: the write was system scope (an atomic access)
  uint32_t winst = 0;   // interned writing instruction
  uint32_t sync = 0;    // index + 1 in syncs: the clock a release store / atomic left here
  uint32_t epoch() const { return wepoch & 0x7fffffffu; }
  bool sys() const { return wepoch >> 31; }
};
struct Read {
  uint32_t reader = 0;  // wave id + 1
  uint32_t repoch = 0;  // epoch [30:0], bit 31: system scope
  uint32_t inst = 0;    // interned reading instruction
  uint32_t epoch() const { return repoch & 0x7fffffffu; }
  bool sys() const { return repoch >> 31; }
};
uint32_t with_sys(uint32_t epoch, bool sys) { return (epoch & 0x7fffffffu) | (uint32_t(sys) << 31); }
struct BackingShadow {
  std::vector<Word> words;
  std::vector<Read> reads;  // words * kMaxDevices: the last read of each device
};

struct Entry {
  std::string message, inst;
  uint64_t count = 0;
  uint32_t first_wg = 0, first_wave = 0;
  uint32_t last_id = UINT32_MAX;
  uint64_t last_issued = 0;
};

// An access with scope bits or an atomic: meant as a synchronising access (a flag).
bool flag_like(const Inst& in) { return (in.cls & C_ATOMIC) || in.mod.sc0 || in.mod.sc1; }
bool is_mem(const Inst& in) { return in.cls & (C_VMEM | C_FLAT); }
bool system_scope(const Inst& in) {
  if (in.cls & C_ATOMIC) return in.mod.sc1;  // atomics: sc0 = return the old value
  return in.mod.sc0 && in.mod.sc1;
}

}  // namespace

struct PeerChecker::Impl {
  std::vector<std::unique_ptr<WaveSt>> waves;
  std::unordered_map<const Backing*, BackingShadow> shadows;
  std::vector<Clock> syncs;
  std::vector<const Inst*> insts;  // interned
  std::unordered_map<const Inst*, uint32_t> inst_index;
  std::map<std::tuple<unsigned, uint64_t, std::string>, Entry> found;

  uint32_t intern(const Inst& in) {
    auto [it, added] = inst_index.emplace(&in, uint32_t(insts.size()));
    if (added) insts.push_back(&in);
    return it->second;
  }

  WaveSt& state(const Wave& w) {
    if (w.peer_state) return *static_cast<WaveSt*>(w.peer_state);
    auto s = std::make_unique<WaveSt>();
    s->id = uint32_t(waves.size());
    s->device = w.dispatch ? w.dispatch->device : 0;
    s->wg = w.workgroup_linear;
    s->wave = w.wave_in_group;
    w.peer_state = s.get();
    waves.push_back(std::move(s));
    return *waves.back();
  }

  template <class What>
  void report(const WaveSt& s, const Inst& in, const char* rule, What&& what) {
    Entry& e = found[{s.device, in.pc, rule}];
    if (e.last_id == s.id && e.last_issued == s.issued) return;  // another lane or word of it
    e.last_id = s.id;
    e.last_issued = s.issued;
    const bool first = e.count++ == 0;
    if (first || std::pair(s.wg, s.wave) < std::pair(e.first_wg, e.first_wave)) {
      e.first_wg = s.wg;
      e.first_wave = s.wave;
      e.inst = text_of(in);
      e.message = hex(in.pc) + ": " + e.inst + ": [" + rule + "] " + what();
    }
  }

  std::string who(const WaveSt& o, const Inst* in) const {
    return "device " + std::to_string(o.device) + " (workgroup " + std::to_string(o.wg) + " wave " +
           std::to_string(o.wave) + (in ? ", " + hex(in->pc) + " " + text_of(*in) : std::string()) + ")";
  }

  void read_word(WaveSt& s, const Inst& in, uint32_t ii, const Backing& b, BackingShadow& sh, size_t wi, bool sys) {
    Word& wd = sh.words[wi];
    if (wd.writer) {
      const WaveSt& o = *waves[wd.writer - 1];
      if (o.device != s.device && !(sys && wd.sys()) && wd.epoch() > at(s.vc, o.id)) {
        report(s, in, "peer-visibility", [&] {
          const Inst* winst = insts[wd.winst];
          const bool released = at(o.released, o.id) >= wd.epoch();
          return "reads " + hex(b.home_base + 4 * wi) + " of device " + std::to_string(b.home) + "'s memory, written by " +
                 who(o, winst) + ", which is not visible here: " +
                 (released ? std::string("the writer released it, but this wave did not acquire it (a load sc0 sc1 or "
                                         "atomic sc1 of the flag that carries it, then s_waitcnt vmcnt(0) and "
                                         "buffer_inv sc0 sc1 before this read)")
                           : std::string("the writer has not released it at system scope (buffer_wbl2 sc0 sc1 and "
                                         "s_waitcnt vmcnt(0) after the write, then the flag stored sc0 sc1 or written "
                                         "by an atomic sc1)")) +
                 (flag_like(in) || flag_like(*winst)
                      ? "; a flag read by another device needs system scope on both sides (a store or load with sc0 "
                        "sc1, an atomic with sc1)"
                      : "") +
                 " (LLVM AMDGPUUsage, memory model GFX942)";
        });
      }
    }
    if (sys && wd.sync) join(s.acquiring, syncs[wd.sync - 1]);
    sh.reads[wi * kMaxDevices + s.device] = {s.id + 1, with_sys(s.epoch, sys), ii};
  }

  void write_word(WaveSt& s, const Inst& in, uint32_t ii, const Backing& b, BackingShadow& sh, size_t wi, bool sys,
                  bool atomic) {
    Word& wd = sh.words[wi];
    auto race = [&](const WaveSt& o, const Inst* oin, const char* what) {
      report(s, in, "peer-race", [&] {
        return "writes " + hex(b.home_base + 4 * wi) + " of device " + std::to_string(b.home) + "'s memory, which " +
               who(o, oin) + " " + what + " with no system-scope release there and acquire here in between" +
               " (LLVM AMDGPUUsage, memory model GFX942)";
      });
    };
    if (wd.writer) {
      const WaveSt& o = *waves[wd.writer - 1];
      if (o.device != s.device && !(sys && wd.sys()) && wd.epoch() > at(s.vc, o.id)) race(o, insts[wd.winst], "wrote");
    }
    for (unsigned d = 0; d < kMaxDevices; ++d) {
      const Read& r = sh.reads[wi * kMaxDevices + d];
      if (!r.reader || d == s.device) continue;
      const WaveSt& o = *waves[r.reader - 1];
      if (!(sys && r.sys()) && r.epoch() > at(s.vc, o.id)) {
        race(o, insts[r.inst], "read");
        break;
      }
    }
    if (atomic && sys && wd.sync) {
      // an atomic continues the release sequence: the word carries both clocks
      Clock c = syncs[wd.sync - 1];
      if (!s.released.empty()) join(c, s.released);
      syncs.push_back(std::move(c));
      wd.sync = uint32_t(syncs.size());
    } else if (sys && !s.released.empty()) {
      syncs.push_back(s.released);
      wd.sync = uint32_t(syncs.size());
    } else if (!atomic) {
      wd.sync = 0;
    }
    wd.writer = s.id + 1;
    wd.wepoch = with_sys(s.epoch, sys);
    wd.winst = ii;
  }
};

PeerChecker::PeerChecker() : impl_(std::make_unique<Impl>()) {}
PeerChecker::~PeerChecker() = default;

void PeerChecker::on_issue(const Wave& w, const Inst& in) {
  if (!(in.cls & (C_VMEM | C_WAITCNT))) return;  // (every instruction of every wave comes here)
  const bool wbl2 = in.mnemonic == "buffer_wbl2", inv = in.mnemonic == "buffer_inv";
  const bool waitcnt = in.mnemonic == "s_waitcnt";
  if (!wbl2 && !inv && !waitcnt) return;
  WaveSt& s = impl_->state(w);
  if (wbl2 && in.mod.sc0 && in.mod.sc1) {
    s.pending_release = s.vc;
    if (s.pending_release.size() <= s.id) s.pending_release.resize(s.id + 1, 0);
    s.pending_release[s.id] = s.epoch;
    s.epoch++;
    s.wbl2_pending = true;
    s.last_wbl2 = &in;
  } else if (inv && in.mod.sc0 && in.mod.sc1) {
    join(s.vc, s.acquiring);
    s.acquiring.clear();
  } else if (waitcnt && s.wbl2_pending) {
    if (waitcnt_vmcnt(in.mod.simm16) == 0) {
      join(s.released, s.pending_release);
      s.wbl2_pending = false;
    }
  }
}

void PeerChecker::on_access(const Wave& w, const Inst& in, Backing& b, uint64_t offset, size_t n, int, bool write) {
  if (!is_mem(in)) return;  // scalar loads (kernel arguments), scratch: not a peer's data
  Impl& im = *impl_;
  WaveSt& s = im.state(w);
  s.issued = w.issued;
  BackingShadow& sh = im.shadows[&b];
  if (sh.words.empty()) {
    sh.words.resize((b.size + 3) / 4);
    sh.reads.resize(sh.words.size() * kMaxDevices);
  }
  const bool atomic = (in.cls & C_ATOMIC) != 0, sys = system_scope(in);
  if (s.cur != &in) {  // the instruction's index once, not per lane
    s.cur = &in;
    s.cur_index = im.intern(in);
  }
  const uint32_t ii = s.cur_index;
  const size_t first = size_t(offset / 4), last = size_t((offset + std::max<size_t>(n, 1) - 1) / 4);
  for (size_t wi = first; wi <= last && wi < sh.words.size(); ++wi) {
    if (!write || atomic) im.read_word(s, in, ii, b, sh, wi, sys);
    if (write) im.write_word(s, in, ii, b, sh, wi, sys, atomic);
  }
}

void PeerChecker::on_barrier(std::span<Wave* const> ws) {
  Clock all;
  for (Wave* w : ws) {
    WaveSt& s = impl_->state(*w);
    join(all, s.vc);
    if (all.size() <= s.id) all.resize(s.id + 1, 0);
    all[s.id] = std::max(all[s.id], s.epoch);
  }
  for (Wave* w : ws) {
    WaveSt& s = impl_->state(*w);
    s.vc = all;
    s.epoch++;
  }
}

std::vector<Finding> PeerChecker::findings(unsigned device) const {
  std::vector<Finding> out;
  for (const auto& [k, e] : impl_->found)
    if (std::get<0>(k) == device)
      out.push_back({std::get<1>(k), std::get<2>(k), e.inst, e.message, e.count, e.first_wg, e.first_wave});
  return out;
}

std::vector<std::string> peer_rule_tags() { return {"peer-visibility", "peer-race"}; }

}  // namespace hipasm::sim

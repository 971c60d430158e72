// One kernel dispatch: decode once, build the gfx942 entry state of each wave, run the
// workgroups on worker threads (each workgroup is independent, so results do not depend on
// the thread count), interleave a workgroup's waves one instruction per turn (round-robin,
// or a seeded random order), release s_barrier when every unfinished wave has reached it.
// Code using ds_gws_* (global wave sync) couples workgroups: such a dispatch keeps several
// workgroups resident on one thread and starts the next one when all resident waves block
// (run_cooperative); waves blocked forever are reported as a deadlock.
#include "dispatch.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cinttypes>
#include <exception>
#include <mutex>
#include <random>
#include <thread>

namespace hipasm::sim {
namespace {

// hsa_kernel_dispatch_packet_t field offsets (HSA runtime spec).
constexpr size_t kPacketSize = 64;

struct Abandoned {};  // a later workgroup stops because an earlier one failed

struct Alloc {  // a device allocation freed at scope exit
  Memory& mem;
  uint64_t addr = 0;
  Alloc(Memory& m, size_t bytes, size_t align = 256) : mem(m), addr(m.alloc(bytes, align)) {}
  ~Alloc() {
    try { mem.free(addr); } catch (...) {}
  }
};

template <class T>
void put(std::vector<uint8_t>& b, size_t off, T v) {
  std::memcpy(b.data() + off, &v, sizeof v);
}

struct Shared {
  const Program* prog = nullptr;
  Dispatch dispatch;
  const KernelImage* image = nullptr;
  const DispatchParams* params = nullptr;
  uint32_t waves_per_group = 0, threads_per_group = 0;
  uint64_t budget = 0;
  std::atomic<uint64_t> executed{0};
  std::atomic<uint64_t> lane_ops{0};
  std::atomic<uint64_t> next_group{0};
  std::atomic<uint64_t> fail_at{~0ull};  // smallest failing workgroup (deterministic error)
  std::mutex err_mu;
  std::exception_ptr error;
  uint64_t error_group = ~0ull;
  uint64_t scratch_slot_bytes = 0;  // per worker: waves_per_group * 64 * stride
  uint64_t seed_salt = 0;           // device d of a multi-device run: its waves' orders differ
  std::mutex trace_mu;
};

// The nearest symbol at or before a code address, as llvm-objdump-22 names branch targets:
// (name, offset from it); name empty when no symbol precedes the address.
std::pair<std::string, uint64_t> code_symbol_at(const KernelImage& k, uint64_t addr) {
  const auto& syms = k.code_symbols;
  auto it = std::upper_bound(syms.begin(), syms.end(), addr,
                             [](uint64_t a, const std::pair<uint64_t, std::string>& s) { return a < s.first; });
  if (it == syms.begin()) return {std::string(), 0};
  --it;
  return {it->second, addr - it->first};
}

void trace_inst(std::FILE* out, const Wave& w, const Inst& in, uint64_t old_exec, uint64_t old_vcc,
                bool old_scc) {
  // A direct branch as llvm-objdump-22 prints it: the target's symbol in place of the raw
  // 16-bit field when one is there ("s_branch label_016A"), else the raw field (65534 for -2)
  // and <symbol+offset>; then the target address and the signed offset.
  const Operand* label = nullptr;
  for (int i = 0; i < in.num_src; ++i)
    if (in.src[i].kind == Operand::Label) label = &in.src[i];
  if (!label) {
    std::fprintf(out, "wg(%u,%u,%u) w%u 0x%" PRIx64 ": %s", w.workgroup_id[0], w.workgroup_id[1],
                 w.workgroup_id[2], w.wave_in_group, in.pc, in.text.c_str());
  } else {
    const uint64_t target = uint64_t(label->imm);
    const auto [sym, off] = code_symbol_at(*w.dispatch->image, target);
    std::string text = in.text;
    if (!sym.empty() && off == 0) {
      text = text.substr(0, text.rfind(' ') + 1) + sym;
    } else if (!sym.empty()) {
      char hex[24];
      std::snprintf(hex, sizeof hex, "+0x%" PRIx64, off);
      text += " <" + sym + hex + ">";
    }
    std::fprintf(out, "wg(%u,%u,%u) w%u 0x%" PRIx64 ": %s (0x%" PRIx64 ", offset %d)", w.workgroup_id[0],
                 w.workgroup_id[1], w.workgroup_id[2], w.wave_in_group, in.pc, text.c_str(), target,
                 int(int16_t(in.mod.simm16)));
  }
  bool any = false;
  auto sep = [&] {
    std::fputs(any ? ", " : "  ->  ", out);
    any = true;
  };
  for (int i = 0; i < in.num_dst; ++i) {
    const Operand& o = in.dst[i];
    if (o.kind == Operand::Vgpr || o.kind == Operand::Agpr) {
      for (int d = 0; d < o.dwords; ++d) {
        sep();
        std::fprintf(out, "%c%u=[", o.kind == Operand::Vgpr ? 'v' : 'a', o.reg + d);
        for (int l = 0; l < kLanes; ++l) {
          if (w.exec >> l & 1) std::fprintf(out, "%s%x", l ? " " : "", read_u32(w, o, l, d));
          else std::fprintf(out, "%s-", l ? " " : "");
        }
        std::fputc(']', out);
      }
    } else if (o.kind == Operand::Sgpr) {
      for (int d = 0; d < o.dwords; ++d) {
        sep();
        std::fprintf(out, "s%u=0x%x", o.reg + d, w.sgpr[o.reg + d]);
      }
    } else if (o.kind == Operand::M0) {
      sep();
      std::fprintf(out, "m0=0x%x", w.m0);
    }
  }
  if (w.exec != old_exec) { sep(); std::fprintf(out, "exec=0x%016" PRIx64, w.exec); }
  if (w.vcc != old_vcc) { sep(); std::fprintf(out, "vcc=0x%016" PRIx64, w.vcc); }
  if (w.scc != old_scc) { sep(); std::fprintf(out, "scc=%d", int(w.scc)); }
  if (w.pc != in.pc + in.size && !w.done) { sep(); std::fprintf(out, "pc=0x%" PRIx64, w.pc); }
  std::fputc('\n', out);
}

[[noreturn]] void bad_pc(const Wave& w, uint64_t pc, const Program& prog) {
  char b[160];
  const Inst* in = prog.at(pc);
  if (in && !in->exec && !in->mnemonic.empty())
    fail(*in, "no simulator semantics for " + in->mnemonic);
  if (in) fail(*in, "unknown instruction encoding");
  std::snprintf(b, sizeof b, "wave %u of workgroup (%u,%u,%u) jumped to 0x%" PRIx64
                ", which is not an instruction of the kernel's code",
                w.wave_in_group, w.workgroup_id[0], w.workgroup_id[1], w.workgroup_id[2], pc);
  throw sim::error(b);
}

// VGPR index mode (MODE.gpr_idx_en, set by s_set_gpr_idx_on): a VALU instruction's VGPR
// operands selected by M0[15:12] (bit 12 src0, 13 src1, 14 src2, 15 dst) are offset by M0[7:0].
// Only VGPRs are: SGPRs, constants, AGPRs and every non-VALU instruction (memory, SALU) are
// not (the ISA applies indexing to VALU operands). The slots are the decoder's, which match the
// ISA's table of special cases: v_madmk/v_fmamk have the literal in src1 and vsrc1 in src2
// (so src2_enable offsets it); accumulating forms (v_mac/v_fmac, SDWA dst preserve) read the
// old value from dst[0], which dst_enable offsets; v_readlane's src0 and v_writelane's dst
// follow their own bits. An index beyond the wave's VGPRs is an error (illegal per the ISA).
// The rewritten instruction is kept with the Program (the checker keys its facts by address).
const Inst& gpr_indexed(const Program& prog, const Wave& w, const Inst& in) {
  const uint8_t idx = uint8_t(w.m0 & 0xff), mask = uint8_t((w.m0 >> 12) & 15);
  if (idx == 0 || mask == 0) return in;
  auto selected = [&](int slot) -> const Operand* {  // slot 0..2 = src0..2, 3 = dst
    if (!(mask >> slot & 1)) return nullptr;
    const Operand& o = slot == 3 ? in.dst[0] : in.src[size_t(slot)];
    return o.kind == Operand::Vgpr ? &o : nullptr;
  };
  bool any = false;
  for (int slot = 0; slot < 4; ++slot) {
    const Operand* o = selected(slot);
    if (!o) continue;
    any = true;
    if (o->reg + idx + o->dwords > w.accum_offset)
      fail(in, "VGPR index mode: v" + std::to_string(o->reg) + " + M0[7:0] (" + std::to_string(idx) +
                   ") is beyond the wave's " + std::to_string(w.accum_offset) + " VGPRs");
  }
  if (!any) return in;
  std::lock_guard lock(prog.indexed->mu);
  auto& made = prog.indexed->made[{&in, idx, mask}];
  if (!made) {
    auto v = std::make_unique<Inst>(in);
    for (int slot = 0; slot < 4; ++slot)
      if (selected(slot)) (slot == 3 ? v->dst[0] : v->src[size_t(slot)]).reg += idx;
    v->text += "  (gpr_idx +" + std::to_string(idx) + ")";
    made = std::move(v);
  }
  return *made;
}

// Entry state of one wave (gfx942, from the kernel descriptor).
void init_wave(Wave& w, Shared& S, Workgroup& g, uint32_t index, uint64_t scratch_base) {
  const KernelImage& k = *S.image;
  const DispatchParams& p = *S.params;
  // Registers the dispatch does not initialise hold garbage on hardware: kPoison here.
  std::fill(w.sgpr.begin(), w.sgpr.end(), kPoison);
  std::fill(w.vgpr.begin(), w.vgpr.end(), kPoison);
  w.vcc = uint64_t(kPoison) << 32 | kPoison;
  w.m0 = kPoison;
  w.scc = false;
  w.pc = k.entry;
  w.accum_offset = k.accum_offset ? k.accum_offset : 256;
  w.done = w.at_barrier = false;
  w.gws_wait = nullptr;
  w.mode = (k.float_round_mode_32 & 3) | (k.float_round_mode_16_64 & 3) << 2 |
           (k.float_denorm_mode_32 & 3) << 4 | (k.float_denorm_mode_16_64 & 3) << 6 |
           uint32_t(k.dx10_clamp) << 8 | uint32_t(k.ieee_mode) << 9;
  w.trapsts = 0;
  w.wave_in_group = index;
  w.workgroup_linear = g.linear;
  w.wave_id = uint32_t(uint64_t(g.linear) * S.waves_per_group + index);
  std::copy(std::begin(g.id), std::end(g.id), std::begin(w.workgroup_id));
  w.dispatch = &S.dispatch;
  w.group = &g;
  w.lds = g.lds.data();
  w.lds_size = uint32_t(g.lds.size());
  w.scratch_lane_stride = (k.private_segment_fixed_size + 15) & ~15u;
  w.scratch_base = scratch_base;
  w.cur = nullptr;
  w.checker_state = nullptr;
  w.peer_state = nullptr;
  w.issued = 0;
  w.lane_ops = 0;

  // EXEC: the work-items that exist in this wave.
  uint32_t first = index * kLanes;
  uint32_t n = std::min<uint32_t>(kLanes, S.threads_per_group - first);
  w.exec = n >= 64 ? ~0ull : ((1ull << n) - 1);

  // User SGPRs in the order of the descriptor's enable bits.
  unsigned s = 0;
  auto put2 = [&](uint64_t v) {
    w.sgpr[s++] = uint32_t(v);
    w.sgpr[s++] = uint32_t(v >> 32);
  };
  if (k.sgpr_private_segment_buffer) {
    // A buffer resource for the wave's private segment: base, stride 0, num_records = size.
    uint64_t base = scratch_base;
    w.sgpr[s++] = uint32_t(base);
    w.sgpr[s++] = uint32_t(base >> 32) & 0xffff;
    w.sgpr[s++] = w.scratch_lane_stride * kLanes;
    w.sgpr[s++] = 0x00027000u;  // dst_sel xyzw, 32-bit data format (what ROCm's CP writes)
  }
  if (k.sgpr_dispatch_ptr) put2(S.dispatch.dispatch_packet_addr);
  if (k.sgpr_queue_ptr) put2(S.dispatch.queue_addr);
  if (k.sgpr_kernarg_segment_ptr) put2(S.dispatch.kernarg_addr);
  if (k.sgpr_dispatch_id) put2(0);
  if (k.sgpr_flat_scratch_init) put2(scratch_base);
  if (k.sgpr_private_segment_size) w.sgpr[s++] = w.scratch_lane_stride;
  // Preloaded kernel arguments (gfx940+): kernarg_preload_length dwords of the kernarg segment
  // from dword kernarg_preload_offset, in the user SGPRs right after the enabled ones.
  for (unsigned i = 0; i < k.kernarg_preload_length && s < kNumSgprs; ++i, ++s) {
    uint32_t v = 0;
    const size_t off = (size_t(k.kernarg_preload_offset) + i) * 4;
    if (off < p.kernarg.size()) std::memcpy(&v, p.kernarg.data() + off, std::min<size_t>(4, p.kernarg.size() - off));
    w.sgpr[s] = v;
  }
  s = std::max<unsigned>(s, k.user_sgpr_count);
  for (int d = 0; d < 3; ++d)
    if (k.sgpr_workgroup_id[d] && s < kNumSgprs) w.sgpr[s++] = g.id[d];
  if (k.sgpr_workgroup_info && s < kNumSgprs) w.sgpr[s++] = 0;
  if (k.sgpr_private_segment_wavefront_offset && s < kNumSgprs) w.sgpr[s++] = 0;
  w.entry_sgprs = s;
  // Flat scratch (architected on gfx942): the wave's private base.
  w.sgpr[102] = uint32_t(scratch_base);
  w.sgpr[103] = uint32_t(scratch_base >> 32);

  // v0: packed work-item ids x | y << 10 | z << 20 (gfx90a+), only the enabled ones.
  const uint32_t bx = p.block[0], by = p.block[1];
  uint32_t* v0 = w.v(0);
  for (uint32_t l = 0; l < n; ++l) {
    uint32_t t = first + l;
    uint32_t x = t % bx, y = (t / bx) % by, z = t / (bx * by);
    uint32_t v = x;
    if (k.vgpr_workitem_id >= 1) v |= y << 10;
    if (k.vgpr_workitem_id >= 2) v |= z << 20;
    v0[l] = v;
  }
}

struct Worker {
  std::vector<std::unique_ptr<Wave>> waves;
  Workgroup group;
  uint64_t scratch_base = 0;        // device address of this worker's private-segment slot
  std::unique_ptr<Alloc> scratch;   // cooperative mode: the slot's own allocation
};

// One workgroup in flight: start(), then turn() until live == 0, then end(); abort() on error.
// A turn issues one instruction per runnable wave (round-robin) or one random burst (seeded).
struct GroupRun {
  Shared& S;
  Worker& wk;
  uint64_t linear;
  const Program& prog;
  Observer* obs;
  const bool trace;
  std::FILE* tout;
  std::mt19937_64 rng;
  const bool random_order;
  uint32_t live = 0;
  uint64_t local_exec = 0, local_lanes = 0;
  std::vector<uint32_t> runnable;
  uint32_t rr = 0;
  const uint64_t flush_every;

  GroupRun(Shared& s, Worker& w, uint64_t lin)
      : S(s), wk(w), linear(lin), prog(*s.prog), obs(s.dispatch.observer), trace(s.dispatch.trace),
        tout(s.params->trace_out ? s.params->trace_out : stdout),
        // Seeded interleaving: a per-workgroup generator, so the order does not depend on threads.
        rng(s.params->seed ^ (lin * 0x9E3779B97F4A7C15ull) ^ s.seed_salt), random_order(s.params->seed != 0),
        flush_every(std::clamp<uint64_t>(s.budget / 64, 1, 4096)) {}

  void start() {
    const KernelImage& k = *S.image;
    const DispatchParams& p = *S.params;
    Workgroup& g = wk.group;
    g.linear = uint32_t(linear);
    g.id[0] = uint32_t(linear % p.grid[0]);
    g.id[1] = uint32_t((linear / p.grid[0]) % p.grid[1]);
    g.id[2] = uint32_t(linear / (uint64_t(p.grid[0]) * p.grid[1]));
    g.num_waves = S.waves_per_group;
    g.lds.resize(size_t(k.group_segment_fixed_size) + p.dynamic_lds);
    for (size_t i = 0; i < g.lds.size(); ++i) g.lds[i] = uint8_t(kPoison >> (8 * (i & 3)));
    while (wk.waves.size() < S.waves_per_group) {
      auto w = std::make_unique<Wave>();
      w->vgpr.assign(size_t(kMaxVgprs) * kLanes, kPoison);
      wk.waves.push_back(std::move(w));
    }
    uint64_t scratch_base = 0;
    for (uint32_t i = 0; i < S.waves_per_group; ++i) {
      if (S.dispatch.scratch_addr || wk.scratch)
        scratch_base = wk.scratch_base + uint64_t(i) * kLanes * ((k.private_segment_fixed_size + 15) & ~15u);
      init_wave(*wk.waves[i], S, g, i, scratch_base);
    }
    runnable.reserve(S.waves_per_group);
    live = S.waves_per_group;
  }

  void flush() {
    uint64_t total = S.executed.fetch_add(local_exec) + local_exec;
    S.lane_ops.fetch_add(local_lanes);
    local_exec = local_lanes = 0;
    if (total > S.budget) {
      char b[160];
      std::snprintf(b, sizeof b,
                    "instruction budget of %" PRIu64 " wave-instructions exceeded (a hang?)", S.budget);
      throw sim::error(b);
    }
    if (S.fail_at.load(std::memory_order_relaxed) < linear) throw Abandoned{};
  }

  void step(Wave& w) {
    const Inst* in = prog.at(w.pc);
    if (!in || !in->exec) bad_pc(w, w.pc, prog);
    if (w.mode & (kModeVskip | kModeGprIdxEn)) [[unlikely]] {
      // MODE.vskip (s_setvskip): vector instructions (VALU incl. MFMA, MUBUF, DS, FLAT/GLOBAL/
      // SCRATCH) are not issued: no effect, no checker record, no waitcnt counter (the ISA).
      if ((w.mode & kModeVskip) && (in->cls & (C_VALU | C_VMEM | C_DS | C_FLAT))) {
        w.pc = in->pc + in->size;
        if (trace) {
          std::lock_guard lock(S.trace_mu);
          std::fprintf(tout, "wg(%u,%u,%u) w%u 0x%" PRIx64 ": %s  (skipped: MODE.vskip)\n",
                       w.workgroup_id[0], w.workgroup_id[1], w.workgroup_id[2], w.wave_in_group,
                       in->pc, in->text.c_str());
        }
        if (++local_exec >= flush_every) flush();
        return;
      }
      if ((w.mode & kModeGprIdxEn) && (in->cls & C_VALU)) in = &gpr_indexed(prog, w, *in);
    }
    w.cur = in;
    if (obs) obs->on_issue(w, *in, w.issued);
    if (S.dispatch.peer) [[unlikely]] S.dispatch.peer->on_issue(w, *in);
    ++w.issued;
    if (in->cls & (C_VALU | C_VMEM | C_DS | C_FLAT)) local_lanes += std::popcount(w.exec);
    w.pc = in->pc + in->size;
    if (!trace) {
      in->exec(w, *in);
    } else {
      uint64_t e = w.exec, v = w.vcc;
      bool sc = w.scc;
      in->exec(w, *in);
      std::lock_guard lock(S.trace_mu);
      trace_inst(tout, w, *in, e, v, sc);
    }
    if (++local_exec >= flush_every) flush();
    if (w.done) {
      --live;
      if (obs) obs->on_wave_end(w);
    }
  }

  static bool blocked(const Wave& w) { return w.done || w.at_barrier || w.gws_wait; }

  // One scheduling turn; false if no wave could issue (all blocked at GWS / s_barrier).
  bool turn() {
    // Release the barrier when every unfinished wave waits at it (a wave blocked at a GWS
    // instruction has not arrived).
    bool all_waiting = true;
    for (uint32_t i = 0; i < S.waves_per_group; ++i) {
      Wave& w = *wk.waves[i];
      if (!w.done && !w.at_barrier) { all_waiting = false; break; }
    }
    if (all_waiting) {
      for (uint32_t i = 0; i < S.waves_per_group; ++i) wk.waves[i]->at_barrier = false;
      if (obs) obs->on_barrier(wk.group.linear);
      if (S.dispatch.peer) {
        std::vector<Wave*> ws;
        for (uint32_t i = 0; i < S.waves_per_group; ++i) ws.push_back(wk.waves[i].get());
        S.dispatch.peer->on_barrier(ws);
      }
    }
    bool issued = false;
    if (!random_order) {
      // Round-robin: one instruction per runnable wave per turn.
      for (uint32_t n = 0; n < S.waves_per_group; ++n) {
        Wave& w = *wk.waves[(rr + n) % S.waves_per_group];
        if (blocked(w)) continue;
        step(w);
        issued = true;
      }
      rr = (rr + 1) % S.waves_per_group;
    } else {
      runnable.clear();
      for (uint32_t i = 0; i < S.waves_per_group; ++i)
        if (!blocked(*wk.waves[i])) runnable.push_back(i);
      if (runnable.empty()) return false;
      // A random burst from a random wave, so waves drift far apart.
      Wave& w = *wk.waves[runnable[rng() % runnable.size()]];
      for (unsigned burst = 1 + unsigned(rng() % 8); burst-- && !blocked(w);) step(w);
      issued = true;
    }
    return issued;
  }

  void end() {
    flush();
    if (obs) obs->on_workgroup_end(wk.group.linear);
  }

  void abort() noexcept {
    if (obs) {
      for (uint32_t i = 0; i < S.waves_per_group; ++i)
        if (!wk.waves[i]->done) {
          try { obs->on_wave_end(*wk.waves[i]); } catch (...) {}
        }
      try { obs->on_workgroup_end(wk.group.linear); } catch (...) {}
    }
    S.lane_ops.fetch_add(local_lanes);
    local_lanes = 0;
  }
};

// Runs one workgroup to completion (or throws).
void run_group(Shared& S, Worker& wk, uint64_t linear) {
  GroupRun r(S, wk, linear);
  try {
    r.start();
    while (r.live > 0) {
      // Without GWS a turn always issues: s_barrier is released once every wave is there.
      if (!r.turn()) throw sim::error("internal: no wave of a workgroup can issue");
    }
    r.flush();
  } catch (...) {
    r.abort();
    throw;
  }
  if (r.obs) r.obs->on_workgroup_end(uint32_t(linear));
}

// "GWS barrier never completes" and friends: the first blocked wave (workgroup order, then
// wave order) names the instruction.
[[noreturn]] void gws_deadlock(const Shared& S, const std::vector<std::unique_ptr<GroupRun>>& active) {
  for (auto& r : active)
    for (uint32_t i = 0; i < S.waves_per_group; ++i) {
      const Wave& w = *r->wk.waves[i];
      if (!w.gws_wait) continue;
      const Inst& in = *w.gws_wait;
      uint32_t rid = (((w.m0 >> 16) & 63u) + uint32_t(in.mod.offset)) % Gws::kResources;
      const GwsResource& res = S.dispatch.gws->res[rid];
      if (in.mnemonic == "ds_gws_barrier")
        fail(in, "GWS barrier never completes: " + std::to_string(res.waiting.size()) + " of " +
                     std::to_string(res.waves) + " waves arrived (resource " + std::to_string(rid) +
                     ", every workgroup of the grid is resident)");
      fail(in, "GWS semaphore never released: " + std::to_string(res.waiting.size()) +
                   " waves wait in ds_gws_sema_p (resource " + std::to_string(rid) + ", counter " +
                   std::to_string(res.counter) + ")");
    }
  throw sim::error("dispatch: deadlock: every wave waits at s_barrier behind a wave blocked elsewhere");
}

// Dispatches whose code uses ds_gws_* run here, on one thread (results then cannot depend on
// --threads): a GWS barrier needs all participating waves resident, like a cooperative launch.
// Resident workgroups take turns; when none of them can issue (all blocked at GWS/s_barrier),
// the next workgroup of the grid starts; when none is left, that is a deadlock.
// The workgroups of one dispatch that run on one thread together (run_cooperative, run_node):
// the resident ones, each with a worker (private segment) reused when a workgroup ends.
struct ResidentGroups {
  Shared* S = nullptr;
  uint64_t stride = 1;  // ids: next * stride (a sampled dispatch)
  std::vector<std::unique_ptr<Worker>> idle, owned;  // owned parallel to active
  std::vector<std::unique_ptr<GroupRun>> active;
  uint64_t next = 0;

  void start() {
    std::unique_ptr<Worker> wk;
    if (!idle.empty()) {
      wk = std::move(idle.back());
      idle.pop_back();
    } else {
      wk = std::make_unique<Worker>();
      if (S->scratch_slot_bytes) {
        wk->scratch = std::make_unique<Alloc>(*S->dispatch.memory, S->scratch_slot_bytes, 256);
        wk->scratch_base = wk->scratch->addr;
      }
    }
    owned.push_back(std::move(wk));
    active.push_back(std::make_unique<GroupRun>(*S, *owned.back(), next++ * stride));
    active.back()->start();
  }
  // One turn of resident workgroup i; retires it when it finished. Whether a wave issued.
  bool turn(size_t i) {
    const bool issued = active[i]->turn();
    if (active[i]->live == 0) {
      active[i]->end();
      idle.push_back(std::move(owned[i]));
      active.erase(active.begin() + std::ptrdiff_t(i));
      owned.erase(owned.begin() + std::ptrdiff_t(i));
    }
    return issued;
  }
  void abort() {
    for (auto& r : active) r->abort();
  }
};

void run_cooperative(Shared& S, uint64_t groups) {
  ResidentGroups r{&S};
  try {
    for (;;) {
      bool progress = false;
      for (size_t i = 0; i < r.active.size();) {
        const size_t before = r.active.size();
        progress |= r.turn(i);
        if (r.active.size() == before) ++i;
      }
      if (progress) continue;
      if (r.next < groups) {
        r.start();
        continue;
      }
      if (r.active.empty()) return;
      gws_deadlock(S, r.active);
    }
  } catch (...) {
    r.abort();
    throw;
  }
}

// Everything a dispatch sets up before its waves run: the decoded program, the kernarg
// segment, the dispatch packet, the queue stand-in and the private segments.
struct Prepared {
  Shared S;
  std::shared_ptr<const Program> prog;
  std::unique_ptr<Alloc> kernarg, packet, queue, scratch;
  Gws gws;
  bool uses_gws = false;
  unsigned threads = 1;
  uint64_t groups = 0, stride = 1;
};

// `cooperative`: the workers allocate their own private segments (run_cooperative, run_node).
std::unique_ptr<Prepared> prepare(const KernelImage& image, const DispatchParams& params, Memory& memory,
                                  Observer* checker, bool cooperative) {
  for (int d = 0; d < 3; ++d) {
    if (params.grid[d] == 0 || params.block[d] == 0)
      throw sim::error("dispatch: grid and block dimensions must be at least 1");
  }
  uint64_t tpg = uint64_t(params.block[0]) * params.block[1] * params.block[2];
  if (tpg > 1024) throw sim::error("dispatch: " + std::to_string(tpg) + " work-items per workgroup (gfx942 allows 1024)");
  if (params.block[0] > 1024 || params.block[1] > 1024 || params.block[2] > 1024)
    throw sim::error("dispatch: a block dimension exceeds 1024");
  uint64_t lds = uint64_t(image.group_segment_fixed_size) + params.dynamic_lds;
  if (lds > image.target->lds_bytes)
    throw sim::error("dispatch: " + std::to_string(lds) + " bytes of LDS per workgroup (" +
                    image.target->name + " has " + std::to_string(image.target->lds_bytes) + ")");
  // A workgroup's waves are resident together, spread over the CU's 4 SIMDs, each SIMD's 512
  // VGPRs+AGPRs a lane shared by its waves (gfx942/gfx950: the unified file): a workgroup that
  // needs more can never be placed, and would hang the dispatcher.
  const uint64_t waves_per_simd = ((tpg + kLanes - 1) / kLanes + 3) / 4;
  if (waves_per_simd * image.next_free_vgpr > uint64_t(kMaxVgprs))
    throw sim::error("dispatch: kernel '" + image.name + "': a workgroup of " + std::to_string(tpg) +
                    " work-items puts " + std::to_string(waves_per_simd) + " waves on a SIMD, each with " +
                    std::to_string(image.next_free_vgpr) + " VGPRs+AGPRs, more than a SIMD's " +
                    std::to_string(kMaxVgprs) + ": it does not fit on a CU");
  auto P = std::make_unique<Prepared>();
  Shared& S = P->S;
  uint64_t groups = uint64_t(params.grid[0]) * params.grid[1] * params.grid[2];
  const uint64_t stride = std::max<uint64_t>(1, params.group_stride);  // ids still from the whole grid
  if (params.group_limit) groups = std::min((groups + stride - 1) / stride, params.group_limit);
  P->groups = groups;
  P->stride = stride;
  if (image.code.empty()) throw sim::error("dispatch: kernel '" + image.name + "' has no code");
  if (image.entry < image.code_vaddr || image.entry >= image.code_vaddr + image.code.size())
    throw sim::error("dispatch: entry of kernel '" + image.name + "' is outside its code");
  if (image.accum_offset > 256 || image.accum_offset % 4)
    throw sim::error("dispatch: accum_offset " + std::to_string(image.accum_offset) +
                    " of kernel '" + image.name + "' is not a multiple of 4 in [0, 256]");

  // Decode once; every instruction reachable from the entry must be known before any wave runs.
  P->prog = decoded_program(image);

  S.prog = P->prog.get();
  S.image = &image;
  S.params = &params;
  S.threads_per_group = uint32_t(tpg);
  S.waves_per_group = uint32_t((tpg + kLanes - 1) / kLanes);
  S.budget = params.instruction_budget ? params.instruction_budget : kDefaultInstructionBudget;
  S.dispatch.image = &image;
  S.dispatch.params = &params;
  S.dispatch.memory = &memory;
  S.dispatch.observer = checker;
  S.dispatch.code_base = image.code_base;
  S.dispatch.trace = params.trace;
  S.dispatch.device = memory.device();

  unsigned threads = params.threads ? params.threads : std::max(1u, std::thread::hardware_concurrency());
  if (params.trace) threads = 1;  // deterministic trace
  threads = unsigned(std::min<uint64_t>(threads, groups));
  // ds_gws_* couple workgroups: such dispatches run cooperatively on one thread.
  P->uses_gws = std::any_of(P->prog->insts.begin(), P->prog->insts.end(), [](const Inst& in) {
    return in.mnemonic.starts_with("ds_gws_");
  });
  if (P->uses_gws) {
    threads = 1;
    S.dispatch.gws = &P->gws;
    if (stride != 1) throw sim::error("dispatch: ds_gws_* kernels cannot be sampled");
  }
  if (cooperative) threads = 1;
  P->threads = threads;

  // Kernarg segment in device memory, in whole 16-byte units (zeros past the arguments): LLVM
  // loads a run of three kernarg dwords at an 8-byte-aligned offset as one s_load_dwordx4 (clang-22
  // for 5 pointers and 3 u32: 16 bytes at 40 of a 52-byte segment), which the runtime's 16-byte
  // aligned kernarg buffers keep within memory.
  size_t kbytes = (std::max<size_t>({params.kernarg.size(), image.kernarg_size, 16}) + 15) / 16 * 16;
  P->kernarg = std::make_unique<Alloc>(memory, kbytes, 64);
  {
    std::vector<uint8_t> kb(kbytes, 0);
    std::copy(params.kernarg.begin(), params.kernarg.end(), kb.begin());
    memory.write(P->kernarg->addr, kb.data(), kb.size());
  }
  S.dispatch.kernarg_addr = P->kernarg->addr;
  // Dispatch packet (hsa_kernel_dispatch_packet_t) for the dispatch pointer.
  P->packet = std::make_unique<Alloc>(memory, kPacketSize, 64);
  {
    std::vector<uint8_t> pk(kPacketSize, 0);
    unsigned dims = params.grid[2] * params.block[2] > 1 ? 3 : params.grid[1] * params.block[1] > 1 ? 2 : 1;
    put<uint16_t>(pk, 0, 2);  // HSA_PACKET_TYPE_KERNEL_DISPATCH
    put<uint16_t>(pk, 2, uint16_t(dims));
    for (int d = 0; d < 3; ++d) {
      put<uint16_t>(pk, 4 + 2 * d, uint16_t(params.block[d]));
      put<uint32_t>(pk, 12 + 4 * d, params.grid[d] * params.block[d]);
    }
    put<uint32_t>(pk, 24, image.private_segment_fixed_size);
    put<uint32_t>(pk, 28, uint32_t(lds));
    put<uint64_t>(pk, 40, P->kernarg->addr);
    memory.write(P->packet->addr, pk.data(), pk.size());
  }
  S.dispatch.dispatch_packet_addr = P->packet->addr;
  P->queue = std::make_unique<Alloc>(memory, 256, 64);  // a zeroed hsa_queue_t stand-in for the queue pointer
  {
    std::vector<uint8_t> q(256, 0);
    memory.write(P->queue->addr, q.data(), q.size());
  }
  S.dispatch.queue_addr = P->queue->addr;
  // Private segments: one slot of waves_per_group * 64 lanes per worker thread.
  if (image.private_segment_fixed_size) {
    uint64_t lane_stride = (image.private_segment_fixed_size + 15) & ~15u;
    S.scratch_slot_bytes = uint64_t(S.waves_per_group) * kLanes * lane_stride;
    if (!P->uses_gws && !cooperative) {  // cooperative workers allocate their own slots
      P->scratch = std::make_unique<Alloc>(memory, S.scratch_slot_bytes * threads, 256);
      S.dispatch.scratch_addr = P->scratch->addr;
    }
  }
  return P;
}

DispatchResult result_of(const Shared& S) {
  DispatchResult r;
  r.instructions = S.executed.load();
  r.lane_operations = S.lane_ops.load();
  return r;
}

// One device of a multi-device run: its resident workgroups, at most `resident` at once.
struct NodeDevice {
  Prepared* P = nullptr;
  ResidentGroups g;
  uint64_t resident = 0;
};

// An error of device d, its message prefixed "device d: " (an instruction's pc kept).
[[noreturn]] void rethrow_on_device(unsigned d) {
  try {
    throw;
  } catch (const inst_error& e) {
    throw inst_error("device " + std::to_string(d) + ": " + e.what(), e.pc);
  } catch (const sim::error& e) {
    throw sim::error("device " + std::to_string(d) + ": " + e.what());
  }
}

// All devices' resident workgroups on one thread. Seed 0: every resident workgroup takes a
// turn in (device, workgroup) order; otherwise each step gives one turn to a workgroup drawn
// at random over all devices (and the workgroup's own seeded order picks the wave and burst).
void run_node(std::vector<NodeDevice>& devs, uint64_t seed) {
  std::mt19937_64 rng(seed * 0xD1B54A32D192ED03ull + 0x8CB92BA72F3D8DD7ull);
  unsigned cur = 0;
  try {
    for (;;) {
      size_t total = 0;
      for (cur = 0; cur < devs.size(); ++cur) {
        NodeDevice& d = devs[cur];
        while (d.g.active.size() < d.resident && d.g.next < d.P->groups) d.g.start();
        total += d.g.active.size();
      }
      if (total == 0) return;
      bool progress = false;
      if (seed == 0) {
        for (cur = 0; cur < devs.size(); ++cur)
          for (size_t i = devs[cur].g.active.size(); i-- > 0;) progress |= devs[cur].g.turn(i);
      } else {
        for (size_t k = 0; k < total; ++k) {
          size_t pick = size_t(rng() % total), n = 0;
          for (cur = 0; cur < devs.size(); ++cur) {
            n = devs[cur].g.active.size();
            if (pick < n) break;
            pick -= n;
          }
          if (cur == devs.size()) break;  // fewer resident now: a workgroup finished
          progress |= devs[cur].g.turn(pick);
          total = 0;
          for (const NodeDevice& d : devs) total += d.g.active.size();
          if (total == 0) break;
        }
      }
      if (progress) continue;
      // Every resident wave waits at a barrier or GWS instruction that cannot complete.
      for (cur = 0; cur < devs.size(); ++cur)
        if (!devs[cur].g.active.empty() && devs[cur].P->uses_gws) gws_deadlock(devs[cur].P->S, devs[cur].g.active);
      cur = 0;
      throw sim::error("dispatch: deadlock: every resident wave of every device is blocked");
    }
  } catch (...) {
    for (NodeDevice& d : devs) d.g.abort();
    if (cur < devs.size()) rethrow_on_device(devs[cur].P->S.dispatch.device);
    throw;
  }
}

}  // namespace

DispatchResult run_dispatch(const KernelImage& image, const DispatchParams& params,
                            Memory& memory, Observer* checker) {
  std::unique_ptr<Prepared> P = prepare(image, params, memory, checker, false);
  Shared& S = P->S;
  const uint64_t groups = P->groups, stride = P->stride;
  const unsigned threads = P->threads;
  if (P->uses_gws) {
    run_cooperative(S, groups);
    return result_of(S);
  }

  auto worker = [&](unsigned index) {
    Worker wk;
    if (S.dispatch.scratch_addr) wk.scratch_base = S.dispatch.scratch_addr + index * S.scratch_slot_bytes;
    for (;;) {
      uint64_t g = S.next_group.fetch_add(1);
      if (g >= groups || g > S.fail_at.load()) return;
      try {
        run_group(S, wk, g * stride);
      } catch (const Abandoned&) {
      } catch (...) {
        std::lock_guard lock(S.err_mu);
        if (g < S.error_group) {
          S.error_group = g;
          S.error = std::current_exception();
          uint64_t cur = S.fail_at.load();
          while (g < cur && !S.fail_at.compare_exchange_weak(cur, g)) {}
        }
      }
    }
  };
  if (threads <= 1) {
    worker(0);
  } else {
    std::vector<std::thread> pool;
    for (unsigned i = 0; i < threads; ++i) pool.emplace_back(worker, i);
    for (auto& t : pool) t.join();
  }
  if (S.error) std::rethrow_exception(S.error);
  return result_of(S);
}

std::vector<DispatchResult> run_dispatches(std::span<const DeviceDispatch> launches, const NodeParams& node) {
  if (launches.empty()) throw sim::error("multi-device dispatch: no launches");
  if (launches.size() > kMaxDevices)
    throw sim::error("multi-device dispatch: " + std::to_string(launches.size()) + " launches (at most " +
                     std::to_string(kMaxDevices) + " devices)");
  std::vector<std::unique_ptr<Prepared>> prepared;
  std::vector<NodeDevice> devs(launches.size());
  for (size_t i = 0; i < launches.size(); ++i) {
    const DeviceDispatch& l = launches[i];
    if (!l.image || !l.params || !l.memory) throw sim::error("multi-device dispatch: launch " + std::to_string(i) + " is incomplete");
    for (size_t j = 0; j < i; ++j)
      if (launches[j].memory == l.memory)
        throw sim::error("multi-device dispatch: launches " + std::to_string(j) + " and " + std::to_string(i) +
                         " run on one device (one launch per device)");
    try {
      prepared.push_back(prepare(*l.image, *l.params, *l.memory, l.checker, true));
    } catch (...) {
      rethrow_on_device(l.memory->device());
    }
    Prepared& P = *prepared.back();
    P.S.dispatch.peer = node.peer;
    P.S.seed_salt = uint64_t(l.memory->device()) * 0xA0761D6478BD642Full;
    devs[i].P = &P;
    devs[i].g.S = &P.S;
    devs[i].g.stride = P.stride;
    // All workgroups resident (a kernel that waits for its peers needs them running), up to
    // node.resident_groups; a workgroup of a GWS kernel needs the whole grid.
    devs[i].resident = P.uses_gws || node.resident_groups == 0 ? P.groups : std::min<uint64_t>(P.groups, node.resident_groups);
  }
  run_node(devs, node.seed);
  std::vector<DispatchResult> out;
  for (auto& P : prepared) out.push_back(result_of(P->S));
  return out;
}

}  // namespace hipasm::sim

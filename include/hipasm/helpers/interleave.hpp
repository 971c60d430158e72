// Instruction streams and the interleaver (pyhip's emit(generators, cycles) and Interleave).
//
// A stream is straight-line code recorded once and emitted later, whole, in pieces, or merged
// with other streams so that the MFMA pipe stays fed while loads and LDS traffic issue in its
// shadow:
//
//   auto mfmas = record(J, [&] { for (int i = 0; i < 8; ++i) J.v_mfma_f32_32x32x8_bf16(acc[i], a[i], b[i], acc[i]); });
//   auto loads = record(J, [&] { J.global_load_dwordx4(next_a, addr, off); J.ds_read_b64(...); });
//   interleave(J, mfmas, loads);             // or interleave(J, [&] {...}, [&] {...}) directly
//   emit_cycles(J, mfmas, 64);               // pyhip's J.emit(gen, 64): the next ~64 cycles of it
//
// interleave() keeps the meaning of the streams run one after the other, in argument order:
// an instruction of a later stream never moves above an instruction of an earlier stream that
// it depends on (registers, EXEC/VCC/SCC/M0, memory of the same space with a store, s_waitcnt
// against memory operations, barriers and side effects against everything), and each stream
// keeps its own order. Within that freedom it merges by a one-wave issue model whose costs
// come from the instruction table (docs: costs below), taking at each step the instruction
// that can issue earliest; on a tie an MFMA first, then the stream that has issued fewest
// instructions (round robin among equals). emit_cycles() is the manual form: it emits
// the stream's next instructions in order, wherever it is called (the program is then the
// order you emit).
//
// Costs (one wave; /work reference: timing.md sections 2-5, docs/timing-model.md):
//   every instruction but s_waitcnt/s_barrier/s_setprio/s_sleep takes one issue turn, 4 cycles;
//   MFMA: the matrix core for 4 x passes (table's mfma_passes), the VALU free after 4 cycles
//     (f64 MFMAs, DGEMM, hold the VALU for the whole op); v_pk_*_f32 waits for the matrix core;
//   transcendental VALU: 16 cycles; VMEM: the CU address path for 4 cycles per 128-byte line
//     of 64 contiguous lanes (dword 8, dwordx4 32); DS: the LDS port for 64 lanes x bytes / 64
//     B/clk (+4 for a write's addresses): b32 read 4, b128 read 16, b128 write 20.
// A stream must be straight-line code (no If/While/labels/branches: they make blocks). Its
// instructions run where they are emitted (interleave/emit_cycles), under that point's EXEC:
// record and emit at the same control-flow level.
#pragma once
#include <source_location>
#include <type_traits>
#include <utility>

#include "../builder.hpp"
#include "../passes/common.hpp"

namespace hipasm {

// Recorded instructions not emitted yet. Move-only; destroying one that still holds
// instructions is a build error at the line that recorded it (they would be lost silently).
struct instr_stream {
  builder* b = nullptr;
  vec<instr> instrs;
  uint32_t next = 0;  // first instruction not emitted yet
  src_loc loc{};

  constexpr instr_stream() = default;
  constexpr instr_stream(const instr_stream&) = delete;
  constexpr instr_stream& operator=(const instr_stream&) = delete;
  constexpr instr_stream(instr_stream&& o) noexcept : b(o.b), instrs(std::move(o.instrs)), next(o.next), loc(o.loc) {
    o.b = nullptr;
  }
  constexpr instr_stream& operator=(instr_stream&& o) noexcept {
    if (this != &o) {
      b = o.b;
      instrs = std::move(o.instrs);
      next = o.next;
      loc = o.loc;
      o.b = nullptr;
    }
    return *this;
  }
  constexpr ~instr_stream() {
    if (b && !done()) b->fail(loc, "a recorded instruction stream was never emitted (", static_cast<long long>(size() - next),
                              " instructions left): pass it to interleave() or emit_cycles()");
  }
  constexpr uint32_t size() const { return static_cast<uint32_t>(instrs.size()); }
  constexpr bool done() const { return next >= instrs.size(); }
  constexpr uint32_t remaining() const { return size() - next; }
};

// How many waves share the units the model spaces (default: one wave alone on its CU). With
// four waves per CU loading at the same time, each wave's VMEM instructions take four times
// the address path: interleave(J, interleave_options{.vmem_share = 4}, mfmas, loads).
struct interleave_options {
  int vmem_share = 1;  // waves sharing the CU's vector memory address path
  int lds_share = 1;   // waves sharing their SIMD pair's LDS port
};

namespace detail {

enum class il_unit : uint8_t { internal, salu, valu, trans, pk_f32, mfma, vmem, ds };
// One register an instruction touches: a vreg (key = id), a special slot (1 << 31 | slot) or
// a physical register (3 << 30 | class).
struct il_access {
  uint32_t key = 0;
  uint16_t first = 0, n = 0;
  bool def = false;
};
enum il_mem : uint8_t {
  il_lds_read = 1, il_lds_write = 2, il_glb_read = 4, il_glb_write = 8,
  il_counted = 16,  // counts on vmcnt/lgkmcnt
  il_wait = 32,     // s_waitcnt
  il_fence = 64,    // barrier / side effect: ordered against everything
};
struct il_info {
  il_unit unit = il_unit::internal;
  uint16_t busy = 0;    // cycles the unit stays busy (see the head comment)
  bool coexec = true;   // MFMA: VALU may issue during it
  uint8_t mem = 0;      // il_mem bits
  uint8_t nacc = 0;
  uint8_t counters = 0;  // il_counted: 1 vmcnt, 2 lgkmcnt, 4 out of order (SMEM: lgkmcnt(0) only)
  uint8_t wait_vm = 63, wait_lgkm = 15;  // s_waitcnt: its counts (a J.wait_for placeholder: none known)
  uint64_t use_bits = 0, def_bits = 0;    // a 64-bit filter of the registers read / written (key hash)
  il_access acc[10]{};
};

constexpr void il_add(il_info& r, uint32_t key, uint32_t first, uint32_t n, bool def) {
  if (r.nacc >= 10) {  // (more than 10 registers: order it against everything)
    r.mem |= il_fence;
    return;
  }
  r.acc[r.nacc++] = {key, static_cast<uint16_t>(first), static_cast<uint16_t>(n), def};
  const uint64_t bit = uint64_t{1} << ((key ^ (key >> 6) ^ (key >> 29)) & 63);
  if (def) r.def_bits |= bit;
  else r.use_bits |= bit;
}

constexpr il_info il_classify(const instr& in) {
  il_info r;
  const isa::instr_desc& d = op_desc(static_cast<target_op>(in.op));
  const uint64_t fl = d.flags;
  for (int i = 0; i < in.num_operands; ++i) {
    const operand& o = in.ops[i];
    const isa::operand_role role = i < d.num_operands ? d.operands[i].role : isa::operand_role::use;
    const bool def = role != isa::operand_role::use;
    if (o.k == operand::kind::vreg) {
      il_add(r, static_cast<uint32_t>(o.value), o.offset, o.dwords, def);
    } else if (o.k == operand::kind::phys) {
      il_add(r, (3u << 30) | static_cast<uint32_t>(o.cls), static_cast<uint32_t>(o.value), o.dwords, def);
    } else if (o.k == operand::kind::special) {
      const special_span s = special_slots(o.sp);
      const bool reads_only = o.sp == special_reg::vccz || o.sp == special_reg::execz;
      if (s.first >= 0) il_add(r, (1u << 31) | static_cast<uint32_t>(s.first), 0, s.n, def && !reads_only);
    }
  }
  if (fl & isa::f_reads_exec) il_add(r, (1u << 31) | sl_exec_lo, 0, 2, false);
  if (fl & isa::f_reads_vcc) il_add(r, (1u << 31) | sl_vcc_lo, 0, 2, false);
  if (fl & isa::f_reads_scc) il_add(r, (1u << 31) | sl_scc, 0, 1, false);
  if (fl & isa::f_reads_m0) il_add(r, (1u << 31) | sl_m0, 0, 1, false);
  if (fl & (isa::f_writes_exec | isa::f_cmpx)) il_add(r, (1u << 31) | sl_exec_lo, 0, 2, true);
  if (fl & isa::f_writes_vcc) il_add(r, (1u << 31) | sl_vcc_lo, 0, 2, true);
  if (fl & isa::f_writes_scc) il_add(r, (1u << 31) | sl_scc, 0, 1, true);
  if (fl & isa::f_writes_m0) il_add(r, (1u << 31) | sl_m0, 0, 1, true);

  const bool writes_mem = (fl & (isa::f_store | isa::f_atomic)) != 0;
  // (a load's, store's or atomic's side effect is its memory access, ordered below; other side
  // effects, s_sendmsg, s_setprio, s_sleep, cache writeback/invalidate, ..., and barriers order
  // against everything)
  const bool memory_access = (fl & (isa::f_load | isa::f_store | isa::f_atomic)) != 0 &&
                             (fl & (isa::f_ds | isa::f_vmem | isa::f_flat | isa::f_smem)) != 0;
  // (s_waitcnt is not a fence: it orders against counted operations, and an instruction that
  // depends on an earlier stream's memory operation follows the s_waitcnt that covers it)
  if ((fl & isa::f_barrier) || ((fl & isa::f_side_effect) && !memory_access && !(fl & isa::f_waitcnt)))
    r.mem |= il_fence;
  if (fl & isa::f_waitcnt) {
    r.mem |= il_wait;
    bool placeholder = false;
    for (int i = 0; i < in.num_operands; ++i)
      if (in.ops[i].k == operand::kind::imm && (in.ops[i].value & wait_placeholder_bit)) placeholder = true;
    if (!placeholder) {
      const waitcnt_counts wc = decode_waitcnt(in);
      r.wait_vm = static_cast<uint8_t>(wc.vm);
      r.wait_lgkm = static_cast<uint8_t>(wc.lgkm);
    }
  }
  if (fl & (isa::f_vm | isa::f_lgkm)) {
    r.mem |= il_counted;
    if (async_counts_vm(d)) r.counters |= 1;
    if (async_counts_lgkm(d)) r.counters |= 2;
    if (d.enc == isa::encoding::smem || d.enc == isa::encoding::flat) r.counters |= 4;
  }
  if (fl & isa::f_ds) r.mem |= writes_mem ? (il_lds_write | il_lds_read) : il_lds_read;
  if (fl & (isa::f_vmem | isa::f_flat | isa::f_smem)) r.mem |= writes_mem ? (il_glb_write | il_glb_read) : il_glb_read;
  if (fl & isa::f_flat) r.mem |= writes_mem ? (il_lds_write | il_lds_read) : il_lds_read;  // may be LDS
  if (fl & isa::f_lds_dma) r.mem |= il_lds_write;

  if (fl & isa::f_mfma) {
    r.unit = il_unit::mfma;
    r.busy = static_cast<uint16_t>(4 * (d.mfma_passes ? d.mfma_passes : 1));
    r.coexec = !(fl & isa::f_dgemm);
  } else if (fl & (isa::f_vmem | isa::f_flat)) {
    r.unit = il_unit::vmem;
    uint32_t dw = 1;  // data dwords per lane
    if (fl & isa::f_lds_dma) dw = d.name.ends_with("x4") ? 4 : d.name.ends_with("x3") ? 3 : 1;  // (16/12-byte DMA)
    else if (fl & isa::f_load) dw = in.ops[0].dwords;
    else if (d.enc == isa::encoding::mubuf) dw = in.ops[0].dwords;
    else if (in.num_operands > 1) dw = in.ops[1].dwords;
    r.busy = static_cast<uint16_t>(8 * (dw ? dw : 1));  // 64 lanes x 4 B = 2 lines of 128 B per dword
  } else if (fl & isa::f_ds) {
    r.unit = il_unit::ds;
    uint32_t dw = 0;
    if (writes_mem && !(fl & isa::f_load)) {
      for (int i = 1; i < in.num_operands; ++i)
        if (in.ops[i].k == operand::kind::vreg) dw += in.ops[i].dwords;
      r.busy = static_cast<uint16_t>(4 * (dw ? dw : 1) + 4);
    } else {
      dw = in.num_operands > 0 && in.ops[0].k == operand::kind::vreg ? in.ops[0].dwords : 1;
      r.busy = static_cast<uint16_t>(4 * dw);
    }
  } else if (fl & isa::f_valu) {
    r.unit = (fl & isa::f_trans) ? il_unit::trans : il_unit::valu;
    r.busy = (fl & isa::f_trans) ? 16 : 4;
    // Packed FP32 never co-issues with an MFMA (timing.md section 4).
    const std::string_view n = d.name;
    if (n.size() > 5 && n[0] == 'v' && n[2] == 'p' && n[3] == 'k' && n.substr(n.size() - 4) == "_f32") r.unit = il_unit::pk_f32;
  } else if (fl & (isa::f_salu | isa::f_smem | isa::f_branch)) {
    r.unit = il_unit::salu;
    r.busy = 4;
  }
  if (fl & (isa::f_waitcnt | isa::f_barrier)) r.unit = il_unit::internal;
  return r;
}

// May `b` (a later stream) not move above `a`?
constexpr bool il_conflict(const il_info& a, const il_info& b) {
  if ((a.mem | b.mem) & il_fence) return true;
  if ((a.mem & il_wait) && (b.mem & (il_counted | il_wait))) return true;
  if ((b.mem & il_wait) && (a.mem & il_counted)) return true;
  if (((a.mem & il_lds_write) && (b.mem & il_lds_read)) || ((b.mem & il_lds_write) && (a.mem & il_lds_read))) return true;
  if (((a.mem & il_glb_write) && (b.mem & il_glb_read)) || ((b.mem & il_glb_write) && (a.mem & il_glb_read))) return true;
  // (no register both touch with a write among them: no conflict; the usual case, cheaply)
  if (!(a.def_bits & (b.def_bits | b.use_bits)) && !(b.def_bits & a.use_bits)) return false;
  for (int i = 0; i < a.nacc; ++i) {
    const il_access& x = a.acc[i];
    for (int j = 0; j < b.nacc; ++j) {
      const il_access& y = b.acc[j];
      if (x.key != y.key || !(x.def || y.def)) continue;
      if (x.first < y.first + y.n && y.first < x.first + x.n) return true;
    }
  }
  return false;
}

// Instruction `j` (flattened) conflicts with a later stream's instruction; `end`: the end of
// j's stream. Returns 1 + the flattened index the later instruction must follow: j itself, or
// for a counted memory operation (a load whose register it reads or writes, ...) the first
// s_waitcnt of j's stream that guarantees j has returned (the later streams' counted
// operations stay after all of this stream's waits, so no other operation joins the count);
// when no wait is known to cover it, the last wait of the stream (a J.wait_for placeholder may).
constexpr uint32_t il_follow(const il_info* inf, uint32_t j, uint32_t end) {
  const il_info& a = inf[j];
  if (!(a.mem & il_counted)) return j + 1;
  uint32_t vm_after = 0, lgkm_after = 0, last_wait = 0;
  for (uint32_t w = j + 1; w < end; ++w) {
    const il_info& x = inf[w];
    if (x.mem & il_wait) {
      const bool vm_ok = !(a.counters & 1) || vm_after >= x.wait_vm;
      const bool lgkm_ok = !(a.counters & 2) || x.wait_lgkm == 0 || (!(a.counters & 4) && lgkm_after >= x.wait_lgkm);
      if (vm_ok && lgkm_ok) return w + 1;
      last_wait = w + 1;
    }
    if (x.counters & 1) ++vm_after;
    if (x.counters & 2) ++lgkm_after;
  }
  return last_wait ? last_wait : j + 1;
}

// The issue model's clock and units (one wave).
struct il_clock {
  int64_t t = 0;          // next issue turn
  int64_t mfma_free = 0;  // matrix core
  int64_t valu_free = 0;  // VALU (transcendental, non-co-executing MFMA)
  int64_t vmem_free = 0;  // CU address path
  int64_t ds_free = 0;    // LDS port
  int vmem_share = 1, lds_share = 1;

  constexpr int64_t earliest(const il_info& x) const {
    int64_t e = t;
    auto at_least = [&e](int64_t v) { if (v > e) e = v; };
    switch (x.unit) {
      case il_unit::mfma: at_least(mfma_free); at_least(valu_free); break;
      case il_unit::valu: case il_unit::trans: at_least(valu_free); break;
      case il_unit::pk_f32: at_least(valu_free); at_least(mfma_free); break;
      case il_unit::vmem: at_least(vmem_free); break;
      case il_unit::ds: at_least(ds_free); break;
      default: break;
    }
    return e;
  }
  constexpr void issue(const il_info& x, int64_t at) {
    switch (x.unit) {
      case il_unit::mfma:
        mfma_free = at + x.busy;
        valu_free = x.coexec ? at + 4 : at + x.busy;
        break;
      case il_unit::valu: case il_unit::trans: case il_unit::pk_f32: valu_free = at + x.busy; break;
      case il_unit::vmem: vmem_free = at + int64_t{x.busy} * vmem_share; break;
      case il_unit::ds: ds_free = at + int64_t{x.busy} * lds_share; break;
      default: break;
    }
    t = x.unit == il_unit::internal ? at : at + 4;
  }
};

constexpr void il_append(builder& J, const instr& in) {
  J.fn.blocks[J.cur_block()].instrs.push_back(in);
  if (J.memo_.live) J.memo_note(detail::op_desc(static_cast<target_op>(in.op)), in);  // (its writes, again)
}

constexpr instr_stream* il_stream_ptr(instr_stream& s) { return &s; }

}  // namespace detail

// Records what `body` emits as a stream (not emitted yet).
template <class F>
  requires std::is_invocable_v<F&>
constexpr instr_stream record(builder J, F&& body, std::source_location l = std::source_location::current()) {
  instr_stream s;
  const src_loc sl = to_src_loc(l);
  builder& B = J;
  if (B.failed()) return s;
  const uint32_t blk = B.cur_block();
  const std::size_t nblocks = B.fn.blocks.size();
  const uint32_t first = B.cur_index();
  // value_memo: what the body computes runs where the stream is emitted, so it reuses only
  // values the body itself made (an older one could see sources written before then), and
  // those are forgotten when the stream leaves the block.
  detail::value_memo& memo = B.memo_;
  const uint32_t outer_rec = memo.rec_first;
  memo.rec_first = memo.seq + 1;
  body();
  for (detail::value_memo::entry& e : memo.e)
    if (e.first >= memo.rec_first) e.block = 0xffffffffu;
  memo.rec_first = outer_rec;
  if (B.failed()) return s;
  if (B.cur_block() != blk || B.fn.blocks.size() != nblocks) {
    B.fail(sl, "a recorded instruction stream must be straight-line code (no If/While/For, labels or branches)");
    return s;
  }
  vec<instr>& list = B.fn.blocks[blk].instrs;
  s.instrs.append(list.data() + first, list.size() - first);
  list.resize(first);
  B.last_expr_ = {};  // (an expression result recorded here is no longer at the end of the block)
  s.b = B.self();
  s.loc = sl;
  return s;
}

// pyhip's emit(generator, cycles): emits the stream's next instructions, in order, until their
// cost (head comment: MFMA 4 x passes, VMEM/DS their unit cycles, other 4) reaches `cycles`.
// Returns whether instructions are left.
constexpr bool emit_cycles(builder J, instr_stream& s, int cycles) {
  builder& B = J;
  while (cycles > 0 && !s.done()) {
    const instr& in = s.instrs.data()[s.next++];
    const detail::il_info x = detail::il_classify(in);
    detail::il_append(B, in);
    cycles -= x.unit == detail::il_unit::internal ? 0 : (x.busy > 4 ? x.busy : 4);
  }
  return !s.done();
}
// All that is left of the stream.
constexpr void emit_all(builder J, instr_stream& s) { emit_cycles(J, s, 1 << 30); }

namespace detail {

// Merges the rest of `n` streams at the current position (see the head comment).
constexpr void interleave_streams(builder& B, instr_stream* const* streams, uint32_t n, interleave_options opt = {}) {
  if (B.failed()) return;
  // Flatten: instruction k of the merge problem, its stream, its info.
  uint32_t total = 0;
  vec<uint32_t> first_of(n + 1, 0);
  for (uint32_t s = 0; s < n; ++s) {
    first_of.data()[s] = total;
    total += streams[s]->remaining();
  }
  first_of.data()[n] = total;
  if (total == 0) return;
  vec<il_info> info(total);
  vec<uint32_t> stream_of(total, 0);
  for (uint32_t s = 0; s < n; ++s)
    for (uint32_t k = 0; k < streams[s]->remaining(); ++k) {
      info.data()[first_of.data()[s] + k] = il_classify(streams[s]->instrs.data()[streams[s]->next + k]);
      stream_of.data()[first_of.data()[s] + k] = s;
    }
  // blocker[k * n + s] (s < stream of k): 1 + the last instruction of stream s that k must
  // follow (0: none), as an index inside stream s's remaining part.
  vec<uint32_t> blocker(static_cast<std::size_t>(total) * n, 0);
  const il_info* const inf = info.data();
  for (uint32_t k = 0; k < total; ++k) {
    const uint32_t sk = stream_of.data()[k];
    const il_info& K = inf[k];
    for (uint32_t s = 0; s < sk; ++s) {
      // the latest of: the last conflicting instruction, the waits covering conflicting
      // counted operations (an earlier one's wait may come after a later conflict)
      const uint32_t lo = first_of.data()[s], hi = first_of.data()[s + 1];
      uint32_t follow = 0;
      for (uint32_t j = hi; j > lo; --j) {
        const il_info& P = inf[j - 1];
        if (!(P.mem & il_counted) && j <= follow) continue;
        // (il_conflict's own first tests, written out: without memory bits on either side
        // and no register hash in common there is none; most pairs, every pair one call)
        if (!(P.mem | K.mem) && !(P.def_bits & (K.def_bits | K.use_bits)) && !(K.def_bits & P.use_bits)) continue;
        if (il_conflict(P, K)) {
          // (a later s_waitcnt only has to follow the operation: it counts it while in flight)
          const uint32_t f = (K.mem & il_wait) && !(K.mem & il_fence) ? j : il_follow(inf, j - 1, hi);
          if (f > follow) follow = f;
        }
      }
      blocker.data()[static_cast<std::size_t>(k) * n + s] = follow ? follow - lo : 0;
    }
  }
  vec<uint32_t> pos(n, 0);  // per stream: instructions merged so far
  il_clock clk;
  clk.vmem_share = opt.vmem_share > 1 ? opt.vmem_share : 1;
  clk.lds_share = opt.lds_share > 1 ? opt.lds_share : 1;
  for (uint32_t done = 0; done < total; ++done) {
    int best = -1;
    int64_t best_at = 0;
    bool best_mfma = false;
    for (uint32_t s = 0; s < n; ++s) {
      if (first_of.data()[s] + pos.data()[s] >= first_of.data()[s + 1]) continue;
      const uint32_t k = first_of.data()[s] + pos.data()[s];
      bool ready = true;
      for (uint32_t e = 0; e < s && ready; ++e)
        if (pos.data()[e] < blocker.data()[static_cast<std::size_t>(k) * n + e]) ready = false;
      if (!ready) continue;
      const int64_t at = clk.earliest(inf[k]);
      const bool mf = inf[k].unit == il_unit::mfma;
      // earliest first; on a tie an MFMA, then the stream that has issued least (round robin)
      const bool better = best < 0 || at < best_at ||
                          (at == best_at && (mf != best_mfma ? mf : pos.data()[s] < pos.data()[best]));
      if (better) {
        best = static_cast<int>(s);
        best_at = at;
        best_mfma = mf;
      }
    }
    // (stream 0's head is always ready: nothing precedes it)
    const uint32_t s = static_cast<uint32_t>(best);
    const uint32_t k = first_of.data()[s] + pos.data()[s];
    clk.issue(inf[k], best_at);
    il_append(B, streams[s]->instrs.data()[streams[s]->next + pos.data()[s]]);
    ++pos.data()[s];
  }
  for (uint32_t s = 0; s < n; ++s) streams[s]->next = streams[s]->size();
}

template <class X>
constexpr instr_stream* il_as_stream(builder& B, X& x, instr_stream& slot, src_loc l) {
  if constexpr (std::is_same_v<std::remove_cvref_t<X>, instr_stream>) {
    return &x;
  } else {
    slot = record(B, x);
    slot.loc = l;
    return &slot;
  }
}

}  // namespace detail

// Merges streams (instr_stream or lambdas recorded here, in argument order) at the current
// position. The result means what emitting them one after the other would.
template <class... S>
  requires(sizeof...(S) >= 1)
constexpr void interleave(builder J, interleave_options opt, S&&... streams) {
  builder& B = J;
  const src_loc l = B.cur_loc();
  instr_stream slots[sizeof...(S)];
  uint32_t i = 0;
  instr_stream* ptrs[sizeof...(S)] = {detail::il_as_stream(B, streams, slots[i++], l)...};
  detail::interleave_streams(B, ptrs, static_cast<uint32_t>(sizeof...(S)), opt);
}
template <class S0, class... S>
  requires(!std::is_same_v<std::remove_cvref_t<S0>, interleave_options>)
constexpr void interleave(builder J, S0&& first, S&&... streams) {
  interleave(J, interleave_options{}, static_cast<S0&&>(first), static_cast<S&&>(streams)...);
}

}  // namespace hipasm

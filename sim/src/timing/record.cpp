// The timing Recorder: per-wave instruction streams with the facts timing needs from the
// registers at issue (see timing.hpp). Runs inside functional execution, so it only reads.
#include <algorithm>
#include <bit>
#include <cctype>
#include <cstring>
#include <tuple>

#include "timing.hpp"

namespace hipasm::sim::timing {
namespace {

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool has(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

// Bytes per lane from the mnemonic's data type (memory instructions).
uint8_t access_width(std::string_view m) {
  if (has(m, "dwordx4") || has(m, "b128")) return 16;
  if (has(m, "dwordx3") || has(m, "b96")) return 12;
  if (has(m, "dwordx2") || has(m, "b64") || has(m, "_x2") || has(m, "u64") || has(m, "i64") ||
      has(m, "f64"))
    return 8;
  if (has(m, "byte") || has(m, "_u8") || has(m, "_i8") || has(m, "_b8")) return 1;
  if (has(m, "short") || has(m, "_u16") || has(m, "_i16") || has(m, "_b16") || has(m, "d16")) return 2;
  return 4;
}

// 2*M*N*K*blocks of a v_mfma/v_smfmac mnemonic ("v_mfma_f32_32x32x8_bf16", "..._4x4x4_16b_f16").
double mfma_flops(std::string_view m) {
  size_t p = m.find('x');
  while (p != std::string_view::npos && (p == 0 || !std::isdigit(static_cast<unsigned char>(m[p - 1]))))
    p = m.find('x', p + 1);
  if (p == std::string_view::npos) return 0;
  size_t s = p;
  while (s > 0 && std::isdigit(static_cast<unsigned char>(m[s - 1]))) --s;
  unsigned dims[3] = {0, 0, 0};
  size_t i = s;
  for (int d = 0; d < 3; ++d) {
    while (i < m.size() && std::isdigit(static_cast<unsigned char>(m[i]))) dims[d] = dims[d] * 10 + unsigned(m[i++] - '0');
    if (d < 2) {
      if (i >= m.size() || m[i] != 'x') return 0;
      ++i;
    }
  }
  unsigned blocks = 1;
  if (i + 1 < m.size() && m[i] == '_' && std::isdigit(static_cast<unsigned char>(m[i + 1]))) {
    size_t j = i + 1;
    unsigned b = 0;
    while (j < m.size() && std::isdigit(static_cast<unsigned char>(m[j]))) b = b * 10 + unsigned(m[j++] - '0');
    if (j < m.size() && m[j] == 'b') blocks = b;
  }
  return 2.0 * dims[0] * dims[1] * dims[2] * blocks;
}

}  // namespace

double valu_flops(std::string_view m) {
  if (!starts(m, "v_")) return 0;
  std::string_view r = m.substr(2);
  unsigned elems = 1;
  if (starts(r, "pk_")) {  // every gfx942 v_pk_ op works on 2 elements
    elems = 2;
    r = r.substr(3);
  }
  // The operation is the first word; the type suffixes follow.
  const std::string_view op = r.substr(0, r.find('_'));
  // v_dotN[c]: N products summed into the accumulator, N multiplies + N adds, integer too
  // (the VALU form of the integer MFMA work the report counts).
  if (starts(op, "dot") && op.size() > 3 && std::isdigit(static_cast<unsigned char>(op[3])))
    return 2.0 * (op[3] - '0');
  const bool fp = has(r, "f16") || has(r, "f32") || has(r, "f64");
  if (!fp) return 0;  // integer arithmetic: addressing and indexing, not counted
  // rocprofiler-compute's VALU FLOPs: an add, multiply or transcendental counts 1, an FMA 2;
  // min/max, rounding, compare, convert, scale and fix-up steps count 0.
  static constexpr std::string_view kFma[] = {"fma", "fmac", "fmaak", "fmamk", "mac", "mad", "madak", "madmk"};
  static constexpr std::string_view kOne[] = {"add", "sub", "subrev", "mul", "exp", "log", "rcp",
                                              "rsq", "sqrt", "sin", "cos"};
  for (std::string_view k : kFma)
    if (op == k) return 2.0 * elems;
  if (starts(r, "div_fmas")) return 2.0 * elems;  // the FMA of a division's last step
  for (std::string_view k : kOne)
    if (op == k) return 1.0 * elems;
  return 0;
}

sim::peak_dtype mfma_dtype(std::string_view m, uint8_t cbsz, uint8_t blgp) {
  using sim::peak_dtype;
  // The suffix after the shape names the inputs: _f64, _f32, _xf32, _f16/_bf16 (and the
  // 1k forms), _i8, _fp8_fp8 ..., _f8f6f4 (formats 0, 1 fp8/bf8, 2, 3 fp6/bf6, 4 fp4).
  if (has(m, "f8f6f4")) return cbsz <= 1 || blgp <= 1 ? peak_dtype::fp8 : peak_dtype::fp6_fp4;
  if (has(m, "xf32")) return peak_dtype::xf32;
  if (has(m, "_f64")) return peak_dtype::f64;
  if (has(m, "f16") || has(m, "bf16")) return peak_dtype::f16;
  if (has(m, "i8") || has(m, "fp8") || has(m, "bf8")) return peak_dtype::fp8;
  return peak_dtype::f32;
}

InstInfo classify(const Inst& in) {
  InstInfo f;
  const std::string_view m = in.mnemonic;
  const uint32_t c = in.cls;
  if (c & C_MFMA) {
    f.passes = in.mfma_passes ? in.mfma_passes : 16;
    f.flops_per_wave = mfma_flops(m);
    f.dtype = mfma_dtype(m, in.mod.cbsz, in.mod.blgp);
    f.int_matrix = m.find("_i32_") != std::string_view::npos;
    // T4: no VALU co-execution for the f32-input and f64 shapes.
    const bool f32_in = m.size() >= 4 && m.substr(m.size() - 4) == "_f32" && !has(m, "xf32");
    f.kind = (c & C_DGEMM) ? Kind::Dgemm : Kind::Mfma;
    f.coexec = !(c & C_DGEMM) && !f32_in;
    return f;
  }
  if (c & C_VALU) {
    f.kind = (c & C_TRANS) ? Kind::Trans : starts(m, "v_pk_") && has(m, "f32") ? Kind::PackedF32 : Kind::Valu;
    if (const double ops = valu_flops(m)) {
      f.flops_per_wave = ops;
      f.valu_flops_per_lane = true;
      f.dtype = sim::peak_dtype::valu_f32;  // (f16 and f64 VALU work counts against it too)
    }
    return f;
  }
  if (c & C_SMEM) {
    f.kind = Kind::Smem;
    f.store = (c & C_STORE) != 0;
    return f;
  }
  if (c & C_DS) {
    f.kind = Kind::Ds;
    f.width = access_width(m);
    f.store = (c & (C_STORE | C_ATOMIC)) != 0;
    // Read-modify-writes at lane addresses (not the wave-wide counters of ds_append/consume,
    // GWS and ordered count, which take one update per instruction).
    f.atomic = (c & C_ATOMIC) && !has(m, "append") && !has(m, "consume") && !has(m, "gws") &&
               !has(m, "ordered_count");
    f.two_addr = has(m, "2_") || has(m, "2st64");
    return f;
  }
  if (c & (C_VMEM | C_FLAT)) {
    f.kind = (c & C_FLAT) ? Kind::Flat : Kind::Vmem;
    f.width = (has(m, "format") ? 16 : access_width(m));
    f.store = (c & C_STORE) && !(c & C_LDS_DMA);
    f.atomic = (c & C_ATOMIC) != 0;
    f.lds_dma = (c & C_LDS_DMA) != 0;
    f.bypass_l1 = in.mod.nt || in.mod.sc1 || f.atomic;  // T6: nt and sc1 loads bypass L1
    f.sync_atomic = f.atomic && !has(m, "_f") && !has(m, "bf16") && !has(m, "pk_");
    f.atomic_elements = f.atomic && has(m, "_pk_") ? 2 : 1;  // pk_add_f16 / pk_add_bf16
    f.atomic_returns = f.atomic && in.num_dst > 0 && in.dst[0].kind != Operand::None;
    f.coherent_load = !(c & (C_STORE | C_ATOMIC | C_LDS_DMA)) && (in.mod.sc0 || in.mod.sc1);
    return f;
  }
  if (c & C_WAITCNT) f.kind = Kind::Waitcnt;
  else if (c & C_NOP) f.kind = Kind::Nop;
  else if (m == "s_sleep") f.kind = Kind::Sleep;
  else if (c & C_BARRIER) f.kind = Kind::Barrier;
  else if (c & C_ENDPGM) f.kind = Kind::Endpgm;
  else if (c & C_BRANCH) f.kind = Kind::Branch;
  else if (m == "s_setprio") {
    f.kind = Kind::SetPrio;
    f.prio = uint8_t(in.mod.simm16 & 3);
  } else if (m == "s_icache_inv" || m == "s_trap" || m == "s_ttracedata" ||
           starts(m, "s_dcache") || m == "s_sethalt" || m == "s_incperflevel" || m == "s_decperflevel")
    f.kind = Kind::Internal;
  else if (c & C_SALU) f.kind = Kind::Salu;
  return f;
}

Recorder::Recorder(Observer* next, std::shared_ptr<const Program> prog, uint64_t groups_n,
                   uint32_t wpg, const DeviceSpec& dev, uint32_t stride)
    : waves_per_group(wpg), group_stride(stride), next_(next), prog_(std::move(prog)), dev_(dev) {
  groups.resize(size_t(groups_n));
  infos_.reserve(prog_->insts.size());
  for (const Inst& in : prog_->insts) infos_.push_back(classify(in));
}

namespace {

// LDS port cycles of one DS access from the lanes' byte addresses (T5): lanes form groups that
// cover the 32 banks once (b32: 32 lanes, b64: 16, b128: the 8-lane groups T5 lists); a group
// takes 2 cycles per pass at 64 B/clk (`bw`, the device's port rate: 128 B per pass over the 32
// banks), as many passes as the most-used bank has distinct dwords, at most one dword per cycle. An atomic's lanes on one dword do not broadcast: each is its own
// read-modify-write of the bank (`serial`), so they count as distinct dwords of that bank.
// Returns {cycles, conflict-free cycles}.
std::pair<uint32_t, uint32_t> ds_port_cycles(const uint32_t* addr, uint64_t exec, unsigned width, unsigned bw,
                                             bool serial = false) {
  const unsigned pass = std::max(1u, 128 / bw);
  static constexpr uint8_t kB128Groups[8][8] = {
      {0, 1, 2, 3, 20, 21, 22, 23},     {4, 5, 6, 7, 16, 17, 18, 19},
      {8, 9, 10, 11, 28, 29, 30, 31},   {12, 13, 14, 15, 24, 25, 26, 27},
      {32, 33, 34, 35, 52, 53, 54, 55}, {36, 37, 38, 39, 48, 49, 50, 51},
      {40, 41, 42, 43, 60, 61, 62, 63}, {44, 45, 46, 47, 56, 57, 58, 59}};
  const unsigned dwords = std::max(1u, (width + 3) / 4);
  const unsigned group_lanes = width > 8 ? 8 : width > 4 ? 16 : 32;
  const unsigned groups = kLanes / group_lanes;
  uint32_t cycles = 0, ideal = 0;
  for (unsigned g = 0; g < groups; ++g) {
    // Fast path: every bank is asked for at most one distinct dword (no conflict).
    {
      uint32_t first[32];
      uint32_t used = 0;
      unsigned active = 0;
      bool conflict = false;
      for (unsigned k = 0; k < group_lanes && !conflict; ++k) {
        const unsigned lane = width > 8 ? kB128Groups[g][k] : g * group_lanes + k;
        if (!(exec >> lane & 1)) continue;
        ++active;
        for (unsigned d = 0; d < dwords; ++d) {
          const uint32_t dw = addr[lane] / 4 + d;
          const unsigned bank = dw % 32;
          if (!(used >> bank & 1)) {
            used |= 1u << bank;
            first[bank] = dw;
          } else if (first[bank] != dw || serial) {
            conflict = true;
            break;
          }
        }
      }
      if (!conflict) {
        if (active) {
          const unsigned base = (active * dwords * 4 + bw - 1) / bw;
          ideal += base;
          cycles += std::max(base, std::min(pass, active * dwords));
        }
        continue;
      }
    }
    // Distinct dwords per bank through a small hash set (a group asks for at most 32 dwords).
    uint32_t keys[64];
    uint64_t occupied = 0;
    uint8_t bank_n[32] = {};
    unsigned active = 0, degree = 0;
    for (unsigned k = 0; k < group_lanes; ++k) {
      const unsigned lane = width > 8 ? kB128Groups[g][k] : g * group_lanes + k;
      if (!(exec >> lane & 1)) continue;
      ++active;
      for (unsigned d = 0; d < dwords; ++d) {
        const uint32_t dw = addr[lane] / 4 + d;
        unsigned h = (dw * 2654435761u) >> 26;
        bool seen = false;
        while (occupied >> h & 1) {
          if (keys[h] == dw) {
            seen = true;  // same dword: broadcast
            break;
          }
          h = (h + 1) & 63;
        }
        if (seen && !serial) continue;
        if (!seen) {
          occupied |= 1ull << h;
          keys[h] = dw;
        }
        degree = std::max<unsigned>(degree, ++bank_n[dw % 32]);
      }
    }
    if (!active) continue;
    const unsigned bytes = active * dwords * 4;
    const unsigned base = (bytes + bw - 1) / bw;
    const unsigned conflicted = std::min(pass * degree, active * dwords);
    ideal += base;
    cycles += std::max(base, conflicted);
  }
  return {cycles, ideal};
}

void add_lines(std::vector<uint64_t>& out, uint64_t addr, unsigned n, unsigned line) {
  const uint64_t first = addr / line, last = (addr + (n ? n - 1 : 0)) / line;
  for (uint64_t l = first; l <= last; ++l) out.push_back(l);
}

}  // namespace

void Recorder::on_issue(const Wave& w, const Inst& in, uint64_t cycle) {
  if (next_) next_->on_issue(w, in, cycle);
  std::unique_ptr<GroupStream>& gp = groups[w.workgroup_linear / group_stride];
  if (!gp) {
    gp = std::make_unique<GroupStream>();
    gp->waves.resize(waves_per_group);
  }
  GroupStream& g = *gp;
  WaveStream& ws = g.waves[w.wave_in_group];
  if (ws.recs.empty()) ws.recs.reserve(std::max<size_t>(16, length_hint_.load(std::memory_order_relaxed)));
  const Inst* orig = prog_->at(in.pc);
  Rec r;
  const uint32_t info = orig ? uint32_t(orig - prog_->insts.data()) : 0;
  // Refer to our own Program's instruction (the dispatcher's copy may leave its cache); a VGPR
  // index-mode rewrite (longer text) is copied once (again if its address is reused).
  if (orig && orig->text.size() == in.text.size()) r.inst = info;
  else {
    std::lock_guard lock(extra_mu_);
    auto [it, fresh] = rewritten_index_.try_emplace(&in, uint32_t(rewritten_.size()));
    if (!fresh && rewritten_[it->second].inst->text != in.text) {
      it->second = uint32_t(rewritten_.size());
      fresh = true;
    }
    if (fresh) rewritten_.push_back({std::make_unique<Inst>(in), info});
    r.inst = Rec::kRewritten + it->second;
  }
  const InstInfo& f = infos_[info];
  r.lanes = uint8_t(std::popcount(w.exec));
  if (f.kind == Kind::Ds && r.lanes) {
    uint32_t addr[kLanes] = {};
    const bool lane_op = in.mnemonic.find("permute") != std::string::npos ||
                         in.mnemonic.find("swizzle") != std::string::npos;
    uint32_t cycles = 0, ideal = 0;
    if (!f.two_addr) {
      for (int l = 0; l < kLanes; ++l)
        if (w.exec >> l & 1) addr[l] = lane_op ? uint32_t(l) * 4 : read_u32(w, in.src[0], l) + uint32_t(in.mod.offset);
      std::tie(cycles, ideal) = ds_port_cycles(addr, w.exec, f.width, dev_.lds_bytes_per_port_clk, f.atomic);
    }
    uint32_t bytes = uint32_t(r.lanes) * f.width;
    if (f.two_addr) {
      const bool st64 = in.mnemonic.find("st64") != std::string::npos;
      const uint32_t scale = st64 ? 64u * f.width : f.width;
      uint32_t a2[kLanes] = {};
      for (int l = 0; l < kLanes; ++l) {
        if (!(w.exec >> l & 1)) continue;
        const uint32_t base = read_u32(w, in.src[0], l);
        addr[l] = base + uint32_t(in.mod.offset) * scale;
        a2[l] = base + uint32_t(in.mod.offset1) * scale;
      }
      auto p1 = ds_port_cycles(addr, w.exec, f.width, dev_.lds_bytes_per_port_clk, f.atomic);
      auto p2 = ds_port_cycles(a2, w.exec, f.width, dev_.lds_bytes_per_port_clk, f.atomic);
      cycles = p1.first + p2.first;
      ideal = p1.second + p2.second;
      bytes *= 2;
    }
    if (f.store) {  // T5: address and data share the input port (4 B of address per lane)
      const uint32_t bw = dev_.lds_bytes_per_port_clk;
      const uint32_t addr_cycles = (uint32_t(r.lanes) * 4 + bw - 1) / bw;
      cycles += addr_cycles;
      ideal += addr_cycles;
    }
    r.a = cycles;
    r.b = ideal;
    r.bytes = uint16_t(bytes);
  } else if ((f.kind == Kind::Vmem || f.kind == Kind::Flat) && r.lanes) {
    const unsigned line = dev_.line_bytes;
    const size_t first = g.lines.size();
    const unsigned n = f.width;
    // Cross-workgroup order (SyncAccess): the dwords an integer atomic adds to, the counts of
    // additions a coherent load's dwords had seen.
    const bool sync = f.sync_atomic || f.coherent_load;
    const uint32_t rec = uint32_t(ws.recs.size());
    std::vector<uint64_t> atomic_addr;  // an atomic's lane addresses (same-address serialisation)
    std::unique_lock<std::mutex> sync_lock(sync_mu_, std::defer_lock);
    if (sync) sync_lock.lock();
    auto track = [&](uint64_t a, unsigned bytes) {
      if (!sync) return;
      for (uint64_t d = a / 4; d < (a + bytes + 3) / 4; ++d) {
        std::vector<SyncAccess>& v = f.sync_atomic ? ws.atomics : ws.polls;
        // A returning atomic also reads: the old value its first lane on d returned had seen
        // the additions before it (a last-arrival count), as a coherent load would.
        if (f.sync_atomic && f.atomic_returns)
          if (const auto seen = atomic_adds_.find(d); seen != atomic_adds_.end() && seen->second) {
            bool first = true;  // (no lane of this record added to d yet)
            for (size_t i = v.size(); i > 0 && v[i - 1].rec == rec; --i) first &= v[i - 1].dword != d;
            if (first) ws.polls.push_back({rec, seen->second, d});
          }
        if (f.sync_atomic) ++atomic_adds_[d];
        const auto it = atomic_adds_.find(d);
        if (it == atomic_adds_.end()) continue;
        SyncAccess* same = nullptr;  // this record's entry for d (at the end of v)
        for (size_t i = v.size(); i > 0 && v[i - 1].rec == rec; --i)
          if (v[i - 1].dword == d) same = &v[i - 1];
        if (f.sync_atomic && same) ++same->adds;  // another lane on the same dword
        else if (f.sync_atomic) v.push_back({rec, 1, d});
        else if (!same) v.push_back({rec, it->second, d});
      }
    };
    if (in.format == Format::MUBUF && in.src[2].kind == Operand::None) {
      // buffer_wbl2 / buffer_inv (the release / acquire of LLVM's gfx942 memory model): no V#,
      // no data. They issue as a VMEM instruction that touches no line; no source gives the cost
      // of the write-back or invalidate itself, so none is modelled.
    } else if (in.format == Format::MUBUF) {
      const uint32_t d0 = read_scalar(w, in.src[2], 0), d1 = read_scalar(w, in.src[2], 1);
      const uint32_t num_records = read_scalar(w, in.src[2], 2);
      const bool add_tid = (read_scalar(w, in.src[2], 3) >> 23) & 1;
      const uint64_t base = d0 | (uint64_t(d1 & 0xffff) << 32);
      const uint32_t stride = (d1 >> 16) & 0x3fff;
      const uint32_t so = in.src[3].kind == Operand::None ? 0u : read_scalar(w, in.src[3]);
      for (int l = 0; l < kLanes; ++l) {
        if (!(w.exec >> l & 1)) continue;
        uint32_t index = 0, voff = 0;
        if (in.mod.idxen && in.mod.offen) {
          index = read_u32(w, in.src[0], l, 0);
          voff = read_u32(w, in.src[0], l, 1);
        } else if (in.mod.idxen) {
          index = read_u32(w, in.src[0], l, 0);
        } else if (in.mod.offen) {
          voff = read_u32(w, in.src[0], l, 0);
        }
        if (add_tid) index += uint32_t(l);
        // The functional model's range check (exec_mem.cpp, CDNA3 "Range Checking"): the offset
        // includes soffset; a raw access checks each dword on its own (a sub-dword one whole), a
        // structured one (IDXEN, stride) its index, a private one (ADD_TID without IDXEN) nothing.
        // Out-of-range data is not moved.
        const uint64_t off = uint64_t(so) + voff + uint32_t(in.mod.offset) + uint64_t(stride) * index;
        unsigned moved = n;
        if (in.mod.idxen && stride != 0) {
          if (index >= num_records) continue;
        } else if (!(add_tid && !in.mod.idxen)) {
          if (n < 4) moved = off + n <= num_records ? n : 0;
          else moved = off >= num_records ? 0 : unsigned(std::min<uint64_t>(n, (num_records - off) / 4 * 4));
        }
        if (moved == 0) continue;
        add_lines(g.lines, base + off, moved, line);
        track(base + off, moved);
        if (f.atomic) atomic_addr.push_back(base + off);
        r.bytes += moved;
      }
    } else {
      for (int l = 0; l < kLanes; ++l) {
        if (!(w.exec >> l & 1)) continue;
        uint64_t a;
        if (in.format == Format::GLOBAL && in.src[2].kind != Operand::None)
          a = read_scalar64(w, in.src[2]) + read_u32(w, in.src[0], l) + uint64_t(int64_t(in.mod.offset));
        else if (in.format == Format::SCRATCH) {
          uint32_t o = uint32_t(in.mod.offset);
          if (in.src[2].kind != Operand::None) o += read_scalar(w, in.src[2]);
          if (in.src[0].kind != Operand::None) o += read_u32(w, in.src[0], l);
          a = w.scratch_base + uint64_t(l) * w.scratch_lane_stride + o;
        } else
          a = read_u64(w, in.src[0], l) + uint64_t(int64_t(in.mod.offset));
        add_lines(g.lines, a, n, line);
        track(a, n);
        if (f.atomic) atomic_addr.push_back(a);
        r.bytes += n;
      }
    }
    std::sort(g.lines.begin() + std::ptrdiff_t(first), g.lines.end());
    g.lines.erase(std::unique(g.lines.begin() + std::ptrdiff_t(first), g.lines.end()), g.lines.end());
    r.a = uint32_t(first);
    r.b = uint32_t(g.lines.size() - first);
    // An atomic's elements per line, and the most lanes on one address of it (the L2 channel
    // applies lanes on one address one after another).
    if (!atomic_addr.empty()) {
      std::sort(atomic_addr.begin(), atomic_addr.end());
      size_t li = first;
      for (size_t i = 0; i < atomic_addr.size();) {
        size_t j = i;
        while (j < atomic_addr.size() && atomic_addr[j] == atomic_addr[i]) ++j;
        const uint64_t l = atomic_addr[i] / line;
        while (li < g.lines.size() && g.lines[li] < l) ++li;
        if (li < g.lines.size() && g.lines[li] == l) {
          if (g.atomic_lines.empty() || g.atomic_lines.back().line != li)
            g.atomic_lines.push_back({uint32_t(li), 1, 0});
          auto& al = g.atomic_lines.back();
          al.serial = uint16_t(std::max<size_t>(al.serial, j - i));
          al.elements = uint16_t(al.elements + (j - i) * f.atomic_elements);
        }
        i = j;
      }
    }
  } else if (f.kind == Kind::Smem && (in.cls & (C_LOAD | C_STORE | C_ATOMIC))) {
    const size_t first = g.lines.size();
    uint64_t addr;
    if (in.mnemonic.starts_with("s_buffer")) {
      addr = (read_scalar(w, in.src[0], 0) | (uint64_t(read_scalar(w, in.src[0], 1) & 0xffff) << 32)) +
             uint64_t(int64_t(in.mod.offset)) + (in.src[1].kind != Operand::None ? read_scalar(w, in.src[1]) : 0);
    } else {
      addr = (read_scalar64(w, in.src[0]) & 0xffff'ffff'ffffull) + uint64_t(int64_t(in.mod.offset)) +
             (in.src[1].kind != Operand::None ? read_scalar(w, in.src[1]) : 0);
    }
    const unsigned bytes = 4u * std::max(1u, unsigned(in.dst[0].dwords));
    add_lines(g.lines, addr, bytes, dev_.scalar_line_bytes);
    r.a = uint32_t(first);
    r.b = uint32_t(g.lines.size() - first);
    r.bytes = uint16_t(bytes);
  }
  ws.recs.push_back(r);
}

void Recorder::on_wave_end(const Wave& w) {
  if (next_) next_->on_wave_end(w);
  const std::unique_ptr<GroupStream>& gp = groups[w.workgroup_linear / group_stride];
  if (!gp) return;
  const size_t n = gp->waves[w.wave_in_group].recs.size();
  size_t seen = length_hint_.load(std::memory_order_relaxed);
  while (n > seen && !length_hint_.compare_exchange_weak(seen, n, std::memory_order_relaxed)) {
  }
}

}  // namespace hipasm::sim::timing

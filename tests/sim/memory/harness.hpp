// Direct unit-test harness for the memory semantics and the checker: hand-built Inst objects
// following the operand conventions of sim/src/core.hpp, one Wave (or several of one
// workgroup) with real VGPR storage, LDS and device memory, handlers looked up in the
// Registry by mnemonic (as the loader binds them).
#pragma once
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "checker.hpp"
#include "core.hpp"
#include "memory.hpp"

namespace simtest {

using namespace hipasm::sim;

inline Operand V(int r, int n = 1) { Operand o; o.kind = Operand::Vgpr; o.reg = uint16_t(r); o.dwords = uint8_t(n); return o; }
inline Operand A(int r, int n = 1) { Operand o; o.kind = Operand::Agpr; o.reg = uint16_t(r); o.dwords = uint8_t(n); return o; }
inline Operand S(int r, int n = 1) { Operand o; o.kind = Operand::Sgpr; o.reg = uint16_t(r); o.dwords = uint8_t(n); return o; }
inline Operand VCC() { Operand o; o.kind = Operand::Vcc; o.dwords = 2; return o; }
inline Operand EXEC() { Operand o; o.kind = Operand::Exec; o.dwords = 2; return o; }
inline Operand M0() { Operand o; o.kind = Operand::M0; return o; }
inline Operand K(uint64_t v) { Operand o; o.kind = Operand::Const; o.imm = v; return o; }
inline Operand Special(int enc) { Operand o; o.kind = Operand::Special; o.reg = uint16_t(enc); return o; }
inline Operand None() { return Operand{}; }

inline std::string op_text(const Operand& o) {
  auto span = [&](const char* p) {
    return o.dwords == 1 ? p + std::to_string(o.reg)
                         : std::string(p) + "[" + std::to_string(o.reg) + ":" + std::to_string(o.reg + o.dwords - 1) + "]";
  };
  switch (o.kind) {
    case Operand::Vgpr: return span("v");
    case Operand::Agpr: return span("a");
    case Operand::Sgpr: return span("s");
    case Operand::Vcc: return "vcc";
    case Operand::Exec: return "exec";
    case Operand::M0: return "m0";
    case Operand::Const: case Operand::Literal: return std::to_string(int64_t(o.imm));
    case Operand::Special: return "special" + std::to_string(o.reg);
    case Operand::None: return "off";
    default: return "?";
  }
}

inline Inst make(Format f, std::string mnemonic, std::vector<Operand> dst, std::vector<Operand> src,
                 Modifiers mod = {}, uint32_t cls = 0) {
  Inst in;
  in.format = f;
  in.mnemonic = mnemonic;
  in.num_dst = uint8_t(dst.size());
  in.num_src = uint8_t(src.size());
  std::string text = mnemonic;
  bool first = true;
  for (size_t i = 0; i < dst.size(); ++i) {
    in.dst[i] = dst[i];
    text += (first ? " " : ", ") + op_text(dst[i]);
    first = false;
  }
  for (size_t i = 0; i < src.size(); ++i) {
    in.src[i] = src[i];
    text += (first ? " " : ", ") + op_text(src[i]);
    first = false;
  }
  in.text = text;
  in.mod = mod;
  in.cls = cls;
  in.exec = Registry::get().find(mnemonic);
  return in;
}

inline Modifiers off(int32_t offset, int32_t offset1 = 0) {
  Modifiers m;
  m.offset = offset;
  m.offset1 = offset1;
  return m;
}

// One workgroup: waves sharing an LDS allocation, device memory, an optional checker.
struct Group {
  std::unique_ptr<Memory> own_mem;
  Memory& mem;
  Dispatch dispatch;
  Workgroup wg;
  std::deque<Wave> waves;
  std::unique_ptr<Checker> checker;
  std::deque<Inst> code;  // stable addresses
  uint64_t next_pc = 0x1000;
  bool run_handlers = true;  // false: only the checker sees the instructions

  explicit Group(int nwaves = 1, uint32_t lds_bytes = 4096, bool with_checker = true, Memory* shared = nullptr)
      : own_mem(shared ? nullptr : std::make_unique<Memory>()), mem(shared ? *shared : *own_mem) {
    dispatch.memory = &mem;
    if (with_checker) {
      // Hand-built waves have no dispatch state (no user SGPRs, no work-item ids): without the
      // definedness rules, which test_checker_undef.cpp runs on real dispatches.
      checker = std::make_unique<Checker>(false);
      dispatch.observer = checker.get();
    }
    wg.lds.assign(lds_bytes, 0);
    wg.num_waves = uint32_t(nwaves);
    for (int i = 0; i < nwaves; ++i) {
      Wave& w = waves.emplace_back();
      w.vgpr.assign(size_t(kMaxVgprs) * kLanes, 0);
      w.dispatch = &dispatch;
      w.group = &wg;
      w.lds = wg.lds.data();
      w.lds_size = lds_bytes;
      w.wave_in_group = uint32_t(i);
      w.wave_id = uint32_t(i);
    }
  }
  Wave& w(int i = 0) { return waves[size_t(i)]; }

  // Adds an instruction to the program (gives it a pc) and returns it.
  const Inst& add(Inst in) {
    in.pc = next_pc;
    next_pc += 8;
    code.push_back(std::move(in));
    return code.back();
  }
  // Issues on wave i: checker first (as the dispatcher does), then the handler if any.
  void issue(int i, Inst in) {
    const Inst& ref = add(std::move(in));
    Wave& wave = w(i);
    wave.cur = &ref;
    if (checker) checker->on_issue(wave, ref, wave.issued);
    wave.issued++;
    if (run_handlers && ref.exec) ref.exec(wave, ref);
  }
  std::vector<std::string> diagnostics() const { return checker ? checker->diagnostics() : std::vector<std::string>{}; }
};

// Common instructions.
inline Inst s_nop(int n) { Modifiers m; m.simm16 = uint16_t(n); return make(Format::SOPP, "s_nop", {}, {}, m, C_NOP); }
inline Inst s_waitcnt(int vm, int lgkm) {
  Modifiers m;
  m.simm16 = uint16_t((vm & 0xf) | (7 << 4) | ((lgkm & 0xf) << 8) | (((vm >> 4) & 3) << 14));
  return make(Format::SOPP, "s_waitcnt", {}, {}, m, C_WAITCNT);
}
inline Inst s_barrier() { return make(Format::SOPP, "s_barrier", {}, {}, {}, C_BARRIER); }

}  // namespace simtest

// s_waitcnt's SIMM16 on gfx9 (gfx942 and gfx950): vmcnt[3:0] | expcnt[6:4] | lgkmcnt[11:8] |
// vmcnt[5:4] in [15:14] (LLVM's AMDGPUBaseInfo getVmcntBitShiftLo/Hi, getExpcntBitShift,
// getLgkmcntBitShift for gfx9). The one place that knows the layout: the builder's waitcnt,
// the printer and the passes encode and decode through a target's `waitcnt_encoding`, as
// LLVM's SIInsertWaitcnts does through its per-generation encodings.
#pragma once
#include <cstdint>

namespace hipasm::targets {

struct waitcnt_gfx9 {
  static constexpr uint32_t vm_max = 63, exp_max = 7, lgkm_max = 15;  // "no wait" per counter
  static constexpr uint16_t encode(uint32_t vm, uint32_t exp, uint32_t lgkm) {
    return static_cast<uint16_t>((vm & 0xf) | (exp & 0x7) << 4 | (lgkm & 0xf) << 8 | ((vm >> 4) & 3) << 14);
  }
  static constexpr uint32_t vm(uint64_t simm16) { return static_cast<uint32_t>((simm16 & 0xf) | (((simm16 >> 14) & 3) << 4)); }
  static constexpr uint32_t exp(uint64_t simm16) { return static_cast<uint32_t>((simm16 >> 4) & 7); }
  static constexpr uint32_t lgkm(uint64_t simm16) { return static_cast<uint32_t>((simm16 >> 8) & 0xf); }
};

}  // namespace hipasm::targets

// Definedness tracking for the checker (undef.cpp): which register bits and LDS bytes hold a
// value the kernel computed, and which still hold whatever the hardware left there.
//
// Like a memory checker's shadow memory: every SGPR bit, every VGPR/AGPR half (16 bits) per
// lane, VCC/EXEC bit, M0 bit, SCC and LDS byte has a "defined" flag. The dispatch defines
// what the hardware initialises (the kernel descriptor's user and system SGPRs, v0's work-item
// ids in the lanes that exist, EXEC); every instruction's result is defined in a lane where
// the inputs it depends on are. Reading an undefined value is no error by itself (a DPP old
// value every lane overwrites, the unselected input of v_cndmask, an inactive lane, a spill):
// a finding is where one decides something the hardware makes visible:
//   undef-addr    an address, offset, buffer descriptor, LDS address, lane index or M0
//                 index of an active lane;
//   undef-store   data stored to (or atomically combined with) device memory;
//   undef-branch  a branch condition (SCC, VCCZ, EXECZ) or an s_setpc target;
//   undef-exec    EXEC gets a bit that depends on undefined data.
// Scratch (private) memory is not tracked (its loads are defined, its stores never findings):
// spills copy registers whatever they hold.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core.hpp"

namespace hipasm::sim::undef {

// Per-instruction facts, computed once per decoded instruction (undef.cpp, classify).
struct Facts {
  uint8_t kind = 0;       // what the instruction does (undef.cpp's Kind)
  uint8_t op = 0;         // a sub-kind (bitwise operation, DS element shape, ...)
  uint8_t ds_bytes = 0;   // DS: bytes per element
  uint8_t ds_count = 1;   // DS: elements (2 for read2/write2)
  uint16_t ds_scale = 1;  // DS: offset multiplier of read2/write2
  uint8_t ds_tr_bits = 0; // DS: element bits of a transposing read (gfx950 ds_read_*_tr_b*), else 0
  uint8_t half = 3;       // halves of a 16-bit or narrower memory element: 1 low, 2 high, 3 both
  int8_t mask_src = -1;   // VALU: the source that is a lane mask (v_cndmask, v_addc_co, ...)
  bool keep16 = false;    // VALU 16-bit result that keeps the other half (else it is zeroed)
  uint8_t halves = 0;     // VALU 32-bit op whose result halves read known source halves (undef.cpp's Halves)
  bool scc_in = false, scc_out = false;
};
Facts classify(const Inst& in);

struct WaveShadow {
  std::array<uint64_t, 2 * kMaxVgprs> v{};  // lanes whose low (2r) / high (2r+1) half of
                                            // unified VGPR r is defined
  std::array<uint32_t, 128> s{};            // defined bits of each SGPR (102.. specials)
  uint64_t vcc = 0, exec = 0;
  uint32_t m0 = 0;
  bool scc = false;
  void reset(const Wave& w);  // the state at dispatch
};

// One finding: rule tag and details ("v3 in lanes 0-31 ...").
struct Sink {
  virtual void found(const char* rule, const std::string& what) = 0;
  virtual ~Sink() = default;
};

// Updates the shadow for `in` about to execute on `w` (registers still as before it) and
// reports findings. `lds` is the workgroup's LDS shadow (one bit per byte, 1 = defined).
void issue(WaveShadow& u, std::vector<uint64_t>& lds, const Wave& w, const Inst& in, const Facts& f, Sink& sink);

// LDS bytes written by LDS-DMA or FLAT (from memory or registers the checker marks
// defined at issue): they become defined.
void lds_define(std::vector<uint64_t>& lds, uint32_t addr, uint32_t n);

inline constexpr const char* kRules[] = {"undef-addr", "undef-store", "undef-branch", "undef-exec"};

}  // namespace hipasm::sim::undef

// A device debug log (pyhip's debug_log): the kernel appends tagged values to a buffer passed
// as a kernel argument, the host prints them by tag, workgroup, wave and lane
// (debug_log_host.hpp). Pure buffer stores and one returning atomic add per lane for the
// append index, so the same code runs in hipasm-sim and on an MI300.
//
//   constexpr void k(builder J, arg<float*> out, arg<uint32_t*> dbg_buf) {
//     auto dbg = make_debug_log(J, dbg_buf);
//     ...
//     dbg(1, x);            // every active lane appends (tag 1, this line, wg, wave, lane, x)
//     dbg(2, n);            // an SGPR value: the first active lane appends it once
//   }
//   // host: auto buf = hipasm::debug_log_buffer(4096); ... upload, launch, download ...
//   //       hipasm::print_debug_log(buf);
//
// Buffer layout (u32 words): [0] records appended so far (the atomic counter; may exceed the
// capacity: the rest were dropped), [1] capacity in records (set by the host), [2..7] 0, then
// 8-word records: tag | dtype << 16 | flags << 24 (bit 0: an SGPR value), the source line of the
// call, workgroup id x, wave-in-group << 16 | lane, the value's low and high words, workgroup
// ids y and z. The wave in the group and the lane come from the linear work-item id
// x + size_x * (y + size_y * z) (waves are consecutive runs of 64 of it), with the workgroup
// size from the hidden kernel arguments (loaded once by make_debug_log; the wrapper has clang
// declare them), so 1-, 2- and 3-D workgroups all report the hardware's wave and lane.
// Each call waits for the kernel's outstanding vector memory operations (s_waitcnt vmcnt(0),
// for its atomic's result) and costs ~20 instructions: a debugging aid, not for timing.
#pragma once
#include <source_location>

#include "../builder.hpp"

namespace hipasm {

struct debug_log {
  builder* b = nullptr;
  gpr<u64> buf{};   // the buffer (SGPR pair)
  gpr<u32> cap{};   // capacity in records (SGPR)
  gpr<u32> who{};   // wave << 16 | lane (VGPR)
  gpr<u32> wg{}, wg_y{}, wg_z{};  // workgroup id x, y, z

  // Appends `value` (a 32- or 64-bit register element) under `tag` (0..65535).
  template <dtype T>
  constexpr void operator()(int tag, const gpr<T>& value, std::source_location l = std::source_location::current()) const {
    if (!b) return;
    builder& J = *b;
    const std::source_location loc = l;  // (a local: the lambdas below capture it)
    const src_loc sl = to_src_loc(l);
    if (tag < 0 || tag > 0xffff) {
      J.fail(sl, "debug_log: the tag must be 0..65535, got ", static_cast<long long>(tag));
      return;
    }
    if (value.size() != 1 || value.cls == reg_class::agpr) {
      J.fail(sl, "debug_log: log one SGPR or VGPR element (copy an AGPR to a VGPR first)");
      return;
    }
    const bool scalar = value.cls == reg_class::sgpr;
    auto rec = J.vgpr<u32>(8, loc).named("debug_record");
    rec[0] = val<u32>(static_cast<uint32_t>(tag) | static_cast<uint32_t>(T) << 16 | (scalar ? 1u : 0u) << 24, loc);
    rec[1] = val<u32>(sl.line, loc);
    rec[2] = wg;
    rec[3] = who;
    auto words = value.template as<u32>(loc);
    rec[4] = words.at(0, loc);
    if (dwords_of(T) == 2) rec[5] = words.at(1, loc);
    else rec[5] = val<u32>(0u, loc);
    rec[6] = wg_y;
    rec[7] = wg_z;
    auto body = [&] {
      auto zero = J.vgpr<u32>(loc);
      auto one = J.vgpr<u32>(loc);
      zero = val<u32>(0u, loc);
      one = val<u32>(1u, loc);
      auto slot = J.vgpr<u32>(loc).named("debug_slot");
      J.global_atomic_add(slot, zero, one, buf, {}, loc);
      J.s_waitcnt(vmcnt(0), no_modifiers, loc);
      J.If(slot < cap, [&] {
        auto at = J.vgpr<u32>(loc);
        at = slot * 32u + 32u;
        J.global_store_dwordx4(at, rec.slice(0, 4, loc), buf, no_modifiers, loc);
        J.global_store_dwordx4(at, rec.slice(4, 4, loc), buf, {.offset = 16}, loc);
      }, loc);
    };
    if (scalar) {
      // Only the first active lane: the number of active lanes below it is 0.
      auto below = J.vgpr<u32>(loc);
      J.v_mbcnt_lo_u32_b32(below, exec_lo, 0, no_modifiers, loc);
      J.v_mbcnt_hi_u32_b32(below, exec_hi, below, no_modifiers, loc);
      J.If(below == 0u, body, loc);
    } else {
      body();
    }
  }
};

// Sets up logging into `buffer` (a u32* kernel argument or an SGPR pair holding the address).
constexpr debug_log make_debug_log(builder J, const gpr<u64>& buffer, std::source_location l = std::source_location::current()) {
  builder& B = J;
  debug_log d;
  d.b = B.self();
  d.buf.rebind(buffer);
  d.cap.rebind(B.sgpr<u32>(l).named("debug_cap"));
  B.s_load_dword(d.cap, d.buf, 4, no_modifiers, l);
  B.s_waitcnt(lgkmcnt(0), no_modifiers, l);
  d.wg.rebind(B.workgroup_id_x(l));
  d.wg_y.rebind(B.workgroup_id_y(l));
  d.wg_z.rebind(B.workgroup_id_z(l));
  // hidden_group_size_x | hidden_group_size_y << 16 (u16 each, at +12 of the hidden arguments)
  auto size_xy = B.sgpr<u32>(l).named("debug_group_size_xy");
  B.s_load_dword(size_xy, B.kernarg_ptr(l), B.hidden_args_offset() + 12, no_modifiers, l);
  B.s_waitcnt(lgkmcnt(0), no_modifiers, l);
  auto linear = B.vgpr<u32>(l).named("debug_linear_id");
  linear = B.thread_id_x(l) + (size_xy & 0xffffu) * (B.thread_id_y(l) + (size_xy >> 16u) * B.thread_id_z(l));
  d.who.rebind(B.vgpr<u32>(l).named("debug_wave_lane"));
  d.who = ((linear >> 6u) << 16u) | (linear & 63u);
  return d;
}

}  // namespace hipasm

// Raw-IR kernels of test_kernel_workflow.cpp (shared by workflow.hip and the host test).
#pragma once
#include "../passes_ir_build.hpp"

namespace hipasm::test {

// out[tid] = tid + 1
constexpr function wf_add_ir() {
  kb k("wf_add");
  auto kern = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.s(2, "out");
  auto x = k.v(1, "x");
  auto addr = k.v(1, "addr");
  k.fn.uses_workitem_id[0] = true;
  k.fn.uses_kernarg_ptr = true;
  k.op(0, "s_load_dwordx2", {R(out), R(kern), I(0)});
  k.op(0, "v_add_u32", {R(x), I(1), R(tid)});
  k.op(0, "v_lshlrev_b32", {R(addr), I(2), R(tid)});
  k.op(0, "s_waitcnt", {I(0xc07f)});
  k.op(0, "global_store_dword", {R(addr), R(x), R(out)});
  k.op(0, "s_endpgm", {});
  return k.fn;
}

// Hazards the s_nop pass must cover: a VALU-written SGPR read by VMEM (5 wait states) and
// an MFMA result read by v_accvgpr_read (XDL, 8 passes: 11). out[tid] = float(in[0]) + 8
// (the 32x32x8 f16 MFMA of all-ones inputs sums 8 products of 1.0).
constexpr function wf_hazard_ir() {
  kb k("wf_hazard");
  auto kern = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto ptrs = k.s(4, "ptrs");  // in, out
  auto base = k.s(2, "base");
  auto zero = k.v(1, "zero");
  auto x = k.v(1, "x");
  auto val = k.v(1, "val");
  auto fv = k.v(1, "fv");
  auto ab = k.v(2, "ab");
  auto acc = k.a(16, "acc");
  auto r = k.v(1, "r");
  auto addr = k.v(1, "addr");
  k.fn.uses_workitem_id[0] = true;
  k.fn.uses_kernarg_ptr = true;
  k.op(0, "s_load_dwordx4", {R(ptrs), R(kern), I(0)});
  k.op(0, "s_waitcnt", {I(0xc07f)});
  k.op(0, "v_mov_b32", {R(zero), I(0)});
  k.op(0, "v_mov_b32", {R(x), R(ptrs, 0, 1)});
  k.op(0, "s_mov_b32", {R(base, 1, 1), R(ptrs, 1, 1)});
  k.op(0, "v_readfirstlane_b32", {R(base, 0, 1), R(x)});  // VALU writes an SGPR...
  k.op(0, "global_load_dword", {R(val), R(zero), R(base)});  // ...that VMEM reads
  k.op(0, "v_mov_b32", {R(ab, 0, 1), I(0x3c003c00)});
  k.op(0, "v_mov_b32", {R(ab, 1, 1), I(0x3c003c00)});
  for (int j = 0; j < 16; ++j) k.op(0, "v_accvgpr_write_b32", {R(acc, static_cast<uint16_t>(j), 1), I(0)});
  k.op(0, "v_mfma_f32_32x32x8_f16", {R(acc), R(ab), R(ab), R(acc)});
  k.op(0, "v_accvgpr_read_b32", {R(r), R(acc, 0, 1)});  // MFMA result read by a VALU
  k.op(0, "s_waitcnt", {I(0x0f70)});
  k.op(0, "v_cvt_f32_u32", {R(fv), R(val)});
  k.op(0, "v_add_f32", {R(r), R(r), R(fv)});
  k.op(0, "v_lshlrev_b32", {R(addr), I(2), R(tid)});
  k.op(0, "global_store_dword", {R(addr), R(r), R(ptrs, 2, 2)});
  k.op(0, "s_endpgm", {});
  return k.fn;
}

// More rules for the cross-check with the simulator's table: VGPR -> DPP (2), VALU VCC ->
// VALU (2), VGPR -> v_readfirstlane (1), VALU SGPR -> VALU (2), transcendental -> VALU (1),
// MFMA result -> MFMA SrcA/B (XDL NP+3).
constexpr function wf_hazard2_ir() {
  kb k("wf_hazard2");
  auto kern = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.s(2, "out");
  auto x = k.v(1, "x"), y = k.v(1, "y"), c = k.v(1, "c"), d = k.v(1, "d"), e = k.v(1, "e");
  auto f = k.v(1, "f"), t = k.v(1, "t"), u = k.v(1, "u");
  auto sc = k.s(1, "uniform");
  auto ab = k.v(2, "ab");
  auto acc = k.a(4, "acc");
  auto acc2 = k.a(4, "acc2");
  auto r = k.v(1, "r");
  auto addr = k.v(1, "addr");
  k.fn.uses_workitem_id[0] = true;
  k.fn.uses_kernarg_ptr = true;
  k.op(0, "s_load_dwordx2", {R(out), R(kern), I(0)});
  k.op(0, "v_add_u32", {R(x), I(1), R(tid)});
  {
    auto& in = k.op(0, "v_mov_b32", {R(y), R(x)});  // DPP reads x
    edit_modifiers(in, [&](modifiers& m_) { m_.dpp.ctrl = 0x111; });
    edit_modifiers(in, [&](modifiers& m_) { m_.dpp.bound_ctrl = true; });
  }
  k.op(0, "v_add_co_u32", {R(c), SP(special_reg::vcc), R(x), R(y)});
  k.op(0, "v_cndmask_b32", {R(d), R(x), R(c), SP(special_reg::vcc)});  // reads VCC
  k.op(0, "v_readfirstlane_b32", {R(sc), R(d)});                      // reads d
  k.op(0, "v_add_u32", {R(e), R(sc), R(d)});                           // reads sc
  k.op(0, "v_cvt_f32_u32", {R(f), R(e)});
  k.op(0, "v_exp_f32", {R(t), R(f)});
  k.op(0, "v_add_f32", {R(u), R(t), R(f)});  // reads the transcendental result
  k.op(0, "v_mov_b32", {R(ab, 0, 1), I(0x3c003c00)});
  k.op(0, "v_mov_b32", {R(ab, 1, 1), I(0x3c003c00)});
  for (int j = 0; j < 4; ++j) k.op(0, "v_accvgpr_write_b32", {R(acc, static_cast<uint16_t>(j), 1), I(0)});
  k.op(0, "v_mfma_f32_4x4x4_16b_f16", {R(acc), R(ab), R(ab), R(acc)});
  k.op(0, "v_mfma_f32_4x4x4_16b_f16", {R(acc2), R(acc, 0, 2), R(acc, 2, 2), R(acc)});  // SrcA/B from the result
  k.op(0, "v_accvgpr_read_b32", {R(r), R(acc2, 0, 1)});
  k.op(0, "v_add_f32", {R(u), R(u), R(r)});
  k.op(0, "v_lshlrev_b32", {R(addr), I(2), R(tid)});
  k.op(0, "s_waitcnt", {I(0xc07f)});
  k.op(0, "global_store_dword", {R(addr), R(u), R(out)});
  k.op(0, "s_endpgm", {});
  return k.fn;
}

}  // namespace hipasm::test

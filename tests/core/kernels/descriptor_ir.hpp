// Raw-IR kernels shared by descriptor_kernels.hip (device) and test_descriptor.cpp (host).
#pragma once
#include "../passes_ir_build.hpp"

namespace hipasm::test {

// Raw IR: workgroup ids y and z (x unused), work-item id y, 1 KiB static LDS, AGPRs up to
// a15, VGPRs up to v37, SGPRs up to s20 (named physically, so the counts are exact).
constexpr function entry_mix_ir() {
  kb k("entry_mix");
  auto kern = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto wgy = k.reg(reg_class::sgpr, 1, "wg_y", 2);  // a builder numbering only used ids
  auto wgz = k.reg(reg_class::sgpr, 1, "wg_z", 3);
  auto v0 = k.reg(reg_class::vgpr, 1, "v0_ids", 0);
  auto tidy = k.v(1, "tid_y");
  auto ptr = k.s(2, "out");
  auto val = k.v(1, "val");
  auto addr = k.v(1, "addr");
  k.fn.uses_workgroup_id[1] = k.fn.uses_workgroup_id[2] = true;
  k.fn.uses_workitem_id[1] = true;
  k.fn.uses_kernarg_ptr = true;
  k.fn.lds_static_bytes = 1024;
  k.op(0, "s_load_dwordx2", {R(ptr), R(kern), I(0)});
  k.op(0, "v_bfe_u32", {R(tidy), R(v0), I(10), I(10)});
  k.op(0, "v_add_u32", {R(val), R(wgy), R(tidy)});
  k.op(0, "v_add_u32", {R(val), R(wgz), R(val)});
  k.op(0, "v_lshlrev_b32", {R(addr), I(2), R(tidy)});
  k.op(0, "ds_write_b32", {R(addr), R(val)});
  k.op(0, "v_mov_b32", {PH(reg_class::vgpr, 37), I(1)});
  k.op(0, "s_mov_b32", {PH(reg_class::sgpr, 20), I(1)});
  k.op(0, "v_accvgpr_write_b32", {PH(reg_class::agpr, 15), I(0)});
  k.op(0, "s_waitcnt", {I(0xc07f)});
  k.op(0, "global_store_dword", {R(addr), R(val), R(ptr)});
  k.op(0, "s_endpgm", {});
  return k.fn;
}
}  // namespace hipasm::test

namespace hipasm::test {

// Only workgroup id x and work-item id x, no AGPRs, no LDS, a loop (labels in the asm).
constexpr function plain_loop_ir() {
  kb k("plain_loop");
  auto kern = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto wgx = k.reg(reg_class::sgpr, 1, "wg_x", 2);
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto ptr = k.s(2, "out");
  auto cnt = k.s(1, "i");
  auto acc = k.v(1, "acc");
  auto addr = k.v(1, "addr");
  k.fn.uses_workgroup_id[0] = true;
  k.fn.uses_workitem_id[0] = true;
  k.fn.uses_kernarg_ptr = true;
  const uint32_t loop = k.block(), done = k.block();
  k.edge(0, loop);
  k.edge(loop, loop);
  k.edge(loop, done);
  k.op(0, "s_load_dwordx2", {R(ptr), R(kern), I(0)});
  k.op(0, "s_mov_b32", {R(cnt), I(10)});
  k.op(0, "v_mov_b32", {R(acc), R(wgx)});
  k.op(loop, "v_add_u32", {R(acc), R(cnt), R(acc)});
  k.op(loop, "s_sub_u32", {R(cnt), R(cnt), I(1)});
  k.op(loop, "s_cmp_lg_u32", {R(cnt), I(0)});
  k.op(loop, "s_cbranch_scc1", {L(loop)});
  k.op(done, "v_lshlrev_b32", {R(addr), I(2), R(tid)});
  k.op(done, "s_waitcnt", {I(0xc07f)});
  k.op(done, "global_store_dword", {R(addr), R(acc), R(ptr)});
  k.op(done, "s_endpgm", {});
  return k.fn;
}

}  // namespace hipasm::test

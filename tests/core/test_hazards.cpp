// Hazard s_nop insertion: the rules of gfx942.md, across block boundaries and loop
// back-edges, MFMA windows by pass count; the independent verifier on every result.
#include <catch2/catch.hpp>

#include <regex>

#include "passes_ir_helpers.hpp"

using namespace hipasm;
using namespace hipasm::test;

namespace {
// Runs the pipeline without the hazard pass (allocation done), for the verifier's sake.
pipeline_state allocate_only(const function& fn) {
  pipeline_state st{fn, target_isa(), &gfx942_hazards, {}};
  for (const auto& step : pipeline_steps) {
    if (step.name == "hazards") break;
    REQUIRE(step.run(st));
  }
  return st;
}
void check_verified(const pipeline_state& st) {
  const auto v = verify_hazards(st.fn, target_isa(), gfx942_hazards);
  INFO(v.view());
  CHECK_FALSE(v.failed);
}
}  // namespace

TEST_CASE("hazards: VALU writes an SGPR that a VMEM instruction reads: 5 wait states, commented") {
  kb k("valu_sgpr_vmem");
  auto kern = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto lo = k.s(2, "base");
  auto x = k.v(1, "x");
  k.op(0, "s_load_dwordx2", {R(lo), R(kern), I(0)});
  k.op(0, "s_waitcnt", {I(0xc07f)});
  k.op(0, "v_readfirstlane_b32", {R(lo, 0, 1), R(tid)});
  k.op(0, "global_load_dword", {R(x), R(tid), R(lo)});
  k.op(0, "s_waitcnt", {I(0x0f70)});
  k.op(0, "global_store_dword", {R(tid), R(x), R(lo)});
  const auto before = allocate_only(k.fn);
  CHECK(verify_hazards(before.fn, k.isa, gfx942_hazards).failed);  // the checker sees it
  const auto st = compile_function(k.fn);
  REQUIRE_FALSE(st.error.failed);
  const std::string text = to_text(st.fn, true);
  INFO(text);
  CHECK(nops_before(text, "global_load_dword") == 5);
  CHECK(text.find("VALU writes SGPR -> VMEM reads it (5)") != std::string::npos);
  check_verified(st);
}

TEST_CASE("hazards: VCC written by v_add_co_u32 and read by v_cndmask_b32: 2 wait states (as clang-22 emits)") {
  // clang-22 -O3 for gfx942 emits exactly `v_add_co_u32_e32 v1, vcc, v2, v1; s_nop 1;
  // v_cndmask_b32_e32 v1, v3, v1, vcc` for __builtin_uadd_overflow feeding a select.
  kb k("vcc");
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto a = k.v(1, "a");
  auto b = k.v(1, "b");
  auto c = k.v(1, "c");
  k.op(0, "v_mul_lo_u32", {R(b), R(tid), R(tid)});
  k.op(0, "v_add_co_u32", {R(a), SP(special_reg::vcc), R(tid), R(b)});
  k.op(0, "v_cndmask_b32", {R(c), R(b), R(a), SP(special_reg::vcc)});
  k.op(0, "global_store_dword", {R(tid), R(c), R(out)});
  const auto st = compile_function(k.fn);
  REQUIRE_FALSE(st.error.failed);
  const std::string text = to_text(st.fn);
  INFO(text);
  CHECK(nops_before(text, "v_cndmask_b32") == 2);
  CHECK(nops_before(text, "v_add_co_u32") == 0);
  check_verified(st);
}

TEST_CASE("hazards: across a block boundary and around a loop back-edge") {
  kb k("loop_hazard");
  auto kern = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto base = k.s(2, "base");
  auto cnt = k.s(1, "cnt");
  auto x = k.v(1, "x");
  const uint32_t loop = k.block(), done = k.block();
  k.edge(0, loop);
  k.edge(loop, loop);
  k.edge(loop, done);
  k.op(0, "s_load_dwordx2", {R(base), R(kern), I(0)});
  k.op(0, "s_mov_b32", {R(cnt), I(4)});
  k.op(0, "s_waitcnt", {I(0xc07f)});
  // Loop top: a VMEM load reading base; the loop's last VALU rewrites base[0]: the
  // hazard exists only through the back-edge (the entry path has SALU writes only).
  k.op(loop, "global_load_dword", {R(x), R(tid), R(base)});
  k.op(loop, "s_waitcnt", {I(0x0f70)});
  k.op(loop, "s_sub_u32", {R(cnt), R(cnt), I(1)});
  k.op(loop, "s_cmp_lg_u32", {R(cnt), I(0)});
  k.op(loop, "v_readfirstlane_b32", {R(base, 0, 1), R(x)});
  k.op(loop, "s_cbranch_scc1", {L(loop)});
  k.op(done, "global_store_dword", {R(tid), R(x), R(base)});  // right after the loop: next block
  const auto st = compile_function(k.fn);
  REQUIRE_FALSE(st.error.failed);
  const std::string text = to_text(st.fn);
  INFO(text);
  // Back-edge: readfirstlane, s_cbranch (1 wait state) -> global_load needs 4 more.
  CHECK(nops_before(text, "global_load_dword") == 4);
  // Fall-through: readfirstlane, s_cbranch -> global_store needs 4 more as well.
  CHECK(nops_before(text, "global_store_dword") == 4);
  check_verified(st);
}

TEST_CASE("hazards: MFMA result windows follow the pass count (XDL: NP+3)") {
  kb k("mfma");
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto a = k.v(2, "a");
  auto acc = k.a(16, "acc");
  auto acc4 = k.a(4, "acc4");
  auto r = k.v(1, "r");
  auto r4 = k.v(1, "r4");
  k.op(0, "v_mov_b32", {R(a, 0, 1), R(tid)});
  k.op(0, "v_mov_b32", {R(a, 1, 1), R(tid)});
  for (int j = 0; j < 16; ++j) k.op(0, "v_accvgpr_write_b32", {R(acc, static_cast<uint16_t>(j), 1), I(0)});
  for (int j = 0; j < 4; ++j) k.op(0, "v_accvgpr_write_b32", {R(acc4, static_cast<uint16_t>(j), 1), I(0)});
  k.op(0, "v_mfma_f32_32x32x8_f16", {R(acc), R(a), R(a), R(acc)});  // 8 passes, XDL
  k.op(0, "v_mfma_f32_32x32x8_f16", {R(acc), R(a), R(a), R(acc)});  // same SrcC: no wait
  k.op(0, "v_accvgpr_read_b32", {R(r), R(acc, 0, 1)});              // 8 + 3 = 11
  k.op(0, "v_mfma_f32_4x4x4_16b_f16", {R(acc4), R(a), R(a), R(acc4)});  // 2 passes
  k.op(0, "v_mfma_f32_4x4x4_16b_f16", {R(acc4), R(a), R(a), R(acc4)});  // same SrcC, 2-pass: 2
  k.op(0, "v_accvgpr_read_b32", {R(r4), R(acc4, 0, 1)});                // 2 + 3 = 5
  k.op(0, "v_add_u32", {R(r), R(r4), R(r)});
  k.op(0, "global_store_dword", {R(tid), R(r), R(out)});
  const auto st = compile_function(k.fn);
  REQUIRE_FALSE(st.error.failed);
  const std::string text = to_text(st.fn, true);
  INFO(text);
  // The second 32x32 MFMA follows the first directly.
  CHECK(text.find("v_mfma_f32_32x32x8_f16") != std::string::npos);
  const auto first = text.find("v_mfma_f32_32x32x8_f16");
  const auto second = text.find("v_mfma_f32_32x32x8_f16", first + 1);
  CHECK(text.substr(first, second - first).find("s_nop") == std::string::npos);
  // v_accvgpr_read of the 32x32 result: 11 wait states, in ONE s_nop (N <= 15: SIMM16[3:0],
  // as llc-22 emits `s_nop 15`).
  CHECK(nops_before(text, "v_accvgpr_read_b32") == 11);
  CHECK(text.find("s_nop 10") != std::string::npos);
  CHECK(text.find("XDL MFMA -> VALU/VMEM/DS read (NP+3)") != std::string::npos);
  const auto f4 = text.find("v_mfma_f32_4x4x4_16b_f16");
  CHECK(nops_before(text.substr(f4 + 10), "v_mfma_f32_4x4x4_16b_f16") == 2);
  check_verified(st);
}

TEST_CASE("hazards: independent instructions get no s_nop") {
  kb k("quiet");
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto a = k.v(1, "a");
  auto b = k.v(1, "b");
  auto s = k.s(1, "s");
  k.op(0, "s_mov_b32", {R(s), I(3)});
  k.op(0, "v_add_u32", {R(a), R(s), R(tid)});
  k.op(0, "v_mul_lo_u32", {R(b), R(a), R(a)});
  k.op(0, "global_store_dword", {R(tid), R(b), R(out)});
  const auto st = compile_function(k.fn);
  REQUIRE_FALSE(st.error.failed);
  CHECK(to_text(st.fn).find("s_nop") == std::string::npos);
  check_verified(st);
}

TEST_CASE("hazards: the pass runs at compile time") {
  constexpr auto nops = [] {
    kb k("ct");
    auto kern = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
    auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
    auto lo = k.s(2, "base");
    auto x = k.v(1, "x");
    k.op(0, "s_load_dwordx2", {R(lo), R(kern), I(0)});
    k.op(0, "s_waitcnt", {I(0xc07f)});
    k.op(0, "v_readfirstlane_b32", {R(lo, 0, 1), R(tid)});
    k.op(0, "global_load_dword", {R(x), R(tid), R(lo)});
    const auto st = compile_function(k.fn);
    int n = 0;
    for (const auto& in : st.fn.blocks[0].instrs)
      if (target_isa()[in.op].name == "s_nop") n += static_cast<int>(in.ops[0].value) + 1;
    return n;
  }();
  STATIC_REQUIRE(nops == 5);
}

// Counts the s_nop lines right before the first line containing `consumer`.
static int nop_lines_before(const std::string& text, const std::string& consumer) {
  const auto at = text.find(consumer);
  REQUIRE(at != std::string::npos);
  int n = 0;
  std::size_t end = text.rfind('\n', at);
  while (end != std::string::npos && end > 0) {
    const std::size_t start = text.rfind('\n', end - 1);
    const std::string line = text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1));
    if (line.find("s_nop") == std::string::npos) break;
    ++n;
    if (start == std::string::npos) break;
    end = start;
  }
  return n;
}

TEST_CASE("hazards: a loaded VGPR read by DPP after s_waitcnt needs 2 wait states (LLVM's checkDPPHazards: any writer)") {
  // The reproducer: llc-22 emits global_load_dword v1; s_waitcnt vmcnt(0); s_nop 0;
  // v_mov_b32_dpp ... v1. Before the fix only a VALU/MFMA counted as the VGPR's writer.
  for (const char* load : {"global_load_dword", "ds_read_b32"}) {
    kb k("dpp_after_load");
    auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
    auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
    auto x = k.v(1, "x");
    auto y = k.v(1, "y");
    if (std::string(load) == "global_load_dword") {
      k.op(0, load, {R(x), R(tid), R(out)});
      k.op(0, "s_waitcnt", {I(0x0f70)});  // vmcnt(0)
    } else {
      k.op(0, load, {R(x), R(tid)});
      k.op(0, "s_waitcnt", {I(0xc07f)});  // lgkmcnt(0)
    }
    modifiers dpp;
    dpp.dpp.ctrl = 0x111;  // row_shr:1
    k.op(0, "v_mov_b32", {R(y), R(x)}).mods = dpp;
    k.op(0, "global_store_dword", {R(tid), R(y), R(out)});
    const auto before = allocate_only(k.fn);
    CHECK(verify_hazards(before.fn, k.isa, gfx942_hazards).failed);
    const auto st = compile_function(k.fn);
    REQUIRE_FALSE(st.error.failed);
    const std::string text = to_text(st.fn, true);
    INFO(text);
    CHECK(nops_before(text, "v_mov_b32_dpp") == 1);  // + the s_waitcnt: 2 wait states
    check_verified(st);
  }
}

TEST_CASE("hazards: one s_nop up to 16 wait states (s_nop 15), as llc-22 emits") {
  // A 16-pass XDL MFMA result read by a VALU: 19 wait states = s_nop 15 + s_nop 2 (llc-22's
  // exact output for v_mfma_f32_32x32x4_2b_f16 then a read of a[0]).
  kb k("nop15");
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto a = k.v(2, "a");
  auto acc = k.a(32, "acc");
  auto r = k.v(1, "r");
  k.op(0, "v_mov_b32", {R(a, 0, 1), R(tid)});
  k.op(0, "v_mov_b32", {R(a, 1, 1), R(tid)});
  for (int j = 0; j < 32; ++j) k.op(0, "v_accvgpr_write_b32", {R(acc, static_cast<uint16_t>(j), 1), I(0)});
  k.op(0, "v_mfma_f32_32x32x4_2b_f16", {R(acc), R(a), R(a), R(acc)});  // 16 passes, XDL
  k.op(0, "v_accvgpr_read_b32", {R(r), R(acc, 0, 1)});                 // 16 + 3 = 19
  k.op(0, "global_store_dword", {R(tid), R(r), R(out)});
  const auto st = compile_function(k.fn);
  REQUIRE_FALSE(st.error.failed);
  const std::string text = to_text(st.fn, true);
  INFO(text);
  CHECK(nops_before(text, "v_accvgpr_read_b32") == 19);
  CHECK(nop_lines_before(text, "v_accvgpr_read_b32") == 2);
  CHECK(text.find("s_nop 15") != std::string::npos);
  check_verified(st);
}

TEST_CASE("hazards: v_dot result read by another VALU: 3 wait states (LLVM's checkMAIVALUHazards)") {
  // llc-22: v_dot2c_f32_f16_e32 v2, v1, v1; s_nop 2; v_mul_f32_e32 v1, v2, v2.
  kb k("dot");
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto d = k.v(1, "d");
  auto e = k.v(1, "e");
  k.op(0, "v_dot2_f32_f16", {R(d), R(tid), R(tid), R(tid)});
  k.op(0, "v_mul_f32", {R(e), R(d), R(d)});
  k.op(0, "global_store_dword", {R(tid), R(e), R(out)});
  const auto st = compile_function(k.fn);
  REQUIRE_FALSE(st.error.failed);
  const std::string text = to_text(st.fn, true);
  INFO(text);
  CHECK(nops_before(text, "v_mul_f32") == 3);
  check_verified(st);
}

TEST_CASE("hazards: a load overwriting an XDL MFMA's SrcC waits (LLVM: VMEM/DS are WAR consumers too)") {
  // checkMAIVALUHazards runs for VMEM/FLAT/DS as well: a 4-pass XDL MFMA reading SrcC, then a
  // load into that register needs 3 wait states.
  kb k("srcc_war_load");
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto a = k.v(2, "a");
  auto c = k.v(4, "c");
  auto dst = k.a(4, "dst");
  k.op(0, "v_mov_b32", {R(a, 0, 1), R(tid)});
  k.op(0, "v_mov_b32", {R(a, 1, 1), R(tid)});
  for (int j = 0; j < 4; ++j) k.op(0, "v_mov_b32", {R(c, static_cast<uint16_t>(j), 1), I(0)});
  k.op(0, "s_nop", {I(7)});
  k.op(0, "v_mfma_f32_16x16x16_f16", {R(dst), R(a), R(a), R(c)});  // 4 passes, XDL, reads c
  k.op(0, "global_load_dword", {R(c, 0, 1), R(tid), R(out)});      // overwrites c[0]
  k.op(0, "s_waitcnt", {I(0x0f70)});
  k.op(0, "global_store_dword", {R(tid), R(c, 0, 1), R(out)});
  k.op(0, "v_accvgpr_read_b32", {R(a, 0, 1), R(dst, 0, 1)});
  k.op(0, "global_store_dword", {R(tid), R(a, 0, 1), R(out)});
  const auto st = compile_function(k.fn);
  REQUIRE_FALSE(st.error.failed);
  const std::string text = to_text(st.fn, true);
  INFO(text);
  CHECK(nops_before(text, "global_load_dword") == 3);
  check_verified(st);
}

TEST_CASE("hazards: an LDS-DMA load is a VALU consumer (LLVM marks it VALU): trans result as its address") {
  // llc-22 -run-pass=post-RA-hazard-rec: V_EXP_F32 $vgpr1; S_NOP 0; BUFFER_LOAD_DWORD_LDS_OFFEN $vgpr1.
  kb k("trans_lds_dma");
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto rsrc = k.reg(reg_class::sgpr, 4, "rsrc", 0, 4);
  auto x = k.v(1, "x");
  k.op(0, "s_mov_b32", {SP(special_reg::m0), I(0)});
  k.op(0, "v_exp_f32", {R(x), R(tid)});
  modifiers offen;
  offen.offen = true;
  k.op(0, isa::gfx942_op::buffer_load_dword_lds, {R(x), R(rsrc), I(0)}).mods = offen;
  k.op(0, "s_waitcnt", {I(0x0f70)});
  const auto st = compile_function(k.fn);
  REQUIRE_FALSE(st.error.failed);
  const std::string text = to_text(st.fn, true);
  INFO(text);
  CHECK(nops_before(text, "buffer_load_dword") == 1);
  check_verified(st);
}

TEST_CASE("hazards: a packed (VOP3P) result is read at once, as AMD's production asm does") {
  // LLVM 22 pads it (its dst-sel test reads VOP3P's op_sel_hi[0]); aiter's gfx942 GEMMs read
  // v_pk_mul_f32 results in the next instruction thousands of times. The partial-dst rule
  // is kept for what writes half a register: SDWA, VOP3 op_sel dst (v_pack_b32_f16 bit 2).
  kb k("pk");
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto a = k.v(2, "a");
  auto p = k.v(2, "p");
  auto h = k.v(1, "h");
  auto r = k.v(1, "r");
  k.op(0, "v_mov_b32", {R(a, 0, 1), R(tid)});
  k.op(0, "v_mov_b32", {R(a, 1, 1), R(tid)});
  k.op(0, "v_pk_mul_f32", {R(p), R(a), R(a)});
  k.op(0, "v_add_f32", {R(r), R(p, 0, 1), R(p, 1, 1)});
  modifiers dst_hi;
  dst_hi.op_sel = 4;  // op_sel:[0,0,1]: the result's high half
  k.op(0, "v_pack_b32_f16", {R(h), R(r), R(r)}).mods = dst_hi;
  k.op(0, "v_add_u32", {R(r), R(h), R(h)});
  k.op(0, "global_store_dword", {R(tid), R(r), R(out)});
  const auto st = compile_function(k.fn);
  REQUIRE_FALSE(st.error.failed);
  const std::string text = to_text(st.fn, true);
  INFO(text);
  CHECK(nops_before(text, "v_add_f32") == 0);
  CHECK(nops_before(text, "v_add_u32") == 1);  // before the fix: 0 (only op_sel bit 3 counted)
  check_verified(st);
}

TEST_CASE("hazards: v_cvt_sr_fp8_f32 writing byte 1 (op_sel[2]), then a VALU reads it: 1 wait state") {
  // LLVM's getDstSelForwardingOperand counts the byte-select converts' op_sel[2] as a partial
  // write: llc-22 -mcpu=gfx942 on llvm.amdgcn.cvt.sr.fp8.f32(..., i32 1) then an add:
  // v_cvt_sr_fp8_f32 v1, s2, v0 op_sel:[0,0,1,0]; s_nop 0; v_add_u32_e32 v0, v1, v0. Byte 0: none.
  for (const uint8_t sel : {uint8_t{4}, uint8_t{0}}) {
    kb k("cvt_sr_byte");
    auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
    auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
    auto r = k.v(1, "r");
    k.op(0, "v_mov_b32", {R(r), R(tid)});
    k.op(0, "s_nop", {I(4)});
    modifiers m;
    m.op_sel = sel;
    k.op(0, "v_cvt_sr_fp8_f32", {R(r), R(tid), R(tid)}).mods = m;
    k.op(0, "v_add_u32", {R(r), R(r), R(tid)});
    k.op(0, "global_store_dword", {R(tid), R(r), R(out)});
    const auto st = compile_function(k.fn);
    REQUIRE_FALSE(st.error.failed);
    const std::string text = to_text(st.fn, true);
    INFO(text);
    CHECK(nops_before(text, "v_add_u32") == (sel ? 1 : 0));  // before the fix: 0
    check_verified(st);
  }
}

TEST_CASE("hazards: s_setreg -> s_getreg waits only for the same hardware register (LLVM's checkGetRegHazards)") {
  for (const bool same : {true, false}) {
    kb k("setreg");
    auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
    auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
    auto s = k.s(1, "s");
    auto t = k.s(1, "t");
    auto v = k.v(1, "v");
    const int mode = 1 | (3 << 11), trapsts = 3 | (31 << 11);  // hwreg(MODE, 0, 4), hwreg(TRAPSTS)
    k.op(0, "s_mov_b32", {R(s), I(0)});
    k.op(0, "s_setreg_b32", {I(mode), R(s)});
    k.op(0, "s_getreg_b32", {R(t), I(same ? mode : trapsts)});
    k.op(0, "v_mov_b32", {R(v), R(t)});
    k.op(0, "global_store_dword", {R(tid), R(v), R(out)});
    const auto st = compile_function(k.fn);
    REQUIRE_FALSE(st.error.failed);
    const std::string text = to_text(st.fn, true);
    INFO(text);
    CHECK(nops_before(text, "s_getreg_b32") == (same ? 2 : 0));
    check_verified(st);
  }
}

// LLVM's soft-clause rule (checkSoftClauseHazards; XNACK "any" for target id gfx942). The
// expectations are llc-22's: `-run-pass=post-RA-hazard-rec -mcpu=gfx942` on the same
// sequences puts s_nop 0 before the second global_load / the store / the second s_load,
// and nothing with -mattr=-xnack or between independent loads.
TEST_CASE("hazards: a load joining a VMEM soft clause and overwriting a register the clause reads: s_nop 0") {
  kb k("soft_clause_vmem");
  auto kern = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto base = k.s(2, "base");
  auto x = k.v(1, "x");
  auto y = k.v(1, "y");
  k.op(0, "s_load_dwordx2", {R(base), R(kern), I(0)});
  k.op(0, "v_lshlrev_b32", {R(y), I(2), R(tid)});
  k.op(0, "s_waitcnt", {I(0xc07f)});
  k.op(0, "global_load_dword", {R(x), R(tid), R(base)});
  k.op(0, "global_load_dword", {R(tid), R(y), R(base)});  // writes the first load's address
  k.op(0, "global_load_dword", {R(y), R(y), R(base)});    // reads its own result register
  k.op(0, "s_waitcnt", {I(0x0f70)});
  k.op(0, "v_add_u32", {R(x), R(x), R(y)});
  k.op(0, "global_store_dword", {R(tid), R(x), R(base)});
  k.op(0, "global_store_dword", {R(tid), R(tid), R(base), I(4)});
  const auto st = compile_function(k.fn);
  REQUIRE_FALSE(st.error.failed);
  const std::string text = to_text(st.fn, true);
  INFO(text);
  const auto first = text.find("global_load_dword");
  REQUIRE(first != std::string::npos);
  const std::string after_first = text.substr(first + 1);
  CHECK(nops_before(after_first, "global_load_dword") == 1);  // the second load
  const std::string after_second = after_first.substr(after_first.find("global_load_dword") + 1);
  CHECK(nops_before(after_second, "global_load_dword") == 1);  // the third: its own def meets its use
  CHECK(text.find("soft clause") != std::string::npos);
  check_verified(st);

  // Without XNACK (a table whose soft_clauses is off) no wait state is needed.
  hazard_table no_xnack = gfx942_hazards;
  no_xnack.soft_clauses = false;
  target t = gfx942;
  t.hazard_rules = &no_xnack;
  const auto plain = compile_function(k.fn, t);
  REQUIRE_FALSE(plain.error.failed);
  CHECK(to_text(plain.fn, true).find("soft clause") == std::string::npos);
}

TEST_CASE("hazards: soft clauses: a store joining loads, SMEM pairs, a clause across a block start") {
  kb k("soft_clause_mixed");
  auto kern = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto base = k.s(2, "base");
  auto n = k.s(1, "n");
  auto x = k.v(1, "x");
  auto y = k.v(1, "y");
  const uint32_t next = k.block();
  k.edge(0, next);
  // SMEM: the second s_load overwrites the first one's address (kernarg): s_nop 0.
  k.op(0, "s_load_dwordx2", {R(base), R(kern), I(0)});
  k.op(0, "s_load_dword", {R(kern, 0, 1), R(kern), I(8)});
  k.op(0, "s_waitcnt", {I(0xc07f)});
  k.op(0, "s_mov_b32", {R(n), R(kern, 0, 1)});
  // Two independent loads: one clause, no wait state; then a store joins it: s_nop 0.
  k.op(0, "global_load_dword", {R(x), R(tid), R(base)});
  k.op(0, "global_load_dword", {R(y), R(tid), R(base), I(4)});
  k.op(0, "global_store_dword", {R(tid), R(tid), R(base), I(8)});
  // Block start: the s_nop 0 began a new clause with the store; it continues into the next
  // block, but a store writes no register, so even a load overwriting its own address
  // may join it (llc-22: no s_nop).
  k.op(next, "global_load_dword", {R(tid), R(tid), R(base), I(12)});
  k.op(next, "s_waitcnt", {I(0x0f70)});
  k.op(next, "v_add_u32", {R(x), R(x), R(y)});
  k.op(next, "v_add_u32", {R(x), R(x), R(tid)});
  k.op(next, "v_add_u32", {R(x), R(x), R(n)});
  k.op(next, "global_store_dword", {R(tid), R(x), R(base)});
  const auto st = compile_function(k.fn);
  REQUIRE_FALSE(st.error.failed);
  const std::string text = to_text(st.fn, true);
  INFO(text);
  REQUIRE(text.find("s_load_dword ") != std::string::npos);
  CHECK(nops_before(text.substr(text.find("s_load_dwordx2")), "s_load_dword ") == 1);
  const auto g1 = text.find("global_load_dword");
  REQUIRE(g1 != std::string::npos);
  const std::string after_g1 = text.substr(g1 + 1);
  CHECK(nops_before(after_g1, "global_load_dword") == 0);   // independent second load
  CHECK(nops_before(after_g1, "global_store_dword") == 1);  // store joins a clause with defs
  const std::string after_store = after_g1.substr(after_g1.find("global_store_dword") + 1);
  CHECK(nops_before(after_store, "global_load_dword") == 0);
  check_verified(st);
}

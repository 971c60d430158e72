// The hazard pass compiled for gfx950 (targets/select.hpp): the wait states LLVM's
// GCNHazardRecognizer adds for gfx950 (IsGFX950: XDL producers of 4+ passes one more before
// reads, SrcA/B and overwrites, NP+2 before an overlapping SrcC; v_mfma_f64_16x16x4 takes 16
// passes, 19 wait states before a VALU read), with the counts llc-22 -mcpu=gfx950 emits where
// ../shared/reference/gfx950.md records them (16x16x16 bf16 -> v_accvgpr_read: s_nop 7;
// 32x32x8: s_nop 11; f64 16x16x4 -> VALU: 19). gfx942 gives 7, 11 and 11 (test_hazards.cpp).
#include <catch2/catch.hpp>

#include "passes_ir_helpers.hpp"

using namespace hipasm;
using namespace hipasm::test;

static_assert(active_target::name == "gfx950");
static_assert(active_target::desc.lds_bytes == 160 * 1024);

namespace {
// An MFMA `mfma` into an AGPR accumulator of `acc_dwords`, then `consumer` reading it; returns
// the wait states hipasm puts before the consumer (the function also passes check_clean:
// llvm-mc-22 -mcpu=gfx950 assembles it, the independent verifier agrees).
int mfma_then_read(const char* mfma, int a_dwords, int acc_dwords, bool f64 = false) {
  kb k("mfma_read");
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto a = k.v(static_cast<uint16_t>(a_dwords), "a");
  auto acc = k.a(static_cast<uint16_t>(acc_dwords), "acc");
  auto r = k.v(f64 ? 2 : 1, "r");
  for (int j = 0; j < a_dwords; ++j) k.op(0, "v_mov_b32", {R(a, static_cast<uint16_t>(j), 1), R(tid)});
  for (int j = 0; j < acc_dwords; ++j) k.op(0, "v_accvgpr_write_b32", {R(acc, static_cast<uint16_t>(j), 1), I(0)});
  k.op(0, mfma, {R(acc), R(a), R(a), R(acc)});
  if (f64) {
    k.op(0, "v_accvgpr_read_b32", {R(r, 0, 1), R(acc, 0, 1)});
    k.op(0, "v_accvgpr_read_b32", {R(r, 1, 1), R(acc, 1, 1)});
  } else {
    k.op(0, "v_accvgpr_read_b32", {R(r), R(acc, 0, 1)});
  }
  k.op(0, "global_store_dword", {R(tid), R(r, 0, 1), R(out)});
  const auto st = compile_function(k.fn);
  REQUIRE_FALSE(st.error.failed);
  check_clean(st, "hazards_gfx950");
  const std::string text = to_text(st.fn, true);
  INFO(text);
  return nops_before(text, "v_accvgpr_read_b32");
}
}  // namespace

TEST_CASE("hazards_gfx950: an XDL result read by a VALU: 5/8/12/20 (gfx942: NP+3)") {
  CHECK(mfma_then_read("v_mfma_f32_4x4x4_16b_f16", 2, 4) == 5);     // 2 passes: unchanged
  CHECK(mfma_then_read("v_mfma_f32_16x16x16_bf16", 2, 4) == 8);     // llc-22: s_nop 7
  CHECK(mfma_then_read("v_mfma_f32_32x32x8_f16", 2, 16) == 12);     // llc-22: s_nop 11
  CHECK(mfma_then_read("v_mfma_f32_16x16x32_bf16", 4, 4) == 8);     // gfx950's double-K shape, 4 passes
}

TEST_CASE("hazards_gfx950: v_mfma_f64_16x16x4_f64 takes 16 passes: 19 wait states before a VALU read") {
  CHECK(active_target::table[static_cast<int>(target_op::v_mfma_f64_16x16x4_f64)].mfma_passes == 16);
  CHECK(mfma_then_read("v_mfma_f64_16x16x4_f64", 2, 8, true) == 19);
}

TEST_CASE("hazards_gfx950: an f8f6f4 MFMA's window is the FP8 one (the format is a modifier)") {
  // SISchedule.td: 16x16x128 f8f6f4 is 8 passes with an FP8/BF8 operand (cbsz/blgp 0 or 1, the
  // default), 4 otherwise; the table holds 8, so the read waits 12 whatever the format.
  CHECK(active_target::table[static_cast<int>(target_op::v_mfma_f32_16x16x128_f8f6f4)].mfma_passes == 8);
  CHECK(active_target::table[static_cast<int>(target_op::v_mfma_f32_32x32x64_f8f6f4)].mfma_passes == 16);
}

TEST_CASE("hazards_gfx950: an XDL result read as an overlapping SrcC: NP+2 (gfx942: NP+1)") {
  kb k("srcc");
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto a = k.v(2, "a");
  auto acc = k.a(8, "acc");
  auto r = k.v(1, "r");
  k.op(0, "v_mov_b32", {R(a, 0, 1), R(tid)});
  k.op(0, "v_mov_b32", {R(a, 1, 1), R(tid)});
  for (int j = 0; j < 8; ++j) k.op(0, "v_accvgpr_write_b32", {R(acc, static_cast<uint16_t>(j), 1), I(0)});
  k.op(0, "v_mfma_f32_16x16x16_bf16", {R(acc, 0, 4), R(a), R(a), R(acc, 0, 4)});  // 4 passes
  k.op(0, "v_mfma_f32_16x16x16_f16", {R(acc, 4, 4), R(a), R(a), R(acc, 2, 4)});   // overlaps, not the same
  k.op(0, "v_accvgpr_read_b32", {R(r), R(acc, 4, 1)});
  k.op(0, "global_store_dword", {R(tid), R(r), R(out)});
  const auto st = compile_function(k.fn);
  REQUIRE_FALSE(st.error.failed);
  check_clean(st, "hazards_gfx950_srcc");
  const std::string text = to_text(st.fn, true);
  INFO(text);
  CHECK(nops_before(text, "v_mfma_f32_16x16x16_f16") == 6);
}

TEST_CASE("hazards_gfx950: a 2-pass XDL result as the overlapping SrcC of an XDL MFMA: 4, of a non-XDL one: 3") {
  // llc-22 -run-pass=post-RA-hazard-rec -mcpu=gfx950: V_MFMA_F32_4X4X4F16 into a[0:3], then
  // V_MFMA_F32_4X4X4F16 reading a[2:5] as SrcC: S_NOP 3; V_MFMA_F32_4X4X1F32 reading it: S_NOP 2.
  for (const bool xdl_reader : {true, false}) {
    kb k("srcc2");
    auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
    auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
    auto a = k.v(2, "a");
    auto acc = k.a(12, "acc");
    auto r = k.v(1, "r");
    k.op(0, "v_mov_b32", {R(a, 0, 1), R(tid)});
    k.op(0, "v_mov_b32", {R(a, 1, 1), R(tid)});
    for (int j = 0; j < 12; ++j) k.op(0, "v_accvgpr_write_b32", {R(acc, static_cast<uint16_t>(j), 1), I(0)});
    k.op(0, "v_mfma_f32_4x4x4_16b_f16", {R(acc, 0, 4), R(a), R(a), R(acc, 0, 4)});  // 2 passes, XDL
    if (xdl_reader) k.op(0, "v_mfma_f32_4x4x4_16b_f16", {R(acc, 8, 4), R(a), R(a), R(acc, 2, 4)});
    else k.op(0, "v_mfma_f32_4x4x1_16b_f32", {R(acc, 8, 4), R(a, 0, 1), R(a, 1, 1), R(acc, 2, 4)});
    k.op(0, "v_accvgpr_read_b32", {R(r), R(acc, 8, 1)});
    k.op(0, "global_store_dword", {R(tid), R(r), R(out)});
    const auto st = compile_function(k.fn);
    REQUIRE_FALSE(st.error.failed);
    check_clean(st, "hazards_gfx950_srcc2");
    std::string text = to_text(st.fn, true);
    text = text.substr(text.find("v_mfma"));  // after the first MFMA
    INFO(text);
    CHECK(nops_before(text.substr(1), "v_mfma") == (xdl_reader ? 4 : 3));  // before the split: 4 and 4
  }
}

// The two rules gfx942 lacks. Expectations are llc-22's: `-run-pass=post-RA-hazard-rec
// -mcpu=gfx950` on the same pairs (V_CMPX_EQ_U32_e32 or `$exec = V_CMP_EQ_U32_e64` then
// V_PERMLANE32_SWAP_B32_e32: S_NOP 3; a V_MOV_B32 in between: S_NOP 2; S_MOV_B64 to EXEC: none.
// V_CVT_SCALEF32_SR_FP8_F32 with op_sel[2] (src2_modifiers 4) or op_sel[3], V_CVT_SR_FP8_F32
// with op_sel[2], V_CVT_SCALEF32_SR_PK_FP4_* with any op_sel, then a VALU reading or writing
// the result: S_NOP 0; byte 0, or a store reading it: none).
namespace {
struct pair_result {
  int nops;
  std::string text;
};
// `first` then `second` (instructions built by the callbacks on registers a, s, r), then a
// store of r; returns the wait states before `second`'s mnemonic.
template <class F, class G>
pair_result pair_nops(const char* name, F first, G second, const char* second_name) {
  kb k(name);
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto a = k.v(2, "a");
  auto s = k.v(1, "s");
  auto r = k.v(1, "r");
  k.op(0, "v_mov_b32", {R(a, 0, 1), R(tid)});
  k.op(0, "v_mov_b32", {R(a, 1, 1), R(tid)});
  k.op(0, "v_mov_b32", {R(s), R(tid)});
  k.op(0, "v_mov_b32", {R(r), R(tid)});
  k.op(0, "s_nop", {I(4)});  // the movs' own hazards are not the subject
  first(k, a, s, r, tid);
  second(k, a, s, r, tid);
  k.op(0, "global_store_dword", {R(tid), R(r), R(out)});
  const auto st = compile_function(k.fn);
  REQUIRE_FALSE(st.error.failed);
  check_clean(st, name);
  std::string text = to_text(st.fn, true);
  text = text.substr(text.find("s_nop 4") + 7);
  return {nops_before(text, second_name), text};
}
modifiers op_sel(uint8_t bits) {
  modifiers m;
  m.op_sel = bits;
  return m;
}
}  // namespace

TEST_CASE("hazards_gfx950: a VALU writing EXEC, then a permlane swap: 4 wait states (llc-22: s_nop 3)") {
  auto swap = [](kb& k, auto, auto s, auto r, auto) { k.op(0, "v_permlane32_swap_b32", {R(r), R(s)}); };
  auto cmpx = [](kb& k, auto a, auto, auto, auto) {
    k.op(0, "v_cmpx_ne_u32", {SP(special_reg::vcc), I(-1), R(a, 0, 1)});
  };
  const auto p = pair_nops("cmpx_swap", cmpx, swap, "v_permlane32_swap_b32");
  INFO(p.text);
  CHECK(p.nops == 4);  // before the rule: 0
  auto cmp_exec = [](kb& k, auto a, auto, auto, auto) {
    k.op(0, "v_cmp_ne_u32", {SP(special_reg::exec), I(-1), R(a, 0, 1)});
  };
  const auto q = pair_nops("cmp_exec_swap", cmp_exec, swap, "v_permlane32_swap_b32");
  INFO(q.text);
  CHECK(q.nops == 4);
}

TEST_CASE("hazards_gfx950: a scaled convert writing byte 1-3 or an fp4 pair, then a VALU touching it: 1 wait state") {
  struct Case {
    const char* mnemonic;
    uint8_t op_sel;  // 0xff: unset
    bool pair;       // src0 is a VGPR pair
    bool seeded;     // a seed operand before the scale
    int nops;        // llc-22's
  };
  const Case cases[] = {
      {"v_cvt_scalef32_sr_fp8_f32", 4, false, true, 1},   // op_sel:[0,0,1,0]: byte 1
      {"v_cvt_scalef32_sr_fp8_f32", 8, false, true, 1},   // byte 2
      {"v_cvt_scalef32_sr_fp8_f32", 0, false, true, 0},   // byte 0: forwarded
      {"v_cvt_scalef32_sr_pk_fp4_f32", 0, true, true, 1}, // every fp4 pair
      {"v_cvt_scalef32_pk_fp4_f32", 4, false, false, 1},
      {"v_cvt_sr_fp8_f32", 4, false, false, 1},
  };
  for (const Case& c : cases) {
    INFO(c.mnemonic << " op_sel " << int(c.op_sel));
    auto cvt = [&](kb& k, auto a, auto s, auto r, auto tid) {
      const std::string_view m = c.mnemonic;
      if (m == "v_cvt_sr_fp8_f32") k.op(0, c.mnemonic, {R(r), R(a, 0, 1), R(tid)}).mods = op_sel(c.op_sel);
      else if (c.pair) k.op(0, c.mnemonic, {R(r), R(a), R(tid), R(s)}).mods = op_sel(c.op_sel);
      else k.op(0, c.mnemonic, {R(r), R(a, 0, 1), c.seeded ? R(tid) : R(a, 1, 1), R(s)}).mods = op_sel(c.op_sel);
    };
    auto read = [](kb& k, auto, auto s, auto r, auto) { k.op(0, "v_add_u32", {R(r), R(r), R(s)}); };
    const auto p = pair_nops("cvt_read", cvt, read, "v_add_u32");
    INFO(p.text);
    CHECK(p.nops == c.nops);  // before the rule: 0
    // (A VALU overwriting the result needs the wait too (LLVM and the checker: any operand);
    // a kernel cannot overwrite a live convert result here without reading it first, so the
    // write is compared by tests/sim/test_hazard_sets.cpp and test_checker_crosscheck.cpp.)
  }
}

// The scaled MFMAs (v_mfma_ld_scale_b32 + an f8f6f4 MFMA, one instruction to LLVM): llc-22
// -mcpu=gfx950 on __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4 chains with FP8 operands
// (8 passes) puts s_nop 1 between a v_mov writing a scale VGPR and the MFMA (2), 12 wait states
// between the MFMA and a VALU or a store reading its result (32x32x64, 16 passes: s_nop 15 +
// s_nop 3 = 20 before a v_add_f32 reading it), and 12 between the MFMA and a
// second scaled MFMA reading that result as its scale (the SrcA/B rule).
namespace {
// scaled MFMA into acc (dst = C), reading a scale VGPR written just before by a v_mov; then
// `after` (the instructions under test); returns the program text.
template <class F>
std::string scaled_mfma_then(const char* name, const char* mfma, int c_dwords, F after) {
  kb k(name);
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto a = k.v(8, "a");
  auto sc = k.v(2, "sc");
  auto acc = k.v(static_cast<uint16_t>(c_dwords), "acc");
  auto r = k.v(1, "r");
  for (int j = 0; j < 8; ++j) k.op(0, "v_mov_b32", {R(a, static_cast<uint16_t>(j), 1), R(tid)});
  for (int j = 0; j < c_dwords; ++j) k.op(0, "v_mov_b32", {R(acc, static_cast<uint16_t>(j), 1), I(0)});
  k.op(0, "v_mov_b32", {R(sc, 1, 1), I(127)});
  k.op(0, "v_mov_b32", {R(sc, 0, 1), I(128)});
  k.op(0, mfma, {R(acc), R(a), R(a), R(acc), R(sc, 0, 1), R(sc, 1, 1)});
  after(k, acc, a, r, tid);
  k.op(0, "global_store_dword", {R(tid), R(r), R(out)});
  const auto st = compile_function(k.fn);
  REQUIRE_FALSE(st.error.failed);
  check_clean(st, name);
  return to_text(st.fn, true);
}
}  // namespace

TEST_CASE("hazards_gfx950: a scaled MFMA is an XDL MFMA of the FP8 passes (llc-22: s_nop 1 before, 11 after)") {
  CHECK(active_target::table[static_cast<int>(target_op::v_mfma_scale_f32_16x16x128_f8f6f4)].mfma_passes == 8);
  CHECK(active_target::table[static_cast<int>(target_op::v_mfma_scale_f32_32x32x64_f8f6f4)].mfma_passes == 16);
  CHECK(active_target::table[static_cast<int>(target_op::v_mfma_scale_f32_16x16x128_f8f6f4)].has(isa::f_xdl));
  for (const auto& [mfma, c, read_waits] : {std::tuple{"v_mfma_scale_f32_16x16x128_f8f6f4", 4, 12},
                                            std::tuple{"v_mfma_scale_f32_32x32x64_f8f6f4", 16, 20}}) {
    INFO(mfma);
    const std::string text = scaled_mfma_then("scale_read", mfma, c, [](kb& k, auto acc, auto, auto r, auto) {
      k.op(0, "v_add_u32", {R(r), R(acc, 1, 1), R(acc, 0, 1)});
    });
    INFO(text);
    CHECK(nops_before(text, "v_mfma_scale") == 2);  // the v_mov writing the scale VGPR
    CHECK(nops_before(text, "v_add_u32") == read_waits);
  }
}

TEST_CASE("hazards_gfx950: an XDL result read as a scaled MFMA's scale: the SrcA/B wait (llc-22: 12)") {
  std::string text =
      scaled_mfma_then("scale_srcab", "v_mfma_scale_f32_16x16x128_f8f6f4", 4, [](kb& k, auto acc, auto a, auto r, auto) {
        auto d = k.v(4, "d");
        k.op(0, "v_mfma_scale_f32_16x16x128_f8f6f4", {R(d), R(a), R(a), I(0), R(acc, 1, 1), R(acc, 2, 1)});
        k.op(0, "v_mov_b32", {R(r), R(d, 0, 1)});
      });
  text = text.substr(text.find("v_mfma_scale") + 1);  // after the first MFMA
  INFO(text);
  CHECK(nops_before(text, "v_mfma_scale") == 12);  // before the rule covered the scale operands: 0
}

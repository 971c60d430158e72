// The checker's definedness rules (undef.hpp) end to end, with checker/undef_kernels.s:
// registers and LDS start undefined; a finding is an undefined value used as an address,
// stored to memory, branched on or put in EXEC, reported at that instruction with the register
// and the lanes. Reads whose result cannot depend on the undefined value (a DPP old value every
// lane overwrites, v_cndmask's unselected input, inactive lanes) are no findings.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "hipasm/rt/launcher.hpp"

namespace rt = hipasm::rt;

namespace {

rt::launch_report run(const std::string& kernel, bool undef = true) {
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = dev->load_file(std::string(HIPASM_SIM_TEST_DIR) + "/sim_undef_kernels.co");
  rt::buffer<uint32_t> out(*dev, 64);
  rt::kernel_args args;
  args.add(out.addr());
  rt::launch_options opts;
  opts.check_undefined = undef;
  return dev->launch(*mod, kernel, {2, 1, 1}, {64, 1, 1}, args, opts);
}

// The one diagnostic of `kernel`, which must contain every piece of `parts`.
void expect_one(const std::string& kernel, const std::vector<std::string>& parts) {
  INFO(kernel);
  rt::launch_report rep = run(kernel);
  for (auto& d : rep.diagnostics) UNSCOPED_INFO(d);
  REQUIRE(rep.diagnostics.size() == 1);
  for (auto& p : parts) CHECK(rep.diagnostics[0].find(p) != std::string::npos);
  REQUIRE(rep.findings.size() == 1);
  CHECK(rep.findings[0].count == 2);  // one per wave (two workgroups)
  CHECK(run(kernel, false).diagnostics.empty());  // check_undefined = false turns the rules off
}

}  // namespace

TEST_CASE("undef: an unwritten VGPR as a store address", "[checker][undef]") {
  expect_one("undef_addr_bad", {"buffer_store_dword v1, v9, s[8:11], 0 offen: [undef-addr] address v9",
                                "lanes 0-63"});
}

TEST_CASE("undef: a finding names the asm listing's file:line", "[checker][undef]") {
  // The listing's "; file:line" comments (hipasm prints them where the line changes): the
  // store carries its own, the lines before it the s_load's.
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = dev->load_file(std::string(HIPASM_SIM_TEST_DIR) + "/sim_undef_kernels.co");
  CHECK(mod->asm_listings.empty());  // (no sim_undef_kernels.s beside it)
  mod->asm_listings = {std::string(HIPASM_SIM_SOURCE_DIR) + "/checker/undef_kernels.s"};
  rt::buffer<uint32_t> out(*dev, 64);
  rt::kernel_args args;
  args.add(out.addr());
  rt::launch_report rep = dev->launch(*mod, "undef_addr_bad", {1, 1, 1}, {64, 1, 1}, args);
  REQUIRE(rep.findings.size() == 1);
  CHECK(rep.findings[0].source == "store.hip:12");
  CHECK(rep.diagnostics[0].ends_with("[store.hip:12]"));
  // a listing of other code under the same label is ignored: the same finding, without a line
  const std::string other = std::string(HIPASM_SIM_TEST_DIR) + "/undef_other_listing.s";
  std::ofstream(other) << "undef_addr_bad:\n\tv_mov_b32_e32 v0, 0 ; other.hip:1\n\ts_endpgm\n";
  mod->asm_listings = {other};
  rep = dev->launch(*mod, "undef_addr_bad", {1, 1, 1}, {64, 1, 1}, args);
  REQUIRE(rep.findings.size() == 1);
  CHECK(rep.findings[0].source.empty());
}

TEST_CASE("undef: a VGPR written in some lanes only, stored from all", "[checker][undef]") {
  expect_one("undef_partial_bad", {"global_store_dword v1, v9, s[2:3]: [undef-store] data v9", "lanes 16-63"});
}

TEST_CASE("undef: LDS read before anything wrote it", "[checker][undef]") {
  expect_one("undef_lds_bad", {"global_store_dword v1, v9, s[2:3]: [undef-store] data v9", "lanes 0-63"});
  CHECK(run("undef_lds_ok").diagnostics.empty());
}

TEST_CASE("undef: a 64-bit sum's low dword needs only the low dwords", "[checker][undef]") {
  // v_mad_u64_u32 v[8:9], v0 * 3 + v[2:3] with v3 never written (clang leaves the high half of
  // an addend undefined when only the low half of the result is used): v8 is defined.
  rt::launch_report rep = run("undef_mad64_lo_ok");
  for (auto& d : rep.diagnostics) UNSCOPED_INFO(d);
  CHECK(rep.diagnostics.empty());
}

TEST_CASE("undef: DPP keeps the old value only where no lane writes", "[checker][undef]") {
  CHECK(run("undef_dpp_ok").diagnostics.empty());  // quad_perm writes every lane
  // row_shr:1 without bound_ctrl leaves lane 0 of each row with the old (undefined) v9
  expect_one("undef_dpp_bad", {"[undef-store] data v9", "lanes 0,16,32,48"});
}

TEST_CASE("undef: inactive lanes and unselected v_cndmask inputs are no findings", "[checker][undef]") {
  CHECK(run("undef_inactive_ok").diagnostics.empty());
  CHECK(run("undef_cndmask_ok").diagnostics.empty());
}

TEST_CASE("undef: branch on SCC from an unwritten SGPR; EXEC from an undefined compare", "[checker][undef]") {
  expect_one("undef_branch_bad", {"s_cbranch_scc1", "[undef-branch] SCC is undefined"});
  expect_one("undef_exec_bad", {"s_and_saveexec_b64 s[20:21], vcc: [undef-exec]", "lanes 0-63"});
}

TEST_CASE("undef: a 32-bit op's result halves read only some source halves", "[checker][undef]") {
  // A d16 load defines only the low half. Shifting it left by 16 (bf16 -> f32, as aiter's
  // topksoftmax bf16 kernels do), AND with 0xffff, OR with 0xffff0000, v_bfe_u32/i32 of the
  // low 16 bits, v_lshl_or, v_and_or and v_cndmask whose read halves are defined give defined
  // results (each stored: before the per-half rules, every store was a finding).
  rt::launch_report rep = run("undef_halves_ok");
  for (auto& d : rep.diagnostics) UNSCOPED_INFO(d);
  CHECK(rep.diagnostics.empty());
  // a right shift by 16 moves the undefined high half into the low half
  expect_one("undef_halves_bad", {"global_store_dword v1, v10, s[2:3]: [undef-store] data v10", "lanes 0-63"});
}

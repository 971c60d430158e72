// HIPASM_TEST_KERNELS: target_features.hip
// HIPASM_TEST_ARCHS: gfx950
// The helpers that choose by the target's features, on gfx950: permlane swaps for the lane
// exchanges across 16 and 32 lanes, ds_read_b64_tr_b16 / _b8 for load_transposed, 16-byte
// LDS-DMA in copy_tile's direct path. Same kernels and references as the gfx942 twin
// (test_target_features_sim.cpp); the counts printed side by side are the savings.
#include "target_features_checks.hpp"

using namespace tf_test;

TEST_CASE("target features (gfx950): lane exchanges and xor reductions", "[features][gfx950]") {
  REQUIRE(has_swaps());
  run_lanes();
  const usage x16 = usage_of<&tf::lanes<tf::lk::xor16_sum>>("lanes_xor16_sum");
  const usage s32 = usage_of<&tf::lanes<tf::lk::shuf32>>("lanes_shuf32");
  const usage g32 = usage_of<&tf::lanes<tf::lk::group32_sum>>("lanes_group32_sum");
  const usage p48 = usage_of<&tf::lanes<tf::lk::pair48_sum>>("lanes_pair48_sum");
  const usage lds = usage_of<&tf::lanes<tf::lk::shuf16_lds>>("lanes_shuf16_lds");
  CHECK(x16.has("v_permlane16_swap_b32"));
  CHECK(s32.has("v_permlane32_swap_b32"));
  for (const usage* u : {&x16, &s32, &g32, &p48}) CHECK(u->ds == 0);  // no LDS round trip
  CHECK(lds.has("ds_swizzle_b32"));  // shuffle_opts::lds keeps the LDS unit's form
}

TEST_CASE("target features (gfx950): load_transposed by ds_read_b64_tr", "[features][gfx950]") {
  run_transposes();
  const usage b16 = usage_of<&tf::transposed<2, false>>("tr_b16");
  const usage b8 = usage_of<&tf::transposed<1, false>>("tr_b8");
  CHECK(b16.has("ds_read_b64_tr_b16"));
  CHECK(b8.has("ds_read_b64_tr_b8"));
}

TEST_CASE("target features (gfx950): a swizzled LDS address XORs its pattern by v_bitop3", "[features][gfx950]") {
  run_transposes();  // (the swizzled kernels' results against the reference)
  const usage swz = usage_of<&tf::transposed<2, true>>("tr_b16_swz");
  CHECK(swz.has("bitop3:0x6a"));  // (row bits & mask) ^ column
}

TEST_CASE("target features (gfx950): copy_tile's direct path moves 16 bytes a lane", "[features][gfx950]") {
  run_dmas();
  const usage d = usage_of<tf::dma16_bf16_swz_fn>("dma16_bf16_swz");
  const usage f = usage_of<tf::dma16_pad8_fallback_fn>("dma16_pad8_fallback");
  CHECK(d.has("buffer_load_dwordx4"));
  CHECK(d.lds_dma == 8);  // a 16 KiB tile, 128 lanes x 16 bytes a step
  CHECK_FALSE(f.has("buffer_load_dwordx4"));  // 8-byte row padding: dword pieces
}

// HIPASM_TEST_KERNELS: target_features.hip
// HIPASM_TEST_ARCHS: gfx942
// The helpers that choose by the target's features, on gfx942 (none of the gfx950 features):
// ds_swizzle / ds_bpermute exchanges, narrow-read transposes, dword LDS-DMA. Its twin
// test_target_features_sim_gfx950.cpp runs the same kernels compiled for gfx950.
#include "target_features_checks.hpp"

using namespace tf_test;

TEST_CASE("target features (gfx942): lane exchanges and xor reductions", "[features]") {
  REQUIRE_FALSE(has_swaps());
  run_lanes();
  const usage x16 = usage_of<&tf::lanes<tf::lk::xor16_sum>>("lanes_xor16_sum");
  const usage s32 = usage_of<&tf::lanes<tf::lk::shuf32>>("lanes_shuf32");
  usage_of<&tf::lanes<tf::lk::group32_sum>>("lanes_group32_sum");
  usage_of<&tf::lanes<tf::lk::pair48_sum>>("lanes_pair48_sum");
  CHECK(x16.has("ds_swizzle_b32"));
  CHECK(s32.has("ds_bpermute_b32"));
  CHECK_FALSE(x16.has("v_permlane"));
}

TEST_CASE("target features (gfx942): load_transposed by narrow reads", "[features]") {
  run_transposes();
  const usage b16 = usage_of<&tf::transposed<2, false>>("tr_b16");
  const usage b8 = usage_of<&tf::transposed<1, false>>("tr_b8");
  CHECK(b16.has("ds_read_u16 "));
  CHECK(b8.has("ds_read_u8 "));
  CHECK_FALSE(b16.has("_tr_b"));
}

TEST_CASE("target features (gfx942): a swizzled LDS address without v_bitop3", "[features]") {
  const usage swz = usage_of<&tf::transposed<2, true>>("tr_b16_swz");
  CHECK(swz.has("v_xor_b32"));
  CHECK_FALSE(swz.has("bitop3"));
}

TEST_CASE("target features (gfx942): copy_tile's direct path moves dwords", "[features]") {
  run_dmas();
  const usage d = usage_of<tf::dma16_bf16_swz_fn>("dma16_bf16_swz");
  CHECK(d.has("buffer_load_dword "));
  CHECK_FALSE(d.has("buffer_load_dwordx4"));
  CHECK(d.lds_dma == 32);  // a 16 KiB tile, 128 lanes x 4 bytes a step
}

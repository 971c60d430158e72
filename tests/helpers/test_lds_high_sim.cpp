// HIPASM_TEST_KERNELS: lds_high.hip
// HIPASM_TEST_ARCHS: gfx950
// The helpers that take an LDS region, with the region at or above 64 KiB or across it (gfx950
// has 160 KiB; a DS instruction's offset: has 16 bits, the rest goes into the address
// register): workgroup_reduce, workgroup_scan, lds_view stores / loads (b128, b96 as a pair and
// a dword, swizzled, unpromised columns), load_transposed (ds_read_b64_tr), copy_tile staged
// and direct (LDS-DMA: the LDS address in M0). Executed in hipasm-sim against plain C++ (the
// view and tile references are those of test_lds.cpp / test_target_features_sim*.cpp).
#define TF_CODE_OBJECT "lds_high"
#include "lds_layout_ref.hpp"
#include "target_features_checks.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <set>

namespace {
using tf_test::S;
namespace rt = hipasm::rt;

void no_findings(const char* kernel, const rt::launch_report& rep) {
  for (const auto& d : rep.diagnostics) FAIL_CHECK(kernel << " checker: " << d);
}
std::vector<uint32_t> inputs(uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint32_t> v(256);
  for (auto& x : v) x = rng() % 100000u;
  return v;
}
std::vector<uint32_t> launch256(const std::string& kernel, const std::vector<uint32_t>& in, size_t out_count) {
  rt::device& d = *S().dev;
  rt::buffer<uint32_t> A(d, in), out(d, std::vector<uint32_t>(out_count, 0xdeadbeefu));
  rt::kernel_args a;
  a.add(out.ptr()).add(A.ptr());
  no_findings(kernel.c_str(), d.launch(*S().m, kernel, {1, 1, 1}, {256, 1, 1}, a));
  return out.download();
}

using layout = hipasm::test::lds_layout;
using hipasm::test::lds_byte_of;
using hipasm::test::lds_value_of;
// lds_fns::view_roundtrip: every element where the formula puts it, read back through the view
void roundtrip(const char* kernel, const layout& L, int W) {
  INFO(kernel);
  rt::device& d = *S().dev;
  const uint32_t row_bytes = L.cols * L.eb + L.pad, bytes = L.rows * row_bytes;
  const uint32_t vel = W * 4 / L.eb, per_row = L.cols / vel, chunks = L.rows * per_row;
  rt::buffer<uint32_t> out(d, chunks * W), dump(d, bytes / 4);
  rt::kernel_args a;
  a.add(out.ptr()).add(dump.ptr());
  no_findings(kernel, d.launch(*S().m, kernel, {1, 1, 1}, {256, 1, 1}, a));
  const auto o = out.download(), du = dump.download();
  std::vector<uint8_t> raw(bytes);
  std::memcpy(raw.data(), du.data(), bytes);
  int bad = 0;
  for (uint32_t r = 0; r < L.rows; ++r)
    for (uint32_t c = 0; c < L.cols; ++c) {
      uint32_t got = 0;
      std::memcpy(&got, raw.data() + lds_byte_of(L, r, c), L.eb);
      if (got != lds_value_of(L, r, c) && bad++ < 4) FAIL_CHECK("element " << r << "," << c << ": got " << got);
    }
  for (uint32_t ch = 0; ch < chunks; ++ch) {
    const uint32_t r = ch / per_row, c0 = (ch % per_row) * vel;
    std::vector<uint8_t> expect(W * 4);
    for (uint32_t e = 0; e < vel; ++e) {
      const uint32_t v = lds_value_of(L, r, c0 + e);
      std::memcpy(expect.data() + e * L.eb, &v, L.eb);
    }
    if (std::memcmp(expect.data(), o.data() + ch * W, W * 4) != 0 && bad++ < 8) FAIL_CHECK("read back, chunk " << ch);
  }
}
}  // namespace

TEST_CASE("workgroup_reduce with its scratch at / across / above 64 KiB", "[helpers][lds][gfx950]") {
  const auto x = inputs(1);
  uint32_t s = 0, s3 = 0;
  float m = -INFINITY;
  for (uint32_t v : x) {
    s += v;
    s3 += v * 3u;
    m = std::max(m, std::bit_cast<float>(v));
  }
  for (const char* k : {"wg_reduce_65536", "wg_reduce_65520", "wg_reduce_131072"}) {
    INFO(k);
    const auto got = launch256(k, x, 768);
    for (uint32_t t = 0; t < 256; ++t) {
      CHECK(got[t] == s);
      CHECK(got[256 + t] == s3);
      CHECK(got[512 + t] == std::bit_cast<uint32_t>(m));
    }
  }
}

TEST_CASE("workgroup_scan with its scratch at / across / above 64 KiB", "[helpers][lds][gfx950]") {
  const auto x = inputs(2);
  std::vector<uint32_t> scan(256);
  uint32_t acc = 0;
  for (uint32_t t = 0; t < 256; ++t) {
    if (t % 5 != 2) acc += x[t];
    scan[t] = t % 5 != 2 ? acc : 0u;
  }
  for (const char* k : {"wg_scan_65536", "wg_scan_65520", "wg_scan_131072"}) {
    INFO(k);
    const auto got = launch256(k, x, 512);
    for (uint32_t t = 0; t < 256; ++t) {
      INFO("lane " << t);
      CHECK(got[t] == scan[t]);
      CHECK(got[256 + t] == (t % 5 != 2 ? acc : 0u));
    }
  }
}

TEST_CASE("lds_view stores and loads at / across / above 64 KiB", "[helpers][lds][gfx950]") {
  roundtrip("rt_plain_b128_at64k", {64, 64, 4}, 4);
  roundtrip("rt_plain_b128_across", {64, 64, 4}, 4);
  roundtrip("rt_w3_across", {64, 48, 4, 4}, 3);
  roundtrip("rt_bf16_sw_at128k", {128, 64, 2, 0, 16, 8}, 4);
  roundtrip("rt_nopromise_at96k", {64, 64, 4}, 4);
  // 12 bytes at the constant address 65532: the last dword's offset: would be 65540
  rt::device& d = *S().dev;
  rt::buffer<uint32_t> out(d, std::vector<uint32_t>(3, 0));
  rt::kernel_args a;
  a.add(out.ptr());
  no_findings("w3_const_edge", d.launch(*S().m, "w3_const_edge", {1, 1, 1}, {64, 1, 1}, a));
  CHECK(out.download() == std::vector<uint32_t>{11, 22, 33});
}

TEST_CASE("load_transposed from views across / above 64 KiB", "[helpers][lds][gfx950]") {
  tf_test::run_transposed<2, false>("tr_b16_across");
  tf_test::run_transposed<2, true>("tr_b16_swz_at96k");
  tf_test::run_transposed<1, false>("tr_b8_at64k");
}

TEST_CASE("copy_tile (LDS-DMA and staged) into views across / above 64 KiB", "[helpers][lds][gfx950]") {
  tf_test::run_dma("dma16_bf16_swz_across", 128, 64, 2, 128);
  tf_test::run_dma("dma4_f32_at96k", 40, 64, 4, 256);
  tf_test::run_dma("staged_bf16_pad_at128k", 128, 64, 2, 256);
  tf_test::run_dma("staged_bf16_swz_across", 128, 64, 2, 256);
}

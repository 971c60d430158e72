// HIPASM_TEST_KERNELS: buffer_kernels.hip
// Buffer resources (include/hipasm/helpers/buffer.hpp) executed in hipasm-sim against plain
// C++: tail tiles (out-of-range loads return 0, stores are dropped), offsets folded into
// offset:/soffset at the 12-bit limit, sub-dword widths, LDS-DMA with M0, advance, structured
// access. The checker must report nothing. Instruction choice is checked on the asm text.
#include "sim_code_object.hpp"
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <cstdint>
#include <cstring>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "buffer_fns.hpp"

namespace rt = hipasm::rt;

namespace {

struct sim {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  std::unique_ptr<rt::module> m =
      dev->load_file(hipasm::test::code_object("buffer_kernels"));
};
sim& S() {
  static sim s;
  return s;
}

std::vector<uint32_t> iota(size_t n, uint32_t from = 1000) {
  std::vector<uint32_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = from + static_cast<uint32_t>(i) * 7u;
  return v;
}

void no_findings(const rt::launch_report& rep) {
  for (const auto& d : rep.diagnostics) FAIL_CHECK("checker: " << d);
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

template <int W>
void tail_case(const char* kernel, uint32_t n) {
  rt::device& d = *S().dev;
  const uint32_t lanes = 128, total = lanes * W;  // two workgroups: the tile overhangs n
  std::vector<uint32_t> in = iota(total);         // allocated beyond n: in range of memory
  std::vector<uint32_t> sentinel(total, 0xdeadbeefu);
  rt::buffer<uint32_t> I(d, in), O(d, sentinel), Seen(d, sentinel);
  rt::kernel_args a;
  a.add(O.ptr()).add(Seen.ptr()).add(I.ptr()).add(n).add(lanes);
  no_findings(d.launch(*S().m, kernel, {2, 1, 1}, {64, 1, 1}, a));
  auto o = O.download(), seen = Seen.download();
  INFO(kernel << " n=" << n);
  for (uint32_t i = 0; i < total; ++i) {
    // loads: in range -> the value, past n dwords -> 0 (per dword: a partial vector too)
    CHECK(seen[i] == (i < n ? in[i] : 0u));
    // stores: past n dwords dropped (the sentinel stays)
    CHECK(o[i] == (i < n ? in[i] : 0xdeadbeefu));
  }
}

}  // namespace

TEST_CASE("buffer: a tail tile loads zeros past the end and its stores are dropped", "[buffer]") {
  for (uint32_t n : {0u, 1u, 63u, 64u, 65u, 100u, 127u})
    tail_case<1>("copy_tail1", n);
  for (uint32_t n : {0u, 1u, 2u, 3u, 77u, 130u, 255u, 256u})
    tail_case<2>("copy_tail2", n);
  for (uint32_t n : {1u, 2u, 3u, 4u, 5u, 200u, 383u})
    tail_case<3>("copy_tail3", n);
  for (uint32_t n : {1u, 3u, 4u, 5u, 6u, 7u, 301u, 511u, 512u})
    tail_case<4>("copy_tail4", n);
}

TEST_CASE("buffer: constant offsets go to offset: up to 4095, the rest to soffset", "[buffer]") {
  rt::device& d = *S().dev;
  const uint32_t lanes = 64, words = lanes + 65536 / 4 + 64;
  std::vector<uint32_t> in = iota(words, 5);
  rt::buffer<uint32_t> I(d, in), O(d, lanes * 8);
  const uint32_t sbase = 40;  // bytes
  rt::kernel_args a;
  a.add(O.ptr()).add(I.ptr()).add(words * 4u).add(sbase);
  no_findings(d.launch(*S().m, "offsets_k", {1, 1, 1}, {64, 1, 1}, a));
  auto o = O.download();
  const uint32_t k[8] = {0, 4092, 4096, 8200, 65548, 0, sbase + 16, sbase + 8};
  for (uint32_t g = 0; g < lanes; ++g)
    for (int j = 0; j < 8; ++j) {
      INFO("lane " << g << " constant " << k[j]);
      CHECK(o[g * 8 + j] == in[g + k[j] / 4]);
    }
  const std::string text = hipasm::asm_text<buffer_fns::offsets>("offsets", hipasm::emit_options{false});
  INFO(text);
  auto has = [&](const char* re) { return std::regex_search(text, std::regex(re)); };
  CHECK(has(R"(buffer_load_dword v\d+, v\d+, s\[\d+:\d+\], 0 offen offset:4092\n)"));
  CHECK(has(R"(s_mov_b32 (s\d+), 0x1000\n\s*buffer_load_dword v\d+, v\d+, s\[\d+:\d+\], \1 offen\n)"));
  CHECK(has(R"(s_mov_b32 (s\d+), 0x2000\n\s*buffer_load_dword v\d+, v\d+, s\[\d+:\d+\], \1 offen offset:8\n)"));
  CHECK(has(R"(s_mov_b32 (s\d+), 0x10000\n\s*buffer_load_dword v\d+, v\d+, s\[\d+:\d+\], \1 offen offset:12\n)"));
  // VGPR + SGPR + constant: one instruction, no add
  CHECK(has(R"(buffer_load_dword v\d+, v\d+, s\[\d+:\d+\], s\d+ offen offset:16\n)"));
  CHECK(has(R"(buffer_load_dword v\d+, v\d+, s\[\d+:\d+\], s\d+ offen offset:8\n)"));
  // the adds of the constants were taken out: one v_add for the -64 only (and none of 4092 ...)
  CHECK(text.find("0xffc") == std::string::npos);
  // the output offsets o + 4k are folded too: offset:4 .. offset:28 on the stores
  for (int j = 1; j < 8; ++j) CHECK(count(text, "offen offset:" + std::to_string(4 * j)) >= 1);
}

TEST_CASE("buffer: sub-dword loads and stores", "[buffer]") {
  rt::device& d = *S().dev;
  const uint32_t lanes = 64;
  std::vector<uint8_t> in(lanes * 4 + 8);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 37 + 0x81);
  rt::buffer<uint8_t> I(d, in), SO(d, std::vector<uint8_t>(lanes * 8, 0xee));
  rt::buffer<uint32_t> O(d, lanes * 16);
  rt::kernel_args a;
  a.add(O.ptr()).add(SO.ptr()).add(I.ptr()).add(static_cast<uint32_t>(lanes * 4));
  no_findings(d.launch(*S().m, "narrow_k", {1, 1, 1}, {64, 1, 1}, a));
  auto o = O.download();
  auto so = SO.download();
  for (uint32_t g = 0; g < lanes; ++g) {
    INFO("lane " << g);
    const uint8_t* p = in.data() + g * 4;
    // lane 63's byte 3 + ... stay in range (in_bytes = lanes*4)
    uint16_t s0, s2;
    std::memcpy(&s0, p, 2);
    std::memcpy(&s2, p + 2, 2);
    const uint32_t* r = &o[g * 16];
    CHECK(r[0] == p[1]);
    CHECK(r[1] == static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(p[1]))));
    CHECK(r[2] == s0);
    CHECK(r[3] == static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(s2))));
    const uint32_t init = 0xAAAA5555u;
    CHECK(r[4] == ((init & 0xffff0000u) | p[1]));
    CHECK(r[5] == ((init & 0xffff0000u) | static_cast<uint16_t>(static_cast<int16_t>(static_cast<int8_t>(p[1])))));
    CHECK(r[6] == ((init & 0xffff0000u) | s2));
    CHECK(r[7] == ((init & 0xffffu) | uint32_t(s2) << 16));
    CHECK(r[8] == ((init & 0xffffu) | uint32_t(p[3]) << 16));
    CHECK(r[9] == ((init & 0xffffu) | uint32_t(static_cast<uint16_t>(static_cast<int16_t>(static_cast<int8_t>(p[3])))) << 16));
    uint32_t x;
    std::memcpy(&x, p, 4);
    const uint8_t* q = so.data() + g * 8;
    CHECK(q[0] == 0xee);
    CHECK(q[1] == (x & 0xff));
    CHECK(q[2] == (x & 0xff));
    CHECK(q[3] == ((x >> 8) & 0xff));
    CHECK(q[4] == ((x >> 16) & 0xff));
    CHECK(q[5] == 0xee);
    CHECK(q[6] == ((x >> 16) & 0xff));
    CHECK(q[7] == ((x >> 24) & 0xff));
  }
}

TEST_CASE("buffer: direct-to-LDS loads set M0 (with a folded or soffset constant)", "[buffer]") {
  rt::device& d = *S().dev;
  for (auto [kernel, K] : {std::pair{"lds_dma0", 0u}, std::pair{"lds_dma64", 64u}, std::pair{"lds_dma5000", 5000u}}) {
    INFO(kernel);
    const uint32_t lanes = 256, valid = 250;  // the last 6 dwords past the V#: 0
    std::vector<uint32_t> in = iota(lanes + K / 4 + 64, 3);
    rt::buffer<uint32_t> I(d, in), O(d, lanes);
    rt::kernel_args a;
    a.add(O.ptr()).add(I.ptr()).add(static_cast<uint32_t>(valid * 4 + K));
    no_findings(d.launch(*S().m, kernel, {1, 1, 1}, {256, 1, 1}, a));
    auto o = O.download();
    for (uint32_t t = 0; t < lanes; ++t) CHECK(o[t] == (t < valid ? in[t + K / 4] : 0u));
  }
  const std::string t64 = hipasm::asm_text<buffer_fns::lds_dma<64>>("lds_dma64", hipasm::emit_options{false});
  INFO(t64);
  CHECK(count(t64, "offen offset:64 lds") == 1);
  CHECK(t64.find("s_add_u32 m0,") != std::string::npos);
}

TEST_CASE("buffer: advance moves the base and shrinks num_records", "[buffer]") {
  rt::device& d = *S().dev;
  const uint32_t lanes = 128, words = 160;
  std::vector<uint32_t> in = iota(words, 11);
  for (uint32_t skip : {0u, 4u, 64u, 400u, 600u, 640u, 700u}) {
    INFO("skip " << skip);
    rt::buffer<uint32_t> I(d, in), O(d, lanes), O2(d, lanes);
    rt::kernel_args a;
    a.add(O.ptr()).add(O2.ptr()).add(I.ptr()).add(words * 4u).add(skip);
    no_findings(d.launch(*S().m, "advance_k", {2, 1, 1}, {64, 1, 1}, a));
    auto o = O.download(), o2 = O2.download();
    for (uint32_t g = 0; g < lanes; ++g) {
      uint64_t i1 = g + skip / 4, i2 = i1 + 16;
      CHECK(o[g] == (i1 < words ? in[i1] : 0u));
      CHECK(o2[g] == (i2 < words ? in[i2] : 0u));
    }
  }
}

TEST_CASE("buffer: structured access checks the record index", "[buffer]") {
  rt::device& d = *S().dev;
  const uint32_t lanes = 64;
  std::vector<uint32_t> in = iota(lanes * 3, 17);
  for (uint32_t records : {0u, 1u, 33u, 64u}) {
    rt::buffer<uint32_t> I(d, in), O(d, lanes);
    rt::kernel_args a;
    a.add(O.ptr()).add(I.ptr()).add(records);
    no_findings(d.launch(*S().m, "structured_k", {1, 1, 1}, {64, 1, 1}, a));
    auto o = O.download();
    for (uint32_t g = 0; g < lanes; ++g) CHECK(o[g] == (g < records ? in[g * 3 + 1] : 0u));
  }
  const std::string text = hipasm::asm_text<buffer_fns::structured>("structured", hipasm::emit_options{false});
  CHECK(text.find("idxen offset:4") != std::string::npos);
}

TEST_CASE("buffer: three-source adds with an immediate addend are peeled too", "[buffer]") {
  rt::device& d = *S().dev;
  const uint32_t lanes = 64, words = lanes + 128;
  std::vector<uint32_t> in = iota(words, 9);
  rt::buffer<uint32_t> I(d, in), O(d, lanes * 4);
  rt::kernel_args a;
  a.add(O.ptr()).add(I.ptr()).add(words * 4u);
  no_findings(d.launch(*S().m, "peel_k", {1, 1, 1}, {64, 1, 1}, a));
  auto o = O.download();
  const uint32_t k[4] = {64, 52, 32, 12};
  for (uint32_t g = 0; g < lanes; ++g)
    for (int j = 0; j < 4; ++j) CHECK(o[g * 4 + j] == in[g + k[j] / 4]);
  const std::string text = hipasm::asm_text<buffer_fns::peel_patterns>("peel", hipasm::emit_options{false});
  INFO(text);
  auto has = [&](const char* re) { return std::regex_search(text, std::regex(re)); };
  CHECK(has(R"(v_lshlrev_b32 (v\d+), 2, v\d+\n\s*buffer_load_dword v\d+, \1, s\[\d+:\d+\], 0 offen offset:64\n)"));
  CHECK(has(R"(v_add_u32 (v\d+), s\d+, v\d+\n\s*buffer_load_dword v\d+, \1, s\[\d+:\d+\], 0 offen offset:48\n)"));
  CHECK((has(R"(v_mul_u32_u24_e32 (v\d+), 4, v\d+\n\s*buffer_load_dword v\d+, \1, s\[\d+:\d+\], 0 offen offset:32\n)") ||
        has(R"(v_mul_u32_u24 (v\d+), 4, v\d+\n\s*buffer_load_dword v\d+, \1, s\[\d+:\d+\], 0 offen offset:32\n)")));
  CHECK(text.find("v_add3_u32") == std::string::npos);
  CHECK(text.find("v_lshl_add_u32") == std::string::npos);
  CHECK(text.find("v_mad_u32_u24") == std::string::npos);
}

TEST_CASE("buffer: a constant is peeled into soffset/offset: only when the add cannot wrap", "[buffer]") {
  rt::device& d = *S().dev;
  const uint32_t lanes = 64, words = lanes + 8196 / 4 + 8;
  std::vector<uint32_t> in = iota(words, 11);
  rt::buffer<uint32_t> I(d, in), O(d, lanes * 4);
  rt::kernel_args a;
  a.add(O.ptr()).add(I.ptr()).add(words * 4u).add(8192u);
  no_findings(d.launch(*S().m, "wrap_k", {1, 1, 1}, {64, 1, 1}, a));
  auto o = O.download();
  // C++ reference: the offsets as the program computes them in 32-bit arithmetic
  for (uint32_t lane = 0; lane < lanes; ++lane) {
    const uint32_t k[4] = {(lane * 4u - 8192u) + 8196u, (lane * 4u - 8192u) + 8196u, (lane * 4u - 16u) + 20u,
                           lane * 4u + 8196u};
    for (int j = 0; j < 4; ++j) {
      INFO("lane " << lane << " load " << j);
      CHECK(o[lane * 4 + j] == in[k[j] / 4]);
    }
  }
  const std::string text = hipasm::asm_text<buffer_fns::wrap_offsets>("wrap", hipasm::emit_options{false});
  INFO(text);
  // the provable one is still folded: soffset 8192 and offset:4, no add
  CHECK(std::regex_search(text, std::regex(R"(s_movk?_i?b?32 (s\d+), 0x2000\n\s*buffer_load_dword v\d+, v\d+, s\[\d+:\d+\], \1 offen offset:4\n)")));
  CHECK(count(text, "buffer_load_dword") == 4);
}

TEST_CASE("buffer: direct-to-LDS with an SGPR LDS address keeps M0 >= 0", "[buffer]") {
  rt::device& d = *S().dev;
  const uint32_t lanes = 64;
  std::vector<uint32_t> in = iota(lanes + 16, 5);
  rt::buffer<uint32_t> I(d, in), O(d, lanes);
  rt::kernel_args a;
  a.add(O.ptr()).add(I.ptr()).add(static_cast<uint32_t>(in.size() * 4)).add(0u);
  no_findings(d.launch(*S().m, "lds_dma_sgpr_k", {1, 1, 1}, {64, 1, 1}, a));
  auto o = O.download();
  for (uint32_t t = 0; t < lanes; ++t) CHECK(o[t] == in[t + 16]);
}

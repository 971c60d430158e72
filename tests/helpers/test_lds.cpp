// HIPASM_TEST_KERNELS: lds_kernels.hip
// LDS pool and views (include/hipasm/helpers/lds.hpp) executed in hipasm-sim against plain
// C++: every element written through a view lands where the layout formula (written here,
// independently) says, the swizzle is a bijection, reads through the view give the values
// back; instruction choice (b128 / read2_b64 / read2_b32 / b96 / split) and constant folding
// checked on the asm; offsets at the 16-bit and 8-bit limits; the pool's reuse.
#include "sim_code_object.hpp"
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <cstdint>
#include <memory>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "lds_fns.hpp"
#include "lds_layout_ref.hpp"

namespace rt = hipasm::rt;

namespace {

struct sim {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  std::unique_ptr<rt::module> m =
      dev->load_file(hipasm::test::code_object("lds_kernels"));
};
sim& S() {
  static sim s;
  return s;
}

void no_findings(const rt::launch_report& rep) {
  for (const auto& d : rep.diagnostics) FAIL_CHECK("checker: " << d);
}

using layout = hipasm::test::lds_layout;
using hipasm::test::lds_byte_of;
using hipasm::test::lds_value_of;

// Runs a view_roundtrip kernel; W dwords per access.
void roundtrip(const char* kernel, const layout& L, int W) {
  INFO(kernel);
  rt::device& d = *S().dev;
  const uint32_t row_bytes = L.cols * L.eb + L.pad, bytes = L.rows * row_bytes;
  const uint32_t vel = W * 4 / L.eb, per_row = L.cols / vel, chunks = L.rows * per_row;
  rt::buffer<uint32_t> out(d, chunks * W), dump(d, bytes / 4);
  rt::kernel_args a;
  a.add(out.ptr()).add(dump.ptr());
  no_findings(d.launch(*S().m, kernel, {1, 1, 1}, {256, 1, 1}, a));
  auto o = out.download();
  auto du = dump.download();
  // the raw bytes: each element where the formula puts it, padding untouched
  std::vector<uint8_t> raw(bytes);
  std::memcpy(raw.data(), du.data(), bytes);
  std::set<uint32_t> seen;
  for (uint32_t r = 0; r < L.rows; ++r)
    for (uint32_t c = 0; c < L.cols; ++c) {
      uint32_t at = lds_byte_of(L, r, c);
      REQUIRE(at + L.eb <= bytes);
      CHECK(seen.insert(at).second);  // bijective
      uint32_t got = 0;
      std::memcpy(&got, raw.data() + at, L.eb);
      INFO("element " << r << "," << c << " at byte " << at);
      CHECK(got == lds_value_of(L, r, c));
    }
  for (uint32_t r = 0; r < L.rows; ++r)
    for (uint32_t p = 0; p < L.pad; ++p) CHECK(raw[r * row_bytes + L.cols * L.eb + p] == 0xff);
  // read back through the view: chunk t holds row t / per_row, columns (t % per_row) * vel ...
  for (uint32_t ch = 0; ch < chunks; ++ch) {
    uint32_t r = ch / per_row, c0 = (ch % per_row) * vel;
    std::vector<uint8_t> expect(W * 4);
    for (uint32_t e = 0; e < vel; ++e) {
      uint32_t v = lds_value_of(L, r, c0 + e);
      std::memcpy(expect.data() + e * L.eb, &v, L.eb);
    }
    CHECK(std::memcmp(expect.data(), o.data() + ch * W, W * 4) == 0);
  }
}

bool has(const std::string& text, const char* re) { return std::regex_search(text, std::regex(re)); }
size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}
template <auto F>
std::string text_of() {
  return hipasm::asm_text<F>("k", hipasm::emit_options{false});
}

using hipasm::lds_layout;
constexpr lds_layout plain64{.rows = 64, .cols = 64, .elem_bytes = 4};
constexpr lds_layout pad16{.rows = 64, .cols = 64, .elem_bytes = 4, .row_pad = 16};
constexpr lds_layout pad8{.rows = 64, .cols = 64, .elem_bytes = 4, .row_pad = 8};
constexpr lds_layout pad4{.rows = 64, .cols = 64, .elem_bytes = 4, .row_pad = 4};
constexpr lds_layout bf16_sw{.rows = 128, .cols = 64, .elem_bytes = 2, .swz_chunk = 16, .swz_groups = 8};
constexpr lds_layout bf16_sw2{.rows = 64, .cols = 128, .elem_bytes = 2, .swz_chunk = 16, .swz_groups = 4, .swz_row_div = 2};
constexpr lds_layout f32_sw8{.rows = 64, .cols = 64, .elem_bytes = 4, .swz_chunk = 8, .swz_groups = 8};
constexpr lds_layout w3{.rows = 64, .cols = 48, .elem_bytes = 4, .row_pad = 4};

}  // namespace

TEST_CASE("lds view: plain and padded layouts, widest legal instruction", "[lds]") {
  roundtrip("rt_plain_b128", {64, 64, 4}, 4);
  roundtrip("rt_pad16_b128", {64, 64, 4, 16}, 4);
  roundtrip("rt_pad8_b128", {64, 64, 4, 8}, 4);
  roundtrip("rt_pad4_b128", {64, 64, 4, 4}, 4);
  roundtrip("rt_nopromise_b128", {64, 64, 4}, 4);
  roundtrip("rt_pad8_b64", {64, 64, 4, 8}, 2);
  roundtrip("rt_w3", {64, 48, 4, 4}, 3);

  using namespace lds_fns;
  // 16-byte aligned rows and a promised 4-element column: b128; a lane's chunks are 16
  // rows apart, folded into offset: (16 * 256 bytes)
  std::string t = text_of<&view_roundtrip<plain64, 4, true, 0>>();
  INFO(t);
  CHECK(count(t, "ds_write_b128") == 4);
  CHECK(count(t, "ds_read_b128") == 4);
  CHECK(has(t, R"(ds_write_b128 v\d+, v\[\d+:\d+\] offset:4096\n)"));
  CHECK(has(t, R"(ds_read_b128 v\[\d+:\d+\], v\d+ offset:12288\n)"));
  // a 48-byte base pad and 16-byte row padding (272-byte rows): still 16-byte aligned
  t = text_of<&view_roundtrip<pad16, 4, true, 48>>();
  CHECK(count(t, "ds_read_b128") == 4);
  CHECK(has(t, R"(ds_read_b128 v\[\d+:\d+\], v\d+ offset:48\n)"));
  CHECK(has(t, R"(ds_read_b128 v\[\d+:\d+\], v\d+ offset:4400\n)"));
  // rows 8-byte aligned only (264 bytes): read2_b64; past offset1 255 (x8 bytes) the
  // constant joins the address register
  t = text_of<&view_roundtrip<pad8, 4, true, 0>>();
  CHECK(count(t, "ds_read_b128") == 0);
  CHECK(count(t, "ds_read2_b64") == 4);
  CHECK(count(t, "ds_write2_b64") == 4);
  CHECK(count(t, "ds_read_b32") == 17);  // the dump's 17 reads only
  CHECK(has(t, R"(ds_read2_b64 v\[\d+:\d+\], v\d+ offset0:0 offset1:1\n)"));
  // 4-byte aligned rows: two read2_b32 per 16 bytes
  t = text_of<&view_roundtrip<pad4, 4, true, 0>>();
  CHECK(count(t, "ds_read_b128") == 0);
  CHECK(count(t, "ds_read2_b64") == 0);
  CHECK(count(t, "ds_read2_b32") == 8);
  // no promise on the column register: only its element size (4) is known
  t = text_of<&view_roundtrip<plain64, 4, false, 0>>();
  CHECK(count(t, "ds_read_b128") == 0);
  CHECK(count(t, "ds_read2_b32") == 8);
  // 8 bytes on 8-byte aligned rows: b64
  t = text_of<&view_roundtrip<pad8, 2, true, 0>>();
  CHECK(count(t, "ds_read_b64") == 8);
  // 12 bytes, 4-byte aligned: read2_b32 + b32
  t = text_of<&view_roundtrip<w3, 3, true, 0>>();
  CHECK(count(t, "ds_read_b96") == 0);
  CHECK(count(t, "ds_read2_b32") == 4);
}

TEST_CASE("lds view: XOR swizzles are bijections and fold row steps of their period", "[lds]") {
  roundtrip("rt_bf16_sw", {128, 64, 2, 0, 16, 8, 1}, 4);
  roundtrip("rt_bf16_sw2_b64", {64, 128, 2, 0, 16, 4, 2}, 2);
  roundtrip("rt_f32_sw8_b64", {64, 64, 4, 0, 8, 8, 1}, 2);
  using namespace lds_fns;
  // bf16, 128-byte rows, 16-byte chunks x 8: every 8 rows the same pattern; a lane's chunks
  // are 32 rows apart: folded (offset: 32 * 128 * j)
  std::string t = text_of<&view_roundtrip<bf16_sw, 4, true, 0>>();
  INFO(t);
  CHECK(count(t, "ds_write_b128") == 4);
  CHECK(count(t, "ds_read_b128") == 4);
  CHECK(has(t, R"(ds_read_b128 v\[\d+:\d+\], v\d+ offset:4096\n)"));
  CHECK(has(t, R"(ds_read_b128 v\[\d+:\d+\], v\d+ offset:12288\n)"));
  // the swizzle's XOR is computed once (one address for all chunks)
  CHECK(count(t, "v_xor_b32") == 1);
}

TEST_CASE("lds view: swizzled reads by every addressing path", "[lds]") {
  rt::device& d = *S().dev;
  rt::buffer<uint32_t> out(d, std::vector<uint32_t>(64 * 28, 0xdeadbeefu));
  rt::kernel_args a;
  a.add(out.ptr());
  no_findings(d.launch(*S().m, "swz_reads_k", {1, 1, 1}, {64, 1, 1}, a));
  auto o = out.download();
  for (uint32_t t = 0; t < 64; ++t) {
    const uint32_t r = t, c = (t % 8) * 8;
    const uint32_t at[7][2] = {{5, c}, {r + 3, c}, {r + 3, c}, {7, 24}, {r, c + 8}, {r + 8, c}, {r + 16, c}};
    for (int k = 0; k < 7; ++k)
      for (uint32_t e = 0; e < 8; ++e) {
        uint32_t dw = o[t * 28 + k * 4 + e / 2];
        uint32_t got = (e % 2) ? dw >> 16 : dw & 0xffff;
        uint32_t cc = at[k][1] + e;
        uint32_t expect = cc < 64 ? ((at[k][0] << 8) | cc) : 0xffffffffu;
        if (cc >= 64) continue;  // (case 4 past the row for c = 56: not compared)
        INFO("lane " << t << " case " << k << " element " << e);
        CHECK(got == expect);
      }
  }
  std::string t = text_of<&lds_fns::swz_reads>();
  INFO(t);
  CHECK(has(t, R"(ds_read_b128 v\[\d+:\d+\], v\d+ offset:1024\n)"));  // 8 rows of 128 bytes
  CHECK(has(t, R"(ds_read_b128 v\[\d+:\d+\], v\d+ offset:2048\n)"));
  CHECK(has(t, R"(ds_read_b128 v\[\d+:\d+\], v\d+ offset:960\n)"));   // (7, 24): 7 * 128 + (3 ^ 7) * 16
}

TEST_CASE("lds view: offsets at the 16-bit and read2 8-bit limits, negative constants", "[lds]") {
  rt::device& d = *S().dev;
  rt::buffer<uint32_t> out(d, std::vector<uint32_t>(256, 0));
  rt::kernel_args a;
  a.add(out.ptr());
  no_findings(d.launch(*S().m, "offset_limits_k", {1, 1, 1}, {256, 1, 1}, a));
  auto o = out.download();
  // model of the stores (lane 0: v = {7, 9}), in dwords of the 64 KiB view
  std::vector<uint32_t> mem(16384, 0);
  mem[16383] = 7;
  mem[254] = 7, mem[255] = 9;  // (3,62) 8 bytes
  mem[253] = 7, mem[254] = 9;  // (3,61)
  mem[255] = 7, mem[256] = 9;  // (3,63)
  const uint32_t expect[8] = {mem[16383], 0, mem[253], mem[254], mem[254], mem[255], mem[255], mem[256]};
  for (int i = 0; i < 8; ++i) CHECK(o[i] == expect[i]);
  for (uint32_t t = 0; t < 63; ++t) CHECK(o[32 + t] == t + 1);
  std::string t = text_of<&lds_fns::offset_limits>();
  INFO(t);
  CHECK(has(t, R"(ds_write_b32 v\d+, v\d+ offset:65532\n)"));
  CHECK(has(t, R"(ds_read_b32 v\d+, v\d+ offset:65532\n)"));
  CHECK(has(t, R"(ds_write_b64 v\d+, v\[\d+:\d+\] offset:1016\n)"));
  CHECK(has(t, R"(ds_write2_b32 v\d+, v\d+, v\d+ offset0:253 offset1:254\n)"));
  CHECK(has(t, R"(ds_read2_b32 v\[\d+:\d+\], v\d+ offset0:253 offset1:254\n)"));
  // 1020 / 4 + 1 = 256 does not fit offset1: the address register takes the constant
  CHECK(has(t, R"(v_add_u32 (v\d+), 0x3fc, v\d+\n\s*ds_write2_b32 \1, v\d+, v\d+ offset0:0 offset1:1\n)"));
}

TEST_CASE("lds view: load2/store2 pick read2, read2st64 or two accesses", "[lds]") {
  rt::device& d = *S().dev;
  rt::buffer<uint32_t> out(d, std::vector<uint32_t>(64 * 16, 0xdeadbeefu));
  rt::kernel_args a;
  a.add(out.ptr());
  no_findings(d.launch(*S().m, "pair_cases_k", {1, 1, 1}, {64, 1, 1}, a));
  auto o = out.download();
  auto at = [](uint32_t r, uint32_t c) { return r * 64 + c; };
  for (uint32_t t = 0; t < 64; ++t) {
    INFO("lane " << t);
    const uint32_t r = t >> 4, c = t & 15, c2 = c * 2;
    const uint32_t* x = &o[t * 16];
    CHECK(x[0] == at(r, c));
    CHECK(x[1] == at(r, c + 1));
    CHECK(x[2] == at(r, c));
    CHECK(x[3] == at(r + 4, c));
    CHECK(x[4] == at(r, c2));
    CHECK(x[5] == at(r, c2 + 1));
    CHECK(x[6] == at(r + 8, c2));
    CHECK(x[7] == at(r + 8, c2 + 1));
    CHECK(x[8] == at(r, c));
    CHECK(x[9] == at(r + 63, c));
    CHECK(x[10] == at(r + 1, c + 1));
    CHECK(x[11] == at(r + 60, c + 3));
    CHECK(x[12] == at(r + 2, c));
    CHECK(x[13] == at(r + 2, c + 5));
    CHECK(x[14] == t);
    CHECK(x[15] == t + 1);
  }
  std::string t = text_of<&lds_fns::pair_cases>();
  INFO(t);
  CHECK(has(t, R"(ds_read2_b32 v\[\d+:\d+\], v\d+ offset0:0 offset1:1\n)"));
  CHECK(has(t, R"(ds_read2st64_b32 v\[\d+:\d+\], v\d+ offset0:0 offset1:4\n)"));
  CHECK(has(t, R"(ds_read2st64_b64 v\[\d+:\d+\], v\d+ offset0:0 offset1:4\n)"));
  CHECK(has(t, R"(ds_read2st64_b32 v\[\d+:\d+\], v\d+ offset0:0 offset1:63\n)"));
  CHECK(has(t, R"(ds_read_b32 v\d+, v\d+ offset:260\n)"));
  CHECK(has(t, R"(ds_read_b32 v\d+, v\d+ offset:15372\n)"));
  CHECK(has(t, R"(ds_read2_b32 v\[\d+:\d+\], v\d+ offset0:128 offset1:133\n)"));
  // 16384 and 16512 fit neither form: 16384 moves into the address register
  CHECK(has(t, R"(v_add_u32 (v\d+), 0x4000, v\d+\n\s*ds_write2_b32 \1, v\d+, v\d+ offset0:0 offset1:32\n)"));
}

TEST_CASE("lds pool: freed blocks and scopes are reused, the kernel's LDS is the peak", "[lds]") {
  rt::device& d = *S().dev;
  rt::buffer<uint32_t> out(d, std::vector<uint32_t>(1024, 0));
  rt::kernel_args a;
  a.add(out.ptr());
  no_findings(d.launch(*S().m, "pool_phases_k", {1, 1, 1}, {256, 1, 1}, a));
  auto o = out.download();
  CHECK(o[0] == 0);     // A
  CHECK(o[1] == 1024);  // B
  CHECK(o[2] == 0);     // C reuses A
  CHECK(o[3] == 3072);  // D after B
  CHECK(o[4] == 3072);  // E reuses D (freed by the scope)
  for (uint32_t t = 0; t < 256; ++t) CHECK(o[8 + t] == t * 3);
  for (uint32_t t = 0; t < 128; ++t) CHECK(o[264 + t] == t * 5 + 1);
  CHECK(hipasm::usage<&lds_fns::pool_phases>("k").lds_static_bytes == 3072 + 4096);
}

TEST_CASE("lds: misuse is an error naming the line", "[lds]") {
  // build_kernel at run time: the same builder and message the kernel's static_assert shows
  auto unaligned = hipasm::build_kernel<&lds_fns::bad_unaligned>("bad_unaligned");
  REQUIRE(unaligned.error.failed);
  std::string m(unaligned.error.view());
  INFO(m);
  CHECK(m.find("lds_fns.hpp:") != std::string::npos);
  CHECK(m.find("only known to be 2-byte aligned") != std::string::npos);
  CHECK(m.find("multiple_of") != std::string::npos);
  CHECK(unaligned.error.loc.line > 0);
  auto swz = hipasm::build_kernel<&lds_fns::bad_swizzle>("bad_swizzle");
  REQUIRE(swz.error.failed);
  CHECK(std::string(swz.error.view()).find("multiple of chunk * groups") != std::string::npos);
  auto twice = hipasm::build_kernel<&lds_fns::bad_free>("bad_free");
  REQUIRE(twice.error.failed);
  CHECK(std::string(twice.error.view()).find("freed twice") != std::string::npos);
}

namespace {
// v_and_b32 with the constant 7 in the built kernel (before CSE): the lane's column (t & 7) and
// each XOR pattern of the view's row ((row & 7) << 4) that was built.
template <auto F>
int ands_of_7() {
  auto r = hipasm::build_kernel<F>("k");
  REQUIRE(!r.error.failed);
  int n = 0;
  for (const auto& blk : r.fn.blocks)
    for (const auto& in : blk.instrs)
      if (in.op == static_cast<uint16_t>(hipasm::target_op::v_and_b32))
        for (int i = 1; i < in.num_operands; ++i)
          if (in.ops[i].k == hipasm::operand::kind::imm && in.ops[i].value == 7) ++n;
  return n;
}
}  // namespace

TEST_CASE("lds view: an address term is built once a block while its register stands", "[lds]") {
  CHECK(ands_of_7<&lds_fns::memo_rows<0>>() == 2);
  CHECK(ands_of_7<&lds_fns::memo_rows<1>>() == 3);  // the row written in between
  CHECK(ands_of_7<&lds_fns::memo_rows<2>>() == 3);  // another block
  CHECK(ands_of_7<&lds_fns::memo_rows<3>>() == 3);  // a recorded stream
  // what CSE leaves is the same either way: the kernels compile
  CHECK(!hipasm::asm_text<&lds_fns::memo_rows<0>>("k", hipasm::emit_options{false}).empty());
  CHECK(!hipasm::asm_text<&lds_fns::memo_rows<3>>("k", hipasm::emit_options{false}).empty());
}

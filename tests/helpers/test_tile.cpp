// HIPASM_TEST_KERNELS: tile_kernels.hip
// copy_tile (include/hipasm/helpers/tile_copy.hpp) in hipasm-sim against plain C++: the tile
// lands in the view's layout (read back through the view), rows and dwords past the V# read
// zero (tail tiles), partial last steps, the direct LDS-DMA path with padding and swizzles,
// caller-side waits. The checker must report nothing.
#include "sim_code_object.hpp"
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "tile_fns.hpp"

namespace rt = hipasm::rt;

namespace {

struct sim {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  std::unique_ptr<rt::module> m =
      dev->load_file(hipasm::test::code_object("tile_kernels"));
};
sim& S() {
  static sim s;
  return s;
}

// rows x cols elements of eb bytes; threads lanes; cols_valid: the column-tail kernels
// (tile_rt_cols) with that many valid columns (-1: the plain kernels).
// shift >= 0: the lds_shift kernels (tile_rt_shift), copying into a view moved by that many bytes.
void run(const char* kernel, uint32_t rows, uint32_t cols, uint32_t eb, uint32_t threads, int64_t cols_valid = -1,
         int64_t shift = -1) {
  rt::device& d = *S().dev;
  const uint32_t row_bytes = cols * eb, dwords = rows * row_bytes / 4;
  const uint32_t ld = row_bytes + 64;  // the tensor's rows are longer than the tile's
  const uint32_t mem_dwords = (ld * (rows + 4)) / 4 + 64;
  std::vector<uint32_t> in(mem_dwords);
  for (uint32_t i = 0; i < mem_dwords; ++i) in[i] = 0x10000000u + i * 2654435761u % 0x0fffffffu;
  rt::buffer<uint32_t> I(d, in);
  struct shape { uint32_t origin, in_bytes; };
  const shape cases[] = {
      {0, mem_dwords * 4},                       // whole tile inside
      {ld * 2 + 16, mem_dwords * 4},             // an offset origin
      {0, ld * (rows / 2) + 20},                 // the tensor ends half way: tail rows read 0
      {64, ld * (rows - 1) + 64 + row_bytes / 2},  // the last row cut in its middle
      {0, 0},                                    // empty tensor: all zeros
  };
  for (const shape& c : cases) {
    INFO(kernel << " origin " << c.origin << " in_bytes " << c.in_bytes);
    rt::buffer<uint32_t> out(d, std::vector<uint32_t>(dwords, 0xdeadbeefu));
    rt::kernel_args a;
    a.add(out.ptr()).add(I.ptr()).add(c.in_bytes).add(ld).add(c.origin);
    if (cols_valid >= 0) a.add(static_cast<uint32_t>(cols_valid));
    if (shift >= 0) a.add(static_cast<uint32_t>(shift));
    auto rep = d.launch(*S().m, kernel, {1, 1, 1}, {threads, 1, 1}, a);
    for (const auto& diag : rep.diagnostics) FAIL_CHECK("checker: " << diag);
    auto o = out.download();
    const uint32_t dpr = row_bytes / 4;
    for (uint32_t i = 0; i < dwords; ++i) {
      uint32_t r = i / dpr, cd = i % dpr;
      uint64_t g = c.origin + uint64_t(r) * ld + cd * 4;
      uint32_t expect = g + 4 <= c.in_bytes ? in[g / 4] : 0u;
      if (cols_valid >= 0 && cd * 4 / eb >= cols_valid) expect = 0;  // (cols_valid: a multiple of the chunk)
      if (o[i] != expect) {
        FAIL_CHECK("dword " << i << " (row " << r << ", dword " << cd << "): got " << std::hex << o[i] << " expected "
                            << expect);
        break;
      }
    }
  }
}

}  // namespace

TEST_CASE("copy_tile through VGPRs: layouts, tails, partial steps", "[tile]") {
  run("tile_f32", 64, 64, 4, 256);
  run("tile_f32_partial", 40, 64, 4, 256);
  run("tile_bf16_pad", 128, 64, 2, 256);
  run("tile_bf16_swz", 128, 64, 2, 256);
  run("tile_bf16_swz_v8", 128, 64, 2, 128);
  run("tile_wide", 4, 1024, 4, 256);
}

TEST_CASE("copy_tile direct to LDS: padding and swizzle inverted per lane", "[tile]") {
  run("tile_direct_f32", 64, 64, 4, 256);
  run("tile_direct_pad_swz", 64, 64, 2, 256);
  run("tile_direct_swz_cw", 128, 64, 2, 128);
  run("tile_direct_wide", 4, 1024, 4, 256);
  run("tile_direct_wide_swz", 8, 512, 2, 128);
}

TEST_CASE("copy_tile with a column tail: columns past cols_valid are zeros", "[tile]") {
  for (int64_t v : {0, 8, 24, 32, 56, 64}) run("tilec_bf16_swz", 128, 64, 2, 256, v);
  for (int64_t v : {0, 4, 256, 260, 1020, 1024}) run("tilec_wide", 4, 1024, 4, 256, v);
  for (int64_t v : {0, 2, 30, 62, 64}) run("tilec_direct_pad_swz", 64, 64, 2, 256, v);
  for (int64_t v : {0, 8, 40, 64}) run("tilec_direct_swz", 128, 64, 2, 128, v);
  for (int64_t v : {0, 2, 64, 258, 510, 512}) run("tilec_direct_wide_swz", 8, 512, 2, 128, v);
}

TEST_CASE("copy_tile direct: steps that read the same columns of other rows share their offsets", "[tile]") {
  using namespace tile_fns;
  // (a run-time row stride: each distinct lane pattern is one v_mul_lo_u32 of a row by it)
  auto muls = [](const std::string& t) {
    size_t n = 0;
    for (size_t p = t.find("v_mul_lo_u32"); p != std::string::npos; p = t.find("v_mul_lo_u32", p + 1)) ++n;
    return n;
  };
  auto loads = [](const std::string& t) {
    size_t n = 0;
    for (size_t p = t.find(" lds"); p != std::string::npos; p = t.find(" lds", p + 1)) ++n;
    return n;
  };
  constexpr hipasm::lds_layout bf16_swz{.rows = 128, .cols = 64, .elem_bytes = 2, .swz_chunk = 16, .swz_groups = 8};
  constexpr hipasm::lds_layout wide_swz{.rows = 8, .cols = 512, .elem_bytes = 2, .swz_chunk = 16, .swz_groups = 8,
                                        .swz_row_div = 2};
  constexpr hipasm::lds_layout f32_64{.rows = 64, .cols = 64, .elem_bytes = 4};
  // 4 rows a step, the swizzle's period 8 rows: 32 steps, 2 patterns
  std::string a = hipasm::asm_text<&tile_rt<bf16_swz, hipasm::tile_copy_opts{128, 4, true, true}>>("k", hipasm::emit_options{false});
  INFO(a);
  CHECK(loads(a) == 32);
  CHECK(muls(a) == 2);
  // half a row a step, rows paired by the swizzle: 16 steps, 8 patterns (rows 2k and 2k + 1 alike)
  std::string w = hipasm::asm_text<&tile_rt<wide_swz, hipasm::tile_copy_opts{128, 4, true, true}>>("k", hipasm::emit_options{false});
  CHECK(loads(w) == 16);
  CHECK(muls(w) == 8);
  // no swizzle, whole rows a step: one pattern
  std::string f = hipasm::asm_text<&tile_rt<f32_64, hipasm::tile_copy_opts{256, 4, true, true}>>("k", hipasm::emit_options{false});
  CHECK(loads(f) == 16);
  CHECK(muls(f) == 1);
}

TEST_CASE("copy_tile into a view moved at run time (lds_shift: a ring of LDS buffers)", "[tile]") {
  // the second view starts a tile further: 128 rows x 128 bytes, 64 rows x 136 bytes
  run("tilesh_bf16_swz", 128, 64, 2, 256, -1, 128 * 128);
  run("tilesh_direct_pad_swz", 64, 64, 2, 256, -1, 64 * 136);
}

TEST_CASE("copy_tile: the loads fold their row steps, the stores pick b128", "[tile]") {
  using namespace tile_fns;
  constexpr hipasm::lds_layout f32_64{.rows = 64, .cols = 64, .elem_bytes = 4};
  std::string t = hipasm::asm_text<&tile_rt<f32_64, hipasm::tile_copy_opts{256, 16, false, true}>>("k", hipasm::emit_options{false});
  INFO(t);
  size_t loads = 0, b128 = 0;
  for (size_t p = t.find("buffer_load_dwordx4"); p != std::string::npos; p = t.find("buffer_load_dwordx4", p + 1)) ++loads;
  for (size_t p = t.find("ds_write_b128"); p != std::string::npos; p = t.find("ds_write_b128", p + 1)) ++b128;
  CHECK(loads == 4);
  CHECK(b128 == 4);
  CHECK(t.find("ds_write_b128 v") != std::string::npos);
  CHECK(t.find("offset:4096") != std::string::npos);  // LDS: 16 rows further
  CHECK(t.find("s_waitcnt vmcnt(3)") != std::string::npos);
}

namespace {
// One workgroup of kernel (out, in, args...) whose out holds the tile's dwords and the load
// count after them; the checker must be silent.
template <class T>
std::vector<uint32_t> launch_counted(const char* kernel, uint32_t threads, uint32_t dwords, rt::buffer<T>& in,
                                     std::initializer_list<uint32_t> args) {
  rt::device& d = *S().dev;
  rt::buffer<uint32_t> out(d, std::vector<uint32_t>(dwords + 1, 0xdeadbeefu));
  rt::kernel_args a;
  a.add(out.ptr()).add(in.ptr());
  for (uint32_t x : args) a.add(x);
  auto rep = d.launch(*S().m, kernel, {1, 1, 1}, {threads, 1, 1}, a);
  for (const auto& diag : rep.diagnostics) FAIL_CHECK("checker: " << diag);
  return out.download();
}

// The split copy with a column tail at any element (tile_rt_split): rows ld bytes apart
// (ld need not be a multiple of 4 with elem_loads), origin any even byte.
void run_split(const char* kernel, uint32_t rows, uint32_t cols, uint32_t threads, uint32_t ld, uint32_t origin,
               uint32_t cols_valid, uint32_t loads, bool elem = false) {
  INFO(kernel << " ld " << ld << " origin " << origin << " cols_valid " << cols_valid);
  rt::device& d = *S().dev;
  const uint32_t row_bytes = cols * 2, dwords = rows * row_bytes / 4;
  const uint32_t mem_bytes = origin + ld * rows + 64;
  std::vector<uint16_t> in(mem_bytes / 2);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint16_t>(0x1000u + i * 40503u % 0xe000u);
  rt::buffer<uint16_t> I(d, in);
  for (uint32_t in_bytes : {mem_bytes, origin + ld * (rows / 2) + 6}) {  // whole, and the tensor ending mid-row
    INFO("in_bytes " << in_bytes);
    auto o = launch_counted(kernel, threads, dwords, I, {in_bytes, ld, origin, cols_valid});
    CHECK(o[dwords] == loads);
    int bad = 0;
    for (uint32_t r = 0; r < rows; ++r)
      for (uint32_t c = 0; c < cols; ++c) {
        const uint64_t g = origin + uint64_t(r) * ld + 2 * c;
        // the V# range check: per dword for dword loads (rows dword aligned here), per element
        // for the element loads
        const bool in_range = elem ? g + 2 <= in_bytes : (g & ~uint64_t{3}) + 4 <= in_bytes;
        uint16_t expect = c < cols_valid && in_range ? in[g / 2] : 0;
        const uint32_t e = r * cols + c;
        const uint16_t got = static_cast<uint16_t>(o[e / 2] >> (16 * (e % 2)));
        if (got != expect && ++bad <= 3)
          FAIL_CHECK("row " << r << " col " << c << ": got " << std::hex << got << " expected " << expect);
      }
    CHECK(bad == 0);
  }
}
}  // namespace

TEST_CASE("copy_tile_load / copy_tile_store: a second view, column tails at any element, the load count", "[tile]") {
  for (uint32_t v : {0u, 1u, 7u, 8u, 13u, 33u, 63u, 64u, 100u}) run_split("tiles_bf16_swz", 128, 64, 256, 192, 64, v, 4);
  for (uint32_t v : {0u, 5u, 16u, 31u, 32u}) run_split("tiles_gemm", 128, 32, 256, 4096 * 2, 128, v, 2);
  // element loads: rows an odd number of elements apart, an origin 2 bytes past a dword
  for (uint32_t v : {0u, 1u, 17u, 32u}) run_split("tiles_elem", 128, 32, 256, 2 * 99, 2 * 37, v, 8 * 1 * 2, true);
}

// Masks made once for the tail (make_tile_tail_masks with cols_valid % the view's columns): a
// tile that is the tail, a whole one (cols_valid past it: every word kept though the masks are
// the tail's), none (cols_valid 0).
TEST_CASE("copy_tile_load with tail masks made once: the tail, whole tiles, empty tiles", "[tile]") {
  for (uint32_t v : {0u, 5u, 16u, 31u, 32u, 37u, 63u}) run_split("tiles_gemm_tail", 128, 32, 256, 4096 * 2, 128, v, 2);
  for (uint32_t v : {0u, 1u, 7u, 13u, 63u, 64u, 100u}) run_split("tiles_bf16_swz_tail", 128, 64, 256, 192, 64, v, 4);
}

// The same masks deferred (tile_tail_masks::deferred): copy_tile_mask_tail applies them in a
// branch taken below the view's columns; whole tiles are stored as loaded.
TEST_CASE("copy_tile_mask_tail: deferred tail masks, the tail, whole tiles, empty tiles", "[tile]") {
  for (uint32_t v : {0u, 5u, 16u, 31u, 32u, 37u, 63u}) run_split("tiles_gemm_tail_defer", 128, 32, 256, 4096 * 2, 128, v, 2);
  for (uint32_t v : {0u, 1u, 7u, 13u, 63u, 64u, 100u}) run_split("tiles_bf16_swz_tail_defer", 128, 64, 256, 192, 64, v, 4);
}

TEST_CASE("copy_tile_prepare before copy_tile_store: the same tile (column tails, element loads)", "[tile]") {
  for (uint32_t v : {0u, 5u, 16u, 31u, 32u}) run_split("tiles_gemm_prep", 128, 32, 256, 4096 * 2, 128, v, 2);
  for (uint32_t v : {0u, 1u, 17u, 32u}) run_split("tiles_elem_prep", 128, 32, 256, 2 * 99, 2 * 37, v, 8 * 1 * 2, true);
}

namespace {
// The transposing copy (tile_rt_transposed): view rows x cols elements of eb bytes, view
// element (r, c) = matrix element (c, r) at origin + c * ld + r * eb; matrix rows past the V#
// (per dword) and, with a tail, matrix columns at or past cols_valid read 0.
void run_transposed(const char* kernel, uint32_t rows, uint32_t cols, uint32_t eb, uint32_t threads, uint32_t loads,
                    std::initializer_list<uint32_t> cols_valid = {~0u}) {
  rt::device& d = *S().dev;
  const uint32_t ld = rows * eb + 64, dwords = rows * cols * eb / 4;
  const uint32_t mem_bytes = ld * (cols + 4) + 64;
  std::vector<uint8_t> in(mem_bytes);
  for (uint32_t i = 0; i < mem_bytes; ++i) in[i] = static_cast<uint8_t>(1 + (i * 2654435761u >> 13) % 251);
  std::vector<uint32_t> in32(mem_bytes / 4);
  std::memcpy(in32.data(), in.data(), mem_bytes / 4 * 4);
  rt::buffer<uint32_t> I(d, in32);
  struct shape { uint32_t origin, in_bytes; };
  const shape cases[] = {
      {0, mem_bytes},                          // whole tile inside
      {ld * 3 + 8, mem_bytes},                 // an offset origin (a dword inside a row)
      {0, ld * (cols / 2) + 12},               // the tensor ends half way: matrix rows past it read 0
      {4, ld * (cols - 1) + rows * eb / 2},    // the last matrix row cut in its middle
  };
  for (uint32_t cv : cols_valid)
    for (const shape& c : cases) {
      INFO(kernel << " origin " << c.origin << " in_bytes " << c.in_bytes << " cols_valid " << cv);
      auto o = launch_counted(kernel, threads, dwords, I, {c.in_bytes, ld, c.origin, cv});
      CHECK(o[dwords] == loads);
      int bad = 0;
      for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t k = 0; k < cols; ++k) {
          const uint64_t g = c.origin + uint64_t(k) * ld + uint64_t(r) * eb;
          const bool in_range = (g & ~uint64_t{3}) + 4 <= c.in_bytes;
          uint32_t expect = 0;
          if (in_range && r < cv)
            for (uint32_t b = 0; b < eb; ++b) expect |= uint32_t(in[g + b]) << (8 * b);
          const uint32_t e = r * cols + k;  // element e of the row-major read-back
          uint32_t got = 0;
          for (uint32_t b = 0; b < eb; ++b) got |= ((o[(e * eb + b) / 4] >> (8 * ((e * eb + b) % 4))) & 0xffu) << (8 * b);
          if (got != expect && ++bad <= 3)
            FAIL_CHECK("view row " << r << " col " << k << ": got " << std::hex << got << " expected " << expect);
        }
      CHECK(bad == 0);
    }
}
}  // namespace

TEST_CASE("transposing copy: view (r, c) = matrix (c, r); swizzles, padding, 1/2/4-byte elements, tails", "[tile]") {
  // (loads: steps x Q dword loads a lane)
  run_transposed("tilet_gemm", 64, 64, 2, 128, 2 * 8);
  run_transposed("tilet_gemm_tail", 64, 64, 2, 128, 2 * 8, {0, 1, 2, 17, 33, 63, 64, 1000});
  run_transposed("tilet_pad_v8_tail", 128, 32, 2, 256, 2 * 4, {0, 5, 64, 127, 128});
  run_transposed("tilet_f32_const", 32, 64, 4, 256, 2 * 4, {0, 1, 31, 32});
  run_transposed("tilet_u8_tail", 64, 64, 1, 64, 1 * 16, {0, 1, 2, 3, 5, 30, 63, 64});
  run_transposed("tilet_wide_tail", 256, 16, 2, 64, 4 * 8, {0, 3, 127, 128, 129, 200, 256});
}

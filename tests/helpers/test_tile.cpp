// HIPASM_TEST_KERNELS: tile_kernels.hip
// copy_tile (include/hipasm/helpers/tile_copy.hpp) in hipasm-sim against plain C++: the tile
// lands in the view's layout (read back through the view), rows and dwords past the V# read
// zero (tail tiles), partial last steps, the direct LDS-DMA path with padding and swizzles,
// caller-side waits. The checker must report nothing.
#include <catch2/catch.hpp>

#include <hipasm/sim/launcher.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tile_fns.hpp"

namespace rt = hipasm::rt;

namespace {

struct sim {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  std::unique_ptr<rt::module> m =
      dev->load_file(std::string(HIPASM_HELPERS_KERNEL_DIR) + "/helpers_" + HIPASM_HELPERS_TEST_NAME + "_tile_kernels.co");
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
}

TEST_CASE("copy_tile with a column tail: columns past cols_valid are zeros", "[tile]") {
  for (int64_t v : {0, 8, 24, 32, 56, 64}) run("tilec_bf16_swz", 128, 64, 2, 256, v);
  for (int64_t v : {0, 4, 256, 260, 1020, 1024}) run("tilec_wide", 4, 1024, 4, 256, v);
  for (int64_t v : {0, 2, 30, 62, 64}) run("tilec_direct_pad_swz", 64, 64, 2, 256, v);
}

TEST_CASE("copy_tile into a view moved at run time (lds_shift: a ring of LDS buffers)", "[tile]") {
  // the second view starts a tile further: 128 rows x 128 bytes, 64 rows x 136 bytes
  run("tiles_bf16_swz", 128, 64, 2, 256, -1, 128 * 128);
  run("tiles_direct_pad_swz", 64, 64, 2, 256, -1, 64 * 136);
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

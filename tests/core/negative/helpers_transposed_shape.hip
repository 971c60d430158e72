// EXPECT: helpers_transposed_shape.hip:13: error: kernel '[^']*': make_transposed_staging: view rows must be a multiple of 2 and columns of 8
// A transposing copy into a view whose rows are not whole units (8 matrix rows of a dword a
// lane, 16-byte view rows): a compile error at the call's line (helpers/tile_copy.hpp).
#include <hipasm/hipasm.hpp>
using namespace hipasm;

constexpr void bad_shape(builder J, arg<const uint16_t*> in, arg<unsigned> ld) {
  lds_pool pool(J);
  auto V = pool.view({.rows = 64, .cols = 12, .elem_bytes = 2});
  auto G = make_buffer(J, in, 4096u);
  auto s = J.sgpr<u32>();
  s = ld;
  transposed_staging st = make_transposed_staging(J, V, s, {.threads = 64});
  copy_tile_load(J, G, at(s), st);
}
extern "C" __attribute__((global)) void bad(const uint16_t* in, unsigned ld) { HIPASM_KERNEL_BODY(bad_shape, in, ld); }

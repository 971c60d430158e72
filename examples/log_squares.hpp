// The device debug log (pyhip's debug_log): out[i] = i * i for i < n, one work-item per i, and
// each active lane logs its square (tag 1, a VGPR: one record per lane) and the wave logs n
// (tag 2, an SGPR: one record per wave, from its first active lane). The host downloads the
// buffer and prints it with hipasm::print_debug_log (helpers/debug_log_host.hpp), each record as
// `wg x,y,z wave w lane l` with the tag, the source line and the value.
#pragma once
#include <hipasm/builder.hpp>
#include <hipasm/helpers/debug_log.hpp>

#include "sizes.hpp"

namespace examples {
using namespace hipasm;

constexpr void log_squares(builder J, arg<int*> out, arg<uint32_t*> dbg_buf, arg<unsigned> n) {
  auto dbg = make_debug_log(J, dbg_buf);
  auto i = J.vgpr<u32>().named("i");
  i = J.workgroup_id_x() * log_squares_block + J.thread_id_x();
  dbg(2, n);
  J.If(i < n, [&] {
    auto sq = J.vgpr<u32>().named("sq");
    sq = i * i;
    dbg(1, sq);
    auto byte = J.vgpr<u32>();
    byte = i << 2u;
    J.global_store_dword(byte, sq, out);
  });
}

}  // namespace examples

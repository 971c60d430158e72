// Host-side pieces the GEMM launchers share.
#pragma once
#include <cstdint>

#include <hipasm/rt/launcher.hpp>

namespace hipasm::kernels::detail {

// C's rows [0, rows) by first(rows) and [rows, M) by rest(rows) (the rest's launch on the
// sub-matrices from row `rows`): one report, the first dispatch's with both dispatches' times,
// operations and time-weighted MFMA busy fraction. rows >= M: first(M) alone; rows 0: rest alone.
template <class First, class Rest>
rt::launch_report launch_rows_split(uint32_t rows, uint32_t M, First&& first, Rest&& rest) {
  if (rows >= M) return first(M);
  if (rows == 0) return rest(0u);
  rt::launch_report rep = first(rows);
  rt::append_report(rep, rest(rows), true);
  return rep;
}

}  // namespace hipasm::kernels::detail

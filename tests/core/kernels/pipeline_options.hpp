// Kernels of test_pipeline_options.cpp: one builder function, compiled with the default
// pipeline and with the optional passes turned off (kernel_options).
#pragma once
#include "hipasm/kernel.hpp"

namespace hipasm::test {

// out[lane] = 2 * (3 * lane + n) + the dead store's victim: a repeated subexpression (cse),
// a write overwritten before any read (dse) and a result nobody reads (dce).
constexpr void po_kernel(builder J, arg<int*> out, arg<int> n) {
  auto lane = J.vgpr<i32>().named("lane");
  lane = J.thread_id_x().as<i32>();
  auto a = J.vgpr<i32>().named("a"), b = J.vgpr<i32>().named("b");
  a = lane * 3 + n;
  b = lane * 3 + n;  // the same computation again
  auto v = J.vgpr<i32>().named("v");
  v = 1234;          // overwritten before any read
  v = a + b;
  auto unused = J.vgpr<i32>().named("unused");
  unused = lane ^ 77;  // never read
  auto p = J.vgpr<u64>();
  p = out + (lane.as<u32>() << 2);
  J.global_store_dword(p, v, off);
}

inline constexpr kernel_options po_no_opt{.cse = false, .dse = false, .dce = false};
inline constexpr auto po_kernel_plain = with_options<po_kernel, po_no_opt>;
inline constexpr auto po_kernel_no_cse = with_options<po_kernel, kernel_options{.cse = false}>;

}  // namespace hipasm::test

// s_nop and instruction counts of the example and test kernels with the schedule pass
// (kernel_options::schedule, the default) and without it. Build and run from the repo root:
//   clang++-22 -std=c++20 -O1 -Iinclude -Itests/core -Iexamples bench/schedule_counts.cpp -o /tmp/schedule_counts && /tmp/schedule_counts
#include <cstdio>
#include <string>

#include "gemv_f16.hpp"
#include "kernel_2d.hpp"
#include "sum_even.hpp"
#include "vector_add.hpp"
#include "asm_counts.hpp"
#include "kernels/partial_defs_fn.hpp"
#include "kernels/sched_fn.hpp"
#include "kernels/waits_fn.hpp"

using namespace hipasm;

namespace {
using counts = hipasm::test::asm_counts;
constexpr auto count = hipasm::test::count_asm;
counts total_on, total_off, total_v;
template <auto K>
void row(const char* name) {
  const counts on = count(asm_text<K>(name, emit_options{false}));
  const counts off = count(asm_text<with_options<K, kernel_options{.schedule = false}>>(name, emit_options{false}));
  const counts virt = count(asm_text<with_options<K, kernel_options{.schedule_virtual = true}>>(name, emit_options{false}));
  std::printf("| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n", name, off.instructions, on.instructions,
              virt.instructions, off.nops, on.nops, virt.nops, off.nop_states, on.nop_states, virt.nop_states);
  total_v.instructions += virt.instructions, total_v.nops += virt.nops, total_v.nop_states += virt.nop_states;
  total_on.instructions += on.instructions, total_on.nops += on.nops, total_on.nop_states += on.nop_states;
  total_off.instructions += off.instructions, total_off.nops += off.nops, total_off.nop_states += off.nop_states;
}
}  // namespace

int main() {
  // off: .schedule = false; on: the default; virtual: .schedule_virtual = true.
  std::printf("| kernel | instructions off | on | virtual | s_nop off | on | virtual | nop wait states off | on | virtual |\n");
  std::printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  using namespace ::examples;
  row<gemv_f16>("gemv_f16");
  row<kernel_2d>("kernel_2d");
  row<sum_even>("sum_even");
  row<vector_add>("vector_add");
  using namespace hipasm::test::partial;
  row<dpp_row_mask_fn>("dpp_row_mask");
  row<dpp_bank_mask_fn>("dpp_bank_mask");
  row<dpp_no_bound_ctrl_fn>("dpp_no_bound_ctrl");
  row<dpp_partial_exec_fn>("dpp_partial_exec");
  row<sdwa_preserve_fn>("sdwa_preserve");
  row<dot4c_fn>("dot4c");
  row<fma_mixlo_fn>("fma_mixlo");
  row<d16_hi_fn>("d16_hi");
  row<loop_uniform_fn>("loop_uniform");
  row<loop_per_lane_fn>("loop_per_lane");
  row<loop_in_if_fn>("loop_in_if");
  row<carried_uniform_fn>("carried_uniform");
  row<carried_per_lane_fn>("carried_per_lane");
  row<carried_step_fn>("carried_step");
  using namespace hipasm::test::sched;
  row<fill_dpp_fn>("fill_dpp");
  row<fill_mfma_fn>("fill_mfma");
  using namespace hipasm::test::waits;
  row<wf_straight_fn>("wf_straight");
  row<wf_lds_smem_fn>("wf_lds_smem");
  row<wf_join_fn>("wf_join");
  row<wf_loop_fn>("wf_loop");
  row<karg_late_fn>("karg_late");
  row<karg_loop_fn>("karg_loop");
  std::printf("| total | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n", total_off.instructions, total_on.instructions,
              total_v.instructions, total_off.nops, total_on.nops, total_v.nops, total_off.nop_states, total_on.nop_states,
              total_v.nop_states);
}

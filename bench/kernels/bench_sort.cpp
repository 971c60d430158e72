// bench_kernel_sort [AITER_DIR]: rows x len bitonic sorts (keys only and argsorts). aiter has no
// asm sort (its MoE sorting is HIP C++): aiter_us=none. gbps counts the keys read and written
// (and the indices written); the network's log^2 steps are VALU work of the order of the HBM
// time at 512-2048 elements a row (README: the bounds), far above it for the few-workgroup rows.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <hipasm/kernels/sort.hpp>

#include "bench_common.hpp"
#include "kernels/sort_bench_configs.hpp"

namespace {
using namespace bench;
template <hipasm::kernels::sort_config C>
void row(const char* name, uint32_t rows, uint32_t len, bool mixed_signs = false) {
  auto dp = fresh_device();  // (bench_common.hpp: a device per run, buffers first)
  rt::device& d = *dp;
  const bool idx = C.payload != hipasm::kernels::sort_payload::none;
  const std::string shape = std::to_string(rows) + "x" + std::to_string(len) +
                            (C.key == hipasm::kernels::sort_key::i32 ? "_i32" : "_f32") + (idx ? "_argsort" : "_keys") +
                            (C.row_per_wave ? "_wave" : "_wg" + std::to_string(C.waves)) + (mixed_signs ? "_mixed" : "");
  if (!selected(shape)) return;
  const size_t n = size_t(rows) * len;
  std::vector<uint32_t> keys(n);
  std::mt19937 rng(1);
  // f32: [1, 2), or with mixed_signs half of them negative (keys sort without a mapping where a
  // 1 KiB piece or, at the store, a lane holds no negative key: sort.hpp)
  for (auto& k : keys)
    k = C.key == hipasm::kernels::sort_key::i32 ? rng() % 256
                                                : (0x3f800000u + rng() % 0x800000u) | (mixed_signs ? (rng() & 1) << 31 : 0u);
  rt::buffer<uint32_t> KI(d, keys), KO(d, n), VO(d, idx ? n : 1);
  const auto mp = d.load_file(HIPASM_BENCH_CO);
  rt::module& m = *mp;
  const uint32_t groups = hipasm::kernels::sort_groups(C, rows);
  rt::profile_options p = profile_for(groups);
  // HIPASM_BENCH_TIMELINE=W: wave W's schedule (every instruction's issue, stall and reason) on stderr
  const char* tl = std::getenv("HIPASM_BENCH_TIMELINE");
  p.keep_events = tl != nullptr;
  rt::launch_options o;
  o.profile = &p;
  auto rep = hipasm::kernels::launch_sort<C>(d, m, name,
                                             {.keys_out = KO.addr(), .vals_out = VO.addr(), .keys_in = KI.addr(),
                                              .len = len, .rows = rows}, o);
  if (tl) std::fprintf(stderr, "%s", rep.profile->timeline(uint32_t(std::atoi(tl))).c_str());
  print_line("sort", shape, from(rep), 0, double(n) * 4 * (idx ? 3 : 2), true);
}
}  // namespace

int main() {
  for (uint32_t rows : {1u, 1024u, 16384u}) row<bench_cfg::sort_wave512_idx>("sort_wave512_idx", rows, 512);
  for (uint32_t rows : {1u, 1024u, 8192u}) row<bench_cfg::sort_wg2048>("sort_wg2048", rows, 2048);
  for (uint32_t rows : {1u, 1024u, 8192u}) row<bench_cfg::sort_wave2048>("sort_wave2048", rows, 2048);
  row<bench_cfg::sort_wave2048>("sort_wave2048", 8192, 2048, true);
  for (uint32_t rows : {1u, 512u}) row<bench_cfg::sort_wg4096_idx>("sort_wg4096_idx", rows, 4096);
  row<bench_cfg::sort_wg8192_i32_idx>("sort_wg8192_i32_idx", 1, 8192);
  row<bench_cfg::sort_wg8192_i32_idx>("sort_wg8192_i32_idx", 1, 8000);
  row<bench_cfg::sort_wg8192_i32_idx>("sort_wg8192_i32_idx", 304, 8192);
  return 0;
}

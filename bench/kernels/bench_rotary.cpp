// bench_kernel_rotary [AITER_DIR]: tokens x (query heads + key heads) x head_dim, in place (vLLM's
// rotary_embedding) and, for GPT-J's partial rotary, out of place. aiter has no asm rotary
// kernel (its rope is HIP C++): aiter_us=none.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <hipasm/kernels/rotary.hpp>

#include "bench_common.hpp"
#include "kernels/rotary_bench_configs.hpp"

namespace {
using namespace bench;
template <hipasm::kernels::rotary_config C>
void row(const char* name, const char* model, uint32_t tokens, bool in_place) {
  auto dp = fresh_device();  // (bench_common.hpp: a device per run, buffers first)
  rt::device& d = *dp;
  using CE = hipasm::kernels::rotary_cache_elem<C>;
  const std::string shape = std::string(model) + "_" + std::to_string(tokens) + "x(" + std::to_string(C.heads_q) + "+" +
                            std::to_string(C.heads_k) + ")x" + std::to_string(C.head_dim) + "_rot" +
                            std::to_string(C.rot_dim) + (in_place ? "_inplace" : "_outofplace");
  if (!selected(shape)) return;
  const size_t nq = size_t(tokens) * C.heads_q * C.head_dim, nk = size_t(tokens) * C.heads_k * C.head_dim;
  const uint32_t rows = 8192;
  std::vector<int64_t> pos(tokens);
  for (uint32_t t = 0; t < tokens; ++t) pos[t] = t % rows;
  rt::buffer<uint16_t> Q(d, std::vector<uint16_t>(nq, 0x3f80)), K(d, std::vector<uint16_t>(nk, 0x3f80)), QO(d, nq),
      KO(d, nk);
  rt::buffer<int64_t> P(d, pos);
  rt::buffer<CE> CS(d, std::vector<CE>(size_t(rows) * C.rot_dim, CE{}));
  // HIPASM_BENCH_ROTARY_TPG=N: N tokens per workgroup instead of the launch's pick
  const char* tpg = std::getenv("HIPASM_BENCH_ROTARY_TPG");
  const auto mp = d.load_file(HIPASM_BENCH_CO);
  rt::module& m = *mp;
  const uint32_t per = tpg ? uint32_t(std::atoi(tpg)) : hipasm::kernels::rotary_tokens_per_group(tokens);
  rt::profile_options p = profile_for((tokens + per - 1) / per);
  rt::launch_options o;
  o.profile = &p;
  const char* tl = std::getenv("HIPASM_BENCH_TIMELINE");
  p.keep_events = tl != nullptr;
  auto rep = hipasm::kernels::launch_rotary<C>(
      d, m, name,
      {.q_out = in_place ? Q.addr() : QO.addr(), .k_out = in_place ? K.addr() : KO.addr(), .q = Q.addr(),
       .k = K.addr(), .positions = P.addr(), .cos_sin = CS.addr(), .cache_rows = rows, .tokens = tokens, .tokens_per_group = per},
      o);
  // q and k read and written (in place: only the rotated dims), positions, one cache row per token
  const double moved = in_place ? double(nq + nk) * C.rot_dim / C.head_dim : double(nq + nk);
  const double bytes = moved * 2 * 2 + tokens * (8.0 + C.rot_dim * sizeof(CE));
  if (tl) std::fprintf(stderr, "%s", rep.profile->timeline(uint32_t(std::atoi(tl))).c_str());
  print_line("rotary", shape, from(rep), 0, bytes, true);
}
}  // namespace

int main() {
  for (uint32_t tokens : {1u, 32u, 4096u, 32768u}) {
    row<bench_cfg::rope_llama8b>("rope_llama8b", "llama8b", tokens, true);
    row<bench_cfg::rope_llama70b>("rope_llama70b", "llama70b", tokens, true);
    row<bench_cfg::rope_gptj6b>("rope_gptj6b", "gptj6b", tokens, false);
  }
  return 0;
}

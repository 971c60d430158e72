// bench_kernel_topk_softmax [AITER_DIR]: MoE routing, tokens x experts (8/64/128/256) with top-2
// and top-8, f32 logits. With AITER_DIR (aiter's checkout or its hsa/gfx942 folder), aiter's
// topksoftmax asm kernel (topksoftmax_<subm>x<experts>x<topk>.co: 128 and 256 experts, top-8)
// runs on the same shape in the same run; its argument struct is aiter's KernelArgs of
// csrc/py_itfs_cu/asm_topksoftmax.cu (each field padded to 16 bytes, the
// pads separate arguments in its metadata), 256 threads, subm tokens
// per workgroup (4 below 10000 tokens, else 12, as its host code picks). Ours: the kernels of
// HIPASM_TOPK_SOFTMAX_KERNELS and the configuration launch_topk_softmax_auto picks.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <hipasm/kernels/topk_softmax.hpp>

#include "bench_common.hpp"
#include "kernels/topk_bench_configs.hpp"

namespace fs = std::filesystem;
namespace {
using namespace bench;

double aiter_topk(rt::device& d, const fs::path& dir, int experts, int topk, uint32_t tokens, uint64_t w, uint64_t idx,
                  uint64_t logits) {
  if (dir.empty()) return 0;
  const int subm = tokens < 10000 ? 4 : 12;
  const std::string base = "topksoftmax_" + std::to_string(subm) + "x" + std::to_string(experts) + "x" + std::to_string(topk);
  const fs::path co = dir / (base + ".co");
  if (!fs::exists(co)) return 0;
  auto m = d.load_file(co.string());
  const std::string name = "_ZN5aiter" + std::to_string(base.size()) + base + "E";
  rt::kernel_args a;
  const uint64_t zero = 0;
  auto pad8 = [&] { a.add(zero); };
  auto pad12 = [&] { a.add(uint32_t{0}).add(uint32_t{0}).add(uint32_t{0}); };  // the metadata's three 4-byte pads
  a.add(idx); pad8();
  a.add(w); pad8();
  a.add(logits); pad8();
  a.add(tokens); pad12();
  a.add(uint32_t(experts)); pad12();
  a.add(uint32_t(topk)); pad12();
  a.add(uint32_t{0}); pad12();              // renormalize
  a.add(uint32_t(topk * 4)); pad12();       // out_stride in bytes
  rt::profile_options p = profile_for((tokens + subm - 1) / subm);
  rt::launch_options o;
  o.profile = &p;
  o.allow = {"all"};  // AMD's code: checker findings are warnings
  auto rep = d.launch(*m, name, {(tokens + subm - 1) / subm, 1, 1}, {256, 1, 1}, a, o);
  return rep.profile->time_us;
}

template <int E, int K>
void row(const fs::path& aiter, uint32_t tokens) {
  namespace hk = hipasm::kernels;
  constexpr hk::topk_softmax_config C = bench_cfg::topk<E, K>;
  const std::string shape = std::to_string(tokens) + "x" + std::to_string(E) + "_top" + std::to_string(K);
  if (!selected(shape)) return;
  std::vector<float> x(size_t(tokens) * E);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float((i * 2654435761u) % 1000) * 0.01f;  // distinct-ish logits
  // Each kernel in a device of its own (bench::fresh_device), these allocated first in both: the
  // same addresses for ours and aiter's, whatever else ran.
  struct operands {
    rt::buffer<float> X, W;
    rt::buffer<int> I;
    operands(rt::device& d, const std::vector<float>& x, uint32_t tokens) : X(d, x), W(d, size_t(tokens) * K), I(d, size_t(tokens) * K) {}
  };
  auto d = fresh_device();
  const operands ops(*d, x, tokens);
  const auto m = d->load_file(HIPASM_BENCH_CO);
  // the configuration launch_topk_softmax_auto picks (the latency one for few tokens)
  const uint32_t per = static_cast<uint32_t>(hk::topk_softmax_uses_latency<C>(tokens)
                                                 ? hk::topk_tokens_per_group(hk::topk_latency_config(C))
                                                 : hk::topk_tokens_per_group(C));
  const uint32_t groups = (tokens + per - 1) / per;
  rt::profile_options p = profile_for(groups);
  rt::launch_options o;
  o.profile = &p;
  const std::string name = "topk_softmax_" + std::to_string(E) + "x" + std::to_string(K);
  auto rep = hk::launch_topk_softmax_auto<C>(
      *d, *m, name, {.weights = ops.W.addr(), .indices = ops.I.addr(), .logits = ops.X.addr(), .tokens = tokens}, o);
  const result h = from(rep);
  double a = 0;
  if (!aiter.empty()) {  // (no aiter checkout: no second device, no copies of the operands)
    auto ad = fresh_device();
    const operands aops(*ad, x, tokens);
    a = aiter_topk(*ad, aiter, E, K, tokens, aops.W.addr(), aops.I.addr(), aops.X.addr());
    // The same operation: aiter's weights must match ours (indices may differ on ties), unless a
    // side was sampled (profile_for: only the sampled workgroups write their outputs).
    const uint32_t aiter_groups = (tokens + (tokens < 10000 ? 4 : 12) - 1) / (tokens < 10000 ? 4 : 12);
    if (a > 0 && !p.sample_cus && !profile_for(aiter_groups).sample_cus) {
      const auto ours_w = ops.W.download(), aw = aops.W.download();
      size_t bad = 0;
      for (size_t i = 0; i < aw.size(); ++i) bad += std::fabs(aw[i] - ours_w[i]) > 1e-5f * std::fabs(ours_w[i]) + 1e-7f;
      if (bad) std::fprintf(stderr, "bench_kernel_topk_softmax: %s: %zu of %zu weights differ from aiter's\n", shape.c_str(), bad, aw.size());
    }
  }
  print_line("topk_softmax", shape, h, a, double(tokens) * (E * 4 + K * 8));
}
}  // namespace

int main(int argc, char** argv) {
  fs::path aiter;
  if (argc > 1) {
    const fs::path root = argv[1];
    for (const fs::path& c : {root / "hsa" / "gfx942" / "topksoftmax", root / "topksoftmax"})
      if (fs::is_directory(c)) aiter = c;
    if (aiter.empty()) std::fprintf(stderr, "bench_kernel_topk_softmax: no topksoftmax folder under %s; aiter skipped\n", argv[1]);
  }
  for (uint32_t tokens : {1u, 32u, 4096u, 65536u}) {
    row<8, 2>(aiter, tokens);
    row<8, 8>(aiter, tokens);
    row<64, 2>(aiter, tokens);
    row<64, 8>(aiter, tokens);
    row<128, 2>(aiter, tokens);
    row<128, 8>(aiter, tokens);
    row<256, 2>(aiter, tokens);
    row<256, 8>(aiter, tokens);
  }
  return 0;
}

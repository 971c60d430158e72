// Host launch of the all-reduce (all_reduce.hpp) on a node of GPUs (rt::node): the peer
// mappings of every rank's input, output (two-shot) and flag buffer, the address table each
// rank's kernel reads, and one launch per rank, run together.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <hipasm/rt/launcher.hpp>

#include "all_reduce.hpp"

namespace hipasm::kernels {

namespace detail {
// Every rank's address table (all_reduce.hpp, detail::all_reduce_table_*) in its memory: every
// rank's input, output (two-shot; one-shot: its own only) and flag buffer as that rank reaches
// it (its own, or a peer mapping). The mappings and tables are freed with this object.
struct all_reduce_tables {
  rt::node& node;
  std::vector<uint64_t> at;  // per rank: its table
  std::vector<uint64_t> made;
  std::vector<unsigned> made_on;
  all_reduce_tables(rt::node& nd, const std::vector<uint64_t>& in, const std::vector<uint64_t>& out,
                    const std::vector<uint64_t>& flags, bool all_outputs, bool in_place)
      : node(nd) {
    const unsigned n = node.size();
    try {
      for (unsigned r = 0; r < n; ++r) {
        std::vector<uint64_t> table(3u * n, 0);
        for (unsigned p = 0; p < n; ++p) {
          const uint64_t of[3] = {in[p], (all_outputs || p == r) ? out[p] : 0, flags[p]};
          for (unsigned k = 0; k < 3; ++k) {
            if (!of[k]) continue;
            if (p == r || (k == 1 && in_place)) {  // (in place, the output is the input: one mapping)
              table[k * n + p] = p == r ? of[k] : table[p];
              continue;
            }
            table[k * n + p] = node.map_peer(r, p, of[k]);
            made.push_back(table[k * n + p]);
            made_on.push_back(r);
          }
        }
        at.push_back(node.at(r).alloc(24u * n));
        made.push_back(at.back());
        made_on.push_back(r);
        node.at(r).copy_to_device(at.back(), table.data(), 24u * n);
      }
    } catch (...) {
      release();
      throw;
    }
  }
  ~all_reduce_tables() { release(); }
  all_reduce_tables(const all_reduce_tables&) = delete;
  all_reduce_tables& operator=(const all_reduce_tables&) = delete;

 private:
  void release() noexcept {
    for (size_t i = made.size(); i-- > 0;) {
      try { node.at(made_on[i]).free(made[i]); } catch (...) {}
    }
    made.clear();
  }
};
}  // namespace detail

struct all_reduce_args {
  std::vector<uint64_t> in;     // per rank: its input (device addresses of that rank)
  std::vector<uint64_t> out;    // per rank: its output (== in[r] when the config is in place)
  std::vector<uint64_t> flags;  // per rank: its flag buffer (all_reduce_flag_bytes, zeroed once)
  uint32_t count = 0;           // elements of each input
  uint32_t epoch = 1;           // greater than the previous launch's on these flags
};

// Runs the kernel built from C (named `kernel` in modules[r], loaded by node.at(r)) on every
// rank of `node`; a report per rank.
template <all_reduce_config C>
std::vector<rt::launch_report> launch_all_reduce(rt::node& node, std::span<rt::module* const> modules,
                                                 std::string_view kernel, const all_reduce_args& a,
                                                 const rt::launch_options& opts = {}) {
  const unsigned n = node.size();
  const std::string what = "hipasm all_reduce launch: ";
  if (n != static_cast<unsigned>(C.ranks))
    throw std::invalid_argument(what + "the kernel is built for " + std::to_string(C.ranks) + " ranks, the node has " +
                                std::to_string(n));
  if (modules.size() != n || a.in.size() != n || a.out.size() != n || a.flags.size() != n)
    throw std::invalid_argument(what + "modules, in, out and flags need one entry per rank (" + std::to_string(n) + ")");
  if (a.count == 0 || a.count % all_reduce_count_multiple(C) != 0)
    throw std::invalid_argument(what + "count " + std::to_string(a.count) + " must be a positive multiple of " +
                                std::to_string(all_reduce_count_multiple(C)));
  if (uint64_t(a.count) * all_reduce_elem_bytes(C) >= (uint64_t{1} << 32))
    throw std::invalid_argument(what + "the input must be below 4 GiB (32-bit offsets)");
  if (C.in_place && C.algo == all_reduce_algo::one_shot && a.count > all_reduce_max_in_place(C))
    throw std::invalid_argument(what + "one-shot in place takes at most " + std::to_string(all_reduce_max_in_place(C)) +
                                " elements (one slice a workgroup), got " + std::to_string(a.count));
  if (a.epoch == 0) throw std::invalid_argument(what + "epoch must be >= 1 (the flags start at 0)");
  for (unsigned r = 0; r < n; ++r) {
    if (!a.in[r] || !a.out[r] || !a.flags[r] || !modules[r])
      throw std::invalid_argument(what + "rank " + std::to_string(r) + ": a null address or module");
    if (C.in_place != (a.in[r] == a.out[r]))
      throw std::invalid_argument(what + "rank " + std::to_string(r) +
                                  (C.in_place ? ": the config is in place, out must be in" : ": out is in, the config is not in place"));
  }
  detail::all_reduce_tables tables(node, a.in, a.out, a.flags, C.algo == all_reduce_algo::two_shot, C.in_place);
  std::vector<rt::device_launch> ls(n);
  const uint32_t groups = all_reduce_groups(C, a.count);
  for (unsigned r = 0; r < n; ++r) {
    const uint64_t t = tables.at[r];
    ls[r].mod = modules[r];
    ls[r].kernel = std::string(kernel);
    ls[r].grid = {groups, 1, 1};
    ls[r].block = {static_cast<uint32_t>(64 * C.waves), 1, 1};
    ls[r].args.add(t).add(a.count).add(r).add(a.epoch);
  }
  return node.launch(ls, opts);
}

}  // namespace hipasm::kernels

namespace hipasm::kernels {

struct all_reduce_rmsnorm_args {
  std::vector<uint64_t> in;            // per rank: its input [rows][hidden] bf16
  std::vector<uint64_t> residual;      // per rank: its residual [rows][hidden] bf16
  std::vector<uint64_t> weight;        // per rank: the norm's weight [hidden] bf16
  std::vector<uint64_t> out;           // per rank: the normed rows [rows][hidden] bf16
  std::vector<uint64_t> residual_out;  // per rank: x = allreduce(in) + residual, bf16
  std::vector<uint64_t> flags;         // per rank: its flag buffer (all_reduce_rmsnorm_flag_bytes, zeroed once)
  float eps = 1e-6f;
  uint32_t rows = 0;
  uint32_t epoch = 1;                  // greater than the previous launch's on these flags
  // launch_all_reduce_rmsnorm_quant: out holds q [rows][hidden] bytes, scales [rows] f32 per rank
  std::vector<uint64_t> scales;
};

namespace detail {
template <all_reduce_rmsnorm_config C>
std::vector<rt::launch_report> launch_all_reduce_rmsnorm_impl(rt::node& node, std::span<rt::module* const> modules,
                                                              std::string_view kernel, const all_reduce_rmsnorm_args& a,
                                                              bool quant, const rt::launch_options& opts) {
  const unsigned n = node.size();
  const std::string what = quant ? "hipasm all_reduce_rmsnorm_quant launch: " : "hipasm all_reduce_rmsnorm launch: ";
  if (n != static_cast<unsigned>(C.ranks))
    throw std::invalid_argument(what + "the kernel is built for " + std::to_string(C.ranks) + " ranks, the node has " +
                                std::to_string(n));
  for (const auto* v : {&a.in, &a.residual, &a.weight, &a.out, &a.residual_out, &a.flags})
    if (v->size() != n) throw std::invalid_argument(what + "in, residual, weight, out, residual_out and flags need one entry per rank");
  if (quant && a.scales.size() != n) throw std::invalid_argument(what + "scales needs one entry per rank");
  if (modules.size() != n) throw std::invalid_argument(what + "one module per rank");
  if (a.rows == 0) throw std::invalid_argument(what + "rows must be >= 1");
  if (uint64_t(a.rows) * uint64_t(C.hidden) * 2u >= (uint64_t{1} << 32))
    throw std::invalid_argument(what + "the input must be below 4 GiB (32-bit offsets)");
  if (a.epoch == 0) throw std::invalid_argument(what + "epoch must be >= 1 (the flags start at 0)");
  for (unsigned r = 0; r < n; ++r)
    if (!a.in[r] || !a.residual[r] || !a.weight[r] || !a.out[r] || !a.residual_out[r] || !a.flags[r] || !modules[r] ||
        (quant && !a.scales[r]))
      throw std::invalid_argument(what + "rank " + std::to_string(r) + ": a null address or module");
  all_reduce_tables tables(node, a.in, a.out, a.flags, false, false);
  std::vector<rt::device_launch> ls(n);
  for (unsigned r = 0; r < n; ++r) {
    ls[r].mod = modules[r];
    ls[r].kernel = std::string(kernel);
    ls[r].grid = {all_reduce_rmsnorm_groups(C, a.rows), 1, 1};
    ls[r].block = {static_cast<uint32_t>(64 * C.waves), 1, 1};
    ls[r].args.add(tables.at[r]);
    if (quant) ls[r].args.add(a.scales[r]);
    ls[r].args.add(a.residual_out[r]).add(a.residual[r]).add(a.weight[r]).add(a.eps).add(a.rows).add(r).add(a.epoch);
  }
  return node.launch(ls, opts);
}
}  // namespace detail

// Runs the fused kernel built from C on every rank of `node`; a report per rank.
template <all_reduce_rmsnorm_config C>
std::vector<rt::launch_report> launch_all_reduce_rmsnorm(rt::node& node, std::span<rt::module* const> modules,
                                                         std::string_view kernel, const all_reduce_rmsnorm_args& a,
                                                         const rt::launch_options& opts = {}) {
  return detail::launch_all_reduce_rmsnorm_impl<C>(node, modules, kernel, a, false, opts);
}
// The quantizing variant (HIPASM_ALL_REDUCE_RMSNORM_QUANT_KERNEL): out [rows][hidden] bytes, scales.
template <all_reduce_rmsnorm_config C>
std::vector<rt::launch_report> launch_all_reduce_rmsnorm_quant(rt::node& node, std::span<rt::module* const> modules,
                                                               std::string_view kernel, const all_reduce_rmsnorm_args& a,
                                                               const rt::launch_options& opts = {}) {
  return detail::launch_all_reduce_rmsnorm_impl<C>(node, modules, kernel, a, true, opts);
}

}  // namespace hipasm::kernels

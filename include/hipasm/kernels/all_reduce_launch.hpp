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
  // every rank's view of every input, output (two-shot) and flag buffer: its own, or a peer mapping
  constexpr bool two = C.algo == all_reduce_algo::two_shot;
  std::vector<std::vector<uint64_t>> table(n, std::vector<uint64_t>(3u * n, 0));
  std::vector<uint64_t> made;
  std::vector<unsigned> made_on;
  struct cleanup {  // the mappings and tables, freed when the launch returns or throws
    rt::node& node;
    std::vector<uint64_t>& addrs;
    std::vector<unsigned>& on;
    ~cleanup() {
      for (size_t i = addrs.size(); i-- > 0;) {
        try { node.at(on[i]).free(addrs[i]); } catch (...) {}
      }
    }
  } release{node, made, made_on};
  for (unsigned r = 0; r < n; ++r)
    for (unsigned p = 0; p < n; ++p) {
      const uint64_t of[3] = {a.in[p], (two || p == r) ? a.out[p] : 0, a.flags[p]};
      for (unsigned k = 0; k < 3; ++k) {
        if (!of[k]) continue;
        if (p == r || (k == 1 && C.in_place)) {
          // (in place, the output is the input: one mapping)
          table[r][k * n + p] = p == r ? of[k] : table[r][p];
          continue;
        }
        table[r][k * n + p] = node.map_peer(r, p, of[k]);
        made.push_back(table[r][k * n + p]);
        made_on.push_back(r);
      }
    }
  std::vector<rt::device_launch> ls(n);
  const uint32_t groups = all_reduce_groups(C, a.count);
  for (unsigned r = 0; r < n; ++r) {
    rt::device& d = node.at(r);
    const uint64_t t = d.alloc(24u * n);
    made.push_back(t);
    made_on.push_back(r);
    d.copy_to_device(t, table[r].data(), 24u * n);
    ls[r].mod = modules[r];
    ls[r].kernel = std::string(kernel);
    ls[r].grid = {groups, 1, 1};
    ls[r].block = {static_cast<uint32_t>(64 * C.waves), 1, 1};
    ls[r].args.add(t).add(a.count).add(r).add(a.epoch);
  }
  return node.launch(ls, opts);
}

}  // namespace hipasm::kernels

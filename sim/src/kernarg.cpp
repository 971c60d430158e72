#include "kernarg.hpp"

#include <cstring>
#include <string>

namespace hipasm::sim {
namespace detail {
namespace {  // internal linkage: other simulator files have their own detail helpers

std::string dims(LaunchDims d) {
  return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
}

template <class T>
void put(std::vector<uint8_t>& seg, uint32_t offset, T v) {
  std::memcpy(seg.data() + offset, &v, sizeof(T));  // offset+size checked by the loader
}

}  // namespace
}  // namespace detail

void check_launch(const KernelInfo& k, LaunchDims grid, LaunchDims block, uint32_t dynamic_lds) {
  using detail::dims;
  const std::string where = "launch of '" + printable(k.name) + "': ";
  if (!grid.x || !grid.y || !grid.z) throw sim::error(where + "grid " + dims(grid) + " is empty");
  if (!block.x || !block.y || !block.z) throw sim::error(where + "block " + dims(block) + " is empty");
  if (block.x > 1024 || block.y > 1024 || block.z > 1024 ||
      uint64_t{block.x} * block.y * block.z > k.max_flat_workgroup_size)
    throw sim::error(where + "block " + dims(block) + " exceeds the kernel's maximum of " +
                    std::to_string(k.max_flat_workgroup_size) + " work-items");
  const uint64_t max = 0xffffffffu;  // the dispatch packet's grid size is 32-bit per dimension
  if (uint64_t{grid.x} * block.x > max || uint64_t{grid.y} * block.y > max ||
      uint64_t{grid.z} * block.z > max)
    throw sim::error(where + "grid " + dims(grid) + " of blocks " + dims(block) +
                    " exceeds 2^32-1 work-items in a dimension");
  const uint64_t lds = uint64_t{k.kd.group_segment_fixed_size} + dynamic_lds;
  const Target& t = *k.image.target;
  if (lds > t.lds_bytes)
    throw sim::error(where + std::to_string(k.kd.group_segment_fixed_size) + " bytes of static + " +
                    std::to_string(dynamic_lds) + " bytes of dynamic LDS exceed " +
                    std::to_string(t.lds_bytes / 1024) + " KiB (a " + t.name + " workgroup's most)");
}

std::vector<uint8_t> build_kernarg(const KernelInfo& k, LaunchDims grid, LaunchDims block,
                                   std::span<const ArgBytes> args, uint32_t dynamic_lds,
                                   kernarg_layout layout) {
  using detail::put;
  const std::string where = "launch of '" + printable(k.name) + "': ";
  const size_t want = k.explicit_arg_count();
  if (args.size() != want)
    throw sim::error(where + "the kernel takes " + std::to_string(want) + " argument" +
                    (want == 1 ? "" : "s") + ", " + std::to_string(args.size()) + " given");

  size_t end = 0;
  for (const auto& a : k.args)
    if (!a.hidden()) end = std::max<size_t>(end, a.offset + a.size);
  std::vector<uint8_t> seg(layout == kernarg_layout::full ? k.kernarg_segment_size : end, 0);

  size_t i = 0;
  for (const auto& a : k.args) {
    if (a.hidden()) continue;
    const ArgBytes& e = args[i];
    if (e.size != a.size)
      throw sim::error(where + "argument " + std::to_string(i + 1) +
                      (a.name.empty() ? "" : " '" + printable(a.name) + "'") + " (" +
                      printable(a.value_kind) + ") is " + std::to_string(a.size) + " bytes, " +
                      std::to_string(e.size) + " given");
    if (e.size) std::memcpy(seg.data() + a.offset, e.data, e.size);
    ++i;
  }
  if (layout != kernarg_layout::full) return seg;

  // Hidden arguments as the HIP runtime fills them for hipModuleLaunchKernel: it always
  // dispatches a 3-D range (grid_dims 3), with no global offset; the grid is whole blocks,
  // so the remainders (partial last block) are 0. Services the simulator does not provide
  // (printf, hostcall, heap, device queues) get null pointers: a kernel using them faults.
  const uint32_t grid_v[3] = {grid.x, grid.y, grid.z};
  const uint32_t block_v[3] = {block.x, block.y, block.z};
  for (const auto& a : k.args) {
    if (!a.hidden()) continue;
    const std::string_view kind = a.value_kind;
    const auto axis = [&](std::string_view prefix) -> int {
      if (kind.size() != prefix.size() + 1 || !kind.starts_with(prefix)) return -1;
      const char c = kind.back();
      return c == 'x' ? 0 : c == 'y' ? 1 : c == 'z' ? 2 : -1;
    };
    if (const int d = axis("hidden_block_count_"); d >= 0) put<uint32_t>(seg, a.offset, grid_v[d]);
    else if (const int g = axis("hidden_group_size_"); g >= 0) put<uint16_t>(seg, a.offset, uint16_t(block_v[g]));
    else if (axis("hidden_remainder_") >= 0) put<uint16_t>(seg, a.offset, 0);
    else if (axis("hidden_global_offset_") >= 0) put<uint64_t>(seg, a.offset, 0);
    else if (kind == "hidden_grid_dims") put<uint16_t>(seg, a.offset, 3);
    else if (kind == "hidden_dynamic_lds_size") put<uint32_t>(seg, a.offset, dynamic_lds);
    else if (kind == "hidden_shared_base") put<uint32_t>(seg, a.offset, kSharedApertureHi);
    else if (kind == "hidden_private_base") put<uint32_t>(seg, a.offset, kPrivateApertureHi);
    // everything else stays zero (null pointers, hidden_none padding)
  }
  return seg;
}

void extend_kernarg(const KernelInfo& k, std::vector<uint8_t>& segment, uint32_t bytes) {
  constexpr uint32_t kMaxKernarg = 1u << 20;  // the loader's bound on .kernarg_segment_size
  if (bytes > kMaxKernarg)
    throw sim::error("launch of '" + printable(k.name) + "': a kernarg segment of " + std::to_string(bytes) +
                    " bytes exceeds " + std::to_string(kMaxKernarg));
  if (bytes > segment.size()) segment.resize(bytes, 0);
}

}  // namespace hipasm::sim

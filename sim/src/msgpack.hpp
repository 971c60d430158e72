// A small MessagePack reader for the NT_AMDGPU_METADATA note (code object v3+). It parses
// untrusted bytes into a value tree: every length is checked against the bytes left, nesting
// is bounded, and any malformed input throws sim::error with a one-line message.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hipasm::sim::msgpack {

struct value {
  enum class kind : uint8_t { nil, boolean, int_, uint, float_, str, bin, array, map, ext };
  kind k = kind::nil;
  bool b = false;
  int64_t i = 0;   // kind::int_ (negative values)
  uint64_t u = 0;  // kind::uint
  double f = 0;
  std::string s;   // str, bin and ext payloads
  std::vector<value> items;  // array elements; for a map: key, value, key, value, ...

  bool is_map() const { return k == kind::map; }
  bool is_array() const { return k == kind::array; }
  bool is_str() const { return k == kind::str; }
  bool is_int() const { return k == kind::int_ || k == kind::uint; }
  // Map lookup by string key; nullptr when absent or when this is not a map.
  const value* find(std::string_view key) const;
  // Integer value as unsigned if it fits; false otherwise (negative, not an integer).
  bool get_u64(uint64_t& out) const;
  // The value rendered compactly for diagnostics (strings quoted, nested containers elided).
  std::string brief() const;
};

// Parses exactly one value that spans all of `bytes` (trailing bytes are an error).
value parse(std::span<const uint8_t> bytes);

}  // namespace hipasm::sim::msgpack

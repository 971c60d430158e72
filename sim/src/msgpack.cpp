#include "msgpack.hpp"

#include <cstring>
#include <string>

#include "error.hpp"

namespace hipasm::sim::msgpack {
namespace detail {
namespace {  // internal linkage: other simulator files have their own detail helpers

// Deep nesting is legal msgpack but never occurs in AMDGPU metadata; the bound keeps a
// hostile note from exhausting the stack.
constexpr int kMaxDepth = 32;

class reader {
 public:
  explicit reader(std::span<const uint8_t> b) : bytes_(b) {}

  value parse_all() {
    value v = parse_value(0);
    if (pos_ != bytes_.size())
      fail("trailing bytes after the top-level value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw sim::error("bad metadata (msgpack) at byte " + std::to_string(pos_) + ": " + what);
  }
  size_t left() const { return bytes_.size() - pos_; }
  void need(uint64_t n) const {
    if (n > left())
      fail("needs " + std::to_string(n) + " bytes, " + std::to_string(left()) + " left");
  }
  uint64_t be(int n) {  // big-endian unsigned of n bytes
    need(n);
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v = (v << 8) | bytes_[pos_ + i];
    pos_ += n;
    return v;
  }
  std::string take(uint64_t n) {
    need(n);
    std::string s(reinterpret_cast<const char*>(bytes_.data() + pos_), n);
    pos_ += n;
    return s;
  }

  value parse_array(uint64_t n, int depth) {
    // Every element takes at least one byte: a count beyond the bytes left is a lie, and
    // rejecting it early bounds the allocation.
    need(n);
    value v;
    v.k = value::kind::array;
    v.items.reserve(n);
    for (uint64_t i = 0; i < n; ++i) v.items.push_back(parse_value(depth + 1));
    return v;
  }
  value parse_map(uint64_t n, int depth) {
    if (n > left() / 2) need(2 * n);
    value v;
    v.k = value::kind::map;
    v.items.reserve(2 * n);
    for (uint64_t i = 0; i < 2 * n; ++i) v.items.push_back(parse_value(depth + 1));
    return v;
  }
  value make_uint(uint64_t x) {
    value v;
    v.k = value::kind::uint;
    v.u = x;
    return v;
  }
  value make_int(int64_t x) {
    if (x >= 0) return make_uint(static_cast<uint64_t>(x));
    value v;
    v.k = value::kind::int_;
    v.i = x;
    return v;
  }
  value make_str(value::kind k, uint64_t n) {
    value v;
    v.k = k;
    v.s = take(n);
    return v;
  }
  value make_ext(uint64_t n) {
    be(1);  // ext type byte: AMDGPU metadata never uses ext, keep the payload opaque
    return make_str(value::kind::ext, n);
  }

  value parse_value(int depth) {
    if (depth > kMaxDepth) fail("nesting deeper than " + std::to_string(kMaxDepth));
    const uint8_t t = static_cast<uint8_t>(be(1));
    if (t <= 0x7f) return make_uint(t);
    if (t >= 0xe0) return make_int(static_cast<int8_t>(t));
    if ((t & 0xf0) == 0x80) return parse_map(t & 0x0f, depth);
    if ((t & 0xf0) == 0x90) return parse_array(t & 0x0f, depth);
    if ((t & 0xe0) == 0xa0) return make_str(value::kind::str, t & 0x1f);
    switch (t) {
      case 0xc0: return value{};
      case 0xc2:
      case 0xc3: {
        value v;
        v.k = value::kind::boolean;
        v.b = t == 0xc3;
        return v;
      }
      case 0xc4: return make_str(value::kind::bin, be(1));
      case 0xc5: return make_str(value::kind::bin, be(2));
      case 0xc6: return make_str(value::kind::bin, be(4));
      case 0xc7: return make_ext(be(1));
      case 0xc8: return make_ext(be(2));
      case 0xc9: return make_ext(be(4));
      case 0xca: {
        const uint32_t bits = static_cast<uint32_t>(be(4));
        float f;
        std::memcpy(&f, &bits, 4);
        value v;
        v.k = value::kind::float_;
        v.f = f;
        return v;
      }
      case 0xcb: {
        const uint64_t bits = be(8);
        double d;
        std::memcpy(&d, &bits, 8);
        value v;
        v.k = value::kind::float_;
        v.f = d;
        return v;
      }
      case 0xcc: return make_uint(be(1));
      case 0xcd: return make_uint(be(2));
      case 0xce: return make_uint(be(4));
      case 0xcf: return make_uint(be(8));
      case 0xd0: return make_int(static_cast<int8_t>(be(1)));
      case 0xd1: return make_int(static_cast<int16_t>(be(2)));
      case 0xd2: return make_int(static_cast<int32_t>(be(4)));
      case 0xd3: return make_int(static_cast<int64_t>(be(8)));
      case 0xd4: return make_ext(1);
      case 0xd5: return make_ext(2);
      case 0xd6: return make_ext(4);
      case 0xd7: return make_ext(8);
      case 0xd8: return make_ext(16);
      case 0xd9: return make_str(value::kind::str, be(1));
      case 0xda: return make_str(value::kind::str, be(2));
      case 0xdb: return make_str(value::kind::str, be(4));
      case 0xdc: return parse_array(be(2), depth);
      case 0xdd: return parse_array(be(4), depth);
      case 0xde: return parse_map(be(2), depth);
      case 0xdf: return parse_map(be(4), depth);
      default: break;  // 0xc1 is never used
    }
    --pos_;
    fail("invalid type byte 0xc1");
  }

  std::span<const uint8_t> bytes_;
  size_t pos_ = 0;
};

}  // namespace
}  // namespace detail

const value* value::find(std::string_view name) const {
  if (k != kind::map) return nullptr;
  for (size_t i = 0; i + 1 < items.size(); i += 2)
    if (items[i].k == kind::str && items[i].s == name) return &items[i + 1];
  return nullptr;
}

bool value::get_u64(uint64_t& out) const {
  if (k != kind::uint) return false;
  out = u;
  return true;
}

std::string value::brief() const {
  switch (k) {
    case kind::nil: return "nil";
    case kind::boolean: return b ? "true" : "false";
    case kind::int_: return std::to_string(i);
    case kind::uint: return std::to_string(u);
    case kind::float_: return std::to_string(f);
    case kind::str: {
      // Diagnostics are one line: control bytes from a hostile note become '?'.
      std::string shown = s.substr(0, 40);
      for (char& c : shown)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
      return "\"" + shown + (s.size() > 40 ? "...\"" : "\"");
    }
    case kind::bin: return "<" + std::to_string(s.size()) + " binary bytes>";
    case kind::array: return "[array of " + std::to_string(items.size()) + "]";
    case kind::map: return "{map of " + std::to_string(items.size() / 2) + "}";
    case kind::ext: return "<ext>";
  }
  return "?";
}

value parse(std::span<const uint8_t> bytes) { return detail::reader(bytes).parse_all(); }

}  // namespace hipasm::sim::msgpack

// Host side of the device debug log (debug_log.hpp): make the buffer, decode and print it.
// Host-only (std::string, stdio): include it in the program that launches the kernel.
//
//   std::vector<uint32_t> buf = hipasm::debug_log_buffer(4096);   // room for 4096 records
//   ... upload buf, pass its device address as the kernel's log argument, launch, download ...
//   hipasm::print_debug_log(buf);            // or decode_debug_log(buf) for the records
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../dtype.hpp"

namespace hipasm {

struct debug_record {
  uint32_t tag = 0;
  dtype type = dtype::u32;
  bool scalar = false;       // an SGPR value (logged once, by the first active lane)
  uint32_t line = 0;         // source line of the log call
  uint32_t workgroup = 0;    // workgroup id x
  uint32_t workgroup_y = 0, workgroup_z = 0;
  uint32_t wave = 0, lane = 0;
  uint64_t bits = 0;         // the value (low word first)
  uint32_t order = 0;        // append order
};

// An empty log buffer with room for `records` records (the words the kernel expects).
inline std::vector<uint32_t> debug_log_buffer(uint32_t records) {
  std::vector<uint32_t> b(8 + 8 * static_cast<size_t>(records), 0);
  b[1] = records;
  return b;
}

// The records, by tag, workgroup (z, y, x), wave, lane, then in the order each lane appended them.
// `dropped` (optional) receives how many did not fit.
inline std::vector<debug_record> decode_debug_log(const std::vector<uint32_t>& buf, uint32_t* dropped = nullptr) {
  std::vector<debug_record> r;
  if (buf.size() < 8) return r;
  const uint32_t appended = buf[0], cap = buf[1];
  const uint32_t n = std::min<uint64_t>({appended, cap, (buf.size() - 8) / 8});
  if (dropped) *dropped = appended > n ? appended - n : 0;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t* w = &buf[8 + 8 * static_cast<size_t>(i)];
    debug_record d;
    d.tag = w[0] & 0xffff;
    d.type = static_cast<dtype>((w[0] >> 16) & 0xff);
    d.scalar = (w[0] >> 24) & 1;
    d.line = w[1];
    d.workgroup = w[2];
    d.workgroup_y = w[6];
    d.workgroup_z = w[7];
    d.wave = w[3] >> 16;
    d.lane = w[3] & 0xffff;
    d.bits = w[4] | static_cast<uint64_t>(w[5]) << 32;
    d.order = i;
    r.push_back(d);
  }
  std::stable_sort(r.begin(), r.end(), [](const debug_record& a, const debug_record& b) {
    if (a.tag != b.tag) return a.tag < b.tag;
    if (a.workgroup_z != b.workgroup_z) return a.workgroup_z < b.workgroup_z;
    if (a.workgroup_y != b.workgroup_y) return a.workgroup_y < b.workgroup_y;
    if (a.workgroup != b.workgroup) return a.workgroup < b.workgroup;
    if (a.wave != b.wave) return a.wave < b.wave;
    if (a.lane != b.lane) return a.lane < b.lane;
    return a.order < b.order;
  });
  return r;
}

// The value as its dtype prints it ("1.5", "-3", "0x1234abcd", "(1.5, 2)" for packed pairs).
inline std::string format_debug_value(const debug_record& d) {
  char s[96];
  const uint32_t lo = static_cast<uint32_t>(d.bits);
  auto half = [](uint16_t h, bool bf) {
    float f;
    if (bf) {
      uint32_t u = uint32_t{h} << 16;
      std::memcpy(&f, &u, 4);
    } else {
      _Float16 x;
      std::memcpy(&x, &h, 2);
      f = static_cast<float>(x);
    }
    return static_cast<double>(f);
  };
  switch (d.type) {
    case dtype::f32: {
      float f;
      std::memcpy(&f, &lo, 4);
      std::snprintf(s, sizeof s, "%g", static_cast<double>(f));
      break;
    }
    case dtype::f64: {
      double f;
      std::memcpy(&f, &d.bits, 8);
      std::snprintf(s, sizeof s, "%g", f);
      break;
    }
    case dtype::i32: std::snprintf(s, sizeof s, "%d", static_cast<int32_t>(lo)); break;
    case dtype::u32: std::snprintf(s, sizeof s, "%u (0x%08x)", lo, lo); break;
    case dtype::i64: std::snprintf(s, sizeof s, "%lld", static_cast<long long>(d.bits)); break;
    case dtype::u64: std::snprintf(s, sizeof s, "%llu", static_cast<unsigned long long>(d.bits)); break;
    case dtype::f16x2:
    case dtype::bf16x2:
      std::snprintf(s, sizeof s, "(%g, %g)", half(static_cast<uint16_t>(lo), d.type == dtype::bf16x2),
                    half(static_cast<uint16_t>(lo >> 16), d.type == dtype::bf16x2));
      break;
    default: std::snprintf(s, sizeof s, "0x%08x", lo); break;
  }
  return s;
}

// One line per record: "tag 3 line 42 wg 2,0,1 wave 1 lane 17 f32 1.5" (workgroup id x,y,z;
// "lane -" for an SGPR value).
inline std::string format_debug_log(const std::vector<uint32_t>& buf) {
  uint32_t dropped = 0;
  std::string out;
  for (const debug_record& d : decode_debug_log(buf, &dropped)) {
    char s[160];
    if (d.scalar)
      std::snprintf(s, sizeof s, "tag %u line %u wg %u,%u,%u wave %u lane - %s ", d.tag, d.line, d.workgroup,
                    d.workgroup_y, d.workgroup_z, d.wave, std::string(dtype_name(d.type)).c_str());
    else
      std::snprintf(s, sizeof s, "tag %u line %u wg %u,%u,%u wave %u lane %u %s ", d.tag, d.line, d.workgroup,
                    d.workgroup_y, d.workgroup_z, d.wave, d.lane, std::string(dtype_name(d.type)).c_str());
    out += s;
    out += format_debug_value(d);
    out += '\n';
  }
  if (dropped) {  // (appended piece by piece: GCC 12 at -O2 warns -Wrestrict, falsely, in "(" + std::string)
    out += '(';
    out += std::to_string(dropped);
    out += " records did not fit in the buffer)\n";
  }
  return out;
}

inline void print_debug_log(const std::vector<uint32_t>& buf, std::FILE* to = stdout) {
  std::fputs(format_debug_log(buf).c_str(), to);
}

}  // namespace hipasm

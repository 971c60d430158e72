// Test rig for VALU/MFMA semantics: assembles one instruction with llvm-mc-22 (the syntax
// oracle), decodes it with the simulator's decoder, and runs its handler on a wave whose
// registers the test fills. Expected values come from plain C++ in each test.
#pragma once
#include <algorithm>
#include <array>
#include <cstdlib>
#include <unistd.h>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core.hpp"
#include "decode.hpp"

namespace valu_test {

using namespace hipasm::sim;

// Encodes `text` for gfx942 with llvm-mc-22; throws with llvm-mc's message on failure.
inline std::vector<uint8_t> assemble(const std::string& text) {
  static std::map<std::string, std::vector<uint8_t>> cache;
  if (auto it = cache.find(text); it != cache.end()) return it->second;
  char tmpl[] = "/tmp/hipasm_valu_XXXXXX";
  int fd = mkstemp(tmpl);
  if (fd < 0) throw std::runtime_error("mkstemp failed");
  std::string body = text + "\n";
  if (write(fd, body.data(), body.size()) != ssize_t(body.size())) throw std::runtime_error("write failed");
  close(fd);
  std::string cmd = "llvm-mc-22 -arch=amdgcn -mcpu=gfx942 -show-encoding " + std::string(tmpl) + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) throw std::runtime_error("cannot run llvm-mc-22");
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  std::remove(tmpl);
  auto pos = out.find("encoding: [");
  if (pos == std::string::npos) throw std::runtime_error("llvm-mc-22 rejected '" + text + "': " + out);
  std::vector<uint8_t> bytes;
  const char* s = out.c_str() + pos + 11;
  while (*s && *s != ']') {
    if (*s == '0' && s[1] == 'x') {
      bytes.push_back(uint8_t(std::strtoul(s, const_cast<char**>(&s), 16)));
    } else {
      ++s;
    }
  }
  cache[text] = bytes;
  return bytes;
}

struct Rig {
  Wave w;
  Rig() {
    w.vgpr.assign(size_t(kMaxVgprs) * kLanes, 0);
    w.exec = ~0ull;
    // MODE: round nearest, f32 and f16/f64 denormals kept, DX10 clamp, IEEE (clang's
    // defaults for gfx942 kernels).
    w.mode = 0xf0u | (1u << 8) | (1u << 9);
    w.accum_offset = 256;
  }
  uint32_t* v(int r) { return w.v(unsigned(r)); }
  uint32_t* a(int r) { return w.a(unsigned(r)); }
  // Decodes and runs `text`; returns the decoded instruction.
  Inst run(const std::string& text) {
    std::vector<uint8_t> b = assemble(text);
    b.resize(16, 0);
    Inst in = decode_one(b, 0);
    if (in.mnemonic.empty()) throw std::runtime_error("simulator cannot decode '" + text + "'");
    in.exec = Registry::get().find(in.mnemonic);
    if (!in.exec) throw std::runtime_error("no handler for " + in.mnemonic + " ('" + text + "')");
    w.cur = &in;
    in.exec(w, in);
    w.cur = nullptr;
    return in;
  }
};

// Interesting 32-bit patterns: integer and float edge values, then random.
inline std::vector<uint32_t> edge_u32(uint32_t seed, size_t n = kLanes) {
  std::vector<uint32_t> v = {0u, 1u, 2u, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0xfffffffeu, 0x80000001u,
                             31u, 32u, 33u, 0xffffu, 0x10000u, 0x00ffffffu, 0x01000000u, 0xff800000u,
                             0x3f800000u, 0xbf800000u, 0x7f800000u, 0x7fc00000u, 0x00000001u, 0x807fffffu,
                             0x00800000u, 0x4b000000u, 0xcf000000u, 0x4f800000u, 0x3effffffu, 0x80u};
  std::mt19937 rng(seed);
  while (v.size() < n) v.push_back(rng());
  v.resize(n);
  std::shuffle(v.begin(), v.end(), rng);
  return v;
}
// Float values: zeros, ones, denormals, infinities, NaN, large/small, random magnitudes.
inline std::vector<float> edge_f32(uint32_t seed, size_t n = kLanes) {
  std::vector<float> v = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.0f, 3.0f, -7.25f, 1e-40f, -1e-41f,
                          1.17549435e-38f, 3.4e38f, -3.4e38f, INFINITY, -INFINITY, NAN, 1e30f, 1e-30f,
                          0.1f, 100.0f, 65504.0f, 1.0e-7f, 2147483520.0f, 4294967040.0f, -2147483648.0f,
                          2.5f, -2.5f, 0.49999997f, 8388609.0f};
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> mag(-30.0f, 30.0f);
  std::uniform_real_distribution<float> sgn(-1.0f, 1.0f);
  while (v.size() < n) v.push_back(std::copysign(std::exp2(mag(rng)), sgn(rng)));
  v.resize(n);
  std::shuffle(v.begin(), v.end(), rng);
  return v;
}

inline uint32_t fbits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline float bitsf(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
inline uint64_t dbits(double d) { uint64_t u; std::memcpy(&u, &d, 8); return u; }
inline double bitsd(uint64_t u) { double d; std::memcpy(&d, &u, 8); return d; }

// Equal as floats, treating every NaN as equal to every NaN.
inline bool same_f32(uint32_t a, uint32_t b) {
  float x = bitsf(a), y = bitsf(b);
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  return a == b;
}
// Distance in units in the last place (same sign assumed; NaN handled by the caller).
inline int64_t ulp_diff(float a, float b) {
  int32_t x = int32_t(fbits(a)), y = int32_t(fbits(b));
  if (x < 0) x = int32_t(0x80000000u) - x;
  if (y < 0) y = int32_t(0x80000000u) - y;
  return std::llabs(int64_t(x) - int64_t(y));
}

}  // namespace valu_test

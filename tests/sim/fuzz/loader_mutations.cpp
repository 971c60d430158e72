// Deterministic robustness test of the loader (runs everywhere, with ASan/UBSan when the
// compiler has them): thousands of truncations, byte flips and field overwrites of real
// clang-22 code objects. Each mutant must load or be refused with a one-line sim::error;
// a crash, a sanitizer report or any other exception fails the test.
// Usage: sim_loader_mutations SEED ITERATIONS CODE_OBJECT...
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "loader_entry.hpp"

namespace {

std::vector<uint8_t> read_all(const char* path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    std::fprintf(stderr, "cannot open %s\n", path);
    std::exit(2);
  }
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// Values that tend to break size arithmetic.
const uint64_t kInteresting[] = {0, 1, 7, 8, 63, 64, 255, 256, 0x7fff, 0xffff, 0x7fffffff,
                                 0x80000000, 0xffffffff, 0x100000000ull, 0x7fffffffffffffffull,
                                 0x8000000000000000ull, ~0ull, ~0ull - 7};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s SEED ITERATIONS CODE_OBJECT...\n", argv[0]);
    return 2;
  }
  std::mt19937_64 rng(std::strtoull(argv[1], nullptr, 0));
  const long iterations = std::strtol(argv[2], nullptr, 0);
  long loaded = 0, refused = 0;
  for (int f = 3; f < argc; ++f) {
    const std::vector<uint8_t> good = read_all(argv[f]);
    std::string why;
    if (!loader_fuzz::exercise(good, &why)) {
      std::fprintf(stderr, "%s: the unmodified code object is refused: %s\n", argv[f], why.c_str());
      return 1;
    }
    // Where the interesting structure is: headers, the section table, notes, descriptors.
    uint64_t shoff = 0;
    std::memcpy(&shoff, good.data() + 40, 8);
    for (long i = 0; i < iterations; ++i) {
      std::vector<uint8_t> b = good;
      const auto pick = [&](uint64_t n) { return n ? rng() % n : 0; };
      switch (rng() % 6) {
        case 0:  // truncation anywhere
          b.resize(pick(good.size()));
          break;
        case 1:  // 1-8 random bit flips anywhere
          for (int n = 1 + pick(8); n > 0; --n) b[pick(b.size())] ^= uint8_t(1u << pick(8));
          break;
        case 2:  // random bytes in the ELF header / program headers
          for (int n = 1 + pick(4); n > 0; --n) b[pick(std::min<size_t>(b.size(), 0x240))] = uint8_t(rng());
          break;
        case 3:  // an interesting 2/4/8-byte value in the section header table
          if (shoff < b.size()) {
            const uint64_t at = shoff + pick(b.size() - shoff);
            const uint64_t v = kInteresting[pick(std::size(kInteresting))];
            const size_t w = size_t{2} << pick(3);
            if (at + w <= b.size()) std::memcpy(b.data() + at, &v, w);
          }
          break;
        case 4:  // bytes of the metadata note (msgpack) and the descriptors (.rodata)
          for (int n = 1 + pick(3); n > 0; --n) b[0x238 + pick(std::min<size_t>(b.size(), 0x1000) - 0x238)] = uint8_t(rng());
          break;
        case 5:  // an interesting value at a random 8-aligned place
          {
            const uint64_t at = pick(b.size() / 8) * 8;
            const uint64_t v = kInteresting[pick(std::size(kInteresting))];
            if (at + 8 <= b.size()) std::memcpy(b.data() + at, &v, 8);
          }
          break;
      }
      why.clear();
      if (loader_fuzz::exercise(b, &why)) {
        ++loaded;
      } else {
        ++refused;
        if (why.empty() || why.find('\n') != std::string::npos) {
          std::fprintf(stderr, "mutant %ld of %s: refusal is not one non-empty line: '%s'\n", i, argv[f], why.c_str());
          return 1;
        }
      }
    }
  }
  std::printf("%ld mutants loaded, %ld refused, none crashed\n", loaded, refused);
  // A mutation loop that never reaches the refusal paths would prove nothing.
  return refused > 0 && loaded > 0 ? 0 : 1;
}

// hipasm-difftest-run: runs every kernel of a generated batch (gen.py) in hipasm-sim and
// compares every output word with the batch's plain C++ reference (a shared object with
// difftest_abi.h's table). Any checker report is a failure too: hipasm's code must be clean.
//
//   hipasm-difftest-run <batch.co> <batch_ref.so> [--seed N] [--groups G] [--kernel NAME] [--verbose]
//
// Each kernel runs with the launch shape its reference library gives (difftest_kernel_shapes;
// without it: G workgroups of 64 lanes, G = 2 by default).
//
// Prints one line per failing kernel ("FAIL <kernel> <class>: ...") and a summary
// ("difftest: kernels=... passed=... failed=... wrong=... checker=... error=... ub=...
// instructions=..."); exits 1 when a kernel fails.
#include <dlfcn.h>

#include <hipasm/rt/launcher.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <random>
#include <string>
#include <vector>

#include "difftest_abi.h"
#include "ref_prelude.hpp"

namespace rt = hipasm::rt;

namespace {

const uint32_t kIntEdges[] = {0,          1,          2,          3,          7,          8,
                              15,         16,         31,         32,         33,         63,
                              64,         100,        255,        256,        1000,       65535,
                              65536,      0x7ffffffe, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe,
                              0xffffffff, 0xfffffff0, 0xffffff9c, 0x12345678, 0xdeadbeef, 0x55555555};

uint32_t random_int(std::mt19937_64& g) {
  switch (g() % 5) {
    case 0: return kIntEdges[g() % (sizeof(kIntEdges) / sizeof(kIntEdges[0]))];
    case 1: return static_cast<uint32_t>(static_cast<int32_t>(g() % 41) - 20);  // small, both signs
    case 2: return static_cast<uint32_t>(g() % 300);
    case 3: return static_cast<uint32_t>(g()) >> (g() % 32);
    default: return static_cast<uint32_t>(g());
  }
}

// Finite floats of moderate size (sums and products stay finite for a while), zeros of both
// signs, small integers, an occasional denormal.
uint32_t random_float(std::mt19937_64& g) {
  switch (g() % 8) {
    case 0: return std::bit_cast<uint32_t>(static_cast<float>(static_cast<int>(g() % 21) - 10));
    case 1: return g() % 2 ? 0x80000000u : 0u;
    case 2: return static_cast<uint32_t>(g() % 0x7fffff) | (g() % 2 ? 0x80000000u : 0u);  // denormal
    default: {
      float m = 1.0f + static_cast<float>(g() % (1u << 23)) / static_cast<float>(1u << 23);
      int e = static_cast<int>(g() % 25) - 12;
      float f = std::ldexp(m, e);
      return std::bit_cast<uint32_t>(g() % 2 ? -f : f);
    }
  }
}

bool same_float_word(uint32_t a, uint32_t b) {
  if (a == b) return true;
  return std::isnan(std::bit_cast<float>(a)) && std::isnan(std::bit_cast<float>(b));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <batch.co> <batch_ref.so> [--seed N] [--groups G] [--kernel NAME] [--verbose]\n",
                 argv[0]);
    return 2;
  }
  uint64_t seed = 1;
  uint32_t groups = 2;
  std::string only;
  bool verbose = false;
  for (int i = 3; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--seed" && i + 1 < argc) seed = std::stoull(argv[++i]);
    else if (a == "--groups" && i + 1 < argc) groups = static_cast<uint32_t>(std::stoul(argv[++i]));
    else if (a == "--kernel" && i + 1 < argc) only = argv[++i];
    else if (a == "--verbose") verbose = true;
    else {
      std::fprintf(stderr, "hipasm-difftest-run: unknown option '%s'\n", a.c_str());
      return 2;
    }
  }
  void* lib = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    std::fprintf(stderr, "hipasm-difftest-run: cannot load the reference %s: %s\n", argv[2], dlerror());
    return 2;
  }
  auto count_fn = reinterpret_cast<uint32_t (*)()>(dlsym(lib, "difftest_kernel_count"));
  auto table_fn = reinterpret_cast<const difftest_kernel* (*)()>(dlsym(lib, "difftest_kernel_table"));
  if (!count_fn || !table_fn) {
    std::fprintf(stderr, "hipasm-difftest-run: %s has no difftest_kernel_table\n", argv[2]);
    return 2;
  }
  const uint32_t n = count_fn();
  const difftest_kernel* table = table_fn();
  auto shapes_fn = reinterpret_cast<const difftest_shape* (*)()>(dlsym(lib, "difftest_kernel_shapes"));
  const difftest_shape* shapes = shapes_fn ? shapes_fn() : nullptr;

  std::unique_ptr<rt::device> dev;
  std::unique_ptr<rt::module> mod;
  try {
    dev = rt::device::open(rt::backend::sim);
    mod = dev->load_file(argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hipasm-difftest-run: %s\n", e.what());
    return 2;
  }

  unsigned kernels = 0, passed = 0, wrong = 0, checker = 0, errors = 0, ub = 0;
  uint64_t executed = 0;
  for (uint32_t k = 0; k < n; ++k) {
    const difftest_kernel& K = table[k];
    if (!only.empty() && only != K.name) continue;
    ++kernels;
    std::mt19937_64 g(seed * 0x9e3779b97f4a7c15ull + std::hash<std::string>{}(K.name));
    difftest_shape sh{{64, 1, 1}, {groups, 1, 1}};
    if (shapes) sh = shapes[k];
    const uint32_t ngroups = sh.grid[0] * sh.grid[1] * sh.grid[2];
    const uint32_t ws = sh.block[0] * sh.block[1] * sh.block[2];
    if (ws == 0 || ws > 1024 || ngroups == 0 || ngroups > 65536) {
      std::fprintf(stderr, "hipasm-difftest-run: %s: bad launch shape (%u lanes a workgroup, %u workgroups)\n", K.name,
                   ws, ngroups);
      return 2;
    }
    const uint32_t lanes = ngroups * ws;
    std::vector<uint32_t> in(static_cast<size_t>(lanes) * K.nin), sin(static_cast<size_t>(ngroups) * K.nsin);
    for (size_t i = 0; i < in.size(); ++i) in[i] = K.in_types[i % K.nin] == 'f' ? random_float(g) : random_int(g);
    for (auto& w : sin) w = random_int(g);
    uint32_t args[4];
    for (auto& a : args) a = g() % 3 ? static_cast<uint32_t>(g() % 40) - 8 : random_int(g);
    std::vector<uint32_t> init(static_cast<size_t>(lanes) * K.nout);
    for (size_t i = 0; i < init.size(); ++i) init[i] = 0xdead0000u ^ static_cast<uint32_t>(i);

    std::vector<uint32_t> want = init;
    difftest::undefined_behaviour = false;
    K.ref(in.data(), sin.data(), args, want.data(), ngroups);
    if (difftest::undefined_behaviour) {
      ++ub;
      std::printf("FAIL %s generator: the reference divides by zero or INT_MIN by -1 (features %s)\n", K.name,
                  K.features);
      continue;
    }

    std::vector<uint32_t> got;
    rt::launch_report rep;
    try {
      rt::buffer<uint32_t> bin(*dev, in), bsin(*dev, sin), bout(*dev, init);
      rt::kernel_args ka;
      ka.add(bout.ptr()).add(bin.ptr()).add(bsin.ptr());
      ka.add(static_cast<int>(args[0])).add(static_cast<int>(args[1])).add(args[2]).add(args[3]);
      rt::launch_options opts;
      opts.threads = 1;
      opts.instruction_budget = 50'000'000;
      rep = dev->launch(*mod, K.name, {sh.grid[0], sh.grid[1], sh.grid[2]}, {sh.block[0], sh.block[1], sh.block[2]}, ka, opts);
      got = bout.download();
    } catch (const std::exception& e) {
      ++errors;
      std::printf("FAIL %s sim-error: %s (features %s)\n", K.name, e.what(), K.features);
      continue;
    }
    executed += rep.instructions;
    bool bad = false;
    if (!rep.diagnostics.empty()) {
      ++checker;
      bad = true;
      std::printf("FAIL %s checker: %zu report(s), first: %s (features %s)\n", K.name, rep.diagnostics.size(),
                  rep.diagnostics[0].c_str(), K.features);
      if (verbose)
        for (const auto& d : rep.diagnostics) std::printf("  %s\n", d.c_str());
    }
    unsigned mism = 0;
    std::string first;
    std::vector<unsigned> bad_slots;
    for (size_t i = 0; i < got.size(); ++i) {
      const uint32_t slot = static_cast<uint32_t>(i % K.nout);
      const bool ok = K.out_types[slot] == 'f' ? same_float_word(got[i], want[i]) : got[i] == want[i];
      if (ok) continue;
      if (mism == 0) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "lane %zu slot %u: got 0x%08x, C++ says 0x%08x", i / K.nout, slot, got[i],
                      want[i]);
        first = buf;
      }
      if (bad_slots.size() < 8 && (bad_slots.empty() || bad_slots.back() != slot)) {
        bool seen = false;
        for (unsigned s : bad_slots) seen |= s == slot;
        if (!seen) bad_slots.push_back(slot);
      }
      ++mism;
      if (verbose && mism <= 40)
        std::printf("  %s: lane %zu slot %u: got 0x%08x, C++ says 0x%08x\n", K.name, i / K.nout, slot, got[i], want[i]);
    }
    if (mism) {
      ++wrong;
      std::string slots;
      for (unsigned s : bad_slots) slots += (slots.empty() ? "" : ",") + std::to_string(s);
      std::printf("FAIL %s wrong: %u word(s) differ, first %s; slots %s (features %s)\n", K.name, mism,
                  first.c_str(), slots.c_str(), K.features);
      bad = true;
    }
    if (!bad) ++passed;
    else if (mism == 0) (void)0;
  }
  std::printf("difftest: kernels=%u passed=%u failed=%u wrong=%u checker=%u error=%u ub=%u instructions=%llu\n", kernels,
              passed, kernels - passed, wrong, checker, errors, ub, static_cast<unsigned long long>(executed));
  return passed == kernels ? 0 : 1;
}

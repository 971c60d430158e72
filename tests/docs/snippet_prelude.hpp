// What the documentation's host snippets may use without saying so: the launcher, assert
// (always on: the generated file undefines NDEBUG first) and the standard headers below.
#pragma once
#include <hipasm/hipasm.hpp>
#include <hipasm/rt/launcher.hpp>

#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

using namespace hipasm;

namespace {
int snippets_passed = 0, snippets_failed = 0;

// Runs one snippet; a thrown exception (a launcher error) fails it, a failed assert aborts.
template <class F>
void run(const char* where, F f) {
  try {
    f();
    ++snippets_passed;
    std::printf("ok   %s\n", where);
  } catch (const std::exception& e) {
    ++snippets_failed;
    std::printf("FAIL %s: %s\n", where, e.what());
  }
}

int finish() {
  std::printf("%d passed, %d failed\n", snippets_passed, snippets_failed);
  return snippets_failed == 0 ? 0 : 1;
}
}  // namespace

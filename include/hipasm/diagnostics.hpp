// The first error of a kernel build, with the user's source line.
//
// Building a kernel never stops at an error: the builder records the first one (later ones
// are usually consequences) and keeps going with harmless placeholders, so the whole kernel
// function runs to its end in constant evaluation. The wrapper (kernel.hpp) then turns the
// error into `static_assert(ok, message)`; clang-22 accepts a constexpr message object with
// data()/size() in C++20 as an extension (-Wno-c++26-extensions).
//
// Message format, one line: "<file>:<line>: error: kernel '<name>': <problem>".
#pragma once
#include <cstddef>
#include <cstdint>
#include <source_location>
#include <string_view>
#include "vec.hpp"

#include "ir.hpp"

namespace hipasm {

constexpr src_loc to_src_loc(const std::source_location& l) {
  return src_loc{l.file_name(), static_cast<uint32_t>(l.line())};
}

namespace detail {
// Appends text and numbers to a char vector (std::string is not usable in constant
// evaluation with libstdc++ 12).
struct text {
  vec<char>* out;
  constexpr text& operator<<(std::string_view s) {
    for (char c : s) out->push_back(c);
    return *this;
  }
  constexpr text& operator<<(const char* s) { return *this << std::string_view(s ? s : ""); }
  constexpr text& operator<<(char c) {
    out->push_back(c);
    return *this;
  }
  constexpr text& num(long long v) {
    unsigned long long u = v < 0 ? 0ull - static_cast<unsigned long long>(v) : v;
    if (v < 0) out->push_back('-');
    char buf[24]{};
    int n = 0;
    do {
      buf[n++] = static_cast<char>('0' + u % 10);
      u /= 10;
    } while (u != 0);
    while (n > 0) out->push_back(buf[--n]);
    return *this;
  }
  constexpr text& loc(const src_loc& l) {
    *this << (l.file && l.file[0] ? std::string_view(l.file) : std::string_view("<unknown>"));
    *this << ':';
    return num(l.line);
  }
};
}  // namespace detail

// The first error: where (the user's line) and the one-line message (already formatted).
struct error_info {
  bool failed = false;
  src_loc loc{};
  vec<char> message;  // full line, no trailing newline

  constexpr bool ok() const { return !failed; }
  constexpr const char* data() const { return message.data(); }
  constexpr std::size_t size() const { return message.size(); }
  constexpr std::string_view view() const { return {message.data(), message.size()}; }
};

// A fixed-size copy of an error message, usable as a static_assert message.
template <std::size_t N>
struct error_text {
  char buf[N + 1]{};
  std::size_t len = 0;
  constexpr const char* data() const { return buf; }
  constexpr std::size_t size() const { return len; }
  constexpr std::string_view view() const { return {buf, len}; }
};

}  // namespace hipasm

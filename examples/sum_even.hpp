// pyhip's README kernel in hipasm: *out = the sum of the even numbers below n, computed by one
// wave with a wave-uniform While and If (SCC branches), stored with s_store_dword.
#pragma once
#include <hipasm/builder.hpp>

namespace examples {
using namespace hipasm;

constexpr void sum_even(builder J, arg<int*> out, arg<int> n) {
  auto i = J.sgpr<i32>().named("i");
  auto cnt = J.sgpr<i32>().named("cnt");
  i = 0;
  cnt = 0;
  J.While([&] { return i < n; }, [&] {
    J.If((i & 1) == 0, [&] { cnt = cnt + i; });
    i = i + 1;
  });
  J.s_store_dword(cnt, out, 0, {.glc = true});
  J.s_waitcnt(lgkmcnt(0));
}

}  // namespace examples

// EXPECT: kernarg_preload_all.hip:13: error: kernel '[^']*': kernarg_preload = arg_preload::all: kernel argument 2 .bytes 12..19 of the kernarg segment., read here, cannot be preloaded: clang preloads no struct argument nor any after one
// kernel_options::kernarg_preload = arg_preload::all: every argument the kernel reads must
// arrive in SGPRs; a struct (clang passes it byref and preloads nothing from it on) is a
// compile error at the line that reads it.
#include <hipasm/kernel.hpp>
using namespace hipasm;

struct pair_arg {
  int a, b;
};
constexpr void reads_struct(builder J, arg<int*> out, arg<int> n, arg<pair_arg> p) {
  J.s_store_dword(n, out, 0);
  J.s_store_dword(p.field<int>(4), out, 4);
}
constexpr auto reads_struct_all = with_options<reads_struct, kernel_options{.kernarg_preload = arg_preload::all}>;
extern "C" __attribute__((global)) void kernarg_preload_all(int* out, int n, pair_arg p) {
  HIPASM_KERNEL_BODY(reads_struct_all, out, n, p);
}

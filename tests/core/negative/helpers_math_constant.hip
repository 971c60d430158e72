// EXPECT: helpers_math_constant.hip:9:[0-9]+: note: in instantiation of function template specialization 'hipasm::exp<float>'
// A math helper given a constant (hipasm::exp(2.0f)) has no register to work on: a compile error
// that says to compute it in C++, with the user's line in the note
// (include/hipasm/helpers/math.hpp).
#include <hipasm/hipasm.hpp>
using namespace hipasm;
constexpr void k(builder J, arg<float*> out) {
  auto x = J.vgpr<f32>();
  x = hipasm::exp(2.0f);
  J.global_store_dword(J.thread_id_x() << 2u, x, out);
}
extern "C" __attribute__((global)) void bad(float* out) { HIPASM_KERNEL_BODY(k, out); }

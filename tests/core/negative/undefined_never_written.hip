// EXPECT: undefined_never_written.hip:10: error: kernel 'undefined_never_written': reads 'acc' \(allocated at [^ ]*undefined_never_written.hip:8\), which is never written: .*write it on every path before, or mark it \.allow_undefined\(\) if the value does not matter
// A register read but never written: hardware reads what the last wave left there.
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void bad(builder J, arg<float*> out) {
  auto p = J.vgpr<u64>();
  auto acc = J.vgpr<f32>().named("acc");
  p = out + 0u;
  J.global_store_dword(p, acc, off);
}
extern "C" __attribute__((global)) void undefined_never_written(float* out) { HIPASM_KERNEL_BODY(bad, out); }

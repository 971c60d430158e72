// EXPECT: out_of_vgprs_grouped.hip:15: error: kernel 'out_of_vgprs_grouped': out of VGPRs allocating 'b\[16\]' .*no spilling; live VGPRs: 256 of 256 in use; by array: 'alpha_accumulator' \([^)]*out_of_vgprs_grouped.hip:11\) 20 dwords: v0\[0\] v12\[1\] v24\[2\] .* v228\[19\]; 'beta_accumulator' \([^)]*\) 20 dwords: v1\[0\] v13\[1\] .*'mu_accumulator' \([^)]*\) 20 dwords: v11\[0\] .* v239\[19\]; 'b' \([^)]*out_of_vgprs_grouped.hip:15\) 16 dwords: v240\.\.v255\[0\.\.15\][^ -~]
// Twelve arrays written element by element in turn hold every twelfth VGPR each: the live set
// is listed by array (its line, its total, its registers with their elements) and in full,
// the last array's registers last (the message ends there: a newline follows).
#include <hipasm/kernel.hpp>
using namespace hipasm;
constexpr void too_many(builder J, arg<float*> out) {
  const char* names[12] = {"alpha_accumulator", "beta_accumulator", "gamma_accumulator", "delta_accumulator",
                           "epsilon_accumulator", "zeta_accumulator", "eta_accumulator", "theta_accumulator",
                           "iota_accumulator", "kappa_accumulator", "lambda_accumulator", "mu_accumulator"};
  auto mk = [&](int a) { return J.vgpr<f32>(20).named(names[a]); };
  gpr<f32> arrs[12] = {mk(0), mk(1), mk(2), mk(3), mk(4), mk(5), mk(6), mk(7), mk(8), mk(9), mk(10), mk(11)};
  for (int i = 0; i < 20; ++i)
    for (int a = 0; a < 12; ++a) J.v_mov_b32(arrs[a][i], 1.0f + i + 100 * a);
  auto b = J.vgpr<f32>(40).named("b");
  for (int i = 0; i < 40; ++i) J.v_mov_b32(b[i], 5000.0f + i);
  auto p = J.vgpr<u64>();
  p = out + 0u;
  for (int a = 0; a < 12; ++a)
    for (int i = 0; i < 20; ++i) J.global_store_dword(p, arrs[a][i], off);
  for (int i = 0; i < 40; ++i) J.global_store_dword(p, b[i], off);
}
extern "C" __attribute__((global)) void out_of_vgprs_grouped(float* out) { HIPASM_KERNEL_BODY(too_many, out); }

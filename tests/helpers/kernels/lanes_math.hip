// Kernels of test_lanes_math_sim.cpp: every lanes/math/convert/select helper on per-lane inputs.
// Convention: block 64 (or as the test says), in[i] / out[i] per thread; `n` grids of 64.
#include <hipasm/hipasm.hpp>

using namespace hipasm;

namespace lm {

constexpr gpr<u32> byte_offset(builder J) {
  auto o = J.vgpr<u32>().named("o");
  o = (J.workgroup_id_x() * 64u + J.thread_id_x()) << 2u;
  return o;
}
template <dtype T>
constexpr gpr<T> load(builder J, arg<const float*> in, const gpr<u32>& o) {
  auto v = J.vgpr<f32>();
  J.global_load_dword(v, o, in);
  J.s_waitcnt(vmcnt(0));
  return v.template as<T>();
}

// ---- math: out = f(in) --------------------------------------------------------------------
enum class mf { exp2, exp, log2, log, rcp, rsqrt, sigmoid, silu, tanh, gelu_tanh, gelu_erf,
                exp2_flush, exp_flush, log2_flush, log_flush, rcp_flush, tanh_absolute };
template <mf F>
constexpr void math1(builder J, arg<float*> out, arg<const float*> in) {
  auto o = byte_offset(J);
  auto x = load<f32>(J, in, o);
  auto y = J.vgpr<f32>().named("y");
  if constexpr (F == mf::exp2) y = exp2(x);
  else if constexpr (F == mf::exp) y = exp(x);
  else if constexpr (F == mf::log2) y = log2(x);
  else if constexpr (F == mf::log) y = log(x);
  else if constexpr (F == mf::rcp) y = rcp(x);
  else if constexpr (F == mf::rsqrt) y = rsqrt(x);
  else if constexpr (F == mf::sigmoid) y = sigmoid(x);
  else if constexpr (F == mf::silu) y = silu(x);
  else if constexpr (F == mf::tanh) y = tanh(x);
  else if constexpr (F == mf::gelu_tanh) y = gelu_tanh(x);
  else if constexpr (F == mf::gelu_erf) y = gelu_erf(x);
  else if constexpr (F == mf::exp2_flush) y = exp2(x, {.flush_denormals = true});
  else if constexpr (F == mf::exp_flush) y = exp(x, {.flush_denormals = true});
  else if constexpr (F == mf::log2_flush) y = log2(x, {.flush_denormals = true});
  else if constexpr (F == mf::log_flush) y = log(x, {.flush_denormals = true});
  else if constexpr (F == mf::tanh_absolute) y = tanh(x, {.absolute_error = true});
  else y = rcp(x, {.flush_denormals = true});
  J.global_store_dword(o, y, out);
}

}  // namespace lm

#define MATH(NAME) \
  extern "C" __attribute__((global)) void math_##NAME(float* out, const float* in) { HIPASM_KERNEL_BODY((lm::math1<lm::mf::NAME>), out, in); }
MATH(exp2) MATH(exp) MATH(log2) MATH(log) MATH(rcp) MATH(rsqrt) MATH(sigmoid) MATH(silu) MATH(tanh) MATH(gelu_tanh) MATH(gelu_erf)
MATH(exp2_flush) MATH(exp_flush) MATH(log2_flush) MATH(log_flush) MATH(rcp_flush) MATH(tanh_absolute)

// ---- reductions: out[i] = the value lane i sees (SGPR results copied to every lane) ----------
namespace lm {
enum class rmode { wave, wave_partial, group, group_partial, workgroup, pair, allreduce };
template <reduce R, dtype T, rmode M, int W>
constexpr void red(builder J, arg<unsigned*> out, arg<const float*> in) {
  auto o = byte_offset(J);
  auto x = load<T>(J, in, o);
  auto y = J.vgpr<T>().named("y");
  y = x;  // lanes a partial reduction leaves out keep their input
  if constexpr (M == rmode::wave) {
    auto s = wave_reduce(J, R, x);
    y = s;
  } else if constexpr (M == rmode::allreduce) {
    y = wave_allreduce(J, R, x);
  } else if constexpr (M == rmode::wave_partial) {
    auto lane = lane_id(J);
    J.If(lane % 3u != 0u, [&] { y = wave_reduce(J, R, x); });  // lane 63 is off
  } else if constexpr (M == rmode::group) {
    y = group_reduce(J, R, x, W);
  } else if constexpr (M == rmode::group_partial) {
    auto lane = lane_id(J);
    J.If(lane % 5u != 2u, [&] { y = group_reduce(J, R, x, W); });
  } else if constexpr (M == rmode::workgroup) {
    auto scratch = J.lds<float>(4, 16);
    auto s = workgroup_reduce(J, R, x, scratch, 4);
    y = s;
  } else {
    // two values at once: x and x * 3 (interleaved chains)
    auto two = J.vgpr<T>(2);
    two[0] = x;
    if constexpr (T == f32) two[1] = x * 3.0f;
    else two[1] = x * 3;
    auto s = wave_reduce(J, R, two);
    y = s[0];
    auto z = J.vgpr<T>();
    z = s[1];
    J.global_store_dword(o + 256u * 64u * 4u, z.template as<u32>(), out);
  }
  J.global_store_dword(o, y.template as<u32>(), out);
}
}  // namespace lm
#define RED(NAME, R, T, M, W) \
  extern "C" __attribute__((global)) void red_##NAME(unsigned* out, const float* in) { HIPASM_KERNEL_BODY((lm::red<reduce::R, dtype::T, lm::rmode::M, W>), out, in); }
#define RED_OPS(T) \
  RED(sum_##T##_wave, sum, T, wave, 64) RED(max_##T##_wave, max, T, wave, 64) RED(min_##T##_wave, min, T, wave, 64) \
  RED(sum_##T##_wave_partial, sum, T, wave_partial, 64) RED(max_##T##_wave_partial, max, T, wave_partial, 64) \
  RED(min_##T##_wave_partial, min, T, wave_partial, 64) RED(sum_##T##_all, sum, T, allreduce, 64) \
  RED(max_##T##_all, max, T, allreduce, 64) RED(sum_##T##_pair, sum, T, pair, 64) RED(max_##T##_pair, max, T, pair, 64) \
  RED(sum_##T##_wg, sum, T, workgroup, 64) RED(max_##T##_wg, max, T, workgroup, 64) RED(min_##T##_wg, min, T, workgroup, 64) \
  RED(sum_##T##_g2, sum, T, group, 2) RED(max_##T##_g4, max, T, group, 4) RED(min_##T##_g8, min, T, group, 8) \
  RED(sum_##T##_g16, sum, T, group, 16) RED(max_##T##_g32, max, T, group, 32) RED(sum_##T##_g32, sum, T, group, 32) \
  RED(max_##T##_g16p, max, T, group_partial, 16) RED(sum_##T##_g32p, sum, T, group_partial, 32) \
  RED(min_##T##_g4p, min, T, group_partial, 4)
RED_OPS(f32)
RED_OPS(i32)
RED_OPS(u32)

// ---- DPP controls by name: out = x read through the control (dpp_value), x = lane * 7 + 100 ---
namespace lm {
template <int K>
constexpr dpp_ctrl dpp_case() {
  if constexpr (K == 0) return dpp::quad_perm(3, 1, 0, 2);
  else if constexpr (K == 1) return dpp::row_shl(3);
  else if constexpr (K == 2) return dpp::row_shr(5);
  else if constexpr (K == 3) return dpp::row_ror(7);
  else if constexpr (K == 4) return dpp::wave_shl();
  else if constexpr (K == 5) return dpp::wave_shr();
  else if constexpr (K == 6) return dpp::wave_rol();
  else if constexpr (K == 7) return dpp::wave_ror();
  else if constexpr (K == 8) return dpp::row_mirror();
  else if constexpr (K == 9) return dpp::row_half_mirror();
  else if constexpr (K == 10) return dpp::row_bcast15();
  else return dpp::row_bcast31();
}
template <int K>
constexpr void dpp_k(builder J, arg<unsigned*> out) {
  auto o = byte_offset(J);
  auto x = J.vgpr<u32>();
  x = lane_id(J) * 7u + 100u;
  auto y = J.vgpr<u32>();
  y = dpp_value(x, dpp_case<K>());
  // the instruction-method form with masks, no bound_ctrl: rows 0 and 2, banks 1 and 3 written
  auto z = J.vgpr<u32>();
  z = 5u;
  J.v_add_u32(z, x, x, dpp_case<K>().row_mask(0x5).bank_mask(0xa));
  J.global_store_dword(o, y, out);
  J.global_store_dword(o + 256u, z, out);
}
// SDWA by name: a byte of x into byte 1 of 0x31234 (UNUSED_PRESERVE), and the sign-extended word 1
constexpr void sdwa_k(builder J, arg<unsigned*> out) {
  auto o = byte_offset(J);
  auto x = J.vgpr<u32>();
  x = lane_id(J) * 0x01030507u + 0x80u;
  auto t = J.vgpr<u32>();
  t = 0x31234u;
  J.v_mov_b32(t, x, sdwa().dst_sel(sdwa_sel::byte1).dst_unused(sdwa_unused::preserve).src0_sel(sdwa_sel::byte2));
  auto u = J.vgpr<u32>();
  J.v_mov_b32(u, x, {.sdwa = sdwa().dst_sel(sdwa_sel::word0).dst_unused(sdwa_unused::sext).src0_sel(sdwa_sel::word1)});
  J.global_store_dword(o, t, out);
  J.global_store_dword(o + 256u, u, out);
}
}  // namespace lm
#define DPPK(K) extern "C" __attribute__((global)) void dpp_##K(unsigned* out) { HIPASM_KERNEL_BODY((lm::dpp_k<K>), out); }
DPPK(0) DPPK(1) DPPK(2) DPPK(3) DPPK(4) DPPK(5) DPPK(6) DPPK(7) DPPK(8) DPPK(9) DPPK(10) DPPK(11)
extern "C" __attribute__((global)) void sdwa_named(unsigned* out) { HIPASM_KERNEL_BODY(lm::sdwa_k, out); }

// ---- conditions, select, min3/max3, mul_wide, ids ---------------------------------------------
// a, b per lane (i32), n uniform: out[k * 64 + lane] for the k-th result
namespace lm {
constexpr void cond_k(builder J, arg<int*> out, arg<const int*> av, arg<const int*> bv, arg<int> n) {
  auto o = byte_offset(J);
  auto a = J.vgpr<i32>(), b = J.vgpr<i32>();
  J.global_load_dword(a, o, av);
  J.global_load_dword(b, o, bv);
  J.s_waitcnt(vmcnt(0));
  auto r = J.vgpr<i32>(12);
  r[0] = as_u32((a < b && a != 0) || !(b > 5 || a == n)).as<i32>();  // ! of a lane mask
  r[1] = select(a < b, a, b);
  r[2] = select(a >= n, a, 77);
  r[3] = select(n > 3 && n < 10, a, b);  // uniform condition, per-lane values
  auto s = J.sgpr<i32>();
  s = select<i32>(n > 3 && n < 10, 11, 22);  // all uniform: s_cselect
  r[4] = s;
  auto s2 = J.sgpr<i32>();
  s2 = as_u32(n == 4 || !(n != 7)).as<i32>();
  r[5] = s2;
  r[6] = max3(a, b, n);
  r[7] = min3(a, b, -3);
  auto p = mul_wide(a, b);  // i32 x i32 -> i64
  r[8] = p.lo().as<i32>();
  r[9] = p.hi().as<i32>();
  auto q = mul_wide(a.as<u32>(), b.as<u32>());
  r[10] = q.hi().as<i32>();
  r[11] = 0;
  J.If(a > 0 && (b < n || a == b), [&] { r[11] = 1; }).Else([&] { r[11] = 2; });
  for (int k = 0; k < 12; ++k) J.global_store_dword(o + static_cast<unsigned>(k) * 256u * 4u, r[k], out);
  // uniform results of mul_wide and max3 (SALU)
  auto sn = J.sgpr<i32>();
  sn = n;
  auto sp = mul_wide(sn, -5);
  auto sm = max3(sn, 3, -2);
  auto lane = lane_id(J);
  J.If(lane == 0u, [&] {
    auto v = J.vgpr<i32>(3);
    v[0] = sp.lo().as<i32>();
    v[1] = sp.hi().as<i32>();
    v[2] = sm;
    auto base = J.vgpr<u32>();
    base = J.workgroup_id_x() * 12u + 12u * 256u * 4u;
    J.global_store_dwordx3(base, v, out);
  });
}
// lane_id, wave_id (256-thread workgroups and 2-D 16x8 ones), readlane, readfirstlane
constexpr void ids_k(builder J, arg<unsigned*> out) {
  auto t = J.vgpr<u32>();
  t = J.workgroup_id_x() * 256u + J.thread_id_x();
  auto o = J.vgpr<u32>();
  o = t << 4u;
  auto v = J.vgpr<u32>(4);
  v[0] = lane_id(J);
  v[1] = wave_id(J);
  auto x = J.vgpr<u32>();
  x = J.thread_id_x() * 3u + 1u;
  v[2] = readlane(x, 5u);
  v[3] = readfirstlane(x);
  J.global_store_dwordx4(o, v, out);
}
constexpr void ids2d_k(builder J, arg<unsigned*> out) {
  auto t = J.vgpr<u32>();
  t = J.thread_id_y() * 16u + J.thread_id_x();
  auto o = J.vgpr<u32>();
  o = t << 3u;
  auto v = J.vgpr<u32>(2);
  v[0] = lane_id(J);
  v[1] = wave_id(J, 16);
  J.global_store_dwordx2(o, v, out);
}
}  // namespace lm
extern "C" __attribute__((global)) void cond_sel(int* out, const int* a, const int* b, int n) { HIPASM_KERNEL_BODY(lm::cond_k, out, a, b, n); }
extern "C" __attribute__((global)) void ids(unsigned* out) { HIPASM_KERNEL_BODY(lm::ids_k, out); }
extern "C" __attribute__((global)) void ids2d(unsigned* out) { HIPASM_KERNEL_BODY(lm::ids2d_k, out); }

// ---- conversions: in = f32 per lane; out rows: bf16x2(x, -x), f16x2(x, x/3), fp8x4 sat,
// fp8x4 no sat, bf8x4 sat, bf8x4 no sat, bf16 single, back to f32 (bf16 hi, f16 lo, fp8 byte 2),
// ..., to_f32x2 (rows 14-17), to_bf16x4 of fp8 (18, 19) and bf8 (20, 21)
namespace lm {
constexpr void cvt_k(builder J, arg<unsigned*> out, arg<const float*> in) {
  auto o = byte_offset(J);
  auto x = load<f32>(J, in, o);
  auto y = J.vgpr<f32>();
  y = -x;
  auto h = J.vgpr<f32>();
  h = x * 0.75f;
  auto r = J.vgpr<u32>(22);
  r[0] = cvt_bf16x2(x, y).as<u32>();
  r[12] = cvt_bf16x2(x, y, bf16_round::nearest_even_finite).as<u32>();
  r[13] = cvt_bf16x2(x, y, bf16_round::half_away).as<u32>();
  r[1] = cvt_f16x2(x, h).as<u32>();
  r[2] = cvt_fp8x4(x, y, h, x * 0.01f).as<u32>();
  r[3] = cvt_fp8x4(x, y, h, x * 0.01f, false).as<u32>();
  r[4] = cvt_bf8x4(x, y, h, x * 0.01f).as<u32>();
  r[5] = cvt_bf8x4(x, y, h, x * 0.01f, false).as<u32>();
  r[6] = cvt_bf16(x);
  auto pb = cvt_bf16x2(x, y);
  r[7] = to_f32(pb, 1).as<u32>();
  auto ph = cvt_f16x2(x, h);
  r[8] = to_f32(ph, 0).as<u32>();
  r[9] = to_f32(ph, 1).as<u32>();
  auto p8 = cvt_fp8x4(x, y, h, x);
  r[10] = to_f32(p8, 2).as<u32>();
  auto q8 = cvt_bf8x4(x, y, h, x);
  r[11] = to_f32(q8, 1).as<u32>();
  auto w1 = to_f32x2(p8, 1), w0 = to_f32x2(q8, 0);
  r[14] = w1[0].as<u32>();
  r[15] = w1[1].as<u32>();
  r[16] = w0[0].as<u32>();
  r[17] = w0[1].as<u32>();
  auto b8 = to_bf16x4(p8).as<u32>(), b5 = to_bf16x4(q8).as<u32>();  // fp8 / bf8 (x, y, h, x) as bf16
  r[18] = b8[0];
  r[19] = b8[1];
  r[20] = b5[0];
  r[21] = b5[1];
  for (int k = 0; k < 22; ++k) J.global_store_dword(o + static_cast<unsigned>(k) * 4096u * 4u, r[k], out);
}
// transpose_per_lane: 4x4 of 2-byte and 8x8 of 1-byte elements; src dwords = lane * 16 + k
template <int Bytes>
constexpr void transpose_k(builder J, arg<unsigned*> out) {
  constexpr int R = Bytes == 4 ? 2 : Bytes == 2 ? 4 : 8, C = Bytes == 4 ? 3 : Bytes == 2 ? 6 : 8, N = R * C * Bytes / 4;
  auto lane = lane_id(J);
  auto src = J.vgpr<u32>(N), dst = J.vgpr<u32>(N);
  for (int k = 0; k < N; ++k) src[k] = lane * 0x01010101u + static_cast<unsigned>(k) * 0x04030201u + 0x10203040u;
  transpose_per_lane(J, R, C, Bytes, src, dst);
  auto o = J.vgpr<u32>();
  o = (J.workgroup_id_x() * 64u + J.thread_id_x()) * static_cast<unsigned>(N * 4);
  for (int k = 0; k < N; ++k) J.global_store_dword(o, dst[k], out, {.offset = k * 4});
}
}  // namespace lm
extern "C" __attribute__((global)) void cvt(unsigned* out, const float* in) { HIPASM_KERNEL_BODY(lm::cvt_k, out, in); }
extern "C" __attribute__((global)) void transpose2(unsigned* out) { HIPASM_KERNEL_BODY((lm::transpose_k<2>), out); }
extern "C" __attribute__((global)) void transpose1(unsigned* out) { HIPASM_KERNEL_BODY((lm::transpose_k<1>), out); }
extern "C" __attribute__((global)) void transpose4(unsigned* out) { HIPASM_KERNEL_BODY((lm::transpose_k<4>), out); }

// ---- xor_reduce over lane bits (partial: lanes % 7 == 3 off) and shuffle_xor -------------------
namespace lm {
template <reduce R, dtype T, unsigned Bits, bool Partial>
constexpr void xr_k(builder J, arg<unsigned*> out, arg<const float*> in) {
  auto o = byte_offset(J);
  auto x = load<T>(J, in, o);
  auto y = J.vgpr<T>();
  y = x;
  if constexpr (Partial) {
    auto lane = lane_id(J);
    J.If(lane % 7u != 3u, [&] { y = xor_reduce(J, R, x, Bits); });
  } else {
    y = xor_reduce(J, R, x, Bits, {.all_lanes_active = true});
  }
  J.global_store_dword(o, y.template as<u32>(), out);
}
template <unsigned Mask, bool Lds = false>
constexpr void shx_k(builder J, arg<unsigned*> out) {
  auto o = byte_offset(J);
  auto x = J.vgpr<u32>();
  x = lane_id(J) * 5u + 3u;
  auto y = J.vgpr<u32>();
  y = shuffle_xor(J, x, Mask, {.lds = Lds});
  J.global_store_dword(o, y, out);
}
}  // namespace lm
#define XR(NAME, R, T, BITS, P) \
  extern "C" __attribute__((global)) void xr_##NAME(unsigned* out, const float* in) { HIPASM_KERNEL_BODY((lm::xr_k<reduce::R, dtype::T, BITS, P>), out, in); }
XR(sum_i32_30, sum, i32, 0x30, false) XR(max_f32_30p, max, f32, 0x30, true) XR(sum_u32_20, sum, u32, 0x20, false)
XR(min_i32_0c, min, i32, 0x0c, false) XR(sum_f32_11p, sum, f32, 0x11, true) XR(max_u32_24, max, u32, 0x24, false)
XR(sum_i32_3e, sum, i32, 0x3e, false) XR(max_f32_07, max, f32, 0x07, false)
// three exchanges (DPP pair, ds_swizzle, ds_bpermute) issued before one wait: out = sum of them
namespace lm {
constexpr void shx_batch_k(builder J, arg<unsigned*> out) {
  auto o = byte_offset(J);
  auto x = J.vgpr<u32>();
  x = lane_id(J) * 5u + 3u;
  auto a = shuffle_xor(J, x, 8, {.wait = false});
  auto b = shuffle_xor(J, x, 16, {.wait = false});
  auto c = shuffle_xor(J, x, 33, {.wait = false});
  J.s_waitcnt(lgkmcnt(0));
  auto y = J.vgpr<u32>();
  y = a * 10000u + b * 100u + c;
  J.global_store_dword(o, y, out);
}
}  // namespace lm
extern "C" __attribute__((global)) void shx_batch(unsigned* out) { HIPASM_KERNEL_BODY(lm::shx_batch_k, out); }
// 520 chained exchanges with masks 4 and 8: each result must be live only from its exchange on
// (a result whose first write merged into its old value was live from the kernel start, and
// this kernel ran out of the 512 VGPRs)
namespace lm {
constexpr void shx_chain_k(builder J, arg<unsigned*> out) {
  auto o = byte_offset(J);
  auto y = J.vgpr<u32>();
  y = lane_id(J) * 5u + 3u;
  for (int i = 0; i < 520; ++i) y = y + shuffle_xor(J, y, i % 2 ? 8u : 4u);
  J.global_store_dword(o, y, out);
}
}  // namespace lm
extern "C" __attribute__((global)) void shx_chain(unsigned* out) { HIPASM_KERNEL_BODY(lm::shx_chain_k, out); }
#define SHX(M) extern "C" __attribute__((global)) void shx_##M(unsigned* out) { HIPASM_KERNEL_BODY((lm::shx_k<M>), out); }
SHX(1) SHX(2) SHX(3) SHX(4) SHX(7) SHX(8) SHX(15) SHX(16) SHX(31) SHX(32) SHX(48) SHX(63)
// {.lds = true}: the masks DPP reaches, through ds_swizzle instead
#define SHX_LDS(M) extern "C" __attribute__((global)) void shx_lds_##M(unsigned* out) { HIPASM_KERNEL_BODY((lm::shx_k<M, true>), out); }
SHX_LDS(1) SHX_LDS(3) SHX_LDS(4) SHX_LDS(8) SHX_LDS(15)

// workgroup_reduce in a 16 x 16 workgroup (4 waves): out[t] = the sum, t = y * 16 + x
namespace lm {
constexpr void wg2d_k(builder J, arg<unsigned*> out, arg<const float*> in) {
  auto o = J.vgpr<u32>();
  o = (J.thread_id_y() * 16u + J.thread_id_x()) << 2u;
  auto x = load<i32>(J, in, o);
  auto s = workgroup_reduce(J, reduce::sum, x, J.lds<int>(4, 16), 4, {.block_x = 16});
  auto y = J.vgpr<i32>();
  y = s;
  J.global_store_dword(o, y.as<u32>(), out);
}
}  // namespace lm
extern "C" __attribute__((global)) void wg2d(unsigned* out, const float* in) { HIPASM_KERNEL_BODY(lm::wg2d_k, out, in); }

// clang's own code for the same operations: the outside oracle
#define REF(NAME, EXPR) \
  extern "C" __attribute__((global)) void ref_##NAME(float* out, const float* in) { \
    int i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x(); float x = in[i]; out[i] = EXPR; }
REF(exp2, __builtin_exp2f(x)) REF(exp, __builtin_expf(x)) REF(log2, __builtin_log2f(x)) REF(log, __builtin_logf(x))
REF(bf16, __builtin_bit_cast(float, (unsigned)__builtin_bit_cast(unsigned short, (__bf16)x)))

#include "tile_fns.hpp"
using namespace tile_fns;
using hipasm::lds_layout;
using hipasm::tile_copy_opts;
constexpr lds_layout f32_64{.rows = 64, .cols = 64, .elem_bytes = 4};
constexpr lds_layout f32_40{.rows = 40, .cols = 64, .elem_bytes = 4};
constexpr lds_layout bf16_pad{.rows = 128, .cols = 64, .elem_bytes = 2, .row_pad = 16};
constexpr lds_layout bf16_swz{.rows = 128, .cols = 64, .elem_bytes = 2, .swz_chunk = 16, .swz_groups = 8};
constexpr lds_layout bf16_pad_swz{.rows = 64, .cols = 64, .elem_bytes = 2, .row_pad = 8, .swz_chunk = 16, .swz_groups = 8};
constexpr lds_layout wide{.rows = 4, .cols = 1024, .elem_bytes = 4};
// rows of two steps, the swizzle's pattern two rows each (direct copies: offsets shared by steps)
constexpr lds_layout wide_swz{.rows = 8, .cols = 512, .elem_bytes = 2, .swz_chunk = 16, .swz_groups = 8, .swz_row_div = 2};
#define K(name, ...)                                   \
  constexpr auto name##_fn = &tile_rt<__VA_ARGS__>;    \
  extern "C" __global__ void name(uint32_t* o, const uint32_t* i, unsigned b, unsigned ld, unsigned org) { \
    HIPASM_KERNEL_BODY(name##_fn, o, i, b, ld, org);   \
  }
K(tile_f32, f32_64, tile_copy_opts{256, 16, false, true})
K(tile_f32_partial, f32_40, tile_copy_opts{256, 16, false, true})
K(tile_bf16_pad, bf16_pad, tile_copy_opts{256, 16, false, true})
K(tile_bf16_swz, bf16_swz, tile_copy_opts{256, 16, false, true})
K(tile_bf16_swz_v8, bf16_swz, tile_copy_opts{128, 8, false, true}, true)
K(tile_wide, wide, tile_copy_opts{256, 16, false, true})
K(tile_direct_f32, f32_64, tile_copy_opts{256, 4, true, true})
K(tile_direct_pad_swz, bf16_pad_swz, tile_copy_opts{256, 4, true, true})
K(tile_direct_swz_cw, bf16_swz, tile_copy_opts{128, 4, true, true}, true)
K(tile_direct_wide, wide, tile_copy_opts{256, 4, true, true})
K(tile_direct_wide_swz, wide_swz, tile_copy_opts{128, 4, true, true})
#define KC(name, ...)                                   \
  constexpr auto name##_fn = &tile_rt_cols<__VA_ARGS__>;    \
  extern "C" __global__ void name(uint32_t* o, const uint32_t* i, unsigned b, unsigned ld, unsigned org, unsigned cv) { \
    HIPASM_KERNEL_BODY(name##_fn, o, i, b, ld, org, cv);   \
  }
KC(tilec_bf16_swz, bf16_swz, tile_copy_opts{256, 16, false, true})
KC(tilec_wide, wide, tile_copy_opts{256, 16, false, true})
KC(tilec_direct_pad_swz, bf16_pad_swz, tile_copy_opts{256, 4, true, true})
KC(tilec_direct_swz, bf16_swz, tile_copy_opts{128, 4, true, true})
KC(tilec_direct_wide_swz, wide_swz, tile_copy_opts{128, 4, true, true})
#define KS(name, ...)                                   \
  constexpr auto name##_fn = &tile_rt_split<__VA_ARGS__>;    \
  extern "C" __global__ void name(uint32_t* o, const uint32_t* i, unsigned b, unsigned ld, unsigned org, unsigned cv) { \
    HIPASM_KERNEL_BODY(name##_fn, o, i, b, ld, org, cv);   \
  }
constexpr lds_layout bf16_gemm{.rows = 128, .cols = 32, .elem_bytes = 2, .swz_chunk = 16, .swz_groups = 4, .swz_row_div = 2};
KS(tiles_bf16_swz, bf16_swz, tile_copy_opts{256, 16, false, false})
KS(tiles_gemm, bf16_gemm, tile_copy_opts{256, 16, false, false})
KS(tiles_elem, bf16_gemm, tile_copy_opts{.threads = 256, .vec_bytes = 4, .wait = false, .elem_loads = true})
KS(tiles_gemm_prep, bf16_gemm, tile_copy_opts{256, 16, false, false}, true)
KS(tiles_elem_prep, bf16_gemm, tile_copy_opts{.threads = 256, .vec_bytes = 4, .wait = false, .elem_loads = true}, true)
KS(tiles_gemm_tail, bf16_gemm, tile_copy_opts{256, 16, false, false}, false, true)
KS(tiles_bf16_swz_tail, bf16_swz, tile_copy_opts{256, 16, false, false}, true, true)
KS(tiles_gemm_tail_defer, bf16_gemm, tile_copy_opts{256, 16, false, false}, false, true, true)
KS(tiles_bf16_swz_tail_defer, bf16_swz, tile_copy_opts{256, 16, false, false}, false, true, true)
#define KSH(name, ...)                                  \
  constexpr auto name##_fn = &tile_rt_shift<__VA_ARGS__>;    \
  extern "C" __global__ void name(uint32_t* o, const uint32_t* i, unsigned b, unsigned ld, unsigned org, unsigned sh) { \
    HIPASM_KERNEL_BODY(name##_fn, o, i, b, ld, org, sh);   \
  }
KSH(tilesh_bf16_swz, bf16_swz, tile_copy_opts{256, 16, false, true})
KSH(tilesh_direct_pad_swz, bf16_pad_swz, tile_copy_opts{256, 4, true, true})
#define KT(name, ...)                                   \
  constexpr auto name##_fn = &tile_rt_transposed<__VA_ARGS__>;    \
  extern "C" __global__ void name(uint32_t* o, const uint32_t* i, unsigned b, unsigned ld, unsigned org, unsigned cv) { \
    HIPASM_KERNEL_BODY(name##_fn, o, i, b, ld, org, cv);   \
  }
// the GEMM's swizzled bf16 tile (2 steps), padded bf16 with 8-byte rows a lane, swizzled f32
// (no register transpose) with a constant stride, bytes (4x4 byte transposes), more column
// groups than lanes (the lane's columns move each step)
constexpr lds_layout bf16_gemm64{.rows = 64, .cols = 64, .elem_bytes = 2, .swz_chunk = 16, .swz_groups = 8};
constexpr lds_layout bf16_pad32{.rows = 128, .cols = 32, .elem_bytes = 2, .row_pad = 16};
constexpr lds_layout f32_swz{.rows = 32, .cols = 64, .elem_bytes = 4, .swz_chunk = 16, .swz_groups = 8};
constexpr lds_layout u8_swz{.rows = 64, .cols = 64, .elem_bytes = 1, .swz_chunk = 16, .swz_groups = 4};
constexpr lds_layout bf16_wide{.rows = 256, .cols = 16, .elem_bytes = 2, .swz_chunk = 16, .swz_groups = 2};
KT(tilet_gemm, bf16_gemm64, tile_copy_opts{.threads = 128}, false)
KT(tilet_gemm_tail, bf16_gemm64, tile_copy_opts{.threads = 128}, true)
KT(tilet_pad_v8_tail, bf16_pad32, tile_copy_opts{.threads = 256, .vec_bytes = 8}, true)
KT(tilet_f32_const, f32_swz, tile_copy_opts{.threads = 256}, true, 32 * 4 + 64)
KT(tilet_u8_tail, u8_swz, tile_copy_opts{.threads = 64}, true)
KT(tilet_wide_tail, bf16_wide, tile_copy_opts{.threads = 64}, true)

#include "lds_fns.hpp"
using namespace lds_fns;
using hipasm::lds_layout;
// plain, padded, swizzled; b128 / b64 / b96 / b32 accesses, promised or not
constexpr lds_layout plain64{.rows = 64, .cols = 64, .elem_bytes = 4};
constexpr lds_layout pad16{.rows = 64, .cols = 64, .elem_bytes = 4, .row_pad = 16};
constexpr lds_layout pad8{.rows = 64, .cols = 64, .elem_bytes = 4, .row_pad = 8};
constexpr lds_layout pad4{.rows = 64, .cols = 64, .elem_bytes = 4, .row_pad = 4};
constexpr lds_layout bf16_sw{.rows = 128, .cols = 64, .elem_bytes = 2, .swz_chunk = 16, .swz_groups = 8};
constexpr lds_layout bf16_sw2{.rows = 64, .cols = 128, .elem_bytes = 2, .swz_chunk = 16, .swz_groups = 4, .swz_row_div = 2};
constexpr lds_layout f32_sw8{.rows = 64, .cols = 64, .elem_bytes = 4, .swz_chunk = 8, .swz_groups = 8};
constexpr lds_layout w3{.rows = 64, .cols = 48, .elem_bytes = 4, .row_pad = 4};
#define K(name, ...)                                        \
  constexpr auto name##_fn = &view_roundtrip<__VA_ARGS__>;  \
  extern "C" __global__ void name(uint32_t* o, uint32_t* d) { HIPASM_KERNEL_BODY(name##_fn, o, d); }
K(rt_plain_b128, plain64, 4, true, 0)
K(rt_pad16_b128, pad16, 4, true, 48)
K(rt_pad8_b128, pad8, 4, true, 0)
K(rt_pad4_b128, pad4, 4, true, 0)
K(rt_nopromise_b128, plain64, 4, false, 0)
K(rt_pad8_b64, pad8, 2, true, 0)
K(rt_w3, w3, 3, true, 0)
K(rt_bf16_sw, bf16_sw, 4, true, 0)
K(rt_bf16_sw2_b64, bf16_sw2, 2, true, 16)
K(rt_f32_sw8_b64, f32_sw8, 2, true, 0)
extern "C" __global__ void pool_phases_k(uint32_t* o) { HIPASM_KERNEL_BODY(pool_phases, o); }
extern "C" __global__ void offset_limits_k(uint32_t* o) { HIPASM_KERNEL_BODY(offset_limits, o); }
extern "C" __global__ void pair_cases_k(uint32_t* o) { HIPASM_KERNEL_BODY(pair_cases, o); }
extern "C" __global__ void swz_reads_k(uint32_t* o) { HIPASM_KERNEL_BODY(swz_reads, o); }

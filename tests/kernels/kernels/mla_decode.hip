// test_mla_decode.cpp's kernels: MLA decode in the configurations the tests run, and the
// split combination.
#include <hipasm/kernels/mla_decode.hpp>

namespace cfg {
using hipasm::kernels::mla_decode_config;
using hipasm::kernels::mla_kv_cache;
constexpr mla_decode_config w1{.waves = 1};
constexpr mla_decode_config w2_p1{.waves = 2, .page_size = 1, .prefetch = 1};
constexpr mla_decode_config w4_pg4{.waves = 4, .page_size = 4};
constexpr mla_decode_config w1_pg64{.waves = 1, .page_size = 64};
constexpr mla_decode_config w1_fp8{.waves = 1, .prefetch = 1, .kv_cache = mla_kv_cache::fp8};
constexpr mla_decode_config w4_fp8{.waves = 4, .prefetch = 1, .kv_cache = mla_kv_cache::fp8};
}  // namespace cfg

HIPASM_MLA_DECODE_KERNEL(mla_w1, cfg::w1)
HIPASM_MLA_DECODE_KERNEL(mla_w2_p1, cfg::w2_p1)
HIPASM_MLA_DECODE_KERNEL(mla_w4_pg4, cfg::w4_pg4)
HIPASM_MLA_DECODE_KERNEL(mla_w1_pg64, cfg::w1_pg64)
HIPASM_MLA_DECODE_KERNEL(mla_w1_fp8, cfg::w1_fp8)
HIPASM_MLA_DECODE_KERNEL(mla_w4_fp8, cfg::w4_fp8)
HIPASM_MLA_DECODE_COMBINE_KERNEL(mla_combine)
HIPASM_MLA_DECODE_KERNEL(mla_sd4, (hipasm::kernels::mla_decode_config{.waves = 4, .split_dims = true, .prefetch = 1}))
HIPASM_MLA_DECODE_KERNEL(mla_sd2_fp8, (hipasm::kernels::mla_decode_config{.waves = 2, .split_dims = true, .prefetch = 1, .kv_cache = hipasm::kernels::mla_kv_cache::fp8}))
HIPASM_MLA_DECODE_KERNEL(mla_w8_pg16, (hipasm::kernels::mla_decode_config{.waves = 8, .page_size = 16, .prefetch = 1}))
// bf16 split partials and their combination (the LDS-staged stores; fp8 8 waves: the direct ones)
HIPASM_MLA_DECODE_KERNEL(mla_w8_b16, (hipasm::kernels::mla_decode_config{.waves = 8, .prefetch = 2, .part_bf16 = true}))
HIPASM_MLA_DECODE_KERNEL(mla_w2_pg4_b16, (hipasm::kernels::mla_decode_config{.waves = 2, .page_size = 4, .prefetch = 1, .part_bf16 = true}))
HIPASM_MLA_DECODE_KERNEL(mla_w8_fp8_b16, (hipasm::kernels::mla_decode_config{.waves = 8, .prefetch = 1, .kv_cache = hipasm::kernels::mla_kv_cache::fp8, .part_bf16 = true}))
// bf16 partials of waves splitting the dims (each wave its dims of the 16 rows)
HIPASM_MLA_DECODE_KERNEL(mla_sd4_b16, (hipasm::kernels::mla_decode_config{.waves = 4, .split_dims = true, .prefetch = 1, .part_bf16 = true}))
HIPASM_MLA_DECODE_KERNEL(mla_sd2_fp8_b16, (hipasm::kernels::mla_decode_config{.waves = 2, .split_dims = true, .page_size = 4, .prefetch = 2, .kv_cache = hipasm::kernels::mla_kv_cache::fp8, .part_bf16 = true}))
HIPASM_MLA_DECODE_COMBINE_BF16_KERNEL(mla_combine_b16)
// fp8 split_dims of 4 waves (gfx950: the operands converted from the fp8 rows in registers), pages of 16 rows
HIPASM_MLA_DECODE_KERNEL(mla_sd4_fp8_pg16, (hipasm::kernels::mla_decode_config{.waves = 4, .split_dims = true, .page_size = 16, .prefetch = 2, .kv_cache = hipasm::kernels::mla_kv_cache::fp8}))
// fp8 rows, 16 query rows a wave, pages of 16, 2 blocks in flight (gfx950: K and V^T converted in
// registers, the PV product over block pairs)
HIPASM_MLA_DECODE_KERNEL(mla_w2_fp8_pg16_p2, (hipasm::kernels::mla_decode_config{.waves = 2, .page_size = 16, .prefetch = 2, .kv_cache = hipasm::kernels::mla_kv_cache::fp8}))
// (the MI355X bench's 64-row fp8 kernel: 4 waves, 2 blocks in flight, bf16 partials)
HIPASM_MLA_DECODE_KERNEL(mla_w4_fp8_p2_b16, (hipasm::kernels::mla_decode_config{.waves = 4, .prefetch = 2, .kv_cache = hipasm::kernels::mla_kv_cache::fp8, .part_bf16 = true}))
#if defined(__gfx950__)  // (deeper rings than gfx942's 64 KiB of LDS holds: 3 and 4 blocks in flight)
HIPASM_MLA_DECODE_KERNEL(mla_w2_p3, (hipasm::kernels::mla_decode_config{.waves = 2, .prefetch = 3}))
HIPASM_MLA_DECODE_KERNEL(mla_sd4_fp8_p4, (hipasm::kernels::mla_decode_config{.waves = 4, .split_dims = true, .prefetch = 4, .kv_cache = hipasm::kernels::mla_kv_cache::fp8}))
// fp8 Q (gfx950's OCP e4m3 MFMAs): 16 rows on one wave, 64 on four in pages of 16 rows
HIPASM_MLA_DECODE_KERNEL(mla_w1_fp8q, (hipasm::kernels::mla_decode_config{.waves = 1, .prefetch = 3, .kv_cache = hipasm::kernels::mla_kv_cache::fp8, .q_fp8 = true}))
HIPASM_MLA_DECODE_KERNEL(mla_w4_fp8q_pg16, (hipasm::kernels::mla_decode_config{.waves = 4, .page_size = 16, .prefetch = 2, .kv_cache = hipasm::kernels::mla_kv_cache::fp8, .q_fp8 = true}))
// fp8 Q on 2 and 4 waves splitting the dims
HIPASM_MLA_DECODE_KERNEL(mla_sd4_fp8q, (hipasm::kernels::mla_decode_config{.waves = 4, .split_dims = true, .prefetch = 3, .kv_cache = hipasm::kernels::mla_kv_cache::fp8, .q_fp8 = true}))
HIPASM_MLA_DECODE_KERNEL(mla_sd4_fp8q_b16, (hipasm::kernels::mla_decode_config{.waves = 4, .split_dims = true, .prefetch = 3, .kv_cache = hipasm::kernels::mla_kv_cache::fp8, .q_fp8 = true, .part_bf16 = true}))
HIPASM_MLA_DECODE_KERNEL(mla_sd4_fp8_b16, (hipasm::kernels::mla_decode_config{.waves = 4, .split_dims = true, .prefetch = 3, .kv_cache = hipasm::kernels::mla_kv_cache::fp8, .part_bf16 = true}))
HIPASM_MLA_DECODE_KERNEL(mla_w4_fp8q_b16, (hipasm::kernels::mla_decode_config{.waves = 4, .prefetch = 2, .kv_cache = hipasm::kernels::mla_kv_cache::fp8, .q_fp8 = true, .part_bf16 = true}))
HIPASM_MLA_DECODE_KERNEL(mla_sd2_fp8q_pg16, (hipasm::kernels::mla_decode_config{.waves = 2, .split_dims = true, .page_size = 16, .prefetch = 2, .kv_cache = hipasm::kernels::mla_kv_cache::fp8, .q_fp8 = true}))
#endif

// bench_mla_decode.cpp's kernels: MLA decode by query rows a workgroup (16 heads x 1 token: four
// waves splitting the dims; 16 x 4 or 32 x 2: four; 32 x 4 or 128 x 1: eight), bf16 and fp8 KV,
// page size 1, and the split combination.
#include <hipasm/kernels/mla_decode.hpp>

namespace cfg {
using hipasm::kernels::mla_decode_config;
using hipasm::kernels::mla_kv_cache;
// (bf16 split partials: half the bytes the epilogue writes and the combination reads)
constexpr mla_decode_config r64{.waves = 4, .prefetch = 2, .part_bf16 = true};
constexpr mla_decode_config r128{.waves = 8, .prefetch = 2, .part_bf16 = true};
#if defined(__gfx950__)  // (fp8 rows converted in registers: no bf16 buffer, a second block in flight)
constexpr uint32_t fp8_prefetch = 2;
#else
constexpr uint32_t fp8_prefetch = 1;
#endif
constexpr mla_decode_config r64_fp8{.waves = 4, .prefetch = fp8_prefetch, .kv_cache = mla_kv_cache::fp8};
constexpr mla_decode_config r128_fp8{.waves = 8, .prefetch = fp8_prefetch, .kv_cache = mla_kv_cache::fp8};
}  // namespace cfg

HIPASM_MLA_DECODE_KERNEL(mla_r64, cfg::r64)
HIPASM_MLA_DECODE_KERNEL(mla_r128, cfg::r128)
HIPASM_MLA_DECODE_KERNEL(mla_r64_fp8, cfg::r64_fp8)
HIPASM_MLA_DECODE_KERNEL(mla_r128_fp8, cfg::r128_fp8)
HIPASM_MLA_DECODE_COMBINE_KERNEL(mla_combine)
HIPASM_MLA_DECODE_COMBINE_BF16_KERNEL(mla_combine_b16)
// 16 rows on four waves splitting the dims (split_dims)
HIPASM_MLA_DECODE_KERNEL(mla_sd4, (hipasm::kernels::mla_decode_config{.waves = 4, .split_dims = true, .prefetch = 1}))
#if defined(__gfx950__)  // (160 KiB of LDS: more blocks in flight)
HIPASM_MLA_DECODE_KERNEL(mla_sd4_fp8, (hipasm::kernels::mla_decode_config{.waves = 4, .split_dims = true, .prefetch = 3, .kv_cache = hipasm::kernels::mla_kv_cache::fp8}))
// fp8 Q (q_fp8: fp8 MFMAs on the fp8 rows): 16 rows on four waves splitting the dims; 16 rows a
// wave, one to eight waves
HIPASM_MLA_DECODE_KERNEL(mla_sd4_fp8q, (hipasm::kernels::mla_decode_config{.waves = 4, .split_dims = true, .prefetch = 3, .kv_cache = hipasm::kernels::mla_kv_cache::fp8, .q_fp8 = true}))
HIPASM_MLA_DECODE_KERNEL(mla_r16_fp8q, (hipasm::kernels::mla_decode_config{.waves = 1, .prefetch = 3, .kv_cache = hipasm::kernels::mla_kv_cache::fp8, .q_fp8 = true}))
HIPASM_MLA_DECODE_KERNEL(mla_r64_fp8q, (hipasm::kernels::mla_decode_config{.waves = 4, .prefetch = 2, .kv_cache = hipasm::kernels::mla_kv_cache::fp8, .q_fp8 = true}))
HIPASM_MLA_DECODE_KERNEL(mla_r128_fp8q, (hipasm::kernels::mla_decode_config{.waves = 8, .prefetch = 2, .kv_cache = hipasm::kernels::mla_kv_cache::fp8, .q_fp8 = true}))
// (bf16 split partials, half the bytes the epilogue writes and the combination reads: the fp8
// 16- and 64-row kernels' twins for the splits the second launch combines (split_dims: more
// than 4, mla_decode_fuse_combine))
HIPASM_MLA_DECODE_KERNEL(mla_sd4_fp8_b16, (hipasm::kernels::mla_decode_config{.waves = 4, .split_dims = true, .prefetch = 3, .kv_cache = hipasm::kernels::mla_kv_cache::fp8, .part_bf16 = true}))
HIPASM_MLA_DECODE_KERNEL(mla_sd4_fp8q_b16, (hipasm::kernels::mla_decode_config{.waves = 4, .split_dims = true, .prefetch = 3, .kv_cache = hipasm::kernels::mla_kv_cache::fp8, .q_fp8 = true, .part_bf16 = true}))
HIPASM_MLA_DECODE_KERNEL(mla_r64_fp8q_b16, (hipasm::kernels::mla_decode_config{.waves = 4, .prefetch = 2, .kv_cache = hipasm::kernels::mla_kv_cache::fp8, .q_fp8 = true, .part_bf16 = true}))
HIPASM_MLA_DECODE_KERNEL(mla_r64_fp8_b16, (hipasm::kernels::mla_decode_config{.waves = 4, .prefetch = cfg::fp8_prefetch, .kv_cache = hipasm::kernels::mla_kv_cache::fp8, .part_bf16 = true}))
#else
HIPASM_MLA_DECODE_KERNEL(mla_sd4_fp8, (hipasm::kernels::mla_decode_config{.waves = 4, .split_dims = true, .prefetch = 2, .kv_cache = hipasm::kernels::mla_kv_cache::fp8}))
#endif

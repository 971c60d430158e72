// HIPASM_KERNARG_PRELOAD (the kernels read their first arguments from the preloaded SGPRs)
#include <hipasm/kernels/paged_attn_decode.hpp>

#include "paged_attn_configs.hpp"

HIPASM_PAGED_ATTN_DECODE_KERNEL(pa_d128_g8, cfg::pa_d128_g8)
HIPASM_PAGED_ATTN_DECODE_KERNEL(pa_d128_g4, cfg::pa_d128_g4)
HIPASM_PAGED_ATTN_DECODE_KERNEL(pa_d128_g1, cfg::pa_d128_g1)
HIPASM_PAGED_ATTN_DECODE_KERNEL(pa_d128_g8_w8, cfg::pa_d128_g8_w8)
HIPASM_PAGED_ATTN_DECODE_KERNEL(pa_d128_g16, cfg::pa_d128_g16)
HIPASM_PAGED_ATTN_DECODE_KERNEL(pa_d64_g8_w1, cfg::pa_d64_g8_w1)
HIPASM_PAGED_ATTN_DECODE_KERNEL(pa_d64_g8_b32, cfg::pa_d64_g8_b32)
HIPASM_PAGED_ATTN_DECODE_KERNEL(pa_d128_g8_fp8, cfg::pa_d128_g8_fp8)
HIPASM_PAGED_ATTN_DECODE_KERNEL(pa_d64_g8_b32_fp8, cfg::pa_d64_g8_b32_fp8)
HIPASM_PAGED_ATTN_DECODE_KERNEL(pa_d128_g8_fp8_p3, cfg::pa_d128_g8_fp8_p3)

#include <hipasm/kernels/sort.hpp>

#include "sort_configs.hpp"

HIPASM_SORT_KERNEL(sort_f32_asc_4, cfg::f32_asc_4)
HIPASM_SORT_KERNEL(sort_f32_desc_idx_8_rows, cfg::f32_desc_idx_8_rows)
HIPASM_SORT_KERNEL(sort_i32_asc_val_2_wg4, cfg::i32_asc_val_2_wg4)
HIPASM_SORT_KERNEL(sort_u32_desc_16_wg2, cfg::u32_desc_16_wg2)
HIPASM_SORT_KERNEL(sort_f32_asc_idx_4_wg16, cfg::f32_asc_idx_4_wg16)
HIPASM_SORT_KERNEL(sort_i32_desc_val_16_wg8, cfg::i32_desc_val_16_wg8)
HIPASM_SORT_KERNEL(sort_u32_asc_1, cfg::u32_asc_1)
HIPASM_SORT_KERNEL(sort_i32_desc_idx_2_wg4, cfg::i32_desc_idx_2_wg4)
HIPASM_SORT_KERNEL(sort_f32_asc_32_rows, cfg::f32_asc_32_rows)
HIPASM_SORT_KERNEL(sort_f32_asc_idx_32_rows, cfg::f32_asc_idx_32_rows)
HIPASM_SORT_KERNEL(sort_i32_desc_val_16_rows, cfg::i32_desc_val_16_rows)
HIPASM_SORT_KERNEL(sort_f32_asc_8_wg4, cfg::f32_asc_8_wg4)
HIPASM_SORT_KERNEL(sort_f32_desc_16_wg2, cfg::f32_desc_16_wg2)
HIPASM_SORT_KERNEL(sort_i32_asc_32_rows, cfg::i32_asc_32_rows)
HIPASM_SORT_KERNEL(sort_i32_desc_8_rows, cfg::i32_desc_8_rows)

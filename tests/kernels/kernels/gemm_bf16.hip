// test_gemm_bf16.cpp's kernels: the library's GEMM in the configurations the tests run.
#include <hipasm/kernels/gemm_bf16.hpp>

// The default (128x128x32 tile, 4 waves, f32 out), bf16 out, a small 64x64x16 tile of one wave
// per 32x64 half, the 256x256x32 tile of 8 waves, and the odd-K variant.
HIPASM_GEMM_BF16_KERNEL(gemm_f32, (hipasm::kernels::gemm_bf16_config{}))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16out, (hipasm::kernels::gemm_bf16_config{.out_bf16 = true}))
HIPASM_GEMM_BF16_KERNEL(gemm_small, (hipasm::kernels::gemm_bf16_config{.bm = 64, .bn = 64, .bk = 16, .wm = 2, .wn = 1}))
HIPASM_GEMM_BF16_KERNEL(gemm_256, (hipasm::kernels::gemm_bf16_config{.bm = 256, .bn = 256, .bk = 32, .wm = 2, .wn = 4}))
HIPASM_GEMM_BF16_KERNEL(gemm_oddk, (hipasm::kernels::gemm_bf16_config{.bm = 64, .bn = 64, .bk = 32, .odd_k = true}))
HIPASM_GEMM_BF16_KERNEL(gemm_256s, (hipasm::kernels::gemm_bf16_config{.bm = 256, .bn = 256, .bk = 64, .wm = 2, .wn = 4, .ahead = 1, .lds_buffers = 1}))
HIPASM_GEMM_BF16_KERNEL(gemm_split3, (hipasm::kernels::gemm_bf16_config{.bm = 64, .bn = 64, .bk = 32, .split_k = 3}))
// The other layouts: B stored K x N (default tile and its odd-K variant, the 256x256 single
// buffer), A stored K x M with B K x N (bf16 out) and with B N x K (split-K 2).
HIPASM_GEMM_BF16_KERNEL(gemm_nn, (hipasm::kernels::gemm_bf16_config{.b_kn = true}))
HIPASM_GEMM_BF16_KERNEL(gemm_nn_oddk, (hipasm::kernels::gemm_bf16_config{.bm = 64, .bn = 64, .bk = 64, .odd_k = true, .ahead = 1, .b_kn = true}))
HIPASM_GEMM_BF16_KERNEL(gemm_tn, (hipasm::kernels::gemm_bf16_config{.bm = 64, .bn = 64, .bk = 64, .out_bf16 = true, .a_km = true, .b_kn = true}))
HIPASM_GEMM_BF16_KERNEL(gemm_tt, (hipasm::kernels::gemm_bf16_config{.bm = 64, .bn = 64, .bk = 64, .split_k = 2, .a_km = true}))
HIPASM_GEMM_BF16_KERNEL(gemm_256nn, (hipasm::kernels::gemm_bf16_config{.bm = 256, .bn = 256, .bk = 64, .wm = 2, .wn = 4, .ahead = 1, .lds_buffers = 1, .b_kn = true}))
// Split-K 3 with bf16 output (its f32 workspace and the gemm_split3_bf16_to_bf16 rounding pass).
HIPASM_GEMM_BF16_KERNEL(gemm_split3_bf16, (hipasm::kernels::gemm_bf16_config{.bm = 64, .bn = 64, .bk = 32, .out_bf16 = true, .split_k = 3}))
// The balanced-rows launch's pair (256x256 and 128x256, one LDS buffer), f32 and bf16 out, and
// the bf16-out odd-K variant.
HIPASM_GEMM_BF16_KERNEL(gemm_128x256s, (hipasm::kernels::gemm_bf16_config{.bm = 128, .bn = 256, .bk = 64, .wm = 2, .wn = 4, .lds_buffers = 1}))
HIPASM_GEMM_BF16_KERNEL(gemm_256s_bf16, (hipasm::kernels::gemm_bf16_config{.bm = 256, .bn = 256, .bk = 64, .wm = 2, .wn = 4, .out_bf16 = true, .ahead = 1, .lds_buffers = 1}))
HIPASM_GEMM_BF16_KERNEL(gemm_128x256s_bf16, (hipasm::kernels::gemm_bf16_config{.bm = 128, .bn = 256, .bk = 64, .wm = 2, .wn = 4, .out_bf16 = true, .lds_buffers = 1}))
HIPASM_GEMM_BF16_KERNEL(gemm_oddk_bf16, (hipasm::kernels::gemm_bf16_config{.bm = 64, .bn = 64, .bk = 32, .out_bf16 = true, .odd_k = true}))
// 4 waves of 128x128 with the accumulators in AGPRs, two tiles ahead (gfx950: two LDS buffers)
#if defined(__gfx950__)
HIPASM_GEMM_BF16_KERNEL(gemm_256w4, (hipasm::kernels::gemm_bf16_config{.bm = 256, .bn = 256, .bk = 64, .wm = 2, .wn = 2, .ahead = 2, .lds_buffers = 2, .agpr_acc = true}))
#else
HIPASM_GEMM_BF16_KERNEL(gemm_256w4, (hipasm::kernels::gemm_bf16_config{.bm = 256, .bn = 256, .bk = 64, .wm = 2, .wn = 2, .ahead = 2, .lds_buffers = 1, .agpr_acc = true}))
#endif
// gfx950's 160 KiB of LDS: the 256x256x64 tile with two buffers (128 KiB; gfx942: a compile
// error); split-K 3 adding bf16 pairs (buffer_atomic_pk_add_bf16: gfx950's)
#if defined(__gfx950__)
HIPASM_GEMM_BF16_KERNEL(gemm_split3_pk, (hipasm::kernels::gemm_bf16_config{.bm = 64, .bn = 64, .bk = 32, .out_bf16 = true, .split_k = 3, .bf16_atomics = true}))
// (bench_kernel_gemm_bf16_mi355x's M <= 32 kernels: 32x64 tiles of one wave row, 2 waves)
HIPASM_GEMM_BF16_KERNEL(gemm_32x64_pk, (hipasm::kernels::gemm_bf16_config{.bm = 32, .bn = 64, .bk = 64, .wm = 1, .wn = 2, .out_bf16 = true, .split_k = 3, .bf16_atomics = true}))
HIPASM_GEMM_BF16_KERNEL(gemm_256x2, (hipasm::kernels::gemm_bf16_config{.bm = 256, .bn = 256, .bk = 64, .wm = 2, .wn = 4, .ahead = 1, .lds_buffers = 2}))
// (bench_kernel_gemm_bf16_mi355x's large-shape kernel: bf16 out of AGPR accumulators, blocks paired by v_permlane32_swap)
HIPASM_GEMM_BF16_KERNEL(gemm_256w4_bf16, (hipasm::kernels::gemm_bf16_config{.bm = 256, .bn = 256, .bk = 64, .wm = 2, .wn = 2, .out_bf16 = true, .ahead = 2, .lds_buffers = 2, .agpr_acc = true, .k_tail = false}))
#endif
// No K tail (k_tail = false: K a multiple of bk): the default tile, and the 256x256x64 one-buffer
// tile of 8 waves (the MI300X large-shape configuration)
HIPASM_GEMM_BF16_KERNEL(gemm_nokt, (hipasm::kernels::gemm_bf16_config{.k_tail = false}))
HIPASM_GEMM_BF16_KERNEL(gemm_256s_nokt, (hipasm::kernels::gemm_bf16_config{.bm = 256, .bn = 256, .bk = 64, .wm = 2, .wn = 4, .ahead = 1, .lds_buffers = 1, .k_tail = false}))

// The examples' workgroup shapes: the kernels index with them and main_example launches with
// them. Plain C++ (no kernel headers), so host code built by any C++20 compiler includes it.
#pragma once

namespace examples {

inline constexpr unsigned vector_add_block = 256;      // vector_add: work-items a workgroup
inline constexpr unsigned gemv_waves_per_group = 4;    // gemv_f16: rows (waves) a workgroup
inline constexpr unsigned k2d_bx = 16, k2d_by = 4;     // kernel_2d: the workgroup's x and y
inline constexpr unsigned log_squares_block = 64;      // log_squares: work-items a workgroup
inline constexpr unsigned stencil_ring_block = 256;    // stencil_ring / stencil_open: 4 rows a workgroup

}  // namespace examples

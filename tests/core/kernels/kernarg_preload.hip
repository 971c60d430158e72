// Kernels compiled with kernarg preloading (KERNARG_PRELOAD: -mllvm -amdgpu-kernarg-preload-count=16).
#include "kernarg_preload_kernels.hpp"

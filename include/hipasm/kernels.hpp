// The hipasm kernel library (device side): every kernel's builder function and its
// HIPASM_..._KERNEL macro, with the whole core and helpers (hipasm.hpp). The precompiled
// header of hipasm_add_code_object is this one: a kernel source of the library then parses
// none of its headers (~0.1 s of a big kernel's compile), and one that uses none of them
// loads them lazily at no measurable cost. The host launch APIs (*_launch.hpp,
// norm_host.hpp) are not here: they need the runtime's headers.
#pragma once
#include "hipasm.hpp"
#include "kernels/act_and_mul.hpp"
#include "kernels/attn_fwd.hpp"
#include "kernels/dynamic_quant.hpp"
#include "kernels/gemm_bf16.hpp"
#include "kernels/gemm_quant.hpp"
#include "kernels/gemv.hpp"
#include "kernels/layernorm.hpp"
#include "kernels/moe.hpp"
#include "kernels/paged_attn_decode.hpp"
#include "kernels/rmsnorm.hpp"
#include "kernels/rotary.hpp"
#include "kernels/softmax.hpp"
#include "kernels/sort.hpp"
#include "kernels/topk_softmax.hpp"

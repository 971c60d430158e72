// EXPECT: attn_bwd_waves.hip:8:1: error: static assertion failed.*attn_bwd: waves must be 4
// An attn_bwd configuration it does not support (include/hipasm/kernels/attn_bwd.hpp
// attn_bwd_config_error): a compile error naming the configuration's kernel line.
#include <hipasm/kernels/attn_bwd.hpp>

constexpr hipasm::kernels::attn_bwd_config cfg{.head_dim = 128, .causal = false, .waves = 8};

HIPASM_ATTN_BWD_KERNELS(bwd_w8, cfg)

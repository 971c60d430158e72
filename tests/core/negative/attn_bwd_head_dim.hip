// EXPECT: attn_bwd_head_dim.hip:8:1: error: static assertion failed.*attn_bwd: head_dim must be 64 or 128
// An attn_bwd head dim it does not support (include/hipasm/kernels/attn_bwd.hpp
// attn_bwd_config_error): a compile error naming the configuration's kernel line.
#include <hipasm/kernels/attn_bwd.hpp>

constexpr hipasm::kernels::attn_bwd_config cfg{.head_dim = 96};

HIPASM_ATTN_BWD_KERNELS(bwd_d96, cfg)

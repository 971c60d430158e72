// EXPECT: attn_bwd: lds_lookahead must be 2 to 8
// An attn_bwd LDS read lookahead out of range (include/hipasm/kernels/attn_bwd.hpp
// attn_bwd_config_error): a compile error naming the configuration's kernel line.
#include <hipasm/kernels/attn_bwd.hpp>

constexpr hipasm::kernels::attn_bwd_config cfg{.head_dim = 128, .lds_lookahead = 1};

HIPASM_ATTN_BWD_KERNELS(bwd_la1, cfg)

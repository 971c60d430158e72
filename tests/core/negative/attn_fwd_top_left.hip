// EXPECT: attn_fwd_top_left.hip:8:1: error: static assertion failed.*attn_fwd: top_left aligns the causal mask: it needs causal = true
// top_left without causal (include/hipasm/kernels/attn_fwd.hpp attn_fwd_config_error): a compile
// error naming the kernel's line.
#include <hipasm/kernels/attn_fwd.hpp>

constexpr hipasm::kernels::attn_fwd_config cfg{.head_dim = 128, .causal = false, .top_left = true, .waves = 4, .bn = 64};

HIPASM_ATTN_FWD_KERNEL(attn_tl_no_causal, cfg)

// EXPECT: attn_bwd: keys_per_wave 48 needs dq = atomic or atomic16.*attn_bwd_keys_per_wave.hip:9:1: note: in instantiation
// attn_bwd's 16x16 MFMA main kernel (keys_per_wave 48) with a dQ mode it does not have: a compile
// error naming the configuration's kernel line.
#include <hipasm/kernels/attn_bwd.hpp>

constexpr hipasm::kernels::attn_bwd_config cfg{
    .head_dim = 128, .causal = false, .dq = hipasm::kernels::attn_bwd_dq::recompute, .keys_per_wave = 48};

HIPASM_ATTN_BWD_KERNELS(bwd_k48_rc, cfg)

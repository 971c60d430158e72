// EXPECT: attn_fwd: the Q / O tile \(32 x waves rows x head_dim, 2 bytes each\) exceeds 64 KiB of LDS
// An attention configuration whose Q / O tile (staged through LDS in whole rows) does not fit:
// 16 waves x 32 rows x 128 dims of 2 bytes = 128 KiB; a compile error naming the limit
// (include/hipasm/kernels/attn_fwd.hpp).
#include <hipasm/kernels/attn_fwd.hpp>

HIPASM_ATTN_FWD_KERNEL(bad_attn, (hipasm::kernels::attn_fwd_config{.head_dim = 128, .waves = 16, .bn = 32}))

// EXPECT: mla_decode_waves.hip:8:1: error: static assertion failed.*mla_decode: waves must be 1 to 8
// An mla_decode configuration it does not support (include/hipasm/kernels/mla_decode.hpp
// mla_decode_config_error): a compile error naming the configuration's kernel line.
#include <hipasm/kernels/mla_decode.hpp>

constexpr hipasm::kernels::mla_decode_config cfg{.waves = 16};

HIPASM_MLA_DECODE_KERNEL(mla_w16, cfg)

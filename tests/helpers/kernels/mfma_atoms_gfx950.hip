// HIPASM_ARCH gfx950
// mfma_atoms.hip compiled for gfx950 (the device compile's --offload-arch picks the target).
#include "mfma_atoms.hip"

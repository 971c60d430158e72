// The targets' s_waitcnt encoding: every target (gfx942, gfx950) is gfx9, whose layout is
// waitcnt_gfx9.hpp; targets/select.hpp checks that the active target's is this one.
#pragma once
#include "waitcnt_gfx9.hpp"

namespace hipasm {
using waitcnt_encoding = targets::waitcnt_gfx9;
}  // namespace hipasm

// libFuzzer target for the code-object loader (built only when clang's -fsanitize=fuzzer
// works; run briefly by ctest from real code objects as the seed corpus).
#include "loader_entry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  loader_fuzz::exercise({data, size});
  return 0;
}

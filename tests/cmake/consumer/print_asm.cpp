// Host code sees the same asm text the device pass compiles.
#include <cstdio>
#include "kernel_fn.hpp"
int main() {
  auto text = hipasm::asm_text<double_it_fn>("double_it");
  std::fputs(text.c_str(), stdout);
  return text.find("global_load_dword") == std::string::npos;
}

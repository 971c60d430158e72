// Prints the instruction counts of bench/lowering's kernels: hipasm's lowering as it is
// (kernel_options{} defaults) and with the expression folding turned off (kernel_options
// {.fold = false}: one instruction per operator, the lowering before issue 11).
#include <cstdio>
#include <regex>
#include <string>

#include "gemm_pyhip.hpp"

namespace {
using namespace hipasm;
constexpr auto gemm = bench_lowering::gemm_kernel<8192, 8192>;
constexpr auto gemm_nofold = with_options<gemm, kernel_options{.fold = false}>;

struct counts {
  int total = 0, salu = 0, valu = 0, mem = 0, mfma = 0, nop = 0, other = 0;
};
counts count(const std::string& text) {
  counts c;
  std::size_t p = 0;
  while (p < text.size()) {
    std::size_t e = text.find('\n', p);
    if (e == std::string::npos) e = text.size();
    std::string line = text.substr(p, e - p);
    p = e + 1;
    if (line.empty() || line[0] != '\t') continue;
    std::string m = line.substr(1, line.find_first_of(" \t", 1) - 1);
    ++c.total;
    if (m.rfind("v_mfma", 0) == 0) ++c.mfma;
    else if (m == "s_nop") ++c.nop;
    else if (m.rfind("v_", 0) == 0) ++c.valu;
    else if (m.rfind("s_waitcnt", 0) == 0 || m.rfind("s_barrier", 0) == 0 || m.rfind("s_cbranch", 0) == 0 ||
             m.rfind("s_branch", 0) == 0 || m == "s_endpgm")
      ++c.other;
    else if (m.rfind("s_load", 0) == 0 || m.rfind("buffer_", 0) == 0 || m.rfind("ds_", 0) == 0 || m.rfind("global_", 0) == 0)
      ++c.mem;
    else if (m.rfind("s_", 0) == 0) ++c.salu;
    else ++c.other;
  }
  return c;
}
void row(const char* what, const counts& c) {
  std::printf("| %s | %d | %d | %d | %d | %d | %d | %d |\n", what, c.total, c.salu, c.valu, c.mem, c.mfma, c.nop, c.other);
}
}  // namespace

int main(int argc, char** argv) {
  const bool dump = argc > 1 && std::string(argv[1]) == "--asm";
  const std::string now = asm_text<gemm>("gemm", emit_options{false});
  const std::string before = asm_text<gemm_nofold>("gemm", emit_options{false});
  if (dump) {
    std::fputs(now.c_str(), stdout);
    return 0;
  }
  std::printf("| pyhip test_gemm (mfma 16, waves 2x2 of 64x64) | instructions | SALU | VALU | memory | MFMA | s_nop | wait/branch/barrier |\n");
  std::printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  row("hipasm, fold off", count(before));
  row("hipasm", count(now));
  return 0;
}

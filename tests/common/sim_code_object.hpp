// The code objects of a hipasm_add_sim_test_folder test (tests/CMakeLists.txt): kernels/<stem>.hip
// is built once per target, <area>_<test>_<stem>.co for the default target and
// <area>_<test>_<stem>_<arch>.co for each other one. CTest registers the executable once per
// target and names the target in HIPASM_TEST_ARCH (unset: the default target); the sim reads the
// target from the code object.
#pragma once
#include <cstdlib>
#include <string>

namespace hipasm::test {

// The target this run's code objects are built for, as --offload-arch spells it.
inline std::string test_arch() {
  const char* a = std::getenv("HIPASM_TEST_ARCH");
  return a && *a ? a : HIPASM_SIM_TEST_DEFAULT_ARCH;
}

// The device the timing model profiles this run's code objects on (launch_options::profile).
inline std::string test_device() { return test_arch() == "gfx950" ? "mi355x" : "mi300x"; }

// The path of kernels/<stem>.hip's code object for this run's target.
inline std::string code_object(const std::string& stem) {
  const std::string arch = test_arch();
  const std::string suffix = arch == HIPASM_SIM_TEST_DEFAULT_ARCH ? "" : "_" + arch;
  return std::string(HIPASM_SIM_TEST_PREFIX) + stem + suffix + ".co";
}

}  // namespace hipasm::test

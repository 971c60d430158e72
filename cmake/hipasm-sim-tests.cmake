# hipasm's own kernels run in hipasm-sim for every target (not installed: tests/ and examples/
# use it). Each target of HIPASM_SIM_TEST_ARCHS gets its own code objects, <name>.co for the
# default target and <name>_<arch>.co for the others, and each test runs once per target:
# <area>.<test> and <area>_<arch>.<test>, the target in the environment as HIPASM_TEST_ARCH
# (the executable opens its code objects through tests/common/sim_code_object.hpp).
set(HIPASM_SIM_TEST_ARCHS "gfx942;gfx950" CACHE STRING "Targets hipasm's sim tests and examples are built and run for")

# hipasm_sim_arch_name(<out> <name> <arch>): the code object target's name for <arch>.
function(hipasm_sim_arch_name out name arch)
  if(arch STREQUAL HIPASM_DEFAULT_ARCH)
    set(${out} "${name}" PARENT_SCOPE)
  else()
    set(${out} "${name}_${arch}" PARENT_SCOPE)
  endif()
endfunction()

# hipasm_add_sim_test(<area> <test> <executable> <prefix> ARCHS <arch>...): the CTest tests of
# one executable, one a target; <prefix> is the path its code objects' names start with.
function(hipasm_add_sim_test area test exe prefix)
  cmake_parse_arguments(A "" "" "ARCHS" ${ARGN})
  target_include_directories(${exe} PRIVATE "${PROJECT_SOURCE_DIR}/tests/common")
  target_compile_definitions(${exe} PRIVATE HIPASM_SIM_TEST_PREFIX="${prefix}"
                             HIPASM_SIM_TEST_DEFAULT_ARCH="${HIPASM_DEFAULT_ARCH}")
  if(NOT HIPASM_BUILD_TESTS)
    return()
  endif()
  foreach(_arch IN LISTS A_ARCHS)
    if(_arch STREQUAL HIPASM_DEFAULT_ARCH)
      add_test(NAME ${area}.${test} COMMAND ${exe})
    else()
      add_test(NAME ${area}_${_arch}.${test} COMMAND ${exe})
      set_tests_properties(${area}_${_arch}.${test} PROPERTIES ENVIRONMENT HIPASM_TEST_ARCH=${_arch})
    endif()
  endforeach()
endfunction()

# The layers of the host side (script mode): the kernel library's headers need only the core
# headers and the runtime's (include/, rt/include/), never the simulator's, and the simulator
# library (sim/src, sim/include) includes nothing of the runtime.
#   - no header of include/hipasm/kernels names a hipasm/sim/ header (an include of one under
#     __has_include would otherwise be skipped silently below);
#   - one translation unit including every kernel header compiles with CXX, C++20, with only
#     SRC/include and SRC/rt/include on the include path, and the runtime's launcher is in it
#     (the kernel headers' __has_include(<hipasm/rt/launcher.hpp>) found it);
#   - no file of sim/src or sim/include names a hipasm/rt/ header or the hipasm::rt namespace
#     (but capi.h: the C ABI is built on the runtime).
# Prints "PASS: ..." (the test's pass condition).
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
include("${CMAKE_CURRENT_LIST_DIR}/script_run.cmake")

file(GLOB _kernels RELATIVE "${SRC}/include" "${SRC}/include/hipasm/kernels/*.hpp")
if(NOT _kernels)
  message(FATAL_ERROR "no kernel headers under ${SRC}/include/hipasm/kernels")
endif()
set(_tu "")
foreach(_h IN LISTS _kernels)
  file(STRINGS "${SRC}/include/${_h}" _bad REGEX "hipasm/sim/")
  if(_bad)
    message(FATAL_ERROR "${_h} names a simulator header (kernel headers use the runtime, hipasm/rt/): ${_bad}")
  endif()
  string(APPEND _tu "#include <${_h}>\n")
endforeach()
string(APPEND _tu "static_assert(sizeof(hipasm::rt::kernel_args) > 0, \"the kernel headers include the runtime\");\n")
file(WRITE "${WORK}/kernel_headers.cpp" "${_tu}")
# (gfx950: gemm_fp4's kernel has code for gfx950 only; the host tests build it so too)
run("${CXX}" -std=c++20 -fsyntax-only -fconstexpr-steps=2000000000 -Wno-c++26-extensions -DHIPASM_TARGET_GFX950=1
    "-I${SRC}/include" "-I${SRC}/rt/include" "${WORK}/kernel_headers.cpp")

file(GLOB_RECURSE _sim RELATIVE "${SRC}" "${SRC}/sim/src/*.cpp" "${SRC}/sim/src/*.hpp" "${SRC}/sim/include/*.hpp")
foreach(_f IN LISTS _sim)
  file(STRINGS "${SRC}/${_f}" _bad REGEX "#[ \t]*include[ \t]*[<\"]hipasm/rt/|(^|[^A-Za-z0-9_])rt::")
  if(_bad)
    message(FATAL_ERROR "${_f} uses the runtime (the simulator library must not): ${_bad}")
  endif()
endforeach()
list(LENGTH _kernels _nk)
list(LENGTH _sim _ns)
message(STATUS "PASS: ${_nk} kernel headers with the core and runtime headers only; ${_ns} simulator files without the runtime")

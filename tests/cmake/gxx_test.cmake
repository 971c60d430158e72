# Host code builds with GCC as with clang (README: any C++20 host compiler), script mode:
#   each public host header (hipasm/rt/*.hpp, hipasm/sim/*.hpp, capi.h as C++ and as C, and the host headers of
#   include/hipasm: dtype.hpp, helpers/debug_log_host.hpp) compiles alone with GXX and with
#   CLANGXX, C++20; then tests/cmake/consumer_gxx, configured with GXX as its C++ compiler
#   against the build tree BUILD, builds and runs a kernel through the launcher; then, when
#   MAIN_EXAMPLE (the build's main_example, built by clang) is given, tests/cmake/examples_gxx
#   builds examples/main_example.cpp with GXX, and for each target of ARCHS (comma-separated;
#   DEFAULT_ARCH's code objects have no suffix) it must pass and print what the clang build prints.
# (The other kernel headers, include/hipasm, are device code: the device compiler, clang,
# compiles them.)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
include("${CMAKE_CURRENT_LIST_DIR}/script_run.cmake")
file(GLOB _headers RELATIVE "${SRC}/sim/include" "${SRC}/sim/include/hipasm/sim/*.hpp" "${SRC}/sim/include/hipasm/sim/*.h")
file(GLOB _rt_headers RELATIVE "${SRC}/rt/include" "${SRC}/rt/include/hipasm/rt/*.hpp")
if(NOT _headers OR NOT _rt_headers)
  message(FATAL_ERROR "no public host headers under ${SRC}/sim/include or ${SRC}/rt/include")
endif()
list(APPEND _headers ${_rt_headers})
list(APPEND _headers hipasm/dtype.hpp hipasm/helpers/debug_log_host.hpp)
foreach(_h IN LISTS _headers)
  string(MAKE_C_IDENTIFIER "${_h}" _id)
  file(WRITE "${WORK}/${_id}.cpp" "#include <${_h}>\n")
  foreach(_cxx "${GXX}" "${CLANGXX}")
    run("${_cxx}" -std=c++20 -fsyntax-only "-I${SRC}/rt/include" "-I${SRC}/sim/include" "-I${SRC}/include"
        "${WORK}/${_id}.cpp")
  endforeach()
  if(_h MATCHES "\\.h$")
    file(WRITE "${WORK}/${_id}.c" "#include <${_h}>\n")
    run("${GXX}" -x c -std=c11 -fsyntax-only "-I${SRC}/sim/include" "${WORK}/${_id}.c")
  endif()
endforeach()
run(${CMAKE_COMMAND} -S "${CMAKE_CURRENT_LIST_DIR}/consumer_gxx" -B "${WORK}/consumer" -G Ninja
    -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_COMPILER=${GXX}" "-Dhipasm_DIR=${BUILD}")
run(${CMAKE_COMMAND} --build "${WORK}/consumer")
run(${CMAKE_COMMAND} -E env HIPASM_BACKEND=sim "${WORK}/consumer/run_kernel" "${WORK}/consumer/consumer_kernels.co")
if(NOT last_output MATCHES "run_kernel: OK")
  message(FATAL_ERROR "run_kernel built by ${GXX} printed:\n${last_output}")
endif()
set(_examples "")
if(MAIN_EXAMPLE)
  if(NOT EXISTS "${MAIN_EXAMPLE}")
    message(FATAL_ERROR "${MAIN_EXAMPLE} is not built: build the target main_example (and its code objects) first")
  endif()
  string(REPLACE "," ";" ARCHS "${ARCHS}")
  run(${CMAKE_COMMAND} -S "${CMAKE_CURRENT_LIST_DIR}/examples_gxx" -B "${WORK}/examples" -G Ninja
      -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_COMPILER=${GXX}" "-Dhipasm_DIR=${BUILD}" "-DHIPASM_SOURCE=${SRC}"
      "-DEXAMPLES_PREFIX=${BUILD}/examples/example_" "-DDEFAULT_ARCH=${DEFAULT_ARCH}")
  run(${CMAKE_COMMAND} --build "${WORK}/examples")
  foreach(_arch IN LISTS ARCHS)
    run(${CMAKE_COMMAND} -E env HIPASM_BACKEND=sim HIPASM_TEST_ARCH=${_arch} "${MAIN_EXAMPLE}")
    set(_want "${last_output}")
    run(${CMAKE_COMMAND} -E env HIPASM_BACKEND=sim HIPASM_TEST_ARCH=${_arch} "${WORK}/examples/main_example")
    if(NOT last_output STREQUAL _want)
      file(WRITE "${WORK}/main_example_clang_${_arch}.txt" "${_want}")
      file(WRITE "${WORK}/main_example_gxx_${_arch}.txt" "${last_output}")
      message(FATAL_ERROR "main_example built by ${GXX} prints other than the build's (${_arch}): "
                          "diff ${WORK}/main_example_clang_${_arch}.txt ${WORK}/main_example_gxx_${_arch}.txt")
    endif()
    if(NOT last_output MATCHES "all kernels match C\\+\\+")
      message(FATAL_ERROR "main_example built by ${GXX} (${_arch}) printed:\n${last_output}")
    endif()
  endforeach()
  set(_examples "; examples/main_example.cpp with ${GXX}, run for ${ARCHS}")
endif()
list(LENGTH _headers _n)
message(STATUS "PASS: ${_n} public host headers with ${GXX} and ${CLANGXX}; a consumer's launcher program with ${GXX}${_examples}")

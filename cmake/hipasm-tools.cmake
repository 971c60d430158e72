# CMake helpers shipped with hipasm (included by the project and by find_package(hipasm)).
#
#   hipasm_add_code_object(<target> SOURCES <a.hip>... [ARCH gfx942] [OPTIONS <flag>...]
#                          [INCLUDE_DIRECTORIES <dir>...] [DEPENDS <file>...] [NO_PCH]
#                          [KERNARG_PRELOAD])
#       Compiles HIP sources (device pass only) into one gfx942 code object (an ELF, not an
#       offload bundle): ${CMAKE_CURRENT_BINARY_DIR}/<target>.co, plus the asm it was
#       assembled from: <target>.s (one source) or <target>.<source name>.s (several).
#       Each source is compiled once (to its .s; the .co is that asm assembled and linked).
#       A precompiled hipasm/kernels.hpp (hipasm.hpp and the kernel library), shared by all
#       code objects with the same flags, is used unless NO_PCH or -DHIPASM_PCH=OFF; a
#       source may still #define HIPASM_ASM_COMMENTS
#       before its #include (kernel.hpp reads it where HIPASM_KERNEL_BODY expands).
#       KERNARG_PRELOAD: clang preloads the leading kernel arguments of every kernel of these
#       sources into user SGPRs (-mllvm -amdgpu-kernarg-preload-count=16; clang-22 decides it
#       per translation unit); kernels with kernel_options::kernarg_preload read them there.
#       The custom target <target> has the properties HIPASM_CODE_OBJECT and HIPASM_ASM.
#   hipasm_assemble(<target> SOURCE <k.s> [ARCH gfx942])
#       Assembles a hand-written or hand-edited .s into a code object <target>.co.
#   hipasm_add_hip_executable(<target> SOURCES <a.hip>... [ARCH gfx942])
#       A full HIP program (host + device) linked against libamdhip64.
#
# The device compiler is clang++-22 (or ROCm's amdclang++/hipcc when present); set
# HIPASM_DEVICE_CXX to override. Configuration fails with a clear message when no compiler
# can target gfx942.
include_guard(GLOBAL)

# Where hipasm's headers are: the includer sets HIPASM_INCLUDE_DIR (source tree or install).
if(NOT HIPASM_INCLUDE_DIR)
  get_filename_component(HIPASM_INCLUDE_DIR "${CMAKE_CURRENT_LIST_DIR}/../include" ABSOLUTE)
endif()
set_property(GLOBAL PROPERTY HIPASM_INCLUDE_DIR "${HIPASM_INCLUDE_DIR}")

set(HIPASM_DEFAULT_ARCH "gfx942" CACHE STRING "Default AMDGPU target of hipasm code objects")
option(HIPASM_PCH "Compile hipasm kernels with a precompiled hipasm/kernels.hpp" ON)

function(_hipasm_find_device_compiler)
  if(HIPASM_DEVICE_CXX)
    return()
  endif()
  set(_candidates)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 21)
    list(APPEND _candidates "${CMAKE_CXX_COMPILER}")
  endif()
  find_program(_hipasm_clang22 NAMES clang++-22 clang++-21 amdclang++ hipcc
               HINTS /opt/rocm/bin /opt/rocm/llvm/bin $ENV{ROCM_PATH}/bin $ENV{ROCM_PATH}/llvm/bin)
  if(_hipasm_clang22)
    list(APPEND _candidates "${_hipasm_clang22}")
  endif()
  set(_probe_dir "${CMAKE_BINARY_DIR}/hipasm-probe")
  file(MAKE_DIRECTORY "${_probe_dir}")
  file(WRITE "${_probe_dir}/probe.hip"
       "#include <string_view>\nstruct t { constexpr const char* data() const { return \"s_nop 0\"; } constexpr unsigned size() const { return 7; } };\nextern \"C\" __attribute__((global)) void probe() { asm volatile((t{})); }\n")
  foreach(_cxx IN LISTS _candidates)
    execute_process(
      COMMAND "${_cxx}" -x hip -std=c++20 --offload-arch=${HIPASM_DEFAULT_ARCH} --offload-device-only
              --no-gpu-bundle-output -nogpulib -nogpuinc -O3 -c probe.hip -o probe.co
      WORKING_DIRECTORY "${_probe_dir}" RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
    if(_rc EQUAL 0)
      set(HIPASM_DEVICE_CXX "${_cxx}" CACHE FILEPATH "Compiler used for hipasm device code" FORCE)
      message(STATUS "hipasm: device compiler ${_cxx} (${HIPASM_DEFAULT_ARCH})")
      return()
    endif()
  endforeach()
  message(FATAL_ERROR
    "hipasm: no compiler can build ${HIPASM_DEFAULT_ARCH} code objects with constexpr asm strings.\n"
    "Install clang-22 (Debian: apt-get install clang-22 lld-22 llvm-22) or ROCm 7, "
    "or set HIPASM_DEVICE_CXX to such a clang++.")
endfunction()

_hipasm_find_device_compiler()

# Flags every hipasm kernel TU needs: C++20, the faster constant interpreter where the
# compiler has it, and enough constexpr steps for a real kernel pipeline.
set(HIPASM_KERNEL_FLAGS -std=c++20 -fconstexpr-steps=2000000000 -Wno-c++26-extensions)
execute_process(COMMAND "${HIPASM_DEVICE_CXX}" -fexperimental-new-constant-interpreter -x c++ -fsyntax-only -
                INPUT_FILE /dev/null RESULT_VARIABLE _hipasm_newinterp OUTPUT_QUIET ERROR_QUIET)
if(_hipasm_newinterp EQUAL 0 AND NOT HIPASM_DEFAULT_INTERPRETER)
  # The bytecode interpreter pays for every element of the text buffer (~7300 of the
  # compiler's instructions a word, written or not: ~0.5 billion for this one): packed 8
  # characters per word, a fixed 512 KB one (~10000 instructions with comments, ~20000
  # without: past 512 KB the comments are left out, past that the text is printed again,
  # exactly; the largest kernel of this build prints 162 KB) costs less than the build-only
  # run that would size it. It also accepts vec's raw storage (vec.hpp), which the default
  # interpreter refuses.
  list(APPEND HIPASM_KERNEL_FLAGS -fexperimental-new-constant-interpreter -DHIPASM_TEXT_PACKED=1
       -DHIPASM_TEXT_CAPACITY=524288 -DHIPASM_VEC_RAW_STORAGE=1)
else()
  # The default interpreter stores a buffer's unwritten tail for free: one run into a
  # fixed 16 MB text buffer instead of a build-only run that sizes it (kernel.hpp).
  list(APPEND HIPASM_KERNEL_FLAGS -DHIPASM_TEXT_CAPACITY=16777216)
endif()
# Functions below may be called from a parent directory (add_subdirectory users): they
# read these facts from global properties, not from this directory's variables.
set_property(GLOBAL PROPERTY HIPASM_KERNEL_FLAGS "${HIPASM_KERNEL_FLAGS}")

# glibc malloc settings for the device compiles. A kernel's constant evaluation allocates
# and frees hundreds of MB in large blocks: with glibc's defaults every large block is a
# fresh mmap whose pages fault in again (~38000 faults for a 2000-instruction kernel). A
# heap that keeps what it frees faults each page in once (~31000). Transparent huge pages
# for the heap (glibc.malloc.hugetlb=1) cut the faults to ~5000, but whether that pays
# depends on the machine: on session 21's it made the compile ~18% faster (pa_d128_g8_w4_fp8
# 3.4 -> 2.8 s user + system), on session 28's (this project's machine kind, a VM whose huge
# page faults cost ~50 us each) it added 0.15-0.2 s of system time and saved no user time, so
# it is left out; add it here where it pays. Set to "" to compile without any.
set(HIPASM_COMPILER_TUNABLES
    "glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=268435456:glibc.malloc.top_pad=67108864"
    CACHE STRING "GLIBC_TUNABLES for hipasm's device compiles (empty: the compiler's environment as it is)")
set(_hipasm_launcher)
if(HIPASM_COMPILER_TUNABLES AND CMAKE_HOST_SYSTEM_NAME STREQUAL "Linux")
  set(_hipasm_launcher "${CMAKE_COMMAND}" -E env "GLIBC_TUNABLES=${HIPASM_COMPILER_TUNABLES}")
endif()
set_property(GLOBAL PROPERTY HIPASM_DEVICE_LAUNCHER "${_hipasm_launcher}")

# Assembling device asm into a code object: the compiler's own llvm-mc and ld.lld when
# they sit next to it (the code object is byte for byte the clang driver's, and two
# direct processes save ~0.03 s per kernel over the driver's), else the driver.
get_filename_component(_hipasm_cxx_real "${HIPASM_DEVICE_CXX}" REALPATH)
get_filename_component(_hipasm_cxx_dir "${_hipasm_cxx_real}" DIRECTORY)
find_program(HIPASM_DEVICE_LLVM_MC NAMES llvm-mc PATHS "${_hipasm_cxx_dir}" NO_DEFAULT_PATH)
find_program(HIPASM_DEVICE_LD_LLD NAMES ld.lld PATHS "${_hipasm_cxx_dir}" NO_DEFAULT_PATH)

# Adds a custom command that assembles and links <asms> into the code object <out>.
function(_hipasm_assemble_command out arch comment)
  set(_objs)
  set(_cmds)
  if(HIPASM_DEVICE_LLVM_MC AND HIPASM_DEVICE_LD_LLD)
    foreach(_a IN LISTS ARGN)
      get_filename_component(_name "${_a}" NAME)
      set(_obj "${out}.${_name}.o")  # (next to the code object: a source may be in the source tree)
      list(APPEND _cmds COMMAND "${HIPASM_DEVICE_LLVM_MC}" -triple=amdgcn-amd-amdhsa -mcpu=${arch} -filetype=obj
                               "${_a}" -o "${_obj}")
      list(APPEND _objs "${_obj}")
    endforeach()
    list(APPEND _cmds COMMAND "${HIPASM_DEVICE_LD_LLD}" --no-undefined -shared ${_objs} -o "${out}")
  else()
    set(_cmds COMMAND "${HIPASM_DEVICE_CXX}" -target amdgcn-amd-amdhsa -mcpu=${arch} ${ARGN} -o "${out}")
  endif()
  add_custom_command(OUTPUT "${out}" ${_cmds} DEPENDS ${ARGN} COMMENT "${comment}" VERBATIM)
endfunction()

# One precompiled hipasm/kernels.hpp (the core, the helpers and the kernel library) per
# distinct device flag set (arch, kernel flags, OPTIONS, include directories), shared by every
# code object built with that set: parsing hipasm's headers is ~0.6 s of every kernel compile,
# a library kernel's own headers ~0.1 s more. Rebuilt when a hipasm header changes (its
# depfile). Sets <out_pch> to the file and <out_target> to the target that builds it.
function(_hipasm_pch out_pch out_target)
  string(SHA1 _key "${HIPASM_DEVICE_CXX};${ARGN}")
  string(SUBSTRING "${_key}" 0 12 _key)
  get_property(_pch GLOBAL PROPERTY HIPASM_PCH_${_key})
  if(NOT _pch)
    get_property(_hipasm_inc GLOBAL PROPERTY HIPASM_INCLUDE_DIR)
    set(_dir "${CMAKE_BINARY_DIR}/hipasm-pch/${_key}")
    set(_pch "${_dir}/hipasm.pch")
    file(MAKE_DIRECTORY "${_dir}")
    # A new compiler rejects an old PCH: rebuild it when the compiler binary changes.
    set(_cxx_dep)
    if(IS_ABSOLUTE "${HIPASM_DEVICE_CXX}")
      set(_cxx_dep DEPENDS "${HIPASM_DEVICE_CXX}")
    endif()
    get_property(_launcher GLOBAL PROPERTY HIPASM_DEVICE_LAUNCHER)
    add_custom_command(OUTPUT "${_pch}"
      COMMAND ${_launcher} "${HIPASM_DEVICE_CXX}" ${ARGN} -Xclang -emit-pch -Xclang -dependency-file -Xclang "${_pch}.d"
              -Xclang -MT -Xclang "${_pch}" -S "${_hipasm_inc}/hipasm/kernels.hpp" -o "${_pch}"
      ${_cxx_dep} DEPFILE "${_pch}.d"
      COMMENT "hipasm: precompiled header ${_key}" VERBATIM)
    add_custom_target(hipasm_pch_${_key} DEPENDS "${_pch}")
    set_property(GLOBAL PROPERTY HIPASM_PCH_${_key} "${_pch}")
  endif()
  set(${out_pch} "${_pch}" PARENT_SCOPE)
  set(${out_target} hipasm_pch_${_key} PARENT_SCOPE)
endfunction()

function(hipasm_add_code_object target)
  cmake_parse_arguments(A "NO_PCH;KERNARG_PRELOAD" "ARCH" "SOURCES;OPTIONS;INCLUDE_DIRECTORIES;DEPENDS" ${ARGN})
  if(NOT A_ARCH)
    set(A_ARCH ${HIPASM_DEFAULT_ARCH})
  endif()
  if(NOT A_SOURCES)
    message(FATAL_ERROR "hipasm_add_code_object(${target}): SOURCES is required")
  endif()
  # A back-end flag: not part of the precompiled header's flag set (the PCH is the same).
  set(_backend)
  if(A_KERNARG_PRELOAD)
    set(_backend -mllvm -amdgpu-kernarg-preload-count=16)
  endif()
  set(_out "${CMAKE_CURRENT_BINARY_DIR}/${target}.co")
  get_property(_hipasm_inc GLOBAL PROPERTY HIPASM_INCLUDE_DIR)
  get_property(HIPASM_KERNEL_FLAGS GLOBAL PROPERTY HIPASM_KERNEL_FLAGS)
  get_property(_launcher GLOBAL PROPERTY HIPASM_DEVICE_LAUNCHER)
  set(_inc "-I${_hipasm_inc}")
  foreach(_d IN LISTS A_INCLUDE_DIRECTORIES)
    get_filename_component(_d "${_d}" ABSOLUTE)
    list(APPEND _inc "-I${_d}")
  endforeach()
  set(_common -x hip --offload-arch=${A_ARCH} --offload-device-only --no-gpu-bundle-output
              -nogpulib -nogpuinc -O3 ${HIPASM_KERNEL_FLAGS} ${HIPASM_DIRECTORY_KERNEL_FLAGS} ${_inc} ${A_OPTIONS})
  set(_pch_flags)
  set(_pch_deps)
  if(HIPASM_PCH AND NOT A_NO_PCH)
    _hipasm_pch(_pch _pch_target ${_common})
    set(_pch_flags -Xclang -include-pch -Xclang "${_pch}")
    set(_pch_deps "${_pch}")
  endif()
  # One device compile per source, to asm (the kernel's constant evaluation is paid once);
  # the code object is that asm assembled and linked: the same code, descriptors and
  # metadata as compiling straight to an object (tests/cmake checks the sections).
  set(_asms)
  list(LENGTH A_SOURCES _n)
  foreach(_s IN LISTS A_SOURCES)
    get_filename_component(_abs "${_s}" ABSOLUTE)
    if(_n EQUAL 1)
      set(_asm "${CMAKE_CURRENT_BINARY_DIR}/${target}.s")
    else()
      get_filename_component(_stem "${_s}" NAME_WE)
      set(_asm "${CMAKE_CURRENT_BINARY_DIR}/${target}.${_stem}.s")
    endif()
    add_custom_command(OUTPUT "${_asm}"
      # -MD is ignored in device-only mode; the cc1 flags write the depfile.
      COMMAND ${_launcher} "${HIPASM_DEVICE_CXX}" ${_common} ${_backend} ${_pch_flags} -Xclang -dependency-file -Xclang "${_asm}.d"
              -Xclang -MT -Xclang "${_asm}" -S "${_abs}" -o "${_asm}"
      DEPENDS "${_abs}" ${A_DEPENDS} ${_pch_deps} DEPFILE "${_asm}.d"
      COMMENT "hipasm: device compile ${_s} (${A_ARCH})" VERBATIM)
    list(APPEND _asms "${_asm}")
  endforeach()
  _hipasm_assemble_command("${_out}" ${A_ARCH} "hipasm: code object ${target}.co (${A_ARCH})" ${_asms})
  add_custom_target(${target} ALL DEPENDS "${_out}" ${_asms})
  if(_pch_deps)
    add_dependencies(${target} ${_pch_target})
  endif()
  set_target_properties(${target} PROPERTIES HIPASM_CODE_OBJECT "${_out}" HIPASM_ASM "${_asms}")
endfunction()

function(hipasm_assemble target)
  cmake_parse_arguments(A "" "SOURCE;ARCH" "" ${ARGN})
  if(NOT A_ARCH)
    set(A_ARCH ${HIPASM_DEFAULT_ARCH})
  endif()
  get_filename_component(_src "${A_SOURCE}" ABSOLUTE)
  set(_out "${CMAKE_CURRENT_BINARY_DIR}/${target}.co")
  _hipasm_assemble_command("${_out}" ${A_ARCH} "hipasm: assemble ${target}.co" "${_src}")
  add_custom_target(${target} ALL DEPENDS "${_out}")
  set_target_properties(${target} PROPERTIES HIPASM_CODE_OBJECT "${_out}")
endfunction()

function(hipasm_add_hip_executable target)
  cmake_parse_arguments(A "" "ARCH" "SOURCES" ${ARGN})
  if(NOT A_ARCH)
    set(A_ARCH ${HIPASM_DEFAULT_ARCH})
  endif()
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang" OR CMAKE_CXX_COMPILER_VERSION VERSION_LESS 21)
    message(FATAL_ERROR "hipasm_add_hip_executable(${target}): needs CMAKE_CXX_COMPILER = clang++-22 "
                        "(or ROCm's amdclang++), found ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
  endif()
  get_property(HIPASM_KERNEL_FLAGS GLOBAL PROPERTY HIPASM_KERNEL_FLAGS)
  add_executable(${target} ${A_SOURCES})
  set_source_files_properties(${A_SOURCES} PROPERTIES LANGUAGE CXX)
  target_compile_options(${target} PRIVATE -x hip --offload-arch=${A_ARCH} -nogpulib --rocm-path=/usr
                         -D__AMDGCN_WAVEFRONT_SIZE=64 ${HIPASM_KERNEL_FLAGS} ${HIPASM_DIRECTORY_KERNEL_FLAGS})
  target_link_options(${target} PRIVATE --offload-arch=${A_ARCH} -nogpulib --rocm-path=/usr)
  target_link_libraries(${target} PRIVATE hipasm::hipasm amdhip64)
endfunction()

# CMake helpers shipped with hipasm (included by the project and by find_package(hipasm)).
#
#   hipasm_add_code_object(<target> SOURCES <a.hip>... [ARCH gfx942 [gfx950]] [OPTIONS <flag>...]
#                          [INCLUDE_DIRECTORIES <dir>...] [DEPENDS <file>...] [NO_PCH]
#                          [KERNARG_PRELOAD])
#       Compiles HIP sources (device pass only) into one code object (an ELF, not an
#       offload bundle): ${CMAKE_CURRENT_BINARY_DIR}/<target>.co, plus the asm it was
#       assembled from: <target>.s (one source) or <target>.<source name>.s (several).
#       Each source is compiled once (to its .s; the .co is that asm assembled and linked).
#       Several ARCH values: each source is compiled once per arch (the pass defines
#       __gfx942__ or __gfx950__: targets/select.hpp picks the target), into
#       <target>.<arch>.s / <target>.<arch>.<source name>.s and <target>.<arch>.co, and
#       <target>.co is the fat binary: a clang offload bundle of those code objects
#       (hipv4-amdgcn-amd-amdhsa--<arch> entries, as the clang driver bundles them), which
#       hipModuleLoad / hipModuleLoadData, hipasm-sim and hipasm.load accept.
#       A precompiled hipasm/kernels.hpp (hipasm.hpp and the kernel library), shared by all
#       code objects with the same flags (and arch), is used unless NO_PCH or -DHIPASM_PCH=OFF; a
#       source may still #define HIPASM_ASM_COMMENTS
#       before its #include (kernel.hpp reads it where HIPASM_KERNEL_BODY expands).
#       KERNARG_PRELOAD: clang preloads the leading kernel arguments of every kernel of these
#       sources into user SGPRs (-mllvm -amdgpu-kernarg-preload-count=16; clang-22 decides it
#       per translation unit); kernels with kernel_options::kernarg_preload read them there.
#       The custom target <target> has the properties HIPASM_CODE_OBJECT (<target>.co),
#       HIPASM_ASM, HIPASM_ARCH (the archs) and HIPASM_ARCH_CODE_OBJECTS (one code object
#       per arch, in ARCH's order; one arch: <target>.co).
#   hipasm_assemble(<target> SOURCE <k.s> [ARCH gfx942])
#       Assembles a hand-written or hand-edited .s into a code object <target>.co.
#   hipasm_add_hip_executable(<target> SOURCES <a.hip>... [ARCH gfx942 [gfx950]])
#       A full HIP program (host + device: HIP's headers, hipasm kernels, printf and assert in
#       device code) linked against libamdhip64, with AMD's device libraries (ockl, ocml):
#       ROCm's, or Debian's rocm-device-libs (see _hipasm_hip_device_flags). Its code
#       object is also extracted, to <target>.co (the target's property HIPASM_CODE_OBJECT),
#       so that hipasm-sim or hipasm::rt's launcher can run the program's kernels. Several
#       ARCH values: the program carries every arch's code; <target>.co is its fat binary (the
#       offload bundle HIP's runtime loads) and <target>.<arch>.co each arch's code object
#       (HIPASM_ARCH_CODE_OBJECTS).
#
# The device compiler is clang++-22 (or ROCm's amdclang++/hipcc when present); set
# HIPASM_DEVICE_CXX to override. Configuration fails with a clear message when no compiler
# can target gfx942.
include_guard(GLOBAL)
# (a global property: the functions run in the caller's scope, where CMAKE_CURRENT_LIST_DIR is theirs)
set_property(GLOBAL PROPERTY HIPASM_TOOLS_DIR "${CMAKE_CURRENT_LIST_DIR}")

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
  # compiler's instructions a word, written or not: ~0.25 billion for this one, a sixth of
  # an empty kernel's compile): packed 8 characters per word, a fixed 256 KB one (~5000
  # instructions with comments, ~10000 without: past 256 KB the comments are left out, past
  # that the text is printed again, exactly; the library's largest kernel prints 162 KB)
  # costs less than the build-only run that would size it. It also accepts vec's raw storage
  # (vec.hpp), which the default interpreter refuses.
  list(APPEND HIPASM_KERNEL_FLAGS -fexperimental-new-constant-interpreter -DHIPASM_TEXT_PACKED=1
       -DHIPASM_TEXT_CAPACITY=262144 -DHIPASM_VEC_RAW_STORAGE=1)
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
# heap that keeps what it frees faults each page in once. Transparent huge pages for the heap
# (glibc.malloc.hugetlb=1) fault far less, but whether that pays depends on the machine: on a
# VM whose huge-page faults are slow it costs system time and saves no user time, so it is left
# out; add it here where it pays. Set to "" to compile without any.
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
  get_property(_HIPASM_TOOLS_DIR GLOBAL PROPERTY HIPASM_TOOLS_DIR)
  set(_asms ${ARGN})
  list(LENGTH _asms _n)
  if(_n GREATER 1)
    # Several asm files: one metadata note for the code object (hipasm-merge-metadata.cmake).
    set(_linked)
    foreach(_a IN LISTS ARGN)
      get_filename_component(_name "${_a}" NAME)
      list(APPEND _linked "${out}.${_name}.linked.s")
    endforeach()
    string(REPLACE ";" "\\;" _in_arg "${ARGN}")
    string(REPLACE ";" "\\;" _out_arg "${_linked}")
    list(APPEND _cmds COMMAND "${CMAKE_COMMAND}" "-DINPUTS=${_in_arg}" "-DOUTPUTS=${_out_arg}"
                              -P "${_HIPASM_TOOLS_DIR}/hipasm-merge-metadata.cmake")
    set(_asms ${_linked})
  endif()
  if(HIPASM_DEVICE_LLVM_MC AND HIPASM_DEVICE_LD_LLD)
    foreach(_a IN LISTS ARGN)
      get_filename_component(_name "${_a}" NAME)
      set(_obj "${out}.${_name}.o")  # (next to the code object: a source may be in the source tree)
      if(_n GREATER 1)
        set(_a "${out}.${_name}.linked.s")
      endif()
      list(APPEND _cmds COMMAND "${HIPASM_DEVICE_LLVM_MC}" -triple=amdgcn-amd-amdhsa -mcpu=${arch} -filetype=obj
                               "${_a}" -o "${_obj}")
      list(APPEND _objs "${_obj}")
    endforeach()
    list(APPEND _cmds COMMAND "${HIPASM_DEVICE_LD_LLD}" --no-undefined -shared ${_objs} -o "${out}")
  else()
    list(APPEND _cmds COMMAND "${HIPASM_DEVICE_CXX}" -target amdgcn-amd-amdhsa -mcpu=${arch} ${_asms} -o "${out}")
  endif()
  add_custom_command(OUTPUT "${out}" ${_cmds} DEPENDS ${ARGN} "${_HIPASM_TOOLS_DIR}/hipasm-merge-metadata.cmake"
                     COMMENT "${comment}" VERBATIM)
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

# The clang-offload-bundler that packs several archs' code objects into one fat binary: the
# device compiler's own (beside it), else clang-offload-bundler-22 on the path. (Found here, a
# cache variable: the functions may run in a parent directory's scope.)
find_program(HIPASM_DEVICE_OFFLOAD_BUNDLER NAMES clang-offload-bundler PATHS "${_hipasm_cxx_dir}" NO_DEFAULT_PATH)
find_program(HIPASM_DEVICE_OFFLOAD_BUNDLER NAMES clang-offload-bundler-22 clang-offload-bundler
             HINTS /opt/rocm/llvm/bin $ENV{ROCM_PATH}/llvm/bin)

function(_hipasm_offload_bundler out)
  if(NOT HIPASM_DEVICE_OFFLOAD_BUNDLER)
    message(FATAL_ERROR "hipasm: a fat binary (several ARCH values) needs clang-offload-bundler "
                        "(Debian: apt-get install clang-22; or ROCm)")
  endif()
  set(${out} "${HIPASM_DEVICE_OFFLOAD_BUNDLER}" PARENT_SCOPE)
endfunction()

# Adds a custom command that packs the code objects <cos> (one per arch of <archs>, in order)
# into the offload bundle <out>, as the clang driver bundles a multi-arch HIP device compile:
# an empty host entry, then hipv4-amdgcn-amd-amdhsa--<arch> entries aligned to 4096 bytes (the
# format hipModuleLoadData and hipModuleLoad accept).
function(_hipasm_bundle_command out archs comment)
  _hipasm_offload_bundler(_bundler)
  set(_targets "host-${CMAKE_HOST_SYSTEM_PROCESSOR}-unknown-linux-gnu")  # (empty, as the driver's)
  set(_inputs "-input=/dev/null")
  set(_cos ${ARGN})
  foreach(_arch _co IN ZIP_LISTS archs _cos)
    string(APPEND _targets ",hipv4-amdgcn-amd-amdhsa--${_arch}")
    list(APPEND _inputs "-input=${_co}")
  endforeach()
  add_custom_command(OUTPUT "${out}"
    COMMAND "${_bundler}" -type=o -bundle-align=4096 "-targets=${_targets}" ${_inputs} "-output=${out}"
    DEPENDS ${_cos} COMMENT "${comment}" VERBATIM)
endfunction()

# ARCH values checked: at least one (the default), each once.
function(_hipasm_archs out fn)
  set(_archs ${ARGN})
  if(NOT _archs)
    set(_archs ${HIPASM_DEFAULT_ARCH})
  endif()
  set(_seen)
  foreach(_a IN LISTS _archs)
    if(_a IN_LIST _seen)
      message(FATAL_ERROR "${fn}: ARCH ${_a} is given twice")
    endif()
    list(APPEND _seen ${_a})
  endforeach()
  set(${out} ${_archs} PARENT_SCOPE)
endfunction()

function(hipasm_add_code_object target)
  cmake_parse_arguments(A "NO_PCH;KERNARG_PRELOAD" "" "SOURCES;OPTIONS;INCLUDE_DIRECTORIES;DEPENDS;ARCH" ${ARGN})
  _hipasm_archs(_archs "hipasm_add_code_object(${target})" ${A_ARCH})
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
  list(LENGTH _archs _n_archs)
  list(LENGTH A_SOURCES _n)
  set(_all_asms)
  set(_arch_cos)
  set(_pch_targets)
  # One pass per arch (each defines its __gfxNNN__, which targets/select.hpp reads), each with
  # its own precompiled header. Several archs: <target>.<arch>.s / .co per arch, bundled.
  foreach(_arch IN LISTS _archs)
    set(_prefix "${CMAKE_CURRENT_BINARY_DIR}/${target}")
    set(_co "${_out}")
    if(_n_archs GREATER 1)
      string(APPEND _prefix ".${_arch}")
      set(_co "${_prefix}.co")
    endif()
    set(_common -x hip --offload-arch=${_arch} --offload-device-only --no-gpu-bundle-output
                -nogpulib -nogpuinc -O3 ${HIPASM_KERNEL_FLAGS} ${HIPASM_DIRECTORY_KERNEL_FLAGS} ${_inc} ${A_OPTIONS})
    set(_pch_flags)
    set(_pch_deps)
    if(HIPASM_PCH AND NOT A_NO_PCH)
      _hipasm_pch(_pch _pch_target ${_common})
      set(_pch_flags -Xclang -include-pch -Xclang "${_pch}")
      set(_pch_deps "${_pch}")
      list(APPEND _pch_targets ${_pch_target})
    endif()
    # One device compile per source, to asm (the kernel's constant evaluation is paid once);
    # the code object is that asm assembled and linked: the same code, descriptors and
    # metadata as compiling straight to an object (tests/cmake checks the sections).
    set(_asms)
    foreach(_s IN LISTS A_SOURCES)
      get_filename_component(_abs "${_s}" ABSOLUTE)
      if(_n EQUAL 1)
        set(_asm "${_prefix}.s")
      else()
        get_filename_component(_stem "${_s}" NAME_WE)
        set(_asm "${_prefix}.${_stem}.s")
      endif()
      add_custom_command(OUTPUT "${_asm}"
        # -MD is ignored in device-only mode; the cc1 flags write the depfile.
        COMMAND ${_launcher} "${HIPASM_DEVICE_CXX}" ${_common} ${_backend} ${_pch_flags} -Xclang -dependency-file -Xclang "${_asm}.d"
                -Xclang -MT -Xclang "${_asm}" -S "${_abs}" -o "${_asm}"
        DEPENDS "${_abs}" ${A_DEPENDS} ${_pch_deps} DEPFILE "${_asm}.d"
        COMMENT "hipasm: device compile ${_s} (${_arch})" VERBATIM)
      list(APPEND _asms "${_asm}")
    endforeach()
    get_filename_component(_co_name "${_co}" NAME)
    _hipasm_assemble_command("${_co}" ${_arch} "hipasm: code object ${_co_name} (${_arch})" ${_asms})
    list(APPEND _all_asms ${_asms})
    list(APPEND _arch_cos "${_co}")
  endforeach()
  if(_n_archs GREATER 1)
    list(JOIN _archs " " _names)
    _hipasm_bundle_command("${_out}" "${_archs}" "hipasm: fat binary ${target}.co (${_names})" ${_arch_cos})
  endif()
  add_custom_target(${target} ALL DEPENDS "${_out}" ${_arch_cos} ${_all_asms})
  if(_pch_targets)
    add_dependencies(${target} ${_pch_targets})
  endif()
  set_target_properties(${target} PROPERTIES HIPASM_CODE_OBJECT "${_out}" HIPASM_ASM "${_all_asms}"
                        HIPASM_ARCH "${_archs}" HIPASM_ARCH_CODE_OBJECTS "${_arch_cos}")
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

# Sets <out> to the flags with which CMAKE_CXX_COMPILER finds AMD's device libraries for
# <arch> (cached per arch). HIP's headers call them (threadIdx, printf, assert: __ockl_*):
# a program built with -nogpulib does not link. Tried in order: the compiler's own search
# (ROCm), --rocm-path=/usr (Debian), and Debian's rocm-device-libs completed in the build tree.
# Debian's 5.2 libraries lack the two constant files clang-22 asks for on gfx942:
# oclc_isa_version_942 (__oclc_ISA_version, major * 1000 + minor * 100 + stepping) and
# oclc_abi_version_600 (the code object version clang-22 builds; ockl only tests
# __oclc_ABI_version < 500, and v6's hidden arguments are v5's). Each is one constant,
# compiled here from C; the directory links every other file to the system's.
function(_hipasm_hip_device_flags arch out)
  set(_libs "${CMAKE_BINARY_DIR}/hipasm-device-libs/${arch}")
  if(DEFINED HIPASM_HIP_DEVICE_FLAGS_${arch})
    if(HIPASM_HIP_DEVICE_FLAGS_${arch} MATCHES "hipasm-device-libs")
      _hipasm_complete_device_libs("${HIPASM_DEVICE_LIB_DIR}" "${_libs}" ${arch})  # (a cleaned build dir)
    endif()
    set(${out} "${HIPASM_HIP_DEVICE_FLAGS_${arch}}" PARENT_SCOPE)
    return()
  endif()
  set(_dir "${CMAKE_BINARY_DIR}/hipasm-probe/hip-${arch}")
  file(MAKE_DIRECTORY "${_dir}")
  file(WRITE "${_dir}/probe.hip" "#include <hip/hip_runtime.h>\n#include <cassert>\n"
       "__global__ void probe(int* p) { assert(p); if (!p[0]) printf(\"%d\", 1); p[threadIdx.x] = blockDim.x; }\n")
  find_path(HIPASM_DEVICE_LIB_DIR NAMES ockl.bc
            PATHS /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/amdgcn/bitcode /usr/lib/x86_64-linux-gnu/amdgcn/bitcode
                  /opt/rocm/amdgcn/bitcode
            DOC "AMD's device library bitcode (ockl.bc, ocml.bc)")
  set(_log)
  foreach(_try RANGE 2)
    if(_try EQUAL 0)
      set(_flags)
    elseif(_try EQUAL 1)
      set(_flags --rocm-path=/usr)
    elseif(HIPASM_DEVICE_LIB_DIR)
      _hipasm_complete_device_libs("${HIPASM_DEVICE_LIB_DIR}" "${_libs}" ${arch})
      set(_flags --rocm-path=/usr "--rocm-device-lib-path=${_libs}")
    else()
      break()
    endif()
    execute_process(
      COMMAND "${CMAKE_CXX_COMPILER}" -x hip -std=c++20 --offload-arch=${arch} --offload-device-only ${_flags}
              -D__AMDGCN_WAVEFRONT_SIZE=64 -c probe.hip -o probe.o
      WORKING_DIRECTORY "${_dir}" RESULT_VARIABLE _rc OUTPUT_VARIABLE _o ERROR_VARIABLE _e)
    if(_rc EQUAL 0)
      set(HIPASM_HIP_DEVICE_FLAGS_${arch} "${_flags}" CACHE INTERNAL "device library flags of HIP programs (${arch})")
      message(STATUS "hipasm: HIP programs for ${arch} link AMD's device libraries (${_flags})")
      set(${out} "${_flags}" PARENT_SCOPE)
      return()
    endif()
    string(APPEND _log "  [${_flags}]: ${_e}\n")
  endforeach()
  message(FATAL_ERROR
    "hipasm: ${CMAKE_CXX_COMPILER} cannot build a HIP program for ${arch}: AMD's device libraries "
    "(ockl.bc, ocml.bc) or HIP's headers are missing. Install ROCm, or on Debian "
    "`apt-get install libamdhip64-dev rocm-device-libs` (scripts/install-deps.sh).\n${_log}")
endfunction()

# Fills <libs> with links to <sys>'s bitcode files and the two constant files <sys> may lack.
function(_hipasm_complete_device_libs sys libs arch)
  file(MAKE_DIRECTORY "${libs}")
  file(GLOB _bcs "${sys}/*.bc")
  foreach(_bc IN LISTS _bcs)
    get_filename_component(_name "${_bc}" NAME)
    file(CREATE_LINK "${_bc}" "${libs}/${_name}" SYMBOLIC)
  endforeach()
  string(REGEX MATCH "^gfx([0-9a-f]+)([0-9a-f])([0-9a-f])$" _m "${arch}")
  if(NOT _m)
    return()  # (not a gfx name: the compiler's error says what is missing)
  endif()
  math(EXPR _isa "${CMAKE_MATCH_1} * 1000 + 0x${CMAKE_MATCH_2} * 100 + 0x${CMAKE_MATCH_3}")
  string(SUBSTRING "${arch}" 3 -1 _isa_name)
  foreach(_file "oclc_isa_version_${_isa_name}:__oclc_ISA_version:${_isa}"
                "oclc_abi_version_600:__oclc_ABI_version:600")
    string(REPLACE ":" ";" _file "${_file}")
    list(GET _file 0 _name)
    list(GET _file 1 _sym)
    list(GET _file 2 _value)
    if(EXISTS "${libs}/${_name}.bc")
      continue()
    endif()
    file(WRITE "${libs}/${_name}.c"
         "__attribute__((visibility(\"protected\"))) const __attribute__((address_space(4))) int ${_sym} = ${_value};\n")
    execute_process(
      COMMAND "${CMAKE_CXX_COMPILER}" -x c -target amdgcn-amd-amdhsa -nogpulib -O2 -c -emit-llvm
              "${libs}/${_name}.c" -o "${libs}/${_name}.bc"
      RESULT_VARIABLE _rc ERROR_VARIABLE _e)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "hipasm: cannot compile ${_name}.bc: ${_e}")
    endif()
  endforeach()
endfunction()

function(hipasm_add_hip_executable target)
  cmake_parse_arguments(A "" "" "SOURCES;ARCH" ${ARGN})
  _hipasm_archs(_archs "hipasm_add_hip_executable(${target})" ${A_ARCH})
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang" OR CMAKE_CXX_COMPILER_VERSION VERSION_LESS 21)
    message(FATAL_ERROR "hipasm_add_hip_executable(${target}): needs CMAKE_CXX_COMPILER = clang++-22 "
                        "(or ROCm's amdclang++), found ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
  endif()
  find_library(HIPASM_AMDHIP64 NAMES amdhip64 HINTS /opt/rocm/lib $ENV{ROCM_PATH}/lib)
  if(NOT HIPASM_AMDHIP64)
    message(FATAL_ERROR "hipasm_add_hip_executable(${target}): no libamdhip64 (Debian: "
                        "apt-get install libamdhip64-dev; or ROCm)")
  endif()
  # Each arch's device-library flags, joined. clang-22 reads the device libraries of every arch
  # of a compile from one --rocm-device-lib-path (given two, it finds gfx942's in neither): archs
  # that each need a completed directory share one completed for all of them.
  set(_devlibs)
  set(_libdirs)
  set(_offload)
  foreach(_arch IN LISTS _archs)
    _hipasm_hip_device_flags(${_arch} _flags)
    foreach(_f IN LISTS _flags)
      if(_f MATCHES "^--rocm-device-lib-path=")
        list(APPEND _libdirs "${_f}")
      elseif(NOT _f IN_LIST _devlibs)
        list(APPEND _devlibs "${_f}")
      endif()
    endforeach()
    list(APPEND _offload --offload-arch=${_arch})
  endforeach()
  list(LENGTH _libdirs _n_libdirs)
  if(_n_libdirs EQUAL 1)
    list(APPEND _devlibs ${_libdirs})
  elseif(_n_libdirs GREATER 1)
    list(JOIN _archs "+" _key)
    set(_shared "${CMAKE_BINARY_DIR}/hipasm-device-libs/${_key}")
    foreach(_arch IN LISTS _archs)
      _hipasm_complete_device_libs("${HIPASM_DEVICE_LIB_DIR}" "${_shared}" ${_arch})
    endforeach()
    list(APPEND _devlibs "--rocm-device-lib-path=${_shared}")
  endif()
  get_property(HIPASM_KERNEL_FLAGS GLOBAL PROPERTY HIPASM_KERNEL_FLAGS)
  add_executable(${target} ${A_SOURCES})
  set_source_files_properties(${A_SOURCES} PROPERTIES LANGUAGE CXX)
  # The wavefront size: Debian's HIP 5.2 headers read a macro clang-22 no longer predefines.
  # The device pass is -O3 whatever the build type, as hipasm_add_code_object's: at -O0 -g the
  # debug info of a hipasm kernel's argument check (a template on &kernel_fn) makes clang
  # emit the kernel's builder code for the device, which does not link (strlen, operator new).
  target_compile_options(${target} PRIVATE -x hip ${_offload} ${_devlibs} -Xarch_device -O3
                         -D__AMDGCN_WAVEFRONT_SIZE=64 ${HIPASM_KERNEL_FLAGS} ${HIPASM_DIRECTORY_KERNEL_FLAGS})
  target_link_libraries(${target} PRIVATE hipasm::hipasm "${HIPASM_AMDHIP64}")
  # The device code object, out of the program's offload bundle, for hipasm-sim and
  # hipasm::rt (a program's own hipLaunch needs a GPU). Several archs: <target>.co is the
  # program's whole fat binary (the .hip_fatbin section: a bundle of every arch) and
  # <target>.<arch>.co each arch's code object.
  get_filename_component(_real "${CMAKE_CXX_COMPILER}" REALPATH)
  get_filename_component(_bin "${_real}" DIRECTORY)
  find_program(HIPASM_OFFLOAD_BUNDLER NAMES clang-offload-bundler PATHS "${_bin}" NO_DEFAULT_PATH)
  find_program(HIPASM_LLVM_OBJCOPY NAMES llvm-objcopy PATHS "${_bin}" NO_DEFAULT_PATH)
  if(HIPASM_OFFLOAD_BUNDLER AND HIPASM_LLVM_OBJCOPY)
    set(_co "${CMAKE_CURRENT_BINARY_DIR}/${target}.co")
    list(LENGTH _archs _n_archs)
    set(_targets)
    set(_outputs)
    set(_arch_cos)
    foreach(_arch IN LISTS _archs)
      list(APPEND _targets "hipv4-amdgcn-amd-amdhsa--${_arch}")
      if(_n_archs EQUAL 1)
        list(APPEND _arch_cos "${_co}")
      else()
        list(APPEND _arch_cos "${CMAKE_CURRENT_BINARY_DIR}/${target}.${_arch}.co")
      endif()
    endforeach()
    list(JOIN _targets "," _targets)
    list(TRANSFORM _arch_cos PREPEND "--output=" OUTPUT_VARIABLE _outputs)
    set(_byproducts "${_co}" ${_arch_cos})
    list(REMOVE_DUPLICATES _byproducts)
    set(_keep_fatbin COMMAND "${CMAKE_COMMAND}" -E rm -f "${_co}.hipfb")
    if(_n_archs GREATER 1)
      set(_keep_fatbin COMMAND "${CMAKE_COMMAND}" -E rename "${_co}.hipfb" "${_co}")
    endif()
    add_custom_command(TARGET ${target} POST_BUILD
      COMMAND "${HIPASM_LLVM_OBJCOPY}" --dump-section ".hip_fatbin=${_co}.hipfb" "$<TARGET_FILE:${target}>" "${_co}.host"
      COMMAND "${HIPASM_OFFLOAD_BUNDLER}" --unbundle --type=o "--input=${_co}.hipfb" "--targets=${_targets}" ${_outputs}
      ${_keep_fatbin}
      COMMAND "${CMAKE_COMMAND}" -E rm -f "${_co}.host"
      BYPRODUCTS ${_byproducts} COMMENT "hipasm: ${target}.co (${target}'s device code)" VERBATIM)
    set_target_properties(${target} PROPERTIES HIPASM_CODE_OBJECT "${_co}" HIPASM_ARCH "${_archs}"
                          HIPASM_ARCH_CODE_OBJECTS "${_arch_cos}")
  endif()
endfunction()

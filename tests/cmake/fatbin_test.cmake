# hipasm_add_code_object with ARCH gfx942 gfx950: a fat binary checked with LLVM's own tools.
#  - clang-offload-bundler --list names the entries the clang driver writes for the same two
#    --offload-arch values (a host entry and hipv4-amdgcn-amd-amdhsa--<arch>);
#  - each entry, unbundled by clang-offload-bundler, is byte for byte the arch's own code object;
#  - each code object is its arch's (llvm-readelf: the e_flags processor, amdhsa.target; llvm-objdump
#    disassembles it as that processor) and, from several sources, has one metadata note naming
#    every kernel (the merge runs per arch).
# Script mode: -DBUNDLER= -DREADELF= -DOBJDUMP= -DCXX= -DFAT= -DARCHS=<list> -DARCH_COS=<list>
#              -DKERNELS=<list> -DWORK=
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
include("${CMAKE_CURRENT_LIST_DIR}/script_run.cmake")

function(bundle_entries file out)
  run("${BUNDLER}" --list --type=o "--input=${file}")
  string(REGEX MATCHALL "[^\n]+" _ids "${last_output}")
  list(SORT _ids)
  set(${out} "${_ids}" PARENT_SCOPE)
endfunction()

bundle_entries("${FAT}" _ours)
set(_want "host-x86_64-unknown-linux-gnu-")
set(_offload)
foreach(_arch IN LISTS ARCHS)
  list(APPEND _want "hipv4-amdgcn-amd-amdhsa--${_arch}")
  list(APPEND _offload --offload-arch=${_arch})
endforeach()
list(SORT _want)
if(NOT _ours STREQUAL _want)
  message(FATAL_ERROR "${FAT}: entries '${_ours}', expected '${_want}'")
endif()
# The clang driver's own fat binary of a device-only compile for the same archs.
file(WRITE "${WORK}/driver.hip" "extern \"C\" __attribute__((global)) void k(int* p) { *p = 1; }\n")
run("${CXX}" -x hip ${_offload} --offload-device-only -nogpulib -nogpuinc -O3 -c "${WORK}/driver.hip"
    -o "${WORK}/driver.fat")
bundle_entries("${WORK}/driver.fat" _driver)
if(NOT _ours STREQUAL _driver)
  message(FATAL_ERROR "entries '${_ours}', the clang driver's '${_driver}'")
endif()

foreach(_arch _co IN ZIP_LISTS ARCHS ARCH_COS)
  run("${BUNDLER}" --unbundle --type=o "--input=${FAT}" "--targets=hipv4-amdgcn-amd-amdhsa--${_arch}"
      "--output=${WORK}/${_arch}.co")
  file(SHA256 "${WORK}/${_arch}.co" _unbundled)
  file(SHA256 "${_co}" _own)
  if(NOT _unbundled STREQUAL _own)
    message(FATAL_ERROR "the ${_arch} entry of ${FAT} is not ${_co}")
  endif()
  run("${READELF}" --file-headers "${_co}")
  if(NOT last_output MATCHES "Flags: +0x[0-9a-f]+, ${_arch}[,
]")
    message(FATAL_ERROR "${_co}: e_flags do not name ${_arch}:\n${last_output}")
  endif()
  run("${READELF}" --notes "${_co}")
  set(_notes "${last_output}")
  string(REGEX MATCHALL "NT_AMDGPU_METADATA" _n "${_notes}")
  list(LENGTH _n _n)
  if(NOT _n EQUAL 1 OR NOT _notes MATCHES "amdhsa.target: +'?amdgcn-amd-amdhsa--${_arch}'?\n")
    message(FATAL_ERROR "${_co}: expected one metadata note with amdhsa.target ${_arch}:\n${_notes}")
  endif()
  foreach(_k IN LISTS KERNELS)
    if(NOT _notes MATCHES "\\.name: +${_k}\n")
      message(FATAL_ERROR "${_co}: the metadata lacks kernel ${_k}:\n${_notes}")
    endif()
  endforeach()
  run("${OBJDUMP}" -d "${_co}")
  if(NOT last_output MATCHES "file format elf64-amdgpu" OR NOT last_output MATCHES "s_endpgm")
    message(FATAL_ERROR "${_co}: llvm-objdump does not disassemble it:\n${last_output}")
  endif()
  # (llvm-objdump takes the processor from e_flags; disassembling as the other one is refused or
  # differs only where the ISAs do, so the machine check above is the identity check.)
endforeach()
message(STATUS "PASS: ${FAT} carries ${ARCHS} as the clang driver bundles them")

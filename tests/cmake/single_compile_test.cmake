# hipasm_add_code_object compiles each source once, to asm, and assembles and links that asm.
# This compares its code object with the same sources compiled straight to a code object
# (-c, what the helper did when it compiled every source twice; several sources: each
# straight to an object, then linked): the same code and encodings, kernel descriptors,
# metadata notes and kernel symbols. (Assembling the asm adds an empty .AMDGPU.csdata
# section and the .set register counts as local ABS symbols; the per-compile __hip_cuid
# symbol differs by design.)
# Script mode: -DCXX= -DARCH= -DFLAGS=<list> -DSOURCES=<list> -DCO=<helper's .co> -DOBJDUMP= -DREADELF= -DWORK=
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
function(run out_var)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()
list(LENGTH SOURCES _n)
if(_n EQUAL 1)
  run(_ ${CXX} ${FLAGS} -c ${SOURCES} -o "${WORK}/direct.co")
else()
  # Several sources: each straight to a relocatable object (the code generator's own object
  # writer, as -c uses), then linked as the helper links.
  set(_objs)
  foreach(_s IN LISTS SOURCES)
    get_filename_component(_stem "${_s}" NAME_WE)
    run(_ ${CXX} ${FLAGS} -S -Xclang -emit-obj "${_s}" -o "${WORK}/${_stem}.o")
    list(APPEND _objs "${WORK}/${_stem}.o")
  endforeach()
  run(_ ${CXX} -target amdgcn-amd-amdhsa -mcpu=${ARCH} ${_objs} -o "${WORK}/direct.co")
endif()
foreach(_which helper direct)
  set(_co "${WORK}/direct.co")
  if(_which STREQUAL "helper")
    set(_co "${CO}")
  endif()
  run(_dis ${OBJDUMP} -d "${_co}")
  run(_ro ${OBJDUMP} -s -j .rodata "${_co}")
  run(_notes ${READELF} --notes "${_co}")
  run(_syms ${READELF} -s --wide "${_co}")
  # Drop the lines naming the file; keep the global symbols but their index.
  string(REGEX REPLACE "[^\n]*file format[^\n]*" "" _dis "${_dis}")
  string(REGEX REPLACE "[^\n]*file format[^\n]*" "" _ro "${_ro}")
  string(REGEX MATCHALL "[0-9a-f]+ +[0-9]+ [A-Z]+ +GLOBAL[^\n]*" _globals "${_syms}")
  list(FILTER _globals EXCLUDE REGEX "__hip_cuid")
  if(NOT _dis MATCHES "s_endpgm" OR NOT _ro MATCHES "Contents of section" OR NOT _notes MATCHES "amdhsa.kernels"
     OR NOT _globals)
    message(FATAL_ERROR "${_co}: no code, descriptor, metadata or symbols?\n${_dis}\n${_ro}\n${_notes}\n${_syms}")
  endif()
  set(_${_which} "${_dis}|${_ro}|${_notes}|${_globals}")
  file(WRITE "${WORK}/${_which}.txt" "${_dis}\n${_ro}\n${_notes}\n${_globals}\n")
endforeach()
if(NOT _helper STREQUAL _direct)
  message(FATAL_ERROR "${CO} differs from a direct compile: compare ${WORK}/helper.txt and ${WORK}/direct.txt")
endif()
message(STATUS "PASS: ${CO} matches a direct compile (code, descriptors, metadata, kernel symbols)")

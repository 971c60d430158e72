# A HIP program built by hipasm_add_hip_executable (consumer/hip_program.hip), in script mode
# (-P, or include()d by consumer_test.cmake): runs the program (here, with no GPU, its host code
# finds no device and says so), then runs both kernels of its extracted code object in hipasm-sim
# and checks what they wrote against values computed here.
# Variables: HIP_PROGRAM (the executable), HIP_PROGRAM_CO (its code object), HIPASM_SIM, HIP_WORK;
# SIM_DEVICE (optional): hipasm-sim's --device (a fat binary: the code object of its target).
file(REMOVE_RECURSE "${HIP_WORK}")
file(MAKE_DIRECTORY "${HIP_WORK}")
include("${CMAKE_CURRENT_LIST_DIR}/script_run.cmake")
set(_device)
if(SIM_DEVICE)
  set(_device --device ${SIM_DEVICE})
endif()
# Word <i> (little-endian int32) of a file read as hex, as a number.
function(hip_word hex i out)
  math(EXPR _o "${i} * 8")
  string(SUBSTRING "${hex}" ${_o} 8 _w)
  string(REGEX REPLACE "^(..)(..)(..)(..)$" "0x\\4\\3\\2\\1" _w "${_w}")
  math(EXPR _v "${_w}")
  set(${out} ${_v} PARENT_SCOPE)
endfunction()

run("${HIP_PROGRAM}")
if(NOT last_output MATCHES "hip_program: (no device|OK)")
  message(FATAL_ERROR "hip_program printed:\n${last_output}")
endif()
if(NOT EXISTS "${HIP_PROGRAM_CO}")
  message(FATAL_ERROR "no code object extracted from the HIP program: ${HIP_PROGRAM_CO}")
endif()

# index_times_three (HIP C++: blockIdx/blockDim through ockl, an assert that holds, a printf
# not taken): out[i] = 3 * i + 64 for i < 100, the rest of the zeroed buffer untouched.
run("${HIPASM_SIM}" run "${HIP_PROGRAM_CO}" index_times_three ${_device} --grid 2 --block 64
        --arg "out=${HIP_WORK}/three.bin:512" --arg i32=100)
file(READ "${HIP_WORK}/three.bin" _hex HEX)
foreach(_i RANGE 127)
  hip_word("${_hex}" ${_i} _got)
  set(_want 0)
  if(_i LESS 100)
    math(EXPR _want "3 * ${_i} + 64")
  endif()
  if(NOT _got EQUAL _want)
    message(FATAL_ERROR "index_times_three: out[${_i}] = ${_got}, expected ${_want}")
  endif()
endforeach()

# double_it (the hipasm kernel): out[i] = 2 * in[i] (mod 2^32) for i < 100.
string(REPEAT "hipasm: a HIP program's kernel in the simulator. " 11 _text)
file(WRITE "${HIP_WORK}/in.bin" "${_text}")
run("${HIPASM_SIM}" run "${HIP_PROGRAM_CO}" double_it ${_device} --grid 2 --block 64
        --arg "out=${HIP_WORK}/double.bin:512" --arg "in=${HIP_WORK}/in.bin" --arg u32=100)
file(READ "${HIP_WORK}/in.bin" _in HEX)
file(READ "${HIP_WORK}/double.bin" _out HEX)
foreach(_i RANGE 127)
  hip_word("${_out}" ${_i} _got)
  set(_want 0)
  if(_i LESS 100)
    hip_word("${_in}" ${_i} _x)
    math(EXPR _want "(2 * ${_x}) & 0xffffffff")
  endif()
  if(NOT _got EQUAL _want)
    message(FATAL_ERROR "double_it: out[${_i}] = ${_got}, expected ${_want}")
  endif()
endforeach()
message(STATUS "hip_program OK: both kernels of its code object ran in hipasm-sim ${SIM_DEVICE}")

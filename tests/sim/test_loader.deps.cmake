# The loader's oracle test: its kernels compiled twice (default float modes; flushed
# denormals with IEEE mode off), each with llvm-readobj-22's view of notes and symbols.
# Also pulls in the CLI robustness tests (cli/) and the loader fuzz targets (fuzz/).
if(NOT TARGET sim_loader_kernels)
  hipasm_add_code_object(sim_loader_kernels SOURCES "${CMAKE_CURRENT_LIST_DIR}/test_loader_kernels.hip")
  hipasm_add_code_object(sim_loader_kernels_ftz SOURCES "${CMAKE_CURRENT_LIST_DIR}/test_loader_kernels.hip"
                         OPTIONS -fgpu-flush-denormals-to-zero -mno-amdgpu-ieee -fno-honor-nans)
  # The same kernels for gfx950 (the loader reads the target from e_flags).
  hipasm_add_code_object(sim_loader_kernels_gfx950 SOURCES "${CMAKE_CURRENT_LIST_DIR}/test_loader_kernels.hip"
                         ARCH gfx950)
  # The seeds' workflow: clang's .s output assembled again (as a hand-edited .s would be).
  hipasm_assemble(sim_loader_kernels_asm SOURCE "${CMAKE_CURRENT_BINARY_DIR}/sim_loader_kernels.s")
  add_dependencies(sim_loader_kernels_asm sim_loader_kernels)
  find_program(HIPASM_LLVM_READOBJ NAMES llvm-readobj-22 llvm-readobj REQUIRED)
  foreach(_co sim_loader_kernels sim_loader_kernels_ftz sim_loader_kernels_gfx950)
    add_custom_command(OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/${_co}.readobj.txt"
      COMMAND sh -c "\"$0\" --notes --dyn-symbols \"$1\" > \"$2\"" "${HIPASM_LLVM_READOBJ}"
              "${CMAKE_CURRENT_BINARY_DIR}/${_co}.co" "${CMAKE_CURRENT_BINARY_DIR}/${_co}.readobj.txt"
      DEPENDS ${_co} "${CMAKE_CURRENT_BINARY_DIR}/${_co}.co"
      COMMENT "llvm-readobj: ${_co}.readobj.txt" VERBATIM)
  endforeach()
  add_custom_target(sim_loader_oracles ALL DEPENDS
    "${CMAKE_CURRENT_BINARY_DIR}/sim_loader_kernels.readobj.txt"
    "${CMAKE_CURRENT_BINARY_DIR}/sim_loader_kernels_ftz.readobj.txt"
    "${CMAKE_CURRENT_BINARY_DIR}/sim_loader_kernels_gfx950.readobj.txt")
  add_dependencies(sim_loader_oracles sim_loader_kernels sim_loader_kernels_ftz sim_loader_kernels_gfx950
                   sim_loader_kernels_asm)
  foreach(_sub cli fuzz)
    if(EXISTS "${CMAKE_CURRENT_LIST_DIR}/${_sub}/CMakeLists.txt")
      add_subdirectory("${CMAKE_CURRENT_LIST_DIR}/${_sub}" "${CMAKE_CURRENT_BINARY_DIR}/${_sub}")
    endif()
  endforeach()
endif()
add_dependencies(${HIPASM_SIM_TEST_TARGET} sim_loader_oracles)
set_tests_properties(${HIPASM_SIM_TEST_NAME} PROPERTIES LABELS "sim;loader")

# Code objects of test_multi_device: clang's memory-model code for cross-device message passing.
if(NOT TARGET sim_peer_kernels)
  hipasm_add_code_object(sim_peer_kernels SOURCES "${CMAKE_CURRENT_SOURCE_DIR}/multi/peer_kernels.hip" NO_PCH)
  hipasm_add_code_object(sim_peer_kernels_gfx950 SOURCES "${CMAKE_CURRENT_SOURCE_DIR}/multi/peer_kernels.hip"
                         ARCH gfx950 NO_PCH)
endif()
add_dependencies(${HIPASM_SIM_TEST_TARGET} sim_peer_kernels sim_peer_kernels_gfx950)
if(TARGET sim_cli_inputs)  # the command line's `node` test (cli/CMakeLists.txt) runs them too
  add_dependencies(sim_cli_inputs sim_peer_kernels)
endif()
set_tests_properties(${HIPASM_SIM_TEST_NAME} PROPERTIES LABELS "sim;core")

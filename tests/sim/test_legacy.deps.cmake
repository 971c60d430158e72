# Code object of test_legacy: hand-written asm for the legacy / mode-changing instructions.
if(NOT TARGET sim_legacy_asm)
  hipasm_assemble(sim_legacy_asm SOURCE "${CMAKE_CURRENT_LIST_DIR}/core_kernels/legacy_kernels.s")
endif()
add_dependencies(${HIPASM_SIM_TEST_TARGET} sim_legacy_asm)
set_tests_properties(${HIPASM_SIM_TEST_NAME} PROPERTIES LABELS "sim;core")

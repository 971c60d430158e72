# Code object of test_legacy: hand-written asm for the legacy / mode-changing instructions.
if(NOT TARGET sim_legacy_asm)
  hipasm_assemble(sim_legacy_asm SOURCE "${CMAKE_CURRENT_LIST_DIR}/core_kernels/legacy_kernels.s")
endif()
add_dependencies(${HIPASM_SIM_TEST_TARGET} sim_legacy_asm)
set_tests_properties(${HIPASM_SIM_TEST_NAME} PROPERTIES LABELS "sim;core")
# The coverage test reads hipasm's gfx942 instruction table.
target_link_libraries(${HIPASM_SIM_TEST_TARGET} PRIVATE hipasm::hipasm)

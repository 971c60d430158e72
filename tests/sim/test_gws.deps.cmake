# Code object of test_gws: hand-written asm for the global wave sync instructions (ds_gws_*).
if(NOT TARGET sim_gws_asm)
  hipasm_assemble(sim_gws_asm SOURCE "${CMAKE_CURRENT_LIST_DIR}/core_kernels/gws_kernels.s")
endif()
add_dependencies(${HIPASM_SIM_TEST_TARGET} sim_gws_asm)
set_tests_properties(${HIPASM_SIM_TEST_NAME} PROPERTIES LABELS "sim;core")

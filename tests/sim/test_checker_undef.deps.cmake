# Kernels for the checker's definedness rules (checker/undef_kernels.s).
hipasm_assemble(sim_undef_kernels SOURCE "${CMAKE_CURRENT_SOURCE_DIR}/checker/undef_kernels.s")
add_dependencies(${HIPASM_SIM_TEST_TARGET} sim_undef_kernels)
set_tests_properties(${HIPASM_SIM_TEST_NAME} PROPERTIES LABELS "sim;checker")

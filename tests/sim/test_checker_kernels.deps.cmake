# The checker's rule kernels: one code object with a __ok/__bad pair per rule.
hipasm_assemble(sim_checker_kernels SOURCE "${CMAKE_CURRENT_SOURCE_DIR}/checker/checker_kernels.s")
add_dependencies(${HIPASM_SIM_TEST_TARGET} sim_checker_kernels)
set_tests_properties(${HIPASM_SIM_TEST_NAME} PROPERTIES LABELS "sim;checker")

# One kernel breaking the four rules AMD's production code breaks (checker/checker_allow.s).
hipasm_assemble(sim_checker_allow_kernels SOURCE "${CMAKE_CURRENT_SOURCE_DIR}/checker/checker_allow.s")
add_dependencies(${HIPASM_SIM_TEST_TARGET} sim_checker_allow_kernels)
set_tests_properties(${HIPASM_SIM_TEST_NAME} PROPERTIES LABELS "sim;checker")

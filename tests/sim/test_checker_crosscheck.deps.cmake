# The cross-check reads hipasm's own hazard table (header-only library).
target_link_libraries(${HIPASM_SIM_TEST_TARGET} PRIVATE hipasm::hipasm)
set_tests_properties(${HIPASM_SIM_TEST_NAME} PROPERTIES LABELS "sim;checker")

# The gfx950 reference tests need the suite's code objects built first.
add_dependencies(${HIPASM_SIM_TEST_TARGET} ${HIPASM_SIM_REF_TARGETS})
set_tests_properties(${HIPASM_SIM_TEST_NAME} PROPERTIES LABELS "sim;reference;gfx950")

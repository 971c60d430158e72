# The reference tests need the suite's code objects built first.
add_dependencies(${HIPASM_SIM_TEST_TARGET} ${HIPASM_SIM_REF_TARGETS})
set_tests_properties(${HIPASM_SIM_TEST_NAME} PROPERTIES LABELS "sim;reference")
# The same tests on the gfx950 build of the group's kernels.
add_test(NAME ${HIPASM_SIM_TEST_NAME}_gfx950 COMMAND ${HIPASM_SIM_TEST_TARGET}
         WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
set_tests_properties(${HIPASM_SIM_TEST_NAME}_gfx950 PROPERTIES LABELS "sim;reference;gfx950"
                     ENVIRONMENT "HIPASM_SIMREF_ARCH=gfx950")

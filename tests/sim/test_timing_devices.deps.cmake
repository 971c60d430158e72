# The mi355x profile cases run clang-22's gfx950 reference kernels (and a gfx942 one).
add_dependencies(${HIPASM_SIM_TEST_TARGET} ${HIPASM_SIM_REF_TARGETS})
set_tests_properties(${HIPASM_SIM_TEST_NAME} PROPERTIES LABELS "sim;timing;gfx950")

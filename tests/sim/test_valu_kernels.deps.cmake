# The VALU/MFMA end-to-end kernels (tests/sim/valu/valu_kernels.hip) as a gfx942 code object
# next to this test: ${HIPASM_SIM_TEST_DIR}/simvalu_kernels.co.
hipasm_add_code_object(simvalu_kernels SOURCES "${CMAKE_CURRENT_SOURCE_DIR}/valu/valu_kernels.hip")
add_dependencies(${HIPASM_SIM_TEST_TARGET} simvalu_kernels)
set_tests_properties(${HIPASM_SIM_TEST_NAME} PROPERTIES LABELS "sim;valu")

# The MUBUF range-check kernels: one code object, one kernel per access form.
hipasm_assemble(sim_mubuf_kernels SOURCE "${CMAKE_CURRENT_SOURCE_DIR}/mubuf/mubuf_range.s")
add_dependencies(${HIPASM_SIM_TEST_TARGET} sim_mubuf_kernels)
set_tests_properties(${HIPASM_SIM_TEST_NAME} PROPERTIES LABELS "sim;mubuf")

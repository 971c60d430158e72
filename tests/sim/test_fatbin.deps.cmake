# A fat binary of one example kernel for gfx942 and gfx950 (hipasm_add_code_object with two
# ARCH values): the device compile of each arch selects its target (targets/select.hpp).
hipasm_add_code_object(sim_fatbin_vector_add SOURCES "${PROJECT_SOURCE_DIR}/examples/vector_add.hip" ARCH gfx942 gfx950
                       INCLUDE_DIRECTORIES "${PROJECT_SOURCE_DIR}/examples"
                       DEPENDS "${PROJECT_SOURCE_DIR}/examples/vector_add.hpp")
add_dependencies(${HIPASM_SIM_TEST_TARGET} sim_fatbin_vector_add)
set_tests_properties(${HIPASM_SIM_TEST_NAME} PROPERTIES LABELS "sim;launcher")

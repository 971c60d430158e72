# examples/vector_add.hip as a gfx950 code object (a device of the other target must refuse it)
# and as a gfx942 code object with kernarg preloading (its listing has the preload prologue).
hipasm_add_code_object(sim_targets_vector_add_gfx950 SOURCES "${PROJECT_SOURCE_DIR}/examples/vector_add.hip"
                       ARCH gfx950 INCLUDE_DIRECTORIES "${PROJECT_SOURCE_DIR}/examples"
                       DEPENDS "${PROJECT_SOURCE_DIR}/examples/vector_add.hpp")
hipasm_add_code_object(sim_targets_vector_add_preload SOURCES "${PROJECT_SOURCE_DIR}/examples/vector_add.hip"
                       KERNARG_PRELOAD INCLUDE_DIRECTORIES "${PROJECT_SOURCE_DIR}/examples"
                       DEPENDS "${PROJECT_SOURCE_DIR}/examples/vector_add.hpp")
add_dependencies(${HIPASM_SIM_TEST_TARGET} sim_targets_vector_add_gfx950 sim_targets_vector_add_preload
                 sim_fatbin_vector_add)
set_tests_properties(${HIPASM_SIM_TEST_NAME} PROPERTIES LABELS "sim;launcher")

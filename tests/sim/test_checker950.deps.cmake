# Runs llc-22 and clang++-22 (the oracles) itself: no code objects to build first.
set_tests_properties(${HIPASM_SIM_TEST_NAME} PROPERTIES LABELS "sim;checker;gfx950")

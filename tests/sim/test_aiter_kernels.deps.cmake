# aiter's production code objects, opt-in: HIPASM_AITER_DIR=<aiter>/hsa/gfx942 (never in CI).
set_tests_properties(${HIPASM_SIM_TEST_NAME} PROPERTIES LABELS "sim;aiter")

# The mutation test reads the reference suite's .s files and re-assembles mutants of them
# with the device compiler (clang++-22).
add_dependencies(${HIPASM_SIM_TEST_TARGET} ${HIPASM_SIM_REF_TARGETS})
target_compile_definitions(${HIPASM_SIM_TEST_TARGET} PRIVATE HIPASM_REFSUITE_ASM_CXX="${HIPASM_DEVICE_CXX}")
set_tests_properties(${HIPASM_SIM_TEST_NAME} PROPERTIES LABELS "sim;reference;mutations" TIMEOUT 900)

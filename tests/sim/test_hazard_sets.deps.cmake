target_link_libraries(${HIPASM_SIM_TEST_TARGET} PRIVATE hipasm::hipasm)

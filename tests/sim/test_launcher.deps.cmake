# The launcher tests run the loader's kernels (test_loader.deps.cmake builds them and their
# llvm-readobj-22 oracle files).
add_dependencies(${HIPASM_SIM_TEST_TARGET} sim_loader_oracles)
set_tests_properties(${HIPASM_SIM_TEST_NAME} PROPERTIES LABELS "sim;launcher")

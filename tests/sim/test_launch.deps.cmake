# Code objects of test_launch.cpp: hand-written descriptors as AMD's production kernels write
# them (kernarg_size 0, kernarg preloading) and clang-22's own kernarg preloading; plus the
# command-line checks of the launch options (launch/cli_launch.py).
if(NOT TARGET sim_launch_kernels)
  hipasm_assemble(sim_launch_asm SOURCE "${CMAKE_CURRENT_LIST_DIR}/launch/launch_kernels.s")
  hipasm_add_code_object(sim_launch_preload SOURCES "${CMAKE_CURRENT_LIST_DIR}/launch/preload_clang.hip"
                         OPTIONS -mllvm -amdgpu-kernarg-preload-count=16 NO_PCH)
  hipasm_add_code_object(sim_launch_widened SOURCES "${CMAKE_CURRENT_LIST_DIR}/launch/kernarg_widened.hip" NO_PCH)
  add_custom_target(sim_launch_kernels DEPENDS sim_launch_asm sim_launch_preload sim_launch_widened)
endif()
add_dependencies(${HIPASM_SIM_TEST_TARGET} sim_launch_kernels)
set_tests_properties(${HIPASM_SIM_TEST_NAME} PROPERTIES LABELS "sim;loader")
find_package(Python3 COMPONENTS Interpreter)
if(TARGET hipasm-sim AND Python3_Interpreter_FOUND)
  add_test(NAME sim_cli_launch
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/launch/cli_launch.py"
            $<TARGET_FILE:hipasm-sim> "${CMAKE_CURRENT_BINARY_DIR}/sim_launch_asm.co"
            "${CMAKE_CURRENT_BINARY_DIR}/launch-work")
  set_tests_properties(sim_cli_launch PROPERTIES LABELS "sim;cli")
  add_dependencies(${HIPASM_SIM_TEST_TARGET} hipasm-sim)
endif()

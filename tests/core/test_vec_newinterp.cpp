// test_vec.cpp again, compiled with -fexperimental-new-constant-interpreter
// (tests/core/CMakeLists.txt adds the flag to every test_*_newinterp.cpp).
#define HIPASM_TEST_NEW_INTERPRETER 1
#include "test_vec.cpp"

// test_builder_constexpr.cpp again, compiled with -fexperimental-new-constant-interpreter
// (tests/core/CMakeLists.txt adds the flag to every test_*_newinterp.cpp).
#include "test_builder_constexpr.cpp"

// The one Catch2 main every test executable under tests/ links (object library
// hipasm_tests_catch_main): compiled once, not once a folder.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

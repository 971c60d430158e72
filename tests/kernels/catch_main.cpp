// The one Catch2 main shared by every tests/core/test_*.cpp executable.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

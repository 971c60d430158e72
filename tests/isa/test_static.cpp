// The static_asserts of static_checks.hpp under clang's default constant interpreter; this
// file compiling is the test (the Catch2 case only records that it ran).
#include <catch2/catch.hpp>

#include "static_checks.hpp"

TEST_CASE("isa_static: table and checker static_asserts hold (default constant interpreter)") {
  CHECK(isa_static::sorted());
}

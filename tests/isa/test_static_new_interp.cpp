// The same static_asserts under -fexperimental-new-constant-interpreter (set by CMake).
#include <catch2/catch.hpp>

#include "static_checks.hpp"

TEST_CASE("isa_static: table and checker static_asserts hold (new constant interpreter)") {
  CHECK(isa_static::C(hipasm::isa::gfx942_op::v_add_u32, {isa_static::V(0), isa_static::V(1), isa_static::V(2)}).ok);
}

"""hipasm.build: compiles with hipasm's flags, caches by source + headers + flags + compiler,
recompiles when a header changes, raises the compiler's message on errors."""
import subprocess

import numpy as np
import pytest

import hipasm
from hipasm import _build

KERNEL = """#include <hipasm/kernel.hpp>
#include "plus.hpp"
extern "C" __attribute__((global)) void plus(int* out, int n) { HIPASM_KERNEL_BODY(plus_kernel, out, n); }
"""
HEADER = """#pragma once
#include <hipasm/builder.hpp>
using namespace hipasm;
constexpr int kAdd = %d;
constexpr void plus_kernel(builder J, arg<int*> out, arg<int> n) {
  auto v = J.sgpr<i32>();
  v = n + kAdd;
  J.s_store_dword(v, out, 0, {.glc = true});
  J.s_waitcnt(lgkmcnt(0));
}
"""


@pytest.fixture
def compiles(monkeypatch):
    """The kernel compiles hipasm.build starts (-S, not the precompiled header's -emit-pch)."""
    runs = []
    real = subprocess.run

    def run(cmd, *a, **kw):
        if "-S" in cmd and "-emit-pch" not in cmd:
            runs.append(cmd)
        return real(cmd, *a, **kw)

    monkeypatch.setattr(_build.subprocess, "run", run)
    return runs


def run_plus(path, n):
    m = hipasm.load(path)
    out = np.zeros(1, np.int32)
    m.plus(1, 64, out, n)
    return m, int(out[0])


def test_cache_and_header_change(sim, tmp_path, build_cache, compiles):
    src = tmp_path / "plus.hip"
    src.write_text(KERNEL)
    (tmp_path / "plus.hpp").write_text(HEADER % 5)
    co = hipasm.build(src)
    assert len(compiles) == 1 and "-include-pch" in compiles[0]
    m, got = run_plus(co, 10)
    assert got == 15
    assert m.plus.signature == "int* out, int n"  # from the preprocessed source
    with pytest.raises(TypeError, match=r"argument 2 'n' \(int\): takes an integer, got float"):
        m.plus(1, 64, np.zeros(1, np.int32), 1.5)
    assert hipasm.build(src) == co and len(compiles) == 1  # cached: no compile
    (tmp_path / "plus.hpp").write_text(HEADER % 7)
    co2 = hipasm.build(src)
    assert len(compiles) == 2
    assert run_plus(co2, 10)[1] == 17
    # hipasm.load of a .hip source builds it (cached)
    assert run_plus(src, 1)[1] == 8 and len(compiles) == 2
    # other flags, or no precompiled header: another cache entry
    co3 = hipasm.build(src, pch=False)
    assert len(compiles) == 3 and "-include-pch" not in compiles[2] and co3 != co2
    assert run_plus(co3, 1)[1] == 8


def test_compile_error_has_the_compilers_message(tmp_path, build_cache):
    src = tmp_path / "broken.hip"
    src.write_text('extern "C" __attribute__((global)) void k(int* out) {\n  out[0] = undeclared;\n}\n')
    with pytest.raises(hipasm.BuildError, match=r"broken.hip:2:12: error: use of undeclared identifier 'undeclared'"):
        hipasm.build(src)
    with pytest.raises(hipasm.BuildError, match="no such source"):
        hipasm.build(tmp_path / "missing.hip")


def test_signatures_of_preprocessed_source():
    text = ('extern "C" __attribute__((global)) void a(float* x, const unsigned short* y, unsigned n) {}\n'
            'extern "C" __attribute__((global)) void b(::ns::elem<cfg::x>* y, float eps) { }')
    assert _build.signatures_of(text) == {"a": "float* x, const unsigned short* y, unsigned n",
                                          "b": "::ns::elem<cfg::x>* y, float eps"}

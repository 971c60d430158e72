"""Shared fixtures of python/tests. ctest (python/CMakeLists.txt) sets PYTHONPATH to the build
tree's package and names the code objects and libraries in HIPASM_TEST_* variables."""
import os

import numpy as np
import pytest


def env_path(name):
    p = os.environ.get(name)
    if not p or not os.path.exists(p):
        pytest.skip(f"{name} not set (run through ctest: ctest -R python)")
    return p


@pytest.fixture
def sim():
    import hipasm
    return hipasm.device("sim")


@pytest.fixture(scope="session")
def _session_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("hipasm-cache")


@pytest.fixture(autouse=True)
def build_cache(_session_cache, monkeypatch):
    """hipasm.build's cache for this session, for every test (hipasm.ops builds the sizes no
    prebuilt kernel takes on first use; nothing goes to ~/.cache/hipasm): the precompiled header
    and each kernel are built once."""
    monkeypatch.setenv("HIPASM_CACHE_DIR", str(_session_cache))
    return _session_cache


@pytest.fixture
def examples_dir():
    return env_path("HIPASM_TEST_EXAMPLES_DIR")


@pytest.fixture
def args_co():
    return env_path("HIPASM_TEST_ARGS_CO")


@pytest.fixture
def checker_co():
    return env_path("HIPASM_TEST_CHECKER_CO")


def bf16_bits(a):
    """float32 values -> bf16 bits (uint16), round to nearest even (finite inputs)."""
    u = np.asarray(a, np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_float(bits):
    return (np.asarray(bits, np.uint16).astype(np.uint32) << 16).view(np.float32)

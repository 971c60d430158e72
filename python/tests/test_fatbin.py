"""Fat binaries (clang offload bundles) of examples/vector_add.hip for gfx942 and gfx950
(hipasm_add_code_object with two ARCH values): hipasm.load takes the code object of the device's
target, on the simulator (gpu= picks mi300x / mi355x) and on HIP, where the whole bundle goes to
hipModuleLoadData as a HIP program hands it over (the fake libamdhip64 checks the entry is there)."""
import ctypes
import os
import struct
import sys

import numpy as np
import pytest

import hipasm
from hipasm import _sim
from conftest import env_path
from test_hip import fake  # noqa: F401 (the fixture)


# The bundle format written and read independently of hipasm (shared with the CLI tests).
sys.path.insert(0, os.path.join(os.environ.get("HIPASM_TEST_PROJECT_DIR") or os.path.join(os.path.dirname(__file__), "..", ".."),
                                "tests", "sim", "cli"))
from offload_bundle import bundle, entries  # noqa: E402


@pytest.fixture
def fat():
    return env_path("HIPASM_TEST_FATBIN")


@pytest.mark.parametrize("gpu,arch", [("mi300x", "gfx942"), ("mi355x", "gfx950")])
def test_vector_add_on_each_device(fat, gpu, arch):
    dev = hipasm.device("sim", gpu=gpu)
    assert dev.target == arch
    m = hipasm.load(fat, device=dev)
    assert m.target == dev.target == arch  # one form: the processor
    assert m.target_id == f"amdgcn-amd-amdhsa--{arch}"
    n = 777
    a = np.linspace(-3, 5, n, dtype=np.float32)
    b = np.arange(n, dtype=np.float32) * 0.25
    c = np.full(n, -1, np.float32)
    m.vector_add((n + 255) // 256, 256, c, a, b, n)
    np.testing.assert_array_equal(c, a + b)
    # hipasm.profile times it on the device's own GPU by default.
    prof = hipasm.profile(m.vector_add, (n + 255) // 256, 256, c, a, b, n)
    assert prof["device"] == gpu


def test_missing_target_and_broken_bundles_are_errors(fat):
    data = open(fat, "rb").read()
    only942 = bundle([(i, p) for i, p in entries(data) if not i.endswith("gfx950")])
    with pytest.raises(hipasm.SimError, match=r"the fat binary has no gfx950 code object \(it has: gfx942\)"):
        hipasm.load(only942, device=hipasm.device("sim", gpu="mi355x"))
    assert hipasm.load(only942, device=hipasm.device("sim", gpu="mi300x")).kernel_names == ["vector_add"]
    for cut in (30, 100, len(data) // 2, len(data) - 1):
        with pytest.raises(hipasm.SimError, match=r"offload bundle: "):
            hipasm.load(data[:cut], device=hipasm.device("sim"))
    with pytest.raises(hipasm.SimError, match=r"unknown GPU 'mi1x'"):
        hipasm.device("sim", gpu="mi1x")


def test_c_abi_inspect_needs_a_target_for_two(fat):
    L = _sim.lib()
    data = open(fat, "rb").read()
    h = ctypes.c_void_p()
    assert L.hipasm_sim_inspect(data, len(data), ctypes.byref(h)) == 1
    assert _sim.text(L.hipasm_sim_last_error()) == "a fat binary of 2 code objects (gfx942, gfx950): name the target"
    assert _sim.CodeObjectInfo(data, "gfx950").target == "amdgcn-amd-amdhsa--gfx950"
    one = bundle([(i, p) for i, p in entries(data) if not i.endswith("gfx942")])
    assert _sim.CodeObjectInfo(one).target == "amdgcn-amd-amdhsa--gfx950"


def test_processor_of_a_target_id():
    assert _sim.processor("amdgcn-amd-amdhsa--gfx950") == "gfx950"
    assert _sim.processor("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-") == "gfx942"
    assert _sim.processor("gfx942:xnack+") == "gfx942"


@pytest.mark.parametrize("arch", [942, 950])
def test_hip_backend_hands_the_bundle_to_hipModuleLoadData(fake, fat, arch):  # noqa: F811
    fake.fake_hip_set(b"arch", arch)
    dev = hipasm.device("hip", library=fake.path)
    assert dev.target == f"gfx{arch}"
    m = hipasm.load(fat, device=dev)
    assert m.target == dev.target == f"gfx{arch}"
    assert m.target_id == f"amdgcn-amd-amdhsa--gfx{arch}"  # the metadata of the entry HIP runs
    m.vector_add(1, 64, hipasm.DevicePointer(0x1000), hipasm.DevicePointer(0x2000), hipasm.DevicePointer(0x3000), 64)
    calls = fake.calls()
    assert calls[3:6] == ["hipGetDeviceProperties 0", "hipModuleLoadData bundle",
                          f"  entry hipv4-amdgcn-amd-amdhsa--gfx{arch}: found"]
    kernarg = struct.pack("<QQQI", 0x1000, 0x2000, 0x3000, 64).hex()
    assert calls[-1].endswith(f"kernarg={kernarg}")


def test_hip_device_without_an_entry(fake, fat):  # noqa: F811
    fake.fake_hip_set(b"arch", 950)
    data = open(fat, "rb").read()
    only942 = bundle([(i, p) for i, p in entries(data) if not i.endswith("gfx950")])
    with pytest.raises(hipasm.SimError, match=r"no gfx950 code object \(it has: gfx942\)"):
        hipasm.load(only942, device=hipasm.device("hip", library=fake.path))
    assert not any(c.startswith("hipModuleLoadData") for c in fake.calls())

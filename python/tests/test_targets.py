"""A code object runs on a device of its own target only: hipasm.load / hipasm.build of a source
build it for the device's target (a fat binary for several), and a code object for another
target is refused, on the simulator (its C ABI) and on HIP, with one line naming both."""
import ctypes

import numpy as np
import pytest

import hipasm
from hipasm import _sim
from conftest import env_path
from test_hip import fake  # noqa: F401 (the fixture)

# fp8 e4m3 byte 0x40 (sign 0, exponent 1000, mantissa 000): 2^(8-7) = 2.0 in OCP e4m3fn (gfx950),
# 2^(8-8) = 1.0 in FNUZ e4m3 (gfx942) (exponent bias 7 vs 8: AMD's CDNA3 and CDNA4 ISA guides).
FP8 = """extern "C" __attribute__((global)) void fp8_to_f32(float* out, int bits) {
  out[0] = __builtin_amdgcn_cvt_f32_fp8(bits, 0);
}
"""
WANT = {"gfx942": 1.0, "gfx950": 2.0}


@pytest.fixture
def fp8_src(tmp_path, build_cache):
    src = tmp_path / "fp8.hip"
    src.write_text(FP8)
    return src


def fp8_of(m):
    out = np.zeros(1, np.float32)
    m.fp8_to_f32(1, 64, out, 0x40)
    return float(out[0])


@pytest.mark.parametrize("gpu,arch", [("mi300x", "gfx942"), ("mi355x", "gfx950")])
def test_load_builds_a_source_for_the_device(fp8_src, gpu, arch):
    m = hipasm.load(fp8_src, device=hipasm.device("sim", gpu=gpu))
    assert m.target == arch
    assert fp8_of(m) == WANT[arch]


def test_build_without_arch_is_for_the_current_device(fp8_src):
    hipasm.device("sim", gpu="mi355x")
    m = hipasm.load(hipasm.build(fp8_src))
    assert m.target == "gfx950" and fp8_of(m) == 2.0
    with pytest.raises(ValueError, match=r"arch 'gfx9': expected one of gfx942, gfx950"):
        hipasm.build(fp8_src, arch="gfx9")
    with pytest.raises(ValueError, match=r"a target is named twice"):
        hipasm.build(fp8_src, arch=["gfx942", "gfx942"])


def test_build_of_several_targets_is_a_fat_binary(fp8_src):
    fat = hipasm.build(fp8_src, arch=["gfx942", "gfx950"])
    assert open(fat, "rb").read(24) == b"__CLANG_OFFLOAD_BUNDLE__"
    for gpu, arch in (("mi300x", "gfx942"), ("mi355x", "gfx950")):
        m = hipasm.load(fat, device=hipasm.device("sim", gpu=gpu))
        assert m.target == arch and fp8_of(m) == WANT[arch]
    assert hipasm.build(fp8_src, arch=("gfx942", "gfx950")) == fat  # cached


def plain(arch):
    """The fat binary's code object for `arch`, as hipasm_add_code_object writes it beside it."""
    return env_path("HIPASM_TEST_FATBIN")[:-len(".co")] + f".{arch}.co"


def test_sim_refuses_a_code_object_of_another_target():
    with pytest.raises(hipasm.SimError, match=r"^gfx950 code object on device mi300x \(a gfx942 GPU\); "
                                              r"gfx950 devices: mi355x"):
        hipasm.load(plain("gfx950"), device=hipasm.device("sim", gpu="mi300x"))
    with pytest.raises(hipasm.SimError, match=r"^gfx942 code object on device mi355x \(a gfx950 GPU\); gfx942 devices: mi300x"):
        hipasm.load(plain("gfx942"), device=hipasm.device("sim", gpu="mi355x"))
    assert hipasm.load(plain("gfx950"), device=hipasm.device("sim", gpu="mi355x")).kernel_names == ["vector_add"]


def test_c_abi_refuses_a_code_object_of_another_target():
    L = _sim.lib()
    dev = ctypes.c_void_p()
    assert L.hipasm_sim_device_open_gpu(b"mi300x", ctypes.byref(dev)) == 0
    try:
        mod = ctypes.c_void_p()
        assert L.hipasm_sim_load_file(dev, plain("gfx950").encode(), ctypes.byref(mod)) != 0
        assert _sim.text(L.hipasm_sim_last_error()).startswith("gfx950 code object on device mi300x (a gfx942 GPU)")
    finally:
        L.hipasm_sim_device_close(dev)


def test_hip_refuses_a_code_object_of_another_target(fake):  # noqa: F811
    fake.fake_hip_set(b"arch", 950)
    with pytest.raises(hipasm.HipError, match=r"^gfx942 code object on a gfx950 GPU$"):
        hipasm.load(plain("gfx942"), device=hipasm.device("hip", library=fake.path))
    assert not any(c.startswith("hipModuleLoadData") for c in fake.calls())


def test_ops_builds_a_source_for_the_device_and_refuses_another_target(fp8_src, monkeypatch):
    from hipasm import ops
    dev = hipasm.device("sim", gpu="mi355x")
    monkeypatch.setattr(ops, "_modules", {})
    monkeypatch.setenv("HIPASM_OPS_CODE_OBJECT", str(fp8_src))
    m = ops._module("fp8_to_f32")
    assert m.device is dev and fp8_of(m) == 2.0
    monkeypatch.setattr(ops, "_modules", {})
    monkeypatch.setenv("HIPASM_OPS_CODE_OBJECT", plain("gfx942"))
    with pytest.raises(hipasm.SimError, match=r"^hipasm.ops: .*gfx942 code object on device mi355x \(a gfx950 GPU\)"):
        ops._module("vector_add")

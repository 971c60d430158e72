"""The HIP backend against a fake libamdhip64 (tests/fake_hip.cpp) that records each call:
the call sequence and the exact kernarg bytes; device-memory rules; HIP errors as exceptions.
The real-device test runs only where libamdhip64 finds a GPU."""
import ctypes
import gc
import os
import struct
import threading

import numpy as np
import pytest

import hipasm
from conftest import env_path


@pytest.fixture
def fake():
    path = env_path("HIPASM_FAKE_HIP_LIBRARY")
    lib = ctypes.CDLL(path)
    lib.fake_hip_log.restype = ctypes.c_char_p
    gc.collect()  # an earlier test's modules (kernel <-> module cycles) unload now, not inside this log
    lib.fake_hip_reset()
    lib.path = path
    lib.calls = lambda: lib.fake_hip_log().decode().splitlines()
    yield lib
    lib.fake_hip_reset()


class DeviceArray:
    """A stand-in for a GPU array (cupy-like): only its __cuda_array_interface__."""

    def __init__(self, ptr, shape, typestr, strides=None):
        self.__cuda_array_interface__ = {"data": (ptr, False), "shape": shape, "typestr": typestr,
                                         "strides": strides, "version": 3}


def test_call_sequence_and_kernarg_bytes(fake, args_co):
    dev = hipasm.device("hip", library=fake.path)
    m = hipasm.load(args_co, device=dev)
    echo = m.kernel("echo", "uint32_t* out, int32_t n, float x, pair p, uint16_t s")

    class Pair(ctypes.Structure):
        _fields_ = [("a", ctypes.c_int32), ("b", ctypes.c_float), ("c", ctypes.c_int64)]

    echo((2, 3), 64, hipasm.DevicePointer(0xABC000), -7, 2.5, Pair(11, -1.25, -5), 0xBEEF)
    echo[1, (32, 2)](DeviceArray(0xDEF000, (8,), "<u4"), 1, 0, bytes(16), 2, stream=0x77)
    # the C ABI layout of echo(uint32_t*, int32_t, float, struct {int32_t; float; int64_t}, uint16_t)
    first = struct.pack("<Qif", 0xABC000, -7, 2.5) + struct.pack("<ifq", 11, -1.25, -5) + struct.pack("<H", 0xBEEF)
    second = struct.pack("<Qif", 0xDEF000, 1, 0.0) + bytes(16) + struct.pack("<H", 2)
    assert fake.calls() == [
        "hipInit 0", "hipGetDeviceCount", "hipSetDevice 0", "hipGetDeviceProperties 0", "hipModuleLoadData elf",
        "hipModuleGetFunction echo",
        f"hipModuleLaunchKernel grid=2,3,1 block=64,1,1 shared=0 stream=0x0 params=null kernarg={first.hex()}",
        f"hipModuleLaunchKernel grid=1,1,1 block=32,2,1 shared=0 stream=0x77 params=null kernarg={second.hex()}",
    ]  # the function is looked up once; no synchronisation


def test_kernarg_bytes_after_a_refused_launch_and_from_another_thread(fake, args_co):
    # Each thread packs into a kernarg buffer of its own, kept between launches: a launch refused
    # half-way through packing leaves nothing of its arguments in the next one's bytes.
    dev = hipasm.device("hip", library=fake.path)
    echo = hipasm.load(args_co, device=dev).kernel("echo", "uint32_t* out, int32_t n, float x, pair p, uint16_t s")
    p = hipasm.DevicePointer(0x1000)
    echo(1, 64, p, 1, 1.0, bytes(16), 1)
    with pytest.raises(ValueError, match=r"argument 5 's' \(uint16_t\): 65536 is out of range"):
        echo(1, 64, hipasm.DevicePointer(0x2000), 2, 2.0, b"\xff" * 16, 1 << 16)
    other = threading.Thread(target=lambda: echo(1, 64, p, 3, 3.0, bytes(16), 3))
    other.start()
    other.join()
    echo(1, 64, p, 4, 4.0, bytes(16), 4)
    kernargs = [c.split("kernarg=")[1] for c in fake.calls() if c.startswith("hipModuleLaunchKernel")]
    assert kernargs == [(struct.pack("<Qif", 0x1000, n, n) + bytes(16) + struct.pack("<H", n)).hex() for n in (1, 3, 4)]


def test_host_memory_and_bad_arrays_are_refused(fake, args_co):
    dev = hipasm.device("hip", library=fake.path)
    add = hipasm.load(args_co, device=dev).kernel("add", "float* out, const float* a, const float* b, uint32_t n")
    d = DeviceArray(0x1000, (64,), "<f4")
    with pytest.raises(TypeError, match=r"argument 1 'out' \(float\*\): the HIP backend needs a device pointer, "
                                        r"got a numpy array in host memory"):
        add(1, 64, np.zeros(64, np.float32), d, d, 64)
    torch = pytest.importorskip("torch")
    with pytest.raises(TypeError, match=r"argument 2 'a' \(const float\*\): the HIP backend needs a device pointer, "
                                        r"got a torch array"):
        add(1, 64, d, torch.zeros(64), d, 64)
    with pytest.raises(TypeError, match=r"argument 3 'b' \(const float\*\): wrong element type <i4"):
        add(1, 64, d, d, DeviceArray(0x2000, (64,), "<i4"), 64)
    with pytest.raises(ValueError, match=r"argument 3 'b' \(const float\*\): the array is not contiguous"):
        add(1, 64, d, d, DeviceArray(0x2000, (64,), "<f4", strides=(8,)), 64)
    assert not any(c.startswith("hipModuleLaunchKernel") for c in fake.calls())
    with pytest.raises(hipasm.HipasmError, match="needs a kernel loaded on the simulator"):
        hipasm.profile(add, 1, 64, d, d, d, 64)


def test_hip_errors_are_exceptions(fake, args_co):
    fake.fake_hip_set(b"device_count", 0)
    with pytest.raises(hipasm.HipError, match=r"hipGetDeviceCount failed: hipErrorNoDevice \(no ROCm-capable"):
        hipasm.device("hip", library=fake.path)
    fake.fake_hip_set(b"device_count", 1)
    dev = hipasm.device("hip", library=fake.path)
    m = hipasm.load(args_co, device=dev)
    fake.fake_hip_set(b"fail_launch", 1)
    with pytest.raises(hipasm.HipError, match=r"hipModuleLaunchKernel 'hidden' failed: hipErrorInvalidValue "
                                              r"\(invalid argument\)"):
        m.hidden(1, 64, hipasm.DevicePointer(0x1000))
    fake.fake_hip_set(b"fail_load", 1)
    with pytest.raises(hipasm.HipError, match=r"hipModuleLoadData failed: hipErrorInvalidImage"):
        hipasm.load(args_co, device=dev)


def test_backend_from_environment(fake, monkeypatch):
    monkeypatch.setenv("HIPASM_BACKEND", "hip")
    monkeypatch.setenv("HIPASM_HIP_LIBRARY", fake.path)
    assert hipasm.device().backend == "hip"
    assert fake.calls()[:3] == ["hipInit 0", "hipGetDeviceCount", "hipSetDevice 0"]


def test_real_device(examples_dir):
    """vector_add on a real GPU with torch tensors (skipped without one)."""
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no GPU for torch")
    try:
        dev = hipasm.device("hip")
    except hipasm.HipError as e:
        pytest.skip(f"no HIP device: {e}")
    m = hipasm.load(os.path.join(examples_dir, "example_vector_add.co"), device=dev)
    n = 1000
    a = torch.arange(n, dtype=torch.float32, device="cuda")
    c = torch.zeros(n, device="cuda")
    m.vector_add((n + 255) // 256, 256, c, a, a, n)
    torch.cuda.synchronize()
    assert torch.equal(c.cpu(), 2 * a.cpu())


def test_torch_current_stream_and_synchronize(fake, args_co, monkeypatch):
    import sys
    import types

    class Stream:
        cuda_stream = 0x5150

    fake_torch = types.SimpleNamespace(cuda=types.SimpleNamespace(is_available=lambda: True,
                                                                  current_stream=lambda: Stream()))
    monkeypatch.setitem(sys.modules, "torch", fake_torch)  # torch with a GPU, as far as hipasm can tell
    dev = hipasm.device("hip", library=fake.path)
    hipasm.load(args_co, device=dev).hidden(1, 64, hipasm.DevicePointer(0x1000))
    hipasm.synchronize()
    calls = fake.calls()
    assert "stream=0x5150" in calls[-2] and calls[-1] == "hipDeviceSynchronize"

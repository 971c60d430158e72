"""Launching from Python in the simulator: results, argument packing and its errors, aliasing,
write-back, the checker and the timing model."""
import ctypes
import json
import os
import warnings

import numpy as np
import pytest

import hipasm

ECHO_SIG = "uint32_t* out, int32_t n, float x, pair p, uint16_t s"


class Pair(ctypes.Structure):  # args.hip's struct pair
    _fields_ = [("a", ctypes.c_int32), ("b", ctypes.c_float), ("c", ctypes.c_int64)]


def f32_bits(x):
    return int(np.float32(x).view(np.uint32))


def test_vector_add_numpy_and_subscript_form(sim, examples_dir):
    m = hipasm.load(os.path.join(examples_dir, "example_vector_add.co"))
    n = 1000
    a = np.arange(n, dtype=np.float32)
    b = np.full(n, 0.5, np.float32)
    c = np.zeros(n, np.float32)
    m.vector_add[(n + 255) // 256, 256](c, a, b, n)
    np.testing.assert_array_equal(c, a + 0.5)
    assert m.kernel_names == ["vector_add"] and m.vector_add is m["vector_add"]


def test_values_struct_and_names(sim, args_co):
    m = hipasm.load(args_co)
    out = np.zeros(8, np.uint32)
    m.kernel("echo", ECHO_SIG)(1, 64, out, -7, 2.5, Pair(11, -1.25, -(1 << 40) + 3), 0xBEEF)
    c = (-(1 << 40) + 3) & ((1 << 64) - 1)
    assert out.tolist() == [(-7) & 0xFFFFFFFF, f32_bits(2.5), 11, f32_bits(-1.25), c & 0xFFFFFFFF, c >> 32, 0xBEEF, 0]
    # the struct as its bytes, the float as a numpy float32 (the kernel without a signature)
    out[:] = 0
    raw = hipasm.load(args_co).echo
    raw(1, 64, out, 5, np.float32(0.75), bytes(Pair(1, 2.0, 3)), 9)
    assert out.tolist()[:7] == [5, f32_bits(0.75), 1, f32_bits(2.0), 3, 0, 9]


def test_argument_errors_name_the_argument(sim, args_co):
    m = hipasm.load(args_co)
    echo = m.kernel("echo", ECHO_SIG)
    out = np.zeros(8, np.uint32)
    p = Pair()
    with pytest.raises(TypeError, match=r"'echo' takes 5 arguments, 4 given"):
        echo(1, 64, out, 1, 2.0, p)
    with pytest.raises(TypeError, match=r"argument 2 'n' \(int32_t\): takes an integer, got float 1.5"):
        echo(1, 64, out, 1.5, 2.0, p, 0)
    with pytest.raises(ValueError, match=r"argument 5 's' \(uint16_t\): 65536 is out of range"):
        echo(1, 64, out, 1, 2.0, p, 65536)
    with pytest.raises(ValueError, match=r"argument 2 'n' \(int32_t\): 2147483648 is out of range"):
        echo(1, 64, out, 1 << 31, 2.0, p, 0)
    with pytest.raises(TypeError, match=r"argument 4 'p' \(pair\): pass the struct as bytes"):
        echo(1, 64, out, 1, 2.0, 3, 0)
    with pytest.raises(ValueError, match=r"argument 4 'p' \(pair\): 8 bytes given, the kernel takes 16"):
        echo(1, 64, out, 1, 2.0, b"\0" * 8, 0)
    with pytest.raises(TypeError, match=r"argument 1 'out' \(uint32_t\*\): wrong element type float32"):
        echo(1, 64, np.zeros(8, np.float32), 1, 2.0, p, 0)
    with pytest.raises(ValueError, match=r"argument 1 'out' \(uint32_t\*\): the array is not contiguous"):
        echo(1, 64, np.zeros(16, np.uint32)[::2], 1, 2.0, p, 0)
    with pytest.raises(TypeError, match=r"argument 1 'out' \(uint32_t\*\): takes an array"):
        echo(1, 64, 1234, 1, 2.0, p, 0)
    with pytest.raises(TypeError, match=r"argument 2 'n' \(int32_t\): takes a value, got ndarray"):
        echo(1, 64, out, out, 2.0, p, 0)
    # without a signature: sizes and kinds only; a Python float for a 4-byte value is refused
    with pytest.raises(TypeError, match=r"argument 3 'x' \(4-byte value\): takes an integer \(or a numpy float32"):
        hipasm.load(args_co).echo(1, 64, out, 1, 2.0, p, 0)
    with pytest.raises(ValueError, match=r"signature of 'echo' has 2 parameters, the code object's metadata 5"):
        m.kernel("echo", "int* a, int b")
    with pytest.raises(AttributeError, match=r"no kernel 'nope' in the code object \(it has: echo, hidden, add\)"):
        m.nope
    with pytest.raises(ValueError, match=r"grid \(0,\)"):
        echo(0, 64, out, 1, 2.0, p, 0)
    with pytest.raises(hipasm.SimError, match=r"block 2048,1,1 exceeds"):
        echo(1, 2048, out, 1, 2.0, p, 0)
    assert out.tolist() == [0] * 8  # nothing ran


def test_const_inputs_aliasing_and_torch(sim, args_co):
    torch = pytest.importorskip("torch")
    m = hipasm.load(args_co)
    add = m.kernel("add", "float* out, const float* a, const float* b, uint32_t n")
    n = 100
    a = torch.arange(n, dtype=torch.float32)
    b = torch.ones(n)
    out = torch.zeros(n)
    add((n + 63) // 64, 64, out, a, b, n)
    assert torch.equal(out, a + 1)
    # in place: the same tensor as out and a is one device buffer
    add((n + 63) // 64, 64, a, a, b, n)
    assert torch.equal(a, torch.arange(n, dtype=torch.float32) + 1)
    with pytest.raises(TypeError, match=r"argument 1 'out' \(float\*\): wrong element type torch.float64"):
        add(2, 64, out.double(), a, b, n)
    with pytest.raises(ValueError, match=r"argument 2 'a' \(const float\*\): the array is not contiguous"):
        add(2, 64, out, torch.zeros(2 * n)[::2], b, n)


def test_device_memory_is_refused_in_the_simulator(sim, args_co):
    class DeviceArray:  # a GPU array as cupy presents it
        __cuda_array_interface__ = {"data": (0x1000, False), "shape": (64,), "typestr": "<f4", "strides": None}

    add = hipasm.load(args_co).kernel("add", "float* out, const float* a, const float* b, uint32_t n")
    out = np.zeros(64, np.float32)
    with pytest.raises(TypeError, match=r"argument 2 'a' \(const float\*\): the simulator takes host arrays"):
        add(1, 64, out, DeviceArray(), out, 64)


def test_read_only_numpy_input(sim, args_co):
    add = hipasm.load(args_co).kernel("add", "float* out, const float* a, const float* b, uint32_t n")
    a = np.arange(64, dtype=np.float32)
    a.setflags(write=False)
    out = np.zeros(64, np.float32)
    add(1, 64, out, a, a, 64)
    np.testing.assert_array_equal(out, 2 * a)


def test_checker_error_lists_findings(sim, checker_co):
    m = hipasm.load(checker_co)
    out = np.zeros(64, np.int32)
    with pytest.raises(hipasm.CheckerError) as e:
        m.amd_patterns(1, 64, out)
    rules = sorted({f["rule"] for f in e.value.findings})
    assert rules == ["hazard mfma-read", "hazard mfma-waw", "hazard salu-m0", "hazard valu-sgpr-valu"]
    assert "hazard mfma-read (error): 1 instruction, 3 occurrences" in str(e.value)
    assert (out == 4).all()  # the run finished and its outputs were written back
    # allowed rules are warnings: no error
    r = m.amd_patterns(1, 64, out, allow=["mfma-read", "mfma-waw", "salu-m0", "valu-sgpr-valu"])
    assert r.error_count == 0 and all(f["allowed"] for f in r.findings) and len(r.findings) == 4
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        m.amd_patterns(1, 64, out, check="warn")
    assert len(w) == 1 and "the checker found 4 problems in 'amd_patterns'" in str(w[0].message)
    assert m.amd_patterns(1, 64, out, check=False).findings == []
    with pytest.raises(hipasm.SimError, match="unknown checker rule 'nonsense'"):
        m.amd_patterns(1, 64, out, allow="nonsense")


def test_profile_dict_and_trace(sim, examples_dir, tmp_path):
    m = hipasm.load(os.path.join(examples_dir, "example_vector_add.co"))
    n = 4096
    a = np.ones(n, np.float32)
    c = np.zeros(n, np.float32)
    trace = tmp_path / "trace.json"
    prof = hipasm.profile(m.vector_add, n // 256, 256, c, a, a, n, device="mi300x", trace=trace)
    assert prof["kernel"] == "vector_add" and prof["device"] == "mi300x"
    assert prof["time_us"] > 0 and prof["workgroups"] == n // 256 and prof["hbm_bytes"] >= 2 * 4 * n  # a is one buffer
    assert set(prof["stalls"]) >= {"vmcnt", "lgkmcnt", "barrier"}
    assert (c == 2).all()
    events = json.loads(trace.read_text())
    assert events["traceEvents"]
    with pytest.raises(hipasm.SimError, match="unknown device|device"):
        hipasm.profile(m.vector_add, 1, 256, c, a, a, 256, device="mi999")


def test_load_errors(sim, tmp_path):
    bad = tmp_path / "bad.co"
    bad.write_bytes(b"not an elf")
    with pytest.raises(hipasm.SimError):
        hipasm.load(bad)
    with pytest.raises(FileNotFoundError):
        hipasm.load(tmp_path / "missing.co")


def test_backend_selection(monkeypatch):
    monkeypatch.setenv("HIPASM_BACKEND", "cuda")
    with pytest.raises(ValueError, match="expected 'sim' or 'hip'"):
        hipasm.device()
    monkeypatch.setenv("HIPASM_BACKEND", "sim")
    assert hipasm.device().backend == "sim"


def test_dlpack_arrays(sim, args_co):
    class Only:  # an array known only through the DLPack protocol (as jax and cupy arrays are)
        def __init__(self, a):
            self.a = a

        def __dlpack__(self, stream=None):
            return self.a.__dlpack__()

        def __dlpack_device__(self):
            return self.a.__dlpack_device__()

    add = hipasm.load(args_co).kernel("add", "float* out, const float* a, const float* b, uint32_t n")
    a = np.arange(64, dtype=np.float32)
    out = np.zeros(64, np.float32)
    add(1, 64, Only(out), Only(a), a, 64)
    np.testing.assert_array_equal(out, 2 * a)
    with pytest.raises(TypeError, match=r"argument 2 'a' \(const float\*\): wrong element type dlpack\(i32\)"):
        add(1, 64, out, Only(np.zeros(64, np.int32)), a, 64)
    with pytest.raises(ValueError, match=r"argument 2 'a' \(const float\*\): the array is not contiguous"):
        add(1, 64, out, Only(np.zeros(128, np.float32)[::2]), a, 64)

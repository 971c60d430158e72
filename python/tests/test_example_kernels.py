"""Every example kernel (examples/*.hip) called from Python in the simulator, against numpy
(the checks of examples/main_example.cpp). The C signatures come from the examples' own
declarations."""
import os

import numpy as np
import pytest

import hipasm
from hipasm import _build


def example(examples_dir, name):
    root = os.environ.get("HIPASM_TEST_PROJECT_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")
    with open(os.path.join(root, "examples", name + ".hip")) as f:
        sigs = _build.signatures_of(f.read())
    assert sigs, f"no kernel declaration in examples/{name}.hip"
    return hipasm.load(os.path.join(examples_dir, f"example_{name}.co"), signatures=sigs)


def test_sum_even(sim, examples_dir):
    out = np.zeros(1, np.int32)
    example(examples_dir, "sum_even").sum_even(1, 64, out, 32)
    assert out[0] == sum(range(0, 32, 2))


def test_vector_add_tail(sim, examples_dir):
    n = 1000
    a = 0.5 * np.arange(n, dtype=np.float32)
    b = 1000 - np.arange(n, dtype=np.float32)
    c = np.full(n + 64, -1, np.float32)
    example(examples_dir, "vector_add").vector_add((n + 255) // 256, 256, c, a, b, n)
    np.testing.assert_array_equal(c[:n], a + b)
    assert (c[n:] == -1).all()  # nothing written past n


def test_gemv_f16(sim, examples_dir):
    rows, k = 37, 512
    r, kk = np.meshgrid(np.arange(rows), np.arange(k), indexing="ij")
    a = (((r * 7 + kk * 3) % 17) * 0.125 - 1.0).astype(np.float16)
    x = ((np.arange(k) % 11) * 0.25 - 1.25).astype(np.float16)
    y = np.zeros(rows, np.float32)
    waves = 4  # examples::gemv_waves_per_group
    example(examples_dir, "gemv_f16").gemv_f16((rows + waves - 1) // waves, 64 * waves, y, a, x, rows, k)
    want = a.astype(np.float64) @ x.astype(np.float64)
    assert (np.abs(y - want) <= 1e-3 * (1 + np.abs(want))).all()
    with pytest.raises(TypeError, match=r"argument 2 'A' \(const _Float16\*\): wrong element type float32"):
        example(examples_dir, "gemv_f16").gemv_f16(1, 256, y, a.astype(np.float32), x, rows, k)


def test_kernel_2d(sim, examples_dir):
    rows, cols = 23, 37
    a = np.arange(rows * cols, dtype=np.float32).reshape(rows, cols)
    b = (np.arange(rows * cols) % 7 - 3).astype(np.float32).reshape(rows, cols)
    c = np.zeros((rows, cols), np.float32)
    bx, by = 16, 4  # examples::k2d_bx, k2d_by
    example(examples_dir, "kernel_2d").kernel_2d(((cols + bx - 1) // bx, (rows + by - 1) // by), (bx, by), c, a, b,
                                                 0.5, rows, cols)
    np.testing.assert_array_equal(c, a + b * np.float32(0.5))


def test_log_squares(sim, examples_dir):
    n, block, records = 70, 64, 256
    out = np.full(n, -1, np.int32)
    log = np.zeros(8 + 8 * records, np.uint32)  # hipasm::debug_log_buffer(256)
    log[1] = records
    example(examples_dir, "log_squares").log_squares((n + block - 1) // block, block, out, log, n)
    np.testing.assert_array_equal(out, np.arange(n) ** 2)
    assert log[8:].any()  # the kernel wrote records


@pytest.mark.parametrize("kernel", ["stencil_ring", "stencil_open"])
def test_stencil(sim, examples_dir, kernel):
    rows, steps, block = 11, 5, 256
    groups = (rows * 64 + block - 1) // block
    c0, c1, c2 = 0.25, 0.5, 0.125
    x = ((np.arange(rows * 64) * 37) % 101 - 50).astype(np.float64).reshape(rows, 64)
    out = np.full(groups * block, -7, np.float32)
    getattr(example(examples_dir, "stencil_ring"), kernel)(groups, block, out, x.astype(np.float32).ravel(), rows,
                                                           steps, c0, c1, c2)
    # the reference in float64: integers times powers of two stay exact in f32 for these steps,
    # so every rounding of the kernel's f32 arithmetic (fma included) is exact too
    for _ in range(steps):
        left = np.roll(x, 1, axis=1)
        right = np.roll(x, -1, axis=1)
        if kernel == "stencil_open":
            left[:, 0] = 0
            right[:, 63] = 0
        x = c1 * x + c0 * left + c2 * right
    np.testing.assert_array_equal(out[:rows * 64], x.astype(np.float32).ravel())
    assert (out[rows * 64:] == -7).all()  # rows past the last: not stored

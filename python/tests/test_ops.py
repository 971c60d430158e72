"""hipasm.ops (library kernels of python/kernels/ops.hip) in the simulator against numpy
references in float64 of the same bf16 inputs; bf16 outputs within bf16 rounding of them."""
import numpy as np
import pytest

import hipasm
from conftest import bf16_bits, bf16_float

rng = np.random.default_rng(7)


def close_bf16(got_bits, ref, extra=0.0):
    got = bf16_float(got_bits).astype(np.float64)
    # bf16 keeps 8 significant bits: half an ulp is 2^-9 relative; the kernels' f32 math adds little
    tol = np.abs(ref) * 2.0 ** -8 + extra
    bad = np.abs(got - ref) > tol
    assert not bad.any(), f"{bad.sum()} of {bad.size} outside bf16 rounding, worst {np.abs(got - ref).max()}"


def test_rms_norm_numpy(sim):
    x = bf16_bits(rng.standard_normal((5, 256)) * 3)
    w = bf16_bits(rng.standard_normal(256))
    y = hipasm.ops.rms_norm(x, w, eps=1e-5)
    assert y.dtype == np.uint16 and y.shape == (5, 256)
    xf = bf16_float(x).astype(np.float64)
    ref = xf / np.sqrt((xf * xf).mean(axis=1, keepdims=True) + 1e-5) * bf16_float(w)
    close_bf16(y, ref, extra=1e-6)


def test_silu_and_mul_numpy(sim):
    x = bf16_bits(rng.standard_normal((3, 1024)) * 2)
    h = hipasm.ops.silu_and_mul(x)
    xf = bf16_float(x).astype(np.float64)
    g, u = xf[:, :512], xf[:, 512:]
    close_bf16(h, g / (1 + np.exp(-g)) * u, extra=1e-6)


def test_gemv_and_linear_numpy(sim):
    a = bf16_bits(rng.standard_normal((100, 256)))
    x = bf16_bits(rng.standard_normal(256))
    y = hipasm.ops.gemv(a, x)
    af, xf = bf16_float(a).astype(np.float64), bf16_float(x).astype(np.float64)
    ref = af @ xf
    # f32 accumulation over 256 products of |a x| <~ 10: its rounding adds ~1e-5, bf16 output 2^-8
    close_bf16(y, ref, extra=1e-3)
    xs = bf16_bits(rng.standard_normal((2, 256)))
    ys = hipasm.ops.linear(xs, a)
    close_bf16(ys, bf16_float(xs).astype(np.float64) @ af.T, extra=1e-3)


def test_shape_and_dtype_errors(sim):
    x = bf16_bits(np.ones((2, 256)))
    with pytest.raises(TypeError, match="x must be a torch.bfloat16 tensor or a numpy uint16 array"):
        hipasm.ops.rms_norm(np.ones((2, 256), np.float32), x[0])
    with pytest.raises(ValueError, match=r"no kernel for hidden = 128 \(built: \[256\]"):
        hipasm.ops.rms_norm(bf16_bits(np.ones((2, 128))), bf16_bits(np.ones(128)))
    with pytest.raises(ValueError, match=r"weight shape \(255,\), expected \(256,\)"):
        hipasm.ops.rms_norm(x, bf16_bits(np.ones(255)))
    with pytest.raises(ValueError, match="k = 12 must be a multiple of 8"):
        hipasm.ops.gemv(bf16_bits(np.ones((4, 12))), bf16_bits(np.ones(12)))


def test_preloaded_arguments(sim):
    # ops.hip is built with KERNARG_PRELOAD: the leading arguments reach the kernel in SGPRs
    m = hipasm.ops._module()
    assert m.rms_norm_bf16_h256_w1.meta["kernarg_preload_dwords"] > 0


def test_torch(sim):
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    x = torch.randn(4, 256).bfloat16()
    w = torch.randn(256).bfloat16()
    y = hipasm.ops.rms_norm(x, w, 1e-6)
    assert y.dtype == torch.bfloat16
    xf = x.double()
    ref = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6) * w.double()
    close_bf16(y.view(torch.int16).numpy().view(np.uint16), ref.numpy(), extra=1e-6)
    with pytest.raises(TypeError, match="x must be torch.bfloat16, got torch.float32"):
        hipasm.ops.silu_and_mul(torch.zeros(2, 1024))


def test_gemm_numpy(sim):
    a = bf16_bits(rng.standard_normal((130, 64)))  # a partial second tile of rows
    b = bf16_bits(rng.standard_normal((40, 64)))
    c = hipasm.ops.gemm(a, b)
    assert c.shape == (130, 40)
    ref = bf16_float(a).astype(np.float64) @ bf16_float(b).astype(np.float64).T
    close_bf16(c, ref, extra=1e-3)
    with pytest.raises(ValueError, match="k = 3 must be even"):
        hipasm.ops.gemm(bf16_bits(np.ones((2, 3))), bf16_bits(np.ones((2, 3))))


def test_rotary_numpy(sim):
    tokens, hq, hk, hd = 5, 4, 2, 64
    q = bf16_bits(rng.standard_normal((tokens, hq, hd)))
    k = bf16_bits(rng.standard_normal((tokens, hk, hd)))
    rows = 16
    inv = 1.0 / 10000 ** (np.arange(0, hd, 2) / hd)
    ang = np.arange(rows)[:, None] * inv[None, :]
    cos_sin = np.concatenate([np.cos(ang), np.sin(ang)], axis=1).astype(np.float32)
    pos = np.array([0, 3, 15, 7, 1], np.int64)
    q2, k2 = hipasm.ops.rotary(q, k, pos, cos_sin)

    def rope(x):  # NeoX: rotate halves, f64 of the same inputs
        x = bf16_float(x).astype(np.float64)
        c = cos_sin[pos, :hd // 2][:, None, :].astype(np.float64)
        s = cos_sin[pos, hd // 2:][:, None, :].astype(np.float64)
        x1, x2 = x[..., :hd // 2], x[..., hd // 2:]
        return np.concatenate([x1 * c - x2 * s, x2 * c + x1 * s], axis=-1)

    close_bf16(q2, rope(q), extra=1e-6)
    close_bf16(k2, rope(k), extra=1e-6)
    with pytest.raises(ValueError, match=r"no kernel for q \(5, 8, 64\)"):
        hipasm.ops.rotary(bf16_bits(np.ones((5, 8, 64))), k, pos, cos_sin)
    with pytest.raises(TypeError, match=r"argument 5 'positions' \(const int64_t\*\): wrong element type float32"):
        hipasm.ops.rotary(q, k, pos.astype(np.float32), cos_sin)

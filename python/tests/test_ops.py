"""hipasm.ops (library kernels in python/hipasm/_ops_configs.py's configurations) in the simulator
against numpy references in float64 of the same bf16 inputs; bf16 outputs within bf16 rounding of
them."""
import math

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
    with pytest.raises(ValueError, match=r"rms_norm: x's last dimension \(hidden\) = 127 must be even, 2 \.\. 65536"):
        hipasm.ops.rms_norm(bf16_bits(np.ones((2, 127))), bf16_bits(np.ones(127)))
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
    with pytest.raises(ValueError, match=r"rot_dim = 66 \(cos_sin's last dimension\) must be a multiple of 4"):
        hipasm.ops.rotary(q, k, pos, np.zeros((cos_sin.shape[0], 66), np.float32))
    with pytest.raises(TypeError, match=r"argument 5 'positions' \(const int64_t\*\): wrong element type float32"):
        hipasm.ops.rotary(q, k, pos.astype(np.float32), cos_sin)


def to_kernel_caches(kc, vc):
    """Natural caches [blocks, kv_heads, block_size, head_dim] -> the kernel's layouts: K
    [blocks, kv_heads, head_dim / 8, block_size, 8], V [blocks, kv_heads, block_size / 8, head_dim, 8]."""
    nb, kvh, bs, d = kc.shape
    k = kc.reshape(nb, kvh, bs, d // 8, 8).transpose(0, 1, 3, 2, 4)
    v = vc.reshape(nb, kvh, bs // 8, 8, d).transpose(0, 1, 2, 4, 3)
    return np.ascontiguousarray(k), np.ascontiguousarray(v)


def paged_reference(q, kc, vc, tables, lens, scale):
    """f64 attention of each sequence's query over its tokens, gathered through the block table."""
    qf, kf, vf = (bf16_float(a).astype(np.float64) for a in (q, kc, vc))
    seqs, heads, _ = q.shape
    bs, gqa = kc.shape[2], heads // kc.shape[1]
    out = np.zeros(q.shape)
    for s in range(seqs):
        t = np.arange(lens[s])
        blk, slot = tables[s, t // bs], t % bs
        for h in range(heads):
            keys, vals = kf[blk, h // gqa, slot], vf[blk, h // gqa, slot]  # [ctx, d]
            p = np.exp(scale * keys @ qf[s, h] - (scale * keys @ qf[s, h]).max())
            out[s, h] = p @ vals / p.sum()
    return out


def test_paged_attention_decode_numpy(sim):
    seqs, kvh, gqa, d, bs, nb = 3, 2, 4, 64, 16, 16
    q = bf16_bits(rng.standard_normal((seqs, kvh * gqa, d)))
    kc = bf16_bits(rng.standard_normal((nb, kvh, bs, d)))
    vc = bf16_bits(rng.standard_normal((nb, kvh, bs, d)))
    lens = np.array([1, 37, 70], np.int32)  # one token, a partial last block, five blocks
    tables = rng.permutation(nb)[:seqs * 5].reshape(seqs, 5).astype(np.int32)
    k_cache, v_cache = to_kernel_caches(kc, vc)
    ref = paged_reference(q, kc, vc, tables, lens, d ** -0.5)
    # P.V takes the probabilities in bf16: 2^-9 of sum p |v| <= 2^-9 max |v| (~5)
    out = hipasm.ops.paged_attention_decode(q, k_cache, v_cache, tables, lens)
    assert out.shape == q.shape and out.dtype == np.uint16
    close_bf16(out, ref, extra=0.02)
    # one block a workgroup: the longest context in five partitions, combined by the kernel
    split = hipasm.ops.paged_attention_decode(q, k_cache, v_cache, tables, lens, partition_blocks=1)
    close_bf16(split, ref, extra=0.02)
    scaled = hipasm.ops.paged_attention_decode(q, k_cache, v_cache, tables, lens, scale=0.05)
    close_bf16(scaled, paged_reference(q, kc, vc, tables, lens, 0.05), extra=0.02)


def test_paged_attention_decode_errors(sim):
    q = bf16_bits(np.ones((1, 34, 64)))
    k_cache = bf16_bits(np.ones((2, 2, 8, 16, 8)))
    v_cache = bf16_bits(np.ones((2, 2, 2, 64, 8)))
    tables, lens = np.zeros((1, 1), np.int32), np.array([16], np.int32)
    with pytest.raises(ValueError, match=r"gqa = 17 \(q's num_heads / num_kv_heads\) must be 1 \.\. 16"):
        hipasm.ops.paged_attention_decode(q, k_cache, v_cache, tables, lens)
    q = bf16_bits(np.ones((1, 8, 64)))
    with pytest.raises(ValueError, match=r"v_cache shape \(2, 2, 2, 32, 8\), expected \[2, 2, 2, 64, 8\]"):
        hipasm.ops.paged_attention_decode(q, k_cache, bf16_bits(np.ones((2, 2, 2, 32, 8))), tables, lens)
    with pytest.raises(TypeError, match="block_tables must be int32, got ndarray int64"):
        hipasm.ops.paged_attention_decode(q, k_cache, v_cache, tables.astype(np.int64), lens)
    with pytest.raises(ValueError, match="block_tables has 1 entries a sequence, max_context 17 needs 2"):
        hipasm.ops.paged_attention_decode(q, k_cache, v_cache, tables, np.array([17], np.int32))


def f64(a):
    """numpy float16 arrays, or uint16 arrays of bf16 bits, as float64."""
    return a.astype(np.float64) if a.dtype == np.float16 else bf16_float(a).astype(np.float64)


def attn_reference(q, k, v, cq, ck, causal, scale):
    """f64 attention of packed sequences; causal: True (bottom-right) or "top_left"; (o, lse), lse
    -inf for a row that sees no key."""
    qf, kf, vf = (f64(a) for a in (q, k, v))
    hq, hkv = q.shape[1], k.shape[1]
    o, lse = np.zeros(q.shape), np.full((hq, q.shape[0]), -np.inf)
    for b in range(len(cq) - 1):
        sq, sk = cq[b + 1] - cq[b], ck[b + 1] - ck[b]
        for h in range(hq):
            s = scale * qf[cq[b]:cq[b + 1], h] @ kf[ck[b]:ck[b + 1], h // (hq // hkv)].T  # [sq, sk]
            if causal:
                diag = 0 if causal == "top_left" else sk - sq
                s = np.where(np.arange(sk)[None, :] <= np.arange(sq)[:, None] + diag, s, -np.inf)
            for i in range(sq):
                if np.isfinite(s[i]).any():
                    m = s[i].max()
                    p = np.exp(s[i] - m)
                    o[cq[b] + i, h] = p @ vf[ck[b]:ck[b + 1], h // (hq // hkv)] / p.sum()
                    lse[h, cq[b] + i] = m + np.log(p.sum())
    return o, lse


@pytest.mark.parametrize("causal", [False, True])
def test_flash_attn_fwd_dense_numpy(sim, causal):
    batch, sq, sk, hq, hkv, d = 2, 40, 50, 4, 2, 64
    q = bf16_bits(rng.standard_normal((batch, sq, hq, d)))
    k = bf16_bits(rng.standard_normal((batch, sk, hkv, d)))
    v = bf16_bits(rng.standard_normal((batch, sk, hkv, d)))
    o, lse = hipasm.ops.flash_attn_fwd(q, k, v, causal=causal, return_lse=True)
    assert o.shape == q.shape and lse.shape == (batch, hq, sq) and lse.dtype == np.float32
    cq, ck = np.arange(0, (batch + 1) * sq, sq), np.arange(0, (batch + 1) * sk, sk)
    ro, rl = attn_reference(q.reshape(-1, hq, d), k.reshape(-1, hkv, d), v.reshape(-1, hkv, d), cq, ck, causal,
                            d ** -0.5)
    close_bf16(o.reshape(-1, hq, d), ro, extra=0.02)  # P in bf16, as in the paged test
    assert np.allclose(lse.swapaxes(0, 1).reshape(hq, -1), rl, atol=1e-3)


def test_flash_attn_fwd_varlen_numpy(sim):
    hq, hkv, d = 2, 1, 64
    cq, ck = np.array([0, 5, 45, 48], np.int32), np.array([0, 30, 33, 34], np.int32)
    q = bf16_bits(rng.standard_normal((cq[-1], hq, d)))
    k = bf16_bits(rng.standard_normal((ck[-1], hkv, d)))
    v = bf16_bits(rng.standard_normal((ck[-1], hkv, d)))
    # causal with seqlen_q > seqlen_k (40 queries, 3 keys; 3 queries, 1 key): the first rows see no key
    o, lse = hipasm.ops.flash_attn_fwd(q, k, v, causal=True, softmax_scale=0.2, cu_seqlens_q=cq, cu_seqlens_k=ck,
                                       return_lse=True)
    ro, rl = attn_reference(q, k, v, cq, ck, True, 0.2)
    close_bf16(o, ro, extra=0.02)
    assert np.array_equal(np.isinf(lse), np.isinf(rl)) and np.isinf(rl).sum() == 2 * (37 + 2)
    fin = np.isfinite(rl)
    assert np.allclose(lse[fin], rl[fin], atol=1e-3)


@pytest.mark.parametrize("causal", [False, True])
def test_flash_attn_fwd_fp8_mi355x(causal):
    """fp8 q, k, v (attn_fwd.hpp's fp8 form; gfx950, a sim MI355X: OCP e4m3fn, built on first use)
    with per-tensor descales against f64 of the dequantized values (powers of 2: exact in bf16):
    dense GQA, and packed sequences with an empty and a one-token one. P is rounded to e4m3 before
    the PV product: O within 2^-4 max|V| (all p >= 0); the LSE from the f32 scores and sum."""
    hipasm.device("sim", gpu="mi355x")
    hq, hkv, d = 4, 2, 128
    qd, kd, vd = 2.0 ** -5, 2.0 ** -4, 2.0 ** -6  # the codes of N(0, 1) values reach ~150 of e4m3fn's 448

    def quant(shape, scale):
        bits = fp8_bits(rng.standard_normal(shape) / scale, ocp=True)
        return bits, bf16_bits(fp8_float(bits, ocp=True) * scale)

    for cq, ck in ((None, None), (np.array([0, 5, 5, 45, 46], np.int32), np.array([0, 30, 31, 34, 100], np.int32))):
        dense = cq is None
        nq, nk = ((2, 40), (2, 70)) if dense else ((cq[-1],), (ck[-1],))
        (q8, q), (k8, k), (v8, v) = quant((*nq, hq, d), qd), quant((*nk, hkv, d), kd), quant((*nk, hkv, d), vd)
        o, lse = hipasm.ops.flash_attn_fwd(q8, k8, v8, causal=causal, cu_seqlens_q=cq, cu_seqlens_k=ck, return_lse=True,
                                           q_descale=qd, k_descale=kd, v_descale=np.float32(vd))
        assert o.shape == q8.shape and o.dtype == np.uint16
        if dense:
            cq, ck = np.arange(0, 3 * 40, 40), np.arange(0, 3 * 70, 70)
            lse = lse.swapaxes(0, 1).reshape(hq, -1)
        ro, rl = attn_reference(q.reshape(-1, hq, d), k.reshape(-1, hkv, d), v.reshape(-1, hkv, d), cq, ck, causal,
                                d ** -0.5)
        close_bf16(o.reshape(-1, hq, d), ro, extra=2.0 ** -4 * np.abs(bf16_float(v)).max())
        assert np.array_equal(np.isinf(lse), np.isinf(rl))
        fin = np.isfinite(rl)
        assert np.allclose(lse[fin], rl[fin], atol=1e-3)
    with pytest.raises(TypeError, match="flash_attn_fwd: k must be fp8 like q"):
        hipasm.ops.flash_attn_fwd(q8, k, v8, cu_seqlens_q=cq, cu_seqlens_k=ck)
    with pytest.raises(ValueError, match="flash_attn_fwd: v_descale must be positive"):
        hipasm.ops.flash_attn_fwd(q8, k8, v8, cu_seqlens_q=cq, cu_seqlens_k=ck, v_descale=0.0)
    with pytest.raises(ValueError, match="q_descale, k_descale and v_descale apply to fp8"):
        hipasm.ops.flash_attn_fwd(q, k, v, cu_seqlens_q=cq, cu_seqlens_k=ck, q_descale=1.0)
    hipasm.device("sim", gpu="mi300x")
    with pytest.raises(ValueError, match="fp8 q, k, v \\(OCP e4m3fn\\) run on gfx950 devices"):
        hipasm.ops.flash_attn_fwd(q8, k8, v8, cu_seqlens_q=cq, cu_seqlens_k=ck)


def test_flash_attn_fwd_fp8_torch_mi355x():
    """torch fp8 q, k, v (uint8 bits, and torch.float8_e4m3fn where this torch has it) and a
    one-element tensor descale: the numpy call's o and lse, o torch.bfloat16."""
    torch = pytest.importorskip("torch")
    hipasm.device("sim", gpu="mi355x")
    q8, k8, v8 = (fp8_bits(rng.standard_normal(s) * 20, ocp=True) for s in ((1, 33, 2, 128), (1, 50, 1, 128),
                                                                           (1, 50, 1, 128)))
    # (the f32 descale the tensor holds: the same scale_log2 bits)
    ro, rl = hipasm.ops.flash_attn_fwd(q8, k8, v8, causal=True, return_lse=True, k_descale=np.float32(0.05),
                                       v_descale=0.1)
    t = torch.from_numpy
    fp8_type = getattr(torch, "float8_e4m3fn", None)
    for fp8 in [t] + ([lambda w: t(w).view(fp8_type)] if fp8_type is not None else []):
        o, lse = hipasm.ops.flash_attn_fwd(fp8(q8), fp8(k8), fp8(v8), causal=True, return_lse=True,
                                           k_descale=torch.tensor([0.05]), v_descale=0.1)
        assert o.dtype == torch.bfloat16 and np.array_equal(o.view(torch.int16).numpy().view(np.uint16), ro)
        assert np.array_equal(lse.numpy(), rl)


def test_flash_attn_fwd_errors(sim):
    q = bf16_bits(np.ones((1, 4, 2, 96)))
    with pytest.raises(ValueError, match=r"flash_attn_fwd: head_dim = 96 \(q's last dimension\) must be 64 or 128"):
        hipasm.ops.flash_attn_fwd(q, q, q)
    q = bf16_bits(np.ones((4, 3, 64)))
    with pytest.raises(ValueError, match="num_kv_heads = 2 must divide num_heads = 3"):
        hipasm.ops.flash_attn_fwd(q, q[:, :2], q[:, :2], cu_seqlens_q=np.array([0, 4], np.int32),
                                  cu_seqlens_k=np.array([0, 4], np.int32))
    with pytest.raises(ValueError, match="pass both cu_seqlens_q and cu_seqlens_k"):
        hipasm.ops.flash_attn_fwd(q, q, q, cu_seqlens_q=np.array([0, 4], np.int32))


def attn_bwd_reference(q, k, v, do, cq, ck, causal, scale, dq_tile=0):
    """f64 gradients (dq, dk, dv) of attn_reference's attention of packed sequences, written from
    its math: P = softmax(S), dV = P^T dO, dP = dO V^T, dS = P (dP - rowsum(dP P)), dQ = scale dS K,
    dK = scale dS^T Q (summed over the query heads of a KV head). With dq_tile also the sum over
    the key tiles of dq_tile keys of |dQ's partial of the tile| (a 4th array like dq)."""
    qf, kf, vf, dof = (f64(a) for a in (q, k, v, do))
    hq, hkv = q.shape[1], k.shape[1]
    dq, dk, dv = np.zeros(q.shape), np.zeros(k.shape), np.zeros(v.shape)
    dq_abs = np.zeros(q.shape)
    for b in range(len(cq) - 1):
        sq, sk = cq[b + 1] - cq[b], ck[b + 1] - ck[b]
        qs, ks = slice(cq[b], cq[b + 1]), slice(ck[b], ck[b + 1])
        for h in range(hq):
            g = h // (hq // hkv)
            s = scale * qf[qs, h] @ kf[ks, g].T
            if causal:
                diag = 0 if causal == "top_left" else sk - sq
                s = np.where(np.arange(sk)[None, :] > np.arange(sq)[:, None] + diag, -np.inf, s)
            m = s.max(axis=1, initial=-np.inf, keepdims=True)
            p = np.where(np.isfinite(m), np.exp(s - np.where(np.isfinite(m), m, 0)), 0)
            p = p / np.maximum(p.sum(axis=1, keepdims=True), 1e-300)
            dp = dof[qs, h] @ vf[ks, g].T
            ds = p * (dp - (dp * p).sum(axis=1, keepdims=True))
            dv[ks, g] += p.T @ dof[qs, h]
            dq[qs, h] = scale * ds @ kf[ks, g]
            dk[ks, g] += scale * ds.T @ qf[qs, h]
            for t in range(0, sk, dq_tile or sk + 1):
                dq_abs[qs, h] += np.abs(scale * ds[:, t:t + dq_tile] @ kf[ks, g][t:t + dq_tile])
    return (dq, dk, dv, dq_abs) if dq_tile else (dq, dk, dv)


def close_grad(name, got_bits, ref):
    # bf16 inputs and O (rowsum(dO O) from the forward's bf16 O), f32 products, bf16 results;
    # f16 (numpy float16) the same to f16's precision
    rel, extra = (1.2e-3, 1e-5) if got_bits.dtype == np.float16 else (2e-2, 1e-3)
    err = np.abs(f64(got_bits) - ref).max()
    assert err <= rel * np.abs(ref).max() + extra, f"{name}: max |grad - reference| {err}"


def close_dense_grads(q, k, v, do, grads, causal):
    """(dq, dk, dv) of dense [batch, seqlen, heads, head_dim] tensors against attn_bwd_reference."""
    (batch, sq, hq, d), (sk, hkv) = q.shape, k.shape[1:3]
    cq, ck = np.arange(0, (batch + 1) * sq, sq), np.arange(0, (batch + 1) * sk, sk)
    refs = attn_bwd_reference(q.reshape(-1, hq, d), k.reshape(-1, hkv, d), v.reshape(-1, hkv, d),
                              do.reshape(-1, hq, d), cq, ck, causal, d ** -0.5)
    for name, got, ref in zip(("dq", "dk", "dv"), grads, refs):
        close_grad(name, got.reshape(ref.shape), ref)


@pytest.mark.parametrize("causal,d", [(False, 64), (True, 128)])
def test_flash_attn_bwd_dense_numpy(sim, causal, d):
    batch, sq, sk, hq, hkv = 2, 40, 50, 4, 2  # GQA, sequences off the 32-query and 128-key tiles
    q = bf16_bits(rng.standard_normal((batch, sq, hq, d)))
    k = bf16_bits(rng.standard_normal((batch, sk, hkv, d)))
    v = bf16_bits(rng.standard_normal((batch, sk, hkv, d)))
    do = bf16_bits(rng.standard_normal((batch, sq, hq, d)))
    o, lse = hipasm.ops.flash_attn_fwd(q, k, v, causal=causal, return_lse=True)
    dq, dk, dv = hipasm.ops.flash_attn_bwd(do, q, k, v, o, lse, causal=causal)
    assert dq.shape == q.shape and dk.shape == k.shape and dv.shape == v.shape and dq.dtype == np.uint16
    close_dense_grads(q, k, v, do, (dq, dk, dv), causal)


@pytest.mark.parametrize("causal,d", [(False, 64), (True, 128)])
def test_flash_attn_bwd_dq_accum_dtype_numpy(sim, causal, d):
    """dq_accum="dtype" (attn_bwd_dq::atomic16): dQ summed over 3 key tiles (the last partial) by
    packed bf16 atomics. Each tile's partial is rounded to bf16 and each running sum again: with n
    tiles dQ's extra error is at most (n + 1) 2^-8 (1 + 2^-6) times the sum of |partials|."""
    batch, sq, sk, hq, hkv = 1, 40, 300, 4, 2  # GQA: dK, dV summed by the last launch (no dQ conversion)
    q = bf16_bits(rng.standard_normal((batch, sq, hq, d)))
    k = bf16_bits(rng.standard_normal((batch, sk, hkv, d)))
    v = bf16_bits(rng.standard_normal((batch, sk, hkv, d)))
    do = bf16_bits(rng.standard_normal((batch, sq, hq, d)))
    o, lse = hipasm.ops.flash_attn_fwd(q, k, v, causal=causal, return_lse=True)
    dq, dk, dv = hipasm.ops.flash_attn_bwd(do, q, k, v, o, lse, causal=causal, dq_accum="dtype")
    assert any(n == f"attn_bwd_d{d}_c{int(causal)}_a16" for m in hipasm.ops._module_list() for n in m.kernel_names)
    cq, ck = np.array([0, sq]), np.array([0, sk])
    ref_dq, ref_dk, ref_dv, dq_abs = attn_bwd_reference(q[0], k[0], v[0], do[0], cq, ck, causal, d ** -0.5,
                                                        dq_tile=128)
    close_grad("dk", dk[0], ref_dk)
    close_grad("dv", dv[0], ref_dv)
    n = (sk + 127) // 128
    bound = 2e-2 * np.abs(ref_dq).max() + 1e-3 + (n + 1) * 2.0 ** -8 * (1 + 2.0 ** -6) * dq_abs
    err = np.abs(f64(dq[0]) - ref_dq)
    assert (err <= bound).all(), f"dq: max |grad - reference| - bound {(err - bound).max()}"
    with pytest.raises(ValueError, match=r"flash_attn_bwd: dq_accum must be"):
        hipasm.ops.flash_attn_bwd(do, q, k, v, o, lse, dq_accum="bf16")


def test_flash_attn_bwd_varlen_numpy(sim):
    hq, hkv, d = 2, 1, 64  # MQA; an empty sequence, a one-token one, rows that see no key (causal)
    cq, ck = np.array([0, 5, 5, 45, 46], np.int32), np.array([0, 30, 31, 34, 35], np.int32)
    q = bf16_bits(rng.standard_normal((cq[-1], hq, d)))
    k = bf16_bits(rng.standard_normal((ck[-1], hkv, d)))
    v = bf16_bits(rng.standard_normal((ck[-1], hkv, d)))
    do = bf16_bits(rng.standard_normal((cq[-1], hq, d)))
    o, lse = hipasm.ops.flash_attn_fwd(q, k, v, causal=True, softmax_scale=0.2, cu_seqlens_q=cq, cu_seqlens_k=ck,
                                       return_lse=True)
    dq, dk, dv = hipasm.ops.flash_attn_bwd(do, q, k, v, o, lse, causal=True, softmax_scale=0.2, cu_seqlens_q=cq,
                                           cu_seqlens_k=ck)
    refs = attn_bwd_reference(q, k, v, do, cq, ck, True, 0.2)
    for name, got, ref in zip(("dq", "dk", "dv"), (dq, dk, dv), refs):
        close_grad(name, got, ref)
    assert not bf16_float(dq[5:5 + 37]).any()  # the 37 queries of sequence 2 before its 3 keys


@pytest.mark.parametrize("hq,hkv,f16", [(2, 2, False), (4, 2, False), (4, 2, True)])
def test_flash_attn_bwd_recompute_mi355x(hq, hkv, f16):
    """gfx950 (a sim MI355X) takes the recompute dQ mode (a dQ kernel of its own, no dQ workspace)
    on a non-causal shape: MHA, and GQA (dK, dV partials summed by the last launch); bf16 and f16
    (numpy float16)."""
    hipasm.device("sim", gpu="mi355x")
    assert hipasm.ops._cfg.attn_bwd_dq("gfx950", False, 50) == "recompute"
    assert hipasm.ops._cfg.attn_bwd_dq("gfx950", True, 1024) == "atomic"
    assert hipasm.ops._cfg.attn_bwd_dq("gfx950", True, 1025) == "recompute"
    assert hipasm.ops._cfg.attn_bwd_dq("gfx942", False, 8192) == "atomic"
    batch, sq, sk, d = 1, 150, 70, 128  # off the 128-query and 32-key tiles of the dQ kernel
    enc = (lambda a: a.astype(np.float16)) if f16 else bf16_bits
    q = enc(rng.standard_normal((batch, sq, hq, d)))
    k = enc(rng.standard_normal((batch, sk, hkv, d)))
    v = enc(rng.standard_normal((batch, sk, hkv, d)))
    do = enc(rng.standard_normal((batch, sq, hq, d)))
    o, lse = hipasm.ops.flash_attn_fwd(q, k, v, return_lse=True)
    dq, dk, dv = hipasm.ops.flash_attn_bwd(do, q, k, v, o, lse)
    assert dq.dtype == q.dtype
    dq_name = "attn_bwd_d128_c0_rc_f16_dq" if f16 else "attn_bwd_d128_c0_rc_dq"
    assert any(n == dq_name for m in hipasm.ops._module_list() for n in m.kernel_names)
    close_dense_grads(q, k, v, do, (dq, dk, dv), False)


def test_flash_attn_top_left_numpy(sim):
    """causal="top_left": query i sees keys j <= i (sq < sk: later keys unseen; sq > sk: every row
    sees key 0), forward and backward, packed sequences, against f64."""
    hq, hkv, d = 2, 1, 64
    cq, ck = np.array([0, 40, 140], np.int32), np.array([0, 90, 150], np.int32)
    q = bf16_bits(rng.standard_normal((cq[-1], hq, d)))
    k = bf16_bits(rng.standard_normal((ck[-1], hkv, d)))
    v = bf16_bits(rng.standard_normal((ck[-1], hkv, d)))
    do = bf16_bits(rng.standard_normal((cq[-1], hq, d)))
    o, lse = hipasm.ops.flash_attn_fwd(q, k, v, causal="top_left", cu_seqlens_q=cq, cu_seqlens_k=ck, return_lse=True)
    ro, rl = attn_reference(q, k, v, cq, ck, "top_left", d ** -0.5)
    assert np.isfinite(rl).all() and np.abs(lse - rl).max() < 1e-3
    close_grad("o", o, ro)
    dq, dk, dv = hipasm.ops.flash_attn_bwd(do, q, k, v, o, lse, causal="top_left", cu_seqlens_q=cq, cu_seqlens_k=ck)
    for name, got, ref in zip(("dq", "dk", "dv"), (dq, dk, dv),
                              attn_bwd_reference(q, k, v, do, cq, ck, "top_left", d ** -0.5)):
        close_grad(name, got, ref)
    assert not bf16_float(dk[40:90]).any()  # keys 40.. of sequence 0: no query sees them
    with pytest.raises(ValueError, match="causal must be False, True"):
        hipasm.ops.flash_attn_fwd(q, k, v, causal="diagonal", cu_seqlens_q=cq, cu_seqlens_k=ck)


def test_flash_attn_f16_numpy(sim):
    """numpy float16 tensors: forward and backward (GQA, causal, sequences off the tiles) against
    f64, to f16's precision (2^-11 a rounding; gradients within 1.2e-3 of their largest, which
    outputs rounded to bf16, 2^-9, exceed)."""
    batch, sq, sk, hq, hkv, d = 2, 40, 50, 4, 2, 64
    q = rng.standard_normal((batch, sq, hq, d)).astype(np.float16)
    k = rng.standard_normal((batch, sk, hkv, d)).astype(np.float16)
    v = rng.standard_normal((batch, sk, hkv, d)).astype(np.float16)
    do = rng.standard_normal((batch, sq, hq, d)).astype(np.float16)
    o, lse = hipasm.ops.flash_attn_fwd(q, k, v, causal=True, return_lse=True)
    assert o.dtype == np.float16 and o.shape == q.shape
    cq, ck = np.arange(0, (batch + 1) * sq, sq), np.arange(0, (batch + 1) * sk, sk)
    flat = lambda x: x.reshape(-1, x.shape[2], d)
    ro, rl = attn_reference(flat(q), flat(k), flat(v), cq, ck, True, d ** -0.5)
    assert np.abs(lse.swapaxes(0, 1).reshape(hq, -1) - rl).max() < 1e-3
    # P and O rounded to f16: 2^-11 of max |v| (~4) and of |o|
    assert np.abs(flat(o).astype(np.float64) - ro).max() <= 2.0 ** -10 * 4 + 2.0 ** -10 * np.abs(ro).max()
    dq, dk, dv = hipasm.ops.flash_attn_bwd(do, q, k, v, o, lse, causal=True)
    assert dq.dtype == np.float16 and dk.shape == k.shape
    refs = attn_bwd_reference(flat(q), flat(k), flat(v), flat(do), cq, ck, True, d ** -0.5)
    for name, got, ref in zip(("dq", "dk", "dv"), (dq, dk, dv), refs):
        err = np.abs(got.reshape(ref.shape).astype(np.float64) - ref).max()
        assert err <= 1.2e-3 * np.abs(ref).max() + 1e-5, f"{name}: max |grad - reference| {err}"


def test_flash_attn_f16_torch(sim):
    """torch.float16: hipasm.torch_ops.flash_attn's gradients (MHA and GQA, causal and not)
    against torch's autograd of f64 attention on the same f16 inputs, within 1.2e-3 of the
    largest (f16's rounding; bf16's, 2^-9, exceeds it)."""
    torch = pytest.importorskip("torch")
    import hipasm.torch_ops
    torch.manual_seed(3)
    for causal, sq, sk, h, hk, d in ((False, 48, 70, 4, 2, 128), (True, 64, 64, 2, 2, 64)):
        q, k, v = torch.randn(1, sq, h, d).half(), torch.randn(1, sk, hk, d).half(), torch.randn(1, sk, hk, d).half()
        do = torch.randn(1, sq, h, d).half()
        qg, kg, vg = (t.clone().requires_grad_() for t in (q, k, v))
        o = hipasm.torch_ops.flash_attn(qg, kg, vg, causal)
        o.backward(do)
        qr, kr, vr = (t.double().requires_grad_() for t in (q, k, v))
        qt, kt, vt = qr.transpose(1, 2), kr.transpose(1, 2).repeat_interleave(h // hk, 1), \
            vr.transpose(1, 2).repeat_interleave(h // hk, 1)
        s = (qt @ kt.transpose(-1, -2)) * d ** -0.5
        if causal:
            s = s.masked_fill(torch.ones(sq, sk, dtype=torch.bool).triu(sk - sq + 1), float("-inf"))
        ref = (torch.softmax(s, -1) @ vt).transpose(1, 2)
        ref.backward(do.double())
        assert o.dtype == torch.float16
        assert (o.double() - ref).abs().max().item() <= 1.2e-3 * ref.abs().max().item()
        for got, want in ((qg.grad, qr.grad), (kg.grad, kr.grad), (vg.grad, vr.grad)):
            assert got.dtype == torch.float16 and got.shape == want.shape
            err = (got.double() - want).abs().max().item()
            assert err <= 1.2e-3 * want.abs().max().item() + 1e-5, f"max |grad - reference| {err}"
    with pytest.raises(TypeError, match=r"flash_attn_fwd: k is float16, q bf16: the tensors must all be bf16 or all f16"):
        hipasm.ops.flash_attn_fwd(q.bfloat16(), k, v)
    with pytest.raises(TypeError, match=r"flash_attn_bwd: q must be torch.bfloat16 or torch.float16"):
        hipasm.ops.flash_attn_bwd(do, q.float(), k, v, o.detach(), torch.zeros(1, 2, 64))


def test_flash_attn_bwd_errors(sim):
    q = bf16_bits(np.ones((1, 4, 2, 64)))
    lse = np.zeros((1, 2, 4), np.float32)
    with pytest.raises(ValueError, match=r"flash_attn_bwd: lse shape \(2, 1, 4\), expected \(1, 2, 4\)"):
        hipasm.ops.flash_attn_bwd(q, q, q, q, q, lse.reshape(2, 1, 4))
    with pytest.raises(ValueError, match=r"flash_attn_bwd: do shape \(1, 3, 2, 64\), expected \[1, 4, heads"):
        hipasm.ops.flash_attn_bwd(q[:, :3], q, q, q, q, lse)
    with pytest.raises(TypeError, match="lse must be float32"):
        hipasm.ops.flash_attn_bwd(q, q, q, q, q, lse.astype(np.float64))
    q96 = bf16_bits(np.ones((1, 4, 2, 96)))
    with pytest.raises(ValueError, match=r"flash_attn_bwd: head_dim = 96 \(q's last dimension\) must be 64 or 128"):
        hipasm.ops.flash_attn_bwd(q96, q96, q96, q96, q96, lse)


def act_ref(g, act="silu"):
    """The gate activations in f64 from their formulas (activation.hpp)."""
    if act == "silu":
        return g / (1 + np.exp(-g))
    if act == "gelu":
        return 0.5 * g * (1 + np.vectorize(math.erf)(g / math.sqrt(2)))
    assert act == "gelu_tanh"
    return 0.5 * g * (1 + np.tanh(math.sqrt(2 / math.pi) * (g + 0.044715 * g ** 3)))


def moe_reference(x, w1, w2, weights, ids, act="silu"):
    """f64 gated MoE (act: silu, gelu, gelu_tanh) and a bound of its rounding: the kernel keeps h
    in bf16 (2^-9 relative) and sums in f32."""
    xf, w1f, w2f = (bf16_float(a).astype(np.float64) for a in (x, w1, w2))
    inter = w1.shape[1] // 2
    out, mag = np.zeros((x.shape[0], w2.shape[1])), np.zeros((x.shape[0], w2.shape[1]))
    for t in range(x.shape[0]):
        for e, w in zip(ids[t], weights[t]):
            g, u = w1f[e, :inter] @ xf[t], w1f[e, inter:] @ xf[t]
            h = act_ref(g, act) * u
            out[t] += w * (w2f[e] @ h)
            mag[t] += abs(w) * (np.abs(w2f[e]) @ np.abs(h))
    return out, mag * 2.0 ** -8 + 1e-4


@pytest.mark.parametrize("experts", [8, 100])  # the sorting kernels for up to 64 and up to 256 experts
def test_fused_moe_numpy(sim, experts):
    tokens, dim, inter, topk = 6, 32, 48, 2
    x = bf16_bits(rng.standard_normal((tokens, dim)))
    w1 = bf16_bits(rng.standard_normal((experts, 2 * inter, dim)) * 0.2)
    w2 = bf16_bits(rng.standard_normal((experts, dim, inter)) * 0.2)
    ids = np.array([rng.choice(experts, topk, replace=False) for _ in range(tokens)], np.int32)
    weights = rng.random((tokens, topk)).astype(np.float32)
    out = hipasm.ops.fused_moe(x, w1, w2, weights, ids)
    assert out.shape == (tokens, dim) and out.dtype == np.float32
    ref, tol = moe_reference(x, w1, w2, weights, ids)
    assert (np.abs(out - ref) <= tol).all(), np.abs(out - ref).max()
    # int64 ids (torch.topk's) are converted
    assert np.array_equal(hipasm.ops.fused_moe(x, w1, w2, weights, ids.astype(np.int64)), out)


@pytest.mark.parametrize("act", ["gelu", "gelu_tanh"])
def test_fused_moe_activation_numpy(sim, act):
    """fused_moe's GELU forms (stage 1 built for the activation beside the SiLU one): against the
    f64 reference of that activation, and far from SiLU's (the test tells them apart)."""
    tokens, dim, inter, topk, experts = 5, 32, 48, 2, 8
    x = bf16_bits(rng.standard_normal((tokens, dim)))
    w1 = bf16_bits(rng.standard_normal((experts, 2 * inter, dim)) * 0.3)
    w2 = bf16_bits(rng.standard_normal((experts, dim, inter)) * 0.3)
    ids = np.array([rng.choice(experts, topk, replace=False) for _ in range(tokens)], np.int32)
    weights = rng.random((tokens, topk)).astype(np.float32)
    out = hipasm.ops.fused_moe(x, w1, w2, weights, ids, activation=act)
    ref, tol = moe_reference(x, w1, w2, weights, ids, act)
    assert (np.abs(out - ref) <= tol).all(), np.abs(out - ref).max()
    silu, _ = moe_reference(x, w1, w2, weights, ids)
    assert not (np.abs(out - silu) <= tol).all()
    with pytest.raises(ValueError, match=r"fused_moe: activation 'relu', expected one of"):
        hipasm.ops.fused_moe(x, w1, w2, weights, ids, activation="relu")


def test_moe_sorting_numpy(sim):
    """moe.hpp's format: per expert in increasing order, its pairs `token | slot << 24` in increasing
    token order, padded with `tokens | topk << 24` to blocks of 32; experts without pairs get none."""
    ids = np.array([[3, 0], [0, 5], [3, 5]], np.int32)
    weights = np.array([[0.5, 0.25], [1.0, 2.0], [3.0, 4.0]], np.float32)
    sorted_ids, sorted_w, experts, valid = hipasm.ops.moe_sorting(ids, weights, 8)
    pad = 3 | 2 << 24
    expect = {0: [0 | 1 << 24, 1], 3: [0, 2], 5: [1 | 1 << 24, 2 | 1 << 24]}
    assert valid[0] == 3 * 32 and valid[1] == 3
    for b, e in enumerate(sorted(expect)):
        assert experts[b] == e
        block = sorted_ids[32 * b:32 * (b + 1)]
        assert list(block[:2]) == expect[e] and (block[2:] == pad).all()
        w = [weights[v & 0xFFFFFF, v >> 24] for v in expect[e]]
        assert list(sorted_w[32 * b:32 * b + 2]) == w and (sorted_w[32 * b + 2:32 * (b + 1)] == 0).all()
    with pytest.raises(ValueError, match=r"topk_weights shape \(3, 1\), expected \(3, 2\)"):
        hipasm.ops.moe_sorting(ids, weights[:, :1], 8)


def test_fused_moe_errors(sim):
    x = bf16_bits(np.ones((2, 32)))
    w1, w2 = bf16_bits(np.ones((1025, 32, 32))), bf16_bits(np.ones((1025, 32, 16)))
    ids, weights = np.zeros((2, 1), np.int32), np.ones((2, 1), np.float32)
    with pytest.raises(ValueError, match=r"experts \(w1's first dimension\) = 1025 must be 1 \.\. 1024"):
        hipasm.ops.fused_moe(x, w1, w2, weights, ids)
    with pytest.raises(ValueError, match=r"w2 shape \(4, 32, 8\), expected \(4, 32, 16\)"):
        hipasm.ops.fused_moe(x, w1[:4], bf16_bits(np.ones((4, 32, 8))), weights, ids)
    with pytest.raises(ValueError, match="dim = 24 and inter = 16 must be positive multiples of 16"):
        hipasm.ops.fused_moe(bf16_bits(np.ones((2, 24))), bf16_bits(np.ones((4, 32, 24))),
                             bf16_bits(np.ones((4, 24, 16))), weights, ids)
    with pytest.raises(TypeError, match="topk_weights must be float32, got ndarray float64"):
        hipasm.ops.fused_moe(x, w1[:4], w2[:4], weights.astype(np.float64), ids)


def test_attention_and_moe_torch(sim):
    torch = pytest.importorskip("torch")
    torch.manual_seed(1)
    q, k, v = (torch.randn(1, 33, 2, 64).bfloat16() for _ in range(3))
    o = hipasm.ops.flash_attn_fwd(q, k, v, causal=True)
    assert o.dtype == torch.bfloat16 and o.shape == q.shape
    qd, kd, vd = (t.double().transpose(1, 2) for t in (q, k, v))  # [batch, heads, seq, d]
    s = qd @ kd.transpose(-1, -2) / 8.0
    s = s.masked_fill(torch.ones(33, 33, dtype=torch.bool).triu(1), float("-inf"))
    ref = (torch.softmax(s, -1) @ vd).transpose(1, 2)
    close_bf16(o.view(torch.int16).numpy().view(np.uint16), ref.numpy(), extra=0.02)

    x = torch.randn(3, 16).bfloat16()
    w1, w2 = torch.randn(4, 32, 16).bfloat16() * 0.3, torch.randn(4, 16, 16).bfloat16() * 0.3
    weights, ids = torch.softmax(torch.randn(3, 4), -1).topk(2)  # int64 ids
    out = hipasm.ops.fused_moe(x, w1, w2, weights, ids)
    assert out.dtype == torch.float32
    bits = [t.view(torch.int16).numpy().view(np.uint16) for t in (x, w1, w2)]
    ref, tol = moe_reference(*bits, weights.numpy(), ids.numpy())
    assert (np.abs(out.numpy() - ref) <= tol).all()


def test_norms_numpy(sim):
    x = bf16_bits(rng.standard_normal((3, 1024)) * 2 + 0.5)
    w, b = bf16_bits(rng.standard_normal(1024)), bf16_bits(rng.standard_normal(1024))
    xf, wf, bf = (bf16_float(a).astype(np.float64) for a in (x, w, b))
    y = hipasm.ops.layernorm(x, w, b, eps=1e-5)
    mu = xf.mean(axis=1, keepdims=True)
    ref = (xf - mu) / np.sqrt(((xf - mu) ** 2).mean(axis=1, keepdims=True) + 1e-5) * wf + bf
    close_bf16(y, ref, extra=1e-5)
    y = hipasm.ops.rms_norm(x, w)  # the 1024 configuration
    close_bf16(y, xf / np.sqrt((xf * xf).mean(axis=1, keepdims=True) + 1e-6) * wf, extra=1e-6)
    with pytest.raises(ValueError, match=r"layernorm: x's last dimension \(hidden\) = 65538 must be even, "
                                         r"2 \.\. 65536"):
        hipasm.ops.layernorm(*(bf16_bits(np.ones(s)) for s in ((1, 65538), 65538, 65538)))
    with pytest.raises(ValueError, match=r"bias shape \(3,\), expected \(1024,\)"):
        hipasm.ops.layernorm(x, w, b[:3])


def test_softmax_numpy(sim):
    x = (rng.standard_normal((2, 3, 256)) * 4).astype(np.float32)
    x[0, 0, 5] = -np.inf  # gives 0
    y = hipasm.ops.softmax(x)
    assert y.dtype == np.float32 and y.shape == x.shape
    e = np.exp(x.astype(np.float64) - x.max(axis=-1, keepdims=True))
    ref = e / e.sum(axis=-1, keepdims=True)
    assert np.allclose(y, ref, rtol=1e-5, atol=1e-7) and y[0, 0, 5] == 0
    xb = bf16_bits(rng.standard_normal((4, 1024)) * 3)
    xf = bf16_float(xb).astype(np.float64)
    e = np.exp(xf - xf.max(axis=-1, keepdims=True))
    close_bf16(hipasm.ops.softmax(xb), e / e.sum(axis=-1, keepdims=True), extra=1e-9)
    with pytest.raises(ValueError, match=r"x's last dimension \(cols\) = 101 must be even, 2 \.\. 65536 for bf16 rows"):
        hipasm.ops.softmax(np.zeros((1, 101), np.uint16))
    with pytest.raises(ValueError, match=r"x's last dimension \(cols\) = 32769 must be 1 \.\. 32768 for f32 rows"):
        hipasm.ops.softmax(np.zeros((1, 32769), np.float32))
    with pytest.raises(TypeError, match="x must be bf16 .* or float32, got ndarray float64"):
        hipasm.ops.softmax(np.zeros((1, 256)))


def test_topk_softmax_numpy(sim):
    for experts, topk, renorm in ((8, 2, False), (64, 8, True)):
        logits = (rng.standard_normal((70, experts)) * 2).astype(np.float32)  # 70 tokens: a partial workgroup
        w, idx = hipasm.ops.topk_softmax(logits, topk, renormalize=renorm)
        assert w.dtype == np.float32 and idx.dtype == np.int32 and w.shape == idx.shape == (70, topk)
        ref_idx = np.argsort(-logits, axis=1, kind="stable")[:, :topk]
        p = np.exp(logits.astype(np.float64) - logits.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        ref_w = np.take_along_axis(p, ref_idx, axis=1)
        if renorm:
            ref_w /= ref_w.sum(axis=1, keepdims=True)
        assert np.array_equal(idx, ref_idx)
        assert np.allclose(w, ref_w, rtol=1e-5, atol=1e-7)
    with pytest.raises(ValueError, match=r"topk_softmax: topk = 9 must be 1 \.\. 8"):
        hipasm.ops.topk_softmax(np.zeros((1, 8), np.float32), 9)
    with pytest.raises(ValueError, match=r"experts = 513 \(logits' last dimension\) must be 1 \.\. 512"):
        hipasm.ops.topk_softmax(np.zeros((1, 513), np.float32), 8)


def test_head_dim_128_configurations(sim):
    # the configurations are chosen by shape: head_dim 128, one query head per KV head; d128 flash attention
    q = bf16_bits(rng.standard_normal((2, 2, 128)))
    kc, vc = (bf16_bits(rng.standard_normal((4, 2, 16, 128))) for _ in range(2))
    tables, lens = np.array([[3, 1], [0, 2]], np.int32), np.array([20, 9], np.int32)
    out = hipasm.ops.paged_attention_decode(q, *to_kernel_caches(kc, vc), tables, lens)
    close_bf16(out, paged_reference(q, kc, vc, tables, lens, 128 ** -0.5), extra=0.02)
    q, k, v = (bf16_bits(rng.standard_normal((1, 24, 2, 128))) for _ in range(3))
    o = hipasm.ops.flash_attn_fwd(q, k, v, causal=True)
    ro, _ = attn_reference(q[0], k[0], v[0], [0, 24], [0, 24], True, 128 ** -0.5)
    close_bf16(o[0], ro, extra=0.02)


def fp8_float(bits, ocp=False):
    """e4m3 bits -> float64. fnuz (gfx942's fp8): bias 8, no infinities, 0x80 the only NaN; OCP
    e4m3fn (gfx950's): bias 7, no infinities, S.1111.111 the NaNs (largest finite 448)."""
    b = np.asarray(bits, np.uint8).astype(np.int64)
    e, m = (b >> 3) & 15, b & 7
    bias = 7 if ocp else 8
    mag = np.where(e == 0, m * 2.0 ** (-bias - 2), (1 + m / 8) * 2.0 ** (e - bias))
    nan = (b & 0x7F) == 0x7F if ocp else b == 0x80
    return np.where(nan, np.nan, np.where(b >> 7, -mag, mag))


def fp8_bits(v, ocp=False):
    """float -> e4m3 bits (fnuz, or OCP e4m3fn), round to nearest even, saturated to the
    format's largest finite value (240, 448: the kernels' rule)."""
    table = fp8_float(np.arange(127 if ocp else 128), ocp)  # the non-negative finite codes in increasing order
    top = len(table) - 1
    a = np.minimum(np.abs(np.asarray(v, np.float64)), table[-1])
    hi = np.clip(np.searchsorted(table, a), 1, top)
    lo = hi - 1
    dl, dh = a - table[lo], table[hi] - a
    code = np.where(dl < dh, lo, np.where(dh < dl, hi, np.where(lo % 2 == 0, lo, hi)))
    return np.where((np.asarray(v) < 0) & (code != 0), code | 0x80, code).astype(np.uint8)


def moe_quant_reference(x, w1q, w1s, w2q, w2s, weights, ids, kind, ocp=False, act="silu"):
    """f64 gated-SiLU MoE from x quantized as the op does (fp8: per 1x128 block, e4m3fnuz with
    qmax 240, or OCP e4m3fn (ocp) with qmax 448; int8: per token, qmax 127; scale max(amax /
    qmax, 1 / (512 qmax)), q = rne(x * (1 / scale)) in f32) and the dequantized weights, and a
    tolerance for h's re-quantization (fp8: 2^-4 relative plus the smallest subnormal of its
    block's scale; int8: half a step), which the reference leaves out: 6 standard deviations of
    the sum of those rounding errors."""
    xf = bf16_float(x).astype(np.float32)
    tokens, dim = x.shape
    experts, rows = w1q.shape[:2]
    inter = rows // 2
    qmax, sub = (448, 2.0 ** -9) if ocp else (240, 2.0 ** -10)  # the largest finite, the smallest subnormal
    if kind == "fp8":
        blocks = xf.reshape(tokens, dim // 128, 128)
        xs = np.maximum(np.abs(blocks).max(axis=2) / np.float32(qmax), np.float32(1 / (512 * qmax))).astype(np.float32)
        xq = fp8_float(fp8_bits(blocks * (np.float32(1) / xs)[:, :, None], ocp), ocp) * xs[:, :, None].astype(np.float64)
        xd = xq.reshape(tokens, dim)
        w1d = fp8_float(w1q, ocp) * np.repeat(np.repeat(w1s.astype(np.float64), 128, 1), 128, 2)
        w2d = fp8_float(w2q, ocp) * np.repeat(np.repeat(w2s.astype(np.float64), 128, 1), 128, 2)
    else:
        xs = np.maximum(np.abs(xf).max(axis=1) / np.float32(127), np.float32(1 / (512 * 127))).astype(np.float32)
        xd = np.clip(np.rint(xf * (np.float32(1) / xs)[:, None]), -128, 127) * xs[:, None].astype(np.float64)
        w1d = w1q.astype(np.float64) * w1s.astype(np.float64)[:, :, None]
        w2d = w2q.astype(np.float64) * w2s.astype(np.float64)[:, :, None]
    out, var = np.zeros((tokens, dim)), np.zeros((tokens, dim))
    for t in range(tokens):
        for e, w in zip(ids[t], weights[t]):
            g, u = w1d[e, :inter] @ xd[t], w1d[e, inter:] @ xd[t]
            h = act_ref(g, act) * u
            amax = np.repeat(np.abs(h).reshape(-1, 128).max(axis=1), 128)
            err = np.abs(h) * 2.0 ** -4 + amax / qmax * sub if kind == "fp8" else amax / 127 / 2 * 1.01
            out[t] += w * (w2d[e] @ h)
            # h's rounding errors, independent and uniform within +-err: a sum's variance
            var[t] += w * w * ((w2d[e] ** 2) @ (err ** 2)) / 3
    return out, 6 * np.sqrt(var) + 1e-4 * np.abs(out).max()


def test_fp8_helpers_formats():
    """The tests' e4m3 conversions against the formats' defining values (OCP's spec, AMD's fnuz)."""
    assert fp8_float(0x7E, ocp=True) == 448 and np.isnan(fp8_float(0x7F, ocp=True)) and np.isnan(fp8_float(0xFF, ocp=True))
    assert fp8_float(0x7F) == 240 and np.isnan(fp8_float(0x80)) and fp8_float(0x80, ocp=True) == 0
    assert fp8_float(0x01, ocp=True) == 2.0 ** -9 and fp8_float(0x01) == 2.0 ** -10
    assert fp8_float(0x38, ocp=True) == 1 and fp8_float(0x40) == 1 and fp8_float(0xB8, ocp=True) == -1
    assert list(fp8_bits([1e6, -1e6, 1.0, 0.0], ocp=True)) == [0x7E, 0xFE, 0x38, 0]
    assert list(fp8_bits([1e6, -1e6, 1.0, 0.0])) == [0x7F, 0xFF, 0x40, 0]
    assert fp8_bits(1.0625, ocp=True) == 0x38 and fp8_bits(1.1875, ocp=True) == 0x3A  # ties to even


@pytest.mark.parametrize("gpu", ["mi300x", "mi355x"])
@pytest.mark.parametrize("quant", ["fp8_block", "int8"])
def test_fused_moe_quant_numpy(quant, gpu):
    """The quantized forms (moe_quant.hpp) on gfx942 (a sim MI300X: fp8 e4m3fnuz) and gfx950 (a
    sim MI355X: OCP e4m3fn, built on first use): padded blocks, an expert without tokens, one
    taking most of them; against f64 of the same quantized operands."""
    hipasm.device("sim", gpu=gpu)
    ocp = gpu == "mi355x"
    assert hipasm.ops._target() == ("gfx950" if ocp else "gfx942")
    tokens, dim, inter, experts, topk = 7, 256, 128, 5, 2
    x = bf16_bits(rng.standard_normal((tokens, dim)) * 2)
    ids = np.array([[0, 1], [0, 2], [3, 0], [0, 1], [2, 0], [0, 3], [1, 0]], np.int32)  # expert 4: no tokens
    weights = rng.random((tokens, topk)).astype(np.float32)
    if quant == "fp8_block":
        # (OCP's wider range: some weights above gfx942's 240)
        w1q = fp8_bits(rng.standard_normal((experts, 2 * inter, dim)) * (100 if ocp else 8), ocp)
        w2q = fp8_bits(rng.standard_normal((experts, dim, inter)) * (100 if ocp else 8), ocp)
        w1s = (rng.random((experts, 2 * inter // 128, dim // 128)) * 0.02 + 0.005).astype(np.float32)
        w2s = (rng.random((experts, dim // 128, inter // 128)) * 0.02 + 0.005).astype(np.float32)
        if ocp:
            w1s, w2s = w1s / 12, w2s / 12
    else:
        w1q = rng.integers(-127, 128, (experts, 2 * inter, dim)).astype(np.int8)
        w2q = rng.integers(-127, 128, (experts, dim, inter)).astype(np.int8)
        w1s = (rng.random((experts, 2 * inter)) * 0.002 + 0.0005).astype(np.float32)
        w2s = (rng.random((experts, dim)) * 0.002 + 0.0005).astype(np.float32)
    out = hipasm.ops.fused_moe(x, w1q, w2q, weights, ids, quant=quant, w1_scale=w1s, w2_scale=w2s)
    assert out.shape == (tokens, dim) and out.dtype == np.float32
    kind = "fp8" if quant == "fp8_block" else "i8"
    ref, tol = moe_quant_reference(x, w1q, w1s, w2q, w2s, weights, ids, kind, ocp)
    assert (np.abs(ref) > tol).mean() > 0.6  # (most outputs above their tolerance: a wrong scale or layout fails)
    assert (np.abs(out - ref) <= tol).all(), np.abs(out - ref).max()
    if kind == "fp8":  # the other format's reading of the same bits is far off: the test tells them apart
        other, _ = moe_quant_reference(x, w1q, w1s, w2q, w2s, weights, ids, kind, not ocp)
        assert not (np.abs(out - other) <= tol).all()
    if (quant, gpu) == ("int8", "mi300x"):  # stage 1 with GELU (tanh), built on first use
        out = hipasm.ops.fused_moe(x, w1q, w2q, weights, ids, quant=quant, w1_scale=w1s, w2_scale=w2s,
                                   activation="gelu_tanh")
        ref, tol = moe_quant_reference(x, w1q, w1s, w2q, w2s, weights, ids, kind, ocp, act="gelu_tanh")
        assert (np.abs(out - ref) <= tol).all(), np.abs(out - ref).max()
    # the errors name the argument
    with pytest.raises(ValueError, match=r"w1_scale shape .*, expected"):
        hipasm.ops.fused_moe(x, w1q, w2q, weights, ids, quant=quant, w1_scale=w1s[:, :1], w2_scale=w2s)
    with pytest.raises(ValueError, match="needs w1_scale and w2_scale"):
        hipasm.ops.fused_moe(x, w1q, w2q, weights, ids, quant=quant)
    with pytest.raises(TypeError, match="w2 must be uint8"):
        hipasm.ops.fused_moe(x, w1q, w2q.astype(np.float32), weights, ids, quant=quant, w1_scale=w1s, w2_scale=w2s)
    with pytest.raises(ValueError, match="dim = 192 and inter = 128 must be positive multiples of 128"):
        hipasm.ops.fused_moe(x[:, :192], w1q[:, :, :192], w2q[:, :192], weights, ids, quant=quant, w1_scale=w1s,
                             w2_scale=w2s)


@pytest.mark.parametrize("gpu", ["mi300x", "mi355x"])
def test_fused_moe_quant_torch(gpu):
    """torch operands (fp8 weights as uint8 bits, and as the target's torch type: float8_e4m3fnuz
    on gfx942, float8_e4m3fn on gfx950, where this torch has it): the numpy call's result."""
    torch = pytest.importorskip("torch")
    hipasm.device("sim", gpu=gpu)
    ocp = gpu == "mi355x"
    # (dim 256: test_fused_moe_quant_numpy's x quantization kernel, already built)
    x = bf16_bits(rng.standard_normal((3, 256)))
    w1q, w2q = (fp8_bits(rng.standard_normal(s) * 8, ocp) for s in ((2, 256, 256), (2, 256, 128)))
    w1s, w2s = np.full((2, 2, 2), 0.01, np.float32), np.full((2, 2, 1), 0.02, np.float32)
    ids, weights = np.array([[0], [1], [0]], np.int32), np.array([[0.5], [1.0], [2.0]], np.float32)
    ref = hipasm.ops.fused_moe(x, w1q, w2q, weights, ids, quant="fp8_block", w1_scale=w1s, w2_scale=w2s)
    t = torch.from_numpy
    fp8_type = getattr(torch, "float8_e4m3fn" if ocp else "float8_e4m3fnuz", None)
    fp8s = [lambda w: t(w)] + ([lambda w: t(w).view(fp8_type)] if fp8_type is not None else [])
    for fp8 in fp8s:
        out = hipasm.ops.fused_moe(t(x.view(np.int16)).view(torch.bfloat16), fp8(w1q), fp8(w2q), t(weights),
                                   t(ids).long(), quant="fp8_block", w1_scale=t(w1s), w2_scale=t(w2s))
        assert out.dtype == torch.float32 and np.array_equal(out.numpy(), ref)
    if fp8_type is not None:  # torch's own conversion to the target's format: the bits the test made
        assert np.array_equal(t(fp8_float(w1q, ocp)).to(fp8_type).view(torch.uint8).numpy(), w1q)
    other = getattr(torch, "float8_e4m3fnuz" if ocp else "float8_e4m3fn", None)
    if other is not None:  # the other target's fp8 type: refused, naming the argument
        with pytest.raises(TypeError, match="w1 must be uint8"):
            hipasm.ops.fused_moe(x, t(w1q).view(other), w2q, weights, ids, quant="fp8_block", w1_scale=w1s,
                                 w2_scale=w2s)


FP4 = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6])  # e2m1's non-negative values by code


def fp4_float(codes):
    c = np.asarray(codes).astype(np.int64)
    return np.where(c & 8, -1.0, 1.0) * FP4[c & 7]


def mxfp4_quantize(v):
    """f64 rows [..., 32 k] -> (codes [..., 32 k], E8M0 [..., k]) by aiter's rule
    (mxfp4_quant.hpp aiter_even: amax's f32 bits + 0x200000, mantissa cleared, exponent - 2;
    elements rounded to nearest even, saturated to +-6)."""
    b = np.asarray(v, np.float64).reshape(*np.shape(v)[:-1], -1, 32)
    amax = np.abs(b).max(axis=-1).astype(np.float32)
    e = ((amax.view(np.uint32).astype(np.int64) + 0x200000) >> 23) & 0xFF
    code = np.where(amax == 0, 0, np.clip(e - 2, 0, 254))
    a = np.minimum(np.abs(b) / 2.0 ** (code[..., None] - 127.0), 6.0)
    hi = np.clip(np.searchsorted(FP4, a), 1, 7)
    lo = hi - 1
    dl, dh = a - FP4[lo], FP4[hi] - a
    q = np.where(dl < dh, lo, np.where(dh < dl, hi, np.where(lo % 2 == 0, lo, hi)))
    q = np.where((b < 0) & (q != 0), q | 8, q)
    return q.reshape(np.shape(v)), code.astype(np.uint8)


def mx_dequant(codes, scales):
    """[..., n] fp4 codes and [..., n / 32] E8M0 scales -> f64."""
    f = fp4_float(codes).reshape(*np.shape(codes)[:-1], -1, 32)
    return (f * 2.0 ** (np.asarray(scales, np.float64)[..., None] - 127)).reshape(np.shape(codes))


def pack_fp4(codes):
    c = np.asarray(codes, np.uint8)
    return (c[..., 0::2] | (c[..., 1::2] << 4)).astype(np.uint8)


@pytest.mark.parametrize("act", ["silu", "gelu"])
def test_fused_moe_mxfp4_numpy(act):
    """quant='mxfp4' (moe_fp4.hpp, gfx950: a sim MI355X), SiLU and GELU, against f64 of the weights' values with x
    and h quantized as the kernels do (h in f32 there: a value at a rounding midpoint could round
    the other way; none does on these operands), up to the f32 sums' rounding."""
    hipasm.device("sim", gpu="mi355x")
    tokens, dim, inter, experts, topk = 5, 256, 256, 4, 2
    g = np.random.default_rng(11)
    x = bf16_bits(g.standard_normal((tokens, dim)))
    ids = np.array([[0, 1], [0, 2], [1, 0], [2, 0], [0, 1]], np.int32)  # expert 3: no tokens
    weights = g.random((tokens, topk)).astype(np.float32)
    w1c, w2c = g.integers(0, 16, (experts, 2 * inter, dim)), g.integers(0, 16, (experts, dim, inter))
    w1s = g.integers(120, 124, (experts, 2 * inter, dim // 32)).astype(np.uint8)
    w2s = g.integers(120, 124, (experts, dim, inter // 32)).astype(np.uint8)
    out = hipasm.ops.fused_moe(x, pack_fp4(w1c), pack_fp4(w2c), weights, ids, quant="mxfp4", w1_scale=w1s,
                               w2_scale=w2s, activation=act)
    assert out.shape == (tokens, dim) and out.dtype == np.float32
    xd = mx_dequant(*mxfp4_quantize(bf16_float(x).astype(np.float64)))
    w1d, w2d = mx_dequant(w1c, w1s), mx_dequant(w2c, w2s)
    ref, mag = np.zeros((tokens, dim)), np.zeros((tokens, dim))
    for t in range(tokens):
        for e, w in zip(ids[t], weights[t]):
            gate, up = w1d[e, :inter] @ xd[t], w1d[e, inter:] @ xd[t]
            h = mx_dequant(*mxfp4_quantize(act_ref(gate, act) * up))
            ref[t] += w * (w2d[e] @ h)
            mag[t] += abs(w) * (np.abs(w2d[e]) @ np.abs(h))
    tol = mag * 2.0 ** -16 + 1e-6
    assert (np.abs(out - ref) <= tol).all(), np.abs(out - ref).max()
    with pytest.raises(ValueError, match=r"w2_scale shape \(4, 256, 4\), expected \(4, 256, 8\)"):
        hipasm.ops.fused_moe(x, pack_fp4(w1c), pack_fp4(w2c), weights, ids, quant="mxfp4", w1_scale=w1s,
                             w2_scale=w2s[:, :, :4])


def test_fused_moe_quant_errors(sim):
    x = bf16_bits(np.ones((2, 192)))
    w1, w2 = np.zeros((4, 256, 192), np.uint8), np.zeros((4, 192, 128), np.uint8)
    ids, weights = np.zeros((2, 1), np.int32), np.ones((2, 1), np.float32)
    s1, s2 = np.ones((4, 2, 2), np.float32), np.ones((4, 2, 1), np.float32)
    with pytest.raises(ValueError, match=r"quant 'fp4', expected None, 'fp8_block', 'int8' or 'mxfp4'"):
        hipasm.ops.fused_moe(x, w1, w2, weights, ids, quant="fp4", w1_scale=s1, w2_scale=s2)
    with pytest.raises(ValueError, match="quant='mxfp4' runs on gfx950 devices"):
        hipasm.ops.fused_moe(x, w1, w2, weights, ids, quant="mxfp4", w1_scale=s1, w2_scale=s2)
    if hipasm.ops._target() != "gfx942":
        return
    with pytest.raises(ValueError, match="dim = 192 and inter = 128 must be positive multiples of 128"):
        hipasm.ops.fused_moe(x, w1, w2, weights, ids, quant="fp8_block", w1_scale=s1, w2_scale=s2)
    with pytest.raises(TypeError, match="quant='int8' takes int8 w1, got fp8"):
        hipasm.ops.fused_moe(x, w1, w2, weights, ids, quant="int8", w1_scale=s1, w2_scale=s2)
    with pytest.raises(ValueError, match="w1_scale and w2_scale go with quant="):
        hipasm.ops.fused_moe(bf16_bits(np.ones((2, 32))), bf16_bits(np.ones((4, 32, 32))),
                             bf16_bits(np.ones((4, 32, 16))), weights, ids, w1_scale=s1)


def test_dynamic_quant_and_gemm_a8w8_numpy(sim):
    x = bf16_bits(rng.standard_normal((5, 256)) * 3)
    x[2] = 0  # a zero row: the scale's floor, q = 0
    xf = bf16_float(x).astype(np.float64)
    amax = np.abs(xf).max(axis=1)
    q, s = hipasm.ops.dynamic_quant(x, "fp8")
    assert q.dtype == np.uint8 and s.dtype == np.float32 and q.shape == x.shape and s.shape == (5,)
    assert np.allclose(s, np.maximum(amax / 240, 1 / (512 * 240)), rtol=2e-7)
    assert (q[2] == 0).all() and np.abs(fp8_float(q)).max() <= 240
    # e4m3: 3 mantissa bits, half an ulp 2^-4 relative; subnormals 2^-11 absolute
    err = np.abs(fp8_float(q) * s[:, None] - xf)
    assert (err <= np.abs(xf) * 2.0 ** -4 + 2.0 ** -11 * s[:, None]).all()
    qi, si = hipasm.ops.dynamic_quant(x, "int8")
    assert qi.dtype == np.int8
    ref = np.clip(np.rint(xf / si[:, None].astype(np.float64)), -128, 127)
    assert (np.abs(qi - ref) <= 1).all() and (qi == ref).mean() > 0.99  # f32 reciprocal: rare off-by-one
    # the GEMM of the quantized operands against f64 of the same values
    b = bf16_bits(rng.standard_normal((70, 256)))
    for kind, qa, sa in (("fp8", q, s), ("int8", qi, si)):
        qb, sb = hipasm.ops.dynamic_quant(b, kind)
        c = hipasm.ops.gemm_a8w8(qa, qb, sa, sb)
        assert c.dtype == np.uint16 and c.shape == (5, 70)
        dec = fp8_float if kind == "fp8" else (lambda v: v.astype(np.float64))
        ref = (dec(qa) @ dec(qb).T) * sa[:, None] * sb[None, :]
        close_bf16(c, ref, extra=1e-3 * np.abs(ref).max())
    with pytest.raises(ValueError, match=r"x's last dimension \(d\) = 130 must be a multiple of 4"):
        hipasm.ops.dynamic_quant(bf16_bits(np.ones((1, 130))), "int8")
    with pytest.raises(TypeError, match="a and b must both be fp8 or both int8, got fp8 and i8"):
        hipasm.ops.gemm_a8w8(q, qi, s, si)
    with pytest.raises(ValueError, match="k = 6 must be a multiple of 4"):
        hipasm.ops.gemm_a8w8(qi[:, :6], qi[:, :6], si, si)


def mla_reference(q, kv, qo, kvp, idx, last, scale):
    """f64 MLA decode: per sequence, token t of its qlen sees kv rows j < kv_len - qlen + t + 1."""
    total_q, heads, _ = q.shape
    page = kv.shape[1]
    o = np.zeros((total_q, heads, 512))
    lse = np.full((total_q, heads), -np.inf)
    for b in range(len(qo) - 1):
        pages = idx[kvp[b]:kvp[b + 1]]
        n = (len(pages) - 1) * page + last[b] if len(pages) else 0
        rows = np.concatenate([kv[p] for p in pages])[:n] if n else np.zeros((0, 576))
        ql = qo[b + 1] - qo[b]
        for t in range(ql):
            seen = n - ql + t + 1
            if seen <= 0:
                continue
            s = scale * q[qo[b] + t] @ rows[:seen].T  # [heads, seen]
            m = s.max(axis=1, keepdims=True)
            e = np.exp(s - m)
            o[qo[b] + t] = (e / e.sum(axis=1, keepdims=True)) @ rows[:seen, :512]
            lse[qo[b] + t] = (m + np.log(e.sum(axis=1, keepdims=True)))[:, 0]
    return o, lse


@pytest.mark.parametrize("gpu,kv_kind,heads,page,splits,qlen", [
    ("mi300x", "bf16", 16, 1, None, 2), ("mi300x", "bf16", 16, 1, 3, 1), ("mi300x", "fp8", 16, 16, None, 1),
    ("mi355x", "bf16", 32, 16, 2, 2), ("mi355x", "fp8", 16, 1, 8, 1), ("mi355x", "fp8", 64, 1, None, 2)])
def test_mla_decode_numpy(gpu, kv_kind, heads, page, splits, qlen):
    """Variable KV lengths in a paged cache (an empty sequence, a partial last page, pages out of
    order), 1 or 2 query tokens (causal among them), splits by default and forced (16 rows with 3
    splits: combined in the attention kernel; with 8: by the second launch); against f64."""
    hipasm.device("sim", gpu=gpu)
    ocp = gpu == "mi355x"
    qlens, kvlens = [qlen] * 3, [37, 0, 70]
    batch = len(qlens)
    qo = np.concatenate([[0], np.cumsum(qlens)]).astype(np.int32)
    npages = [-(-n // page) for n in kvlens]
    kvp = np.concatenate([[0], np.cumsum(npages)]).astype(np.int32)
    total_pages = int(kvp[-1]) + 3
    idx = rng.permutation(total_pages)[:int(kvp[-1])].astype(np.int32)  # (pages anywhere in the cache)
    last = np.array([n - (p - 1) * page if p else 0 for n, p in zip(kvlens, npages)], np.int32)
    q = bf16_bits(rng.standard_normal((int(qo[-1]), heads, 576)))
    if kv_kind == "bf16":
        kv = bf16_bits(rng.standard_normal((total_pages, page, 576)))
        kv_f, kv_scale = bf16_float(kv).astype(np.float64), 1.0
    else:
        kv = fp8_bits(rng.standard_normal((total_pages, page, 576)) * 8, ocp)
        kv_scale = 0.125
        kv_f = fp8_float(kv, ocp).astype(np.float64) * kv_scale
    o, lse = hipasm.ops.mla_decode(q, kv, qo, kvp, idx, last, kv_scale=kv_scale, num_kv_splits=splits)
    assert o.shape == (int(qo[-1]), heads, 512) and o.dtype == np.uint16 and lse.dtype == np.float32
    ref_o, ref_lse = mla_reference(bf16_float(q).astype(np.float64), kv_f, qo, kvp, idx, last, 576 ** -0.5)
    seen = np.isfinite(ref_lse)
    assert (np.isinf(lse) == ~seen).all()  # the empty sequence's rows: -inf, o = 0
    assert not bf16_float(o[~seen]).any()
    assert np.abs(lse[seen] - ref_lse[seen]).max() <= 2e-2
    err = np.abs(bf16_float(o).astype(np.float64) - ref_o).max()
    assert err <= 2e-2 * np.abs(ref_o).max() + 1e-3, err


def mla_reference_fp8q(q, kv, qo, kvp, idx, last, scale):
    """mla_reference with the q_fp8 kernels' O tolerance (tests/kernels/test_mla_decode.cpp's): P
    rounded to e4m3 before the PV product (2^-4 of p, 2^-10 absolute below e4m3's normals, p
    relative to the row's max), O to bf16: |O - ref| <= sum_j (2^-4 p_j + 2^-10) |v_j| / sum_j p_j
    + 2^-8 |ref| + 2^-10 max|V|."""
    o, lse = mla_reference(q, kv, qo, kvp, idx, last, scale)
    tol = np.zeros_like(o)
    page = kv.shape[1]
    for b in range(len(qo) - 1):
        pages = idx[kvp[b]:kvp[b + 1]]
        n = (len(pages) - 1) * page + last[b] if len(pages) else 0
        if not n:
            continue
        rows = np.concatenate([kv[p] for p in pages])[:n]
        ql = qo[b + 1] - qo[b]
        for t in range(ql):
            seen = n - ql + t + 1
            if seen <= 0:
                continue
            s = scale * q[qo[b] + t] @ rows[:seen].T
            p = np.exp(s - s.max(axis=1, keepdims=True))
            v = np.abs(rows[:seen, :512])
            tol[qo[b] + t] = ((p * 2.0 ** -4 + 2.0 ** -10) @ v / p.sum(axis=1, keepdims=True)
                              + 2.0 ** -8 * np.abs(o[qo[b] + t]) + 2.0 ** -10 * v.max())
    return o, lse, tol


def mla_fp8q_problem(heads, page, qlen, kvlens=(37, 0, 70)):
    """fp8 Q and KV (OCP e4m3fn codes, the tests' scales) in a paged cache as test_mla_decode_numpy's."""
    qlens = [qlen] * len(kvlens)
    qo = np.concatenate([[0], np.cumsum(qlens)]).astype(np.int32)
    npages = [-(-n // page) for n in kvlens]
    kvp = np.concatenate([[0], np.cumsum(npages)]).astype(np.int32)
    total_pages = int(kvp[-1]) + 3
    idx = rng.permutation(total_pages)[:int(kvp[-1])].astype(np.int32)
    last = np.array([n - (p - 1) * page if p else 0 for n, p in zip(kvlens, npages)], np.int32)
    q8 = fp8_bits(rng.standard_normal((int(qo[-1]), heads, 576)) * 64, True)  # (q_scale 2^-6: |q| ~ 1)
    kv8 = fp8_bits(rng.standard_normal((total_pages, page, 576)) * 8, True)
    return q8, kv8, qo, kvp, idx, last


@pytest.mark.parametrize("heads,page,splits,qlen", [(16, 1, None, 1), (16, 16, 3, 2), (32, 1, 1, 2)])
def test_mla_decode_fp8q_numpy(heads, page, splits, qlen):
    """fp8 Q (the q_fp8 kernels, gfx950: a sim MI355X; one wave for 16 rows, four up to 64): against
    f64 of the fp8 values of Q and KV times their scales, P's e4m3 rounding in the tolerance."""
    hipasm.device("sim", gpu="mi355x")
    q8, kv8, qo, kvp, idx, last = mla_fp8q_problem(heads, page, qlen)
    q_scale, kv_scale = 2.0 ** -6, 0.125
    o, lse = hipasm.ops.mla_decode(q8, kv8, qo, kvp, idx, last, kv_scale=kv_scale, q_scale=q_scale,
                                   num_kv_splits=splits)
    assert o.shape == (int(qo[-1]), heads, 512) and o.dtype == np.uint16 and lse.dtype == np.float32
    ref_o, ref_lse, tol = mla_reference_fp8q(fp8_float(q8, True) * q_scale, fp8_float(kv8, True) * kv_scale,
                                             qo, kvp, idx, last, 576 ** -0.5)
    seen = np.isfinite(ref_lse)
    assert (np.isinf(lse) == ~seen).all()  # the empty sequence's rows: -inf, o = 0
    assert not bf16_float(o[~seen]).any()
    assert (np.abs(lse[seen] - ref_lse[seen]) <= 1e-3 * (np.abs(ref_lse[seen]) + 1)).all()
    err = np.abs(bf16_float(o).astype(np.float64) - ref_o)
    assert (err <= tol).all(), (err - tol).max()
    if splits is not None:
        return
    # q_scale by default 1.0: the same as the scale folded into softmax_scale
    o1, lse1 = hipasm.ops.mla_decode(q8, kv8, qo, kvp, idx, last, kv_scale=kv_scale,
                                     softmax_scale=576 ** -0.5 * q_scale, num_kv_splits=splits)
    assert np.array_equal(o1, o) and np.array_equal(lse1[seen], lse[seen])


def test_mla_decode_fp8q_torch():
    """torch fp8 Q (uint8 bits, and torch.float8_e4m3fn where this torch has it): the numpy call's result."""
    torch = pytest.importorskip("torch")
    hipasm.device("sim", gpu="mi355x")
    # (page 1: test_mla_decode_fp8q_numpy's one-wave kernel, already built)
    q8, kv8, qo, kvp, idx, last = mla_fp8q_problem(16, 1, 1, (20, 40))
    ref_o, ref_lse = hipasm.ops.mla_decode(q8, kv8, qo, kvp, idx, last, kv_scale=0.125, q_scale=2.0 ** -6)
    t = torch.from_numpy
    fp8_type = getattr(torch, "float8_e4m3fn", None)
    for fp8 in [lambda x: t(x)] + ([lambda x: t(x).view(fp8_type)] if fp8_type is not None else []):
        o, lse = hipasm.ops.mla_decode(fp8(q8), fp8(kv8), t(qo), t(kvp), t(idx), t(last), kv_scale=0.125,
                                       q_scale=2.0 ** -6)
        assert np.array_equal(o.view(torch.int16).numpy().view(np.uint16), ref_o)
        assert np.array_equal(lse.numpy(), ref_lse)


def test_mla_decode_fp8q_errors():
    """fp8 q on gfx942 and with bf16 KV, q_scale with bf16 q, a bad q_scale: errors naming the argument."""
    i = np.array([0, 1, 2], np.int32)
    last = np.ones(2, np.int32)
    q8 = fp8_bits(np.zeros((2, 16, 576)), True)
    kv8 = fp8_bits(np.zeros((4, 1, 576)), True)
    q16, kv16 = bf16_bits(np.zeros((2, 16, 576))), bf16_bits(np.zeros((4, 1, 576)))
    hipasm.device("sim", gpu="mi300x")
    with pytest.raises(ValueError, match="fp8 q .* runs on gfx950 devices, not gfx942"):
        hipasm.ops.mla_decode(q8, kv8, i, i, i, last, q_scale=0.5)
    with pytest.raises(TypeError, match="q_scale is for fp8 q"):
        hipasm.ops.mla_decode(q16, kv8, i, i, i, last, q_scale=0.5)
    hipasm.device("sim", gpu="mi355x")
    with pytest.raises(TypeError, match="fp8 q .* takes an fp8 kv_cache, got bf16 kv_cache"):
        hipasm.ops.mla_decode(q8, kv16, i, i, i, last, q_scale=0.5)
    with pytest.raises(TypeError, match="q_scale is for fp8 q"):
        hipasm.ops.mla_decode(q16, kv8, i, i, i, last, q_scale=0.5)
    with pytest.raises(TypeError, match="q must be bf16 or the device's fp8, got int8"):
        hipasm.ops.mla_decode(q8.view(np.int8), kv8, i, i, i, last, q_scale=0.5)
    with pytest.raises(ValueError, match="q_scale must be positive and finite"):
        hipasm.ops.mla_decode(q8, kv8, i, i, i, last, q_scale=0.0)


def test_mla_decode_errors(sim):
    q = bf16_bits(np.zeros((2, 16, 576)))
    kv = bf16_bits(np.zeros((4, 1, 576)))
    i = np.array([0, 1, 2], np.int32)
    last = np.ones(2, np.int32)
    with pytest.raises(ValueError, match="num_heads = 8 .* must be 16 to 128"):
        hipasm.ops.mla_decode(q[:, :8], kv, i, i, i, last)
    with pytest.raises(ValueError, match=r"q shape \(2, 16, 512\), expected"):
        hipasm.ops.mla_decode(q[:, :, :512], kv, i, i, i, last)
    with pytest.raises(ValueError, match="page_size = 3"):
        hipasm.ops.mla_decode(q, bf16_bits(np.zeros((4, 3, 576))), i, i, i, last)
    with pytest.raises(TypeError, match="qo_indptr must be int32"):
        hipasm.ops.mla_decode(q, kv, i.astype(np.int64), i, i, last)
    with pytest.raises(ValueError, match=r"qo_indptr\[batch\] = 3 must be q's total_q = 2"):
        hipasm.ops.mla_decode(q, kv, np.array([0, 1, 3], np.int32), i, i, last)


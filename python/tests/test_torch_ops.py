"""torch.ops.hipasm.* (hipasm/torch_ops.py): the schemas of the vLLM-named ops against vLLM's
own (quoted below), each op on CPU tensors in the simulator against a torch reference of the
same inputs, the Meta (shape-only) implementations, the HIP path with the fake libamdhip64, the
registration's laziness (hipasm without torch), torch.compile where torch has it."""
import os
import subprocess
import sys

import numpy as np
import pytest

import hipasm
from conftest import env_path

torch = pytest.importorskip("torch")
import hipasm.torch_ops  # noqa: E402  (registers torch.ops.hipasm.*)

H = torch.ops.hipasm

# vLLM's schemas (vllm-project/vllm csrc/torch_bindings.cpp, csrc/moe/torch_bindings.cpp):
# hipasm's op of the same name must parse to the same schema (names, types, mutability).
VLLM = {
    "rms_norm": "rms_norm(Tensor! result, Tensor input, Tensor weight, float epsilon) -> ()",
    "fused_add_rms_norm": "fused_add_rms_norm(Tensor! input, Tensor! residual, Tensor weight, float epsilon) -> ()",
    "silu_and_mul": "silu_and_mul(Tensor! result, Tensor input) -> ()",
    "rotary_embedding": "rotary_embedding(Tensor positions, Tensor! query, Tensor!? key, int head_size, "
                        "Tensor cos_sin_cache, bool is_neox) -> ()",
    "topk_softmax": "topk_softmax(Tensor! topk_weights, Tensor! topk_indices, Tensor! token_expert_indices, "
                    "Tensor gating_output) -> ()",
    "moe_align_block_size": "moe_align_block_size(Tensor topk_ids, int num_experts, int block_size, "
                            "Tensor! sorted_token_ids, Tensor! experts_ids, Tensor! num_tokens_post_pad) -> ()",
    "paged_attention_v1": "paged_attention_v1(Tensor! out, Tensor query, Tensor key_cache, Tensor value_cache, "
                          "int num_kv_heads, float scale, Tensor block_tables, Tensor seq_lens, int block_size, "
                          "int max_seq_len, Tensor? alibi_slopes, str kv_cache_dtype, Tensor k_scale, Tensor v_scale, "
                          "int tp_rank, int blocksparse_local_blocks, int blocksparse_vert_stride, "
                          "int blocksparse_block_size, int blocksparse_head_sliding_step) -> ()",
    # the later vLLM's (csrc/moe/torch_bindings.cpp with moe_lora_align_block_size): overloads here
    "topk_softmax.renormalize": "topk_softmax(Tensor! topk_weights, Tensor! topk_indices, "
                                "Tensor! token_expert_indices, Tensor gating_output, bool renormalize) -> ()",
    "moe_align_block_size.expert_map": "moe_align_block_size(Tensor topk_ids, int num_experts, int block_size, "
                                       "Tensor! sorted_token_ids, Tensor! experts_ids, Tensor! num_tokens_post_pad, "
                                       "Tensor? maybe_expert_map) -> ()",
}


def bf16(shape, scale=1.0, seed=0):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(shape, generator=g) * scale).bfloat16()


def close(got, ref, rel=2.0 ** -7, abs_=1e-5):
    """got (bf16) within bf16 rounding of the f64 reference (two roundings: the kernel's and the reference's)."""
    got, ref = got.double(), ref.double()
    bad = (got - ref).abs() > ref.abs() * rel + abs_
    assert not bad.any(), f"{int(bad.sum())} of {bad.numel()} off, worst {(got - ref).abs().max().item()}"


def test_vllm_schemas():
    """The arguments (names, types, mutability, defaults) and returns of each op's schema equal
    vLLM's, parsed by this torch (in a namespace of its own: one schema a name there)."""
    libs = []
    for i, (name, schema) in enumerate(VLLM.items()):
        libs.append(torch.library.Library(f"hipasm_test_vllm{i}", "DEF"))
        libs[-1].define(schema)
        base, _, overload = name.partition(".")
        ours = getattr(getattr(H, base), overload or "default")._schema
        theirs = getattr(getattr(torch.ops, f"hipasm_test_vllm{i}"), base).default._schema
        assert str(ours).split("(", 1)[1] == str(theirs).split("(", 1)[1], name


def test_rms_norm_and_fused_add(sim):
    x, w, r = bf16((3, 256), 3), bf16(256, seed=1), bf16((3, 256), seed=2)
    out = torch.empty_like(x)
    assert H.rms_norm(out, x, w, 1e-6) is None
    xf = x.double()
    close(out, xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6) * w.double())
    # vLLM's fused_add_rms_norm: residual = input + residual (in bf16), input = rms_norm(residual)
    inp, res = x.clone(), r.clone()
    H.fused_add_rms_norm(inp, res, w, 1e-6)
    z = x + r
    assert torch.equal(res, z)
    zf = z.double()
    close(inp, zf * torch.rsqrt(zf.pow(2).mean(-1, keepdim=True) + 1e-6) * w.double())


def test_silu_and_mul(sim):
    x = bf16((2, 1024), 2)
    out = torch.empty(2, 512, dtype=torch.bfloat16)
    H.silu_and_mul(out, x)
    g, u = x[:, :512].double(), x[:, 512:].double()
    close(out, g / (1 + torch.exp(-g)) * u)


def test_rotary_embedding(sim):
    tokens, hd = 3, 64
    q, k = bf16((tokens, 4 * hd), seed=3), bf16((tokens, 2 * hd), seed=4)  # vLLM's [tokens, heads * head_size]
    inv = 1.0 / 10000 ** (torch.arange(0, hd, 2, dtype=torch.float64) / hd)
    ang = torch.arange(16, dtype=torch.float64)[:, None] * inv[None, :]
    cache = torch.cat([ang.cos(), ang.sin()], dim=1).float()
    pos = torch.tensor([0, 5, 15])

    def rope(x):  # NeoX: the halves of each head rotate together
        x = x.double().reshape(tokens, -1, hd)
        c, s = cache[pos, None, :hd // 2].double(), cache[pos, None, hd // 2:].double()
        x1, x2 = x[..., :hd // 2], x[..., hd // 2:]
        return torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], dim=-1).reshape(tokens, -1)

    q2, k2 = q.clone(), k.clone()
    H.rotary_embedding(pos, q2, k2, hd, cache, True)
    close(q2, rope(q))
    close(k2, rope(k))
    with pytest.raises(ValueError, match="is_neox must be True"):
        H.rotary_embedding(pos, q.clone(), k.clone(), hd, cache, False)


def test_topk_softmax(sim):
    tokens, experts, topk = 5, 8, 2
    g = torch.Generator().manual_seed(5)
    logits = torch.randn(tokens, experts, generator=g)
    w = torch.empty(tokens, topk)
    ids = torch.empty(tokens, topk, dtype=torch.int32)
    rows = torch.empty(tokens, topk, dtype=torch.int32)
    H.topk_softmax(w, ids, rows, logits)
    ref_w, ref_ids = torch.softmax(logits.double(), -1).topk(topk, dim=-1)
    assert torch.equal(ids.long(), ref_ids)
    assert torch.allclose(w.double(), ref_w, rtol=1e-5, atol=1e-7)
    # vLLM's token_expert_indices: slot j of token t is row j * tokens + t
    assert rows.tolist() == [[j * tokens + t for j in range(topk)] for t in range(tokens)]
    H.topk_softmax(w, ids, rows, logits, True)  # the later vLLM's renormalize
    assert torch.allclose(w.double(), ref_w / ref_w.sum(-1, keepdim=True), rtol=1e-5, atol=1e-7)


def test_moe_align_block_size(sim):
    tokens, topk, experts, block = 6, 2, 8, 32
    topk_ids = torch.tensor([[0, 3], [3, 5], [0, 7], [5, 3], [7, 0], [1, 3]], dtype=torch.int32)
    numel = tokens * topk
    max_padded = numel + experts * (block - 1)  # vLLM's buffer sizes (moe_align_block_size.py)
    sorted_ids = torch.empty(max_padded, dtype=torch.int32)
    expert_ids = torch.empty((max_padded + block - 1) // block, dtype=torch.int32)
    post_pad = torch.empty(1, dtype=torch.int32)
    H.moe_align_block_size(topk_ids, experts, block, sorted_ids, expert_ids, post_pad)
    used = sorted(set(topk_ids.flatten().tolist()))
    assert post_pad.item() == block * len(used)  # every expert here has fewer than 32 pairs
    flat = topk_ids.flatten().tolist()
    for b, e in enumerate(used):  # one block per expert, in increasing expert order
        assert expert_ids[b].item() == e
        entries = sorted_ids[b * block:(b + 1) * block].tolist()
        real = [i for i in entries if i != numel]
        assert sorted(real) == [i for i in range(numel) if flat[i] == e]  # the flat indices routed to e
    assert (sorted_ids[post_pad.item():] == numel).all()
    before = sorted_ids.clone()
    H.moe_align_block_size(topk_ids, experts, block, sorted_ids, expert_ids, post_pad, None)  # the later schema
    assert torch.equal(sorted_ids, before)
    with pytest.raises(ValueError, match="maybe_expert_map must be None"):
        H.moe_align_block_size(topk_ids, experts, block, sorted_ids, expert_ids, post_pad, topk_ids)
    with pytest.raises(ValueError, match="block_size = 16; the sorting kernel makes blocks of 32"):
        H.moe_align_block_size(topk_ids, experts, 16, sorted_ids, expert_ids, post_pad)


def test_paged_attention_v1(sim):
    """vLLM's caches: key [blocks, kv_heads, head_size / 8, block_size, 8], value [blocks, kv_heads,
    head_size, block_size]; 2 sequences of 5 and 20 tokens, GQA 4 (the head_dim 64 kernel)."""
    seqs, heads, kvh, d, bs, nb = 2, 4, 1, 64, 16, 4
    q = bf16((seqs, heads, d), seed=20)
    keys, vals = bf16((nb, kvh, bs, d), seed=21), bf16((nb, kvh, bs, d), seed=22)  # [block, head, slot, dim]
    key_cache = keys.reshape(nb, kvh, bs, d // 8, 8).permute(0, 1, 3, 2, 4).contiguous()
    value_cache = vals.permute(0, 1, 3, 2).contiguous()
    tables = torch.tensor([[2, 0], [1, 3]], dtype=torch.int32)
    lens = torch.tensor([5, 20], dtype=torch.int32)
    out = torch.empty_like(q)
    one = torch.ones(())
    H.paged_attention_v1(out, q, key_cache, value_cache, kvh, 0.125, tables, lens, bs, 20, None, "auto", one, one,
                         0, 0, 0, 64, 0)
    for s in range(seqs):
        t = torch.arange(int(lens[s]))
        blk, slot = tables[s, t // bs].long(), t % bs
        k, v = keys[blk, 0, slot].double(), vals[blk, 0, slot].double()  # [ctx, d]
        p = torch.softmax(0.125 * q[s].double() @ k.T, -1)
        close(out[s], p @ v, abs_=2e-3)
    with pytest.raises(ValueError, match="kv_cache_dtype 'fp8'"):
        H.paged_attention_v1(out, q, key_cache, value_cache, kvh, 0.125, tables, lens, bs, 20, None, "fp8", one,
                             one, 0, 0, 0, 64, 0)


def test_functional_ops(sim):
    a, b = bf16((5, 64), seed=6), bf16((9, 64), seed=7)
    c = H.gemm(a, b)
    assert c.dtype == torch.bfloat16 and c.shape == (5, 9)
    close(c, a.double() @ b.double().T, abs_=1e-3)
    x, w, bias = bf16((2, 256), seed=8), bf16(256, seed=9), bf16(256, seed=10)
    y = H.layernorm(x, w, bias, 1e-5)
    xf = x.double()
    ref = (xf - xf.mean(-1, keepdim=True)) / torch.sqrt(xf.var(-1, unbiased=False, keepdim=True) + 1e-5)
    close(y, ref * w.double() + bias.double(), abs_=1e-2)
    x = torch.randn(3, 256, generator=torch.Generator().manual_seed(11))
    assert torch.allclose(H.softmax(x).double(), torch.softmax(x.double(), -1), rtol=1e-5, atol=1e-8)
    q, s = H.dynamic_quant(bf16((2, 256), seed=11), "int8")
    assert q.dtype == torch.int8 and s.shape == (2,)


def test_meta_shapes():
    m = dict(device="meta")
    bf = dict(dtype=torch.bfloat16, **m)
    x = torch.empty(4, 256, **bf)
    assert H.rms_norm(torch.empty(4, 256, **bf), x, torch.empty(256, **bf), 1e-6) is None
    assert H.silu_and_mul(torch.empty(4, 512, **bf), torch.empty(4, 1024, **bf)) is None
    assert H.gemm(torch.empty(5, 64, **bf), torch.empty(9, 64, **bf)).shape == (5, 9)
    assert H.linear(torch.empty(2, 3, 64, **bf), torch.empty(7, 64, **bf)).shape == (2, 3, 7)
    q, s = H.dynamic_quant(x, "fp8")
    assert (q.dtype, q.shape, s.dtype, s.shape) == (torch.uint8, (4, 256), torch.float32, (4,))
    assert H.gemm_a8w8(q, q, s, s).dtype == torch.bfloat16
    o, lse = H.flash_attn_fwd(torch.empty(2, 7, 4, 64, **bf), torch.empty(2, 9, 2, 64, **bf),
                              torch.empty(2, 9, 2, 64, **bf), True)
    assert o.shape == (2, 7, 4, 64) and lse.shape == (2, 4, 7) and lse.dtype == torch.float32
    o = H.fused_moe(x, torch.empty(8, 64, 256, **bf), torch.empty(8, 256, 32, **bf), torch.empty(4, 2, **m),
                    torch.empty(4, 2, dtype=torch.int32, **m))
    assert o.shape == (4, 256) and o.dtype == torch.float32
    o = H.fused_moe(x, torch.empty(8, 64, 256, **bf), torch.empty(8, 256, 32, **bf), torch.empty(4, 2, **m),
                    torch.empty(4, 2, dtype=torch.int32, **m), "gelu")
    assert o.shape == (4, 256) and o.dtype == torch.float32
    assert x.device.type == "meta"


def test_hip_path_with_fake_library(monkeypatch):
    """On the HIP device the ops launch through libamdhip64: CPU tensors are host memory there,
    refused before any launch with the argument's name (CPU-only torch has no GPU tensors)."""
    for name in hipasm.torch_ops.OPS:  # ROCm's torch dispatches GPU tensors to the CUDA key's kernel
        base, _, overload = name.partition(".")
        qualified = f"hipasm::{base}" + (f".{overload}" if overload else "")
        assert torch._C._dispatch_has_kernel_for_dispatch_key(qualified, "CUDA"), name
    fake = env_path("HIPASM_FAKE_HIP_LIBRARY")
    hipasm.device("hip", library=fake)
    try:
        x, w = bf16((2, 256)), bf16(256)
        with pytest.raises(TypeError, match=r"argument 1 'out' \(uint16_t\*\): the HIP backend needs a device "
                                            r"pointer, got a torch array"):
            H.rms_norm(torch.empty_like(x), x, w, 1e-6)
    finally:
        hipasm.device("sim")


def _python(code, **env):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, **env))


def test_hipasm_without_torch():
    """import hipasm neither imports torch nor needs it; hipasm.torch_ops says what it needs."""
    r = _python("import sys; sys.modules['torch'] = None\n"  # as if torch were not installed
                "import hipasm, hipasm.ops\n"
                "try:\n    import hipasm.torch_ops\nexcept ImportError as e:\n    print('ImportError', e)\n")
    assert r.returncode == 0, r.stderr
    assert "ImportError hipasm.torch_ops needs torch" in r.stdout
    r = _python("import sys, hipasm; print('torch' in sys.modules)")
    assert r.returncode == 0 and r.stdout.strip() == "False", r.stdout + r.stderr


def test_registered_when_torch_is_imported_first():
    r = _python("import torch, hipasm\n"
                "print([a.name for a in torch.ops.hipasm.silu_and_mul.default._schema.arguments])")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "['result', 'input']"


def test_torch_compile(sim):
    if not hasattr(torch, "compile"):
        pytest.skip(f"torch {torch.__version__} has no torch.compile")
    a, b = bf16((5, 64), seed=12), bf16((9, 64), seed=13)
    f = torch.compile(lambda a, b: torch.ops.hipasm.gemm(a, b) * 2)
    assert torch.equal(f(a, b), H.gemm(a, b) * 2)


def test_registration_failure_warns():
    """import hipasm still works when the registration fails (here: the name is taken), with a warning."""
    r = _python("import warnings, torch\n"
                "lib = torch.library.Library('hipasm', 'DEF')\n"
                "lib.define('rms_norm(Tensor x) -> Tensor')\n"
                "with warnings.catch_warnings(record=True) as w:\n"
                "    warnings.simplefilter('always')\n"
                "    import hipasm\n"
                "print(callable(hipasm.load), [str(x.message)[:70] for x in w])\n")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("True ['hipasm: torch.ops.hipasm.* not registered: RuntimeError"), r.stdout


def _attention_reference(q, k, v, causal, scale):
    """softmax(scale q k^T) v in f64 through torch's own ops, whose autograd gives the reference
    gradients; dense [b, s, h, d], GQA by repeating the KV heads, bottom-right causal."""
    b, sq, h, d = q.shape
    sk, g = k.shape[1], h // k.shape[2]
    qt, kt, vt = q.transpose(1, 2), k.transpose(1, 2).repeat_interleave(g, 1), v.transpose(1, 2).repeat_interleave(g, 1)
    s = (qt @ kt.transpose(-1, -2)) * scale
    if causal:
        i, j = torch.arange(sq).unsqueeze(1), torch.arange(sk).unsqueeze(0)
        s = s.masked_fill(j > i + (sk - sq), float("-inf"))
    return (torch.softmax(s, -1) @ vt).transpose(1, 2)


# (the head dims and masks of test_ops.py's flash_attn_bwd tests: their kernels, already built)
@pytest.mark.parametrize("causal,sq,sk,h,hk,d", [(False, 64, 64, 4, 2, 64), (True, 64, 64, 4, 4, 128),
                                                  (True, 48, 80, 4, 1, 64), (False, 40, 72, 2, 2, 64)])
def test_flash_attn_autograd(sim, causal, sq, sk, h, hk, d):
    q, k, v = bf16((1, sq, h, d), seed=21), bf16((1, sk, hk, d), seed=22), bf16((1, sk, hk, d), seed=23)
    do = bf16((1, sq, h, d), seed=24)
    scale = d ** -0.5
    qg, kg, vg = (t.clone().requires_grad_() for t in (q, k, v))
    o = hipasm.torch_ops.flash_attn(qg, kg, vg, causal)
    o.backward(do)
    qr, kr, vr = (t.double().requires_grad_() for t in (q, k, v))
    ref = _attention_reference(qr, kr, vr, causal, scale)
    ref.backward(do.double())
    close(o, ref.detach(), abs_=1e-2)
    for got, want in ((qg.grad, qr.grad), (kg.grad, kr.grad), (vg.grad, vr.grad)):
        assert got.dtype == torch.bfloat16 and got.shape == want.shape
        # (bf16 inputs, the forward's bf16 O in rowsum(dO O), f32 products, bf16 results)
        err = (got.double() - want).abs().max().item()
        assert err <= 2e-2 * want.abs().max().item() + 1e-3, f"max |grad - reference| {err}"


def test_flash_attn_autograd_dq_accum_dtype(sim):
    """dq_accum="dtype" reaches flash_attn_bwd (AMD's a16: dQ by packed bf16 atomics); one key tile,
    so dQ is rounded once, as with the f32 sum."""
    sq, sk, h, hk, d = 40, 72, 4, 2, 64
    q, k, v = bf16((1, sq, h, d), seed=31), bf16((1, sk, hk, d), seed=32), bf16((1, sk, hk, d), seed=33)
    do = bf16((1, sq, h, d), seed=34)
    qg, kg, vg = (t.clone().requires_grad_() for t in (q, k, v))
    hipasm.torch_ops.flash_attn(qg, kg, vg, False, None, "dtype").backward(do)
    assert any(n == "attn_bwd_d64_c0_a16" for m in hipasm.ops._module_list() for n in m.kernel_names)
    qr, kr, vr = (t.double().requires_grad_() for t in (q, k, v))
    _attention_reference(qr, kr, vr, False, d ** -0.5).backward(do.double())
    for got, want in ((qg.grad, qr.grad), (kg.grad, kr.grad), (vg.grad, vr.grad)):
        err = (got.double() - want).abs().max().item()
        assert err <= 2e-2 * want.abs().max().item() + 1e-3, f"max |grad - reference| {err}"
    with pytest.raises(ValueError, match=r"flash_attn: dq_accum must be"):
        hipasm.torch_ops.flash_attn(qg, kg, vg, False, None, "f16")

"""hipasm.ops at the sizes of open models: kernels no prebuilt code object has, built on first use
into hipasm.build's cache (the session's: conftest.build_cache) with one log line; the MI355X
getting gfx950 code; python -m hipasm.prebuild on config.json files (configs/: the real values of
Llama-3-8B, DeepSeek-V3 and GPT-OSS-20B). References: numpy in float64 of the same bf16 inputs.
Each on-demand build costs seconds: one size a kernel family."""
import logging
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import hipasm
from hipasm import prebuild
from conftest import bf16_bits, bf16_float
from test_ops import close_bf16, paged_reference, to_kernel_caches

rng = np.random.default_rng(11)
CONFIGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "configs")


def builds(caplog):
    return [r.getMessage() for r in caplog.records if r.name == "hipasm" and "building" in r.getMessage()]


def test_rms_norm_deepseek_hidden_builds_once(sim, caplog, build_cache):
    caplog.set_level(logging.INFO, logger="hipasm")
    x = bf16_bits(rng.standard_normal((33, 7168)) * 2)  # DeepSeek-V3's hidden_size
    w = bf16_bits(rng.standard_normal(7168))
    y = hipasm.ops.rms_norm(x, w, eps=1e-6)
    assert y.shape == (33, 7168) and y.dtype == np.uint16
    xf = bf16_float(x).astype(np.float64)
    ref = xf / np.sqrt((xf * xf).mean(axis=1, keepdims=True) + 1e-6) * bf16_float(w)
    close_bf16(y, ref, extra=1e-6)
    assert builds(caplog) == [f"hipasm.ops: building rms_norm for hidden=7168 (gfx942) into {build_cache}"]
    assert any("rms_norm_bf16_h7168_w4" in m.kernel_names for m in hipasm.ops._module_list())
    # another device (another process alike) loads it from the cache: no build, no line
    caplog.clear()
    hipasm.device("sim")
    assert np.array_equal(hipasm.ops.rms_norm(x, w, eps=1e-6), y)
    assert builds(caplog) == []


def test_silu_and_mul_llama_intermediate(sim):
    x = bf16_bits(rng.standard_normal((2, 2 * 14336)) * 2)  # Llama-3-8B's intermediate_size
    h = hipasm.ops.silu_and_mul(x)
    xf = bf16_float(x).astype(np.float64)
    g, u = xf[:, :14336], xf[:, 14336:]
    close_bf16(h, g / (1 + np.exp(-g)) * u, extra=1e-6)


def test_rotary_llama_heads(sim):
    tokens, hq, hk, hd = 3, 32, 8, 128  # Llama-3-8B: 32 query heads, 8 KV heads of 128
    q = bf16_bits(rng.standard_normal((tokens, hq, hd)))
    k = bf16_bits(rng.standard_normal((tokens, hk, hd)))
    inv = 1.0 / 500000.0 ** (np.arange(0, hd, 2) / hd)  # its rope_theta
    ang = np.arange(64)[:, None] * inv[None, :]
    cos_sin = np.concatenate([np.cos(ang), np.sin(ang)], axis=1).astype(np.float32)
    pos = np.array([0, 63, 17], np.int64)
    q2, k2 = hipasm.ops.rotary(q, k, pos, cos_sin)

    def rope(x):
        x = bf16_float(x).astype(np.float64)
        c, s = (cos_sin[pos][:, None, :].astype(np.float64)[..., i * hd // 2:(i + 1) * hd // 2] for i in (0, 1))
        x1, x2 = x[..., :hd // 2], x[..., hd // 2:]
        return np.concatenate([x1 * c - x2 * s, x2 * c + x1 * s], axis=-1)

    close_bf16(q2, rope(q), extra=1e-6)
    close_bf16(k2, rope(k), extra=1e-6)


def test_paged_attention_decode_gpt_oss_heads(sim):
    seqs, kvh, gqa, d, bs, nb = 2, 1, 8, 64, 16, 8  # GPT-OSS: head_dim 64, 64 query heads a group of 8 KV heads
    q = bf16_bits(rng.standard_normal((seqs, kvh * gqa, d)))
    kc = bf16_bits(rng.standard_normal((nb, kvh, bs, d)))
    vc = bf16_bits(rng.standard_normal((nb, kvh, bs, d)))
    lens = np.array([5, 40], np.int32)
    tables = rng.permutation(nb)[:seqs * 3].reshape(seqs, 3).astype(np.int32)
    k_cache, v_cache = to_kernel_caches(kc, vc)
    out = hipasm.ops.paged_attention_decode(q, k_cache, v_cache, tables, lens)
    close_bf16(out, paged_reference(q, kc, vc, tables, lens, d ** -0.5), extra=0.02)


def test_topk_softmax_gpt_oss_router(sim):
    logits = (rng.standard_normal((9, 32)) * 2).astype(np.float32)  # GPT-OSS-20B: 32 experts, top-4
    w, idx = hipasm.ops.topk_softmax(logits, 4, renormalize=True)
    ref_idx = np.argsort(-logits, axis=1, kind="stable")[:, :4]
    p = np.exp(logits.astype(np.float64) - logits.max(axis=1, keepdims=True))
    ref_w = np.take_along_axis(p, ref_idx, axis=1)
    assert np.array_equal(idx, ref_idx)
    assert np.allclose(w, ref_w / ref_w.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)


def test_dynamic_quant_deepseek_hidden(sim):
    x = bf16_bits(rng.standard_normal((3, 7168)) * 3)
    q, s = hipasm.ops.dynamic_quant(x, "int8")
    xf = bf16_float(x).astype(np.float64)
    assert np.allclose(s, np.abs(xf).max(axis=1) / 127, rtol=2e-7)
    ref = np.clip(np.rint(xf / s[:, None].astype(np.float64)), -128, 127)
    assert (np.abs(q - ref) <= 1).all() and (q == ref).mean() > 0.99  # f32 reciprocal: rare off-by-one


def test_mi355x_gets_gfx950_code(caplog, build_cache):
    caplog.set_level(logging.INFO, logger="hipasm")
    hipasm.device("sim", gpu="mi355x")
    try:
        x = bf16_bits(rng.standard_normal((4, 256)))
        w = bf16_bits(rng.standard_normal(256))
        y = hipasm.ops.rms_norm(x, w)  # prebuilt for gfx942 only: built for the device
        xf = bf16_float(x).astype(np.float64)
        close_bf16(y, xf / np.sqrt((xf * xf).mean(axis=1, keepdims=True) + 1e-6) * bf16_float(w), extra=1e-6)
        assert [m.target for m in hipasm.ops._module_list()] == ["gfx950"]
        assert builds(caplog) == [f"hipasm.ops: building rms_norm for hidden=256 (gfx950) into {build_cache}"]
    finally:
        hipasm.device("sim")


def test_sizes_no_kernel_takes_name_the_argument(sim):
    def paged(heads, d, bs):  # one KV head, one cache block, one sequence
        shapes = ((1, heads, d), (1, 1, d // 8, bs, 8), (1, 1, bs // 8, d, 8))
        q, k_cache, v_cache = (bf16_bits(np.ones(s)) for s in shapes)
        hipasm.ops.paged_attention_decode(q, k_cache, v_cache, np.zeros((1, 1), np.int32), np.ones(1, np.int32))

    with pytest.raises(ValueError, match=r"head_dim = 576 \(q's last dimension\) must be a multiple of 32, "
                                         r"32 \.\. 256"):
        paged(16, 576, 16)  # DeepSeek's MLA decode: 576-dim latent heads
    with pytest.raises(ValueError, match=r"head_dim = 192 and block_size = 32 \(k_cache's 4th dimension\): a cache "
                                         r"block is too large for the kernel's registers"):
        paged(4, 192, 32)
    with pytest.raises(TypeError, match=r"topk_softmax: topk must be an int, got float"):
        hipasm.ops.topk_softmax(np.zeros((1, 64), np.float32), 8.0)
    with pytest.raises(ValueError, match=r"softmax: x's last dimension \(cols\) = 151936 must be even, 2 \.\. 65536"):
        hipasm.ops.softmax(np.zeros((1, 151936), np.uint16))  # Qwen3's vocabulary
    with pytest.raises(ValueError, match=r"silu_and_mul: x's last dimension = 6 must be a multiple of 4"):
        hipasm.ops.silu_and_mul(bf16_bits(np.ones((1, 6))))
    with pytest.raises(ValueError, match=r"flash_attn_fwd: head_dim = 192 \(q's last dimension\) must be 64 or 128"):
        q = bf16_bits(np.ones((1, 2, 1, 192)))
        hipasm.ops.flash_attn_fwd(q, q, q)


def test_a_failed_build_says_what_it_built(sim, monkeypatch):
    monkeypatch.setenv("HIPASM_DEVICE_CXX", "/nonexistent/clang++")
    with pytest.raises(hipasm.BuildError, match=r"^hipasm\.ops: building layernorm for hidden=130 \(gfx942\): no "
                                                r"device compiler /nonexistent/clang\+\+"):
        hipasm.ops.layernorm(*(bf16_bits(np.ones(s)) for s in ((1, 130), 130, 130)))


LOG = "import hipasm.ops as o; o._log.info('hipasm.ops: building x for y (gfx942) into z')"


@pytest.mark.parametrize("setup, stderr", [
    ("", "hipasm.ops: building x for y (gfx942) into z\n"),  # no logging configured: on stderr all the same
    ("import logging; logging.basicConfig()", "INFO:hipasm:hipasm.ops: building x for y (gfx942) into z\n"),  # once
    ("import logging; logging.getLogger('hipasm').setLevel(logging.WARNING)", ""),  # silenced
])
def test_build_line_reaches_the_user(setup, stderr):
    r = subprocess.run([sys.executable, "-c", f"{setup}\n{LOG}"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stderr == stderr


def run_prebuild(capsys, *args):
    rc = prebuild.main([*args])
    out = capsys.readouterr()
    return rc, out.out.splitlines(), out.err


def test_prebuild_llama_builds_into_the_cache(capsys, build_cache):
    rc, lines, err = run_prebuild(capsys, os.path.join(CONFIGS, "llama3_8b.json"), "--target", "gfx942", "--ops",
                                  "rms_norm,rotary,paged_attention_decode")
    assert rc == 0 and err == ""
    assert lines[0] == "prebuilt   rms_norm hidden=4096: rms_norm_bf16_h4096_w4"
    # (built here, or cached by test_rotary_llama_heads: the same kernel)
    m = re.fullmatch(r"(built|cached) +rotary head_dim=128 rot_dim=128 heads_q=32 heads_k=8: "
                     r"rotary_neox_hd128_rd128_q32_k8_w4 \(gfx942\) (\S+)", lines[1])
    assert m and m.group(2).startswith(str(build_cache)) and os.path.exists(m.group(2))
    assert lines[2:] == ["prebuilt   paged_attention_decode head_dim=128 block_size=16 gqa=4: "
                         "paged_attn_bf16_d128_b16_g4_w4_p2"]
    assert hipasm.load(m.group(2)).kernel_names == ["rotary_neox_hd128_rd128_q32_k8_w4"]
    rc, lines, _ = run_prebuild(capsys, os.path.join(CONFIGS, "llama3_8b.json"), "--ops", "rotary")
    assert rc == 0 and lines[0].startswith("cached     rotary")


def test_prebuild_deepseek_plan(capsys):
    rc, lines, _ = run_prebuild(capsys, os.path.join(CONFIGS, "deepseek_v3.json"), "--list", "--target", "gfx942",
                                "--tp", "8", "--dtype", "fp8")
    assert rc == 0
    state = r"(to build|cached) +"
    mla = "MLA prefill attention (q/k head dim 192, v 128) has no hipasm.ops kernel"
    expected = [
        state + "rms_norm hidden=7168: rms_norm_bf16_h7168_w4",
        state + "rms_norm hidden=1536 \\(q_lora_rank\\): rms_norm_bf16_h1536_w2",
        state + "rms_norm hidden=512 \\(kv_lora_rank\\): rms_norm_bf16_h512_w1",
        state + "silu_and_mul d=2304: silu_and_mul_bf16_d2304_w4_s2",  # the dense layers' 18432 / 8
        state + "silu_and_mul d=256: silu_and_mul_bf16_d256_w4_s2",  # the shared expert's 2048 / 8
        "prebuilt   gemv its configuration: gemv_bf16_r4_w2",
        "prebuilt   gemm its configuration: gemm_bf16_m128_n128_w2x2",
        state + "rotary head_dim=64 heads_q=16 heads_k=1: rotary_neox_hd64_rd64_q16_k1_w2",
        state + "mla_decode num_heads=16 kv=bf16 page_size=1: mla_decode_bf16_w4_s1_p1_f1, mla_decode_combine",
        re.escape(f"no kernel  flash_attn_fwd MLA: {mla}"),
        re.escape("no kernel  topk_softmax experts=256 topk=8: the router's scoring_func 'sigmoid' (with topk_method "
                  "'noaux_tc') is not topk_softmax's softmax"),
        "prebuilt   moe_sorting experts=256: moe_sorting_e256_w4",
        "prebuilt   fused_moe dim=7168 inter=256: moe_stage1_g1_w2_k1_m1216, moe_stage2_g1_w2_k1_m1216",
        state + "dynamic_quant fp8 d=7168: dynamic_quant_fp8_d7168_w4",
        state + "dynamic_quant fp8 d=2304: dynamic_quant_fp8_d2304_w4",
        "prebuilt   dynamic_quant fp8 d=256: dynamic_quant_fp8_d256_w1",
        "prebuilt   gemm_a8w8 fp8: gemm_a8w8_fp8_m64_n64_k128_w2x2",
        state + "dynamic_quant fp8 1x128 d=7168: dynamic_quant_fp8_d7168_w4_b128",
        state + "fused_moe quant=fp8_block dim=7168 inter=256: moe_quant_stage1_fp8_w4_m1216, "
                "moe_quant_stage2_fp8_w4_m1216",
    ]
    assert len(lines) == len(expected)
    for line, pattern in zip(lines, expected):
        assert re.fullmatch(pattern, line), (line, pattern)


def test_prebuild_qwen3_moe_plan(capsys):
    rc, lines, _ = run_prebuild(capsys, os.path.join(CONFIGS, "qwen3_30b_a3b.json"), "--list", "--target", "gfx942",
                                "--tp", "8")
    assert rc == 0
    assert [re.sub(r"^(to build|cached) +", "", line) for line in lines] == [
        "rms_norm hidden=2048: rms_norm_bf16_h2048_w4",
        "rms_norm hidden=128 (q/k norm): rms_norm_bf16_h128_w1",  # Qwen3's per-head q_norm and k_norm
        # (every layer's MLP is experts: no silu_and_mul of intermediate_size)
        "prebuilt   gemv its configuration: gemv_bf16_r4_w2",
        "prebuilt   gemm its configuration: gemm_bf16_m128_n128_w2x2",
        # 32 heads / 8 GPUs; the 4 KV heads replicated, one a GPU: 4 query heads a KV head
        "rotary head_dim=128 rot_dim=128 heads_q=4 heads_k=1: rotary_neox_hd128_rd128_q4_k1_w1",
        "prebuilt   paged_attention_decode head_dim=128 block_size=16 gqa=4: paged_attn_bf16_d128_b16_g4_w4_p2",
        "prebuilt   flash_attn_fwd head_dim=128 causal=True: attn_fwd_d128_w4_n64_c1",
        "prebuilt   topk_softmax experts=128 topk=8: topk_softmax_e128_k8_w4_l8",
        "prebuilt   moe_sorting experts=128: moe_sorting_e256_w4",
        "prebuilt   fused_moe dim=2048 inter=96: moe_stage1_g1_w2_k1_m1216, moe_stage2_g1_w2_k1_m1216"]


def test_prebuild_gfx950_builds_every_kernel(capsys):
    rc, lines, _ = run_prebuild(capsys, os.path.join(CONFIGS, "gpt_oss_20b.json"), "--list", "--target", "gfx950",
                                "--ops", "rms_norm,paged_attention_decode,topk_softmax,fused_moe")
    assert rc == 0
    assert [re.sub(r"^(to build|cached) +", "", line) for line in lines] == [
        "rms_norm hidden=2880: rms_norm_bf16_h2880_w4",
        "paged_attention_decode head_dim=64 block_size=16 gqa=8: paged_attn_bf16_d64_b16_g8_w1_p2",
        "topk_softmax experts=32 topk=4: topk_softmax_e32_k4_w1_l4",
        # MI355X: 256 CUs, the grid at most 4 workgroups a CU
        "fused_moe dim=2880 inter=2880: moe_stage1_g1_w2_k1_m1024, moe_stage2_g1_w2_k1_m1024"]


@pytest.mark.parametrize("dtype, quant, kind", [("fp8", "fp8_block", "fp8"), ("int8", "int8", "i8")])
def test_prebuild_gfx950_quantized_moe(capsys, dtype, quant, kind):
    """--dtype fp8 / int8 on gfx950: fused_moe's quantized form too (moe_quant builds there: OCP
    e4m3fn fp8), the grid bound of the MI355X's 256 CUs."""
    rc, lines, _ = run_prebuild(capsys, os.path.join(CONFIGS, "deepseek_v3.json"), "--list", "--target", "gfx950",
                                "--tp", "8", "--dtype", dtype, "--ops", "fused_moe")
    assert rc == 0
    assert [re.sub(r"^(to build|cached) +", "", line) for line in lines] == [
        "fused_moe dim=7168 inter=256: moe_stage1_g1_w2_k1_m1024, moe_stage2_g1_w2_k1_m1024",
        f"fused_moe quant={quant} dim=7168 inter=256: moe_quant_stage1_{kind}_w4_m1024, moe_quant_stage2_{kind}_w4_m1024"]


@pytest.mark.parametrize("config, args, message", [
    ("nope.json", [], r"nope\.json: no such file"),
    ('{"num_attention_heads": 8, "intermediate_size": 64}', [], r"cfg\.json: no hidden_size \(a Hugging Face"),
    ('{"hidden_size": 64, "num_attention_heads": 8, "intermediate_size": 128, "num_local_experts": 8}', [],
     r"cfg\.json: no num_experts_per_tok / experts_per_token"),
    ('{"hidden_size": 64, "num_attention_heads": 8, "intermediate_size": "x"}', [],
     r"cfg\.json: intermediate_size = 'x' is not a positive number"),
    ("[1, 2]", [], r"cfg\.json: not a config\.json object"),
    ("{", [], r"cfg\.json: not a readable JSON file"),
    ('{"hidden_size": 64, "num_attention_heads": 8, "intermediate_size": 128}', ["--ops", "rms_norm,attention"],
     r"--ops: unknown attention \(expected some of rms_norm, "),
])
def test_prebuild_errors(tmp_path, config, args, message):
    path = tmp_path / "nope.json"
    if config != "nope.json":
        path = tmp_path / "cfg.json"
        path.write_text(config)
    r = subprocess.run([sys.executable, "-m", "hipasm.prebuild", str(path), *args], capture_output=True, text=True)
    assert r.returncode == 1 and r.stdout == ""
    assert len(r.stderr.splitlines()) == 1 and re.match(r"hipasm\.prebuild: .*" + message, r.stderr), r.stderr


def test_rules_keep_the_prebuilt_kernels_and_the_kernels_limits():
    from hipasm import _ops_configs as cfg
    names = sorted(k.name for ks in cfg.prebuilt("gfx942").values() for k in ks)
    # the kernels python/kernels/*.hip named before the rules wrote them
    assert names == sorted([
        "rms_norm_bf16_h256_w1", "silu_and_mul_bf16_d512_w4_s2", "gemv_bf16_r4_w2", "gemm_bf16_m128_n128_w2x2",
        "rotary_neox_hd64_rd64_q4_k2_w1", "rms_norm_bf16_h1024_w2", "rms_norm_bf16_h4096_w4", "layernorm_bf16_h256_w1",
        "layernorm_bf16_h1024_w2", "layernorm_bf16_h4096_w4", "softmax_bf16_c256_w1", "softmax_bf16_c1024_w1",
        "softmax_f32_c256_w1", "softmax_f32_c1024_w1", "topk_softmax_e8_k2_w1_l2", "topk_softmax_e64_k8_w1_l8",
        "topk_softmax_e128_k8_w4_l8", "dynamic_quant_fp8_d256_w1", "dynamic_quant_i8_d256_w1",
        "dynamic_quant_fp8_d4096_w4", "dynamic_quant_i8_d4096_w4", "gemm_a8w8_fp8_m64_n64_k128_w2x2",
        "gemm_a8w8_i8_m64_n64_k128_w2x2", "paged_attn_bf16_d64_b16_g4_w1_p2", "paged_attn_bf16_d128_b16_g1_w4_p2",
        "paged_attn_bf16_d128_b16_g4_w4_p2", "paged_attn_bf16_d128_b16_g8_w4_p2", "attn_fwd_d64_w2_n32_c0",
        "attn_fwd_d64_w2_n32_c1", "attn_fwd_d128_w4_n64_c0", "attn_fwd_d128_w4_n64_c1", "moe_sorting_e64_w1",
        "moe_sorting_e256_w4", "moe_stage1_g1_w2_k1_m1216", "moe_stage2_g1_w2_k1_m1216"])
    # 4 waves x 16 heads x (256 x 4 + 32 + 8) bytes = 68096 > 64 KiB of LDS: 2 waves; a K and a V block of
    # 256 x 16 bf16 take 32 dwords a lane: one in flight (prefetch 1), as the compile of prefetch 2 fails
    assert cfg.paged_attn(256, 16, 16)[0].name == "paged_attn_bf16_d256_b16_g16_w2_p1"
    # a row of 65536 bf16 in 8 register steps of 8 x 64 x waves: 16 waves; 18432 (9 steps of 4 waves): 8
    assert cfg.norm("rms_norm", 65536)[0].name == "rms_norm_bf16_h65536_w16"
    assert cfg.dynamic_quant("fp8", 18432)[0].name == "dynamic_quant_fp8_d18432_w8"
    # 512 experts, 4 a chunk: 16 lanes a token keep a lane's experts at 32 (topk_softmax.hpp's limit)
    assert cfg.topk_softmax(512, 8)[0].name == "topk_softmax_e512_k8_w4_l16"

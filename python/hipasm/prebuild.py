"""python -m hipasm.prebuild CONFIG_JSON [--target gfx942|gfx950] [--dtype bf16|fp8|int8] [--tp N]
[--ops rms_norm,rotary,...] [--cache-dir DIR] [--list] [-j N]

Builds ahead of time, into hipasm.build's cache, the hipasm.ops kernels a model's layers need,
from its Hugging Face config.json (read locally; nothing is downloaded): the sizes hipasm.ops
would otherwise build on first use. Prints a line a kernel: prebuilt (in the package's code
objects), cached (built before) or built, with the code object's path; and the ops the model
needs that no kernel takes (e.g. MLA prefill attention), with the reason.

Read from the config (or its text_config): hidden_size, intermediate_size,
num_attention_heads, num_key_value_heads (default: the heads), head_dim (default hidden_size /
num_attention_heads), partial_rotary_factor, rope_scaling (cos/sin values only: no kernel
size), rms_norm_eps (a run-time argument); MoE: num_local_experts / n_routed_experts /
num_experts, num_experts_per_tok / experts_per_token, moe_intermediate_size (else
intermediate_size), n_shared_experts; MLA (DeepSeek V2/V3): kv_lora_rank, q_lora_rank,
qk_rope_head_dim. --tp divides the heads and the intermediate sizes as tensor parallelism does
(the KV heads at least 1 a GPU). --dtype fp8 / int8 adds the per-token quantization and the
8-bit GEMM, and for an MoE fused_moe's quantized form (fp8, the target's e4m3: 128x128 block
scales, x per 1x128 block; int8: per channel)."""
import argparse
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor

from . import _build, _config
from . import _ops_configs as _cfg
from ._errors import HipasmError

OPS = ("rms_norm", "silu_and_mul", "gemv", "gemm", "rotary", "paged_attention_decode", "mla_decode", "flash_attn_fwd",
       "topk_softmax", "moe_sorting", "fused_moe", "dynamic_quant", "gemm_a8w8")


class ConfigError(Exception):
    pass


def _read(path):
    try:
        with open(path) as f:
            cfg = json.load(f)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file") from None
    except (OSError, ValueError) as e:
        raise ConfigError(f"{path}: not a readable JSON file ({e})") from None
    if not isinstance(cfg, dict):
        raise ConfigError(f"{path}: not a config.json object")
    if "hidden_size" not in cfg and isinstance(cfg.get("text_config"), dict):  # a multimodal model's text part
        cfg = {**cfg["text_config"], "model_type": cfg["text_config"].get("model_type", cfg.get("model_type", ""))}
    return cfg


def _field(cfg, path, *names, default=None, required=True):
    for n in names:
        v = cfg.get(n)
        if v is not None:
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v <= 0:
                raise ConfigError(f"{path}: {n} = {v!r} is not a positive number")
            return v
    if required and default is None:
        raise ConfigError(f"{path}: no {' / '.join(names)} (a Hugging Face decoder config.json has hidden_size, "
                          f"intermediate_size, num_attention_heads)")
    return default


def _default_target():
    """The current device's target; the build's default when there is no device to ask (no
    simulator library, no GPU): building needs none."""
    try:
        return _build.archs_of(None)[0]
    except (HipasmError, OSError):
        return _config.get("default_arch", "gfx942")


def _unsupported(reason):
    def rule():
        raise ValueError(reason)
    return rule


def plan(cfg, path, target, dtype="bf16", tp=1):
    """[(op, what, rule)] of the model's kernels (rule() gives _ops_configs' kernels, or raises
    ValueError for a size no kernel takes)."""
    hidden = int(_field(cfg, path, "hidden_size"))
    heads = int(_field(cfg, path, "num_attention_heads"))
    inter = int(_field(cfg, path, "intermediate_size"))
    kv_heads = int(_field(cfg, path, "num_key_value_heads", default=heads))
    head_dim = int(_field(cfg, path, "head_dim", default=hidden // heads))
    experts = _field(cfg, path, "num_local_experts", "n_routed_experts", "num_experts", required=False)
    topk = _field(cfg, path, "num_experts_per_tok", "experts_per_token", required=experts is not None)
    mla = cfg.get("kv_lora_rank") is not None
    if heads % tp or inter % tp:
        raise ConfigError(f"--tp {tp} must divide num_attention_heads = {heads} and intermediate_size = {inter}")
    heads_tp, kv_tp = heads // tp, max(1, kv_heads // tp)
    out = [("rms_norm", f"hidden={hidden}", lambda: _cfg.norm("rms_norm", hidden))]
    if str(cfg.get("model_type", "")).startswith("qwen3"):  # q_norm and k_norm over each head
        out.append(("rms_norm", f"hidden={head_dim} (q/k norm)", lambda: _cfg.norm("rms_norm", head_dim)))
    for name in ("q_lora_rank", "kv_lora_rank") if mla else ():
        r = cfg.get(name)
        if r:
            out.append(("rms_norm", f"hidden={r} ({name})", lambda r=int(r): _cfg.norm("rms_norm", r)))
    moe_inter = int(_field(cfg, path, "moe_intermediate_size", default=inter)) if experts else None
    if moe_inter and moe_inter % tp:
        raise ConfigError(f"--tp {tp} must divide the experts' intermediate size {moe_inter}")
    # dense MLP layers: all without experts; DeepSeek's first_k_dense_replace, Qwen3-MoE's
    # mlp_only_layers and decoder_sparse_step > 1 keep some
    some_dense = (cfg.get("first_k_dense_replace") or 0) > 0 or bool(cfg.get("mlp_only_layers")) or \
        (cfg.get("decoder_sparse_step") or 1) > 1
    dense = [inter // tp] if not experts or some_dense else []
    if experts and cfg.get("n_shared_experts"):
        dense.append(moe_inter * int(cfg["n_shared_experts"]) // tp)
    for d in dict.fromkeys(dense):
        out.append(("silu_and_mul", f"d={d}", lambda d=d: _cfg.silu_and_mul(d)))
    out += [("gemv", "its configuration", _cfg.gemv), ("gemm", "its configuration", _cfg.gemm)]
    if mla:  # the rotated part of q (every head) and the shared k_pe
        rope = int(_field(cfg, path, "qk_rope_head_dim"))
        out.append(("rotary", f"head_dim={rope} heads_q={heads_tp} heads_k=1",
                    lambda: _cfg.rotary(rope, rope, heads_tp, 1)))
        latent = int(cfg.get("kv_lora_rank")) + rope
        if latent == 576:  # decode with the absorbed query: mla_decode (bf16 KV, one token, pages of 1)
            out.append(("mla_decode", f"num_heads={heads_tp} kv=bf16 page_size=1",
                        lambda: _cfg.mla_decode(heads_tp, 1, False, 1, target)))
        else:
            out.append(("mla_decode", "MLA", _unsupported(f"mla_decode takes a latent of 512 + 64, not "
                                                          f"{cfg.get('kv_lora_rank')} + {rope}")))
        reason = (f"MLA prefill attention (q/k head dim {cfg.get('qk_nope_head_dim', 0) + rope}, v "
                  f"{cfg.get('v_head_dim')}) has no hipasm.ops kernel")
        out.append(("flash_attn_fwd", "MLA", _unsupported(reason)))
    else:
        rot = int(head_dim * float(cfg.get("partial_rotary_factor") or 1.0)) // 4 * 4
        out.append(("rotary", f"head_dim={head_dim} rot_dim={rot} heads_q={heads_tp} heads_k={kv_tp}",
                    lambda: _cfg.rotary(head_dim, rot, heads_tp, kv_tp)))
        gqa = heads_tp // kv_tp  # (KV heads fewer than the GPUs are replicated)
        out.append(("paged_attention_decode", f"head_dim={head_dim} block_size=16 gqa={gqa}",
                    lambda: _cfg.paged_attn(head_dim, 16, gqa)))
        out.append(("flash_attn_fwd", f"head_dim={head_dim} causal=True", lambda: _cfg.attn_fwd(head_dim, True)))
    if experts:
        e, k = int(experts), int(topk)
        if cfg.get("scoring_func", "softmax") == "softmax":
            out.append(("topk_softmax", f"experts={e} topk={k}", lambda: _cfg.topk_softmax(e, k)))
        else:  # DeepSeek V3's sigmoid scores with grouped top-k (topk_method noaux_tc)
            out.append(("topk_softmax", f"experts={e} topk={k}",
                        _unsupported(f"the router's scoring_func {cfg['scoring_func']!r} (with topk_method "
                                     f"{cfg.get('topk_method')!r}) is not topk_softmax's softmax")))
        out.append(("moe_sorting", f"experts={e}", lambda: _cfg.moe_sorting(e)))
        out.append(("fused_moe", f"dim={hidden} inter={moe_inter // tp}", lambda: _cfg.moe_gemm(target)))
    if dtype in ("fp8", "int8"):
        kind = "fp8" if dtype == "fp8" else "i8"
        for d in dict.fromkeys([hidden] + dense):
            out.append(("dynamic_quant", f"{dtype} d={d}", lambda d=d: _cfg.dynamic_quant(kind, d)))
        out.append(("gemm_a8w8", dtype, lambda: _cfg.gemm_a8w8(kind)))
        if experts and hidden % 128 == 0 and (moe_inter // tp) % 128 == 0:
            # fused_moe's quantized form (moe_quant: gfx942 and gfx950); fp8 quantizes x per 1x128 block
            quant = "fp8_block" if dtype == "fp8" else "int8"
            if kind == "fp8":
                out.append(("dynamic_quant", f"fp8 1x128 d={hidden}",
                            lambda: _cfg.dynamic_quant("fp8", hidden, block=128)))
            out.append(("fused_moe", f"quant={quant} dim={hidden} inter={moe_inter // tp}",
                        lambda: _cfg.moe_quant(kind, target)))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m hipasm.prebuild", description=__doc__.split("\n\n")[1])
    ap.add_argument("config", metavar="CONFIG_JSON", help="a Hugging Face config.json (a local file)")
    ap.add_argument("--target", choices=_build._targets(), help="default: the current device's")
    ap.add_argument("--dtype", choices=("bf16", "fp8", "int8"), default="bf16",
                    help="fp8 / int8: also the per-token quantization and the 8-bit GEMM")
    ap.add_argument("--tp", type=int, default=1, help="tensor-parallel GPUs the heads and FFN are split over")
    ap.add_argument("--ops", help=f"comma-separated subset of: {', '.join(OPS)}")
    ap.add_argument("--cache-dir", help="default: HIPASM_CACHE_DIR or ~/.cache/hipasm")
    ap.add_argument("--list", action="store_true", help="print the kernels and their state, build none")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="compiles at once")
    a = ap.parse_args(argv)
    try:
        ops = a.ops.split(",") if a.ops else list(OPS)
        bad = [o for o in ops if o not in OPS]
        if bad:
            raise ConfigError(f"--ops: unknown {', '.join(bad)} (expected some of {', '.join(OPS)})")
        if a.tp < 1:
            raise ConfigError(f"--tp {a.tp}: expected 1 or more")
        target = a.target or _default_target()
        steps = [s for s in plan(_read(a.config), a.config, target, a.dtype, a.tp) if s[0] in ops]
    except ConfigError as e:
        print(f"hipasm.prebuild: {e}", file=sys.stderr)
        return 1
    from .ops import build_kernels, cached_kernels  # (imported here: it sets up the "hipasm" logger)
    prebuilt = ({k.name for ks in _cfg.prebuilt(target).values() for k in ks}
                if target == _config.get("default_arch", "gfx942") and _config.get("ops_code_objects") else set())
    entries, seen = [], set()  # the output's lines in the plan's order: a text, or a build to run
    for op, what, rule in steps:
        try:
            kernels = rule()
        except ValueError as e:
            entries.append(f"no kernel  {op} {what}: {str(e).split(': ', 1)[-1]}")
            continue
        names = tuple(k.name for k in kernels)
        if names in seen:
            continue
        seen.add(names)
        if all(n in prebuilt for n in names):
            entries.append(f"prebuilt   {op} {what}: {', '.join(names)}")
        elif a.list:
            state = "cached" if cached_kernels(kernels, target, a.cache_dir) else "to build"
            entries.append(f"{state:<10} {op} {what}: {', '.join(names)}")
        else:
            entries.append((op, what, kernels))

    def one(step):
        op, what, kernels = step
        try:
            co, built = build_kernels(op, kernels, what, target, a.cache_dir)
        except Exception as e:  # a compile error: the others still build; the exit status says it
            return f"failed     {op} {what}: {type(e).__name__}: {e}"
        return f"{'built' if built else 'cached':<10} {op} {what}: {', '.join(k.name for k in kernels)} ({target}) {co}"

    failed = 0
    with ThreadPoolExecutor(max(1, a.jobs)) as pool:
        futures = {}
        for e in entries:
            if not isinstance(e, str):
                futures[id(e)] = pool.submit(one, e)
                if len(futures) == 1:  # the first alone: it may build the precompiled header the others share
                    futures[id(e)].result()
        for e in entries:
            line = e if isinstance(e, str) else futures[id(e)].result()
            failed += line.startswith("failed")
            print(line, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

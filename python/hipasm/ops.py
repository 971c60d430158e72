"""hipasm's kernel library from Python: torch-like functions over library kernels in the
configurations _ops_configs.py's rules choose by shape and target: prebuilt with the package for
a few shapes, else written, built by hipasm.build into its cache (one INFO line on the logger
"hipasm" says so) and loaded on first use. A kernel's name carries its configuration, which these
wrappers read. bf16 data: torch.bfloat16 tensors, or numpy uint16 arrays holding bf16 bits;
the flash attention ops also take f16 (torch.float16, numpy float16). Results are new arrays of
the input's kind.

    y = hipasm.ops.rms_norm(x, weight, eps=1e-6)     x [rows, hidden], weight [hidden]
    h = hipasm.ops.silu_and_mul(x)                   x [tokens, 2d] -> [tokens, d]
    y = hipasm.ops.gemv(a, x)                        a [m, k], x [k] -> y [m]
    y = hipasm.ops.linear(x, weight)                 x [tokens, k], weight [n, k] -> [tokens, n] (gemv or gemm)
    c = hipasm.ops.gemm(a, b)                        a [m, k], b [n, k] -> a @ b.T [m, n]
    q2, k2 = hipasm.ops.rotary(q, k, positions, cos_sin)   NeoX RoPE, q [tokens, heads, head_dim]
    y = hipasm.ops.layernorm(x, weight, bias, eps=1e-5)
    p = hipasm.ops.softmax(x)                        over the last dimension, bf16 or float32
    w, ids = hipasm.ops.topk_softmax(logits, topk)   MoE routing, logits [tokens, experts] float32
    q, s = hipasm.ops.dynamic_quant(x, "fp8")       per-token fp8 / int8, q * s[:, None] ~ x
    c = hipasm.ops.gemm_a8w8(a, b, sa, sb)           (a @ b.T) * sa[:, None] * sb[None, :] -> bf16
    o = hipasm.ops.paged_attention_decode(q, k_cache, v_cache, block_tables, context_lens)
    out = hipasm.ops.fused_moe(x, w1, w2, topk_weights, topk_ids)      f32 [tokens, dim]
    ids, w, expert_ids, valid = hipasm.ops.moe_sorting(topk_ids, topk_weights, experts)   fused_moe's routing sort
    o = hipasm.ops.flash_attn_fwd(q, k, v, causal=True)                 [batch, seqlen, heads, head_dim]
    o = hipasm.ops.flash_attn_fwd(q, k, v, cu_seqlens_q=cq, cu_seqlens_k=ck)   packed [tokens, heads, head_dim]
    dq, dk, dv = hipasm.ops.flash_attn_bwd(do, q, k, v, o, lse, causal=True)  from flash_attn_fwd's o and lse
"""
import logging
import math
import os
import re

from . import _build, _config, _runtime
from . import _ops_configs as _cfg
from ._args import DevicePointer
from ._errors import BuildError, HipasmError

_SIGNATURES = {
    "rms_norm": "uint16_t* out, uint16_t* residual_out, const uint16_t* in, const uint16_t* residual, "
                "const uint16_t* weight, float eps",
    "silu_and_mul": "uint16_t* out, const uint16_t* in, unsigned tokens",
    "gemv": "uint16_t* y, const uint16_t* a, const uint16_t* x, const uint16_t* bias, unsigned m, unsigned k",
    "gemm": "uint16_t* c, const uint16_t* a, const uint16_t* b, unsigned m, unsigned n, unsigned k",
    "rotary": "uint16_t* q_out, uint16_t* k_out, const uint16_t* q, const uint16_t* k, const int64_t* positions, "
              "const float* cos_sin, unsigned tokens_per_group, unsigned tokens, unsigned cache_rows",
}
_SIGNATURES.update({
    "dynamic_quant": "uint8_t* q, float* scale, const uint16_t* in, unsigned tokens",
    "gemm_a8w8": "void* c, const uint8_t* a, const uint8_t* b, const float* sa, const float* sb, unsigned m, "
                 "unsigned n, unsigned k, unsigned splits, float* ws",
    "layernorm": "uint16_t* out, uint16_t* residual_out, const uint16_t* in, const uint16_t* residual, "
                 "const uint16_t* weight, const uint16_t* bias, float eps",
    "softmax": "void* out, const void* in",
    "topk_softmax": "float* weights, int* indices, const float* logits, unsigned tokens, unsigned renormalize",
    "paged_attn": "const int* block_tables, const int* context_lens, const uint16_t* q, const void* k_cache, "
                  "const void* v_cache, unsigned bt_stride, unsigned partition_blocks, unsigned q_stride, "
                  "unsigned kv_block_stride, uint16_t* out, float* part_out, float* part_ml, unsigned* counters, "
                  "float scale_log2e, unsigned num_kv_heads, unsigned max_partitions, const float* k_scales, "
                  "const float* v_scales",
    "attn_fwd": "uint16_t* o, float* lse, const uint16_t* q, const uint16_t* k, const uint16_t* v, const int* cu_q, "
                "const int* cu_k, unsigned hq, unsigned hkv, unsigned batch, unsigned q_tiles, float scale_log2",
    "attn_fwd_fp8": "uint16_t* o, float* lse, const uint8_t* q, const uint8_t* k, const uint8_t* v, const int* cu_q, "
                    "const int* cu_k, unsigned hq, unsigned hkv, unsigned batch, unsigned q_tiles, float scale_log2, "
                    "float v_descale",
    "attn_bwd": "float* dq_acc, uint16_t* dk, uint16_t* dv, const uint16_t* q, const uint16_t* k, const uint16_t* v, "
                "const uint16_t* dout, const float* lse, const float* delta, const int* cu_q, const int* cu_k, "
                "unsigned hq, unsigned hkv, unsigned batch, unsigned k_tiles, float scale_log2",
    "attn_bwd_odo": "float* delta, float* dq_acc, const uint16_t* o, const uint16_t* dout, const int* cu_q, "
                    "unsigned hq, unsigned batch",
    "attn_bwd_cvt": "uint16_t* dq, const float* dq_acc, uint16_t* dk, uint16_t* dv, const uint16_t* dk_part, "
                    "const uint16_t* dv_part, const int* cu_q, const int* cu_k, unsigned hq, unsigned hkv, "
                    "unsigned batch, unsigned dq_groups, unsigned red_groups, float scale",
    "attn_bwd_dq": "uint16_t* dq, const uint16_t* q, const uint16_t* k, const uint16_t* v, const uint16_t* dout, "
                   "const float* lse, const float* delta, const int* cu_q, const int* cu_k, unsigned hq, "
                   "unsigned hkv, unsigned batch, unsigned q_tiles, float scale_log2",
    "mla_decode": "uint16_t* o, float* lse, float* part_o, float* part_lse, const void* q, const void* kv, "
                  "const int* qo_indptr, const int* kv_indptr, const int* kv_indices, const int* kv_last, "
                  "unsigned num_heads, unsigned num_splits, float scale_log2, float kv_scale, unsigned kv_bytes, "
                  "unsigned num_indices, unsigned* counters, unsigned fused",
    "mla_decode_combine": "uint16_t* o, float* lse, const float* part_o, const float* part_lse, unsigned num_heads, "
                          "unsigned num_splits",
    "moe_sorting": "unsigned* sorted_token_ids, float* sorted_weights, unsigned* sorted_expert_ids, "
                   "unsigned* num_valid_ids, const int* topk_ids, const float* topk_weights, unsigned tokens, "
                   "unsigned topk, unsigned experts, unsigned* debug_buf",
    "moe_stage1": "uint16_t* h, float* out, const uint16_t* x, const uint16_t* w1, const unsigned* sorted_token_ids, "
                  "const unsigned* sorted_expert_ids, const unsigned* num_valid_ids, unsigned tokens, unsigned dim, "
                  "unsigned inter, unsigned grid_blocks, unsigned max_blocks",
    "moe_stage2": "float* out, const uint16_t* h, const uint16_t* w2, const unsigned* sorted_token_ids, "
                  "const float* sorted_weights, const unsigned* sorted_expert_ids, const unsigned* num_valid_ids, "
                  "unsigned tokens, unsigned dim, unsigned inter, unsigned grid_blocks, unsigned max_blocks",
    "dynamic_quant_block": "uint8_t* q, float* scale, const uint16_t* in, unsigned tokens",
    "mxfp4_quant": "uint8_t* q, uint8_t* scales, const uint16_t* in, unsigned rows",
    "moe_fp4_stage1": "uint8_t* hq, uint8_t* hs, float* out, const uint8_t* xq, const uint8_t* xs, const uint8_t* w1, "
                      "const uint8_t* w1s, const unsigned* sorted_token_ids, const unsigned* sorted_expert_ids, "
                      "const unsigned* num_valid_ids, unsigned tokens, unsigned dim, unsigned inter, "
                      "unsigned grid_blocks, unsigned max_blocks",
    "moe_fp4_stage2": "float* out, const uint8_t* hq, const uint8_t* hs, const uint8_t* w2, const uint8_t* w2s, "
                      "const unsigned* sorted_token_ids, const float* sorted_weights, "
                      "const unsigned* sorted_expert_ids, const unsigned* num_valid_ids, unsigned tokens, "
                      "unsigned dim, unsigned inter, unsigned grid_blocks, unsigned max_blocks",
    "moe_quant_stage1": "uint8_t* hq, float* hs, float* out, const uint8_t* x, const float* xs, const uint8_t* w1, "
                        "const float* w1s, const unsigned* sorted_token_ids, const unsigned* sorted_expert_ids, "
                        "const unsigned* num_valid_ids, unsigned tokens, unsigned dim, unsigned inter, "
                        "unsigned grid_blocks, unsigned max_blocks",
    "moe_quant_stage2": "float* out, const uint8_t* hq, const float* hs, const uint8_t* w2, const float* w2s, "
                        "const unsigned* sorted_token_ids, const float* sorted_weights, "
                        "const unsigned* sorted_expert_ids, const unsigned* num_valid_ids, unsigned tokens, "
                        "unsigned dim, unsigned inter, unsigned grid_blocks, unsigned max_blocks",
})
_PATTERNS = {
    "rms_norm": re.compile(r"rms_norm_bf16_h(\d+)_w(\d+)$"),
    "silu_and_mul": re.compile(r"silu_and_mul_bf16_d(\d+)_w(\d+)_s(\d+)$"),
    "gemv": re.compile(r"gemv_bf16_r(\d+)_w(\d+)$"),
    "gemm": re.compile(r"gemm_bf16_m(\d+)_n(\d+)_w(\d+)x(\d+)$"),
    "rotary": re.compile(r"rotary_neox_hd(\d+)_rd(\d+)_q(\d+)_k(\d+)_w(\d+)$"),
    "paged_attn": re.compile(r"paged_attn_bf16_d(\d+)_b(\d+)_g(\d+)_w(\d+)_p(\d+)$"),
    # (_f16: f16 tensors, else bf16)
    "attn_fwd": re.compile(r"attn_fwd_d(\d+)_w(\d+)_n(\d+)_c([012])(|_f16)$"),
    "attn_fwd_fp8": re.compile(r"attn_fwd_fp8_d(\d+)_w(\d+)_n(\d+)_c([012])$"),
    # (_rc: the recompute dQ mode's kernels; _a16: the atomic16 mode's)
    "attn_bwd": re.compile(r"attn_bwd_d(\d+)_c([012])(|_rc|_a16)(|_f16)$"),
    "attn_bwd_odo": re.compile(r"attn_bwd_d(\d+)_c([012])(|_rc|_a16)(|_f16)_dot_do_o$"),
    "attn_bwd_cvt": re.compile(r"attn_bwd_d(\d+)_c([012])(|_rc|_a16)(|_f16)_convert_dq$"),
    "attn_bwd_dq": re.compile(r"attn_bwd_d(\d+)_c([012])(_rc)(|_f16)_dq$"),
    "mla_decode": re.compile(r"mla_decode_(bf16|fp8|fp8q)_w(\d+)_s([01])_p(\d+)_f(\d+)$"),
    "mla_decode_combine": re.compile(r"mla_decode_combine$"),
    "layernorm": re.compile(r"layernorm_bf16_h(\d+)_w(\d+)$"),
    "softmax": re.compile(r"softmax_(bf16|f32)_c(\d+)_w(\d+)$"),
    "topk_softmax": re.compile(r"topk_softmax_e(\d+)_k(\d+)_w(\d+)_l(\d+)$"),
    "dynamic_quant": re.compile(r"dynamic_quant_(fp8|i8)_d(\d+)_w(\d+)$"),
    "gemm_a8w8": re.compile(r"gemm_a8w8_(fp8|i8)_m(\d+)_n(\d+)_k(\d+)_w(\d+)x(\d+)$"),
    "moe_sorting": re.compile(r"moe_sorting_e(\d+)_w(\d+)$"),
    "moe_stage1": re.compile(r"moe_stage1_g([01])_w(\d+)_k(\d+)_m(\d+)(?:_(gelu_tanh|gelu))?$"),
    "moe_stage2": re.compile(r"moe_stage2_g([01])_w(\d+)_k(\d+)_m(\d+)$"),
    "dynamic_quant_block": re.compile(r"dynamic_quant_fp8_d(\d+)_w(\d+)_b128$"),
    "mxfp4_quant": re.compile(r"mxfp4_quant_d(\d+)_w(\d+)_s(\d+)$"),
    "moe_fp4_stage1": re.compile(r"moe_fp4_stage1_w(\d+)_k(\d+)_m(\d+)(?:_(gelu_tanh|gelu))?$"),
    "moe_fp4_stage2": re.compile(r"moe_fp4_stage2_w(\d+)_k(\d+)_m(\d+)$"),
    "moe_quant_stage1": re.compile(r"moe_quant_stage1_(fp8|i8)_w(\d+)_m(\d+)(?:_(gelu_tanh|gelu))?$"),
    "moe_quant_stage2": re.compile(r"moe_quant_stage2_(fp8|i8)_w(\d+)_m(\d+)$"),
}
_modules = {}  # id(device) -> its loaded ops modules: the prebuilt, then those built on first use

# hipasm_add_code_object(... KERNARG_PRELOAD)'s flag: on-demand builds compile as the prebuilt
_PRELOAD = ("-mllvm", "-amdgpu-kernarg-preload-count=16")
_log = logging.getLogger("hipasm")


class _UntilConfigured(logging.StreamHandler):
    """stderr while the application has configured no logging (Python's last-resort handler
    shows warnings only): an on-demand build takes seconds, the user should see why."""

    def emit(self, record):
        if not logging.getLogger().handlers:
            super().emit(record)


if _log.level == logging.NOTSET:  # logging.getLogger("hipasm").setLevel(logging.WARNING) silences it
    _log.setLevel(logging.INFO)
if not any(isinstance(h, _UntilConfigured) for h in _log.handlers):
    _log.addHandler(_UntilConfigured())


def _target(dev=None):
    dev = dev or _runtime.current_device()
    return getattr(dev, "target", None) or _config.get("default_arch", "gfx942")


def _code_objects(dev):
    """The ops code objects to load on dev: HIPASM_OPS_CODE_OBJECT (paths joined by os.pathsep;
    each loaded, a code object for another target refused), else the build config's prebuilt
    ones when the device has the build's target (another target builds on first use)."""
    env = os.environ.get("HIPASM_OPS_CODE_OBJECT")
    if env:
        return [p for p in env.split(os.pathsep) if p]
    paths = _config.get("ops_code_objects") or []
    if isinstance(paths, str):
        paths = [p for p in paths.split(os.pathsep) if p]
    return paths if _target(dev) == _config.get("default_arch", "gfx942") else []


def _module_list():
    dev = _runtime.current_device()
    ms = _modules.get(id(dev))
    if ms is None:
        # (a .hip source is built for the device's target; a code object for another is refused)
        ms = _modules[id(dev)] = [_load(p, dev) for p in _code_objects(dev)]
    return ms


def _source_path(kernels, cache_dir=None):
    return os.path.join(_build.cache_root(cache_dir), "ops", kernels[0].name + ".hip")


def cached_kernels(kernels, target, cache_dir=None):
    """The cached code object of `kernels` for `target` (None: not built, or out of date)."""
    src = _source_path(kernels, cache_dir)
    return _build.cached(src, target, _PRELOAD, cache_dir=cache_dir) if os.path.exists(src) else None


def build_kernels(op, kernels, what, target, cache_dir=None):
    """(code object, built now) of `kernels` (_ops_configs' rules) for `target`: the cached one,
    else written as <cache>/ops/<first kernel>.hip and built now by hipasm.build, with one INFO
    line on the logger "hipasm" ("hipasm.ops: building rms_norm for hidden=7168 (gfx942) into <cache>")."""
    root = _build.cache_root(cache_dir)
    src = _source_path(kernels, root)
    os.makedirs(os.path.dirname(src), exist_ok=True)
    # the text depends on the kernels only: the cache entry (keyed by the source's contents) is shared
    _cfg.write_if_changed(src, _cfg.source(kernels, f"hipasm.ops' {', '.join(k.name for k in kernels)}"))
    try:
        co = _build.cached(src, target, _PRELOAD, cache_dir=root)
        if co is not None:
            return co, False
        _log.info(f"hipasm.ops: building {op} for {what} ({target}) into {root}")
        return _build.build(src, target, options=_PRELOAD, cache_dir=root), True
    except BuildError as e:  # (no compiler, or a configuration the kernel's compile refuses)
        raise BuildError(f"hipasm.ops: building {op} for {what} ({target}): {e}") from None


def _find(op, match, rule, what):
    """(kernel, config) of the first loaded `op` kernel whose configuration (its name's fields)
    satisfies `match`; else rule() (the configuration's kernels, _ops_configs; a ValueError for a
    size the kernel cannot take) built for the device's target, loaded and kept."""
    for kc in _kernels(op):
        if match(kc[1]):
            return kc
    kernels = rule()
    dev = _runtime.current_device()
    _module_list().append(_load(build_kernels(op, kernels, what, _target(dev))[0], dev))
    for kc in _kernels(op):
        if match(kc[1]):
            return kc
    raise HipasmError(f"hipasm.ops.{op}: the kernels built for {what} ({[k.name for k in kernels]}) do not "
                      f"match its configuration")


def _load(path, dev):
    if not os.path.exists(path):
        raise RuntimeError(f"hipasm.ops: {path} does not exist (build the target hipasm_python, or set "
                           f"HIPASM_OPS_CODE_OBJECT)")
    try:
        return _runtime.load(path, device=dev)
    except HipasmError as e:
        raise type(e)(f"hipasm.ops: {path}: {e}") from None


def _module(kernel="rms_norm_bf16_h256_w1"):
    """The loaded ops code object holding `kernel`."""
    return next(m for m in _module_list() if kernel in m.kernel_names)


def _kernels(op):
    """[(kernel, config ints)] of op in the ops code objects."""
    out = []
    for m in _module_list():
        for name in m.kernel_names:
            hit = _PATTERNS[op].match(name)
            if hit:
                out.append((m.kernel(name, _SIGNATURES[op]),
                            tuple(int(g) if g is not None and g.isdigit() else g for g in hit.groups())))
    return out


def _is_torch(x):
    return type(x).__module__.startswith("torch")


def _check_bf16(name, x):
    if _is_torch(x):
        import torch
        if x.dtype != torch.bfloat16:
            raise TypeError(f"hipasm.ops: {name} must be torch.bfloat16, got {x.dtype}")
    elif getattr(x, "dtype", None) is None or str(x.dtype) != "uint16":
        raise TypeError(f"hipasm.ops: {name} must be a torch.bfloat16 tensor or a numpy uint16 array of bf16 bits, "
                        f"got {type(x).__name__} {getattr(x, 'dtype', '')}")
    return x.contiguous() if _is_torch(x) else _np().ascontiguousarray(x)


def _check_attn16(op, named):
    """The attention ops' 16-bit tensors ((name, x) pairs): all bf16 (torch.bfloat16, or numpy
    uint16 arrays of bf16 bits) or all f16 (torch.float16 or numpy float16); (contiguous tensors,
    "bf16" or "f16")."""
    out, kinds = [], []
    for name, x in named:
        got = str(getattr(x, "dtype", "")).replace("torch.", "")
        kind = {"bfloat16": "bf16", "float16": "f16"}.get(got) if _is_torch(x) else \
            {"uint16": "bf16", "float16": "f16"}.get(got)
        if kind is None:
            raise TypeError(f"hipasm.ops.{op}: {name} must be torch.bfloat16 or torch.float16 (numpy: uint16 bf16 "
                            f"bits or float16), got {type(x).__name__} {got}")
        if kinds and kind != kinds[0]:
            raise TypeError(f"hipasm.ops.{op}: {name} is {got}, {named[0][0]} {kinds[0]}: the tensors must all be "
                            f"bf16 or all f16")
        kinds.append(kind)
        out.append(x.contiguous() if _is_torch(x) else _np().ascontiguousarray(x))
    return out, kinds[0]


def _np():
    import numpy
    return numpy


def _empty(like, shape):
    if _is_torch(like):
        import torch
        return torch.empty(shape, dtype=like.dtype, device=like.device)
    return _np().empty(shape, dtype=like.dtype)


def _empty_bf16(like, shape):
    """A bf16 output beside `like` whatever its type (8-bit inputs, bf16 out): torch bfloat16 on its
    device, else numpy uint16 bits."""
    if _is_torch(like):
        import torch
        return torch.empty(shape, dtype=torch.bfloat16, device=like.device)
    return _np().empty(shape, dtype="uint16")


def rms_norm(x, weight, eps=1e-6):
    """x / sqrt(mean(x^2) + eps) * weight over the last dimension (f32 math, bf16 out)."""
    x, weight = _check_bf16("x", x), _check_bf16("weight", weight)
    hidden = x.shape[-1]
    if tuple(weight.shape) != (hidden,):
        raise ValueError(f"hipasm.ops.rms_norm: weight shape {tuple(weight.shape)}, expected ({hidden},)")
    k, (_, waves) = _find("rms_norm", lambda c: c[0] == hidden,
                          lambda: _cfg.norm("rms_norm", hidden, arg="x's last dimension (hidden)"), f"hidden={hidden}")
    rows = 1
    for d in x.shape[:-1]:
        rows *= d
    out = _empty(x, tuple(x.shape))
    if rows:
        k(rows, 64 * waves, out, None, x, None, weight, float(eps))
    return out


def silu_and_mul(x):
    """silu(x[..., :d]) * x[..., d:] for x [..., 2d] (vLLM's silu_and_mul)."""
    x = _check_bf16("x", x)
    two_d = x.shape[-1]
    if two_d % 4:
        raise ValueError(f"hipasm.ops.silu_and_mul: x's last dimension = {two_d} must be a multiple of 4 (two "
                         f"halves of an even d)")
    k, (d, waves, steps) = _find("silu_and_mul", lambda c: 2 * c[0] == two_d,
                                 lambda: _cfg.silu_and_mul(two_d // 2, arg="d (half x's last dimension)"),
                                 f"d={two_d // 2}")
    tokens = 1
    for s in x.shape[:-1]:
        tokens *= s
    out = _empty(x, tuple(x.shape[:-1]) + (d,))
    group = 8 if d % 8 == 0 else 4 if d % 4 == 0 else 2  # act_and_mul_group
    span = group * 64 * waves * steps
    if tokens:
        k((tokens * d + span - 1) // span, 64 * waves, out, x, tokens)
    return out


def gemv(a, x):
    """y = a @ x for a [m, k], x [k] (f32 accumulation, bf16 y)."""
    a, x = _check_bf16("a", a), _check_bf16("x", x)
    if len(a.shape) != 2 or tuple(x.shape) != (a.shape[1],):
        raise ValueError(f"hipasm.ops.gemv: shapes {tuple(a.shape)} and {tuple(x.shape)}: expected [m, k] and [k]")
    m, kdim = a.shape
    if kdim % 8:
        raise ValueError(f"hipasm.ops.gemv: k = {kdim} must be a multiple of 8 (16-byte loads)")
    k, (rows, waves) = _find("gemv", lambda c: True, _cfg.gemv, "its configuration")
    y = _empty(a, (m,))
    per = rows * waves
    k((m + per - 1) // per, 64 * waves, y, a, x, None, m, kdim)
    return y


def linear(x, weight):
    """x @ weight.T for x [..., k], weight [n, k]: gemv for one row (decode), gemm for more."""
    x, weight = _check_bf16("x", x), _check_bf16("weight", weight)
    rows = x.reshape(-1, x.shape[-1])
    out = gemv(weight, rows[0])[None] if rows.shape[0] == 1 else gemm(rows, weight)
    return out.reshape(tuple(x.shape[:-1]) + (weight.shape[0],))


def gemm(a, b):
    """c = a @ b.T for a [m, k], b [n, k] (the layout of torch.nn.Linear's weight), f32
    accumulation on the matrix cores, bf16 c; k even."""
    a, b = _check_bf16("a", a), _check_bf16("b", b)
    if len(a.shape) != 2 or len(b.shape) != 2 or a.shape[1] != b.shape[1]:
        raise ValueError(f"hipasm.ops.gemm: shapes {tuple(a.shape)} and {tuple(b.shape)}: expected [m, k] and [n, k]")
    m, kdim = a.shape
    n = b.shape[0]
    if kdim % 2:
        raise ValueError(f"hipasm.ops.gemm: k = {kdim} must be even (the built kernel loads dword-aligned rows)")
    k, (bm, bn, wm, wn) = _find("gemm", lambda c: True, _cfg.gemm, "its configuration")
    c = _empty(a, (m, n))
    k(((n + bn - 1) // bn, (m + bm - 1) // bm), 64 * wm * wn, c, a, b, m, n, kdim)
    return c


def rotary(q, k, positions, cos_sin):
    """NeoX rotary embedding (vLLM's rotary_embedding, out of place): q [tokens, heads_q,
    head_dim] and k [tokens, heads_k, head_dim] bf16, positions [tokens] int64, cos_sin
    [rows, rot_dim] float32 (cos in the first half of a row, sin in the second). Returns the
    rotated (q, k); dims past rot_dim are copied."""
    q, k = _check_bf16("q", q), _check_bf16("k", k)
    if len(q.shape) != 3:
        _shape_error("rotary", "q", q, "[tokens, heads_q, head_dim]")
    tokens, heads_q, head_dim = q.shape
    if len(k.shape) != 3 or k.shape[2] != head_dim:
        _shape_error("rotary", "k", k, f"[tokens, heads_k, {head_dim}]")
    if tuple(positions.shape) != (tokens,) or tuple(k.shape[:1]) != (tokens,):
        raise ValueError(f"hipasm.ops.rotary: positions {tuple(positions.shape)} and k {tuple(k.shape)} must have "
                         f"{tokens} tokens")
    if len(cos_sin.shape) != 2:
        _shape_error("rotary", "cos_sin", cos_sin, "[rows, rot_dim]")
    heads_k, rot_dim = k.shape[1], cos_sin.shape[1]
    kern, (_, _, _, _, waves) = _find(
        "rotary", lambda c: c[:4] == (head_dim, rot_dim, heads_q, heads_k),
        lambda: _cfg.rotary(head_dim, rot_dim, heads_q, heads_k),
        f"head_dim={head_dim} rot_dim={rot_dim} heads_q={heads_q} heads_k={heads_k}")
    q_out, k_out = _empty(q, tuple(q.shape)), _empty(k, tuple(k.shape))
    one_round = 304 * 8  # rotary_tokens_per_group: one token a workgroup while the grid fits the GPU
    per = 1 if tokens <= one_round else (tokens + one_round - 1) // one_round
    if tokens:
        kern((tokens + per - 1) // per, 64 * waves, q_out, k_out, q, k, positions, cos_sin, per, tokens,
             cos_sin.shape[0])
    return q_out, k_out


def _prod(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def _zeros(like, shape, dtype):
    """Zeroed workspace of dtype ("float32" or "int32") beside `like` (a torch tensor on its device, else numpy)."""
    if _is_torch(like):
        import torch
        return torch.zeros(shape, dtype=getattr(torch, dtype), device=like.device)
    return _np().zeros(shape, dtype=dtype)


def _check_dtype(op, name, x, dtype, convert_from=()):
    """x as a contiguous array of dtype ("int32", "float32"); integer arrays of the types in
    convert_from are converted (torch.topk gives int64 ids)."""
    got = str(getattr(x, "dtype", "")).replace("torch.", "")
    if got in convert_from:
        return x.to(getattr(__import__("torch"), dtype)).contiguous() if _is_torch(x) else _np().ascontiguousarray(x, dtype)
    if got != dtype:
        raise TypeError(f"hipasm.ops.{op}: {name} must be {dtype}, got {type(x).__name__} {got}")
    return x.contiguous() if _is_torch(x) else _np().ascontiguousarray(x)


def _host_values(x):
    """A small integer array's values on the host (a GPU tensor is copied: pass the bound to avoid it)."""
    return x.detach().cpu().numpy() if _is_torch(x) else _np().asarray(x)


def _shape_error(op, name, x, expected):
    raise ValueError(f"hipasm.ops.{op}: {name} shape {tuple(x.shape)}, expected {expected}")


def _pa_partition_blocks(head_dim, block_size, waves, prefetch, seqs, num_kv_heads, max_context, cus=304):
    """paged_attn_partition_blocks (paged_attn_decode.hpp) for a bf16 cache: the KV blocks a
    workgroup takes, the fastest by that header's cost model (fewer partitions on a tie)."""
    blocks = (max_context + block_size - 1) // block_size
    if blocks == 0:
        return 1
    groups = float(seqs) * num_kv_heads
    block_bytes = float(block_size) * head_dim * 2.0 * 2
    wg_gbps = min(7.5 * waves * prefetch * block_bytes / 8192.0, 67.0)
    device_gbps, round_us, split_us, part_us = 3900.0, 1.5, 2.0, 0.05
    slots = float(cus) * (1 if waves >= 8 else 8 // waves)

    def estimate(pb, parts):
        wgs = groups * parts
        rounds = 1.0
        while rounds * slots < wgs:
            rounds += 1
        per_wg = rounds * pb * block_bytes / (wg_gbps * 1e3)
        device = groups * blocks * block_bytes / (device_gbps * 1e3)
        return rounds * (round_us + (split_us + part_us * parts if parts > 1 else 0.0)) + max(per_wg, device)

    best, best_us = blocks, estimate(blocks, 1)
    for pb in range(waves, blocks, waves):
        parts = (blocks + pb - 1) // pb
        us = estimate(pb, parts)
        if us < best_us or (us == best_us and parts < (blocks + best - 1) // best):
            best, best_us = pb, us
    return best


def paged_attention_decode(q, k_cache, v_cache, block_tables, context_lens, scale=None, max_context=None,
                           partition_blocks=None):
    """One decode step of attention over a paged bf16 KV cache (vLLM's paged_attention, aiter's
    pa_fwd_asm layouts), GQA:

        out[s, h] = softmax_t(scale * q[s, h] . K[s, t]) V[s, t],  t < context_lens[s]

    q [seqs, num_heads, head_dim] bf16; k_cache [num_blocks, num_kv_heads, head_dim / 8,
    block_size, 8] and v_cache [num_blocks, num_kv_heads, block_size / 8, head_dim, 8] bf16
    (token t of a sequence is in cache block block_tables[s, t // block_size], slot t %
    block_size); block_tables [seqs, max_blocks] int32, context_lens [seqs] int32 (each >= 1).
    scale defaults to 1 / sqrt(head_dim); max_context (the largest context length) is read from
    context_lens when not given; partition_blocks (KV blocks a workgroup takes; a longer context
    is split and combined in the kernel) defaults to the library's choice. Returns out like q."""
    op = "paged_attention_decode"
    q, k_cache, v_cache = _check_bf16("q", q), _check_bf16("k_cache", k_cache), _check_bf16("v_cache", v_cache)
    block_tables = _check_dtype(op, "block_tables", block_tables, "int32")
    context_lens = _check_dtype(op, "context_lens", context_lens, "int32")
    if len(q.shape) != 3:
        _shape_error(op, "q", q, "[seqs, num_heads, head_dim]")
    seqs, heads, head_dim = q.shape
    if len(k_cache.shape) != 5 or k_cache.shape[4] != 8 or k_cache.shape[2] * 8 != head_dim:
        _shape_error(op, "k_cache", k_cache, f"[num_blocks, num_kv_heads, {head_dim // 8}, block_size, 8]")
    num_blocks, kv_heads, _, block_size, _ = k_cache.shape
    if tuple(v_cache.shape) != (num_blocks, kv_heads, block_size // 8, head_dim, 8) or block_size % 8:
        _shape_error(op, "v_cache", v_cache, f"[{num_blocks}, {kv_heads}, {block_size // 8}, {head_dim}, 8]")
    if kv_heads == 0 or heads % kv_heads:
        raise ValueError(f"hipasm.ops.{op}: num_kv_heads = {kv_heads} must divide q's num_heads = {heads}")
    gqa = heads // kv_heads
    kern, (_, _, _, waves, prefetch) = _find("paged_attn", lambda c: c[:3] == (head_dim, block_size, gqa),
                                             lambda: _cfg.paged_attn(head_dim, block_size, gqa),
                                             f"head_dim={head_dim} block_size={block_size} gqa={gqa}")
    if len(block_tables.shape) != 2 or block_tables.shape[0] != seqs:
        _shape_error(op, "block_tables", block_tables, f"[{seqs}, max_blocks]")
    if tuple(context_lens.shape) != (seqs,):
        _shape_error(op, "context_lens", context_lens, f"({seqs},)")
    if max_context is None:
        lens = _host_values(context_lens)
        if seqs and lens.min() < 1:
            raise ValueError(f"hipasm.ops.{op}: context_lens must be >= 1, got {int(lens.min())}")
        max_context = int(lens.max()) if seqs else 0
    out = _empty(q, tuple(q.shape))
    if seqs == 0:
        return out
    bt_stride = block_tables.shape[1]
    blocks = (max_context + block_size - 1) // block_size
    if max_context < 1 or bt_stride < blocks:
        raise ValueError(f"hipasm.ops.{op}: block_tables has {bt_stride} entries a sequence, max_context "
                         f"{max_context} needs {blocks}")
    if scale is None:
        scale = head_dim ** -0.5
    pb = int(partition_blocks or _pa_partition_blocks(head_dim, block_size, waves, prefetch, seqs, kv_heads,
                                                       max_context, _cfg.CUS.get(_target(), 304)))
    parts = (blocks + pb - 1) // pb
    groups = seqs * kv_heads
    part_out = part_ml = counters = None
    if parts > 1:  # the split's workspace (paged_attn_workspace_for); the kernel leaves the counters zero
        part_out = _zeros(q, (groups * parts * gqa * head_dim,), "float32")
        part_ml = _zeros(q, (groups * waves * parts * gqa * 2,), "float32")
        counters = _zeros(q, (groups * waves,), "int32")
    kern((kv_heads, seqs, parts), 64 * waves, block_tables, context_lens, q, k_cache, v_cache, bt_stride, pb,
         heads * head_dim * 2, kv_heads * block_size * head_dim * 2, out, part_out, part_ml, counters,
         float(scale) * 1.4426950408889634, kv_heads, parts, None, None)
    return out


def _attn_packed(op, q, k, others, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k=None):
    """The attention kernels' packed layout of the arguments: (q, k, others, cu_seqlens_q,
    cu_seqlens_k, batch, max_seqlen_q, max_seqlen_k, dense). `others`: {name: (tensor, "q" or
    "k": the sequence it runs along)}, returned as {name: tensor}. Dense tensors ([batch, seqlen,
    heads, head_dim]) are reshaped to [batch * seqlen, heads, head_dim] with cu_seqlens made
    here; packed ones are checked."""
    dense = cu_seqlens_q is None and cu_seqlens_k is None
    if dense:
        if len(q.shape) != 4:
            _shape_error(op, "q", q, "[batch, seqlen_q, num_heads, head_dim] (or pass cu_seqlens_q and cu_seqlens_k)")
        batch, seqlen_q = q.shape[:2]
        if len(k.shape) != 4 or k.shape[0] != batch:
            _shape_error(op, "k", k, f"[{batch}, seqlen_k, num_kv_heads, {q.shape[3]}]")
        seqlen_k = k.shape[1]
        make = (lambda n: __import__("torch").arange(0, (batch + 1) * n, n, dtype=__import__("torch").int32)) \
            if _is_torch(q) else (lambda n: _np().arange(0, (batch + 1) * n, n, dtype=_np().int32))
        cu_seqlens_q, cu_seqlens_k = make(seqlen_q), make(seqlen_k)
        if _is_torch(q):
            cu_seqlens_q, cu_seqlens_k = cu_seqlens_q.to(q.device), cu_seqlens_k.to(q.device)
        max_seqlen_q, max_seqlen_k = seqlen_q, seqlen_k
        n = {"q": seqlen_q, "k": seqlen_k}
        for name, (t, like) in others.items():
            if len(t.shape) != 4 or tuple(t.shape[:2]) != (batch, n[like]):
                _shape_error(op, name, t, f"[{batch}, {n[like]}, heads, head_dim] (like {like})")
        others = {name: (t.reshape(batch * n[like], *t.shape[2:]), like) for name, (t, like) in others.items()}
        q, k = q.reshape(batch * seqlen_q, *q.shape[2:]), k.reshape(batch * seqlen_k, *k.shape[2:])
    elif cu_seqlens_q is None or cu_seqlens_k is None:
        raise ValueError(f"hipasm.ops.{op}: pass both cu_seqlens_q and cu_seqlens_k (packed sequences) or neither")
    else:
        cu_seqlens_q = _check_dtype(op, "cu_seqlens_q", cu_seqlens_q, "int32")
        cu_seqlens_k = _check_dtype(op, "cu_seqlens_k", cu_seqlens_k, "int32")
        if len(cu_seqlens_q.shape) != 1 or tuple(cu_seqlens_k.shape) != tuple(cu_seqlens_q.shape) \
                or cu_seqlens_q.shape[0] < 2:
            raise ValueError(f"hipasm.ops.{op}: cu_seqlens_q {tuple(cu_seqlens_q.shape)} and cu_seqlens_k "
                             f"{tuple(cu_seqlens_k.shape)} must both be [batch + 1], batch >= 1")
        batch = cu_seqlens_q.shape[0] - 1
        if max_seqlen_q is None:
            cq = _host_values(cu_seqlens_q).astype("int64")
            max_seqlen_q = int((cq[1:] - cq[:-1]).max())
        if max_seqlen_k is None:
            ck = _host_values(cu_seqlens_k).astype("int64")
            max_seqlen_k = int((ck[1:] - ck[:-1]).max())
    if len(q.shape) != 3:
        _shape_error(op, "q", q, "[total_q, num_heads, head_dim]")
    others = {name: t for name, (t, _) in others.items()}
    return q, k, others, cu_seqlens_q, cu_seqlens_k, batch, max_seqlen_q, max_seqlen_k, dense


def _attn_fp8(op, name, t):
    """t (uint8 bits or torch.float8_e4m3fn: gfx950's OCP e4m3fn) contiguous, as uint8."""
    dt = str(getattr(t, "dtype", "")).replace("torch.", "")
    if dt not in ("uint8", "float8_e4m3fn"):
        raise TypeError(f"hipasm.ops.{op}: {name} must be fp8 like q (uint8 bits of OCP e4m3fn, or "
                        f"torch.float8_e4m3fn), got {type(t).__name__} {dt}")
    if _is_torch(t):
        import torch
        return t.view(torch.uint8).contiguous()
    return _np().ascontiguousarray(t)


def flash_attn_fwd(q, k, v, causal=False, softmax_scale=None, cu_seqlens_q=None, cu_seqlens_k=None,
                   max_seqlen_q=None, return_lse=False, q_descale=None, k_descale=None, v_descale=None):
    """Flash attention forward, bf16 or f16 (flash-attention's flash_attn_func / flash_attn_varlen_func):
    O = softmax(softmax_scale * Q K^T) V per head, GQA / MQA (query head h reads KV head
    h // (num_heads / num_kv_heads)), causal masks aligned bottom-right (causal=True or
    "bottom_right": query i sees keys j <= i + seqlen_k - seqlen_q) or top-left (causal="top_left":
    j <= i).

    Dense: q [batch, seqlen_q, num_heads, head_dim], k and v [batch, seqlen_k, num_kv_heads,
    head_dim]; lse [batch, num_heads, seqlen_q]. Packed (variable lengths): q [total_q, num_heads,
    head_dim], k and v [total_k, num_kv_heads, head_dim], cu_seqlens_q / cu_seqlens_k [batch + 1]
    int32 token offsets; lse [num_heads, total_q]. softmax_scale defaults to 1 / sqrt(head_dim);
    max_seqlen_q is read from cu_seqlens_q when not given. q, k and v all bf16 (torch.bfloat16,
    numpy uint16 bf16 bits) or all f16 (torch.float16, numpy float16; P and O rounded to f16 by
    nearest even). Returns o (like q), or (o, lse f32) with return_lse.

    fp8 (gfx950 devices: sim gpu="mi355x"): q, k, v OCP e4m3fn (uint8 bits, or
    torch.float8_e4m3fn), head_dim 128, with per-tensor descales q_descale, k_descale, v_descale
    (floats or one-element tensors, default 1: the real Q is q_descale * q); o is bf16."""
    op = "flash_attn_fwd"
    fp8 = str(getattr(q, "dtype", "")).replace("torch.", "") in ("uint8", "float8_e4m3fn")
    descales = (q_descale, k_descale, v_descale)
    sfx = ""
    if fp8:
        if _target() != "gfx950":
            raise ValueError(f"hipasm.ops.{op}: fp8 q, k, v (OCP e4m3fn) run on gfx950 devices (sim: gpu='mi355x'); "
                             f"this device is {_target()}")
        out_like = q
        q, k, v = _attn_fp8(op, "q", q), _attn_fp8(op, "k", k), _attn_fp8(op, "v", v)
        descales = tuple(1.0 if d is None else float(d) for d in descales)
        for name, d in zip(("q_descale", "k_descale", "v_descale"), descales):
            if not (d > 0 and math.isfinite(d)):
                raise ValueError(f"hipasm.ops.{op}: {name} must be positive and finite, got {d}")
    else:
        if any(d is not None for d in descales):
            raise ValueError(f"hipasm.ops.{op}: q_descale, k_descale and v_descale apply to fp8 q, k, v (these are "
                             f"16-bit)")
        (q, k, v), dt = _check_attn16(op, (("q", q), ("k", k), ("v", v)))
        sfx = "_f16" if dt == "f16" else ""
    q, k, t, cu_seqlens_q, cu_seqlens_k, batch, max_seqlen_q, _, dense = _attn_packed(
        op, q, k, {"v": (v, "k")}, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k=0)
    v = t["v"]
    total_q, hq, head_dim = q.shape
    if len(k.shape) != 3 or k.shape[2] != head_dim or tuple(v.shape) != tuple(k.shape):
        _shape_error(op, "k and v", k, f"equal, [total_k, num_kv_heads, {head_dim}] (v {tuple(v.shape)})")
    hkv = k.shape[1]
    if hkv == 0 or hq % hkv:
        raise ValueError(f"hipasm.ops.{op}: num_kv_heads = {hkv} must divide num_heads = {hq}")
    code = _cfg.causal_code(causal, "flash_attn_fwd")
    if fp8:
        kern, (_, waves, _, _) = _find("attn_fwd_fp8", lambda c: c[0] == head_dim and c[3] == code,
                                       lambda: _cfg.attn_fwd_fp8(head_dim, causal),
                                       f"head_dim={head_dim} causal={causal!r} fp8")
    else:
        kern, (_, waves, _, _, _) = _find("attn_fwd", lambda c: c[0] == head_dim and c[3] == code and c[4] == sfx,
                                          lambda: _cfg.attn_fwd(head_dim, causal, dtype=dt),
                                          f"head_dim={head_dim} causal={causal!r} dtype={dt}")
    if softmax_scale is None:
        softmax_scale = head_dim ** -0.5
    if not softmax_scale > 0:
        raise ValueError(f"hipasm.ops.{op}: softmax_scale must be positive, got {softmax_scale}")
    o = _empty_bf16(out_like, tuple(q.shape)) if fp8 else _empty(q, tuple(q.shape))
    lse = _zeros(q, (hq, total_q), "float32")
    bm = 32 * waves
    tiles = max(1, (int(max_seqlen_q) + bm - 1) // bm)
    # (fp8: the q and k descales scale every score, folded into the softmax scale; v's scales o)
    scale_log2 = float(softmax_scale) * (descales[0] * descales[1] if fp8 else 1.0) * 1.4426950408889634
    if total_q:
        kern((hq, tiles, batch), 64 * waves, o, lse, q, k, v, cu_seqlens_q, cu_seqlens_k, hq, hkv, batch, tiles,
             scale_log2, *((descales[2],) if fp8 else ()))
    if dense:
        o = o.reshape(batch, total_q // batch, hq, head_dim)
        lse = lse.reshape(hq, batch, total_q // batch).swapaxes(0, 1)
    return (o, lse) if return_lse else o


ATTN_BWD_STREAM_THREADS = 256  # attn_bwd_config::stream_threads (dot_do_o, convert_dq)


def flash_attn_bwd(do, q, k, v, o, lse, causal=False, softmax_scale=None, cu_seqlens_q=None, cu_seqlens_k=None,
                   max_seqlen_q=None, max_seqlen_k=None, dq_accum="f32"):
    """Flash attention backward, bf16 or f16 (attn_bwd.hpp, FlashAttention-2's): dQ, dK, dV of
    O = softmax(softmax_scale * Q K^T) V from dO, the forward's inputs, its O and its LSE (as
    flash_attn_fwd(..., return_lse=True) returns them); GQA / MQA (dK and dV summed over the query
    heads of a KV head), causal as flash_attn_fwd takes it (True / "bottom_right", "top_left"). dQ
    is accumulated in f32.

    Layouts as flash_attn_fwd's: dense q, o, do [batch, seqlen_q, num_heads, head_dim], k, v
    [batch, seqlen_k, num_kv_heads, head_dim], lse [batch, num_heads, seqlen_q]; or packed with
    cu_seqlens_q / cu_seqlens_k (lse [num_heads, total_q]). max_seqlen_q / max_seqlen_k are read
    from the cu_seqlens when not given. do, q, k, v and o all bf16 or all f16 (as flash_attn_fwd
    takes them). Returns (dq, dk, dv) like q, k, v. The dQ mode is the
    faster on the device's target (attn_bwd_launch.hpp's attn_bwd_dq_for): "atomic" (gfx942, and
    gfx950 for causal sequences up to 1024 keys): the rowsum(dO O) pre-pass, the main kernel
    adding dQ into an f32 workspace, the dQ conversion; "recompute" (gfx950): the pre-pass, the
    main kernel without dQ, a dQ kernel of its own. With GQA / MQA a last launch sums the
    per-query-head dK and dV.
    dq_accum="dtype" (AMD's "a16"): the main kernel adds each 128-key tile's dQ partial, rounded to
    the inputs' type, into dQ with packed 16-bit atomics (no f32 workspace, no dQ conversion):
    faster, and dQ carries one rounding a key tile (its error grows with seqlen_k / 128)."""
    op = "flash_attn_bwd"
    (do, q, k, v, o), dt = _check_attn16(op, (("do", do), ("q", q), ("k", k), ("v", v), ("o", o)))
    sfx = "_f16" if dt == "f16" else ""
    lse = _check_dtype(op, "lse", lse, "float32")
    lse_shape = tuple(lse.shape)
    q, k, t, cu_seqlens_q, cu_seqlens_k, batch, max_seqlen_q, max_seqlen_k, dense = _attn_packed(
        op, q, k, {"v": (v, "k"), "o": (o, "q"), "do": (do, "q")}, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k)
    v, o, do = t["v"], t["o"], t["do"]
    total_q, hq, head_dim = q.shape
    if len(k.shape) != 3 or k.shape[2] != head_dim or tuple(v.shape) != tuple(k.shape):
        _shape_error(op, "k and v", k, f"equal, [total_k, num_kv_heads, {head_dim}] (v {tuple(v.shape)})")
    for name, x in (("o", o), ("do", do)):
        if tuple(x.shape) != tuple(q.shape):
            _shape_error(op, name, x, f"like q, {tuple(q.shape)}")
    total_k, hkv = k.shape[0], k.shape[1]
    if hkv == 0 or hq % hkv:
        raise ValueError(f"hipasm.ops.{op}: num_kv_heads = {hkv} must divide num_heads = {hq}")
    if dense:
        if lse_shape != (batch, hq, total_q // batch):
            _shape_error(op, "lse", lse, f"({batch}, {hq}, {total_q // batch}) (flash_attn_fwd's)")
        lse = lse.transpose(0, 1) if _is_torch(lse) else lse.swapaxes(0, 1)
        lse = lse.reshape(hq, total_q)
        lse = lse.contiguous() if _is_torch(lse) else _np().ascontiguousarray(lse)
    elif lse_shape != (hq, total_q):
        _shape_error(op, "lse", lse, f"({hq}, {total_q}) (flash_attn_fwd's)")
    if softmax_scale is None:
        softmax_scale = head_dim ** -0.5
    if not softmax_scale > 0:
        raise ValueError(f"hipasm.ops.{op}: softmax_scale must be positive, got {softmax_scale}")
    if dq_accum not in ("f32", "dtype"):
        raise ValueError(f"hipasm.ops.{op}: dq_accum must be \"f32\" or \"dtype\", got {dq_accum!r}")
    code = _cfg.causal_code(causal, op)
    a16 = dq_accum == "dtype"
    mode = "atomic16" if a16 else _cfg.attn_bwd_dq(_target(), code, int(max_seqlen_k))
    rc = mode == "recompute"
    what = f"head_dim={head_dim} causal={causal!r} dq={mode} dtype={dt}"
    rule = lambda: _cfg.attn_bwd(head_dim, causal, mode, dtype=dt, target=_target())
    match = lambda c: c[0] == head_dim and c[1] == code and c[2] == _cfg.ATTN_BWD_DQ_SUFFIX[mode] and c[3] == sfx
    main, _ = _find("attn_bwd", match, rule, what)
    odo, _ = _find("attn_bwd_odo", match, rule, what)
    cvt, _ = _find("attn_bwd_cvt", match, rule, what)
    dq, dk, dv = _empty(q, tuple(q.shape)), _empty(k, tuple(k.shape)), _empty(v, tuple(v.shape))
    if total_q and total_k:
        gqa = hq != hkv
        # (recompute: no f32 dQ workspace, the kernels take a null address; atomic16: dQ itself, which
        # the first kernel zeroes, seen as the float* argument it takes the place of)
        if a16 and _is_torch(dq):
            import torch
            dq_acc = dq.view(torch.float32)
        elif a16:
            dq_acc = dq.view(_np().float32)
        else:
            dq_acc = DevicePointer(0) if rc else _zeros(q, (total_q, hq, head_dim), "float32")
        delta = _zeros(q, (hq, total_q), "float32")
        rows = batch * int(max_seqlen_q) * hq
        rpw = ATTN_BWD_STREAM_THREADS // (head_dim // 8)
        stream = max(1, (rows + rpw - 1) // rpw)
        odo((stream, 1, 1), ATTN_BWD_STREAM_THREADS, delta, dq_acc, o, do, cu_seqlens_q, hq, batch)
        dk_out, dv_out = (_empty(k, (total_k, hq, head_dim)), _empty(v, (total_k, hq, head_dim))) if gqa else (dk, dv)
        # attn_bwd_config::grid_x: 4 waves of keys_per_wave keys a workgroup
        bn = 4 * _cfg.attn_bwd_keys_per_wave(head_dim, mode, _target())
        k_tiles = max(1, (int(max_seqlen_k) + bn - 1) // bn)
        scale_log2 = float(softmax_scale) * 1.4426950408889634
        main((k_tiles, hq, batch), 256, dq_acc, dk_out, dv_out, q, k, v, do, lse, delta, cu_seqlens_q, cu_seqlens_k,
             hq, hkv, batch, k_tiles, scale_log2)
        if rc:
            dq_kernel, _ = _find("attn_bwd_dq", match, rule, what)
            q_tiles = max(1, (int(max_seqlen_q) + 127) // 128)  # attn_bwd_config::dq_grid_x: 128 queries a workgroup
            dq_kernel((q_tiles, hq, batch), 256, dq, q, k, v, do, lse, delta, cu_seqlens_q, cu_seqlens_k, hq, hkv,
                      batch, q_tiles, scale_log2)
        # (one launch: dQ's workgroups (none with recompute), then with GQA/MQA red_groups of dK's partial
        # sums and as many of dV's)
        red_groups = (batch * int(max_seqlen_k) * hkv * head_dim // 8 + ATTN_BWD_STREAM_THREADS - 1) \
            // ATTN_BWD_STREAM_THREADS if gqa else 0
        dq_groups = 0 if rc or a16 else stream
        if dq_groups + red_groups:
            cvt((dq_groups + 2 * red_groups, 1, 1), ATTN_BWD_STREAM_THREADS, dq, dq_acc, dk, dv, dk_out, dv_out,
                cu_seqlens_q, cu_seqlens_k, hq, hkv, batch, dq_groups, red_groups, float(softmax_scale))
    else:  # (no query or no key: the gradients are zero)
        for x in (dq, dk, dv):
            x[...] = 0
    if dense:
        dq = dq.reshape(batch, total_q // batch, hq, head_dim)
        dk = dk.reshape(batch, total_k // batch, hkv, head_dim)
        dv = dv.reshape(batch, total_k // batch, hkv, head_dim)
    return dq, dk, dv


def mla_decode(q, kv_cache, qo_indptr, kv_indptr, kv_indices, kv_last_page_lens, softmax_scale=None, kv_scale=1.0,
               max_seqlen_q=None, num_kv_splits=None, q_scale=None):
    """Multi-head latent attention decode (DeepSeek V2/V3 with the absorbed query; aiter's
    mla_decode_fwd layout, mla_decode.hpp): num_heads query heads attend one latent KV head of
    576-element rows (the keys; the values their first 512 elements); 1 to 4 query tokens a
    sequence, causal among them at the end of the sequence's KV.

    q [total_q, num_heads, 576] bf16 (num_heads 16 to 128, a multiple of 16); kv_cache
    [pages, page_size, 576] bf16, or the device's fp8 (uint8 bits or torch's type of the target's
    e4m3) with the per-tensor kv_scale (value = fp8 x kv_scale); qo_indptr [batch + 1] (token
    offsets), kv_indptr [batch + 1] (sequence b's pages are kv_indices[kv_indptr[b] ..
    kv_indptr[b + 1]]), kv_indices, kv_last_page_lens [batch] (the tokens of each sequence's last
    page) int32. softmax_scale: 1 / sqrt(576) when not given. Returns (o [total_q, num_heads,
    512] bf16, lse [total_q, num_heads] float32: -inf for a row that sees no key, whose o is 0).
    num_kv_splits: the KV split (None: mla_decode_launch.hpp's default for the device); with
    more than one the splits' partial outputs are combined, in the attention kernel (16-row
    configurations, 2 to 4 splits: the launch header's mla_decode_fuse_combine) or by a second
    launch.
    fp8 Q (gfx950 with fp8 kv_cache; mla_decode.hpp's q_fp8 configurations: QK^T and PV on fp8
    MFMAs, P rounded to e4m3): q [total_q, num_heads, 576] OCP e4m3fn (uint8 bits or
    torch.float8_e4m3fn) with its per-tensor q_scale (value = fp8 x q_scale; 1.0 when not
    given). q_scale is only for fp8 q."""
    op = "mla_decode"
    target = _target()
    if str(getattr(q, "dtype", "")) in ("torch.bfloat16", "bfloat16", "uint16"):
        q, q8 = _check_bf16("q", q), False
        if q_scale is not None:
            raise TypeError(f"hipasm.ops.{op}: q_scale is for fp8 q (the gfx950 q_fp8 mode); q is bf16")
    else:
        if target != "gfx950":
            raise ValueError(f"hipasm.ops.{op}: fp8 q (mla_decode's q_fp8 mode, OCP e4m3 MFMAs) runs on gfx950 "
                             f"devices, not {target}: give q in bf16")
        q, kind = _q8(op, "q", q)
        if kind != "fp8":
            raise TypeError(f"hipasm.ops.{op}: q must be bf16 or the device's fp8, got int8")
        q8 = True
        q_scale = 1.0 if q_scale is None else q_scale
        if not (q_scale > 0 and q_scale < float("inf")):
            raise ValueError(f"hipasm.ops.{op}: q_scale must be positive and finite, got {q_scale}")
    if len(q.shape) != 3 or q.shape[2] != 576:
        _shape_error(op, "q", q, "[total_q, num_heads, 576]")
    total_q, heads = q.shape[0], q.shape[1]
    if str(getattr(kv_cache, "dtype", "")) in ("torch.bfloat16", "bfloat16", "uint16"):
        kv_cache, fp8 = _check_bf16("kv_cache", kv_cache), False
    else:
        kv_cache, kind = _q8(op, "kv_cache", kv_cache)
        if kind != "fp8":
            raise TypeError(f"hipasm.ops.{op}: kv_cache must be bf16 or the device's fp8, got int8")
        fp8 = True
    if q8 and not fp8:
        raise TypeError(f"hipasm.ops.{op}: fp8 q (the q_fp8 mode) takes an fp8 kv_cache, got bf16 kv_cache")
    if len(kv_cache.shape) != 3 or kv_cache.shape[2] != 576:
        _shape_error(op, "kv_cache", kv_cache, "[pages, page_size, 576]")
    page_size = kv_cache.shape[1]
    qo_indptr, kv_indptr, kv_indices, kv_last_page_lens = (
        _check_dtype(op, n, x, "int32") for n, x in (("qo_indptr", qo_indptr), ("kv_indptr", kv_indptr),
                                                    ("kv_indices", kv_indices), ("kv_last_page_lens", kv_last_page_lens)))
    if len(qo_indptr.shape) != 1 or qo_indptr.shape[0] < 2 or tuple(kv_indptr.shape) != tuple(qo_indptr.shape):
        raise ValueError(f"hipasm.ops.{op}: qo_indptr {tuple(qo_indptr.shape)} and kv_indptr {tuple(kv_indptr.shape)} "
                         f"must both be [batch + 1], batch >= 1")
    batch = qo_indptr.shape[0] - 1
    if tuple(kv_last_page_lens.shape) != (batch,):
        _shape_error(op, "kv_last_page_lens", kv_last_page_lens, f"({batch},)")
    qo, kvp, last = (_host_values(x).astype("int64") for x in (qo_indptr, kv_indptr, kv_last_page_lens))
    if int(qo[-1]) != total_q:
        raise ValueError(f"hipasm.ops.{op}: qo_indptr[batch] = {int(qo[-1])} must be q's total_q = {total_q}")
    if max_seqlen_q is None:
        max_seqlen_q = int((qo[1:] - qo[:-1]).max())
    pages = kvp[1:] - kvp[:-1]
    max_kv = int(_np().where(pages > 0, (pages - 1) * page_size + last, 0).max())
    if softmax_scale is None:
        softmax_scale = 576 ** -0.5
    if not softmax_scale > 0:
        raise ValueError(f"hipasm.ops.{op}: softmax_scale must be positive, got {softmax_scale}")
    if not kv_scale > 0:
        raise ValueError(f"hipasm.ops.{op}: kv_scale must be positive, got {kv_scale}")
    kv_bytes = _prod(kv_cache.shape) * (1 if fp8 else 2)
    if kv_bytes == 0 or kv_bytes > 0xffffe000:
        raise ValueError(f"hipasm.ops.{op}: kv_cache holds {kv_bytes} bytes, must be 1 to 4 GiB - 8 KiB (32-bit offsets)")
    what = (f"num_heads={heads} max_seqlen_q={max_seqlen_q} kv={'fp8' if fp8 else 'bf16'}{' q=fp8' if q8 else ''} "
            f"page_size={page_size}")
    rule = lambda: _cfg.mla_decode(heads, int(max_seqlen_q), fp8, page_size, target, q_fp8=q8)
    want = rule()[0].name
    main, cfg = _find("mla_decode", lambda c: "mla_decode_" + "_".join(
        (c[0], f"w{c[1]}", f"s{c[2]}", f"p{c[3]}", f"f{c[4]}")) == want, rule, what)
    _, waves, sd, _, pf = cfg
    rows = heads * int(max_seqlen_q)
    groups = -(-rows // (16 if sd else 16 * waves))
    if num_kv_splits is None:
        num_kv_splits = _cfg.mla_decode_splits(target, waves, bool(sd), pf, fp8, batch, groups, max_kv, rows, q8)
    num_kv_splits = _cfg._int(op, "num_kv_splits", num_kv_splits)
    if num_kv_splits < 1 or num_kv_splits > 1024:
        raise ValueError(f"hipasm.ops.{op}: num_kv_splits = {num_kv_splits} must be 1 to 1024")
    o = _empty_bf16(q, (total_q, heads, 512)) if q8 else _empty(q, (total_q, heads, 512))
    lse = _zeros(q, (total_q, heads), "float32")
    if num_kv_splits > 1:
        part_o = _zeros(q, (total_q, num_kv_splits, heads, 512), "float32")
        part_lse = _zeros(q, (total_q, num_kv_splits, heads), "float32")
    else:
        part_o = part_lse = DevicePointer(0)
    # mla_decode_launch.hpp's mla_decode_fuse_combine: split_dims with 2 to 4 splits combine in the
    # attention kernel (the last split of 16 rows; counters zeroed, left zero)
    fused = bool(sd) and 1 < num_kv_splits <= 4
    counters = _zeros(q, (total_q * (heads // 16),), "int32") if fused else DevicePointer(0)
    main((num_kv_splits, batch, groups), 64 * waves, o, lse, part_o, part_lse, q, kv_cache, qo_indptr, kv_indptr,
         kv_indices, kv_last_page_lens, heads, num_kv_splits,
         float(softmax_scale) * 1.4426950408889634 * (float(q_scale) if q8 else 1.0),  # (fp8 Q's scale folded in)
         float(kv_scale), kv_bytes, _prod(kv_indices.shape), counters, int(fused))
    if num_kv_splits > 1 and total_q and not fused:
        combine, _ = _find("mla_decode_combine", lambda c: True, rule, what)
        g = 4 if num_kv_splits >= 16 else 2 if num_kv_splits >= 2 else 1  # mla_decode_combine_waves_per_head
        combine((-(-heads * g // 4), total_q, 1), 256, o, lse, part_o, part_lse, heads, num_kv_splits)
    return o, lse


def fused_moe(x, w1, w2, topk_weights, topk_ids, quant=None, w1_scale=None, w2_scale=None, activation="silu"):
    """Mixture of experts (aiter's fused_moe, vLLM's fused_experts), gated:

        out[t] = sum_k topk_weights[t, k] * (act(x[t] . W1[e, :inter]^T) * (x[t] . W1[e, inter:]^T)) . W2[e]^T,
        e = topk_ids[t, k]

    act by `activation`: "silu" (x * sigmoid(x)), "gelu" (the erf form, torch's default GELU and
    aiter's Gelu) or "gelu_tanh" (torch's approximate="tanh"), in every form below.

    x [tokens, dim] bf16, topk_weights [tokens, topk] float32, topk_ids [tokens, topk] int32 (int64
    is converted). Returns out [tokens, dim] float32 (each expert's share added by f32 atomics).
    quant None: w1 [experts, 2 * inter, dim] bf16 (gate rows, then up rows), w2 [experts, dim,
    inter] bf16, dim and inter multiples of 16; the sorting of the (token, slot) pairs by expert,
    then the two grouped GEMMs (moe.hpp), h in bf16.
    The quantized forms (gfx942 and gfx950, moe_quant.hpp; dim and inter multiples of 128), x
    quantized in the op and h re-quantized between the GEMMs per 1x128 block (dynamic_quant's
    rule, qmax the format's largest):
    - quant="fp8_block" (DeepSeek V3's): w1, w2 the device's fp8 (its bits as uint8, or torch's
      type of it: e4m3fnuz, torch.float8_e4m3fnuz, on gfx942; OCP e4m3fn, torch.float8_e4m3fn,
      on gfx950) with 128x128 block scales w1_scale [experts, 2 * inter / 128, dim / 128] and
      w2_scale [experts, dim / 128, inter / 128] float32; x per 1x128 block.
    - quant="int8": w1, w2 int8 with per-channel scales w1_scale [experts, 2 * inter] and
      w2_scale [experts, dim] float32; x per token.
    The MXFP4 form (gfx950, moe_fp4.hpp; dim and inter multiples of 256), quant="mxfp4" (a4w4,
    AMD's 2026 MI355X challenge's): w1 [experts, 2 * inter, dim / 2] and w2 [experts, dim, inter /
    2] uint8, fp4 e2m1 pairs (element 2i in the low nibble of byte i), w1_scale [experts, 2 *
    inter, dim / 32] and w2_scale [experts, dim, inter / 32] uint8 E8M0 (a scale per 32
    consecutive elements of a row); x and h quantized to MXFP4 per 1x32 block (aiter's rule)."""
    op = "fused_moe"
    if activation not in _cfg.MOE_ACTIVATIONS:
        raise ValueError(f"hipasm.ops.{op}: activation {activation!r}, expected one of {_cfg.MOE_ACTIVATIONS}")
    if quant == "mxfp4":
        return _fused_moe_mxfp4(op, x, w1, w2, topk_weights, topk_ids, w1_scale, w2_scale, activation)
    if quant is not None:
        return _fused_moe_quant(op, x, w1, w2, topk_weights, topk_ids, quant, w1_scale, w2_scale, activation)
    if w1_scale is not None or w2_scale is not None:
        raise ValueError(f"hipasm.ops.{op}: w1_scale and w2_scale go with quant='fp8_block', 'int8' or 'mxfp4' "
                         f"(quant None: bf16 weights)")
    x, w1, w2 = _check_bf16("x", x), _check_bf16("w1", w1), _check_bf16("w2", w2)
    tokens, dim, experts, inter = _moe_shapes(op, x, w1, w2)
    topk_weights, topk_ids = _moe_routing(op, tokens, experts, topk_weights, topk_ids)
    if dim % 16 or inter % 16 or inter == 0:
        raise ValueError(f"hipasm.ops.{op}: dim = {dim} and inter = {inter} must be positive multiples of 16")
    s1, c1 = _find("moe_stage1", lambda c: c[0] == 1 and (c[4] or "silu") == activation,
                   lambda: _cfg.moe_gemm(_target(), activation), f"its configuration ({activation})")
    s2, c2 = _find("moe_stage2", lambda c: c[0] == 1, lambda: _cfg.moe_gemm(_target()), "its configuration")
    (sorted_ids, sorted_weights, sorted_experts, num_valid), out = _moe_begin(op, x, topk_ids, topk_weights, experts)
    if tokens == 0:
        return out
    max_blocks = sorted_experts.shape[0]
    h = _empty(x, (max_blocks * MOE_BLOCK_M, inter))
    gx, gy = _moe_grid(c1[1], c1[3], inter, max_blocks)
    s1((gx, gy), 64 * c1[1] * c1[2], h, out, x, w1, sorted_ids, sorted_experts, num_valid, tokens, dim, inter, gy,
       max_blocks)
    gx, gy = _moe_grid(c2[1], c2[3], dim, max_blocks)
    s2((gx, gy), 64 * c2[1] * c2[2], out, h, w2, sorted_ids, sorted_weights, sorted_experts, num_valid, tokens, dim,
       inter, gy, max_blocks)
    return out


def _moe_shapes(op, x, w1, w2):
    """(tokens, dim, experts, inter) of x [tokens, dim], w1 [experts, 2 * inter, dim], w2 [experts, dim, inter]."""
    if len(x.shape) != 2:
        _shape_error(op, "x", x, "[tokens, dim]")
    tokens, dim = x.shape
    if len(w1.shape) != 3 or w1.shape[2] != dim or w1.shape[1] % 2:
        _shape_error(op, "w1", w1, f"[experts, 2 * inter, {dim}]")
    experts, inter = w1.shape[0], w1.shape[1] // 2
    if tuple(w2.shape) != (experts, dim, inter):
        _shape_error(op, "w2", w2, f"({experts}, {dim}, {inter})")
    return tokens, dim, experts, inter


def _moe_routing(op, tokens, experts, topk_weights, topk_ids):
    """topk_weights float32 and topk_ids int32 (int64 converted), both [tokens, topk], checked."""
    topk_weights = _check_dtype(op, "topk_weights", topk_weights, "float32")
    topk_ids = _check_dtype(op, "topk_ids", topk_ids, "int32", convert_from=("int64",))
    if len(topk_ids.shape) != 2 or topk_ids.shape[0] != tokens or not 1 <= topk_ids.shape[1] <= min(experts, 255):
        _shape_error(op, "topk_ids", topk_ids, f"[{tokens}, topk], topk 1 .. {min(experts, 255)}")
    if tuple(topk_weights.shape) != (tokens, topk_ids.shape[1]):
        _shape_error(op, "topk_weights", topk_weights, f"({tokens}, {topk_ids.shape[1]})")
    if tokens >= 1 << 24:
        raise ValueError(f"hipasm.ops.{op}: tokens = {tokens} must be below 2^24 (24-bit token ids)")
    return topk_weights, topk_ids


def _moe_begin(op, x, topk_ids, topk_weights, experts):
    """A fused_moe's sorted routing (_moe_sort's four arrays) and its out [tokens, dim] float32, zeroed."""
    return _moe_sort(op, "w1's first dimension", topk_ids, topk_weights, experts), _zeros(x, tuple(x.shape), "float32")


def _moe_grid(waves, max_workgroups, cols, max_blocks):
    """A MoE stage's grid (moe_gemm_config / moe_quant_config grid_x and grid_y): 32 columns a wave."""
    gx = (cols + 32 * waves - 1) // (32 * waves)
    return gx, min(max(max_workgroups // gx, 1), max_blocks)


def _fused_moe_mxfp4(op, x, w1, w2, topk_weights, topk_ids, w1_scale, w2_scale, activation):
    """fused_moe's MXFP4 form (moe_fp4.hpp): x quantized, sorted, then the two stages."""
    if _target() != "gfx950":
        raise ValueError(f"hipasm.ops.{op}: quant='mxfp4' runs on gfx950 devices (moe_fp4.hpp: the scaled MFMAs), "
                         f"this one is {_target()}")
    x = _check_bf16("x", x)
    if w1_scale is None or w2_scale is None:
        raise ValueError(f"hipasm.ops.{op}: quant='mxfp4' needs w1_scale and w2_scale")
    w1, w2, w1_scale, w2_scale = (_check_dtype(op, n, t, "uint8") for n, t in
                                  (("w1", w1), ("w2", w2), ("w1_scale", w1_scale), ("w2_scale", w2_scale)))
    if len(x.shape) != 2:
        _shape_error(op, "x", x, "[tokens, dim]")
    tokens, dim = x.shape
    if len(w1.shape) != 3 or w1.shape[2] * 2 != dim or w1.shape[1] % 2:
        _shape_error(op, "w1", w1, f"[experts, 2 * inter, {dim // 2}] (fp4 pairs)")
    experts, inter = w1.shape[0], w1.shape[1] // 2
    if dim % 256 or inter % 256 or inter == 0:
        raise ValueError(f"hipasm.ops.{op}: dim = {dim} and inter = {inter} must be positive multiples of 256 "
                         f"(whole K steps of the MXFP4 MFMAs)")
    for name, t, shape in (("w2", w2, (experts, dim, inter // 2)), ("w1_scale", w1_scale, (experts, 2 * inter, dim // 32)),
                           ("w2_scale", w2_scale, (experts, dim, inter // 32))):
        if tuple(t.shape) != shape:
            _shape_error(op, name, t, str(shape))
    topk_weights, topk_ids = _moe_routing(op, tokens, experts, topk_weights, topk_ids)
    qk, (_, qw, qs) = _find("mxfp4_quant", lambda c: c[0] == dim,
                            lambda: _cfg.mxfp4_quant(dim, op, arg="x's last dimension (dim)"), f"d={dim}")
    s1, c1 = _find("moe_fp4_stage1", lambda c: (c[3] or "silu") == activation, lambda: _cfg.moe_fp4(activation),
                   f"mxfp4 ({activation})")
    s2, c2 = _find("moe_fp4_stage2", lambda c: True, _cfg.moe_fp4, "mxfp4")
    (sorted_ids, sorted_weights, sorted_experts, num_valid), out = _moe_begin(op, x, topk_ids, topk_weights, experts)
    if tokens == 0:
        return out
    xq, xs = _zeros(x, (tokens, dim // 2), "uint8"), _zeros(x, (tokens, dim // 32), "uint8")
    span = 8 * 64 * qw * qs  # mxfp4_quant_groups: elements a workgroup
    qk((tokens * dim + span - 1) // span, 64 * qw, xq, xs, x, tokens)
    max_blocks = sorted_experts.shape[0]
    grid_blocks = min(max_blocks, tokens * topk_ids.shape[1])  # moe_fp4_grid_blocks
    # h at the sorted rows, MXFP4 (moe_fp4.hpp's layout): max_blocks * 32 rows of inter / 2 and / 32 bytes
    hq = _zeros(x, (max_blocks * MOE_BLOCK_M * inter // 2,), "uint8")
    hs = _zeros(x, (max_blocks * MOE_BLOCK_M * inter // 32,), "uint8")
    gx, gy = _moe_grid(c1[0], c1[2], inter, grid_blocks)
    s1((gx, gy), 64 * c1[0] * c1[1], hq, hs, out, xq, xs, w1, w1_scale, sorted_ids, sorted_experts, num_valid, tokens,
       dim, inter, gy, max_blocks)
    gx, gy = _moe_grid(c2[0], c2[2], dim, grid_blocks)
    s2((gx, gy), 64 * c2[0] * c2[1], out, hq, hs, w2, w2_scale, sorted_ids, sorted_weights, sorted_experts, num_valid,
       tokens, dim, inter, gy, max_blocks)
    return out


_MOE_QUANT = {"fp8_block": "fp8", "int8": "i8"}


def _fused_moe_quant(op, x, w1, w2, topk_weights, topk_ids, quant, w1_scale, w2_scale, activation):
    """fused_moe's quantized forms (moe_quant.hpp): x quantized, sorted, then the two stages."""
    if quant not in _MOE_QUANT:
        raise ValueError(f"hipasm.ops.{op}: quant {quant!r}, expected None, 'fp8_block', 'int8' or 'mxfp4'")
    kind, target = _MOE_QUANT[quant], _target()
    if target not in ("gfx942", "gfx950"):  # moe_quant.hpp's targets (fp8: fnuz on gfx942, OCP e4m3fn on gfx950)
        raise ValueError(f"hipasm.ops.{op}: quant={quant!r} runs on gfx942 and gfx950 devices (moe_quant.hpp), "
                         f"this one is {target}")
    x = _check_bf16("x", x)
    (w1, k1), (w2, k2) = _q8(op, "w1", w1), _q8(op, "w2", w2)
    for name, k in (("w1", k1), ("w2", k2)):
        if k != kind:
            raise TypeError(f"hipasm.ops.{op}: quant={quant!r} takes {'int8' if kind == 'i8' else 'fp8'} {name}, "
                            f"got {'int8' if k == 'i8' else 'fp8'}")
    if w1_scale is None or w2_scale is None:
        raise ValueError(f"hipasm.ops.{op}: quant={quant!r} needs w1_scale and w2_scale")
    w1_scale = _check_dtype(op, "w1_scale", w1_scale, "float32")
    w2_scale = _check_dtype(op, "w2_scale", w2_scale, "float32")
    tokens, dim, experts, inter = _moe_shapes(op, x, w1, w2)
    if dim % 128 or inter % 128 or inter == 0:
        raise ValueError(f"hipasm.ops.{op}: dim = {dim} and inter = {inter} must be positive multiples of 128 "
                         f"(whole 1x128 scale blocks)")
    if kind == "fp8":
        s1_shape, s2_shape = (experts, 2 * inter // 128, dim // 128), (experts, dim // 128, inter // 128)
    else:
        s1_shape, s2_shape = (experts, 2 * inter), (experts, dim)
    if tuple(w1_scale.shape) != s1_shape:
        _shape_error(op, "w1_scale", w1_scale, str(s1_shape))
    if tuple(w2_scale.shape) != s2_shape:
        _shape_error(op, "w2_scale", w2_scale, str(s2_shape))
    topk_weights, topk_ids = _moe_routing(op, tokens, experts, topk_weights, topk_ids)
    if kind == "fp8":  # 1x128 blocks, scales [dim / 128][tokens] (moe_quant.hpp's xs)
        qk, (_, waves) = _find("dynamic_quant_block", lambda c: c[0] == dim,
                               lambda: _cfg.dynamic_quant("fp8", dim, op, arg="x's last dimension (dim)", block=128),
                               f"fp8 1x128 d={dim}")
        xq, xs = _zeros(x, (tokens, dim), "uint8"), _zeros(x, (dim // 128, tokens), "float32")
        if tokens:
            qk(tokens, 64 * waves, xq, xs, x, tokens)
    else:
        xq, xs = dynamic_quant(x, "int8")
    s1, c1 = _find("moe_quant_stage1", lambda c: c[0] == kind and (c[3] or "silu") == activation,
                   lambda: _cfg.moe_quant(kind, target, activation), f"{quant} ({activation})")
    s2, c2 = _find("moe_quant_stage2", lambda c: c[0] == kind, lambda: _cfg.moe_quant(kind, target), quant)
    (sorted_ids, sorted_weights, sorted_experts, num_valid), out = _moe_begin(op, x, topk_ids, topk_weights, experts)
    if tokens == 0:
        return out
    max_blocks = sorted_experts.shape[0]
    # the re-quantized intermediate at the sorted rows: hq [rows][inter], hs [inter / 128][rows]
    hq = _zeros(x, (max_blocks * MOE_BLOCK_M, inter), "uint8")
    hs = _zeros(x, (inter // 128, max_blocks * MOE_BLOCK_M), "float32")
    gx, gy = _moe_grid(c1[1], c1[2], inter, max_blocks)
    s1((gx, gy), 64 * c1[1], hq, hs, out, xq, xs, w1, w1_scale, sorted_ids, sorted_experts, num_valid, tokens, dim,
       inter, gy, max_blocks)
    gx, gy = _moe_grid(c2[1], c2[2], dim, max_blocks)
    s2((gx, gy), 64 * c2[1], out, hq, hs, w2, w2_scale, sorted_ids, sorted_weights, sorted_experts, num_valid, tokens,
       dim, inter, gy, max_blocks)
    return out


MOE_BLOCK_M = 32  # moe_block_m (moe.hpp): rows of a sorted block


def _moe_sort(op, experts_from, topk_ids, topk_weights, experts):
    """The moe_sorting launch (checked int32 topk_ids, float32 topk_weights [tokens, topk])."""
    sorts = [(k, c) for k, c in _kernels("moe_sorting") if experts <= c[0]]
    if sorts:
        sort, (_, sort_waves) = min(sorts, key=lambda kc: kc[1][0])  # the smallest that takes them
    else:
        sort, (_, sort_waves) = _find("moe_sorting", lambda c: experts <= c[0],
                                      lambda: _cfg.moe_sorting(experts, op, arg=f"experts ({experts_from})"),
                                      f"experts={experts}")
    tokens, topk = topk_ids.shape
    max_blocks = (tokens * topk + experts * MOE_BLOCK_M - topk + MOE_BLOCK_M - 1) // MOE_BLOCK_M  # moe_max_blocks
    sorted_ids = _zeros(topk_ids, (max_blocks * MOE_BLOCK_M,), "int32")
    sorted_weights = _zeros(topk_ids, (max_blocks * MOE_BLOCK_M,), "float32")
    sorted_experts = _zeros(topk_ids, (max_blocks,), "int32")
    num_valid = _zeros(topk_ids, (2,), "int32")
    if tokens:
        sort(1, 64 * sort_waves, sorted_ids, sorted_weights, sorted_experts, num_valid, topk_ids, topk_weights,
             tokens, topk, experts, None)
    return sorted_ids, sorted_weights, sorted_experts, num_valid


def moe_sorting(topk_ids, topk_weights, experts):
    """The MoE routing sort (aiter's moe_sorting, vLLM's moe_align_block_size with blocks of
    MOE_BLOCK_M = 32 rows): topk_ids [tokens, topk] int32 (int64 is converted), topk_weights
    [tokens, topk] float32, experts the expert count. Returns (sorted_token_ids int32, sorted_weights
    float32, sorted_expert_ids int32, num_valid_ids int32 [2]): per expert in increasing order, its
    (token, slot) pairs in increasing token order, each `token | slot << 24`, padded with `tokens |
    topk << 24` to a multiple of 32 (an expert without tokens gets no block); sorted_weights the
    pairs' weights (0 for padding); sorted_expert_ids the expert of each block; num_valid_ids
    {entries with padding, tokens}. Entries past num_valid_ids[0] are unspecified."""
    op = "moe_sorting"
    topk_weights = _check_dtype(op, "topk_weights", topk_weights, "float32")
    topk_ids = _check_dtype(op, "topk_ids", topk_ids, "int32", convert_from=("int64",))
    if len(topk_ids.shape) != 2 or not 1 <= topk_ids.shape[1] <= min(experts, 255):
        _shape_error(op, "topk_ids", topk_ids, f"[tokens, topk], topk 1 .. {min(experts, 255)}")
    if tuple(topk_weights.shape) != tuple(topk_ids.shape):
        _shape_error(op, "topk_weights", topk_weights, f"{tuple(topk_ids.shape)} (topk_ids')")
    if topk_ids.shape[0] >= 1 << 24:
        raise ValueError(f"hipasm.ops.{op}: tokens = {topk_ids.shape[0]} must be below 2^24 (24-bit token ids)")
    return _moe_sort(op, "experts", topk_ids, topk_weights, int(experts))


def _rows_of(x):
    return _prod(x.shape[:-1])


def layernorm(x, weight, bias, eps=1e-5):
    """(x - mean(x)) / sqrt(var(x) + eps) * weight + bias over the last dimension (biased
    variance, f32 math, bf16 out; torch.nn.functional.layer_norm)."""
    x, weight, bias = _check_bf16("x", x), _check_bf16("weight", weight), _check_bf16("bias", bias)
    hidden = x.shape[-1]
    for name, t in (("weight", weight), ("bias", bias)):
        if tuple(t.shape) != (hidden,):
            _shape_error("layernorm", name, t, f"({hidden},)")
    k, (_, waves) = _find("layernorm", lambda c: c[0] == hidden,
                          lambda: _cfg.norm("layernorm", hidden, arg="x's last dimension (hidden)"), f"hidden={hidden}")
    out = _empty(x, tuple(x.shape))
    if _rows_of(x):
        k(_rows_of(x), 64 * waves, out, None, x, None, weight, bias, float(eps))
    return out


def softmax(x):
    """Softmax over the last dimension (f32 math; torch.softmax(x, -1)) of a bf16 or float32
    array; the result has x's type."""
    torch_f32 = _is_torch(x) and str(x.dtype) == "torch.float32"
    if torch_f32 or (not _is_torch(x) and str(getattr(x, "dtype", "")) == "float32"):
        kind, x = "f32", (x.contiguous() if _is_torch(x) else _np().ascontiguousarray(x))
    elif str(getattr(x, "dtype", "")) in ("torch.bfloat16", "uint16"):
        kind, x = "bf16", _check_bf16("x", x)
    else:
        raise TypeError(f"hipasm.ops.softmax: x must be bf16 (torch.bfloat16, numpy uint16 bits) or float32, got "
                        f"{type(x).__name__} {getattr(x, 'dtype', '')}")
    cols = x.shape[-1]
    k, (_, _, waves) = _find("softmax", lambda c: c[:2] == (kind, cols),
                             lambda: _cfg.softmax(kind, cols, arg="x's last dimension (cols)"), f"{kind} cols={cols}")
    out = _empty(x, tuple(x.shape))
    if _rows_of(x):
        k(_rows_of(x), 64 * waves, out, x)
    return out


def topk_softmax(logits, topk, renormalize=False):
    """MoE routing (vLLM's / aiter's topk_softmax): softmax over each token's expert logits
    [tokens, experts] float32, then the topk largest: (weights [tokens, topk] float32,
    indices [tokens, topk] int32), in decreasing order, the lower expert first on ties;
    renormalize divides the weights by their sum."""
    op = "topk_softmax"
    logits = _check_dtype(op, "logits", logits, "float32")
    topk = _cfg._int(op, "topk", topk)
    if len(logits.shape) != 2:
        _shape_error(op, "logits", logits, "[tokens, experts]")
    tokens, experts = logits.shape
    k, (_, _, waves, lanes) = _find(op, lambda c: c[:2] == (experts, topk), lambda: _cfg.topk_softmax(experts, topk),
                                    f"experts={experts} topk={topk}")
    weights, indices = _zeros(logits, (tokens, topk), "float32"), _zeros(logits, (tokens, topk), "int32")
    per = waves * (64 // lanes)  # topk_tokens_per_group
    if tokens:
        k((tokens + per - 1) // per, 64 * waves, weights, indices, logits, tokens, int(bool(renormalize)))
    return weights, indices


_QUANT = {"fp8": ("fp8", "uint8"), "int8": ("i8", "int8")}


def dynamic_quant(x, dtype="fp8"):
    """Per-token dynamic quantization of bf16 rows (vLLM's dynamic_per_token_scaled_fp8_quant,
    aiter's per-token quant): scale[t] = max(max_i |x[t, i]| / qmax, 1 / (512 qmax)), q[t, i] =
    x[t, i] / scale[t] rounded to nearest even and saturated. "fp8" is the device's e4m3 (q holds
    its bits as uint8): e4m3fnuz on gfx942 (qmax 240), OCP e4m3fn on gfx950 (qmax 448); "int8":
    qmax 127, q int8. Returns (q [..., d], scale [...] float32), the operands of gemm_a8w8."""
    op = "dynamic_quant"
    if dtype not in _QUANT:
        raise ValueError(f"hipasm.ops.{op}: dtype {dtype!r}, expected one of {sorted(_QUANT)}")
    x = _check_bf16("x", x)
    kind, qtype = _QUANT[dtype]
    d = x.shape[-1]
    k, (_, _, waves) = _find(op, lambda c: c[:2] == (kind, d),
                             lambda: _cfg.dynamic_quant(kind, d, arg="x's last dimension (d)"), f"{dtype} d={d}")
    q, scale = _zeros(x, tuple(x.shape), qtype), _zeros(x, tuple(x.shape[:-1]), "float32")
    if _rows_of(x):
        k(_rows_of(x), 64 * waves, q, scale, x, _rows_of(x))
    return q, scale


def _q8(op, name, t):
    """(t contiguous, "fp8" or "i8"): the device's fp8 (its bits as uint8, or torch's float8 type
    of the target's e4m3, viewed as uint8) or int8."""
    fp8 = "float8_e4m3fn" if _target() == "gfx950" else "float8_e4m3fnuz"  # the target's e4m3
    dt = str(getattr(t, "dtype", "")).replace("torch.", "")
    if dt not in ("uint8", fp8, "int8"):
        raise TypeError(f"hipasm.ops.{op}: {name} must be uint8 (the device's fp8 bits), {fp8} (the {_target()} "
                        f"device's fp8) or int8, got {type(t).__name__} {dt}")
    if _is_torch(t):
        import torch
        t = (t.view(torch.uint8) if t.dtype != torch.int8 else t).contiguous()
    else:
        t = _np().ascontiguousarray(t)
    return t, "i8" if dt == "int8" else "fp8"


def gemm_a8w8(a, b, scale_a, scale_b):
    """C = (a @ b.T) * scale_a[:, None] * scale_b[None, :] in bf16 (aiter's gemm_a8w8, per-token
    scales): a [m, k] and b [n, k] both the device's fp8 (e4m3fnuz on gfx942, OCP e4m3fn on
    gfx950: its bits as uint8, or torch.float8_e4m3fnuz / torch.float8_e4m3fn) or both int8;
    scale_a [m], scale_b [n] float32; k a multiple of 4. fp8 accumulates in f32, int8 exactly in
    i32."""
    op = "gemm_a8w8"
    (a, ka), (b, kb) = _q8(op, "a", a), _q8(op, "b", b)
    kinds = [ka, kb]
    if kinds[0] != kinds[1]:
        raise TypeError(f"hipasm.ops.{op}: a and b must both be fp8 or both int8, got {kinds[0]} and {kinds[1]}")
    scale_a = _check_dtype(op, "scale_a", scale_a, "float32")
    scale_b = _check_dtype(op, "scale_b", scale_b, "float32")
    if len(a.shape) != 2 or len(b.shape) != 2 or a.shape[1] != b.shape[1]:
        raise ValueError(f"hipasm.ops.{op}: shapes {tuple(a.shape)} and {tuple(b.shape)}: expected [m, k] and [n, k]")
    (m, kdim), n = a.shape, b.shape[0]
    if tuple(scale_a.shape) != (m,):
        _shape_error(op, "scale_a", scale_a, f"({m},)")
    if tuple(scale_b.shape) != (n,):
        _shape_error(op, "scale_b", scale_b, f"({n},)")
    if kdim % 4:
        raise ValueError(f"hipasm.ops.{op}: k = {kdim} must be a multiple of 4 (the built kernels copy dwords)")
    kern, (_, bm, bn, _, wm, wn) = _find(op, lambda c: c[0] == kinds[0], lambda: _cfg.gemm_a8w8(kinds[0]), kinds[0])
    c = _empty_bf16(a, (m, n))
    if m and n and kdim:
        kern(((n + bn - 1) // bn, (m + bm - 1) // bm), 64 * wm * wn, c, a, b, scale_a, scale_b, m, n, kdim, 1, None)
    elif m and n:
        c[...] = 0
    return c

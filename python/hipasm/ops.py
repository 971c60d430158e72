"""hipasm's kernel library from Python: torch-like functions over the prebuilt code object of
python/kernels/ops.hip (one configuration per kernel; a kernel's name carries its
configuration, which these wrappers read). bf16 data: torch.bfloat16 tensors, or numpy uint16
arrays holding bf16 bits. Results are new arrays of the input's kind.

    y = hipasm.ops.rms_norm(x, weight, eps=1e-6)     x [rows, hidden], weight [hidden]
    h = hipasm.ops.silu_and_mul(x)                   x [tokens, 2d] -> [tokens, d]
    y = hipasm.ops.gemv(a, x)                        a [m, k], x [k] -> y [m]
    y = hipasm.ops.linear(x, weight)                 x [tokens, k], weight [n, k] -> [tokens, n] (gemv or gemm)
    c = hipasm.ops.gemm(a, b)                        a [m, k], b [n, k] -> a @ b.T [m, n]
    q2, k2 = hipasm.ops.rotary(q, k, positions, cos_sin)   NeoX RoPE, q [tokens, heads, head_dim]
"""
import re

from . import _config, _runtime

_SIGNATURES = {
    "rms_norm": "uint16_t* out, uint16_t* residual_out, const uint16_t* in, const uint16_t* residual, "
                "const uint16_t* weight, float eps",
    "silu_and_mul": "uint16_t* out, const uint16_t* in, unsigned tokens",
    "gemv": "uint16_t* y, const uint16_t* a, const uint16_t* x, const uint16_t* bias, unsigned m, unsigned k",
    "gemm": "uint16_t* c, const uint16_t* a, const uint16_t* b, unsigned m, unsigned n, unsigned k",
    "rotary": "uint16_t* q_out, uint16_t* k_out, const uint16_t* q, const uint16_t* k, const int64_t* positions, "
              "const float* cos_sin, unsigned tokens_per_group, unsigned tokens, unsigned cache_rows",
}
_PATTERNS = {
    "rms_norm": re.compile(r"rms_norm_bf16_h(\d+)_w(\d+)$"),
    "silu_and_mul": re.compile(r"silu_and_mul_bf16_d(\d+)_w(\d+)_s(\d+)$"),
    "gemv": re.compile(r"gemv_bf16_r(\d+)_w(\d+)$"),
    "gemm": re.compile(r"gemm_bf16_m(\d+)_n(\d+)_w(\d+)x(\d+)$"),
    "rotary": re.compile(r"rotary_neox_hd(\d+)_rd(\d+)_q(\d+)_k(\d+)_w(\d+)$"),
}
_modules = {}


def _module():
    dev = _runtime.current_device()
    m = _modules.get(id(dev))
    if m is None:
        path = _config.get("ops_code_object")
        if not path:
            raise RuntimeError("hipasm.ops: no ops code object (build the target hipasm_python, or set "
                               "HIPASM_OPS_CODE_OBJECT)")
        m = _modules[id(dev)] = _runtime.load(path, device=dev)
    return m


def _kernels(op):
    """[(kernel, config ints)] of op in the ops code object."""
    m = _module()
    out = []
    for name in m.kernel_names:
        hit = _PATTERNS[op].match(name)
        if hit:
            out.append((m.kernel(name, _SIGNATURES[op]), tuple(int(g) for g in hit.groups())))
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


def _np():
    import numpy
    return numpy


def _empty(like, shape):
    if _is_torch(like):
        import torch
        return torch.empty(shape, dtype=like.dtype, device=like.device)
    return _np().empty(shape, dtype=like.dtype)


def rms_norm(x, weight, eps=1e-6):
    """x / sqrt(mean(x^2) + eps) * weight over the last dimension (f32 math, bf16 out)."""
    x, weight = _check_bf16("x", x), _check_bf16("weight", weight)
    hidden = x.shape[-1]
    if tuple(weight.shape) != (hidden,):
        raise ValueError(f"hipasm.ops.rms_norm: weight shape {tuple(weight.shape)}, expected ({hidden},)")
    found = [(k, c) for k, c in _kernels("rms_norm") if c[0] == hidden]
    if not found:
        have = sorted(c[0] for _, c in _kernels("rms_norm"))
        raise ValueError(f"hipasm.ops.rms_norm: no kernel for hidden = {hidden} (built: {have}; add a "
                         f"configuration to python/kernels/ops.hip)")
    k, (_, waves) = found[0]
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
    found = [(k, c) for k, c in _kernels("silu_and_mul") if 2 * c[0] == two_d]
    if not found:
        have = sorted(2 * c[0] for _, c in _kernels("silu_and_mul"))
        raise ValueError(f"hipasm.ops.silu_and_mul: no kernel for a last dimension of {two_d} (built: {have})")
    k, (d, waves, steps) = found[0]
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
    (k, (rows, waves)), = _kernels("gemv")[:1]
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
    (k, (bm, bn, wm, wn)), = _kernels("gemm")[:1]
    c = _empty(a, (m, n))
    k(((n + bn - 1) // bn, (m + bm - 1) // bm), 64 * wm * wn, c, a, b, m, n, kdim)
    return c


def rotary(q, k, positions, cos_sin):
    """NeoX rotary embedding (vLLM's rotary_embedding, out of place): q [tokens, heads_q,
    head_dim] and k [tokens, heads_k, head_dim] bf16, positions [tokens] int64, cos_sin
    [rows, rot_dim] float32 (cos in the first half of a row, sin in the second). Returns the
    rotated (q, k); dims past rot_dim are copied."""
    q, k = _check_bf16("q", q), _check_bf16("k", k)
    tokens = q.shape[0]
    found = [(kern, c) for kern, c in _kernels("rotary")
             if tuple(q.shape[1:]) == (c[2], c[0]) and tuple(k.shape[1:]) == (c[3], c[0])]
    if not found:
        have = [f"q [{c[2]}, {c[0]}], k [{c[3]}, {c[0]}]" for _, c in _kernels("rotary")]
        raise ValueError(f"hipasm.ops.rotary: no kernel for q {tuple(q.shape)} and k {tuple(k.shape)} (built, "
                         f"per token: {'; '.join(have)})")
    kern, (head_dim, rot_dim, _, _, waves) = found[0]
    if tuple(positions.shape) != (tokens,) or tuple(k.shape[:1]) != (tokens,):
        raise ValueError(f"hipasm.ops.rotary: positions {tuple(positions.shape)} and k {tuple(k.shape)} must have "
                         f"{tokens} tokens")
    if len(cos_sin.shape) != 2 or cos_sin.shape[1] != rot_dim:
        raise ValueError(f"hipasm.ops.rotary: cos_sin shape {tuple(cos_sin.shape)}, expected [rows, {rot_dim}]")
    q_out, k_out = _empty(q, tuple(q.shape)), _empty(k, tuple(k.shape))
    one_round = 304 * 8  # rotary_tokens_per_group: one token a workgroup while the grid fits the GPU
    per = 1 if tokens <= one_round else (tokens + one_round - 1) // one_round
    if tokens:
        kern((tokens + per - 1) // per, 64 * waves, q_out, k_out, q, k, positions, cos_sin, per, tokens,
             cos_sin.shape[0])
    return q_out, k_out

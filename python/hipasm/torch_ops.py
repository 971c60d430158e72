"""hipasm.ops as torch operators: torch.ops.hipasm.<name>, registered with torch.library for CPU
tensors (hipasm-sim), GPU tensors (the HIP device; ROCm's torch dispatches them under the CUDA
key) and the Meta key (shapes only: torch.compile's fake tensors, meta tensors).

Importing this module registers them (once); `import hipasm` imports it when torch is already
imported. Without torch it raises ImportError and the rest of hipasm works as before.

The ops vLLM has take vLLM's signatures (csrc/torch_bindings.cpp, csrc/moe/torch_bindings.cpp)
and write into their `Tensor!` arguments, so an engine can route to hipasm by name:

    rms_norm(Tensor! result, Tensor input, Tensor weight, float epsilon) -> ()
    fused_add_rms_norm(Tensor! input, Tensor! residual, Tensor weight, float epsilon) -> ()
    silu_and_mul(Tensor! result, Tensor input) -> ()
    rotary_embedding(Tensor positions, Tensor! query, Tensor!? key, int head_size, Tensor cos_sin_cache,
                     bool is_neox) -> ()
    topk_softmax(Tensor! topk_weights, Tensor! topk_indices, Tensor! token_expert_indices,
                 Tensor gating_output) -> ()
    moe_align_block_size(Tensor topk_ids, int num_experts, int block_size, Tensor! sorted_token_ids,
                         Tensor! experts_ids, Tensor! num_tokens_post_pad) -> ()
    (and the later vLLM's topk_softmax(..., bool renormalize), moe_align_block_size(...,
    Tensor? maybe_expert_map) as overloads: torch picks one by the arguments)
    paged_attention_v1(Tensor! out, Tensor query, Tensor key_cache, Tensor value_cache, int num_kv_heads,
                       float scale, Tensor block_tables, Tensor seq_lens, int block_size, int max_seq_len,
                       Tensor? alibi_slopes, str kv_cache_dtype, Tensor k_scale, Tensor v_scale, int tp_rank,
                       int blocksparse_local_blocks, int blocksparse_vert_stride, int blocksparse_block_size,
                       int blocksparse_head_sliding_step) -> ()

The others are hipasm.ops' functions, functional (they return new tensors): gemm, gemv, linear,
layernorm, softmax, dynamic_quant, gemm_a8w8, paged_attention_decode, flash_attn_fwd,
flash_attn_bwd, fused_moe.
flash_attn(q, k, v, causal, softmax_scale): attention as a torch.autograd.Function (FlashAttention).
docs/python.md lists the schemas and what each vLLM-named op takes of vLLM's arguments."""
try:
    import torch
except ImportError as e:
    raise ImportError(f"hipasm.torch_ops needs torch (Debian: python3-torch): {e}") from None

from . import ops

NAMESPACE = "hipasm"


def _rms_norm(result, input, weight, epsilon):
    result.copy_(ops.rms_norm(input, weight, epsilon))


def _fused_add_rms_norm(input, residual, weight, epsilon):
    # vLLM's fused_add_rms_norm_kernel (csrc/layernorm_kernels.cu): z = input + residual in the
    # tensors' type (bf16 rounding), residual = z, input = rms_norm(z): the same two steps.
    residual.add_(input)
    input.copy_(ops.rms_norm(residual, weight, epsilon))


def _silu_and_mul(result, input):
    result.copy_(ops.silu_and_mul(input))


def _rotary_embedding(positions, query, key, head_size, cos_sin_cache, is_neox):
    if not is_neox:
        raise ValueError("torch.ops.hipasm.rotary_embedding: is_neox must be True (the kernels built are NeoX "
                         "style)")
    if key is None:
        raise ValueError("torch.ops.hipasm.rotary_embedding: key is None; the kernels built rotate query and key "
                         "together")
    tokens = positions.numel()  # vLLM's positions: [tokens] or [batch, seq_len]
    q = query.reshape(tokens, -1, head_size)
    k = key.reshape(tokens, -1, head_size)
    if cos_sin_cache.dtype != torch.float32:  # the kernels built read an f32 cache
        cos_sin_cache = cos_sin_cache.float()
    q2, k2 = ops.rotary(q, k, positions.reshape(tokens).to(torch.int64), cos_sin_cache)
    query.copy_(q2.reshape(query.shape))
    key.copy_(k2.reshape(key.shape))


def _topk_softmax(topk_weights, topk_indices, token_expert_indices, gating_output, renormalize=False):
    tokens, topk = topk_weights.shape
    w, i = ops.topk_softmax(gating_output.float(), topk, renormalize=renormalize)
    topk_weights.copy_(w)
    topk_indices.copy_(i)
    # vLLM's moeTopK (csrc/moe/topk_softmax_kernels.cu): source_rows[t * k + j] = j * num_rows + t
    rows = torch.arange(tokens, dtype=torch.int64, device=topk_weights.device)
    slots = torch.arange(topk, dtype=torch.int64, device=topk_weights.device)
    token_expert_indices.copy_(slots[None, :] * tokens + rows[:, None])


def _moe_align_block_size(topk_ids, num_experts, block_size, sorted_token_ids, experts_ids, num_tokens_post_pad,
                          maybe_expert_map=None):
    if maybe_expert_map is not None:
        raise ValueError("torch.ops.hipasm.moe_align_block_size: maybe_expert_map must be None (the sorting kernel "
                         "routes every expert id below num_experts)")
    if block_size != ops.MOE_BLOCK_M:
        raise ValueError(f"torch.ops.hipasm.moe_align_block_size: block_size = {block_size}; the sorting kernel "
                         f"makes blocks of {ops.MOE_BLOCK_M}")
    tokens, topk = topk_ids.shape
    weights = torch.zeros(topk_ids.shape, dtype=torch.float32, device=topk_ids.device)
    ids, _, experts, valid = ops.moe_sorting(topk_ids, weights, num_experts)
    n = int(valid[0])
    if n > sorted_token_ids.numel() or n // block_size > experts_ids.numel():
        raise ValueError(f"torch.ops.hipasm.moe_align_block_size: sorted_token_ids ({sorted_token_ids.numel()}) "
                         f"or experts_ids ({experts_ids.numel()}) is too small for {n} sorted entries")
    # hipasm's entries are `token | slot << 24` (aiter's moe_sorting), padded with `tokens | topk << 24`;
    # vLLM's are the flat index token * topk + slot into topk_ids, padded with topk_ids.numel().
    ids = ids[:n].to(torch.int64)
    token, slot = ids & 0xFFFFFF, ids >> 24
    flat = torch.where(token == tokens, torch.full_like(ids, tokens * topk), token * topk + slot)
    sorted_token_ids.fill_(tokens * topk)
    sorted_token_ids[:n].copy_(flat)
    experts_ids[:n // block_size].copy_(experts[:n // block_size])
    num_tokens_post_pad.reshape(-1)[:1].fill_(n)


def _paged_attention_v1(out, query, key_cache, value_cache, num_kv_heads, scale, block_tables, seq_lens, block_size,
                        max_seq_len, alibi_slopes, kv_cache_dtype, k_scale, v_scale, tp_rank, blocksparse_local_blocks,
                        blocksparse_vert_stride, blocksparse_block_size, blocksparse_head_sliding_step):
    op = "torch.ops.hipasm.paged_attention_v1"
    if alibi_slopes is not None:
        raise ValueError(f"{op}: alibi_slopes must be None (the kernels built have no ALiBi)")
    if kv_cache_dtype != "auto":
        raise ValueError(f"{op}: kv_cache_dtype {kv_cache_dtype!r}; the kernels built read a bf16 cache ('auto')")
    if blocksparse_vert_stride > 1:  # vLLM's kernel: IS_BLOCK_SPARSE = blocksparse_vert_stride > 1
        raise ValueError(f"{op}: blocksparse_vert_stride = {blocksparse_vert_stride}; block-sparse attention is "
                         f"not built")
    nb, kvh, d, bs = value_cache.shape
    if (kvh, bs) != (num_kv_heads, block_size):
        raise ValueError(f"{op}: value_cache {tuple(value_cache.shape)} must be [num_blocks, num_kv_heads = "
                         f"{num_kv_heads}, head_size, block_size = {block_size}]")
    # vLLM's value cache [blocks, kv_heads, head_size, block_size] -> the kernel's [blocks, kv_heads,
    # block_size / 8, head_size, 8] (aiter's layout): a copy of the whole cache each call
    v = value_cache.reshape(nb, kvh, d, bs // 8, 8).permute(0, 1, 3, 2, 4).contiguous()
    out.copy_(ops.paged_attention_decode(query, key_cache, v, block_tables, seq_lens, scale=scale,
                                         max_context=max_seq_len))


def _gemm_a8w8_meta(a, b, scale_a, scale_b):
    return a.new_empty((a.shape[0], b.shape[0]), dtype=torch.bfloat16)


def _dynamic_quant_meta(x, dtype="fp8"):
    return (x.new_empty(x.shape, dtype=torch.uint8 if dtype == "fp8" else torch.int8),
            x.new_empty(x.shape[:-1], dtype=torch.float32))


def _flash_attn_fwd(q, k, v, causal=False, softmax_scale=None, cu_seqlens_q=None, cu_seqlens_k=None,
                    max_seqlen_q=None):
    return ops.flash_attn_fwd(q, k, v, causal=causal, softmax_scale=softmax_scale, cu_seqlens_q=cu_seqlens_q,
                              cu_seqlens_k=cu_seqlens_k, max_seqlen_q=max_seqlen_q, return_lse=True)


def _flash_attn_fwd_meta(q, k, v, causal=False, softmax_scale=None, cu_seqlens_q=None, cu_seqlens_k=None,
                         max_seqlen_q=None):
    if cu_seqlens_q is None:
        lse = (q.shape[0], q.shape[2], q.shape[1])  # [batch, num_heads, seqlen_q]
    else:
        lse = (q.shape[1], q.shape[0])  # [num_heads, total_q]
    return q.new_empty(q.shape), q.new_empty(lse, dtype=torch.float32)


def _flash_attn_bwd(do, q, k, v, o, lse, causal=False, softmax_scale=None, cu_seqlens_q=None, cu_seqlens_k=None,
                    max_seqlen_q=None, max_seqlen_k=None, dq_accum="f32"):
    return ops.flash_attn_bwd(do, q, k, v, o, lse, causal=causal, softmax_scale=softmax_scale,
                              cu_seqlens_q=cu_seqlens_q, cu_seqlens_k=cu_seqlens_k, max_seqlen_q=max_seqlen_q,
                              max_seqlen_k=max_seqlen_k, dq_accum=dq_accum)


def _flash_attn_bwd_meta(do, q, k, v, *args, **kwargs):
    return q.new_empty(q.shape), k.new_empty(k.shape), v.new_empty(v.shape)


def _none(*args):
    return None


# name: (schema, implementation, meta). A meta None: the op returns () (shapes need nothing).
OPS = {
    "rms_norm": ("rms_norm(Tensor! result, Tensor input, Tensor weight, float epsilon) -> ()", _rms_norm, _none),
    "fused_add_rms_norm": ("fused_add_rms_norm(Tensor! input, Tensor! residual, Tensor weight, float epsilon) -> ()",
                           _fused_add_rms_norm, _none),
    "silu_and_mul": ("silu_and_mul(Tensor! result, Tensor input) -> ()", _silu_and_mul, _none),
    "rotary_embedding": ("rotary_embedding(Tensor positions, Tensor! query, Tensor!? key, int head_size, "
                         "Tensor cos_sin_cache, bool is_neox) -> ()", _rotary_embedding, _none),
    "topk_softmax": ("topk_softmax(Tensor! topk_weights, Tensor! topk_indices, Tensor! token_expert_indices, "
                     "Tensor gating_output) -> ()", _topk_softmax, _none),
    # vLLM's later schemas of the two (csrc/moe/torch_bindings.cpp): overloads, picked by the arguments
    "topk_softmax.renormalize": ("topk_softmax.renormalize(Tensor! topk_weights, Tensor! topk_indices, "
                                 "Tensor! token_expert_indices, Tensor gating_output, bool renormalize) -> ()",
                                 _topk_softmax, _none),
    "moe_align_block_size.expert_map": ("moe_align_block_size.expert_map(Tensor topk_ids, int num_experts, "
                                        "int block_size, Tensor! sorted_token_ids, Tensor! experts_ids, "
                                        "Tensor! num_tokens_post_pad, Tensor? maybe_expert_map) -> ()",
                                        _moe_align_block_size, _none),
    "moe_align_block_size": ("moe_align_block_size(Tensor topk_ids, int num_experts, int block_size, "
                             "Tensor! sorted_token_ids, Tensor! experts_ids, Tensor! num_tokens_post_pad) -> ()",
                             _moe_align_block_size, _none),
    "paged_attention_v1": ("paged_attention_v1(Tensor! out, Tensor query, Tensor key_cache, Tensor value_cache, "
                           "int num_kv_heads, float scale, Tensor block_tables, Tensor seq_lens, int block_size, "
                           "int max_seq_len, Tensor? alibi_slopes, str kv_cache_dtype, Tensor k_scale, "
                           "Tensor v_scale, int tp_rank, int blocksparse_local_blocks, int blocksparse_vert_stride, "
                           "int blocksparse_block_size, int blocksparse_head_sliding_step) -> ()",
                           _paged_attention_v1, _none),
    "gemm": ("gemm(Tensor a, Tensor b) -> Tensor", ops.gemm,
             lambda a, b: a.new_empty((a.shape[0], b.shape[0]))),
    "gemv": ("gemv(Tensor a, Tensor x) -> Tensor", ops.gemv, lambda a, x: a.new_empty((a.shape[0],))),
    "linear": ("linear(Tensor x, Tensor weight) -> Tensor", ops.linear,
               lambda x, w: x.new_empty(tuple(x.shape[:-1]) + (w.shape[0],))),
    "layernorm": ("layernorm(Tensor x, Tensor weight, Tensor bias, float eps=1e-05) -> Tensor", ops.layernorm,
                  lambda x, w, b, eps=1e-5: x.new_empty(x.shape)),
    "softmax": ("softmax(Tensor x) -> Tensor", ops.softmax, lambda x: x.new_empty(x.shape)),
    "dynamic_quant": ("dynamic_quant(Tensor x, str dtype=\"fp8\") -> (Tensor, Tensor)", ops.dynamic_quant,
                      _dynamic_quant_meta),
    "gemm_a8w8": ("gemm_a8w8(Tensor a, Tensor b, Tensor scale_a, Tensor scale_b) -> Tensor", ops.gemm_a8w8,
                  _gemm_a8w8_meta),
    "paged_attention_decode": ("paged_attention_decode(Tensor q, Tensor k_cache, Tensor v_cache, Tensor block_tables, "
                               "Tensor context_lens, float? scale=None, int? max_context=None, "
                               "int? partition_blocks=None) -> Tensor", ops.paged_attention_decode,
                               lambda q, *a, **kw: q.new_empty(q.shape)),
    "flash_attn_fwd": ("flash_attn_fwd(Tensor q, Tensor k, Tensor v, bool causal=False, float? softmax_scale=None, "
                       "Tensor? cu_seqlens_q=None, Tensor? cu_seqlens_k=None, int? max_seqlen_q=None) "
                       "-> (Tensor, Tensor)", _flash_attn_fwd, _flash_attn_fwd_meta),
    "flash_attn_bwd": ("flash_attn_bwd(Tensor do, Tensor q, Tensor k, Tensor v, Tensor o, Tensor lse, "
                       "bool causal=False, float? softmax_scale=None, Tensor? cu_seqlens_q=None, "
                       "Tensor? cu_seqlens_k=None, int? max_seqlen_q=None, int? max_seqlen_k=None, "
                       "str dq_accum=\"f32\") -> (Tensor, Tensor, Tensor)", _flash_attn_bwd, _flash_attn_bwd_meta),
    "fused_moe": ("fused_moe(Tensor x, Tensor w1, Tensor w2, Tensor topk_weights, Tensor topk_ids, "
                  "str activation=\"silu\") -> Tensor",
                  lambda x, w1, w2, topk_weights, topk_ids, activation="silu":
                      ops.fused_moe(x, w1, w2, topk_weights, topk_ids, activation=activation),
                  lambda x, *a, **kw: x.new_empty(x.shape, dtype=torch.float32)),
}


class FlashAttention(torch.autograd.Function):
    """O = softmax(softmax_scale Q K^T) V with its gradient, for autograd: the forward is
    hipasm.ops.flash_attn_fwd (which keeps the LSE), the backward hipasm.ops.flash_attn_bwd (dQ,
    dK, dV; GQA: dK and dV summed over the query heads of a KV head; dQ accumulated in f32, or with
    dq_accum="dtype" by 16-bit atomics into dQ: see hipasm.ops.flash_attn_bwd).
    Dense layout: q [batch, seqlen_q, num_heads, head_dim], k and v [batch, seqlen_k,
    num_kv_heads, head_dim]; causal masks bottom-right."""

    @staticmethod
    def forward(ctx, q, k, v, causal=False, softmax_scale=None, dq_accum="f32"):
        o, lse = ops.flash_attn_fwd(q, k, v, causal=causal, softmax_scale=softmax_scale, return_lse=True)
        ctx.save_for_backward(q, k, v, o, lse)
        ctx.causal = bool(causal)
        ctx.scale = float(softmax_scale) if softmax_scale is not None else q.shape[-1] ** -0.5
        ctx.dq_accum = dq_accum
        return o

    @staticmethod
    def backward(ctx, do):
        q, k, v, o, lse = ctx.saved_tensors
        dq, dk, dv = ops.flash_attn_bwd(do.to(q.dtype), q, k, v, o, lse, causal=ctx.causal, softmax_scale=ctx.scale,
                                        dq_accum=ctx.dq_accum)
        return dq, dk, dv, None, None, None


def flash_attn(q, k, v, causal=False, softmax_scale=None, dq_accum="f32"):
    """Attention with autograd (FlashAttention): o = flash_attn(q, k, v, causal); o.backward(do)
    fills q.grad, k.grad and v.grad. bf16 or f16 tensors (all of one), dense layout (see FlashAttention).
    dq_accum: hipasm.ops.flash_attn_bwd's ("f32", or "dtype": AMD's a16, faster and less precise)."""
    if dq_accum not in ("f32", "dtype"):
        raise ValueError(f"hipasm.torch_ops.flash_attn: dq_accum must be \"f32\" or \"dtype\", got {dq_accum!r}")
    return FlashAttention.apply(q, k, v, causal, softmax_scale, dq_accum)


def _below_autograd(op):
    """A kernel for AutogradMeta that runs op below autograd: torch 1.x has no fallthrough for
    meta tensors' autograd key (a Python-registered op on meta tensors fails without it)."""
    def run(*args, **kwargs):
        guard = torch._C._AutoDispatchBelowAutograd()
        try:
            return op(*args, **kwargs)
        finally:
            del guard
    return run


def _register():
    lib = torch.library.Library(NAMESPACE, "DEF")  # kept alive below: its destructor deregisters
    for schema, _, _ in OPS.values():
        lib.define(schema)
    # (after every define: torch.ops.hipasm.<name> resolves its overloads when first looked up)
    for name, (schema, impl, meta) in OPS.items():
        lib.impl(name, impl, "CPU")
        lib.impl(name, impl, "CUDA")
        lib.impl(name, meta, "Meta")
        base, _, overload = name.partition(".")
        op = getattr(getattr(getattr(torch.ops, NAMESPACE), base), overload or "default")
        lib.impl(name, _below_autograd(op), "AutogradMeta")
    return lib


_library = _register()

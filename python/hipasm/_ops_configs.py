"""hipasm.ops' kernel configurations: the rules that choose a library kernel's compile-time
configuration for a shape and a target, and the .hip source instantiating it. One definition
for both kinds of code object: python/CMakeLists.txt runs this file at configure time to write
the prebuilt sources (prebuilt(): the shapes built with the package), and hipasm.ops writes a
source with the same rule for a shape none of those takes and builds it with hipasm.build on
first use (hipasm.prebuild ahead of time).

A kernel's name carries its configuration (ops.py's _PATTERNS read the launch geometry from it).
The checks mirror the kernel headers' static_asserts (cited at each rule), so a size a kernel
cannot take is a ValueError naming the argument before any compile.

Standalone (the standard library only): `python3 _ops_configs.py OUT_DIR [--target gfx942]`
writes the prebuilt sources OUT_DIR/<group>.hip, each only when its text changed."""
import operator
import os
import sys
from typing import NamedTuple


class Kernel(NamedTuple):
    name: str     # the kernel's symbol, carrying its configuration
    macro: str    # the kernel header's HIPASM_..._KERNEL(NAME, CFG)
    header: str   # hipasm/kernels/<x>.hpp
    ctype: str    # the configuration's type (in hipasm::kernels)
    fields: str   # its designated initializers (None: a macro of the name alone, no configuration)


def _err(op, msg):
    return ValueError(f"hipasm.ops.{op}: {msg}")


def _int(op, arg, v):
    """v as an int (numpy's integers too)."""
    try:
        if not isinstance(v, bool):
            return operator.index(v)
    except TypeError:
        pass
    raise TypeError(f"hipasm.ops.{op}: {arg} must be an int, got {type(v).__name__}")


# The targets' compute units (MI300X: 304, MI355X: 256): the MoE GEMMs' grid bound is 4
# workgroups a CU (the prebuilt 1216 on gfx942).
CUS = {"gfx942": 304, "gfx950": 256}


def _pow2_floor(n):
    return 1 << (max(1, n).bit_length() - 1)


def _pow2_ceil(n):
    return 1 << (max(1, n) - 1).bit_length()


def _row_waves(n, per_wave_step):
    """Waves of a one-row-a-workgroup kernel, a power of two: a wave per 512 elements up to 4
    (the prebuilt rows' 256: 1, 1024: 2, 4096: 4), more only where the row needs them to fit
    the kernels' 8 register steps of per_wave_step elements a wave (norm.hpp, dynamic_quant.hpp)."""
    return max(_pow2_floor(min(4, n // 512)), _pow2_ceil(-(-n // (8 * per_wave_step))))


def norm(kind, hidden, op=None, arg="hidden"):
    """rms_norm / layernorm over rows of `hidden` bf16 (norm.hpp: even, steps of 8 * 64 * waves
    elements, at most 8 of them, 1..16 waves: hidden <= 65536)."""
    op = op or kind
    hidden = _int(op, arg, hidden)
    if hidden < 2 or hidden % 2 or hidden > 8 * 512 * 16:
        raise _err(op, f"{arg} = {hidden} must be even, 2 .. 65536 (a row in a workgroup's registers)")
    w = _row_waves(hidden, 512)
    macro = {"rms_norm": "HIPASM_RMSNORM_KERNEL", "layernorm": "HIPASM_LAYERNORM_KERNEL"}[kind]
    header = {"rms_norm": "rmsnorm.hpp", "layernorm": "layernorm.hpp"}[kind]
    return [Kernel(f"{kind}_bf16_h{hidden}_w{w}", macro, header, "norm_config",
                   f".hidden = {hidden}, .residual = false, .waves = {w}")]


def softmax(kind, cols, op="softmax", arg="cols"):
    """Rows of `cols` bf16 or f32 (softmax.hpp: 8 (bf16) or 4 (f32) elements a lane a step, at
    most 8 steps, 1..16 waves; bf16 cols even)."""
    cols = _int(op, arg, cols)
    lane = 8 if kind == "bf16" else 4
    top = 8 * 64 * lane * 16
    if cols < 1 or cols > top or (kind == "bf16" and cols % 2):
        raise _err(op, f"{arg} = {cols} must be {'even, 2' if kind == 'bf16' else '1'} .. {top} for {kind} rows "
                       f"(a row in a workgroup's registers)")
    w = max(1, -(-cols // (8 * 64 * lane)))
    return [Kernel(f"softmax_{kind}_c{cols}_w{w}", "HIPASM_SOFTMAX_KERNEL", "softmax.hpp", "softmax_config",
                   f".cols = {cols}, .bf16 = {'true' if kind == 'bf16' else 'false'}, .waves = {w}")]


def silu_and_mul(d, op="silu_and_mul", arg="d"):
    """out [tokens, d] of in [tokens, 2d] (act_and_mul.hpp: d even); 4 waves of 2 steps (the
    element count is flat: tokens * d over the grid)."""
    d = _int(op, arg, d)
    if d < 2 or d % 2 or d >= 1 << 24:
        raise _err(op, f"{arg} = {d} must be even, 2 .. 2^24")
    return [Kernel(f"silu_and_mul_bf16_d{d}_w4_s2", "HIPASM_ACT_AND_MUL_KERNEL", "act_and_mul.hpp",
                   "act_and_mul_config", f".d = {d}, .act = activation::silu, .waves = 4, .steps = 2")]


def topk_softmax(experts, topk, op="topk_softmax"):
    """Routing over `experts` logits (topk_softmax.hpp: experts 1..512, topk 1..min(experts, 32),
    at most 32 experts a lane). Lanes a token: topk rounded up to a power of two (the prebuilt
    8 top-2: 2, 64 and 128 top-8: 8), doubled while a lane would hold more than 32 experts;
    4 waves above 64 experts, else 1 (the prebuilt ones')."""
    experts, topk = _int(op, "experts", experts), _int(op, "topk", topk)
    if not 1 <= experts <= 512:
        raise _err(op, f"experts = {experts} (logits' last dimension) must be 1 .. 512")
    if not 1 <= topk <= min(experts, 32):
        raise _err(op, f"topk = {topk} must be 1 .. {min(experts, 32)}")
    chunk = 4 if experts % 4 == 0 else 2 if experts % 2 == 0 else 1
    lanes = _pow2_ceil(topk)
    while lanes < 32 and -(-experts // (chunk * lanes)) * chunk > 32:
        lanes *= 2
    w = 4 if experts > 64 else 1
    return [Kernel(f"topk_softmax_e{experts}_k{topk}_w{w}_l{lanes}", "HIPASM_TOPK_SOFTMAX_KERNEL", "topk_softmax.hpp",
                   "topk_softmax_config", f".experts = {experts}, .topk = {topk}, .waves = {w}, .lanes = {lanes}")]


def dynamic_quant(kind, d, op="dynamic_quant", arg="d", block=0):
    """Per-token quantization of bf16 rows of d (dynamic_quant.hpp: d a multiple of 4, 8
    elements a lane a step, at most 8 steps, 1..16 waves); block 128: fp8 per 1x128 block
    (DeepSeek's activation scales, [d / 128][tokens]; d a multiple of 128)."""
    d = _int(op, arg, d)
    unit = block or 4
    if d < unit or d % unit or d > 8 * 512 * 16:
        why = "whole 1x128 scale blocks" if block else "a row in a workgroup's registers"
        raise _err(op, f"{arg} = {d} must be a multiple of {unit}, {unit} .. 65536 ({why})")
    w = _row_waves(d, 512)
    return [Kernel(f"dynamic_quant_{kind}_d{d}_w{w}" + (f"_b{block}" if block else ""), "HIPASM_DYNAMIC_QUANT_KERNEL",
                   "dynamic_quant.hpp", "dynamic_quant_config",
                   f".d = {d}, .type = quant_type::{kind}, .waves = {w}" + (f", .block = {block}" if block else ""))]


def _rotary_lanes(rot_dim):
    half = rot_dim // 2
    pairs = 8 if half % 8 == 0 else 4 if half % 4 == 0 else 2  # rotary_lane_pairs
    return pairs, rot_dim // (2 * pairs)  # pairs a lane, lanes a head


def rotary(head_dim, rot_dim, heads_q, heads_k, op="rotary"):
    """NeoX rotary, f32 cos/sin cache, heads per token fixed (rotary.hpp: head_dim a multiple of
    8 up to 1024, rot_dim a multiple of 4 up to head_dim, a lane's steps over the q and k heads
    at most 64 pairs). Waves: enough for the token's heads in one step, at most 4 (the
    prebuilt q 4, k 2 of 64 dims: 1), more while the steps would not fit."""
    for arg, v in (("head_dim", head_dim), ("rot_dim", rot_dim), ("heads_q", heads_q), ("heads_k", heads_k)):
        _int(op, arg, v)
    if head_dim < 8 or head_dim % 8 or head_dim > 1024:
        raise _err(op, f"head_dim = {head_dim} (q's last dimension) must be a multiple of 8, 8 .. 1024")
    if rot_dim < 4 or rot_dim % 4 or rot_dim > head_dim:
        raise _err(op, f"rot_dim = {rot_dim} (cos_sin's last dimension) must be a multiple of 4, 4 .. head_dim = "
                       f"{head_dim}")
    if heads_q < 1 or heads_k < 0:
        raise _err(op, f"heads: q {heads_q} must be >= 1, k {heads_k} >= 0")
    pairs, per_head = _rotary_lanes(rot_dim)
    w = _pow2_ceil(min(4, -(-(heads_q + heads_k) * per_head // 64)))

    def fits(w):
        step = 64 * w // per_head  # rotary_heads_per_step
        steps = -(-heads_q // step) + -(-heads_k // step)
        rc = head_dim - rot_dim  # the unrotated dims' lanes (Uc) fit the workgroup
        uc = rc // (8 if rc % 8 == 0 else 4 if rc % 4 == 0 else 2) if rc else 1
        return per_head <= 64 * w and steps * pairs <= 64 and uc <= 64 * w

    while not fits(w):
        if w == 16:
            raise _err(op, f"q {heads_q} and k {heads_k} heads of {head_dim} dims (rot_dim {rot_dim}) are more than a "
                           f"workgroup of 16 waves takes a token (split the heads)")
        w *= 2
    return [Kernel(f"rotary_neox_hd{head_dim}_rd{rot_dim}_q{heads_q}_k{heads_k}_w{w}", "HIPASM_ROTARY_KERNEL",
                   "rotary.hpp", "rotary_config",
                   f".head_dim = {head_dim}, .rot_dim = {rot_dim}, .heads_q = {heads_q}, .heads_k = {heads_k}, "
                   f".neox = true, .cache_f32 = true, .waves = {w}")]


def paged_attn(head_dim, block_size, gqa, op="paged_attention_decode"):
    """bf16 cache (paged_attn_decode.hpp: head_dim 32..256 a multiple of 32, block_size a
    multiple of 16 up to 256, gqa 1..16; waves 1, 2, 4 or 8 dividing head_dim / 16). Waves: 1 up
    to 64 dims, else the most of 4, 2, 1 dividing head_dim / 16 (the prebuilt 64: 1, 128: 4)
    whose combination fits the LDS (waves x gqa rows of pa_lds_row_bytes and 8 bytes: 256 dims of
    16 heads take 2 waves). Prefetch 2, else 1, as the VGPRs allow: a block of K and of V takes
    head_dim * block_size / 128 dwords a lane, prefetch + 1 of each in flight, beside q and o's
    3 head_dim / 8; at most 224 of them fitted the compiles (head_dim 192, block_size 16,
    prefetch 2 and 256, 16, 1 build; 224, 16, 2 and 128, 32, 2 run out of registers)."""
    if head_dim < 32 or head_dim % 32 or head_dim > 256:
        raise _err(op, f"head_dim = {head_dim} (q's last dimension) must be a multiple of 32, 32 .. 256")
    if block_size < 16 or block_size % 16 or block_size > 256:
        raise _err(op, f"block_size = {block_size} (k_cache's 4th dimension) must be a multiple of 16, 16 .. 256")
    if not 1 <= gqa <= 16:
        raise _err(op, f"gqa = {gqa} (q's num_heads / num_kv_heads) must be 1 .. 16 (a head a column of an MFMA "
                       f"tile)")
    def lds(w):  # the waves' combination in paged_attn_decode_body
        return w * gqa * (head_dim * 4 + 32 + 8)

    w = 1 if head_dim <= 64 else next(x for x in (4, 2, 1) if (head_dim // 16) % x == 0 and lds(x) <= 65536)
    def vgprs(p):
        return head_dim * block_size * (p + 1) // 64 + 3 * head_dim // 8

    p = next((x for x in (2, 1) if vgprs(x) <= 224), None)
    if p is None:
        raise _err(op, f"head_dim = {head_dim} and block_size = {block_size} (k_cache's 4th dimension): a cache "
                       f"block is too large for the kernel's registers (head_dim * block_size at most "
                       f"{(224 - 3 * head_dim // 8) * 32})")
    return [Kernel(f"paged_attn_bf16_d{head_dim}_b{block_size}_g{gqa}_w{w}_p{p}", "HIPASM_PAGED_ATTN_DECODE_KERNEL",
                   "paged_attn_decode.hpp", "paged_attn_decode_config",
                   f".head_dim = {head_dim}, .block_size = {block_size}, .gqa = {gqa}, .waves = {w}, .prefetch = {p}")]


def causal_code(causal, op):
    """The attention kernels' mask as a name field: 0 none (False), 1 causal aligned bottom-right
    (True or "bottom_right"), 2 aligned top-left ("top_left"); the codes are taken too."""
    if causal is None or (isinstance(causal, int) and causal in (0, 1, 2)):  # (bools, and the codes themselves)
        return int(causal or 0)
    if causal in ("bottom_right", "top_left"):
        return 1 if causal == "bottom_right" else 2
    raise _err(op, f"causal must be False, True (bottom-right), 'bottom_right' or 'top_left', got {causal!r}")


def _mask_fields(c):
    return f".causal = {'true' if c else 'false'}" + (", .top_left = true" if c == 2 else "")


def _dtype_parts(dtype, op):
    """The attention kernels' element type as a name suffix ("" bf16, "_f16") and a config field."""
    if dtype not in ("bf16", "f16"):
        raise _err(op, f"dtype must be 'bf16' or 'f16', got {dtype!r}")
    return ("", "") if dtype == "bf16" else ("_f16", ", .dtype = ::hipasm::kernels::attn_dtype::f16")


def attn_fwd(head_dim, causal, op="flash_attn_fwd", dtype="bf16"):
    """attn_fwd.hpp: head_dim 64 (2 waves, 32-key tiles) or 128 (4 waves, 64-key tiles); causal as
    causal_code takes it; dtype "bf16" or "f16" (name suffix _f16)."""
    if head_dim not in (64, 128):
        raise _err(op, f"head_dim = {head_dim} (q's last dimension) must be 64 or 128")
    w, bn = (2, 32) if head_dim == 64 else (4, 64)
    c = causal_code(causal, op)
    sfx, field = _dtype_parts(dtype, op)
    return [Kernel(f"attn_fwd_d{head_dim}_w{w}_n{bn}_c{c}{sfx}", "HIPASM_ATTN_FWD_KERNEL", "attn_fwd.hpp",
                   "attn_fwd_config", f".head_dim = {head_dim}, {_mask_fields(c)}{field}, .waves = {w}, .bn = {bn}")]


def attn_fwd_fp8(head_dim, causal, op="flash_attn_fwd"):
    """attn_fwd.hpp's fp8 form (gfx950: OCP e4m3fn q, k, v): head_dim 128, 4 waves, 64-key tiles
    (the bench's configuration); causal as causal_code takes it."""
    if head_dim != 128:
        raise _err(op, f"head_dim = {head_dim} (q's last dimension) must be 128 for fp8 q, k, v")
    c = causal_code(causal, op)
    return [Kernel(f"attn_fwd_fp8_d{head_dim}_w4_n64_c{c}", "HIPASM_ATTN_FWD_FP8_KERNEL", "attn_fwd.hpp",
                   "attn_fwd_config", f".head_dim = {head_dim}, {_mask_fields(c)}, .dtype = attn_dtype::fp8, "
                   ".waves = 4, .bn = 64")]


def attn_bwd_dq(target, causal, max_seqlen_k):
    """The dQ mode of attn_bwd that runs faster (attn_bwd_launch.hpp's attn_bwd_dq_for): "recompute"
    (a dQ kernel of its own, no atomics) on gfx950 but for causal sequences up to 1024 keys, else
    "atomic" (f32 atomics into a workspace from the main kernel)."""
    return "recompute" if target == "gfx950" and not (bool(causal) and max_seqlen_k <= 1024) else "atomic"


ATTN_BWD_DQ_SUFFIX = {"atomic": "", "recompute": "_rc", "atomic16": "_a16"}


def attn_bwd_keys_per_wave(head_dim, dq, target):
    """attn_bwd_config::keys_per_wave of the kernels below (the bench's): 48 (the 16x16 MFMA main
    kernel, 192 keys a workgroup) for head_dim 128 with dq "atomic", and "atomic16" but on gfx950
    (where the 32x32 kernel's double-K MFMAs win), else 32 (128 keys a workgroup)."""
    return 48 if head_dim == 128 and (dq == "atomic" or (dq == "atomic16" and target != "gfx950")) else 32


def attn_bwd(head_dim, causal, dq="atomic", op="flash_attn_bwd", dtype="bf16", target="gfx942"):
    """attn_bwd.hpp: head_dim 64 or 128, 4 waves of attn_bwd_keys_per_wave keys; dq "atomic" (three kernels),
    "recompute" (name _rc: four kernels, the dQ one name_rc_dq) or "atomic16" (name _a16: dQ added
    by packed 16-bit atomics into dQ itself); dtype "bf16" or "f16" (name suffix _f16, after the
    mode's)."""
    if head_dim not in (64, 128):
        raise _err(op, f"head_dim = {head_dim} (q's last dimension) must be 64 or 128")
    c = causal_code(causal, op)
    sfx, field = _dtype_parts(dtype, op)
    # (the atomic modes without name_dq, an empty kernel for them)
    macro = "HIPASM_ATTN_BWD_KERNELS" if dq == "recompute" else "HIPASM_ATTN_BWD_MAIN_KERNELS"
    return [Kernel(f"attn_bwd_d{head_dim}_c{c}" + ATTN_BWD_DQ_SUFFIX[dq] + sfx, macro,
                   "attn_bwd.hpp", "attn_bwd_config", f".head_dim = {head_dim}, {_mask_fields(c)}{field}"
                   + (f", .dq = ::hipasm::kernels::attn_bwd_dq::{dq}" if dq != "atomic" else "")
                   + (f", .keys_per_wave = {kpw}" if (kpw := attn_bwd_keys_per_wave(head_dim, dq, target)) != 32 else ""))]


def mla_decode(num_heads, max_seqlen_q, fp8, page_size, target, op="mla_decode", q_fp8=False):
    """mla_decode.hpp: the kernel bench_mla_decode takes for the query rows (num_heads x
    max_seqlen_q): 16 rows on four waves splitting the dims, up to 64 on four waves of 16 rows,
    more on eight; its KV prefetch depth; and the split combination kernel. Checks: the
    launcher's (mla_decode_launch.hpp) and mla_decode_config_error's.
    q_fp8 (fp8 Q and KV, gfx950): bench_mla_decode's f8q kernels, 16 rows a wave (no split_dims):
    one wave up to 16 rows (prefetch 3), four up to 64, eight beyond (prefetch 2)."""
    if num_heads < 16 or num_heads > 128 or num_heads % 16:
        raise _err(op, f"num_heads = {num_heads} (q's second dimension) must be 16 to 128, a multiple of 16")
    if max_seqlen_q < 1 or max_seqlen_q > 4:
        raise _err(op, f"max_seqlen_q = {max_seqlen_q} must be 1 to 4")
    if page_size < 1 or page_size > 1024 or page_size & (page_size - 1):
        raise _err(op, f"page_size = {page_size} (kv_cache's second dimension) must be a power of two, 1 to 1024")
    rows = num_heads * max_seqlen_q
    if q_fp8:
        if not fp8 or target != "gfx950":
            raise _err(op, "fp8 q (q_fp8) takes an fp8 kv_cache on gfx950")
        waves = 1 if rows <= 16 else 4 if rows <= 64 else 8
        pf = 3 if rows <= 16 else 2
        return [Kernel(f"mla_decode_fp8q_w{waves}_s0_p{page_size}_f{pf}", "HIPASM_MLA_DECODE_KERNEL",
                       "mla_decode.hpp", "mla_decode_config",
                       f".waves = {waves}, .split_dims = false, .page_size = {page_size}, .prefetch = {pf}, "
                       f".kv_cache = mla_kv_cache::fp8, .q_fp8 = true"),
                Kernel("mla_decode_combine", "HIPASM_MLA_DECODE_COMBINE_KERNEL", "mla_decode.hpp", "", None)]
    sd = rows <= 16
    waves = 4 if rows <= 64 else 8
    pf = 3 if fp8 and sd and target == "gfx950" else 2 if fp8 == sd else 1
    kv = "fp8" if fp8 else "bf16"
    return [Kernel(f"mla_decode_{kv}_w{waves}_s{int(sd)}_p{page_size}_f{pf}", "HIPASM_MLA_DECODE_KERNEL",
                   "mla_decode.hpp", "mla_decode_config",
                   f".waves = {waves}, .split_dims = {'true' if sd else 'false'}, .page_size = {page_size}, "
                   f".prefetch = {pf}, .kv_cache = mla_kv_cache::{kv}"),
            Kernel("mla_decode_combine", "HIPASM_MLA_DECODE_COMBINE_KERNEL", "mla_decode.hpp", "", None)]


def mla_decode_splits(target, waves, split_dims, prefetch, fp8, batch, groups, kv_len, rows, q_fp8=False):
    """mla_decode_launch.hpp's mla_decode_default_splits for the target's GPU (its CUs and LDS)."""
    lds_per_cu = 160 * 1024 if target == "gfx950" else 64 * 1024
    cus = CUS.get(target, 304)
    row_bytes = 576 * (1 if fp8 else 2)
    row_stride = (row_bytes + 255) // 256 * 256 + 16 + (32 if not fp8 and not split_dims else 0)
    # (mla_decode_config::lds_bytes: q_fp8 has one more DMA buffer, 64 bytes apart, no widened rows)
    lds = ((prefetch + 1 + (1 if q_fp8 else 0)) * (16 * row_stride + (64 if q_fp8 else 0))
           + (16 * (576 * 2 + 16) if fp8 and not q_fp8 else 0) + (waves * 1024 if split_dims else 0))
    wgs, blocks = batch * groups, (kv_len + 15) // 16
    f8q = q_fp8 and waves >= 4
    cap = max(1, blocks // (16 if f8q else 8))
    per_cu = 1 if f8q else min(max(lds_per_cu // lds, 1), 2)
    s = min(max(1, cus * per_cu // max(wgs, 1)), cap)
    if per_cu == 2 and s * 16 > blocks:
        s = min(max(1, cus // max(wgs, 1)), cap)
    if rows <= 16 and wgs * s < cus:
        s = max(s, min(cus // max(wgs, 1), blocks // 2))
    return max(1, s)


def gemv():
    """Any m; k a run-time size (a multiple of 8)."""
    return [Kernel("gemv_bf16_r4_w2", "HIPASM_GEMV_KERNEL", "gemv.hpp", "gemv_config",
                   ".y_bf16 = true, .rows = 4, .waves = 2, .unroll = 2")]


def gemm():
    """Any m, n, even k: 128 x 128 tiles, bf16 C."""
    return [Kernel("gemm_bf16_m128_n128_w2x2", "HIPASM_GEMM_BF16_KERNEL", "gemm_bf16.hpp", "gemm_bf16_config",
                   ".bm = 128, .bn = 128, .bk = 32, .wm = 2, .wn = 2, .out_bf16 = true")]


def gemm_a8w8(kind):
    """fp8 or i8, per-token scales, 64 x 64 tiles; m, n, k run-time sizes."""
    return [Kernel(f"gemm_a8w8_{kind}_m64_n64_k128_w2x2", "HIPASM_GEMM_QUANT_KERNEL", "gemm_quant.hpp",
                   "gemm_quant_config", f".type = quant_type::{kind}, .scale = quant_scale::per_token, .bm = 64, "
                                        f".bn = 64, .bk = 128, .wm = 2, .wn = 2")]


def moe_sorting(experts, op="moe_sorting", arg="experts"):
    """moe.hpp: a lane an expert (max_experts <= 64 * waves, 1..16 waves). The prebuilt 64 (1
    wave) and 256 (4 waves) for up to that many; above 256, the count rounded up to 64s."""
    experts = _int(op, arg, experts)
    if not 1 <= experts <= 1024:
        raise _err(op, f"{arg} = {experts} must be 1 .. 1024 (a lane an expert, 16 waves)")
    top = 64 if experts <= 64 else 256 if experts <= 256 else -(-experts // 64) * 64
    w = top // 64
    return [Kernel(f"moe_sorting_e{top}_w{w}", "HIPASM_MOE_SORTING_KERNEL", "moe.hpp", "moe_sorting_config",
                   f".max_experts = {top}, .waves = {w}")]


MOE_ACTIVATIONS = ("silu", "gelu", "gelu_tanh")  # activation.hpp's


def _moe_act(act):
    """(name suffix, config field) of stage 1's activation (SiLU: none, the names before GELU),
    and the stages to build: another activation changes stage 1 alone."""
    if act == "silu":
        return "", "", (1, 2)
    return f"_{act}", f", .act = activation::{act}", (1,)


def moe_gemm(target, act="silu"):
    """fused_moe's two gated GEMM stages (moe.hpp): 2 waves, unroll 2; the grid at most 4
    workgroups a CU of the target (a workgroup loops over the blocks); stage 1's activation."""
    m = 4 * CUS.get(target, 304)
    suffix, field, stages = _moe_act(act)
    fields = f".waves = 2, .unroll = 2, .gated = true{field}, .max_workgroups = {m}"
    return [Kernel(f"moe_stage{s}_g1_w2_k1_m{m}" + (suffix if s == 1 else ""), f"HIPASM_MOE_STAGE{s}_KERNEL", "moe.hpp",
                   "moe_gemm_config", fields) for s in stages]


def moe_quant(kind, target, act="silu"):
    """fused_moe's quantized stages (moe_quant.hpp, gfx942 and gfx950; fp8 is the target's e4m3:
    fnuz on gfx942, OCP e4m3fn on gfx950): fp8 with 128x128 block scales or int8 per token x per
    channel, g1u1; 4 column waves (stage 1's 128 columns of inter are one scale block of h), the
    grid at most 4 workgroups a CU (gfx942: 1216, gfx950: 1024); stage 1's activation."""
    m = 4 * CUS.get(target, 304)
    suffix, field, stages = _moe_act(act)
    fields = f".type = quant_type::{kind}, .waves = 4, .gated = true{field}, .max_workgroups = {m}"
    return [Kernel(f"moe_quant_stage{s}_{kind}_w4_m{m}" + (suffix if s == 1 else ""),
                   f"HIPASM_MOE_QUANT_STAGE{s}_KERNEL", "moe_quant.hpp", "moe_quant_config", fields) for s in stages]


def mxfp4_quant(d, op="mxfp4_quant", arg="d"):
    """bf16 rows to MXFP4 (mxfp4_quant.hpp, aiter's scale rule): d a multiple of 32; 4 waves of
    4 lane groups (8192 elements a workgroup)."""
    d = _int(op, arg, d)
    if d < 32 or d % 32:
        raise _err(op, f"{arg} = {d} must be a positive multiple of 32 (whole MX blocks)")
    return [Kernel(f"mxfp4_quant_d{d}_w4_s4", "HIPASM_MXFP4_QUANT_KERNEL", "mxfp4_quant.hpp", "mxfp4_quant_config",
                   f".d = {d}, .waves = 4, .steps = 4")]


def moe_fp4(act="silu"):
    """fused_moe's MXFP4 stages (moe_fp4.hpp, gfx950), row-major weights: stage 1 2 column
    waves each with K over 4 waves, stage 2 4 column waves (the challenge bench's raw-weight
    configurations); at most 4096 workgroups; stage 1's activation."""
    suffix, field, stages = _moe_act(act)
    out = [Kernel(f"moe_fp4_stage1_w2_k4_m4096{suffix}", "HIPASM_MOE_FP4_STAGE1_KERNEL", "moe_fp4.hpp",
                  "moe_fp4_config", f".waves = 2, .k_split = 4{field}")]
    if 2 in stages:
        out.append(Kernel("moe_fp4_stage2_w4_k1_m4096", "HIPASM_MOE_FP4_STAGE2_KERNEL", "moe_fp4.hpp",
                          "moe_fp4_config", ".waves = 4"))
    return out


def source(kernels, what):
    """The .hip source instantiating `kernels` (built with kernarg preloading, as the prebuilt)."""
    headers = sorted({k.header for k in kernels})
    lines = ["// HIPASM_KERNARG_PRELOAD",
             f"// {what}: written by python/hipasm/_ops_configs.py (hipasm.ops' configuration rules).",
             *[f"#include <hipasm/kernels/{h}>" for h in headers], "",
             "namespace ops_cfg {", "using namespace hipasm::kernels;",
             *[f"constexpr {k.ctype} {k.name}{{{k.fields}}};" for k in kernels if k.fields is not None],
             "}  // namespace ops_cfg", "",
             *[f"{k.macro}({k.name}, ops_cfg::{k.name})" if k.fields is not None else f"{k.macro}({k.name})"
               for k in kernels]]
    return "\n".join(lines) + "\n"


def prebuilt(target="gfx942"):
    """{group: kernels} of the code objects built with the package (a code object a group,
    compiled in parallel): the sizes of the examples and tests; other sizes build on first use."""
    return {
        "ops": norm("rms_norm", 256) + silu_and_mul(512) + gemv() + gemm() + rotary(64, 64, 4, 2),
        "ops_misc": norm("rms_norm", 1024) + norm("rms_norm", 4096) +
                    [k for h in (256, 1024, 4096) for k in norm("layernorm", h)] +
                    [k for t in ("bf16", "f32") for c in (256, 1024) for k in softmax(t, c)] +
                    topk_softmax(8, 2) + topk_softmax(64, 8) + topk_softmax(128, 8),
        "ops_quant": [k for d in (256, 4096) for t in ("fp8", "i8") for k in dynamic_quant(t, d)] +
                     gemm_a8w8("fp8") + gemm_a8w8("i8"),
        "ops_paged_attn": paged_attn(64, 16, 4) + [k for g in (1, 4, 8) for k in paged_attn(128, 16, g)],
        "ops_attn": [k for d in (64, 128) for c in (0, 1) for k in attn_fwd(d, c)],
        "ops_moe": moe_sorting(64) + moe_sorting(256) + moe_gemm(target),
    }


def write_if_changed(path, text):
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    tmp = f"{path}.{os.getpid()}.tmp"  # (processes building the same kernel each write their own)
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def main(argv):
    if len(argv) not in (1, 3) or (len(argv) == 3 and argv[1] != "--target"):
        print("usage: _ops_configs.py OUT_DIR [--target gfx942|gfx950]", file=sys.stderr)
        return 2
    out, target = argv[0], argv[2] if len(argv) == 3 else "gfx942"
    os.makedirs(out, exist_ok=True)
    for group, kernels in prebuilt(target).items():
        write_if_changed(os.path.join(out, group + ".hip"), source(kernels, f"hipasm.ops' prebuilt {group} kernels"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

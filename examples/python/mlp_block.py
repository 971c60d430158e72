"""A transformer MLP block whose forward calls hipasm kernels (RMSNorm, GEMM or GEMV, SiLU-and-mul),
run in hipasm-sim (or on a GPU with HIPASM_BACKEND=hip and CUDA tensors) against torch's own
result:

    PYTHONPATH=build/python python3 examples/python/mlp_block.py

out = x + down(silu_and_mul(gate_up(rms_norm(x)))), bf16 weights and activations; the shapes
are those hipasm.ops has prebuilt kernels for (hidden 256, intermediate 512; other sizes are built
on first use)."""
import torch

import hipasm


class MLPBlock(torch.nn.Module):
    def __init__(self, hidden=256, intermediate=512, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.norm_weight = torch.nn.Parameter(torch.ones(hidden, dtype=torch.bfloat16))
        self.gate_up = torch.nn.Linear(hidden, 2 * intermediate, bias=False, dtype=torch.bfloat16)
        self.down = torch.nn.Linear(intermediate, hidden, bias=False, dtype=torch.bfloat16)

    def forward(self, x):
        h = hipasm.ops.rms_norm(x, self.norm_weight, self.eps)
        h = hipasm.ops.linear(h, self.gate_up.weight)
        h = hipasm.ops.silu_and_mul(h)
        return x + hipasm.ops.linear(h, self.down.weight)

    def reference(self, x):
        """The same block in torch (f32 math, bf16 between the steps, as the kernels round)."""
        xf = x.float()
        h = (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.eps) * self.norm_weight.float()).bfloat16()
        g = (h.float() @ self.gate_up.weight.float().T).bfloat16()
        d = g.shape[-1] // 2
        a = (torch.nn.functional.silu(g[..., :d].float()) * g[..., d:].float()).bfloat16()
        return x + (a.float() @ self.down.weight.float().T).bfloat16()


def main():
    torch.manual_seed(0)
    block = MLPBlock()
    with torch.no_grad():
        block.norm_weight.copy_(1 + 0.1 * torch.randn(256))
        results = []
        for tokens in (4, 1):  # prefill-like (the projections are GEMMs) and decode (GEMVs)
            x = torch.randn(tokens, 256).bfloat16()
            got, want = block(x), block.reference(x)
            err = (got.float() - want.float()).abs().max().item()
            print(f"hipasm MLP block, {tokens} token(s), on {hipasm.current_device().backend}: "
                  f"max |hipasm - torch| = {err:.4g} (output max {want.float().abs().max().item():.3g})")
            results.append((got, want))
    return results


if __name__ == "__main__":
    main()

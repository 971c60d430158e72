"""examples/python: the MLP block (hipasm kernels in a torch.nn.Module) against torch."""
import importlib.util
import os

import pytest


def test_mlp_block(sim):
    torch = pytest.importorskip("torch")
    root = os.environ.get("HIPASM_TEST_PROJECT_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")
    spec = importlib.util.spec_from_file_location("mlp_block", os.path.join(root, "examples", "python", "mlp_block.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    (got4, want4), (got1, want1) = mod.main()
    assert got4.dtype == torch.bfloat16 and got4.shape == (4, 256) and got1.shape == (1, 256)
    # bf16 between the steps: a 1-ulp difference in an intermediate can move the output by a few
    # bf16 ulps of its magnitude (<~ 4)
    for got, want in ((got4, want4), (got1, want1)):
        torch.testing.assert_close(got.float(), want.float(), rtol=2e-2, atol=3e-2)

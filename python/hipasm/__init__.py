"""hipasm from Python: load hipasm (or any gfx942/gfx950) code objects and launch their kernels
with numpy arrays, torch tensors and Python scalars, in hipasm-sim (checker, timing model) or
on a HIP device. Pure Python over ctypes: libhipasm_sim.so (sim/include/hipasm/sim/capi.h) and
libamdhip64.

    m = hipasm.load("vector_add.co")           # or a .hip source: compiled by hipasm.build
    m.vector_add((n + 255) // 256, 256, c, a, b, n)   # or m.vector_add[grid, block](c, a, b, n)

docs/python.md has the details: argument rules, errors, backends, profiling, hipasm.ops."""
from ._args import DevicePointer
from ._errors import BuildError, CheckerError, HipasmError, HipError, SimError
from ._runtime import Kernel, Module, current_device, device, load, profile


def build(source, arch=None, **kw):
    """Compiles a .hip source with hipasm's kernel flags into a cached code object; its path.
    arch: "gfx942", "gfx950" or a list of them (a fat binary); default: the current device's target."""
    from . import _build
    return _build.build(source, arch=arch, **kw)


def synchronize():
    """Waits for the current device's launches (HIP launches are asynchronous)."""
    current_device().synchronize()


def __getattr__(name):
    if name == "ops":  # imported on first use: it loads the ops code object
        import importlib
        return importlib.import_module(".ops", __name__)
    raise AttributeError(f"module 'hipasm' has no attribute '{name}'")


import sys as _sys

# torch.ops.hipasm.*: registered now when torch is imported already (hipasm never imports it
# itself: that takes seconds), else by `import hipasm.torch_ops`
if _sys.modules.get("torch") is not None:
    try:
        from . import torch_ops  # noqa: F401
    except Exception as _e:  # an optional part: the rest of hipasm works; `import hipasm.torch_ops` raises it
        import warnings
        warnings.warn(f"hipasm: torch.ops.hipasm.* not registered: {type(_e).__name__}: {_e}")

__all__ = ["load", "build", "synchronize", "device", "current_device", "profile", "Module", "Kernel", "DevicePointer",
           "HipasmError", "SimError", "HipError", "BuildError", "CheckerError"]

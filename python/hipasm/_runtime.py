"""Devices (the simulator, HIP), code-object modules and kernels."""
import json
import os
import warnings

from . import _args, _config, _sim
from ._errors import CheckerError, HipasmError

_BACKENDS = ("sim", "hip")
_current = None


def _dims(v, what):
    if type(v) is int and 0 < v < (1 << 32):
        return (v, 1, 1)
    if isinstance(v, int):
        v = (v,)
    try:
        t = tuple(int(x) for x in v)
    except TypeError:
        raise TypeError(f"{what} must be an int or a tuple of up to 3 ints, got {type(v).__name__}") from None
    if not 1 <= len(t) <= 3 or any(x < 1 or x >= (1 << 32) for x in t):
        raise ValueError(f"{what} {v!r}: 1 to 3 dimensions, each 1 .. 2^32-1")
    return t + (1,) * (3 - len(t))


class SimDevice:
    """hipasm-sim: numpy arrays and CPU tensors are copied in, run, and copied back. `gpu` is the
    simulated GPU ("mi300x", "mi355x", ...): its target picks a fat binary's code object (a code
    object for another target is refused), and it is hipasm.profile's default device."""

    backend = "sim"

    def __init__(self, gpu="mi300x"):
        self.gpu = gpu
        self._dev = _sim.Device(gpu)
        self.target = self._dev.target

    def load(self, image, path=None):
        return self._dev.load(image, path)

    def synchronize(self):
        pass  # a simulator launch has finished when it returns

    def unload(self, handle):
        self._dev.unload(handle)

    def launch(self, kernel, grid, block, args, check=True, profile=None, allow=None, dynamic_lds=0, seed=0,
               threads=0, instruction_budget=0, stream=None):
        dev = self._dev
        allocated = {}  # (host ptr, bytes) -> device address: an array passed twice is one buffer
        writeback = []

        def pointer_of(p, v):
            addr, view = _args.pointer_argument(p, v, device_memory=False)
            if view is None:
                return addr
            key = (view.ptr, view.nbytes)
            addr = allocated.get(key)
            if addr is None:
                addr = dev.alloc(max(view.nbytes, 1))
                allocated[key] = addr
                dev.copy_to(addr, view.ptr, view.nbytes)
                if view.writeable and p.writes:
                    writeback.append((view, addr))
            elif view.writeable and p.writes and all(a != addr for _, a in writeback):
                writeback.append((view, addr))
            return addr

        try:
            kernarg = _args.pack(kernel.name, kernel.params, kernel.meta["explicit_args_end"], args, pointer_of)
            opts = _sim.launch_options(
                check=check is not False, allow=allow, seed=seed, threads=threads,
                instruction_budget=instruction_budget, dynamic_lds=dynamic_lds,
                profile_device=profile.get("device") if profile else None,
                clock_mhz=profile.get("clock_mhz", 0) if profile else 0,
                keep_events=bool(profile and profile.get("trace")),
                sample_cus=profile.get("sample_cus", 0) if profile else 0)
            kbuf = bytes(kernarg)
            report = dev.launch(kernel.module._handle, kernel.name, grid, block, kbuf, opts)
            for view, addr in writeback:
                dev.copy_from(view.ptr, addr, view.nbytes)
        finally:
            for addr in allocated.values():
                dev.free(addr)
        return report


class Module:
    """A code object loaded on a device; its kernels are attributes (m.vector_add) or m[name]."""

    def __init__(self, image, device, path=None, signatures=None):
        self.device = device
        self.path = path
        self._image = bytes(image)
        # A fat binary: the metadata of the code object the device runs (HIP: its gcnArchName).
        info = _sim.CodeObjectInfo(self._image, getattr(device, "target", None))
        # target: the processor ("gfx950"), comparable with device.target; target_id: the
        # metadata's amdhsa.target ("amdgcn-amd-amdhsa--gfx950", with any features).
        self.target_id, self._meta = info.target, info.kernels
        self.target = _sim.processor(info.target)
        # A code object for another target would run with the wrong ISA's formats and limits. (The
        # simulator's device refuses it too, naming the devices that run it.)
        if device.backend == "hip" and device.target and self.target != device.target:
            from ._errors import HipError
            raise HipError(f"{self.target} code object on a {device.target} GPU")
        self._signatures = dict(signatures or {})
        self._handle = device.load(self._image, path)
        self._kernels = {}

    @property
    def kernel_names(self):
        return list(self._meta)

    def kernel(self, name, signature=None):
        """Kernel `name`; signature: its C parameter types ("float* out, const float* in, int n"),
        for checking argument types beyond what the metadata tells (sizes and kinds)."""
        if name not in self._meta:
            raise AttributeError(f"no kernel '{name}' in the code object (it has: {', '.join(self._meta)})")
        if signature is not None:
            self._signatures[name] = signature
            self._kernels.pop(name, None)
        k = self._kernels.get(name)
        if k is None:
            k = self._kernels[name] = Kernel(self, name, self._signatures.get(name))
        return k

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return self.kernel(name)

    def __getitem__(self, name):
        return self.kernel(name)

    def __dir__(self):
        return list(super().__dir__()) + list(self._meta)

    def __del__(self):
        h = getattr(self, "_handle", None)
        if h:
            try:
                self.device.unload(h)
            except Exception:
                pass


def _sidecar_signatures(path):
    """hipasm.build writes <code object>.signatures.json: {kernel: "C parameter list"}."""
    side = os.path.splitext(path)[0] + ".signatures.json"
    try:
        with open(side) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


class Kernel:
    """k(grid, block, *args, **options) or k[grid, block](*args, **options).

    Options: check (True: raise CheckerError on the checker's errors; "warn": warn; False: no
    checker), allow (checker rules reported as warnings), dynamic_lds, stream (HIP), seed,
    threads, instruction_budget (sim)."""

    def __init__(self, module, name, signature=None):
        self.module, self.name = module, name
        self.meta = module._meta[name]
        self.signature = signature
        self.params = _args.make_params(self.meta, signature)
        self.last_report = None

    @property
    def args(self):
        """The explicit arguments' metadata (name, offset, size, value_kind, ...)."""
        return [p.meta for p in self.params]

    @property
    def hidden_args(self):
        return [a for a in self.meta["args"] if a["hidden"]]

    def __getitem__(self, launch):
        if not isinstance(launch, tuple) or len(launch) != 2:
            raise TypeError("use kernel[grid, block](*args)")
        grid, block = launch
        return lambda *args, **kw: self(grid, block, *args, **kw)

    def launch(self, grid, block, *args, check=True, profile=None, **options):
        # (an int grid or block, the common case, without _dims' general parsing; the device gets
        # check and profile by position: keyword passing is a measurable part of a HIP launch)
        g = (grid, 1, 1) if type(grid) is int and 0 < grid < 4294967296 else _dims(grid, "grid")
        b = (block, 1, 1) if type(block) is int and 0 < block < 4294967296 else _dims(block, "block")
        dev = self.module.device
        report = dev.launch(self, g, b, args, check, profile, **options) if options else \
            dev.launch(self, g, b, args, check, profile)
        self.last_report = report
        if report is not None and check and report.error_count:
            err = CheckerError(self.name, report.findings, report.summary)
            if check == "warn":
                warnings.warn(str(err), RuntimeWarning, stacklevel=2)
            else:
                raise err
        return report

    # k(grid, block, ...) is launch itself: one Python call less per launch.
    __call__ = launch

    def __repr__(self):
        return f"<hipasm kernel {self.name} ({len(self.params)} arguments) on {self.module.device.backend}>"


def _make(backend, **kw):
    if backend == "sim":
        return SimDevice(**kw)
    from . import _hip
    return _hip.HipDevice(**kw)


def device(backend=None, **kw):
    """Selects (and returns) the default device: "sim" or "hip" (default: $HIPASM_BACKEND or sim).
    sim takes gpu= (the simulated GPU, "mi300x" by default, or "mi355x", ...: a fat binary's code
    object is the one for its target); hip takes library= (a libamdhip64 path) and device_id=."""
    global _current
    if backend is None:
        backend = os.environ.get("HIPASM_BACKEND") or "sim"
    if backend not in _BACKENDS:
        raise ValueError(f"device {backend!r}: expected 'sim' or 'hip'")
    _current = _make(backend, **kw)
    return _current


def current_device():
    global _current
    if _current is None:
        env = os.environ.get("HIPASM_BACKEND") or "sim"
        if env not in _BACKENDS:
            raise HipasmError(f"HIPASM_BACKEND='{env}': expected 'sim' or 'hip'")
        _current = _make(env)
    return _current


def load(path_or_bytes, device=None, signatures=None):
    """Loads a code object or a fat binary (a path, or its bytes) on `device` (default: the current
    device); of a fat binary, the code object for the device's target. A .hip source is built for
    the device's target (hipasm.build); a code object for another target is refused."""
    dev = device or current_device()
    if isinstance(path_or_bytes, (bytes, bytearray, memoryview)):
        return Module(bytes(path_or_bytes), dev, signatures=signatures)
    path = os.fspath(path_or_bytes)
    if path.endswith(".hip"):  # built for the device it runs on (its formats: gfx950's fp8 is OCP)
        from . import _build
        path = _build.build(path, arch=dev.target or _config.get("default_arch", "gfx942"))
    with open(path, "rb") as f:
        image = f.read()
    return Module(image, dev, path=path, signatures=signatures or _sidecar_signatures(path))


def profile(kernel, grid, block, *args, device=None, trace=None, clock_mhz=0, sample_cus=0, check=True,
            **options):
    """Runs `kernel` in the simulator's timing model: the report as a dict (time_us, tflops,
    hbm_gbps, mfma_busy, stalls, hot spots, ...), as `hipasm-sim profile --json` prints it.
    trace: a path for the Perfetto (Chrome trace-event JSON) trace. device: the GPU the run is
    timed on (default: the simulated device's, "mi300x" unless hipasm.device('sim', gpu=...))."""
    if kernel.module.device.backend != "sim":
        raise HipasmError("hipasm.profile needs a kernel loaded on the simulator (hipasm.device('sim'))")
    device = device or kernel.module.device.gpu
    prof = {"device": device, "clock_mhz": clock_mhz, "sample_cus": sample_cus, "trace": trace}
    report = kernel.launch(grid, block, *args, check=check, profile=prof, **options)
    if trace:
        report.write_trace(os.fspath(trace))
    return report.profile

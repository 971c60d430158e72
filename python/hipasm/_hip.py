"""The HIP backend: libamdhip64 through ctypes. Kernels take device memory (torch tensors on the
GPU, __cuda_array_interface__ objects, hipasm.DevicePointer); launches go on torch's current
stream when torch is present (else the null stream) and are not synchronised."""
import ctypes
import ctypes.util
import os
import sys
import threading

from . import _args
from ._errors import HipError

_P = ctypes.c_void_p
_u = ctypes.c_uint
# HIP_LAUNCH_PARAM_BUFFER_POINTER / _SIZE / _END (hip_runtime_api.h)
_BUFFER_POINTER, _BUFFER_SIZE, _END = 1, 2, 3


def _library(path=None):
    path = path or os.environ.get("HIPASM_HIP_LIBRARY") or ctypes.util.find_library("amdhip64") or "libamdhip64.so"
    try:
        L = ctypes.CDLL(path)
    except OSError as e:
        raise HipError(f"cannot load the HIP runtime {path}: {e}") from None
    sigs = {
        "hipInit": [_u], "hipGetDeviceCount": [ctypes.POINTER(ctypes.c_int)], "hipSetDevice": [ctypes.c_int],
        "hipModuleLoadData": [ctypes.POINTER(_P), _P], "hipModuleUnload": [_P],
        "hipModuleGetFunction": [ctypes.POINTER(_P), _P, ctypes.c_char_p],
        "hipModuleLaunchKernel": [_P, _u, _u, _u, _u, _u, _u, _u, _P, ctypes.POINTER(_P), ctypes.POINTER(_P)],
        "hipDeviceSynchronize": [], "hipGetDeviceProperties": [_P, ctypes.c_int],
    }
    for name, args in sigs.items():
        f = getattr(L, name)
        f.restype, f.argtypes = ctypes.c_int, args
    for name in ("hipGetErrorString", "hipGetErrorName"):
        f = getattr(L, name)
        f.restype, f.argtypes = ctypes.c_char_p, [ctypes.c_int]
    return L, path


class HipDevice:
    backend = "hip"

    def __init__(self, library=None, device_id=0):
        self._L, self.library = _library(library)
        self._check(self._L.hipInit(0), "hipInit")
        n = ctypes.c_int(0)
        self._check(self._L.hipGetDeviceCount(ctypes.byref(n)), "hipGetDeviceCount")
        if n.value <= device_id:
            raise HipError(f"no HIP device {device_id} ({n.value} found)")
        self._check(self._L.hipSetDevice(device_id), "hipSetDevice")
        self.target = self._gcn_arch(device_id)
        self._functions = {}

    def _gcn_arch(self, device_id):
        """The device's processor ("gfx942"), which picks a fat binary's metadata (the runtime picks
        the code it runs the same way). hipDeviceProp_t's layout differs between HIP versions: its
        gcnArchName is found as the one NUL-led "gfx..." string, in a buffer larger than any version's."""
        buf = ctypes.create_string_buffer(16384)
        self._check(self._L.hipGetDeviceProperties(buf, device_id), "hipGetDeviceProperties")
        raw = buf.raw
        at = raw.find(b"\0gfx")
        if at < 0:
            return None  # (then only a plain code object, or a fat binary of one, loads)
        name = raw[at + 1:raw.index(b"\0", at + 1)].decode("ascii", "replace")
        return name.split(":")[0]

    def _check(self, err, what):
        if err != 0:
            L = self._L
            raise HipError(f"{what} failed: {L.hipGetErrorName(err).decode()} ({L.hipGetErrorString(err).decode()})")

    def load(self, image, path=None):
        self._image_keepalive = image
        h = _P()
        buf = ctypes.create_string_buffer(image, len(image))
        self._check(self._L.hipModuleLoadData(ctypes.byref(h), buf), "hipModuleLoadData")
        return h

    def unload(self, handle):
        self._L.hipModuleUnload(handle)

    def synchronize(self):
        self._check(self._L.hipDeviceSynchronize(), "hipDeviceSynchronize")

    def function(self, kernel):
        key = (id(kernel.module), kernel.name)
        f = self._functions.get(key)
        if f is None:
            f = _P()
            self._check(self._L.hipModuleGetFunction(ctypes.byref(f), kernel.module._handle, kernel.name.encode()),
                        f"hipModuleGetFunction '{kernel.name}'")
            self._functions[key] = f
        return f

    @staticmethod
    def _pointer_of(p, v):
        addr, view = _args.pointer_argument(p, v, True)
        return addr if view is None else view.ptr

    # A launch's cost is the package's overhead over a plain ctypes hipModuleLaunchKernel
    # (bench/python/launch_overhead.py, which should stay within 2x): a kernel keeps, per thread,
    # a launch slot made at the thread's first launch of it: the function handle, a kernarg
    # buffer to pack into and the config array pointing at it (building them per launch cost as
    # much as the call). Per thread, as the call releases the GIL while HIP reads the buffer.
    def _slot(self, kernel):
        slots = kernel.__dict__.get("_hip_slots")
        if slots is None:
            slots = kernel._hip_slots = {}
        if len(slots) >= 64:  # threads that are gone leave theirs
            slots.clear()
        n = kernel.meta["explicit_args_end"]
        buf = ctypes.create_string_buffer(max(n, 1))
        size = ctypes.c_size_t(n)
        config = (_P * 5)(_BUFFER_POINTER, ctypes.addressof(buf) if n else None, _BUFFER_SIZE,
                          ctypes.addressof(size), _END)
        slot = slots[threading.get_ident()] = (memoryview(buf).cast("B")[:n], config, self.function(kernel), self,
                                               buf, size)
        return slot

    def launch(self, kernel, grid, block, args, check=True, profile=None, allow=None, dynamic_lds=0, stream=None,
               **ignored):
        if profile:
            raise HipError("profiling needs the simulator (hipasm.device('sim'))")
        slots = kernel.__dict__.get("_hip_slots")
        slot = slots.get(_get_ident()) if slots else None
        if slot is None or slot[3] is not self:
            slot = self._slot(kernel)
        kernarg, config, f = slot[0], slot[1], slot[2]
        _args.pack_into(kernarg, kernel.name, kernel.params, args, self._pointer_of)
        if stream is None:
            stream = _torch_stream()
        elif hasattr(stream, "cuda_stream"):
            stream = stream.cuda_stream
        err = self._L.hipModuleLaunchKernel(f, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                                            dynamic_lds, stream or None, None, config)
        if err:
            self._check(err, f"hipModuleLaunchKernel '{kernel.name}'")
        return None  # hardware has no checker report


_get_ident = threading.get_ident


def _torch_stream():
    torch = sys.modules.get("torch")  # only when the caller uses torch: no import cost otherwise
    if torch is None:
        return 0
    try:
        if torch.cuda.is_available():
            return torch.cuda.current_stream().cuda_stream
    except Exception:
        pass
    return 0

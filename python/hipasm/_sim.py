"""ctypes bindings of libhipasm_sim.so (sim/include/hipasm/sim/capi.h)."""
import ctypes
import json
import os

from ._errors import SimError

ABI_VERSION = 3
_u32, _u64, _i32 = ctypes.c_uint32, ctypes.c_uint64, ctypes.c_int32


class KernelRec(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p), ("symbol", ctypes.c_char_p),
        ("kernarg_segment_size", _u64), ("kernarg_segment_align", _u64),
        ("group_segment_fixed_size", _u64), ("private_segment_fixed_size", _u64),
        ("arg_count", _u32), ("explicit_arg_count", _u32), ("explicit_args_end", _u32),
        ("max_flat_workgroup_size", _u32), ("wavefront_size", _u32),
        ("sgpr_count", _u32), ("vgpr_count", _u32), ("agpr_count", _u32),
        ("kernarg_preload_dwords", _u32),
    ]


class ArgRec(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p), ("type_name", ctypes.c_char_p), ("value_kind", ctypes.c_char_p),
        ("address_space", ctypes.c_char_p), ("offset", _u32), ("size", _u32), ("hidden", _i32),
        ("pointer", _i32),
    ]


class LaunchOptions(ctypes.Structure):
    _fields_ = [
        ("dynamic_lds", _u32), ("threads", _u32), ("seed", _u64), ("instruction_budget", _u64),
        ("check", _i32), ("check_undefined", _i32), ("allow", ctypes.c_char_p),
        ("profile_device", ctypes.c_char_p), ("clock_mhz", ctypes.c_double), ("keep_events", _i32),
        ("sample_cus", _u32),
    ]


class FindingRec(ctypes.Structure):
    _fields_ = [
        ("pc", _u64), ("rule", ctypes.c_char_p), ("instruction", ctypes.c_char_p),
        ("message", ctypes.c_char_p), ("source", ctypes.c_char_p), ("count", _u64),
        ("first_workgroup", _u32), ("first_wave", _u32), ("allowed", _i32),
    ]


_P = ctypes.c_void_p


class NodeLaunchRec(ctypes.Structure):
    _fields_ = [
        ("module", _P), ("kernel", ctypes.c_char_p), ("grid", _u32 * 3), ("block", _u32 * 3),
        ("kernarg", _P), ("kernarg_bytes", ctypes.c_size_t),
    ]


_SIGNATURES = {
    "hipasm_sim_abi_version": (ctypes.c_int, []),
    "hipasm_sim_last_error": (ctypes.c_char_p, []),
    "hipasm_sim_inspect": (ctypes.c_int, [_P, ctypes.c_size_t, ctypes.POINTER(_P)]),
    "hipasm_sim_inspect_target": (ctypes.c_int, [_P, ctypes.c_size_t, ctypes.c_char_p, ctypes.POINTER(_P)]),
    "hipasm_sim_code_object_free": (None, [_P]),
    "hipasm_sim_code_object_target": (ctypes.c_char_p, [_P]),
    "hipasm_sim_kernel_count": (ctypes.c_int, [_P, ctypes.POINTER(_u32)]),
    "hipasm_sim_kernel_info": (ctypes.c_int, [_P, _u32, ctypes.POINTER(KernelRec)]),
    "hipasm_sim_kernel_arg": (ctypes.c_int, [_P, _u32, _u32, ctypes.POINTER(ArgRec)]),
    "hipasm_sim_device_open": (ctypes.c_int, [ctypes.POINTER(_P)]),
    "hipasm_sim_device_open_gpu": (ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(_P)]),
    "hipasm_sim_device_target": (ctypes.c_char_p, [_P]),
    "hipasm_sim_device_close": (None, [_P]),
    "hipasm_sim_alloc": (ctypes.c_int, [_P, ctypes.c_size_t, ctypes.POINTER(_u64)]),
    "hipasm_sim_free": (ctypes.c_int, [_P, _u64]),
    "hipasm_sim_copy_to_device": (ctypes.c_int, [_P, _u64, _P, ctypes.c_size_t]),
    "hipasm_sim_copy_from_device": (ctypes.c_int, [_P, _P, _u64, ctypes.c_size_t]),
    "hipasm_sim_load": (ctypes.c_int, [_P, _P, ctypes.c_size_t, ctypes.POINTER(_P)]),
    "hipasm_sim_load_file": (ctypes.c_int, [_P, ctypes.c_char_p, ctypes.POINTER(_P)]),
    "hipasm_sim_module_free": (None, [_P]),
    "hipasm_sim_module_code_object": (_P, [_P]),
    "hipasm_sim_launch_options_init": (None, [ctypes.POINTER(LaunchOptions)]),
    "hipasm_sim_launch": (ctypes.c_int, [_P, _P, ctypes.c_char_p, ctypes.POINTER(_u32), ctypes.POINTER(_u32), _P,
                                         ctypes.c_size_t, ctypes.POINTER(LaunchOptions), ctypes.POINTER(_P)]),
    "hipasm_sim_report_free": (None, [_P]),
    "hipasm_sim_report_instructions": (_u64, [_P]),
    "hipasm_sim_report_error_count": (_u32, [_P]),
    "hipasm_sim_report_finding_count": (_u32, [_P]),
    "hipasm_sim_report_finding": (ctypes.c_int, [_P, _u32, ctypes.POINTER(FindingRec)]),
    "hipasm_sim_report_summary": (ctypes.c_char_p, [_P]),
    "hipasm_sim_report_profile_json": (ctypes.c_char_p, [_P]),
    "hipasm_sim_report_write_trace": (ctypes.c_int, [_P, ctypes.c_char_p]),
    "hipasm_sim_node_open": (ctypes.c_int, [ctypes.c_char_p, _u32, ctypes.POINTER(_P)]),
    "hipasm_sim_node_close": (None, [_P]),
    "hipasm_sim_node_size": (_u32, [_P]),
    "hipasm_sim_node_device": (_P, [_P, _u32]),
    "hipasm_sim_node_map_peer": (ctypes.c_int, [_P, _u32, _u32, _u64, ctypes.POINTER(_u64)]),
    "hipasm_sim_node_launch": (ctypes.c_int, [_P, ctypes.POINTER(NodeLaunchRec), _u32, ctypes.POINTER(LaunchOptions),
                                              ctypes.POINTER(_P)]),
}


def _library_path():
    env = os.environ.get("HIPASM_SIM_LIBRARY")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    local = os.path.join(here, "libhipasm_sim.so")  # an installed package keeps it beside itself
    if os.path.exists(local):
        return local
    from . import _config
    path = _config.get("sim_library")
    if path:
        return path
    raise SimError("libhipasm_sim.so not found: set HIPASM_SIM_LIBRARY or build the target hipasm_python")


_lib = None


def lib():
    """The loaded library, with argument and result types set (loaded on first use)."""
    global _lib
    if _lib is None:
        path = _library_path()
        try:
            handle = ctypes.CDLL(path)
        except OSError as e:
            raise SimError(f"cannot load {path}: {e}") from None
        handle.hipasm_sim_abi_version.restype, handle.hipasm_sim_abi_version.argtypes = ctypes.c_int, []
        if handle.hipasm_sim_abi_version() != ABI_VERSION:  # (before an older library's missing functions)
            raise SimError(f"{path}: C ABI version {handle.hipasm_sim_abi_version()}, this package needs {ABI_VERSION}")
        for name, (res, args) in _SIGNATURES.items():
            f = getattr(handle, name)
            f.restype, f.argtypes = res, args
        _lib = handle
    return _lib


def text(b):
    return b.decode("utf-8", "replace") if b else ""


def check(status):
    if status != 0:
        raise SimError(text(lib().hipasm_sim_last_error()))


def processor(target_id):
    """The processor of a target ID: "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-" -> "gfx942", the
    form a device's target has (sim: its GPU's; HIP: gcnArchName without features)."""
    name = target_id.rsplit("--", 1)[-1].split(":")[0]
    return name if name.startswith("gfx") else target_id


class CodeObjectInfo:
    """The loader's metadata of every kernel of a code object (no device involved); a fat binary's
    code object for `target` ("gfx942", "gfx950"; None: the fat binary must hold one)."""

    def __init__(self, image, target=None):
        L = lib()
        h = _P()
        buf = ctypes.create_string_buffer(bytes(image), len(image))
        check(L.hipasm_sim_inspect_target(buf, len(image), target.encode() if target else None, ctypes.byref(h)))
        try:
            self.target, self.kernels = read_code_object(h)
        finally:
            L.hipasm_sim_code_object_free(h)


def read_code_object(h):
    """(target, {name: kernel dict}) of a hipasm_sim_code_object handle."""
    L = lib()
    n = _u32()
    check(L.hipasm_sim_kernel_count(h, ctypes.byref(n)))
    kernels = {}
    for i in range(n.value):
        k = KernelRec()
        check(L.hipasm_sim_kernel_info(h, i, ctypes.byref(k)))
        d = {f: getattr(k, f) for f, _ in KernelRec._fields_}
        d["name"], d["symbol"] = text(k.name), text(k.symbol)
        args = []
        for j in range(k.arg_count):
            a = ArgRec()
            check(L.hipasm_sim_kernel_arg(h, i, j, ctypes.byref(a)))
            args.append({"name": text(a.name), "type_name": text(a.type_name), "value_kind": text(a.value_kind),
                         "address_space": text(a.address_space), "offset": a.offset, "size": a.size,
                         "hidden": bool(a.hidden), "pointer": bool(a.pointer)})
        d["args"] = args
        kernels[d["name"]] = d
    return text(L.hipasm_sim_code_object_target(h)), kernels


class Device:
    """The simulated device (`gpu`: "mi300x", "mi355x", ...): memory, modules, launches."""

    def __init__(self, gpu=None):
        self._L = lib()
        self._h = _P()
        check(self._L.hipasm_sim_device_open_gpu(gpu.encode() if gpu else None, ctypes.byref(self._h)))
        self.target = text(self._L.hipasm_sim_device_target(self._h))

    def close(self):
        if self._h:
            self._L.hipasm_sim_device_close(self._h)
            self._h = _P()

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    def alloc(self, nbytes):
        addr = _u64()
        check(self._L.hipasm_sim_alloc(self._h, nbytes, ctypes.byref(addr)))
        return addr.value

    def free(self, addr):
        check(self._L.hipasm_sim_free(self._h, addr))

    def copy_to(self, addr, host_ptr, nbytes):
        check(self._L.hipasm_sim_copy_to_device(self._h, addr, host_ptr, nbytes))

    def copy_from(self, host_ptr, addr, nbytes):
        check(self._L.hipasm_sim_copy_from_device(self._h, host_ptr, addr, nbytes))

    def load(self, image, path=None):
        h = _P()
        if path is not None:
            check(self._L.hipasm_sim_load_file(self._h, os.fsencode(path), ctypes.byref(h)))
        else:
            buf = ctypes.create_string_buffer(bytes(image), len(image))
            check(self._L.hipasm_sim_load(self._h, buf, len(image), ctypes.byref(h)))
        return h

    def unload(self, module):
        self._L.hipasm_sim_module_free(module)

    def launch(self, module, kernel, grid, block, kernarg, options):
        g = (_u32 * 3)(*grid)
        b = (_u32 * 3)(*block)
        r = _P()
        check(self._L.hipasm_sim_launch(self._h, module, kernel.encode(), g, b, kernarg, len(kernarg),
                                        ctypes.byref(options), ctypes.byref(r)))
        return Report(r)


class _NodeDevice(Device):
    """A device of a Node: the node owns it (closing it is the node's business)."""

    def __init__(self, node, handle):  # noqa: super().__init__ would open another device
        self._L = lib()
        self._h = handle
        self._node = node  # keeps the node open while the device is in use
        self.target = text(self._L.hipasm_sim_device_target(handle))

    def close(self):
        self._h = _P()


class Node:
    """`devices` (1..8) simulated GPUs `gpu` in one simulation (rt::node): each with its own
    memory (devices[i]: alloc, copies, load as a Device), peer mappings (map_peer: the model of
    hipIpcOpenMemHandle) and one launch per device run together."""

    def __init__(self, gpu, devices):
        self._L = lib()
        self._h = _P()
        check(self._L.hipasm_sim_node_open(gpu.encode(), devices, ctypes.byref(self._h)))
        self.devices = [_NodeDevice(self, self._L.hipasm_sim_node_device(self._h, i)) for i in range(devices)]

    def close(self):
        if self._h:
            for d in self.devices:
                d.close()
            self._L.hipasm_sim_node_close(self._h)
            self._h = _P()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def map_peer(self, user, owner, addr):
        """Device `user`'s address of the allocation at `addr` of device `owner`."""
        out = _u64()
        check(self._L.hipasm_sim_node_map_peer(self._h, user, owner, addr, ctypes.byref(out)))
        return out.value

    def launch(self, launches, options):
        """launches[i] = (module, kernel, grid, block, kernarg bytes) on device i; a Report each."""
        recs = (NodeLaunchRec * len(launches))()
        keep = []
        for rec, (module, kernel, grid, block, kernarg) in zip(recs, launches):
            buf = ctypes.create_string_buffer(bytes(kernarg), max(len(kernarg), 1))
            keep.append(buf)
            rec.module, rec.kernel = module, kernel.encode()
            rec.grid[:], rec.block[:] = list(grid), list(block)
            rec.kernarg, rec.kernarg_bytes = ctypes.cast(buf, _P), len(kernarg)
        out = (_P * len(launches))()
        check(self._L.hipasm_sim_node_launch(self._h, recs, len(launches), ctypes.byref(options), out))
        return [Report(_P(h)) for h in out]


def launch_options(check=True, check_undefined=True, allow=None, seed=0, threads=0, instruction_budget=0,
                   dynamic_lds=0, profile_device=None, clock_mhz=0.0, keep_events=False, sample_cus=0):
    o = LaunchOptions()
    lib().hipasm_sim_launch_options_init(ctypes.byref(o))
    o.check, o.check_undefined = int(bool(check)), int(bool(check_undefined))
    if allow:
        o.allow = (allow if isinstance(allow, str) else ",".join(allow)).encode()
    o.seed, o.threads, o.instruction_budget, o.dynamic_lds = seed, threads, instruction_budget, dynamic_lds
    if profile_device:
        o.profile_device = profile_device.encode()
        o.clock_mhz, o.keep_events, o.sample_cus = float(clock_mhz), int(bool(keep_events)), sample_cus
    return o


class Report:
    """A launch's checker findings and (with a profile) the timing model's report."""

    def __init__(self, handle):
        L = lib()
        try:
            self.instructions = L.hipasm_sim_report_instructions(handle)
            self.error_count = L.hipasm_sim_report_error_count(handle)
            self.summary = text(L.hipasm_sim_report_summary(handle))
            self.findings = []
            for i in range(L.hipasm_sim_report_finding_count(handle)):
                f = FindingRec()
                check(L.hipasm_sim_report_finding(handle, i, ctypes.byref(f)))
                self.findings.append({"pc": f.pc, "rule": text(f.rule), "instruction": text(f.instruction),
                                      "message": text(f.message), "source": text(f.source), "count": f.count,
                                      "first_workgroup": f.first_workgroup, "first_wave": f.first_wave,
                                      "allowed": bool(f.allowed)})
            js = L.hipasm_sim_report_profile_json(handle)
            self.profile = json.loads(text(js)) if js else None
            self._handle = handle
        except BaseException:
            L.hipasm_sim_report_free(handle)
            raise

    def write_trace(self, path):
        check(lib().hipasm_sim_report_write_trace(self._handle, os.fsencode(path)))

    def close(self):
        if self._handle:
            lib().hipasm_sim_report_free(self._handle)
            self._handle = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

"""Kernel arguments: checked against the code object's metadata (count, kinds, sizes, offsets)
and, when the kernel's C parameter types are known (a signature), against them too; packed
into the kernarg buffer hipModuleLaunchKernel and the simulator take (explicit arguments at
their offsets; the launcher fills the hidden ones)."""
import ctypes
import math
import re
import struct

# C scalar types: (kind, bytes). kind: f float, i signed, u unsigned, b bool.
_SCALARS = {
    "float": ("f", 4), "double": ("f", 8), "_Float16": ("f", 2), "half": ("f", 2), "__fp16": ("f", 2),
    "__hip_bfloat16": ("bf", 2), "hip_bfloat16": ("bf", 2),
    "bool": ("b", 1), "char": ("i", 1), "signed char": ("i", 1), "int8_t": ("i", 1),
    "unsigned char": ("u", 1), "uint8_t": ("u", 1),
    "short": ("i", 2), "short int": ("i", 2), "int16_t": ("i", 2),
    "unsigned short": ("u", 2), "unsigned short int": ("u", 2), "uint16_t": ("u", 2),
    "int": ("i", 4), "signed": ("i", 4), "signed int": ("i", 4), "int32_t": ("i", 4),
    "unsigned": ("u", 4), "unsigned int": ("u", 4), "uint32_t": ("u", 4),
    "long": ("i", 8), "long int": ("i", 8), "long long": ("i", 8), "int64_t": ("i", 8), "ptrdiff_t": ("i", 8),
    "unsigned long": ("u", 8), "unsigned long int": ("u", 8), "unsigned long long": ("u", 8),
    "uint64_t": ("u", 8), "size_t": ("u", 8),
}
_QUALIFIERS = re.compile(r"\b(const|volatile|__restrict__|__restrict|restrict|struct)\b|::|\bstd(?=::)")


class CType:
    """One parameter of a C signature: the base type, pointer or not, pointee const."""

    def __init__(self, text):
        t = " ".join(text.split())
        self.pointer = "*" in t
        if self.pointer:
            star = t.rindex("*")
            type_text, rest = t[:star + 1], t[star + 1:].split()
            self.name = rest[-1] if rest else ""
        elif _normalize(t) in _SCALARS or " " not in t:
            type_text, self.name = t, ""
        else:
            type_text, self.name = t.rsplit(" ", 1)
        self.text = type_text  # the type as written, without the parameter's name
        self.const = self.pointer and bool(re.search(r"\bconst\b", t.split("*")[0]))
        self.base = _normalize(type_text.split("*")[0])
        self.scalar = _SCALARS.get(self.base)  # None: a struct, void or a type we do not know


def _normalize(t):
    return " ".join(_QUALIFIERS.sub(" ", t).split())


def parse_signature(sig):
    """'float* out, const float* in, unsigned n' (or a list of such strings) -> [CType]."""
    if isinstance(sig, str):
        sig = sig.strip()
        if sig.startswith("(") and sig.endswith(")"):
            sig = sig[1:-1]
        parts = [p for p in _split_params(sig) if p.strip()]
    else:
        parts = list(sig)
    return [CType(p) for p in parts]


def _split_params(s):
    depth, cur, out = 0, "", []
    for c in s:
        if c in "<(":
            depth += 1
        elif c in ">)":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += c
    out.append(cur)
    return out


class DevicePointer:
    """A raw device address (HIP: a hipMalloc'ed pointer; sim: an address of the simulated device)."""

    def __init__(self, value):
        self.value = int(value)

    def __repr__(self):
        return f"DevicePointer(0x{self.value:x})"


class ArrayView:
    """What the launch needs of a numpy array, a torch tensor or a __cuda_array_interface__ object."""

    __slots__ = ("obj", "kind", "ptr", "nbytes", "dkind", "itemsize", "dtype", "contiguous", "writeable", "on_device")

    def __init__(self, obj, kind, ptr, nbytes, dkind, itemsize, dtype, contiguous, writeable, on_device):
        self.obj, self.kind, self.ptr, self.nbytes = obj, kind, ptr, nbytes
        self.dkind, self.itemsize, self.dtype = dkind, itemsize, dtype
        self.contiguous, self.writeable, self.on_device = contiguous, writeable, on_device


def _torch_kind(dtype):
    name = str(dtype).replace("torch.", "")
    if name == "bfloat16":
        return "bf"
    if name.startswith("float") or name.startswith("complex"):
        return "f"
    if name == "bool":
        return "b"
    if name.startswith("uint"):
        return "u"
    return "i"


def array_view(x):
    """An ArrayView of x, or None when x is not an array."""
    mod = type(x).__module__
    if mod == "numpy" and hasattr(x, "ctypes") and hasattr(x, "flags"):  # (numpy scalars have no .ctypes)
        return ArrayView(x, "numpy", x.ctypes.data, x.nbytes, x.dtype.kind, x.dtype.itemsize, str(x.dtype),
                         x.flags.c_contiguous, x.flags.writeable, False)
    if mod.startswith("torch") and hasattr(x, "data_ptr") and hasattr(x, "is_contiguous"):
        size = x.element_size()
        return ArrayView(x, "torch", x.data_ptr(), x.numel() * size, _torch_kind(x.dtype), size, str(x.dtype),
                         x.is_contiguous(), True, x.device.type != "cpu")
    cai = getattr(x, "__cuda_array_interface__", None)
    if cai is not None:
        typestr = cai["typestr"]
        itemsize = int(typestr[2:])
        shape = tuple(cai["shape"])
        strides = cai.get("strides")
        contiguous = strides is None or tuple(strides) == _c_strides(shape, itemsize)
        return ArrayView(x, "cai", cai["data"][0], _prod(shape) * itemsize, typestr[1], itemsize, typestr,
                         contiguous, not cai["data"][1], True)
    if hasattr(x, "__dlpack__"):
        return _dlpack_view(x)
    return None


def _prod(shape):
    return math.prod(shape)


def _c_strides(shape, itemsize):
    out, step = [], itemsize
    for d in reversed(shape):
        out.append(step)
        step *= d
    return tuple(reversed(out))


class _DLTensor(ctypes.Structure):  # dlpack.h: DLTensor (the head of DLManagedTensor)
    _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32),
                ("ndim", ctypes.c_int32), ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


_DL_KINDS = {0: "i", 1: "u", 2: "f", 4: "bf", 6: "b"}  # kDLInt, kDLUInt, kDLFloat, kDLBfloat, kDLBool
_DL_CPU = (1, 3)  # kDLCPU, kDLCUDAHost


def _dlpack_view(x):
    """Any array with __dlpack__ (jax, cupy, ...): its DLTensor, read without taking ownership
    (the capsule, kept in the view, frees it when the launch is done)."""
    capsule = x.__dlpack__()
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    t = _DLTensor.from_address(get(capsule, b"dltensor"))
    shape = tuple(t.shape[i] for i in range(t.ndim))
    itemsize = t.bits * t.lanes // 8
    contiguous = not t.strides or tuple(t.strides[i] * itemsize for i in range(t.ndim)) == _c_strides(shape, itemsize)
    kind = _DL_KINDS.get(t.code, "V")
    return ArrayView((x, capsule), "dlpack", (t.data or 0) + t.byte_offset, _prod(shape) * itemsize, kind, itemsize,
                     f"dlpack({kind}{t.bits})", contiguous, True, t.device_type not in _DL_CPU)


def _accepts(ctype, view):
    """Does a pointer parameter of C type `ctype` take an array of view's dtype?"""
    if ctype is None or ctype.scalar is None:
        return True  # void*, struct*: any element type
    kind, size = ctype.scalar
    if view.itemsize != size:
        return False
    if kind in ("i", "u"):
        # hipasm's kernels pass bf16/f16 data as uint16_t bits, fp8 as uint8_t
        return view.dkind in ("i", "u", "b") or (size == 2 and view.dkind in ("f", "bf")) or (
            size == 1 and view.dkind in ("f", "bf"))
    if kind == "b":
        return view.dkind in ("b", "u", "i")
    return view.dkind == kind


class Param:
    """One explicit kernel argument: metadata plus the C type when known."""

    def __init__(self, index, meta, ctype):
        self.index, self.meta, self.ctype = index, meta, ctype
        self.offset, self.size = meta["offset"], meta["size"]
        self.pointer = meta["pointer"]
        self.writes = not (ctype is not None and ctype.const)
        self.accepts = {}  # (element kind, size) -> does the parameter take such an array
        # A Python int passes as is when in [lo, hi] (pack's fast path; pack_value checks the rest
        # and names what is wrong): the range pack_value accepts for the parameter's kind.
        self.int_range = None
        kind = ctype.scalar[0] if ctype is not None and ctype.scalar is not None else None
        if not self.pointer and self.size in _INT_FMT and (ctype is None or kind in ("i", "u", "b")):
            bits = 8 * self.size
            lo = 0 if kind == "u" else -(1 << (bits - 1))
            hi = (1 << (bits - 1)) - 1 if kind == "i" else (1 << bits) - 1
            self.int_range = (lo, hi, (1 << bits) - 1)

    def label(self):
        name = self.meta["name"] or (self.ctype.name if self.ctype else "")
        t = f"{self.ctype.text}" if self.ctype else (
            f"{self.size}-byte {'pointer' if self.pointer else 'value'}")
        return f"argument {self.index + 1}" + (f" '{name}'" if name else "") + f" ({t})"


def make_params(kernel_meta, signature):
    explicit = [a for a in kernel_meta["args"] if not a["hidden"]]
    ctypes_ = parse_signature(signature) if signature is not None else None
    if ctypes_ is not None and len(ctypes_) != len(explicit):
        raise ValueError(f"signature of '{kernel_meta['name']}' has {len(ctypes_)} parameters, "
                         f"the code object's metadata {len(explicit)}")
    params = []
    for i, a in enumerate(explicit):
        ct = ctypes_[i] if ctypes_ is not None else None
        if ct is not None and ct.pointer != a["pointer"]:
            raise ValueError(f"signature of '{kernel_meta['name']}': parameter {i + 1} '{ct.text}' is "
                             f"{'a pointer' if ct.pointer else 'a value'}, the metadata says {a['value_kind']}")
        params.append(Param(i, a, ct))
    return params


def _is_int(v):
    if isinstance(v, bool):
        return True
    if isinstance(v, int):
        return True
    return type(v).__module__ == "numpy" and getattr(v, "dtype", None) is not None and v.dtype.kind in "iub"


def _is_float(v):
    return isinstance(v, float) or (type(v).__module__ == "numpy" and getattr(v, "dtype", None) is not None
                                    and v.dtype.kind == "f")


_INT_FMT = {1: "b", 2: "h", 4: "i", 8: "q"}
_FLOAT_FMT = {2: "e", 4: "f", 8: "d"}


def pack_value(p, v):
    """The bytes of a by-value argument."""
    size = p.size
    if isinstance(v, (bytes, bytearray, memoryview)) or hasattr(v, "_fields_"):
        b = bytes(v)
        if len(b) != size:
            raise ValueError(f"{p.label()}: {len(b)} bytes given, the kernel takes {size}")
        return b
    if type(v).__module__ == "numpy" and getattr(v, "dtype", None) is not None and v.dtype.kind == "V":
        b = v.tobytes()
        if len(b) != size:
            raise ValueError(f"{p.label()}: {len(b)} bytes given, the kernel takes {size}")
        return b
    if array_view(v) is not None or isinstance(v, DevicePointer):
        raise TypeError(f"{p.label()}: takes a value, got {type(v).__name__}")
    ct = p.ctype
    kind = ct.scalar[0] if ct is not None and ct.scalar is not None else None
    if ct is not None and ct.scalar is None:
        raise TypeError(f"{p.label()}: pass the struct as bytes or a ctypes.Structure of {size} bytes, "
                        f"got {type(v).__name__}")
    if kind in ("f", "bf"):
        if not (_is_float(v) or _is_int(v)) or isinstance(v, bool):
            raise TypeError(f"{p.label()}: takes a number, got {type(v).__name__}")
        if kind == "bf":
            bits = struct.unpack("<I", struct.pack("<f", float(v)))[0]
            return struct.pack("<H", ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF)
        return struct.pack("<" + _FLOAT_FMT[size], float(v))
    if kind in ("i", "u", "b") or kind is None:
        if _is_float(v):
            if kind is None and type(v).__module__ == "numpy" and v.dtype.itemsize == size:
                return v.tobytes()  # untyped kernel: a numpy float of the right size is its bits
            what = "an integer" if kind else "an integer (or a numpy float32/float64 scalar: the code object has " \
                                             "no parameter types; give load() a signature)"
            raise TypeError(f"{p.label()}: takes {what}, got float {v!r}")
        if not _is_int(v):
            raise TypeError(f"{p.label()}: takes an integer, got {type(v).__name__}")
        n = int(v)
        if size not in _INT_FMT:
            raise TypeError(f"{p.label()}: pass the {size}-byte value as bytes")
        lo_s, hi_u = -(1 << (8 * size - 1)), (1 << (8 * size)) - 1
        if kind == "u" and n < 0 or kind == "i" and n >= (1 << (8 * size - 1)) or n < lo_s or n > hi_u:
            raise ValueError(f"{p.label()}: {n} is out of range")
        return (n & hi_u).to_bytes(size, "little")
    raise TypeError(f"{p.label()}: cannot pass {type(v).__name__}")


def pack(kernel_name, params, end, args, pointer_of):
    """The kernarg buffer (`end` bytes) for `args`; pointer_of(param, value) -> device address."""
    buf = bytearray(end)
    pack_into(buf, kernel_name, params, args, pointer_of)
    return buf


def pack_into(buf, kernel_name, params, args, pointer_of):
    """pack() into `buf` (writable bytes of the kernarg's size): every argument's bytes are written,
    the padding between them is left as it is."""
    if len(args) != len(params):
        raise TypeError(f"'{kernel_name}' takes {len(params)} argument{'s' if len(params) != 1 else ''}, "
                        f"{len(args)} given")
    for p, v in zip(params, args):
        o = p.offset
        if p.pointer:
            buf[o:o + 8] = (v.value if type(v) is DevicePointer else pointer_of(p, v)).to_bytes(8, "little")
        elif type(v) is int and p.int_range is not None and p.int_range[0] <= v <= p.int_range[1]:
            buf[o:o + p.size] = (v & p.int_range[2]).to_bytes(p.size, "little")
        else:
            buf[o:o + p.size] = pack_value(p, v)


def pointer_argument(p, v, device_memory):
    """A pointer argument: (address, None) for None / DevicePointer, else (None, view) of an array
    checked for contiguity, element type and the memory the backend takes (device or host)."""
    if v is None:
        return 0, None
    if isinstance(v, DevicePointer):
        return v.value, None
    view = array_view(v)
    if view is None:
        what = "device memory (a GPU tensor, hipasm.DevicePointer)" if device_memory else "an array (numpy or torch)"
        raise TypeError(f"{p.label()}: takes {what}, got {type(v).__name__}")
    if view.on_device != device_memory:
        if device_memory:
            raise TypeError(f"{p.label()}: the HIP backend needs a device pointer, got a {view.kind} array in host "
                            f"memory (move it to the GPU first, e.g. tensor.cuda())")
        raise TypeError(f"{p.label()}: the simulator takes host arrays (numpy, CPU tensors), "
                        f"got one on {getattr(getattr(v, 'device', None), 'type', 'a device')}")
    if not view.contiguous:
        raise ValueError(f"{p.label()}: the array is not contiguous (use .contiguous() / np.ascontiguousarray)")
    # (the element types a parameter takes, remembered: a launch's checks are part of its cost)
    ok = p.accepts.get((view.dkind, view.itemsize))
    if ok is None:
        ok = p.accepts[(view.dkind, view.itemsize)] = _accepts(p.ctype, view)
    if not ok:
        raise TypeError(f"{p.label()}: wrong element type {view.dtype}")
    return None, view

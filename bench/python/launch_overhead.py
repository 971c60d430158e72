"""Launch overhead of hipasm's Python package (docs/python.md quotes this script's output).

    PYTHONPATH=build/python HIPASM_FAKE_HIP_LIBRARY=build/lib/libfake_amdhip64.so \\
        /usr/bin/python3 bench/python/launch_overhead.py --examples build/examples

Simulator: a Python call of a near-empty kernel (sum_even with n = 0: 10 wave-instructions),
which is the call-to-kernel-start cost plus a negligible run, against the same launch through
the C ABI with a prepacked kernarg buffer (the simulator's own launch floor); vector_add with
three numpy arrays (each copied in, the output copied back). HIP: the per-launch Python cost
(argument checks, packing, the ctypes call) against the fake libamdhip64 of python/tests, whose
recording of the call is included; the same launch as a plain ctypes caller writes it (struct.pack
of the arguments, the config array, hipModuleLaunchKernel), the floor the package is measured
against (the last line: the ratio, which should stay within 2); and the packing alone."""
import argparse
import os
import statistics
import struct
import time

import numpy as np

import hipasm
from hipasm import _args, _sim


def per_call_us(*fs, n, samples=5):
    """Median us per call of each of fs; with several, their samples alternate (f, g, f, g, ...),
    so that a change in the machine's load weighs on all of them alike."""
    for f in fs:
        f()
    times = [[] for _ in fs]
    for _ in range(samples):
        for f, out in zip(fs, times):
            t = time.perf_counter()
            for _ in range(n):
                f()
            out.append((time.perf_counter() - t) / n * 1e6)
    medians = [statistics.median(t) for t in times]
    return medians[0] if len(fs) == 1 else medians


class DeviceArray:
    def __init__(self, ptr, n):
        self.__cuda_array_interface__ = {"data": (ptr, False), "shape": (n,), "typestr": "<f4", "strides": None,
                                         "version": 3}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--examples", required=True, help="the build's examples directory (example_*.co)")
    ap.add_argument("-n", type=int, default=300, help="calls per sample")
    a = ap.parse_args()
    sum_even_co = os.path.join(a.examples, "example_sum_even.co")
    vector_add_co = os.path.join(a.examples, "example_vector_add.co")

    hipasm.device("sim")
    m = hipasm.load(sum_even_co)
    out = np.zeros(1, np.int32)
    k = m.sum_even
    rows = [("sim: k(1, 64, out, 0), sum_even, one numpy array", per_call_us(lambda: k(1, 64, out, 0), n=a.n))]

    dev = _sim.Device()
    mod = dev.load(None, sum_even_co)
    buf = dev.alloc(4)
    kernarg = struct.pack("<Qi", buf, 0)
    opts = _sim.launch_options()
    rows.append(("sim: C ABI launch, prepacked kernarg (floor)",
                 per_call_us(lambda: dev.launch(mod, "sum_even", (1, 1, 1), (64, 1, 1), kernarg, opts).close(), n=a.n)))

    va = hipasm.load(vector_add_co).vector_add
    x = np.ones(256, np.float32)
    y = np.zeros(256, np.float32)
    rows.append(("sim: vector_add(c, a, b, 256), three numpy arrays", per_call_us(lambda: va(1, 256, y, x, x, 256), n=a.n)))

    fake = os.environ.get("HIPASM_FAKE_HIP_LIBRARY")
    if fake:
        import ctypes
        log = ctypes.CDLL(fake)
        hip = hipasm.device("hip", library=fake)
        hk = hipasm.load(vector_add_co, device=hip).kernel(
            "vector_add", "float* c, const float* a, const float* b, unsigned n")
        p = hipasm.DevicePointer(0x10000)
        d = DeviceArray(0x20000, 256)

        def launch():
            hk(1, 256, p, d, d, 256)
            log.fake_hip_reset()


        # What a caller without the package writes for the same arguments: their addresses, packed
        # by hand (the layout is vector_add's: three pointers and an unsigned; no checks), the
        # config array, the call.
        L = hip._L
        f = hip.function(hk)
        P = ctypes.c_void_p

        def plain():
            kernarg = struct.pack("<QQQI", p.value, d.__cuda_array_interface__["data"][0],
                                  d.__cuda_array_interface__["data"][0], 256)
            size = ctypes.c_size_t(len(kernarg))
            buf = ctypes.create_string_buffer(kernarg, len(kernarg))
            config = (P * 5)(1, ctypes.addressof(buf), 2, ctypes.addressof(size), 3)
            L.hipModuleLaunchKernel(f, 1, 1, 1, 256, 1, 1, 0, None, None, config)
            log.fake_hip_reset()

        ours, floor = per_call_us(launch, plain, n=a.n, samples=15)
        rows.append(("hip (fake library): k(...), 4 arguments, checks + packing + ctypes call", ours))
        rows.append(("hip (fake library): plain ctypes hipModuleLaunchKernel, struct.pack", floor))
        rows.append(("hip: packing alone (_args.pack)", per_call_us(
            lambda: _args.pack("vector_add", hk.params, hk.meta["explicit_args_end"], (p, d, d, 256),
                               hip._pointer_of), n=a.n)))
    width = max(len(r[0]) for r in rows)
    for name, us in rows:
        print(f"{name:<{width}}  {us:8.1f} us")
    if fake:
        us = dict(rows)
        ratio = us["hip (fake library): k(...), 4 arguments, checks + packing + ctypes call"] / \
            us["hip (fake library): plain ctypes hipModuleLaunchKernel, struct.pack"]
        print(f"{'hip: k(...) / plain ctypes launch':<{width}}  {ratio:8.2f} x")


if __name__ == "__main__":
    main()

"""The C ABI (libhipasm_sim.so) through ctypes: metadata records, error statuses and messages,
memory, a launch with hidden arguments filled."""
import ctypes
import struct

import numpy as np
import pytest

from hipasm import _sim


def status_and_error(status):
    return status, _sim.text(_sim.lib().hipasm_sim_last_error())


def test_bad_code_object_is_an_error_not_a_crash():
    L = _sim.lib()
    h = ctypes.c_void_p()
    junk = b"\x7fELF" + b"\0" * 60
    st, msg = status_and_error(L.hipasm_sim_inspect(junk, len(junk), ctypes.byref(h)))
    assert st == 1 and msg and not h
    st, msg = status_and_error(L.hipasm_sim_inspect(b"", 0, ctypes.byref(h)))
    assert st == 1 and msg


def test_null_handles_and_bad_indices_are_invalid_argument():
    L = _sim.lib()
    n = ctypes.c_uint32()
    st, msg = status_and_error(L.hipasm_sim_kernel_count(None, ctypes.byref(n)))
    assert (st, msg) == (2, "code object is null")
    st, msg = status_and_error(L.hipasm_sim_alloc(None, 16, ctypes.byref(ctypes.c_uint64())))
    assert (st, msg) == (2, "device is null")
    assert L.hipasm_sim_report_profile_json(None) is None
    assert L.hipasm_sim_report_finding_count(None) == 0


def test_metadata_of_the_args_kernels(args_co):
    info = _sim.CodeObjectInfo(open(args_co, "rb").read())
    assert info.target == "amdgcn-amd-amdhsa--gfx942"
    echo = info.kernels["echo"]
    # echo(uint32_t* out, int32_t n, float x, pair p /* 16 bytes, align 8 */, uint16_t s): C ABI offsets
    explicit = [(a["name"], a["offset"], a["size"], a["value_kind"]) for a in echo["args"] if not a["hidden"]]
    assert explicit == [("out", 0, 8, "global_buffer"), ("n", 8, 4, "by_value"), ("x", 12, 4, "by_value"),
                        ("p", 16, 16, "by_value"), ("s", 32, 2, "by_value")]
    assert echo["explicit_arg_count"] == 5 and echo["explicit_args_end"] == 34
    hidden = info.kernels["hidden"]
    kinds = [a["value_kind"] for a in hidden["args"] if a["hidden"]]
    assert kinds[:6] == ["hidden_block_count_x", "hidden_block_count_y", "hidden_block_count_z",
                         "hidden_group_size_x", "hidden_group_size_y", "hidden_group_size_z"]
    assert [a["offset"] for a in hidden["args"][1:4]] == [8, 12, 16]
    assert hidden["explicit_arg_count"] == 1 and hidden["explicit_args_end"] == 8


def test_launch_fills_hidden_arguments(args_co):
    dev = _sim.Device()
    mod = dev.load(None, args_co)
    out = dev.alloc(6 * 4)
    dev.copy_to(out, (ctypes.c_uint8 * 24)(), 24)
    report = dev.launch(mod, "hidden", (3, 2, 1), (64, 2, 1), struct.pack("<Q", out), _sim.launch_options())
    got = np.zeros(6, np.uint32)
    dev.copy_from(got.ctypes.data, out, 24)
    assert got.tolist() == [3, 2, 1, 64, 2, 1]
    assert report.instructions > 0 and report.findings == []
    # a kernarg buffer shorter than the explicit arguments: an error naming both sizes
    with pytest.raises(_sim.SimError, match="kernarg buffer is 4 bytes, its explicit arguments end at 8"):
        dev.launch(mod, "hidden", (1, 1, 1), (64, 1, 1), b"\0" * 4, _sim.launch_options())
    with pytest.raises(_sim.SimError, match="no kernel 'nope'"):
        dev.launch(mod, "nope", (1, 1, 1), (64, 1, 1), b"\0" * 8, _sim.launch_options())
    dev.unload(mod)
    dev.free(out)
    dev.close()


def test_fault_is_an_error(args_co):
    dev = _sim.Device()
    mod = dev.load(None, args_co)
    # out = an address nothing was allocated at: the store faults
    with pytest.raises(_sim.SimError, match="0x"):
        dev.launch(mod, "hidden", (1, 1, 1), (64, 1, 1), struct.pack("<Q", 0x1234_0000), _sim.launch_options())
    dev.unload(mod)


def test_node_of_two_devices_reaches_peer_memory(args_co):
    """Two simulated devices: each adds its own a to the other device's b through a peer mapping."""
    node = _sim.Node("mi300x", 2)
    n = 128
    a = [np.arange(n, dtype=np.float32) + 1000 * d for d in range(2)]
    b = [np.full(n, 0.5 + d, np.float32) for d in range(2)]
    addr = []
    for d, dev in enumerate(node.devices):
        aa, bb, out = dev.alloc(4 * n), dev.alloc(4 * n), dev.alloc(4 * n)
        dev.copy_to(aa, a[d].ctypes.data, 4 * n)
        dev.copy_to(bb, b[d].ctypes.data, 4 * n)
        addr.append((aa, bb, out))
    assert addr[0][0] != addr[1][0]  # each device its own addresses
    mods = [dev.load(None, args_co) for dev in node.devices]
    launches = []
    for d in range(2):
        peer_b = node.map_peer(d, 1 - d, addr[1 - d][1])
        launches.append((mods[d], "add", (n // 64, 1, 1), (64, 1, 1),
                         struct.pack("<QQQI", addr[d][2], addr[d][0], peer_b, n)))
    reports = node.launch(launches, _sim.launch_options(seed=3))
    assert [r.error_count for r in reports] == [0, 0]
    for d, dev in enumerate(node.devices):
        got = np.zeros(n, np.float32)
        dev.copy_from(got.ctypes.data, addr[d][2], 4 * n)
        np.testing.assert_array_equal(got, a[d] + b[1 - d])
    for r in reports:
        r.close()
    for d, dev in enumerate(node.devices):
        dev.unload(mods[d])
    L = _sim.lib()
    st, msg = status_and_error(L.hipasm_sim_node_map_peer(node._h, 0, 5, addr[1][1], ctypes.byref(ctypes.c_uint64())))
    assert st == 1 and "device 5 of a node of 2" in msg
    node.close()

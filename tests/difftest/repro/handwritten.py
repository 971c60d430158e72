"""Hand-written reproducers built from the generator's statement classes, so that their C++
reference is the generator's own: python3 handwritten.py <name> [out dir] writes <name>.hip and
<name>_ref.cpp (sdwa: sdwa_preserve_partial; writelane: a v_writelane_b32 partial write)."""
import os
import random
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import gen  # noqa: E402
from gen import Var, KernelGen, Decl, Const, Load, Wait, Sdwa, Store, Leaf, WriteLane, Bin, Assign, WhileLoop  # noqa: E402

def kernel(name, build):
    k = KernelGen(random.Random(0), [f for f in gen.ALL_FEATURES if f != "wgshape"], name, 0)  # 2 x 64 lanes
    k.out_types = []
    k.gid = Var("gid", "v", "u32", k.nslot, 0, readonly=True); k.nslot += 1
    k.args = []
    k.wgv = None
    k.body = build(k)
    return k

def sdwa(k):
    x = k.new_var("v", "u32", 0, prefix="x")
    v = k.new_var("v", "u32", 0)
    return [Decl(x, Const("u32", 0), "fill"), Load(x, x.name, 1), Wait("vmcnt(0)"),
            Decl(v, Const("u32", 0xfffffff2), "fill"),
            Sdwa("v_mov_b32", v, v.name, (x, x.name), None, 5, 2, 2, 6),
            Store(v, v.name, k.alloc_out("i"))]

def writelane(k):
    v = k.new_var("v", "u32", 0)
    return [Decl(v, Leaf(k.gid, "u32", "gid"), "assign"),
            WriteLane(v, Const("u32", 7), 5),
            Store(v, v.name, k.alloc_out("i"))]

def vloop_div(k, n=16):
    """n divisions by a register in a per-lane While: each keeps ~18 VGPRs allocated (4 -> 79
    VGPRs, 8 -> 151, 16 -> out of VGPRs); the same statements outside the loop compile."""
    x = k.new_var("v", "u32", 0, prefix="x")
    y = k.new_var("v", "u32", 0, prefix="y")
    acc = k.new_var("v", "u32", 0, prefix="acc")
    ctr = k.new_var("v", "u32", 1, prefix="k")
    b = k.new_var("v", "u32", 1, prefix="b")
    inner = []
    for i in range(n):
        d = Bin("add", Bin("band", Leaf(y, "u32", y.name), Const("u32", 255), "u32"), Const("u32", i + 1), "u32")
        inner.append(Assign(acc, acc.name, Bin("add", Leaf(acc, "u32", acc.name),
                                               Bin("div", Leaf(x, "u32", x.name), d, "u32"), "u32")))
    return [Decl(x, Const("u32", 0), "fill"), Load(x, x.name, 0), Decl(y, Const("u32", 0), "fill"),
            Load(y, y.name, 1), Wait("vmcnt(0)"), Decl(acc, Const("u32", 0), "fill"),
            Decl(b, Bin("band", Leaf(x, "u32", x.name), Const("u32", 7), "u32"), "temp"),
            WhileLoop(ctr, Leaf(b, "u32", b.name), inner), Store(acc, acc.name, k.alloc_out("i"))]


name = sys.argv[1]
k = kernel("repro_" + name, {"sdwa": sdwa, "writelane": writelane, "vloop_div": vloop_div}[name])
gen.write_batch([k], 1, sys.argv[2] if len(sys.argv) > 2 else ".", gen.ALL_FEATURES, stem=name)

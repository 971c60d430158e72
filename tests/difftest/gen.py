#!/usr/bin/env python3
"""Random hipasm kernels and their plain C++ references (the differential tester's generator).

From a seed, writes
  <out>/batch_<seed>.hip      K random hipasm kernels (one __global__ each)
  <out>/batch_<seed>_ref.cpp  the same programs in plain C++ (difftest_abi.h's table)
The runner (run.cpp) runs each kernel in hipasm-sim and compares every output word with the
reference; bench/difftest/run drives batches; reduce.py shrinks a failing kernel.

Every program is a statement tree (class Stmt below) emitted twice: as DSL calls and as C++.
The C++ models a whole workgroup: all lanes of all its waves in lockstep, an explicit EXEC per
wave (lanes past the workgroup size off from the start), per-lane If/loops/Break/Continue and
with_exec_mask as the hardware's mask pushes and pops, wave-uniform values per wave. So the
cross-lane statements (DPP with disabled or out-of-range source lanes, readlane/readfirstlane,
lane_mask/exec_mask) have exact semantics wherever they are, LDS is shared by the waves (the
barriers are at uniform points, where lockstep is what the hardware guarantees) and atomics
are sums (any order gives the same word).

What the generator keeps valid (a failure is then a hipasm or simulator bug, never the
program's):
  - reads of other lanes only where their value is defined: DPP/readfirstlane read active
    lanes, v_readlane a lane below the last wave's size, LDS words every lane wrote before
    the barrier; v_writelane only at the top level (it writes whatever EXEC says);
  - no division by zero, no INT_MIN / -1 (divisors are made safe by construction: (y | 2) & -2,
    (y & 255) + 1, ...; a dividend a >> 1 cannot be INT_MIN); the reference flags any UB;
  - shift amounts: constants 0..31, registers as the ISA takes them (mod 32);
  - SGPR variables are written only at the divergence depth where they were declared (a
    scalar write under a per-lane branch or in a loop with per-lane exits runs for the whole
    wave, so it has no per-lane meaning); SGPR loop counters are scoped to their loop;
  - every loop has a bounded trip count (a counter nobody else writes, incremented before any
    Continue); stores are never inside loops (one store per output word and lane);
  - register pressure: the VGPR/SGPR words in scope are counted and kept below a bound well
    under the register file (256 VGPRs, 102 SGPRs) minus the compiler's own temporaries, so
    "out of registers" on a generated kernel is a compiler bug;
  - f32 values are never reinterpreted as integers (NaN payloads differ between hosts), f32
    outputs compare NaN == NaN.

Features (--features a,b / --no-features a,b; default: all):
  """

import argparse
import random
import struct
import sys

ALL_FEATURES = [
    "int",        # u32/i32 arithmetic, bitwise, shifts, min/max, unary
    "divconst",   # / and % by constants
    "divreg",     # / and % by registers (SGPR and VGPR)
    "f32",        # f32 + - * / min max, neg/abs, compares, v_cvt_f32_i32
    "fdiv",       # f32 division
    "i64",        # 64-bit address arithmetic (u64/i64 +/- 32- and 64-bit)
    "sgpr",       # SGPR variables and SALU expressions
    "uif",        # uniform If/Else
    "vif",        # per-lane If/Else
    "uloop",      # uniform For/While
    "vloop",      # per-lane For/While (per-lane exits)
    "break",      # Break
    "continue",   # Continue
    "laneexit",   # per-lane Break/Continue inside uniform loops
    "arrays",     # register arrays, indexing, slices
    "views",      # .as<T>(), lo()/hi(), slices and at() as operands and destinations
    "retarget",   # auto t = e; z = t.as<U>(); ... t read later (retargeting through a view)
    "temps",      # auto t = expr; later reads/writes of t
    "loads",      # global loads (per-lane, gathers), s_load, explicit s_waitcnt
    "stores",     # stores in the middle (also under per-lane branches)
    "pressure",   # many simultaneously live values near the register limit
    "dpp",        # DPP moves/adds (row_mask/bank_mask/bound_ctrl)
    "sdwa",       # SDWA partial writes
    "lanes",      # v_writelane/v_readlane/v_readfirstlane
    "waits",      # computed waits: a kernel drops most of its s_waitcnt for the automatic mode
                  # (kernel_options::auto_waitcnt) or replaces them by J.wait_for(loaded vars)
    "wgshape",    # workgroups of 64..256 lanes, 2-D/3-D blocks and grids (off: 2 workgroups of 64)
    "partialwave",  # with wgshape: workgroup sizes that are not multiples of 64 (1..130 lanes:
                    # a last wave whose lanes past the size are never active)
    "crosslane",  # DPP and v_readfirstlane_b32 under per-lane control flow (disabled source lanes)
    "lanemask",   # lane_mask/exec_mask/with_exec_mask, && / || of conditions (If, lane_mask)
    "masknot",    # ! of combined conditions, uniform sides of per-lane && / ||
    "buffer",     # buffer loads (V# over the workgroup's inputs), voffset + constant (soffset,
                  # offset:), in and out of range (out of range reads 0)
    "bufwrap",    # buffer offsets w + C whose u32 sum wraps around 2^32 (w near 2^32)
    "lds",        # LDS shared by the waves of a workgroup: write, s_barrier, read another lane's
                  # word; ds_add_u32 from every lane
    "atomics",    # global_atomic_add from every active lane into one word per workgroup
    "reduce",     # wave_reduce / wave_allreduce / wave_scan (sum, max, min of u32/i32 over the
                  # active lanes) anywhere
    "shuffle",    # shuffle_xor / shuffle_xor_into (masks 1..63, 16 and 32 often; the LDS form
                  # too) anywhere: a lane whose partner is off reads 0, lanes off keep the target
    "wgreduce",   # workgroup_reduce / workgroup_scan (sum, max, min of u32/i32 over the
                  # workgroup's active lanes; the scratch one of the LDS arrays) at the top level
    "ldswrap",    # with lds: an LDS address as a VGPR that wraps 32 bits (address - K) plus the DS
                  # instruction's offset:K (the sum wraps back, as in clang's code)
    "ldshigh",    # gfx950 only: the LDS arrays of "lds" / "wgreduce" placed above 64 KiB (after a
                  # static allocation of 64..160 KiB), up to the last word of the 160 KiB
]
# The targets (--arch): the programs are the same for each (every instruction the generator
# uses is in both), except for the features that only some targets have.
ARCHS = ["gfx942", "gfx950"]
ARCH_FEATURES = {"ldshigh": ["gfx950"]}
LDS_BYTES = {"gfx942": 65536, "gfx950": 163840}
__doc__ += ", ".join(ALL_FEATURES) + "\n"
__doc__ += "Targets (--arch): " + ", ".join(ARCHS) + "; features of some targets only: " + \
    ", ".join(f"{f} ({'/'.join(a)})" for f, a in ARCH_FEATURES.items()) + "\n"

INT_EDGE = [0, 1, 2, 3, 5, 7, 8, 15, 16, 31, 32, 63, 64, 100, 255, 256, 1000, 4096, 65535, 65536,
            0x7fffffff, 0x80000000, 0x80000001, 0xffffffff, 0xfffffffe, 0xfffffff0, 0x12345678,
            0xdeadbeef, 0x55555555, 0xaaaaaaaa]
F32_CONSTS = [0.5, 1.0, 2.0, 4.0, -0.5, -1.0, -2.0, -4.0, 0.0, 1.5, 3.0, -7.25, 0.1, 100.0, 1e-3, -12.5,
              65536.0, 0.3333333432674408]

# Workgroup shapes (feature "wgshape"): sizes that are not multiples of 64 (a partial last
# wave), several waves, 2-D/3-D blocks (linear id x + y * bx + z * bx * by, 64 per wave), and
# grids of up to 4 workgroups.
BLOCKS = [(20, 1, 1), (100, 1, 1), (130, 1, 1), (64, 1, 1), (128, 1, 1), (192, 1, 1), (33, 1, 1),
          (1, 1, 1), (8, 5, 1), (16, 4, 1), (10, 3, 3), (32, 2, 2), (5, 7, 2), (256, 1, 1), (63, 1, 1)]
GRIDS = [(2, 1, 1), (1, 2, 1), (2, 2, 1), (1, 1, 2), (3, 1, 1), (1, 1, 1)]

VREG_BOUND = 180   # VGPR words in scope (the file has 256: >= 60 left for expression temporaries, addresses)
SREG_BOUND = 36    # SGPR words in scope (102 addressable; masks, args, temporaries take the rest)


def f32_lit(x):
    x = struct.unpack("<f", struct.pack("<f", x))[0]
    if x == 0.0:
        return "-0.0f" if str(x).startswith("-") else "0.0f"
    return float.hex(x) + "f"


class Var:
    """A register variable (or an element of a register array)."""

    def __init__(self, name, cls, dt, slot, depth, readonly=False, array=None, index=0):
        self.name, self.cls, self.dt, self.slot = name, cls, dt, slot
        self.depth = depth          # divergence depth where it was declared
        self.readonly = readonly
        self.array = array          # (array name, length) for an element
        self.index = index
        self.is64 = dt in ("u64", "i64")

    def dsl(self, rng, views):
        """A DSL spelling of this variable (arrays: index, at, slice views)."""
        if self.array is None:
            return self.name
        an, n = self.array
        i = self.index
        if not views or rng.random() < 0.5:
            return f"{an}[{i}]"
        c = rng.randint(1, n)
        f = rng.randint(max(0, i - c + 1), min(i, n - c))
        if c == 1:
            return f"{an}.slice({f}, 1)"
        k = rng.random()
        if k < 0.4:
            return f"{an}.slice({f}, {c})[{i - f}]"
        if k < 0.7:
            return f"{an}.at({i})"
        return f"{an}.slice({f}, {c}).at({i - f})"

    def ref(self):
        return f"Q[{self.slot}][L]" if self.is64 else f"R[{self.slot}][L]"


CTYPE = {"u32": "u32", "i32": "i32", "f32": "float", "u64": "u64", "i64": "u64"}
DT = {"u32": "u32", "i32": "i32", "f32": "f32", "u64": "u64", "i64": "i64"}


def ref_read(dt, raw):
    """C++ typed value of the 32-bit word expression raw."""
    if dt == "u32":
        return raw
    if dt == "i32":
        return f"asi({raw})"
    return f"asf({raw})"


# ---- expressions ---------------------------------------------------------------------------

class Expr:
    pass


class Leaf(Expr):
    def __init__(self, var, dt, dsl):
        self.var, self.dt, self.dsl_text = var, dt, dsl  # dt: the dtype as read (views)
        self.vec = var.cls == "v"

    def dsl(self):
        return self.dsl_text

    def ref(self):
        if self.var.is64:  # lo()/hi() of a 64-bit value
            half = "hi" in self.dsl_text or "[1]" in self.dsl_text
            return ref_read(self.dt, f"u32({self.var.ref()} >> 32)" if half else f"u32({self.var.ref()})")
        return ref_read(self.dt, self.var.ref())

    def vars(self):
        return [self.var]


class Const(Expr):
    def __init__(self, dt, v):
        self.dt, self.v = dt, v
        self.vec = False

    def dsl(self):
        if self.dt == "f32":
            return f32_lit(self.v)
        if self.dt == "u32":
            return f"{self.v & 0xffffffff:#x}u"
        v = self.v
        return "(-2147483647 - 1)" if v == -2**31 else str(v)

    def ref(self):
        if self.dt == "f32":
            return f32_lit(self.v)
        if self.dt == "u32":
            return f"u32({self.v & 0xffffffff:#x}u)"
        return f"i32({self.dsl()})"

    def vars(self):
        return []


BIN_SYM = {"add": "+", "sub": "-", "mul": "*", "div": "/", "rem": "%", "shl": "<<", "shr": ">>",
           "band": "&", "bor": "|", "bxor": "^"}


class Bin(Expr):
    def __init__(self, op, a, b, dt):
        self.op, self.a, self.b, self.dt = op, a, b, dt
        self.vec = a.vec or b.vec or dt == "f32"

    def dsl(self):
        if self.op in ("min", "max"):
            return f"{self.op}({self.a.dsl()}, {self.b.dsl()})"
        return f"({self.a.dsl()} {BIN_SYM[self.op]} {self.b.dsl()})"

    def ref(self):
        return f"o{self.op}({self.a.ref()}, {self.b.ref()})"

    def vars(self):
        return self.a.vars() + self.b.vars()


class Un(Expr):
    def __init__(self, op, a, dt):
        self.op, self.a, self.dt = op, a, dt
        self.vec = a.vec or dt == "f32"

    def dsl(self):
        inner = self.a.dsl()
        if self.op == "neg":
            return f"(-{inner})"
        if self.op == "bnot":
            return f"(~{inner})"
        return f"abs({inner})"

    def ref(self):
        return f"o{self.op}({self.a.ref()})"

    def vars(self):
        return self.a.vars()


class Cond:
    def __init__(self, op, a, b, negate):
        self.op, self.a, self.b, self.negate = op, a, b, negate
        self.vec = a.vec or b.vec or a.dt == "f32"

    def dsl(self):
        s = f"{self.a.dsl()} {self.op} {self.b.dsl()}"
        return f"!({s})" if self.negate else s

    def ref(self):
        s = f"({self.a.ref()} {self.op} {self.b.ref()})"
        return f"!{s}" if self.negate else s

    def vars(self):
        return self.a.vars() + self.b.vars()


class CondComb(Cond):
    """a && b, a || b, optionally negated (hipasm: lane masks combined with s_and_b64/s_or_b64,
    or SCC for two uniform sides)."""

    def __init__(self, op, a, b, negate):
        self.op, self.a, self.b, self.negate = op, a, b, negate
        self.vec = a.vec or b.vec

    def dsl(self):
        s = f"({self.a.dsl()}) {self.op} ({self.b.dsl()})"
        return f"!({s})" if self.negate else f"({s})"

    def ref(self):
        s = f"({self.a.ref()} {self.op} {self.b.ref()})"
        return f"!{s}" if self.negate else s

    def vars(self):
        return self.a.vars() + self.b.vars()


# ---- statements -----------------------------------------------------------------------------

class Stmt:
    decl = ()           # variables this statement declares

    def children(self):
        return []

    def rkind(self):
        """How the reference runs it: "v" per active lane (EXEC), "s" once per wave for all its
        lanes (a wave-uniform SGPR write), "x" its own mask-level code (ref())."""
        return "v"


def ind(n):
    return "  " * n


class Decl(Stmt):
    """auto x = J.vgpr<T>(); x = e;   |   auto t = e;   |   auto a = J.vgpr<T>(n).fill(e)"""

    def __init__(self, var, expr, form, elems=None):
        self.var, self.expr, self.form, self.elems = var, expr, form, elems or []
        self.decl = [var] + self.elems

    def dsl(self, d):
        v = self.var
        if self.form == "temp":
            return [f"{ind(d)}auto {v.name} = {self.expr.dsl()};"]
        mk = "vgpr" if v.cls == "v" else "sgpr"
        if self.form == "array":
            return [f"{ind(d)}auto {v.name} = J.{mk}<{DT[v.dt]}>({len(self.elems)}).fill({self.expr.dsl()});"]
        if self.form == "fill":
            return [f"{ind(d)}auto {v.name} = J.{mk}<{DT[v.dt]}>().fill({self.expr.dsl()});"]
        return [f"{ind(d)}auto {v.name} = J.{mk}<{DT[v.dt]}>();", f"{ind(d)}{v.name} = {self.expr.dsl()};"]

    def rkind(self):
        return self.var.cls

    def ref(self, d):
        if self.form == "array":
            lines = [f"{ind(d)}{{ const auto e_ = {self.expr.ref()};"]
            for e in self.elems:
                lines.append(f"{ind(d + 1)}{e.ref()} = bits(e_);")
            return lines + [f"{ind(d)}}}"]
        return [f"{ind(d)}{self.var.ref()} = bits({self.expr.ref()});"]


class Assign(Stmt):
    def __init__(self, var, dsl_lhs, expr, compound=None):
        self.var, self.lhs, self.expr, self.compound = var, dsl_lhs, expr, compound

    def rkind(self):
        return self.var.cls

    def dsl(self, d):
        if self.compound:
            return [f"{ind(d)}{self.lhs} {BIN_SYM[self.compound]}= {self.expr.dsl()};"]
        return [f"{ind(d)}{self.lhs} = {self.expr.dsl()};"]

    def ref(self, d):
        v = self.var
        e = self.expr.ref()
        if self.compound:
            e = f"o{self.compound}({ref_read(v.dt, v.ref())}, {e})"
        return [f"{ind(d)}{v.ref()} = bits({e});"]


class Assign64(Stmt):
    """q = p +/- x (x: u32/i32 zero/sign-extended, u64/i64, or an immediate)."""

    def __init__(self, q, p, sub, off, off_dsl, off_ref):
        self.q, self.p, self.sub, self.off, self.off_dsl, self.off_ref = q, p, sub, off, off_dsl, off_ref

    def rkind(self):
        return self.q.cls

    def dsl(self, d):
        return [f"{ind(d)}{self.q.name} = {self.p.name} {'-' if self.sub else '+'} {self.off_dsl};"]

    def ref(self, d):
        return [f"{ind(d)}{self.q.ref()} = {self.p.ref()} {'-' if self.sub else '+'} {self.off_ref};"]


class Decl64(Stmt):
    def __init__(self, q, lo, hi):
        self.q, self.lo, self.hi = q, lo, hi
        self.decl = [q]

    def rkind(self):
        return self.q.cls

    def dsl(self, d):
        q = self.q
        mk = "vgpr" if q.cls == "v" else "sgpr"
        return [f"{ind(d)}auto {q.name} = J.{mk}<{DT[q.dt]}>();",
                f"{ind(d)}{q.name}.lo() = {self.lo.dsl()};",
                f"{ind(d)}{q.name}.hi() = {self.hi.dsl()};"]

    def ref(self, d):
        return [f"{ind(d)}{self.q.ref()} = u64(bits({self.lo.ref()})) | (u64(bits({self.hi.ref()})) << 32);"]


class If(Stmt):
    def __init__(self, cond, then, els):
        self.cond, self.then, self.els = cond, then, els

    def children(self):
        return [self.then] + ([self.els] if self.els is not None else [])

    def dsl(self, d):
        out = [f"{ind(d)}J.If({self.cond.dsl()}, [&] {{"]
        out += emit_dsl(self.then, d + 1)
        if self.els is not None:
            out.append(f"{ind(d)}}}).Else([&] {{")
            out += emit_dsl(self.els, d + 1)
        out.append(f"{ind(d)}}});")
        return out

    def rkind(self):
        return "x"

    def ref(self, d):
        # EXEC as the hardware keeps it: the lanes where the condition holds run the then
        # branch, the others the else branch, then the saved mask comes back (less the lanes
        # that left the innermost loop by Break/Continue meanwhile)
        i = new_id()
        out = [f"{ind(d)}{{ u64 S{i}[NW], C{i}[NW];",
               f"{ind(d)}for (int w = 0; w < NW; ++w) {{ S{i}[w] = E[w]; C{i}[w] = 0; }}"]
        out += lane_loop([f"if ({self.cond.ref()}) C{i}[w] |= 1ull << l;"], d, True)
        out.append(f"{ind(d)}for (int w = 0; w < NW; ++w) E[w] = S{i}[w] & C{i}[w];")
        out += emit_ref(self.then, d)
        if self.els is not None:
            out.append(f"{ind(d)}for (int w = 0; w < NW; ++w) E[w] = S{i}[w] & ~C{i}[w]{loop_exits()};")
            out += emit_ref(self.els, d)
        out.append(f"{ind(d)}for (int w = 0; w < NW; ++w) E[w] = S{i}[w]{loop_exits()}; }}")
        return out


class ForLoop(Stmt):
    """J.For(i, begin, end, body, step)."""

    def __init__(self, ctr, begin, end, step, body, declare_ctr):
        self.ctr, self.begin, self.end, self.step, self.body = ctr, begin, end, step, body
        self.declare_ctr = declare_ctr
        self.decl = [ctr] if declare_ctr else []

    def children(self):
        return [self.body]

    def dsl(self, d):
        c = self.ctr
        out = []
        if self.declare_ctr:
            out.append(f"{ind(d)}auto {c.name} = J.{'vgpr' if c.cls == 'v' else 'sgpr'}<{DT[c.dt]}>();")
        out.append(f"{ind(d)}J.For({c.name}, {self.begin.dsl()}, {self.end.dsl()}, [&] {{")
        out += emit_dsl(self.body, d + 1)
        out.append(f"{ind(d)}}}, {self.step});")
        return out

    def rkind(self):
        return "x"

    def ref(self, d):
        c = self.ctr
        cv = ref_read(c.dt, c.ref())
        cmp = "<" if self.step >= 0 else ">"
        return loop_ref(d, [f"{c.ref()} = bits({self.begin.ref()});"], c.cls, f"{cv} {cmp} {self.end.ref()}",
                        [f"{c.ref()} = bits(oadd({cv}, {Const(c.dt, self.step).ref()}));"], [], self.body)


class WhileLoop(Stmt):
    """k = 0; While(k < bound) { k = k + 1; body }"""

    def __init__(self, ctr, bound, body):
        self.ctr, self.bound, self.body = ctr, bound, body
        self.decl = [ctr]

    def children(self):
        return [self.body]

    def dsl(self, d):
        c = self.ctr
        out = [f"{ind(d)}auto {c.name} = J.{'vgpr' if c.cls == 'v' else 'sgpr'}<{DT[c.dt]}>().fill(0);",
               f"{ind(d)}J.While([&] {{ return {c.name} < {self.bound.dsl()}; }}, [&] {{",
               f"{ind(d + 1)}{c.name} = {c.name} + 1;"]
        out += emit_dsl(self.body, d + 1)
        return out + [f"{ind(d)}}});"]

    def rkind(self):
        return "x"

    def ref(self, d):
        c = self.ctr
        cv = ref_read(c.dt, c.ref())
        return loop_ref(d, [f"{c.ref()} = 0;"], c.cls, f"{cv} < {self.bound.ref()}", [],
                        [f"{c.ref()} = bits(oadd({cv}, {Const(c.dt, 1).ref()}));"], self.body)


class Jump(Stmt):
    def __init__(self, kind):
        self.kind = kind  # "Break" / "Continue"

    def dsl(self, d):
        return [f"{ind(d)}J.{self.kind}();"]

    def rkind(self):
        return "x"

    def ref(self, d):
        # the active lanes leave the innermost loop (Break) or this iteration (Continue)
        i = LOOPS[-1]
        m = f"B{i}" if self.kind == "Break" else f"K{i}"
        return [f"{ind(d)}for (int w = 0; w < NW; ++w) {{ {m}[w] |= E[w]; E[w] = 0; }}"]


class Load(Stmt):
    """global_load_dword v, in + lane * nin * 4 (+ idx * 4 for a gather), offset k * 4"""

    def __init__(self, var, lhs, k, gather=None):
        self.var, self.lhs, self.k, self.gather = var, lhs, k, gather

    def dsl(self, d):
        if self.gather is None:
            return [f"{ind(d)}J.global_load_dword({self.lhs}, inb, off, {{.offset = {4 * self.k}}});"]
        g = self.gather
        return [f"{ind(d)}{{",
                f"{ind(d + 1)}auto ga = J.vgpr<u64>();",
                f"{ind(d + 1)}ga = inb + (({g.dsl()} & 15u) << 2);",
                f"{ind(d + 1)}J.global_load_dword({self.lhs}, ga, off, {{.offset = {4 * self.k}}});",
                f"{ind(d)}}}"]

    def ref(self, d):
        idx = f"{self.k}" if self.gather is None else f"{self.k} + (bits({self.gather.ref()}) & 15u)"
        return [f"{ind(d)}{self.var.ref()} = in[gid * NIN + {idx}];"]


class SLoad(Stmt):
    def __init__(self, var, lhs, k):
        self.var, self.lhs, self.k = var, lhs, k

    def rkind(self):
        return "s"

    def dsl(self, d):
        return [f"{ind(d)}J.s_load_dword({self.lhs}, sinb, {4 * self.k});"]

    def ref(self, d):
        return [f"{ind(d)}{self.var.ref()} = sin[wg * NSIN + {self.k}];"]


class Wait(Stmt):
    def __init__(self, what):
        self.what = what

    def dsl(self, d):
        return [f"{ind(d)}J.s_waitcnt({self.what});"]

    def ref(self, d):
        return []


class WaitFor(Stmt):
    """J.wait_for(vars...): the weakest wait for the loads in flight into them."""

    def __init__(self, names):
        self.names = names

    def dsl(self, d):
        return [f"{ind(d)}J.wait_for({', '.join(self.names)});"]

    def ref(self, d):
        return []


class NoWait(Stmt):
    """A wait left to the automatic mode."""

    def dsl(self, d):
        return []

    def ref(self, d):
        return []


class Store(Stmt):
    """global_store_dword of a 32-bit register (an SGPR through a VGPR copy)."""

    def __init__(self, var, spelling, slot, half=None):
        self.var, self.spelling, self.slot, self.half = var, spelling, slot, half

    def dsl(self, d):
        if self.var.cls == "v":
            return [f"{ind(d)}J.global_store_dword(ob, {self.spelling}, off, {{.offset = {4 * self.slot}}});"]
        return [f"{ind(d)}{{",
                f"{ind(d + 1)}auto sv = J.vgpr<u32>();",
                f"{ind(d + 1)}J.v_mov_b32(sv, {self.spelling});",
                f"{ind(d + 1)}J.global_store_dword(ob, sv, off, {{.offset = {4 * self.slot}}});",
                f"{ind(d)}}}"]

    def ref(self, d):
        v = self.var
        if v.is64:
            val = f"u32({v.ref()} >> 32)" if self.half == 1 else f"u32({v.ref()})"
        else:
            val = v.ref()
        return [f"{ind(d)}out[gid * NOUT + {self.slot}] = {val};"]


class Dpp(Stmt):
    """J.v_mov_b32 / v_add_u32 / v_add_f32 with DPP on src0 (any EXEC: a source lane that is
    out of range or disabled reads 0 with bound_ctrl, else the lane is not written)."""

    def __init__(self, op, dst, src0, src1, ctrl, rm, bm, bc, dt):
        self.op, self.dst, self.src0, self.src1 = op, dst, src0, src1
        self.ctrl, self.rm, self.bm, self.bc, self.dt = ctrl, rm, bm, bc, dt

    def dsl(self, d):
        srcs = self.src0.name if self.src1 is None else f"{self.src0.name}, {self.src1.name}"
        return [f"{ind(d)}J.{self.op}({self.dst.name}, {srcs}, {{.dpp = {{.ctrl = {self.ctrl:#x}, "
                f".row_mask = {self.rm:#x}, .bank_mask = {self.bm:#x}, .bound_ctrl = {str(self.bc).lower()}}}}});"]

    def rkind(self):
        return "x"

    def ref(self, d):
        dst, s0, s1 = self.dst, self.src0, self.src1
        lines = [f"{ind(d)}for (int w = 0; w < NW; ++w) {{ if (!E[w]) continue;",
                 f"{ind(d)}  u32 t_[64]; for (int l = 0; l < 64; ++l) {{ const int L = w * 64 + l; t_[l] = {dst.ref()}; }}",
                 f"{ind(d)}  for (int l = 0; l < 64; ++l) {{",
                 f"{ind(d)}    const int L = w * 64 + l;",
                 f"{ind(d)}    if (!((E[w] >> l) & 1)) continue;",
                 f"{ind(d)}    if (!(({self.rm:#x} >> (l >> 4)) & 1) || !(({self.bm:#x} >> ((l >> 2) & 3)) & 1)) continue;",
                 f"{ind(d)}    const int s_ = dpp_src({self.ctrl:#x}, l);",
                 f"{ind(d)}    u32 a_;",
                 f"{ind(d)}    if (s_ < 0 || !((E[w] >> s_) & 1)) {{ if (!{str(self.bc).lower()}) continue; a_ = 0; }} "
                 f"else a_ = R[{s0.slot}][w * 64 + s_];"]
        if self.op == "v_mov_b32":
            lines.append(f"{ind(d)}    t_[l] = a_;")
        elif self.op == "v_add_u32":
            lines.append(f"{ind(d)}    t_[l] = a_ + {s1.ref()};")
        else:
            lines.append(f"{ind(d)}    t_[l] = bits(asf(a_) + asf({s1.ref()}));")
        lines += [f"{ind(d)}  }}",
                  f"{ind(d)}  for (int l = 0; l < 64; ++l) {{ const int L = w * 64 + l; {dst.ref()} = t_[l]; }} }}"]
        return lines


class Sdwa(Stmt):
    """v_mov_b32 / v_add_u32 with SDWA selects: a partial write of dst."""

    def __init__(self, op, dst, dst_s, src0, src1, dsel, unused, s0sel, s1sel):
        self.op, self.dst, self.dst_s, self.src0, self.src1 = op, dst, dst_s, src0, src1
        self.dsel, self.unused, self.s0sel, self.s1sel = dsel, unused, s0sel, s1sel

    def dsl(self, d):
        srcs = self.src0[1] if self.src1 is None else f"{self.src0[1]}, {self.src1[1]}"
        m = f".sdwa = {{.on = true, .dst_sel = {self.dsel}, .dst_unused = {self.unused}, .src0_sel = {self.s0sel}"
        if self.src1 is not None:
            m += f", .src1_sel = {self.s1sel}"
        return [f"{ind(d)}J.{self.op}({self.dst_s}, {srcs}, {{{m}}}}});"]

    def ref(self, d):
        a = f"sdwa_sel({self.src0[0].ref()}, {self.s0sel})"
        res = a if self.src1 is None else f"{a} + sdwa_sel({self.src1[0].ref()}, {self.s1sel})"
        dr = self.dst.ref()
        return [f"{ind(d)}{dr} = sdwa_dst({dr}, {res}, {self.dsel}, {self.unused});"]


class WriteLane(Stmt):
    """v_writelane_b32: writes lane `lane` of every wave whatever EXEC says (top level only)."""

    def __init__(self, dst, src, lane):
        self.dst, self.src, self.lane = dst, src, lane  # src: Leaf (SGPR) or Const; lane: int

    def dsl(self, d):
        return [f"{ind(d)}J.v_writelane_b32({self.dst.name}, {self.src.dsl()}, {self.lane});"]

    def rkind(self):
        return "x"

    def ref(self, d):
        return [f"{ind(d)}for (int w = 0; w < NW; ++w) {{ if (!E[w]) continue; const int L = w * 64; "
                f"R[{self.dst.slot}][w * 64 + {self.lane}] = bits({self.src.ref()}); }}"]


class ReadLane(Stmt):
    """v_readlane_b32 (a lane active in every wave) / v_readfirstlane_b32 (the first active)."""

    def __init__(self, dst, src, lane):
        self.dst, self.src, self.lane = dst, src, lane  # lane: int, or -1 for readfirstlane

    def dsl(self, d):
        if self.lane < 0:
            return [f"{ind(d)}J.v_readfirstlane_b32({self.dst.name}, {self.src.name});"]
        return [f"{ind(d)}J.v_readlane_b32({self.dst.name}, {self.src.name}, {self.lane});"]

    def rkind(self):
        return "x"

    def ref(self, d):
        lane = "std::countr_zero(E[w])" if self.lane < 0 else str(self.lane)
        return [f"{ind(d)}for (int w = 0; w < NW; ++w) {{ if (!E[w]) continue; const u32 x_ = R[{self.src.slot}][w * 64 + {lane}]; "
                f"for (int l = 0; l < 64; ++l) R[{self.dst.slot}][w * 64 + l] = x_; }}"]


class Cvt(Stmt):
    def __init__(self, dst, src):
        self.dst, self.src = dst, src

    def dsl(self, d):
        return [f"{ind(d)}J.v_cvt_f32_i32({self.dst.name}, {self.src.dsl()});"]

    def ref(self, d):
        return [f"{ind(d)}{self.dst.ref()} = bits(float({self.src.ref()}));"]


class LaneMask(Stmt):
    """auto m = lane_mask(J, c) (the lanes of EXEC where c holds) or exec_mask(J); then
    x = (x ^ m.lo()) + m.hi() * K so that the mask is seen where m goes out of scope."""

    def __init__(self, m, cond, mix):
        self.m, self.cond, self.mix = m, cond, mix  # cond None: exec_mask; mix: a u32 VGPR Var or None
        self.decl = [m]

    def rkind(self):
        return "x"

    def dsl(self, d):
        c = "exec_mask(J)" if self.cond is None else f"lane_mask(J, {self.cond.dsl()})"
        out = [f"{ind(d)}auto {self.m.name} = {c};"]
        if self.mix is not None:
            x, m = self.mix.name, self.m.name
            out.append(f"{ind(d)}{x} = ({x} ^ {m}.lo()) + {m}.hi() * 0x9e3779b9u;")
        return out

    def ref(self, d):
        i = new_id()
        out = [f"{ind(d)}{{ u64 M{i}[NW]; for (int w = 0; w < NW; ++w) M{i}[w] = 0;"]
        if self.cond is None:
            out.append(f"{ind(d)}for (int w = 0; w < NW; ++w) M{i}[w] = E[w];")
        else:
            out += lane_loop([f"if ({self.cond.ref()}) M{i}[w] |= 1ull << l;"], d, True)
        out += lane_loop([f"{self.m.ref()} = M{i}[w];"], d, False)
        if self.mix is not None:
            x, m = self.mix.ref(), self.m.ref()
            out += lane_loop([f"{x} = ({x} ^ u32({m})) + u32({m} >> 32) * 0x9e3779b9u;"], d, True)
        return out + [f"{ind(d)}}}"]


class WithExec(Stmt):
    """with_exec_mask(J, m, body): EXEC &= m for the body (skipped when empty), then back."""

    def __init__(self, m, body):
        self.m, self.body = m, body

    def children(self):
        return [self.body]

    def rkind(self):
        return "x"

    def dsl(self, d):
        return [f"{ind(d)}with_exec_mask(J, {self.m.name}, [&] {{"] + emit_dsl(self.body, d + 1) + [f"{ind(d)}}});"]

    def ref(self, d):
        i = new_id()
        out = [f"{ind(d)}{{ u64 S{i}[NW]; for (int w = 0; w < NW; ++w) {{ S{i}[w] = E[w]; E[w] &= {self.m.ref().replace('[L]', '[w * 64]')}; }}"]
        out += emit_ref(self.body, d)
        return out + [f"{ind(d)}for (int w = 0; w < NW; ++w) E[w] = S{i}[w]{loop_exits()}; }}"]


class BufLoad(Stmt):
    """BUF.load(v, w + C), w = (idx << 2) - K: a raw buffer over the workgroup's inputs
    (num_records NREC bytes); the offset is the u32 sum (it may wrap around 2^32); out of
    range reads 0."""

    def __init__(self, var, lhs, idx, k, c):
        self.var, self.lhs, self.idx, self.k, self.c = var, lhs, idx, k, c

    def dsl(self, d):
        tail = f" + {self.c:#x}u" if self.c else ""
        return [f"{ind(d)}{{",
                f"{ind(d + 1)}auto bw = J.vgpr<u32>();",
                f"{ind(d + 1)}bw = ({self.idx.dsl()} << 2) - {self.k:#x}u;",
                f"{ind(d + 1)}BUF.load({self.lhs}, bw{tail});",
                f"{ind(d)}}}"]

    def ref(self, d):
        return [f"{ind(d)}{{ const u32 o_ = (bits({self.idx.ref()}) << 2) - {self.k:#x}u + {self.c:#x}u;",
                f"{ind(d)}  {self.var.ref()} = u64(o_) + 4 <= NREC ? in[u64(wg) * WS * NIN + o_ / 4] : 0u; }}"]


class LdsXchg(Stmt):
    """Every lane writes its word of an LDS array of WS words, s_barrier, every lane (maybe)
    adds to word (idx & P-1) with ds_add_u32, s_barrier, reads word (ridx & P-1). Top level."""

    def __init__(self, dst, src, lds, addv, aidx, ridx, p, wrap=0):
        self.dst, self.src, self.lds, self.addv, self.aidx, self.ridx, self.p = dst, src, lds, addv, aidx, ridx, p
        self.wrap = wrap  # "ldswrap": K > 0, the address VGPR holds address - K and offset:K adds it back

    def rkind(self):
        return "x"

    def dsl(self, d):
        o = f"{self.lds}.offset"
        k = f" - {self.wrap}u" if self.wrap else ""
        opt = f", {{.offset = {self.wrap}}}" if self.wrap else ""
        out = [f"{ind(d)}{{",
               f"{ind(d + 1)}auto la = J.vgpr<u32>();",
               f"{ind(d + 1)}la = tid * 4u + {o}{k};",
               f"{ind(d + 1)}J.ds_write_b32(la, {self.src.name}{opt});",
               f"{ind(d + 1)}J.s_waitcnt(lgkmcnt(0));",
               f"{ind(d + 1)}J.s_barrier();"]
        if self.addv is not None:
            out += [f"{ind(d + 1)}auto aa = J.vgpr<u32>();",
                    f"{ind(d + 1)}aa = ({self.aidx.dsl()} & {self.p - 1}u) * 4u + {o}{k};",
                    f"{ind(d + 1)}J.ds_add_u32(aa, {self.addv.name}{opt});",
                    f"{ind(d + 1)}J.s_waitcnt(lgkmcnt(0));",
                    f"{ind(d + 1)}J.s_barrier();"]
        out += [f"{ind(d + 1)}auto ra = J.vgpr<u32>();",
                f"{ind(d + 1)}ra = ({self.ridx.dsl()} & {self.p - 1}u) * 4u + {o}{k};",
                f"{ind(d + 1)}J.ds_read_b32({self.dst.name}, ra{opt});",
                f"{ind(d + 1)}J.s_waitcnt(lgkmcnt(0));",
                f"{ind(d)}}}"]
        return out

    def ref(self, d):
        i = new_id()
        out = [f"{ind(d)}{{ static thread_local u32 X{i}[NL];"]
        out += lane_loop([f"X{i}[L] = {self.src.ref()};"], d, True)
        if self.addv is not None:
            out += lane_loop([f"X{i}[bits({self.aidx.ref()}) & {self.p - 1}u] += {self.addv.ref()};"], d, True)
        out += lane_loop([f"{self.dst.ref()} = X{i}[bits({self.ridx.ref()}) & {self.p - 1}u];"], d, True)
        return out + [f"{ind(d)}}}"]


class GAtomic(Stmt):
    """global_atomic_add of every active lane's value into output word `slot` of the
    workgroup's lane 0 (a sum: the order does not matter)."""

    def __init__(self, var, slot):
        self.var, self.slot = var, slot

    def dsl(self, d):
        return [f"{ind(d)}J.global_atomic_add(atb, {self.var.name}, off, {{.offset = {4 * self.slot}}});"]

    def ref(self, d):
        return [f"{ind(d)}out[u64(wg) * WS * NOUT + {self.slot}] += {self.var.ref()};"]


def red_ref_parts(op, src):
    """The reference's pieces of a reduction or scan of u32/i32 `src` (WaveRed, WgRed): the C
    type, the op's identity, its combine function and the expression of lane l of wave w."""
    dt = src.dt
    ident = {"sum": "0", "max": "0" if dt == "u32" else "INT_MIN", "min": "~0u" if dt == "u32" else "INT_MAX"}[op]
    f = {"sum": "oadd", "max": "omax", "min": "omin"}[op]
    return CTYPE[dt], ident, f, ref_read(dt, f"R[{src.slot}][w * 64 + l]")


class WaveRed(Stmt):
    """auto r = wave_reduce / wave_allreduce(J, op, x) or wave_scan(J, op, x[, exclusive]).value:
    over the wave's active lanes (a scan in lane order)."""

    def __init__(self, kind, op, dst, src, exclusive=False):
        self.kind, self.op, self.dst, self.src, self.exclusive = kind, op, dst, src, exclusive
        self.decl = [dst]

    def rkind(self):
        return "x"

    def dsl(self, d):
        a = f"J, reduce::{self.op}, {self.src.name}"
        if self.kind == "scan":
            o = ", {.exclusive = true}" if self.exclusive else ""
            return [f"{ind(d)}auto {self.dst.name} = wave_scan({a}{o}).value;"]
        return [f"{ind(d)}auto {self.dst.name} = wave_{self.kind}({a});"]

    def ref(self, d):
        ct, ident, f, x = red_ref_parts(self.op, self.src)
        out = [f"{ind(d)}for (int w = 0; w < NW; ++w) {{ if (!E[w]) continue; {ct} acc_ = {ct}({ident});"]
        if self.kind == "scan":
            upd = f"acc_ = {f}(acc_, {x});"
            setv = f"R[{self.dst.slot}][w * 64 + l] = bits(acc_);"
            body = f"{setv} {upd}" if self.exclusive else f"{upd} {setv}"
            out.append(f"{ind(d)}  for (int l = 0; l < 64; ++l) if ((E[w] >> l) & 1) {{ {body} }}")
        else:
            out.append(f"{ind(d)}  for (int l = 0; l < 64; ++l) if ((E[w] >> l) & 1) acc_ = {f}(acc_, {x});")
            if self.kind == "reduce":
                out.append(f"{ind(d)}  for (int l = 0; l < 64; ++l) R[{self.dst.slot}][w * 64 + l] = bits(acc_);")
            else:
                out.append(f"{ind(d)}  for (int l = 0; l < 64; ++l) if ((E[w] >> l) & 1) R[{self.dst.slot}][w * 64 + l] = bits(acc_);")
        return out + [f"{ind(d)}}}"]


class Shuffle(Stmt):
    """auto r = shuffle_xor(J, x, m[, {.lds = true}]) or shuffle_xor_into(J, d, x, m[, ...]):
    every active lane l gets x of lane l ^ m, 0 when that lane is off (past the workgroup's
    end or disabled); the lanes that are off keep d (the helpers' contract, lanes.hpp)."""

    def __init__(self, dst, src, mask, into, lds):
        self.dst, self.src, self.mask, self.into, self.lds = dst, src, mask, into, lds
        self.decl = [] if into else [dst]

    def rkind(self):
        return "x"

    def dsl(self, d):
        o = ", {.lds = true}" if self.lds else ""
        if self.into:
            return [f"{ind(d)}shuffle_xor_into(J, {self.dst.name}, {self.src.name}, {self.mask}u{o});"]
        return [f"{ind(d)}auto {self.dst.name} = shuffle_xor(J, {self.src.name}, {self.mask}u{o});"]

    def ref(self, d):
        m, s, t = self.mask, self.src.slot, self.dst.slot
        return [f"{ind(d)}for (int w = 0; w < NW; ++w) {{ if (!E[w]) continue; u32 t_[64];",
                f"{ind(d)}  for (int l = 0; l < 64; ++l) {{ const int p_ = l ^ {m}; "
                f"t_[l] = ((E[w] >> p_) & 1) ? R[{s}][w * 64 + p_] : 0u; }}",
                f"{ind(d)}  for (int l = 0; l < 64; ++l) if ((E[w] >> l) & 1) R[{t}][w * 64 + l] = t_[l]; }}"]


class WgRed(Stmt):
    """auto r = workgroup_reduce(J, op, x, ldsN, NW) (SGPR) or workgroup_scan(...).value: over
    the workgroup's active lanes, in the order of the linear thread id. Top level (a barrier)."""

    def __init__(self, kind, op, dst, src, lds, nw, bdim, exclusive=False):
        self.kind, self.op, self.dst, self.src, self.lds = kind, op, dst, src, lds
        self.nw, self.bdim, self.exclusive = nw, bdim, exclusive
        self.decl = [dst]

    def rkind(self):
        return "x"

    def dsl(self, d):
        o = []
        if self.exclusive:
            o.append(".exclusive = true")
        if self.bdim[1] * self.bdim[2] > 1:
            o += [f".block_x = {self.bdim[0]}", f".block_y = {self.bdim[1]}"]
        opts = f", {{{', '.join(o)}}}" if o else ""
        a = f"J, reduce::{self.op}, {self.src.name}, {self.lds}, {self.nw}{opts}"
        if self.kind == "scan":
            return [f"{ind(d)}auto {self.dst.name} = workgroup_scan({a}).value;"]
        return [f"{ind(d)}auto {self.dst.name} = workgroup_reduce({a});"]

    def ref(self, d):
        ct, ident, f, x = red_ref_parts(self.op, self.src)
        out = [f"{ind(d)}{{ {ct} acc_ = {ct}({ident});"]
        if self.kind == "scan":
            upd = f"acc_ = {f}(acc_, {x});"
            setv = f"R[{self.dst.slot}][w * 64 + l] = bits(acc_);"
            body = f"{setv} {upd}" if self.exclusive else f"{upd} {setv}"
            out.append(f"{ind(d)}  for (int w = 0; w < NW; ++w) for (int l = 0; l < 64; ++l) if ((E[w] >> l) & 1) {{ {body} }}")
        else:
            out.append(f"{ind(d)}  for (int w = 0; w < NW; ++w) for (int l = 0; l < 64; ++l) if ((E[w] >> l) & 1) acc_ = {f}(acc_, {x});")
            out.append(f"{ind(d)}  for (int w = 0; w < NW; ++w) for (int l = 0; l < 64; ++l) R[{self.dst.slot}][w * 64 + l] = bits(acc_);")
        return out + [f"{ind(d)}}}"]


def emit_dsl(stmts, d):
    out = []
    for s in stmts:
        out += s.dsl(d)
    return out


# ---- the reference's whole-workgroup model ---------------------------------------------------
# The reference runs all lanes of all waves of a workgroup in lockstep: NW waves of 64 lanes
# (lane L = w * 64 + l, the workgroup's linear thread id), an explicit EXEC per wave (E[w];
# lanes past the workgroup size are off from the start), per-lane If and loops as mask
# operations like the hardware's. VGPR variables are R[slot][L] / Q[slot][L]; an SGPR
# variable has the same layout with all 64 lanes of a wave holding its value (a scalar write
# sets them all). A wave with no active lane skips everything: what it would do then (scalar
# writes to variables scoped there) cannot be observed.
LOOPS = []     # ids of the enclosing loops while the reference is emitted (innermost last)
_IDS = [0]


def new_id():
    _IDS[0] += 1
    return _IDS[0]


def loop_exits():
    """The lanes that left the innermost loop (Break) or its iteration (Continue)."""
    return f" & ~(B{LOOPS[-1]}[w] | K{LOOPS[-1]}[w])" if LOOPS else ""


def lane_loop(lines, d, masked):
    """lines for every lane of every wave with an active lane: only the active ones (masked),
    or all 64 (a wave-uniform write)."""
    out = [f"{ind(d)}for (int w = 0; w < NW; ++w) {{ if (!E[w]) continue; for (int l = 0; l < 64; ++l) {{"]
    if masked:
        out.append(f"{ind(d + 1)}if (!((E[w] >> l) & 1)) continue;")
    out.append(f"{ind(d + 1)}const int L = w * 64 + l; const uint32_t gid = wg * WS + L; (void)gid;")
    out += [ind(d + 1) + x.strip() for x in lines]
    out.append(f"{ind(d)}}} }}")
    return out


def loop_ref(d, init, cls, cond, step, first, body):
    """A loop: init; while (cond) { first; body; (Continue lanes back) step } over masks."""
    i = new_id()
    out = [f"{ind(d)}{{ u64 S{i}[NW], B{i}[NW], K{i}[NW];",
           f"{ind(d)}for (int w = 0; w < NW; ++w) {{ S{i}[w] = E[w]; B{i}[w] = 0; K{i}[w] = 0; }}"]
    out += lane_loop(init, d, cls == "v")
    out.append(f"{ind(d)}for (;;) {{")
    # the lanes whose condition fails leave the loop
    out += lane_loop([f"if (!({cond})) E[w] &= ~(1ull << l);"], d + 1, True)
    out.append(f"{ind(d + 1)}{{ bool any_ = false; for (int w = 0; w < NW; ++w) any_ |= E[w] != 0; if (!any_) break; }}")
    if first:
        out += lane_loop(first, d + 1, cls == "v")
    LOOPS.append(i)
    out += emit_ref(body, d + 1)
    LOOPS.pop()
    out.append(f"{ind(d + 1)}for (int w = 0; w < NW; ++w) {{ E[w] |= K{i}[w]; K{i}[w] = 0; }}")
    if step:
        out += lane_loop(step, d + 1, cls == "v")
    out.append(f"{ind(d)}}}")
    out.append(f"{ind(d)}for (int w = 0; w < NW; ++w) E[w] = S{i}[w]; }}")
    return out


def emit_ref(stmts, d):
    """Consecutive per-lane statements share one loop over the active lanes (they do not look
    at other lanes), consecutive wave-uniform ones one loop over the waves."""
    out, run, kind = [], [], None

    def flush():
        if run:
            out.extend(lane_loop(run, d, kind == "v"))
            run.clear()

    for s in stmts:
        k = s.rkind()
        lines = s.ref(d) if k == "x" else s.ref(0)
        if not lines:
            continue
        if k == "x":
            flush()
            out.extend(lines)
            kind = None
            continue
        if k != kind:
            flush()
            kind = k
        run.extend(lines)
    flush()
    return out


# ---- the generator --------------------------------------------------------------------------

class Scope:
    def __init__(self, parent):
        self.vars = []
        self.parent = parent


class Ctx:
    """Where a statement is generated."""

    def __init__(self):
        self.depth = 0            # divergence depth (per-lane If/loop, uniform loop with lane exits)
        self.loops = []           # innermost last: dict(kind, lane_exits, div)
        self.top = True           # no enclosing control flow (all lanes active)
        self.in_loop = False


class KernelGen:
    def __init__(self, rng, feats, name, size, arch="gfx942"):
        self.rng, self.f, self.name, self.size, self.arch = rng, feats, name, size, arch
        self.nslot = 0
        self.nslot64 = 0
        self.nvar = 0
        self.scope = Scope(None)
        self.vwords = 0
        self.swords = 0
        self.max_vwords = self.max_swords = 0
        self.pending = set()      # variables with a load in flight
        self.pending_kind = set()
        self.budget = size
        self.nin = 24
        self.in_types = "i" * 16 + "f" * 8
        self.nsin = 8
        self.used = set()
        # How this kernel waits (feature "waits"), from its own generator so that the main
        # stream, and every kernel of an existing seed without the feature, stay as they were.
        self.wait_mode = "explicit"
        self.wrng = random.Random(f"{name}-waits")
        if "waits" in feats:
            self.wait_mode = self.wrng.choice(["explicit", "auto", "wait_for"])
        # The launch shape (feature "wgshape"), from its own generator too.
        self.bdim, self.grid = (64, 1, 1), (2, 1, 1)
        if "wgshape" in feats:
            srng = random.Random(f"{name}-shape")
            blocks = [b for b in BLOCKS if "partialwave" in feats or (b[0] * b[1] * b[2]) % 64 == 0]
            self.bdim = srng.choice(blocks)
            self.grid = srng.choice(GRIDS)
        self.ws = self.bdim[0] * self.bdim[1] * self.bdim[2]
        self.nw = (self.ws + 63) // 64
        self.last = self.ws - 64 * (self.nw - 1)  # lanes of the last wave
        self.nlds = 0
        # Where the LDS arrays go (feature "ldshigh", gfx950): after 64 KiB, somewhere above,
        # or ending at the last word of the LDS (None: from offset 0). Its own generator again.
        self.lds_high = None
        if "ldshigh" in feats and "ldshigh" in arch_features(arch):
            lrng = random.Random(f"{name}-ldshigh")
            if lrng.random() < 0.5:
                self.lds_high = lrng.choice(["64k", "mid", "top"])
                self.lds_mid = 65536 + 4 * lrng.randint(1, (LDS_BYTES[arch] - 65536 - 4 * 4 * 256) // 4)

    def wait(self, what, names=None):
        """The wait after loads into `names` (None: loads not tracked by name)."""
        if self.wait_mode == "auto" and self.wrng.random() < 0.8:
            return NoWait()
        if self.wait_mode == "wait_for" and names:
            return WaitFor(sorted(names))
        return Wait(what)

    # -- variables
    def new_var(self, cls, dt, depth, readonly=False, prefix=None):
        self.nvar += 1
        name = f"{prefix or ('v' if cls == 'v' else 's')}{self.nvar}"
        if dt in ("u64", "i64"):
            slot = self.nslot64
            self.nslot64 += 1
        else:
            slot = self.nslot
            self.nslot += 1
        v = Var(name, cls, dt, slot, depth, readonly)
        return v

    def add_scope_var(self, v):
        self.scope.vars.append(v)
        w = 2 if v.is64 else 1
        if v.cls == "v":
            self.vwords += w
            self.max_vwords = max(self.max_vwords, self.vwords)
        else:
            self.swords += w
            self.max_swords = max(self.max_swords, self.swords)

    def push(self):
        self.scope = Scope(self.scope)

    def pop(self):
        for v in self.scope.vars:
            w = 2 if v.is64 else 1
            if v.cls == "v":
                self.vwords -= w
            else:
                self.swords -= w
        self.scope = self.scope.parent

    def visible(self):
        s, out = self.scope, []
        while s is not None:
            out += s.vars
            s = s.parent
        return out

    def readable(self, dt=None, cls=None):
        return [v for v in self.visible() if v not in self.pending and (dt is None or v.dt == dt)
                and (cls is None or v.cls == cls)]

    def writable(self, ctx, dt=None, cls=None):
        out = []
        for v in self.readable(dt, cls):
            if v.readonly:
                continue
            if v.cls == "s" and v.depth != ctx.depth:
                continue
            out.append(v)
        return out

    def feat(self, name):
        return name in self.f

    def chance(self, p):
        return self.rng.random() < p

    # -- expressions
    def const(self, dt):
        r = self.rng
        if dt == "f32":
            return Const(dt, r.choice(F32_CONSTS) if r.random() < 0.7 else round(r.uniform(-50, 50), 3))
        k = r.random()
        if k < 0.4:
            v = r.randint(-16, 64)
        elif k < 0.7:
            v = r.choice(INT_EDGE)
        else:
            v = r.getrandbits(32)
        v &= 0xffffffff
        if dt == "i32" and v >= 2**31:
            v -= 2**32
        return Const(dt, v)

    def leaf(self, dt, scalar_only):
        """A register read of dtype dt (through a view when another dtype's variable is used)."""
        r = self.rng
        cands = []
        for v in self.readable():
            if scalar_only and v.cls != "s":
                continue
            if v.is64:
                if dt in ("u32", "i32") and self.feat("views"):
                    cands.append((v, "64"))
                continue
            if v.dt == dt:
                cands.append((v, None))
            elif self.feat("views") and v.dt in ("u32", "i32") and dt in ("u32", "i32", "f32"):
                if dt == "f32" and not self.feat("f32"):
                    continue
                cands.append((v, dt))
        if not cands:
            return None
        v, view = r.choice(cands)
        self.used.add(v)
        if view == "64":
            half = r.randint(0, 1)
            k = r.random()
            sp = (f"{v.name}.{'hi' if half else 'lo'}()" if k < 0.6 else f"{v.name}.as<u32>()[{half}]")
            if dt == "i32":
                sp += ".as<i32>()"
            return Leaf(v, dt, sp)
        sp = v.dsl(r, self.feat("views"))
        if view is not None:
            sp = f"{sp}.as<{dt}>()"
        return Leaf(v, dt, sp)

    def int_ops(self):
        ops = ["add", "sub", "mul", "band", "bor", "bxor", "shl", "shr", "min", "max"]
        if self.feat("divconst") or self.feat("divreg"):
            ops += ["div", "rem"]
        return ops

    def expr(self, dt, scalar_only, depth=0, need_reg=True):
        """A random expression of dtype dt; scalar_only: SGPR leaves and constants only."""
        r = self.rng
        if dt == "f32":
            scalar_only = False
        if depth >= 3 or r.random() < 0.3 + 0.2 * depth:
            lf = self.leaf(dt, scalar_only)
            if lf is not None:
                return lf
            if dt != "f32" and not scalar_only:
                lf = self.leaf(dt, True)
                if lf is not None:
                    return lf
            return None
        k = r.random()
        if k < 0.12:
            a = self.expr(dt, scalar_only, depth + 1)
            if a is None:
                return None
            ops = ["neg", "abs"] + (["bnot"] if dt != "f32" else [])
            return Un(r.choice(ops), a, dt)
        if dt == "f32":
            ops = ["add", "sub", "mul", "min", "max"] + (["div"] if self.feat("fdiv") else [])
            op = r.choice(ops)
            a = self.expr(dt, False, depth + 1)
            if a is None:
                return None
            b = self.expr(dt, False, depth + 1) if r.random() < 0.6 else self.const(dt)
            if b is None:
                b = self.const(dt)
            if r.random() < 0.3 and isinstance(a, Leaf):
                a, b = (b, a) if not isinstance(b, Const) else (a, b)
            return Bin(op, a, b, dt)
        op = r.choice(self.int_ops())
        a = self.expr(dt, scalar_only, depth + 1)
        if a is None:
            return None
        if op in ("div", "rem"):
            return self.division(op, a, dt, scalar_only, depth)
        if op in ("shl", "shr"):
            if r.random() < 0.5:
                return Bin(op, a, Const(dt, r.randint(0, 31)), dt)
            b = self.expr(dt, scalar_only, depth + 1)
            return Bin(op, a, b if b is not None else Const(dt, r.randint(0, 31)), dt)
        if r.random() < 0.35:
            b = self.const(dt)
        else:
            b = self.expr(dt, scalar_only, depth + 1) or self.const(dt)
        if r.random() < 0.2 and not isinstance(b, Const):
            a, b = b, a
        elif r.random() < 0.1 and isinstance(b, Const):
            a, b = b, a  # constant on the left
        return Bin(op, a, b, dt)

    def safe_num(self, a, dt):
        # a >> 1 (arithmetic) or a | 1 is never INT_MIN
        if dt == "i32":
            return Bin("shr", a, Const(dt, 1), dt) if self.chance(0.5) else Bin("bor", a, Const(dt, 1), dt)
        return a

    def division(self, op, a, dt, scalar_only, depth):
        r = self.rng
        byreg = self.feat("divreg") and (not self.feat("divconst") or r.random() < 0.5)
        if not byreg:
            c = r.choice([1, 2, 3, 5, 6, 7, 10, 16, 25, 64, 100, 127, 641, 1000, 65536, 65537, 123456789,
                          0x7fffffff, r.randint(2, 5000), r.getrandbits(31) | 1])
            if dt == "i32" and r.random() < 0.4:
                c = -c
                if c == -1:
                    a = self.safe_num(a, dt)
            if dt == "u32" and r.random() < 0.15:
                c = r.choice([0x80000000, 0xfffffffe, 0xffffffff, 0x80000001])
            return Bin(op, a, Const(dt, c), dt)
        b = self.expr(dt, scalar_only, depth + 1)
        if b is None:
            return Bin(op, a, Const(dt, 7), dt)
        k = r.randint(0, 3)
        if k == 0:    # even, nonzero, never -1
            d = Bin("band", Bin("bor", b, Const(dt, 2), dt), Const(dt, -2), dt)
        elif k == 1:  # 1..256
            d = Bin("add", Bin("band", b, Const(dt, 255), dt), Const(dt, 1), dt)
        elif k == 2:  # odd; the dividend made safe
            d = Bin("bor", b, Const(dt, 1), dt)
            a = self.safe_num(a, dt)
        else:         # small with both signs: ((b & 15) - 8) | 1 (odd, i32 may be -1)
            d = Bin("bor", Bin("sub", Bin("band", b, Const(dt, 15), dt), Const(dt, 8), dt), Const(dt, 1), dt)
            a = self.safe_num(a, dt)
        return Bin(op, a, d, dt)

    def cond(self, ctx, uniform, combine=True):
        r = self.rng
        dts = ["u32", "i32"]
        if not uniform and self.feat("f32") and self.readable("f32"):
            dts.append("f32")
        for _ in range(6):
            dt = r.choice(dts)
            a = self.expr(dt, uniform, 2)
            if a is None:
                continue
            b = self.expr(dt, uniform, 2) if r.random() < 0.5 else self.const(dt)
            if b is None:
                b = self.const(dt)
            c = Cond(r.choice(["<", "<=", ">", ">=", "==", "!="]), a, b, r.random() < 0.2)
            if uniform and c.vec:
                continue
            if not uniform and not c.vec:
                continue
            if combine and self.feat("lanemask") and r.random() < 0.3:
                # && / || with a second condition (per-lane or uniform), maybe negated
                # (a uniform side of a per-lane combination and a negated combination are
                # masks with lanes outside EXEC until they meet EXEC: "masknot")
                c2 = self.cond(ctx, uniform if uniform else (self.feat("masknot") and r.random() < 0.3), False)
                if c2 is not None:
                    a_, b_ = (c, c2) if r.random() < 0.5 else (c2, c)
                    c = CondComb(r.choice(["&&", "||"]), a_, b_, self.feat("masknot") and r.random() < 0.4)
            return c
        return None

    # -- statements
    def block(self, ctx, n):
        self.push()
        out = []
        for _ in range(n):
            if self.budget <= 0:
                break
            s = self.stmt(ctx)
            if s is not None:
                out += s
                if isinstance(s[-1], Jump):
                    break  # the rest of the block would be dead
        # no load may stay in flight past the block
        if self.pending:
            out.append(self.wait("vmcnt(0) | lgkmcnt(0)", [v.name for v in self.pending]))
            self.pending.clear()
        self.pop()
        return out

    def stmt(self, ctx):
        r = self.rng
        self.budget -= 1
        choices = [("assign", 10), ("decl", 5)]
        if self.feat("temps"):
            choices.append(("temp", 3))
        if self.feat("arrays"):
            choices.append(("array", 1))
        if self.feat("uif"):
            choices.append(("uif", 2))
        if self.feat("vif"):
            choices.append(("vif", 3))
        if self.feat("uloop") and len(ctx.loops) < 3:
            choices.append(("uloop", 1.5))
        if self.feat("vloop") and len(ctx.loops) < 3:
            choices.append(("vloop", 1.5))
        if self.feat("loads"):
            choices.append(("load", 2))
        if self.feat("stores") and not ctx.loops:
            choices.append(("store", 1.5))
        if self.feat("i64"):
            choices.append(("i64", 1.5))
        if self.feat("f32"):
            choices.append(("cvt", 0.5))
        if self.feat("sdwa"):
            choices.append(("sdwa", 1))
        if self.feat("dpp") and (ctx.top or self.feat("crosslane")):
            choices.append(("dpp", 1.5))
        if self.feat("lanes") and (ctx.top or self.feat("crosslane")):
            choices.append(("lanes", 1))
        if self.feat("lanemask"):
            choices.append(("lanemask", 1.5))
            if len(ctx.loops) < 3:
                choices.append(("withexec", 0.7))
        if self.feat("buffer"):
            choices.append(("buffer", 1.5))
        if ctx.top and self.feat("lds") and self.nlds < 4:
            choices.append(("lds", 1))
        if self.feat("atomics"):
            choices.append(("atomic", 0.7))
        if self.feat("reduce"):
            choices.append(("reduce", 1))
        if ctx.top and self.feat("wgreduce") and self.nlds < 4:
            choices.append(("wgred", 0.7))
        if self.feat("shuffle") and (ctx.top or self.feat("crosslane")):
            choices.append(("shuffle", 1))
        if ctx.loops and (self.feat("break") or self.feat("continue")):
            choices.append(("jumpif", 7 if len(ctx.loops) else 0))
        if ctx.top and self.feat("pressure") and self.vwords < 40:
            choices.append(("pressure", 0.3))
        tot = sum(w for _, w in choices)
        x = r.random() * tot
        for kind, w in choices:
            x -= w
            if x < 0:
                break
        pre = []
        if self.pending and kind in ("uif", "vif", "uloop", "vloop", "jumpif", "pressure", "withexec", "lds", "wgred"):
            # a wait inside a branch does not cover the other path: wait before entering
            pre = [self.wait("vmcnt(0) | lgkmcnt(0)", [v.name for v in self.pending])]
            self.pending.clear()
        s = getattr(self, "s_" + kind)(ctx)
        return pre + s if s else (pre or None)

    def pick_dt(self, cls):
        dts = ["u32", "i32"]
        if cls == "v" and self.feat("f32"):
            dts.append("f32")
        return self.rng.choice(dts)

    def pick_cls(self, ctx):
        if self.feat("sgpr") and self.swords < SREG_BOUND and self.chance(0.3):
            return "s"
        return "v"

    def room(self, cls, words=1):
        if cls == "v":
            return self.vwords + words <= VREG_BOUND
        return self.swords + words <= SREG_BOUND

    def s_decl(self, ctx):
        cls = self.pick_cls(ctx)
        if not self.room(cls):
            return None
        dt = self.pick_dt(cls)
        e = self.expr(dt, cls == "s") if self.chance(0.7) else self.const(dt)
        if e is None:
            e = self.const(dt)
        v = self.new_var(cls, dt, ctx.depth)
        self.add_scope_var(v)
        form = "fill" if isinstance(e, Const) or self.chance(0.3) else "assign"
        return [Decl(v, e, form)]

    def s_temp(self, ctx):
        cls = self.pick_cls(ctx)
        dt = self.pick_dt(cls)
        e = self.expr(dt, cls == "s")
        if e is None or not isinstance(e, Bin):
            return None
        rc = "v" if e.vec else "s"
        if not self.room(rc):
            return None
        v = self.new_var(rc, dt, ctx.depth, prefix="t")
        self.add_scope_var(v)
        out = [Decl(v, e, "temp")]
        # the retargeting-through-a-view pattern: z = t.as<U>() with t used afterwards
        if self.feat("retarget") and dt != "f32" and self.chance(0.5):
            zs = [z for z in self.writable(ctx, cls=rc) if z.dt in ("u32", "i32") and z is not v]
            if zs:
                z = self.rng.choice(zs)
                out.append(Assign(z, z.dsl(self.rng, True), Leaf(v, z.dt, f"{v.name}.as<{z.dt}>()")))
        return out

    def s_array(self, ctx):
        cls = "s" if self.feat("sgpr") and self.chance(0.25) else "v"
        n = self.rng.randint(2, 8)
        if not self.room(cls, n):
            return None
        dt = self.pick_dt(cls)
        e = self.expr(dt, cls == "s", 1) if self.chance(0.5) else None
        if e is None:
            e = self.const(dt)
        self.nvar += 1
        an = f"a{self.nvar}"
        elems = []
        for i in range(n):
            v = Var(an, cls, dt, self.nslot, ctx.depth, array=(an, n), index=i)
            self.nslot += 1
            elems.append(v)
            self.add_scope_var(v)
        holder = Var(an, cls, dt, -1, ctx.depth)
        d = Decl(holder, e, "array", elems)
        d.decl = elems
        return [d]

    def s_assign(self, ctx):
        r = self.rng
        cands = [v for v in self.writable(ctx) if not v.is64]
        if not cands:
            return self.s_decl(ctx)
        v = r.choice(cands)
        e = self.expr(v.dt, v.cls == "s")
        if e is None:
            e = self.const(v.dt)
        lhs = v.dsl(r, self.feat("views"))
        if self.feat("views") and v.array is None and v.dt in ("u32", "i32") and self.chance(0.15):
            # write through a view of another dtype: x.as<i32>() = e
            other = "i32" if v.dt == "u32" else "u32"
            e2 = self.expr(other, v.cls == "s")
            if e2 is not None:
                return [Assign(v, f"{lhs}.as<{other}>()", e2)]
        if self.chance(0.15) and not isinstance(e, Const) and v.dt != "f32":
            op = r.choice(["add", "sub", "mul", "band", "bor", "bxor"])
            return [Assign(v, lhs, e, compound=op)]
        return [Assign(v, lhs, e)]

    def s_uif(self, ctx):
        if not self.feat("sgpr"):
            return None
        c = self.cond(ctx, True)
        if c is None:
            return None
        sub = self.sub_ctx(ctx, False)
        then = self.block(sub, self.rng.randint(1, 5))
        els = self.block(sub, self.rng.randint(1, 4)) if self.chance(0.4) else None
        return [If(c, then, els)]

    def sub_ctx(self, ctx, divergent):
        c = Ctx()
        c.depth = ctx.depth + (1 if divergent else 0)
        c.loops = list(ctx.loops)
        c.top = False
        return c

    def s_vif(self, ctx):
        c = self.cond(ctx, False)
        if c is None:
            return None
        sub = self.sub_ctx(ctx, True)
        then = self.block(sub, self.rng.randint(1, 6))
        els = self.block(sub, self.rng.randint(1, 5)) if self.chance(0.45) else None
        return [If(c, then, els)]

    def s_jumpif(self, ctx):
        r = self.rng
        lp = ctx.loops[-1]
        kinds = [k for k in ("Break", "Continue") if self.feat(k.lower())]
        kind = r.choice(kinds)
        # per-lane (a VGPR condition) or uniform; per-lane exits from a uniform loop only when
        # the loop allows them (its body is then divergent for SGPR writes)
        vec_ok = lp["kind"] == "v" or lp["lane_exits"]
        uni_ok = self.feat("sgpr")
        if not vec_ok and not uni_ok:
            return None
        if ctx.depth > lp["div"] and not vec_ok:
            return None  # already under a per-lane branch inside a loop without lane exits
        if r.random() < 0.05:
            if ctx.depth == lp["div"] or vec_ok:
                return [Jump(kind)]
            return None
        uniform = not vec_ok or (uni_ok and r.random() < 0.3)
        c = self.cond(ctx, uniform)
        if c is None:
            return None
        sub = self.sub_ctx(ctx, c.vec)
        pre = self.block(sub, r.randint(0, 2)) if r.random() < 0.5 else []
        then = pre + [Jump(kind)]
        if r.random() < 0.3:
            # nested: the jump under a second If
            c2 = self.cond(sub, not vec_ok)
            if c2 is not None:
                sub2 = self.sub_ctx(sub, c2.vec)
                then = pre + [If(c2, self.block(sub2, r.randint(0, 2)) + [Jump(kind)], None)]
        els = self.block(sub, r.randint(1, 3)) if r.random() < 0.25 else None
        return [If(c, then, els)]

    def s_uloop(self, ctx):
        r = self.rng
        if not self.feat("sgpr") or not self.room("s"):
            return None
        lane_exits = self.feat("laneexit") and r.random() < 0.5
        sub = self.sub_ctx(ctx, lane_exits)
        sub.loops.append({"kind": "u", "lane_exits": lane_exits, "div": sub.depth})
        trip = r.randint(0, 5)
        bound_src = self.leaf("u32", True) if r.random() < 0.6 else None
        self.push()
        ctr = self.new_var("s", r.choice(["i32", "u32"]), sub.depth, readonly=True, prefix="k")
        self.add_scope_var(ctr)
        if r.random() < 0.5:
            # For(k, b, e) with a constant or SGPR-derived bound
            step = r.choice([1, 1, 1, 2, -1]) if ctr.dt == "i32" else r.choice([1, 1, 2])
            begin = Const(ctr.dt, r.randint(-3, 3) if ctr.dt == "i32" else r.randint(0, 3))
            if step > 0:
                end = Const(ctr.dt, begin.v + trip * step)
            else:
                end = Const(ctr.dt, begin.v - trip)
            body = self.block(sub, r.randint(1, 6))
            self.pop()
            return [ForLoop(ctr, begin, end, step, body, True)]
        # While over an SGPR bound: (argument or input & 7)
        pre = []
        if bound_src is not None and ctr.dt == "u32":
            bt = self.new_var("s", "u32", ctx.depth, readonly=True, prefix="b")
            pre = [Decl(bt, Bin("band", bound_src, Const("u32", 7), "u32"), "temp")]
            bound = Leaf(bt, "u32", bt.name)
        else:
            bound = Const(ctr.dt, trip)
        body = self.block(sub, r.randint(1, 6))
        self.pop()
        return pre + [WhileLoop(ctr, bound, body)]

    def s_vloop(self, ctx):
        r = self.rng
        if not self.room("v", 2):
            return None
        sub = self.sub_ctx(ctx, True)
        sub.loops.append({"kind": "v", "lane_exits": True, "div": sub.depth})
        # the per-lane bound: a VGPR expression & 7 (or & 3 when nested)
        src = self.leaf(r.choice(["u32", "i32"]), False)
        if src is None or src.var.cls != "v":
            return None
        mask = 7 if len(ctx.loops) == 0 else 3
        out = []
        self.push()
        bt = self.new_var("v", src.dt, sub.depth, readonly=True, prefix="b")
        out.append(Decl(bt, Bin("band", src, Const(src.dt, mask), src.dt), "temp"))
        self.add_scope_var(bt)
        bound = Leaf(bt, src.dt, bt.name)
        ctr = self.new_var("v", src.dt, sub.depth, readonly=True, prefix="k")
        self.add_scope_var(ctr)
        if r.random() < 0.5:
            body = self.block(sub, r.randint(1, 6))
            self.pop()
            self.add_scope_var(ctr)  # a per-lane counter is readable after its loop
            return out + [WhileLoop(ctr, bound, body)]
        step = r.choice([1, 1, 2]) if src.dt == "u32" else r.choice([1, 1, 2, -1])
        begin = Const(src.dt, 0)
        if step < 0:
            begin, bound = Leaf(bt, src.dt, bt.name), Const(src.dt, 0)
        body = self.block(sub, r.randint(1, 6))
        self.pop()
        self.add_scope_var(ctr)
        ctr.readonly = True
        return out + [ForLoop(ctr, begin, bound, step, body, True)]

    def s_load(self, ctx):
        r = self.rng
        if self.feat("sgpr") and r.random() < 0.25:
            cands = [v for v in self.writable(ctx, cls="s") if not v.is64 and v.dt != "f32"]
            if not cands:
                return None
            v = r.choice(cands)
            return [SLoad(v, v.dsl(r, self.feat("views")), r.randrange(self.nsin)), self.wait("lgkmcnt(0)", [v.name])]
        cands = [v for v in self.writable(ctx, cls="v") if not v.is64]
        if not cands:
            return None
        v = r.choice(cands)
        if v.dt == "f32":
            k = r.randrange(16, 24)
            gather = None
        else:
            k = 0 if r.random() < 0.5 else r.randrange(16)
            gather = None
            if r.random() < 0.4:
                gather = self.expr("u32", False, 2)
                if gather is None:
                    return None
                k = 0
        out = [Load(v, v.dsl(r, self.feat("views")), k, gather)]
        if r.random() < 0.5:
            out.append(self.wait("vmcnt(0)", [v.name]))
        else:
            self.pending.add(v)
        return out

    def s_store(self, ctx):
        r = self.rng
        cands = [v for v in self.readable() if not v.is64]
        if not cands:
            return None
        v = r.choice(cands)
        self.used.add(v)
        slot = self.alloc_out("f" if v.dt == "f32" else "i")
        return [Store(v, v.dsl(r, self.feat("views")), slot)]

    def alloc_out(self, t):
        self.out_types.append(t)
        return len(self.out_types) - 1

    def s_i64(self, ctx):
        r = self.rng
        cls = "s" if self.feat("sgpr") and r.random() < 0.3 else "v"
        dt = r.choice(["u64", "i64"])
        qs = [q for q in self.writable(ctx, dt=dt, cls=cls)]
        if not qs or r.random() < 0.3:
            if not self.room(cls, 2):
                return None
            lo = self.expr("u32", cls == "s", 1) or self.const("u32")
            hi = self.expr("u32", cls == "s", 1) or self.const("u32")
            q = self.new_var(cls, dt, ctx.depth)
            self.add_scope_var(q)
            return [Decl64(q, lo, hi)]
        q = r.choice(qs)
        ps = [p for p in self.readable(dt=dt) if p.cls == cls or cls == "v"]
        if not ps:
            return None
        p = r.choice(ps)
        k = r.random()
        if k < 0.3:
            c = r.randint(-5000, 5000)
            off_dsl, off_ref = str(c), f"u64(int64_t({c}))"
        else:
            odt = r.choice(["u32", "i32"] + ([dt] if k > 0.8 else []))
            if odt in ("u64", "i64"):
                os_ = [o for o in self.readable(dt=odt) if o.cls == cls or cls == "v"]
                if not os_:
                    return None
                o = r.choice(os_)
                off_dsl, off_ref = o.name, o.ref()
            else:
                cands = [o for o in self.readable(dt=odt) if (o.cls == cls or cls == "v") and o.array is None]
                if not cands:
                    return None
                o = r.choice(cands)
                self.used.add(o)
                off_dsl, off_ref = o.name, f"ext({ref_read(odt, o.ref())})"
        self.used.add(p)
        return [Assign64(q, p, r.random() < 0.3, None, off_dsl, off_ref)]

    def s_cvt(self, ctx):
        ds = [v for v in self.writable(ctx, dt="f32", cls="v") if v.array is None]
        src = self.leaf("i32", False)
        if not ds or src is None:
            return None
        return [Cvt(self.rng.choice(ds), src)]

    def s_sdwa(self, ctx):
        r = self.rng
        ds = [v for v in self.writable(ctx, cls="v") if v.dt in ("u32", "i32")]
        if not ds:
            return None
        d = r.choice(ds)
        s0 = self.leaf("u32", False)
        if s0 is None or s0.var.cls != "v" or s0.var.is64:
            return None
        dsel = r.randint(0, 6)
        unused = r.choice([0, 1, 2, 2])
        if r.random() < 0.5:
            return [Sdwa("v_mov_b32", d, d.dsl(r, self.feat("views")), (s0.var, s0.dsl()), None, dsel, unused,
                         r.randint(0, 6), 6)]
        s1 = self.leaf("u32", False)
        if s1 is None or s1.var.cls != "v" or s1.var.is64:
            return None
        return [Sdwa("v_add_u32", d, d.dsl(r, self.feat("views")), (s0.var, s0.dsl()), (s1.var, s1.dsl()),
                     dsel, unused, r.randint(0, 6), r.randint(0, 6))]

    def s_dpp(self, ctx):
        r = self.rng
        ds = [v for v in self.writable(ctx, cls="v") if v.array is None and not v.is64]
        if not ds:
            return None
        d = r.choice(ds)
        srcs = [v for v in self.readable(cls="v") if v.array is None and not v.is64 and (v.dt == "f32") == (d.dt == "f32")]
        if not srcs:
            return None
        s0 = r.choice(srcs)
        ctrl = r.choice([r.randint(0, 0xff), 0x101 + r.randint(0, 14), 0x111 + r.randint(0, 14),
                         0x121 + r.randint(0, 14), 0x130, 0x134, 0x138, 0x13c, 0x140, 0x141, 0x142, 0x143])
        rm = 0xf if r.random() < 0.6 else r.randint(1, 15)
        bm = 0xf if r.random() < 0.7 else r.randint(1, 15)
        bc = r.random() < 0.5
        self.used.add(s0)
        if d.dt == "f32":
            s1 = r.choice(srcs)
            return [Dpp("v_add_f32", d, s0, s1, ctrl, rm, bm, bc, d.dt)]
        if r.random() < 0.5:
            return [Dpp("v_mov_b32", d, s0, None, ctrl, rm, bm, bc, d.dt)]
        s1 = r.choice(srcs)
        return [Dpp("v_add_u32", d, s0, s1, ctrl, rm, bm, bc, d.dt)]

    def s_lanes(self, ctx):
        r = self.rng
        if not ctx.top:
            # under per-lane control flow: v_readfirstlane_b32 (reads the first active lane)
            if not self.feat("sgpr"):
                return None
            ds = [v for v in self.writable(ctx, cls="s") if v.array is None and not v.is64]
            srcs = [v for v in self.readable(cls="v") if v.array is None and not v.is64 and v.dt != "f32"]
            if not ds or not srcs:
                return None
            s = r.choice(srcs)
            self.used.add(s)
            return [ReadLane(r.choice(ds), s, -1)]
        if r.random() < 0.5 or not self.feat("sgpr"):
            ds = [v for v in self.writable(ctx, cls="v") if v.array is None and not v.is64 and v.dt != "f32"]
            if not ds:
                return None
            src = None
            if self.feat("sgpr") and r.random() < 0.6:
                src = self.leaf(r.choice(["u32", "i32"]), True)
            if src is None:
                # an SGPR or an inline constant (v_writelane_b32 is VOP3: no literal on gfx942)
                src = Const("u32", r.randint(-16, 64) & 0xffffffff)
            return [WriteLane(r.choice(ds), src, r.randint(0, 63))]
        ds = [v for v in self.writable(ctx, cls="s") if v.array is None and not v.is64]
        srcs = [v for v in self.readable(cls="v") if v.array is None and not v.is64 and v.dt != "f32"]
        if not ds or not srcs:
            return None
        s = r.choice(srcs)
        self.used.add(s)
        # a lane active in every wave (the last one may be partial)
        return [ReadLane(r.choice(ds), s, r.randint(-1, self.last - 1))]

    def s_lanemask(self, ctx):
        r = self.rng
        if not self.feat("sgpr") or not self.room("s", 2):
            return None
        c = None
        if r.random() < 0.85:
            c = self.cond(ctx, r.random() < 0.15)
            if c is None:
                return None
        m = self.new_var("s", "u64", ctx.depth, prefix="m")
        mixes = [v for v in self.writable(ctx, cls="v") if v.dt == "u32" and v.array is None]
        mix = r.choice(mixes) if mixes and (not ctx.top or r.random() < 0.5) else None
        self.add_scope_var(m)
        return [LaneMask(m, c, mix)]

    def s_withexec(self, ctx):
        r = self.rng
        ms = [v for v in self.readable(dt="u64", cls="s")]
        pre = []
        if not ms or r.random() < 0.5:
            pre = self.s_lanemask(ctx)
            if not pre:
                return None
            m = pre[0].m
        else:
            m = r.choice(ms)
        self.used.add(m)
        sub = self.sub_ctx(ctx, True)
        return pre + [WithExec(m, self.block(sub, r.randint(1, 5)))]

    def s_buffer(self, ctx):
        r = self.rng
        cands = [v for v in self.writable(ctx, cls="v") if not v.is64 and v.dt != "f32"]
        if not cands:
            return None
        v = cands[r.randrange(len(cands))]
        nrec = self.ws * self.nin * 4
        wrap = self.feat("bufwrap")
        # idx: a word index below 2^4..2^12 (in range or past the end), or anything (wraps)
        base = self.expr("u32", False, 2) or self.const("u32")
        if not wrap or r.random() < 0.5:
            idx = Bin("band", base, Const("u32", (1 << r.randint(4, 12)) - 1), "u32")
        else:
            idx = base
        # w = idx * 4 - K, offset w + (K + 4j): the sum wraps around 2^32 back to idx * 4 + 4j
        kk = r.choice([0, 0, 4, 8192, 8192, 4096, 0x10000, 0x1000000, 0x80000000, nrec]) if wrap else 0
        c = kk + 4 * r.choice([0, 1, 2, 3, 16, 255, 1023, 1024, 1025, -1, -2]) if kk else 4 * r.choice([0, 1, 17, 1023, 1024, 4096])
        c &= 0xffffffff
        out = [BufLoad(v, v.dsl(r, self.feat("views")), idx, kk, c)]
        if r.random() < 0.5:
            out.append(self.wait("vmcnt(0)", [v.name]))
        else:
            self.pending.add(v)
        return out

    def s_lds(self, ctx):
        r = self.rng
        ints = [v for v in self.readable(cls="v") if v.dt in ("u32", "i32") and not v.is64 and v.array is None]
        ds = [v for v in self.writable(ctx, cls="v") if v.dt in ("u32", "i32") and not v.is64 and v.array is None]
        if not ints or not ds:
            return None
        p = 1 << (self.ws.bit_length() - 1)  # a power of two <= WS: every word below it is written
        src, dst = r.choice(ints), r.choice(ds)
        ridx = self.expr("u32", False, 2) or self.const("u32")
        addv = aidx = None
        if r.random() < 0.5:
            addv = r.choice(ints)
            aidx = self.expr("u32", False, 2) or self.const("u32")
        self.used.update([src] + ([addv] if addv else []))
        name = f"lds{self.nlds}"
        self.nlds += 1
        wrap = 4 * r.randint(1, 16383) if self.feat("ldswrap") and r.random() < 0.5 else 0
        return [LdsXchg(dst, src, name, addv, aidx, ridx, p, wrap)]

    def s_atomic(self, ctx):
        r = self.rng
        ints = [v for v in self.readable(cls="v") if v.dt in ("u32", "i32") and not v.is64 and v.array is None]
        if not ints:
            return None
        v = r.choice(ints)
        self.used.add(v)
        return [GAtomic(v, self.alloc_out("i"))]

    def s_reduce(self, ctx):
        r = self.rng
        srcs = [v for v in self.readable(cls="v") if v.dt in ("u32", "i32") and not v.is64 and v.array is None]
        if not srcs:
            return None
        src = r.choice(srcs)
        kind = r.choice(["reduce", "allreduce", "scan", "scan"])
        cls = "s" if kind == "reduce" else "v"
        if kind == "reduce" and not self.feat("sgpr"):
            return None
        if not self.room(cls):
            return None
        op = r.choice(["sum", "max", "min"])
        excl = kind == "scan" and op == "sum" and r.random() < 0.5
        dst = self.new_var(cls, src.dt, ctx.depth, prefix="r")
        self.add_scope_var(dst)
        self.used.add(src)
        return [WaveRed(kind, op, dst, src, excl)]

    def s_wgred(self, ctx):
        r = self.rng
        srcs = [v for v in self.readable(cls="v") if v.dt in ("u32", "i32") and not v.is64 and v.array is None]
        if not srcs:
            return None
        src = r.choice(srcs)
        kind = r.choice(["reduce", "scan"])
        cls = "s" if kind == "reduce" else "v"
        if kind == "reduce" and not self.feat("sgpr"):
            return None
        if not self.room(cls):
            return None
        op = r.choice(["sum", "max", "min"])
        excl = kind == "scan" and op == "sum" and r.random() < 0.5
        dst = self.new_var(cls, src.dt, ctx.depth, prefix="g")
        self.add_scope_var(dst)
        self.used.add(src)
        name = f"lds{self.nlds}"
        self.nlds += 1
        return [WgRed(kind, op, dst, src, name, self.nw, self.bdim, excl)]

    def s_shuffle(self, ctx):
        r = self.rng
        srcs = [v for v in self.readable(cls="v") if v.array is None and not v.is64]
        if not srcs:
            return None
        src = r.choice(srcs)
        mask = r.choice([16, 32, 16, 32, 48, 1, 2, 3, 4, 7, 8, 15, r.randint(1, 63), r.randint(1, 63)])
        lds = r.random() < 0.2
        self.used.add(src)
        if r.random() < 0.5:
            ds = [v for v in self.writable(ctx, cls="v") if v.array is None and not v.is64 and v.dt == src.dt]
            if ds:
                return [Shuffle(r.choice(ds), src, mask, True, lds)]
        if not self.room("v"):
            return None
        dst = self.new_var("v", src.dt, ctx.depth, prefix="x")
        self.add_scope_var(dst)
        return [Shuffle(dst, src, mask, False, lds)]

    def s_pressure(self, ctx):
        """Many values live at once (up to the bound), all combined afterwards."""
        r = self.rng
        n = max(0, min(VREG_BOUND - self.vwords - 16, r.randint(40, VREG_BOUND)))
        if n < 8:
            return None
        srcs = [v for v in self.readable(cls="v") if v.dt in ("u32", "i32") and not v.is64]
        if not srcs:
            return None
        out, made = [], []
        for i in range(n):
            s = r.choice(srcs)
            dt = s.dt
            e = Bin(r.choice(["add", "bxor", "mul", "sub"]), Leaf(s, dt, s.dsl(r, self.feat("views"))), self.const(dt), dt)
            v = self.new_var("v", dt, ctx.depth, prefix="p")
            self.add_scope_var(v)
            out.append(Decl(v, e, "temp"))
            made.append(v)
        # fold them pairwise into the first ones, then everything stays visible (stored at the end)
        for i in range(1, len(made), 3):
            a, b = made[i - 1], made[i]
            if a.dt == b.dt:
                out.append(Assign(a, a.name, Bin("bxor", Leaf(a, a.dt, a.name), Leaf(b, b.dt, b.name), a.dt)))
        return out

    # -- the kernel
    def build(self):
        ctx = Ctx()
        self.out_types = []
        body = []
        # inputs: a few VGPR values per lane, SGPR values per workgroup, the arguments
        for k in range(4 + self.rng.randint(0, 4)):
            dt = self.rng.choice(["u32", "i32", "u32"])
            v = self.new_var("v", dt, 0, prefix="x")
            self.add_scope_var(v)
            body.append(Decl(v, Const(dt, 0), "fill"))
            body.append(Load(v, v.name, k))
        if self.feat("f32"):
            for k in range(2):
                v = self.new_var("v", "f32", 0, prefix="f")
                self.add_scope_var(v)
                body.append(Decl(v, Const("f32", 0.0), "fill"))
                body.append(Load(v, v.name, 16 + k))
        body.append(Wait("vmcnt(0)"))
        gidv = Var("gid", "v", "u32", self.nslot, 0, readonly=True)
        self.nslot += 1
        self.gid = gidv
        self.add_scope_var(gidv)
        if self.feat("sgpr"):
            for k in range(2 + self.rng.randint(0, 2)):
                dt = self.rng.choice(["u32", "i32"])
                v = self.new_var("s", dt, 0, prefix="y")
                self.add_scope_var(v)
                body.append(Decl(v, Const(dt, 0), "fill"))
                body.append(SLoad(v, v.name, k))
            body.append(Wait("lgkmcnt(0)"))
            self.args = []
            for i, dt in enumerate(["i32", "i32", "u32", "u32"]):
                v = Var(f"a{i}", "s", dt, self.nslot, 0, readonly=True)
                self.nslot += 1
                self.args.append(v)
                self.add_scope_var(v)
            wgv = Var("wg", "s", "u32", self.nslot, 0, readonly=True)
            self.nslot += 1
            self.wgv = wgv
            self.add_scope_var(wgv)
        else:
            self.args = []
            self.wgv = None
        while self.budget > 0:
            s = self.stmt(ctx)
            if s:
                body += s
        if self.pending:
            body.append(self.wait("vmcnt(0) | lgkmcnt(0)", [v.name for v in self.pending]))
            self.pending.clear()
        # every variable in scope is stored
        for v in self.visible():
            if v.is64:
                body.append(Store(v, f"{v.name}.lo()", self.alloc_out("i"), half=0))
                body.append(Store(v, f"{v.name}.hi()", self.alloc_out("i"), half=1))
            else:
                body.append(Store(v, v.dsl(self.rng, False), self.alloc_out("f" if v.dt == "f32" else "i")))
        self.body = body
        return self

    # -- output
    def dsl(self):
        bx, by, bz = self.bdim
        gx, gy, gz = self.grid
        L = [f"constexpr void {self.name}_body(builder J, arg<uint32_t*> out, arg<const uint32_t*> in, "
             f"arg<const uint32_t*> sin, arg<int> a0, arg<int> a1, arg<unsigned> a2, arg<unsigned> a3) {{"]
        if (self.bdim, self.grid) == ((64, 1, 1), (2, 1, 1)):
            L += ["  auto gid = J.vgpr<u32>();",
                  "  gid = J.workgroup_id_x() * 64 + J.thread_id_x();",
                  "  auto wg = J.workgroup_id_x();",
                  "  auto tid = J.thread_id_x();"]
        else:
            # the linear ids: thread x + y * bx + z * bx * by (waves take 64 of them in order)
            t = "J.thread_id_x()" + (f" + J.thread_id_y() * {bx}u" if by > 1 else "") + \
                (f" + J.thread_id_z() * {bx * by}u" if bz > 1 else "")
            g = "J.workgroup_id_x()" + (f" + J.workgroup_id_y() * {gx}u" if gy > 1 else "") + \
                (f" + J.workgroup_id_z() * {gx * gy}u" if gz > 1 else "")
            L += ["  auto tid = J.vgpr<u32>();", f"  tid = {t};",
                  "  auto wg = J.sgpr<u32>();", f"  wg = {g};",
                  "  auto gid = J.vgpr<u32>();", f"  gid = wg * {self.ws}u + tid;"]
        L += ["  auto inb = J.vgpr<u64>();",
              f"  inb = in + gid * {4 * self.nin}u;",
              "  auto ob = J.vgpr<u64>();",
              f"  ob = out + gid * {4 * len(self.out_types)}u;",
              "  auto sinb = J.sgpr<u64>();",
              f"  sinb = sin + (wg << {(4 * self.nsin).bit_length() - 1});",
              "  (void)a0; (void)a1; (void)a2; (void)a3; (void)sinb; (void)wg; (void)tid;"]
        uses = set()

        def walk(stmts):
            for st in stmts:
                uses.add(type(st).__name__)
                for c in st.children():
                    walk(c)
        walk(self.body)
        if "BufLoad" in uses:
            L += ["  auto bb = J.sgpr<u64>();", f"  bb = in + wg * {self.ws * self.nin * 4}u;",
                  f"  auto BUF = make_buffer(J, bb, {self.ws * self.nin * 4}u);"]
        if "GAtomic" in uses:
            L += ["  auto atb = J.vgpr<u64>();", f"  atb = out + wg * {self.ws * 4 * len(self.out_types)}u;"]
        pad = self.lds_pad()
        if pad:
            L.append(f"  (void)J.lds<uint32_t>({pad // 4}u);  // the arrays below start at byte {pad}")
        for i in range(self.nlds):
            L.append(f"  auto lds{i} = J.lds<uint32_t>({self.ws});")
        L += emit_dsl(self.body, 1)
        L.append("}")
        fn = f"{self.name}_body"
        if self.wait_mode == "auto":
            fn = f"{self.name}_auto"
            L.append(f"inline constexpr auto {fn} = with_options<{self.name}_body, kernel_options{{.auto_waitcnt = true}}>;")
        L.append(f"extern \"C\" __attribute__((global)) void {self.name}(uint32_t* out, const uint32_t* in, const uint32_t* sin, "
                 f"int a0, int a1, unsigned a2, unsigned a3) {{")
        L.append(f"  HIPASM_KERNEL_BODY({fn}, out, in, sin, a0, a1, a2, a3);")
        L.append("}")
        return L

    def lds_pad(self):
        """Bytes of LDS allocated before the arrays of the "lds" statements (feature "ldshigh")."""
        if self.lds_high is None or not self.nlds:
            return 0
        return {"64k": 65536, "mid": self.lds_mid, "top": LDS_BYTES[self.arch] - 4 * self.ws * self.nlds}[self.lds_high]

    def ref(self):
        nout = len(self.out_types)
        L = [f"static void ref_{self.name}(const uint32_t* in, const uint32_t* sin, const uint32_t* args, "
             f"uint32_t* out, uint32_t groups) {{",
             f"  constexpr uint32_t NIN = {self.nin}, NSIN = {self.nsin}, NOUT = {nout}, WS = {self.ws};",
             f"  constexpr int NW = {self.nw}, NL = NW * 64;",
             f"  constexpr u64 NREC = {self.ws * self.nin * 4}u;",
             "  (void)NIN; (void)NSIN; (void)NOUT; (void)sin; (void)args; (void)NREC;",
             f"  static thread_local u32 R[{max(self.nslot, 1)}][NL];",
             f"  static thread_local u64 Q[{max(self.nslot64, 1)}][NL];",
             "  for (uint32_t wg = 0; wg < groups; ++wg) {",
             "    u64 E[NW];  // EXEC of each wave: the lanes below the workgroup size",
             "    for (int w = 0; w < NW; ++w) E[w] = WS - 64u * w >= 64 ? ~0ull : (1ull << (WS - 64u * w)) - 1;",
             "    for (int L = 0; L < NL; ++L) {",
             "      for (auto& r : R) r[L] = 0;",
             "      for (auto& q : Q) q[L] = 0;",
             f"      R[{self.gid.slot}][L] = wg * WS + L;"]
        for i, a in enumerate(self.args):
            L.append(f"      R[{a.slot}][L] = args[{i}];")
        if self.wgv is not None:
            L.append(f"      R[{self.wgv.slot}][L] = wg;")
        L.append("    }")
        LOOPS.clear()
        L.extend(emit_ref(self.body, 2))
        L.append("  }")
        L.append("}")
        return L


def gen_batch(seed, nkernels, feats, size, prefix="dt", arch="gfx942"):
    rng = random.Random(seed)
    kernels = []
    for i in range(nkernels):
        krng = random.Random(rng.getrandbits(64))
        ksize = size if size > 0 else krng.randint(20, 120)
        k = KernelGen(krng, feats, f"{prefix}{seed}_{i}", ksize, arch).build()
        kernels.append(k)
    return kernels


def write_batch(kernels, seed, out_dir, feats, stem=None, arch="gfx942"):
    stem = stem or f"batch_{seed}"
    # a target other than gfx942 is named in the first line (run_repro.sh compiles for it)
    on = "" if arch == "gfx942" else f", arch {arch}"
    hip = ["// GENERATED by tests/difftest/gen.py (seed %d, features %s%s). Do not edit." % (seed, ",".join(feats), on),
           "#include <cstdint>", "#include <hipasm/kernel.hpp>", "#include <hipasm/helpers.hpp>", "using namespace hipasm;", ""]
    ref = ["// GENERATED by tests/difftest/gen.py (seed %d). The plain C++ reference of %s.hip." % (seed, stem),
           '#include "ref_prelude.hpp"', "using namespace difftest;",
           "#pragma clang diagnostic ignored \"-Wunused-variable\"", "#pragma clang diagnostic ignored \"-Wparentheses-equality\"", ""]
    table, shapes = [], []
    for k in kernels:
        shapes.append(f"  {{{{{k.bdim[0]}, {k.bdim[1]}, {k.bdim[2]}}}, {{{k.grid[0]}, {k.grid[1]}, {k.grid[2]}}}}},")
        hip += k.dsl() + [""]
        ref += k.ref() + [""]
        table.append(f'  {{"{k.name}", {k.nin}, "{k.in_types}", {k.nsin}, {len(k.out_types)}, '
                     f'"{"".join(k.out_types)}", "{",".join(sorted(k.features_used()))}", ref_{k.name}}},')
    ref.append("static const difftest_kernel kTable[] = {")
    ref += table
    ref.append("};")
    ref.append('extern "C" uint32_t difftest_kernel_count(void) { return sizeof(kTable) / sizeof(kTable[0]); }')
    ref.append('extern "C" const difftest_kernel* difftest_kernel_table(void) { return kTable; }')
    ref.append("static const difftest_shape kShapes[] = {")
    ref += shapes
    ref.append("};")
    ref.append('extern "C" const difftest_shape* difftest_kernel_shapes(void) { return kShapes; }')
    with open(f"{out_dir}/{stem}.hip", "w") as f:
        f.write("\n".join(hip) + "\n")
    with open(f"{out_dir}/{stem}_ref.cpp", "w") as f:
        f.write("\n".join(ref) + "\n")


def comb_masknot(c):
    """A combined condition with a negated combination or a uniform side of a per-lane one."""
    if not isinstance(c, CondComb):
        return False
    return c.negate or (c.vec and not (c.a.vec and c.b.vec)) or comb_masknot(c.a) or comb_masknot(c.b)


def features_used(self):
    names = set()

    def walk(stmts, in_loop, in_div=False):
        for s in stmts:
            t = type(s).__name__
            names.add({"Decl": "decl", "Assign": "assign", "Assign64": "i64", "Decl64": "i64", "If": "if",
                       "ForLoop": "loop", "WhileLoop": "loop", "Jump": "jump", "Load": "loads", "SLoad": "loads",
                       "Wait": "wait", "Store": "stores", "Dpp": "dpp", "Sdwa": "sdwa", "WriteLane": "lanes",
                       "ReadLane": "lanes", "Cvt": "f32", "WaitFor": "waits", "NoWait": "waits",
                       "LaneMask": "lanemask", "WithExec": "lanemask", "BufLoad": "buffer", "LdsXchg": "lds",
                       "GAtomic": "atomics", "WaveRed": "reduce", "Shuffle": "shuffle", "WgRed": "wgreduce"}[t])
            for c in ([s.cond] if t in ("If", "LaneMask") and s.cond is not None else []):
                if isinstance(c, CondComb):
                    names.add("lanemask")
                    if comb_masknot(c):
                        names.add("masknot")
            if t == "BufLoad" and (s.k or not (isinstance(s.idx, Bin) and s.idx.op == "band")):
                names.add("bufwrap")
            if t == "LdsXchg" and s.wrap:
                names.add("ldswrap")
            if t in ("Dpp", "ReadLane", "Shuffle") and in_div:
                names.add("crosslane")
            for c in s.children():
                walk(c, in_loop or t in ("ForLoop", "WhileLoop"), True)
    walk(self.body, False)
    if (self.bdim, self.grid) != ((64, 1, 1), (2, 1, 1)):
        names.add("wgshape")
    if self.ws % 64:
        names.add("partialwave")
    names.discard("wait")
    if self.lds_pad() > 65536 - 4 * self.ws * self.nlds:
        names.add("ldshigh")
    if self.wait_mode == "auto":
        names.add("waits")
    return names


KernelGen.features_used = features_used


def arch_features(arch):
    """The features a target has."""
    return [f for f in ALL_FEATURES if arch in ARCH_FEATURES.get(f, [arch])]


def parse_features(spec_on, spec_off, arch="gfx942"):
    if arch not in ARCHS:
        sys.exit(f"gen.py: unknown target '{arch}' (known: {', '.join(ARCHS)})")
    have = arch_features(arch)
    feats = list(have) if not spec_on or spec_on == "all" else [f for f in spec_on.split(",") if f]
    if spec_off:
        off = set(f for f in spec_off.split(",") if f)
        feats = [f for f in feats if f not in off]
    for f in feats:
        if f not in ALL_FEATURES:
            sys.exit(f"gen.py: unknown feature '{f}' (known: {', '.join(ALL_FEATURES)})")
        if f not in have:
            sys.exit(f"gen.py: feature '{f}' is not for {arch} (only {', '.join(ARCH_FEATURES[f])})")
    return feats


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--kernels", type=int, default=8)
    ap.add_argument("--size", type=int, default=0, help="statements per kernel (0: random 20..120)")
    ap.add_argument("--features", default="all")
    ap.add_argument("--no-features", default="")
    ap.add_argument("--out-dir", default=".")
    ap.add_argument("--arch", default="gfx942", help="target: " + ", ".join(ARCHS))
    a = ap.parse_args()
    feats = parse_features(a.features, a.no_features, a.arch)
    ks = gen_batch(a.seed, a.kernels, feats, a.size, arch=a.arch)
    write_batch(ks, a.seed, a.out_dir, feats, arch=a.arch)


if __name__ == "__main__":
    main()

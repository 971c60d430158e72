#!/usr/bin/env python3
"""Shrinks a failing generated kernel to a small reproducer.

  tests/difftest/reduce.py --build BUILD [--arch gfx942|gfx950] --seed S --kernel I [--kernels K]
                           [--size N] [--features ...] [--no-features ...] [--out DIR]

Regenerates kernel I of batch S (the same generator arguments as the run that failed), checks
that it fails alone, then repeatedly removes statements (whole blocks first, then single ones;
a declaration only when nothing left uses it), replaces If statements by one of their
branches and drops output stores that still compare equal, keeping each change that
preserves the failure class (wrong / checker / compile error kind). Writes the reduced kernel
as <out>/repro.hip and <out>/repro_ref.cpp (a batch of one, runnable with
hipasm-difftest-run) and prints its DSL.
"""
import argparse
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402
from difftest_tools import load_env, compile_hip, compile_ref, classify_compile_error, first_error, sh  # noqa: E402


def var_refs(obj, out, skip_decl=True):
    """Every Var an AST node reads or writes (not its own declarations)."""
    if isinstance(obj, gen.Var):
        out.add(obj)
        return
    if isinstance(obj, (list, tuple)):
        for x in obj:
            var_refs(x, out)
        return
    if isinstance(obj, (gen.Expr, gen.Cond)):
        for x in obj.__dict__.values():
            var_refs(x, out)
        return
    if isinstance(obj, gen.Stmt):
        for k, x in obj.__dict__.items():
            if k in ("then", "els", "body"):
                continue
            if skip_decl and k in ("elems",) and isinstance(obj, gen.Decl):
                continue
            if skip_decl and isinstance(obj, gen.Decl) and k == "var":
                continue
            if skip_decl and isinstance(obj, gen.Decl64) and k == "q":
                continue
            if skip_decl and isinstance(obj, (gen.ForLoop, gen.WhileLoop)) and k == "ctr":
                continue
            var_refs(x, out)


def blocks(stmts):
    """Every statement list of the tree (the top one first)."""
    yield stmts
    for s in stmts:
        for c in s.children():
            yield from blocks(c)


def declared(stmts, out):
    for s in stmts:
        for v in s.decl:
            out.add(v)
            if v.array is not None:
                out.add((v.array[0]))
        if isinstance(s, gen.Decl) and s.form == "array":
            for e in s.elems:
                out.add(e)
        for c in s.children():
            declared(c, out)


def used(stmts, out):
    for s in stmts:
        var_refs(s, out)
        for c in s.children():
            used(c, out)


def valid(k):
    d, u = set(), set()
    declared(k.body, d)
    used(k.body, u)
    builtin = {k.gid, k.wgv} | set(k.args)
    for v in u:
        if v in builtin or v in d:
            continue
        return False
    return True


class Reducer:
    def __init__(self, env, k, feats, work, seed):
        self.env, self.k, self.feats, self.work, self.seed = env, k, feats, work, seed
        self.tries = 0

    def outcome(self):
        """The failure class of the current kernel, None when it passes."""
        self.tries += 1
        tag = f"r{self.tries}"
        gen.write_batch([self.k], self.seed, self.work, self.feats, stem=tag, arch=self.k.arch)
        co = os.path.join(self.work, tag + ".co")
        ok, msg, _ = compile_hip(self.env, os.path.join(self.work, tag + ".hip"), co)
        if not ok:
            return classify_compile_error(msg), first_error(msg)
        so = os.path.join(self.work, tag + "_ref.so")
        ok, msg = compile_ref(self.env, os.path.join(self.work, tag + "_ref.cpp"), so)
        if not ok:
            return "reference-compile", first_error(msg)
        rc, out = sh([self.env["RUNNER"], co, so, "--seed", str(self.seed)])
        for line in out.splitlines():
            m = re.match(r"FAIL (\S+) (\S+): (.*)", line)
            if m:
                return m.group(2), m.group(3)
        if "difftest:" not in out:
            return "runner-crash", out[-300:]
        return None, ""

    def still_fails(self, want):
        got, _ = self.outcome()
        return got == want


def drop_stores(red, want, msg):
    """First: every store but those of the failing output words, in one step."""
    k = red.k
    m = re.search(r"slots ([0-9,]+)", msg)
    keep = set(int(x) for x in m.group(1).split(",")) if m else set()
    saved = [list(b) for b in blocks(k.body)]
    blist = list(blocks(k.body))
    for b in blist:
        b[:] = [s for s in b if not isinstance(s, gen.Store) or s.slot in keep]
    if valid(k) and red.still_fails(want):
        print(f"  dropped the stores of passing words, {count(k.body)} left", flush=True)
        return
    for b, old in zip(blist, saved):
        b[:] = old


def reduce_kernel(red, want, msg=""):
    k = red.k
    drop_stores(red, want, msg)
    changed = True
    while changed:
        changed = False
        # 1. remove chunks of statements in every block, big chunks first
        for blk in list(blocks(k.body)):
            if not any(b is blk for b in blocks(k.body)):
                continue  # removed with its statement
            n = len(blk)
            chunk = max(1, n // 2)
            while chunk >= 1:
                i = 0
                while i < len(blk):
                    saved = blk[i:i + chunk]
                    if any(isinstance(s, gen.Wait) for s in saved) and chunk == 1 and False:
                        i += 1
                        continue
                    del blk[i:i + chunk]
                    if blk is k.body and not blk:
                        blk[i:i] = saved
                        i += chunk
                        continue
                    if valid(k) and red.still_fails(want):
                        changed = True
                        print(f"  removed {len(saved)} statement(s), {count(k.body)} left", flush=True)
                    else:
                        blk[i:i] = saved
                        i += chunk
                chunk //= 2
        # 2. replace an If by one of its branches
        for blk in list(blocks(k.body)):
            if not any(b is blk for b in blocks(k.body)):
                continue
            for i, s in enumerate(list(blk)):
                if not isinstance(s, gen.If) or i >= len(blk) or blk[i] is not s:
                    continue
                for branch in ([s.then] + ([s.els] if s.els is not None else [])):
                    blk[i:i + 1] = branch
                    if valid(k) and red.still_fails(want):
                        changed = True
                        print(f"  inlined an If, {count(k.body)} left", flush=True)
                        break
                    blk[i:i + len(branch)] = [s]
    return k


def count(stmts):
    n = 0
    for s in stmts:
        n += 1
        for c in s.children():
            n += count(c)
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(os.path.dirname(os.path.dirname(HERE)), "build"))
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--kernel", type=int, required=True)
    ap.add_argument("--kernels", type=int, default=10)
    ap.add_argument("--size", type=int, default=0)
    ap.add_argument("--features", default="all")
    ap.add_argument("--no-features", default="")
    ap.add_argument("--out", default="")
    ap.add_argument("--arch", default="gfx942", choices=gen.ARCHS)
    a = ap.parse_args()
    feats = gen.parse_features(a.features, a.no_features, a.arch)
    env = load_env(os.path.abspath(a.build), a.arch)
    ks = gen.gen_batch(a.seed, a.kernels, feats, a.size, arch=a.arch)
    k = ks[a.kernel]
    work = a.out or tempfile.mkdtemp(prefix="difftest-reduce-")
    os.makedirs(work, exist_ok=True)
    red = Reducer(env, k, feats, work, a.seed)
    want, msg = red.outcome()
    if want is None:
        print(f"{k.name}: passes alone (nothing to reduce)")
        return 1
    print(f"{k.name}: {want}: {msg}; {count(k.body)} statements", flush=True)
    reduce_kernel(red, want, msg)
    got, msg = red.outcome()
    gen.write_batch([k], a.seed, work, feats, stem="repro", arch=a.arch)
    print(f"reduced to {count(k.body)} statements ({red.tries} tries): {got}: {msg}")
    print(f"files: {work}/repro.hip {work}/repro_ref.cpp")
    print("\n".join(k.dsl()))
    return 0


if __name__ == "__main__":
    sys.exit(main())

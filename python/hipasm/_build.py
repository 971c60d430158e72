"""hipasm.build: a .hip source compiled as hipasm_add_code_object compiles it (device pass to
asm with hipasm's kernel flags and a precompiled hipasm/kernels.hpp, then llvm-mc + ld.lld),
into a cached code object.

The cache (HIPASM_CACHE_DIR, default ~/.cache/hipasm) keeps one entry per source path, arch and
flag set, with a manifest of every file the compile read (the source and its headers, from the
compiler's dependency file) and their contents' hashes, the flags and the compiler's version: a
call whose manifest still matches returns the code object without compiling; an edited header,
new flags or another compiler compile again. Beside the code object: its asm listing (<name>.s:
the simulator's findings name source lines) and <name>.signatures.json (the kernels' C parameter
types, from the preprocessed source: hipasm.load checks argument types with them). The
precompiled header is cached the same way, one per compiler and flag set (as CMake shares one
per flag set), rebuilt when a hipasm header changes."""
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile

from . import _config
from ._errors import BuildError

_compiler_ids = {}


def _compiler_id(cxx):
    real = shutil.which(cxx) or cxx
    real = os.path.realpath(real)
    try:
        st = os.stat(real)
    except OSError:
        raise BuildError(f"no device compiler {cxx} (set HIPASM_DEVICE_CXX)") from None
    key = (real, st.st_mtime_ns, st.st_size)
    if key not in _compiler_ids:
        out = subprocess.run([real, "--version"], capture_output=True, text=True).stdout
        _compiler_ids[key] = out.splitlines()[0] if out else real
    return f"{_compiler_ids[key]} ({real} {st.st_size})"


def _hash_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()


def _read_depfile(path):
    with open(path) as f:
        text = f.read().replace("\\\n", " ")
    _, _, deps = text.partition(": ")
    files = re.findall(r"(?:\\ |[^\s])+", deps)
    return [d.replace("\\ ", " ") for d in files]


_KERNEL = re.compile(r"__attribute__\s*\(\(\s*global\s*\)\)\s*void\s+(\w+)\s*\(([^()]*)\)")


def signatures_of(preprocessed):
    """{kernel: parameter list} of the extern "C" __global__ functions in preprocessed source."""
    return {m.group(1): " ".join(m.group(2).split()) for m in _KERNEL.finditer(preprocessed)}


def _manifest_matches(path, compiler, flags, outputs):
    try:
        with open(path) as f:
            m = json.load(f)
        return m["compiler"] == compiler and m["flags"] == flags and all(os.path.exists(o) for o in outputs) and all(
            os.path.exists(p) and _hash_file(p) == h for p, h in m["files"].items())
    except (OSError, ValueError, KeyError):
        return False


def _write_manifest(path, compiler, flags, files, **extra):
    with open(path + ".tmp", "w") as f:
        json.dump({"compiler": compiler, "flags": flags, "files": files, **extra}, f, indent=1)
    os.replace(path + ".tmp", path)


def _hashes(paths):
    return {p: _hash_file(p) for p in {os.path.abspath(d) for d in paths} if not p.endswith(".pch")}


def _run(cmd, env, what, verbose):
    if verbose:
        print(" ".join(cmd))
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise BuildError(f"{what} failed:\n{r.stderr.strip()}")
    return r


def _pch(cxx, flags, compiler, include, cache, env, verbose):
    """The precompiled hipasm/kernels.hpp for these flags: (path, the headers it holds)."""
    key = hashlib.sha256(json.dumps([compiler, flags]).encode()).hexdigest()[:16]
    slot = os.path.join(cache, f"pch-{key}")
    pch, manifest = os.path.join(slot, "hipasm.pch"), os.path.join(slot, "manifest.json")
    if not _manifest_matches(manifest, compiler, flags, [pch]):
        os.makedirs(slot, exist_ok=True)
        tmp = tempfile.mkdtemp(dir=slot, prefix="tmp-")
        try:
            out, dep = os.path.join(tmp, "hipasm.pch"), os.path.join(tmp, "hipasm.pch.d")
            _run([cxx, *flags, "-Xclang", "-emit-pch", "-Xclang", "-dependency-file", "-Xclang", dep, "-Xclang", "-MT",
                  "-Xclang", out, "-S", os.path.join(include, "hipasm", "kernels.hpp"), "-o", out], env,
                 "precompiling hipasm/kernels.hpp", verbose)
            files = _hashes(_read_depfile(dep))
            os.replace(out, pch)
            _write_manifest(manifest, compiler, flags, files)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    with open(manifest) as f:
        return pch, list(json.load(f)["files"])


def _tool(key, fallback):
    return _config.get(key) or shutil.which(fallback)


def _targets():
    """The targets hipasm's headers have (include/hipasm/targets/<arch>)."""
    include = _config.get("include_dir")
    try:
        found = sorted(d for d in os.listdir(os.path.join(include, "hipasm", "targets")) if d.startswith("gfx"))
    except (OSError, TypeError):
        found = []
    return found or ["gfx942", "gfx950"]


def archs_of(arch):
    """`arch` as a list of targets: a name ("gfx950"), several (a fat binary), or None: the
    current device's target (the build's default target when the device does not say)."""
    if arch is None:
        from . import _runtime
        target = getattr(_runtime.current_device(), "target", None)
        return [target or _config.get("default_arch", "gfx942")]
    names = [arch] if isinstance(arch, str) else list(arch)
    known = _targets()
    if not names or any(not isinstance(a, str) or a not in known for a in names):
        raise ValueError(f"arch {arch!r}: expected one of {', '.join(known)}, or a list of them")
    if len(set(names)) != len(names):
        raise ValueError(f"arch {arch!r}: a target is named twice")
    return names


def cache_root(given=None):
    """The build cache: `given`, else HIPASM_CACHE_DIR, else ~/.cache/hipasm."""
    return given or os.environ.get("HIPASM_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "hipasm")


def cached(source, arch, options=(), include_dirs=(), cache_dir=None, pch=None):
    """The cached code object of `source` for one `arch` if the cache's entry is current (what
    build() would return without compiling), else None."""
    p = _plan(os.path.abspath(os.fspath(source)), arch, options, include_dirs, cache_dir, pch)
    return p["co"] if _manifest_matches(p["manifest"], p["compiler"], p["key_flags"], [p["co"]]) else None


def _plan(source, arch, options, include_dirs, cache, pch):
    """The compile's flags and its cache slot."""
    cxx = _config.get("device_cxx") or shutil.which("clang++-22") or "clang++"
    include = _config.get("include_dir")
    if not include:
        raise BuildError("hipasm's include directory is unknown: set HIPASM_INCLUDE_DIR")
    flags = ["-x", "hip", f"--offload-arch={arch}", "--offload-device-only", "--no-gpu-bundle-output", "-nogpulib",
             "-nogpuinc", "-O3", *_config.get("kernel_flags", []), f"-I{include}",
             *[f"-I{os.path.abspath(d)}" for d in include_dirs], *options,
             # argument names in the metadata, for error messages (the code is the same)
             "-fhip-kernel-arg-name"]
    cache = cache_root(cache)
    if pch is None:
        pch = os.environ.get("HIPASM_PCH", "1") not in ("0", "OFF", "off", "")
    slot_key = hashlib.sha256(json.dumps([source, arch, flags, bool(pch)]).encode()).hexdigest()[:16]
    stem = os.path.splitext(os.path.basename(source))[0]
    slot = os.path.join(cache, f"{stem}-{slot_key}")
    return {"cxx": cxx, "include": include, "flags": flags, "compiler": _compiler_id(cxx), "cache": cache,
            "pch": pch, "stem": stem, "slot": slot, "co": os.path.join(slot, stem + ".co"),
            "manifest": os.path.join(slot, "manifest.json"), "key_flags": flags + ["pch" if pch else "no-pch"]}


def build(source, arch=None, options=(), include_dirs=(), cache_dir=None, pch=None, verbose=False):
    """Compiles `source` (.hip) into a code object for `arch` (default: the current device's
    target; several: a fat binary of one code object each); returns its path (cached, see the
    module doc). pch: use the precompiled hipasm/kernels.hpp (default: on unless HIPASM_PCH=0)."""
    archs = archs_of(arch)
    source = os.path.abspath(os.fspath(source))
    if not os.path.exists(source):
        raise BuildError(f"no such source: {source}")
    if len(archs) > 1:
        cos = [build(source, a, options, include_dirs, cache_dir, pch, verbose) for a in archs]
        return _bundle(source, archs, cos, cache_dir, verbose)
    arch = archs[0]
    p = _plan(source, arch, options, include_dirs, cache_dir, pch)
    cxx, include, flags, compiler, cache, pch = p["cxx"], p["include"], p["flags"], p["compiler"], p["cache"], p["pch"]
    stem, slot, co, manifest_path = p["stem"], p["slot"], p["co"], p["manifest"]
    if _manifest_matches(manifest_path, compiler, p["key_flags"], [co]):
        return co

    env = dict(os.environ)
    if "GLIBC_TUNABLES" not in env:  # the build's malloc settings for constant evaluation
        env["GLIBC_TUNABLES"] = ("glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=268435456:"
                                 "glibc.malloc.top_pad=67108864")
    os.makedirs(slot, exist_ok=True)
    pch_flags, pch_files = [], []
    if pch:
        pch_path, pch_files = _pch(cxx, flags, compiler, include, cache, env, verbose)
        pch_flags = ["-Xclang", "-include-pch", "-Xclang", pch_path]
    work = tempfile.mkdtemp(dir=slot, prefix="tmp-")
    try:
        asm, dep, obj, out = (os.path.join(work, stem + e) for e in (".s", ".d", ".o", ".co"))
        _run([cxx, *flags, *pch_flags, "-Xclang", "-dependency-file", "-Xclang", dep, "-Xclang", "-MT", "-Xclang", asm,
              "-S", source, "-o", asm], env, f"compiling {source}", verbose)
        pre = subprocess.run([cxx, *flags, "-E", "-P", source], capture_output=True, text=True, env=env)
        sigs = signatures_of(pre.stdout) if pre.returncode == 0 else {}
        mc, lld = _tool("llvm_mc", "llvm-mc-22"), _tool("ld_lld", "ld.lld-22")
        if mc and lld:
            steps = [[mc, "-triple=amdgcn-amd-amdhsa", f"-mcpu={arch}", "-filetype=obj", asm, "-o", obj],
                     [lld, "--no-undefined", "-shared", obj, "-o", out]]
        else:
            steps = [[cxx, "-target", "amdgcn-amd-amdhsa", f"-mcpu={arch}", asm, "-o", out]]
        for step in steps:
            _run(step, None, f"assembling {source}", verbose)
        files = _hashes(_read_depfile(dep) + pch_files + [source])
        for src, name in ((out, stem + ".co"), (asm, stem + ".s")):
            os.replace(src, os.path.join(slot, name))
        with open(os.path.join(slot, stem + ".signatures.json"), "w") as f:
            json.dump(sigs, f, indent=1)
        _write_manifest(manifest_path, compiler, flags + ["pch" if pch else "no-pch"], files, source=source)
        return co
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _bundle(source, archs, cos, cache_dir, verbose):
    """The fat binary of `cos` (one code object per arch of `archs`), as hipasm_add_code_object
    packs several ARCH values: an empty host entry, then one hipv4-amdgcn-amd-amdhsa--<arch>
    entry each, 4096-byte aligned. Beside it <stem>.<arch>.s, each arch's listing."""
    cache = cache_root(cache_dir)
    key = hashlib.sha256(json.dumps([cos, archs]).encode()).hexdigest()[:16]
    stem = os.path.splitext(os.path.basename(source))[0]
    slot = os.path.join(cache, f"{stem}-fat-{key}")
    fat = os.path.join(slot, stem + ".co")
    if os.path.exists(fat) and all(os.path.getmtime(c) <= os.path.getmtime(fat) for c in cos):
        return fat
    bundler = _config.get("offload_bundler")
    if not bundler or bundler.endswith("NOTFOUND"):
        bundler = shutil.which("clang-offload-bundler-22") or shutil.which("clang-offload-bundler")
    if not bundler:
        raise BuildError("a fat binary (several arch) needs clang-offload-bundler (Debian: apt-get install clang-22)")
    os.makedirs(slot, exist_ok=True)
    import platform
    targets = ",".join([f"host-{platform.machine()}-unknown-linux-gnu"] +
                       [f"hipv4-amdgcn-amd-amdhsa--{a}" for a in archs])
    tmp = fat + ".tmp"
    _run([bundler, "-type=o", "-bundle-align=4096", f"-targets={targets}", "-input=/dev/null",
          *[f"-input={c}" for c in cos], f"-output={tmp}"], None, f"bundling {source}", verbose)
    for a, c in zip(archs, cos):
        shutil.copyfile(os.path.splitext(c)[0] + ".s", os.path.join(slot, f"{stem}.{a}.s"))
    sigs = os.path.splitext(cos[0])[0] + ".signatures.json"
    if os.path.exists(sigs):
        shutil.copyfile(sigs, os.path.join(slot, stem + ".signatures.json"))
    os.replace(tmp, fat)
    return fat

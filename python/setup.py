"""pip install ./python (or pip install -e ./python): the package hipasm with what it needs from
the project's CMake build: libhipasm_sim.so, hipasm's headers (hipasm.build compiles with them)
and the code objects of hipasm.ops.

The CMake build directory is $HIPASM_BUILD_DIR, else <repository>/build. The target
hipasm_python is built there (configured first, with the Python package on, when the directory
has no CMake cache or the package is off), then:
  - pip install: the wheel's hipasm/ holds the .py files, libhipasm_sim.so, include/hipasm and
    the ops code objects, and a _build_config.json naming them relative to the package (the
    compiler's paths stay absolute: hipasm.build uses the machine's clang);
  - pip install -e: python/hipasm is imported in place; its _build_config.json (not in git) is
    the build tree's, with absolute paths into the build directory.
With no package index (Debian's pip, python3-setuptools and python3-wheel):
    pip install --no-build-isolation --no-index ./python
docs/python.md, "Getting it"."""
import json
import os
import re
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD_DIR = os.path.abspath(os.environ.get("HIPASM_BUILD_DIR") or os.path.join(ROOT, "build"))
TARGET = "hipasm_python"
# setuptools' own build and egg-info directories: in the CMake build directory, not the sources
WORK = os.path.join(BUILD_DIR, "python", "setuptools")


def _version():
    try:
        with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
            return re.search(r"project\(hipasm VERSION ([0-9.]+)", f.read()).group(1)
    except OSError:
        sys.exit(f"hipasm setup.py: {ROOT} is not hipasm's repository (no CMakeLists.txt): install from the "
                 f"repository's python/ folder, not a copy of it")


def _run(cmd):
    print("hipasm setup.py:", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)


def _cmake_cache(build_dir):
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt")) as f:
            return dict(re.findall(r"^([A-Za-z_0-9]+):[A-Z]+=(.*)$", f.read(), re.M))
    except OSError:
        return None


def _cmake_build():
    """Builds TARGET in the CMake build directory; its build-tree _build_config.json (a dict)."""
    build_dir = BUILD_DIR
    cmake = shutil.which("cmake")
    if cmake is None:
        sys.exit("hipasm setup.py: cmake not found (Debian: apt-get install cmake ninja-build clang-22 lld-22 "
                 "llvm-22, or ./scripts/install-deps.sh --quickstart)")
    # scripts/build-locked: one build at a time in a build directory
    locked = [os.path.join(ROOT, "scripts", "build-locked"), build_dir]
    cache = _cmake_cache(build_dir)
    if cache is None or cache.get("HIPASM_BUILD_PYTHON", "OFF").upper() not in ("ON", "1", "TRUE", "YES"):
        cmd = [cmake, "-S", ROOT, "-B", build_dir, "-DHIPASM_BUILD_PYTHON=ON"]
        if cache is None:  # a new build directory: only what the package needs
            cmd += ["-DCMAKE_BUILD_TYPE=Release", "-DHIPASM_BUILD_TESTS=OFF", "-DHIPASM_BUILD_BENCH=OFF",
                    "-DHIPASM_BUILD_EXAMPLES=OFF"] + (["-G", "Ninja"] if shutil.which("ninja") else [])
        _run(locked + cmd)
    _run(locked + [cmake, "--build", build_dir, "--target", TARGET, "-j", str(os.cpu_count() or 2)])
    with open(os.path.join(build_dir, "python", "hipasm", "_build_config.json")) as f:
        return json.load(f)


class BuildPy(build_py):
    """build_py that also brings the CMake build's files into the package."""

    def run(self):
        super().run()
        config = _cmake_build()
        if getattr(self, "editable_mode", False):
            _write_json(os.path.join(HERE, "hipasm", "_build_config.json"), config)
            return
        pkg = os.path.join(self.build_lib, "hipasm")
        config = dict(config)
        shutil.copyfile(config["sim_library"], os.path.join(pkg, "libhipasm_sim.so"))
        config["sim_library"] = "./libhipasm_sim.so"
        include = os.path.join(pkg, "include")
        shutil.rmtree(include, ignore_errors=True)
        shutil.copytree(os.path.join(config["include_dir"], "hipasm"), os.path.join(include, "hipasm"))
        config["include_dir"] = "./include"
        ops = []
        for co in config.get("ops_code_objects", []):
            name = os.path.basename(co)
            shutil.copyfile(co, os.path.join(pkg, name))
            listing = os.path.splitext(co)[0] + ".s"  # the asm listing: findings name source lines
            if os.path.exists(listing):
                shutil.copyfile(listing, os.path.join(pkg, os.path.basename(listing)))
            ops.append("./" + name)
        config["ops_code_objects"] = ops
        _write_json(os.path.join(pkg, "_build_config.json"), config)


def _write_json(path, value):
    with open(path, "w") as f:
        json.dump(value, f, indent=2)
        f.write("\n")


VERSION = _version()
os.makedirs(WORK, exist_ok=True)
setup(
    name="hipasm",
    version=VERSION,
    description="Launch AMD CDNA code objects from Python in hipasm-sim or on HIP; hipasm's kernel library as "
                "functions and torch operators",
    packages=["hipasm"],
    python_requires=">=3.9",
    cmdclass={"build_py": BuildPy},
    zip_safe=False,
    options={"build": {"build_base": WORK}, "egg_info": {"egg_base": WORK}},
)

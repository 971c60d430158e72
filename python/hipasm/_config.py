"""The build tree's facts (_build_config.json, written by python/CMakeLists.txt): the simulator
library, the device compiler and hipasm's kernel flags, the ops code object."""
import json
import os

_cache = None


def _load():
    global _cache
    if _cache is None:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_build_config.json")
        try:
            with open(path) as f:
                _cache = json.load(f)
        except OSError:
            _cache = {}
    return _cache


def get(key, default=None):
    """HIPASM_<KEY> from the environment, else the build config's value (a path starting with
    "./" is relative to the package: an installed config)."""
    env = os.environ.get("HIPASM_" + key.upper())
    if env:
        return env
    v = _load().get(key, default) or default
    if isinstance(v, list):
        return [_relative(x) for x in v]
    return _relative(v)


def _relative(v):
    if isinstance(v, str) and v.startswith("./"):
        v = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), v))
    return v

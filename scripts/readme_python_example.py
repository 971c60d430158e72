#!/usr/bin/env python3
"""Runs README.md's Python example as a reader would after the quick start: its first kernel (the
`// kernel: my_kernels` C++ block) compiled by hipasm.build into my_kernels.co, then its
```python block tagged `# python: my_kernels`, in that folder. Run with PYTHONPATH=build/python
(scripts/quickstart.sh does); python/tests/test_readme.py runs it too."""
import os
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def snippets(root=ROOT):
    """(kernel source, python code) of the README's example."""
    sys.path.insert(0, os.path.join(root, "tests", "docs"))
    try:
        from extract_snippets import blocks  # the docs tests' reader of fenced blocks
    finally:
        sys.path.pop(0)
    readme = os.path.join(root, "README.md")
    kernel = python = None
    for _, lang, body in blocks(readme):
        if lang == "cpp" and body and body[0].strip() == "// kernel: my_kernels":
            kernel = body[1:]
        if lang == "python" and body and body[0].strip() == "# python: my_kernels":
            python = "\n".join(body)
    if kernel is None or python is None:
        raise SystemExit(f"{readme}: no '// kernel: my_kernels' or no '# python: my_kernels' block")
    if not any(line.startswith("#include") for line in kernel):
        kernel = ["#include <hipasm/hipasm.hpp>", "using namespace hipasm;"] + kernel  # the docs' prelude
    return "\n".join(kernel) + "\n", python


def run(workdir, root=ROOT, **build_options):
    """Builds the example's kernel into workdir/my_kernels.co and runs the example there."""
    import hipasm
    kernel, python = snippets(root)
    src = os.path.join(workdir, "kernels.hip")
    with open(src, "w") as f:
        f.write(kernel)
    shutil.copy(hipasm.build(src, **build_options), os.path.join(workdir, "my_kernels.co"))
    cwd = os.getcwd()
    os.chdir(workdir)
    try:
        exec(compile(python, "README.md (python: my_kernels)", "exec"), {})
    finally:
        os.chdir(cwd)


def main():
    with tempfile.TemporaryDirectory(prefix="hipasm-readme-") as work:
        # a cache of its own (no precompiled header: one compile does not repay it)
        os.environ.setdefault("HIPASM_CACHE_DIR", os.path.join(work, "cache"))
        run(work, pch=False)
    print("README.md's Python example: ok (import hipasm with PYTHONPATH=build/python)")


if __name__ == "__main__":
    main()

"""The README's Python example runs as shown: its first kernel (the `// kernel: my_kernels` C++
block) built by hipasm.build, then its ```python block tagged `# python: my_kernels`, run in
the folder of my_kernels.co."""
import os
import shutil
import sys

import pytest

import hipasm

def test_readme_python_example(sim, tmp_path, monkeypatch, build_cache):
    root = os.environ.get("HIPASM_TEST_PROJECT_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")
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
    assert kernel is not None, "README.md has no '// kernel: my_kernels' block"
    assert python is not None, "README.md has no '# python: my_kernels' block"
    if not any(line.startswith("#include") for line in kernel):
        kernel = ["#include <hipasm/hipasm.hpp>", "using namespace hipasm;"] + kernel  # the docs' prelude
    src = tmp_path / "kernels.hip"
    src.write_text("\n".join(kernel) + "\n")
    shutil.copy(hipasm.build(src), tmp_path / "my_kernels.co")
    monkeypatch.chdir(tmp_path)
    exec(compile(python, "README.md (python: my_kernels)", "exec"), {})

"""The README's Python example runs as shown (scripts/readme_python_example.py: its kernel built
by hipasm.build, then its ```python block tagged `# python: my_kernels`, in the folder of
my_kernels.co)."""
import os
import sys


def test_readme_python_example(sim, tmp_path, build_cache):
    root = os.environ.get("HIPASM_TEST_PROJECT_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")
    sys.path.insert(0, os.path.join(root, "scripts"))
    try:
        import readme_python_example
    finally:
        sys.path.pop(0)
    readme_python_example.run(str(tmp_path), root=root)

"""ctest's entry to one pytest file (python/CMakeLists.txt). A missing Python package is a
failure naming the Debian package that provides it, never a skip."""
import sys

REQUIRED = [("pytest", "python3-pytest"), ("numpy", "python3-numpy")]
args = sys.argv[1:]
if "--torch" in args:  # the examples: PyTorch and matplotlib too
    args.remove("--torch")
    REQUIRED += [("torch", "python3-torch"), ("matplotlib", "python3-matplotlib")]
for module, package in REQUIRED:
    try:
        __import__(module)
    except ImportError:
        sys.exit(f"FAILED: Python module '{module}' is missing for {sys.executable}: install Debian's {package} "
                 "(scripts/install-deps.sh)")

import pytest  # noqa: E402

# -p no:cacheprovider: tests run from the source tree, which must stay clean.
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "-rs", *args]))

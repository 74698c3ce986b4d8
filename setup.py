"""pip install --no-build-isolation --no-deps .   (Debian's setuptools, no network)

The extension is built by the project's CMake (target hlsgym_python) in $HLSGYM_BUILD_DIR,
by default build/ (the README's build directory, so an installed package costs one extra
link when the tree is built); the package is python/hlsgym plus a copy of designs/
(targets, the shipped policy, the default graphs) that the installed module reads.
"""
import os
import pathlib
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = pathlib.Path(__file__).resolve().parent


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = pathlib.Path(os.environ.get("HLSGYM_BUILD_DIR", ROOT / "build"))
        # The interpreter running pip is the one the module must be built for.
        subprocess.check_call(["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
                               f"-DPython3_EXECUTABLE={sys.executable}", "-DHLSGYM_BUILD_PYTHON=ON"])
        subprocess.check_call(["cmake", "--build", str(build), "--target", "hlsgym_python", "-j2"])
        built = sorted((build / "python" / "hlsgym").glob("_core*.so"))
        if not built:
            raise RuntimeError(f"CMake built no hlsgym/_core*.so under {build}/python")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[-1], target)
        # The build tree keeps its debug information (RelWithDebInfo); the installed copy
        # does not need it (37 MB -> a few MB).
        if shutil.which("strip"):
            subprocess.check_call(["strip", "--strip-debug", str(target)])


class BuildPyWithDesigns(build_py):
    def run(self):
        super().run()
        dest = pathlib.Path(self.build_lib) / "hlsgym" / "designs"
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(ROOT / "designs", dest)


setup(
    name="hlsgym",
    version="0.1.0",
    description="Learn compiler pass orderings against hardware cost: a Gymnasium-shaped environment stepped in C++",
    packages=["hlsgym"],
    package_dir={"hlsgym": "python/hlsgym"},
    ext_modules=[CMakeExtension("hlsgym._core")],
    cmdclass={"build_ext": CMakeBuild, "build_py": BuildPyWithDesigns},
    python_requires=">=3.9",
    install_requires=["numpy"],
    zip_safe=False,
)

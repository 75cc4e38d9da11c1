"""Builds the trapeze wheel with what it needs inside it: libtrapeze.so (from the
source tree's build/, made with `make` first when it is not there) as
trapeze/lib/libtrapeze.so and the shipped data/ as trapeze/data, so an installed
package needs no environment variable (TRAPEZE_LIB and TRAPEZE_DATA still
override; trapeze/_lib.py finds them).

setuptools' own build folder and egg-info go to build/python/ of the source tree
(TRAPEZE_BUILD_DIR: another build folder), never into python/, so a build
leaves nothing there. The metadata is pyproject.toml's; this file only adds the
library and the data, and tags the wheel for this platform (it holds a shared
library, so it is not pure Python)."""
import os
import shutil
import subprocess
import sysconfig

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.path.abspath(os.environ.get("TRAPEZE_BUILD_DIR", os.path.join(ROOT, "build")))
OUT = os.path.join(BUILD, "python")


def library():
    """The built library's real file (libtrapeze.so.VERSION), made if missing."""
    lib = os.path.join(BUILD, "libtrapeze.so")
    if not os.path.exists(lib):
        subprocess.run(["make", "-C", ROOT, "B=" + os.path.relpath(BUILD, ROOT),
                        os.path.relpath(lib, ROOT)], check=True)
    return os.path.realpath(lib)


class BuildPy(build_py):
    """The package's modules, then the library and the data beside them."""

    def run(self):
        super().run()
        dst = os.path.join(self.build_lib, "trapeze")
        os.makedirs(os.path.join(dst, "lib"), exist_ok=True)
        shutil.copy2(library(), os.path.join(dst, "lib", "libtrapeze.so"))
        shutil.rmtree(os.path.join(dst, "data"), ignore_errors=True)
        shutil.copytree(os.path.join(ROOT, "data"), os.path.join(dst, "data"))


class BinaryDistribution(Distribution):
    """Holds a shared library: installed to platlib, at the wheel's root."""

    def has_ext_modules(self):
        return True


commands = {"build_py": BuildPy}
try:
    from wheel.bdist_wheel import bdist_wheel

    class BdistWheel(bdist_wheel):
        """py3-none-PLATFORM: any Python 3, this platform's shared library."""

        def get_tag(self):
            return "py3", "none", sysconfig.get_platform().replace("-", "_").replace(".", "_")

    commands["bdist_wheel"] = BdistWheel
except ImportError:    # no wheel package: an sdist or a legacy install still works
    pass

os.makedirs(OUT, exist_ok=True)
setup(cmdclass=commands, distclass=BinaryDistribution,
      options={"build": {"build_base": os.path.join(OUT, "setuptools")},
               "egg_info": {"egg_base": OUT}})

"""Where `import dpcov` finds libdpcov: DPCOV_LIBRARY first, then the library inside the package
(what `pip install .` with meson-python installs), before any library found elsewhere."""

import os
import shutil
import subprocess
import sys

from conftest import BINDING_DIR

from dpcov import _lib

PROBE = "import dpcov; from dpcov import _lib; print(os.path.realpath(_lib.lib._name))"


def loaded_by(package_parent, env):
    """The realpath of the library that a fresh interpreter loads from a copy of the package."""
    out = subprocess.run([sys.executable, "-c", "import os; " + PROBE], cwd=package_parent,
                         env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def package_copy_with_library(tmp_path):
    """A copy of the package with the library of this test run beside its modules."""
    shutil.copytree(BINDING_DIR / "dpcov", tmp_path / "dpcov",
                    ignore=shutil.ignore_patterns("__pycache__", "_installed.py"))
    bundled = tmp_path / "dpcov" / (_lib.SONAME + ".0.0")
    shutil.copy(os.path.realpath(_lib.lib._name), bundled)
    return os.path.realpath(bundled)


def clean_env(**extra):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONDONTWRITEBYTECODE": "1"}
    env.update(extra)
    return env


def test_the_library_inside_the_package_is_found_with_no_environment_variable(tmp_path):
    bundled = package_copy_with_library(tmp_path)
    assert loaded_by(tmp_path, clean_env()) == bundled


def test_dpcov_library_still_comes_first(tmp_path):
    package_copy_with_library(tmp_path)
    explicit = os.path.realpath(_lib.lib._name)
    assert loaded_by(tmp_path, clean_env(DPCOV_LIBRARY=explicit)) == explicit

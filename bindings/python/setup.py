"""Build steps of the dpcov Python package that pyproject.toml cannot state.

- The version is the C library's, read from capi/include/dpcov/version.h (the one place it is
  written), or from the installed library's pkg-config file when the header is not beside us.
- The path of the installed libdpcov, found with pkg-config at install time, is written into the
  built package as dpcov/_installed.py, so that ``import dpcov`` finds the library in any prefix
  with no environment variable (set PKG_CONFIG_PATH for the install if the prefix is not a system
  one, as for C programs).
"""

import re
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
VERSION_HEADER = HERE.parent.parent / "capi" / "include" / "dpcov" / "version.h"


def pkg_config(*args: str) -> str | None:
    """pkg-config's answer about dpcov, or None when pkg-config or dpcov.pc is missing."""
    try:
        out = subprocess.run(["pkg-config", *args, "dpcov"], check=True, capture_output=True,
                             text=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return out.stdout.strip()


def version() -> str:
    """major.minor.patch from version.h, else from the installed dpcov.pc."""
    if VERSION_HEADER.is_file():
        text = VERSION_HEADER.read_text()
        parts = [re.search(rf"#define DPCOV_VERSION_{p} (\d+)", text).group(1)
                 for p in ("MAJOR", "MINOR", "PATCH")]
        return ".".join(parts)
    found = pkg_config("--modversion")
    if not found:
        raise SystemExit(f"dpcov version unknown: neither {VERSION_HEADER} nor dpcov.pc found")
    return found


def installed_library() -> str | None:
    """The absolute path of the installed libdpcov.so.MAJOR that pkg-config points at."""
    libdir = pkg_config("--variable=libdir")
    if not libdir:
        return None
    library = Path(libdir) / f"libdpcov.so.{version().split('.')[0]}"
    return str(library) if library.is_file() else None


class BuildPy(build_py):
    """build_py that also writes dpcov/_installed.py into the built package."""

    def run(self):
        super().run()
        library = installed_library()
        if library is None:
            print("dpcov: pkg-config does not know an installed libdpcov; the package will look "
                  "for it in the loader's cache (ldconfig) or DPCOV_LIBRARY")
        target = Path(self.build_lib) / "dpcov" / "_installed.py"
        target.write_text('"""Written by setup.py at install time."""\n\n'
                          f"#: The libdpcov found through pkg-config when installing.\n"
                          f"LIBRARY = {library!r}\n")


setup(version=version(), cmdclass={"build_py": BuildPy})

"""Shared fixtures of the Python binding tests.

The tests import the package from bindings/python (PYTHONPATH, or the parent directory when run
directly) and load the library named by DPCOV_LIBRARY (or the default lookup of dpcov._lib).
"""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

BINDING_DIR = Path(__file__).resolve().parents[1]
REPO_DIR = BINDING_DIR.parents[1]
if str(BINDING_DIR) not in sys.path:
    sys.path.insert(0, str(BINDING_DIR))


@pytest.fixture
def data():
    """60 rows in R^4 with norms spread below and above 2 (so a bound of 2 clips some)."""
    gen = np.random.default_rng(20261122)
    return gen.normal(size=(60, 4)) * np.array([1.0, 0.7, 0.4, 0.2])


@pytest.fixture
def spd():
    """A 4 x 4 exactly symmetric, well-conditioned positive definite matrix."""
    gen = np.random.default_rng(7)
    a = gen.normal(size=(4, 4))
    m = a @ a.T + 4.0 * np.eye(4)
    return (m + m.T) / 2


@pytest.fixture(scope="session")
def struct_layout_program(tmp_path_factory):
    """The program printing the C layout of every public struct: built by Meson
    (DPCOV_STRUCT_LAYOUT_PROGRAM), or compiled here with the system C compiler."""
    built = os.environ.get("DPCOV_STRUCT_LAYOUT_PROGRAM")
    if built:
        return built
    out = tmp_path_factory.mktemp("layout") / "struct_layout"
    subprocess.run(["cc", "-std=c99", "-I", str(REPO_DIR / "capi" / "include"),
                    str(Path(__file__).with_name("struct_layout.c")), "-o", str(out)],
                   check=True)
    return str(out)

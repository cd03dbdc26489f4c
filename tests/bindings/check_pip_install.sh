#!/bin/sh
# `pip install .` from a copy of the repository's tracked files into a fresh virtual environment,
# offline with Debian's packages (python3-mesonpy, numpy from the system site): meson-python builds
# libdpcov and installs it inside the package. Then, from another folder and with an empty
# environment (no DPCOV_LIBRARY, no LD_LIBRARY_PATH, no PYTHONPATH), `import dpcov` loads that
# library and releases a matrix. It compiles the whole library: suite long.
# Usage: check_pip_install.sh SOURCE_ROOT
set -eu
source="$1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/src" "$work/elsewhere"
git -C "$source" ls-files -z | (cd "$source" && xargs -0 tar cf -) | tar xf - -C "$work/src"
/usr/bin/python3 -m venv --system-site-packages "$work/venv"
"$work/venv/bin/pip" install --quiet --no-build-isolation --no-index "$work/src"
cd "$work/elsewhere"
env -i PATH=/usr/bin:/bin HOME="$work" "$work/venv/bin/python" - "$work/venv" <<'PYTHON'
import importlib.metadata
import os
import sys

import numpy as np
import dpcov
from dpcov import _lib

venv = os.path.realpath(sys.argv[1])
loaded = os.path.realpath(_lib.lib._name)
assert loaded.startswith(venv) and os.path.dirname(loaded) == os.path.dirname(
    os.path.realpath(dpcov.__file__)), f"library not inside the package: {loaded}"
assert importlib.metadata.version("dpcov") == dpcov.version_string(), (
    "pyproject.toml's version differs from the library's (capi/include/dpcov/version.h)")
X = np.random.default_rng(0).normal(size=(1000, 3)) / 4
cov = dpcov.PrivateCovariance(epsilon=1.0, delta=1e-6, bound=1.0).fit(X)
assert cov.covariance_.shape == (3, 3) and np.all(np.isfinite(cov.covariance_))
print("pip install . :", loaded, "released", cov.receipt_.mechanism_name)
PYTHON

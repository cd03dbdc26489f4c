"""Loading of the shared library, the prototyped functions and the status check.

The C structs, constants and prototypes come from ``_generated.py``, which scripts/generate-bindings
writes from the public headers; this module applies the prototypes to the loaded library, by each
function's exact C name, so that ctypes converts and checks arguments and never guesses an ``int``
return type. It re-exports the struct mirrors and constants for the modules that use them.

Library lookup, in order: the path in the environment variable ``DPCOV_LIBRARY``; the library
inside the package (``pip install .`` from the repository root builds it with meson-python and
installs it beside this file); the library ``pip install ./bindings/python`` found through
pkg-config and recorded in ``dpcov/_installed.py``; the name ``ctypes.util.find_library("dpcov")``
reports (the system's linker cache); ``libdpcov.so.0`` through the dynamic loader's search path
(``LD_LIBRARY_PATH``, ``/etc/ld.so.conf``). From a source tree none of the first three exists.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import glob
import numbers
import os

from ._generated import *  # noqa: F401,F403 (the struct mirrors and constants, re-exported)
from ._generated import DPCOV_VERSION_MAJOR, PARAMETERS, PROTOTYPES
from ._mirror import INT_RANGES, real, whole
from .errors import Status, error_for

#: The ABI major version this binding is generated from; the library loaded must report the same.
ABI_MAJOR = DPCOV_VERSION_MAJOR
#: The SONAME of that ABI version.
SONAME = f"libdpcov.so.{ABI_MAJOR}"


def _installed_library() -> str | None:
    """The library path recorded when the package was installed with pip, if any."""
    try:
        from ._installed import LIBRARY
    except ImportError:
        return None
    return LIBRARY


def _bundled_library() -> str | None:
    """The library that ``pip install .`` (meson-python) put inside the package, if any."""
    found = sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                          f"{SONAME}*")))
    return found[0] if found else None


def _load() -> ctypes.CDLL:
    """Load the shared library from DPCOV_LIBRARY, inside the package, the installed path, the
    linker cache or the SONAME."""
    explicit = os.environ.get("DPCOV_LIBRARY")
    if explicit:
        return ctypes.CDLL(explicit)
    candidates = [path for path in [_bundled_library()] if path]
    installed = _installed_library()
    if installed:
        candidates.append(installed)
    found = ctypes.util.find_library("dpcov")
    if found:
        candidates.append(found)
    candidates.append(SONAME)
    errors = []
    for name in candidates:
        try:
            return ctypes.CDLL(name)
        except OSError as exc:
            errors.append(f"{name}: {exc}")
    raise OSError("cannot load the dpcov shared library (set DPCOV_LIBRARY to its path): "
                  + "; ".join(errors))


lib = _load()


def new_struct(cls):
    """A zeroed instance of a ctypes struct mirror with its ``struct_size`` set."""
    value = cls()
    value.struct_size = ctypes.sizeof(cls)
    return value


class _Functions:
    """Attribute access to the prototyped C functions: ``C.dpcov_gram_create(...)``."""


def _range_checked(name: str, fn, argtypes):
    """``fn``, checking each ``int32_t`` or ``int64_t`` argument before calling C: a fraction, a
    bool or a non-number is refused (``whole``): ``int(n)`` at a call site truncated n = 2.7 to
    2 and read ``n=True`` as 1; and a Python int the type cannot hold is refused with
    :class:`~dpcov.errors.InvalidArgumentError`: ctypes passes such an int reduced modulo 2^32
    or 2^64, so ``n = 2**64 + 50`` reached C as 50 and a layout of ``2**32 + 101`` as
    DPCOV_ROW_MAJOR. (Seeds and stream ids are ``uint64_t``: taken modulo 2^64 as
    documented.) Each ``double`` argument is a real number (``real``): ``float(epsilon)`` at a
    call site read ``epsilon=True`` as 1 and parsed ``"1e-6"``."""
    names = PARAMETERS.get(name, [])
    checked = [(k, names[k] if k < len(names) else f"argument {k + 1}", *INT_RANGES[t])
               for k, t in enumerate(argtypes) if t in INT_RANGES]
    reals = [(k, names[k] if k < len(names) else f"argument {k + 1}")
             for k, t in enumerate(argtypes) if t is ctypes.c_double]
    # A handle (c_void_p) given a Python number, e.g. an int seed where a dpcov.Rng belongs,
    # would reach C as an address and crash the interpreter: refused here.
    handles = [k for k, t in enumerate(argtypes) if t is ctypes.c_void_p]
    if not checked and not reals and not handles:
        return fn

    def call(*args):
        args = list(args)
        for k, parameter, ctype, lo, hi in checked:
            if args[k] is None:  # ctypes' own refusal
                continue
            value = args[k] = whole(args[k], f"{parameter} of {name}")
            if not lo <= value <= hi:
                raise error_for(Status.INVALID_ARGUMENT, "DPCOV_E_INVALID_ARGUMENT",
                                f"{parameter} (argument {k + 1}) of {name} must fit {ctype}, "
                                f"got {value}")
        for k, parameter in reals:
            args[k] = real(args[k], f"{parameter} of {name}")
        for k in handles:
            if isinstance(args[k], numbers.Number):
                raise TypeError(f"argument {k + 1} of {name} must be a dpcov handle (a "
                                f"dpcov.Rng, an accumulator, ...) or None, got "
                                f"{type(args[k]).__name__} {args[k]!r}")
        return fn(*args)

    call.__name__ = name
    return call


C = _Functions()
for _name, (_restype, _argtypes) in PROTOTYPES.items():
    _fn = getattr(lib, _name)
    _fn.restype = _restype
    _fn.argtypes = _argtypes
    setattr(C, _name, _range_checked(_name, _fn, _argtypes))

WRAPPED_FUNCTIONS = frozenset(PROTOTYPES)
"""Names of every C function the binding declares (each is called by a module: test_wrapped)."""


def _check(status: int) -> None:
    """Raise the typed :class:`~dpcov.errors.DpcovError` for a failed call; return on DPCOV_OK.

    Must be called on the thread that made the call, right after it: the library's message is
    thread-local and replaced by the next failing call on the same thread.
    """
    if status != Status.OK:
        name = C.dpcov_status_string(status).decode("utf-8", "replace")
        message = C.dpcov_last_error_message().decode("utf-8", "replace")
        raise error_for(status, name, message)


_loaded_major = C.dpcov_version_number() // 10000
if _loaded_major != ABI_MAJOR:
    raise ImportError(f"the loaded dpcov library has ABI major version {_loaded_major}; this "
                      f"binding needs {ABI_MAJOR}")

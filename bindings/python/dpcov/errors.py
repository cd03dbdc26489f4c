"""Typed exceptions for the status codes of the dpcov C ABI.

Every fallible C function returns a ``dpcov_status``. The binding turns a negative status into an
exception: :class:`DpcovError` is the base class, one subclass per status family groups related
codes (argument errors, refused or unmet preconditions, numerical failures, resource failures),
and one class per status code sits under its family. Each exception carries the numeric
:attr:`~DpcovError.status`, its name (:attr:`~DpcovError.status_name`, e.g.
``"DPCOV_E_NON_FINITE"``) and the library's own description of the failure
(:attr:`~DpcovError.message`, from ``dpcov_last_error_message`` on the calling thread).

Argument errors also derive from :class:`ValueError` (and :class:`TypeError` for layout and
pointer problems), resource errors from :class:`MemoryError` or :class:`OSError`, numerical errors
from :class:`ArithmeticError`, so code written against the standard exception hierarchy keeps
working.
"""

from __future__ import annotations

import contextlib
import os
import sys

from ._generated import Status


class DpcovError(Exception):
    """Base class of every error the binding raises for a failed dpcov call.

    Attributes:
        status: the negative ``dpcov_status`` returned by the C function.
        status_name: the status code's name, e.g. ``"DPCOV_E_NON_FINITE"``.
        message: the library's description of the failure (``dpcov_last_error_message``).
    """

    def __init__(self, status: int, status_name: str, message: str):
        """Record the status code, its name and the library message."""
        super().__init__(f"{status_name}: {message}" if message else status_name)
        self.status = int(status)
        self.status_name = status_name
        self.message = message

    def __reduce__(self):
        """Pickle by the three constructor arguments, so that an error raised in another process
        (a Dask worker) reaches the caller as itself."""
        return type(self), (self.status, self.status_name, self.message)


# Families -----------------------------------------------------------------------------------


class ArgumentError(DpcovError, ValueError):
    """An argument is missing, out of range, of the wrong shape or layout, or inconsistent."""


class DataError(DpcovError, ValueError):
    """The data break a stated bound (a row over the norm bound B under the reject policy)."""


class PreconditionError(DpcovError, ValueError):
    """A theorem's precondition does not hold; the message names it."""


class PrivacyError(DpcovError):
    """The library declined to release: the mechanism is not private, or a private test failed."""


class NumericalError(DpcovError, ArithmeticError):
    """A matrix is not positive definite, an iteration did not converge, or LAPACK failed."""


class ResourceError(DpcovError):
    """The operating system's entropy source or memory allocation failed, or an internal bug."""


# One class per status code ----------------------------------------------------------------


class NullPointerError(ArgumentError, TypeError):
    """``DPCOV_E_NULL_POINTER``: a required pointer was NULL (e.g. a closed handle)."""


class InvalidArgumentError(ArgumentError):
    """``DPCOV_E_INVALID_ARGUMENT``: an argument is out of its documented range."""


class DimensionError(ArgumentError):
    """``DPCOV_E_DIMENSION``: a dimension is zero, negative or inconsistent."""


class LayoutError(ArgumentError, TypeError):
    """``DPCOV_E_LAYOUT``: unknown layout, leading dimension too small, or an array whose memory
    layout cannot be described as row- or column-major with a leading dimension."""


class NonFiniteError(ArgumentError):
    """``DPCOV_E_NON_FINITE``: input data or a parameter contains NaN or infinity."""


class TooLargeError(ArgumentError):
    """``DPCOV_E_TOO_LARGE``: a size does not fit the BLAS/LAPACK integer type or overflows."""


class IncompatibleError(ArgumentError):
    """``DPCOV_E_INCOMPATIBLE``: two objects that must match (dimension, bound, ...) do not."""


class BufferTooSmallError(ArgumentError):
    """``DPCOV_E_BUFFER_TOO_SMALL``: an output buffer is smaller than required."""


class NormBoundError(DataError):
    """``DPCOV_E_NORM_BOUND``: a row exceeds the norm bound under the reject policy."""


class UnmetPreconditionError(PreconditionError):
    """``DPCOV_E_PRECONDITION``: a theorem's precondition does not hold."""


class NotPrivateError(PrivacyError):
    """``DPCOV_E_NOT_PRIVATE``: a mechanism known not to be private was called without the
    audit-only unlock."""


class RefusedError(PrivacyError):
    """``DPCOV_E_REFUSED``: a propose-test-release test failed and nothing was released."""


class NotPositiveDefiniteError(NumericalError):
    """``DPCOV_E_NOT_POSITIVE_DEFINITE``: a matrix that must be positive definite is not."""


class NoConvergenceError(NumericalError):
    """``DPCOV_E_NO_CONVERGENCE``: an iteration or a rejection sampler hit its cap."""


class NumericalFailureError(NumericalError):
    """``DPCOV_E_NUMERICAL``: a LAPACK routine failed or a result is not finite."""


class EntropyError(ResourceError, OSError):
    """``DPCOV_E_ENTROPY``: the operating system's entropy source failed."""


class OutOfMemoryError(ResourceError, MemoryError):
    """``DPCOV_E_NOMEM``: memory allocation failed."""


class InternalError(ResourceError):
    """``DPCOV_E_INTERNAL``: an unexpected internal error of the library (a bug)."""


class UnknownStatusError(DpcovError):
    """A status code this version of the binding does not know (from a newer library)."""


ERROR_CLASSES: dict[int, type[DpcovError]] = {
    Status.NULL_POINTER: NullPointerError,
    Status.INVALID_ARGUMENT: InvalidArgumentError,
    Status.DIMENSION: DimensionError,
    Status.LAYOUT: LayoutError,
    Status.NON_FINITE: NonFiniteError,
    Status.NORM_BOUND: NormBoundError,
    Status.PRECONDITION: UnmetPreconditionError,
    Status.NOT_POSITIVE_DEFINITE: NotPositiveDefiniteError,
    Status.NOT_PRIVATE: NotPrivateError,
    Status.REFUSED: RefusedError,
    Status.NO_CONVERGENCE: NoConvergenceError,
    Status.NUMERICAL: NumericalFailureError,
    Status.ENTROPY: EntropyError,
    Status.TOO_LARGE: TooLargeError,
    Status.INCOMPATIBLE: IncompatibleError,
    Status.BUFFER_TOO_SMALL: BufferTooSmallError,
    Status.NOMEM: OutOfMemoryError,
    Status.INTERNAL: InternalError,
}
"""Maps each ``dpcov_status`` code to the exception class raised for it."""


def error_for(status: int, status_name: str, message: str) -> DpcovError:
    """The exception instance for a failed call's status, name and message."""
    cls = ERROR_CLASSES.get(int(status), UnknownStatusError)
    return cls(status, status_name, message)


@contextlib.contextmanager
def at_share(mechanism: str, share: float, requested: float, rest: str):
    """A theorem's precondition that fails for a release made at a share of the user's epsilon
    is reported against the epsilon the user passed: the library's message names the share only
    (``rest`` says what spends the remainder and how to give the release all of it)."""
    try:
        yield
    except UnmetPreconditionError as e:
        raise type(e)(e.status, e.status_name,
                      f"{mechanism}'s release gets epsilon = {share:.6g} of the requested "
                      f"epsilon = {requested:g} ({rest}): {e.message}") from e


@contextlib.contextmanager
def rows_of_caller(callers_row):
    """A refusal of one row (an error with ``row``, its 0-based index in the rows the library
    read, whose message opens "row <that index>") is re-raised as the same refusal naming the
    caller's row: ``callers_row(row)`` gives its index, or the words that locate it where the
    index is not known (a Dask partition of unknown offset: "row 5 of partition 2"). For rows the
    binding reordered (grouped by privacy unit) or split (Dask partitions)."""
    try:
        yield
    except DpcovError as e:
        row = getattr(e, "row", None)
        prefix = f"row {row}"
        if row is None or not e.message.startswith(prefix):
            raise
        mapped = callers_row(row)
        where = f"row {mapped}" if isinstance(mapped, int) else mapped
        renamed = type(e)(e.status, e.status_name, where + e.message[len(prefix):])
        renamed.row = mapped if isinstance(mapped, int) else None
        renamed.refusal = getattr(e, "refusal", None)
        raise renamed from None


def caller_stacklevel() -> int:
    """The ``stacklevel`` at which the function that calls this one, warning, names the first
    frame outside dpcov and scikit-learn: the user's line, however deep the call (an estimator
    inside another, or scikit-learn's ``fit_transform`` calling ``fit``)."""
    packages = [os.path.dirname(os.path.abspath(__file__))]
    sklearn = sys.modules.get("sklearn")
    if sklearn is not None and getattr(sklearn, "__file__", None):
        packages.append(os.path.dirname(os.path.abspath(sklearn.__file__)))
    inside = tuple(path + os.sep for path in packages)
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(inside):
        frame, level = frame.f_back, level + 1
    return level

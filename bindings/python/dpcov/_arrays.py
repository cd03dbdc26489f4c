"""How NumPy arrays are handed to the C ABI: pointer, layout and leading dimension, never a copy.

A 2-D float64 array can be passed to C without copying when one of its two strides is the item
size (8 bytes) and the other is a multiple of it at least as long as the contiguous extent: it is
then row-major (``DPCOV_ROW_MAJOR``) with leading dimension ``strides[0] / 8``, or column-major
(``DPCOV_COL_MAJOR``) with leading dimension ``strides[1] / 8``. This covers C- and
Fortran-contiguous arrays and also slices of them such as ``big[:, :5]`` or ``big[2:7, :]``.

NumPy arrays of another dtype, non-native byte order, misaligned data, or strides that fit neither
layout are refused with a :class:`~dpcov.errors.LayoutError` or
:class:`~dpcov.errors.InvalidArgumentError` naming the fix (e.g. ``np.ascontiguousarray(a,
dtype=np.float64)``): the binding never copies an array behind the caller's back. Inputs that are
not NumPy arrays (lists, tuples, scalars) have no memory layout to keep; they are converted once
with ``numpy.asarray(x, dtype=numpy.float64)``.
"""

from __future__ import annotations

import numpy as np

from ._generated import Layout
from ._mirror import whole
from .errors import InvalidArgumentError, LayoutError, DimensionError, NonFiniteError, Status

_F64 = np.dtype(np.float64)
ROW_MAJOR, COL_MAJOR = int(Layout.ROW_MAJOR), int(Layout.COL_MAJOR)
_ITEM = 8


def _fail(cls, status, message):
    """The exception ``cls`` for a problem found before calling C, with the status of its family."""
    return cls(int(status), f"DPCOV_E_{Status(status).name}", message)


def dimension_error(message: str) -> DimensionError:
    """A :class:`~dpcov.errors.DimensionError` for an inconsistency found before calling C."""
    return _fail(DimensionError, Status.DIMENSION, message)


def refuse_non_finite_rows(a: np.ndarray, first_row=0, block: str = "") -> None:
    """Refuses the first value of the rows ``a`` that is not finite, as the library does
    (:class:`~dpcov.errors.NonFiniteError`), at the caller's row: ``first_row`` + its row in
    ``a``, or where ``first_row`` is None its row in ``block``. For rows the binding reorders
    (grouped by privacy unit) or splits (Dask partitions), after which the library could name
    only a row of the copy or the partition it reads. Rows that are not numbers are left to the
    library, which names them."""
    a = np.asarray(a)
    if not np.issubdtype(a.dtype, np.number):
        return
    bad = ~np.isfinite(a)
    if not bad.any():
        return
    i, j = (int(k) for k in np.argwhere(bad)[0])
    row = f"row {first_row + i}" if first_row is not None else f"row {i} of {block}"
    raise _fail(NonFiniteError, Status.NON_FINITE,
                f"{row}, column {j} (0-based) is not finite; rows must be finite")


def describe_unreadable(a, name: str, ndim: int) -> str:
    """Why ``a`` is not an ``ndim``-dimensional array of real numbers, in words that name its
    type, dtype and shape but never one of its values: the message of every refused input
    (NumPy's and scikit-learn's own messages quote the data, e.g. "could not convert string to
    float: '...'" or "array=[...]"). Empty where ``a`` converts."""
    try:
        arr = np.asarray(a)
    except (ValueError, TypeError):
        return (f"{name} ({type(a).__name__}) is not a rectangular array: its rows differ in "
                f"length or it holds objects that are not numbers")
    if arr.dtype.kind == "c":
        return (f"Complex data not supported: {name} holds complex numbers (dtype {arr.dtype}); "
                f"only real numbers are read")
    if arr.dtype.kind not in "biuf":
        try:
            np.asarray(arr, dtype=np.float64)
        except ValueError:
            return (f"{name} holds values that are not numbers (dtype {arr.dtype}); convert "
                    f"them to numbers or drop them first")
        except TypeError:  # float()'s own words, which name a type only
            return (f"{name} holds objects that are neither numbers nor text (dtype "
                    f"{arr.dtype}): a float() argument must be a string or a real number")
    if arr.ndim != ndim:
        shape = "rows x columns" if ndim == 2 else "one value per row"
        hint = ("; Reshape your data: X.reshape(-1, 1) if it has a single column, "
                "X.reshape(1, -1) if it is a single row" if ndim == 2 and arr.ndim == 1 else "")
        return f"{name} must be {ndim}-D ({shape}), got shape {arr.shape}{hint}"
    return ""


def refusal_type(a) -> type:
    """TypeError where ``a``'s values are objects float() does not take (scikit-learn's checks
    expect that type there), else ValueError."""
    try:
        np.asarray(np.asarray(a), dtype=np.float64)
    except TypeError:
        return TypeError
    except ValueError:
        pass
    return ValueError


def real_array(a, name: str, ndim: int) -> np.ndarray:
    """``a`` converted to float64 (an ndarray of that dtype is not copied); where it does not
    convert, an InvalidArgumentError from :func:`describe_unreadable`, raised outside the
    conversion's exception so that no traceback carries the value NumPy quoted."""
    try:
        return np.asarray(a, dtype=np.float64)
    except (ValueError, TypeError):
        problem = describe_unreadable(a, name, ndim) or f"{name} does not convert to float64"
    raise _fail(InvalidArgumentError, Status.INVALID_ARGUMENT, problem)


def per_column(value, name: str, cols: int, columns: str = "columns") -> np.ndarray:
    """``value`` (one number for every column, or one per column) as a new contiguous float64
    vector of ``cols`` entries; a DimensionError names both lengths (``columns`` says what the
    entries are for, e.g. "columns of X and y, last")."""
    arr = real_array(value, name, 1)
    if arr.ndim > 1 or (arr.size != 1 and arr.shape != (cols,)):
        raise _fail(DimensionError, Status.DIMENSION,
                    f"{name} has shape {arr.shape}: give one number for every column or one "
                    f"per column ({cols}: {columns})")
    return np.broadcast_to(arr.reshape(-1) if arr.size == 1 else arr, (cols,)).copy()


def as_float64(a, name: str, ndim: int, writable: bool = False) -> np.ndarray:
    """``a`` as a float64 ndarray of ``ndim`` dimensions without copying an existing ndarray."""
    if not isinstance(a, np.ndarray):
        if writable:
            raise _fail(InvalidArgumentError, Status.INVALID_ARGUMENT,
                        f"{name} is written in place and must be a NumPy array, got "
                        f"{type(a).__name__}")
        a = real_array(a, name, ndim)
    if a.dtype is not _F64 and (a.dtype != _F64 or not a.dtype.isnative):
        raise _fail(InvalidArgumentError, Status.INVALID_ARGUMENT,
                    f"{name} must have dtype float64 in native byte order, got {a.dtype}; "
                    f"convert it explicitly, e.g. np.asarray({name}, dtype=np.float64)")
    if a.ndim != ndim:
        raise _fail(DimensionError, Status.DIMENSION,
                    f"{name} must have {ndim} dimension(s), got shape {a.shape}")
    if not a.flags.aligned:
        raise _fail(LayoutError, Status.LAYOUT, f"{name} is not aligned to 8 bytes; pass a copy "
                    f"made with np.array({name})")
    if writable and not a.flags.writeable:
        raise _fail(InvalidArgumentError, Status.INVALID_ARGUMENT, f"{name} is read-only")
    return a


def layouts_of(a: np.ndarray) -> list[tuple[int, int]]:
    """Every (layout, leading dimension) under which C can read the 2-D array ``a`` in place,
    row-major first."""
    rows, cols = a.shape
    s0, s1 = a.strides
    found = []
    if (cols <= 1 or s1 == _ITEM) and (rows <= 1 or (s0 % _ITEM == 0 and s0 // _ITEM >= cols)):
        found.append((ROW_MAJOR, s0 // _ITEM if rows > 1 else max(cols, 1)))
    if (rows <= 1 or s0 == _ITEM) and (cols <= 1 or (s1 % _ITEM == 0 and s1 // _ITEM >= rows)):
        found.append((COL_MAJOR, s1 // _ITEM if cols > 1 else max(rows, 1)))
    return found


class Mat:
    """A 2-D float64 array described for C: ``layout``, ``rows``, ``cols``, ``ptr``, ``ld``.

    Holds a reference to the array, so the memory stays alive while the description is used.
    """

    __slots__ = ("array", "layout", "rows", "cols", "ptr", "ld")

    def __init__(self, array: np.ndarray, layout: int, ld: int):
        """Describe ``array`` (already checked) as ``layout`` with leading dimension ``ld``."""
        self.array = array
        self.layout = layout
        self.rows, self.cols = array.shape
        self.ptr = array.ctypes.data if array.size else None
        self.ld = ld


def matrix(a, name: str, writable: bool = False, layout: int | None = None) -> Mat:
    """Describe the 2-D array ``a`` for C, in ``layout`` if given, else its own (row-major
    preferred)."""
    arr = as_float64(a, name, 2, writable)
    options = layouts_of(arr)
    if not options:
        raise _fail(LayoutError, Status.LAYOUT,
                    f"{name} (shape {arr.shape}, strides {arr.strides}) is neither row- nor "
                    f"column-major with a leading dimension; pass np.ascontiguousarray({name}) "
                    f"or np.asfortranarray({name})")
    if layout is not None:
        for lay, ld in options:
            if lay == layout:
                return Mat(arr, lay, ld)
        wanted = "row-major (C order)" if layout == ROW_MAJOR else "column-major (Fortran order)"
        raise _fail(LayoutError, Status.LAYOUT,
                    f"{name} must be {wanted} like the other matrices of this call")
    return Mat(arr, *options[0])


def square(a, name: str, layout: int | None = None, writable: bool = False) -> Mat:
    """Describe the square array ``a`` for C, in ``layout`` if given, whatever its own order.

    Used only for arguments the library requires to be symmetric (or, for log-densities, treats
    as outside the support when they are not). A square array stored in the other order is
    passed as its transpose, which equals it when it is symmetric; the transpose of a
    non-symmetric matrix is non-symmetric too, so the outcome never depends on the storage order.
    """
    arr = as_float64(a, name, 2, writable)
    if arr.shape[0] != arr.shape[1]:
        raise _fail(DimensionError, Status.DIMENSION,
                    f"{name} must be square, got shape {arr.shape}")
    options = layouts_of(arr)
    if layout is None and options:
        return Mat(arr, *options[0])
    for lay, ld in options:
        if lay == layout:
            return Mat(arr, lay, ld)
    if options:
        return Mat(arr, layout, options[0][1])
    return matrix(arr, name, writable, layout)


def require_square(m: Mat, name: str) -> None:
    """Refuse a non-square matrix where C takes a single order d (it would read a submatrix)."""
    if m.rows != m.cols:
        raise _fail(DimensionError, Status.DIMENSION,
                    f"{name} must be square, got shape {(m.rows, m.cols)}")


def same_shape(first: Mat, first_name: str, other: Mat, other_name: str) -> None:
    """Refuse two matrices of one call whose shapes differ (C would read a submatrix)."""
    if (first.rows, first.cols) != (other.rows, other.cols):
        raise _fail(DimensionError, Status.DIMENSION,
                    f"{other_name} has shape {(other.rows, other.cols)} but {first_name} has "
                    f"shape {(first.rows, first.cols)}")


def empty(rows: int, cols: int, layout: int) -> Mat:
    """A new uninitialised rows x cols array in ``layout``, described for C."""
    order = "C" if layout == ROW_MAJOR else "F"
    arr = np.empty((max(rows, 0), max(cols, 0)), dtype=np.float64, order=order)
    ld = max(cols, 1) if layout == ROW_MAJOR else max(rows, 1)
    return Mat(arr, layout, ld)


def order_layout(order: str) -> int:
    """``"C"`` -> ``DPCOV_ROW_MAJOR``, ``"F"`` -> ``DPCOV_COL_MAJOR``."""
    if order in ("C", "c"):
        return ROW_MAJOR
    if order in ("F", "f"):
        return COL_MAJOR
    raise _fail(LayoutError, Status.LAYOUT, f"order must be 'C' or 'F', got {order!r}")


def vector(a, name: str, length: int | None = None) -> np.ndarray:
    """``a`` as a contiguous 1-D float64 array (no copy of an existing ndarray)."""
    arr = as_float64(a, name, 1)
    if arr.size > 1 and arr.strides[0] != _ITEM:
        raise _fail(LayoutError, Status.LAYOUT, f"{name} must be contiguous; pass "
                    f"np.ascontiguousarray({name})")
    if length is not None and arr.shape[0] != length:
        raise _fail(DimensionError, Status.DIMENSION,
                    f"{name} must have {length} entries, got {arr.shape[0]}")
    return arr


def ptr(arr: np.ndarray | None):
    """Address of an array's data for a ``void *`` argument, or None for NULL."""
    if arr is None or arr.size == 0:
        return None
    return arr.ctypes.data


def int64_vector(values, name: str) -> np.ndarray:
    """Column indices as a contiguous int64 array (lists are converted; int64 arrays are not
    copied)."""
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise _fail(DimensionError, Status.DIMENSION, f"{name} must be 1-D, got shape {arr.shape}")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise _fail(InvalidArgumentError, Status.INVALID_ARGUMENT,
                    f"{name} must hold integers, got {arr.dtype}")
    return np.ascontiguousarray(arr, dtype=np.int64)


def whole_number(value, name: str) -> int:
    """``value`` as an int where it is one (an int, a NumPy integer, or a float with no
    fraction); a bool, a fraction or a non-number is refused rather than truncated (the check
    every integer argument of a C call gets: ``_mirror.whole``)."""
    return whole(value, name)


def flag(value, name: str) -> bool:
    """``value`` as a bool where it is one (True, False or a NumPy bool); anything else, a
    string such as "no" included, is refused rather than read by its truth."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)

"""``dask.dataframe`` inputs for the :mod:`dpcov.dask` releases: named columns, converted where they lie.

Every ``dpcov.dask`` entry point that takes a Dask array of rows also takes a
``dask.dataframe.DataFrame``, with the columns it reads named: ``columns=`` (default: every
integer or floating-point column, in the frame's order, bar the unit and response columns), the
response column of AdaSSP and the unit column of :func:`dpcov.dask_units.dask_unit_release` by
name. Each partition converts its own rows to a float64 NumPy block (:func:`partition_values`:
missing values become NaN, which the library refuses as it refuses NaN in an array); the blocks
form a Dask array whose row counts stay unknown, so building it computes nothing, and the release
then runs on it exactly as on an array: a frame and an array holding the same rows in the same
partitions give the same release, byte for byte where the array's is exact.

The driver learns nothing from the conversion. Only two releases need the number of rows n
(Dong-Liang-Yi and CoinPress sessions, and the private bound's quantile target): for a frame they
count it by a tree sum of the partitions' lengths, so that the one integer n reaches the driver,
which already holds it in every merged state; the partitions' own lengths never do.

Unit ids may be whole numbers (at most 2^53 in magnitude, where a float64 holds every integer,
so that two ids never merge) or strings. String ids have no integer of their own: each partition writes its rows to the unit
groupby's spill files by a fixed-key hash of the id, with the ids' bytes beside them, and group g
numbers its distinct ids g * 2^40 + rank in sorted order (:mod:`dpcov.dask_string_units`).
Distinct strings get distinct integers and every unit lies in one group; rows move between
workers through the spill directory, never to the driver.
"""

from __future__ import annotations

import sys

import dask
import dask.array as da
import dask.bag as db
import numpy as np

MAX_UNIT_ID = 2 ** 53
"""Integer unit ids above this in magnitude would round together in the float64 unit column."""


def is_frame(x) -> bool:
    """Whether ``x`` is a ``dask.dataframe.DataFrame`` (without importing pandas otherwise)."""
    dd = sys.modules.get("dask.dataframe")
    return dd is not None and isinstance(x, dd.DataFrame)


def is_real(dtype) -> bool:
    """Whether a column of ``dtype`` holds integers or floating-point numbers (NumPy's or
    pandas' nullable ones); booleans, complex numbers, strings and dates do not count."""
    return getattr(dtype, "kind", "O") in "iuf"


def numeric_columns(frame, columns=None, exclude=()) -> list:
    """The columns of ``frame`` a release reads, in the order of its matrix: ``columns`` as
    given (a name or a list), each numeric, or by default every integer or floating-point
    column in the frame's order bar ``exclude`` (the unit and response columns). Reads only the
    frame's metadata."""
    dtypes = frame.dtypes
    if columns is None:
        names = [c for c, t in dtypes.items() if c not in exclude and is_real(t)]
        if not names:
            raise ValueError("the frame has no integer or floating-point column to release")
        return names
    names = [columns] if isinstance(columns, str) else list(columns)
    if not names or len(set(names)) != len(names):
        raise ValueError(f"columns must name distinct columns, got {names!r}")
    for name in names:
        if name not in dtypes.index:
            raise ValueError(f"the frame has no column {name!r}")
        if name in exclude:
            raise ValueError(f"column {name!r} is the unit or response column, not a regressor")
        if not is_real(dtypes[name]):
            raise ValueError(f"column {name!r} is not numeric (dtype {dtypes[name]}): convert it "
                             "or leave it out of columns")
    return names


def partition_values(part) -> np.ndarray:
    """One partition's columns as a C-ordered float64 block; missing values become NaN."""
    return np.ascontiguousarray(part.to_numpy(dtype=np.float64, na_value=np.nan))


def blocks_array(blocks: list, cols: int) -> da.Array:
    """The delayed n_i x ``cols`` float64 blocks as one Dask array of unknown row counts."""
    return da.concatenate([da.from_delayed(b, shape=(np.nan, cols), dtype=np.float64)
                           for b in blocks], axis=0)


def frame_rows(frame, names: list) -> da.Array:
    """The rows of ``frame``'s columns ``names`` as a Dask array, one block per partition,
    converted in the partitions (:func:`partition_values`)."""
    parts = frame[list(names)].to_delayed()
    return blocks_array([dask.delayed(partition_values)(p) for p in parts], len(names))


def as_rows(x, columns=None) -> da.Array:
    """The rows a release reads: ``x`` itself when it is a Dask array, or the Dask array of the
    DataFrame ``x``'s ``columns`` (:func:`numeric_columns`)."""
    if is_frame(x):
        return frame_rows(x, numeric_columns(x, columns))
    if columns is not None:
        raise ValueError("columns names the columns of a dask.dataframe.DataFrame; x is "
                         f"a {type(x).__name__}")
    return x


def row_count(rows: da.Array) -> int:
    """n, the number of rows of ``rows``, by a tree sum of its blocks' lengths: only the total
    reaches the driver."""
    parts = db.from_delayed(list(rows.to_delayed().ravel()))
    return int(parts.reduction(len, sum, split_every=2).compute())


def adassp_rows(frame, response, columns=None) -> da.Array:
    """AdaSSP's rows [x, y] of ``frame``: its regressors ``columns`` (default every numeric
    column but the response), then the response column named ``response``."""
    if not np.isscalar(response):
        raise ValueError("with a DataFrame, y names its response column")
    names = numeric_columns(frame, columns, exclude=(response,))
    numeric_columns(frame, [response])
    return frame_rows(frame, names + [response])


def checked_unit_ids(ids: np.ndarray) -> np.ndarray:
    """``ids``, refused when they are integers above 2^53 in magnitude: distinct ones would
    round to one float64 in the unit column and merge two units into one."""
    if ids.dtype.kind in "iu" and ids.size and (
            ids.max() > MAX_UNIT_ID or (ids.dtype.kind == "i" and ids.min() < -MAX_UNIT_ID)):
        raise ValueError("unit ids must be whole numbers of magnitude at most 2^53")
    return ids


def unit_values(part, unit) -> np.ndarray:
    """One partition's whole-number unit ids as float64 (:func:`checked_unit_ids`; pandas'
    missing values become NaN, which the unit path refuses)."""
    ids = part[unit]
    if ids.dtype.kind in "iu":
        checked_unit_ids(ids.dropna().to_numpy(dtype=ids.dtype.kind + "8"))
    return ids.to_numpy(dtype=np.float64, na_value=np.nan)


def partition_unit_rows(part, unit, names: list) -> np.ndarray:
    """One partition's rows [unit, x] with whole-number unit ids."""
    return np.column_stack([unit_values(part, unit), partition_values(part[names])])


def unit_arrays(frame, unit, columns=None, shuffle: bool = True) -> tuple:
    """``(x, units, names)`` for :func:`dpcov.dask_units.dask_unit_release` from the frame's
    unit column named ``unit`` and its ``columns`` (their names in ``names``): whole-number ids
    as Dask arrays, or ``x`` and ``units`` None when the ids are strings, which
    :mod:`dpcov.dask_string_units` groups from the frame itself (module description)."""
    if not np.isscalar(unit):
        raise ValueError("with a DataFrame, units names its unit column")
    if unit not in frame.dtypes.index:
        raise ValueError(f"the frame has no unit column {unit!r}")
    names = numeric_columns(frame, columns, exclude=(unit,))
    kind = getattr(frame.dtypes[unit], "kind", "O")
    if kind in "OSU":
        if not shuffle:
            raise ValueError("string unit ids need the shuffle: without it a unit split between "
                             "partitions could not be told apart from two units")
        return None, None, names
    if kind not in "iuf":
        raise ValueError(f"unit column {unit!r} must hold whole numbers or strings, not "
                         f"{frame.dtypes[unit]}")
    blocks = [dask.delayed(partition_unit_rows)(p, unit, names)
              for p in frame[[unit] + names].to_delayed()]
    rows = blocks_array(blocks, len(names) + 1)
    return rows[:, 1:], rows[:, 0], names

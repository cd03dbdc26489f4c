"""A value that is not finite is refused at the caller's row on every path that reorders the rows
(grouped by privacy unit) or splits them (Dask partitions): the library reads a reordered copy or
one partition from row 0, and its refusal's row is mapped back, or, where Dask does not know the
partitions' lengths, named in its partition."""

import warnings

import dask
import numpy as np
import pytest

import dpcov
import dpcov.adassp_units
import dpcov.dask
import dpcov.dask_adassp
import dpcov.dask_bound
import dpcov.dask_zcdp_units
import dpcov.unit_rows
from dask_fixtures import CHUNKS, ROWS, lazy

pd = pytest.importorskip("pandas")
dd = pytest.importorskip("dask.dataframe")

BAD_ROW, BAD_COLUMN = 2100, 1  # in the third partition (CHUNKS), at its row 100
FIRST_OF_ITS_PARTITION = 2000


@pytest.fixture(scope="module")
def data():
    gen = np.random.default_rng(5)
    x = gen.normal(size=(ROWS, 3)) * 0.3
    y = x @ [0.5, -0.2, 0.1]
    x[BAD_ROW, BAD_COLUMN] = np.nan
    units = gen.permutation(ROWS) % 500  # the units interleave: grouping moves every row
    return x, y, units


@pytest.fixture(autouse=True)
def in_process():
    with dask.config.set(scheduler="synchronous"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def frame(x, y, units, unit_values=None):
    t = pd.DataFrame({"a": x[:, 0], "b": x[:, 1], "c": x[:, 2], "y": y})
    t["person"] = units if unit_values is None else unit_values
    cuts = np.cumsum((0,) + CHUNKS)
    return dd.from_delayed([dask.delayed(t.iloc[a:b]) for a, b in zip(cuts[:-1], cuts[1:])],
                           meta=t.iloc[:0])


def in_memory_paths(x, y, units):
    rng = dpcov.Rng(1)
    return {
        "adassp_units_fit": lambda: dpcov.adassp_units.adassp_units_fit(
            x, y, units, 2, 1.0, 1.0, 1.0, 1e-6, rng),
        "release_rows with units": lambda: dpcov.release_rows(
            "analyze_gauss", x, 1.0, 1.0, 1e-6, rng, privacy_unit=units, max_rows_per_unit=2),
        "keep_unit_rows": lambda: dpcov.unit_rows.keep_unit_rows(x, units, 2, rng),
        "PrivateCovariance with units": lambda: dpcov.PrivateCovariance(
            epsilon=1.0, bound=1.0, max_rows_per_unit=2, random_state=1).fit(
                x, privacy_unit=units),
    }


def dask_array_paths(x, y, units):
    rng = dpcov.Rng(1)
    return {
        "dask_adassp": lambda: dpcov.dask_adassp.dask_adassp(
            lazy(x), lazy(y), 1.0, 1.0, 1.0, 1e-6, rng),
        "dask_adassp with units": lambda: dpcov.dask_adassp.dask_adassp(
            lazy(x), lazy(y), 1.0, 1.0, 1.0, 1e-6, rng, privacy_unit=lazy(units),
            max_rows_per_unit=2),
        "dask_release": lambda: dpcov.dask.dask_release(lazy(x), 1.0, 1.0, 1e-6, rng),
        "dask_release with units": lambda: dpcov.dask.dask_release(
            lazy(x), 1.0, 1.0, 1e-6, rng, privacy_unit=lazy(units), max_rows_per_unit=2),
        "dask_zcdp_unit_release": lambda: dpcov.dask_zcdp_units.dask_zcdp_unit_release(
            lazy(x), lazy(units), 2, dpcov.Rng(1), "dly_adaptive", 0.5, 1e-6),
        # The passes' sums (a session closes the generator it takes: one each).
        "dask_zcdp_release dly": lambda: dpcov.dask.dask_zcdp_release(
            lazy(x), dpcov.Rng(1), "dly_adaptive", rho=0.5, delta=1e-6),
        "dask_zcdp_release coinpress": lambda: dpcov.dask.dask_zcdp_release(
            lazy(x), dpcov.Rng(1), "coinpress", rho=0.5, k_bound=2.0),
        "dask_private_bound": lambda: dpcov.dask_bound.dask_private_bound(
            lazy(x), 0.5, rng, clipped=10),
    }


def frame_paths(x, y, units):
    rng = dpcov.Rng(1)
    names = [f"p{u}" for u in units]
    return {
        "frame dask_adassp": lambda: dpcov.dask_adassp.dask_adassp(
            frame(x, y, units), "y", 1.0, 1.0, 1.0, 1e-6, rng, columns=["a", "b", "c"]),
        "frame with units": lambda: dpcov.dask_adassp.dask_adassp(
            frame(x, y, units), "y", 1.0, 1.0, 1.0, 1e-6, rng, privacy_unit="person",
            max_rows_per_unit=2, columns=["a", "b", "c"]),
        "frame with string units": lambda: dpcov.dask_adassp.dask_adassp(
            frame(x, y, units, names), "y", 1.0, 1.0, 1.0, 1e-6, rng, privacy_unit="person",
            max_rows_per_unit=2, columns=["a", "b", "c"]),
    }


def test_rows_in_memory_and_in_dask_arrays_are_named_at_the_callers_row(data):
    # The estimators refuse it before the library (a ValueError of their own, as scikit-learn's).
    paths = {**in_memory_paths(*data), **dask_array_paths(*data)}
    for name, call in paths.items():
        with pytest.raises(ValueError) as refused:
            call()
        assert f"row {BAD_ROW}, column {BAD_COLUMN} (0-based)" in str(refused.value), name


def test_rows_of_a_frame_are_named_in_their_partition(data):
    # A frame's partitions are counted only by reading them: the row is its partition's.
    local = BAD_ROW - FIRST_OF_ITS_PARTITION
    for name, call in frame_paths(*data).items():
        with pytest.raises(dpcov.NonFiniteError) as refused:
            call()
        assert f"row {local} of partition 2, column {BAD_COLUMN} (0-based) is not finite" in \
            str(refused.value), name

"""dask.dataframe inputs on a local Dask cluster: a release from a DataFrame equals, byte for byte, the
release from the same rows as a Dask array in the same partitions, for the Gram mechanisms
(exact and idealized), the private bound, AdaSSP, Dong-Liang-Yi and privacy units with integer
or string ids; bad frames are refused before or as the array path refuses them."""

import dask
import dask.array as da
import numpy as np
import pytest

import dpcov
import dpcov.dask as dask_release
import dpcov.dask_adassp as dask_adassp
import dpcov.dask_bound as dask_bound
import dpcov.dask_frame as dask_frame
import dpcov.dask_units as dask_units
from dask_fixtures import CHUNKS, ROWS, client, lazy, rows  # noqa: F401 (fixtures)

pd = pytest.importorskip("pandas")
dd = pytest.importorskip("dask.dataframe")

NAMES = ["a", "b", "c", "d", "e"]


def frame_of(table):
    """The pandas ``table`` as a Dask DataFrame in the row blocks CHUNKS of :func:`lazy`."""
    cuts = np.cumsum((0,) + CHUNKS)
    return dd.from_delayed([dask.delayed(table.iloc[a:b]) for a, b in zip(cuts[:-1], cuts[1:])],
                           meta=table.iloc[:0])


@pytest.fixture(scope="module")
def table(rows):
    """The rows as columns a to e, with a text column and an integer unit column around them
    that a default release leaves out (text) or reads (whole numbers) as the frame orders them."""
    t = pd.DataFrame(rows, columns=NAMES)
    t.insert(0, "note", "x")
    t["user"] = np.repeat(np.arange(ROWS // 4), 4)
    t["name"] = [f"user-{u}" for u in t["user"]]
    return t


def test_the_default_columns_are_the_numeric_ones_in_order(table):
    frame = frame_of(table)
    assert dask_frame.numeric_columns(frame) == NAMES + ["user"]
    assert dask_frame.numeric_columns(frame, exclude=("user",)) == NAMES


@pytest.mark.parametrize("mechanism,numerics", [("analyze_gauss", "exact"),
                                                ("laplace_sym", "exact"),
                                                ("analyze_gauss", "idealized"),
                                                ("wishart_additive", "idealized")])
def test_a_gram_release_from_a_frame_is_the_arrays_byte_for_byte(client, rows, table, mechanism,
                                                                  numerics):
    epsilon = 0.9 if mechanism == "wishart_additive" else 1.0
    releases = []
    for x, columns in ((lazy(rows), None), (frame_of(table), NAMES)):
        with dpcov.Rng(60) as rng:
            releases.append(dask_release.dask_release(x, 1.0, epsilon, 1e-6, rng, mechanism,
                                                      numerics=numerics, columns=columns))
    (expected, expected_receipt), (released, receipt) = releases
    assert receipt == expected_receipt and receipt.n == ROWS
    assert released.tobytes() == expected.tobytes()


def test_named_columns_are_released_in_the_order_given(client, rows, table):
    with dpcov.Rng(61) as rng:
        expected, _ = dask_release.dask_release(lazy(rows[:, [2, 0]]), 1.0, 1.0, 1e-6, rng)
    with dpcov.Rng(61) as rng:
        released, _ = dask_release.dask_release(frame_of(table), 1.0, 1.0, 1e-6, rng,
                                                columns=["c", "a"])
    assert released.tobytes() == expected.tobytes()


@pytest.mark.parametrize("neighbour,clipped", [("replace_one", None), ("add_remove", 40)])
def test_a_release_at_a_private_bound_from_a_frame_is_the_arrays(client, rows, table, neighbour,
                                                                  clipped):
    # The quantile target (replace-one) needs n: the frame's is counted, the array's known.
    results = []
    for x, columns in ((lazy(rows), None), (frame_of(table), NAMES)):
        with dpcov.Rng(62) as rng:
            results.append(dask_bound.dask_release_auto(x, 1.0, 1e-6, rng, clipped=clipped,
                                                        neighbour=neighbour, columns=columns))
    ((expected, expected_receipt), expected_bound), ((released, receipt), bound) = results
    assert bound == expected_bound and receipt == expected_receipt
    assert released.tobytes() == expected.tobytes()


def test_adassp_from_a_frame_names_its_response_column(client, rows, table):
    x, y = rows[:, 1:], rows[:, 0]
    with dpcov.Rng(63) as rng:
        expected = dask_adassp.dask_adassp(lazy(x), lazy(y), 1.0, 1.0, 1.0, 1e-6, rng)
    with dpcov.Rng(63) as rng:
        fit = dask_adassp.dask_adassp(frame_of(table), "a", 1.0, 1.0, 1.0, 1e-6, rng,
                                      columns=NAMES[1:])
    assert fit.receipt.to_dict() == expected.receipt.to_dict()
    assert fit.coefficients.tobytes() == expected.coefficients.tobytes()


def test_dong_liang_yi_from_a_frame_counts_its_rows(client, rows, table):
    releases = []
    for x, columns in ((lazy(rows), None), (frame_of(table), NAMES)):
        with dpcov.Rng(64) as rng:
            releases.append(dask_release.dask_zcdp_release(x, rng, "dly_adaptive", rho=1.0,
                                                           radius=4.0, columns=columns))
    (expected, expected_receipt), (released, receipt) = releases
    assert receipt == expected_receipt and receipt["n"] == ROWS
    assert released.tobytes() == expected.tobytes()


def scattered_units(counts, seed):
    """Unit ids: unit u has counts[u] rows, the rows shuffled so that units are scattered."""
    ids = np.repeat(np.arange(len(counts)), counts)
    return ids[np.random.default_rng(seed).permutation(len(ids))]


@pytest.mark.parametrize("shuffle", [True, False])
def test_integer_units_from_a_frame_are_the_arrays_byte_for_byte(client, rows, table, shuffle):
    # 4 rows per unit, k = 2: the groups draw which rows to keep, from the same keys.
    units = (scattered_units(np.full(ROWS // 4, 4), 65) if shuffle
             else table["user"].to_numpy())
    t = table.assign(user=units)
    releases = []
    for x, u, columns in ((lazy(rows), lazy(units), None), (frame_of(t), "user", NAMES)):
        with dpcov.Rng(66) as rng:
            releases.append(dask_units.dask_unit_release(x, u, 1.0, 2, 1.0, 1e-6, rng, groups=3,
                                                         shuffle=shuffle, columns=columns))
    (expected, expected_receipt), (released, receipt) = releases
    assert receipt == expected_receipt and receipt.n == ROWS // 4
    assert released.tobytes() == expected.tobytes()


def test_string_units_release_as_their_integer_codes(client, rows, table):
    # At most k rows per unit: nothing is drawn, so the release does not depend on the ids'
    # numbering, and it is the release of the same units numbered by integers.
    codes = scattered_units(np.tile([1, 2, 3, 4], ROWS // 10), 67)
    t = table.assign(name=[f"user-{c}" for c in codes])
    with dpcov.Rng(68) as rng:
        released, receipt = dask_units.dask_unit_release(frame_of(t), "name", 1.0, 4, 1.0, 1e-6,
                                                         rng, columns=NAMES)
    with dpcov.Rng(68) as rng:
        expected, expected_receipt = dask_units.dask_unit_release(lazy(rows), lazy(codes), 1.0,
                                                                  4, 1.0, 1e-6, rng)
    assert receipt == expected_receipt and receipt.n == ROWS // 10 * 4
    assert released.tobytes() == expected.tobytes()


def test_truncated_string_units_do_not_depend_on_the_input_partitions(client, rows, table):
    # Units of 1 to 7 rows, k = 2: which rows are kept depends on the groups and the rows'
    # order, which the shuffle keeps whatever the input partitions.
    counts = np.tile([1, 2, 3, 4, 5, 6, 7], ROWS // 28 + 1)
    counts = counts[:np.searchsorted(np.cumsum(counts), ROWS, side="right")]
    counts[-1] += ROWS - counts.sum()
    t = table.assign(name=[f"u{c}" for c in scattered_units(counts, 69)])
    releases = []
    for frame in (frame_of(t), dd.from_pandas(t, npartitions=7)):
        with dpcov.Rng(70) as rng:
            releases.append(dask_units.dask_unit_release(frame, "name", 1.0, 2, 1.0, 1e-6, rng,
                                                         groups=3, columns=NAMES))
    (expected, expected_receipt), (released, receipt) = releases
    assert receipt == expected_receipt and receipt.n == len(counts)
    assert released.tobytes() == expected.tobytes()


@pytest.mark.parametrize("unit", ["user", "name"])
def test_adassp_units_from_a_frame_name_their_unit_column(client, rows, table, unit):
    # 4 rows per unit, k = 2. Integer ids group as the array's do, so the fit is the array's
    # byte for byte; string ids group by another hash, so the rows kept differ: the receipt is
    # the same, and the fit keeps 2 rows of each of the same units.
    units = scattered_units(np.full(ROWS // 4, 4), 71)
    t = table.assign(user=units, name=[f"user-{u}" for u in units])
    x, y = rows[:, 1:], rows[:, 0]
    fits = []
    # The frame's regressors are named: with the unit "name" the numeric "user" would be one
    # more, and the balanced rows' norm bound (so the noise) depends on how many there are.
    for args, names in (((lazy(x), lazy(y), lazy(units)), None),
                        ((frame_of(t), "a", unit), NAMES[1:])):
        with dpcov.Rng(72) as rng:
            fits.append(dask_adassp.dask_adassp(*args[:2], 1.0, 1.0, 1.0, 1e-6, rng,
                                                privacy_unit=args[2], max_rows_per_unit=2,
                                                groups=3, columns=names))
    expected, fit = fits
    assert fit.truncated == expected.truncated == ROWS // 2
    if unit == "user":
        assert fit.fit.receipt.to_dict() == expected.fit.receipt.to_dict()
        assert fit.fit.coefficients.tobytes() == expected.fit.coefficients.tobytes()
    else:
        assert fit.fit.receipt.max_rows_per_unit == expected.fit.receipt.max_rows_per_unit == 2
        assert fit.fit.receipt.sigma_gram == expected.fit.receipt.sigma_gram


def test_converting_a_frame_computes_nothing(table):
    calls = []

    def part(a, b):
        calls.append((a, b))
        return table.iloc[a:b]

    frame = dd.from_delayed([dask.delayed(part)(0, 2000), dask.delayed(part)(2000, ROWS)],
                            meta=table.iloc[:0])
    blocks = dask_frame.as_rows(frame)
    dask_frame.unit_arrays(frame, "user")
    dask_frame.unit_arrays(frame, "name", NAMES)
    assert calls == [] and np.isnan(blocks.shape[0])
    assert dask_frame.row_count(blocks) == ROWS  # counting runs the partitions


def release_from(frame, **kwargs):
    with dpcov.Rng(71) as rng:
        return dask_release.dask_release(frame, 1.0, 1.0, 1e-6, rng, **kwargs)


@pytest.mark.parametrize("missing", [np.nan, pd.NA])
def test_a_missing_value_is_refused_as_nan_is_in_an_array(client, rows, table, missing):
    bad = rows.copy()
    bad[1000, 2] = np.nan
    with dpcov.Rng(71) as rng, pytest.raises(dpcov.NonFiniteError) as expected:
        dask_release.dask_release(lazy(bad), 1.0, 1.0, 1e-6, rng)
    t = table.astype({"c": "Float64"})
    t.loc[1000, "c"] = missing
    with pytest.raises(dpcov.NonFiniteError) as refused:
        release_from(frame_of(t), columns=NAMES)
    # The array's partitions have known lengths: its row is x's. A frame's partitions are
    # counted only by reading them, so its row is its partition's.
    assert "row 1000, column 2 (0-based) is not finite" in str(expected.value)
    assert "row 300 of partition 1, column 2 (0-based) is not finite" in str(refused.value)


@pytest.mark.parametrize("columns,message", [
    (["a", "note"], "not numeric"), (["a", "zz"], "no column"), (["a", "a"], "distinct"),
    ([], "distinct")])
def test_bad_columns_are_refused_before_any_work(table, columns, message):
    with pytest.raises(ValueError, match=message):
        release_from(frame_of(table), columns=columns)


def test_columns_name_a_frames_columns_only(rows):
    with pytest.raises(ValueError, match="DataFrame"):
        release_from(lazy(rows), columns=NAMES)


def test_a_frame_without_numeric_columns_is_refused(table):
    with pytest.raises(ValueError, match="no integer or floating-point column"):
        release_from(frame_of(table[["note", "name"]]))


def test_adassp_needs_its_response_by_name(rows, table):
    with dpcov.Rng(72) as rng, pytest.raises(ValueError, match="names its response"):
        dask_adassp.dask_adassp(frame_of(table), lazy(rows[:, 0]), 1.0, 1.0, 1.0, 1e-6, rng)
    with dpcov.Rng(72) as rng, pytest.raises(ValueError, match="response column, not"):
        dask_adassp.dask_adassp(frame_of(table), "a", 1.0, 1.0, 1.0, 1e-6, rng,
                                columns=["a", "b"])


def unit_release(frame, unit, **kwargs):
    with dpcov.Rng(73) as rng:
        return dask_units.dask_unit_release(frame, unit, 1.0, 4, 1.0, 1e-6, rng,
                                            columns=NAMES, **kwargs)


@pytest.mark.parametrize("value,dtype,message", [
    (2 ** 53 + 1, "int64", "at most 2\\^53"),  # would round to 2^53, merging two units
    (pd.NA, "Int64", "must not be missing"),
    (0.5, "float64", "whole numbers"),
    (None, "object", "must not be missing"),
    (7, "object", "all strings")])
def test_bad_unit_ids_are_refused(client, table, value, dtype, message):
    column = "name" if dtype == "object" else "user"
    t = table.astype({column: dtype})
    t.loc[5, column] = value
    with pytest.raises(ValueError, match=message):
        unit_release(frame_of(t), column)


def test_string_units_need_the_shuffle(table):
    with pytest.raises(ValueError, match="need the shuffle"):
        unit_release(frame_of(table), "name", shuffle=False)


@pytest.mark.parametrize("unit,message", [("zz", "no unit column"), ("a", "not a regressor")])
def test_the_unit_column_must_exist_apart_from_the_rows(table, unit, message):
    with pytest.raises(ValueError, match=message):
        unit_release(frame_of(table), unit)


def test_a_unit_column_of_dates_is_refused(table):
    t = table.assign(when=pd.Timestamp("2026-01-01"))
    with pytest.raises(ValueError, match="whole numbers or strings"):
        unit_release(frame_of(t), "when")


def test_integer_unit_ids_of_an_array_above_2_to_the_53_are_refused(client):
    # 2^53 + 1 rounds to 2^53 in the float64 unit column: the two units would merge into one.
    units = np.array([2 ** 53, 2 ** 53, 2 ** 53 + 1, 2 ** 53 + 1], dtype=np.int64)
    with dpcov.Rng(74) as rng, pytest.raises(ValueError, match="at most 2\\^53"):
        dask_units.dask_unit_release(da.from_array(np.full((4, 2), 0.1), chunks=(2, 2)),
                                     da.from_array(units, chunks=2), 1.0, 2, 1.0, 1e-6, rng)

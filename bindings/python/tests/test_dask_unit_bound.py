"""The private bound with privacy units on a local Dask cluster: the partitions' largest cells per
unit, combined per unit through the spill files, give the single-process histogram of units
exactly (each unit once, by its largest row norm, wherever its rows lie), so the same generator
gives the B of ``PrivateCovariance(bound="auto").fit(X, privacy_unit=)`` with the same draws, and
the release at it byte for byte, for arrays and DataFrames, whole-number and string ids."""

import math

import dask
import dask.array as da
import numpy as np
import pytest

import dpcov
import dpcov.dask_bound as dask_bound
from dask_fixtures import CHUNKS, ROWS, client, lazy, rows  # noqa: F401 (fixtures)
from dpcov.dask_unit_histogram import unit_norm_histogram
from dpcov.gram import unit_ids
from dpcov.private_bound import choose_bound_from, grid, unit_histogram

pd = pytest.importorskip("pandas")
dd = pytest.importorskip("dask.dataframe")

NAMES = ["a", "b", "c", "d", "e"]
K = 4  # rows kept per unit: no unit has more, so a release at B draws nothing in the groups


@pytest.fixture(scope="module")
def units():
    """Whole-number ids (negative and far apart) of units of 1 to 4 rows scattered over every
    partition, so that most units are split between partitions."""
    counts = np.tile([1, 2, 3, 4], ROWS // 10)
    codes = np.repeat(np.arange(len(counts)), counts)
    return codes[np.random.default_rng(61).permutation(ROWS)] * 7919 - 10 ** 6


def names_of(ids):
    return np.array([f"user-{i}" for i in ids], dtype=object)


def frame_of(rows, ids, chunks):
    """A Dask DataFrame of the rows (columns a to e) and the unit column, in the row blocks
    ``chunks``."""
    table = pd.DataFrame(rows, columns=NAMES)
    table["unit"] = ids
    cuts = np.cumsum((0,) + tuple(chunks))
    return dd.from_delayed([dask.delayed(table.iloc[a:b]) for a, b in zip(cuts[:-1], cuts[1:])],
                           meta=table.iloc[:0])


def one_process_bound(rows, ids, seed, epsilon, **options):
    """``(B, the generator's next word)`` from the one-process histogram of units."""
    with dpcov.Rng(seed) as rng:
        order, numbered = unit_ids(ids)
        bound = choose_bound_from(lambda g: unit_histogram(rows[order], numbered, g), None,
                                  epsilon, rng, **options)
        return bound, rng.next_u64()


@pytest.mark.parametrize("chunks,groups", [(CHUNKS, None), ((1000,) * 4, 1),
                                           ((300,) * 13 + (100,), 5)])
def test_the_cluster_histogram_of_units_is_the_single_process_one(client, rows, units, chunks,
                                                                  groups):
    candidates = grid(1e-3, 1e3, 1.25)
    x = da.from_array(rows, chunks=(chunks, 5))
    counts = unit_norm_histogram(x, da.from_array(units, chunks=(chunks,)), candidates, groups)
    expected = unit_histogram(rows, units, candidates)
    assert counts.dtype == np.int64 and counts.sum() == len(np.unique(units))
    np.testing.assert_array_equal(counts, expected)
    # Any order of the rows: the same histogram.
    order = np.random.default_rng(62).permutation(ROWS)
    shuffled = unit_norm_histogram(da.from_array(rows[order], chunks=(chunks, 5)),
                                   da.from_array(units[order], chunks=(chunks,)), candidates,
                                   groups)
    np.testing.assert_array_equal(shuffled, expected)


def test_a_unit_split_over_partitions_counts_once_by_its_largest_norm(client):
    # 50 units of 4 rows, one row in each of 4 partitions, the largest in a different one for
    # each unit: counting per partition (the broken variant) gives 200 units, 150 of them low.
    candidates = np.array([1.0, 2.0, 4.0])
    norms = np.full((4, 50), 0.5)
    norms[np.arange(50) % 4, np.arange(50)] = 3.0
    rows = np.column_stack([norms.reshape(-1), np.zeros(200)])
    ids = np.tile(np.arange(50), 4)
    x, u = da.from_array(rows, chunks=(50, 2)), da.from_array(ids, chunks=50)
    counts = unit_norm_histogram(x, u, candidates, groups=3)
    assert list(counts) == [0, 0, 50, 0]
    per_partition = sum(unit_histogram(rows[i:i + 50], ids[i:i + 50], candidates)
                        for i in range(0, 200, 50))
    assert list(per_partition) == [150, 0, 50, 0]


def test_groups_the_hash_leaves_empty_count_no_unit(client, rows):
    # 4 units of 3 rows in 16 groups: most groups read no row.
    candidates = grid(1e-3, 1e3, 1.25)
    ids = np.arange(12) // 3
    counts = unit_norm_histogram(da.from_array(rows[:12], chunks=(4, 5)),
                                 da.from_array(ids, chunks=4), candidates, groups=16)
    np.testing.assert_array_equal(counts, unit_histogram(rows[:12], ids, candidates))
    assert counts.sum() == 4


@pytest.mark.parametrize("rule,clipped", [("scan", None), ("exponential", None), ("scan", 40)])
def test_the_cluster_private_bound_of_units_is_the_single_process_one(client, rows, units, rule,
                                                                      clipped):
    x = rows * 3.0  # a B away from the grid's low end
    options = dict(quantile=0.95, lo=1e-6, hi=1e9, clipped=clipped, rule=rule)
    with dpcov.Rng(63) as rng:
        chosen = dask_bound.dask_private_bound(lazy(x), 0.5, rng, privacy_unit=lazy(units),
                                               groups=3, **options)
        after = rng.next_u64()
    assert (chosen, after) == one_process_bound(x, units, 63, 0.5, **options)


def test_the_cluster_bound_of_units_is_the_estimators(client, rows, units):
    est = dpcov.PrivateCovariance(epsilon=1.0, delta=1e-6, bound="auto", max_rows_per_unit=K,
                                  random_state=64)
    with pytest.warns(dpcov.SeededNoiseWarning):
        est.fit(rows, privacy_unit=units)
    with dpcov.Rng(64) as rng:
        chosen = dask_bound.dask_private_bound(lazy(rows), dpcov.private_bound.BOUND_STEP_SHARE,
                                               rng, quantile=0.95, lo=1e-6, hi=1e9,
                                               privacy_unit=lazy(units))
    assert chosen == est.bound_


@pytest.mark.parametrize("ids", ["whole", "string"])
def test_a_frames_bound_of_units_is_the_single_process_one(client, rows, units, ids):
    values = units if ids == "whole" else names_of(units)
    frame = frame_of(rows, values, CHUNKS)
    with dpcov.Rng(65) as rng:
        chosen = dask_bound.dask_private_bound(frame, 0.5, rng, columns=NAMES,
                                               privacy_unit="unit", quantile=0.95, lo=1e-6,
                                               hi=1e9, groups=2)
        after = rng.next_u64()
    assert (chosen, after) == one_process_bound(rows, values, 65, 0.5, quantile=0.95, lo=1e-6,
                                                hi=1e9)


@pytest.mark.parametrize("source,neighbour,clipped", [("array", "replace_one", None),
                                                      ("array", "add_remove", 40),
                                                      ("string", "replace_one", None)])
def test_the_release_at_a_bound_of_units_equals_the_single_process_one_byte_for_byte(
        client, rows, units, source, neighbour, clipped, tmp_path):
    if source == "array":
        x, unit, values = lazy(rows), lazy(units), units
    else:
        values = names_of(units)
        x, unit = frame_of(rows, values, CHUNKS), "unit"
    with dpcov.Rng(66) as rng:
        (released, receipt), bound = dask_bound.dask_release_auto(
            x, 1.0, 1e-6, rng, clipped=clipped, neighbour=neighbour, privacy_unit=unit,
            max_rows_per_unit=K, groups=3, spill_dir=tmp_path,
            columns=NAMES if source == "string" else None)
    rest = dpcov.private_bound.bound_step_rest(1.0, dpcov.private_bound.BOUND_STEP_SHARE)
    with dpcov.Rng(66) as rng:
        order, numbered = unit_ids(values)
        expected_bound = choose_bound_from(lambda g: unit_histogram(rows[order], numbered, g),
                                           None, dpcov.private_bound.BOUND_STEP_SHARE, rng,
                                           quantile=0.95, lo=1e-6, hi=1e9, clipped=clipped)
        expected, expected_receipt = dpcov.release_rows(
            "analyze_gauss", rows, expected_bound, rest, 1e-6, rng, privacy_unit=values,
            max_rows_per_unit=K, neighbour=neighbour)
    assert bound == expected_bound and receipt.epsilon == rest
    assert receipt == expected_receipt and receipt.n == len(np.unique(units))
    assert released.tobytes() == expected.tobytes()
    assert list(tmp_path.iterdir()) == []


def test_nan_ids_are_refused_before_a_draw_and_leave_no_spill_file(client, rows, units,
                                                                   tmp_path):
    ids = units.astype(float)
    ids[1234] = np.nan
    with dpcov.Rng(67) as rng:
        before = rng.save_state()
        with pytest.raises(ValueError, match="must not be missing"):
            dask_bound.dask_private_bound(lazy(rows), 0.5, rng, privacy_unit=lazy(ids),
                                          spill_dir=tmp_path)
        assert rng.save_state() == before
    assert list(tmp_path.iterdir()) == []


def test_a_release_that_would_refuse_units_is_refused_before_the_histogram(client, rows, units,
                                                                           tmp_path):
    info = dpcov.mechanism_info(dpcov.Mechanism.WISHART_JIANG)
    with dpcov.Rng(68) as rng:
        before = rng.save_state()
        with pytest.raises(ValueError, match="refused with privacy units"):
            dask_bound.dask_release_auto(lazy(rows), 1.0, 1e-6, rng, "wishart_jiang",
                                         privacy_unit=lazy(units), max_rows_per_unit=K,
                                         spill_dir=tmp_path)
        with pytest.raises(ValueError, match="need both privacy_unit"):
            dask_bound.dask_release_auto(lazy(rows), 1.0, 1e-6, rng, privacy_unit=lazy(units),
                                         spill_dir=tmp_path)
        assert rng.save_state() == before
    assert not info.unit_proof and list(tmp_path.iterdir()) == []


def test_an_advanced_ledger_takes_a_bound_of_units_and_its_release_as_one(client, rows, units,
                                                                         tmp_path):
    # The release is planned before the bound step draws, at the d it will release: a frame's
    # numeric columns without its unit column.
    frame = frame_of(rows, units, CHUNKS)
    planned = dask_bound.release_statement(frame, "analyze_gauss", 0.9, 1e-6, None,
                                           {"privacy_unit": "unit", "max_rows_per_unit": K})
    assert planned.dim == len(NAMES) and planned.epsilon == 0.9
    rest = dpcov.private_bound.bound_step_rest(1.0, dpcov.private_bound.BOUND_STEP_SHARE)
    total = dpcov.ledger.bound_step_total(dpcov.private_bound.BOUND_STEP_SHARE, rest)
    with dpcov.BudgetAccountant(10.0, 1e-5, accounting="advanced") as budget, \
            dpcov.Rng(68) as rng:
        (_, receipt), _ = dask_bound.dask_release_auto(
            frame, 1.0, 1e-6, rng, privacy_unit="unit", max_rows_per_unit=K, groups=3,
            spill_dir=tmp_path)
        assert receipt.dim == len(NAMES) and receipt.epsilon == rest
        assert budget.spent.charges == 1 and budget.spent.epsilon == total
